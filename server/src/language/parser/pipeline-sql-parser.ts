import type { AstNode, CompletionParserResult, LangiumCoreServices, Lexer, LexerResult, ParseResult, ParserOptions, TokenizeOptions } from 'langium';
import { createParser, LangiumCompletionParser, LangiumParser } from 'langium';
import { lazyFollows } from './lazy-follows.js';
import { cutTooDeepStatements, nestedTooDeeplyMessage } from './nesting-limit.js';

type LexingError = LexerResult['errors'][number];
type Token = LexerResult['tokens'][number];

/** How many statements of one file may run the parser out of stack before the whole file is given up. */
const maxOverflowRetries = 8;

/**
 * The parser (Langium's `LangiumParser` service): Langium's, reading its tokens through
 * {@link NestingLimitLexer}, so that a statement nested more deeply than the recursive-descent parser
 * can take becomes a "nested too deeply" error at the place the deep expression starts, and the other
 * statements of the file parse as usual. Should the parser still run out of stack (on input the
 * nesting count lets through, or with a smaller stack than Node's default), the statement it was in
 * is cut the same way and the file parsed again.
 */
export class PipelineSqlParser extends LangiumParser {

    private readonly nestingLexer: NestingLimitLexer;

    constructor(services: LangiumCoreServices) {
        super(services);
        this.nestingLexer = new NestingLimitLexer(services.parser.Lexer);
        // Langium's parser tokenizes through its protected `lexer`; only the parser sees the cut.
        (this as unknown as { lexer: Lexer }).lexer = this.nestingLexer;
    }

    override parse<T extends AstNode = AstNode>(input: string, options?: ParserOptions): ParseResult<T> {
        const forced = new Set<number>();
        try {
            for (;;) {
                this.nestingLexer.forced = forced;
                try {
                    return super.parse<T>(input, options);
                } catch (error) {
                    if (!(error instanceof RangeError)) {
                        this.discardPartialParse();
                        throw error;
                    }
                    // Langium keeps the AST nodes under construction on a stack that the exception leaves filled.
                    (this as unknown as { stack: unknown[] }).stack = [];
                    const at = this.nestingLexer.lastTokens[(this.wrapper as unknown as { currIdx: number }).currIdx + 1];
                    if (at === undefined || forced.has(at.startOffset) || forced.size >= maxOverflowRetries) {
                        return this.giveUp<T>(input, options);
                    }
                    forced.add(at.startOffset);
                }
            }
        } finally {
            this.nestingLexer.forced = new Set();
        }
    }

    /**
     * Forgets what a parse that threw left behind (Langium's node stack, the unordered groups, the
     * tokens): else every later parse of any document returns a stale node as its root or fails with
     * "Parser stack is not empty after parsing".
     */
    private discardPartialParse(): void {
        const state = this as unknown as { stack: AstNode[]; lexerResult?: unknown };
        state.stack.length = 0;
        state.lexerResult = undefined;
        this.unorderedGroups.clear();
    }

    /** The result for a file the parser cannot take at all: no statements, the nesting error at its start. */
    private giveUp<T extends AstNode>(input: string, options?: ParserOptions): ParseResult<T> {
        (this as unknown as { stack: unknown[] }).stack = [];
        this.nestingLexer.forced = new Set();
        const first = this.nestingLexer.tokenize(input).tokens[0];
        const result = super.parse<T>('', options);
        return { ...result, lexerErrors: [tooDeepError(first, false)] };
    }
}

/** Chevrotain's parser state that {@link finalizeWithLazyFollows} adjusts. */
interface RecoveryState {
    recoveryEnabled: boolean;
    resyncFollows: unknown;
    gastProductionsCache: Parameters<typeof lazyFollows>[0];
}

/**
 * Finalizes a parser (Chevrotain's self-analysis) without computing the follow sets of error recovery,
 * which {@link lazyFollows} then computes per rule when recovery first needs them.
 */
function finalizeWithLazyFollows(parser: LangiumParser | LangiumCompletionParser): void {
    const wrapper = (parser as unknown as { wrapper: RecoveryState }).wrapper;
    const recovery = wrapper.recoveryEnabled;
    wrapper.recoveryEnabled = false;
    try {
        parser.finalize();
    } finally {
        wrapper.recoveryEnabled = recovery;
    }
    if (recovery) {
        wrapper.resyncFollows = lazyFollows(wrapper.gastProductionsCache);
    }
}

/** Creates and finalizes the parser, as Langium's `createLangiumParser` does for its own. */
export function createPipelineSqlParser(services: LangiumCoreServices): PipelineSqlParser {
    const parser = new PipelineSqlParser(services);
    createParser(services.Grammar, parser, services.parser.Lexer.definition);
    finalizeWithLazyFollows(parser);
    return parser;
}

/**
 * The completion parser (Langium's `CompletionParser` service): Langium's, except that a statement
 * prefix nested more deeply than it can take gives no grammar context instead of a stack overflow.
 */
export class PipelineSqlCompletionParser extends LangiumCompletionParser {

    override parse(input: string): CompletionParserResult {
        try {
            return super.parse(input);
        } catch (error) {
            if (!(error instanceof RangeError)) {
                throw error;
            }
            return { tokens: [], elementStack: [], tokenIndex: 0 };
        }
    }
}

/** Creates and finalizes the completion parser, as Langium's `createCompletionParser` does. */
export function createPipelineSqlCompletionParser(services: LangiumCoreServices): PipelineSqlCompletionParser {
    const parser = new PipelineSqlCompletionParser(services);
    createParser(services.Grammar, parser, services.parser.Lexer.definition);
    finalizeWithLazyFollows(parser);
    return parser;
}

/**
 * The parser's view of the lexer: the tokens of the lexer service without the statements that nest
 * too deeply (see {@link cutTooDeepStatements}), with an error for each.
 */
class NestingLimitLexer implements Lexer {

    /** Offsets of tokens where the parser ran out of stack: their statements are cut too. */
    forced: ReadonlySet<number> = new Set();
    /** The tokens of the last `tokenize`, as the parser got them. */
    lastTokens: Token[] = [];

    constructor(private readonly lexer: Lexer) {}

    get definition(): Lexer['definition'] {
        return this.lexer.definition;
    }

    tokenize(text: string, options?: TokenizeOptions): LexerResult {
        const result = this.lexer.tokenize(text, options);
        const { tokens, cut } = cutTooDeepStatements(result.tokens, this.forced);
        this.lastTokens = tokens;
        if (cut.length === 0) {
            return result;
        }
        return { ...result, tokens, errors: [...result.errors, ...cut.map(({ start, counted }) => tooDeepError(start, counted))] };
    }
}

function tooDeepError(at: Token | undefined, counted: boolean): LexingError {
    return {
        offset: at?.startOffset ?? 0, length: at?.image.length ?? 0, line: at?.startLine, column: at?.startColumn,
        message: nestedTooDeeplyMessage(counted),
    };
}
