/**
 * The layout rules of the formatter: where a statement may or must break, and how far each line is
 * indented. Rules are attached to AST nodes: a node becomes a group whose soft breaks all become
 * newlines when the group does not fit on one line (or holds a comment or a hard break), and stay
 * spaces otherwise; hard breaks are always newlines. The AUTO CDC clauses always take a line each.
 */
import type { AstNode, CstNode } from 'langium';
import { AstUtils, CstUtils, GrammarAST } from 'langium';
import * as ast from '../../generated/ast.js';

/** A group of tokens that breaks as a whole. */
export interface Group {
    /** First and last token index (inclusive). */
    readonly first: number;
    readonly last: number;
}

/** A break before a token: a newline at the group's indentation plus `level`, or (soft, group flat) a space. */
export interface Break {
    readonly group: Group;
    readonly level: number;
    readonly hard: boolean;
}

/** The groups and breaks of one statement, by token index. */
export interface Layout {
    readonly groups: Group[];
    readonly breaks: Map<number, Break>;
}

/** Finds token indexes from source offsets. */
export interface TokenIndex {
    /** Index of the token that starts at `offset`, or undefined. */
    startingAt(offset: number): number | undefined;
    /** Index of the last token that ends at or before `end`. */
    endingBy(end: number): number | undefined;
}

/** Computes the layout of a statement from its AST. */
export function statementLayout(statement: ast.Statement, tokens: TokenIndex): Layout {
    const layout: Layout = { groups: [], breaks: new Map() };
    const builder = new LayoutBuilder(layout, tokens);
    builder.statement(statement);
    for (const node of AstUtils.streamAst(statement)) {
        builder.node(node);
    }
    return layout;
}

class LayoutBuilder {

    /** The group of each AST node registered as one. */
    private readonly nodeGroups = new Map<AstNode, Group>();

    constructor(private readonly layout: Layout, private readonly tokens: TokenIndex) {}

    //#region Helpers

    private group(node: AstNode | undefined): Group | undefined {
        if (!node?.$cstNode) {
            return undefined;
        }
        const existing = this.nodeGroups.get(node);
        if (existing) {
            return existing;
        }
        const range = this.rangeOf(node.$cstNode);
        if (!range) {
            return undefined;
        }
        this.layout.groups.push(range);
        this.nodeGroups.set(node, range);
        return range;
    }

    private rangeOf(cst: CstNode): Group | undefined {
        const first = this.tokens.startingAt(firstVisibleOffset(cst));
        const last = this.tokens.endingBy(cst.end);
        return first !== undefined && last !== undefined && last >= first ? { first, last } : undefined;
    }

    /** Adds a break before the token at `offset`; a hard break wins over a soft one at the same token. */
    private breakAt(offset: number | undefined, group: Group | undefined, level: number, hard = false): void {
        if (offset === undefined || !group) {
            return;
        }
        const index = this.tokens.startingAt(offset);
        if (index === undefined) {
            return;
        }
        const existing = this.layout.breaks.get(index);
        if (existing && (existing.hard || !hard)) {
            return;
        }
        this.layout.breaks.set(index, { group, level, hard });
    }

    private breakBefore(node: AstNode | undefined, group: Group | undefined, level: number, hard = false): void {
        const cst = node?.$cstNode;
        if (cst) {
            this.breakAt(firstVisibleOffset(cst), group, level, hard);
        }
    }

    /** The keyword leaves that belong to a node itself (not to its children). */
    private ownKeywords(node: AstNode, ...values: string[]): CstNode[] {
        const cst = node.$cstNode;
        if (!cst) {
            return [];
        }
        const result: CstNode[] = [];
        for (const leaf of CstUtils.flattenCst(cst)) {
            if (!leaf.hidden && leaf.astNode === node && GrammarAST.isKeyword(leaf.grammarSource) && values.includes(leaf.grammarSource.value)) {
                result.push(leaf);
            }
        }
        return result;
    }

    /** The innermost enclosing node registered as a query group. */
    private queryGroup(node: AstNode): Group | undefined {
        const query = AstUtils.getContainerOfType(node.$container, ast.isQuery);
        return query ? this.group(query) : undefined;
    }

    /**
     * Whether a node's clauses always take a line each: those of the query a statement is about (a
     * dataset's or flow's query, a plain query); subqueries break only when they do not fit.
     */
    private topLevel(node: AstNode): boolean {
        const query = ast.isQuery(node) ? node : AstUtils.getContainerOfType(node.$container, ast.isQuery);
        const owner = query?.$container;
        return owner !== undefined && (ast.isPipelineFile(owner) || ast.isDataset(owner) || ast.isInsertFlow(owner) || ast.isInsertStatement(owner));
    }

    /** A bracketed part: breaks after `(` (one level in) and before `)`. */
    private bracketed(node: AstNode, inner: AstNode | undefined): void {
        const group = this.group(node);
        const close = this.ownKeywords(node, ')').at(-1);
        if (!inner?.$cstNode || !close) {
            return;
        }
        this.breakBefore(inner, group, 1);
        this.breakAt(close.offset, group, 0);
    }

    //#endregion

    /** Statement-level rules: dataset clauses, inline flows, flow bodies. */
    statement(statement: ast.Statement): void {
        const group = this.group(statement);
        if (ast.isDataset(statement)) {
            // Clauses after the name take a line each; a statement without any may stay on one line.
            const clauses = statement.clauses.length > 0 || statement.spec !== undefined;
            for (const clause of statement.clauses) {
                this.breakBefore(clause, group, 0, true);
            }
            if (statement.query) {
                const as = this.ownKeywords(statement, 'AS').at(-1);
                this.breakAt(as?.offset, group, 0, clauses);
            }
            const flow = (statement as { flow?: ast.InlineFlow }).flow;
            if (flow) {
                this.breakBefore(flow, group, 0, true);
            }
        }
        if (ast.isInsertStatement(statement)) {
            this.breakBefore(statement.query, group, 0);
        }
    }

    /** Rules of the nodes inside a statement. */
    node(node: AstNode): void {
        const statementGroup = this.group(AstUtils.getContainerOfType(node, (n): n is ast.Statement => ast.isPipelineFile(n.$container)));
        switch (node.$type) {
            case ast.TableSpec.$type: {
                const spec = node as ast.TableSpec;
                const group = this.group(spec);
                spec.elements.forEach(e => this.breakBefore(e, group, 1));
                this.breakAt(this.ownKeywords(spec, ')').at(-1)?.offset, group, 0);
                break;
            }
            case ast.AutoCdcSpec.$type:
            case ast.SnapshotSpec.$type: {
                // One clause per line, always (the documented AUTO CDC layout).
                const spec = node as ast.AutoCdcSpec | ast.SnapshotSpec;
                this.breakBefore(spec, statementGroup, 0, true);
                for (const keyword of this.ownKeywords(spec, 'KEYS', 'WITH')) {
                    this.breakAt(keyword.offset, statementGroup, 0, true);
                }
                spec.clauses.forEach(c => this.breakBefore(c, statementGroup, 0, true));
                if (ast.isSnapshotSpec(spec)) {
                    this.snapshotQueries(spec);
                }
                break;
            }
            case ast.InsertFlow.$type: {
                const flow = node as ast.InsertFlow;
                this.breakBefore(flow.query, statementGroup, 0);
                break;
            }
            case ast.Query.$type:
                this.query(node as ast.Query);
                break;
            case ast.CommonTableExpression.$type:
                this.bracketed(node, (node as ast.CommonTableExpression).query);
                break;
            case ast.SelectQuery.$type:
                this.select(node as ast.SelectQuery);
                break;
            case ast.SetOperation.$type: {
                const operation = node as ast.SetOperation;
                const group = this.queryGroup(operation);
                const keyword = this.ownKeywords(operation, 'UNION', 'EXCEPT', 'MINUS', 'INTERSECT')[0];
                const hard = this.topLevel(operation);
                this.breakAt(keyword?.offset, group, 0, hard);
                this.breakBefore(operation.right, group, 0, hard);
                break;
            }
            case ast.PipeQuery.$type: {
                const pipe = this.ownKeywords(node, '|>')[0];
                this.breakAt(pipe?.offset, this.queryGroup(node), 0, this.topLevel(node));
                break;
            }
            case ast.JoinRelation.$type: {
                const join = node as ast.JoinRelation;
                const group = this.queryGroup(join);
                const right = join.right?.$cstNode;
                // The join starts after its left side: NATURAL, the join type or JOIN itself.
                const leftEnd = join.left?.$cstNode?.end ?? 0;
                const keyword = CstUtils.flattenCst(join.$cstNode!).find(l => !l.hidden && l.offset >= leftEnd && (!right || l.offset < right.offset));
                this.breakAt(keyword?.offset, group, 0, this.topLevel(join));
                break;
            }
            case ast.LateralView.$type:
                this.breakBefore(node, this.queryGroup(node), 0, this.topLevel(node));
                break;
            case ast.SubqueryRelation.$type:
                this.bracketed(node, (node as ast.SubqueryRelation).query);
                break;
            case ast.SubqueryExpression.$type:
                this.bracketed(node, (node as ast.SubqueryExpression).query);
                break;
            case ast.ExistsExpression.$type:
                this.bracketed(node, (node as ast.ExistsExpression).query);
                break;
            case ast.ParenthesizedQuery.$type:
                this.bracketed(node, (node as ast.ParenthesizedQuery).query);
                break;
            case ast.SourceRef.$type: {
                const source = node as ast.SourceRef;
                if (source.query) {
                    this.bracketed(source, source.query);
                }
                break;
            }
            case ast.TblPropertiesClause.$type:
            case ast.OptionsClause.$type: {
                const clause = node as ast.TblPropertiesClause | ast.OptionsClause;
                const group = this.group(clause);
                clause.properties.forEach(p => this.breakBefore(p, group, 1));
                this.breakAt(this.ownKeywords(clause, ')').at(-1)?.offset, group, 0);
                break;
            }
            case ast.PipeSelect.$type:
            case ast.PipeExtend.$type:
            case ast.PipeAggregate.$type:
                this.items((node as ast.PipeSelect | ast.PipeExtend | ast.PipeAggregate).items);
                break;
            case ast.InExpression.$type: {
                const expression = node as ast.InExpression;
                if (expression.query) {
                    this.bracketed(expression, expression.query);
                }
                break;
            }
            case ast.CaseExpression.$type: {
                const expression = node as ast.CaseExpression;
                const group = this.group(expression);
                expression.whens.forEach(w => this.breakBefore(w, group, 1));
                for (const keyword of this.ownKeywords(expression, 'ELSE')) {
                    this.breakAt(keyword.offset, group, 1);
                }
                this.breakAt(this.ownKeywords(expression, 'END').at(-1)?.offset, group, 0);
                break;
            }
            default:
                break;
        }
    }

    /** WITH: each CTE on its line, the body after them; ORDER BY, LIMIT … on their lines. */
    private query(query: ast.Query): void {
        const group = this.group(query);
        const hard = this.topLevel(query);
        query.ctes.forEach((cte, i) => {
            if (i > 0) {
                this.breakBefore(cte, group, 0, hard);
            }
        });
        if (query.ctes.length > 0) {
            this.breakBefore(query.body, group, 0, hard);
        }
        for (const keyword of this.ownKeywords(query, 'ORDER', 'CLUSTER', 'DISTRIBUTE', 'SORT', 'LIMIT', 'OFFSET')) {
            this.breakAt(keyword.offset, group, 0, hard);
        }
        this.breakBefore(query.window, group, 0, hard);
    }

    /** SELECT: the items as a group (one per line when it breaks), FROM, WHERE, GROUP BY … on their lines. */
    private select(select: ast.SelectQuery): void {
        const group = this.queryGroup(select) ?? this.group(select);
        const hard = this.topLevel(select);
        this.items(select.items);
        this.breakBefore(select.from, group, 0, hard);
        for (const keyword of this.ownKeywords(select, 'WHERE', 'HAVING', 'QUALIFY')) {
            this.breakAt(keyword.offset, group, 0, hard);
        }
        this.breakBefore(select.groupBy, group, 0, hard);
        this.breakBefore(select.window, group, 0, hard);
        // `FROM t SELECT …` (FROM first): the SELECT goes on its own line.
        if (select.from && select.items.length > 0 && (select.from.$cstNode?.offset ?? 0) < (select.items[0].$cstNode?.offset ?? 0)) {
            this.breakAt(this.ownKeywords(select, 'SELECT')[0]?.offset, group, 0, hard);
        }
    }

    /** A select list: a group of its own, one item per line (one level in) when it breaks. */
    private items(list: readonly ast.SelectItem[]): void {
        const items = list.filter(i => i.$cstNode);
        if (items.length === 0) {
            return;
        }
        const first = this.rangeOf(items[0].$cstNode!);
        const last = this.rangeOf(items[items.length - 1].$cstNode!);
        if (first && last) {
            const group: Group = { first: first.first, last: last.last };
            this.layout.groups.push(group);
            items.forEach(item => this.breakBefore(item, group, 1));
        }
    }

    /** `FROM SNAPSHOT (query)` and `WITH VERSION (query)`: bracketed queries. */
    private snapshotQueries(spec: ast.SnapshotSpec): void {
        const opens = this.ownKeywords(spec, '(');
        const closes = this.ownKeywords(spec, ')');
        const queries = [spec.snapshotQuery, spec.versionQuery].filter((q): q is ast.Query => q !== undefined);
        queries.forEach(query => {
            const open = [...opens].reverse().find(o => o.end <= (query.$cstNode?.offset ?? 0));
            const close = closes.find(c => c.offset >= (query.$cstNode?.end ?? Infinity));
            if (!open || !close) {
                return;
            }
            const range = { first: this.tokens.startingAt(open.offset), last: this.tokens.startingAt(close.offset) };
            if (range.first === undefined || range.last === undefined) {
                return;
            }
            const group: Group = { first: range.first, last: range.last };
            this.layout.groups.push(group);
            this.breakBefore(query, group, 1);
            this.breakAt(close.offset, group, 0);
        });
    }
}

/** The offset of the first token of a CST node (leading comments inside it skipped). */
function firstVisibleOffset(cst: CstNode): number {
    const leaf = CstUtils.flattenCst(cst).find(l => !l.hidden);
    return leaf?.offset ?? cst.offset;
}
