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
 */
export class PipelineSqlLexer extends DefaultLexer {

    private readonly keywordTokenTypes: ReadonlySet<TokenType>;
    private readonly greaterThan: TokenType;

    constructor(services: LangiumCoreServices) {
        super(services);
        const terminalNames = new Set(services.Grammar.rules.filter(GrammarAST.isTerminalRule).map(rule => rule.name));
        this.keywordTokenTypes = new Set(Object.values(this.definition).filter(type => !terminalNames.has(type.name)));
        this.greaterThan = this.definition['>'];
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
        return result;
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
