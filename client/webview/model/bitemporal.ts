/**
 * The bitemporal picture as data (docs/semantics.md §9): business time across, system time down, one rectangle
 * per row spanning `[__START_AT, __END_AT)` × `[__SYSTEM_START_AT, __SYSTEM_END_AT)`, one panel per
 * key. The system-time steps are the distinct system times of the rows: at step `t` the table
 * believed the rows with `__SYSTEM_START_AT <= t < __SYSTEM_END_AT` (an open system end: still
 * believed).
 */
import { HistoryColumns, type JsonValue, type ResultColumn, type ResultRow } from '../../../common/result-model.js';
import { buildScale, type ScaleMode, type ValueScale } from './scale.js';
import { CharWidth, keyLabels } from './labels.js';
import { dataColumns, groupByKey, resolveKeys } from './scd2.js';
import { columnTypes, compareValues, describeKey, formatValue, sameValue } from './values.js';

/** One row of a bitemporal table as a rectangle. */
export interface BitemporalRect {
    readonly rowIndex: number;
    readonly x1: number;
    readonly x2: number;
    /** Pixel offsets inside the key's panel. */
    readonly y1: number;
    readonly y2: number;
    readonly openBusinessEnd: boolean;
    readonly openSystemEnd: boolean;
    readonly label: string;
    readonly description: string;
    readonly systemStart: JsonValue;
    readonly systemEnd: JsonValue;
}

/** The rectangles of one key. */
export interface BitemporalPanel {
    readonly keyId: string;
    /** The whole key: the panel's tooltip and accessible name. */
    readonly keyLabel: string;
    /** What fits as the panel's title: the whole key, or the values that tell it from the other panels (under `keyHeading`). */
    readonly shortLabel: string;
    /** Top of the panel in the picture. */
    readonly top: number;
    readonly height: number;
    readonly rects: readonly BitemporalRect[];
}

/** The whole picture. */
export interface BitemporalPicture {
    readonly width: number;
    readonly height: number;
    readonly business: ValueScale;
    /** Maps a system time to a y offset below a panel's header. */
    readonly system: ValueScale;
    /** Height of a panel's header (its key label) above the system-time bands. */
    readonly panelHeader: number;
    readonly steps: readonly JsonValue[];
    readonly panels: readonly BitemporalPanel[];
    /** The key columns the short labels show values of, when they do not name them. */
    readonly keyHeading?: string;
    readonly matchingKeys: number;
    readonly totalKeys: number;
}

/** Options of {@link bitemporalPicture}. */
export interface BitemporalOptions {
    readonly width: number;
    readonly mode: ScaleMode;
    readonly filter?: string;
    readonly maxKeys?: number;
    /** Left margin for the system-time labels. */
    readonly gutter?: number;
    readonly stepHeight?: number;
}

/** The distinct system times at which the table's beliefs changed, in order. */
export function systemSteps(rows: readonly ResultRow[]): JsonValue[] {
    const { systemStartAt, systemEndAt } = HistoryColumns;
    const values = rows.flatMap(r => [r[systemStartAt] ?? null, r[systemEndAt] ?? null]).filter(v => v !== null).sort(compareValues);
    return values.filter((v, i) => i === 0 || !sameValue(values[i - 1], v));
}

/** Whether the table believed a row at system time `at`. */
export function believedAt(row: ResultRow, at: JsonValue): boolean {
    const start = row[HistoryColumns.systemStartAt] ?? null;
    const end = row[HistoryColumns.systemEndAt] ?? null;
    return compareValues(start, at) <= 0 && (end === null || compareValues(at, end) < 0);
}

/** The rows the table believed at system time `at`, ordered by key and business start. */
export function beliefAt(rows: readonly ResultRow[], at: JsonValue): ResultRow[] {
    return rows.filter(r => believedAt(r, at));
}

/** Builds the bitemporal picture of a dataset's rows. */
export function bitemporalPicture(rows: readonly ResultRow[], columns: readonly ResultColumn[], keyNames: readonly string[], options: BitemporalOptions): BitemporalPicture {
    const keys = resolveKeys(columns, keyNames);
    const data = dataColumns(columns, keys);
    const { startAt, endAt, systemStartAt, systemEndAt } = HistoryColumns;
    const types = columnTypes(columns);
    const text = (row: ResultRow, column: string): string => formatValue(row[column], types.get(column));
    const gutter = options.gutter ?? Math.min(150, Math.round(options.width / 4));
    const maxKeys = options.maxKeys ?? 50;
    const stepHeight = options.stepHeight ?? 34;
    const groups = groupByKey(rows, keys, startAt);
    const needle = (options.filter ?? '').trim().toLowerCase();
    const matching = [...groups.entries()].filter(([, indexes]) =>
        needle === '' || keys.some(k => text(rows[indexes[0]], k).toLowerCase().includes(needle)));
    const shown = matching.slice(0, maxKeys);
    const shownRows = shown.flatMap(([, indexes]) => indexes.map(i => rows[i]));
    const steps = systemSteps(shownRows);
    const business = buildScale(shownRows.flatMap(r => [r[startAt] ?? null, r[endAt] ?? null]), gutter + 8, options.width - 12, options.mode);
    // One band per step: step i starts at i bands down, and the open end is one band below the last step.
    const bands = Math.max(1, steps.length);
    const panelBody = bands * stepHeight;
    const system = buildScale(steps, 0, panelBody, options.mode, 1 / bands);
    const header = 26;
    const axis = 40;
    let top = axis;
    const panels = shown.map(([keyId, indexes]): BitemporalPanel => {
        const rects = indexes.map((rowIndex): BitemporalRect => {
            const row = rows[rowIndex];
            const sysStart = row[systemStartAt] ?? null;
            const sysEnd = row[systemEndAt] ?? null;
            const end = row[endAt] ?? null;
            const label = data.map(c => text(row, c)).join(', ');
            const period = (a: JsonValue, b: JsonValue) => `${formatValue(a)} → ${b === null ? 'open' : formatValue(b)}`;
            return {
                rowIndex,
                x1: business.position(row[startAt] ?? null),
                x2: business.position(end),
                y1: header + system.position(sysStart),
                y2: header + system.position(sysEnd),
                openBusinessEnd: end === null,
                openSystemEnd: sysEnd === null,
                label,
                description: `${describeKey(row, keys, types)}: ${label}; business ${period(row[startAt] ?? null, end)}; believed ${period(sysStart, sysEnd)}`,
                systemStart: sysStart,
                systemEnd: sysEnd,
            };
        });
        const panel = { keyId, keyLabel: describeKey(rows[indexes[0]], keys, types), shortLabel: '', top, height: header + panelBody + 10, rects };
        top += panel.height;
        return panel;
    });
    // A panel's title has the picture's width (less the gutter) to itself.
    const short = keyLabels(shown.map(([, indexes]) => keys.map(k => text(rows[indexes[0]], k))), keys, Math.floor((options.width - 16) / CharWidth));
    return {
        width: options.width, height: top + 8, business, system, panelHeader: header, steps,
        panels: panels.map((p, i) => ({ ...p, shortLabel: short.labels[i] })), keyHeading: short.heading,
        matchingKeys: matching.length, totalKeys: groups.size,
    };
}
