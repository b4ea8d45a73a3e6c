/**
 * Comparing the rows a test expects with the rows an update produced. Actual values are the engine's
 * (as `run --json` prints them: DATE `yyyy-MM-dd`, TIMESTAMP `yyyy-MM-dd HH:mm:ss[.ffffff]`, structs as
 * maps, arrays as lists); an expected value is read as a value of the actual column's type, so that
 * `price: 2.50` matches DECIMAL 2.5, `id: "7"` matches INT 7 and `at: 2025-01-01T09:00:00` matches the
 * TIMESTAMP `2025-01-01 09:00:00`. Rows compare on the columns the test lists, as a multiset unless
 * the test asks for order.
 */
import { ownValue, parseSparkType, type DataType, type JsonValue } from '../../../engine/src/index.js';
import type { TestRow, TestValue } from './test-file.js';

/** A column of the actual dataset. */
export interface ComparedColumn {
    readonly name: string;
    /** Spark type name as the engine reports it (`INT`, `DECIMAL(8,2)`, `ARRAY<STRING>`). */
    readonly type: string;
}

/** The outcome of comparing one dataset's rows. */
export interface RowDiff {
    /** The columns compared (the ones the test lists, in the dataset's order; all when it lists none or names an unknown one). */
    readonly columns: readonly ComparedColumn[];
    /** Expected rows not found (as written in the test). */
    readonly missing: readonly TestRow[];
    /** Produced rows not expected (only the compared columns). */
    readonly unexpected: ReadonlyArray<Record<string, JsonValue>>;
    /** Every produced row on the compared columns, in the engine's order (what `--update` writes). */
    readonly actual: ReadonlyArray<Record<string, JsonValue>>;
    /** Columns the test lists that the dataset does not have. */
    readonly unknownColumns: readonly string[];
    /**
     * The produced rows lined up with the expected ones (a row matching an expected row at its
     * position, then the unexpected rows), for a side-by-side diff; undefined for an ordered comparison.
     */
    readonly aligned?: ReadonlyArray<Record<string, JsonValue>>;
    /** Positions (0-based) of expected rows that differ, for an ordered comparison. */
    readonly misplaced?: readonly number[];
}

/** Whether a diff found no difference. */
export function isSame(diff: RowDiff): boolean {
    return diff.missing.length === 0 && diff.unexpected.length === 0 && diff.unknownColumns.length === 0 && (diff.misplaced?.length ?? 0) === 0;
}

/** Compares expected rows with a dataset's rows. */
export function compareRows(expected: readonly TestRow[], columns: readonly ComparedColumn[], rows: ReadonlyArray<Record<string, JsonValue>>, ordered: boolean): RowDiff {
    const listed = new Map<string, string>();
    for (const row of expected) {
        for (const key of Object.keys(row)) {
            if (!listed.has(key.toLowerCase())) {
                listed.set(key.toLowerCase(), key);
            }
        }
    }
    const byName = new Map(columns.map(c => [c.name.toLowerCase(), c]));
    const unknownColumns = [...listed.entries()].filter(([lower]) => !byName.has(lower)).map(([, name]) => name);
    const compared = listed.size === 0 ? [...columns] : columns.filter(c => listed.has(c.name.toLowerCase()));
    const types = compared.map(c => typeOf(c.type));
    const expectedKey = (row: TestRow): string => {
        const lower = new Map(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
        return JSON.stringify(compared.map((c, i) => canonical(lower.get(c.name.toLowerCase()) ?? null, types[i])));
    };
    const actualKey = (row: Record<string, JsonValue>): string => JSON.stringify(compared.map((c, i) => canonical(ownValue(row, c.name) ?? null, types[i])));
    const actual = rows.map(row => Object.fromEntries(compared.map(c => [c.name, ownValue(row, c.name) ?? null])));
    if (unknownColumns.length > 0) {
        return { columns: [...columns], missing: [], unexpected: [], actual, unknownColumns };
    }
    if (ordered) {
        const misplaced: number[] = [];
        const missing: TestRow[] = [];
        const unexpected: Array<Record<string, JsonValue>> = [];
        const n = Math.max(expected.length, rows.length);
        for (let i = 0; i < n; i++) {
            const e = expected[i];
            const a = rows[i];
            if (e && a && expectedKey(e) === actualKey(a)) {
                continue;
            }
            if (e) {
                missing.push(e);
                misplaced.push(i);
            }
            if (a) {
                unexpected.push(actual[i]);
            }
        }
        return { columns: compared, missing, unexpected, actual, unknownColumns, misplaced };
    }
    const remaining = new Map<string, number[]>();
    rows.forEach((row, i) => {
        const key = actualKey(row);
        const list = remaining.get(key);
        if (list) {
            list.push(i);
        } else {
            remaining.set(key, [i]);
        }
    });
    const missing: TestRow[] = [];
    const aligned: Array<Record<string, JsonValue>> = [];
    for (const row of expected) {
        const list = remaining.get(expectedKey(row));
        if (list && list.length > 0) {
            aligned.push(actual[list.shift()!]);
        } else {
            missing.push(row);
        }
    }
    const left = [...remaining.values()].flat().sort((a, b) => a - b);
    aligned.push(...left.map(i => actual[i]));
    return { columns: compared, missing, unexpected: left.map(i => actual[i]), actual, unknownColumns, aligned };
}

function typeOf(name: string): DataType | undefined {
    try {
        return parseSparkType(name);
    } catch {
        // A type the parser does not know compares values as they are.
        return undefined;
    }
}

/** The comparable form of a value read as a value of a type (the same for both sides). */
export function canonical(value: TestValue | JsonValue | undefined, type: DataType | undefined): JsonValue {
    if (value === null || value === undefined) {
        return null;
    }
    switch (type?.kind) {
        case 'tinyint': case 'smallint': case 'int': case 'bigint': case 'float': case 'double': case 'decimal': {
            if (typeof value === 'number') {
                return value;
            }
            if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
                // A value beyond double precision (a large DECIMAL as text) keeps its digits.
                const n = Number(value);
                return Number.isSafeInteger(n) || !/^-?\d+$/.test(value.trim()) ? n : value.trim().replace(/^(-?)0+(?=\d)/, '$1');
            }
            return typeof value === 'string' ? value : JSON.stringify(value);
        }
        case 'boolean':
            if (value === 'true' || value === 'false') {
                return value === 'true';
            }
            return typeof value === 'boolean' ? value : String(value);
        case 'timestamp': case 'timestamp_ntz':
            return typeof value === 'string' ? timestampText(value) : String(value);
        case 'string': case 'char': case 'varchar': case 'date':
            return typeof value === 'object' ? JSON.stringify(value) : String(value);
        case 'array':
            return Array.isArray(value) ? value.map(v => canonical(v, type.element)) : JSON.stringify(value);
        case 'map':
            if (typeof value === 'object' && !Array.isArray(value)) {
                return Object.fromEntries(Object.keys(value).sort().map(k => [k, canonical(ownValue(value, k) ?? null, type.value)]));
            }
            return JSON.stringify(value);
        case 'struct':
            if (typeof value === 'object' && !Array.isArray(value)) {
                const fields = new Map(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
                return Object.fromEntries(type.fields.map(f => [f.name, canonical(fields.get(f.name.toLowerCase()) ?? null, f.type)]));
            }
            return JSON.stringify(value);
        default:
            return typeof value === 'object' ? sortKeys(value) : value;
    }
}

/** `2025-01-01T09:00:00.500000Z` → `2025-01-01 09:00:00.5` (the engine's UTC form). */
function timestampText(text: string): string {
    const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(?:Z|\+00:?00)?$/.exec(text.trim());
    if (!m) {
        return text;
    }
    const fraction = (m[4] ?? '').slice(0, 6).replace(/0+$/, '');
    return `${m[1]} ${m[2] ?? '00:00'}:${m[3] ?? '00'}${fraction ? `.${fraction}` : ''}`;
}

function sortKeys(value: TestValue[] | { [key: string]: TestValue } | JsonValue[] | { [key: string]: JsonValue }): JsonValue {
    if (Array.isArray(value)) {
        return value.map(v => (typeof v === 'object' && v !== null ? sortKeys(v) : v));
    }
    return Object.fromEntries(Object.keys(value).sort().map(k => {
        const v = ownValue(value, k) ?? null;
        return [k, typeof v === 'object' && v !== null ? sortKeys(v) : v];
    }));
}
