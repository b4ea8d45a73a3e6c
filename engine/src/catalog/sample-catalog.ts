// The local sample catalog (issue 5 item 4): a table the pipeline reads but does not define is
// looked up under the samples folder — `a.b` → `samples/a/b.<ext>` or a folder `samples/a/b/` of
// `.csv/.json/.jsonl/.parquet` files — typed by a `CREATE TABLE a.b (...) USING fmt LOCATION 'rel'`
// declaration (handed over as CatalogTableIR) or inferred. `read_files(path, ...)` reads the same
// way. Files are read by DuckDB's readers with explicit column types; a reader error becomes a
// SampleDataError naming the data file and line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database } from '../db/database.js';
import { EngineError, ErrorClass, SampleDataError, PipelineDefinitionError } from '../errors.js';
import type { CatalogTableIR, SourceSpan } from '../ir.js';
import { javaPatternToStrftime } from '../sql/java-datetime.js';
import { quoteIdent, quoteString } from '../sql/quote.js';
import { T, parseSparkSchema, toDuckType, type Column } from '../sql/types.js';

/** Data file formats the catalog reads. */
export type SampleFormat = 'csv' | 'json' | 'parquet';

/** A resolved sample table or read_files source. */
export interface SampleSource {
    /** Stable identity used for streaming checkpoints (`catalog:a.b` or `files:<abs path>`). */
    key: string;
    /** What the user wrote, for messages. */
    displayName: string;
    /** Absolute path of a file or a folder. */
    location: string;
    isFolder: boolean;
    format: SampleFormat;
    /** Declared columns, if any. */
    columns?: Column[];
    options: Record<string, string>;
}

/** One data file of a source. */
export interface SampleFile {
    path: string;
    size: number;
    mtimeMs: number;
}

const extensions: Record<string, SampleFormat> = {
    '.csv': 'csv',
    '.json': 'json',
    '.jsonl': 'json',
    '.ndjson': 'json',
    '.parquet': 'parquet',
};

/** Finds a child of `dir` whose name matches `name` case-insensitively (exact match first). */
function findEntry(dir: string, name: string, want: (stat: fs.Stats) => boolean): string | undefined {
    const exact = path.join(dir, name);
    if (fs.existsSync(exact) && want(fs.statSync(exact))) {
        return exact;
    }
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
        return undefined;
    }
    const match = fs.readdirSync(dir).find(entry => entry.toLowerCase() === name.toLowerCase() && want(fs.statSync(path.join(dir, entry))));
    return match === undefined ? undefined : path.join(dir, match);
}

/** Resolves a catalog table name to its sample data (declared in `catalog`, else by convention). */
export function resolveCatalogTable(name: string[], catalog: CatalogTableIR[], samplesDir: string, span?: SourceSpan): SampleSource {
    const displayName = name.join('.');
    const declared = catalog.find(t => sameName(t.name, name));
    if (declared) {
        const location = declared.location
            ? path.resolve(samplesDir, declared.location)
            : conventionalLocation(name, samplesDir)?.location ?? path.join(samplesDir, ...name);
        if (!fs.existsSync(location)) {
            throw new SampleDataError(ErrorClass.sampleMissing,
                `The sample table '${displayName}' is declared with LOCATION '${declared.location ?? name.join('/')}', but '${location}' does not exist.`,
                { span: declared.span, dataFile: location });
        }
        return {
            key: `catalog:${displayName.toLowerCase()}`,
            displayName,
            location,
            isFolder: fs.statSync(location).isDirectory(),
            format: declared.format,
            columns: declared.columns?.map(c => ({ name: c.name, type: c.type })),
            options: declared.options,
        };
    }
    const found = conventionalLocation(name, samplesDir);
    if (!found) {
        const tried = path.join(samplesDir, ...name);
        throw new EngineError(ErrorClass.tableNotFound,
            `The table or view '${displayName}' cannot be found: it is not defined by the pipeline and there is no sample data at '${tried}.{csv,json,jsonl,parquet}' or in the folder '${tried}/'.`,
            { span });
    }
    return { key: `catalog:${displayName.toLowerCase()}`, displayName, ...found, options: {} };
}

function sameName(a: string[], b: string[]): boolean {
    if (a.length !== b.length) {
        // `a.b` declared and `c.a.b` read (or the reverse) still match on the trailing parts.
        const n = Math.min(a.length, b.length);
        return a.slice(-n).join('.').toLowerCase() === b.slice(-n).join('.').toLowerCase();
    }
    return a.join('.').toLowerCase() === b.join('.').toLowerCase();
}

function conventionalLocation(name: string[], samplesDir: string): { location: string; isFolder: boolean; format: SampleFormat } | undefined {
    let dir = samplesDir;
    for (const part of name.slice(0, -1)) {
        const next = findEntry(dir, part, s => s.isDirectory());
        if (!next) {
            return undefined;
        }
        dir = next;
    }
    const last = name[name.length - 1];
    const folder = findEntry(dir, last, s => s.isDirectory());
    if (folder) {
        const files = listDataFiles(folder);
        const format = files.length > 0 ? formatOf(files[0].path) : undefined;
        return { location: folder, isFolder: true, format: format ?? 'json' };
    }
    for (const [ext, format] of Object.entries(extensions)) {
        const file = findEntry(dir, last + ext, s => s.isFile());
        if (file) {
            return { location: file, isFolder: false, format };
        }
    }
    return undefined;
}

function formatOf(file: string): SampleFormat | undefined {
    return extensions[path.extname(file).toLowerCase()];
}

/** Resolves `read_files(path, format => ..., ...)`; relative paths are relative to the pipeline root. */
export function resolveReadFiles(filePath: string, options: Record<string, string | number | boolean>, rootDir: string, samplesDir: string, span?: SourceSpan): SampleSource {
    let location: string;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(filePath) && !filePath.startsWith('file://')) {
        throw new PipelineDefinitionError(ErrorClass.unsupportedFeature,
            `read_files('${filePath}'): cloud storage paths cannot be read locally; point read_files at a file or folder under the pipeline root (or /Volumes/... under the samples folder).`,
            { span });
    }
    if (filePath.startsWith('file://')) {
        location = new URL(filePath).pathname;
    } else if (filePath.startsWith('/Volumes/')) {
        // Unity Catalog volumes map onto samples/Volumes/... for local runs.
        location = path.join(samplesDir, filePath);
    } else {
        location = path.resolve(rootDir, filePath);
    }
    if (!fs.existsSync(location)) {
        throw new SampleDataError(ErrorClass.sampleMissing, `read_files('${filePath}'): '${location}' does not exist.`, { span, dataFile: location });
    }
    const isFolder = fs.statSync(location).isDirectory();
    const stringOptions = Object.fromEntries(Object.entries(options).map(([k, v]) => [k.toLowerCase(), String(v)]));
    let format = stringOptions.format?.toLowerCase() as SampleFormat | undefined;
    if (format !== undefined && !['csv', 'json', 'parquet'].includes(format)) {
        throw new PipelineDefinitionError(ErrorClass.unsupportedFeature, `read_files: the format '${format}' is not supported locally (csv, json, parquet).`, { span });
    }
    if (!format) {
        const first = isFolder ? listDataFiles(location)[0]?.path : location;
        format = first ? formatOf(first) : undefined;
        if (!format) {
            throw new PipelineDefinitionError(ErrorClass.unsupportedFeature, `read_files('${filePath}'): cannot tell the file format; pass format => 'csv' | 'json' | 'parquet'.`, { span });
        }
    }
    let columns: Column[] | undefined;
    if (stringOptions.schema) {
        columns = parseSparkSchema(stringOptions.schema);
    }
    return { key: `files:${location}`, displayName: `read_files('${filePath}')`, location, isFolder, format, columns, options: stringOptions };
}

/** The data files of a folder, sorted by name; files starting with `.` or `_` are ignored (as Spark does). */
export function listDataFiles(folder: string): SampleFile[] {
    const out: SampleFile[] = [];
    const walk = (dir: string): void => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            if (entry.name.startsWith('.') || entry.name.startsWith('_')) {
                continue;
            }
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                walk(full);
            } else if (formatOf(full)) {
                const stat = fs.statSync(full);
                out.push({ path: full, size: stat.size, mtimeMs: stat.mtimeMs });
            }
        }
    };
    walk(folder);
    return out;
}

/** All data files of a source. */
export function sourceFiles(source: SampleSource): SampleFile[] {
    if (!source.isFolder) {
        if (!fs.existsSync(source.location)) {
            throw new SampleDataError(ErrorClass.sampleMissing, `The sample file '${source.location}' of '${source.displayName}' does not exist.`, { dataFile: source.location });
        }
        const stat = fs.statSync(source.location);
        return [{ path: source.location, size: stat.size, mtimeMs: stat.mtimeMs }];
    }
    return listDataFiles(source.location).filter(f => formatOf(f.path) === source.format || (source.format === 'json' && formatOf(f.path) === 'json'));
}

const ignorableOptions = new Set([
    'format', 'schema', 'inferschema', 'infercolumntypes', 'schemaevolutionmode', 'schemahints', 'multiline', 'mode',
    'rescueddatacolumn', 'includeexistingfiles', 'maxfilespertrigger', 'maxbytespertrigger', 'pathglobfilter',
    'recursivefilelookup', 'encoding', 'charset', 'cloudfiles.format', 'ignorecorruptfiles', 'ignoremissingfiles',
]);

/** DuckDB reader options for CSV from Spark reader options. */
function csvOptions(source: SampleSource): string[] {
    const opts = source.options;
    const out: string[] = [];
    const header = (opts.header ?? 'true').toLowerCase() !== 'false';
    out.push(`header = ${header}`);
    const delimiter = opts.delimiter ?? opts.sep;
    if (delimiter !== undefined) {
        out.push(`delim = ${quoteString(delimiter)}`);
    }
    if (opts.quote !== undefined) {
        out.push(`quote = ${quoteString(opts.quote)}`);
    }
    if (opts.escape !== undefined) {
        out.push(`escape = ${quoteString(opts.escape)}`);
    }
    if (opts.nullvalue !== undefined) {
        out.push(`nullstr = ${quoteString(opts.nullvalue)}`);
    }
    if (opts.dateformat !== undefined) {
        out.push(`dateformat = ${quoteString(javaPatternToStrftime(opts.dateformat))}`);
    }
    if (opts.timestampformat !== undefined) {
        out.push(`timestampformat = ${quoteString(javaPatternToStrftime(opts.timestampformat))}`);
    }
    for (const key of Object.keys(opts)) {
        if (!['header', 'delimiter', 'sep', 'quote', 'escape', 'nullvalue', 'dateformat', 'timestampformat'].includes(key) && !ignorableOptions.has(key)) {
            throw new PipelineDefinitionError(ErrorClass.unsupportedFeature, `The CSV option '${key}' of '${source.displayName}' is not supported by the local engine.`);
        }
    }
    return out;
}

/** A typed empty relation with the given columns. */
export function emptyRelation(columns: Column[]): string {
    if (columns.length === 0) {
        return '(SELECT 1 AS "__empty" WHERE FALSE)';
    }
    return `(SELECT ${columns.map(c => `CAST(NULL AS ${toDuckType(c.type)}) AS ${quoteIdent(c.name)}`).join(', ')} WHERE FALSE)`;
}

/** The type of Spark's `_metadata` column of file sources. */
export const METADATA_TYPE = T.struct([
    { name: 'file_path', type: T.string },
    { name: 'file_name', type: T.string },
    { name: 'file_size', type: T.bigint },
    { name: 'file_modification_time', type: T.timestamp },
]);

/** `struct_pack(...)` for `_metadata` from the reader's `filename` column and the files' stat. */
function metadataSql(files: SampleFile[]): string {
    const byFile = (value: (f: SampleFile) => string, type: string) =>
        `CASE "filename" ${files.map(f => `WHEN ${quoteString(f.path)} THEN ${value(f)}`).join(' ')} ELSE CAST(NULL AS ${type}) END`;
    return 'struct_pack(file_path := \'file:\' || "filename", file_name := parse_filename("filename"), '
        + `file_size := ${byFile(f => `CAST(${f.size} AS BIGINT)`, 'BIGINT')}, `
        + `file_modification_time := ${byFile(f => `CAST(epoch_ms(${Math.round(f.mtimeMs)}) AS TIMESTAMP)`, 'TIMESTAMP')})`;
}

/**
 * SQL (a parenthesised subquery) reading `files` of a source with the given column types; with
 * `metadata`, plus Spark's `_metadata` column (file path, name, size, modification time).
 */
export function readFilesSql(source: SampleSource, files: SampleFile[], columns: Column[], metadata = false): string {
    if (files.length === 0) {
        return metadata ? `(SELECT *, CAST(NULL AS ${toDuckType(METADATA_TYPE)}) AS "_metadata" FROM ${emptyRelation(columns)})` : emptyRelation(columns);
    }
    const list = `[${files.map(f => quoteString(f.path)).join(', ')}]`;
    const columnStruct = `{${columns.map(c => `${quoteString(c.name)}: ${quoteString(toDuckType(c.type))}`).join(', ')}}`;
    const withName = metadata ? ', filename = true' : '';
    const select = (items: string) => (metadata ? `${items}, ${metadataSql(files)} AS "_metadata"` : items);
    const star = metadata ? '* EXCLUDE ("filename")' : '*';
    switch (source.format) {
        case 'csv':
            return `(SELECT ${select(star)} FROM read_csv(${list}, ${[...csvOptions(source), `columns = ${columnStruct}`, 'auto_detect = false', 'strict_mode = true'].join(', ')}${withName}))`;
        case 'json':
            return `(SELECT ${select(star)} FROM read_json(${list}, format = 'auto', columns = ${columnStruct}${withName}))`;
        case 'parquet': {
            const casts = columns.map(c => `CAST("__p".${quoteIdent(c.name)} AS ${toDuckType(c.type)}) AS ${quoteIdent(c.name)}`).join(', ');
            return `(SELECT ${select(casts)} FROM read_parquet(${list}, union_by_name = true${withName}) AS "__p")`;
        }
    }
}

/** Name of the arrival-order column added by `parquetArrivalSql`. */
export const ARRIVAL_COLUMN = '__psql_arrival';

/** Bits of the arrival number taken by the row number inside one file (the file's index is above). */
export const ROWS_PER_FILE_BITS = 40;

/**
 * Like `readFilesSql` for Parquet, plus a column giving each row's arrival order — file index in the
 * high bits, row number within the file below — computed by the reader without serialising the
 * scan (a `row_number() OVER ()` would). Returns undefined for other formats.
 */
export function parquetArrivalSql(source: SampleSource, files: SampleFile[], columns: Column[]): string | undefined {
    if (source.format !== 'parquet' || files.length === 0) {
        return undefined;
    }
    const select = columns.map(c => `CAST("__p".${quoteIdent(c.name)} AS ${toDuckType(c.type)}) AS ${quoteIdent(c.name)}`).join(', ');
    const parts = files.map((f, i) => `SELECT ${select}, CAST(${i} AS BIGINT) * ${2 ** ROWS_PER_FILE_BITS} + "__p".file_row_number AS ${quoteIdent(ARRIVAL_COLUMN)} `
        + `FROM read_parquet(${quoteString(f.path)}, file_row_number = true) AS "__p"`);
    return `(${parts.join(' UNION ALL ')})`;
}

/** Infers the columns of a source from its files (all of them, merged by name). */
export async function inferColumns(db: Database, source: SampleSource, files: SampleFile[]): Promise<Column[]> {
    if (source.columns) {
        return source.columns;
    }
    if (files.length === 0) {
        throw new SampleDataError(ErrorClass.sampleMissing,
            `'${source.displayName}' has no data files in '${source.location}' and no declared columns, so its schema cannot be inferred. Add a file or declare it in samples/*.sql.`,
            { dataFile: source.location });
    }
    const list = `[${files.map(f => quoteString(f.path)).join(', ')}]`;
    let sql: string;
    switch (source.format) {
        case 'csv':
            sql = `SELECT * FROM read_csv(${list}, ${csvOptions(source).join(', ')}, union_by_name = true)`;
            break;
        case 'json':
            sql = `SELECT * FROM read_json(${list}, format = 'auto', union_by_name = true)`;
            break;
        case 'parquet':
            sql = `SELECT * FROM read_parquet(${list}, union_by_name = true)`;
            break;
    }
    try {
        const columns = await db.describe(sql);
        // Spark's JSON/CSV inference yields BIGINT for whole numbers; DuckDB's sniffer agrees.
        return columns;
    } catch (error) {
        throw sampleError(error, source, files);
    }
}

/** The full text of the underlying DuckDB error (EngineErrors keep only its first line). */
export function rootMessage(error: unknown): string {
    let current: unknown = error;
    while (current instanceof EngineError && current.cause !== undefined) {
        current = current.cause;
    }
    return current instanceof Error ? current.message : String(current);
}

/** Checks that Parquet files have every declared column; names the first file lacking one. */
export async function checkParquetColumns(db: Database, source: SampleSource, files: SampleFile[], columns: Column[]): Promise<void> {
    if (source.format !== 'parquet' || files.length === 0) {
        return;
    }
    const present = async (list: SampleFile[]): Promise<Set<string>> =>
        new Set((await db.describe(`SELECT * FROM read_parquet([${list.map(f => quoteString(f.path)).join(', ')}], union_by_name = true)`)).map(c => c.name.toLowerCase()));
    for (const file of files) {
        const names = await present([file]);
        const lacking = columns.find(c => !names.has(c.name.toLowerCase()));
        if (lacking) {
            throw new SampleDataError(ErrorClass.sampleData,
                `Bad sample data for '${source.displayName}': the Parquet file '${file.path}' has no column '${lacking.name}' (declared in the catalog).`,
                { dataFile: file.path });
        }
    }
}

/** Turns a DuckDB reader error into a SampleDataError naming the data file and line. */
export function sampleError(error: unknown, source: SampleSource, files: SampleFile[]): EngineError {
    if (error instanceof EngineError && error.code !== ErrorClass.queryError && error.code !== ErrorClass.castInvalidInput) {
        return error;
    }
    const message = rootMessage(error);
    const lineMatch = /(?:CSV Error on Line|in line|line)[:\s]+(\d+)/i.exec(message);
    const fileMatch = /file[\s=]+"?([^"\n]+?)"?(?:[\s,:]|$)/i.exec(message) ?? /in file "([^"]+)"/.exec(message);
    let file = fileMatch?.[1]?.trim();
    if (file && !path.isAbsolute(file)) {
        file = files.find(f => f.path.endsWith(file!))?.path ?? file;
    }
    if (!file && files.length === 1) {
        file = files[0].path;
    }
    const line = lineMatch ? Number(lineMatch[1]) : undefined;
    const detail = message.split('\n').find(l => /Error when converting|Could not convert|Expected Number of Columns|Malformed JSON|transform error|not found|Failed to cast/i.test(l)) ?? message.split('\n')[0];
    const where = file ? ` in '${file}'${line !== undefined ? ` at line ${line}` : ''}` : '';
    return new SampleDataError(ErrorClass.sampleData,
        `Bad sample data for '${source.displayName}'${where}: ${detail.replace(/^[A-Za-z ]+ Error: /, '').trim()}`,
        { dataFile: file, dataLine: line }, { cause: error });
}
