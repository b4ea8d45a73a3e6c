// Writing dataset tables: creating them from a declared or inferred schema, appending rows by name
// or position (with generated and default columns), evaluating expectations on a batch, and
// diffing a dataset before/after an update for metrics and previews.
import { toRows, type Row } from '../db/values.js';
import { EngineError, ErrorClass, PipelineRuntimeError } from '../errors.js';
import type { ColumnIR, DatasetIR, SourceSpan } from '../ir.js';
import { empty, ident, join, sql, type Sql } from '../sql/sql.js';
import { Scope, SparkTranslator, castExpr } from '../sql/translate.js';
import { toDuckType, withSparkTypes, type Column } from '../sql/duckdb-types.js';
import { typesEqual } from '../spark/spark-types.js';
import type { RecordedChanges, UpdateContext } from '../update/context.js';
import { ROW_ID } from '../update/sources.js';
import { keepsFeed } from '../update/versions.js';
import { ownValue, setOwn } from '../records.js';

/** Describes the visible columns of a dataset table, with the Spark types recorded where DuckDB's cannot tell them. */
export async function tableColumns(ctx: UpdateContext, key: string): Promise<Column[]> {
    const columns = await ctx.db.describe(sql`SELECT * FROM ${ctx.store.datasetTable(key)}`);
    return withSparkTypes(columns.filter(c => c.name !== ROW_ID), await ctx.store.columnTypes(key));
}

/** A translator with no table access (for expressions over known columns). */
export function exprTranslator(ctx: UpdateContext): SparkTranslator {
    return new SparkTranslator({
        now: ctx.options.now,
        conf: ctx.plan.pipeline.conf,
        resolveTable: relation => {
            throw new EngineError(ErrorClass.invalidPipeline, 'This expression cannot read tables.', { span: relation.span });
        },
    });
}

function columnDefinition(column: { name: string; type: Column['type']; notNull?: boolean }): Sql {
    return sql`${ident(column.name)} ${toDuckType(column.type)}${column.notNull ? sql` NOT NULL` : empty}`;
}

/**
 * Makes sure the dataset's table exists with (at least) the given columns.
 * A declared schema is used as is (plus `extra` system columns it lacks); an inferred schema grows
 * when a write brings new columns. Returns the visible columns of the table.
 */
export async function ensureTable(ctx: UpdateContext, dataset: DatasetIR, key: string, columns: Column[], options: { appendOnly: boolean; extra?: Column[] }): Promise<Column[]> {
    const table = ctx.store.datasetTable(key);
    const exists = await ctx.store.tableExists('ds', key);
    const state = await ctx.store.dataset(key);
    if (!exists) {
        const declared: (Column & { notNull?: boolean })[] | undefined = dataset.columns?.map(c => ({ name: c.name, type: c.type, notNull: c.notNull }));
        let definition = declared ?? columns;
        for (const extra of options.extra ?? []) {
            if (!definition.some(c => c.name.toLowerCase() === extra.name.toLowerCase())) {
                definition = [...definition, extra];
            }
        }
        const rowId = options.appendOnly ? sql`, ${ident(ROW_ID)} BIGINT` : empty;
        await ctx.db.run(sql`CREATE TABLE ${table} (${join(definition.map(columnDefinition))}${rowId})`);
        await ctx.store.recordColumnTypes(key, definition, true);
        await ctx.store.setDataset(key, { kind: dataset.kind, appendOnly: options.appendOnly, nextRowId: 1n });
        return definition.map(c => ({ name: c.name, type: c.type }));
    }
    if (state && state.appendOnly && !options.appendOnly) {
        await ctx.store.setDataset(key, { ...state, appendOnly: false });
    }
    let current = await tableColumns(ctx, key);
    if (!dataset.columns) {
        const has = (list: Column[], name: string) => list.some(c => c.name.toLowerCase() === name.toLowerCase());
        const added = columns.filter(c => !has(current, c.name));
        const system = current.filter(c => has(options.extra ?? [], c.name));
        if (added.length > 0 && system.length > 0) {
            // System columns (__START_AT, ...) stay last: the table is rewritten with the new columns before them.
            const order = [...current.filter(c => !has(system, c.name)), ...added, ...system];
            const rowId = (await ctx.db.describe(sql`SELECT * FROM ${table}`)).some(c => c.name === ROW_ID) ? sql`, ${ident(ROW_ID)}` : empty;
            const rewritten = ctx.store.datasetTable(`${key}__psql_rewrite`);
            const items = order.map(c => (has(current, c.name) ? ident(c.name) : sql`CAST(NULL AS ${toDuckType(c.type)}) AS ${ident(c.name)}`));
            await ctx.db.run(sql`CREATE TABLE ${rewritten} AS SELECT ${join(items)}${rowId} FROM ${table}`);
            await ctx.db.run(sql`DROP TABLE ${table}`);
            await ctx.db.run(sql`ALTER TABLE ${rewritten} RENAME TO ${ident(key)}`);
        } else {
            for (const column of added) {
                await ctx.db.run(sql`ALTER TABLE ${table} ADD COLUMN ${columnDefinition(column)}`);
            }
        }
        await ctx.store.recordColumnTypes(key, added);
        current = await tableColumns(ctx, key);
    }
    return current;
}

/** A column of a view-backed target: its name and type, and the SQL computing it from a state table row. */
export interface ProducedColumn {
    column: Column;
    sql: Sql;
    /** A system column (`__START_AT`...): kept even when a declared schema does not list it. */
    system?: boolean;
}

/**
 * Creates or replaces the view presenting a CDC target whose rows live in a state table (`from`,
 * filtered by `where`): the produced columns with the declared column types, generated and default
 * columns. Returns a function giving the same rows from any relation with the state table's columns
 * (the before/after rows of an update's diff).
 */
export async function ensureTargetView(ctx: UpdateContext, dataset: DatasetIR, key: string, produced: ProducedColumn[], from: Sql, where: Sql, context: { flow: string; span?: SourceSpan }): Promise<(relation: Sql) => Sql> {
    const table = ctx.store.datasetTable(key);
    // Recreated on every update (cheap), so a changed declared schema takes effect at once.
    if (await ctx.store.tableExists('ds', key) && !(await ctx.store.isView('ds', key))) {
        await ctx.db.run(sql`DROP TABLE ${table}`);
    }
    const inner = join(produced.map(p => sql`${p.sql} AS ${ident(p.column.name)}`));
    let items: Sql[];
    if (dataset.columns) {
        const declared = dataset.columns;
        const find = (name: string) => declared.find(c => c.name.toLowerCase() === name.toLowerCase());
        for (const { column, system } of produced) {
            if (!system && !find(column.name)) {
                throw new PipelineRuntimeError(ErrorClass.schemaMismatch,
                    `The flow '${context.flow}' produces the column '${column.name}', which the declared schema of '${dataset.name.join('.')}' does not have.`,
                    { flow: context.flow, dataset: key, span: context.span });
            }
        }
        const translator = exprTranslator(ctx);
        const columns = produced.map(p => p.column);
        const rowScope = Scope.of(columns, '__row');
        items = declared.map(c => {
            const source = columns.find(o => o.name.toLowerCase() === c.name.toLowerCase());
            const value = source
                ? castExpr({ sql: sql`"__row".${ident(source.name)}`, type: source.type }, c.type, false).sql
                : c.generated ? castExpr(translator.expr(c.generated, rowScope), c.type, false).sql
                    : c.default ? castExpr(translator.expr(c.default, new Scope([])), c.type, false).sql
                        : sql`CAST(NULL AS ${toDuckType(c.type)})`;
            return sql`${value} AS ${ident(c.name)}`;
        });
        items.push(...produced.filter(p => p.system && !find(p.column.name)).map(p => sql`"__row".${ident(p.column.name)}`));
    } else {
        items = produced.map(p => sql`"__row".${ident(p.column.name)}`);
    }
    const select = (relation: Sql): Sql => sql`SELECT ${join(items)} FROM (SELECT ${inner} FROM ${relation} WHERE ${where}) AS "__row"`;
    await ctx.db.run(sql`CREATE OR REPLACE VIEW ${table} AS ${select(from)}`);
    if (!(await ctx.store.dataset(key))) {
        await ctx.store.setDataset(key, { kind: dataset.kind, appendOnly: false, nextRowId: 1n });
    }
    return select;
}

/**
 * Appends the rows of `sourceSql` (whose columns are `sourceColumns`) to a dataset table:
 * by name (`byName`) or by position; generated columns are computed, missing ones take their
 * DEFAULT or NULL. Returns the number of rows written.
 */
export async function appendRows(ctx: UpdateContext, dataset: DatasetIR, key: string, sourceSql: Sql, sourceColumns: Column[], options: { byName: boolean; flow: string; span?: SourceSpan }): Promise<number> {
    const state = await ctx.store.dataset(key);
    const appendOnly = state?.appendOnly ?? false;
    const targetColumns = dataset.columns ?? await tableColumns(ctx, key);
    const declaredByName = new Map<string, ColumnIR>((dataset.columns ?? []).map(c => [c.name.toLowerCase(), c]));
    const context = { span: options.span, flow: options.flow, dataset: key };
    const mapping = new Map<string, Column>();
    if (options.byName) {
        for (const source of sourceColumns) {
            const target = targetColumns.find(c => c.name.toLowerCase() === source.name.toLowerCase());
            if (!target) {
                throw new PipelineRuntimeError(ErrorClass.schemaMismatch,
                    `The query of '${options.flow}' produces the column '${source.name}', which the declared schema of '${dataset.name.join('.')}' does not have.`, context);
            }
            mapping.set(target.name.toLowerCase(), source);
        }
    } else {
        const writable = targetColumns.filter(c => !declaredByName.get(c.name.toLowerCase())?.generated);
        if (sourceColumns.length > writable.length) {
            throw new PipelineRuntimeError(ErrorClass.schemaMismatch,
                `The query of '${options.flow}' produces ${sourceColumns.length} columns but '${dataset.name.join('.')}' has ${writable.length}; use INSERT ... BY NAME or match the column list.`, context);
        }
        sourceColumns.forEach((source, i) => mapping.set(writable[i].name.toLowerCase(), source));
    }
    // Inner projection: every non-generated target column, cast to its type.
    const translator = exprTranslator(ctx);
    const plain = targetColumns.filter(c => !declaredByName.get(c.name.toLowerCase())?.generated);
    const innerItems = plain.map(c => {
        const source = mapping.get(c.name.toLowerCase());
        if (source) {
            const value = typesEqual(source.type, c.type) ? ident(source.name) : castExpr({ sql: sql`"__src".${ident(source.name)}`, type: source.type }, c.type, false).sql;
            return sql`${value} AS ${ident(c.name)}`;
        }
        const def = declaredByName.get(c.name.toLowerCase())?.default;
        const value = def ? castExpr(translator.expr(def, new Scope([])), c.type, false).sql : sql`CAST(NULL AS ${toDuckType(c.type)})`;
        return sql`${value} AS ${ident(c.name)}`;
    });
    const rowScope = Scope.of(plain, '__row');
    const outerItems = targetColumns.map(c => {
        const generated = declaredByName.get(c.name.toLowerCase())?.generated;
        return generated ? castExpr(translator.expr(generated, rowScope), c.type, false).sql : sql`"__row".${ident(c.name)}`;
    });
    const columnList = targetColumns.map(c => ident(c.name));
    let select = sql`SELECT ${join(outerItems)} FROM (SELECT ${join(innerItems)} FROM ${sourceSql} AS "__src") AS "__row"`;
    const nextRowId = state?.nextRowId ?? 1n;
    if (appendOnly) {
        columnList.push(ident(ROW_ID));
        select = sql`SELECT *, ${nextRowId} + row_number() OVER () - 1 FROM (${select})`;
    }
    const before = await ctx.db.scalar(sql`SELECT count(*) FROM ${ctx.store.datasetTable(key)}`);
    await ctx.db.run(sql`INSERT INTO ${ctx.store.datasetTable(key)} (${join(columnList)}) ${select}`);
    const after = await ctx.db.scalar(sql`SELECT count(*) FROM ${ctx.store.datasetTable(key)}`);
    const written = Number(after) - Number(before);
    if (appendOnly && state) {
        await ctx.store.setDataset(key, { ...state, nextRowId: nextRowId + BigInt(written) });
    }
    return written;
}

/**
 * Evaluates a dataset's expectations on a batch table (docs/semantics.md §14.2): DROP ROW expectations first,
 * on all rows; warn and FAIL UPDATE expectations on the surviving rows; a NULL result is a
 * violation. Records per-expectation metrics and returns SQL of the surviving rows.
 */
export async function applyExpectations(ctx: UpdateContext, dataset: DatasetIR, key: string, batch: Sql, columns: Column[], flow: string): Promise<Sql> {
    if (dataset.expectations.length === 0) {
        return batch;
    }
    const translator = exprTranslator(ctx);
    const scope = Scope.of(columns);
    const condition = (e: DatasetIR['expectations'][number]): Sql => {
        try {
            return sql`coalesce(CAST(${translator.expr(e.condition, scope).sql} AS BOOLEAN), FALSE)`;
        } catch (error) {
            throw error instanceof EngineError ? error.withContext({ span: e.span, dataset: key, flow }) : error;
        }
    };
    const drops = dataset.expectations.filter(e => e.action === 'drop');
    const others = dataset.expectations.filter(e => e.action !== 'drop');
    const metrics = ctx.metricsOf(key);
    metrics.expectations ??= {};
    const record = (name: string, passed: number, failed: number, dropped?: number): void => {
        const current = ownValue(metrics.expectations!, name) ?? { passed_records: 0, failed_records: 0 };
        current.passed_records += passed;
        current.failed_records += failed;
        if (dropped !== undefined) {
            current.dropped_records = (current.dropped_records ?? 0) + dropped;
        }
        setOwn(metrics.expectations!, name, current);
    };
    const keep = drops.length > 0 ? join(drops.map(condition).map(c => sql`(${c})`), sql` AND `) : sql`TRUE`;
    if (drops.length > 0) {
        const counts = await ctx.db.query(sql`SELECT ${join(drops.map(e => sql`count(*) FILTER (WHERE ${condition(e)})`))}, count(*) FROM ${batch}`);
        const total = Number(counts.rows[0][drops.length]);
        const dropped = Number((await ctx.db.scalar(sql`SELECT count(*) FILTER (WHERE NOT (${keep})) FROM ${batch}`)) ?? 0);
        drops.forEach((e, i) => {
            const passed = Number(counts.rows[0][i]);
            record(e.name, passed, total - passed, i === 0 ? dropped : 0);
        });
    }
    const survivors = sql`(SELECT * FROM ${batch} WHERE ${keep})`;
    if (others.length > 0) {
        const counts = await ctx.db.query(sql`SELECT ${join(others.map(e => sql`count(*) FILTER (WHERE ${condition(e)})`))}, count(*) FROM ${survivors}`);
        const total = Number(counts.rows[0][others.length]);
        for (let i = 0; i < others.length; i++) {
            const expectation = others[i];
            const passed = Number(counts.rows[0][i]);
            if (expectation.action === 'fail' && passed < total) {
                const sample = await ctx.db.query(sql`SELECT * FROM ${survivors} WHERE NOT (${condition(expectation)}) LIMIT 1`);
                const row = toRows(sample.columns, sample.rows)[0];
                throw new PipelineRuntimeError(ErrorClass.expectationViolation,
                    `Flow '${flow}' failed: the expectation '${expectation.name}' of '${dataset.name.join('.')}' was violated by ${total - passed} row(s) (ON VIOLATION FAIL UPDATE), e.g. ${JSON.stringify(row)}.`,
                    { span: expectation.span, dataset: key, flow });
            }
            record(expectation.name, passed, total - passed);
        }
    }
    return survivors;
}

/**
 * Counts and sample rows of what changed between `before` and `after` when rows are identified by
 * `keyColumns` (the primary key of docs/semantics.md §15.2): one full outer join classifies every row.
 */
export async function diffByKey(ctx: UpdateContext, before: Sql, after: Sql, keyColumns: string[], columns: Column[]): Promise<RecordedChanges> {
    const limit = ctx.options.limit;
    const cols = columns.map(c => ident(c.name));
    const sample = async (query: Sql, tieBreak?: Sql): Promise<Row[]> => {
        const result = await ctx.db.query(sql`${query} ORDER BY ${join([...keyColumns.map(ident), ...(tieBreak ? [tieBreak] : [])])} LIMIT ${limit}`);
        return toRows(result.columns, result.rows);
    };
    if (Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${before}`)) === 0) {
        // Nothing existed before (a first load): every row is an insert.
        const inserted = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${after}`));
        const rows = await sample(sql`SELECT ${join(cols)} FROM ${after} AS "__a"`);
        const pending = keepsFeed(columns) ? ctx.tempName('feed') : undefined;
        if (pending) {
            await ctx.db.run(sql`CREATE TEMP TABLE ${pending} AS SELECT ${join(cols)}, 'insert' AS "_change_type" FROM ${after} AS "__a"`);
        }
        return { inserted, updated: 0, deleted: 0, rows: { inserted: rows, updated: [], deleted: [] }, feed: rows.map(r => ({ ...r, _change_type: 'insert' })), pending };
    }
    const on = join(keyColumns.map(k => sql`"__a".${ident(k)} IS NOT DISTINCT FROM "__b".${ident(k)}`), sql` AND `);
    const values = (alias: Sql): Sql => sql`struct_pack(${join(cols.map(c => sql`${c} := ${alias}.${c}`))})`;
    // One join classifies every row; only the changed rows are kept (a small table for small updates).
    const changes = ctx.tempName('changes');
    await ctx.db.run(sql`CREATE TEMP TABLE ${changes} AS SELECT CASE WHEN "__b"."__psql_p" IS NULL THEN 'insert' WHEN "__a"."__psql_p" IS NULL THEN 'delete' ELSE 'update' END AS "__psql_change",
        CASE WHEN "__a"."__psql_p" IS NULL THEN ${values(sql`"__b"`)} ELSE ${values(sql`"__a"`)} END AS "__psql_row",
        CASE WHEN "__a"."__psql_p" AND "__b"."__psql_p" THEN ${values(sql`"__b"`)} END AS "__psql_pre"
        FROM (SELECT *, TRUE AS "__psql_p" FROM ${after}) AS "__a" FULL JOIN (SELECT *, TRUE AS "__psql_p" FROM ${before}) AS "__b" ON ${on}
        WHERE "__a"."__psql_p" IS NULL OR "__b"."__psql_p" IS NULL OR ${values(sql`"__a"`)} IS DISTINCT FROM ${values(sql`"__b"`)}`);
    // One query gives each kind of change's count and its first rows in key order.
    const order = join(keyColumns.map(k => sql`"__psql_row".${ident(k)}`));
    const picked = await ctx.db.query(sql`SELECT "__psql_change", "__psql_n", unnest("__psql_row") FROM (SELECT "__psql_change", "__psql_row",
        count(*) OVER (PARTITION BY "__psql_change") AS "__psql_n", row_number() OVER (PARTITION BY "__psql_change" ORDER BY ${order}) AS "__psql_i" FROM ${changes})
        WHERE "__psql_i" <= ${limit} ORDER BY "__psql_change", "__psql_i"`);
    const counts = { insert: 0, update: 0, delete: 0 };
    const picks: { insert: Row[]; update: Row[]; delete: Row[] } = { insert: [], update: [], delete: [] };
    for (const { __psql_change: change, __psql_n: count, ...row } of toRows(picked.columns, picked.rows)) {
        const kind = change as keyof typeof counts;
        counts[kind] = Number(count);
        picks[kind].push(row);
    }
    const feed = await sample(sql`SELECT * FROM (SELECT unnest("__psql_row"), CASE "__psql_change" WHEN 'update' THEN 'update_postimage' ELSE "__psql_change" END AS "_change_type", 1 AS "__psql_o" FROM ${changes}
        UNION ALL SELECT unnest("__psql_pre"), 'update_preimage', 0 FROM ${changes} WHERE "__psql_change" = 'update')`, sql`"__psql_o"`);
    // The whole feed of the change, for the dataset's version (docs/semantics.md §15.3).
    const pending = keepsFeed(columns) ? ctx.tempName('feed') : undefined;
    await ctx.db.run(pending === undefined ? sql`SELECT 1` : sql`CREATE TEMP TABLE ${pending} AS SELECT unnest("__psql_row"), CASE "__psql_change" WHEN 'update' THEN 'update_postimage' ELSE "__psql_change" END AS "_change_type" FROM ${changes}
        UNION ALL SELECT unnest("__psql_pre"), 'update_preimage' FROM ${changes} WHERE "__psql_change" = 'update'`);
    const result = {
        inserted: counts.insert, updated: counts.update, deleted: counts.delete,
        rows: { inserted: picks.insert, updated: picks.update, deleted: picks.delete },
        feed: feed.map(({ __psql_o: _order, ...row }) => row),
        pending,
    };
    await ctx.dropTemp(changes);
    return result;
}

/** Multiset difference of a whole table before/after (materialized views). */
export async function diffRows(ctx: UpdateContext, before: Sql, after: Sql, columns: Column[]): Promise<RecordedChanges> {
    const limit = ctx.options.limit;
    const cols = join(columns.map(c => ident(c.name)));
    const inserted = sql`(SELECT ${cols} FROM ${after} EXCEPT ALL SELECT ${cols} FROM ${before})`;
    const deleted = sql`(SELECT ${cols} FROM ${before} EXCEPT ALL SELECT ${cols} FROM ${after})`;
    const counts = await ctx.db.query(sql`SELECT (SELECT count(*) FROM ${inserted}), (SELECT count(*) FROM ${deleted})`);
    const sample = async (query: Sql): Promise<Row[]> => {
        const result = await ctx.db.query(sql`SELECT * FROM ${query} AS "__s" LIMIT ${limit}`);
        return toRows(result.columns, result.rows);
    };
    const insertedRows = await sample(inserted);
    const deletedRows = await sample(deleted);
    const pending = keepsFeed(columns) ? ctx.tempName('feed') : undefined;
    if (pending) {
        await ctx.db.run(sql`CREATE TEMP TABLE ${pending} AS SELECT *, 'delete' AS "_change_type" FROM ${deleted} AS "__d" UNION ALL SELECT *, 'insert' FROM ${inserted} AS "__i"`);
    }
    return {
        pending,
        inserted: Number(counts.rows[0][0]), updated: 0, deleted: Number(counts.rows[0][1]),
        rows: { inserted: insertedRows, updated: [], deleted: deletedRows },
        feed: [...deletedRows.map(r => ({ ...r, _change_type: 'delete' })), ...insertedRows.map(r => ({ ...r, _change_type: 'insert' }))].slice(0, limit),
    };
}

