// Schema inference of sample files: the columns (names and Spark types) of CSV, JSON and Parquet
// files, as both the editor (validation, hover, completion) and the engine (which then reads the
// files with exactly these types) see them. One implementation, so that what the editor shows is
// what a run produces.
//
// Rules (spec: local sample catalog; the choices are the project's where Spark leaves them open):
// - CSV: names from the header row (`header` true unless the options say `false`, then `_c0`, `_c1`
//   …; empty names become `_cN`, duplicate names get their column index appended, as Spark's
//   header handling does); values typed BIGINT (DECIMAL(p,0) beyond BIGINT), DOUBLE, BOOLEAN, DATE,
//   TIMESTAMP (an ISO date-time, with or without a UTC offset), else STRING; empty values and the
//   `nullValue` option are NULL and do not count. Leading zeros do not make a number a string
//   (`007` is BIGINT 7, as Spark's inference parses it).
// - JSON: JSON Lines, a top-level array of records, or objects one after another; keys in order of
//   first appearance, merged across records; numbers with a fraction or exponent are DOUBLE, others
//   BIGINT; strings that are ISO dates or date-times are DATE / TIMESTAMP; objects are STRUCTs,
//   arrays ARRAYs of their merged element type; types that disagree become STRING (the JSON text).
//   Parsing is iterative; nesting deeper than `MaxJsonDepth` is reported, not followed.
// - Parquet: the schema in the file's footer (`sample-parquet.ts`).
// - A folder's files are merged by column name (case-insensitive), widening types.
// Only the first `MaxBytesPerFile` bytes of a CSV or JSON file are read (a cut last record is
// dropped), and results are cached by file, size and modification time.
import * as zlib from 'node:zlib';
import type { DataType, StructField } from '../ir.js';
import { ParquetFormatError, readParquetSchema } from './sample-parquet.js';
import { field, Types } from './spark-types.js';
import {
    lowerOptions, readHead, type FileFormat, type ListedSource, type ReaderOptions, type SampleDirs, type SampleFile,
    type SampleFormat, type SampleProblem, type SampleResult,
} from './sample-files.js';

/** Bytes read from the start of a CSV or JSON file (after decompression) for schema inference. */
export const MaxBytesPerFile = 256 * 1024;
/** Nesting depth of JSON values that inference follows. */
export const MaxJsonDepth = 64;

const t = Types;

/** The inferred schema of one file. */
export interface FileSchema {
    /** In file order: for CSV, the header's columns. */
    readonly columns: readonly StructField[];
}

//#region Widening and merging

/** The wider of two inferred types; types that do not fit together become STRING. */
export function widenInferred(a: DataType | undefined, b: DataType): DataType {
    if (!a || a.kind === 'void') {
        return b;
    }
    if (b.kind === 'void') {
        return a;
    }
    if (a.kind === 'struct' && b.kind === 'struct') {
        return t.struct(mergeColumns(a.fields, b.fields));
    }
    if (a.kind === 'array' && b.kind === 'array') {
        return t.array(widenInferred(a.element, b.element));
    }
    if (a.kind === 'decimal' && b.kind === 'decimal') {
        const scale = Math.max(a.scale, b.scale);
        const whole = Math.max(a.precision - a.scale, b.precision - b.scale);
        return whole + scale > 38 ? t.double : t.decimal(whole + scale, scale);
    }
    if (a.kind === b.kind) {
        return a;
    }
    const kinds = new Set([a.kind, b.kind]);
    if (kinds.has('double') && (kinds.has('bigint') || kinds.has('decimal') || kinds.has('int'))) {
        return t.double;
    }
    if (kinds.has('decimal') && (kinds.has('bigint') || kinds.has('int'))) {
        // BIGINT fits DECIMAL(19,0).
        return widenInferred(a.kind === 'decimal' ? a : b, t.decimal(19, 0));
    }
    if (kinds.has('date') && kinds.has('timestamp')) {
        return t.timestamp;
    }
    return t.string;
}

/** Merges columns by name (case-insensitive), keeping first-appearance order and widening types. */
export function mergeColumns(into: readonly StructField[], more: readonly StructField[]): StructField[] {
    const result = [...into];
    const index = new Map(result.map((c, i) => [c.name.toLowerCase(), i]));
    for (const column of more) {
        const at = index.get(column.name.toLowerCase());
        if (at === undefined) {
            index.set(column.name.toLowerCase(), result.length);
            result.push(column);
        } else {
            result[at] = field(result[at].name, widenInferred(result[at].type, column.type));
        }
    }
    return result;
}

/** A column that only ever held NULL (or an empty object) is STRING, as the readers type it. */
function finalType(type: DataType): DataType {
    switch (type.kind) {
        case 'void': return t.string;
        case 'array': return t.array(finalType(type.element));
        case 'struct': return type.fields.length === 0 ? t.string : t.struct(type.fields.map(f => field(f.name, finalType(f.type))));
        default: return type;
    }
}

/** Gives NULL-only columns (and fields) their final type. */
export function finalColumns(columns: readonly StructField[]): StructField[] {
    return columns.map(c => field(c.name, finalType(c.type)));
}

//#endregion

//#region Values

const integerPattern = /^[+-]?\d+$/;
const fractionPattern = /^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const BIGINT_MAX = 9223372036854775807n;
const BIGINT_MIN = -9223372036854775808n;

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(year: string, month: string, day: string): boolean {
    const y = Number(year);
    const m = Number(month);
    const d = Number(day);
    if (m < 1 || m > 12 || d < 1) {
        return false;
    }
    const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    return d <= daysInMonth[m - 1] + (leap ? 1 : 0);
}

/** The type of an integer's text: BIGINT, else DECIMAL(p,0), else DOUBLE. */
function integerType(text: string): DataType {
    const digits = text.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
    if (digits.length <= 18) {
        return t.bigint;
    }
    const value = BigInt(text);
    if (value <= BIGINT_MAX && value >= BIGINT_MIN) {
        return t.bigint;
    }
    return digits.length <= 38 ? t.decimal(digits.length, 0) : t.double;
}

/** The type of a string that may be a date or a date-time (JSON strings); else STRING. */
function temporalType(value: string): DataType {
    // Most strings are not dates: `yyyy-` decides at once.
    if (value.length < 10 || value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) {
        return t.string;
    }
    const date = datePattern.exec(value);
    if (date) {
        return validDate(date[1], date[2], date[3]) ? t.date : t.string;
    }
    const ts = timestampPattern.exec(value);
    if (ts && validDate(ts[1], ts[2], ts[3]) && Number(ts[4]) < 24 && Number(ts[5]) < 60 && (ts[6] === undefined || Number(ts[6]) < 60)) {
        return t.timestamp;
    }
    return t.string;
}

/** The type of a CSV field's text. */
export function typeOfText(value: string): DataType {
    const v = value.trim();
    if (integerPattern.test(v)) {
        return integerType(v);
    }
    if (fractionPattern.test(v)) {
        return t.double;
    }
    if (/^(true|false)$/i.test(v)) {
        return t.boolean;
    }
    return temporalType(v);
}

//#endregion

//#region CSV

/** The CSV dialect of a file: from the options, else the file's extension, else Spark's defaults. */
export interface CsvDialect {
    readonly header: boolean;
    readonly delimiter: string;
    readonly quote: string;
    readonly escape: string;
    readonly nullValue: string;
}

/** The CSV dialect that options (any key case) and a file format give. */
export function csvDialect(options: ReaderOptions, fileFormat?: FileFormat): CsvDialect {
    const o = lowerOptions(options);
    const quote = o.quote ?? '"';
    return {
        header: (o.header ?? 'true').toLowerCase() !== 'false',
        delimiter: o.sep ?? o.delimiter ?? fileFormat?.delimiter ?? ',',
        quote,
        escape: o.escape ?? quote,
        nullValue: o.nullvalue ?? '',
    };
}

/** CSV text that cannot be split into rows: why, and the 1-based line of the row. */
export class CsvSyntaxError extends Error {
    constructor(message: string, readonly line: number) {
        super(message);
    }
}

/**
 * Splits CSV text into rows of fields (quoted fields, the escape character, CRLF or LF line ends).
 * With `complete` false the text is a file's head and a cut last row is dropped. Each row carries
 * its 1-based line.
 */
export function parseCsv(text: string, dialect: CsvDialect, complete: boolean): Array<{ line: number; fields: string[] }> {
    const rows: Array<{ line: number; fields: string[] }> = [];
    const { delimiter, quote, escape } = dialect;
    let fields: string[] = [];
    let value = '';
    let line = 1;
    let rowLine = 1;
    let i = 0;
    let fieldStart = true;
    const n = text.length;
    // A one-character delimiter: runs of plain text are matched by a sticky pattern.
    const plain = delimiter.length === 1 ? new RegExp(`[^\\n\\r${delimiter.replace(/[\\\]^-]/g, c => `\\${c}`)}]*`, 'y') : undefined;
    while (i < n) {
        const c = text[i];
        if (fieldStart && quote !== '' && c === quote) {
            // A quoted field: up to the closing quote; `escape` + quote (a doubled quote by default) is a quote.
            i++;
            let closed = false;
            while (i < n) {
                const d = text[i];
                if (d === escape && escape !== quote && i + 1 < n && (text[i + 1] === quote || text[i + 1] === escape)) {
                    value += text[i + 1];
                    i += 2;
                    continue;
                }
                if (d === quote) {
                    if (escape === quote && text[i + 1] === quote) {
                        value += quote;
                        i += 2;
                        continue;
                    }
                    i++;
                    closed = true;
                    break;
                }
                if (d === '\n') {
                    line++;
                }
                value += d;
                i++;
            }
            if (!closed) {
                if (complete) {
                    throw new CsvSyntaxError(`A quoted value that starts on line ${rowLine} is not closed (a quote is missing)`, rowLine);
                }
                // The head ends inside a quoted value: the cut row is dropped.
                return rows;
            }
            fieldStart = false;
            continue;
        }
        if (text.startsWith(delimiter, i) && delimiter !== '') {
            fields.push(value);
            value = '';
            i += delimiter.length;
            fieldStart = true;
            continue;
        }
        if (c === '\n' || c === '\r') {
            fields.push(value);
            if (fields.length > 1 || fields[0] !== '') {
                rows.push({ line: rowLine, fields });
            }
            fields = [];
            value = '';
            if (c === '\r' && text[i + 1] === '\n') {
                i++;
            }
            i++;
            line++;
            rowLine = line;
            fieldStart = true;
            continue;
        }
        // Plain text up to the next delimiter or line end, in one slice.
        let j: number;
        if (plain) {
            plain.lastIndex = i + 1;
            plain.exec(text);
            j = plain.lastIndex;
        } else {
            j = i + 1;
            while (j < n && text[j] !== '\n' && text[j] !== '\r' && !text.startsWith(delimiter, j)) {
                j++;
            }
        }
        value += text.slice(i, j);
        i = j;
        fieldStart = false;
    }
    if (complete && (value !== '' || fields.length > 0)) {
        fields.push(value);
        rows.push({ line: rowLine, fields });
    }
    return rows;
}

/** Column names from a header row: empty names are `_cN`, duplicates (any case) get their index appended. */
export function csvColumnNames(header: readonly string[] | undefined, count: number): string[] {
    if (!header) {
        return Array.from({ length: count }, (_, i) => `_c${i}`);
    }
    const names = header.map((n, i) => n.trim() || `_c${i}`);
    const counts = new Map<string, number>();
    names.forEach(n => counts.set(n.toLowerCase(), (counts.get(n.toLowerCase()) ?? 0) + 1));
    return names.map((n, i) => ((counts.get(n.toLowerCase()) ?? 0) > 1 ? `${n}${i}` : n));
}

/** Infers the columns of CSV text (a file's head unless `complete`). */
export function inferCsvColumns(text: string, options: ReaderOptions = {}, complete = true, fileFormat?: FileFormat): StructField[] {
    const dialect = csvDialect(options, fileFormat);
    const rows = parseCsv(text, dialect, complete);
    if (rows.length === 0) {
        return [];
    }
    const names = csvColumnNames(dialect.header ? rows[0].fields : undefined, rows[0].fields.length);
    const types: Array<DataType | undefined> = names.map(() => undefined);
    for (const row of dialect.header ? rows.slice(1) : rows) {
        const fields = row.fields;
        for (let i = 0; i < fields.length && i < types.length; i++) {
            const value = fields[i];
            if (value !== '' && value !== dialect.nullValue) {
                types[i] = widenInferred(types[i], typeOfText(value));
            }
        }
    }
    return names.map((name, i) => field(name, types[i] ?? t.void));
}

//#endregion

//#region JSON

/** A JSON text that cannot be read: why, and where (1-based line and column). */
export class JsonSyntaxError extends Error {
    constructor(message: string, readonly line: number, readonly column: number) {
        super(message);
    }
}

/** A JSON number or literal at a position (sticky). */
const wordPattern = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

interface ObjectFrame { kind: 'object'; fields: StructField[]; index: Map<string, number>; key?: string; line: number }
interface ArrayFrame { kind: 'array'; element?: DataType; records: boolean; line: number }
type Frame = ObjectFrame | ArrayFrame;

/**
 * Infers the columns of JSON text with an iterative scanner (no recursion, so no nesting overflows
 * the stack): each top-level object is a record, and so is each object of a top-level array.
 * With `complete` false the text is a file's head: a record cut by the end is dropped.
 * Throws `JsonSyntaxError` for malformed text and for nesting deeper than `MaxJsonDepth`.
 */
export function inferJsonColumns(text: string, complete = true): StructField[] {
    const columns: StructField[] = [];
    const columnIndex = new Map<string, number>();
    const addRecord = (fields: readonly StructField[]): void => {
        for (const column of fields) {
            const key = column.name.toLowerCase();
            const at = columnIndex.get(key);
            if (at === undefined) {
                columnIndex.set(key, columns.length);
                columns.push(column);
            } else if (columns[at].type !== column.type) {
                columns[at] = field(columns[at].name, widenInferred(columns[at].type, column.type));
            }
        }
    };
    const stack: Frame[] = [];
    let i = 0;
    let line = 1;
    let lineStart = 0;
    const n = text.length;
    // What may come next inside the top frame: a value, or a separator (`,` / the closing bracket).
    let expectValue = true;
    const error = (message: string, at = i): JsonSyntaxError => new JsonSyntaxError(message, line, at - lineStart + 1);
    const describe = (c: string): string => (c === '"' ? 'a quote (")' : `'${c}'`);

    const addValue = (type: DataType | undefined): void => {
        const top = stack[stack.length - 1];
        if (!top) {
            if (type?.kind === 'struct') {
                addRecord(type.fields);
            }
            return;
        }
        if (top.kind === 'array') {
            if (top.records) {
                if (type?.kind === 'struct') {
                    addRecord(type.fields);
                }
            } else if (type) {
                top.element = widenInferred(top.element, type);
            }
        } else {
            const key = top.key!;
            top.key = undefined;
            const at = top.index.get(key.toLowerCase());
            if (at === undefined) {
                top.index.set(key.toLowerCase(), top.fields.length);
                top.fields.push(field(key, type ?? t.void));
            } else if (type) {
                top.fields[at] = field(top.fields[at].name, widenInferred(top.fields[at].type, type));
            }
        }
        expectValue = false;
    };

    const readString = (): string | undefined => {
        // At the opening quote; returns the decoded string, or undefined when the text ends first.
        let j = i + 1;
        let escaped = false;
        while (j < n) {
            const c = text.charCodeAt(j);
            if (c === 0x22) {
                break;
            }
            if (c === 0x5c) {
                escaped = true;
                j += 2;
                continue;
            }
            if (c === 0x0a || c < 0x20) {
                throw error('A string runs past the end of its line (a quote is missing or stray)', j);
            }
            j++;
        }
        if (j >= n) {
            if (complete) {
                throw error('A string is not closed (a quote is missing)');
            }
            return undefined;
        }
        const raw = text.slice(i, j + 1);
        let value: string;
        if (escaped) {
            try {
                value = JSON.parse(raw) as string;
            } catch {
                throw error('A string holds an invalid escape sequence');
            }
        } else {
            value = raw.slice(1, -1);
        }
        i = j + 1;
        return value;
    };

    while (i < n) {
        const c = text[i];
        if (c === '\n') {
            i++;
            line++;
            lineStart = i;
            continue;
        }
        if (c === ' ' || c === '\t' || c === '\r' || (c === '\ufeff' && i === 0)) {
            i++;
            continue;
        }
        const top = stack[stack.length - 1];
        if (top?.kind === 'object' && top.key === undefined && expectValue) {
            // A key, or the end of an empty object.
            if (c === '}' && top.fields.length === 0) {
                stack.pop();
                i++;
                addValue(t.struct([]));
                continue;
            }
            if (c !== '"') {
                throw error(`Expected a key in quotes, found ${describe(c)}`);
            }
            const key = readString();
            if (key === undefined) {
                break;
            }
            // The colon.
            while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r' || text[i] === '\n')) {
                if (text[i] === '\n') {
                    line++;
                    lineStart = i + 1;
                }
                i++;
            }
            if (i >= n) {
                break;
            }
            if (text[i] !== ':') {
                throw error(`Expected ':' after the key "${key}", found ${describe(text[i])}`);
            }
            i++;
            top.key = key;
            continue;
        }
        if (!expectValue) {
            if (c === ',') {
                if (!top) {
                    throw error('Unexpected \',\' between records');
                }
                expectValue = true;
                i++;
                continue;
            }
            if (top && c === (top.kind === 'object' ? '}' : ']')) {
                stack.pop();
                i++;
                if (top.kind === 'object') {
                    addValue(t.struct(top.fields));
                } else if (top.records) {
                    expectValue = false;
                } else {
                    addValue(t.array(top.element ?? t.void));
                }
                continue;
            }
            if (!top && (c === '{' || c === '[')) {
                // The next record (JSON Lines, or objects one after another).
                expectValue = true;
                continue;
            }
            throw error(top ? `Expected ',' or '${top.kind === 'object' ? '}' : ']'}', found ${describe(c)}` : `Unexpected ${describe(c)} after a record`);
        }
        if (c === '{' || c === '[') {
            if (stack.length >= MaxJsonDepth) {
                throw error(`The JSON is nested more than ${MaxJsonDepth} levels deep; the local sample catalog reads at most ${MaxJsonDepth} levels`);
            }
            if (c === '{') {
                stack.push({ kind: 'object', fields: [], index: new Map(), line });
            } else {
                stack.push({ kind: 'array', records: stack.length === 0, line });
            }
            i++;
            expectValue = true;
            continue;
        }
        if ((c === ']' && top?.kind === 'array') && (top.element === undefined && !top.records)) {
            // An empty array.
            stack.pop();
            i++;
            addValue(t.array(t.void));
            continue;
        }
        if (c === ']' && top?.kind === 'array' && top.records) {
            stack.pop();
            i++;
            expectValue = false;
            continue;
        }
        if (c === '"') {
            const value = readString();
            if (value === undefined) {
                break;
            }
            addValue(temporalType(value));
            continue;
        }
        wordPattern.lastIndex = i;
        const word = wordPattern.exec(text);
        if (!word) {
            throw error(`Unexpected ${describe(c)}`);
        }
        const token = word[0];
        if (i + token.length >= n && !complete) {
            // A number cut by the end of the head.
            break;
        }
        i += token.length;
        if (token === 'null') {
            addValue(undefined);
        } else if (token === 'true' || token === 'false') {
            addValue(t.boolean);
        } else {
            addValue(/[.eE]/.test(token) ? t.double : integerType(token));
        }
    }
    if (complete && stack.length > 0) {
        const open = stack[stack.length - 1];
        throw new JsonSyntaxError(`The ${open.kind === 'object' ? 'object' : 'array'} opened on line ${open.line} is not closed`, line, i - lineStart + 1);
    }
    return columns;
}

//#endregion

//#region Files

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a file's head as UTF-8; a character cut at the end of a head is dropped. */
function decodeHead(bytes: Buffer, complete: boolean, file: SampleFile): string {
    let end = bytes.length;
    if (!complete) {
        // Back up to the start of a possibly cut multi-byte character.
        let k = end - 1;
        while (k >= 0 && k > end - 4 && (bytes[k] & 0xc0) === 0x80) {
            k--;
        }
        if (k >= 0 && bytes[k] >= 0xc0) {
            end = k;
        }
    }
    try {
        return utf8.decode(bytes.subarray(0, end));
    } catch {
        let at = 0;
        let line = 1;
        // Find the first invalid sequence for the message.
        for (let lo = 0, hi = end; lo < hi;) {
            const mid = (lo + hi) >> 1;
            try {
                // `stream`: a character cut by the prefix is not an error.
                new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
                at = mid;
                lo = mid + 1;
            } catch {
                hi = mid;
            }
        }
        for (let k = 0; k < at; k++) {
            if (bytes[k] === 0x0a) {
                line++;
            }
        }
        throw new SampleReadError({
            kind: 'malformed',
            message: 'not UTF-8 text (an invalid byte sequence); save the file as UTF-8',
            file: file.path,
            line,
        });
    }
}

/** A problem met while reading one file (internal: turned into a result by `SampleSchemas`). */
class SampleReadError extends Error {
    constructor(readonly problem: SampleProblem) {
        super(problem.message);
    }
}

/** The text head of a CSV or JSON file (gzip decompressed, bounded) and whether it is the whole file. */
function readTextHead(file: SampleFile): { text: string; complete: boolean } {
    if (!file.fileFormat.gzip) {
        const bytes = readHead(file, MaxBytesPerFile);
        const complete = bytes.length >= file.size;
        return { text: decodeHead(bytes, complete, file), complete };
    }
    // Decompress a prefix; a prefix that inflates beyond the bound is shortened (a zip bomb stays bounded).
    let compressedBytes = Math.min(file.size, MaxBytesPerFile);
    for (;;) {
        const compressed = readHead(file, compressedBytes);
        try {
            const inflated = zlib.gunzipSync(compressed, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: 4 * MaxBytesPerFile });
            const wholeFile = compressed.length >= file.size;
            const complete = wholeFile && inflated.length <= MaxBytesPerFile;
            const head = inflated.length > MaxBytesPerFile ? inflated.subarray(0, MaxBytesPerFile) : inflated;
            return { text: decodeHead(head, complete, file), complete };
        } catch (error) {
            if (error instanceof RangeError && compressedBytes > 1024) {
                compressedBytes = Math.floor(compressedBytes / 4);
                continue;
            }
            if (error instanceof SampleReadError) {
                throw error;
            }
            throw new SampleReadError({ kind: 'malformed', message: `not a readable gzip file (${(error as Error).message})`, file: file.path });
        }
    }
}

/** Infers the schema of one checked file. Throws SampleReadError. */
function inferFile(file: SampleFile, format: SampleFormat, options: ReaderOptions): FileSchema {
    if (format === 'parquet') {
        return { columns: readParquetSchema(file) };
    }
    const { text, complete } = readTextHead(file);
    if (format === 'csv') {
        try {
            return { columns: inferCsvColumns(text, options, complete, file.fileFormat) };
        } catch (error) {
            if (error instanceof CsvSyntaxError) {
                throw new SampleReadError({ kind: 'malformed', message: error.message, file: file.path, line: error.line });
            }
            throw error;
        }
    }
    try {
        return { columns: inferJsonColumns(text, complete) };
    } catch (error) {
        if (error instanceof JsonSyntaxError) {
            throw new SampleReadError({ kind: 'malformed', message: `${error.message} (column ${error.column})`, file: file.path, line: error.line });
        }
        throw error;
    }
}

export { SampleReadError };

/** The schema of a whole source: the merged columns, and each file's own columns (CSV files are read by header). */
export interface SourceSchema {
    readonly columns: StructField[];
    readonly files: ReadonlyArray<{ readonly file: SampleFile; readonly columns: readonly StructField[] }>;
}

/**
 * Infers and caches the schemas of sample files. The cache is keyed by the file's real path, format
 * and options, and checked against its size and modification time, so an edited file is read again.
 */
export class SampleSchemas {
    private readonly cache = new Map<string, { stamp: string; schema: FileSchema }>();

    constructor(private readonly maxEntries = 4096) {}

    /** The schema of one checked file (cached). */
    fileSchema(dirs: SampleDirs, file: SampleFile, format: SampleFormat, options: ReaderOptions = {}): SampleResult<FileSchema> {
        const key = `${file.realPath}\0${format}\0${JSON.stringify(lowerOptions(options))}\0${file.fileFormat.gzip}\0${file.fileFormat.delimiter ?? ''}`;
        const stamp = `${file.size}:${file.mtimeMs}`;
        const cached = this.cache.get(key);
        if (cached?.stamp === stamp) {
            // Most recently used last.
            this.cache.delete(key);
            this.cache.set(key, cached);
            return { ok: true, value: cached.schema };
        }
        try {
            const schema = inferFile(file, format, options);
            this.cache.set(key, { stamp, schema });
            if (this.cache.size > this.maxEntries) {
                this.cache.delete(this.cache.keys().next().value!);
            }
            return { ok: true, value: schema };
        } catch (error) {
            if (error instanceof SampleReadError) {
                return { ok: false, problem: error.problem };
            }
            if (error instanceof ParquetFormatError) {
                return { ok: false, problem: { kind: 'malformed', message: error.message, file: file.path } };
            }
            const code = (error as NodeJS.ErrnoException).code;
            if (code) {
                return { ok: false, problem: { kind: code === 'ENOTREGULAR' ? 'not_regular' : 'unreadable', message: code === 'ENOTREGULAR' ? (error as Error).message : `cannot be read (${(error as Error).message})`, file: file.path } };
            }
            throw error;
        }
    }

    /** The merged schema of a listed source's files (their columns widened by name). */
    sourceSchema(dirs: SampleDirs, source: ListedSource, options: ReaderOptions = {}): SampleResult<SourceSchema> {
        let merged: StructField[] = [];
        const files: Array<{ file: SampleFile; columns: readonly StructField[] }> = [];
        for (const file of source.files) {
            const result = this.fileSchema(dirs, file, source.format, options);
            if (!result.ok) {
                return result;
            }
            merged = mergeColumns(merged, result.value.columns);
            files.push({ file, columns: result.value.columns });
        }
        return { ok: true, value: { columns: finalColumns(merged), files } };
    }

    /** Forgets what is cached about files under a path (a changed file or folder). */
    invalidate(changedPath: string): void {
        for (const key of [...this.cache.keys()]) {
            const file = key.slice(0, key.indexOf('\0'));
            if (file === changedPath || file.startsWith(changedPath.endsWith('/') ? changedPath : `${changedPath}/`)) {
                this.cache.delete(key);
            }
        }
    }
}

//#endregion

/** The schema cache of this process, shared by the editor's validation and the engine's runs. */
export const sampleSchemas = new SampleSchemas();
