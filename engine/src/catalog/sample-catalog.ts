// The local sample catalog as the engine reads it (issue 5 item 4): a table the pipeline reads but
// does not define is located by the shared sample-data layer (`../spark/sample-files.ts`: the naming
// convention, `CREATE TABLE ... LOCATION` declarations handed over as CatalogTableIR, `read_files`
// paths, containment inside the read roots), typed by its declaration or by the shared schema
// inference (`../spark/sample-schema.ts`, the same the editor shows; the lowering hands the inferred
// columns over in the IR), and read by DuckDB's readers with those explicit types. A problem becomes an
// EngineError: a read outside the pipeline names the read's clause; bad data names the data file,
// its line and DuckDB's cause, with paths relative to the pipeline.
import { EngineError, ErrorClass, SampleDataError, PipelineDefinitionError } from '../errors.js';
import type { CatalogTableIR, DataType, PipelineIR, SourceSpan, StructField, TableRelationIR } from '../ir.js';
import { forEachTableRelation } from '../ir-walk.js';
import {
    declaredTableLocation, displayPath, formatFromName, listSource, locateSampleTable, lowerOptions, readFilesLocation,
    type SampleDirs, type SampleFile, type SampleFormat, type SampleProblem,
} from '../spark/sample-files.js';
import { JsonSyntaxError, inferJsonColumns, sampleSchemas as schemas, type SourceSchema } from '../spark/sample-schema.js';
import { javaPatternToStrftime } from '../sql/java-datetime.js';
import { empty, ident, join, sql, type Sql, str } from '../sql/sql.js';
import { parseSparkSchema, toDuckType, type Column } from '../sql/duckdb-types.js';
import { Types as T } from '../spark/spark-types.js';

export type { SampleFile, SampleFormat } from '../spark/sample-files.js';

/** A resolved sample table or read_files source. */
export interface SampleSource {
    /** Stable identity used for streaming checkpoints (`catalog:a.b` or `files:<abs path>`). */
    key: string;
    /** What the user wrote, for messages. */
    displayName: string;
    /** Absolute path of a file or a folder. */
    location: string;
    /** The declared or named format; absent = the files' extensions decide. */
    format?: SampleFormat;
    /** Declared columns, if any (read by position from CSV, by name otherwise). */
    columns?: Column[];
    /** Columns inferred by the lowering (the editor's schema), if handed over. */
    inferred?: Column[];
    /** Reader options, keys in lower case. */
    options: Record<string, string>;
    /** Where the read is written (LOCATION clause, read_files call, table reference), for errors. */
    span?: SourceSpan;
    /** `read_files`: Auto Loader's `_rescued_data` column comes with the file columns (NULL: nothing is rescued locally). */
    rescuedData?: boolean;
}

/** A source with its checked files listed. */
export interface ListedSampleSource extends SampleSource {
    format: SampleFormat;
    isFolder: boolean;
    files: SampleFile[];
}

/** The engine error for a problem of the sample-data layer. */
export function sampleProblemError(problem: SampleProblem, source: Pick<SampleSource, 'displayName'>, span?: SourceSpan): EngineError {
    switch (problem.kind) {
        case 'outside':
            return new PipelineDefinitionError(ErrorClass.readOutsidePipeline, `${source.displayName}: ${problem.message}`, { span });
        case 'cloud':
        case 'format':
            return new PipelineDefinitionError(ErrorClass.unsupportedFeature, `${source.displayName}: ${problem.message}`, { span });
        case 'missing':
            // The read's clause is the place to show: the file it names is not there.
            return new SampleDataError(ErrorClass.sampleMissing, `The sample data of ${source.displayName} cannot be found: ${problem.message}`, { span });
        default:
            return new SampleDataError(ErrorClass.sampleData, `Bad sample data for ${source.displayName}: ${problem.message}`,
                { dataFile: problem.file, dataLine: problem.line, span });
    }
}

const toColumns = (fields: readonly StructField[] | undefined): Column[] | undefined => fields?.map(f => ({ name: f.name, type: f.type }));

/** Resolves a catalog table name to its sample data (declared in `catalog`, else by convention). */
export function resolveCatalogTable(name: string[], catalog: CatalogTableIR[], dirs: SampleDirs, span?: SourceSpan, inferred?: StructField[]): SampleSource {
    const displayName = `'${name.join('.')}'`;
    const declared = catalog.find(t => sameName(t.name, name));
    if (declared) {
        return {
            key: `catalog:${name.join('.').toLowerCase()}`,
            displayName,
            location: declaredTableLocation(dirs, declared.name, declared.location),
            format: declared.format,
            columns: declared.columns?.map(c => ({ name: c.name, type: c.type })),
            inferred: toColumns(inferred),
            options: lowerOptions(declared.options),
            span: declared.location !== undefined ? declared.span : span ?? declared.span,
        };
    }
    const found = locateSampleTable(dirs, name);
    if (!found) {
        const tried = displayPath(dirs, [dirs.samplesDir, ...name].join('/'));
        throw new EngineError(ErrorClass.tableNotFound,
            `The table or view ${displayName} cannot be found: it is not defined by the pipeline and there is no sample data at '${tried}.{csv,json,jsonl,parquet}' or in the folder '${tried}/'.`,
            { span });
    }
    return { key: `catalog:${name.join('.').toLowerCase()}`, displayName, location: found.location, inferred: toColumns(inferred), options: {}, span };
}

function sameName(a: string[], b: string[]): boolean {
    if (a.length !== b.length) {
        // `a.b` declared and `c.a.b` read (or the reverse) still match on the trailing parts.
        const n = Math.min(a.length, b.length);
        return a.slice(-n).join('.').toLowerCase() === b.slice(-n).join('.').toLowerCase();
    }
    return a.join('.').toLowerCase() === b.join('.').toLowerCase();
}

/** Resolves `read_files(path, format => ..., ...)`; relative paths are relative to the pipeline root. */
export function resolveReadFiles(filePath: string, options: Record<string, string | number | boolean>, dirs: SampleDirs, span?: SourceSpan, inferred?: StructField[]): SampleSource {
    const displayName = `read_files('${filePath}')`;
    const location = readFilesLocation(dirs, filePath);
    if (!location.ok) {
        throw sampleProblemError(location.problem, { displayName }, span);
    }
    const stringOptions = lowerOptions(options);
    const named = stringOptions.format;
    const format = formatFromName(named);
    if (named !== undefined && !format) {
        throw new PipelineDefinitionError(ErrorClass.unsupportedFeature, `read_files: the format '${named}' is not supported locally (csv, json, parquet).`, { span });
    }
    const columns = stringOptions.schema ? parseSparkSchema(stringOptions.schema) : undefined;
    return { key: `files:${location.value}`, displayName, location: location.value, format, columns, inferred: toColumns(inferred), options: stringOptions, span, rescuedData: true };
}

/** Lists and checks the data files of a source (inside the read roots, regular files, known format). */
export function listSampleSource(dirs: SampleDirs, source: SampleSource): ListedSampleSource {
    const listed = listSource(dirs, source.location, source.format);
    if (!listed.ok) {
        throw sampleProblemError(listed.problem, source, source.span);
    }
    return { ...source, format: listed.value.format, isFolder: listed.value.isFolder, files: [...listed.value.files] };
}

/** The inferred schema of a source's files (every file, merged by name), or the error naming the bad file. */
function inferredSchema(dirs: SampleDirs, source: ListedSampleSource): SourceSchema {
    const result = schemas.sourceSchema(dirs, { location: source.location, isFolder: source.isFolder, format: source.format, files: source.files }, source.options);
    if (!result.ok) {
        throw sampleProblemError(result.problem, source, source.span);
    }
    return result.value;
}

/** The columns of a source: declared, else handed over by the lowering, else inferred from all its files. */
export function sourceColumns(dirs: SampleDirs, source: ListedSampleSource): Column[] {
    let columns: Column[];
    if (source.columns) {
        columns = source.columns;
    } else if (source.inferred) {
        columns = source.inferred;
    } else if (source.files.length === 0) {
        throw new SampleDataError(ErrorClass.sampleMissing,
            `${source.displayName} has no data files in '${displayPath(dirs, source.location)}' and no declared columns, so its schema cannot be inferred. Add a file or declare it in samples/*.sql.`,
            { span: source.span });
    } else {
        columns = toColumns(inferredSchema(dirs, source).columns)!;
    }
    if (source.rescuedData && !columns.some(c => c.name.toLowerCase() === RESCUED_DATA)) {
        columns = [...columns, { name: RESCUED_DATA, type: T.string }];
    }
    return columns;
}

/** Auto Loader's column for data that did not fit the schema. */
const RESCUED_DATA = '_rescued_data';

/**
 * The columns the engine infers for a sample read, as the lowering hands them over in the IR
 * (`inferredColumns`); undefined when the read declares its columns or cannot be read (the run then
 * reports why, at the read).
 */
export function inferredColumnsOf(source: { kind: 'catalog'; name: string[] } | { kind: 'read_files'; path: string; options: Record<string, string | number | boolean> }, catalog: CatalogTableIR[], dirs: SampleDirs): StructField[] | undefined {
    try {
        const resolved = source.kind === 'catalog' ? resolveCatalogTable(source.name, catalog, dirs) : resolveReadFiles(source.path, source.options, dirs);
        if (resolved.columns) {
            return undefined;
        }
        const listed = listSampleSource(dirs, resolved);
        return listed.files.length === 0 ? undefined : inferredSchema(dirs, listed).columns;
    } catch (error) {
        if (error instanceof EngineError) {
            return undefined;
        }
        throw error;
    }
}

/** Sets `inferredColumns` on every sample read of a pipeline (datasets' and flows' queries, AUTO CDC sources). */
export function attachInferredColumns(pipeline: PipelineIR, dirs: SampleDirs): void {
    const visit = (relation: TableRelationIR): void => {
        const source = relation.source;
        if (source.kind === 'catalog' || source.kind === 'read_files') {
            source.inferredColumns = inferredColumnsOf(source, pipeline.catalog, dirs);
            if (!source.inferredColumns) {
                delete source.inferredColumns;
            }
        }
    };
    for (const dataset of pipeline.datasets) {
        if (dataset.query) {
            forEachTableRelation(dataset.query, visit);
        }
    }
    for (const flow of pipeline.flows) {
        switch (flow.kind) {
            case 'auto_cdc':
                // A subquery source (A28) is read like a query.
                if (flow.source.kind === 'table') {
                    visit(flow.source);
                } else {
                    forEachTableRelation(flow.source.query, visit);
                }
                break;
            case 'snapshot':
                forEachTableRelation(flow.snapshot.query, visit);
                if (flow.version) {
                    forEachTableRelation(flow.version.query, visit);
                }
                break;
            default:
                forEachTableRelation(flow.query, visit);
        }
    }
}

//#region DuckDB readers

const ignorableOptions = new Set([
    'format', 'schema', 'inferschema', 'infercolumntypes', 'schemaevolutionmode', 'schemahints', 'multiline', 'mode',
    'rescueddatacolumn', 'includeexistingfiles', 'maxfilespertrigger', 'maxbytespertrigger', 'pathglobfilter',
    'recursivefilelookup', 'encoding', 'charset', 'cloudfiles.format', 'ignorecorruptfiles', 'ignoremissingfiles',
]);

/** DuckDB's default bound on a CSV line (and so on a value). */
const DuckDbLineBytes = 2_000_000;
/** The longest CSV line read at all. */
export const MaxLineBytes = 512 * 1024 * 1024;

/**
 * The line bound for a group of CSV files: DuckDB's default when no file could hold a longer line,
 * else the largest file's size (a line is never longer than its file; a gzip file's text is taken as
 * up to 32 times its size). DuckDB sizes its read buffers by this bound, so it is raised only where
 * needed.
 */
function maxLineSize(files: readonly SampleFile[]): number | undefined {
    const longest = Math.max(...files.map(f => (f.fileFormat.gzip ? f.size * 32 : f.size)));
    return longest < DuckDbLineBytes ? undefined : Math.min(longest + 16, MaxLineBytes);
}

/** DuckDB reader options for CSV from Spark reader options. */
function csvOptions(source: SampleSource, delimiter: string | undefined, files: readonly SampleFile[]): Sql[] {
    const opts = source.options;
    const out: Sql[] = [];
    const header = (opts.header ?? 'true').toLowerCase() !== 'false';
    out.push(sql`header = ${header}`);
    const delim = opts.delimiter ?? opts.sep ?? delimiter;
    if (delim !== undefined) {
        out.push(sql`delim = ${str(delim)}`);
    }
    if (opts.quote !== undefined) {
        out.push(sql`quote = ${str(opts.quote)}`);
    }
    if (opts.escape !== undefined) {
        out.push(sql`escape = ${str(opts.escape)}`);
    }
    if (opts.nullvalue !== undefined) {
        out.push(sql`nullstr = ${str(opts.nullvalue)}`);
    }
    if (opts.dateformat !== undefined) {
        out.push(sql`dateformat = ${str(javaPatternToStrftime(opts.dateformat))}`);
    }
    if (opts.timestampformat !== undefined) {
        out.push(sql`timestampformat = ${str(javaPatternToStrftime(opts.timestampformat))}`);
    }
    const lineBound = maxLineSize(files);
    if (lineBound !== undefined) {
        out.push(sql`max_line_size = ${lineBound}`);
    }
    for (const key of Object.keys(opts)) {
        if (!['header', 'delimiter', 'sep', 'quote', 'escape', 'nullvalue', 'dateformat', 'timestampformat'].includes(key) && !ignorableOptions.has(key)) {
            throw new PipelineDefinitionError(ErrorClass.unsupportedFeature, `The CSV option '${key}' of ${source.displayName} is not supported by the local engine.`, { span: source.span });
        }
    }
    return out;
}

/** A typed empty relation with the given columns. */
export function emptyRelation(columns: Column[]): Sql {
    if (columns.length === 0) {
        return sql`(SELECT 1 AS "__empty" WHERE FALSE)`;
    }
    return sql`(SELECT ${join(columns.map(c => sql`CAST(NULL AS ${toDuckType(c.type)}) AS ${ident(c.name)}`))} WHERE FALSE)`;
}

/** The type of Spark's `_metadata` column of file sources. */
export const METADATA_TYPE = T.struct([
    ['file_path', T.string],
    ['file_name', T.string],
    ['file_size', T.bigint],
    ['file_modification_time', T.timestamp],
]);

/** `struct_pack(...)` for `_metadata` from the reader's `filename` column (the real path read) and the files' stat. */
function metadataSql(files: readonly SampleFile[]): Sql {
    const byFile = (value: (f: SampleFile) => Sql, type: Sql): Sql =>
        sql`CASE "filename" ${join(files.map(f => sql`WHEN ${str(f.realPath)} THEN ${value(f)}`), sql` `)} ELSE CAST(NULL AS ${type}) END`;
    return sql`struct_pack(file_path := ${byFile(f => str(`file:${f.path}`), sql`VARCHAR`)},
        file_name := ${byFile(f => str(f.path.slice(f.path.lastIndexOf('/') + 1)), sql`VARCHAR`)},
        file_size := ${byFile(f => sql`CAST(${f.size} AS BIGINT)`, sql`BIGINT`)},
        file_modification_time := ${byFile(f => sql`CAST(epoch_ms(${Math.round(f.mtimeMs)}) AS TIMESTAMP)`, sql`TIMESTAMP`)})`;
}

/**
 * The DuckDB type a reader parses a column as: TIMESTAMP as TIMESTAMPTZ, so that a UTC offset in the
 * text (`2025-01-04T10:00:00+02:00`) is applied (08:00 UTC) rather than dropped; text without an
 * offset is UTC, the engine's session time zone. Also the type a sample Parquet file is written as
 * (`db/parquet-writer.ts`): a TIMESTAMPTZ column says `isAdjustedToUTC`, so it reads back as TIMESTAMP.
 */
export function readerType(type: DataType): Sql {
    switch (type.kind) {
        case 'timestamp': return sql`TIMESTAMPTZ`;
        case 'array': return sql`${readerType(type.element)}[]`;
        case 'map': return sql`MAP(${readerType(type.key)}, ${readerType(type.value)})`;
        case 'struct': return sql`STRUCT(${join(type.fields.map(f => sql`${ident(f.name)} ${readerType(f.type)}`))})`;
        default: return toDuckType(type);
    }
}

/** An expression of a column as the reader gives it, converted to the column's stored type where the two differ. */
function stored(expression: Sql, type: DataType): Sql {
    return readerType(type) === toDuckType(type) ? expression : sql`CAST(${expression} AS ${toDuckType(type)})`;
}

const fileList = (files: readonly SampleFile[]): Sql => sql`[${join(files.map(f => str(f.realPath)))}]`;

/** Groups files that one reader call can take (same gzip flag and delimiter, and for CSV read by name the same header). */
function groupFiles(files: readonly SampleFile[], headers: Map<SampleFile, string[]> | undefined): SampleFile[][] {
    const groups = new Map<string, SampleFile[]>();
    for (const file of files) {
        const key = `${file.fileFormat.gzip}\0${file.fileFormat.delimiter ?? ''}\0${headers?.get(file)?.join('\0') ?? ''}`;
        const group = groups.get(key);
        if (group) {
            group.push(file);
        } else {
            groups.set(key, [file]);
        }
    }
    return [...groups.values()];
}

/**
 * SQL (a parenthesised subquery) reading `files` of a source with the given column types; with
 * `metadata`, plus Spark's `_metadata` column (file path, name, size, modification time). CSV files
 * with inferred columns are read by their own headers and lined up by name; declared CSV columns
 * are read by position, as Spark applies a user schema.
 */
export function readFilesSql(dirs: SampleDirs, source: ListedSampleSource, files: SampleFile[], columns: Column[], metadata = false): Sql {
    if (files.length === 0) {
        return metadata ? sql`(SELECT *, CAST(NULL AS ${toDuckType(METADATA_TYPE)}) AS "_metadata" FROM ${emptyRelation(columns)})` : emptyRelation(columns);
    }
    const withName = metadata ? sql`, filename = true` : empty;
    const finish = (items: Sql): Sql => (metadata ? sql`${items}, ${metadataSql(files)} AS "_metadata"` : items);
    const struct = (list: Column[]): Sql => sql`{${join(list.map(c => sql`${str(c.name)}: ${str(readerType(c.type))}`))}}`;
    const filename = metadata ? [sql`"filename"`] : [];
    switch (source.format) {
        case 'csv': {
            const byName = !source.columns;
            const headers = byName ? new Map(inferredSchema(dirs, source).files.map(f => [f.file, f.columns.map(c => c.name)])) : undefined;
            const parts = groupFiles(files, headers).map(group => {
                const names = headers?.get(group[0]) ?? (source.columns ?? columns).map(c => c.name);
                const typeOf = new Map(columns.map(c => [c.name.toLowerCase(), c.type]));
                // Every column of the file is read (one no longer in the schema as STRING), then lined up by name.
                const fileColumns = names.map(name => ({ name, type: typeOf.get(name.toLowerCase()) ?? T.string }));
                const nameIn = new Map(names.map(n => [n.toLowerCase(), n]));
                const items = columns.map(c => {
                    const own = nameIn.get(c.name.toLowerCase());
                    return sql`${own !== undefined ? stored(ident(own), c.type) : sql`CAST(NULL AS ${toDuckType(c.type)})`} AS ${ident(c.name)}`;
                });
                const gzip = group[0].fileFormat.gzip ? sql`, compression = 'gzip'` : empty;
                const options = [...csvOptions(source, group[0].fileFormat.delimiter, group), sql`columns = ${struct(fileColumns)}`, sql`auto_detect = false`, sql`strict_mode = true`];
                return sql`SELECT ${join([...items, ...filename])} FROM read_csv(${fileList(group)}, ${join(options)}${gzip}${withName})`;
            });
            return sql`(SELECT ${finish(join(columns.map(c => ident(c.name))))} FROM (${join(parts, sql` UNION ALL `)}))`;
        }
        case 'json': {
            const parts = groupFiles(files, undefined).map(group => {
                const gzip = group[0].fileFormat.gzip ? sql`, compression = 'gzip'` : empty;
                return sql`SELECT ${join([...columns.map(c => sql`${stored(ident(c.name), c.type)} AS ${ident(c.name)}`), ...filename])}
                    FROM read_json(${fileList(group)}, format = 'auto', columns = ${struct(columns)}${gzip}${withName})`;
            });
            return sql`(SELECT ${finish(join(columns.map(c => ident(c.name))))} FROM (${join(parts, sql` UNION ALL `)}))`;
        }
        case 'parquet': {
            const casts = parquetColumns(dirs, source, columns);
            return sql`(SELECT ${finish(casts)} FROM read_parquet(${fileList(files)}, union_by_name = true${withName}) AS "__p")`;
        }
    }
}

/** The select list of a Parquet read: each column cast to its type, NULL where no file has it (`_rescued_data`). */
function parquetColumns(dirs: SampleDirs, source: ListedSampleSource, columns: Column[], file?: SampleFile): Sql {
    const schema = inferredSchema(dirs, source);
    const fields = file ? schema.files.find(f => f.file.path === file.path)?.columns ?? schema.columns : schema.columns;
    const present = new Set(fields.map(c => c.name.toLowerCase()));
    return join(columns.map(c => sql`CAST(${present.has(c.name.toLowerCase()) ? sql`"__p".${ident(c.name)}` : sql`NULL`} AS ${toDuckType(c.type)}) AS ${ident(c.name)}`));
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
export function parquetArrivalSql(dirs: SampleDirs, source: ListedSampleSource, files: SampleFile[], columns: Column[]): Sql | undefined {
    if (source.format !== 'parquet' || files.length === 0) {
        return undefined;
    }
    const parts = files.map((f, i) => sql`SELECT ${parquetColumns(dirs, source, columns, f)}, CAST(${i} AS BIGINT) * ${2 ** ROWS_PER_FILE_BITS} + "__p".file_row_number AS ${ident(ARRIVAL_COLUMN)}
        FROM read_parquet(${str(f.realPath)}, file_row_number = true) AS "__p"`);
    return sql`(${join(parts, sql` UNION ALL `)})`;
}

/** Checks that Parquet files have every declared column (from their footers); names the first file lacking one. */
export function checkParquetColumns(dirs: SampleDirs, source: ListedSampleSource, files: SampleFile[], columns: Column[]): void {
    if (source.format !== 'parquet' || files.length === 0) {
        return;
    }
    for (const file of files) {
        const schema = schemas.fileSchema(dirs, file, 'parquet');
        if (!schema.ok) {
            throw sampleProblemError(schema.problem, source, source.span);
        }
        const names = new Set(schema.value.columns.map(c => c.name.toLowerCase()));
        const lacking = columns.find(c => !names.has(c.name.toLowerCase()));
        if (lacking) {
            throw new SampleDataError(ErrorClass.sampleData,
                `Bad sample data for ${source.displayName}: the Parquet file has no column '${lacking.name}' (declared in the catalog).`,
                { dataFile: file.path, span: source.span });
        }
    }
}

//#endregion

//#region Reader errors

/** The full text of the underlying DuckDB error (EngineErrors keep only its first line). */
export function rootMessage(error: unknown): string {
    let current: unknown = error;
    while (current instanceof EngineError && current.cause !== undefined) {
        current = current.cause;
    }
    return current instanceof Error ? current.message : String(current);
}

/**
 * The cause of a DuckDB CSV error, without its advice: the last line of the block between
 * `Original Line:` and the first `Possible ...` / option listing (`Value with unterminated quote
 * found.`, `Invalid unicode ...`, `Maximum line size ... exceeded ...`, `Expected Number of Columns ...`).
 */
function csvCause(message: string): string | undefined {
    const lines = message.split('\n');
    const start = lines.findIndex(l => l.startsWith('Original Line:'));
    if (start < 0) {
        return undefined;
    }
    const block: string[] = [];
    for (const line of lines.slice(start + 1)) {
        if (/^(Possible|\* |Column .* is being converted|This type was)/.test(line) || /^\s+[a-z_]+ = /.test(line)) {
            break;
        }
        block.push(line);
    }
    const cause = block.filter(l => l.trim() !== '').at(-1)?.trim();
    return cause?.replace(/\. Possible Solution.*$/, '').replace(/Actual Size:(\d)/, (_, digit: string) => `actual size: ${digit}`);
}

/** Finds where a JSON file stops being valid, reading at most 64 MB of it (on an error path only). */
function locateJsonError(file: SampleFile): { line: number; message: string } | undefined {
    if (file.fileFormat.gzip || file.size > 64 * 1024 * 1024) {
        return undefined;
    }
    let text: string;
    try {
        text = file.disk.read(file.realPath, 0, file.size).toString('utf8');
    } catch {
        return undefined;
    }
    try {
        inferJsonColumns(text, true);
        return undefined;
    } catch (error) {
        return error instanceof JsonSyntaxError ? { line: error.line, message: `${error.message} (column ${error.column})` } : undefined;
    }
}

/** Turns a DuckDB reader error into a SampleDataError naming the data file, its line and the cause. */
export function sampleError(error: unknown, source: ListedSampleSource, files: readonly SampleFile[]): EngineError {
    if (error instanceof EngineError && error.code !== ErrorClass.queryError && error.code !== ErrorClass.castInvalidInput) {
        return error;
    }
    const message = rootMessage(error);
    // DuckDB names the file it read (the real path) as `  file = /x/y.csv` (CSV) or `in file "/x/y.json"` (JSON).
    const named = /^\s*file = (.+)$/m.exec(message)?.[1]?.trim() ?? /in file "([^"]+)"/.exec(message)?.[1];
    const file = (named !== undefined ? files.find(f => f.realPath === named || f.path === named) : undefined) ?? (files.length === 1 ? files[0] : undefined);
    let line: number | undefined;
    let cause: string | undefined;
    const csvLine = /CSV Error on Line: (\d+)/.exec(message);
    if (csvLine) {
        line = Number(csvLine[1]);
        cause = csvCause(message);
    } else if (/Malformed JSON/.test(message)) {
        const located = file ? locateJsonError(file) : undefined;
        if (located) {
            line = located.line;
            cause = `Malformed JSON: ${located.message}`;
        } else {
            const at = /in (?:line|record\/value) (\d+)/.exec(message);
            line = at ? Number(at[1]) : undefined;
            cause = `Malformed JSON: ${/: ([^:]+)$/.exec(message.split('\n')[0])?.[1]?.trim() ?? message.split('\n')[0]}`;
        }
    } else if (/JSON transform error/.test(message)) {
        const at = /in line (\d+)/.exec(message);
        line = at ? Number(at[1]) : undefined;
        cause = message.split('\n')[0].replace(/^.*?in line \d+: /, '').replace(/^.*?JSON transform error[^:]*: /, '');
    }
    cause ??= message.split('\n').find(l => /Error when converting|Could not convert|Failed to cast|not found/i.test(l)) ?? message.split('\n')[0];
    cause = cause.replace(/^[A-Za-z ]+ Error: /, '').trim();
    for (const f of files) {
        // Paths in a cause are shown as the pipeline has them, not as DuckDB read them.
        cause = cause.split(f.realPath).join(f.path);
    }
    return new SampleDataError(ErrorClass.sampleData, `Bad sample data for ${source.displayName}: ${cause}`,
        { dataFile: file?.path, dataLine: line, span: source.span }, { cause: error });
}

/** Whether a DuckDB error comes from reading one of these files. */
export function isReaderError(message: string, files: readonly SampleFile[]): boolean {
    return files.some(f => message.includes(f.realPath) || message.includes(f.path));
}

//#endregion
