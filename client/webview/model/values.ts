/**
 * Values of result rows as the preview shows and orders them: text for a cell, Spark's ordering
 * (NULLs first when ascending), and the numeric position of times and numbers on a chart axis.
 * Pure functions, no DOM: unit-tested with vitest.
 */
import type { JsonValue, ResultRow } from '../../../common/result-model.js';

/**
 * The text of a cell: `NULL` for SQL NULL, Spark-like `{a: 1}` / `[1, 2]` for structs and arrays,
 * a number of a `DECIMAL(p,s)` column (its `type`) with its `s` decimals.
 */
export function formatValue(value: JsonValue | undefined, type?: string): string {
    if (value === null || value === undefined) {
        return 'NULL';
    }
    if (typeof value === 'string') {
        return value;
    }
    const scale = typeof value === 'number' && type ? /^DECIMAL\(\d+,\s*(\d+)\)$/i.exec(type)?.[1] : undefined;
    if (typeof value === 'number' && scale !== undefined) {
        return value.toFixed(Number(scale));
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
        return String(value);
    }
    if (Array.isArray(value)) {
        return `[${value.map(formatNested).join(', ')}]`;
    }
    return `{${Object.entries(value).map(([k, v]) => `${k}: ${formatNested(v)}`).join(', ')}}`;
}

function formatNested(value: JsonValue): string {
    return value === null ? 'null' : formatValue(value);
}

const typeRank = (value: JsonValue): number => {
    if (value === null) {
        return 0;
    }
    switch (typeof value) {
        case 'boolean': return 1;
        case 'number': return 2;
        case 'string': return 3;
        default: return Array.isArray(value) ? 4 : 5;
    }
};

/**
 * Orders two values as Spark orders them ascending: NULL first, numbers numerically, strings by code
 * point (so `yyyy-MM-dd HH:mm:ss` times order by time), structs field by field, arrays element by
 * element. Values of different kinds order by kind, so that the order is total.
 */
export function compareValues(a: JsonValue | undefined, b: JsonValue | undefined): number {
    const x = a ?? null;
    const y = b ?? null;
    const rank = typeRank(x) - typeRank(y);
    if (rank !== 0) {
        // A large DECIMAL arrives as a string beside smaller ones as numbers.
        const nx = numericOf(x);
        const ny = numericOf(y);
        if (nx !== undefined && ny !== undefined) {
            return nx - ny;
        }
        return rank;
    }
    if (x === null || y === null) {
        return 0;
    }
    if (typeof x === 'number' && typeof y === 'number') {
        return x - y;
    }
    if (typeof x === 'string' && typeof y === 'string') {
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (typeof x === 'boolean' && typeof y === 'boolean') {
        return Number(x) - Number(y);
    }
    if (Array.isArray(x) && Array.isArray(y)) {
        for (let i = 0; i < Math.min(x.length, y.length); i++) {
            const c = compareValues(x[i], y[i]);
            if (c !== 0) {
                return c;
            }
        }
        return x.length - y.length;
    }
    const fx = Object.values(x as Record<string, JsonValue>);
    const fy = Object.values(y as Record<string, JsonValue>);
    for (let i = 0; i < Math.min(fx.length, fy.length); i++) {
        const c = compareValues(fx[i], fy[i]);
        if (c !== 0) {
            return c;
        }
    }
    return fx.length - fy.length;
}

function numericOf(value: JsonValue): number | undefined {
    if (typeof value === 'number') {
        return value;
    }
    if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
        return Number(value);
    }
    return undefined;
}

/** Whether two values are equal (NULL equals NULL: the null-safe comparison SCD2 uses). */
export function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
    return compareValues(a, b) === 0 && typeRank(a ?? null) === typeRank(b ?? null);
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?)?$/;

/**
 * The position of a value on a proportional axis: milliseconds since the epoch (UTC) for DATE and
 * TIMESTAMP text, the number itself for numbers; undefined for anything else (which then gets an
 * evenly spaced axis).
 */
export function numericPosition(value: JsonValue): number | undefined {
    if (typeof value === 'number') {
        return value;
    }
    if (typeof value === 'string') {
        const m = TIME.exec(value);
        if (m) {
            const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = m;
            const ms = frac ? Math.round(Number(`0${frac}`) * 1000) : 0;
            return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
        }
    }
    return undefined;
}

/** Whether a value is DATE or TIMESTAMP text. */
export function isTimeText(value: JsonValue): value is string {
    return typeof value === 'string' && TIME.test(value);
}

/** A stable text key of a row's values in column order (for multiset matching of rows). */
export function rowKey(row: ResultRow, columns: readonly string[]): string {
    return JSON.stringify(columns.map(c => row[c] ?? null));
}

/** The key columns' values of a row, as `user_id=1, region=EU` (`types`: the SQL type of each column, for its text). */
export function describeKey(row: ResultRow, keys: readonly string[], types?: ReadonlyMap<string, string>): string {
    return keys.map(k => `${k}=${formatValue(row[k], types?.get(k))}`).join(', ');
}

/** The SQL type of each column by name, for {@link formatValue} (a DECIMAL shows its scale). */
export function columnTypes(columns: ReadonlyArray<{ readonly name: string; readonly type: string }>): Map<string, string> {
    return new Map(columns.map(c => [c.name, c.type]));
}
