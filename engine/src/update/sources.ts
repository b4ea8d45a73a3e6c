// How a flow reads its inputs. Every table reference of a flow's query (through views, which are
// expanded in place) is resolved before translation: a pipeline dataset, a sample catalog table,
// read_files, or a snapshot-version relation. A streaming read takes only what the flow has not
// read yet — new files of a sample folder, rows of an append-only dataset beyond the flow's
// position — and the new checkpoint is written in the same transaction as the flow's output. A file
// already read counts as changed when its content differs (its SHA-256 is in the checkpoint), not
// when only its modification time does (`touch`).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import {
    METADATA_TYPE, checkParquetColumns, isReaderError, listSampleSource, parquetArrivalSql, readFilesSql, resolveCatalogTable, resolveReadFiles, rootMessage,
    sampleError, sourceColumns, type ListedSampleSource, type SampleFile, type SampleSource,
} from '../catalog/sample-catalog.js';
import { EngineError, ErrorClass, PipelineDefinitionError, SampleDataError } from '../errors.js';
import { displayPath, sampleDirs, type SampleDirs } from '../spark/sample-files.js';
import { feedReadKey, type FileRead } from '../state/state-store.js';
import type { QueryIR, SourceSpan, TableRelationIR } from '../ir.js';
import { forEachTableRelation } from '../ir-walk.js';
import { ident, join, sql, type Sql } from '../sql/sql.js';
import { SparkTranslator, type ResolvedRelation, type TranslatedQuery } from '../sql/translate.js';
import { withSparkTypes, type Column } from '../sql/duckdb-types.js';
import type { UpdateContext } from './context.js';
import { checkAppendOnlySince, checkRange, endVersion, feedColumns, feedRows, snapshotAsFeed, startVersion, versionsOf } from './feed-reads.js';
import { datasetKey, isView } from './plan.js';

/** The hidden row id of append-only dataset tables (streaming readers remember a position in it). */
export const ROW_ID = '__psql_rowid';

/** How a flow reads: `stream` honours STREAM(...) incrementally, `batch` reads everything. */
export type ReadMode = 'stream' | 'batch';

/** Relations bound to current_snapshot_version() / last_snapshot_version() in a snapshot flow. */
export interface SnapshotBindings {
    current?: ResolvedRelation;
    last?: ResolvedRelation;
    /** Where the functions may be used, for INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION. */
    allowCurrent: boolean;
    allowLast: boolean;
    /** Which query of the snapshot flow is read: its FROM SNAPSHOT query or its WITH VERSION query. */
    query: 'snapshot' | 'version';
}

/** Table resolution and streaming checkpoints of one flow. */
export class FlowSources {
    private readonly resolved = new Map<TableRelationIR, ResolvedRelation>();
    private readonly arrivals = new Map<TableRelationIR, { sql: Sql; files: number }>();
    private readonly pendingFiles = new Map<string, Array<FileRead & { path: string }>>();
    private readonly pendingPositions = new Map<string, bigint>();
    private readonly samples: { source: ListedSampleSource; files: SampleFile[] }[] = [];
    /** Where sample reads start and the folders they must stay in. */
    private readonly dirs: SampleDirs;
    /** True when at least one read of this flow was a streaming read. */
    streamed = false;
    /** Relations forced to stream (the source of an AUTO CDC flow), whether or not STREAM was written. */
    readonly forceStreaming = new Set<TableRelationIR>();

    constructor(
        private readonly ctx: UpdateContext,
        readonly flowName: string,
        readonly mode: ReadMode,
        readonly snapshot?: SnapshotBindings,
    ) {
        this.dirs = sampleDirs(ctx.options.rootDir, { samplesDir: ctx.options.samplesDir, readRoots: ctx.options.readRoots });
    }

    /** Resolves every table reference of a query (and of the views it reads). */
    async prepare(query: QueryIR, viewPath: string[] = []): Promise<void> {
        // Spark's `_metadata` column of file sources is added only when the query mentions it.
        const metadata = /"_metadata"/i.test(JSON.stringify(query));
        const relations: TableRelationIR[] = [];
        forEachTableRelation(query, r => relations.push(r));
        for (const relation of relations) {
            if (this.resolved.has(relation) || relation.source.kind === 'cte') {
                continue;
            }
            this.ctx.checkCancelled();
            const source = relation.source;
            if (source.kind === 'dataset') {
                const key = datasetKey(source.name);
                const dataset = this.ctx.plan.datasets.get(key);
                if (dataset && isView(dataset)) {
                    if (viewPath.includes(key)) {
                        throw new PipelineDefinitionError(ErrorClass.cycle, `The view '${key}' reads itself.`, { span: relation.span });
                    }
                    await this.prepare(dataset.query!, [...viewPath, key]);
                    continue;
                }
            }
            this.resolved.set(relation, await this.resolve(relation, metadata));
        }
    }

    /** Translates a query of this flow into DuckDB SQL (after `prepare`). */
    translate(query: QueryIR): TranslatedQuery {
        return this.translator().query(query);
    }

    /** A translator bound to this flow's table resolution. */
    translator(): SparkTranslator {
        return new SparkTranslator({
            now: this.ctx.options.now,
            conf: this.ctx.plan.pipeline.conf,
            resolveTable: (relation, translator) => this.lookup(relation, translator),
        });
    }

    private lookup(relation: TableRelationIR, translator: SparkTranslator): ResolvedRelation {
        const source = relation.source;
        if (source.kind === 'dataset') {
            const dataset = this.ctx.plan.datasets.get(datasetKey(source.name));
            if (dataset && isView(dataset)) {
                const view = translator.query(dataset.query!);
                return { sql: sql`(${view.sql})`, columns: view.columns };
            }
        }
        const resolved = this.resolved.get(relation);
        if (!resolved) {
            throw new EngineError(ErrorClass.internal, `Table reference was not prepared: ${JSON.stringify(source)}.`, { span: relation.span });
        }
        return resolved;
    }

    private isStreaming(relation: TableRelationIR): boolean {
        return this.mode === 'stream' && (relation.streaming || this.forceStreaming.has(relation));
    }

    private async resolve(relation: TableRelationIR, metadata: boolean): Promise<ResolvedRelation> {
        const source = relation.source;
        switch (source.kind) {
            case 'snapshot_version': {
                const binding = source.which === 'current' ? this.snapshot?.current : this.snapshot?.last;
                const allowed = source.which === 'current' ? this.snapshot?.allowCurrent : this.snapshot?.allowLast;
                if (!allowed || !binding) {
                    throw snapshotVersionMisuse(source.which, this.snapshot?.query, relation.span);
                }
                return binding;
            }
            case 'dataset':
                return this.resolveDataset(relation, datasetKey(source.name));
            case 'catalog':
                return this.resolveSample(relation, resolveCatalogTable(source.name, this.ctx.plan.pipeline.catalog, this.dirs, relation.span, source.inferredColumns), metadata);
            case 'read_files':
                return this.resolveSample(relation, resolveReadFiles(source.path, source.options, this.dirs, relation.span, source.inferredColumns), metadata);
            case 'cte':
                throw new EngineError(ErrorClass.internal, 'CTE references are resolved by the translator.');
            case 'table_changes':
                return this.resolveTableChanges(relation, source);
        }
    }

    private async resolveDataset(relation: TableRelationIR, key: string): Promise<ResolvedRelation> {
        const display = this.ctx.plan.displayNames.get(key) ?? key;
        const state = await this.ctx.store.dataset(key);
        if (!state || !(await this.ctx.store.tableExists('ds', key))) {
            throw new EngineError(ErrorClass.tableNotFound,
                `The dataset '${display}' has not been computed yet; refresh it (or run the whole pipeline) before '${this.flowName}' reads it.`, { span: relation.span });
        }
        const table = this.ctx.store.datasetTable(key);
        const columns = withSparkTypes((await this.ctx.db.describe(sql`SELECT * FROM ${table}`)).filter(c => c.name !== ROW_ID), await this.ctx.store.columnTypes(key));
        const select = sql`SELECT ${join(columns.map(c => ident(c.name)))} FROM ${table}`;
        const options = relation.options ?? {};
        const streaming = this.isStreaming(relation);
        if (options.readChangeFeed) {
            return this.resolveFeed(relation, key, display, select, columns, streaming);
        }
        if (!streaming) {
            return { sql: sql`(${select})`, columns };
        }
        this.streamed = true;
        const store = this.ctx.store;
        const feedKey = feedReadKey(key);
        const versions = await store.versions(key);
        const latest = versions[versions.length - 1]?.version ?? 0;
        const next = this.pendingPositions.get(feedKey) ?? await store.readPosition(this.flowName, feedKey);
        if (options.skipChangeCommits && !state.appendOnly) {
            // Only the rows inserted by versions that updated or deleted nothing (docs/semantics.md §5.1); the first read takes every row.
            this.pendingPositions.set(feedKey, BigInt(latest + 1));
            if (next === 0n) {
                return { sql: sql`(${select})`, columns };
            }
            const pure = versions.filter(v => v.version >= Number(next) && !(v.metrics.numUpdatedRows ?? 0) && !(v.metrics.numDeletedRows ?? 0)).map(v => v.version);
            const rows = await feedRows(store, key, columns, Number(next), latest,
                pure.length > 0 ? sql`"_change_type" = 'insert' AND "_commit_version" IN (${join(pure.map(v => sql`${v}`))})` : sql`FALSE`);
            return { sql: sql`(SELECT ${join(columns.map(c => ident(c.name)))} FROM ${rows})`, columns };
        }
        if (!state.appendOnly) {
            throw new EngineError(ErrorClass.streamingSourceNotAppendOnly,
                `'${this.flowName}' reads '${display}' as a stream, but '${display}' is a ${state.kind.replace('_', ' ')} whose rows are updated or deleted; streaming sources must be append-only. `
                + 'Read it without STREAM(...) from a materialized view, or read its changes with STREAM ... WITH (readChangeFeed = true), or only its appends with WITH (skipChangeCommits = true).',
                { span: relation.span });
        }
        const position = this.pendingPositions.get(key) ?? await store.readPosition(this.flowName, key);
        if (position > 0n && !options.skipChangeCommits) {
            checkAppendOnlySince(versions, Number(next), display, this.flowName, relation.span);
        }
        this.pendingPositions.set(key, state.nextRowId - 1n);
        this.pendingPositions.set(feedKey, BigInt(latest + 1));
        return { sql: sql`(${select} WHERE ${ident(ROW_ID)} > ${position})`, columns };
    }

    /**
     * `t WITH (readChangeFeed = true [, startingVersion | startingTimestamp])` (docs/semantics.md §15.3): a batch read
     * gives the feed from the start (default: version 0); a stream gives, on its first update, the feed
     * from the start — or without one, the current rows as inserts of the latest version, as Delta
     * does — and afterwards the versions committed since it last read.
     */
    private async resolveFeed(relation: TableRelationIR, key: string, display: string, select: Sql, columns: Column[], streaming: boolean): Promise<ResolvedRelation> {
        const store = this.ctx.store;
        const options = relation.options ?? {};
        const versions = await versionsOf(store, key, display, relation.span);
        const latest = versions[versions.length - 1];
        const start = options.startingVersion !== undefined ? { version: options.startingVersion }
            : options.startingTimestamp !== undefined ? { timestamp: options.startingTimestamp } : undefined;
        const out = feedColumns(columns);
        if (!streaming) {
            const from = start ? await startVersion(store, versions, start, display, relation.span) : 0;
            return { sql: await feedRows(store, key, columns, from, latest.version), columns: out };
        }
        this.streamed = true;
        const feedKey = feedReadKey(key);
        const next = this.pendingPositions.get(feedKey) ?? await store.readPosition(this.flowName, feedKey);
        this.pendingPositions.set(feedKey, BigInt(latest.version + 1));
        if (next > 0n) {
            return { sql: await feedRows(store, key, columns, Number(next), latest.version), columns: out };
        }
        if (start) {
            return { sql: await feedRows(store, key, columns, await startVersion(store, versions, start, display, relation.span), latest.version), columns: out };
        }
        return { sql: snapshotAsFeed(select, latest), columns: out };
    }

    /** `table_changes('t', start [, end])` (docs/semantics.md §15.3): the feed of versions start..end (default: the latest). */
    private async resolveTableChanges(relation: TableRelationIR, source: Extract<TableRelationIR['source'], { kind: 'table_changes' }>): Promise<ResolvedRelation> {
        const key = datasetKey(source.name);
        const display = this.ctx.plan.displayNames.get(key) ?? key;
        const store = this.ctx.store;
        if (!(await store.dataset(key)) || !(await store.tableExists('ds', key))) {
            throw new EngineError(ErrorClass.tableNotFound,
                `The dataset '${display}' has not been computed yet; run the pipeline before '${this.flowName}' reads its changes.`, { span: relation.span });
        }
        const versions = await versionsOf(store, key, display, relation.span);
        const from = await startVersion(store, versions, source.start, display, relation.span);
        const to = source.end ? await endVersion(store, versions, source.end, display, relation.span) : versions[versions.length - 1].version;
        checkRange(from, to, relation.span);
        const columns = (await this.ctx.db.describe(sql`SELECT * FROM ${store.datasetTable(key)}`)).filter(c => c.name !== ROW_ID);
        return { sql: await feedRows(store, key, columns, from, to), columns: feedColumns(columns) };
    }

    private async resolveSample(relation: TableRelationIR, source: SampleSource, metadata: boolean): Promise<ResolvedRelation> {
        const listed = listSampleSource(this.dirs, source);
        const columns = sourceColumns(this.dirs, listed);
        let files = listed.files;
        if (this.isStreaming(relation)) {
            this.streamed = true;
            const read = await this.ctx.store.filesRead(this.flowName, listed.key);
            const pending = this.pendingFiles.get(listed.key) ?? [];
            const taken = new Set(pending.map(p => p.path));
            const recorded: Array<FileRead & { path: string }> = [];
            for (const file of listed.files) {
                const seen = read.get(file.path);
                if (!seen || taken.has(file.path)) {
                    continue;
                }
                const touched = await this.checkUnchanged(listed, file, seen, relation);
                if (touched) {
                    // Same content, new time: remember the new time, so the file is not hashed again.
                    recorded.push(touched);
                }
            }
            files = listed.files.filter(f => !read.has(f.path) && !taken.has(f.path));
            for (const file of files) {
                recorded.push({ path: file.path, size: file.size, mtimeMs: file.mtimeMs, sha256: await sha256(file) });
            }
            this.pendingFiles.set(listed.key, [...pending, ...recorded]);
        }
        if (listed.columns) {
            checkParquetColumns(this.dirs, listed, files, listed.columns);
        }
        this.samples.push({ source: listed, files });
        const arrival = parquetArrivalSql(this.dirs, listed, files, columns);
        if (arrival) {
            this.arrivals.set(relation, { sql: arrival, files: files.length });
        }
        const hidden = metadata ? [{ name: '_metadata', type: METADATA_TYPE, hidden: true }] : [];
        return { sql: readFilesSql(this.dirs, listed, files, columns, metadata), columns: [...columns, ...hidden] };
    }

    /**
     * Checks that a file a streaming flow already read still holds what it read: a different size is
     * a change; the same size and time is taken as unchanged; the same size with another time is
     * decided by the content hash. Returns the new checkpoint entry of a merely touched file.
     */
    private async checkUnchanged(source: ListedSampleSource, file: SampleFile, seen: FileRead, relation: TableRelationIR): Promise<(FileRead & { path: string }) | undefined> {
        if (seen.size === file.size && Math.abs(seen.mtimeMs - file.mtimeMs) <= 1) {
            return undefined;
        }
        const hash = seen.size === file.size ? await sha256(file) : undefined;
        // A checkpoint from before hashes were kept cannot tell a touch from an edit of the same size: it is taken as a touch.
        if (hash !== undefined && (seen.sha256 === undefined || seen.sha256 === hash)) {
            return { path: file.path, size: file.size, mtimeMs: file.mtimeMs, sha256: hash };
        }
        throw new SampleDataError(ErrorClass.streamingSourceChanged,
            `The file '${displayPath(this.dirs, file.path)}' of ${source.displayName} changed after the flow '${this.flowName}' read it. Streaming sources are append-only: add new rows as a new file in the folder, or run a full refresh.`,
            { span: relation.span, dataFile: file.path });
    }

    /**
     * For a relation read directly from Parquet sample files: SQL of the same rows plus an arrival
     * order column (see `parquetArrivalSql`), and the number of files read.
     */
    arrivalOrdered(relation: TableRelationIR): { sql: Sql; files: number } | undefined {
        return this.arrivals.get(relation);
    }

    /** Writes the new streaming checkpoints (inside the update's transaction). */
    async commit(): Promise<void> {
        for (const [source, files] of this.pendingFiles) {
            await this.ctx.store.addFilesRead(this.flowName, source, files);
        }
        for (const [dataset, position] of this.pendingPositions) {
            await this.ctx.store.setReadPosition(this.flowName, dataset, position);
        }
        this.pendingFiles.clear();
        this.pendingPositions.clear();
    }

    /** Maps an error of a query of this flow: reader errors name the sample file and line. */
    mapError(error: unknown, fallbackSpan?: SourceSpan): EngineError {
        const message = rootMessage(error);
        for (const { source, files } of this.samples) {
            if (isReaderError(message, files) || (files.length > 0 && /CSV Error|Malformed JSON|JSON transform error/.test(message) && this.samples.length === 1)) {
                return sampleError(error, source, files);
            }
        }
        const engineError = error instanceof EngineError ? error : new EngineError(ErrorClass.queryError, message.split('\n')[0], {}, { cause: error });
        return engineError.withContext({ span: fallbackSpan });
    }

    /** Describes the columns of SQL produced for this flow. */
    async describe(query: Sql, span?: SourceSpan): Promise<Column[]> {
        try {
            return await this.ctx.db.describe(query);
        } catch (error) {
            throw this.mapError(error, span);
        }
    }
}

/**
 * current_snapshot_version() / last_snapshot_version() where they do not exist (docs/semantics.md §11.3, V15).
 * Outside their clause Spark resolves the name as an ordinary table-valued function, which is not
 * defined: UNRESOLVABLE_TABLE_VALUED_FUNCTION. current_snapshot_version() in the FROM SNAPSHOT query of
 * a flow without WITH VERSION is INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION.
 */
export function snapshotVersionMisuse(which: 'current' | 'last', query: 'snapshot' | 'version' | undefined, span: SourceSpan | undefined): EngineError {
    const name = `${which}_snapshot_version`;
    if (which === 'current' && query === 'snapshot') {
        return new EngineError(ErrorClass.invalidSnapshotFunctionUsage,
            `${name}() can only be used in a snapshot flow that has WITH VERSION (...); this flow takes its version implicitly.`, { span });
    }
    const where = which === 'current'
        ? 'inside the FROM SNAPSHOT (...) query of an AUTO CDC FROM SNAPSHOT flow with WITH VERSION (...)'
        : 'inside the WITH VERSION (...) query of an AUTO CDC FROM SNAPSHOT flow';
    return new EngineError(ErrorClass.unresolvableTableFunction,
        `Could not resolve \`${name}\` to a table-valued function: it exists only ${where}.`, { span });
}

/** The typed empty relation used for last_snapshot_version() before the first commit. */
export function emptyVersionRelation(name: string, duckType: Sql): Sql {
    return sql`(SELECT CAST(NULL AS ${duckType}) AS ${ident(name)} WHERE FALSE)`;
}

/** The SHA-256 of a checked sample file's content (hex), read in chunks. */
async function sha256(file: SampleFile): Promise<string> {
    const hash = createHash('sha256');
    const handle = await fs.promises.open(file.realPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
        if (!(await handle.stat()).isFile()) {
            throw new SampleDataError(ErrorClass.sampleData, `'${file.path}' is not a regular file; only regular files are read as sample data.`, { dataFile: file.path });
        }
        const buffer = Buffer.alloc(1024 * 1024);
        for (;;) {
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
            if (bytesRead === 0) {
                break;
            }
            hash.update(buffer.subarray(0, bytesRead));
        }
    } finally {
        await handle.close();
    }
    return hash.digest('hex');
}
