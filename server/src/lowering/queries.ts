import { ErrorClass } from '../../../engine/src/index.js';
import type { AstNode } from 'langium';
import type {
    ChangeFeedBoundIR, CteIR, ExprIR, GroupByIR, GroupingItemIR, QueryBodyIR, QueryIR, RelationIR, SelectIR, SelectItemIR,
    TableReadOptionsIR, TableRelationIR, TableSourceIR, WindowSpecIR,
} from '../../../engine/src/index.js';
import { tableReadOption } from '../language/builtins/table-read-options.js';
import { setOwn } from '../../../engine/src/index.js';
import * as ast from '../language/generated/ast.js';
import { ExpressionLowering } from './expressions.js';
import { LoweringError } from './lowering-error.js';
import type { PipelineParameters } from './names.js';
import { spanOf } from './source-spans.js';
import { tableNameParts } from './table-resolution.js';

/** What query lowering needs from the pipeline: parameters, and how a table reference resolves. */
export interface QueryContext {
    readonly parameters: PipelineParameters;
    /** What a table reference names: a dataset, a CTE, or a sample catalog table. */
    resolveTable(ref: ast.DatasetRef): TableSourceIR;
    /** What a table name written as text names (`table_changes('t', ...)`): a dataset or a sample catalog table. */
    resolveTableName(parts: readonly string[]): { kind: 'dataset' | 'catalog'; name: string[] };
    /** Parses the value of a `${name}` parameter as an expression (see {@link ExpressionLowering}). */
    parseParameterValue(name: string, value: string): ast.Expression | undefined;
}

/** Table-valued functions that read files (`read_files`, and Auto Loader's legacy `cloud_files`). */
const fileFunctions = new Set(['read_files', 'cloud_files']);

/** Values a `read_files` option may take. */
type OptionValue = string | number | boolean;

/**
 * Lowers queries and FROM relations of the AST to the engine IR: CTEs, set operations, VALUES,
 * `TABLE t`, pipe operators (as nested selects), joins, lateral views, PIVOT / UNPIVOT, table-valued
 * functions, `read_files`, and table references resolved by the pipeline.
 */
export class QueryLowering {

    readonly expressions: ExpressionLowering;

    constructor(private readonly ctx: QueryContext) {
        this.expressions = new ExpressionLowering({
            parameters: ctx.parameters,
            lowerQuery: query => this.query(query),
            parseParameterValue: (name, value) => ctx.parseParameterValue(name, value),
        });
    }

    /** Lowers a query with its WITH clause and ORDER BY / LIMIT / OFFSET. */
    query(node: ast.Query): QueryIR {
        const out: QueryIR = { kind: 'query', body: this.body(node.body), span: spanOf(node) };
        if (node.ctes.length > 0) {
            out.with = { recursive: node.recursive, ctes: node.ctes.map(cte => this.cte(cte)) };
        }
        if (node.window) {
            attachWindows(out.body, node.window.windows.map(w => this.namedWindow(w)), node.window);
        }
        // SORT BY orders each partition; the local engine has one, so it is an ORDER BY there.
        // CLUSTER BY and DISTRIBUTE BY only place rows in partitions and change no result.
        const order = node.orderBy.length > 0 ? node.orderBy : node.sortBy;
        if (order.length > 0) {
            out.orderBy = order.map(s => this.expressions.sortItem(s));
        }
        if (node.limit && !node.limitAll) {
            out.limit = this.expressions.lower(node.limit);
        }
        if (node.offset) {
            out.offset = this.expressions.lower(node.offset);
        }
        return out;
    }

    private cte(node: ast.CommonTableExpression): CteIR {
        const cte: CteIR = { name: node.name, query: this.query(node.query), span: spanOf(node) };
        if (node.columns.length > 0) {
            cte.columns = [...node.columns];
        }
        return cte;
    }

    private namedWindow(node: ast.NamedWindow): { name: string; spec: WindowSpecIR } {
        const spec: WindowSpecIR = node.spec ? this.expressions.windowSpec(node.spec) : { ref: node.base, partitionBy: [], orderBy: [] };
        return { name: node.name, spec };
    }

    /** Lowers the body of a query (SELECT, set operation, VALUES, TABLE, parenthesised query, pipe). */
    body(node: ast.QueryExpression): QueryBodyIR {
        switch (node.$type) {
            case ast.SelectQuery.$type:
                return this.select(node);
            case ast.SetOperation.$type:
                return {
                    kind: 'set_operation',
                    op: node.operator === 'UNION' ? 'union' : node.operator === 'INTERSECT' ? 'intersect' : 'except',
                    all: node.quantifier === 'ALL',
                    left: this.body(node.left),
                    right: this.body(node.right),
                    span: spanOf(node),
                };
            case ast.TableQuery.$type:
                return { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [this.tableRelation(node.table, false, spanOf(node))], span: spanOf(node) };
            case ast.ValuesRelation.$type:
                if (node.alias !== undefined || node.columnAliases.length > 0) {
                    return { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [this.relation(node)], span: spanOf(node) };
                }
                return { kind: 'values', rows: node.rows.map(r => this.valuesRow(r)), span: spanOf(node) };
            case ast.ParenthesizedQuery.$type:
                return this.query(node.query);
            case ast.PipeQuery.$type:
                return this.pipe(node);
        }
    }

    private select(node: ast.SelectQuery): SelectIR {
        const span = spanOf(node);
        const out: SelectIR = {
            kind: 'select',
            distinct: node.distinct,
            // A bare `FROM t` (the start of a pipe query) selects every column.
            items: node.items.length > 0 ? node.items.map(i => this.selectItem(i)) : [{ kind: 'star' }],
            from: node.from ? this.fromClause(node.from) : [],
            span,
        };
        if (node.where) {
            out.where = this.expressions.lower(node.where);
        }
        if (node.groupBy) {
            out.groupBy = this.groupBy(node.groupBy);
        }
        if (node.having) {
            out.having = this.expressions.lower(node.having);
        }
        if (node.window) {
            out.windows = node.window.windows.map(w => this.namedWindow(w));
        }
        if (node.qualify) {
            out.qualify = this.expressions.lower(node.qualify);
        }
        return out;
    }

    /** Lowers one SELECT item: `*`, `t.*`, `* EXCEPT (...)`, or an expression with its alias(es). */
    selectItem(node: ast.SelectItem): SelectItemIR {
        const span = spanOf(node);
        const expr = node.expression;
        if (ast.isStar(expr)) {
            const item: SelectItemIR = { kind: 'star', span };
            const qualifier = expr.qualifier.length > 1 && expr.qualifier[0].toLowerCase() === 'live' ? expr.qualifier.slice(1) : [...expr.qualifier];
            if (qualifier.length > 0) {
                item.qualifier = qualifier;
            }
            if (expr.except.length > 0) {
                item.except = expr.except.map(c => this.plainColumn(c, expr, 'EXCEPT'));
            }
            return item;
        }
        const item: SelectItemIR = { kind: 'expr', expr: this.expressions.lower(expr), span };
        if (node.alias !== undefined) {
            item.alias = node.alias;
        }
        if (node.aliases.length > 0) {
            item.aliases = [...node.aliases];
        }
        return item;
    }

    private groupBy(node: ast.GroupByClause): GroupByIR {
        if (node.all) {
            return { all: true, items: [] };
        }
        let items = node.items.map(i => this.groupingItem(i));
        if (node.withModifier) {
            // `GROUP BY a, b WITH ROLLUP` is `GROUP BY ROLLUP(a, b)`.
            const exprs = items.map(i => {
                if (i.kind !== 'expr') {
                    throw unsupported(`GROUP BY ... WITH ${node.withModifier} takes plain expressions.`, spanOf(node));
                }
                return i.expr;
            });
            items = [{ kind: node.withModifier === 'ROLLUP' ? 'rollup' : 'cube', exprs }];
        }
        if (node.sets.length > 0) {
            items = [...items, { kind: 'grouping_sets', sets: node.sets.map(s => this.groupingSet(s)) }];
        }
        return { items };
    }

    private groupingItem(node: ast.GroupingItem): GroupingItemIR {
        if (ast.isGroupingSets(node)) {
            if (node.kind === 'GROUPING SETS') {
                return { kind: 'grouping_sets', sets: node.sets.map(s => this.groupingSet(s)) };
            }
            const exprs = node.sets.map(s => {
                const set = this.groupingSet(s);
                if (set.length !== 1) {
                    throw unsupported(`${node.kind} takes single expressions here; composite columns cannot run locally.`, spanOf(s));
                }
                return set[0];
            });
            return { kind: node.kind === 'ROLLUP' ? 'rollup' : 'cube', exprs };
        }
        return { kind: 'expr', expr: this.expressions.lower(node) };
    }

    private groupingSet(node: ast.GroupingSet): ExprIR[] {
        if (ast.isEmptyGroupingSet(node)) {
            return [];
        }
        if (ast.isGroupingSets(node)) {
            throw unsupported(`A nested ${node.kind} inside a grouping set cannot run locally.`, spanOf(node));
        }
        if (ast.isTupleExpression(node)) {
            return node.elements.map(e => this.expressions.lower(e));
        }
        return [this.expressions.lower(node)];
    }

    /** The relations of a FROM clause, with its LATERAL VIEWs applied to their cross join. */
    fromClause(node: ast.FromClause): RelationIR[] {
        const relations = node.relations.map(r => this.relation(r));
        if (node.lateralViews.length === 0) {
            return relations;
        }
        let input: RelationIR = relations[0];
        for (const next of relations.slice(1)) {
            input = { kind: 'join', joinType: 'cross', left: input, right: next };
        }
        for (const view of node.lateralViews) {
            const generator = this.expressions.call(view.generator);
            if (generator.kind !== 'call') {
                throw unsupported('LATERAL VIEW takes a generator function such as explode(...).', spanOf(view, 'generator'));
            }
            input = {
                kind: 'lateral_view', input, generator, outer: view.outer, columnAliases: [...view.columns], span: spanOf(view),
                ...(view.alias !== undefined ? { alias: view.alias } : {}),
            };
        }
        return [input];
    }

    /** Lowers one FROM item. */
    relation(node: ast.Relation): RelationIR {
        const span = spanOf(node);
        switch (node.$type) {
            case ast.TableReference.$type: {
                if (node.temporal) {
                    throw unsupported(`Time travel (${node.temporal.kind} AS OF) cannot run locally: the sample catalog keeps no table versions.`, spanOf(node.temporal));
                }
                rejectTail(node);
                const relation = this.tableRelation(node.table, node.stream, span);
                if (node.options) {
                    relation.options = this.readOptions(node.options, relation);
                }
                return withAlias(relation, node.alias, node.columnAliases);
            }
            case ast.TableFunctionCall.$type:
                rejectTail(node);
                return this.tableFunction(node);
            case ast.SubqueryRelation.$type:
                rejectTail(node);
                return withAlias({ kind: 'subquery', query: this.query(node.query), ...(node.lateral ? { lateral: true } : {}), span }, node.alias, node.columnAliases);
            case ast.ParenthesizedRelation.$type:
                rejectTail(node);
                if (node.alias !== undefined || node.columnAliases.length > 0) {
                    // `(a JOIN b) AS x`: the join becomes a subquery named x.
                    const inner: QueryIR = { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [this.relation(node.relation)] } };
                    return withAlias({ kind: 'subquery', query: inner, span }, node.alias, node.columnAliases);
                }
                return this.relation(node.relation);
            case ast.JoinRelation.$type:
                return this.join(node.left, node.right, node.joinType, node.natural, node.on, node.using, span);
            case ast.PivotRelation.$type:
                return this.pivot(this.relation(node.input), node.pivot, node.alias, node.columnAliases, span);
            case ast.UnpivotRelation.$type:
                return this.unpivot(this.relation(node.input), node.unpivot, node.alias, node.columnAliases, span);
            case ast.ValuesRelation.$type:
                return withAlias({ kind: 'values', rows: node.rows.map(r => this.valuesRow(r)), span }, node.alias, node.columnAliases);
        }
    }

    /** A reference to a table, view, CTE or dataset, resolved by the pipeline. */
    tableRelation(ref: ast.DatasetRef, streaming: boolean, span = spanOf(ref)): TableRelationIR {
        return { kind: 'table', source: this.ctx.resolveTable(ref), streaming, span };
    }

    private join(left: ast.Relation, right: ast.Relation, joinType: string | undefined, natural: boolean, on: ast.Expression | undefined,
        using: string[], span: ReturnType<typeof spanOf>): RelationIR {
        const out: RelationIR = { kind: 'join', joinType: joinKind(joinType), left: this.relation(left), right: this.relation(right), span };
        if (natural) {
            out.natural = true;
        }
        if (on) {
            out.on = this.expressions.lower(on);
        }
        if (using.length > 0) {
            out.using = [...using];
        }
        return out;
    }

    private pivot(input: RelationIR, clause: ast.PivotClause, alias: string | undefined, columnAliases: string[], span: ReturnType<typeof spanOf>): RelationIR {
        if (columnAliases.length > 0) {
            throw unsupported('Column aliases after PIVOT cannot run locally; alias the pivot values instead.', span);
        }
        return {
            kind: 'pivot', input, span,
            aggregates: clause.aggregates.map(a => ({ expr: this.expressions.lower(a.expression), ...(a.alias !== undefined ? { alias: a.alias } : {}) })),
            columns: clause.columns.map(c => ({ kind: 'column' as const, parts: c.split('.'), span: spanOf(clause, 'columns') })),
            values: clause.values.map(v => ({
                values: ast.isTupleExpression(v.expression) ? v.expression.elements.map(e => this.expressions.lower(e)) : [this.expressions.lower(v.expression)],
                ...(v.alias !== undefined ? { alias: v.alias } : {}),
            })),
            ...(alias !== undefined ? { alias } : {}),
        };
    }

    private unpivot(input: RelationIR, clause: ast.UnpivotClause, alias: string | undefined, columnAliases: string[], span: ReturnType<typeof spanOf>): RelationIR {
        if (clause.valueColumns.length !== 1 || clause.columns.some(c => c.columns.length !== 1)) {
            throw unsupported('UNPIVOT into several value columns cannot run locally; unpivot one value column at a time.', spanOf(clause));
        }
        if (columnAliases.length > 0) {
            throw unsupported('Column aliases after UNPIVOT cannot run locally; name the value and name columns inside UNPIVOT.', span);
        }
        return {
            kind: 'unpivot', input, span,
            includeNulls: clause.nulls === 'INCLUDE',
            valueColumn: clause.valueColumns[0],
            nameColumn: clause.nameColumn,
            columns: clause.columns.map(c => ({ column: c.columns[0], ...(c.alias !== undefined ? { alias: c.alias } : {}) })),
            ...(alias !== undefined ? { alias } : {}),
        };
    }

    /** A table-valued function in FROM: read_files / cloud_files, the snapshot-version functions, or a generator / range. */
    private tableFunction(node: ast.TableFunctionCall): RelationIR {
        const span = spanOf(node);
        const name = node.name.replace(/^(system\.)?builtin\./i, '').toLowerCase();
        if (fileFunctions.has(name)) {
            const relation: TableRelationIR = { kind: 'table', source: this.readFiles(node, name), streaming: node.stream || name === 'cloud_files', span };
            return withAlias(relation, node.alias, node.columnAliases);
        }
        if (name === 'current_snapshot_version' || name === 'last_snapshot_version') {
            if (node.args.length > 0) {
                throw unsupported(`${name}() takes no arguments.`, span);
            }
            const relation: TableRelationIR = { kind: 'table', source: { kind: 'snapshot_version', which: name.startsWith('current') ? 'current' : 'last' }, streaming: false, span };
            return withAlias(relation, node.alias, node.columnAliases);
        }
        if (name === 'table_changes') {
            return withAlias(this.tableChanges(node), node.alias, node.columnAliases);
        }
        if (name.includes('.')) {
            throw unsupported(`The table function '${node.name}' is not a built-in function; user-defined functions cannot run locally.`, span);
        }
        if (node.stream) {
            throw unsupported(`STREAM applies to tables and read_files, not to ${name}(...).`, span);
        }
        const args = node.args.map(arg => {
            if (arg.name !== undefined || ast.isTableArgument(arg.value)) {
                throw unsupported(`${name}(...) in FROM takes positional values only.`, spanOf(arg));
            }
            return this.expressions.lower(arg.value);
        });
        const out: RelationIR = { kind: 'table_function', name, args, span };
        if (node.alias !== undefined) {
            out.alias = node.alias;
        }
        if (node.columnAliases.length > 0) {
            out.columnAliases = [...node.columnAliases];
        }
        return out;
    }

    /**
     * `WITH (readChangeFeed = true, startingVersion = 2, skipChangeCommits = true)` after a table
     * reference (docs/semantics.md §15.3, §5.1). Unknown options are left to the validator's warning.
     */
    private readOptions(node: ast.TableReadOptions, relation: TableRelationIR): TableReadOptionsIR {
        const out: TableReadOptionsIR = {};
        for (const property of node.options) {
            const option = tableReadOption(property.key);
            if (!option) {
                continue;
            }
            const value = property.value ?? 'true';
            const where = spanOf(property);
            switch (option.name) {
                case 'readChangeFeed':
                case 'skipChangeCommits': {
                    const flag = value.toLowerCase();
                    if (flag !== 'true' && flag !== 'false') {
                        throw unsupported(`The option ${option.name} is true or false, not '${value}'.`, where);
                    }
                    out[option.name] = flag === 'true';
                    break;
                }
                case 'startingVersion':
                    if (!/^\d+$/.test(value)) {
                        throw unsupported(`The option startingVersion is a version number (0, 1, ...), not '${value}'.`, where);
                    }
                    out.startingVersion = Number(value);
                    break;
                case 'startingTimestamp':
                    out.startingTimestamp = value;
                    break;
            }
        }
        if ((out.startingVersion !== undefined || out.startingTimestamp !== undefined) && !out.readChangeFeed) {
            throw unsupported('startingVersion and startingTimestamp apply to reads of the change data feed: add readChangeFeed = true.', spanOf(node));
        }
        if (out.readChangeFeed && relation.source.kind !== 'dataset') {
            throw unsupported('readChangeFeed reads the change data feed of a dataset of this pipeline; sample tables keep no versions locally.', spanOf(node));
        }
        return out;
    }

    /** `table_changes('t', start [, end])`: the change data feed of a dataset (docs/semantics.md §15.3). */
    private tableChanges(node: ast.TableFunctionCall): TableRelationIR {
        const span = spanOf(node);
        if (node.stream) {
            throw unsupported('table_changes(...) is a batch read; read a feed as a stream with STREAM t WITH (readChangeFeed = true).', span);
        }
        const args = node.args.map(a => a.value);
        if (args.length < 2 || args.length > 3 || node.args.some(a => a.name !== undefined)) {
            throw unsupported('table_changes takes a table name, a start and an optional end: table_changes(\'t\', 0) or table_changes(\'t\', 1, 3).', span);
        }
        const first = args[0];
        const parts = ast.isStringLiteral(first) ? tableNameParts(this.ctx.parameters.substituteString(first.value)) : undefined;
        if (!parts) {
            throw unsupported('table_changes takes the table name as a string literal: table_changes(\'t\', 0).', spanOf(node.args[0]));
        }
        const target = this.ctx.resolveTableName(parts);
        if (target.kind !== 'dataset') {
            throw unsupported(`table_changes reads the change data feed of a dataset of this pipeline; '${parts.join('.')}' is not one (sample tables keep no versions locally).`, spanOf(node.args[0]));
        }
        const bound = (arg: ast.FunctionArgument): ChangeFeedBoundIR => {
            const value = arg.value;
            if (ast.isNumberLiteral(value) && /^\d+L?$/i.test(value.value)) {
                return { version: Number(value.value.replace(/L$/i, '')) };
            }
            if (ast.isStringLiteral(value) || (ast.isTypedLiteral(value) && value.type.toUpperCase().startsWith('TIMESTAMP'))) {
                return { timestamp: value.value };
            }
            throw unsupported('A bound of table_changes is a version number or a timestamp literal.', spanOf(arg));
        };
        const source: TableSourceIR = { kind: 'table_changes', name: target.name, start: bound(node.args[1]) };
        if (node.args[2]) {
            source.end = bound(node.args[2]);
        }
        return { kind: 'table', source, streaming: false, span };
    }

    /**
     * `read_files('path', format => 'csv', header => true)`; the legacy `cloud_files('path', 'json',
     * map('header', 'true'))` reads the same way.
     */
    private readFiles(node: ast.TableFunctionCall, name: string): TableSourceIR {
        const positional = node.args.filter(a => a.name === undefined);
        const options: Record<string, OptionValue> = {};
        const first = positional[0]?.value;
        if (!ast.isStringLiteral(first)) {
            throw unsupported(`${name} takes the path as a string literal first argument.`, spanOf(node));
        }
        const path = this.ctx.parameters.substituteString(first.value);
        if (name === 'cloud_files') {
            const format = positional[1]?.value;
            if (format !== undefined) {
                if (!ast.isStringLiteral(format)) {
                    throw unsupported('cloud_files takes the format as a string literal.', spanOf(positional[1]));
                }
                options.format = format.value;
            }
            const map = positional[2]?.value;
            if (map !== undefined) {
                if (!ast.isFunctionCall(map) || map.parts.join('.').toLowerCase() !== 'map' || map.args.length % 2 !== 0) {
                    throw unsupported("cloud_files takes its options as map('key', 'value', ...).", spanOf(positional[2]));
                }
                for (let i = 0; i < map.args.length; i += 2) {
                    const key = map.args[i].value;
                    if (!ast.isStringLiteral(key)) {
                        throw unsupported('cloud_files option names are string literals.', spanOf(map.args[i]));
                    }
                    setOwn(options, key.value, this.optionValue(map.args[i + 1], name));
                }
            }
            if (positional.length > 3) {
                throw unsupported('cloud_files takes a path, a format and a map of options.', spanOf(node));
            }
        } else if (positional.length > 1) {
            throw unsupported('read_files takes its options as named arguments (format => \'csv\').', spanOf(positional[1]));
        }
        for (const arg of node.args.filter(a => a.name !== undefined)) {
            setOwn(options, arg.name!, this.optionValue(arg, name));
        }
        return { kind: 'read_files', path, options };
    }

    private optionValue(arg: ast.FunctionArgument, name: string): OptionValue {
        const value = arg.value;
        if (ast.isStringLiteral(value)) {
            return this.ctx.parameters.substituteString(value.value);
        }
        if (ast.isBooleanLiteral(value)) {
            return value.value;
        }
        if (ast.isNumberLiteral(value) && /^\d+(\.\d+)?$/.test(value.value)) {
            return Number(value.value);
        }
        throw unsupported(`The options of ${name} are string, number or boolean literals.`, spanOf(arg));
    }

    /** A row of VALUES: a tuple is several columns, anything else one. */
    private valuesRow(row: ast.Expression): ExprIR[] {
        return ast.isTupleExpression(row) ? row.elements.map(e => this.expressions.lower(e)) : [this.expressions.lower(row)];
    }

    /** A plain (single-part) column name of a column list. */
    private plainColumn(name: string, node: AstNode, clause: string): string {
        if (name.includes('.')) {
            throw unsupported(`${clause} takes plain column names, not '${name}'.`, spanOf(node));
        }
        return name;
    }

    /**
     * A pipe query (`FROM t |> WHERE ... |> SELECT ...`): each operator applies to the query on its left,
     * which becomes the FROM of a select (a bare `FROM t` is used as it is, keeping its alias).
     */
    private pipe(node: ast.PipeQuery): QueryBodyIR {
        const input = this.body(node.input);
        const op = node.operation;
        const span = spanOf(op);
        const star: SelectItemIR = { kind: 'star' };
        const from = (): RelationIR[] => asFrom(input);
        switch (op.$type) {
            case ast.PipeSelect.$type: {
                const select: SelectIR = { kind: 'select', distinct: op.distinct, items: op.items.map(i => this.selectItem(i)), from: from(), span };
                if (op.window) {
                    select.windows = op.window.windows.map(w => this.namedWindow(w));
                }
                return select;
            }
            case ast.PipeExtend.$type:
                return { kind: 'select', distinct: false, items: [star, ...op.items.map(i => this.selectItem(i))], from: from(), span };
            case ast.PipeDrop.$type:
                return { kind: 'select', distinct: false, items: [{ kind: 'star', except: [...op.columns] }], from: from(), span };
            case ast.PipeAs.$type: {
                const relations = from();
                if (relations.length !== 1) {
                    throw unsupported('|> AS needs a single input relation.', span);
                }
                return { kind: 'select', distinct: false, items: [star], from: [renamed(relations[0], op.alias)], span };
            }
            case ast.PipeWhere.$type:
                return { kind: 'select', distinct: false, items: [star], from: from(), where: this.expressions.lower(op.condition), span };
            case ast.PipeAggregate.$type: {
                const groups = op.groupBy.map(g => ({ expr: this.expressions.lower(g.expression), alias: g.alias }));
                const items: SelectItemIR[] = [
                    ...groups.map(g => ({ kind: 'expr' as const, expr: g.expr, ...(g.alias !== undefined ? { alias: g.alias } : {}) })),
                    ...op.items.map(i => this.selectItem(i)),
                ];
                const select: SelectIR = { kind: 'select', distinct: false, items, from: from(), span };
                if (groups.length > 0) {
                    select.groupBy = { items: groups.map(g => ({ kind: 'expr', expr: g.expr })) };
                }
                return select;
            }
            case ast.PipeJoin.$type: {
                const relations = from();
                const left: RelationIR = relations.length === 1 ? relations[0] : relations.reduce((l, r) => ({ kind: 'join', joinType: 'cross', left: l, right: r }));
                const join: RelationIR = { kind: 'join', joinType: joinKind(op.joinType), left, right: this.relation(op.right), span };
                if (op.natural) {
                    join.natural = true;
                }
                if (op.on) {
                    join.on = this.expressions.lower(op.on);
                }
                if (op.using.length > 0) {
                    join.using = [...op.using];
                }
                return { kind: 'select', distinct: false, items: [star], from: [join], span };
            }
            case ast.PipeSetOperation.$type:
                return {
                    kind: 'set_operation',
                    op: op.operator === 'UNION' ? 'union' : op.operator === 'INTERSECT' ? 'intersect' : 'except',
                    all: op.quantifier === 'ALL', left: input, right: this.body(op.right), span,
                };
            case ast.PipeOrganization.$type: {
                const query: QueryIR = { kind: 'query', body: input, span };
                const order = op.orderBy.length > 0 ? op.orderBy : op.sortBy;
                if (order.length > 0) {
                    query.orderBy = order.map(s => this.expressions.sortItem(s));
                }
                if (op.limit && !op.limitAll) {
                    query.limit = this.expressions.lower(op.limit);
                }
                if (op.offset) {
                    query.offset = this.expressions.lower(op.offset);
                }
                return query;
            }
            case ast.PipePivot.$type:
                return { kind: 'select', distinct: false, items: [star], from: [this.pivot(single(from(), span), op.pivot, undefined, [], span)], span };
            case ast.PipeUnpivot.$type:
                return { kind: 'select', distinct: false, items: [star], from: [this.unpivot(single(from(), span), op.unpivot, undefined, [], span)], span };
            case ast.PipeSample.$type:
                throw unsupported('TABLESAMPLE cannot run locally: sampling would make results differ from run to run.', span);
            case ast.PipeSet.$type:
                throw unsupported('|> SET cannot run locally; use |> EXTEND with new names or |> SELECT.', span);
        }
    }
}

function unsupported(message: string, span: ReturnType<typeof spanOf>): LoweringError {
    return new LoweringError(ErrorClass.unsupportedFeature, message, span);
}

/** TABLESAMPLE and WATERMARK have no local meaning that keeps results right; both are errors. */
function rejectTail(node: { sample?: ast.TableSample; watermark?: ast.WatermarkClause }): void {
    if (node.sample) {
        throw unsupported('TABLESAMPLE cannot run locally: sampling would make results differ from run to run.', spanOf(node.sample));
    }
    if (node.watermark) {
        throw unsupported('WATERMARK cannot run locally: the local engine has no event-time state to expire, so late rows would not be dropped as in Spark.', spanOf(node.watermark));
    }
}

function withAlias<R extends RelationIR & { alias?: string; columnAliases?: string[] }>(relation: R, alias: string | undefined, columnAliases: string[]): R {
    if (alias !== undefined) {
        relation.alias = alias;
    }
    if (columnAliases.length > 0) {
        relation.columnAliases = [...columnAliases];
    }
    return relation;
}

function joinKind(joinType: string | undefined): Extract<RelationIR, { kind: 'join' }>['joinType'] {
    switch (joinType) {
        case 'CROSS': return 'cross';
        case 'LEFT': return 'left';
        case 'RIGHT': return 'right';
        case 'FULL': return 'full';
        case 'LEFT SEMI': return 'semi';
        case 'LEFT ANTI': return 'anti';
        default: return 'inner';
    }
}

/** Attaches a query-level WINDOW clause (written after ORDER BY) to the SELECT it belongs to. */
function attachWindows(body: QueryBodyIR, windows: NonNullable<SelectIR['windows']>, node: AstNode): void {
    if (body.kind !== 'select') {
        throw unsupported('A WINDOW clause after a set operation cannot run locally; define the window inside the SELECT.', spanOf(node));
    }
    body.windows = [...(body.windows ?? []), ...windows];
}

/** The FROM of a select over a pipe input: a bare `FROM t` as it is, anything else as a subquery. */
function asFrom(input: QueryBodyIR): RelationIR[] {
    if (input.kind === 'select' && input.from.length > 0 && input.items.length === 1 && input.items[0].kind === 'star'
        && !input.items[0].qualifier && !input.items[0].except && !input.distinct && !input.where && !input.groupBy
        && !input.having && !input.qualify && !input.windows) {
        return input.from;
    }
    const query: QueryIR = input.kind === 'query' ? input : { kind: 'query', body: input };
    return [{ kind: 'subquery', query }];
}

function single(relations: RelationIR[], span: ReturnType<typeof spanOf>): RelationIR {
    if (relations.length === 1) {
        return relations[0];
    }
    return { kind: 'subquery', query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: relations } }, span };
}

/** A relation under a new alias (`|> AS name`). */
function renamed(relation: RelationIR, alias: string): RelationIR {
    if (relation.kind === 'join') {
        return { kind: 'subquery', query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [relation] } }, alias };
    }
    return { ...relation, alias } as RelationIR;
}
