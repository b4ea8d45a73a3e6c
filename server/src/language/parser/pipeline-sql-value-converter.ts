import type { CstNode, GrammarAST, ValueType } from 'langium';
import { CstUtils, DefaultValueConverter, GrammarAST as Ast, isLeafCstNode } from 'langium';

/**
 * Data-type rules made only of keywords whose value is the keywords in upper case separated by one
 * space (`LEFT OUTER`, `IGNORE NULLS`, `GROUPING SETS`), whatever the spelling in the source.
 */
const keywordPhraseRules = new Set([
    'LikeOperator', 'LikeQuantifier', 'IsTest', 'IntervalUnit', 'TypedLiteralType', 'TrimSide', 'NullTreatment',
    'FrameUnit', 'FrameDirection', 'SetOperator', 'IntersectOperator', 'SetQuantifier', 'GroupingModifier',
    'GroupingSetsKind', 'TemporalKind', 'SampleUnit', 'UnpivotNulls', 'IdentityOptionKind', 'ConstraintOption', 'ForeignKeyOption',
    'RefreshPolicy', 'SetScope', 'UseScope', 'NamespaceKind', 'AlterObjectKind', 'StatementEnd', 'DropObjectKind', 'DropOption',
]);

/** Rules whose value is a name: a keyword used as a name keeps its spelling from the source. */
const nameRules = new Set([
    'Identifier', 'FunctionIdentifier', 'AliasName', 'SoftKeyword', 'ClauseKeyword', 'MemberName', 'ReservedKeyword', 'StreamWord',
    'GroupingWord', 'IdentifierWord', 'TableWord', 'AsAlias',
]);

/** Rules whose value is their source text without whitespace or comments. */
const verbatimRules = new Set(['JsonPathText', 'SignedNumber']);

/** Canonical join kinds: `OUTER` is noise, `SEMI` / `ANTI` alone mean `LEFT SEMI` / `LEFT ANTI`. */
const joinTypes: Record<string, string> = {
    'INNER': 'INNER', 'CROSS': 'CROSS', 'LEFT': 'LEFT', 'LEFT OUTER': 'LEFT', 'RIGHT': 'RIGHT', 'RIGHT OUTER': 'RIGHT',
    'FULL': 'FULL', 'FULL OUTER': 'FULL', 'SEMI': 'LEFT SEMI', 'LEFT SEMI': 'LEFT SEMI', 'ANTI': 'LEFT ANTI', 'LEFT ANTI': 'LEFT ANTI',
};

/**
 * Value converter (Langium's `ValueConverter` service): unquotes strings and back-quoted names the way
 * Spark does, keeps the source spelling of keywords used as names, and gives keyword phrases a
 * canonical upper-case form so that the AST does not depend on how a statement was typed.
 */
export class PipelineSqlValueConverter extends DefaultValueConverter {

    protected override runConverter(rule: GrammarAST.AbstractRule, input: string, cstNode: CstNode): ValueType {
        const name = rule.name;
        switch (name) {
            case 'STRING': return unescapeSparkString(input.slice(1, -1));
            case 'RAW_STRING': return input.slice(2, -1);
            case 'BACKTICK_ID': return input.slice(1, -1).replaceAll('``', '`');
            case 'HEX_STRING': return input.slice(2, -1);
            case 'ID':
            case 'NUMBER':
                return input;
            case 'CONFIG_VALUE':
                return input;
            case 'TypeName': return input.toUpperCase();
            case 'ScdType': return Number(input);
            case 'JoinType': {
                const phrase = keywordPhrase(cstNode);
                return Object.hasOwn(joinTypes, phrase) ? joinTypes[phrase] : phrase;
            }
            case 'PropertyValue':
            case 'ConfigValue':
                return configValue(input, cstNode);
            case 'IdentifierClause':
                return identifierClauseName(cstNode);
            case 'NotOperator':
                return 'NOT';
        }
        if (keywordPhraseRules.has(name)) {
            return keywordPhrase(cstNode);
        }
        if (nameRules.has(name)) {
            // Only a keyword used as a name needs its source spelling back (its token image is the
            // canonical upper-case keyword); other names are converted already.
            if (!/^[A-Z_]+$/.test(input)) {
                return input;
            }
            const leaves = visibleLeaves(cstNode);
            return leaves.length === 1 && Ast.isKeyword(leaves[0].grammarSource) ? leaves[0].text : input;
        }
        if (verbatimRules.has(name)) {
            return visibleLeaves(cstNode).map(leaf => leaf.text).join('');
        }
        return super.runConverter(rule, input, cstNode);
    }
}

/** The non-hidden leaves (tokens) under a CST node, in order. */
function visibleLeaves(cstNode: CstNode): CstNode[] {
    return CstUtils.streamCst(cstNode).filter(node => isLeafCstNode(node) && !node.hidden).toArray();
}

function keywordPhrase(cstNode: CstNode): string {
    return visibleLeaves(cstNode).map(leaf => leaf.text.toUpperCase()).join(' ');
}

/**
 * The name an `IDENTIFIER(...)` clause spells: the string for `IDENTIFIER('a' || 'b')`, else the text of
 * the argument (`:param`, `${p}`, a variable), which only the runtime knows.
 */
function identifierClauseName(cstNode: CstNode): string {
    const inner = visibleLeaves(cstNode).slice(2, -1);
    const strings = inner.filter(leaf => terminalName(leaf) === 'STRING' || terminalName(leaf) === 'RAW_STRING');
    if (strings.length > 0 && inner.every(leaf => strings.includes(leaf) || leaf.text === '||')) {
        return strings.map(leaf => terminalName(leaf) === 'RAW_STRING' ? leaf.text.slice(2, -1) : unescapeSparkString(leaf.text.slice(1, -1))).join('');
    }
    return inner.map(leaf => leaf.text).join('');
}

function terminalName(leaf: CstNode): string | undefined {
    const source = leaf.grammarSource;
    return Ast.isRuleCall(source) ? source.rule.ref?.name : undefined;
}

/**
 * A TBLPROPERTIES / SET value: a lone string is unquoted, `TRUE`/`FALSE` are lower case, anything else
 * is the source text (`1 hour`, `10s`, `a.b`).
 */
function configValue(input: string, cstNode: CstNode): string {
    const leaves = visibleLeaves(cstNode);
    if (leaves.length > 0 && leaves.every(leaf => terminalName(leaf) === 'STRING' || terminalName(leaf) === 'RAW_STRING')) {
        return input;
    }
    const text = leaves.length === 0 ? input : cstNode.root.fullText.substring(leaves[0].offset, leaves[leaves.length - 1].end);
    // A boolean in its canonical lower-case spelling; any other value as written (Spark keeps the text).
    return /^(true|false)$/i.test(text) ? text.toLowerCase() : text;
}

/**
 * Resolves the backslash escapes of a Spark string literal body (Spark's `unescapeSQLString`):
 * `\n \t \r \b \0 \Z \' \" \\`, `\uXXXX`, three-digit octal; `\%` and `\_` keep their backslash (LIKE
 * patterns); any other escaped character stands for itself.
 */
export function unescapeSparkString(body: string): string {
    if (!body.includes('\\')) {
        return body;
    }
    let result = '';
    for (let i = 0; i < body.length; i++) {
        const c = body[i];
        if (c !== '\\' || i + 1 >= body.length) {
            result += c;
            continue;
        }
        const octal = body.slice(i + 1, i + 4);
        if (/^[0-3][0-7]{2}$/.test(octal)) {
            result += String.fromCharCode(parseInt(octal, 8));
            i += 3;
            continue;
        }
        const next = body[++i];
        switch (next) {
            case 'n': result += '\n'; break;
            case 't': result += '\t'; break;
            case 'r': result += '\r'; break;
            case 'b': result += '\b'; break;
            case '0': result += '\0'; break;
            case 'Z': result += '\x1a'; break;
            case '%': result += '\\%'; break;
            case '_': result += '\\_'; break;
            case 'u': {
                const hex = body.slice(i + 1, i + 5);
                if (/^[0-9a-fA-F]{4}$/.test(hex)) {
                    result += String.fromCharCode(parseInt(hex, 16));
                    i += 4;
                } else {
                    result += 'u';
                }
                break;
            }
            default: result += next;
        }
    }
    return result;
}
