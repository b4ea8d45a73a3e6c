/**
 * Text that has to fit beside the pictures: key labels that tell composite keys apart when there is
 * no room for all of them, and axis labels placed so that none overlaps another. Widths are
 * estimated from the character count of 11 px text (the pictures' font size). Pure functions,
 * unit-tested.
 */

/** Average width of a character of 11 px text, in pixels. */
export const CharWidth = 6.5;

/** The estimated width of a label in pixels. */
export function textWidth(text: string): number {
    return text.length * CharWidth;
}

/** `text` cut in the middle to at most `max` characters (`GADGET-9-NORTH` → `GADG…ORTH`): both ends usually matter. */
export function shortenMiddle(text: string, max: number): string {
    if (text.length <= max) {
        return text;
    }
    if (max <= 1) {
        return '…';
    }
    const head = Math.ceil((max - 1) / 2);
    const tail = max - 1 - head;
    return `${text.slice(0, head)}…${tail > 0 ? text.slice(-tail) : ''}`;
}

/** Labels for the keys of a picture's lanes, and what they show. */
export interface KeyLabels {
    /** One label per key, in order. */
    readonly labels: readonly string[];
    /** The key columns the labels show values of, as a heading (`sku · warehouse`); undefined when each label names its columns. */
    readonly heading?: string;
}

/**
 * Labels of at most `maxChars` characters for keys given as the text of their key columns' values
 * (`values[i][c]` for key `i`, column `names[c]`). When `name=value, ...` fits, that is the label.
 * Otherwise the columns whose value is the same for every key are left out, the others' values are
 * joined with ` · ` under a heading naming those columns, and values still too long are cut in the
 * middle; when labels would then read alike, each value is shown around where the values differ
 * (`…A-build…` and `…B-build…` for `north-A-building` and `north-B-building`).
 */
export function keyLabels(values: ReadonlyArray<readonly string[]>, names: readonly string[], maxChars: number): KeyLabels {
    const full = values.map(v => names.map((n, c) => `${n}=${v[c]}`).join(', '));
    if (full.every(l => l.length <= maxChars)) {
        return { labels: full };
    }
    const varying = names.map((_, c) => c).filter(c => values.some(v => v[c] !== values[0][c]));
    const shown = varying.length > 0 ? varying : names.map((_, c) => c);
    const separator = ' · ';
    const budget = Math.max(3, Math.floor((maxChars - separator.length * (shown.length - 1)) / shown.length));
    let labels = values.map(v => shown.map(c => shortenMiddle(v[c], budget)).join(separator));
    if (new Set(labels).size < new Set(values.map(v => shown.map(c => v[c]).join('\u0000'))).size) {
        // Cut in the middle, two keys read the same: show each value around where the values differ.
        const starts = shown.map(c => differenceAt(values.map(v => v[c])));
        labels = values.map(v => shown.map((c, i) => around(v[c], starts[i], budget)).join(separator));
    }
    return { labels, heading: shown.map(c => names[c]).join(separator) };
}

/** Where the values first differ (the length of their common prefix). */
function differenceAt(values: readonly string[]): number {
    let at = 0;
    while (values.every(v => at < v.length && v[at] === values[0][at])) {
        at++;
    }
    return at;
}

/** `text` cut to `max` characters around `at`, with an ellipsis for each cut end. */
function around(text: string, at: number, max: number): string {
    if (text.length <= max) {
        return text;
    }
    const from = Math.max(0, Math.min(at - 2, text.length - (max - 1)));
    const head = from > 0 ? '…' : '';
    const room = max - head.length;
    const body = text.slice(from, from + room);
    return from + room < text.length ? `${head}${body.slice(0, -1)}…` : `${head}${body}`;
}

/** A label to place on an axis at `position` (the pixel along the axis). */
export interface AxisLabel {
    readonly position: number;
    readonly label: string;
}

/**
 * A placed label: its row, the extent `[from, to]` it covers, and where to draw it: at `at` with the
 * text anchor `anchor` (across an axis), or centred on `(from + to) / 2` (down one).
 */
export type PlacedLabel<T extends AxisLabel> = T & {
    readonly row: number; readonly anchor: 'start' | 'middle' | 'end'; readonly at: number; readonly from: number; readonly to: number;
};

/** Options of {@link placeLabels}. */
export interface PlaceOptions {
    /** The axis' pixel range; labels do not run beyond it. */
    readonly start: number;
    readonly end: number;
    /** Rows of labels available (labels of one row never overlap). */
    readonly rows?: number;
    /** The extent of a label along the axis (its text width across; its line height down). */
    readonly size?: (label: string) => number;
    /** Empty pixels kept between two labels of a row. */
    readonly gap?: number;
    /** Extents already taken in a row (another label drawn there, such as `open →`). */
    readonly reserved?: ReadonlyArray<{ readonly row: number; readonly from: number; readonly to: number }>;
}

/**
 * Places labels along an axis so that no two overlap: each is centred on its position (anchored to
 * an end of the axis when it would run over it) in the first row where it fits after the labels
 * placed before it; a label that fits in no row is left out (its tick keeps its grid line). The
 * first and last labels are tried first, so that the axis' range is always labelled.
 */
export function placeLabels<T extends AxisLabel>(labels: readonly T[], options: PlaceOptions): Array<PlacedLabel<T>> {
    const rows = Math.max(1, options.rows ?? 1);
    const size = options.size ?? textWidth;
    const gap = options.gap ?? 8;
    const taken: Array<Array<{ from: number; to: number }>> = Array.from({ length: rows }, () => []);
    for (const r of options.reserved ?? []) {
        taken[Math.min(rows - 1, Math.max(0, r.row))].push({ from: r.from, to: r.to });
    }
    const order = labels.map((_, i) => i);
    if (order.length > 2) {
        // The ends first, then the rest in order.
        order.splice(order.length - 1, 1);
        order.splice(1, 0, labels.length - 1);
    }
    const placed: Array<PlacedLabel<T> | undefined> = labels.map(() => undefined);
    for (const i of order) {
        const item = labels[i];
        const width = size(item.label);
        let from = item.position - width / 2;
        let anchor: 'start' | 'middle' | 'end' = 'middle';
        let at = item.position;
        if (from < options.start) {
            at = Math.max(options.start, item.position);
            from = at;
            anchor = 'start';
        } else if (from + width > options.end) {
            at = Math.min(options.end, item.position);
            from = at - width;
            anchor = 'end';
        }
        const to = from + width;
        const row = taken.findIndex(extents => extents.every(e => to + gap <= e.from || from >= e.to + gap));
        if (row >= 0) {
            taken[row].push({ from, to });
            placed[i] = { ...item, row, anchor, at, from, to };
        }
    }
    return placed.filter((p): p is PlacedLabel<T> => p !== undefined);
}
