import type { AstNode, CompletionParserResult, LangiumCoreServices, Lexer, LexerResult, Mutable, ParseResult, ParserOptions, TokenizeOptions } from 'langium';
import { createParser, GrammarAST, GrammarUtils, isAstNode, LangiumCompletionParser, LangiumParser } from 'langium';
import { DataTypeRules } from './data-type-rules.js';
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
        // Langium builds the tree of an operator chain by recursive splitting (quadratic, and as deep as the
        // chain is long); this builds the same tree in one pass.
        (this as unknown as { constructInfix: typeof constructInfix }).constructInfix = constructInfix;
        // Langium adds the comments before every token to the CST, and looks for where they go even
        // when there are none: a linear search in the parent's content, quadratic along a long chain.
        const builder = (this as unknown as LangiumParserInternals).nodeBuilder;
        const addHiddenNodes = builder.addHiddenNodes.bind(builder);
        builder.addHiddenNodes = tokens => {
            if (tokens.length > 0) {
                addHiddenNodes(tokens);
            }
        };
        // Langium asks, for each rule it builds, whether it is a data-type rule, walking every rule it
        // calls again each time; the answers come from one walk here. Langium's own answer is kept for
        // data-type rules (its marker of them is not exported), which it finds quickly.
        const internals = this as unknown as { computeRuleType(rule: GrammarAST.AbstractRule): unknown };
        const computeRuleType = internals.computeRuleType.bind(this);
        const dataTypeRules = new DataTypeRules();
        let dataTypeMarker: { value: unknown } | undefined;
        internals.computeRuleType = rule => {
            if (!GrammarAST.isParserRule(rule) || rule.fragment) {
                return computeRuleType(rule);
            }
            if (!dataTypeRules.isDataTypeRule(rule)) {
                return GrammarUtils.getTypeName(rule);
            }
            dataTypeMarker ??= { value: computeRuleType(rule) };
            return dataTypeMarker.value;
        };
    }

    /**
     * Langium's `parse`, except that the AST nodes are linked to their containers by a loop instead of
     * a recursion as deep as the tree (a 50,000-term `a + b + ...` is a tree that deep).
     */
    private parseOnce<T extends AstNode>(input: string, options: ParserOptions = {}): ParseResult<T> {
        const self = this as unknown as LangiumParserInternals;
        self.nodeBuilder.buildRootNode(input);
        const lexerResult = self.lexerResult = self.lexer.tokenize(input);
        self.wrapper.input = lexerResult.tokens;
        const ruleMethod = options.rule ? self.allRules.get(options.rule) : self.mainRule;
        if (!ruleMethod) {
            throw new Error(options.rule ? `No rule found with name '${options.rule}'` : 'No main rule available.');
        }
        const result = self.doParse(ruleMethod) as T;
        self.nodeBuilder.addHiddenNodes(lexerResult.hidden);
        self.unorderedGroups.clear();
        self.lexerResult = undefined;
        linkContainers(result);
        return { value: result, lexerErrors: lexerResult.errors, lexerReport: lexerResult.report, parserErrors: self.wrapper.errors };
    }

    override parse<T extends AstNode = AstNode>(input: string, options?: ParserOptions): ParseResult<T> {
        const forced = new Set<number>();
        try {
            for (;;) {
                this.nestingLexer.forced = forced;
                try {
                    return this.parseOnce<T>(input, options);
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
        const result = this.parseOnce<T>('', options);
        return { ...result, lexerErrors: [tooDeepError(first, false)] };
    }
}

/** The members of Langium's parser that {@link PipelineSqlParser.parseOnce} uses as Langium's `parse` does. */
interface LangiumParserInternals {
    nodeBuilder: { buildRootNode(input: string): unknown; addHiddenNodes(tokens: Token[]): void };
    lexerResult: LexerResult | undefined;
    lexer: Lexer;
    wrapper: { input: Token[]; errors: ParseResult['parserErrors'] };
    allRules: Map<string, unknown>;
    mainRule: unknown;
    unorderedGroups: Map<string, boolean[]>;
    doParse(rule: unknown): unknown;
}

/** Sets `$container`, `$containerProperty` and `$containerIndex` of every node under `root`, without recursion. */
function linkContainers(root: AstNode): void {
    const pending: AstNode[] = [root];
    for (let node = pending.pop(); node; node = pending.pop()) {
        for (const [name, value] of Object.entries(node)) {
            if (name.startsWith('$')) {
                continue;
            }
            if (Array.isArray(value)) {
                value.forEach((item: unknown, index) => {
                    if (isAstNode(item)) {
                        const child = item as Mutable<AstNode>;
                        child.$container = node;
                        child.$containerProperty = name;
                        child.$containerIndex = index;
                        pending.push(child);
                    }
                });
            } else if (isAstNode(value)) {
                const child = value as Mutable<AstNode>;
                child.$container = node;
                child.$containerProperty = name;
                pending.push(child);
            }
        }
    }
}

/** An operator chain as Langium's parser collects it: the operands and the operators between them. */
interface InfixChain {
    $type: string;
    $infixName: string;
    $cstNode?: unknown;
    parts?: unknown[];
    operators?: string[];
}

interface BinaryNode {
    $type: string;
    $cstNode?: unknown;
    left: unknown;
    operator: string;
    right: unknown;
}

/**
 * The tree of an operator chain (`a + b * c - d`), as Langium's `constructInfix` builds it (the same
 * nodes, each with the chain's CST node), by one shunting-yard pass instead of recursive splitting.
 * `AND` / `OR` chains become balanced trees, as Spark's parser builds them (`AstBuilder.visitLogicalBinary`:
 * "a balanced binary tree is created because regular left recursive construction creates a very
 * deep tree"); both operators are associative, so the value is the same.
 */
function constructInfix(chain: InfixChain, precedence: Map<string, { precedence: number; rightAssoc: boolean }>): unknown {
    const parts = chain.parts;
    if (!Array.isArray(parts) || parts.length === 0) {
        // A syntax error; Langium's answer too.
        return undefined;
    }
    const operators = chain.operators;
    if (!Array.isArray(operators) || parts.length < 2) {
        return parts[0];
    }
    const node = (left: unknown, operator: string, right: unknown): BinaryNode => ({ $type: chain.$type, $cstNode: chain.$cstNode, left, operator, right });
    if (operators.every(o => o === 'AND' || o === 'OR')) {
        // OR is looser: balanced ORs of balanced ANDs.
        const groups: unknown[][] = [[parts[0]]];
        operators.forEach((o, i) => (o === 'OR' ? groups.push([parts[i + 1]]) : groups.at(-1)!.push(parts[i + 1])));
        return balanced(groups.map(g => balanced(g, 'AND', node)), 'OR', node);
    }
    // Langium's precedence: a larger number binds more loosely.
    const rank = (o: string) => precedence.get(o) ?? { precedence: Infinity, rightAssoc: false };
    const output: unknown[] = [parts[0]];
    const pending: string[] = [];
    const reduce = (): void => {
        const right = output.pop();
        const left = output.pop();
        output.push(node(left, pending.pop()!, right));
    };
    operators.forEach((operator, i) => {
        const { precedence: p, rightAssoc } = rank(operator);
        while (pending.length > 0) {
            const top = rank(pending.at(-1)!).precedence;
            if (top < p || (top === p && !rightAssoc)) {
                reduce();
            } else {
                break;
            }
        }
        pending.push(operator);
        output.push(parts[i + 1]);
    });
    while (pending.length > 0) {
        reduce();
    }
    return output[0];
}

/** Spark's `reduceToExpressionTree`: operands combined pairwise from the middle, as deep as log2 of their count. */
function balanced(operands: unknown[], operator: string, node: (left: unknown, operator: string, right: unknown) => BinaryNode,
    low = 0, high = operands.length - 1): unknown {
    if (high === low) {
        return operands[low];
    }
    if (high - low === 1) {
        return node(operands[low], operator, operands[high]);
    }
    const mid = low + Math.floor((high - low) / 2);
    return node(balanced(operands, operator, node, low, mid), operator, balanced(operands, operator, node, mid + 1, high));
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
