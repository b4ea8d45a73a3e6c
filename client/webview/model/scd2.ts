/**
 * The SCD type 2 history picture as data: per key a lane of versions, each a bar from `__START_AT`
 * to `__END_AT` (an open end reaches the end of the axis), labelled with the values that changed
 * from the version before; and, for a selected version, the role each input event of its key
 * played (it opened the version, closed it, was applied in place, or lost to another event with
 * the same sequence), following the fold of docs/semantics.md §8.2.
 */
import { ChangeEventColumns, HistoryColumns, type JsonValue, type ResultColumn, type ResultRow } from '../../../common/result-model.js';
import { CharWidth, keyLabels } from './labels.js';
import { buildScale, type ScaleMode, type ValueScale } from './scale.js';
import { columnTypes, compareValues, describeKey, formatValue, rowKey, sameValue } from './values.js';

/** A changed value between two adjacent versions. */
export interface ValueChange {
    readonly column: string;
    readonly before: JsonValue;
    readonly after: JsonValue;
}

/** One version (one target row) on a key's lane. */
export interface Scd2Version {
    /** Index of the row in the rows the picture was built from. */
    readonly rowIndex: number;
    readonly start: JsonValue;
    /** NULL: the current version (open end). */
    readonly end: JsonValue;
    readonly open: boolean;
    readonly x1: number;
    readonly x2: number;
    /** The values that changed from the version just before (empty for a first version or one after a gap). */
    readonly changes: readonly ValueChange[];
    /** Follows a deleted period (or is the key's first version): labelled with all its values. */
    readonly fresh: boolean;
    /** The bar's label: the changed values, or all values of a fresh version. */
    readonly label: string;
    /** Full description for the tooltip and screen readers. */
    readonly description: string;
}

/** The versions of one key. */
export interface Scd2Lane {
    /** Stable id of the key (its values as JSON). */
    readonly keyId: string;
    readonly key: Readonly<Record<string, JsonValue>>;
    /** The whole key (`sku=GADGET-9, warehouse=north`): the lane's tooltip and accessible name. */
    readonly keyLabel: string;
    /** What fits beside the lane: the whole key, or the values that tell it from the other lanes (see `keyHeading`). */
    readonly shortLabel: string;
    /** Top of the lane in pixels. */
    readonly y: number;
    readonly versions: readonly Scd2Version[];
}

/** The history picture of an SCD2 dataset. */
export interface Scd2Picture {
    readonly width: number;
    readonly height: number;
    /** Width of the key labels at the left. */
    readonly gutter: number;
    readonly laneHeight: number;
    readonly axisHeight: number;
    readonly scale: ValueScale;
    readonly lanes: readonly Scd2Lane[];
    /** The key columns the short labels show values of, when they do not name them. */
    readonly keyHeading?: string;
    /** Keys that pass the filter, and how many lanes are drawn (at most `maxKeys`). */
    readonly matchingKeys: number;
    readonly totalKeys: number;
}

/** Options of {@link scd2Picture}. */
export interface Scd2Options {
    readonly width: number;
    readonly mode: ScaleMode;
    /** Case-insensitive text the key's values must contain. */
    readonly filter?: string;
    readonly maxKeys?: number;
    readonly gutter?: number;
    readonly laneHeight?: number;
}

const isHidden = (name: string): boolean => name.startsWith('__');

/** The data columns of a history dataset: every column but the keys and the `__` columns AUTO CDC adds. */
export function dataColumns(columns: readonly ResultColumn[], keys: readonly string[]): string[] {
    const keySet = new Set(keys.map(k => k.toLowerCase()));
    return columns.map(c => c.name).filter(n => !keySet.has(n.toLowerCase()) && !isHidden(n));
}

/** The target's name for a key column as written in KEYS (columns are case-insensitive). */
export function resolveKeys(columns: readonly ResultColumn[], keys: readonly string[]): string[] {
    return keys.map(k => columns.find(c => c.name.toLowerCase() === k.toLowerCase())?.name ?? k);
}

function describeValues(row: ResultRow, columns: readonly string[], types: ReadonlyMap<string, string>): string {
    return columns.map(c => `${c}=${formatValue(row[c], types.get(c))}`).join(', ');
}

/** Groups rows by key (first appearance order), each group sorted by `startColumn`. */
export function groupByKey(rows: readonly ResultRow[], keys: readonly string[], startColumn: string): Map<string, number[]> {
    const groups = new Map<string, number[]>();
    rows.forEach((row, index) => {
        const id = rowKey(row, keys);
        const group = groups.get(id);
        if (group) {
            group.push(index);
        } else {
            groups.set(id, [index]);
        }
    });
    for (const group of groups.values()) {
        group.sort((a, b) => compareValues(rows[a][startColumn], rows[b][startColumn]) || a - b);
    }
    return groups;
}

/** Builds the SCD2 history picture of a dataset's rows. */
export function scd2Picture(rows: readonly ResultRow[], columns: readonly ResultColumn[], keyNames: readonly string[], options: Scd2Options): Scd2Picture {
    const keys = resolveKeys(columns, keyNames);
    const data = dataColumns(columns, keys);
    const types = columnTypes(columns);
    const text = (row: ResultRow, column: string): string => formatValue(row[column], types.get(column));
    // Key labels take at most a quarter of a narrow picture.
    const gutter = options.gutter ?? Math.min(160, Math.round(options.width / 4));
    const laneHeight = options.laneHeight ?? 30;
    const axisHeight = 44;
    const maxKeys = options.maxKeys ?? 200;
    const { startAt, endAt } = HistoryColumns;
    const groups = groupByKey(rows, keys, startAt);
    const needle = (options.filter ?? '').trim().toLowerCase();
    const matching = [...groups.entries()].filter(([, indexes]) =>
        needle === '' || keys.some(k => text(rows[indexes[0]], k).toLowerCase().includes(needle)));
    const shown = matching.slice(0, maxKeys);
    const scale = buildScale(shown.flatMap(([, indexes]) => indexes.flatMap(i => [rows[i][startAt], rows[i][endAt]])), gutter + 8, options.width - 12, options.mode);
    const lanes: Scd2Lane[] = shown.map(([keyId, indexes], laneIndex) => {
        const key = Object.fromEntries(keys.map(k => [k, rows[indexes[0]][k] ?? null]));
        let previous: ResultRow | undefined;
        const versions = indexes.map((rowIndex): Scd2Version => {
            const row = rows[rowIndex];
            const start = row[startAt] ?? null;
            const end = row[endAt] ?? null;
            const adjacent = previous !== undefined && previous[endAt] !== null && sameValue(previous[endAt], start);
            const changes = adjacent
                ? data.filter(c => !sameValue(previous![c], row[c])).map(c => ({ column: c, before: previous![c] ?? null, after: row[c] ?? null }))
                : [];
            const fresh = !adjacent;
            const changeText = (c: ValueChange, value: JsonValue) => formatValue(value, types.get(c.column));
            const label = fresh ? data.map(c => text(row, c)).join(', ') : changes.map(c => `${c.column}=${changeText(c, c.after)}`).join(', ');
            const period = `${formatValue(start)} → ${end === null ? 'open' : formatValue(end)}`;
            const what = fresh
                ? `${previous ? 'after a deleted period' : 'first version'}: ${describeValues(row, data, types)}`
                : changes.length > 0
                    ? changes.map(c => `${c.column}: ${changeText(c, c.before)} → ${changeText(c, c.after)}`).join('; ')
                    : 'no value shown changed (an untracked column may have)';
            previous = row;
            return {
                rowIndex, start, end, open: end === null, x1: scale.position(start), x2: scale.position(end),
                changes, fresh, label: label || '(no data columns)', description: `${describeKey(row, keys, types)}, ${period}, ${what}`,
            };
        });
        return { keyId, key, keyLabel: describeKey(rows[indexes[0]], keys, types), shortLabel: '', y: axisHeight + laneIndex * laneHeight, versions };
    });
    const short = keyLabels(shown.map(([, indexes]) => keys.map(k => text(rows[indexes[0]], k))), keys, Math.floor((gutter - 8) / CharWidth));
    return {
        width: options.width, height: axisHeight + lanes.length * laneHeight + 8, gutter, laneHeight, axisHeight, scale,
        lanes: lanes.map((lane, i) => ({ ...lane, shortLabel: short.labels[i] })), keyHeading: short.heading,
        matchingKeys: matching.length, totalKeys: groups.size,
    };
}

/** The role an input event played for a selected version. */
export type EventRole = 'opened' | 'closed' | 'in-place' | 'superseded' | 'other';

/** One input event of a key, classified against a selected version. */
export interface ClassifiedEvent {
    readonly row: ResultRow;
    readonly sequence: JsonValue;
    readonly change: string;
    readonly role: EventRole;
    /** It arrived after an event of the same key with a later sequence (an out-of-order event). */
    readonly late: boolean;
    readonly description: string;
}

const roleText: Record<EventRole, (change: string) => string> = {
    opened: () => 'opened this version',
    closed: change => (change === 'delete' ? 'closed this version (delete)' : 'closed this version (the next version starts here)'),
    'in-place': () => 'applied in place (tracked values unchanged; untracked values updated)',
    superseded: () => 'dropped: another event of this key has the same sequence and wins',
    other: () => 'belongs to another version',
};

/**
 * Classifies the events of one key (engine `readChangeEvents`: `_sequence`, `_change`, `_arrival`)
 * against the version `[start, end)`. At equal sequence a delete wins over upserts, and among
 * upserts the one that arrived last (docs/semantics.md §6.2); the losers are `superseded`. The winner at `start`
 * opened the version, the winner at `end` closed it, and upserts strictly between were applied in
 * place (they continued the version).
 */
export function classifyEvents(events: readonly ResultRow[], start: JsonValue, end: JsonValue): ClassifiedEvent[] {
    const { sequence, change, arrival } = ChangeEventColumns;
    const seqOf = (row: ResultRow): JsonValue => row[sequence] ?? null;
    const arrivalOf = (row: ResultRow): number => Number(row[arrival] ?? 0);
    // The winning event of each distinct sequence value.
    const winners = new Set<ResultRow>();
    const bySequence = new Map<string, ResultRow[]>();
    for (const row of events) {
        const id = JSON.stringify(seqOf(row));
        bySequence.set(id, [...(bySequence.get(id) ?? []), row]);
    }
    for (const group of bySequence.values()) {
        const deletes = group.filter(r => r[change] === 'delete');
        const pool = deletes.length > 0 ? deletes : group;
        winners.add(pool.reduce((best, r) => (arrivalOf(r) > arrivalOf(best) ? r : best)));
    }
    const inside = (seq: JsonValue): boolean => compareValues(seq, start) > 0 && (end === null || compareValues(seq, end) < 0);
    const within = (seq: JsonValue): boolean => sameValue(seq, start) || inside(seq) || (end !== null && sameValue(seq, end));
    return events.map(row => {
        const seq = seqOf(row);
        const kind = String(row[change] ?? 'upsert');
        let role: EventRole = 'other';
        if (!winners.has(row)) {
            role = within(seq) ? 'superseded' : 'other';
        } else if (sameValue(seq, start) && kind === 'upsert') {
            role = 'opened';
        } else if (end !== null && sameValue(seq, end)) {
            role = 'closed';
        } else if (inside(seq) && kind === 'upsert') {
            role = 'in-place';
        }
        const late = events.some(other => other !== row && arrivalOf(other) < arrivalOf(row) && compareValues(seqOf(other), seq) > 0);
        const description = `${roleText[role](kind)}${late ? '; arrived late (after an event with a later sequence)' : ''}`;
        return { row, sequence: seq, change: kind, role, late, description };
    });
}
