/**
 * Where a completion request stands: the word being typed, the statement around the cursor, what the
 * grammar accepts there (Langium's completion parser: the next features and the rule stack that leads
 * to them) and, on demand, a copy of the document in which the word under the cursor is replaced by a
 * placeholder name, parsed and linked, so that schema inference can tell which columns are visible at
 * the cursor even while the text around it does not parse yet (`SELECT | FROM t`, `KEYS (|`).
 */
import type { AstNode, CstNode, GrammarAST as GrammarTypes, LangiumDocument, LexerResult } from 'langium';
import { AstUtils, CstUtils, DocumentState, GrammarAST, GrammarUtils } from 'langium';
import { findNextFeatures, type NextFeature } from 'langium/lsp';
import * as ast from '../../generated/ast.js';
import type { PipelineSqlServices } from '../../pipeline-sql-module.js';

/** A token of the lexer. */
export type Token = LexerResult['tokens'][number];

/** The name the placeholder copy of a document has at the cursor. */
export const PlaceholderName = '__pipeline_sql_cursor__';

/**
 * Grammar rules that list only the spellings of a name: a keyword the grammar accepts through one of
 * them is a name there (`version` as a column), not a keyword to propose.
 */
export const NameRules: ReadonlySet<string> = new Set([
    'Identifier', 'SoftKeyword', 'ClauseKeyword', 'ReservedKeyword', 'StreamWord', 'GroupingWord', 'IdentifierWord', 'TableWord',
    'AliasName', 'AsAlias', 'FunctionIdentifier', 'FunctionName', 'MemberName', 'NameStart', 'QualifiedName', 'PlainQualifiedName',
    'StreamQualifiedName', 'ColumnPath', 'IdentifierClause', 'PropertyKey', 'ConfigKey', 'ConfigValue', 'PropertyValue', 'NameOrString',
]);

/** The offset just after a token. */
export function tokenEnd(token: Token): number {
    return (token.endOffset ?? token.startOffset + token.image.length - 1) + 1;
}

/** Token types that are names or words (identifiers and keywords spelled with letters). */
function isWordToken(token: Token): boolean {
    return /^[A-Za-z_]/.test(token.image) || token.tokenType.name === 'ID' || token.tokenType.name === 'BACKTICK_ID';
}

/** The grammar's view of a position: the features that may come next and the rule stack leading there. */
export interface GrammarContext {
    readonly features: readonly NextFeature[];
    /** Elements from the entry rule down to the last element the completion parser consumed. */
    readonly stack: readonly GrammarTypes.AbstractElement[];
}

/** Everything the completion provider needs to know about the cursor. */
export interface CompletionSite {
    readonly document: LangiumDocument;
    readonly text: string;
    readonly offset: number;
    /** Start of the word being typed (equals `offset` when no word is being typed). */
    readonly wordStart: number;
    /** End of the word under the cursor (it may go on after the cursor). */
    readonly wordEnd: number;
    /** The part of the word before the cursor. */
    readonly prefix: string;
    /** Names before a trailing dot: `['o']` for `o.na|`, `['live']` for `LIVE.|`. */
    readonly qualifier: readonly string[];
    /** Where the qualified name (or, without qualifier, the word) starts. */
    readonly anchor: number;
    /** Start of the statement around the cursor (after the previous `;` or cell break). */
    readonly statementStart: number;
    /** The visible tokens of the statement before the anchor. */
    readonly tokensBefore: readonly Token[];
    /** The visible tokens of the whole statement (also after the cursor). */
    readonly statementTokens: readonly Token[];
    /** The string literal token the cursor is inside, if any. */
    readonly inString?: Token;
    /** The grammar's expectations at the anchor. */
    readonly grammar: GrammarContext;
}

/** Finds the token that contains `offset` or ends exactly there. */
function tokenAt(tokens: readonly Token[], offset: number): Token | undefined {
    for (const token of tokens) {
        if (token.startOffset < offset && offset <= tokenEnd(token)) {
            return token;
        }
        if (token.startOffset >= offset) {
            return undefined;
        }
    }
    return undefined;
}

/**
 * Analyses the cursor position of a completion request: tokens (with the document's lexer), the word
 * and qualifier being typed, the statement, and the grammar context from the completion parser.
 */
export function completionSiteAt(services: PipelineSqlServices, document: LangiumDocument, offset: number): CompletionSite | undefined {
    const text = document.textDocument.getText();
    const lexed = services.parser.Lexer.tokenize(text);
    const tokens = lexed.tokens as Token[];
    const hidden = (lexed.hidden ?? []) as Token[];
    // Inside a comment nothing is proposed (a line comment runs to the end of its line).
    const inComment = hidden.some(h => h.startOffset < offset && (h.image.startsWith('--') ? offset <= tokenEnd(h)
        : h.image.startsWith('/*') && offset < tokenEnd(h)));
    if (inComment) {
        return undefined;
    }
    let wordStart = offset;
    let wordEnd = offset;
    let inString: Token | undefined;
    const current = tokenAt(tokens, offset);
    if (current && isWordToken(current)) {
        wordStart = current.startOffset;
        wordEnd = tokenEnd(current);
    } else if (current && (current.tokenType.name === 'STRING' || current.tokenType.name === 'RAW_STRING') && offset < tokenEnd(current)) {
        inString = current;
    }
    // A word may also start right at the cursor (`na|me` was handled; `|name` completes nothing before it).
    const following = tokens.find(t => t.startOffset === offset);
    if (following && isWordToken(following) && wordStart === offset) {
        wordEnd = tokenEnd(following);
    }
    const before = tokens.filter(t => tokenEnd(t) <= wordStart);
    // The statement: after the last `;` or notebook cell break before the cursor.
    let startIndex = 0;
    for (let i = before.length - 1; i >= 0; i--) {
        const name = before[i].tokenType.name;
        if (name === ';' || name === 'CELL_BREAK') {
            startIndex = i + 1;
            break;
        }
    }
    const statementStart = startIndex > 0 ? tokenEnd(before[startIndex - 1]) : 0;
    let endIndex = tokens.length;
    for (let i = startIndex; i < tokens.length; i++) {
        const name = tokens[i].tokenType.name;
        if (tokens[i].startOffset >= wordEnd && (name === ';' || name === 'CELL_BREAK')) {
            endIndex = i;
            break;
        }
    }
    const statementTokens = tokens.slice(startIndex, endIndex);
    let statementBefore = before.slice(startIndex);
    // `a.b.` before the word: the qualifier of a qualified name.
    const qualifier: string[] = [];
    let anchor = wordStart;
    while (statementBefore.length >= 2 && statementBefore[statementBefore.length - 1].image === '.'
        && isWordToken(statementBefore[statementBefore.length - 2])) {
        const name = statementBefore[statementBefore.length - 2];
        qualifier.unshift(unquote(text.substring(name.startOffset, tokenEnd(name))));
        anchor = name.startOffset;
        statementBefore = statementBefore.slice(0, -2);
    }
    const grammar = grammarContext(services, text.substring(statementStart, anchor));
    return {
        document, text, offset, wordStart, wordEnd, prefix: text.substring(wordStart, offset), qualifier, anchor, statementStart,
        tokensBefore: statementBefore, statementTokens, inString, grammar,
    };
}

/** Removes the back quotes of a quoted name. */
export function unquote(name: string): string {
    return name.startsWith('`') && name.endsWith('`') && name.length > 1 ? name.slice(1, -1).replaceAll('``', '`') : name;
}

/**
 * Runs the completion parser over a statement prefix: the features the grammar accepts next and the
 * element stack (as Langium's `findFeaturesAt` does, keeping the stack, which tells the context).
 */
export function grammarContext(services: PipelineSqlServices, text: string): GrammarContext {
    const result = services.parser.CompletionParser.parse(text);
    if (result.tokenIndex === 0) {
        const entry = GrammarUtils.getEntryRule(services.Grammar);
        if (!entry) {
            return { features: [], stack: [] };
        }
        // As Langium does: a synthetic call of the entry rule, preceded by an empty group.
        const start = { $type: 'Group', $container: undefined, elements: [] } as unknown as GrammarTypes.Group;
        const call = { $type: 'RuleCall', $container: undefined, rule: { ref: entry, $refText: entry.name }, arguments: [] } as unknown as GrammarTypes.RuleCall;
        const group = { $type: 'Group', $container: undefined, elements: [start, call] } as unknown as GrammarTypes.Group;
        (start as { $container: unknown }).$container = group;
        (call as { $container: unknown }).$container = group;
        return { features: findNextFeatures([[{ feature: start }]], result.tokens), stack: [] };
    }
    const leftover = result.tokens.slice(result.tokenIndex);
    const stacks = [result.elementStack, ...siblingStacks(result.elementStack)];
    const features = findNextFeatures(stacks.map(stack => stack.map(feature => ({ feature }))), leftover);
    return { features, stack: result.elementStack };
}

/**
 * The stacks of the other alternatives that start with the same keyword as the rule the completion
 * parser entered. With only that keyword before the cursor the parser had to pick one alternative
 * (`AUTO CDC INTO t FROM` went into the snapshot form, `FROM SNAPSHOT`), though the others fit as
 * well (the change-feed form, `FROM STREAM(t)`); their next features count too.
 */
function siblingStacks(stack: readonly GrammarTypes.AbstractElement[]): GrammarTypes.AbstractElement[][] {
    const keyword = stack.at(-1);
    const call = stack.at(-2);
    const choice = call?.$container;
    if (!keyword || !GrammarAST.isKeyword(keyword) || !call || !GrammarAST.isRuleCall(call) || !GrammarAST.isAlternatives(choice)) {
        return [];
    }
    const entered = call.rule.ref;
    if (!GrammarAST.isParserRule(entered) || firstKeyword(entered) !== keyword) {
        return [];
    }
    const result: GrammarTypes.AbstractElement[][] = [];
    for (const sibling of choice.elements) {
        const rule = GrammarAST.isRuleCall(sibling) ? sibling.rule.ref : undefined;
        const first = sibling !== call && GrammarAST.isParserRule(rule) ? firstKeyword(rule) : undefined;
        if (first && first.value === keyword.value) {
            result.push([...stack.slice(0, -2), sibling, first]);
        }
    }
    return result;
}

/** The keyword a parser rule's definition starts with, when it starts with a mandatory one. */
function firstKeyword(rule: GrammarTypes.ParserRule): GrammarTypes.Keyword | undefined {
    let element: GrammarTypes.AbstractElement | undefined = rule.definition;
    while (element && GrammarAST.isGroup(element) && !element.cardinality) {
        element = element.elements[0];
    }
    return element && GrammarAST.isKeyword(element) && !element.cardinality ? element : undefined;
}

/** The parser rule a grammar element belongs to. */
export function ruleOf(element: AstNode | undefined): string | undefined {
    return AstUtils.getContainerOfType(element, GrammarAST.isAbstractParserRule)?.name;
}

/** Whether a feature stands for a name (an identifier terminal or a keyword spelled as a name). */
export function isNameFeature(feature: GrammarTypes.AbstractElement): boolean {
    const rule = ruleOf(feature);
    return rule !== undefined && NameRules.has(rule);
}

/** The rules the grammar is inside at the cursor, innermost last (`AutoCdcSpec`, `ColumnNameList`, …). */
export function stackRules(grammar: GrammarContext): string[] {
    return grammar.stack.map(element => ruleOf(element) ?? '');
}

/** A copy of a document with the word at the cursor replaced, parsed (and linked on demand). */
export interface SiteDocument {
    readonly document: LangiumDocument;
    /** The leaf holding the placeholder name, when one was inserted and the parser kept it. */
    readonly placeholder?: CstNode;
}

/**
 * Parses a copy of the document in which the word under the cursor (and its qualifier, when
 * `keepQualifier` is false) is replaced by {@link PlaceholderName}, or by blanks when `placeholder` is
 * false. The copy has the same URI (so it belongs to the same pipeline) but is not added to the
 * workspace; its CTEs are collected and its references resolve lazily against the workspace index.
 */
export async function siteDocument(services: PipelineSqlServices, site: CompletionSite, placeholder: boolean): Promise<SiteDocument> {
    // Parentheses the statement leaves open are closed right after the placeholder, so that `KEYS (|` or
    // `STREAM(|` parse as the list or the call they start rather than through error recovery.
    let open = 0;
    for (const token of site.statementTokens) {
        open += token.image === '(' ? 1 : token.image === ')' ? -1 : 0;
    }
    const insert = placeholder ? PlaceholderName + ')'.repeat(Math.max(0, open)) : ' '.repeat(site.wordEnd - site.wordStart);
    const text = site.text.substring(0, site.wordStart) + insert + site.text.substring(site.wordEnd);
    const document = services.shared.workspace.LangiumDocumentFactory.fromString(text, site.document.uri);
    document.localSymbols = await services.references.ScopeComputation.collectLocalSymbols(document);
    document.state = DocumentState.ComputedScopes;
    let leaf: CstNode | undefined;
    const root = document.parseResult.value.$cstNode;
    if (placeholder && root) {
        leaf = CstUtils.findLeafNodeAtOffset(root, site.wordStart);
        if (leaf?.text !== PlaceholderName) {
            leaf = undefined;
        }
    }
    return { document, placeholder: leaf };
}

/** The top-level statement of a parsed document that starts between `statementStart` and `offset`. */
export function statementAround(document: LangiumDocument, statementStart: number, offset: number): ast.Statement | undefined {
    const root = document.parseResult.value;
    if (!ast.isPipelineFile(root)) {
        return undefined;
    }
    let best: ast.Statement | undefined;
    for (const statement of root.statements) {
        const cst = statement.$cstNode;
        if (cst && cst.offset >= statementStart && cst.offset <= offset) {
            best = statement;
        }
    }
    return best;
}
