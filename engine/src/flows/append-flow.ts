// Append flows (docs/semantics.md §14.1, §5.2): `INSERT [ONCE] INTO t BY NAME query`, a streaming table's
// `AS query`, and the append flows of managed tables. A streaming append reads only input it has
// not read before; an ONCE flow reads its input as a batch in the first update (or after a full
// refresh) and is idle afterwards.
import { toRows } from '../db/values.js';
import { ErrorClass, PipelineRuntimeError } from '../errors.js';
import type { AppendFlowIR, DatasetIR } from '../ir.js';
import type { UpdateContext } from '../update/context.js';
import { FlowSources } from '../update/sources.js';
import { queryIntoBatch } from './auto-cdc-flow.js';
import type { FlowOutcome } from './flow-outcome.js';
import { appendRows, applyExpectations, ensureTable, tableColumns } from './target.js';
import { ident, join, sql, type Sql } from '../sql/sql.js';
import { ROW_ID } from '../update/sources.js';
import { keepsFeed } from '../update/versions.js';

/** Runs one append flow for the current update. */
export async function runAppendFlow(ctx: UpdateContext, flow: AppendFlowIR, dataset: DatasetIR, key: string, appendOnlyTarget: boolean): Promise<FlowOutcome> {
    const state = await ctx.store.flow(flow.name);
    if (flow.once && state?.onceDone) {
        return { status: 'skipped', message: 'ONCE flow already ran (a full refresh runs it again)' };
    }
    const sources = new FlowSources(ctx, flow.name, flow.once ? 'batch' : 'stream');
    await sources.prepare(flow.query);
    if (!flow.once && dataset.kind === 'streaming_table' && !sources.streamed) {
        throw new PipelineRuntimeError(ErrorClass.batchForStreamingTable,
            `The flow '${flow.name}' appends to the streaming table '${dataset.name.join('.')}' but reads no streaming source; read the input with STREAM(...) or make it an INSERT ONCE flow.`,
            { span: flow.query.span ?? flow.span, flow: flow.name, dataset: key });
    }
    const { batch, columns } = await queryIntoBatch(ctx, sources, flow);
    await ensureTable(ctx, dataset, key, columns, { appendOnly: appendOnlyTarget });
    const survivors = await applyExpectations(ctx, dataset, key, batch, columns, flow.name);
    const firstRowId = (await ctx.store.dataset(key))?.nextRowId ?? 1n;
    const written = await appendRows(ctx, dataset, key, survivors, columns, { byName: flow.byName, flow: flow.name, span: flow.span });
    const metrics = ctx.metricsOf(key);
    metrics.num_output_rows = (metrics.num_output_rows ?? 0) + written;
    const sample = await ctx.db.query(sql`SELECT * FROM ${survivors} AS "__s" LIMIT ${ctx.options.limit}`);
    const inserted = toRows(sample.columns, sample.rows);
    const pending = await appendedFeed(ctx, key, firstRowId, survivors);
    await ctx.addChanges(key, { inserted: written, updated: 0, deleted: 0, rows: { inserted, updated: [], deleted: [] }, feed: inserted.map(r => ({ ...r, _change_type: 'insert' })), pending });
    await ctx.dropTemp(batch);
    await sources.commit();
    await ctx.store.setFlow(flow.name, { target: key, kind: 'append', signature: 'append', onceDone: flow.once, nextArrival: 0n });
    return { status: 'completed', rows: written };
}

/**
 * The feed of an append (a temporary table, or undefined when the dataset keeps no feed): the rows as
 * written, with the target's columns, found by their row ids (else the appended relation itself).
 */
export async function appendedFeed(ctx: UpdateContext, key: string, firstRowId: bigint, appended: Sql): Promise<Sql | undefined> {
    const target = await ctx.store.dataset(key);
    const targetColumns = await tableColumns(ctx, key);
    if (!keepsFeed(targetColumns)) {
        return undefined;
    }
    const pending = ctx.tempName('feed');
    await ctx.db.run(target?.appendOnly
        ? sql`CREATE TEMP TABLE ${pending} AS SELECT ${join(targetColumns.map(c => ident(c.name)))}, 'insert' AS "_change_type" FROM ${ctx.store.datasetTable(key)} WHERE ${ident(ROW_ID)} >= ${firstRowId}`
        : sql`CREATE TEMP TABLE ${pending} AS SELECT *, 'insert' AS "_change_type" FROM ${appended} AS "__s"`);
    return pending;
}
