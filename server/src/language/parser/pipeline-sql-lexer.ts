import type { LangiumCoreServices, LexerResult, TokenizeOptions } from 'langium';
import { DefaultLexer, GrammarAST } from 'langium';
import { unclosedCommentMessage } from './pipeline-sql-lexer-error-message-provider.js';

type Token = LexerResult['tokens'][number];
type TokenType = Token['tokenType'];

/** Keywords that open a `<...>` type argument list. */
const complexTypeKeywords = new Set(['ARRAY', 'MAP', 'STRUCT']);

/**
 * Lexer (Langium's `Lexer` service): Langium's default lexer plus two token-stream adjustments.
 *
 * 1. Every keyword token's image becomes the keyword's canonical (upper-case) spelling. Keywords are
 *    case-insensitive, and the parser reads token images in two places: the infix operator tables
 *    (`a div b * c` needs `DIV` to find its precedence) and keyword-valued AST properties. The original
 *    spelling stays in the document and the CST, which is where names (`date`, `version` used as
 *    identifiers) take their text from.
 * 2. A `/*` that is never closed ends the token stream with an error, as in Spark; otherwise its `/`
 *    and `*` would reach the parser and be reported as a confusing syntax error.
 * 3. Inside the type arguments of `ARRAY<...>`, `MAP<...>` and `STRUCT<...>`, a `>>` or `>>>` token is
 *    split into single `>` tokens, so that `ARRAY<ARRAY<INT>>` closes both lists while `a >> 2` stays
 *    a shift.
 * 4. In `SET key = value`, the tokens of the value (everything up to the end of the statement, as
 *    Spark takes it: `SET datasets.path=dbfs:/mnt/demo`) become one `CONFIG_VALUE` token, unless the
 *    value is a string literal.
 */
export class PipelineSqlLexer extends DefaultLexer {

    private readonly keywordTokenTypes: ReadonlySet<TokenType>;
    private readonly greaterThan: TokenType;
    private readonly configValue: TokenType;

    constructor(services: LangiumCoreServices) {
        super(services);
        const terminalNames = new Set(services.Grammar.rules.filter(GrammarAST.isTerminalRule).map(rule => rule.name));
        this.keywordTokenTypes = new Set(Object.values(this.definition).filter(type => !terminalNames.has(type.name)));
        this.greaterThan = this.definition['>'];
        this.configValue = this.definition['CONFIG_VALUE'];
    }

    override tokenize(text: string, options?: TokenizeOptions): LexerResult {
        const result = super.tokenize(text, options);
        for (const token of result.tokens) {
            if (this.keywordTokenTypes.has(token.tokenType)) {
                token.image = token.tokenType.name;
            }
        }
        this.cutAtUnclosedComment(result);
        result.tokens = this.splitTypeClosers(result.tokens);
        this.joinConfigValues(text, result);
        return result;
    }

    /** Joins the value tokens of each `SET key = value` statement into one `CONFIG_VALUE` token. */
    private joinConfigValues(text: string, result: LexerResult): void {
        const tokens = result.tokens;
        if (!tokens.some(token => token.tokenType.name === 'SET')) {
            return;
        }
        const output: Token[] = [];
        let removedHidden: Array<[number, number]> | undefined;
        for (let i = 0; i < tokens.length; i++) {
            output.push(tokens[i]);
            const atStart = i === 0 || isStatementEnd(tokens[i - 1]);
            if (!atStart || tokens[i].tokenType.name !== 'SET') {
                continue;
            }
            // SET key = ...: the key is a dotted name (not VAR / VARIABLE, whose value is an expression).
            let k = i + 1;
            while (k < tokens.length && !isStatementEnd(tokens[k]) && tokens[k].tokenType.name !== '=') {
                k++;
            }
            const first = tokens[i + 1]?.image.toUpperCase();
            if (k >= tokens.length || tokens[k].tokenType.name !== '=' || k === i + 1 || first === 'VAR' || first === 'VARIABLE') {
                continue;
            }
            let end = k + 1;
            while (end < tokens.length && !isStatementEnd(tokens[end])) {
                end++;
            }
            const value = tokens.slice(k + 1, end);
            if (value.length === 0 || value.every(token => token.tokenType.name === 'STRING' || token.tokenType.name === 'RAW_STRING')) {
                continue;
            }
            output.push(...tokens.slice(i + 1, k + 1));
            const start = value[0];
            const last = value[value.length - 1];
            output.push({
                ...start,
                image: text.substring(start.startOffset, last.endOffset! + 1),
                tokenType: this.configValue,
                tokenTypeIdx: this.configValue.tokenTypeIdx!,
                endOffset: last.endOffset,
                endLine: last.endLine,
                endColumn: last.endColumn,
            });
            (removedHidden ??= []).push([start.startOffset, last.endOffset!]);
            i = end - 1;
        }
        result.tokens = output;
        if (removedHidden) {
            // Comments inside a value are part of it.
            result.hidden = result.hidden.filter(token => !removedHidden!.some(([from, to]) => token.startOffset > from && token.startOffset < to));
        }
    }

    /** An unclosed `/*` lexes as the tokens `/` and `*` next to each other; everything from there on is comment. */
    private cutAtUnclosedComment(result: LexerResult): void {
        const tokens = result.tokens;
        const index = tokens.findIndex((token, i) => token.image === '/' && tokens[i + 1]?.image === '*'
            && tokens[i + 1].startOffset === token.startOffset + 1);
        if (index < 0) {
            return;
        }
        const start = tokens[index];
        result.tokens = tokens.slice(0, index);
        result.hidden = result.hidden.filter(token => token.startOffset < start.startOffset);
        result.errors.push({
            offset: start.startOffset,
            length: 2,
            line: start.startLine,
            column: start.startColumn,
            message: unclosedCommentMessage,
        });
    }

    /** Splits `>>` / `>>>` that close nested type argument lists into single `>` tokens. */
    private splitTypeClosers(tokens: Token[]): Token[] {
        if (!tokens.some(token => token.image === '>>' || token.image === '>>>')) {
            return tokens;
        }
        const output: Token[] = [];
        let depth = 0;
        for (let i = 0; i < tokens.length; i++) {
            const token = tokens[i];
            const image = token.image;
            if (image === '<' && i > 0 && complexTypeKeywords.has(tokens[i - 1].image) && this.keywordTokenTypes.has(tokens[i - 1].tokenType)) {
                depth++;
            } else if (image === '>' && depth > 0) {
                depth--;
            } else if ((image === '>>' || image === '>>>') && depth > 0) {
                for (let k = 0; k < image.length; k++) {
                    output.push(this.singleGreaterThan(token, k));
                }
                depth = Math.max(0, depth - image.length);
                continue;
            }
            output.push(token);
        }
        return output;
    }

    private singleGreaterThan(token: Token, index: number): Token {
        return {
            ...token,
            image: '>',
            tokenType: this.greaterThan,
            tokenTypeIdx: this.greaterThan.tokenTypeIdx!,
            startOffset: token.startOffset + index,
            endOffset: token.startOffset + index,
            startColumn: token.startColumn === undefined ? undefined : token.startColumn + index,
            endColumn: token.startColumn === undefined ? undefined : token.startColumn + index,
        };
    }
}

/** Whether a token ends a statement (`;` or a notebook cell break). */
function isStatementEnd(token: Token): boolean {
    return token.tokenType.name === ';' || token.tokenType.name === 'CELL_BREAK';
}
