// MERGE INTO on the local state (spec 8.6), as Delta runs it: the target and the source are joined on
// the ON condition; each target row with a source row (MATCHED), each source row without one (NOT
// MATCHED [BY TARGET]) and each target row without one (NOT MATCHED BY SOURCE) takes the first clause
// of its kind whose condition holds, and is updated, deleted or inserted by it. A target row that
// several source rows would update or delete is an error. The statement's feed is the rows it
// deleted, updated (pre- and post-images) and inserted.
import { EngineError, ErrorClass } from '../errors.js';
import type { ExprIR, MergeClauseIR, MergeStatementIR, QueryIR, RelationIR, TableRelationIR } from '../ir.js';
import { empty, ident, join, sql, type Sql } from '../sql/sql.js';
import { Scope, castExpr } from '../sql/translate.js';
import type { Column } from '../sql/duckdb-types.js';
import type { UpdateContext } from './context.js';
import { FlowSources, ROW_ID } from './sources.js';

const TR = ident('__psql_tr');
const SR = ident('__psql_sr');
const CL = ident('__psql_cl');

/** The name the source is known by in the statement's expressions. */
function sourceAlias(source: RelationIR): string | undefined {
    if ('alias' in source && source.alias) {
        return source.alias;
    }
    return source.kind === 'table' && source.source.kind !== 'table_changes' && 'name' in source.source ? source.source.name[source.source.name.length - 1] : undefined;
}

/**
 * Runs MERGE on `table` (whose visible columns are `columns`); inserted rows go through `insert`,
 * which returns their feed. Returns the statement's feed (undefined when it changed nothing).
 */
export async function mergeRows(ctx: UpdateContext, statement: MergeStatementIR, table: Sql, columns: Column[], display: string,
    insert: (batch: Sql, batchColumns: Column[]) => Promise<Sql | undefined>): Promise<Sql | undefined> {
    const span = statement.span;
    const targetAlias = statement.alias ?? statement.target[statement.target.length - 1];
    const srcAlias = sourceAlias(statement.source) ?? '__psql_source';
    if (srcAlias.toLowerCase() === targetAlias.toLowerCase()) {
        throw new EngineError(ErrorClass.ambiguousReference, `MERGE names its target and its source '${srcAlias}'; give one of them another alias.`, { span });
    }
    // The expressions are resolved with the target and the source as the statement's relations (subqueries included).
    const exprs: ExprIR[] = [statement.on, ...statement.clauses.flatMap(c => [
        ...(c.condition ? [c.condition] : []),
        ...(c.action.kind === 'update' ? c.action.assignments.map(a => a.value) : c.action.kind === 'insert' ? c.action.values : []),
    ])];
    const targetRelation: TableRelationIR = { kind: 'table', source: { kind: 'dataset', name: statement.target }, streaming: false, alias: targetAlias };
    const whole: QueryIR = { kind: 'query', body: { kind: 'select', distinct: false, items: exprs.map(expr => ({ kind: 'expr' as const, expr })), from: [targetRelation, statement.source] } };
    const sources = new FlowSources(ctx, '__statement', 'batch');
    await sources.prepare(whole);
    const sourceQuery: QueryIR = { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [statement.source] } };
    const sourceSql = sources.translate(sourceQuery).sql;
    const sourceColumns = await sources.describe(sourceSql, statement.source.span ?? span);
    const translator = sources.translator();
    const scope = new Scope([{ alias: targetAlias, columns }, { alias: srcAlias, columns: sourceColumns }]);
    const translate = (e: ExprIR): Sql => translator.expr(e, scope).sql;
    const holds = (e: ExprIR | undefined): Sql => (e ? sql`coalesce(CAST(${translate(e)} AS BOOLEAN), FALSE)` : sql`TRUE`);
    const t = ident(targetAlias);
    const s = ident(srcAlias);
    const column = (name: string, clause: MergeClauseIR): Column => {
        const found = columns.find(c => c.name.toLowerCase() === name.toLowerCase());
        if (!found) {
            throw new EngineError(ErrorClass.schemaMismatch,
                `MERGE cannot set '${name}': '${display}' has no such column (DML does not change a table's schema); its columns: ${columns.map(c => c.name).join(', ')}.`, { span: clause.span ?? span });
        }
        return found;
    };
    const fromSource = (c: Column, clause: MergeClauseIR): Sql => {
        const found = sourceColumns.find(x => x.name.toLowerCase() === c.name.toLowerCase());
        if (!found) {
            throw new EngineError(ErrorClass.schemaMismatch,
                `MERGE ... ${clause.action.kind.toUpperCase()} * needs the source column '${c.name}' of '${display}', which the source does not have; its columns: ${sourceColumns.map(x => x.name).join(', ')}.`, { span: clause.span ?? span });
        }
        return castExpr({ sql: sql`${s}.${ident(found.name)}`, type: found.type }, c.type, false).sql;
    };

    // Per clause, the new value of every column it writes (index in `columns` → SQL).
    const values = statement.clauses.map((clause): Map<number, Sql> => {
        const out = new Map<number, Sql>();
        const action = clause.action;
        if (action.kind === 'update') {
            if (action.all) {
                columns.forEach((c, i) => out.set(i, fromSource(c, clause)));
            }
            for (const a of action.assignments) {
                const c = column(a.column, clause);
                out.set(columns.indexOf(c), castExpr(translator.expr(a.value, scope), c.type, false).sql);
            }
        } else if (action.kind === 'insert') {
            if (action.all) {
                columns.forEach((c, i) => out.set(i, fromSource(c, clause)));
            } else {
                const names = action.columns ?? columns.map(c => c.name);
                if (names.length !== action.values.length) {
                    throw new EngineError(ErrorClass.schemaMismatch, `MERGE ... INSERT gives ${action.values.length} values for the ${names.length} columns of '${display}'.`, { span: clause.span ?? span });
                }
                names.forEach((name, i) => {
                    const c = column(name, clause);
                    out.set(columns.indexOf(c), castExpr(translator.expr(action.values[i], scope), c.type, false).sql);
                });
            }
        }
        return out;
    });
    const pick = (when: MergeClauseIR['when']): Sql => {
        const arms = statement.clauses.flatMap((c, k) => (c.when === when ? [sql`WHEN ${holds(c.condition)} THEN ${k}`] : []));
        return arms.length > 0 ? sql`CASE ${join(arms, sql` `)} END` : sql`CAST(NULL AS INTEGER)`;
    };
    const clauseOf = sql`CASE WHEN ${t}.${TR} IS NOT NULL AND ${s}.${SR} IS NOT NULL THEN ${pick('matched')} WHEN ${t}.${TR} IS NULL THEN ${pick('not_matched')} ELSE ${pick('not_matched_by_source')} END`;
    const items = [sql`${t}.${TR}`, sql`${s}.${SR}`, sql`${clauseOf} AS ${CL}`];
    values.forEach((map, k) => map.forEach((value, i) => items.push(sql`${value} AS ${ident(`__psql_e${k}_${i}`)}`)));
    const joined = ctx.tempName('merge');
    await ctx.db.run(sql`CREATE TEMP TABLE ${joined} AS SELECT ${join(items)}
        FROM (SELECT rowid AS ${TR}, * FROM ${table}) AS ${t} FULL JOIN (SELECT row_number() OVER () AS ${SR}, * FROM (${sourceSql})) AS ${s} ON ${holds(statement.on)}`).catch(error => {
        throw sources.mapError(error, span);
    });
    const acting = (kind: MergeClauseIR['action']['kind']): Sql => {
        const ks = statement.clauses.flatMap((c, k) => (c.action.kind === kind ? [sql`${k}`] : []));
        return ks.length > 0 ? sql`${CL} IN (${join(ks)})` : sql`FALSE`;
    };
    const multiple = await ctx.db.query(sql`SELECT count(*) FROM ${joined} WHERE ${TR} IS NOT NULL AND ${SR} IS NOT NULL AND (${acting('update')} OR ${acting('delete')}) GROUP BY ${TR} HAVING count(*) > 1 LIMIT 1`);
    if (multiple.rows.length > 0) {
        throw new EngineError(ErrorClass.mergeMultipleMatches,
            `MERGE cannot update or delete a row of '${display}' that ${String(multiple.rows[0][0])} source rows match; make the ON condition match at most one source row per target row, or deduplicate the source.`, { span });
    }
    // A column's value after the statement: the clause's value where it writes the column, the old value elsewhere.
    const physical = await ctx.db.describe(sql`SELECT * FROM ${table}`);
    const newValue = (c: Column, old: Sql): Sql => {
        const i = columns.findIndex(x => x.name === c.name);
        const arms = values.flatMap((map, k) => (i >= 0 && map.has(i) ? [sql`WHEN ${k} THEN ${ident(`__psql_e${k}_${i}`)}`] : []));
        return arms.length > 0 ? sql`CASE "__m".${CL} ${join(arms, sql` `)} ELSE ${old} END` : old;
    };
    const visible = join(columns.map(c => ident(c.name)));
    const deleted = ctx.tempName('merge_deleted');
    await ctx.db.run(sql`CREATE TEMP TABLE ${deleted} AS SELECT ${visible} FROM ${table} WHERE rowid IN (SELECT ${TR} FROM ${joined} WHERE ${acting('delete')})`);
    const pre = ctx.tempName('merge_pre');
    await ctx.db.run(sql`CREATE TEMP TABLE ${pre} AS SELECT rowid AS "__psql_r", * FROM ${table} WHERE rowid IN (SELECT ${TR} FROM ${joined} WHERE ${acting('update')})`);
    const post = ctx.tempName('merge_post');
    const postItems = physical.map(c => (c.name === ROW_ID ? sql`"__p".${ident(c.name)}` : sql`${newValue(c, sql`"__p".${ident(c.name)}`)} AS ${ident(c.name)}`));
    await ctx.db.run(sql`CREATE TEMP TABLE ${post} AS SELECT "__p"."__psql_r", ${join(postItems)} FROM ${pre} AS "__p" JOIN ${joined} AS "__m" ON "__m".${TR} = "__p"."__psql_r"`).catch(error => {
        throw sources.mapError(error, span);
    });
    const inserted = ctx.tempName('merge_inserted');
    await ctx.db.run(sql`CREATE TEMP TABLE ${inserted} AS SELECT ${join(columns.map(c => sql`${newValue(c, sql`NULL`)} AS ${ident(c.name)}`))} FROM ${joined} AS "__m" WHERE ${acting('insert')}`).catch(error => {
        throw sources.mapError(error, span);
    });
    await ctx.db.run(sql`DELETE FROM ${table} WHERE rowid IN (SELECT ${TR} FROM ${joined} WHERE ${acting('delete')} OR ${acting('update')})`);
    await ctx.db.run(sql`INSERT INTO ${table} BY NAME SELECT * EXCLUDE ("__psql_r") FROM ${post}`);
    const insertedCount = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${inserted}`));
    const insertedFeed = insertedCount > 0 ? await insert(inserted, columns) : undefined;
    const feed = ctx.tempName('feed');
    await ctx.db.run(sql`CREATE TEMP TABLE ${feed} AS SELECT ${visible}, 'delete' AS "_change_type" FROM ${deleted}
        UNION ALL BY NAME SELECT ${visible}, 'update_preimage' AS "_change_type" FROM ${pre} UNION ALL BY NAME SELECT ${visible}, 'update_postimage' AS "_change_type" FROM ${post}
        ${insertedFeed ? sql`UNION ALL BY NAME SELECT * FROM ${insertedFeed}` : empty}`);
    for (const temp of [joined, deleted, pre, post, inserted, ...(insertedFeed ? [insertedFeed] : [])]) {
        await ctx.dropTemp(temp);
    }
    return feed;
}
