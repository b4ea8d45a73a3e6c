import { DefaultLexerErrorMessageProvider } from 'langium';

/**
 * Lexer error messages (Langium's `LexerErrorMessageProvider` service) in plain words. The lexer
 * reports a character where no token starts; the usual causes are an unterminated string or name.
 */
export class PipelineSqlLexerErrorMessageProvider extends DefaultLexerErrorMessageProvider {

    override buildUnexpectedCharactersMessage(fullText: string, startOffset: number): string {
        const char = fullText.charAt(startOffset);
        switch (char) {
            case '\'':
            case '"':
                return `Unterminated string: no closing ${char} before the end of the file.`;
            case '`':
                return 'Unterminated back-quoted name: no closing ` before the end of the file.';
            default:
                return `Unexpected character '${char}'.`;
        }
    }
}

/** The message for a `/*` comment that is never closed (Spark's UNCLOSED_BRACKETED_COMMENT). */
export const unclosedCommentMessage = 'Unterminated comment: no closing */ for this /*.';
