// DuckDB values → the JSON values of the engine's results: numbers, strings, booleans, null;
// DATE as `yyyy-MM-dd`; TIMESTAMP as `yyyy-MM-dd HH:mm:ss[.ffffff]` (trailing zeros trimmed);
// structs as objects, arrays as arrays, maps as objects keyed by the key's text.
import {
    DuckDBArrayValue, DuckDBBlobValue, DuckDBDateValue, DuckDBDecimalValue, DuckDBIntervalValue, DuckDBListValue,
    DuckDBMapValue, DuckDBStructValue, DuckDBTimestampMillisecondsValue, DuckDBTimestampNanosecondsValue,
    DuckDBTimestampSecondsValue, DuckDBTimestampTZValue, DuckDBTimestampValue, type DuckDBValue,
} from '@duckdb/node-api';
import { setOwn } from '../records.js';

/** A JSON value as the engine returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A result row: column name → value. */
export type Row = Record<string, JsonValue>;

const MICROS_PER_DAY = 86_400_000_000n;

/** Formats microseconds since the epoch as Spark prints a TIMESTAMP. */
export function formatTimestampMicros(micros: bigint): string {
    let days = micros / MICROS_PER_DAY;
    let rest = micros % MICROS_PER_DAY;
    if (rest < 0n) {
        rest += MICROS_PER_DAY;
        days -= 1n;
    }
    const date = new DuckDBDateValue(Number(days)).toString();
    const totalSeconds = rest / 1_000_000n;
    const fraction = rest % 1_000_000n;
    const hh = String(totalSeconds / 3600n).padStart(2, '0');
    const mm = String((totalSeconds / 60n) % 60n).padStart(2, '0');
    const ss = String(totalSeconds % 60n).padStart(2, '0');
    const frac = fraction === 0n ? '' : `.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
    return `${date} ${hh}:${mm}:${ss}${frac}`;
}

/** Converts one DuckDB value into its JSON form. */
export function toJsonValue(value: DuckDBValue): JsonValue {
    if (value === null || typeof value === 'boolean' || typeof value === 'string') {
        return value;
    }
    if (typeof value === 'number') {
        // NaN and infinities have no JSON number form; Spark prints them as these words.
        return Number.isFinite(value) ? value : String(value);
    }
    if (typeof value === 'bigint') {
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
    }
    if (value instanceof DuckDBDecimalValue) {
        const double = value.toDouble();
        return Number.isSafeInteger(Number(value.value)) || Math.abs(double) < 1e15 ? double : value.toString();
    }
    if (value instanceof DuckDBDateValue) {
        return value.toString();
    }
    if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
        return formatTimestampMicros(value.micros);
    }
    if (value instanceof DuckDBTimestampMillisecondsValue) {
        return formatTimestampMicros(value.millis * 1000n);
    }
    if (value instanceof DuckDBTimestampSecondsValue) {
        return formatTimestampMicros(value.seconds * 1_000_000n);
    }
    if (value instanceof DuckDBTimestampNanosecondsValue) {
        return formatTimestampMicros(value.nanos / 1000n);
    }
    if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
        return value.items.map(toJsonValue);
    }
    if (value instanceof DuckDBStructValue) {
        return Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, toJsonValue(v)]));
    }
    if (value instanceof DuckDBMapValue) {
        return Object.fromEntries(value.entries.map(e => [String(toJsonValue(e.key)), toJsonValue(e.value)]));
    }
    if (value instanceof DuckDBBlobValue) {
        return Buffer.from(value.bytes).toString('base64');
    }
    if (value instanceof DuckDBIntervalValue) {
        return intervalText(value);
    }
    return String(value);
}

function intervalText(value: DuckDBIntervalValue): string {
    const parts: string[] = [];
    if (value.months !== 0) {
        parts.push(`${value.months} months`);
    }
    if (value.days !== 0) {
        parts.push(`${value.days} days`);
    }
    if (value.micros !== 0n || parts.length === 0) {
        parts.push(`${Number(value.micros) / 1_000_000} seconds`);
    }
    return `INTERVAL ${parts.join(' ')}`;
}

/** Converts rows of DuckDB values into row objects keyed by column name. */
export function toRows(columns: { name: string }[], rows: DuckDBValue[][]): Row[] {
    return rows.map(row => {
        const out: Row = {};
        columns.forEach((c, i) => setOwn(out, c.name, toJsonValue(row[i])));
        return out;
    });
}
