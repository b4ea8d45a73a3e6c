// AUTO CDC flows (spec 6–10): classify source rows into change events, validate them, and fold
// them into the target as SCD type 1, SCD type 2 or BITEMPORAL.
//
// State lives per target in schema `cdc`: `<target>__meta` (arrival counter, latest truncate),
// and either `<target>__state` (SCD1 with full-row updates: the winning event per key, tombstones
// included — the maximum of a set is all the fold needs) or `<target>__log` (every event, for
// partial updates, SCD2 and BITEMPORAL, whose results depend on the whole per-key history). The
// rows of the keys touched by an update are recomputed from that state, set-based, in DuckDB.
import type { AutoCdcFlowIR, ColumnSelectionIR, DatasetIR, ExprIR, QueryIR, SourceSpan } from '../ir.js';
import { EngineError, ErrorClass, PipelineRuntimeError } from '../errors.js';
import { toRows } from '../db/values.js';
import { quoteIdent, quoteString } from '../sql/quote.js';
import { Scope } from '../sql/translate.js';
import { formatType, isOrderable, sameType, T, toDuckType, type Column } from '../sql/types.js';
import type { UpdateContext } from '../update/context.js';
import { FlowSources } from '../update/sources.js';
import { ARR, CTU, KIND, SEQ, SYS, bitemporalFoldSql, orderKey, scd1FoldSql, scd2FoldSql, type Authoring, type CdcLayout } from './cdc-sql.js';
import { appendRows, applyExpectations, diffByKey, ensureTable } from './target.js';
import type { FlowOutcome } from './flow-outcome.js';

const q = quoteIdent;

/** The flow writing change events into a CDC target (an AUTO CDC flow, or a snapshot flow sharing its target). */
export interface CdcWriter {
    name: string;
    span: SourceSpan;
    sequenceSpan?: SourceSpan;
}

/** Finds a column by name, case-insensitively. */
function findColumn(columns: Column[], name: string): Column | undefined {
    return columns.find(c => c.name.toLowerCase() === name.toLowerCase());
}

/** The columns a COLUMNS-style selection picks from `from` (in `from` order). */
export function selectColumns(selection: ColumnSelectionIR | undefined, from: Column[], clause: string, span: SourceSpan | undefined, context: { flow: string; dataset: string }): Column[] {
    if (!selection || selection.kind === 'all') {
        return from;
    }
    for (const name of selection.columns) {
        if (!findColumn(from, name)) {
            throw new PipelineRuntimeError(ErrorClass.columnsNotFound,
                `The column '${name}' of ${clause} does not exist; available columns: ${from.map(c => c.name).join(', ')}.`, { ...context, span });
        }
    }
    const listed = new Set(selection.columns.map(c => c.toLowerCase()));
    return from.filter(c => (selection.kind === 'list') === listed.has(c.name.toLowerCase()));
}

/** The analysed column layout of an AUTO CDC flow. */
interface CdcAnalysis {
    layout: CdcLayout;
    selected: Column[];
    srcColumns: Column[];
}

function analyse(flow: AutoCdcFlowIR, srcColumns: Column[], key: string): CdcAnalysis {
    const context = { flow: flow.name, dataset: key };
    const reserved = srcColumns.find(c => c.name.toLowerCase().startsWith('__psql_'));
    if (reserved) {
        throw new PipelineRuntimeError(ErrorClass.reservedColumn, `The source column '${reserved.name}' uses the engine's reserved prefix '__psql_'.`, { ...context, span: flow.source.span ?? flow.span });
    }
    const selected = selectColumns(flow.columns?.selection, srcColumns, 'COLUMNS', flow.columns?.span, context);
    const system = flow.storedAs.type === 'scd1' ? [] : flow.storedAs.type === 'scd2' ? ['__START_AT', '__END_AT'] : ['__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT'];
    const clash = selected.find(c => system.some(s => s.toLowerCase() === c.name.toLowerCase()));
    if (clash) {
        throw new PipelineRuntimeError(ErrorClass.reservedColumn,
            `The column '${clash.name}' conflicts with the ${flow.storedAs.type === 'scd2' ? 'SCD type 2' : 'bitemporal'} system column of the same name; exclude it with COLUMNS * EXCEPT (...).`,
            { ...context, span: flow.columns?.span ?? flow.span });
    }
    const keys = flow.keys.columns.map(name => {
        const source = findColumn(srcColumns, name);
        if (!source) {
            throw new PipelineRuntimeError(ErrorClass.columnsNotFound, `The key column '${name}' does not exist in the source; available columns: ${srcColumns.map(c => c.name).join(', ')}.`, { ...context, span: flow.keys.span });
        }
        if (!findColumn(selected, name)) {
            throw new PipelineRuntimeError(ErrorClass.keyNotSelected, `The key column '${name}' is excluded by the COLUMNS clause; keys must be part of the target.`, { ...context, span: flow.columns?.span ?? flow.keys.span });
        }
        return source;
    });
    const keySet = new Set(keys.map(k => k.name.toLowerCase()));
    const data = selected.filter(c => !keySet.has(c.name.toLowerCase()));
    let authoring: Authoring = { kind: 'all' };
    if (flow.ignoreNullUpdates) {
        const checked = selectColumns(flow.ignoreNullUpdates.columns, data, 'IGNORE NULL UPDATES ON', flow.ignoreNullUpdates.span, context);
        authoring = { kind: 'ignore_nulls', nullChecked: new Set(checked.map(c => c.name.toLowerCase())) };
    }
    if (flow.columnsToUpdate) {
        const column = findColumn(srcColumns, flow.columnsToUpdate.column);
        if (!column) {
            throw new PipelineRuntimeError(ErrorClass.columnsNotFound, `The COLUMNS TO UPDATE column '${flow.columnsToUpdate.column}' does not exist in the source.`, { ...context, span: flow.columnsToUpdate.span });
        }
        if (column.type.kind !== 'array' || !['string', 'varchar', 'char'].includes(column.type.element.kind)) {
            throw new PipelineRuntimeError(ErrorClass.schemaMismatch, `The COLUMNS TO UPDATE column '${column.name}' must be ARRAY<STRING>, not ${formatType(column.type)}.`, { ...context, span: flow.columnsToUpdate.span });
        }
        authoring = { kind: 'columns_to_update' };
    }
    const tracked = flow.storedAs.type === 'scd2'
        ? selectColumns(flow.trackHistory?.selection, data, 'TRACK HISTORY ON', flow.trackHistory?.span, context).map(c => c.name)
        : data.map(c => c.name);
    return { layout: { keys, data, seqType: T.int, authoring, tracked }, selected, srcColumns };
}

/** Runs one AUTO CDC flow for the current update. */
export async function runAutoCdcFlow(ctx: UpdateContext, flow: AutoCdcFlowIR, dataset: DatasetIR, key: string): Promise<FlowOutcome> {
    const flowState = await ctx.store.flow(flow.name);
    const signature = JSON.stringify({ kind: 'auto_cdc', keys: flow.keys.columns.map(k => k.toLowerCase()), storedAs: flow.storedAs.type });
    const context = { flow: flow.name, dataset: key };
    if (flowState && flowState.signature !== signature) {
        throw new PipelineRuntimeError(ErrorClass.keySchemaDrift,
            `The KEYS or STORED AS of the AUTO CDC flow '${flow.name}' changed since the last update; run a full refresh of '${dataset.name.join('.')}' to rebuild it.`,
            { ...context, span: flow.keys.span ?? flow.span });
    }
    if (flow.once && flowState?.onceDone) {
        return { status: 'skipped', message: 'AUTO CDC ONCE flow already ran (a full refresh runs it again)' };
    }
    const sources = new FlowSources(ctx, flow.name, flow.once ? 'batch' : 'stream');
    const sourceQuery: QueryIR = { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [flow.source] } };
    sources.forceStreaming.add(flow.source);
    await sources.prepare(sourceQuery);
    const source = sources.translate(sourceQuery);
    const srcColumns = await sources.describe(source.sql, flow.source.span ?? flow.span);
    const analysis = analyse(flow, srcColumns, key);
    const layout = analysis.layout;
    const mode = flow.storedAs.type;

    // Classify source rows into events; expectations apply to the incoming rows first (spec 14.2).
    const translator = sources.translator();
    const scope = Scope.of(srcColumns, '__src');
    const translate = (expr: ExprIR, span: SourceSpan | undefined): string => {
        try {
            return translator.expr(expr, scope).sql;
        } catch (error) {
            throw error instanceof EngineError ? error.withContext({ ...context, span }) : error;
        }
    };
    const seqSql = translate(flow.sequenceBy.expr, flow.sequenceBy.span);
    const sysSql = flow.systemSequenceBy ? translate(flow.systemSequenceBy.expr, flow.systemSequenceBy.span) : undefined;
    const deleteSql = flow.applyAsDeleteWhen ? translate(flow.applyAsDeleteWhen.condition, flow.applyAsDeleteWhen.span) : 'FALSE';
    const truncateSql = flow.applyAsTruncateWhen ? translate(flow.applyAsTruncateWhen.condition, flow.applyAsTruncateWhen.span) : 'FALSE';

    const meta = ctx.store.stateTable('cdc', key, 'meta');
    if (!(await ctx.store.tableExists('cdc', `${key}__meta`))) {
        await ctx.db.run(`CREATE TABLE ${meta} AS SELECT CAST(1 AS BIGINT) AS next_arrival`);
    }
    const base = BigInt((await ctx.db.scalar(`SELECT next_arrival FROM ${meta}`)) as bigint);

    let input = `(${source.sql})`;
    let raw: string | undefined;
    if (dataset.expectations.length > 0) {
        raw = ctx.tempName('raw');
        await runMapped(ctx, sources, `CREATE TEMP TABLE ${raw} AS ${source.sql}`, flow.span);
        input = await applyExpectations(ctx, dataset, key, raw, srcColumns, flow.name);
    }
    const ev = ctx.tempName('events');
    const items = [
        ...layout.keys.map(k => `"__src".${q(k.name)}`),
        ...layout.data.map(c => `"__src".${q(c.name)}`),
        `${seqSql} AS ${q(SEQ)}`,
        ...(sysSql ? [`${sysSql} AS ${q(SYS)}`] : []),
        `CASE WHEN (${truncateSql}) IS TRUE THEN 2 WHEN (${deleteSql}) IS TRUE THEN 1 ELSE 0 END AS ${q(KIND)}`,
        ...(flow.columnsToUpdate ? [`"__src".${q(flow.columnsToUpdate.column)} AS ${q(CTU)}`] : []),
        `CAST(${base} + row_number() OVER () - 1 AS BIGINT) AS ${q(ARR)}`,
    ];
    await runMapped(ctx, sources, `CREATE TEMP TABLE ${ev} AS SELECT ${items.join(', ')} FROM ${input} AS "__src"`, flow.span);
    if (raw) {
        await ctx.dropTemp(raw);
    }

    const evColumns = await ctx.db.describe(`SELECT * FROM ${ev}`);
    layout.seqType = findColumn(evColumns, SEQ)!.type;
    layout.sysType = sysSql ? findColumn(evColumns, SYS)!.type : undefined;
    if (!isOrderable(layout.seqType)) {
        throw new PipelineRuntimeError(ErrorClass.nonOrderableSequence,
            `The SEQUENCE BY expression of '${flow.name}' has type ${formatType(layout.seqType)}, which cannot be ordered.`, { ...context, span: flow.sequenceBy.span });
    }
    if (layout.sysType && !isOrderable(layout.sysType)) {
        throw new PipelineRuntimeError(ErrorClass.nonOrderableSequence,
            `The SYSTEM SEQUENCE BY expression of '${flow.name}' has type ${formatType(layout.sysType)}, which cannot be ordered.`, { ...context, span: flow.systemSequenceBy?.span });
    }
    const count = Number(await ctx.db.scalar(`SELECT count(*) FROM ${ev}`));
    if (count > 0) {
        await validateEvents(ctx, flow, layout, ev, context);
        await ctx.db.run(`UPDATE ${meta} SET next_arrival = ${base + BigInt(count)}`);
        const outputColumns = [...analysis.selected];
        if (mode !== 'scd1') {
            outputColumns.push({ name: '__START_AT', type: layout.seqType }, { name: '__END_AT', type: layout.seqType });
        }
        if (mode === 'bitemporal') {
            outputColumns.push({ name: '__SYSTEM_START_AT', type: layout.sysType! }, { name: '__SYSTEM_END_AT', type: layout.sysType! });
        }
        await ensureTable(ctx, dataset, key, outputColumns, { appendOnly: false, extra: outputColumns.slice(analysis.selected.length) });
        const partial = layout.authoring.kind !== 'all';
        const writer: CdcWriter = { name: flow.name, span: flow.span, sequenceSpan: flow.sequenceBy.span };
        const result = mode === 'scd1' && !partial
            ? await applyScd1Compact(ctx, dataset, key, layout, ev, outputColumns, writer)
            : await applyFromLog(ctx, dataset, key, layout, mode, ev, outputColumns, writer);
        const metrics = ctx.metricsOf(key);
        metrics.num_upserted_rows = (metrics.num_upserted_rows ?? 0) + result.inserted + result.updated;
        metrics.num_deleted_rows = (metrics.num_deleted_rows ?? 0) + result.deleted;
        ctx.addChanges(key, result);
    } else {
        const metrics = ctx.metricsOf(key);
        metrics.num_upserted_rows ??= 0;
        metrics.num_deleted_rows ??= 0;
        if (!(await ctx.store.tableExists('ds', key))) {
            const outputColumns = [...analysis.selected];
            if (mode !== 'scd1') {
                outputColumns.push({ name: '__START_AT', type: layout.seqType }, { name: '__END_AT', type: layout.seqType });
            }
            if (mode === 'bitemporal') {
                outputColumns.push({ name: '__SYSTEM_START_AT', type: layout.sysType! }, { name: '__SYSTEM_END_AT', type: layout.sysType! });
            }
            await ensureTable(ctx, dataset, key, outputColumns, { appendOnly: false, extra: outputColumns.slice(analysis.selected.length) });
        }
    }
    await ctx.dropTemp(ev);
    await sources.commit();
    await ctx.store.setFlow(flow.name, { target: key, kind: 'auto_cdc', signature, onceDone: flow.once, nextArrival: 0n });
    return { status: 'completed', rows: count };
}

/** Runs SQL of a flow, mapping reader errors onto data files and others onto the flow. */
export async function runMapped(ctx: UpdateContext, sources: FlowSources, sql: string, span: SourceSpan | undefined): Promise<void> {
    try {
        await ctx.db.run(sql);
    } catch (error) {
        throw sources.mapError(error, span);
    }
}

/** NULL_KEY / NULL_SEQUENCE checks (spec 6.2, 6.3): truncate events are exempt from NULL_KEY. */
async function validateEvents(ctx: UpdateContext, flow: AutoCdcFlowIR, layout: CdcLayout, ev: string, context: { flow: string; dataset: string }): Promise<void> {
    const nullKey = layout.keys.map(k => `${q(k.name)} IS NULL`).join(' OR ');
    const checks = [
        `count(*) FILTER (WHERE ${q(KIND)} <> 2 AND (${nullKey}))`,
        `count(*) FILTER (WHERE ${q(SEQ)} IS NULL)`,
        layout.sysType ? `count(*) FILTER (WHERE ${q(SYS)} IS NULL)` : '0',
    ];
    const result = await ctx.db.query(`SELECT ${checks.join(', ')} FROM ${ev}`);
    const [keys, seqs, syss] = result.rows[0].map(Number);
    const sample = async (where: string): Promise<string> => {
        const columns = [...layout.keys, ...layout.data].map(c => q(c.name)).join(', ');
        const rows = await ctx.db.query(`SELECT ${columns} FROM ${ev} WHERE ${where} LIMIT 1`);
        return JSON.stringify(toRows(rows.columns, rows.rows)[0]);
    };
    if (keys > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullKey,
            `${keys} change event(s) of '${flow.name}' have a NULL key column (KEYS ${layout.keys.map(k => k.name).join(', ')}), e.g. ${await sample(`${q(KIND)} <> 2 AND (${nullKey})`)}.`,
            { ...context, span: flow.keys.span ?? flow.span });
    }
    if (seqs > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullSequence,
            `${seqs} change event(s) of '${flow.name}' have a NULL SEQUENCE BY value, e.g. ${await sample(`${q(SEQ)} IS NULL`)}.`,
            { ...context, span: flow.sequenceBy.span ?? flow.span });
    }
    if (syss > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullSequence,
            `${syss} change event(s) of '${flow.name}' have a NULL SYSTEM SEQUENCE BY value, e.g. ${await sample(`${q(SYS)} IS NULL`)}.`,
            { ...context, span: flow.systemSequenceBy?.span ?? flow.span });
    }
}

/** Fails when the sequence type differs from the one stored in the target's state (Spark's SEQUENCING_TYPE_DRIFT). */
async function checkSequenceType(ctx: UpdateContext, table: string, layout: CdcLayout, flow: CdcWriter, key: string): Promise<void> {
    const stored = await ctx.db.describe(`SELECT ${q(SEQ)} FROM ${table}`);
    if (!sameType(stored[0].type, layout.seqType)) {
        throw new PipelineRuntimeError(ErrorClass.sequenceTypeDrift,
            `The SEQUENCE BY type of '${flow.name}' changed from ${formatType(stored[0].type)} to ${formatType(layout.seqType)}; run a full refresh of the target.`,
            { flow: flow.name, dataset: key, span: flow.sequenceSpan ?? flow.span });
    }
}

function keyJoin(layout: CdcLayout, left: string, right: string): string {
    return layout.keys.map(k => `${left}.${q(k.name)} = ${right}.${q(k.name)}`).join(' AND ');
}

function eventRank(layout: CdcLayout, alias: string): string {
    return `struct_pack(o := ${orderKey(`${alias}.${q(SEQ)}`, layout.seqType)}, k := ${alias}.${q(KIND)}, a := ${alias}.${q(ARR)})`;
}

/**
 * SCD type 1 with full-row upserts: the per-key state is the latest event (upsert or tombstone)
 * under the per-key order; a key is visible when that event is an upsert newer than the latest
 * truncate. New events replace the state of a key only when they rank higher.
 */
export async function applyScd1Compact(ctx: UpdateContext, dataset: DatasetIR, key: string, layout: CdcLayout, ev: string, outputColumns: Column[], flow: CdcWriter) {
    const state = ctx.store.stateTable('cdc', key, 'state');
    const meta = ctx.store.stateTable('cdc', key, 'meta');
    const keys = layout.keys.map(k => q(k.name)).join(', ');
    const payload = [...layout.keys, ...layout.data].map(c => q(c.name));
    if (!(await ctx.store.tableExists('cdc', `${key}__state`))) {
        await ctx.db.run(`CREATE TABLE ${state} AS SELECT ${[...payload, q(SEQ), q(KIND), q(ARR)].join(', ')} FROM ${ev} WHERE FALSE`);
        await ctx.db.run(`ALTER TABLE ${meta} ADD COLUMN trunc_seq ${toDuckType(layout.seqType)}`);
    } else {
        await checkSequenceType(ctx, state, layout, flow, key);
    }
    // Truncates: the latest one acts as a delete of every key at its sequence (spec 7.3).
    const truncRank = (sql: string): string => orderKey(sql, layout.seqType);
    const newTrunc = await ctx.db.scalar(`SELECT count(*) FROM ${ev} WHERE ${q(KIND)} = 2`);
    let truncChanged = false;
    if (Number(newTrunc) > 0) {
        const changed = await ctx.db.scalar(`SELECT (SELECT trunc_seq FROM ${meta}) IS NULL OR `
            + `${truncRank(`(SELECT arg_max(${q(SEQ)}, ${truncRank(q(SEQ))}) FROM ${ev} WHERE ${q(KIND)} = 2)`)} > ${truncRank(`(SELECT trunc_seq FROM ${meta})`)}`);
        truncChanged = changed === true;
        if (truncChanged) {
            await ctx.db.run(`UPDATE ${meta} SET trunc_seq = (SELECT arg_max(${q(SEQ)}, ${truncRank(q(SEQ))}) FROM ${ev} WHERE ${q(KIND)} = 2)`);
        }
    }
    const win = ctx.tempName('winners');
    const packed = `struct_pack(${[...layout.data.map(c => `${q(c.name)} := ${q(c.name)}`), `${q(SEQ)} := ${q(SEQ)}`, `${q(KIND)} := ${q(KIND)}`, `${q(ARR)} := ${q(ARR)}`].join(', ')})`;
    await ctx.db.run(`CREATE TEMP TABLE ${win} AS SELECT ${keys}, unnest("__psql_w") FROM (SELECT ${keys}, arg_max_null(${packed}, ${eventRank(layout, '"__ev"')}) AS "__psql_w" `
        + `FROM ${ev} AS "__ev" WHERE ${q(KIND)} <> 2 GROUP BY ${keys})`);
    const chg = ctx.tempName('changed');
    await ctx.db.run(`CREATE TEMP TABLE ${chg} AS SELECT "__w".* FROM ${win} AS "__w" LEFT JOIN ${state} AS "__s" ON ${keyJoin(layout, '"__w"', '"__s"')} `
        + `WHERE "__s".${q(layout.keys[0].name)} IS NULL OR ${eventRank(layout, '"__w"')} > ${eventRank(layout, '"__s"')}`);
    await ctx.dropTemp(win);
    const target = ctx.store.datasetTable(key);
    const before = ctx.tempName('before');
    const touched = truncChanged ? '' : ` SEMI JOIN ${chg} AS "__c" USING (${keys})`;
    await ctx.db.run(`CREATE TEMP TABLE ${before} AS SELECT * FROM ${target}${touched}`);
    await ctx.db.run(`DELETE FROM ${state} USING ${chg} AS "__c" WHERE ${keyJoin(layout, state, '"__c"')}`);
    await ctx.db.run(`INSERT INTO ${state} BY NAME SELECT * FROM ${chg}`);
    const visible = `${q(KIND)} = 0 AND ((SELECT trunc_seq FROM ${meta}) IS NULL OR ${truncRank(q(SEQ))} > ${truncRank(`(SELECT trunc_seq FROM ${meta})`)})`;
    const rowColumns = [...layout.keys, ...layout.data];
    const rows = `(SELECT ${payload.join(', ')} FROM ${truncChanged ? state : chg} WHERE ${visible})`;
    if (truncChanged) {
        await ctx.db.run(`DELETE FROM ${target}`);
    } else {
        await ctx.db.run(`DELETE FROM ${target} USING ${chg} AS "__c" WHERE ${keyJoin(layout, target, '"__c"')}`);
    }
    await appendRows(ctx, dataset, key, rows, rowColumns, { byName: true, flow: flow.name, span: flow.span });
    const after = truncChanged ? target : `(SELECT * FROM ${target} SEMI JOIN ${chg} AS "__c" USING (${keys}))`;
    const diff = await diffByKey(ctx, before, after, layout.keys.map(k => k.name), outputColumns);
    await ctx.dropTemp(before);
    await ctx.dropTemp(chg);
    return diff;
}

/**
 * Partial-update SCD1, SCD2 and BITEMPORAL: events are appended to the target's log and the rows
 * of every touched key are recomputed from all of its events.
 */
async function applyFromLog(ctx: UpdateContext, dataset: DatasetIR, key: string, layout: CdcLayout, mode: 'scd1' | 'scd2' | 'bitemporal', ev: string, outputColumns: Column[], flow: CdcWriter) {
    const log = ctx.store.stateTable('cdc', key, 'log');
    const truncs = ctx.store.stateTable('cdc', key, 'truncs');
    const keys = layout.keys.map(k => q(k.name)).join(', ');
    if (!(await ctx.store.tableExists('cdc', `${key}__log`))) {
        await ctx.db.run(`CREATE TABLE ${log} AS SELECT * FROM ${ev} WHERE FALSE`);
        await ctx.db.run(`CREATE TABLE ${truncs} AS SELECT ${q(SEQ)} FROM ${ev} WHERE FALSE`);
    } else {
        await checkSequenceType(ctx, log, layout, flow, key);
    }
    const newTruncs = Number(await ctx.db.scalar(`SELECT count(*) FROM ${ev} WHERE ${q(KIND)} = 2`));
    await ctx.db.run(`INSERT INTO ${log} BY NAME SELECT * FROM ${ev} WHERE ${q(KIND)} <> 2`);
    if (newTruncs > 0) {
        await ctx.db.run(`INSERT INTO ${truncs} SELECT ${q(SEQ)} FROM ${ev} WHERE ${q(KIND)} = 2`);
    }
    const touched = ctx.tempName('touched');
    await ctx.db.run(`CREATE TEMP TABLE ${touched} AS SELECT DISTINCT ${keys} FROM ${newTruncs > 0 ? log : ev} WHERE ${q(KIND)} <> 2`);
    // Truncates (SCD1 only) become deletes of every touched key at their sequence.
    const nullData = layout.data.map(c => `NULL AS ${q(c.name)}`);
    const truncEvents = `SELECT ${layout.keys.map(k => `"__t".${q(k.name)}`).join(', ')}${nullData.length ? ', ' : ''}${nullData.join(', ')}, "__x".${q(SEQ)}, 1 AS ${q(KIND)}, CAST(-1 AS BIGINT) AS ${q(ARR)} `
        + `FROM ${touched} AS "__t" CROSS JOIN ${truncs} AS "__x"`;
    const logged = `SELECT * FROM ${log} SEMI JOIN ${touched} USING (${keys})`;
    const events = mode === 'scd1' ? `(${logged} UNION ALL BY NAME ${truncEvents})` : `(${logged})`;
    const fold = mode === 'scd1' ? scd1FoldSql(layout, events) : mode === 'scd2' ? scd2FoldSql(layout, events) : bitemporalFoldSql(layout, events);
    const target = ctx.store.datasetTable(key);
    const before = ctx.tempName('before');
    await ctx.db.run(`CREATE TEMP TABLE ${before} AS SELECT * FROM ${target} SEMI JOIN ${touched} USING (${keys})`);
    const rows = ctx.tempName('rows');
    await ctx.db.run(`CREATE TEMP TABLE ${rows} AS ${fold}`);
    await ctx.db.run(`DELETE FROM ${target} USING ${touched} AS "__t" WHERE ${keyJoin(layout, target, '"__t"')}`);
    await appendRows(ctx, dataset, key, rows, outputColumns, { byName: true, flow: flow.name, span: flow.span });
    const after = `(SELECT * FROM ${target} SEMI JOIN ${touched} USING (${keys}))`;
    const pk = [...layout.keys.map(k => k.name), ...(mode === 'scd1' ? [] : ['__START_AT']), ...(mode === 'bitemporal' ? ['__SYSTEM_START_AT'] : [])];
    const diff = await diffByKey(ctx, before, after, pk, outputColumns);
    for (const table of [before, rows, touched]) {
        await ctx.dropTemp(table);
    }
    return diff;
}

/** Quotes a string for SQL (re-exported for the snapshot flow). */
export const sqlString = quoteString;
