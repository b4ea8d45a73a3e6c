import type { AstNode, CstNode, LangiumDocument, LeafCstNode, LexerResult } from 'langium';
import { CstUtils, GrammarAST } from 'langium';
import type { Formatter } from 'langium/lsp';
import type {
    DocumentFormattingParams, DocumentOnTypeFormattingOptions, DocumentRangeFormattingParams, Range, TextEdit,
} from 'vscode-languageserver';
import * as ast from '../../generated/ast.js';
import type { PipelineSqlServices } from '../../pipeline-sql-module.js';
import { statementLayout, type Break, type Group, type Layout } from './format-layout.js';

type Token = LexerResult['tokens'][number];

/** Lines longer than this break their groups. */
export const LineWidth = 100;

/** Rules whose keywords are names (left as written). */
const nameRules = new Set(['SoftKeyword', 'ClauseKeyword', 'ReservedKeyword', 'StreamWord', 'GroupingWord', 'IdentifierWord', 'TableWord', 'AsAlias']);

/** Names written as one piece, exactly as in the source (`:a.b[0]` paths, dotted configuration keys, IDENTIFIER(...)). */
const atomicRules = new Set(['JsonPathText', 'IdentifierClause', 'ConfigKey', 'ConfigValue', 'PropertyKey']);

/** Nodes whose word before `(` is a call: no space between (`count(*)`, `CAST(x AS INT)`, `STREAM(t)`, `DECIMAL(10, 2)`). */
const callNodes = new Set<string>([
    ast.FunctionCall.$type, ast.TableFunctionCall.$type, ast.CastExpression.$type, ast.ExtractExpression.$type, ast.PositionExpression.$type,
    ast.TrimExpression.$type, ast.SubstringExpression.$type, ast.OverlayExpression.$type, ast.PrimitiveType.$type, ast.TableReference.$type,
    ast.SourceRef.$type,
]);

/** Keywords that may be the word of a call (`CAST(`, `STREAM(`); other keywords keep a space before `(`. */
const callKeywords = new Set(['CAST', 'TRY_CAST', 'EXTRACT', 'POSITION', 'TRIM', 'SUBSTRING', 'SUBSTR', 'OVERLAY', 'STREAM']);

/** A statement of a formatted document: its source range and its text after formatting. */
export interface FormattedStatement {
    readonly start: number;
    readonly end: number;
    readonly formatted: string;
    /**
     * `formatted`; `syntax-error` when the statement does not parse (left as written); `unsafe` when its
     * re-printed text would lex differently (left as written, never expected).
     */
    readonly status: 'formatted' | 'syntax-error' | 'unsafe';
}

/** One token or comment of the source, as the formatter prints it. */
interface Item {
    readonly start: number;
    readonly end: number;
    /** The text printed for it: keywords in upper case, names and literals as written. */
    readonly text: string;
    readonly kind: 'token' | 'line-comment' | 'block-comment' | 'cell-break';
    readonly leaf?: LeafCstNode;
    /** Line breaks in the source between the previous item and this one. */
    readonly newlinesBefore: number;
}

/**
 * Formatter (Langium's `Formatter` service). Langium's `AbstractFormatter` only edits the white
 * space between tokens; formatting pipeline SQL also upper-cases keywords and decides line breaks per
 * clause, so this formatter re-prints each statement from its tokens with a layout computed from
 * its syntax tree (`format-layout.ts`): keywords upper case (keywords used as names stay as written),
 * one clause per line where a statement does not fit on a line, one AUTO CDC clause per line always,
 * comments kept where they were (trailing or on their own line), at most one blank line. Statements
 * with syntax errors are left as they are, and a statement whose re-printed text would lex to
 * different tokens is left as it is, so formatting never changes meaning.
 */
export class PipelineSqlFormatter implements Formatter {

    constructor(private readonly services: PipelineSqlServices) {}

    get formatOnTypeOptions(): DocumentOnTypeFormattingOptions | undefined {
        return undefined;
    }

    formatDocument(document: LangiumDocument, _params: DocumentFormattingParams): TextEdit[] {
        const original = document.textDocument.getText();
        return minimalEdit(document, original, this.format(document).text);
    }

    formatDocumentRange(document: LangiumDocument, params: DocumentRangeFormattingParams): TextEdit[] {
        const start = document.textDocument.offsetAt(params.range.start);
        const end = document.textDocument.offsetAt(params.range.end);
        const original = document.textDocument.getText();
        const edits: TextEdit[] = [];
        for (const statement of this.format(document).statements) {
            if (statement.start < end && statement.end > start && statement.formatted !== original.substring(statement.start, statement.end)) {
                edits.push({ range: toRange(document, statement.start, statement.end), newText: statement.formatted });
            }
        }
        return edits;
    }

    formatDocumentOnType(): TextEdit[] {
        return [];
    }

    /** Formats a whole document: its text, and each statement's source range with its formatted text. */
    format(document: LangiumDocument): { text: string; statements: FormattedStatement[] } {
        const text = document.textDocument.getText();
        const items = this.items(document, text);
        const errors = [
            ...document.parseResult.lexerErrors.map(e => e.offset),
            ...document.parseResult.parserErrors.map(e => (Number.isNaN(e.token.startOffset) ? text.length : e.token.startOffset)),
        ];
        const root = document.parseResult.value;
        const statements = ast.isPipelineFile(root) ? root.statements : [];
        const byStart = new Map<number, ast.Statement>();
        for (const statement of statements) {
            const first = statement.$cstNode ? CstUtils.flattenCst(statement.$cstNode).find(l => !l.hidden) : undefined;
            if (first) {
                byStart.set(first.offset, statement);
            }
        }
        const output: string[] = [];
        const formattedStatements: FormattedStatement[] = [];
        let lastWasLineComment = false;
        let i = 0;
        while (i < items.length) {
            const item = items[i];
            // Separation from what came before: the blank lines of the source, at most one.
            if (output.length > 0) {
                const trailing = item.kind !== 'token' && item.kind !== 'cell-break' && item.newlinesBefore === 0 && !lastWasLineComment;
                output.push(trailing ? ' ' : item.newlinesBefore >= 2 ? '\n\n' : '\n');
            }
            if (item.kind !== 'token') {
                output.push(item.text);
                lastWasLineComment = item.kind === 'line-comment' || item.kind === 'cell-break';
                i++;
                continue;
            }
            // A statement: its items up to and including the `;` that ends it (or up to a cell break).
            let end = i;
            while (end + 1 < items.length && items[end].text !== ';' && items[end + 1].kind !== 'cell-break') {
                end++;
            }
            // Comments after the last token of a statement that ends without `;` belong between statements.
            while (end > i && items[end].kind !== 'token') {
                end--;
            }
            const chunk = items.slice(i, end + 1);
            const start = chunk[0].start;
            const stop = chunk[chunk.length - 1].end;
            const statement = byStart.get(start);
            let formatted = text.substring(start, stop);
            let status: FormattedStatement['status'] = 'syntax-error';
            if (statement && !errors.some(e => e >= start && e < stop)) {
                const printed = this.printStatement(chunk, statement);
                status = this.sameTokens(text.substring(start, stop), printed) ? 'formatted' : 'unsafe';
                if (status === 'formatted') {
                    formatted = printed;
                }
            }
            formattedStatements.push({ start, end: stop, formatted, status });
            output.push(formatted);
            lastWasLineComment = chunk[chunk.length - 1].kind === 'line-comment';
            i = end + 1;
        }
        let result = output.join('');
        if (/\r?\n$/.test(text) || result.length === 0) {
            result = result.length === 0 ? text : result + '\n';
        }
        return { text: result, statements: formattedStatements };
    }

    //#region Items

    /** The tokens and comments of a document in source order, with their printed text. */
    private items(document: LangiumDocument, text: string): Item[] {
        const lexed = this.services.parser.Lexer.tokenize(text);
        const root = document.parseResult.value.$cstNode;
        const leaves = new Map<number, LeafCstNode>();
        if (root) {
            for (const leaf of CstUtils.flattenCst(root)) {
                if (!leaf.hidden) {
                    leaves.set(leaf.offset, leaf);
                }
            }
        }
        const raw: Array<{ token: Token; hidden: boolean }> = [
            ...lexed.tokens.map(token => ({ token, hidden: false })),
            ...(lexed.hidden as Token[]).filter(t => t.tokenType.name === 'SL_COMMENT' || t.tokenType.name === 'ML_COMMENT').map(token => ({ token, hidden: true })),
        ].sort((a, b) => a.token.startOffset - b.token.startOffset);
        const items: Item[] = [];
        let previousEnd = 0;
        let atomic: { node: CstNode; index: number } | undefined;
        for (const { token, hidden } of raw) {
            const start = token.startOffset;
            const end = start + tokenLength(token, text);
            const newlinesBefore = countNewlines(text.substring(previousEnd, start));
            previousEnd = end;
            if (hidden) {
                atomic = undefined;
                items.push({ start, end, text: text.substring(start, end), kind: token.tokenType.name === 'SL_COMMENT' ? 'line-comment' : 'block-comment', newlinesBefore });
                continue;
            }
            const leaf = leaves.get(start);
            if (token.tokenType.name === 'CELL_BREAK') {
                atomic = undefined;
                items.push({ start, end, text: text.substring(start, end).trimEnd(), kind: 'cell-break', newlinesBefore });
                continue;
            }
            const atomicNode = leaf ? atomicContainer(leaf) : undefined;
            if (atomicNode && atomic?.node === atomicNode) {
                // The next token of a name written as one piece: the piece grows to include it, as written.
                const previous = items[atomic.index];
                items[atomic.index] = { ...previous, end, text: text.substring(previous.start, end) };
                continue;
            }
            atomic = atomicNode ? { node: atomicNode, index: items.length } : undefined;
            items.push({ start, end, text: this.printedText(token, leaf, text, start, end), kind: 'token', leaf, newlinesBefore });
        }
        return items;
    }

    /** Keywords in their canonical upper case; keywords used as names, names and literals as written; type names upper case. */
    private printedText(token: Token, leaf: LeafCstNode | undefined, text: string, start: number, end: number): string {
        const source = text.substring(start, end);
        const grammarSource = leaf?.grammarSource;
        if (GrammarAST.isKeyword(grammarSource)) {
            return nameRules.has(ruleName(grammarSource) ?? '') ? source : token.image;
        }
        if (leaf && grammarSource && ast.isPrimitiveType(leaf.astNode) && ruleName(grammarSource) === 'TypeName') {
            return source.toUpperCase();
        }
        return source;
    }

    //#endregion

    //#region Printing one statement

    /** Prints the items of one statement with the layout of its syntax tree. */
    private printStatement(chunk: readonly Item[], statement: ast.Statement): string {
        const tokens = chunk.filter(item => item.kind === 'token');
        const indexByStart = new Map(tokens.map((t, i) => [t.start, i]));
        const layout = statementLayout(statement, {
            startingAt: offset => indexByStart.get(offset),
            endingBy: end => {
                let found: number | undefined;
                tokens.forEach((t, i) => {
                    if (t.end <= end) {
                        found = i;
                    }
                });
                return found;
            },
        });
        return new StatementPrinter(chunk, tokens, layout).print();
    }

    /** Whether two texts lex to the same tokens and comments (keywords and identifiers compared case-insensitively). */
    private sameTokens(before: string, after: string): boolean {
        const signature = (text: string): string[] => {
            const lexed = this.services.parser.Lexer.tokenize(text);
            const all = [...lexed.tokens, ...(lexed.hidden as Token[]).filter(t => t.tokenType.name !== 'WS')]
                .sort((a, b) => a.startOffset - b.startOffset);
            return all.map(t => {
                const source = t.tokenType.name === t.image ? t.image : text.substr(t.startOffset, tokenLength(t, text)).trim();
                // Type names are the only identifiers the printer changes (to upper case).
                return `${t.tokenType.name}:${t.tokenType.name === 'ID' ? source.toLowerCase() : source}`;
            });
        };
        const a = signature(before);
        const b = signature(after);
        return a.length === b.length && a.every((x, i) => x === b[i]);
    }

    //#endregion
}

/** Lays out the tokens of one statement: groups that fit stay on one line, the others break. */
class StatementPrinter {

    private readonly lines: string[] = [];
    private line = '';
    private lineIndent = 0;
    private pendingNewline = false;
    /** The token a block comment on a line of its own was written for (the token follows it on that line). */
    private commentLineFor: number | undefined;
    private readonly decided = new Map<Group, { broken: boolean; base: number }>();
    private readonly groupsByFirst = new Map<number, Group[]>();
    /** Flat width of the tokens up to each index (prefix sums, separators included). */
    private readonly prefix: number[] = [];
    private readonly forced = new Set<Group>();

    constructor(private readonly chunk: readonly Item[], private readonly tokens: readonly Item[], private readonly layout: Layout) {
        for (const group of layout.groups) {
            const list = this.groupsByFirst.get(group.first) ?? [];
            list.push(group);
            this.groupsByFirst.set(group.first, list);
        }
        // Outer groups are decided before the groups they contain.
        for (const list of this.groupsByFirst.values()) {
            list.sort((a, b) => b.last - a.last);
        }
        let width = 0;
        tokens.forEach((token, i) => {
            width += (i > 0 && needsSpace(tokens[i - 1], token) ? 1 : 0) + token.text.length;
            this.prefix.push(width);
        });
        this.markForcedGroups();
    }

    /** Groups that cannot stay on one line: they hold a hard break, a line comment or a comment on its own line. */
    private markForcedGroups(): void {
        const hardAt = [...this.layout.breaks.entries()].filter(([, b]) => b.hard).map(([i]) => i);
        const commentsAfter: number[] = [];
        let tokenIndex = -1;
        for (const item of this.chunk) {
            if (item.kind === 'token') {
                tokenIndex++;
            } else if (item.kind === 'line-comment' || item.newlinesBefore > 0 || item.text.includes('\n')) {
                // A comment between token `tokenIndex` and the next one.
                commentsAfter.push(tokenIndex);
            }
        }
        for (const group of this.layout.groups) {
            if (hardAt.some(i => i > group.first && i <= group.last) || commentsAfter.some(i => i >= group.first && i < group.last)) {
                this.forced.add(group);
            }
        }
    }

    private flatWidth(from: number, to: number): number {
        return this.prefix[to] - this.prefix[from] + this.tokens[from].text.length;
    }

    print(): string {
        let tokenIndex = -1;
        this.chunk.forEach((item, k) => {
            if (item.kind === 'token') {
                tokenIndex++;
                this.token(tokenIndex, item);
            } else {
                this.comment(item, tokenIndex + 1, (this.chunk[k + 1]?.newlinesBefore ?? 0) > 0);
            }
        });
        this.lines.push(this.line);
        return this.lines.map(l => l.trimEnd()).join('\n');
    }

    private token(index: number, item: Item): void {
        const brk = this.layout.breaks.get(index);
        let newline = false;
        let indent = 0;
        if (index > 0) {
            if (brk) {
                const group = this.decide(brk.group, index);
                if (brk.hard || group.broken) {
                    newline = true;
                    indent = group.base + brk.level;
                }
            }
            if (!newline && this.pendingNewline) {
                newline = true;
                indent = this.indentFor(index, brk);
            }
        }
        if (newline && this.commentLineFor === index && !this.pendingNewline) {
            // `/* note */ b` on a line of its own: the token stays after its comment.
            this.line += ' ';
        } else if (newline) {
            this.newLine(indent);
        } else if (index > 0 && this.line.length > 0 && needsSpace(this.tokens[index - 1], item)) {
            this.line += ' ';
        }
        this.pendingNewline = false;
        this.commentLineFor = undefined;
        for (const group of this.groupsByFirst.get(index) ?? []) {
            this.decide(group, index);
        }
        this.line += item.text;
    }

    /** Decides whether a group stays on one line, when its first token is about to be printed. */
    private decide(group: Group, at: number): { broken: boolean; base: number } {
        let decision = this.decided.get(group);
        if (!decision) {
            const column = this.line.length + (this.line.length > 0 ? 1 : 0);
            const fits = column + this.flatWidth(at, group.last) <= LineWidth;
            decision = { broken: this.forced.has(group) || !fits, base: this.lineIndent };
            this.decided.set(group, decision);
        }
        return decision;
    }

    /** The indentation of a token that must start a line: its break's, else one more than the innermost group around it. */
    private indentFor(index: number, brk: Break | undefined): number {
        if (brk) {
            const decision = this.decided.get(brk.group);
            return (decision?.base ?? this.lineIndent) + brk.level;
        }
        let innermost: { first: number; base: number } | undefined;
        for (const [group, decision] of this.decided) {
            if (group.first < index && index <= group.last && (!innermost || group.first > innermost.first)) {
                innermost = { first: group.first, base: decision.base };
            }
        }
        return (innermost?.base ?? 0) + 1;
    }

    /** Prints a comment where it was: at the end of the line, or on a line of its own (then what follows does too, unless it followed a block comment on the same line). */
    private comment(item: Item, nextToken: number, nextOnNewLine: boolean): void {
        if (item.newlinesBefore === 0 && !this.pendingNewline && this.line.length > 0) {
            this.line += ' ' + item.text;
        } else {
            this.newLine(this.indentFor(nextToken, this.layout.breaks.get(nextToken)));
            this.line += item.text;
            this.commentLineFor = item.kind === 'block-comment' && !nextOnNewLine ? nextToken : undefined;
        }
        // A block comment with line breaks continues on its last line.
        const lines = this.line.split('\n');
        if (lines.length > 1) {
            this.lines.push(...lines.slice(0, -1));
            this.line = lines[lines.length - 1];
        }
        this.pendingNewline = item.kind === 'line-comment' || nextOnNewLine;
    }

    private newLine(indent: number): void {
        this.lines.push(this.line);
        this.lineIndent = indent;
        this.line = '  '.repeat(indent);
    }
}

/** Whether two tokens printed next to each other are separated by a space. */
function needsSpace(previous: Item, next: Item): boolean {
    const p = previous.text;
    const n = next.text;
    if (n === ',' || n === ';' || n === ')' || n === ']' || n === '.' || n === '::' || p === '(' || p === '[' || p === '.' || p === '::') {
        return false;
    }
    const pNode = previous.leaf?.astNode;
    const nNode = next.leaf?.astNode;
    // Type arguments: ARRAY<INT>, MAP<STRING, INT>, DECIMAL(10, 2).
    if ((n === '<' || n === '>' || n === '<>') && isComplexType(nNode)) {
        return false;
    }
    if (p === '<' && isComplexType(pNode)) {
        return false;
    }
    // JSON paths (`payload:a.b`) and parameter markers (`:name`).
    if (n === ':' && (ast.isJsonPath(nNode) || ast.isStructTypeField(nNode))) {
        return false;
    }
    if (p === ':' && (ast.isJsonPath(pNode) || ast.isParameterMarker(pNode))) {
        return false;
    }
    if (n === '[' && ast.isSubscript(nNode)) {
        return false;
    }
    if (n === '(' && pNode && pNode === nNode && callNodes.has(pNode.$type) && /^[\w`$]/.test(p)) {
        const keyword = GrammarAST.isKeyword(previous.leaf?.grammarSource) && !nameRules.has(ruleName(previous.leaf!.grammarSource) ?? '');
        if (!keyword || callKeywords.has(p.toUpperCase())) {
            return false;
        }
    }
    // Unary operators stick to their operand, unless that would make `--` (a comment) or `++`.
    if (ast.isUnaryExpression(pNode) && (p === '-' || p === '+' || p === '~' || p === '!') && previous.leaf?.offset === pNode.$cstNode?.offset) {
        return n.startsWith('-') || n.startsWith('+');
    }
    return true;
}

function isComplexType(node: AstNode | undefined): boolean {
    return ast.isArrayType(node) || ast.isMapType(node) || ast.isStructType(node);
}

/** The CST node of a name written as one piece that contains a leaf, if any (the outermost such node). */
function atomicContainer(leaf: LeafCstNode): CstNode | undefined {
    let found: CstNode | undefined;
    for (let node: CstNode | undefined = leaf.container; node && node.astNode === leaf.astNode; node = node.container) {
        const source = node.grammarSource;
        if (GrammarAST.isRuleCall(source) && atomicRules.has(source.rule.ref?.name ?? '')) {
            found = node;
        }
    }
    return found;
}

function ruleName(element: AstNode): string | undefined {
    let current: AstNode | undefined = element;
    while (current && !GrammarAST.isAbstractParserRule(current)) {
        current = current.$container;
    }
    return current?.name;
}

function tokenLength(token: Token, text: string): number {
    // Keyword images are canonical, not the source spelling; offsets give the real length.
    if (token.endOffset !== undefined && !Number.isNaN(token.endOffset)) {
        return token.endOffset - token.startOffset + 1;
    }
    return Math.min(token.image.length, text.length - token.startOffset);
}

function countNewlines(text: string): number {
    let count = 0;
    for (const c of text) {
        if (c === '\n') {
            count++;
        }
    }
    return count;
}

function toRange(document: LangiumDocument, start: number, end: number): Range {
    return { start: document.textDocument.positionAt(start), end: document.textDocument.positionAt(end) };
}

/** One edit replacing only the part of the text that changed. */
function minimalEdit(document: LangiumDocument, before: string, after: string): TextEdit[] {
    if (before === after) {
        return [];
    }
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) {
        start++;
    }
    let endBefore = before.length;
    let endAfter = after.length;
    while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
        endBefore--;
        endAfter--;
    }
    return [{ range: toRange(document, start, endBefore), newText: after.substring(start, endAfter) }];
}
