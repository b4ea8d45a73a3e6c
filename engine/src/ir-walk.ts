// Walks the relational IR to find table references: for the dependency graph between datasets
// and to resolve every table a flow reads before its query is translated.
import type { ExprIR, QueryBodyIR, QueryIR, RelationIR, TableRelationIR, SelectIR } from './ir.js';

/** Calls `visit` for every table reference in a query (subqueries and CTE bodies included). */
export function forEachTableRelation(query: QueryIR, visit: (relation: TableRelationIR) => void): void {
    walkQuery(query, visit);
}

/** Every table reference in an expression (its subqueries). */
export function forEachTableRelationInExpr(expr: ExprIR, visit: (relation: TableRelationIR) => void): void {
    walkExpr(expr, visit);
}

function walkQuery(query: QueryIR, visit: (relation: TableRelationIR) => void): void {
    for (const cte of query.with?.ctes ?? []) {
        walkQuery(cte.query, visit);
    }
    walkBody(query.body, visit);
    for (const item of query.orderBy ?? []) {
        walkExpr(item.expr, visit);
    }
    if (query.limit) {
        walkExpr(query.limit, visit);
    }
}

function walkBody(body: QueryBodyIR, visit: (relation: TableRelationIR) => void): void {
    switch (body.kind) {
        case 'query':
            walkQuery(body, visit);
            break;
        case 'select':
            walkSelect(body, visit);
            break;
        case 'values':
            body.rows.forEach(row => row.forEach(e => walkExpr(e, visit)));
            break;
        case 'set_operation':
            walkBody(body.left, visit);
            walkBody(body.right, visit);
            break;
    }
}

function walkSelect(select: SelectIR, visit: (relation: TableRelationIR) => void): void {
    select.from.forEach(r => walkRelation(r, visit));
    for (const item of select.items) {
        if (item.kind === 'expr') {
            walkExpr(item.expr, visit);
        }
    }
    for (const e of [select.where, select.having, select.qualify]) {
        if (e) {
            walkExpr(e, visit);
        }
    }
    for (const item of select.groupBy?.items ?? []) {
        if (item.kind === 'expr') {
            walkExpr(item.expr, visit);
        } else if (item.kind === 'grouping_sets') {
            item.sets.forEach(set => set.forEach(e => walkExpr(e, visit)));
        } else {
            item.exprs.forEach(e => walkExpr(e, visit));
        }
    }
}

function walkRelation(relation: RelationIR, visit: (relation: TableRelationIR) => void): void {
    switch (relation.kind) {
        case 'table':
            visit(relation);
            break;
        case 'subquery':
            walkQuery(relation.query, visit);
            break;
        case 'join':
            walkRelation(relation.left, visit);
            walkRelation(relation.right, visit);
            if (relation.on) {
                walkExpr(relation.on, visit);
            }
            break;
        case 'values':
            relation.rows.forEach(row => row.forEach(e => walkExpr(e, visit)));
            break;
        case 'table_function':
            relation.args.forEach(e => walkExpr(e, visit));
            break;
        case 'lateral_view':
            walkRelation(relation.input, visit);
            walkExpr(relation.generator, visit);
            break;
        case 'pivot':
        case 'unpivot':
            walkRelation(relation.input, visit);
            break;
    }
}

function walkExpr(expr: ExprIR, visit: (relation: TableRelationIR) => void): void {
    switch (expr.kind) {
        case 'subquery':
        case 'exists':
            walkQuery(expr.query, visit);
            return;
        case 'in_subquery':
            expr.exprs.forEach(e => walkExpr(e, visit));
            walkQuery(expr.query, visit);
            return;
        case 'snapshot_version':
            visit({ kind: 'table', source: { kind: 'snapshot_version', which: expr.which }, streaming: false, span: expr.span });
            return;
        default:
            for (const child of childExprs(expr)) {
                walkExpr(child, visit);
            }
    }
}

/** The direct sub-expressions of an expression (not descending into subqueries). */
export function childExprs(expr: ExprIR): ExprIR[] {
    switch (expr.kind) {
        case 'call':
            return [
                ...expr.args,
                ...(expr.namedArgs ?? []).map(a => a.value),
                ...(expr.filter ? [expr.filter] : []),
                ...(expr.over ? [...expr.over.partitionBy, ...expr.over.orderBy.map(o => o.expr)] : []),
                ...(expr.withinGroup ?? []).map(o => o.expr),
            ];
        case 'cast':
        case 'unary':
        case 'is_null':
        case 'is_bool':
        case 'field':
        case 'json_path':
            return [expr.expr];
        case 'case':
            return [...(expr.operand ? [expr.operand] : []), ...expr.branches.flatMap(b => [b.when, b.then]), ...(expr.else ? [expr.else] : [])];
        case 'binary':
        case 'is_distinct_from':
            return [expr.left, expr.right];
        case 'in':
            return [expr.expr, ...expr.list];
        case 'between':
            return [expr.expr, expr.low, expr.high];
        case 'like':
            return [expr.expr, ...expr.patterns];
        case 'lambda':
            return [expr.body];
        case 'struct':
            return expr.fields.map(f => f.value);
        case 'array':
            return expr.elements;
        case 'map':
            return expr.entries.flatMap(e => [e.key, e.value]);
        case 'subscript':
            return [expr.expr, expr.index];
        default:
            return [];
    }
}
