// Read-only views of a pipeline's state for previews: an ad-hoc query over the current datasets
// and sample tables, and the change events an AUTO CDC target keeps (the events behind each row
// or version).
import * as path from 'node:path';
import { toRows, type JsonValue, type Row } from '../db/values.js';
import { EngineError, ErrorClass } from '../errors.js';
import type { PipelineIR, QueryIR } from '../ir.js';
import { empty, ident, join, sql, str } from '../sql/sql.js';
import { formatType } from '../spark/spark-types.js';
import { StateStore } from '../state/state-store.js';
import { ARR, KIND, SEQ, SYS, eventRank } from '../flows/cdc-sql.js';
import { UpdateContext } from './context.js';
import { buildPlan, datasetKey, type PipelinePlan } from './plan.js';
import { errorInfo, sandboxRoots, stateOpenOptions, type ResultColumn, type StateOptions, type UpdateFailure } from './run-update.js';
import { FlowSources, ROW_ID } from './sources.js';
import { feedRows, versionsOf } from './feed-reads.js';
import type { DatasetVersion } from '../state/state-store.js';

/** Where the state and samples of a pipeline are. */
export interface InspectOptions extends StateOptions {
    samplesDir: string;
    rootDir?: string;
    /** As `RunOptions.readRoots`. */
    readRoots?: string[];
    now?: string;
    /** Rows returned at most (default 1000). */
    limit?: number;
}

/** Rows of an inspection. */
export interface InspectResult {
    ok: true;
    columns: ResultColumn[];
    rows: Row[];
    rowCount: number;
    truncated: boolean;
}

export async function withContext<T>(pipeline: PipelineIR, options: InspectOptions, work: (ctx: UpdateContext, plan: PipelinePlan) => Promise<T>): Promise<T | UpdateFailure> {
    const started = Date.now();
    let plan: PipelinePlan | undefined;
    let store: StateStore | undefined;
    try {
        plan = buildPlan(pipeline);
        store = await StateStore.open(options.stateDir, { ...stateOpenOptions(options), readRoots: sandboxRoots(options) });
        const now = options.now ?? new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
        const ctx = new UpdateContext(store, plan, {
            stateDir: options.stateDir,
            samplesDir: options.samplesDir,
            rootDir: options.rootDir ?? path.dirname(path.resolve(options.samplesDir)),
            readRoots: options.readRoots,
            now: { date: now.slice(0, 10), timestamp: now.length === 10 ? `${now} 00:00:00` : now },
            limit: options.limit ?? 1000,
        });
        return await work(ctx, plan);
    } catch (error) {
        return { ok: false, error: errorInfo(error, plan), durationMs: Date.now() - started };
    } finally {
        store?.close();
    }
}

/**
 * Evaluates a query (batch reads) over the datasets as the last update left them and over the
 * sample catalog, without changing anything — for "run this SELECT" previews and hovers.
 */
export async function runQuery(pipeline: PipelineIR, query: QueryIR, options: InspectOptions): Promise<InspectResult | UpdateFailure> {
    return withContext(pipeline, options, async ctx => {
        const sources = new FlowSources(ctx, '__query', 'batch');
        await sources.prepare(query);
        const translated = sources.translate(query).sql;
        const limit = ctx.options.limit;
        const result = await ctx.db.query(sql`SELECT * FROM (${translated}) LIMIT ${limit}`).catch(error => {
            throw sources.mapError(error, query.span);
        });
        const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM (${translated})`));
        return {
            ok: true as const,
            columns: result.columns.map(c => ({ name: c.name, type: formatType(c.type) })),
            rows: toRows(result.columns, result.rows),
            rowCount,
            truncated: rowCount > limit,
        };
    });
}

/**
 * The change events an AUTO CDC target keeps: every event for SCD2 / BITEMPORAL / partial-update
 * SCD1 targets, the latest event per key (tombstones included) for SCD1. Each row has the key and
 * data columns plus `_sequence`, `_system_sequence` (bitemporal), `_change` (`upsert`, `delete`,
 * `truncate`) and `_arrival` (order of arrival), ordered by key and per-key event order.
 * `keys` restricts the events to one key (column name → value).
 */
export async function readChangeEvents(pipeline: PipelineIR, dataset: string, options: InspectOptions & { keys?: Record<string, JsonValue> }): Promise<InspectResult | UpdateFailure> {
    return withContext(pipeline, options, async (ctx, plan) => {
        const key = datasetKey(dataset.split('.'));
        if (!plan.datasets.has(key)) {
            throw new EngineError(ErrorClass.unknownDataset, `The pipeline has no dataset '${dataset}'.`);
        }
        const log = await ctx.store.tableExists('cdc', `${key}__log`);
        const state = await ctx.store.tableExists('cdc', `${key}__state`);
        if (!log && !state) {
            throw new EngineError(ErrorClass.unknownDataset, `'${dataset}' has no change events: it is not an AUTO CDC target, or it has not been updated yet.`);
        }
        const table = ctx.store.stateTable('cdc', key, log ? 'log' : 'state');
        const columns = await ctx.db.describe(sql`SELECT * FROM ${table}`);
        const seqType = columns.find(c => c.name === SEQ)!.type;
        const data = columns.filter(c => !c.name.startsWith('__psql_'));
        const cdcFlows = (plan.flowsByTarget.get(key) ?? []).filter(f => f.kind === 'auto_cdc' || f.kind === 'snapshot');
        const keyColumns = cdcFlows[0]?.keys.columns ?? [];
        const upsertWinsTies = cdcFlows[0]?.storedAs.type === 'scd1';
        const filters = Object.entries(options.keys ?? {}).map(([name, value]) => {
            const column = data.find(c => c.name.toLowerCase() === name.toLowerCase());
            if (!column) {
                throw new EngineError(ErrorClass.columnsNotFound, `'${dataset}' has no key column '${name}'.`);
            }
            return sql`CAST(${ident(column.name)} AS VARCHAR) IS NOT DISTINCT FROM ${value === null ? sql`NULL` : str(String(value))}`;
        });
        const items = [
            ...data.map(c => ident(c.name)),
            sql`${ident(SEQ)} AS "_sequence"`,
            ...(columns.some(c => c.name === SYS) ? [sql`${ident(SYS)} AS "_system_sequence"`] : []),
            sql`CASE ${ident(KIND)} WHEN 0 THEN 'upsert' WHEN 1 THEN 'delete' ELSE 'truncate' END AS "_change"`,
            sql`${ident(ARR)} AS "_arrival"`,
        ];
        const where = filters.length > 0 ? sql` WHERE ${join(filters, sql` AND `)}` : empty;
        const order = join([...keyColumns.map(ident), eventRank({ seqType, upsertWinsTies }, empty)]);
        const limit = ctx.options.limit;
        const result = await ctx.db.query(sql`SELECT ${join(items)} FROM ${table}${where} ORDER BY ${order} LIMIT ${limit}`);
        const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${table}${where}`));
        return {
            ok: true as const,
            columns: result.columns.map(c => ({ name: c.name, type: formatType(c.type) })),
            rows: toRows(result.columns, result.rows),
            rowCount,
            truncated: rowCount > limit,
        };
    });
}

/** A dataset's versions and the change data feed of one of them (the preview's history picker). */
export interface VersionChangesResult extends InspectResult {
    /** Every version, oldest first. */
    versions: DatasetVersion[];
    /** The version whose feed the rows are. */
    version: number;
}

/**
 * The versions of a dataset (spec 15.3) and the feed rows of one version (default: the latest), with
 * the dataset's columns and `_change_type` — what `table_changes('t', v, v)` returns, without the
 * commit columns.
 */
export async function readVersionChanges(pipeline: PipelineIR, dataset: string, options: InspectOptions & { version?: number }): Promise<VersionChangesResult | UpdateFailure> {
    return withContext(pipeline, options, async (ctx, plan) => {
        const key = datasetKey(dataset.split('.'));
        const display = plan.displayNames.get(key) ?? dataset;
        if (!plan.datasets.has(key) || !(await ctx.store.tableExists('ds', key))) {
            throw new EngineError(ErrorClass.unknownDataset, `The pipeline's state has no dataset '${dataset}'.`);
        }
        const versions = await versionsOf(ctx.store, key, display);
        const version = options.version ?? versions[versions.length - 1].version;
        if (!versions.some(v => v.version === version)) {
            throw new EngineError(ErrorClass.cdcVersionAfterLatest, `'${display}' has no version ${version}; its versions are 0 to ${versions[versions.length - 1].version}.`);
        }
        const columns = (await ctx.db.describe(sql`SELECT * FROM ${ctx.store.datasetTable(key)}`)).filter(c => c.name !== ROW_ID);
        const rows = sql`(SELECT * EXCLUDE ("_commit_version", "_commit_timestamp") FROM ${await feedRows(ctx.store, key, columns, version, version)})`;
        const limit = ctx.options.limit;
        const result = await ctx.db.query(sql`SELECT * FROM ${rows} LIMIT ${limit}`);
        const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${rows}`));
        return {
            ok: true as const, versions, version,
            columns: result.columns.map(c => ({ name: c.name, type: formatType(c.type) })),
            rows: toRows(result.columns, result.rows), rowCount, truncated: rowCount > limit,
        };
    });
}
