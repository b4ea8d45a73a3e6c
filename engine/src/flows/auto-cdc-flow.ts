// AUTO CDC flows (docs/semantics.md §6–§10): classify source rows into change events, validate them, and fold
// them into the target as SCD type 1, SCD type 2 or BITEMPORAL.
//
// State lives per target in schema `cdc`: `<target>__meta` (arrival counter, latest truncate), and
// - SCD1 with full-row updates: `<target>__state`, the winning event per key, tombstones included
//   (the maximum of a set is all the fold needs); the target is a view over it;
// - SCD2 with full-row updates: `<target>__log`, every event annotated with its part in the history
//   (see `scd2AnnotateSql`); the target is a view over it, so the log is the only copy of the data;
// - partial updates and BITEMPORAL: `<target>__log`, every event, and a target table whose rows of
//   the keys touched by an update are recomputed from the log.
// Everything is set-based, in DuckDB.
import type { AutoCdcFlowIR, ColumnSelectionIR, DatasetIR, ExprIR, QueryIR, SourceSpan } from '../ir.js';
import { EngineError, ErrorClass, PipelineRuntimeError } from '../errors.js';
import { toRows } from '../db/values.js';
import { empty, ident, join, sql, str, type Sql } from '../sql/sql.js';
import { Scope } from '../sql/translate.js';
import { toDuckType, typesByName, withSparkTypes, type Column } from '../sql/duckdb-types.js';
import { formatType, isOrderable, typesEqual, Types as T } from '../spark/spark-types.js';
import type { UpdateContext } from '../update/context.js';
import { FlowSources } from '../update/sources.js';
import { ARRIVAL_COLUMN, ROWS_PER_FILE_BITS } from '../catalog/sample-catalog.js';
import { ARR, BOUNDARY, CTU, END, KIND, SEQ, START, SYS, bitemporalFoldSql, eventRank, orderKey, scd1FoldSql, scd2AnnotateSql, scd2FoldSql, type Authoring, type CdcLayout } from './cdc-sql.js';
import type { DatasetChanges } from '../update/context.js';
import { appendRows, applyExpectations, diffByKey, ensureTable, ensureTargetView } from './target.js';
import { bitemporalRows } from './bitemporal.js';
import type { FlowOutcome } from './flow-outcome.js';

const q = ident;

/** The flow writing change events into a CDC target (an AUTO CDC flow, or a snapshot flow sharing its target). */
export interface CdcWriter {
    name: string;
    span: SourceSpan;
    sequenceSpan?: SourceSpan;
    keysSpan?: SourceSpan;
    systemSpan?: SourceSpan;
    /** Runs a statement that reads the writer's source (so that reader errors name the data file). */
    run: (statement: Sql) => Promise<void>;
    /** False when the writer cannot produce truncate events (no APPLY AS TRUNCATE WHEN). */
    truncates?: boolean;
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
    return { layout: { keys, data, seqType: T.int, authoring, tracked, upsertWinsTies: flow.storedAs.type === 'scd1' }, selected, srcColumns };
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
    if (flow.source.kind === 'table') {
        sources.forceStreaming.add(flow.source);
    }
    await sources.prepare(sourceQuery);
    const source = sources.translate(sourceQuery);
    const srcColumns = await sources.describe(source.sql, flow.source.span ?? flow.span);
    const analysis = analyse(flow, srcColumns, key);
    const layout = analysis.layout;
    const mode = flow.storedAs.type;

    // Classify source rows into events; expectations apply to the incoming rows first (docs/semantics.md §14.2).
    const translator = sources.translator();
    const scope = Scope.of(srcColumns, '__src');
    const translate = (expr: ExprIR, span: SourceSpan | undefined): Sql => {
        try {
            return translator.expr(expr, scope).sql;
        } catch (error) {
            throw error instanceof EngineError ? error.withContext({ ...context, span }) : error;
        }
    };
    const seqSql = translate(flow.sequenceBy.expr, flow.sequenceBy.span);
    const sysSql = flow.systemSequenceBy ? translate(flow.systemSequenceBy.expr, flow.systemSequenceBy.span) : undefined;
    const deleteSql = flow.applyAsDeleteWhen ? translate(flow.applyAsDeleteWhen.condition, flow.applyAsDeleteWhen.span) : sql`FALSE`;
    const truncateSql = flow.applyAsTruncateWhen ? translate(flow.applyAsTruncateWhen.condition, flow.applyAsTruncateWhen.span) : sql`FALSE`;

    let input = sql`(${source.sql})`;
    let raw: Sql | undefined;
    if (dataset.expectations.length > 0) {
        raw = ctx.tempName('raw');
        await runMapped(ctx, sources, sql`CREATE TEMP TABLE ${raw} AS ${source.sql}`, flow.span);
        input = await applyExpectations(ctx, dataset, key, raw, srcColumns, flow.name);
    }
    // The sequence types, found by binding (nothing is read yet).
    const probe = await sources.describe(sql`SELECT ${seqSql} AS "s"${sysSql ? sql`, ${sysSql} AS "y"` : empty} FROM ${input} AS "__src"`, flow.sequenceBy.span ?? flow.span);
    layout.seqType = probe[0].type;
    layout.sysType = sysSql ? probe[1].type : undefined;
    if (!isOrderable(layout.seqType)) {
        throw new PipelineRuntimeError(ErrorClass.nonOrderableSequence,
            `The SEQUENCE BY expression of '${flow.name}' has type ${formatType(layout.seqType)}, which cannot be ordered.`, { ...context, span: flow.sequenceBy.span });
    }
    if (layout.sysType && !isOrderable(layout.sysType)) {
        throw new PipelineRuntimeError(ErrorClass.nonOrderableSequence,
            `The SYSTEM SEQUENCE BY expression of '${flow.name}' has type ${formatType(layout.sysType)}, which cannot be ordered.`, { ...context, span: flow.systemSequenceBy?.span });
    }
    const partial = layout.authoring.kind !== 'all';
    const compact = mode === 'scd1' && !partial;
    const annotated = mode === 'scd2' && !partial;
    // Several flows into one target: its columns are the union of theirs, in first-seen order (A27).
    const union = await targetColumns(ctx, key, analysis.selected, compact ? 'state' : 'log');
    const keyNames = new Set(layout.keys.map(k => k.name.toLowerCase()));
    layout.data = union.columns.filter(c => !keyNames.has(c.name.toLowerCase()));
    if (mode === 'scd2') {
        layout.tracked = selectColumns(flow.trackHistory?.selection, layout.data, 'TRACK HISTORY ON', flow.trackHistory?.span, context).map(c => c.name);
    } else {
        layout.tracked = layout.data.map(c => c.name);
    }
    const outputColumns = [...union.columns];
    if (mode !== 'scd1') {
        outputColumns.push({ name: '__START_AT', type: layout.seqType }, { name: '__END_AT', type: layout.seqType });
    }
    if (mode === 'bitemporal') {
        outputColumns.push({ name: '__SYSTEM_START_AT', type: layout.sysType! }, { name: '__SYSTEM_END_AT', type: layout.sysType! });
    }
    // A log annotated for a full-row SCD2 definition, now read by a partial-update one: back to a plain log.
    const previous = !compact && !annotated ? await leaveAnnotatedLog(ctx, key) : undefined;
    if (!compact && !annotated) {
        await ensureTable(ctx, dataset, key, outputColumns, { appendOnly: false, extra: outputColumns.slice(union.columns.length) });
    }
    if (previous) {
        await ctx.db.run(sql`INSERT INTO ${ctx.store.datasetTable(key)} BY NAME SELECT * FROM ${previous}`);
        await ctx.dropTemp(previous);
    }

    const base = await nextArrival(ctx, key);
    // Arrival order breaks ties between equal sequences; Parquet files give it for free.
    const arrival = raw || flow.source.kind !== 'table' ? undefined : sources.arrivalOrdered(flow.source);
    if (arrival) {
        input = arrival.sql;
    }
    const arrivalSql = arrival ? sql`${base} + "__src".${q(ARRIVAL_COLUMN)}` : sql`${base} + row_number() OVER () - 1`;
    const items = [
        ...layout.keys.map(k => sql`"__src".${q(k.name)}`),
        // A column of the target that this flow's source lacks is NULL in the events it writes (A27).
        ...layout.data.map(c => (union.missing.has(c.name.toLowerCase()) ? sql`CAST(NULL AS ${toDuckType(c.type)}) AS ${q(c.name)}` : sql`"__src".${q(c.name)}`)),
        sql`${seqSql} AS ${q(SEQ)}`,
        ...(sysSql ? [sql`${sysSql} AS ${q(SYS)}`] : []),
        sql`CAST(CASE WHEN (${truncateSql}) IS TRUE THEN 2 WHEN (${deleteSql}) IS TRUE THEN 1 ELSE 0 END AS TINYINT) AS ${q(KIND)}`,
        ...(flow.columnsToUpdate ? [sql`"__src".${q(flow.columnsToUpdate.column)} AS ${q(CTU)}`] : []),
        sql`CAST(${arrivalSql} AS BIGINT) AS ${q(ARR)}`,
    ];
    const events = sql`(SELECT ${join(items)} FROM ${input} AS "__src")`;
    const writer: CdcWriter = {
        name: flow.name, span: flow.span, sequenceSpan: flow.sequenceBy.span, keysSpan: flow.keys.span, systemSpan: flow.systemSequenceBy?.span,
        run: statement => runMapped(ctx, sources, statement, flow.span),
        truncates: flow.applyAsTruncateWhen !== undefined,
    };
    const result = compact
        ? await applyScd1Compact(ctx, dataset, key, layout, events, outputColumns, writer)
        : annotated
            ? await applyScd2Log(ctx, dataset, key, layout, events, outputColumns, writer)
            : await applyFromLog(ctx, dataset, key, layout, mode, events, base, outputColumns, writer, previous !== undefined);
    if (raw) {
        await ctx.dropTemp(raw);
    }
    await setNextArrival(ctx, key, base + (arrival ? BigInt(arrival.files) << BigInt(ROWS_PER_FILE_BITS) : BigInt(result.events)));
    const metrics = ctx.metricsOf(key);
    metrics.num_upserted_rows = (metrics.num_upserted_rows ?? 0) + result.inserted + result.updated;
    metrics.num_deleted_rows = (metrics.num_deleted_rows ?? 0) + result.deleted;
    if (result.events > 0) {
        await ctx.addChanges(key, result);
    }
    await sources.commit();
    await ctx.store.setFlow(flow.name, { target: key, kind: 'auto_cdc', signature, onceDone: flow.once, nextArrival: 0n });
    return { status: 'completed', rows: result.events };
}

/** The meta table of a CDC target (`cdc.<target>__meta`: next arrival number, latest truncate, column order), created if missing. */
async function ensureMeta(ctx: UpdateContext, key: string): Promise<Sql> {
    const meta = ctx.store.stateTable('cdc', key, 'meta');
    if (!(await ctx.store.tableExists('cdc', `${key}__meta`))) {
        await ctx.db.run(sql`CREATE TABLE ${meta} AS SELECT CAST(1 AS BIGINT) AS next_arrival`);
    }
    return meta;
}

/** The next arrival number of a CDC target (events are numbered in arrival order across updates). */
export async function nextArrival(ctx: UpdateContext, key: string): Promise<bigint> {
    const meta = await ensureMeta(ctx, key);
    return BigInt((await ctx.db.scalar(sql`SELECT next_arrival FROM ${meta}`)) as bigint);
}

/**
 * The columns (keys and data) of a CDC target that several flows may write (docs/semantics.md A27): the union of
 * every flow's selected columns, in the order they were first seen — the order recorded in the
 * target's meta table, then this flow's new columns, then columns only the state still has. The
 * state table (`role`) gets the columns it lacks; `missing` names (lower case) the columns this
 * flow's source does not have, which are NULL in the events it writes.
 */
export async function targetColumns(ctx: UpdateContext, key: string, selected: Column[], role: 'state' | 'log'): Promise<{ columns: Column[]; missing: Set<string> }> {
    const meta = await ensureMeta(ctx, key);
    const hasOrder = (await ctx.db.describe(sql`SELECT * FROM ${meta}`)).some(c => c.name === 'columns');
    const recorded = hasOrder ? await ctx.db.scalar(sql`SELECT columns FROM ${meta}`) : null;
    const order: string[] = typeof recorded === 'string' ? JSON.parse(recorded) as string[] : [];
    const table = ctx.store.stateTable('cdc', key, role);
    const exists = await ctx.store.tableExists('cdc', `${key}__${role}`);
    const stored = exists ? (await ctx.db.describe(sql`SELECT * FROM ${table}`)).filter(c => !c.name.startsWith('__psql_')) : [];
    const known = new Set(order.map(n => n.toLowerCase()));
    for (const column of [...selected, ...stored]) {
        if (!known.has(column.name.toLowerCase())) {
            known.add(column.name.toLowerCase());
            order.push(column.name);
        }
    }
    const columns = order
        .map(name => findColumn(selected, name) ?? findColumn(stored, name))
        .filter((c): c is Column => c !== undefined);
    const names = JSON.stringify(columns.map(c => c.name));
    if (names !== (typeof recorded === 'string' ? recorded : undefined)) {
        if (!hasOrder) {
            await ctx.db.run(sql`ALTER TABLE ${meta} ADD COLUMN columns VARCHAR`);
        }
        await ctx.db.run(sql`UPDATE ${meta} SET columns = ${str(names)}`);
    }
    if (exists) {
        for (const column of columns.filter(c => !findColumn(stored, c.name))) {
            await ctx.db.run(sql`ALTER TABLE ${table} ADD COLUMN ${q(column.name)} ${toDuckType(column.type)}`);
        }
    }
    return { columns, missing: new Set(columns.filter(c => !findColumn(selected, c.name)).map(c => c.name.toLowerCase())) };
}

/** Records the next arrival number after an update's events. */
export async function setNextArrival(ctx: UpdateContext, key: string, value: bigint): Promise<void> {
    await ctx.db.run(sql`UPDATE ${ctx.store.stateTable('cdc', key, 'meta')} SET next_arrival = ${value}`);
}

/** Runs SQL of a flow, mapping reader errors onto data files and others onto the flow. */
export async function runMapped(ctx: UpdateContext, sources: FlowSources, statement: Sql, span: SourceSpan | undefined): Promise<void> {
    try {
        await ctx.db.run(statement);
    } catch (error) {
        throw sources.mapError(error, span);
    }
}

/**
 * Runs a flow's query (its sources prepared) into a temporary table of this update and returns the
 * table's name and columns; errors are mapped onto the query.
 */
export async function queryIntoBatch(ctx: UpdateContext, sources: FlowSources, flow: { query: QueryIR; span?: SourceSpan }): Promise<{ batch: Sql; columns: Column[] }> {
    const query = sources.translate(flow.query);
    const batch = ctx.tempName('batch');
    await runMapped(ctx, sources, sql`CREATE TEMP TABLE ${batch} AS ${query.sql}`, flow.query.span ?? flow.span);
    // The query's Spark types where DuckDB's cannot tell them (INTERVAL DAY, a column of NULLs).
    return { batch, columns: withSparkTypes(await ctx.db.describe(sql`SELECT * FROM ${batch}`), typesByName(query.columns)) };
}

/** Counts of invalid events (docs/semantics.md §6.2, §6.3); truncate events are exempt from NULL_KEY. */
interface InvalidCounts {
    nullKeys: number;
    nullSequences: number;
    nullSystemSequences: number;
}

/** Fails on NULL keys / sequences, with an example event taken from `events`. */
async function failOnInvalid(ctx: UpdateContext, writer: CdcWriter, layout: CdcLayout, counts: InvalidCounts, events: Sql, key: string): Promise<void> {
    const context = { flow: writer.name, dataset: key };
    const sample = async (where: Sql): Promise<string> => {
        const columns = join([...layout.keys, ...layout.data].map(c => q(c.name)));
        const rows = await ctx.db.query(sql`SELECT ${columns} FROM ${events} AS "__e" WHERE ${where} LIMIT 1`);
        return JSON.stringify(toRows(rows.columns, rows.rows)[0]);
    };
    // The sequence is checked before the key, as Spark does: a row with both NULL is NULL_SEQUENCE (docs/semantics.md §6.2).
    if (counts.nullSequences > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullSequence,
            `${counts.nullSequences} change event(s) of '${writer.name}' have a NULL SEQUENCE BY value, e.g. ${await sample(sql`${q(SEQ)} IS NULL`)}.`,
            { ...context, span: writer.sequenceSpan ?? writer.span });
    }
    if (counts.nullSystemSequences > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullSequence,
            `${counts.nullSystemSequences} change event(s) of '${writer.name}' have a NULL SYSTEM SEQUENCE BY value, e.g. ${await sample(sql`${q(SYS)} IS NULL`)}.`,
            { ...context, span: writer.systemSpan ?? writer.span });
    }
    const nullKey = join(layout.keys.map(k => sql`${q(k.name)} IS NULL`), sql` OR `);
    if (counts.nullKeys > 0) {
        throw new PipelineRuntimeError(ErrorClass.nullKey,
            `${counts.nullKeys} change event(s) of '${writer.name}' have a NULL key column (KEYS ${layout.keys.map(k => k.name).join(', ')}), e.g. ${await sample(sql`${q(KIND)} <> 2 AND (${nullKey})`)}.`,
            { ...context, span: writer.keysSpan ?? writer.span });
    }
}

/** Fails when the sequence type differs from the one stored in the target's state (Spark's SEQUENCING_TYPE_DRIFT). */
async function checkSequenceType(ctx: UpdateContext, table: Sql, layout: CdcLayout, flow: CdcWriter, key: string): Promise<void> {
    const stored = await ctx.db.describe(sql`SELECT ${q(SEQ)} FROM ${table}`);
    if (!typesEqual(stored[0].type, layout.seqType)) {
        throw new PipelineRuntimeError(ErrorClass.sequenceTypeDrift,
            `The SEQUENCE BY type of '${flow.name}' changed from ${formatType(stored[0].type)} to ${formatType(layout.seqType)}; run a full refresh of the target.`,
            { flow: flow.name, dataset: key, span: flow.sequenceSpan ?? flow.span });
    }
}

function keyJoin(layout: CdcLayout, left: Sql, right: Sql): Sql {
    return join(layout.keys.map(k => sql`${left}.${q(k.name)} = ${right}.${q(k.name)}`), sql` AND `);
}

/** The result of applying a batch of events: what changed in the target, and how many events there were. */
export type CdcApplyResult = DatasetChanges & { events: number };

/**
 * SCD type 1 with full-row upserts: the per-key state is the latest event (upsert or tombstone)
 * under the per-key order; a key is visible when that event is an upsert newer than the latest
 * truncate. One aggregate pass over the new events finds each key's winner (and the counts for
 * validation); a key's state changes only when its new winner ranks higher.
 */
export async function applyScd1Compact(ctx: UpdateContext, dataset: DatasetIR, key: string, layout: CdcLayout, events: Sql, outputColumns: Column[], writer: CdcWriter): Promise<CdcApplyResult> {
    const state = ctx.store.stateTable('cdc', key, 'state');
    const meta = ctx.store.stateTable('cdc', key, 'meta');
    const keys = join(layout.keys.map(k => q(k.name)));
    const payload = [...layout.keys, ...layout.data].map(c => q(c.name));
    // A state created by this update is empty: its winners go straight in.
    const newState = !(await ctx.store.tableExists('cdc', `${key}__state`));
    if (newState) {
        await writer.run(sql`CREATE TABLE ${state} AS SELECT ${join([...payload, q(SEQ), q(KIND), q(ARR)])} FROM ${events} WHERE FALSE`);
    } else {
        await checkSequenceType(ctx, state, layout, writer, key);
    }
    if (!(await ctx.db.describe(sql`SELECT * FROM ${meta}`)).some(c => c.name === 'trunc_seq')) {
        await ctx.db.run(sql`ALTER TABLE ${meta} ADD COLUMN trunc_seq ${toDuckType(layout.seqType)}`);
    }
    await ensureScd1View(ctx, dataset, key, layout, outputColumns, writer);
    const ord = (value: Sql): Sql => orderKey(value, layout.seqType);
    const win = ctx.tempName('winners');
    const packed = sql`struct_pack(${join([...layout.data.map(c => sql`${q(c.name)} := ${q(c.name)}`), sql`${q(SEQ)} := ${q(SEQ)}`, sql`${q(KIND)} := ${q(KIND)}`, sql`${q(ARR)} := ${q(ARR)}`])})`;
    // One pass: each key's winning event (truncate rows compete as deletes), and counts for validation.
    const truncates = writer.truncates !== false;
    await writer.run(sql`CREATE TEMP TABLE ${win} AS SELECT ${keys}, arg_max_null(${packed}, ${eventRank(layout, empty)}) AS "__psql_w",
        count(*) AS "__psql_c", count(${q(SEQ)}) AS "__psql_cs"${truncates ? sql`, count(*) FILTER (WHERE ${q(KIND)} <> 2) AS "__psql_n", arg_max(${q(SEQ)}, ${ord(q(SEQ))}) FILTER (WHERE ${q(KIND)} = 2) AS "__psql_t"` : empty}
        FROM ${events} GROUP BY ${keys}`);
    const nullKey = join(layout.keys.map(k => sql`${q(k.name)} IS NULL`), sql` OR `);
    const stats = await ctx.db.query(sql`SELECT coalesce(sum("__psql_c"), 0), coalesce(sum("__psql_c" - "__psql_cs"), 0),
        coalesce(sum(${truncates ? sql`"__psql_n"` : sql`"__psql_c"`}) FILTER (WHERE ${nullKey}), 0) FROM ${win}`);
    const [count, nullSequences, nullKeys] = stats.rows[0].map(Number);
    await failOnInvalid(ctx, writer, layout, { nullKeys, nullSequences, nullSystemSequences: 0 }, events, key);
    if (count === 0) {
        await ctx.dropTemp(win);
        return { ...noChanges(), events: 0 };
    }
    // Truncates: the latest one acts as a delete of every key at its sequence (docs/semantics.md §7.3).
    const latestTrunc = sql`(SELECT arg_max("__psql_t", ${ord(sql`"__psql_t"`)}) FROM ${win})`;
    const oldTrunc = sql`(SELECT trunc_seq FROM ${meta})`;
    const truncChanged = truncates && (await ctx.db.scalar(sql`SELECT ${latestTrunc} IS NOT NULL AND (${oldTrunc} IS NULL OR ${ord(latestTrunc)} > ${ord(oldTrunc)})`)) === true;
    if (truncChanged) {
        await ctx.db.run(sql`UPDATE ${meta} SET trunc_seq = ${latestTrunc}`);
    }
    const target = ctx.store.datasetTable(key);
    if (newState) {
        await ctx.db.run(sql`INSERT INTO ${state} BY NAME SELECT ${keys}, unnest("__psql_w") FROM ${win} WHERE NOT (${nullKey})`);
        await ctx.dropTemp(win);
        await checkNotNull(ctx, dataset, key, target, writer);
        const diff = await diffByKey(ctx, sql`(SELECT * FROM ${target} WHERE FALSE)`, target, layout.keys.map(k => k.name), await ctx.db.describe(sql`SELECT * FROM ${target}`));
        return { ...diff, events: count };
    }
    const chg = ctx.tempName('changed');
    await ctx.db.run(sql`CREATE TEMP TABLE ${chg} AS SELECT "__w".* FROM (SELECT ${keys}, unnest("__psql_w") FROM ${win} WHERE NOT (${nullKey})) AS "__w"
        LEFT JOIN ${state} AS "__s" ON ${keyJoin(layout, sql`"__w"`, sql`"__s"`)}
        WHERE "__s".${q(layout.keys[0].name)} IS NULL OR ${eventRank(layout, sql`"__w".`)} > ${eventRank(layout, sql`"__s".`)}`);
    await ctx.dropTemp(win);
    // The target is a view over the state: changing the state changes the target.
    const before = ctx.tempName('before');
    const touched = truncChanged ? empty : sql` SEMI JOIN ${chg} AS "__c" USING (${keys})`;
    await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${target}${touched}`);
    await ctx.db.run(sql`DELETE FROM ${state} USING ${chg} AS "__c" WHERE ${keyJoin(layout, state, sql`"__c"`)}`);
    await ctx.db.run(sql`INSERT INTO ${state} BY NAME SELECT * FROM ${chg}`);
    const after = truncChanged ? target : sql`(SELECT * FROM ${target} SEMI JOIN ${chg} AS "__c" USING (${keys}))`;
    await checkNotNull(ctx, dataset, key, after, writer);
    const targetColumns = (await ctx.db.describe(sql`SELECT * FROM ${target}`));
    const diff = await diffByKey(ctx, before, after, layout.keys.map(k => k.name), targetColumns);
    await ctx.dropTemp(before);
    await ctx.dropTemp(chg);
    return { ...diff, events: count };
}

/**
 * Creates the view that presents an SCD1 target: the visible rows of its per-key state (upserts newer
 * than the latest truncate), with the declared column types, generated and default columns.
 */
async function ensureScd1View(ctx: UpdateContext, dataset: DatasetIR, key: string, layout: CdcLayout, outputColumns: Column[], writer: CdcWriter): Promise<void> {
    const state = ctx.store.stateTable('cdc', key, 'state');
    const trunc = sql`(SELECT trunc_seq FROM ${ctx.store.stateTable('cdc', key, 'meta')})`;
    const ord = (value: Sql): Sql => orderKey(value, layout.seqType);
    // An upsert at the truncate's own sequence wins over it (A5).
    const visible = sql`${q(KIND)} = 0 AND (${trunc} IS NULL OR ${ord(q(SEQ))} >= ${ord(trunc)})`;
    const produced = outputColumns.map(c => ({ column: c, sql: q(c.name) }));
    await ensureTargetView(ctx, dataset, key, produced, state, visible, { flow: writer.name, span: writer.span });
}

/** Declared NOT NULL columns of a view-backed target are checked on the rows an update changed. */
async function checkNotNull(ctx: UpdateContext, dataset: DatasetIR, key: string, rows: Sql, writer: CdcWriter): Promise<void> {
    for (const column of dataset.columns?.filter(c => c.notNull) ?? []) {
        const count = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${rows} AS "__r" WHERE ${q(column.name)} IS NULL`));
        if (count > 0) {
            throw new PipelineRuntimeError(ErrorClass.notNullViolated,
                `NOT NULL constraint violated for column '${column.name}' of '${dataset.name.join('.')}' (${count} row(s)).`,
                { flow: writer.name, dataset: key, span: column.span ?? writer.span });
        }
    }
}

function noChanges(): DatasetChanges {
    return { inserted: 0, updated: 0, deleted: 0, rows: { inserted: [], updated: [], deleted: [] }, feed: [] };
}

/**
 * Partial-update SCD1, SCD2 and BITEMPORAL: events are appended to the target's log and the rows
 * of every touched key are recomputed from all of its events. Truncates stay in the log (kind 2).
 */
async function applyFromLog(ctx: UpdateContext, dataset: DatasetIR, key: string, layout: CdcLayout, mode: 'scd1' | 'scd2' | 'bitemporal', events: Sql, base: bigint, outputColumns: Column[], writer: CdcWriter, rebuild: boolean): Promise<CdcApplyResult> {
    const log = ctx.store.stateTable('cdc', key, 'log');
    const keys = join(layout.keys.map(k => q(k.name)));
    if (!(await ctx.store.tableExists('cdc', `${key}__log`))) {
        await writer.run(sql`CREATE TABLE ${log} AS SELECT * FROM ${events} WHERE FALSE`);
    } else {
        await checkSequenceType(ctx, log, layout, writer, key);
    }
    await writer.run(sql`INSERT INTO ${log} BY NAME SELECT * FROM ${events}`);
    // The new events are the log rows from this update's first arrival number on.
    const fresh = sql`(SELECT * FROM ${log} WHERE ${q(ARR)} >= ${base})`;
    const nullKey = join(layout.keys.map(k => sql`${q(k.name)} IS NULL`), sql` OR `);
    const stats = await ctx.db.query(sql`SELECT count(*), count(*) FILTER (WHERE ${q(KIND)} <> 2 AND (${nullKey})), count(*) FILTER (WHERE ${q(SEQ)} IS NULL),
        ${layout.sysType ? sql`count(*) FILTER (WHERE ${q(SYS)} IS NULL)` : sql`0`}, count(*) FILTER (WHERE ${q(KIND)} = 2) FROM ${fresh}`);
    const [count, nullKeys, nullSequences, nullSystemSequences, truncates] = stats.rows[0].map(Number);
    await failOnInvalid(ctx, writer, layout, { nullKeys, nullSequences, nullSystemSequences }, fresh, key);
    if (count === 0 && !rebuild) {
        return { ...noChanges(), events: 0 };
    }
    const touched = ctx.tempName('touched');
    await ctx.db.run(sql`CREATE TEMP TABLE ${touched} AS SELECT DISTINCT ${keys} FROM ${truncates > 0 || rebuild ? log : fresh} WHERE ${q(KIND)} <> 2`);
    // Truncates (SCD1 only) become deletes of every touched key at their sequence.
    const nullData = layout.data.map(c => sql`NULL AS ${q(c.name)}`);
    const truncEvents = sql`SELECT ${join(layout.keys.map(k => sql`"__t".${q(k.name)}`))}${nullData.length ? sql`, ` : empty}${join(nullData)}, "__x".${q(SEQ)}, CAST(1 AS TINYINT) AS ${q(KIND)}, "__x".${q(ARR)}
        FROM ${touched} AS "__t" CROSS JOIN (SELECT ${q(SEQ)}, ${q(ARR)} FROM ${log} WHERE ${q(KIND)} = 2) AS "__x"`;
    const logged = sql`SELECT * FROM ${log} SEMI JOIN ${touched} USING (${keys}) WHERE ${q(KIND)} <> 2`;
    const all = mode === 'scd1' ? sql`(${logged} UNION ALL BY NAME ${truncEvents})` : sql`(${logged})`;
    // Full-row BITEMPORAL folds by a sweep over system time (sub-quadratic); partial updates merge
    // values against each belief's earlier events, which only the declarative SQL fold does.
    const sweep = mode === 'bitemporal' && layout.authoring.kind === 'all' && layout.data.every(c => isOrderable(c.type));
    const swept = sweep ? await bitemporalRows(ctx.db, layout, all, role => ctx.tempName(role)) : undefined;
    const fold = swept?.sql ?? (mode === 'scd1' ? scd1FoldSql(layout, all) : mode === 'scd2' ? scd2FoldSql(layout, all) : bitemporalFoldSql(layout, all));
    const target = ctx.store.datasetTable(key);
    const before = ctx.tempName('before');
    await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${target} SEMI JOIN ${touched} USING (${keys})`);
    await ctx.db.run(sql`DELETE FROM ${target} USING ${touched} AS "__t" WHERE ${keyJoin(layout, target, sql`"__t"`)}`);
    // The fold reads only the log (never the target), so its rows go straight into the target.
    await appendRows(ctx, dataset, key, sql`(${fold})`, outputColumns, { byName: true, flow: writer.name, span: writer.span });
    const after = sql`(SELECT * FROM ${target} SEMI JOIN ${touched} USING (${keys}))`;
    const pk = [...layout.keys.map(k => k.name), ...(mode === 'scd1' ? [] : ['__START_AT']), ...(mode === 'bitemporal' ? ['__SYSTEM_START_AT'] : [])];
    const diff = await diffByKey(ctx, before, after, pk, outputColumns);
    for (const table of [before, touched, ...(swept?.temps ?? [])]) {
        await ctx.dropTemp(table);
    }
    return { ...diff, events: count };
}

/**
 * Turns the annotated log of a full-row SCD2 target (presented as a view) back into a plain event log
 * and drops the view. Returns a temporary table of the target's rows (to be written into the target
 * table, so the update's diff sees them), or undefined when the log was not annotated. Every key must
 * then be recomputed.
 */
async function leaveAnnotatedLog(ctx: UpdateContext, key: string): Promise<Sql | undefined> {
    if (!(await ctx.store.isView('ds', key)) || !(await ctx.store.tableExists('cdc', `${key}__log`))) {
        return undefined;
    }
    const log = ctx.store.stateTable('cdc', key, 'log');
    if (!(await ctx.db.describe(sql`SELECT * FROM ${log}`)).some(c => c.name === START)) {
        return undefined;
    }
    const previous = ctx.tempName('previous');
    await ctx.db.run(sql`CREATE TEMP TABLE ${previous} AS SELECT * FROM ${ctx.store.datasetTable(key)}`);
    await ctx.db.run(sql`DROP VIEW ${ctx.store.datasetTable(key)}`);
    await ctx.db.run(join([BOUNDARY, START, END].map(c => sql`ALTER TABLE ${log} DROP COLUMN ${q(c)}`), sql`; `));
    return previous;
}

/** Counts of an update's events for validation (docs/semantics.md §6.2, §6.3). */
async function eventCounts(ctx: UpdateContext, layout: CdcLayout, events: Sql): Promise<{ count: number } & InvalidCounts> {
    const nullKey = join(layout.keys.map(k => sql`${q(k.name)} IS NULL`), sql` OR `);
    const stats = await ctx.db.query(sql`SELECT count(*), count(*) FILTER (WHERE ${q(KIND)} <> 2 AND (${nullKey})), count(*) FILTER (WHERE ${q(SEQ)} IS NULL),
        ${layout.sysType ? sql`count(*) FILTER (WHERE ${q(SYS)} IS NULL)` : sql`0`} FROM ${events}`);
    const [count, nullKeys, nullSequences, nullSystemSequences] = stats.rows[0].map(Number);
    return { count, nullKeys, nullSequences, nullSystemSequences };
}

/**
 * SCD type 2 with full-row upserts: the target is a view over the annotated event log (see
 * `scd2AnnotateSql`), which is the only copy of the data. The first update annotates its events in one
 * pass. A later update annotates its new events together with, for each key they touch, the logged
 * events from the last boundary before the key's earliest new event on (usually the key's last one or
 * two events); the annotations before that boundary cannot change. The diff compares the target rows
 * of those events before and after.
 */
async function applyScd2Log(ctx: UpdateContext, dataset: DatasetIR, key: string, layout: CdcLayout, events: Sql, outputColumns: Column[], writer: CdcWriter): Promise<CdcApplyResult> {
    const log = ctx.store.stateTable('cdc', key, 'log');
    const keys = join(layout.keys.map(k => q(k.name)));
    const system = new Map<string, Sql>([['__START_AT', q(START)], ['__END_AT', q(END)]]);
    const produced = outputColumns.map(c => ({ column: c, sql: system.get(c.name) ?? q(c.name), system: system.has(c.name) }));
    const viewContext = { flow: writer.name, span: writer.span };
    const pk = [...layout.keys.map(k => k.name), '__START_AT'];
    const target = ctx.store.datasetTable(key);
    if (!(await ctx.store.tableExists('cdc', `${key}__log`))) {
        // The first update (or the first after a full refresh): its events are the whole log.
        await writer.run(sql`CREATE TABLE ${log} AS ${scd2AnnotateSql(layout, events)}`);
        const counts = await eventCounts(ctx, layout, log);
        await failOnInvalid(ctx, writer, layout, counts, log, key);
        await ensureTargetView(ctx, dataset, key, produced, log, sql`${q(START)} IS NOT NULL`, viewContext);
        if (counts.count === 0) {
            return { ...noChanges(), events: 0 };
        }
        await checkNotNull(ctx, dataset, key, target, writer);
        const columns = await ctx.db.describe(sql`SELECT * FROM ${target}`);
        const diff = await diffByKey(ctx, sql`(SELECT * FROM ${target} WHERE FALSE)`, target, pk, columns);
        return { ...diff, events: counts.count };
    }
    await checkSequenceType(ctx, log, layout, writer, key);
    // A log written for a partial-update definition has no annotations yet: annotate all of it.
    const rebuild = !(await ctx.db.describe(sql`SELECT * FROM ${log}`)).some(c => c.name === START);
    let previous: Sql | undefined;
    if (rebuild) {
        // The target table written for the partial-update definition is the diff's "before".
        if (await ctx.store.tableExists('ds', key) && !(await ctx.store.isView('ds', key))) {
            previous = ctx.tempName('previous');
            await ctx.db.run(sql`CREATE TEMP TABLE ${previous} AS SELECT * FROM ${target}`);
        }
        const seqType = toDuckType(layout.seqType);
        await ctx.db.run(sql`ALTER TABLE ${log} ADD COLUMN ${q(BOUNDARY)} BOOLEAN; ALTER TABLE ${log} ADD COLUMN ${q(START)} ${seqType}; ALTER TABLE ${log} ADD COLUMN ${q(END)} ${seqType}`);
    }
    const rows = await ensureTargetView(ctx, dataset, key, produced, log, sql`${q(START)} IS NOT NULL`, viewContext);
    const fresh = ctx.tempName('new');
    await writer.run(sql`CREATE TEMP TABLE ${fresh} AS SELECT * FROM ${events}`);
    const counts = await eventCounts(ctx, layout, fresh);
    await failOnInvalid(ctx, writer, layout, counts, fresh, key);
    if (counts.count === 0 && !rebuild) {
        await ctx.dropTemp(fresh);
        return { ...noChanges(), events: 0 };
    }
    // The logged events to annotate again: per touched key, those from the last boundary event before
    // the key's earliest new event on (all of them when there is none). A narrow pass over the log
    // finds that boundary; a second pass takes the events from it on.
    const anchors = ctx.tempName('anchors');
    const range = ctx.tempName('range');
    const rank = (prefix: Sql): Sql => eventRank(layout, prefix);
    if (rebuild) {
        await ctx.db.run(sql`CREATE TEMP TABLE ${range} AS SELECT rowid AS "__psql_rid", * FROM ${log}`);
    } else {
        const nk = join(layout.keys.map(k => sql`"__n".${q(k.name)}`));
        await ctx.db.run(sql`CREATE TEMP TABLE ${anchors} AS SELECT ${nk}, max(${rank(sql`"__l".`)}) FILTER (WHERE "__l".${q(BOUNDARY)} AND ${rank(sql`"__l".`)} < "__n"."__psql_m") AS "__psql_q"
            FROM (SELECT ${keys}, min(${rank(empty)}) AS "__psql_m" FROM ${fresh} GROUP BY ${keys}) AS "__n" LEFT JOIN ${log} AS "__l" ON ${keyJoin(layout, sql`"__n"`, sql`"__l"`)} GROUP BY ${nk}`);
        await ctx.db.run(sql`CREATE TEMP TABLE ${range} AS SELECT "__l".rowid AS "__psql_rid", "__l".* FROM ${log} AS "__l" JOIN ${anchors} AS "__a" ON ${keyJoin(layout, sql`"__l"`, sql`"__a"`)}
            WHERE "__a"."__psql_q" IS NULL OR ${rank(sql`"__l".`)} >= "__a"."__psql_q"`);
        await ctx.dropTemp(anchors);
    }
    const annotated = ctx.tempName('annotated');
    const eventsOf = sql`(SELECT * EXCLUDE ("__psql_rid", ${q(BOUNDARY)}, ${q(START)}, ${q(END)}) FROM ${range} UNION ALL BY NAME SELECT * FROM ${fresh})`;
    await ctx.db.run(sql`CREATE TEMP TABLE ${annotated} AS ${scd2AnnotateSql(layout, eventsOf, { few: !rebuild })}`);
    // Rewriting the range (delete, append) is cheaper to commit than updating its annotations in place.
    await ctx.db.run(sql`DELETE FROM ${log} WHERE rowid IN (SELECT "__psql_rid" FROM ${range})`);
    await ctx.db.run(sql`INSERT INTO ${log} BY NAME SELECT * FROM ${annotated}`);
    const after = sql`(${rows(annotated)})`;
    await checkNotNull(ctx, dataset, key, after, writer);
    const columns = await ctx.db.describe(sql`SELECT * FROM ${target}`);
    const before = rebuild ? previous ?? sql`(SELECT * FROM ${target} WHERE FALSE)` : sql`(${rows(range)})`;
    const diff = await diffByKey(ctx, before, after, pk, columns);
    for (const table of [fresh, range, annotated, ...(previous ? [previous] : [])]) {
        await ctx.dropTemp(table);
    }
    return { ...diff, events: counts.count };
}
