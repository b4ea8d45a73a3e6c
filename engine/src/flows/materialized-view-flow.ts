// Materialized views (docs/semantics.md §5.4): after every update the view equals its query over the current
// inputs. The local engine recomputes it fully, which gives exactly that result.
import type { DatasetIR, MaterializedViewFlowIR } from '../ir.js';
import type { UpdateContext } from '../update/context.js';
import { FlowSources } from '../update/sources.js';
import { queryIntoBatch } from './auto-cdc-flow.js';
import type { FlowOutcome } from './flow-outcome.js';
import { appendRows, applyExpectations, diffRows, ensureTable } from './target.js';
import { sql } from '../sql/sql.js';

/** Recomputes a materialized view. */
export async function runMaterializedViewFlow(ctx: UpdateContext, flow: MaterializedViewFlowIR, dataset: DatasetIR, key: string): Promise<FlowOutcome> {
    const sources = new FlowSources(ctx, flow.name, 'batch');
    await sources.prepare(flow.query);
    const { batch, columns } = await queryIntoBatch(ctx, sources, flow);
    const table = ctx.store.datasetTable(key);
    const before = ctx.tempName('before');
    const existed = await ctx.store.tableExists('ds', key);
    if (existed) {
        await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${table}`);
        // An undeclared schema follows the query, which may have changed since the last update.
        if (!dataset.columns) {
            await ctx.db.run(sql`DROP TABLE ${table}`);
        } else {
            await ctx.db.run(sql`DELETE FROM ${table}`);
        }
    } else {
        await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${batch} WHERE FALSE`);
    }
    const targetColumns = await ensureTable(ctx, dataset, key, columns, { appendOnly: false });
    const survivors = await applyExpectations(ctx, dataset, key, batch, columns, flow.name);
    const written = await appendRows(ctx, dataset, key, survivors, columns, { byName: true, flow: flow.name, span: flow.span });
    const metrics = ctx.metricsOf(key);
    metrics.num_output_rows = (metrics.num_output_rows ?? 0) + written;
    const comparable = (await ctx.db.describe(sql`SELECT * FROM ${before}`)).map(c => c.name.toLowerCase());
    const sameShape = targetColumns.length === comparable.length && targetColumns.every(c => comparable.includes(c.name.toLowerCase()));
    if (sameShape) {
        await ctx.addChanges(key, await diffRows(ctx, before, table, targetColumns));
    }
    await ctx.dropTemp(before);
    await ctx.dropTemp(batch);
    await ctx.store.setFlow(flow.name, { target: key, kind: 'materialized_view', signature: 'materialized_view', onceDone: false, nextArrival: 0n });
    return { status: 'completed', rows: written };
}
