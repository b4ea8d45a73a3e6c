/**
 * Sample rows for a source that has none (issue 16 item 2), from what the pipeline requires of it
 * (`source-requirements.ts`): values that fit each column's type and the pipeline's predicates (the
 * literals the SQL compares against; values that pass and values that fail each expectation, except
 * those that would fail the update), and for the source of an AUTO CDC flow a change feed that
 * exercises it: several keys, inserts then updates, deletes, an event arriving late (out of sequence
 * order) and a duplicate, split over two files so that the second is an incremental update. The
 * source of a snapshot flow gets successive snapshots (a changed, an added and a dropped key).
 *
 * Pure: rows and file texts only, deterministic for a seed (its own small PRNG). Writing is
 * `sample-scaffold.ts`'s job.
 */
import { ownValue, setOwn } from '../../../engine/src/records.js';
import { typeToSql, quoteIdentifier, type TypeDescriptor } from '../../../engine/src/spark/spark-types.js';
import type { ColumnPredicate, FieldPredicate, RequiredColumn, SourceRequirement } from './source-requirements.js';
import type { SampleFormat } from '../../../engine/src/spark/sample-files.js';

/** A generated value: JSON-like; dates and timestamps as their Spark text. */
export type SampleValue = string | number | boolean | null | SampleValue[] | { [field: string]: SampleValue };

/** One generated row: column name → value (a Map: column names are the user's text). */
export type SampleRow = Map<string, SampleValue>;

/** Rows of one data file. */
export interface GeneratedFile {
    /** The file name (in the source's folder), or '' when the source's location is the file itself. */
    readonly name: string;
    readonly rows: SampleRow[];
}

/** What is generated for one source. */
export interface GeneratedSource {
    readonly source: SourceRequirement;
    readonly format: SampleFormat;
    readonly columns: readonly RequiredColumn[];
    readonly files: GeneratedFile[];
    /** What the feed exercises (`4 keys`, `late event`, ...), for the report. */
    readonly notes: string[];
}

/** Options of the generator. */
export interface GeneratorOptions {
    /** Rows per source (about: a change feed rounds to whole histories). Default 20. */
    readonly rows?: number;
    /** The PRNG seed. Default 1. */
    readonly seed?: number;
}

export const DefaultSampleRows = 20;

/** A small deterministic PRNG (mulberry32): the same seed gives the same samples on every machine. */
export function seededRandom(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6D2B79F5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** A seed per source, so that adding a source does not change the others' data. */
function sourceSeed(seed: number, key: string): number {
    let hash = seed >>> 0;
    for (let i = 0; i < key.length; i++) {
        hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
    }
    return hash;
}

const BaseTime = Date.UTC(2025, 0, 1, 8, 0, 0);
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function timestampText(ms: number): string {
    const d = new Date(ms);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function dateText(ms: number): string {
    return timestampText(ms).slice(0, 10);
}

const firstNames = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Margaret', 'Ken'];
const lastNames = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Hamilton', 'Thompson'];
const cities = ['London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Oslo', 'Lisbon', 'Vienna'];
const countries = ['GB', 'FR', 'DE', 'ES', 'IT', 'NO', 'PT', 'AT'];
const currencies = ['EUR', 'USD', 'GBP'];

/** A value for `column` of type `type`, number `n` in its family (same n, same value: joins meet). */
function baseValue(name: string, type: TypeDescriptor, n: number, random: () => number): SampleValue {
    const lower = name.toLowerCase();
    switch (type.kind) {
        case 'boolean':
            return n % 2 === 0;
        case 'tinyint': case 'smallint': case 'int': case 'bigint':
            return /id$|key$|_no$|num$/.test(lower) ? n + 1 : Math.floor(random() * 100) + 1;
        case 'float': case 'double':
            return Math.round(random() * 100000) / 100;
        case 'decimal': {
            const integerDigits = Math.max(1, Math.min(6, type.precision - type.scale));
            const value = random() * (10 ** integerDigits - 1);
            return Number(value.toFixed(type.scale));
        }
        case 'date':
            return dateText(BaseTime + n * 86_400_000);
        case 'timestamp': case 'timestamp_ntz':
            return timestampText(BaseTime + n * 3_600_000);
        case 'array':
            return [baseValue(`${name}_item`, type.element, n, random), baseValue(`${name}_item`, type.element, n + 1, random)];
        case 'map':
            return { [`k${n % 3}`]: baseValue(`${name}_value`, type.value, n, random) };
        case 'struct':
            return Object.fromEntries(type.fields.map(f => [f.name, baseValue(f.name, f.type, n, random)]));
        case 'binary':
            return `${name}_${n}`;
        default:
            return stringValue(lower, n);
    }
}

function stringValue(lower: string, n: number): string {
    if (lower.includes('email')) {
        return `user${n + 1}@example.com`;
    }
    if (/(^|_)(first_?name)$/.test(lower)) {
        return firstNames[n % firstNames.length];
    }
    if (/(^|_)(last_?name|surname)$/.test(lower)) {
        return lastNames[n % lastNames.length];
    }
    if (/(^|_)name$/.test(lower)) {
        return `${firstNames[n % firstNames.length]} ${lastNames[(n + Math.floor(n / firstNames.length)) % lastNames.length]}`;
    }
    if (/city/.test(lower)) {
        return cities[n % cities.length];
    }
    if (/country/.test(lower)) {
        return countries[n % countries.length];
    }
    if (/currency/.test(lower)) {
        return currencies[n % currencies.length];
    }
    return `${lower}_${n + 1}`;
}

/** A value that does not satisfy `=` / `IN` against these literals. */
function otherThan(values: readonly (string | number | boolean)[], name: string, n: number): string | number | boolean {
    const sample = values[0];
    if (typeof sample === 'number') {
        let candidate = Math.max(...(values as number[])) + 1 + n;
        while (values.includes(candidate)) {
            candidate++;
        }
        return candidate;
    }
    if (typeof sample === 'boolean') {
        return !sample;
    }
    return `OTHER_${name.toUpperCase()}_${n + 1}`;
}

function satisfies(value: SampleValue, predicate: ColumnPredicate): boolean {
    const [literal] = predicate.values;
    switch (predicate.op) {
        case 'null': return value === null;
        case 'notnull': return value !== null;
        case '=': return value === literal;
        case '<>': return value !== null && !predicate.values.includes(value as string);
        case 'in': return predicate.values.includes(value as string);
        case 'like': return typeof value === 'string' && likeMatches(value, String(literal));
        default: {
            if (value === null || literal === undefined) {
                return false;
            }
            const a = typeof value === 'number' ? value : String(value);
            const b = typeof literal === 'number' ? literal : String(literal);
            switch (predicate.op) {
                case '<': return a < b;
                case '<=': return a <= b;
                case '>': return a > b;
                default: return a >= b;
            }
        }
    }
}

function likeMatches(value: string, pattern: string): boolean {
    let i = 0;
    const match = (vi: number, pi: number): boolean => {
        if (++i > 10_000) {
            return false;
        }
        if (pi === pattern.length) {
            return vi === value.length;
        }
        const c = pattern[pi];
        if (c === '%') {
            for (let k = vi; k <= value.length; k++) {
                if (match(k, pi + 1)) {
                    return true;
                }
            }
            return false;
        }
        return vi < value.length && (c === '_' || c === value[vi]) && match(vi + 1, pi + 1);
    };
    return match(0, 0);
}

/** A value meeting a predicate (or, with `pass` false, failing it), fitting the type of the column (or struct field) `name`. */
function valueFor(predicate: ColumnPredicate, pass: boolean, name: string, type: TypeDescriptor, n: number): SampleValue | undefined {
    const literal = predicate.values[0];
    const numeric = typeof literal === 'number';
    switch (predicate.op) {
        case 'null': return pass ? null : undefined;
        case 'notnull': return pass ? undefined : null;
        case '=': return pass ? literal : otherThan(predicate.values, name, n);
        case '<>': return pass ? otherThan(predicate.values, name, n) : literal;
        case 'in': return pass ? predicate.values[n % predicate.values.length] : otherThan(predicate.values, name, n);
        case 'like': {
            const text = String(literal);
            const prefix = text.split(/[%_]/)[0];
            return pass ? text.replace(/%/g, `${n + 1}`).replace(/_/g, 'x') : `~${prefix}${n + 1}`;
        }
        default: {
            if (!numeric) {
                // Dates and timestamps compare as text in their ISO form.
                const base = String(literal);
                const after = pass === (predicate.op === '>' || predicate.op === '>=');
                return after ? base.replace(/^(\d{4})/, y => String(Number(y) + 1)) : base.replace(/^(\d{4})/, y => String(Number(y) - 1));
            }
            const up = predicate.op === '>' || predicate.op === '>=';
            const wantsAbove = pass === up;
            const step = isIntegralKind(type) ? 1 + (n % 5) : 0.5 + (n % 5);
            return wantsAbove ? literal + step : literal - step;
        }
    }
}

function isIntegralKind(type: TypeDescriptor): boolean {
    return type.kind === 'int' || type.kind === 'bigint' || type.kind === 'smallint' || type.kind === 'tinyint';
}

/**
 * Which rows pass (0), fail (1) or ignore (2) the predicates of a slot: `(a + slot·b) mod 3` with
 * `a = n mod 3`, `b = ⌊n/3⌋`. Slots 0, 1 and 2 are orthogonal: among the rows that pass one column's
 * predicate (a WHERE), some pass and some fail another's (an expectation downstream).
 */
function rowState(n: number, slot: number): number {
    return (n + slot * Math.floor(n / 3)) % 3;
}

/** A slot (see `rowState`) per column and struct field path that has predicates which may fail. */
interface PredicateSlots {
    readonly column: number;
    /** By the lower-cased field path joined with dots. */
    readonly fields: ReadonlyMap<string, number>;
}

const pathKey = (path: readonly string[]): string => path.map(p => p.toLowerCase()).join('.');

/** The slots of a source's columns, numbered in order (a column's own predicates, then its fields'). */
function predicateSlots(columns: readonly RequiredColumn[]): Map<RequiredColumn, PredicateSlots> {
    let next = 0;
    const slots = new Map<RequiredColumn, PredicateSlots>();
    for (const c of columns) {
        const column = c.predicates.some(p => !p.mustHold) ? next++ : 0;
        const fields = new Map<string, number>();
        for (const { path, predicate } of c.fieldPredicates) {
            if (!predicate.mustHold && !fields.has(pathKey(path))) {
                fields.set(pathKey(path), next++);
            }
        }
        slots.set(c, { column, fields });
    }
    return slots;
}

/**
 * The value of row `n` under predicates: of three rows, one passes a predicate, one fails it and one
 * has the plain value `plain` (which ones: `rowState`); the predicates take turns. A predicate that
 * must hold always does.
 */
function constrainedValue(name: string, type: TypeDescriptor, predicates: readonly ColumnPredicate[], n: number, slot: number, plain: SampleValue, varied = true): SampleValue {
    const must = predicates.filter(p => p.mustHold);
    const soft = predicates.filter(p => !p.mustHold);
    const candidates: SampleValue[] = [];
    const state = rowState(n, slot);
    if (soft.length > 0 && state !== 2 && varied) {
        const predicate = soft[Math.floor(n / 3) % soft.length];
        const v = valueFor(predicate, state === 0, name, type, n);
        if (v !== undefined) {
            candidates.push(v);
        }
    }
    for (const predicate of must) {
        const v = valueFor(predicate, true, name, type, n);
        if (v !== undefined) {
            candidates.push(v);
        }
    }
    candidates.push(plain);
    return candidates.find(v => must.every(p => satisfies(v, p))) ?? candidates[0];
}

/**
 * A value for a plain column of row `n`: literals the SQL compares with, and values passing and
 * failing each predicate — on the column, and on the fields of a struct column (`payload.status`).
 */
function columnValue(column: RequiredColumn, n: number, random: () => number, slots: ReadonlyMap<RequiredColumn, PredicateSlots>, pool = 8): SampleValue {
    const keyLike = column.roles.has('key') || column.roles.has('sequence') || column.roles.has('snapshotVersion');
    const group = column.roles.has('group') ? n % 3 : n % pool;
    const slot = slots.get(column);
    const value = constrainedValue(column.name, column.type, column.predicates, n, slot?.column ?? 0, baseValue(column.name, column.type, group, random), !keyLike);
    return column.fieldPredicates.length > 0 ? withFieldPredicates(value, column.type, column.fieldPredicates, n, slot?.fields) : value;
}

/** A struct value whose fields pass and fail the predicates on them (each field path in its own slot). */
function withFieldPredicates(value: SampleValue, type: TypeDescriptor, fieldPredicates: readonly FieldPredicate[], n: number, slots?: ReadonlyMap<string, number>): SampleValue {
    const paths = new Map<string, { path: readonly string[]; predicates: ColumnPredicate[] }>();
    for (const { path, predicate } of fieldPredicates) {
        const entry = paths.get(pathKey(path)) ?? { path, predicates: [] };
        entry.predicates.push(predicate);
        paths.set(pathKey(path), entry);
    }
    let result = value;
    for (const [key, { path, predicates }] of paths) {
        result = setField(result, type, path, (current, fieldType) => constrainedValue(path.at(-1)!, fieldType, predicates, n, slots?.get(key) ?? 0, current));
    }
    return result;
}

/** A copy of a struct value with the field at `path` replaced (fields matched case-insensitively, as Spark resolves them). */
function setField(value: SampleValue, type: TypeDescriptor, path: readonly string[], update: (current: SampleValue, type: TypeDescriptor) => SampleValue): SampleValue {
    if (path.length === 0) {
        return update(value, type);
    }
    if (type.kind !== 'struct' || value === null || typeof value !== 'object' || Array.isArray(value)) {
        return value;
    }
    const field = type.fields.find(f => f.name.toLowerCase() === path[0].toLowerCase());
    if (!field) {
        return value;
    }
    const record: { [field: string]: SampleValue } = { ...value };
    setOwn(record, field.name, setField(ownValue(value, field.name) ?? null, field.type, path.slice(1), update));
    return record;
}

function rowOf(columns: readonly RequiredColumn[], value: (c: RequiredColumn) => SampleValue): SampleRow {
    return new Map(columns.map(c => [c.name, value(c)]));
}

const hasRole = (columns: readonly RequiredColumn[], role: RequiredColumn['roles'] extends Set<infer R> ? R : never): RequiredColumn[] =>
    columns.filter(c => c.roles.has(role));

/** Generates the sample rows of one source. */
export function generateSource(source: SourceRequirement, options: GeneratorOptions = {}): GeneratedSource {
    const rows = Math.max(1, Math.floor(options.rows ?? DefaultSampleRows));
    const random = seededRandom(sourceSeed(options.seed ?? 1, source.key));
    const columns = source.columns;
    const format = source.format ?? (columns.some(c => ['struct', 'array', 'map'].includes(c.type.kind)) ? 'json' : 'csv');
    const split = !source.isFile;
    const snapshot = source.cdc.some(c => c.snapshot);
    const feed = source.cdc.some(c => !c.snapshot) && hasRole(columns, 'key').length > 0;
    if (feed) {
        return changeFeed(source, format, rows, random, split);
    }
    if (snapshot && hasRole(columns, 'key').length > 0) {
        return snapshots(source, format, rows, random, split);
    }
    const slots = predicateSlots(columns);
    const all = Array.from({ length: rows }, (_, n) => rowOf(columns, c => columnValue(c, n, random, slots)));
    return { source, format, columns, files: [{ name: split ? `part-00001.${extension(format)}` : '', rows: all }], notes: [] };
}

const extension = (format: SampleFormat): string => (format === 'json' ? 'jsonl' : format);

/** The value a key column takes for key number `k`. */
function keyValue(column: RequiredColumn, k: number, random: () => number): SampleValue {
    if (column.type.kind === 'string' || column.type.kind === 'varchar' || column.type.kind === 'char' || column.type.kind === 'unknown') {
        return `${column.name.toUpperCase().replace(/[^A-Z0-9]+/g, '').slice(0, 4) || 'K'}-${String(k + 1).padStart(3, '0')}`;
    }
    return baseValue(column.name, column.type, k, random) as SampleValue;
}

/** The `step`-th point of a sequence column (timestamps an hour apart, numbers counting up). */
function sequenceValue(column: RequiredColumn, step: number): SampleValue {
    switch (column.type.kind) {
        case 'timestamp': case 'timestamp_ntz': return timestampText(BaseTime + step * 3_600_000);
        case 'date': return dateText(BaseTime + step * 86_400_000);
        case 'string': return timestampText(BaseTime + step * 3_600_000);
        default: return step + 1;
    }
}

/** The operation values of a change feed: what the delete condition matches, and what it does not (inserts, updates). */
function operations(columns: readonly RequiredColumn[]): { column?: RequiredColumn; insert: SampleValue; update: SampleValue; delete: SampleValue } {
    const column = hasRole(columns, 'delete')[0];
    if (!column) {
        return { insert: null, update: null, delete: null };
    }
    const deleting = column.predicates.find(p => p.origin === 'delete' && (p.op === '=' || p.op === 'in'));
    const deleteValue: SampleValue = deleting?.values[0] ?? (column.type.kind === 'boolean' ? true : 'DELETE');
    // A truncate would wipe the target: its value is never generated.
    const truncating = new Set(column.predicates.filter(p => p.origin === 'truncate').flatMap(p => p.values));
    const known = column.predicates.filter(p => p.origin !== 'truncate').flatMap(p => (p.op === 'in' || p.op === '=' ? p.values : []))
        .filter(v => v !== deleteValue && !truncating.has(v));
    const pick = (pattern: RegExp): SampleValue | undefined => known.find(v => typeof v === 'string' && pattern.test(v));
    const fallback: SampleValue = typeof deleteValue === 'boolean' ? !deleteValue : typeof deleteValue === 'number' ? deleteValue + 1 : 'UPSERT';
    const insert = pick(/ins|create|add|new|^i$|^c$/i) ?? known[0] ?? fallback;
    const update = pick(/upd|upsert|modif|change|^u$/i) ?? insert;
    return { column, insert, update, delete: deleteValue };
}

/**
 * A change feed over a few keys: every key inserted, then updated (values of every non-key column
 * change, so SCD2 closes versions), two keys deleted, one event of a key arriving after a later one
 * (out of sequence order), one event sent twice; the second file holds the later half.
 */
function changeFeed(source: SourceRequirement, format: SampleFormat, rows: number, random: () => number, split: boolean): GeneratedSource {
    const columns = source.columns;
    const slots = predicateSlots(columns);
    const keys = hasRole(columns, 'key');
    const sequence = hasRole(columns, 'sequence')[0];
    const system = hasRole(columns, 'systemSequence')[0];
    const ops = operations(columns);
    const keyCount = Math.max(2, Math.min(50, Math.round(rows / 4)));
    const updatesPerKey = Math.max(1, Math.floor((rows - keyCount - 4) / keyCount));
    interface Event { key: number; version: number; step: number; op: 'insert' | 'update' | 'delete'; file: 1 | 2; note?: string }
    const events: Event[] = [];
    let step = 0;
    for (let k = 0; k < keyCount; k++) {
        events.push({ key: k, version: 0, step: step++, op: 'insert', file: 1 });
    }
    for (let u = 1; u <= updatesPerKey; u++) {
        for (let k = 0; k < keyCount; k++) {
            events.push({ key: k, version: u, step: step++, op: 'update', file: u <= Math.ceil(updatesPerKey / 2) ? 1 : 2 });
        }
    }
    if (updatesPerKey === 1) {
        // One round of updates: the second file still brings changes.
        for (const e of events.filter(x => x.op === 'update' && x.key % 2 === 1)) {
            e.file = 2;
        }
    }
    // Deletes of the last two keys (not the first, which gets the late event).
    const deleted = [keyCount - 1, keyCount - 2].filter(k => k > 0 && ops.column);
    for (const k of deleted) {
        events.push({ key: k, version: updatesPerKey + 1, step: step++, op: 'delete', file: 2 });
    }
    // A late event: key 0 at a sequence between its insert and its first update, arriving last.
    const late: Event = { key: 0, version: updatesPerKey + 2, step: -1, op: 'update', file: 2, note: 'late' };
    events.push(late);
    // An event whose operation the pipeline does not know (when an expectation lists the known ones): it exercises that expectation.
    const listed = ops.column?.predicates.find(p => p.origin === 'expectation' && p.op === 'in' && !p.mustHold);
    if (listed && ops.column) {
        events.push({ key: 0, version: updatesPerKey + 3, step: step++, op: 'update', file: 2, note: 'unknown' });
    }
    // A duplicate: the first update of key 0 again, in the second file.
    const firstUpdate = events.find(e => e.key === 0 && e.op === 'update' && e.note === undefined);
    if (firstUpdate) {
        events.push({ ...firstUpdate, file: 2, note: 'duplicate' });
    }
    const keyValues = new Map(keys.map(c => [c, Array.from({ length: keyCount }, (_, k) => keyValue(c, k, random))]));
    const others = columns.filter(c => !c.roles.has('key') && c !== sequence && c !== system && c !== ops.column && !c.roles.has('columnsToUpdate'));
    const toUpdate = hasRole(columns, 'columnsToUpdate')[0];
    // Values per key and version, computed once so that a duplicate repeats them exactly.
    const cache = new Map<string, SampleRow>();
    const row = (e: Event): SampleRow => {
        const id = `${e.key}:${e.version}:${e.op}:${e.step}`;
        const cached = cache.get(id);
        if (cached) {
            return cached;
        }
        const result: SampleRow = new Map();
        for (const c of columns) {
            if (c.roles.has('key')) {
                result.set(c.name, keyValues.get(c)![e.key]);
            } else if (c === sequence) {
                // The late event sits between the key's insert (step k) and its first update.
                result.set(c.name, e.note === 'late' ? lateValue(c, e.key, keyCount) : sequenceValue(c, e.step));
            } else if (c === system) {
                // Recorded when it arrives: after everything else.
                result.set(c.name, sequenceValue(c, e.note === 'late' ? step + 1 : e.step));
            } else if (c === ops.column) {
                result.set(c.name, e.note === 'unknown' ? otherThan(listed!.values, c.name, 0)
                    : e.op === 'delete' ? ops.delete : e.op === 'insert' ? ops.insert : ops.update);
            }
        }
        for (const c of others) {
            result.set(c.name, columnValue(c, e.key * 3 + e.version, random, slots, 1_000));
        }
        if (toUpdate) {
            // Inserts set every column, updates some of them.
            const names = others.map(c => c.name);
            result.set(toUpdate.name, e.op === 'insert' ? names : names.filter((_, i) => (i + e.version) % 2 === 0));
        }
        cache.set(id, result);
        return result;
    };
    const rowsOf = (file: 1 | 2): SampleRow[] => events.filter(e => e.file === file).map(row);
    const notes = [`${keyCount} keys`, `${updatesPerKey} update${updatesPerKey === 1 ? '' : 's'} per key`, `${deleted.length} deletes`, 'a late event', 'a duplicate'];
    const files: GeneratedFile[] = split
        ? [{ name: `part-00001.${extension(format)}`, rows: rowsOf(1) }, { name: `part-00002.${extension(format)}`, rows: rowsOf(2) }]
        : [{ name: '', rows: [...rowsOf(1), ...rowsOf(2)] }];
    return { source, format, columns, files, notes };
}

/** A sequence value between key `k`'s insert (step k) and its first update (step keyCount + k). */
function lateValue(column: RequiredColumn, k: number, keyCount: number): SampleValue {
    switch (column.type.kind) {
        case 'timestamp': case 'timestamp_ntz': case 'string':
            return timestampText(BaseTime + k * 3_600_000 + Math.max(1, keyCount) * 1_800_000);
        case 'date':
            // Days cannot fall between two hours: the late event repeats the insert's day plus half the gap, rounded up.
            return dateText(BaseTime + (k + Math.ceil(keyCount / 2)) * 86_400_000);
        default:
            return k + 1 + Math.floor(keyCount / 2);
    }
}

/**
 * Successive full snapshots for a snapshot flow: version 1 with every key, version 2 with changed
 * values for half the keys and a new key, version 3 without one key (a delete); the last version in
 * the second file.
 */
function snapshots(source: SourceRequirement, format: SampleFormat, rows: number, random: () => number, split: boolean): GeneratedSource {
    const columns = source.columns;
    const slots = predicateSlots(columns);
    const keys = hasRole(columns, 'key');
    const version = hasRole(columns, 'snapshotVersion')[0];
    const keyCount = Math.max(2, Math.round(rows / 3));
    const keyValues = new Map(keys.map(c => [c, Array.from({ length: keyCount + 1 }, (_, k) => keyValue(c, k, random))]));
    const versions = [
        { v: 0, keys: Array.from({ length: keyCount }, (_, k) => k), changed: new Set<number>() },
        { v: 1, keys: Array.from({ length: keyCount + 1 }, (_, k) => k), changed: new Set(Array.from({ length: keyCount }, (_, k) => k).filter(k => k % 2 === 0)) },
        { v: 2, keys: Array.from({ length: keyCount + 1 }, (_, k) => k).filter(k => k !== 1), changed: new Set<number>() },
    ];
    const generation = new Map<number, number>();
    const all = versions.map(({ v, keys: present, changed }) => {
        for (const k of changed) {
            generation.set(k, (generation.get(k) ?? 0) + 1);
        }
        return present.map(k => {
            const result: SampleRow = new Map();
            for (const c of columns) {
                if (c.roles.has('key')) {
                    result.set(c.name, keyValues.get(c)![k]);
                } else if (c === version) {
                    result.set(c.name, sequenceValue(c, v * 24));
                } else {
                    result.set(c.name, columnValue(c, k * 3 + (generation.get(k) ?? 0), random, slots, 1_000));
                }
            }
            return result;
        });
    });
    const files: GeneratedFile[] = split
        ? [{ name: `part-00001.${extension(format)}`, rows: [...all[0], ...all[1]] }, { name: `part-00002.${extension(format)}`, rows: all[2] }]
        : [{ name: '', rows: all.flat() }];
    return { source, format, columns, files, notes: [`3 snapshots of ${keyCount} keys`, 'a changed, an added and a dropped key'] };
}

//#region File texts

function csvField(value: SampleValue): string {
    if (value === null) {
        return '';
    }
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return /[",\n\r]/.test(text) || text === '' ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows of a generated file as value lists in column order (for a Parquet file). */
export function fileRows(generated: GeneratedSource, file: GeneratedFile): SampleValue[][] {
    return file.rows.map(r => generated.columns.map(c => r.get(c.name) ?? null));
}

/** The text of a generated file: CSV with a header, or JSON Lines (a Parquet file has rows, see `fileRows`). */
export function fileText(generated: GeneratedSource, file: GeneratedFile): string {
    const names = generated.columns.map(c => c.name);
    if (generated.format === 'json') {
        return file.rows.map(r => JSON.stringify(Object.fromEntries(names.map(n => [n, r.get(n) ?? null])))).join('\n') + '\n';
    }
    return [names.map(n => csvField(n)).join(','), ...file.rows.map(r => names.map(n => csvField(r.get(n) ?? null)).join(','))].join('\n') + '\n';
}

/** `CREATE TABLE a.b (cols) USING CSV LOCATION 'a/b'` for a catalog table (location relative to the samples folder). */
export function declarationText(generated: GeneratedSource, relativeLocation: string): string {
    const name = (generated.source.name ?? []).map(quoteIdentifier).join('.');
    const columns = generated.columns.map(c => `  ${quoteIdentifier(c.name)} ${typeToSql(c.type)}`).join(',\n');
    const location = relativeLocation.replace(/\\/g, '/').replace(/'/g, '\\\'');
    return `CREATE TABLE ${name} (\n${columns}\n) USING ${generated.format.toUpperCase()} LOCATION '${location}';\n`;
}

//#endregion
