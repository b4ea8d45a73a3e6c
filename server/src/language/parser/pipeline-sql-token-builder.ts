import type { GrammarAST, TokenBuilderOptions } from 'langium';
import { Lexer } from 'chevrotain';
import { DefaultTokenBuilder, RegExpUtils } from 'langium';

type TokenType = ReturnType<DefaultTokenBuilder['buildTerminalToken']>;
type TokenVocabulary = ReturnType<DefaultTokenBuilder['buildTokens']>;

/**
 * Token builder (Langium's `TokenBuilder` service): Langium's, except that block comments nest as in
 * Spark (`/* a /* b *\/ c *\/` is one comment). A regular expression cannot count nesting, so the
 * `ML_COMMENT` terminal gets a small matcher function instead of its grammar regex.
 *
 * It also builds the tokens faster: Langium finds the terminals a keyword may continue into (its
 * "longer alternatives", `select` into `selected`) by building a partial regular expression of each
 * terminal for each of the 450 keywords; here each terminal's is built once. And keyword tokens say
 * that they contain no line break and which characters they can start with, which Chevrotain's lexer
 * would otherwise find out by analysing each keyword's regular expression (most of its construction).
 */
export class PipelineSqlTokenBuilder extends DefaultTokenBuilder {

    private readonly partialPatterns = new Map<TokenType, RegExp | undefined>();

    override buildTokens(grammar: GrammarAST.Grammar, options?: TokenBuilderOptions): TokenVocabulary {
        const tokens = super.buildTokens(grammar, options) as TokenType[];
        // Langium links a keyword to the longer terminals its text can start by testing the terminals'
        // regular expressions; the comment matcher is a function, so `/` is linked to it here.
        const comment = tokens.find(token => token.name === 'ML_COMMENT');
        const slash = tokens.find(token => token.name === '/');
        if (comment && slash) {
            slash.LONGER_ALT = [comment, ...toArray(slash.LONGER_ALT)];
        }
        return tokens;
    }

    protected override buildKeywordToken(keyword: GrammarAST.Keyword, terminalTokens: TokenType[], caseInsensitive: boolean): TokenType {
        const token = super.buildKeywordToken(keyword, terminalTokens, caseInsensitive);
        if (token.LINE_BREAKS === undefined && !/[\r\n]/.test(keyword.value)) {
            token.LINE_BREAKS = false;
        }
        // The characters a keyword can start with, which Chevrotain's lexer would otherwise find by
        // parsing each keyword's regular expression (a third of the lexer's construction). An ASCII
        // letter of a case-insensitive keyword starts it in either case, any other character as it is.
        const first = keyword.value.charAt(0);
        if (token.PATTERN instanceof RegExp && /^[\x21-\x7e]$/.test(first)) {
            token.START_CHARS_HINT = token.PATTERN.ignoreCase ? [...new Set([first.toLowerCase(), first.toUpperCase()])] : [first];
        }
        return token;
    }

    /** The same test as Langium's (`partialMatches('^' + source + '$', keyword)`), with each terminal's partial pattern built once. */
    protected override findLongerAlt(keyword: GrammarAST.Keyword, terminalTokens: TokenType[]): TokenType[] {
        return terminalTokens.filter(token => {
            if (token.PATTERN === Lexer.NA) {
                return false;
            }
            if (!this.partialPatterns.has(token)) {
                const source = (token.PATTERN as RegExp | undefined)?.source;
                this.partialPatterns.set(token, source ? RegExpUtils.partialRegExp('^' + source + '$') : undefined);
            }
            const match = this.partialPatterns.get(token)?.exec(keyword.value);
            return !!match && match[0].length > 0;
        });
    }

    protected override buildTerminalToken(terminal: GrammarAST.TerminalRule): TokenType {
        const token = super.buildTerminalToken(terminal);
        if (terminal.name === 'CONFIG_VALUE') {
            // Made by the lexer from the tokens of a SET value, never matched in the text.
            token.PATTERN = Lexer.NA;
        }
        if (terminal.name === 'ML_COMMENT') {
            token.PATTERN = { exec: matchNestedBlockComment };
            token.START_CHARS_HINT = ['/'];
            token.LINE_BREAKS = true;
        }
        return token;
    }
}

/**
 * Matches a bracketed comment at `offset`, counting nested `/*` ... `*\/` pairs. An unclosed comment
 * does not match, so its `/` and `*` reach the parser and are reported there.
 */
export function matchNestedBlockComment(text: string, offset: number): [string] | null {
    if (text.charCodeAt(offset) !== 47 || text.charCodeAt(offset + 1) !== 42) {
        return null;
    }
    let depth = 0;
    let i = offset;
    while (i < text.length - 1) {
        if (text.charCodeAt(i) === 47 && text.charCodeAt(i + 1) === 42) {
            depth++;
            i += 2;
        } else if (text.charCodeAt(i) === 42 && text.charCodeAt(i + 1) === 47) {
            depth--;
            i += 2;
            if (depth === 0) {
                return [text.substring(offset, i)];
            }
        } else {
            i++;
        }
    }
    return null;
}

function toArray(alt: TokenType['LONGER_ALT']): TokenType[] {
    return alt === undefined ? [] : Array.isArray(alt) ? alt : [alt];
}
