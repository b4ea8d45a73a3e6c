import type { GrammarAST, TokenBuilderOptions } from 'langium';
import { DefaultTokenBuilder } from 'langium';

type TokenType = ReturnType<DefaultTokenBuilder['buildTerminalToken']>;
type TokenVocabulary = ReturnType<DefaultTokenBuilder['buildTokens']>;

/**
 * Token builder (Langium's `TokenBuilder` service): Langium's, except that block comments nest as in
 * Spark (`/* a /* b *\/ c *\/` is one comment). A regular expression cannot count nesting, so the
 * `ML_COMMENT` terminal gets a small matcher function instead of its grammar regex.
 */
export class PipelineSqlTokenBuilder extends DefaultTokenBuilder {

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

    protected override buildTerminalToken(terminal: GrammarAST.TerminalRule): TokenType {
        const token = super.buildTerminalToken(terminal);
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
