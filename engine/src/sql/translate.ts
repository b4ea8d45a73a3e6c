// IR → DuckDB SQL with Spark semantics.
//
// The translator walks the relational IR, keeps a scope of the relations in FROM (with their
// column types where known) to infer expression types, and emits DuckDB SQL in which every
// identifier is quoted and every alias has `AS`. Type inference is best effort: where a
// translation depends on a type (0-based `arr[i]` vs `map[k]`, `size` of a map, decimal
// division, Spark's truncating integral casts), a known type selects the exact translation and an
// unknown one falls back to the common case. Table references are resolved by the caller
// (`TranslateEnv.resolveTable`): a pipeline dataset, a sample table, read_files, or a view.
import { ErrorClass, UnsupportedFeatureError } from '../errors.js';
import type {
    CallExprIR, DataType, ExprIR, GroupByIR, QueryBodyIR, QueryIR, RelationIR, SelectIR, SelectItemIR, SortItemIR,
    SourceSpan, TableRelationIR, WindowFrameIR, WindowSpecIR, FrameBoundIR, LiteralExprIR, BinaryExprIR,
} from '../ir.js';
import { inferReturnType, lambdaParameterTypes, localFunction as lookupFunction } from '../spark/functions/catalog.js';
import type { CallArgument } from '../spark/functions/return-types.js';
import {
    arithmeticOperandType, binaryOperatorType, commonSupertype, commonSupertypeOf, formatType, isComplex, isIntegral, isInterval, isLocallyStorable, isNumeric, isStringLike, typesEqual, typeToString, operandType, Types as T, type TypeDescriptor,
} from '../spark/spark-types.js';
import { argumentsNotAvailableLocally, unknownFunctionError, type CallContext, type FunctionSpec, type Translated } from '../spark/functions/local.js';
import { empty, ident, integer, join, paren, sql, type Sql, str } from './sql.js';
import { ownValue } from '../records.js';
import { timestampFromText, toDuckType } from './duckdb-types.js';

/** A column known to the translator; the type is absent when it cannot be inferred. */
export interface ScopeColumn {
    name: string;
    type?: DataType;
    /** A metadata column (Spark's `_metadata`): resolvable by name, left out of `*`. */
    hidden?: boolean;
}

/** A FROM-able SQL fragment (a table name or a parenthesised subquery) and its columns. */
export interface ResolvedRelation {
    sql: Sql;
    /** Known columns; undefined when the caller cannot tell (the SQL is still valid). */
    columns?: ScopeColumn[];
}

/** What the translator needs from its caller. */
export interface TranslateEnv {
    /** Resolves a non-CTE table reference; views are translated through `translator`. */
    resolveTable(relation: TableRelationIR, translator: SparkTranslator): ResolvedRelation;
    /** The update's fixed clock. */
    now: { date: string; timestamp: string };
    /** Pipeline configuration, for parameters (`${name}`). */
    conf?: Record<string, string>;
}

/** One relation visible in a scope. */
export interface ScopeRelation {
    alias?: string;
    columns?: ScopeColumn[];
}

/** Name resolution scope: FROM relations, enclosing query scopes, lambda parameters. */
export class Scope {
    constructor(
        readonly relations: ScopeRelation[],
        readonly parent?: Scope,
        readonly bindings: Map<string, Translated> = new Map(),
    ) {}

    /** A scope over one relation with known columns. */
    static of(columns: ScopeColumn[], alias?: string, parent?: Scope): Scope {
        return new Scope([{ alias, columns }], parent);
    }

    /** True when every relation's columns are known. */
    get complete(): boolean {
        return this.relations.every(r => r.columns !== undefined);
    }

    /** All columns of the scope's relations (star expansion), undefined when some are unknown. */
    allColumns(qualifier?: string): ScopeColumn[] | undefined {
        const relations = qualifier === undefined
            ? this.relations
            : this.relations.filter(r => r.alias?.toLowerCase() === qualifier.toLowerCase());
        if (relations.some(r => r.columns === undefined)) {
            return undefined;
        }
        return relations.flatMap(r => r.columns ?? []).filter(c => !c.hidden);
    }

    /** Names of hidden columns under a star (to exclude them from the DuckDB `*`). */
    hiddenColumns(qualifier?: string): string[] {
        const relations = qualifier === undefined
            ? this.relations
            : this.relations.filter(r => r.alias?.toLowerCase() === qualifier.toLowerCase());
        return [...new Set(relations.flatMap(r => (r.columns ?? []).filter(c => c.hidden).map(c => c.name)))];
    }

    /** How many leading parts of a column reference name its relation (`e.user.name`: 1), not a struct path. */
    qualifierLength(parts: string[]): number {
        const lower = parts.map(p => p.toLowerCase());
        if (this.bindings.has(lower[0])) {
            return 0;
        }
        for (let k = Math.min(parts.length - 1, 3); k >= 1; k--) {
            const relation = this.relations.find(r => r.alias?.toLowerCase() === lower[k - 1]);
            if (relation && (relation.columns === undefined || relation.columns.some(c => c.name.toLowerCase() === lower[k]))) {
                return k;
            }
        }
        if (this.relations.some(r => r.columns?.some(c => c.name.toLowerCase() === lower[0]))) {
            return 0;
        }
        return this.parent?.qualifierLength(parts) ?? 0;
    }

    /** Resolves a (possibly qualified) column reference to SQL and type. */
    resolve(parts: string[], fromParent = false): Translated | undefined {
        const lower = parts.map(p => p.toLowerCase());
        const binding = this.bindings.get(lower[0]);
        if (binding) {
            return fieldPath(binding, parts.slice(1));
        }
        // Qualified forms first: `t.c`, `s.t.c`, `c.s.t.c` — the last qualifier part names the relation.
        for (let k = Math.min(parts.length - 1, 3); k >= 1; k--) {
            const relation = this.relations.find(r => r.alias?.toLowerCase() === lower[k - 1]);
            const column = relation?.columns?.find(c => c.name.toLowerCase() === lower[k]);
            if (relation && column) {
                const base = { sql: sql`${ident(relation.alias!)}.${ident(column.name)}`, type: column.type };
                return fieldPath(base, parts.slice(k + 1));
            }
        }
        for (const relation of this.relations) {
            const column = relation.columns?.find(c => c.name.toLowerCase() === lower[0]);
            if (column) {
                const columnSql = fromParent && relation.alias ? sql`${ident(relation.alias)}.${ident(column.name)}` : ident(column.name);
                return fieldPath({ sql: columnSql, type: column.type }, parts.slice(1));
            }
        }
        if (!this.complete) {
            // Some relation's columns are unknown: let DuckDB resolve the name as written.
            return undefined;
        }
        return this.parent?.resolve(parts, true);
    }
}

/** `base.f1.f2` as struct field accesses with types. */
function fieldPath(base: Translated, fields: string[]): Translated {
    let current = base;
    for (const field of fields) {
        current = fieldAccess(current, field);
    }
    return current;
}

function fieldAccess(base: Translated, field: string): Translated {
    const type = base.type?.kind === 'struct'
        ? base.type.fields.find(f => f.name.toLowerCase() === field.toLowerCase())?.type
        : undefined;
    return { sql: sql`struct_extract(${base.sql}, ${str(field)})`, type };
}

/** A translated query: SQL text and its output columns (undefined when unknown). */
export interface TranslatedQuery {
    sql: Sql;
    columns?: ScopeColumn[];
}

interface CteEntry {
    name: string;
    columns?: ScopeColumn[];
}

/** Translates IR queries and expressions into DuckDB SQL. One instance per flow evaluation. */
/** A call's arguments as the catalog's rules read them: their types (unknown where undefined), and the values of literals. */
export function catalogArguments(call: CallExprIR, types: (DataType | undefined)[]): CallArgument[] {
    return types.map((type, i) => {
        const arg = call.args[i];
        const literal = arg?.kind === 'literal' && arg.type.kind !== 'void'
            ? (typeof arg.value === 'string' && !isStringLike(arg.type) && isNumeric(arg.type) ? Number(arg.value) : arg.value)
            : undefined;
        return { type: type ?? T.unknown, ...(literal !== undefined ? { literal } : {}) };
    });
}

/**
 * A type of the catalog's rules as the translator keeps it: undefined where a translation cannot rely
 * on it (`unknown`, types the engine does not store, and the calendar interval, which DuckDB does not
 * tell from the other intervals).
 */
function translatorType(type: TypeDescriptor): DataType | undefined {
    return isLocallyStorable(type) && type.kind !== 'calendar_interval' ? type : undefined;
}

/**
 * A call's SQL with the DECIMAL or integral type the catalog gives it: Spark's precision and scale
 * rules (round, ceil, floor, avg, coalesce of decimals …) and integer widths (length is INT,
 * grouping TINYINT) differ from DuckDB's, and the run shows the type the editor shows. Other types
 * are left as the translation makes them.
 */
function asResultType(result: Sql, type: DataType | undefined): Sql {
    return type && (type.kind === 'decimal' || isIntegral(type)) ? sql`CAST(${result} AS ${toDuckType(type)})` : result;
}

/** Calls the translator runs by name rather than from their catalog row (see `SparkTranslator.call`). */
const callsByName: ReadonlySet<string> = new Set(['struct', 'grouping_id', 'typeof']);

/** Whether the translator can translate a call of this function in an expression (given its catalog row). */
export function translatesCall(name: string): boolean {
    const spec = lookupFunction(name);
    return callsByName.has(name.toLowerCase()) || (spec !== undefined && spec.kind !== 'native');
}

/** Whether the translator can translate this table-valued function in FROM (`range` and the generators). */
export function translatesTableFunction(name: string): boolean {
    return name.toLowerCase() === 'range' || lookupFunction(name)?.kind === 'generator';
}

export class SparkTranslator {
    private cteStack: Map<string, CteEntry>[] = [];
    private groupingExprs: Sql[] = [];
    private lambdaCounter = 0;

    constructor(readonly env: TranslateEnv) {}

    // ---------------------------------------------------------------- queries

    /** Translates a whole query; `outer` is the enclosing scope for correlated subqueries. */
    query(query: QueryIR, outer?: Scope): TranslatedQuery {
        const ctes = new Map<string, CteEntry>();
        this.cteStack.push(ctes);
        try {
            let withSql = empty;
            if (query.with && query.with.ctes.length > 0) {
                const parts: Sql[] = [];
                for (const cte of query.with.ctes) {
                    const key = cte.name.toLowerCase();
                    if (query.with.recursive) {
                        ctes.set(key, { name: cte.name });
                    }
                    const translated = this.query(cte.query, outer);
                    const columns = renameColumns(translated.columns, cte.columns);
                    ctes.set(key, { name: cte.name, columns });
                    const columnList = cte.columns ? sql`(${join(cte.columns.map(ident))})` : empty;
                    parts.push(sql`${ident(cte.name)}${columnList} AS (${translated.sql})`);
                }
                withSql = sql`WITH ${query.with.recursive ? sql`RECURSIVE ` : empty}${join(parts)} `;
            }
            const body = this.body(query.body, outer);
            const clauses: Sql[] = [sql`${withSql}${body.sql}`];
            if (query.orderBy && query.orderBy.length > 0) {
                const scope = new Scope([{ columns: body.columns }], body.scope ?? outer);
                clauses.push(sql`ORDER BY ${this.sortItems(query.orderBy, scope)}`);
            }
            if (query.limit) {
                clauses.push(sql`LIMIT ${this.expr(query.limit, new Scope([], outer)).sql}`);
            }
            if (query.offset) {
                clauses.push(sql`OFFSET ${this.expr(query.offset, new Scope([], outer)).sql}`);
            }
            return { sql: join(clauses, sql` `), columns: body.columns };
        } finally {
            this.cteStack.pop();
        }
    }

    private body(body: QueryBodyIR, outer?: Scope): TranslatedQuery & { scope?: Scope } {
        switch (body.kind) {
            case 'query': {
                const inner = this.query(body, outer);
                return { sql: sql`SELECT * FROM (${inner.sql})`, columns: inner.columns };
            }
            case 'select':
                return this.select(body, outer);
            case 'values': {
                const names = (body.rows[0] ?? []).map((_, i) => `col${i + 1}`);
                const scope = new Scope([], outer);
                const rows = body.rows.map(row => row.map(e => this.expr(e, scope)));
                const columns = names.map((name, i) => ({ name, type: rows[0][i].type }));
                const values = join(rows.map(row => sql`(${join(row.map(v => v.sql))})`));
                return {
                    sql: sql`SELECT * FROM (VALUES ${values}) AS "__values"(${join(names.map(ident))})`,
                    columns,
                };
            }
            case 'set_operation': {
                const left = this.body(body.left, outer);
                const right = this.body(body.right, outer);
                const op = { union: sql`UNION`, intersect: sql`INTERSECT`, except: sql`EXCEPT` }[body.op];
                const byName = body.byName ? sql` BY NAME` : empty;
                const combined = sql`(${left.sql}) ${op}${body.all ? sql` ALL` : empty}${byName} (${right.sql})`;
                if (body.byName || !left.columns || !right.columns || left.columns.length !== right.columns.length) {
                    return { sql: combined, columns: left.columns };
                }
                // Spark widens each column to the type holding both sides; DuckDB's widening of
                // decimals differs (BIGINT with DECIMAL(2,1) is DECIMAL(21,1) in Spark, (20,1) there).
                const rightColumns = right.columns;
                const columns = left.columns.map((c, i) => {
                    const other = rightColumns[i].type;
                    return c.type && other && isNumeric(c.type) && isNumeric(other) ? { ...c, type: commonSupertype(c.type, other) ?? c.type } : c;
                });
                if (!columns.some((c, i) => c.type?.kind === 'decimal' && !sameTypes(c.type, rightColumns[i].type, left.columns![i].type))) {
                    return { sql: combined, columns };
                }
                const alias = this.internalAlias('__setop');
                const items = columns.map(c => (c.type?.kind === 'decimal' ? sql`CAST(${ident(alias)}.${ident(c.name)} AS ${toDuckType(c.type)}) AS ${ident(c.name)}` : sql`${ident(alias)}.${ident(c.name)}`));
                return { sql: sql`SELECT ${join(items)} FROM (${combined}) AS ${ident(alias)}`, columns };
            }
        }
    }

    private select(select: SelectIR, outer?: Scope): TranslatedQuery & { scope: Scope } {
        const relations: ScopeRelation[] = [];
        const fromParts: Sql[] = [];
        for (const relation of select.from) {
            const translated = this.relation(relation, new Scope(relations.slice(), outer));
            fromParts.push(translated.sql);
            relations.push(...translated.scope);
        }
        const scope = new Scope(relations, outer);
        const savedGrouping = this.groupingExprs;
        this.groupingExprs = [];
        try {
            let groupSql = empty;
            if (select.groupBy) {
                groupSql = this.groupBy(select.groupBy, scope);
            }
            const items: Sql[] = [];
            const columns: ScopeColumn[] = [];
            let columnsKnown = true;
            for (const item of select.items) {
                const translated = this.selectItem(item, scope);
                items.push(translated.sql);
                if (translated.columns) {
                    columns.push(...translated.columns);
                } else {
                    columnsKnown = false;
                }
            }
            const clauses: Sql[] = [sql`SELECT ${select.distinct ? sql`DISTINCT ` : empty}${join(items)}`];
            if (fromParts.length > 0) {
                clauses.push(sql`FROM ${join(fromParts)}`);
            }
            // Clauses after SELECT may refer to select-list aliases, as in Spark.
            const aliasScope = new Scope([{ columns: columnsKnown ? columns : undefined }], scope);
            if (select.where) {
                clauses.push(sql`WHERE ${this.expr(select.where, scope).sql}`);
            }
            if (groupSql) {
                clauses.push(groupSql);
            }
            if (select.having) {
                clauses.push(sql`HAVING ${this.expr(select.having, aliasScope).sql}`);
            }
            if (select.windows && select.windows.length > 0) {
                clauses.push(sql`WINDOW ${join(select.windows.map(w => sql`${ident(w.name)} AS (${this.windowBody(w.spec, scope)})`))}`);
            }
            if (select.qualify) {
                clauses.push(sql`QUALIFY ${this.expr(select.qualify, aliasScope).sql}`);
            }
            return { sql: join(clauses, sql` `), columns: columnsKnown ? columns : undefined, scope };
        } finally {
            this.groupingExprs = savedGrouping;
        }
    }

    private groupBy(groupBy: GroupByIR, scope: Scope): Sql {
        if (groupBy.all) {
            return sql`GROUP BY ALL`;
        }
        const items = groupBy.items.map(item => {
            switch (item.kind) {
                case 'expr': {
                    const expr = this.expr(item.expr, scope).sql;
                    this.groupingExprs.push(expr);
                    return expr;
                }
                case 'rollup':
                case 'cube': {
                    const exprs = item.exprs.map(e => this.expr(e, scope).sql);
                    this.groupingExprs.push(...exprs);
                    return sql`${item.kind === 'rollup' ? sql`ROLLUP` : sql`CUBE`} (${join(exprs)})`;
                }
                case 'grouping_sets': {
                    const sets = item.sets.map(set => sql`(${join(set.map(e => {
                        const expr = this.expr(e, scope).sql;
                        if (!this.groupingExprs.includes(expr)) {
                            this.groupingExprs.push(expr);
                        }
                        return expr;
                    }))})`);
                    return sql`GROUPING SETS (${join(sets)})`;
                }
            }
        });
        return items.length > 0 ? sql`GROUP BY ${join(items)}` : empty;
    }

    private selectItem(item: SelectItemIR, scope: Scope): { sql: Sql; columns?: ScopeColumn[] } {
        if (item.kind === 'star') {
            const qualifier = item.qualifier ? item.qualifier[item.qualifier.length - 1] : undefined;
            const star = qualifier ? sql`${ident(qualifier)}.*` : sql`*`;
            let columns = scope.allColumns(qualifier);
            const excluded = [...(item.except ?? []), ...scope.hiddenColumns(qualifier)];
            if (excluded.length === 0) {
                return { sql: star, columns };
            }
            const names = new Set(excluded.map(e => e.toLowerCase()));
            columns = columns?.filter(c => !names.has(c.name.toLowerCase()));
            return { sql: sql`${star} EXCLUDE (${join(excluded.map(ident))})`, columns };
        }
        if (item.expr.kind === 'call' && lookupFunction(item.expr.name)?.kind === 'generator') {
            const names = item.aliases ?? (item.alias ? [item.alias] : undefined);
            return this.generator(item.expr, names, scope);
        }
        const translated = this.expr(item.expr, scope);
        const name = item.alias ?? autoName(item.expr, parts => scope.qualifierLength(parts));
        return { sql: sql`${translated.sql} AS ${ident(name)}`, columns: [{ name, type: translated.type }] };
    }

    /** explode / posexplode / inline (and _outer): SELECT-list items built on DuckDB's unnest. */
    private generator(call: CallExprIR, names: string[] | undefined, scope: Scope): { sql: Sql; columns: ScopeColumn[] } {
        const name = call.name.toLowerCase();
        if (call.args.length !== 1) {
            throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, `${name}() takes exactly one argument.`, { span: call.span });
        }
        const arg = this.expr(call.args[0], scope);
        const outer = name.endsWith('_outer');
        const base = outer ? name.slice(0, -'_outer'.length) : name;
        const nonEmpty = (list: Sql): Sql => (outer ? sql`CASE WHEN len(${list}) > 0 THEN ${list} ELSE [NULL] END` : list);
        const items: Sql[] = [];
        const columns: ScopeColumn[] = [];
        const add = (value: Sql, defaultName: string, type: DataType | undefined, index: number): void => {
            const column = names?.[index] ?? defaultName;
            items.push(sql`${value} AS ${ident(column)}`);
            columns.push({ name: column, type });
        };
        if (base === 'inline') {
            const element = arg.type?.kind === 'array' ? arg.type.element : undefined;
            if (element?.kind !== 'struct') {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, 'inline() needs an argument whose type is known to be ARRAY<STRUCT<...>>.', { span: call.span });
            }
            const list = paren(nonEmpty(arg.sql));
            element.fields.forEach((field, i) => {
                add(sql`unnest(list_transform(${list}, lambda __s: struct_extract(__s, ${str(field.name)})))`, field.name, field.type, i);
            });
            return { sql: join(items), columns };
        }
        if (arg.type?.kind === 'map') {
            const map = arg.sql;
            const positions = base === 'posexplode' ? 1 : 0;
            if (positions) {
                add(sql`unnest(${nonEmpty(sql`CAST(range(cardinality(${map})) AS INTEGER[])`)})`, 'pos', T.int, 0);
            }
            add(sql`unnest(${nonEmpty(sql`map_keys(${map})`)})`, 'key', arg.type.key, positions);
            add(sql`unnest(${nonEmpty(sql`map_values(${map})`)})`, 'value', arg.type.value, positions + 1);
            return { sql: join(items), columns };
        }
        const element = arg.type?.kind === 'array' ? arg.type.element : undefined;
        if (base === 'posexplode') {
            add(sql`unnest(${nonEmpty(sql`CAST(range(len(${arg.sql})) AS INTEGER[])`)})`, 'pos', T.int, 0);
            add(sql`unnest(${nonEmpty(arg.sql)})`, 'col', element, 1);
        } else {
            add(sql`unnest(${nonEmpty(arg.sql)})`, 'col', element, 0);
        }
        return { sql: join(items), columns };
    }

    /** A fresh internal alias (`__subquery3`) for a relation the query did not name. */
    private internalAlias(prefix: string): string {
        return `${prefix}${++this.lambdaCounter}`;
    }

    // ---------------------------------------------------------------- relations

    /** Translates one FROM item; `left` is the scope of the items to its left (for LATERAL). */
    relation(relation: RelationIR, left: Scope): { sql: Sql; scope: ScopeRelation[] } {
        switch (relation.kind) {
            case 'table':
                return this.tableRelation(relation);
            case 'subquery': {
                const translated = this.query(relation.query, relation.lateral ? left : left.parent);
                const columns = renameColumns(translated.columns, relation.columnAliases);
                const alias = relation.alias ?? this.internalAlias('__subquery');
                return {
                    sql: sql`${relation.lateral ? sql`LATERAL ` : empty}(${translated.sql}) AS ${ident(alias)}${columnAliasList(relation.columnAliases)}`,
                    scope: [{ alias: relation.alias, columns }],
                };
            }
            case 'join': {
                const leftPart = this.relation(relation.left, left);
                const rightPart = this.relation(relation.right, new Scope([...left.relations, ...leftPart.scope], left.parent));
                const scope = relation.joinType === 'semi' || relation.joinType === 'anti'
                    ? leftPart.scope
                    : [...leftPart.scope, ...rightPart.scope];
                const rightSql = relation.right.kind === 'join' ? paren(rightPart.sql) : rightPart.sql;
                const natural = relation.natural ? sql`NATURAL ` : empty;
                const kind = {
                    inner: sql`JOIN`, left: sql`LEFT JOIN`, right: sql`RIGHT JOIN`, full: sql`FULL JOIN`,
                    cross: sql`CROSS JOIN`, semi: sql`SEMI JOIN`, anti: sql`ANTI JOIN`,
                }[relation.joinType];
                const joined = sql`${leftPart.sql} ${natural}${kind} ${rightSql}`;
                if (relation.on) {
                    const onScope = new Scope([...leftPart.scope, ...rightPart.scope], left.parent);
                    return { sql: sql`${joined} ON ${this.expr(relation.on, onScope).sql}`, scope };
                }
                if (relation.using && relation.using.length > 0) {
                    return { sql: sql`${joined} USING (${join(relation.using.map(ident))})`, scope };
                }
                if (relation.joinType !== 'cross' && !relation.natural) {
                    return { sql: sql`${joined} ON TRUE`, scope };
                }
                return { sql: joined, scope };
            }
            case 'values': {
                const scope = new Scope([], left.parent);
                const rows = relation.rows.map(row => row.map(e => this.expr(e, scope)));
                const names = relation.columnAliases ?? (rows[0] ?? []).map((_, i) => `col${i + 1}`);
                const alias = relation.alias ?? '__values';
                const values = join(rows.map(row => sql`(${join(row.map(v => v.sql))})`));
                return {
                    sql: sql`(VALUES ${values}) AS ${ident(alias)}(${join(names.map(ident))})`,
                    scope: [{ alias: relation.alias, columns: names.map((name, i) => ({ name, type: rows[0]?.[i]?.type })) }],
                };
            }
            case 'table_function':
                return this.tableFunction(relation.name, relation.args, relation.alias, relation.columnAliases, left, relation.span);
            case 'lateral_view': {
                const input = this.relation(relation.input, left);
                // The generator's columns are read from inside a LATERAL subquery: qualified by their
                // relation, so that DuckDB does not bind a column named like one of its niladic
                // functions (`user.tags`) to that function.
                const inner = new Scope([], new Scope([...left.relations, ...input.scope], left.parent));
                const call = relation.outer && !relation.generator.name.toLowerCase().endsWith('_outer')
                    ? { ...relation.generator, name: `${relation.generator.name}_outer` }
                    : relation.generator;
                const spec = lookupFunction(call.name);
                if (spec?.kind !== 'generator') {
                    throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction,
                        `LATERAL VIEW needs a generator function (explode, posexplode, inline), not '${relation.generator.name}'.`, { span: relation.span });
                }
                const names = relation.columnAliases.length > 0 ? relation.columnAliases : undefined;
                const generated = this.generator(call, names, inner);
                const alias = relation.alias ?? this.internalAlias('__lateral');
                return {
                    sql: sql`${input.sql} CROSS JOIN LATERAL (SELECT ${generated.sql}) AS ${ident(alias)}`,
                    scope: [...input.scope, { alias: relation.alias, columns: generated.columns }],
                };
            }
            case 'pivot': {
                const input = this.relation(relation.input, left);
                const inner = new Scope(input.scope, left.parent);
                const aggs = relation.aggregates.map(a => sql`${this.expr(a.expr, inner).sql}${a.alias ? sql` AS ${ident(a.alias)}` : empty}`);
                if (relation.columns.length !== 1) {
                    throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, 'PIVOT on several columns is not supported.', { span: relation.span });
                }
                const column = this.expr(relation.columns[0], inner).sql;
                const values = relation.values.map(v => {
                    if (v.values.length !== 1) {
                        throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, 'PIVOT values must be single expressions.', { span: relation.span });
                    }
                    const value = this.expr(v.values[0], inner).sql;
                    return sql`${value}${v.alias ? sql` AS ${ident(v.alias)}` : empty}`;
                });
                const alias = relation.alias ?? this.internalAlias('__pivot');
                return {
                    sql: sql`(SELECT * FROM ${input.sql} PIVOT (${join(aggs)} FOR ${column} IN (${join(values)}))) AS ${ident(alias)}`,
                    scope: [{ alias: relation.alias }],
                };
            }
            case 'unpivot': {
                const input = this.relation(relation.input, left);
                const columns = relation.columns.map(c => sql`${ident(c.column)}${c.alias ? sql` AS ${str(c.alias)}` : empty}`);
                const alias = relation.alias ?? this.internalAlias('__unpivot');
                const nulls = relation.includeNulls ? sql` INCLUDE NULLS` : empty;
                return {
                    sql: sql`(SELECT * FROM ${input.sql} UNPIVOT${nulls} (${ident(relation.valueColumn)} FOR ${ident(relation.nameColumn)} IN (${join(columns)}))) AS ${ident(alias)}`,
                    scope: [{ alias: relation.alias }],
                };
            }
        }
    }

    private tableRelation(relation: TableRelationIR): { sql: Sql; scope: ScopeRelation[] } {
        const source = relation.source;
        let resolved: ResolvedRelation;
        let defaultAlias: string;
        if (source.kind === 'cte') {
            const entry = this.findCte(source.name);
            if (!entry) {
                throw new UnsupportedFeatureError(ErrorClass.invalidPipeline, `Unknown common table expression '${source.name}'.`, { span: relation.span });
            }
            resolved = { sql: ident(entry.name), columns: entry.columns };
            defaultAlias = entry.name;
        } else {
            resolved = this.env.resolveTable(relation, this);
            defaultAlias = source.kind === 'dataset' || source.kind === 'catalog'
                ? source.name[source.name.length - 1]
                : source.kind === 'read_files' || source.kind === 'table_changes' ? source.kind : `${source.which}_snapshot_version`;
        }
        const alias = relation.alias ?? defaultAlias;
        const columns = renameColumns(resolved.columns, relation.columnAliases);
        return {
            sql: sql`${resolved.sql} AS ${ident(alias)}${columnAliasList(relation.columnAliases)}`,
            scope: [{ alias, columns }],
        };
    }

    private findCte(name: string): CteEntry | undefined {
        for (let i = this.cteStack.length - 1; i >= 0; i--) {
            const entry = this.cteStack[i].get(name.toLowerCase());
            if (entry) {
                return entry;
            }
        }
        return undefined;
    }

    private tableFunction(name: string, args: ExprIR[], alias: string | undefined, columnAliases: string[] | undefined, left: Scope, span?: SourceSpan): { sql: Sql; scope: ScopeRelation[] } {
        const lower = name.toLowerCase();
        const scope = new Scope(left.relations, left.parent);
        const effectiveAlias = alias ?? this.internalAlias('__tvf');
        if (lower === 'range') {
            const values = args.map(a => this.expr(a, scope).sql);
            if (values.length < 1 || values.length > 3) {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, 'range() takes 1 to 3 arguments.', { span });
            }
            const rangeArgs = values.length === 1 ? sql`0, ${values[0]}` : join(values);
            const names = columnAliases ?? ['id'];
            return {
                sql: sql`(SELECT "range" AS ${ident(names[0])} FROM range(${rangeArgs})) AS ${ident(effectiveAlias)}`,
                scope: [{ alias, columns: [{ name: names[0], type: T.bigint }] }],
            };
        }
        const spec = lookupFunction(lower);
        if (spec?.kind === 'generator') {
            const call: CallExprIR = { kind: 'call', name: lower, args, span };
            const generated = this.generator(call, columnAliases, scope);
            return {
                sql: sql`LATERAL (SELECT ${generated.sql}) AS ${ident(effectiveAlias)}`,
                scope: [{ alias, columns: generated.columns }],
            };
        }
        throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, `The table-valued function '${name}' is not supported by the local engine.`, { span });
    }

    // ---------------------------------------------------------------- expressions

    /** Translates an expression in a scope. */
    expr(e: ExprIR, scope: Scope): Translated {
        switch (e.kind) {
            case 'literal':
                return literal(e);
            case 'interval':
                // The literal's own Spark type (interval month, interval day, the calendar interval …):
                // DuckDB has one INTERVAL type, and the type decides what DATE + interval gives.
                return {
                    sql: sql`(to_months(${e.months}) + to_days(${e.days}) + to_microseconds(${e.microseconds}))`,
                    type: e.type,
                };
            case 'column': {
                const resolved = scope.resolve(e.parts);
                return resolved ?? { sql: join(e.parts.map(ident), sql`.`) };
            }
            case 'call':
                return this.call(e, scope);
            case 'cast':
                return castExpr(this.expr(e.expr, scope), e.type, e.try ?? false);
            case 'case': {
                const operand = e.operand ? this.expr(e.operand, scope) : undefined;
                // A simple CASE compares the operand with each WHEN value as `=` does.
                const whenValues = e.branches.map(b => this.expr(b.when, scope));
                const compared = operand ? coerceAll([operand, ...whenValues]) : undefined;
                const values = widenToCommonType([...e.branches.map(b => this.expr(b.then, scope)), ...(e.else ? [this.expr(e.else, scope)] : [])]);
                const whens = join(e.branches.map((_, i) => sql` WHEN ${(compared ? compared[i + 1] : whenValues[i]).sql} THEN ${values.values[i].sql}`), empty);
                const elseSql = e.else ? sql` ELSE ${values.values[e.branches.length].sql}` : empty;
                return { sql: sql`CASE${compared ? sql` ${compared[0].sql}` : empty}${whens}${elseSql} END`, type: values.type };
            }
            case 'unary': {
                const inner = this.expr(e.expr, scope);
                switch (e.op) {
                    case '-': return { sql: sql`(-${inner.sql})`, type: inner.type };
                    case '+': return inner;
                    case 'not': return { sql: sql`(NOT ${inner.sql})`, type: T.boolean };
                    case '~': return { sql: sql`(~${inner.sql})`, type: inner.type };
                }
                break;
            }
            case 'binary':
                return this.binary(e.op, this.expr(e.left, scope), this.expr(e.right, scope), e.left, e.right);
            case 'in': {
                const [value, ...list] = coerceAll([this.expr(e.expr, scope), ...e.list.map(v => this.expr(v, scope))]);
                return { sql: sql`(${value.sql} ${e.not ? sql`NOT IN` : sql`IN`} (${join(list.map(v => v.sql))}))`, type: T.boolean };
            }
            case 'in_subquery': {
                const values = e.exprs.map(v => this.expr(v, scope).sql);
                const sub = this.query(e.query, scope);
                const left = values.length === 1 ? values[0] : sql`(${join(values)})`;
                return { sql: sql`(${left} ${e.not ? sql`NOT IN` : sql`IN`} (${sub.sql}))`, type: T.boolean };
            }
            case 'between': {
                const [value, low, high] = coerceAll([this.expr(e.expr, scope), this.expr(e.low, scope), this.expr(e.high, scope)]);
                return { sql: sql`(${value.sql} ${e.not ? sql`NOT BETWEEN` : sql`BETWEEN`} ${low.sql} AND ${high.sql})`, type: T.boolean };
            }
            case 'like': {
                const value = this.expr(e.expr, scope);
                const escape = e.escape ?? '\\';
                const parts = e.patterns.map(p => {
                    const pattern = this.expr(p, scope).sql;
                    if (e.op === 'rlike') {
                        return sql`regexp_matches(${value.sql}, ${pattern})`;
                    }
                    // Spark's default LIKE escape character is the backslash; DuckDB has none unless told.
                    return sql`(${value.sql} ${e.op === 'ilike' ? sql`ILIKE` : sql`LIKE`} ${pattern} ESCAPE ${str(escape)})`;
                });
                const joined = parts.length === 1 ? parts[0] : sql`(${join(parts, e.quantifier === 'all' ? sql` AND ` : sql` OR `)})`;
                return { sql: e.not ? sql`(NOT ${joined})` : joined, type: T.boolean };
            }
            case 'is_null': {
                const inner = this.expr(e.expr, scope);
                return { sql: sql`(${inner.sql} IS ${e.not ? sql`NOT ` : empty}NULL)`, type: T.boolean };
            }
            case 'is_bool': {
                const inner = this.expr(e.expr, scope);
                const test = e.value === null ? sql`(${inner.sql} IS NULL)` : sql`(${inner.sql} IS ${e.value ? sql`TRUE` : sql`FALSE`})`;
                return { sql: e.not ? sql`(NOT ${test})` : test, type: T.boolean };
            }
            case 'is_distinct_from': {
                const [left, right] = coerceAll([this.expr(e.left, scope), this.expr(e.right, scope)]);
                return { sql: sql`(${left.sql} IS ${e.not ? sql`NOT ` : empty}DISTINCT FROM ${right.sql})`, type: T.boolean };
            }
            case 'lambda':
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, 'A lambda function is only allowed as an argument of a higher-order function.', { span: e.span });
            case 'struct': {
                const fields = e.fields.map(f => ({ name: f.name, value: this.expr(f.value, scope) }));
                return {
                    sql: sql`struct_pack(${join(fields.map(f => sql`${ident(f.name)} := ${f.value.sql}`))})`,
                    type: fields.every(f => f.value.type) ? T.struct(fields.map(f => [f.name, f.value.type!] as const)) : undefined,
                };
            }
            case 'array': {
                const elements = widenToCommonType(e.elements.map(x => this.expr(x, scope)));
                return { sql: sql`[${join(elements.values.map(x => x.sql))}]`, type: T.array(elements.type ?? T.void) };
            }
            case 'map': {
                if (e.entries.length === 0) {
                    return { sql: sql`MAP {}` };
                }
                const keys = e.entries.map(x => this.expr(x.key, scope));
                const values = e.entries.map(x => this.expr(x.value, scope));
                return {
                    sql: sql`map([${join(keys.map(k => k.sql))}], [${join(values.map(v => v.sql))}])`,
                    type: keys[0].type && values[0].type ? T.map(keys[0].type, values[0].type) : undefined,
                };
            }
            case 'field':
                return fieldAccess(this.expr(e.expr, scope), e.field);
            case 'subscript': {
                const base = this.expr(e.expr, scope);
                const index = this.expr(e.index, scope);
                if (base.type?.kind === 'map') {
                    return { sql: sql`map_extract_value(${base.sql}, ${index.sql})`, type: base.type.value };
                }
                if (base.type?.kind === 'struct' && e.index.kind === 'literal' && typeof e.index.value === 'string') {
                    return fieldAccess(base, e.index.value);
                }
                if (base.type?.kind === 'array' || isIntegral(index.type)) {
                    return { sql: sql`__psql_at0(${base.sql}, ${index.sql})`, type: base.type?.kind === 'array' ? base.type.element : undefined };
                }
                return { sql: sql`(${base.sql})[${index.sql}]` };
            }
            case 'json_path': {
                const base = this.expr(e.expr, scope);
                // A JSON pointer (RFC 6901): any field name can be written in one, `~` and `/` escaped.
                let pointer = '';
                for (const step of e.path) {
                    if (step.kind === 'field') {
                        pointer += '/' + step.name.split('~').join('~0').split('/').join('~1');
                    } else if (step.kind === 'index') {
                        pointer += '/' + String(step.index);
                    } else {
                        throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, 'The JSON path wildcard [*] is not supported by the local engine.', { span: e.span });
                    }
                }
                return { sql: sql`__psql_json_get(${base.sql}, ${str(pointer)})`, type: T.string };
            }
            case 'subquery': {
                const sub = this.query(e.query, scope);
                return { sql: sql`(${sub.sql})`, type: sub.columns?.[0]?.type };
            }
            case 'exists': {
                const sub = this.query(e.query, scope);
                return { sql: sql`(${e.not ? sql`NOT ` : empty}EXISTS (${sub.sql}))`, type: T.boolean };
            }
            case 'parameter': {
                const conf = this.env.conf ?? {};
                const key = Object.hasOwn(conf, e.name) ? e.name : Object.keys(conf).find(k => k.toLowerCase() === e.name.toLowerCase());
                const value = key === undefined ? undefined : ownValue(conf, key);
                if (value === undefined) {
                    throw new UnsupportedFeatureError(ErrorClass.unboundParameter, `The parameter '${e.name}' has no value: set it in the pipeline configuration.`, { span: e.span });
                }
                const text: Translated = { sql: str(value), type: T.string };
                return e.type ? castExpr(text, e.type, false) : text;
            }
            case 'snapshot_version': {
                const relation: TableRelationIR = { kind: 'table', source: { kind: 'snapshot_version', which: e.which }, streaming: false, span: e.span };
                const resolved = this.env.resolveTable(relation, this);
                return { sql: sql`(SELECT * FROM ${resolved.sql} AS "__v")`, type: resolved.columns?.[0]?.type };
            }
        }
        throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, `Unsupported expression kind '${(e as { kind: string }).kind}'.`);
    }

    private binary(op: BinaryExprIR['op'], left: Translated, right: Translated, leftIR: ExprIR, rightIR: ExprIR): Translated {
        switch (op) {
            case 'and':
                return { sql: sql`(${left.sql} AND ${right.sql})`, type: T.boolean };
            case 'or':
                return { sql: sql`(${left.sql} OR ${right.sql})`, type: T.boolean };
            case '=':
            case '<>':
            case '<':
            case '<=':
            case '>':
            case '>=': {
                const [l, r] = coerceAll([left, right]);
                return { sql: sql`(${l.sql} ${comparisonOperators[op]} ${r.sql})`, type: T.boolean };
            }
            case '<=>': {
                const [l, r] = coerceAll([left, right]);
                return { sql: sql`(${l.sql} IS NOT DISTINCT FROM ${r.sql})`, type: T.boolean };
            }
            case '||':
                return { sql: sql`(${left.sql} || ${right.sql})`, type: left.type?.kind === 'array' ? left.type : T.string };
            case '+':
            case '-': {
                const operator = op === '+' ? sql`+` : sql`-`;
                const type = arithmeticType(op, left.type, right.type, leftIR, rightIR);
                // DATE - DATE counts days: an integer in DuckDB, an interval of days in Spark.
                if (op === '-' && left.type?.kind === 'date' && right.type?.kind === 'date') {
                    return { sql: sql`to_days(CAST((${left.sql} - ${right.sql}) AS INTEGER))`, type };
                }
                // Spark keeps DATE ± an interval of months or of whole days a DATE (DuckDB returns a TIMESTAMP).
                if (type?.kind === 'date' && (isIntervalType(left.type) || isIntervalType(right.type))) {
                    return { sql: sql`CAST((${left.sql} ${operator} ${right.sql}) AS DATE)`, type };
                }
                const [l, r] = numericOperands(left, right);
                return exactArithmetic(sql`(${l.sql} ${operator} ${r.sql})`, type);
            }
            case '*': {
                const [l, r] = numericOperands(left, right);
                return exactArithmetic(sql`(${l.sql} * ${r.sql})`, arithmeticType(op, left.type, right.type, leftIR, rightIR));
            }
            case '/': {
                const [l, r] = numericOperands(left, right);
                const type = divisionType(left.type, right.type, leftIR, rightIR);
                const quotient = sql`__psql_div(${l.sql}, ${r.sql})`;
                if (type !== undefined && isInterval(type)) {
                    return { sql: quotient, type };
                }
                return type?.kind === 'decimal' ? { sql: sql`CAST(${quotient} AS ${toDuckType(type)})`, type } : { sql: quotient, type: T.double };
            }
            case '%': {
                const [l, r] = numericOperands(left, right);
                return exactArithmetic(sql`__psql_mod(${l.sql}, ${r.sql})`, arithmeticType('%', left.type, right.type, leftIR, rightIR));
            }
            case 'div': {
                const [l, r] = numericOperands(left, right);
                return { sql: sql`__psql_intdiv(${l.sql}, ${r.sql})`, type: T.bigint };
            }
            case '&':
                return { sql: sql`(${left.sql} & ${right.sql})`, type: left.type };
            case '|':
                return { sql: sql`(${left.sql} | ${right.sql})`, type: left.type };
            case '^':
                return { sql: sql`xor(${left.sql}, ${right.sql})`, type: left.type };
        }
        throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, `Unsupported operator '${String(op)}'.`);
    }

    private call(call: CallExprIR, scope: Scope): Translated {
        const name = call.name.toLowerCase();
        if (name === 'struct') {
            const fields = call.args.map((arg, i) => ({ name: autoFieldName(arg, i), value: this.expr(arg, scope) }));
            return {
                sql: sql`struct_pack(${join(fields.map(f => sql`${ident(f.name)} := ${f.value.sql}`))})`,
                type: fields.every(f => f.value.type) ? T.struct(fields.map(f => [f.name, f.value.type!] as const)) : undefined,
            };
        }
        if (name === 'grouping_id') {
            const args = call.args.length > 0 ? call.args.map(a => this.expr(a, scope).sql) : this.groupingExprs;
            if (args.length === 0) {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, 'grouping_id() is only valid with GROUP BY.', { span: call.span });
            }
            return { sql: sql`CAST(grouping(${join(args)}) AS BIGINT)`, type: T.bigint };
        }
        if (name === 'typeof') {
            if (call.args.length !== 1) {
                throw new UnsupportedFeatureError(ErrorClass.wrongNumArgs, `The function 'typeof' requires 1 argument, but ${call.args.length} were given.`, { span: call.span });
            }
            const arg = this.expr(call.args[0], scope);
            if (!arg.type) {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, 'typeof() needs an argument whose type the local engine can infer.', { span: call.span });
            }
            // Spark answers with the type's catalog string: `struct<Name:int>`, field names as written.
            return { sql: str(typeToString(arg.type)), type: T.string };
        }
        const spec = lookupFunction(name);
        if (!spec || spec.kind === 'native') {
            // A native function reaching here is written as a call where the engine runs only its
            // syntax form (the preflight check stops such a run before it starts).
            throw unknownFunctionError(call);
        }
        if (spec.kind === 'generator') {
            throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature,
                `The generator '${name}' is only supported as a whole SELECT item, in LATERAL VIEW or in FROM.`, { span: call.span });
        }
        const argCount = call.args.length;
        if (argCount < spec.min || argCount > spec.max) {
            const expected = spec.min === spec.max ? `${spec.min}` : spec.max === Number.POSITIVE_INFINITY ? `at least ${spec.min}` : `${spec.min} to ${spec.max}`;
            throw new UnsupportedFeatureError(ErrorClass.wrongNumArgs,
                `The function '${name}' requires ${expected} argument(s), but ${argCount} were given.`, { span: call.span });
        }
        if (call.namedArgs && call.namedArgs.length > 0) {
            throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, `Named arguments are not supported for '${name}'.`, { span: call.span });
        }
        const args = this.callArgs(call, spec, scope);
        const argumentsRead = catalogArguments(call, args.map(a => a.type));
        const unavailable = spec.unavailable?.(argumentsRead);
        if (unavailable !== undefined) {
            throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, `${argumentsNotAvailableLocally(name, unavailable)}.`, { span: call.span });
        }
        // The catalog's return-type rule, the one the editor shows.
        const type = translatorType(inferReturnType(name, argumentsRead));
        const ctx = this.callContext(call, args, type);
        if (spec.kind === 'scalar') {
            if (call.over || call.distinct || call.filter) {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature,
                    `'${name}' is not an aggregate or window function; OVER, DISTINCT and FILTER do not apply.`, { span: call.span });
            }
            return { sql: asResultType(spec.sql!(ctx), type), type };
        }
        if (spec.kind === 'window') {
            if (!call.over) {
                throw new UnsupportedFeatureError(ErrorClass.windowWithoutOver, `The window function '${name}' requires an OVER clause.`, { span: call.span });
            }
            return { sql: asResultType(sql`${spec.sql!(ctx)} OVER ${this.window(call.over, scope)}`, type), type };
        }
        return { sql: asResultType(this.aggregate(call, spec, ctx, scope), type), type };
    }

    private callArgs(call: CallExprIR, spec: FunctionSpec, scope: Scope): Translated[] {
        const args: (Translated | undefined)[] = call.args.map(a => (a.kind === 'lambda' ? undefined : this.expr(a, scope)));
        if (call.args.some(a => a.kind === 'lambda')) {
            call.args.forEach((arg, i) => {
                if (arg.kind === 'lambda') {
                    // The catalog's types of the lambda's variables (`transform(array<int>, (x, i) -> …)`: int, int).
                    const paramTypes = lambdaParameterTypes(call.name, catalogArguments(call, args.map(a => a?.type)), i).map(translatorType);
                    const bindings = new Map<string, Translated>();
                    const names = arg.params.map((param, j) => {
                        const sqlName = ident(this.internalAlias('__l'));
                        // Spark's index argument is 0-based, DuckDB's is 1-based.
                        const value = spec.indexParam && j === 1 ? sql`(${sqlName} - 1)` : sqlName;
                        bindings.set(param.toLowerCase(), { sql: value, type: paramTypes[j] });
                        return sqlName;
                    });
                    const body = this.expr(arg.body, new Scope([], scope, bindings));
                    args[i] = { sql: sql`lambda ${join(names)}: ${body.sql}`, type: body.type };
                }
            });
        }
        return args as Translated[];
    }

    private callContext(call: CallExprIR, args: Translated[], type?: DataType): CallContext {
        const literalAt = (i: number): LiteralExprIR | undefined => {
            const arg = call.args[i];
            return arg?.kind === 'literal' ? arg : undefined;
        };
        return {
            call,
            args,
            type,
            a: args.map(arg => paren(arg.sql)),
            all: join(args.map(arg => arg.sql)),
            asResult: i => paren(type ? widen(args[i], type).sql : args[i].sql),
            ignoreNulls: call.ignoreNulls ?? false,
            now: this.env.now,
            stringArg: i => {
                const lit = literalAt(i);
                return lit && typeof lit.value === 'string' && (lit.type.kind === 'string' || lit.type.kind === 'varchar' || lit.type.kind === 'char') ? lit.value : undefined;
            },
            literalArg: i => literalAt(i)?.value,
            unsupported: reason => {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction, `The Spark function '${call.name}' is not supported here: ${reason}.`, { span: call.span });
            },
        };
    }

    private aggregate(call: CallExprIR, spec: FunctionSpec, ctx: CallContext, scope: Scope): Sql {
        const args = ctx.args;
        const agg = typeof spec.agg === 'function' ? spec.agg(ctx) : spec.agg!;
        const name = call.name.toLowerCase();
        const parenthesised = args.map(a => paren(a.sql));
        let fn = agg.fn;
        let argSql = call.star ? sql`*` : agg.args ? agg.args(parenthesised) : join(args.map(a => a.sql));
        const filters: Sql[] = [];
        if (agg.filter) {
            filters.push(agg.filter(parenthesised));
        }
        if (call.filter) {
            filters.push(this.expr(call.filter, scope).sql);
        }
        const firstOrLast = name === 'first' || name === 'last' || name === 'first_value' || name === 'last_value';
        const ignoreNulls = call.ignoreNulls || ((firstOrLast || name === 'any_value') && call.args[1]?.kind === 'literal' && call.args[1].value === true);
        let inside = empty;
        if (ignoreNulls) {
            if (call.over && firstOrLast) {
                fn = name.startsWith('first') ? sql`first_value` : sql`last_value`;
                inside = sql` IGNORE NULLS`;
            } else {
                filters.push(sql`${args[0].sql} IS NOT NULL`);
            }
        }
        if (call.distinct && call.args.length > 1 && name === 'count') {
            // count(DISTINCT a, b) counts distinct tuples with no NULL member.
            argSql = sql`struct_pack(${join(args.map((a, i) => sql`${ident(`c${i}`)} := ${a.sql}`))})`;
            filters.push(...args.map(a => sql`${a.sql} IS NOT NULL`));
        }
        if (call.withinGroup && call.withinGroup.length > 0) {
            if (name === 'percentile_cont' || name === 'percentile_disc') {
                const sort = call.withinGroup[0];
                const fraction = args[0].sql;
                const value = this.expr(sort.expr, scope).sql;
                argSql = sql`${value}, ${sort.direction === 'desc' ? sql`1 - (${fraction})` : fraction}`;
            } else {
                argSql = sql`${argSql} ORDER BY ${this.sortItems(call.withinGroup, scope)}`;
            }
        }
        const distinct = call.distinct || agg.distinct ? sql`DISTINCT ` : empty;
        const filter = filters.length > 0 ? sql` FILTER (WHERE ${join(filters.map(paren), sql` AND `)})` : empty;
        const over = call.over ? sql` OVER ${this.window(call.over, scope)}` : empty;
        const result = sql`${fn}(${distinct}${argSql}${inside})${filter}${over}`;
        // The result type (Spark's sum is BIGINT or DECIMAL(p + 10, s), avg of a DECIMAL DECIMAL(p + 4, s + 4)) is the catalog's: see asResultType.
        return agg.wrap ? agg.wrap(result) : result;
    }

    private window(spec: WindowSpecIR, scope: Scope): Sql {
        if (spec.ref && spec.partitionBy.length === 0 && spec.orderBy.length === 0 && !spec.frame) {
            return ident(spec.ref);
        }
        return sql`(${this.windowBody(spec, scope)})`;
    }

    private windowBody(spec: WindowSpecIR, scope: Scope): Sql {
        const parts: Sql[] = [];
        if (spec.ref) {
            parts.push(ident(spec.ref));
        }
        if (spec.partitionBy.length > 0) {
            parts.push(sql`PARTITION BY ${join(spec.partitionBy.map(e => this.expr(e, scope).sql))}`);
        }
        if (spec.orderBy.length > 0) {
            parts.push(sql`ORDER BY ${this.sortItems(spec.orderBy, scope)}`);
        }
        if (spec.frame) {
            parts.push(this.frame(spec.frame, scope));
        }
        return join(parts, sql` `);
    }

    private frame(frame: WindowFrameIR, scope: Scope): Sql {
        const bound = (b: FrameBoundIR): Sql => {
            switch (b.kind) {
                case 'unbounded_preceding': return sql`UNBOUNDED PRECEDING`;
                case 'unbounded_following': return sql`UNBOUNDED FOLLOWING`;
                case 'current_row': return sql`CURRENT ROW`;
                case 'preceding': return sql`${this.expr(b.offset, scope).sql} PRECEDING`;
                case 'following': return sql`${this.expr(b.offset, scope).sql} FOLLOWING`;
            }
        };
        const unit = frame.unit === 'range' ? sql`RANGE` : sql`ROWS`;
        return sql`${unit} BETWEEN ${bound(frame.start)} AND ${bound(frame.end ?? { kind: 'current_row' })}`;
    }

    /** ORDER BY items with Spark's null ordering made explicit (NULLS FIRST for ASC, LAST for DESC). */
    sortItems(items: SortItemIR[], scope: Scope): Sql {
        return join(items.map(item => {
            const direction = item.direction ?? 'asc';
            const nulls = item.nulls ?? (direction === 'asc' ? 'first' : 'last');
            return sql`${this.expr(item.expr, scope).sql} ${direction === 'desc' ? sql`DESC` : sql`ASC`} NULLS ${nulls === 'last' ? sql`LAST` : sql`FIRST`}`;
        }));
    }
}

// ---------------------------------------------------------------- helpers

function renameColumns(columns: ScopeColumn[] | undefined, aliases: string[] | undefined): ScopeColumn[] | undefined {
    if (!aliases || aliases.length === 0 || !columns) {
        return columns && aliases && aliases.length > 0 ? undefined : columns;
    }
    return columns.map((c, i) => ({ name: aliases[i] ?? c.name, type: c.type }));
}

function columnAliasList(aliases: string[] | undefined): Sql {
    return aliases && aliases.length > 0 ? sql`(${join(aliases.map(ident))})` : empty;
}

/** DuckDB's comparison operator for each of Spark's. */
const comparisonOperators = {
    '=': sql`=`, '<>': sql`<>`, '<': sql`<`, '<=': sql`<=`, '>': sql`>`, '>=': sql`>=`,
} as const;

/** DuckDB SQL for a typed Spark literal. */
function literal(e: LiteralExprIR): Translated {
    const type = e.type;
    if (e.value === null) {
        return type.kind === 'void' ? { sql: sql`NULL`, type } : { sql: sql`CAST(NULL AS ${toDuckType(type)})`, type };
    }
    switch (type.kind) {
        case 'boolean':
            return { sql: e.value === true || String(e.value).toLowerCase() === 'true' ? sql`TRUE` : sql`FALSE`, type };
        case 'int': {
            // Bare digits: DuckDB types them INTEGER (BIGINT when larger), as Spark does, and a bare
            // integer in ORDER BY / GROUP BY stays a column position in both.
            return { sql: integer(String(e.value)), type };
        }
        case 'tinyint':
        case 'smallint':
        case 'bigint':
        case 'float':
        case 'double':
            return { sql: sql`CAST(${str(String(e.value))} AS ${toDuckType(type)})`, type };
        case 'decimal':
            return { sql: sql`CAST(${str(String(e.value))} AS ${toDuckType(type)})`, type };
        case 'string':
        case 'char':
        case 'varchar':
            return { sql: str(String(e.value)), type: T.string };
        case 'date':
            return { sql: sql`DATE ${str(String(e.value))}`, type };
        case 'timestamp':
        case 'timestamp_ntz':
            return { sql: timestampFromText(str(String(e.value)), type), type };
        case 'binary':
            return { sql: sql`unhex(${str(String(e.value))})`, type };
        default:
            return { sql: sql`CAST(${str(String(e.value))} AS ${toDuckType(type)})`, type };
    }
}

/** Spark's CAST with the semantics that differ from DuckDB made explicit. */
export function castExpr(inner: Translated, target: DataType, tryCast: boolean): Translated {
    const duck = toDuckType(target);
    const cast = tryCast ? sql`TRY_CAST` : sql`CAST`;
    if (isIntegral(target) && inner.type && ['float', 'double', 'decimal'].includes(inner.type.kind)) {
        // Spark truncates toward zero; DuckDB rounds.
        return { sql: sql`${cast}(trunc(${inner.sql}) AS ${duck})`, type: target };
    }
    if (isIntegral(target) && isStringLike(inner.type)) {
        if (tryCast) {
            return { sql: sql`CASE WHEN regexp_matches(trim(${inner.sql}), '^[+-]?[0-9]+$') THEN TRY_CAST(trim(${inner.sql}) AS ${duck}) END`, type: target };
        }
        return { sql: sql`CAST(__psql_str_to_bigint(${inner.sql}) AS ${duck})`, type: target };
    }
    if ((target.kind === 'timestamp' || target.kind === 'timestamp_ntz') && isStringLike(inner.type)) {
        return { sql: timestampFromText(inner.sql, target, tryCast), type: target };
    }
    return { sql: sql`${cast}(${inner.sql} AS ${duck})`, type: target };
}

/**
 * Values compared with each other (`=`, `<`, IN, BETWEEN, a simple CASE) as Spark compares them: a
 * STRING meeting another type is cast, with the others, to the Spark module's comparison type (ANSI:
 * BIGINT against an integral number, DOUBLE against a decimal or floating one, else the other type:
 * DATE, TIMESTAMP, BOOLEAN …), the type the editor checks the comparison with. DuckDB would cast the
 * text to the other side's type (`price = '3.5'` as DECIMAL, `id = '1'` as INTEGER) or refuse.
 */
function coerceAll(values: Translated[]): Translated[] {
    const types = values.map(v => v.type).filter((t): t is DataType => t !== undefined && t.kind !== 'void');
    if (!types.some(isStringLike) || types.every(isStringLike)) {
        return values;
    }
    const type = types.length === values.length ? commonSupertypeOf(types) : undefined;
    return type && type.kind !== 'unknown' && !isComplex(type) ? values.map(v => widen(v, type)) : values;
}

/** True when both given types are the type `type`. */
function sameTypes(type: DataType, a: DataType | undefined, b: DataType | undefined): boolean {
    return a !== undefined && b !== undefined && typesEqual(a, type) && typesEqual(b, type);
}

/**
 * CASE branches, IF / COALESCE arguments or array elements as Spark widens them: each value cast to
 * their least common type (the Spark module's `commonSupertype`, the type the editor shows), for
 * every type (STRING and INT meet as BIGINT, DATE and TIMESTAMP as TIMESTAMP), not only numbers.
 * Values of unknown type are left as they are, and the type is then that of the known ones.
 */
function widenToCommonType(values: Translated[]): { values: Translated[]; type?: DataType } {
    const known = values.map(v => v.type).filter((t): t is DataType => t !== undefined && t.kind !== 'void');
    const common = known.length > 0 ? commonSupertypeOf(known) : undefined;
    if (!common || common.kind === 'unknown') {
        // Spark rejects the mix (the editor reports it); the run keeps DuckDB's reading.
        return { values, type: known[0] };
    }
    return { values: values.map(v => widen(v, common)), type: common };
}

/** A value cast to a wider type it is widened to, when its type is known and differs (nested types are left to DuckDB). */
export function widen(value: Translated, type: DataType): Translated {
    return value.type && value.type.kind !== 'void' && !isComplex(type) && !typesEqual(value.type, type) ? castExpr(value, type, false) : value;
}

/**
 * The result of a call in the type Spark gives it, where DuckDB's differs: DuckDB counts and
 * measures in BIGINT or HUGEINT (length, row_number, rank, ntile, grouping, count_if, ...) where those
 * Spark functions return INT, TINYINT or BIGINT, and rounds a DECIMAL into a DECIMAL of its own width (round / bround / ceil / floor).
 */



/**
 * A decimal result as Spark types it: DuckDB widens DECIMAL arithmetic by its own rules
 * (DECIMAL(38,10) * DECIMAL(38,10) is DECIMAL(38,20) there, DECIMAL(38,6) in Spark), so the result
 * is cast to Spark's type (rounding half up, as Spark does).
 */
function exactArithmetic(result: Sql, type: DataType | undefined): Translated {
    return type?.kind === 'decimal' ? { sql: sql`CAST(${result} AS ${toDuckType(type)})`, type } : { sql: result, type };
}

/**
 * The result type of `+ - * / %` as Spark types it, by the Spark module's rule (the one the editor
 * shows): decimal precision and scale, an integer literal next to a decimal, a STRING operand as a
 * BIGINT or DOUBLE (ANSI), DATE ± days or an interval of months or days a DATE, DATE - DATE an
 * interval of days. Undefined when an operand's type is unknown or Spark rejects the pair.
 */
function arithmeticType(op: '+' | '-' | '*' | '/' | '%', left: DataType | undefined, right: DataType | undefined, leftIR: ExprIR, rightIR: ExprIR): DataType | undefined {
    if (!left || !right) {
        return left ?? right;
    }
    const type = binaryOperatorType(op, operandType(left, right, integerLiteral(leftIR)), operandType(right, left, integerLiteral(rightIR)));
    return type && type.kind !== 'unknown' ? type : undefined;
}

/**
 * The operands of numeric arithmetic with a STRING cast as Spark's ANSI rule casts it (to BIGINT
 * next to an integral type, else to DOUBLE; an invalid number fails the cast as in Spark): DuckDB
 * would bind a text column to no arithmetic operator, or a text literal to INTEGER.
 */
function numericOperands(left: Translated, right: Translated): [Translated, Translated] {
    const promote = (t: Translated, other: Translated): Translated => {
        if (!isStringLike(t.type) || !other.type) {
            return t;
        }
        const target = arithmeticOperandType(t.type!, other.type);
        return target ? castExpr(t, target, false) : t;
    };
    return [promote(left, right), promote(right, left)];
}

/** The text of an integer literal (`2`, `-15`), which Spark types by its digits next to a decimal. */
function integerLiteral(e: ExprIR): string | undefined {
    return e.kind === 'literal' && (e.type.kind === 'int' || e.type.kind === 'bigint') && e.value !== null ? String(e.value) : undefined;
}

/** Result type of `/`: DOUBLE, Spark's decimal division type when both sides are exact numbers, an interval divided. */
function divisionType(left: DataType | undefined, right: DataType | undefined, leftIR: ExprIR, rightIR: ExprIR): DataType | undefined {
    return left && right ? arithmeticType('/', left, right, leftIR, rightIR) ?? T.double : T.double;
}

function isIntervalType(type: DataType | undefined): boolean {
    return type !== undefined && isInterval(type);
}

/** Field name Spark gives `struct(expr)`: the column name for a column reference, else colN. */
function autoFieldName(e: ExprIR, index: number): string {
    if (e.kind === 'column') {
        return e.parts[e.parts.length - 1];
    }
    if (e.kind === 'field') {
        return e.field;
    }
    return `col${index + 1}`;
}

/**
 * The column name Spark gives an unaliased SELECT expression (close to Spark's toPrettySQL); a cast
 * of a named expression keeps its name (`CAST(id AS STRING)` and `id::string` are `id`).
 */
export function autoName(e: ExprIR, qualifierLength: (parts: string[]) => number = () => 0): string {
    if (e.kind === 'column') {
        return e.parts[e.parts.length - 1];
    }
    if (e.kind === 'field') {
        return e.field;
    }
    if (e.kind === 'cast' && (e.expr.kind === 'column' || e.expr.kind === 'field' || e.expr.kind === 'json_path')) {
        return autoName(e.expr, qualifierLength);
    }
    return prettyNameOf(e, qualifierLength);
}

/**
 * Spark's name of an expression inside an unaliased one (`toPrettySQL`): a column keeps its struct
 * path but not its table qualifier (`upper(user.name)`, `upper(name)` for `upper(e.name)`).
 */
function prettyNameOf(e: ExprIR, qualifierLength: (parts: string[]) => number): string {
    const prettyName = (x: ExprIR): string => prettyNameOf(x, qualifierLength);
    switch (e.kind) {
        case 'column': return e.parts.slice(Math.min(qualifierLength(e.parts), e.parts.length - 1)).join('.');
        case 'field': return `${prettyName(e.expr)}.${e.field}`;
        case 'literal': return e.value === null ? 'NULL' : String(e.value);
        case 'call': {
            if (e.star) {
                return `${e.name}(1)`;
            }
            return `${e.name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map(prettyName).join(', ')})`;
        }
        case 'cast': return `CAST(${prettyName(e.expr)} AS ${formatType(e.type)})`;
        case 'binary': return `(${prettyName(e.left)} ${e.op === 'and' || e.op === 'or' ? e.op.toUpperCase() : e.op} ${prettyName(e.right)})`;
        case 'unary': return e.op === 'not' ? `(NOT ${prettyName(e.expr)})` : `(${e.op} ${prettyName(e.expr)})`;
        case 'is_null': return `(${prettyName(e.expr)} IS ${e.not ? 'NOT ' : ''}NULL)`;
        case 'subscript': return `${prettyName(e.expr)}[${prettyName(e.index)}]`;
        case 'json_path': return e.path.map(p => (p.kind === 'field' ? p.name : p.kind === 'index' ? `[${p.index}]` : '[*]')).join('.');
        case 'struct': return `struct(${e.fields.map(f => f.name).join(', ')})`;
        case 'array': return `array(${e.elements.map(prettyName).join(', ')})`;
        case 'case': return 'CASE WHEN ... END';
        default: return e.kind;
    }
}
