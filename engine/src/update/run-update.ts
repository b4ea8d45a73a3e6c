// One pipeline update (docs/semantics.md §5): analyse the pipeline, open the state, reconcile it with the
// pipeline's current definitions (dropped datasets, changed flows, full refresh), run the
// selected flows in dependency order inside one transaction, commit, and read the results.
import * as path from 'node:path';
import { toRows, type Row } from '../db/values.js';
import { EngineError, ErrorClass } from '../errors.js';
import type { DatasetIR, DatasetKind, PipelineIR } from '../ir.js';
import { runAppendFlow } from '../flows/append-flow.js';
import { runAutoCdcFlow } from '../flows/auto-cdc-flow.js';
import type { FlowOutcome } from '../flows/flow-outcome.js';
import { runMaterializedViewFlow } from '../flows/materialized-view-flow.js';
import { runReplaceUsingFlow, runReplaceWhereFlow } from '../flows/replace-flows.js';
import { runSnapshotFlow } from '../flows/snapshot-flow.js';
import { tableColumns } from '../flows/target.js';
import { typesByName, withSparkTypes } from '../sql/duckdb-types.js';
import { ident, join, sql, type Sql } from '../sql/sql.js';
import { formatType } from '../spark/spark-types.js';
import type { ResourceOptions } from '../db/resources.js';
import type { DatabaseKeeper } from '../db/kept-databases.js';
import { StateStore, type PipelineIdentity, type StateOpenOptions } from '../state/state-store.js';
import { sampleDirs } from '../spark/sample-files.js';
import { UpdateContext, type DatasetChanges, type DatasetMetrics, type ProgressEvent, type ResolvedOptions } from './context.js';
import { checkLocalFunctions } from './local-functions.js';
import { checkPythonInputs } from './python-inputs.js';
import { buildPlan, datasetKey, isView, type PipelinePlan } from './plan.js';
import { FlowSources, ROW_ID } from './sources.js';
import { setOwn } from '../records.js';

/**
 * Where a pipeline's state is and whose it is; the memory and disk an operation on it may use
 * (`memoryLimit`, `spillLimit`: bytes or sizes such as `4GB`).
 */
export interface StateOptions extends ResourceOptions {
    /** Folder of the state database (`ROOT/.pipeline-sql`); created if missing. */
    stateDir: string;
    /**
     * The pipeline this is (a stable identity; see PipelineIdentity). An update records it in a state
     * that has none; a state recorded for another pipeline is refused (PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE).
     */
    pipeline?: PipelineIdentity;
    /** Keeps the state database open between operations (see DatabaseKeeper); default: open and close each time. */
    keeper?: DatabaseKeeper;
}

/** Options of an update. */
export interface RunOptions extends StateOptions {
    /** Folder of the sample catalog (`ROOT/samples`). */
    samplesDir: string;
    /** Pipeline root, for relative read_files paths; default: the parent of `samplesDir`. */
    rootDir?: string;
    /**
     * Folders that sample reads may touch: absolute, real (symlink-resolved) directories, the pipeline
     * (or bundle) root plus folders the user allowed. Default: the pipeline root. Any other path is
     * refused with PIPELINE_SQL_READ_OUTSIDE_PIPELINE.
     */
    readRoots?: string[];
    /** The clock of the update (`current_date()`, `current_timestamp()`): `yyyy-MM-dd HH:mm:ss` (UTC) or a Date. */
    now?: string | Date;
    /** `true`: fully refresh every selected dataset; a list: fully refresh these datasets. */
    fullRefresh?: boolean | string[];
    /** Update only these datasets (names as declared); default: all. */
    refresh?: string[];
    /** Rows returned per dataset (and per change list); default 1000. */
    limit?: number;
    /** Aborting rolls the update back. */
    signal?: AbortSignal;
    onProgress?: (event: ProgressEvent) => void;
}

/** A column of a result. */
export interface ResultColumn {
    name: string;
    /** Spark SQL type name, e.g. `INT`, `STRING`, `ARRAY<STRING>`, `STRUCT<a: INT>`. */
    type: string;
}

/** The contents of one dataset after the update. */
export interface DatasetResult {
    kind: DatasetKind;
    columns: ResultColumn[];
    /** At most `limit` rows. */
    rows: Row[];
    /** Total number of rows. */
    rowCount: number;
    truncated: boolean;
    /** What this update changed (absent when the dataset was not updated). */
    changes?: DatasetChanges;
    /** A view that could not be evaluated for the preview. */
    error?: { class: string; message: string };
}

/** What happened to one flow. */
export interface FlowReport {
    dataset: string;
    status: 'completed' | 'skipped' | 'not_selected';
    rows?: number;
    message?: string;
}

/** A successful update (the CLI's `--json` success document plus preview details). */
export interface UpdateSuccess {
    ok: true;
    datasets: Record<string, DatasetResult>;
    metrics: Record<string, DatasetMetrics>;
    flows: Record<string, FlowReport>;
    durationMs: number;
}

/** Where and why an update failed. */
export interface UpdateErrorInfo {
    class: string;
    message: string;
    dataset?: string;
    flow?: string;
    /** Pipeline source file (from the responsible clause's span) or the bad data file. */
    file?: string;
    line?: number;
    column?: number;
    endLine?: number;
    endColumn?: number;
}

/** A failed update: the state is as it was after the last successful commit. */
export interface UpdateFailure {
    ok: false;
    error: UpdateErrorInfo;
    durationMs: number;
}

/** The result of `runUpdate`. */
export type UpdateResult = UpdateSuccess | UpdateFailure;

const NOW_PATTERN = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$/;

function resolveNow(now: string | Date | undefined): { date: string; timestamp: string } {
    let timestamp: string;
    if (now === undefined || now instanceof Date) {
        const date = now ?? new Date();
        timestamp = date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '').replace('Z', '');
    } else {
        if (!NOW_PATTERN.test(now)) {
            throw new EngineError(ErrorClass.invalidPipeline, `The clock '${now}' is not of the form 'yyyy-MM-dd HH:mm:ss'.`);
        }
        timestamp = now.length === 10 ? `${now} 00:00:00` : now;
    }
    return { date: timestamp.slice(0, 10), timestamp };
}

/**
 * The folders DuckDB may read besides the state folder (its sandbox, `Database.open`): the read roots,
 * by default the pipeline root and the samples folder.
 */
export function sandboxRoots(options: { samplesDir: string; rootDir?: string; readRoots?: readonly string[] }): string[] {
    return [...(options.readRoots ?? [options.rootDir ?? path.dirname(path.resolve(options.samplesDir)), options.samplesDir])];
}

/** Converts any thrown value into the error document of a failed update. */
export function errorInfo(error: unknown, plan?: PipelinePlan): UpdateErrorInfo {
    const e = error instanceof EngineError
        ? error
        : new EngineError(ErrorClass.internal, `Internal engine error: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
    const info: UpdateErrorInfo = { class: e.code, message: e.message };
    if (e.dataset) {
        info.dataset = plan?.displayNames.get(e.dataset) ?? e.dataset;
    }
    if (e.flow) {
        info.flow = e.flow;
    }
    if (e.dataFile) {
        info.file = e.dataFile;
        if (e.dataLine !== undefined) {
            info.line = e.dataLine;
        }
    } else if (e.span) {
        info.file = e.span.file;
        info.line = e.span.line;
        info.column = e.span.column;
        info.endLine = e.span.endLine;
        info.endColumn = e.span.endColumn;
    }
    return info;
}

/** Runs one triggered update of a pipeline and reports its outcome (never throws). */
export async function runUpdate(pipeline: PipelineIR, options: RunOptions): Promise<UpdateResult> {
    const started = Date.now();
    let plan: PipelinePlan | undefined;
    let store: StateStore | undefined;
    const abort = () => store?.db.interrupt();
    try {
        plan = buildPlan(pipeline);
        const resolved: ResolvedOptions = {
            stateDir: options.stateDir,
            samplesDir: options.samplesDir,
            rootDir: options.rootDir ?? path.dirname(path.resolve(options.samplesDir)),
            readRoots: options.readRoots,
            now: resolveNow(options.now),
            limit: options.limit ?? 1000,
            signal: options.signal,
            onProgress: options.onProgress,
        };
        const selection = selectDatasets(plan, options);
        checkPythonInputs(plan, selection.run, sampleDirs(resolved.rootDir, { samplesDir: resolved.samplesDir, readRoots: resolved.readRoots }));
        checkLocalFunctions(plan, selection.run);
        if (options.signal?.aborted) {
            throw new EngineError(ErrorClass.cancelled, 'The update was cancelled before it started.');
        }
        store = await StateStore.open(options.stateDir, { ...stateOpenOptions(options), readRoots: sandboxRoots(options), claim: true });
        options.signal?.addEventListener('abort', abort);
        const ctx = new UpdateContext(store, plan, resolved);
        const flows = await runFlows(ctx, selection);
        const datasets = await readResults(ctx);
        const metrics: Record<string, DatasetMetrics> = {};
        for (const [key, value] of ctx.metrics) {
            setOwn(metrics, plan.displayNames.get(key) ?? key, value);
        }
        options.onProgress?.({ phase: 'done', message: 'Update completed' });
        return { ok: true, datasets, metrics, flows, durationMs: Date.now() - started };
    } catch (error) {
        await store?.rollback().catch(() => undefined);
        const info = errorInfo(error instanceof EngineError || !(error instanceof Error) ? error : mapUnknown(error), plan);
        return { ok: false, error: info, durationMs: Date.now() - started };
    } finally {
        options.signal?.removeEventListener('abort', abort);
        const closing = performance.now();
        store?.close();
        if (process.env.PIPELINE_SQL_TRACE === '1') {
            process.stderr.write(`[close ${(performance.now() - closing).toFixed(1)} ms]\n`);
        }
    }
}

function mapUnknown(error: Error): unknown {
    return /Interrupt/i.test(error.message) ? new EngineError(ErrorClass.cancelled, 'The update was cancelled; the previous pipeline state is unchanged.') : error;
}

interface Selection {
    run: Set<string>;
    full: Set<string>;
}

function selectDatasets(plan: PipelinePlan, options: RunOptions): Selection {
    const lookup = (name: string): string => {
        const key = datasetKey(name.split('.'));
        const dataset = plan.datasets.get(key) ?? [...plan.datasets.entries()].find(([k]) => k.endsWith(`.${key}`))?.[1];
        if (!dataset) {
            throw new EngineError(ErrorClass.unknownDataset, `Cannot refresh '${name}': the pipeline has no dataset of that name.`);
        }
        if (isView(dataset)) {
            throw new EngineError(ErrorClass.invalidPipeline, `Cannot refresh '${name}': it is a view, which is computed when read.`);
        }
        return datasetKey(dataset.name);
    };
    const refresh = options.refresh?.map(lookup);
    const fullList = Array.isArray(options.fullRefresh) ? options.fullRefresh.map(lookup) : [];
    const all = plan.order;
    const run = new Set(refresh || fullList.length > 0 ? [...(refresh ?? []), ...fullList] : all);
    const full = new Set(options.fullRefresh === true ? [...run] : fullList);
    return { run, full };
}

async function runFlows(ctx: UpdateContext, selection: Selection): Promise<Record<string, FlowReport>> {
    const { store, plan } = ctx;
    const report: Record<string, FlowReport> = {};
    const progress = (event: ProgressEvent) => ctx.options.onProgress?.(event);
    progress({ phase: 'start', message: 'Starting update' });
    await store.begin();
    ctx.versions.operation = selection.full.size > 0 ? 'PIPELINE FULL REFRESH' : 'PIPELINE UPDATE';
    await reconcile(ctx, selection);
    const queue = plan.order.filter(key => selection.run.has(key)).flatMap(key => (plan.flowsByTarget.get(key) ?? []).map(flow => ({ key, flow })));
    let index = 0;
    for (const key of plan.order) {
        const flows = plan.flowsByTarget.get(key) ?? [];
        const display = plan.displayNames.get(key) ?? key;
        if (!selection.run.has(key)) {
            for (const flow of flows) {
                setOwn(report, flow.name, { dataset: display, status: 'not_selected' });
            }
            continue;
        }
        const dataset = plan.datasets.get(key)!;
        const appendOnly = flows.every(f => f.kind === 'append');
        const sharedWithCdc = flows.some(f => f.kind === 'auto_cdc');
        for (const flow of flows) {
            ctx.checkCancelled();
            index++;
            progress({ phase: 'flow', index, total: queue.length, flow: flow.name, dataset: display, message: `Running flow '${flow.name}' into '${display}'` });
            let outcome: FlowOutcome;
            try {
                switch (flow.kind) {
                    case 'append':
                        outcome = await runAppendFlow(ctx, flow, dataset, key, appendOnly);
                        break;
                    case 'auto_cdc':
                        outcome = await runAutoCdcFlow(ctx, flow, dataset, key);
                        break;
                    case 'snapshot':
                        outcome = await runSnapshotFlow(ctx, flow, dataset, key, sharedWithCdc, async () => {
                            await ctx.versions.flush();
                            await store.commit();
                            await store.begin();
                        });
                        break;
                    case 'replace_using':
                        outcome = await runReplaceUsingFlow(ctx, flow, dataset, key);
                        break;
                    case 'replace_where':
                        outcome = await runReplaceWhereFlow(ctx, flow, dataset, key);
                        break;
                    case 'materialized_view':
                        outcome = await runMaterializedViewFlow(ctx, flow, dataset, key);
                        break;
                }
            } catch (error) {
                const mapped = error instanceof EngineError ? error : new EngineError(ErrorClass.internal, `Internal engine error: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
                throw mapped.withContext({ flow: flow.name, dataset: key, span: flow.span });
            }
            setOwn(report, flow.name, { dataset: display, status: outcome.status, rows: outcome.rows, message: outcome.message });
        }
        // The dataset's new version is visible to the datasets after it (table_changes, feed reads).
        await ctx.versions.flush();
    }
    // Every dataset that exists has a history: creation is version 0 (docs/semantics.md §15.3).
    for (const key of plan.order) {
        if (selection.run.has(key) && await store.dataset(key)) {
            await ctx.versions.created(key);
        }
    }
    await ctx.versions.flush();
    const metrics = Object.fromEntries([...ctx.metrics].map(([k, v]) => [plan.displayNames.get(k) ?? k, v]));
    await store.recordUpdate(new Date(Date.now()).toISOString(), new Date().toISOString(), selection.full.size > 0, metrics);
    progress({ phase: 'commit', message: 'Committing' });
    await store.commit();
    return report;
}

/** Brings the state in line with the pipeline definition and applies full refreshes. */
async function reconcile(ctx: UpdateContext, selection: Selection): Promise<void> {
    const { store, plan } = ctx;
    const flowTargets = new Map(plan.pipeline.flows.map(f => [f.name, datasetKey(f.target)]));
    for (const name of await store.datasetNames()) {
        const dataset = plan.datasets.get(name);
        const stored = await store.dataset(name);
        if (dataset && stored?.kind === 'streaming_table' && dataset.kind === 'managed_table') {
            throw new EngineError(ErrorClass.switchStToManaged,
                `'${dataset.name.join('.')}' was a streaming table and cannot become a managed table (CREATE TABLE ... FLOW); use another name.`,
                { span: dataset.span, dataset: name });
        }
        if (!dataset || isView(dataset) || stored?.kind !== dataset.kind || selection.full.has(name)) {
            await store.dropDataset(name);
        }
    }
    for (const name of await store.flowNames()) {
        const stored = await store.flow(name);
        const target = flowTargets.get(name);
        if (!target || target !== stored?.target || selection.full.has(target) || !(await store.dataset(target))) {
            await store.clearFlow(name);
        }
    }
    for (const key of selection.full) {
        for (const flow of plan.flowsByTarget.get(key) ?? []) {
            await store.clearFlow(flow.name);
        }
    }
}

async function readResults(ctx: UpdateContext): Promise<Record<string, DatasetResult>> {
    const { store, plan } = ctx;
    const limit = ctx.options.limit;
    ctx.options.onProgress?.({ phase: 'results', message: 'Reading results' });
    const out: Record<string, DatasetResult> = {};
    for (const [key, dataset] of plan.datasets) {
        const display = plan.displayNames.get(key) ?? key;
        if (isView(dataset)) {
            setOwn(out, display, await readView(ctx, dataset, key));
            continue;
        }
        const state = await store.dataset(key);
        if (!state || !(await store.tableExists('ds', key))) {
            continue;
        }
        const table = store.datasetTable(key);
        const columns = await tableColumns(ctx, key);
        const select = join(columns.map(c => ident(c.name)));
        const order = state.appendOnly ? ident(ROW_ID) : resultOrder(plan, key, columns.map(c => c.name));
        const result = await ctx.db.query(sql`SELECT ${select} FROM ${table} ORDER BY ${order} LIMIT ${limit}`)
            .catch(() => ctx.db.query(sql`SELECT ${select} FROM ${table} LIMIT ${limit}`));
        const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${table}`));
        setOwn(out, display, {
            kind: dataset.kind,
            columns: columns.map(c => ({ name: c.name, type: formatType(c.type) })),
            rows: toRows(result.columns, result.rows),
            rowCount,
            truncated: rowCount > limit,
            changes: ctx.changes.get(key),
        });
    }
    return out;
}

/**
 * The order rows of a table written by CDC flows are shown in: by key, then a key's versions by
 * time (`__START_AT`, then `__SYSTEM_START_AT`), then the remaining columns; other tables by all columns.
 */
function resultOrder(plan: PipelinePlan, key: string, columns: string[]): Sql {
    const keys = (plan.flowsByTarget.get(key) ?? []).flatMap(f => (f.kind === 'auto_cdc' || f.kind === 'snapshot' ? [f.keys.columns] : []))[0] ?? [];
    const find = (name: string): string | undefined => columns.find(c => c.toLowerCase() === name.toLowerCase());
    const leading = [...keys, '__START_AT', '__SYSTEM_START_AT'].map(find).filter((c): c is string => c !== undefined);
    if (leading.length === 0) {
        return sql`ALL`;
    }
    const rest = columns.filter(c => !leading.includes(c));
    return join([...new Set([...leading, ...rest])].map(ident));
}

/** What opening the state needs from the options of any entry point. */
export function stateOpenOptions(options: StateOptions): StateOpenOptions {
    return { pipeline: options.pipeline, memoryLimit: options.memoryLimit, spillLimit: options.spillLimit, keeper: options.keeper };
}

/** Options of `readState`. */
export interface ReadStateOptions extends StateOptions {
    samplesDir: string;
    rootDir?: string;
    /** As `RunOptions.readRoots`. */
    readRoots?: string[];
    now?: string | Date;
    limit?: number;
}

/**
 * Reads the datasets as the last successful update left them, without running any flow (for
 * previews, and to inspect the state after a failed update). Views are evaluated over that state.
 */
export async function readState(pipeline: PipelineIR, options: ReadStateOptions): Promise<{ ok: true; datasets: Record<string, DatasetResult> } | UpdateFailure> {
    const started = Date.now();
    let plan: PipelinePlan | undefined;
    let store: StateStore | undefined;
    try {
        plan = buildPlan(pipeline);
        store = await StateStore.open(options.stateDir, { ...stateOpenOptions(options), readRoots: sandboxRoots(options) });
        const ctx = new UpdateContext(store, plan, {
            stateDir: options.stateDir,
            samplesDir: options.samplesDir,
            rootDir: options.rootDir ?? path.dirname(path.resolve(options.samplesDir)),
            readRoots: options.readRoots,
            now: resolveNow(options.now),
            limit: options.limit ?? 1000,
        });
        return { ok: true, datasets: await readResults(ctx) };
    } catch (error) {
        return { ok: false, error: errorInfo(error, plan), durationMs: Date.now() - started };
    } finally {
        store?.close();
    }
}

/** Evaluates a view (as a batch read) for the preview. */
async function readView(ctx: UpdateContext, dataset: DatasetIR, key: string): Promise<DatasetResult> {
    const limit = ctx.options.limit;
    try {
        const sources = new FlowSources(ctx, `__preview_${key}`, 'batch');
        await sources.prepare(dataset.query!);
        const query = sources.translate(dataset.query!);
        const result = await ctx.db.query(sql`SELECT * FROM (${query.sql}) LIMIT ${limit}`).catch(error => {
            throw sources.mapError(error, dataset.span);
        });
        const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM (${query.sql})`));
        return {
            kind: dataset.kind,
            columns: withSparkTypes(result.columns, typesByName(query.columns)).map(c => ({ name: c.name, type: formatType(c.type) })),
            rows: toRows(result.columns, result.rows),
            rowCount,
            truncated: rowCount > limit,
        };
    } catch (error) {
        const info = errorInfo(error);
        return { kind: dataset.kind, columns: [], rows: [], rowCount: 0, truncated: false, error: { class: info.class, message: info.message } };
    }
}
