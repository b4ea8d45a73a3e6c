/**
 * The local sample catalog on disk: where the data of a table `a.b` lives under a pipeline's
 * `samples/` folder (`samples/a/b.csv|.json|.jsonl|.parquet` or a folder `samples/a/b/` of such
 * files, the same convention as the engine), and what columns those files have: the CSV header with
 * types inferred from the values, the keys and value types of JSON / JSON Lines records, the schema
 * in a Parquet footer. Inference reads at most the first {@link MaxBytesPerFile} bytes of each file
 * and caches the result by path, size and modification time, so validation stays fast.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commonSupertype, field, Types, type StructField, type TypeDescriptor } from '../builtins/spark-types.js';
import { ParquetFormatError, readParquetSchema } from './parquet-schema.js';

/** The data file formats of the sample catalog. */
export type SampleFormat = 'csv' | 'json' | 'parquet';

/** Bytes read from the start of a CSV or JSON file for schema inference. */
export const MaxBytesPerFile = 256 * 1024;
/** Data files read per source folder for schema inference. */
const MaxFilesPerSource = 32;

const extensions: Record<string, SampleFormat> = { '.csv': 'csv', '.json': 'json', '.jsonl': 'json', '.ndjson': 'json', '.parquet': 'parquet' };

/** The format a data file's extension stands for. */
export function formatOfFile(file: string): SampleFormat | undefined {
    return extensions[path.extname(file).toLowerCase()];
}

/** Maps a `USING` / `format =>` name to a sample format (`jsonl`, `delta` …). */
export function formatFromName(name: string | undefined): SampleFormat | undefined {
    switch (name?.toLowerCase()) {
        case 'csv': return 'csv';
        case 'json': case 'jsonl': case 'ndjson': return 'json';
        case 'parquet': return 'parquet';
        default: return undefined;
    }
}

/** Where a sample table's data lives. */
export interface SampleLocation {
    readonly location: string;
    readonly isFolder: boolean;
    readonly format?: SampleFormat;
}

/** Finds `name` in `dir` case-insensitively (the exact spelling first). */
function findEntry(dir: string, name: string, wantFolder: boolean): string | undefined {
    const exact = path.join(dir, name);
    const stat = fs.statSync(exact, { throwIfNoEntry: false });
    if (stat && stat.isDirectory() === wantFolder) {
        return exact;
    }
    let entries: fs.Dirent[];
    try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
            return undefined;
        }
        throw error;
    }
    const match = entries.find(e => e.name.toLowerCase() === name.toLowerCase() && e.isDirectory() === wantFolder);
    return match ? path.join(dir, match.name) : undefined;
}

/** Finds the data of table `parts` (`['a', 'b']` for `a.b`) under a samples folder by the naming convention. */
export function locateSampleTable(samplesDir: string, parts: readonly string[]): SampleLocation | undefined {
    if (parts.length === 0 || parts.some(p => p.includes('${') || p.includes('/') || p === '..' || p === '.')) {
        return undefined;
    }
    let dir: string | undefined = samplesDir;
    for (const part of parts.slice(0, -1)) {
        dir = findEntry(dir, part, true);
        if (!dir) {
            return undefined;
        }
    }
    const last = parts[parts.length - 1];
    const folder = findEntry(dir, last, true);
    if (folder) {
        return { location: folder, isFolder: true, format: listDataFiles(folder)[0]?.format };
    }
    for (const [ext, format] of Object.entries(extensions)) {
        const file = findEntry(dir, last + ext, false);
        if (file) {
            return { location: file, isFolder: false, format };
        }
    }
    return undefined;
}

/** The data files of a folder, sorted; names starting with `.` or `_` are skipped, as Spark does. */
export function listDataFiles(folder: string): Array<{ file: string; format: SampleFormat }> {
    const out: Array<{ file: string; format: SampleFormat }> = [];
    const walk = (dir: string): void => {
        let entries: fs.Dirent[];
        try {
            entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
                return;
            }
            throw error;
        }
        for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
            if (entry.name.startsWith('.') || entry.name.startsWith('_')) {
                continue;
            }
            const full = path.join(dir, entry.name);
            const format = formatOfFile(entry.name);
            if (entry.isDirectory()) {
                walk(full);
            } else if (format) {
                out.push({ file: full, format });
            }
        }
    };
    walk(folder);
    return out;
}

/** The columns inferred from a source's files, or why they could not be. */
export type FileSchemaResult =
    | { readonly ok: true; readonly columns: StructField[]; readonly files: readonly string[] }
    | { readonly ok: false; readonly error: string };

/** Options that change how files are read (`header`, `sep` / `delimiter` for CSV). */
export type ReaderOptions = Readonly<Record<string, string>>;

interface CachedFile {
    readonly stamp: string;
    readonly columns: StructField[];
}

/**
 * Infers and caches the schemas of sample data files. The cache is keyed by file path and checked
 * against the file's size and modification time, so an edited sample file is read again.
 */
export class SampleFileSchemas {

    // Cache of file contents on disk, checked against size and mtime on every use; it is not derived
    // from documents, so it is not a Langium document cache.
    private readonly files = new Map<string, CachedFile>();

    /** The merged columns of every data file at a location (a file, or a folder of files). */
    schemaOf(location: SampleLocation, options: ReaderOptions = {}): FileSchemaResult {
        const files = location.isFolder
            ? listDataFiles(location.location).filter(f => !location.format || f.format === location.format).slice(0, MaxFilesPerSource)
            : [{ file: location.location, format: location.format ?? formatOfFile(location.location) }];
        if (files.length === 0) {
            return { ok: false, error: `'${location.location}' holds no .csv, .json, .jsonl or .parquet files` };
        }
        let merged: StructField[] = [];
        for (const { file, format } of files) {
            if (!format) {
                return { ok: false, error: `cannot tell the format of '${file}'` };
            }
            const result = this.fileColumns(file, format, options);
            if (!result.ok) {
                return result;
            }
            merged = mergeColumns(merged, result.columns);
        }
        return { ok: true, columns: finalColumns(merged), files: files.map(f => f.file) };
    }

    /** Forgets the cached schema of every file under a path (a changed file or folder). */
    invalidate(changedPath: string): void {
        for (const key of this.files.keys()) {
            if (key === changedPath || key.startsWith(changedPath + path.sep)) {
                this.files.delete(key);
            }
        }
    }

    private fileColumns(file: string, format: SampleFormat, options: ReaderOptions): FileSchemaResult {
        let stat: fs.Stats | undefined;
        try {
            stat = fs.statSync(file);
        } catch (error) {
            return { ok: false, error: `cannot read '${file}': ${(error as Error).message}` };
        }
        const stamp = `${stat.size}:${stat.mtimeMs}:${format}:${JSON.stringify(options)}`;
        const cached = this.files.get(file);
        if (cached?.stamp === stamp) {
            return { ok: true, columns: cached.columns, files: [file] };
        }
        try {
            const columns = format === 'parquet' ? readParquetSchema(file) : inferTextColumns(readHead(file), format, options);
            this.files.set(file, { stamp, columns });
            return { ok: true, columns, files: [file] };
        } catch (error) {
            if (error instanceof ParquetFormatError || error instanceof SyntaxError || (error as NodeJS.ErrnoException).code) {
                return { ok: false, error: `cannot read '${file}': ${(error as Error).message}` };
            }
            throw error;
        }
    }
}

function readHead(file: string): string {
    const fd = fs.openSync(file, 'r');
    try {
        const buffer = Buffer.alloc(MaxBytesPerFile);
        const read = fs.readSync(fd, buffer, 0, MaxBytesPerFile, 0);
        return buffer.toString('utf8', 0, read);
    } finally {
        fs.closeSync(fd);
    }
}

/** Infers the columns of CSV or JSON text (the head of a file). */
export function inferTextColumns(text: string, format: 'csv' | 'json', options: ReaderOptions = {}): StructField[] {
    return finalColumns(format === 'csv' ? inferCsvColumns(text, options) : inferJsonColumns(text));
}

//#region CSV

/**
 * Infers the columns of CSV text: names from the header row (unless `header` is `false`, then
 * `_c0`, `_c1`, …), types from the values (BIGINT, DOUBLE, BOOLEAN, DATE, TIMESTAMP, else STRING;
 * empty values do not count), as DuckDB's CSV sniffer, which the local engine uses, types them.
 */
export function inferCsvColumns(text: string, options: ReaderOptions = {}): StructField[] {
    const lower = Object.fromEntries(Object.entries(options).map(([k, v]) => [k.toLowerCase(), v]));
    const delimiter = lower.sep ?? lower.delimiter ?? (text.split('\n', 1)[0].includes('\t') && !text.split('\n', 1)[0].includes(',') ? '\t' : ',');
    const rows = parseCsv(text, delimiter);
    if (rows.length === 0) {
        return [];
    }
    const header = (lower.header ?? 'true').toLowerCase() !== 'false';
    const names = header ? rows[0].map((n, i) => n.trim() || `_c${i}`) : rows[0].map((_, i) => `_c${i}`);
    const types: Array<TypeDescriptor | undefined> = names.map(() => undefined);
    for (const row of header ? rows.slice(1) : rows) {
        row.forEach((value, i) => {
            if (i < types.length && value !== '') {
                types[i] = widen(types[i], typeOfText(value));
            }
        });
    }
    return names.map((name, i) => field(name, types[i] ?? Types.string));
}

/** Splits CSV text into rows of fields: quoted fields with doubled quotes, CRLF or LF line ends. A cut last line is dropped. */
function parseCsv(text: string, delimiter: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let value = '';
    let quoted = false;
    let i = 0;
    const complete = text.length < MaxBytesPerFile;
    while (i < text.length) {
        const c = text[i];
        if (quoted) {
            if (c === '"' && text[i + 1] === '"') {
                value += '"';
                i += 2;
                continue;
            }
            if (c === '"') {
                quoted = false;
            } else {
                value += c;
            }
        } else if (c === '"' && value === '') {
            quoted = true;
        } else if (text.startsWith(delimiter, i)) {
            row.push(value);
            value = '';
            i += delimiter.length;
            continue;
        } else if (c === '\n' || c === '\r') {
            row.push(value);
            value = '';
            if (row.length > 1 || row[0] !== '') {
                rows.push(row);
            }
            row = [];
            if (c === '\r' && text[i + 1] === '\n') {
                i++;
            }
        } else {
            value += c;
        }
        i++;
    }
    if (complete && (value !== '' || row.length > 0)) {
        row.push(value);
        rows.push(row);
    }
    return rows;
}

const integerPattern = /^[+-]?\d+$/;
const decimalPattern = /^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$/;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const timestampPattern = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

function typeOfText(value: string): TypeDescriptor {
    const v = value.trim();
    if (integerPattern.test(v)) {
        return Types.bigint;
    }
    if (decimalPattern.test(v)) {
        return Types.double;
    }
    if (/^(true|false)$/i.test(v)) {
        return Types.boolean;
    }
    if (datePattern.test(v)) {
        return Types.date;
    }
    if (timestampPattern.test(v)) {
        return Types.timestamp;
    }
    return Types.string;
}

//#endregion

//#region JSON

/**
 * Infers the columns of JSON text: JSON Lines (one object per line), one object, or an array of
 * objects. Columns come in order of first appearance; numbers are BIGINT or DOUBLE, strings that look
 * like dates or timestamps are DATE or TIMESTAMP (as the engine's reader infers them), objects are
 * structs and arrays arrays of their merged element type. A truncated last line is ignored.
 */
export function inferJsonColumns(text: string): StructField[] {
    const records: unknown[] = [];
    const trimmed = text.trim();
    if (trimmed.startsWith('[')) {
        const parsed: unknown = JSON.parse(trimmed);
        if (Array.isArray(parsed)) {
            records.push(...parsed);
        }
    } else {
        const lines = text.split(/\r?\n/);
        if (text.length >= MaxBytesPerFile) {
            lines.pop();
        }
        const nonEmpty = lines.filter(l => l.trim() !== '');
        try {
            nonEmpty.forEach(line => records.push(JSON.parse(line)));
        } catch (error) {
            // Not JSON Lines: a single (possibly multi-line) object.
            if (!(error instanceof SyntaxError) || !trimmed.startsWith('{')) {
                throw error;
            }
            records.length = 0;
            records.push(JSON.parse(trimmed));
        }
    }
    let columns: StructField[] = [];
    for (const record of records) {
        const type = typeOfJson(record);
        if (type?.kind === 'struct') {
            columns = mergeColumns(columns, type.fields);
        }
    }
    return columns;
}

function typeOfJson(value: unknown): TypeDescriptor | undefined {
    if (value === null || value === undefined) {
        return undefined;
    }
    switch (typeof value) {
        case 'boolean': return Types.boolean;
        case 'number': return Number.isInteger(value) ? Types.bigint : Types.double;
        case 'string': {
            const t = typeOfText(value);
            return t.kind === 'date' || t.kind === 'timestamp' ? t : Types.string;
        }
        case 'object': {
            if (Array.isArray(value)) {
                let element: TypeDescriptor | undefined;
                value.forEach(v => {
                    const t = typeOfJson(v);
                    if (t) {
                        element = widen(element, t);
                    }
                });
                return Types.array(element ?? Types.string);
            }
            const fields: StructField[] = [];
            for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
                fields.push(field(key, typeOfJson(v) ?? Types.void));
            }
            return Types.struct(fields);
        }
        default:
            return Types.string;
    }
}

//#endregion

/** The wider of two inferred types; incompatible types become STRING. */
function widen(a: TypeDescriptor | undefined, b: TypeDescriptor): TypeDescriptor {
    if (!a || a.kind === 'void') {
        return b;
    }
    if (b.kind === 'void') {
        return a;
    }
    if (a.kind === 'struct' && b.kind === 'struct') {
        return Types.struct(mergeColumns([...a.fields], b.fields));
    }
    if (a.kind === 'array' && b.kind === 'array') {
        return Types.array(widen(a.element, b.element));
    }
    if (a.kind === b.kind) {
        return a;
    }
    if (a.kind === 'string' || b.kind === 'string') {
        return Types.string;
    }
    const common = commonSupertype(a, b);
    return common && common.kind !== 'string' && common.kind !== 'unknown' ? common : Types.string;
}

/** Merges columns by name (case-insensitive), keeping first-appearance order and widening types. */
export function mergeColumns(into: StructField[], more: readonly StructField[]): StructField[] {
    const result = [...into];
    for (const column of more) {
        const index = result.findIndex(c => c.name.toLowerCase() === column.name.toLowerCase());
        if (index < 0) {
            result.push(column);
        } else {
            result[index] = field(result[index].name, widen(result[index].type, column.type));
        }
    }
    return result;
}

/** A column that only ever held NULL is typed STRING, as the readers type it. */
function finalType(type: TypeDescriptor): TypeDescriptor {
    switch (type.kind) {
        case 'void': return Types.string;
        case 'array': return Types.array(finalType(type.element));
        case 'struct': return Types.struct(type.fields.map(f => field(f.name, finalType(f.type))));
        default: return type;
    }
}

/** Gives NULL-only columns (and fields) their final type. */
export function finalColumns(columns: readonly StructField[]): StructField[] {
    return columns.map(c => field(c.name, finalType(c.type), c.nullable));
}
