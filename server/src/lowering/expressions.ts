import { ErrorClass } from '../../../engine/src/index.js';
import type {
    BinaryExprIR, CallExprIR, ExprIR, FrameBoundIR, QueryIR, SortItemIR, SourceSpan, WindowFrameIR, WindowSpecIR,
} from '../../../engine/src/index.js';
import * as ast from '../language/generated/ast.js';
import { lowerDataType } from './data-types.js';
import { intervalLiteral, jsonPath, numberLiteral } from './literals.js';
import { LoweringError } from './lowering-error.js';
import { hasParameter, type PipelineParameters } from './names.js';
import { spanOf } from './source-spans.js';

/** What the expression lowering needs from the query lowering (subqueries) and the pipeline (parameters). */
export interface ExpressionContext {
    readonly parameters: PipelineParameters;
    lowerQuery(query: ast.Query): QueryIR;
    /** Parses the value of a `${name}` parameter as an expression, as Spark's text substitution would read it. */
    parseParameterValue(name: string, value: string): ast.Expression | undefined;
}

/** Binary operators of the AST and their IR names (`==` → `=`, `!=` → `<>`, keyword operators in lower case). */
const binaryOperators: ReadonlyMap<string, BinaryExprIR['op']> = new Map(Object.entries({
    '=': '=', '==': '=', '!=': '<>', '<>': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=', '<=>': '<=>',
    '+': '+', '-': '-', '*': '*', '/': '/', '%': '%', 'DIV': 'div', '||': '||', '&': '&', '|': '|', '^': '^',
    'AND': 'and', 'OR': 'or',
} as const));

/** Shift operators have no IR node; they are Spark functions. */
const shiftFunctions: ReadonlyMap<string, string> = new Map([['<<', 'shiftleft'], ['>>', 'shiftright'], ['>>>', 'shiftrightunsigned']]);

/** Column names Spark reads as functions when written without parentheses. */
const niladicFunctions = new Set(['current_date', 'current_timestamp']);

/** Function name prefixes that still mean a built-in function (`system.builtin.abs`). */
const builtinPrefix = /^(system\.)?builtin\./i;

/**
 * Lowers expressions of the AST to the engine IR: special forms become ordinary calls (EXTRACT,
 * POSITION, TRIM, SUBSTRING), `::` becomes a cast, struct / array / map constructors get their IR
 * nodes with field names resolved, literals are typed by Spark's rules, and every node carries its
 * source span.
 */
export class ExpressionLowering {

    constructor(private readonly ctx: ExpressionContext) {}

    /** Lowers one expression. */
    lower(node: ast.Expression): ExprIR {
        const span = spanOf(node);
        switch (node.$type) {
            case ast.NumberLiteral.$type:
                return numberLiteral(node.value, span);
            case ast.StringLiteral.$type:
                return { kind: 'literal', type: { kind: 'string' }, value: this.ctx.parameters.substituteString(node.value), span };
            case ast.BooleanLiteral.$type:
                return { kind: 'literal', type: { kind: 'boolean' }, value: node.value, span };
            case ast.NullLiteral.$type:
                return { kind: 'literal', type: { kind: 'void' }, value: null, span };
            case ast.BinaryLiteral.$type:
                return { kind: 'literal', type: { kind: 'binary' }, value: node.value.toLowerCase(), span };
            case ast.TypedLiteral.$type:
                return this.typedLiteral(node, span);
            case ast.IntervalLiteral.$type:
                return this.interval(node, span);
            case ast.ParameterMarker.$type:
                if (node.name === undefined) {
                    throw unsupported('A positional parameter marker (?) has no value in a pipeline; use a named parameter or ${name}.', span);
                }
                return { kind: 'parameter', name: node.name, span };
            case ast.ColumnReference.$type:
                return this.columnReference(node, span);
            case ast.FunctionCall.$type:
                return this.call(node, span);
            case ast.CastExpression.$type:
                return { kind: 'cast', expr: this.lower(node.expression), type: lowerDataType(node.type), ...(node.tryCast ? { try: true } : {}), span };
            case ast.CaseExpression.$type:
                return {
                    kind: 'case',
                    ...(node.operand ? { operand: this.lower(node.operand) } : {}),
                    branches: node.whens.map(w => ({ when: this.lower(w.condition), then: this.lower(w.result) })),
                    ...(node.otherwise ? { else: this.lower(node.otherwise) } : {}),
                    span,
                };
            case ast.UnaryExpression.$type:
                return this.unary(node, span);
            case ast.BinaryExpression.$type:
                return this.binary(node, span);
            case ast.BetweenExpression.$type:
                return { kind: 'between', expr: this.lower(node.value), low: this.lower(node.lower), high: this.lower(node.upper), not: node.not, span };
            case ast.InExpression.$type:
                return this.inExpression(node, span);
            case ast.LikeExpression.$type:
                return this.like(node, span);
            case ast.IsExpression.$type:
                return this.isExpression(node, span);
            case ast.ExtractExpression.$type:
                return call('extract', [{ kind: 'literal', type: { kind: 'string' }, value: node.field.toUpperCase(), span: spanOf(node, 'field') }, this.lower(node.source)], span);
            case ast.PositionExpression.$type:
                return call('position', [this.lower(node.substring), this.lower(node.string)], span);
            case ast.TrimExpression.$type: {
                const name = node.side === 'LEADING' ? 'ltrim' : node.side === 'TRAILING' ? 'rtrim' : 'trim';
                return call(name, [this.lower(node.source), ...(node.characters ? [this.lower(node.characters)] : [])], span);
            }
            case ast.SubstringExpression.$type:
                return call('substring', [this.lower(node.string), this.lower(node.start), ...(node.length ? [this.lower(node.length)] : [])], span);
            case ast.OverlayExpression.$type:
                return call('overlay', [this.lower(node.input), this.lower(node.replacement), this.lower(node.position), ...(node.length ? [this.lower(node.length)] : [])], span);
            case ast.ExistsExpression.$type:
                return { kind: 'exists', query: this.ctx.lowerQuery(node.query), not: false, span };
            case ast.SubqueryExpression.$type:
                return { kind: 'subquery', query: this.ctx.lowerQuery(node.query), span };
            case ast.Lambda.$type:
                return { kind: 'lambda', params: [...node.parameters], body: this.lower(node.body), span };
            case ast.StructField.$type:
                // Only ever a field of a struct constructor (the grammar builds the first field from the parsed expression).
                return this.lower(node.expression);
            case ast.StructConstructor.$type:
                return { kind: 'struct', fields: node.fields.map((f, i) => ({ name: f.alias ?? fieldNameOf(f.expression, i), value: this.lower(f.expression) })), span };
            case ast.TupleExpression.$type:
                // A parenthesised list is a struct with fields col1, col2, ... (Spark's CreateStruct).
                return { kind: 'struct', fields: node.elements.map((e, i) => ({ name: `col${i + 1}`, value: this.lower(e) })), span };
            case ast.StructFieldAccess.$type:
                return { kind: 'field', expr: this.lower(node.receiver), field: node.field, span };
            case ast.Subscript.$type:
                return { kind: 'subscript', expr: this.lower(node.receiver), index: this.lower(node.index), span };
            case ast.JsonPath.$type:
                return { kind: 'json_path', expr: this.lower(node.base), path: jsonPath(node.path, spanOf(node, 'path')), span };
            case ast.Star.$type:
                throw unsupported('* is only allowed as a SELECT item or in count(*).', span);
        }
    }

    /** Lowers an ORDER BY / SORT BY / WITHIN GROUP item. */
    sortItem(node: ast.SortItem): SortItemIR {
        if (node.all || !node.expression) {
            throw unsupported('ORDER BY ALL cannot run locally; list the columns to sort by.', spanOf(node));
        }
        const item: SortItemIR = { expr: this.lower(node.expression) };
        if (node.ascending || node.descending) {
            item.direction = node.descending ? 'desc' : 'asc';
        }
        if (node.nullsFirst || node.nullsLast) {
            item.nulls = node.nullsFirst ? 'first' : 'last';
        }
        return item;
    }

    /** Lowers a window specification (`OVER (...)`, `WINDOW w AS (...)`). */
    windowSpec(node: ast.WindowSpec): WindowSpecIR {
        const spec: WindowSpecIR = {
            partitionBy: node.partitionBy.map(e => this.lower(e)),
            orderBy: node.orderBy.map(s => this.sortItem(s)),
        };
        if (node.baseWindow) {
            spec.ref = node.baseWindow;
        }
        if (node.frame) {
            spec.frame = this.frame(node.frame);
        }
        return spec;
    }

    private frame(node: ast.WindowFrame): WindowFrameIR {
        const frame: WindowFrameIR = { unit: node.unit === 'RANGE' ? 'range' : 'rows', start: this.bound(node.start) };
        if (node.end) {
            frame.end = this.bound(node.end);
        }
        return frame;
    }

    private bound(node: ast.FrameBound): FrameBoundIR {
        if (node.currentRow) {
            return { kind: 'current_row' };
        }
        const following = node.direction === 'FOLLOWING';
        if (node.unbounded) {
            return { kind: following ? 'unbounded_following' : 'unbounded_preceding' };
        }
        return { kind: following ? 'following' : 'preceding', offset: this.lower(node.value!) };
    }

    private typedLiteral(node: ast.TypedLiteral, span: SourceSpan): ExprIR {
        const value = this.ctx.parameters.substituteString(node.value).trim();
        switch (node.type) {
            case 'DATE':
                return { kind: 'literal', type: { kind: 'date' }, value, span };
            case 'TIMESTAMP':
            case 'TIMESTAMP_LTZ':
                return { kind: 'literal', type: { kind: 'timestamp' }, value, span };
            case 'TIMESTAMP_NTZ':
                return { kind: 'literal', type: { kind: 'timestamp_ntz' }, value, span };
            default:
                throw unsupported(`${node.type} literals cannot run locally.`, span);
        }
    }

    private interval(node: ast.IntervalLiteral, span: SourceSpan): ExprIR {
        const computed = node.parts.find(p => p.expression !== undefined);
        if (computed) {
            throw unsupported('An interval with a computed value (INTERVAL (expr) unit) cannot run locally; use make_interval or a constant.', spanOf(computed));
        }
        return intervalLiteral(
            node.parts.map(p => ({ value: p.value ?? '', negative: p.negative, unit: p.unit, ...(p.toUnit ? { toUnit: p.toUnit } : {}) })),
            node.value, node.negative, span);
    }

    private columnReference(node: ast.ColumnReference, span: SourceSpan): ExprIR {
        if (node.parts.length === 1 && hasParameter(node.parts[0]) && /^\$\{[^}]*\}$/.test(node.parts[0])) {
            return this.parameterValue(node, node.parts[0].slice(2, -1), span);
        }
        if (node.parts.length === 1 && niladicFunctions.has(node.parts[0].toLowerCase())) {
            return call(node.parts[0].toLowerCase(), [], span);
        }
        const parts = node.parts.flatMap(part => (hasParameter(part) ? this.ctx.parameters.substituteName(part, span).split('.') : [part]));
        return { kind: 'column', parts, span };
    }

    /**
     * `${name}` standing alone as an expression: Spark substitutes the text before parsing, so the
     * value is read as an expression (`10` a number, `'x'` a string, `col` a column).
     */
    private parameterValue(node: ast.ColumnReference, name: string, span: SourceSpan): ExprIR {
        const value = this.ctx.parameters.lookup(name);
        if (value === undefined) {
            // Left to the engine, which reports UNBOUND_SQL_PARAMETER at run time with this span.
            return { kind: 'parameter', name, span };
        }
        const parsed = this.ctx.parseParameterValue(name, value);
        if (!parsed) {
            throw new LoweringError(ErrorClass.unsupportedFeature, `The value '${value}' of the pipeline parameter '\${${name}}' is not an expression.`, span);
        }
        return withSpan(this.lower(parsed), span);
    }

    private unary(node: ast.UnaryExpression, span: SourceSpan): ExprIR {
        const operand = this.lower(node.operand);
        switch (node.operator) {
            case 'NOT':
            case '!':
                return { kind: 'unary', op: 'not', expr: operand, span };
            case '-':
                return { kind: 'unary', op: '-', expr: operand, span };
            case '+':
                return { kind: 'unary', op: '+', expr: operand, span };
            case '~':
                return { kind: 'unary', op: '~', expr: operand, span };
        }
    }

    private binary(node: ast.BinaryExpression, span: SourceSpan): ExprIR {
        const operator = String(node.operator).toUpperCase();
        const left = this.lower(node.left);
        const right = this.lower(node.right);
        const shift = shiftFunctions.get(operator);
        if (shift) {
            return call(shift, [left, right], span);
        }
        const op = binaryOperators.get(operator);
        if (!op) {
            throw unsupported(`The operator '${node.operator}' cannot run locally.`, span);
        }
        return { kind: 'binary', op, left, right, span };
    }

    private inExpression(node: ast.InExpression, span: SourceSpan): ExprIR {
        if (node.query) {
            const exprs = ast.isTupleExpression(node.value) ? node.value.elements.map(e => this.lower(e)) : [this.lower(node.value)];
            return { kind: 'in_subquery', exprs, query: this.ctx.lowerQuery(node.query), not: node.not, span };
        }
        return { kind: 'in', expr: this.lower(node.value), list: node.values.map(v => this.lower(v)), not: node.not, span };
    }

    private like(node: ast.LikeExpression, span: SourceSpan): ExprIR {
        const op = node.operator === 'ILIKE' ? 'ilike' : node.operator === 'LIKE' ? 'like' : 'rlike';
        const out: ExprIR = { kind: 'like', op, expr: this.lower(node.value), patterns: node.patterns.map(p => this.lower(p)), not: node.not, span };
        if (node.quantifier) {
            out.quantifier = node.quantifier === 'ALL' ? 'all' : 'any';
        }
        if (node.escape !== undefined) {
            out.escape = node.escape;
        }
        return out;
    }

    private isExpression(node: ast.IsExpression, span: SourceSpan): ExprIR {
        const value = this.lower(node.value);
        if (node.distinctFrom) {
            return { kind: 'is_distinct_from', left: value, right: this.lower(node.distinctFrom), not: node.not, span };
        }
        switch (node.test) {
            case 'NULL':
                return { kind: 'is_null', expr: value, not: node.not, span };
            case 'TRUE':
                return { kind: 'is_bool', expr: value, value: true, not: node.not, span };
            case 'FALSE':
                return { kind: 'is_bool', expr: value, value: false, not: node.not, span };
            default:
                return { kind: 'is_bool', expr: value, value: null, not: node.not, span };
        }
    }

    /** A function call, with the constructors that have their own IR nodes (struct, named_struct, array, map). */
    call(node: ast.FunctionCall, span: SourceSpan = spanOf(node)): ExprIR {
        const name = this.functionName(node, span);
        const positional = node.args.filter(a => a.name === undefined);
        const named = node.args.filter(a => a.name !== undefined);
        const plain = !node.distinct && !node.filter && !node.over && !node.windowName && node.withinGroup.length === 0 && named.length === 0;
        if (plain && (name === 'current_snapshot_version' || name === 'last_snapshot_version') && positional.length === 0) {
            return { kind: 'snapshot_version', which: name === 'current_snapshot_version' ? 'current' : 'last', span };
        }
        if (plain && name === 'struct' && !positional.some(a => ast.isStar(a.value))) {
            return { kind: 'struct', fields: positional.map((a, i) => ({ name: a.alias ?? fieldNameOf(a.value as ast.Expression, i), value: this.argument(a, true) })), span };
        }
        if (plain && name === 'named_struct' && positional.length % 2 === 0 && positional.length > 0) {
            const fields = [];
            for (let i = 0; i < positional.length; i += 2) {
                const key = positional[i].value;
                if (!ast.isStringLiteral(key)) {
                    throw unsupported('named_struct takes its field names as string literals.', spanOf(positional[i]));
                }
                fields.push({ name: this.ctx.parameters.substituteString(key.value), value: this.argument(positional[i + 1]) });
            }
            return { kind: 'struct', fields, span };
        }
        if (plain && name === 'array') {
            return { kind: 'array', elements: positional.map(a => this.argument(a)), span };
        }
        if (plain && name === 'map' && positional.length % 2 === 0) {
            const entries = [];
            for (let i = 0; i < positional.length; i += 2) {
                entries.push({ key: this.argument(positional[i]), value: this.argument(positional[i + 1]) });
            }
            return { kind: 'map', entries, span };
        }
        const out: CallExprIR = { kind: 'call', name, args: [], span };
        if (positional.length === 1 && ast.isStar(positional[0].value) && positional[0].value.qualifier.length === 0 && positional[0].value.except.length === 0) {
            out.star = true;
        } else {
            out.args = positional.map(a => this.argument(a));
        }
        if (named.length > 0) {
            out.namedArgs = named.map(a => ({ name: a.name!.toLowerCase(), value: this.argument(a) }));
        }
        if (node.distinct) {
            out.distinct = true;
        }
        if (node.filter) {
            out.filter = this.lower(node.filter);
        }
        const nulls = node.nullTreatment ?? node.nullTreatmentInArgs;
        if (nulls === 'IGNORE NULLS') {
            out.ignoreNulls = true;
        }
        if (node.withinGroup.length > 0) {
            out.withinGroup = node.withinGroup.map(s => this.sortItem(s));
        }
        if (node.windowName) {
            out.over = { ref: node.windowName, partitionBy: [], orderBy: [] };
        } else if (node.over) {
            out.over = this.windowSpec(node.over);
        }
        return out;
    }

    /** The lower-case, unqualified name of a built-in function; user-defined (qualified) functions cannot run locally. */
    functionName(node: ast.FunctionCall, span: SourceSpan): string {
        const text = node.parts.join('.').replace(builtinPrefix, '');
        if (text.includes('.')) {
            throw unsupported(`The function '${node.parts.join('.')}' is not a built-in function; user-defined functions cannot run locally.`, span);
        }
        return text.toLowerCase();
    }

    private argument(arg: ast.FunctionArgument, allowAlias = false): ExprIR {
        if (ast.isTableArgument(arg.value)) {
            throw unsupported('A TABLE argument is only supported by table-valued functions in FROM.', spanOf(arg));
        }
        if (arg.alias !== undefined && !allowAlias) {
            throw unsupported(`'AS ${arg.alias}' names a field only inside struct(...).`, spanOf(arg));
        }
        return this.lower(arg.value);
    }
}

function call(name: string, args: ExprIR[], span: SourceSpan): CallExprIR {
    return { kind: 'call', name, args, span };
}

function unsupported(message: string, span: SourceSpan): LoweringError {
    return new LoweringError(ErrorClass.unsupportedFeature, message, span);
}

/** Gives an expression parsed from a parameter value the span of the `${name}` it stands for. */
function withSpan(expr: ExprIR, span: SourceSpan): ExprIR {
    return JSON.parse(JSON.stringify(expr, (key, value: unknown) => (key === 'span' ? span : value))) as ExprIR;
}

/** The name Spark gives a struct field from its value: a column's (last) name, a field's name, else `col<n>`. */
function fieldNameOf(expr: ast.Expression, index: number): string {
    if (ast.isColumnReference(expr)) {
        return expr.parts[expr.parts.length - 1];
    }
    if (ast.isStructFieldAccess(expr)) {
        return expr.field;
    }
    return `col${index + 1}`;
}
