// REPLACE USING (docs/semantics.md §12) and REPLACE WHERE (docs/semantics.md §13) flows.
import { ErrorClass, PipelineRuntimeError } from '../errors.js';
import type { DatasetIR, ReplaceUsingFlowIR, ReplaceWhereFlowIR } from '../ir.js';
import { ident, join, sql, type Sql } from '../sql/sql.js';
import { Scope } from '../sql/translate.js';
import { isOrderable, formatType } from '../spark/spark-types.js';
import type { UpdateContext } from '../update/context.js';
import { FlowSources } from '../update/sources.js';
import { queryIntoBatch } from './auto-cdc-flow.js';
import type { FlowOutcome } from './flow-outcome.js';
import { appendRows, applyExpectations, diffRows, ensureTable, tableColumns } from './target.js';

const q = ident;

/**
 * REPLACE USING (k) SEQUENCE BY s: per key of the microbatch keep the rows with the highest `s`;
 * if that sequence is newer than the key's current one, the key's rows are replaced; if equal,
 * the rows are appended; if older, they are ignored. The current sequence per key is kept as flow
 * state, so it works whether or not `s` is an output column.
 */
export async function runReplaceUsingFlow(ctx: UpdateContext, flow: ReplaceUsingFlowIR, dataset: DatasetIR, key: string): Promise<FlowOutcome> {
    const context = { flow: flow.name, dataset: key };
    const sources = new FlowSources(ctx, flow.name, 'stream');
    await sources.prepare(flow.query);
    const { batch, columns } = await queryIntoBatch(ctx, sources, flow);
    const find = (name: string) => columns.find(c => c.name.toLowerCase() === name.toLowerCase());
    for (const k of flow.keys.columns) {
        if (!find(k)) {
            throw new PipelineRuntimeError(ErrorClass.columnsNotFound, `The REPLACE USING key '${k}' is not a column of the flow's query.`, { ...context, span: flow.keys.span });
        }
    }
    const seqColumn = find(flow.sequenceBy.column);
    if (!seqColumn) {
        throw new PipelineRuntimeError(ErrorClass.columnsNotFound, `The SEQUENCE BY column '${flow.sequenceBy.column}' is not a column of the flow's query.`, { ...context, span: flow.sequenceBy.span });
    }
    if (!isOrderable(seqColumn.type)) {
        throw new PipelineRuntimeError(ErrorClass.nonOrderableSequence, `The SEQUENCE BY column '${seqColumn.name}' has type ${formatType(seqColumn.type)}, which cannot be ordered.`, { ...context, span: flow.sequenceBy.span });
    }
    const nullSeq = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${batch} WHERE ${q(seqColumn.name)} IS NULL`));
    if (nullSeq > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullSequence, `${nullSeq} row(s) of '${flow.name}' have a NULL SEQUENCE BY value.`, { ...context, span: flow.sequenceBy.span });
    }
    await ensureTable(ctx, dataset, key, columns, { appendOnly: false });
    const survivors = await applyExpectations(ctx, dataset, key, batch, columns, flow.name);
    const keys = flow.keys.columns.map(k => q(find(k)!.name));
    const keyList = join(keys);
    const seq = q(seqColumn.name);
    const stateTable = ctx.store.stateTable('rep', flow.name, 'seq');
    if (!(await ctx.store.tableExists('rep', `${flow.name}__seq`))) {
        await ctx.db.run(sql`CREATE TABLE ${stateTable} AS SELECT ${keyList}, ${seq} AS "__psql_c" FROM ${batch} WHERE FALSE`);
    }
    const match = (a: Sql, b: Sql): Sql => join(keys.map(k => sql`${a}.${k} IS NOT DISTINCT FROM ${b}.${k}`), sql` AND `);
    const kept = ctx.tempName('kept');
    await ctx.db.run(sql`CREATE TEMP TABLE ${kept} AS SELECT * FROM ${survivors} AS "__s" QUALIFY ${seq} = max(${seq}) OVER (PARTITION BY ${keyList})`);
    const decisions = ctx.tempName('decisions');
    await ctx.db.run(sql`CREATE TEMP TABLE ${decisions} AS SELECT "__m".*, "__c"."__psql_c" FROM (SELECT ${keyList}, max(${seq}) AS "__psql_m" FROM ${kept} GROUP BY ${keyList}) AS "__m"
        LEFT JOIN ${stateTable} AS "__c" ON ${match(sql`"__m"`, sql`"__c"`)}`);
    const table = ctx.store.datasetTable(key);
    const before = ctx.tempName('before');
    await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${table} AS "__t" WHERE EXISTS (SELECT 1 FROM ${decisions} AS "__d" WHERE ${match(sql`"__t"`, sql`"__d"`)})`);
    // Newer sequence: the key's rows are replaced.
    await ctx.db.run(sql`DELETE FROM ${table} WHERE EXISTS (SELECT 1 FROM ${decisions} AS "__d" WHERE ${match(table, sql`"__d"`)} AND "__d"."__psql_m" > "__d"."__psql_c")`);
    const accepted = sql`(SELECT "__k".* FROM ${kept} AS "__k" JOIN ${decisions} AS "__d" ON ${match(sql`"__k"`, sql`"__d"`)} WHERE "__d"."__psql_c" IS NULL OR "__d"."__psql_m" >= "__d"."__psql_c")`;
    const written = await appendRows(ctx, dataset, key, accepted, columns, { byName: true, flow: flow.name, span: flow.span });
    await ctx.db.run(sql`DELETE FROM ${stateTable} AS "__c" WHERE EXISTS (SELECT 1 FROM ${decisions} AS "__d" WHERE ${match(sql`"__c"`, sql`"__d"`)} AND ("__d"."__psql_c" IS NULL OR "__d"."__psql_m" > "__d"."__psql_c"))`);
    await ctx.db.run(sql`INSERT INTO ${stateTable} SELECT ${keyList}, "__psql_m" FROM ${decisions} WHERE "__psql_c" IS NULL OR "__psql_m" > "__psql_c"`);
    const after = sql`(SELECT * FROM ${table} AS "__t" WHERE EXISTS (SELECT 1 FROM ${decisions} AS "__d" WHERE ${match(sql`"__t"`, sql`"__d"`)}))`;
    const targetColumns = await tableColumns(ctx, key);
    await ctx.addChanges(key, await diffRows(ctx, before, after, targetColumns));
    const metrics = ctx.metricsOf(key);
    metrics.num_output_rows = (metrics.num_output_rows ?? 0) + written;
    for (const t of [batch, kept, decisions, before]) {
        await ctx.dropTemp(t);
    }
    await sources.commit();
    await ctx.store.setFlow(flow.name, { target: key, kind: 'replace_using', signature: 'replace_using', onceDone: false, nextArrival: 0n });
    return { status: 'completed', rows: written };
}

/**
 * REPLACE WHERE pred: delete the target rows matching the predicate and insert the query's rows
 * restricted to the same predicate (the engine adds it; docs/semantics.md §13). `current_date()` is the update's
 * fixed clock.
 */
export async function runReplaceWhereFlow(ctx: UpdateContext, flow: ReplaceWhereFlowIR, dataset: DatasetIR, key: string): Promise<FlowOutcome> {
    const sources = new FlowSources(ctx, flow.name, 'batch');
    await sources.prepare(flow.query);
    const { batch, columns } = await queryIntoBatch(ctx, sources, flow);
    const targetColumns = await ensureTable(ctx, dataset, key, columns, { appendOnly: false });
    const translator = sources.translator();
    const wrap = (condition: Sql): Sql => sql`coalesce(CAST(${condition} AS BOOLEAN), FALSE)`;
    const onTarget = wrap(translator.expr(flow.predicate.condition, Scope.of(targetColumns)).sql);
    const onBatch = wrap(translator.expr(flow.predicate.condition, Scope.of(columns)).sql);
    const table = ctx.store.datasetTable(key);
    const before = ctx.tempName('before');
    await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${table} WHERE ${onTarget}`);
    await ctx.db.run(sql`DELETE FROM ${table} WHERE ${onTarget}`);
    const filtered = ctx.tempName('filtered');
    await ctx.db.run(sql`CREATE TEMP TABLE ${filtered} AS SELECT * FROM ${batch} WHERE ${onBatch}`);
    const survivors = await applyExpectations(ctx, dataset, key, filtered, columns, flow.name);
    const written = await appendRows(ctx, dataset, key, survivors, columns, { byName: true, flow: flow.name, span: flow.span });
    await ctx.addChanges(key, await diffRows(ctx, before, sql`(SELECT * FROM ${table} WHERE ${onTarget})`, targetColumns));
    const metrics = ctx.metricsOf(key);
    metrics.num_output_rows = (metrics.num_output_rows ?? 0) + written;
    for (const t of [batch, before, filtered]) {
        await ctx.dropTemp(t);
    }
    await ctx.store.setFlow(flow.name, { target: key, kind: 'replace_where', signature: 'replace_where', onceDone: false, nextArrival: 0n });
    return { status: 'completed', rows: written };
}
