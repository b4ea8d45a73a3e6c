// Statements run on the local state outside any update (`pipeline-sql sql`, docs/semantics.md §8.6 and §15.3), as a
// user runs them in a notebook or SQL warehouse: a query over the datasets and sample tables,
// DESCRIBE HISTORY, and DML (INSERT, UPDATE, DELETE) on streaming tables and managed tables. Each
// DML statement is one transaction and one version of its target, whose feed is the rows it changed.
import { toRows, type Row } from '../db/values.js';
import { EngineError, ErrorClass } from '../errors.js';
import type { DeleteStatementIR, ExprIR, InsertStatementIR, MergeStatementIR, PipelineIR, QueryIR, StatementIR, TableRelationIR, UpdateStatementIR } from '../ir.js';
import { appendedFeed } from '../flows/append-flow.js';
import { appendRows, tableColumns } from '../flows/target.js';
import { ident, join, sql, type Sql } from '../sql/sql.js';
import type { Translated } from '../spark/functions/local.js';
import { Scope, castExpr } from '../sql/translate.js';
import type { Column } from '../sql/duckdb-types.js';
import { formatType } from '../spark/spark-types.js';
import type { DatasetVersion } from '../state/state-store.js';
import type { UpdateContext } from './context.js';
import { dmlOnCdcTarget } from './cdc-dml.js';
import { mergeRows } from './merge.js';
import { withContext, type InspectOptions } from './inspect.js';
import { datasetKey, isView } from './plan.js';
import type { ResultColumn, UpdateFailure } from './run-update.js';
import { FlowSources, ROW_ID } from './sources.js';

/** The outcome of a statement. */
export interface StatementSuccess {
    ok: true;
    /** `query` and `describe_history` return rows; DML returns the version it wrote and its feed. */
    kind: StatementIR['kind'];
    columns: ResultColumn[];
    rows: Row[];
    rowCount: number;
    truncated: boolean;
    /** DML: the dataset changed and the version written (absent when nothing changed). */
    dataset?: string;
    version?: DatasetVersion;
    durationMs: number;
}

/** Runs one statement on the local state (never throws). */
export async function runStatement(pipeline: PipelineIR, statement: StatementIR, options: InspectOptions): Promise<StatementSuccess | UpdateFailure> {
    const started = Date.now();
    return withContext(pipeline, options, async ctx => {
        const done = (result: Omit<StatementSuccess, 'ok' | 'kind' | 'durationMs'>): StatementSuccess => ({ ok: true, kind: statement.kind, ...result, durationMs: Date.now() - started });
        switch (statement.kind) {
            case 'query':
                return done(await query(ctx, statement.query));
            case 'describe_history':
                return done(await describeHistory(ctx, statement.dataset));
            default:
                return done(await dml(ctx, statement));
        }
    });
}

async function query(ctx: UpdateContext, q: QueryIR): Promise<Omit<StatementSuccess, 'ok' | 'kind' | 'durationMs'>> {
    const sources = new FlowSources(ctx, '__statement', 'batch');
    await sources.prepare(q);
    const translated = sources.translate(q).sql;
    const limit = ctx.options.limit;
    const result = await ctx.db.query(sql`SELECT * FROM (${translated}) LIMIT ${limit}`).catch(error => {
        throw sources.mapError(error, q.span);
    });
    const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM (${translated})`));
    return { columns: result.columns.map(c => ({ name: c.name, type: formatType(c.type) })), rows: toRows(result.columns, result.rows), rowCount, truncated: rowCount > limit };
}

/** `DESCRIBE HISTORY t`: the versions, newest first, as Delta lists them. */
async function describeHistory(ctx: UpdateContext, name: string[]): Promise<Omit<StatementSuccess, 'ok' | 'kind' | 'durationMs'>> {
    const key = datasetKey(name);
    const dataset = ctx.plan.datasets.get(key);
    if (!dataset || isView(dataset)) {
        throw new EngineError(ErrorClass.tableNotFound, `'${name.join('.')}' is not a table of this pipeline${dataset ? ' (a view has no history)' : ''}; DESCRIBE HISTORY lists the versions of its streaming tables, materialized views and managed tables.`);
    }
    const versions = [...await ctx.store.versions(key)].reverse();
    const rows = versions.map(v => ({ version: v.version, timestamp: v.timestamp, operation: v.operation, operationMetrics: v.metrics }));
    return {
        columns: [{ name: 'version', type: 'BIGINT' }, { name: 'timestamp', type: 'TIMESTAMP' }, { name: 'operation', type: 'STRING' }, { name: 'operationMetrics', type: 'MAP<STRING, BIGINT>' }],
        rows, rowCount: rows.length, truncated: false,
    };
}

type DmlIR = InsertStatementIR | DeleteStatementIR | UpdateStatementIR | MergeStatementIR;

async function dml(ctx: UpdateContext, statement: DmlIR): Promise<Omit<StatementSuccess, 'ok' | 'kind' | 'durationMs'>> {
    const key = datasetKey(statement.target);
    const display = ctx.plan.displayNames.get(key) ?? statement.target.join('.');
    const dataset = ctx.plan.datasets.get(key);
    const verb = statement.kind.toUpperCase();
    const span = statement.span;
    if (!dataset) {
        throw new EngineError(ErrorClass.tableNotFound, `${verb} changes a dataset of this pipeline; '${statement.target.join('.')}' is not one (sample tables are read-only here).`, { span });
    }
    if (isView(dataset) || dataset.kind === 'materialized_view') {
        throw new EngineError(ErrorClass.dmlNotAllowed,
            `${verb} cannot change '${display}': it is a ${isView(dataset) ? 'view' : 'materialized view'}, whose rows are computed from its query. Change its sources instead, or write to a streaming table.`, { span });
    }
    const flows = ctx.plan.flowsByTarget.get(key) ?? [];
    const cdc = flows.some(f => f.kind === 'auto_cdc' || f.kind === 'snapshot');
    const state = await ctx.store.dataset(key);
    if (!state || !(await ctx.store.tableExists('ds', key))) {
        throw new EngineError(ErrorClass.tableNotFound, `The dataset '${display}' has not been computed yet; run the pipeline before changing it.`, { span });
    }
    ctx.versions.operation = verb;
    await ctx.store.begin();
    try {
        // An AUTO CDC target's statement runs on a copy of its rows, which become events of its CDC state.
        const onCopy = (table: Sql, columns: Column[]): Promise<Sql | undefined> => (statement.kind === 'insert' ? insertRows(ctx, statement, table, columns, display)
            : statement.kind === 'merge' ? mergeRows(ctx, statement, table, columns, display, batch => copyRows(ctx, batch, table, columns))
                : statement.kind === 'delete' ? remove(ctx, statement, table, columns) : update(ctx, statement, table, columns));
        let pending: Sql | undefined;
        if (cdc) {
            pending = await dmlOnCdcTarget(ctx, verb, key, display, flows, span, onCopy);
        } else {
            const table = ctx.store.datasetTable(key);
            const columns = await tableColumns(ctx, key);
            pending = statement.kind === 'insert' ? await insert(ctx, statement, key, display)
                : statement.kind === 'merge' ? await mergeRows(ctx, statement, table, columns, display, async (batch, batchColumns) => {
                    const firstRowId = (await ctx.store.dataset(key))?.nextRowId ?? 1n;
                    await appendRows(ctx, dataset, key, batch, batchColumns, { byName: true, flow: 'MERGE', span });
                    return appendedFeed(ctx, key, firstRowId, batch);
                })
                    : await onCopy(table, columns);
        }
        // A table with columns named like the feed's keeps no feed (keepsFeed): its statement shows no rows.
        const shown = pending ?? sql`(SELECT NULL AS "_change_type" WHERE FALSE)`;
        const feed = await ctx.db.query(sql`SELECT * FROM ${shown} LIMIT ${ctx.options.limit}`);
        const rowCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${shown}`));
        const rows = toRows(feed.columns, feed.rows);
        await ctx.addChanges(key, { inserted: 0, updated: 0, deleted: 0, rows: { inserted: [], updated: [], deleted: [] }, feed: rows, pending });
        const versions = await ctx.store.versions(key);
        const before = versions.length;
        await ctx.versions.flush();
        const after = await ctx.store.versions(key);
        await ctx.store.commit();
        return {
            columns: feed.columns.map(c => ({ name: c.name, type: formatType(c.type) })), rows, rowCount, truncated: rowCount > ctx.options.limit,
            dataset: display, ...(after.length > before ? { version: after[after.length - 1] } : {}),
        };
    } catch (error) {
        await ctx.store.rollback();
        throw error;
    }
}

/** The target as a relation of a query (so that the statement's expressions resolve against it, subqueries included). */
function targetQuery(statement: DeleteStatementIR | UpdateStatementIR, exprs: ExprIR[]): QueryIR {
    const relation: TableRelationIR = { kind: 'table', source: { kind: 'dataset', name: statement.target }, streaming: false, ...(statement.alias ? { alias: statement.alias } : {}) };
    return { kind: 'query', body: { kind: 'select', distinct: false, items: exprs.map(expr => ({ kind: 'expr' as const, expr })), from: [relation] } };
}

/** Translates expressions over the target's columns (qualified by its alias or name). */
async function targetExpressions(ctx: UpdateContext, statement: DeleteStatementIR | UpdateStatementIR, columns: Column[], exprs: ExprIR[]): Promise<{ translate: (e: ExprIR) => Translated }> {
    const sources = new FlowSources(ctx, '__statement', 'batch');
    await sources.prepare(targetQuery(statement, exprs));
    const translator = sources.translator();
    const scope = Scope.of(columns, statement.alias ?? statement.target[statement.target.length - 1]);
    return { translate: e => translator.expr(e, scope) };
}

async function insert(ctx: UpdateContext, statement: InsertStatementIR, key: string, display: string): Promise<Sql | undefined> {
    const dataset = ctx.plan.datasets.get(key)!;
    const sources = new FlowSources(ctx, '__statement', 'batch');
    await sources.prepare(statement.query);
    const translated = sources.translate(statement.query);
    const produced = await sources.describe(translated.sql, statement.span);
    if (statement.columns && statement.columns.length !== produced.length) {
        throw new EngineError(ErrorClass.schemaMismatch,
            `INSERT INTO '${display}' lists ${statement.columns.length} columns but its query gives ${produced.length}.`, { span: statement.span });
    }
    const batch = ctx.tempName('dml_batch');
    const renamed = statement.columns
        ? sql`SELECT ${join(produced.map((c, i) => sql`${ident(c.name)} AS ${ident(statement.columns![i])}`))} FROM (${translated.sql})`
        : translated.sql;
    await ctx.db.run(sql`CREATE TEMP TABLE ${batch} AS ${renamed}`).catch(error => {
        throw sources.mapError(error, statement.span);
    });
    const columns = await ctx.db.describe(sql`SELECT * FROM ${batch}`);
    const firstRowId = (await ctx.store.dataset(key))?.nextRowId ?? 1n;
    await appendRows(ctx, dataset, key, batch, columns, { byName: statement.byName || statement.columns !== undefined, flow: 'INSERT', span: statement.span });
    const pending = await appendedFeed(ctx, key, firstRowId, batch);
    await ctx.dropTemp(batch);
    return pending;
}

/**
 * INSERT into a plain table whose columns are `columns` (the copy of an AUTO CDC target's rows): by
 * the listed columns, by name, or by position; a column the table lacks is an error (DML does not
 * change a schema). Returns the inserted rows as a feed.
 */
async function insertRows(ctx: UpdateContext, statement: InsertStatementIR, table: Sql, columns: Column[], display: string): Promise<Sql> {
    const sources = new FlowSources(ctx, '__statement', 'batch');
    await sources.prepare(statement.query);
    const translated = sources.translate(statement.query);
    const produced = await sources.describe(translated.sql, statement.span);
    const names = statement.columns ?? (statement.byName ? produced.map(c => c.name) : columns.slice(0, produced.length).map(c => c.name));
    if (names.length !== produced.length || (!statement.columns && !statement.byName && produced.length !== columns.length)) {
        throw new EngineError(ErrorClass.schemaMismatch,
            `INSERT INTO '${display}' ${statement.columns ? `lists ${names.length} columns` : `has ${columns.length} columns (${columns.map(c => c.name).join(', ')})`} but its query gives ${produced.length}.`, { span: statement.span });
    }
    const targets = names.map(name => {
        const column = columns.find(c => c.name.toLowerCase() === name.toLowerCase());
        if (!column) {
            throw new EngineError(ErrorClass.schemaMismatch,
                `INSERT INTO '${display}' writes the column '${name}', which it does not have (DML does not change a table's schema); its columns: ${columns.map(c => c.name).join(', ')}.`, { span: statement.span });
        }
        return column;
    });
    const batch = ctx.tempName('dml_batch');
    const items = produced.map((c, i) => sql`${castExpr({ sql: ident(c.name), type: c.type }, targets[i].type, false).sql} AS ${ident(targets[i].name)}`);
    await ctx.db.run(sql`CREATE TEMP TABLE ${batch} AS SELECT ${join(items)} FROM (${translated.sql})`).catch(error => {
        throw sources.mapError(error, statement.span);
    });
    await ctx.db.run(sql`INSERT INTO ${table} BY NAME SELECT * FROM ${batch}`);
    const pending = ctx.tempName('feed');
    await ctx.db.run(sql`CREATE TEMP TABLE ${pending} AS SELECT ${join(columns.map(c => (targets.includes(c) ? ident(c.name) : sql`NULL AS ${ident(c.name)}`)))}, 'insert' AS "_change_type" FROM ${batch}`);
    await ctx.dropTemp(batch);
    return pending;
}

/** Inserts a batch with the columns of `table` into it (the copy of an AUTO CDC target's rows); returns their feed. */
async function copyRows(ctx: UpdateContext, batch: Sql, table: Sql, columns: Column[]): Promise<Sql> {
    await ctx.db.run(sql`INSERT INTO ${table} BY NAME SELECT * FROM ${batch}`);
    const pending = ctx.tempName('feed');
    await ctx.db.run(sql`CREATE TEMP TABLE ${pending} AS SELECT ${join(columns.map(c => ident(c.name)))}, 'insert' AS "_change_type" FROM ${batch}`);
    return pending;
}

async function remove(ctx: UpdateContext, statement: DeleteStatementIR, table: Sql, columns: Column[]): Promise<Sql> {
    const alias = ident(statement.alias ?? statement.target[statement.target.length - 1]);
    const condition = statement.where ? (await targetExpressions(ctx, statement, columns, [statement.where])).translate(statement.where).sql : sql`TRUE`;
    const pending = ctx.tempName('feed');
    const cols = join(columns.map(c => sql`${alias}.${ident(c.name)}`));
    await ctx.db.run(sql`CREATE TEMP TABLE ${pending} AS SELECT ${cols}, 'delete' AS "_change_type" FROM ${table} AS ${alias} WHERE coalesce(CAST(${condition} AS BOOLEAN), FALSE)`);
    await ctx.db.run(sql`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} AS ${alias} WHERE coalesce(CAST(${condition} AS BOOLEAN), FALSE))`);
    return pending;
}

async function update(ctx: UpdateContext, statement: UpdateStatementIR, table: Sql, columns: Column[]): Promise<Sql> {
    const alias = ident(statement.alias ?? statement.target[statement.target.length - 1]);
    for (const a of statement.assignments) {
        if (!columns.some(c => c.name.toLowerCase() === a.column.toLowerCase())) {
            throw new EngineError(ErrorClass.schemaMismatch, `UPDATE cannot set '${a.column}': '${statement.target.join('.')}' has no such column (DML does not change a table's schema).`, { span: a.span ?? statement.span });
        }
    }
    const exprs = [...(statement.where ? [statement.where] : []), ...statement.assignments.map(a => a.value)];
    const { translate } = await targetExpressions(ctx, statement, columns, exprs);
    const condition = statement.where ? translate(statement.where).sql : sql`TRUE`;
    const physical = await ctx.db.describe(sql`SELECT * FROM ${table}`);
    const pre = ctx.tempName('dml_pre');
    await ctx.db.run(sql`CREATE TEMP TABLE ${pre} AS SELECT rowid AS "__psql_r", ${join(physical.map(c => sql`${alias}.${ident(c.name)}`))} FROM ${table} AS ${alias} WHERE coalesce(CAST(${condition} AS BOOLEAN), FALSE)`);
    const post = ctx.tempName('dml_post');
    const items = physical.map(c => {
        const assignment = statement.assignments.find(a => a.column.toLowerCase() === c.name.toLowerCase());
        if (!assignment || c.name === ROW_ID) {
            return sql`${alias}.${ident(c.name)}`;
        }
        return sql`${castExpr(translate(assignment.value), c.type, false).sql} AS ${ident(c.name)}`;
    });
    await ctx.db.run(sql`CREATE TEMP TABLE ${post} AS SELECT "__psql_r", ${join(items)} FROM ${pre} AS ${alias}`);
    await ctx.db.run(sql`DELETE FROM ${table} WHERE rowid IN (SELECT "__psql_r" FROM ${pre})`);
    await ctx.db.run(sql`INSERT INTO ${table} BY NAME SELECT * EXCLUDE ("__psql_r") FROM ${post}`);
    const visible = join(columns.map(c => ident(c.name)));
    const pending = ctx.tempName('feed');
    await ctx.db.run(sql`CREATE TEMP TABLE ${pending} AS SELECT ${visible}, 'update_preimage' AS "_change_type" FROM ${pre} UNION ALL SELECT ${visible}, 'update_postimage' FROM ${post}`);
    await ctx.dropTemp(pre);
    await ctx.dropTemp(post);
    return pending;
}
