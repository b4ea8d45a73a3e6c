import type { AstNode } from 'langium';
import { isAstNode, isReference } from 'langium';
import { AST } from '../../server/src/language/index.js';

/**
 * Prints an AST node as a compact one-line tree for assertions: `Type(prop: value, ...)`, leaving out
 * `$` properties, false flags and empty lists. Expressions and data types are printed as fully
 * parenthesised SQL by {@link printExpression}, which keeps statement trees short and shows precedence.
 */
export function printAst(node: AstNode | undefined): string {
    if (node === undefined) {
        return '<none>';
    }
    if (AST.isExpression(node) || AST.isDataType(node)) {
        return printExpression(node);
    }
    return printProperties(node);
}

/** `Type(prop: value, ...)` for any node. */
function printProperties(node: AstNode): string {
    const props: string[] = [];
    for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('$')) {
            continue;
        }
        const printed = printValue(value);
        if (printed === undefined) {
            continue;
        }
        props.push(printed === true ? key : `${key}: ${printed}`);
    }
    return props.length === 0 ? node.$type : `${node.$type}(${props.join(', ')})`;
}

function printValue(value: unknown): string | true | undefined {
    if (value === undefined || value === false) {
        return undefined;
    }
    if (value === true) {
        return true;
    }
    if (Array.isArray(value)) {
        return value.length === 0 ? undefined : `[${value.map(item => printValue(item) ?? '?').join(', ')}]`;
    }
    if (isReference(value)) {
        return `@${value.$refText}`;
    }
    if (isAstNode(value)) {
        return printAst(value);
    }
    if (typeof value === 'string') {
        return `'${value}'`;
    }
    return String(value);
}

/**
 * Prints an expression (or data type) as SQL with every operator application in parentheses, e.g.
 * `a + b * c` as `(a + (b * c))`: the shape of the tree, not the source text.
 */
export function printExpression(node: AstNode | undefined): string {
    if (node === undefined) {
        return '<none>';
    }
    const p = printExpression;
    const list = (items: readonly AstNode[]) => items.map(item => p(item)).join(', ');
    const not = (flag: boolean) => flag ? 'NOT ' : '';
    if (AST.isBinaryExpression(node)) {
        return `(${p(node.left)} ${node.operator} ${p(node.right)})`;
    }
    if (AST.isUnaryExpression(node)) {
        return `(${node.operator} ${p(node.operand)})`;
    }
    if (AST.isColumnReference(node)) {
        return node.parts.join('.');
    }
    if (AST.isFunctionCall(node)) {
        const distinct = node.distinct ? 'DISTINCT ' : '';
        const inArgs = node.nullTreatmentInArgs ? ` ${node.nullTreatmentInArgs}` : '';
        let text = `${node.parts.join('.')}(${distinct}${node.args.map(printArgument).join(', ')}${inArgs})`;
        if (node.withinGroup.length > 0) {
            text += ` WITHIN GROUP (ORDER BY ${node.withinGroup.map(printSortItem).join(', ')})`;
        }
        if (node.filter) {
            text += ` FILTER (WHERE ${p(node.filter)})`;
        }
        if (node.nullTreatment) {
            text += ` ${node.nullTreatment}`;
        }
        if (node.windowName) {
            text += ` OVER ${node.windowName}`;
        } else if (node.over) {
            text += ` OVER ${printWindowSpec(node.over)}`;
        }
        return text;
    }
    if (AST.isNumberLiteral(node)) {
        return node.value;
    }
    if (AST.isStringLiteral(node)) {
        return `'${node.value}'`;
    }
    if (AST.isBooleanLiteral(node)) {
        return node.value ? 'TRUE' : 'FALSE';
    }
    if (AST.isNullLiteral(node)) {
        return 'NULL';
    }
    if (AST.isTypedLiteral(node)) {
        return `${node.type} '${node.value}'`;
    }
    if (AST.isBinaryLiteral(node)) {
        return `X'${node.value}'`;
    }
    if (AST.isIntervalLiteral(node)) {
        if (node.value !== undefined) {
            return `INTERVAL ${node.negative ? '-' : ''}'${node.value}'`;
        }
        const value = (part: AST.IntervalPart) => part.expression ? `(${p(part.expression)})`
            : /^[\d.]+$/.test(part.value ?? '') ? part.value : `'${part.value}'`;
        return `INTERVAL ${node.parts.map(part => `${part.negative ? '-' : ''}${value(part)} ${part.unit}${part.toUnit ? ` TO ${part.toUnit}` : ''}`).join(' ')}`;
    }
    if (AST.isParameterMarker(node)) {
        return node.name === undefined ? '?' : `:${node.name}`;
    }
    if (AST.isCastExpression(node)) {
        return `${node.tryCast ? 'TRY_CAST' : 'CAST'}(${p(node.expression)} AS ${p(node.type)})`;
    }
    if (AST.isCaseExpression(node)) {
        const operand = node.operand ? ` ${p(node.operand)}` : '';
        const whens = node.whens.map(w => ` WHEN ${p(w.condition)} THEN ${p(w.result)}`).join('');
        const otherwise = node.otherwise ? ` ELSE ${p(node.otherwise)}` : '';
        return `CASE${operand}${whens}${otherwise} END`;
    }
    if (AST.isBetweenExpression(node)) {
        return `(${p(node.value)} ${not(node.not)}BETWEEN ${p(node.lower)} AND ${p(node.upper)})`;
    }
    if (AST.isInExpression(node)) {
        return `(${p(node.value)} ${not(node.not)}IN (${node.query ? printAst(node.query) : list(node.values)}))`;
    }
    if (AST.isLikeExpression(node)) {
        const patterns = node.quantifier ? `${node.quantifier} (${list(node.patterns)})` : list(node.patterns);
        const escape = node.escape !== undefined ? ` ESCAPE '${node.escape}'` : '';
        return `(${p(node.value)} ${not(node.not)}${node.operator} ${patterns}${escape})`;
    }
    if (AST.isIsExpression(node)) {
        const test = node.test ?? `DISTINCT FROM ${p(node.distinctFrom)}`;
        return `(${p(node.value)} IS ${not(node.not)}${test})`;
    }
    if (AST.isSubscript(node)) {
        return `${p(node.receiver)}[${p(node.index)}]`;
    }
    if (AST.isStructFieldAccess(node)) {
        return `${p(node.receiver)}.${node.field}`;
    }
    if (AST.isJsonPath(node)) {
        return `${p(node.base)}:${node.path}`;
    }
    if (AST.isStar(node)) {
        const qualifier = node.qualifier.map(q => `${q}.`).join('');
        return `${qualifier}*${node.except.length > 0 ? ` EXCEPT (${node.except.join(', ')})` : ''}`;
    }
    if (AST.isLambda(node)) {
        return `(${node.parameters.join(', ')}) -> ${p(node.body)}`;
    }
    if (AST.isStructConstructor(node)) {
        return `(${node.fields.map(f => `${p(f.expression)}${f.alias !== undefined ? ` AS ${f.alias}` : ''}`).join(', ')})`;
    }
    if (AST.isTupleExpression(node)) {
        return `(${list(node.elements)})`;
    }
    if (AST.isSubqueryExpression(node)) {
        return `(${printAst(node.query)})`;
    }
    if (AST.isExistsExpression(node)) {
        return `EXISTS (${printAst(node.query)})`;
    }
    if (AST.isExtractExpression(node)) {
        return `EXTRACT(${node.field} FROM ${p(node.source)})`;
    }
    if (AST.isPositionExpression(node)) {
        return `POSITION(${p(node.substring)} IN ${p(node.string)})`;
    }
    if (AST.isTrimExpression(node)) {
        const side = node.side ? `${node.side} ` : '';
        const characters = node.characters ? `${p(node.characters)} ` : '';
        return `TRIM(${side}${characters}FROM ${p(node.source)})`;
    }
    if (AST.isSubstringExpression(node)) {
        return `SUBSTRING(${p(node.string)} FROM ${p(node.start)}${node.length ? ` FOR ${p(node.length)}` : ''})`;
    }
    if (AST.isOverlayExpression(node)) {
        return `OVERLAY(${p(node.input)} PLACING ${p(node.replacement)} FROM ${p(node.position)}${node.length ? ` FOR ${p(node.length)}` : ''})`;
    }
    if (AST.isPrimitiveType(node)) {
        const args = node.args.length > 0 ? `(${node.args.join(', ')})` : '';
        return `${node.name}${args}${node.collation ? ` COLLATE ${node.collation}` : ''}`;
    }
    if (AST.isArrayType(node)) {
        return `ARRAY<${p(node.elementType)}>`;
    }
    if (AST.isMapType(node)) {
        return `MAP<${p(node.keyType)}, ${p(node.valueType)}>`;
    }
    if (AST.isStructType(node)) {
        return `STRUCT<${node.fields.map(f => `${f.name}: ${p(f.type)}${f.notNull ? ' NOT NULL' : ''}`).join(', ')}>`;
    }
    if (AST.isIntervalType(node)) {
        return `INTERVAL${node.from ? ` ${node.from}` : ''}${node.to ? ` TO ${node.to}` : ''}`;
    }
    return printProperties(node);
}

function printArgument(arg: AST.FunctionArgument): string {
    const name = arg.name !== undefined ? `${arg.name} => ` : '';
    const alias = arg.alias !== undefined ? ` AS ${arg.alias}` : '';
    const value = AST.isTableArgument(arg.value) ? printAst(arg.value) : printExpression(arg.value);
    return `${name}${value}${alias}`;
}

/** Prints an ORDER BY item: `expr [DESC] [NULLS FIRST|LAST]`. */
export function printSortItem(item: AST.SortItem): string {
    const direction = item.descending ? ' DESC' : item.ascending ? ' ASC' : '';
    const nulls = item.nullsFirst ? ' NULLS FIRST' : item.nullsLast ? ' NULLS LAST' : '';
    return `${item.all ? 'ALL' : printExpression(item.expression)}${direction}${nulls}`;
}

function printWindowSpec(spec: AST.WindowSpec): string {
    const parts: string[] = [];
    if (spec.baseWindow) {
        parts.push(spec.baseWindow);
    }
    if (spec.partitionBy.length > 0) {
        parts.push(`PARTITION BY ${spec.partitionBy.map(e => printExpression(e)).join(', ')}`);
    }
    if (spec.orderBy.length > 0) {
        parts.push(`ORDER BY ${spec.orderBy.map(printSortItem).join(', ')}`);
    }
    if (spec.frame) {
        const bound = (b: AST.FrameBound | undefined) => b === undefined ? '<none>' : b.currentRow ? 'CURRENT ROW' : `${b.unbounded ? 'UNBOUNDED' : printExpression(b.value)} ${b.direction}`;
        parts.push(spec.frame.end
            ? `${spec.frame.unit} BETWEEN ${bound(spec.frame.start)} AND ${bound(spec.frame.end)}`
            : `${spec.frame.unit} ${bound(spec.frame.start)}`);
    }
    return `(${parts.join(' ')})`;
}
