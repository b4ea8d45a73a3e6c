/**
 * Axes of the history pictures: a map from sequence values (timestamps, dates, numbers, or anything
 * orderable) to pixels. `proportional` places times and numbers by their value; `even` spaces the
 * distinct values evenly (every change boundary gets the same room, which keeps short intervals
 * readable). Values that are not times or numbers always get the even scale.
 */
import type { JsonValue } from '../../../common/result-model.js';
import { compareValues, formatValue, numericPosition, sameValue } from './values.js';

/** How an axis spaces its values. */
export type ScaleMode = 'proportional' | 'even';

/** A tick of an axis. */
export interface AxisTick {
    readonly position: number;
    readonly label: string;
}

/** An axis from values to pixels in `[start, end]`; the open end ("until further notice") maps to `end`. */
export interface ValueScale {
    readonly mode: ScaleMode;
    readonly start: number;
    readonly end: number;
    /** The pixel of a value (NULL: the open end). */
    position(value: JsonValue): number;
    readonly ticks: readonly AxisTick[];
}

/**
 * Builds an axis for `values` (NULLs stand for open ends and are ignored) over the pixels
 * `[start, end]`. The last `openRoom` fraction of the axis is kept free for open ends, so that an
 * interval that never ended is visibly longer than any that did.
 */
export function buildScale(values: readonly JsonValue[], start: number, end: number, mode: ScaleMode, openRoom = 0.12): ValueScale {
    const distinct: JsonValue[] = [];
    for (const value of [...values].filter(v => v !== null).sort(compareValues)) {
        if (distinct.length === 0 || !sameValue(distinct[distinct.length - 1], value)) {
            distinct.push(value);
        }
    }
    const numeric = distinct.map(numericPosition);
    const proportional = mode === 'proportional' && distinct.length > 0 && numeric.every(n => n !== undefined);
    const usable = (end - start) * (1 - openRoom);
    const label = (value: JsonValue): string => formatValue(value);
    if (proportional) {
        const min = numeric[0]!;
        const max = numeric[numeric.length - 1]!;
        const span = max - min || 1;
        const at = (value: JsonValue): number => {
            const n = value === null ? undefined : numericPosition(value);
            return n === undefined ? end : start + ((n - min) / span) * usable;
        };
        return { mode: 'proportional', start, end, position: at, ticks: distinct.map(v => ({ position: at(v), label: label(v) })) };
    }
    // Even spacing: the i-th distinct value at i / (n - 1) of the usable width.
    const step = distinct.length > 1 ? usable / (distinct.length - 1) : 0;
    const index = (value: JsonValue): number => {
        let lo = 0;
        let hi = distinct.length - 1;
        while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            const c = compareValues(distinct[mid], value);
            if (c === 0) {
                return mid;
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        // Not one of the values the axis was built for: between its neighbours.
        return lo - 0.5;
    };
    const at = (value: JsonValue): number => (value === null ? end : start + index(value) * step);
    return { mode: 'even', start, end, position: at, ticks: distinct.map(v => ({ position: at(v), label: label(v) })) };
}
