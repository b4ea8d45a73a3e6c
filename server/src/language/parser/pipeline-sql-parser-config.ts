import type { Alternative, IProduction, OptionalProductionType } from 'chevrotain';
import {
    Alternation, Alternative as AlternativeProduction, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
    RepetitionWithSeparator, Rule, Terminal,
} from 'chevrotain';
import { LLStarLookaheadStrategy } from 'chevrotain-allstar';
import type { LangiumCoreServices } from 'langium';
import { disjoint, FirstTokens, ll1Table } from './first-tokens.js';

type OptionalOptions = Parameters<LLStarLookaheadStrategy['buildLookaheadForOptional']>[0];
type OptionalLookahead = ReturnType<LLStarLookaheadStrategy['buildLookaheadForOptional']>;
type AlternationOptions = Parameters<LLStarLookaheadStrategy['buildLookaheadForAlternation']>[0];
type AlternationLookahead = ReturnType<LLStarLookaheadStrategy['buildLookaheadForAlternation']>;

/** How many distinct lookahead-ambiguity reports are kept (they are for tests and debugging). */
const maxAmbiguityReports = 100;

/**
 * Ambiguities met by the ALL(*) lookahead while parsing: input where two alternatives of one grammar
 * decision both fit, and the parser took the first. Langium's default strategy prints them with
 * `console.log`, which would corrupt an LSP stdio stream; here they are collected instead. The
 * corpus and Spark agreement tests assert that none occur there.
 */
export const lookaheadAmbiguities: string[] = [];

/**
 * Per grammar rule, tokens that start an optional construct at the end of that rule but can also
 * follow the rule in valid SQL, so one token of lookahead is not enough to decide whether to enter the
 * construct: `IGNORE NULLS` after a call versus the AUTO CDC clause `IGNORE NULL UPDATES` after
 * `SEQUENCE BY f(x)`; the predicate `NOT IN|LIKE|BETWEEN` versus `DEFAULT 0 NOT NULL`; the sign of a
 * further interval part (`INTERVAL 1 DAY -2 HOURS`) versus a subtraction (`INTERVAL 1 DAY - x`).
 */
const sharedStarters: Readonly<Record<string, ReadonlySet<string>>> = {
    ColumnOrFunctionCall: new Set(['IGNORE']),
    PredicateExpression: new Set(['NOT']),
    IntervalLiteral: new Set(['-', '+']),
};

/**
 * Special forms that share their first two tokens with an ordinary call (`substring(s FROM 1)` and
 * `substring(s, 1)`), by grammar rule, with the keyword that tells them apart inside the parentheses.
 */
const specialFormKeywords: Readonly<Record<string, string>> = {
    SubstringExpression: 'FROM',
    TrimExpression: 'FROM',
    PositionExpression: 'IN',
    OverlayExpression: 'PLACING',
};

/**
 * Tokens that continue a query after a parenthesised query and can never follow an expression inside
 * parentheses: `((SELECT 1) UNION (SELECT 2))`, `((SELECT a FROM t) ORDER BY a LIMIT 1)`.
 */
const queryContinuations: ReadonlySet<string> = new Set([
    'UNION', 'EXCEPT', 'MINUS', 'INTERSECT', '|>', 'ORDER', 'CLUSTER', 'DISTRIBUTE', 'SORT', 'WINDOW', 'LIMIT', 'OFFSET',
]);

/** The rule whose alternatives after `(` are a query or something else. */
const queryRule = 'Query';

/**
 * What a parenthesised group holds, as far as a choice between a query and an expression goes; `unknown`
 * when its first word can start either (`TABLE t` is a query, `table.*` an expression).
 */
type GroupContent = 'query' | 'other' | 'either' | 'unknown';

/** What the lookahead strategy knows of one parser's grammar, computed on the first prediction. */
interface GrammarAnalysis {
    rules: Parameters<LLStarLookaheadStrategy['initialize']>[0]['rules'];
    /** One-token lookahead sets, each rule's computed once. */
    first: FirstTokens;
    allStar?: { atn: unknown; dfas: unknown };
    /** Tokens that start a query and no expression (`SELECT`, `WITH`, `FROM`, `VALUES`). */
    queryStarters?: ReadonlySet<string>;
    /** Tokens other than `(` that start both a query and an expression (`TABLE`). */
    sharedQueryStarters?: ReadonlySet<string>;
}

/** ALL(*)'s automaton and prediction caches, which chevrotain-allstar keeps in two private fields. */
interface AllStarState {
    atn: unknown;
    dfas: unknown;
}

/** An alternative that is a query after a fixed run of tokens: `(` Query, `EXISTS (` Query, or Query itself. */
interface QueryAlternative {
    index: number;
    /** The token names before the query. */
    prefix: string[];
}

/** An alternative that is a special form of a call (`SUBSTRING (` ... `FROM` ...). */
interface SpecialFormAlternative {
    index: number;
    starters: ReadonlySet<string>;
    keyword: string;
}

/**
 * The lookahead strategy: Langium's ALL(*) (from chevrotain-allstar) with three adjustments.
 *
 * - Bounded choices where ALL(*) would scan ahead without bound. chevrotain-allstar simulates every
 *   alternative with its full rule stack, so a choice it cannot make within a few tokens costs time
 *   that grows with the input it scans, and exponentially with the nesting in it. The grammar is
 *   left-factored so that most choices starting with `(` are made within a few tokens. Two kinds of
 *   choice remain where the grammar cannot factor the common part out without changing the tree, and
 *   they are decided here by a linear scan of the tokens, not by simulating the grammar:
 *   - a query or something else in parentheses when the parenthesis is followed by another `(`
 *     (`((SELECT 1) UNION (SELECT 2))` against `((SELECT 1) + 1)` and `(((a + 1) * 2))`): the run of
 *     `(` is skipped; unless a query keyword follows it, the group is no query; otherwise the token
 *     after the first inner group tells (a set operator, ORDER BY or LIMIT continue a query);
 *   - a special form against an ordinary call with the same name (`substring(s FROM 1)` against
 *     `substring(s, 1)`): the special form's keyword at the top level of the parentheses tells.
 *   When the scan rules an alternative out, ALL(*) chooses among the others (within a few tokens).
 * - ALL(*) decides most optional constructs by their first token. When that token is one of the
 *   {@link sharedStarters} of the rule, the full prediction runs instead, so the construct is entered only when the
 *   input really continues it. Other tokens keep the one-token decision, which commits early and so
 *   reports a mistake inside the construct where it is.
 * - When no alternative of a choice fits the input, ALL(*) gives up at the first token of the choice,
 *   and the syntax error would be reported there, possibly far before the real mistake (`WHERE (;`
 *   would be reported at `(`). Instead the first alternative that can start with that token is taken,
 *   so the parser goes on and reports the token that does not fit.
 */
export class PipelineSqlLookaheadStrategy extends LLStarLookaheadStrategy {

    /** The grammar of the parser being built (the last `initialize`), analysed on first use. */
    private grammar?: GrammarAnalysis;

    /**
     * Chevrotain calls this once per parser, before it asks for the lookahead function of every choice.
     * The analysis (ALL(*)'s automaton, the query starters) waits for the first prediction.
     */
    override initialize(options: Parameters<LLStarLookaheadStrategy['initialize']>[0]): void {
        this.grammar = { rules: options.rules, first: new FirstTokens() };
    }

    /**
     * The lookahead function of a choice, built on its first call: a parser predicts only the choices
     * the input reaches, so most of the grammar's 2,000 choices never need one, and start-up is faster.
     */
    override buildLookaheadForAlternation(options: AlternationOptions): AlternationLookahead {
        const grammar = this.grammar!;
        let lookahead: AlternationLookahead | undefined;
        return (parser => function (this: ThisParameterType<AlternationLookahead>, orAlts) {
            lookahead ??= parser.withGrammar(grammar, () => parser.alternationLookahead(options, grammar));
            return lookahead.call(this, orAlts);
        })(this);
    }

    override buildLookaheadForOptional(options: OptionalOptions): OptionalLookahead {
        const grammar = this.grammar!;
        let lookahead: OptionalLookahead | undefined;
        return (parser => function (this: ThisParameterType<OptionalLookahead>) {
            lookahead ??= parser.withGrammar(grammar, () => parser.optionalLookahead(options, grammar));
            return lookahead.call(this);
        })(this);
    }

    /**
     * Runs `build` with ALL(*)'s state for `grammar` (the strategy is shared by the parser and the
     * completion parser, each with its own grammar objects).
     */
    private withGrammar<T>(grammar: GrammarAnalysis, build: () => T): T {
        const state = this as unknown as AllStarState;
        if (grammar.allStar === undefined) {
            super.initialize({ rules: grammar.rules });
            grammar.allStar = { atn: state.atn, dfas: state.dfas };
            const query = grammar.rules.find(rule => ruleName(rule.name) === queryRule);
            const expression = grammar.rules.find(rule => ruleName(rule.name) === 'Expression');
            const inExpression = expression ? firstTokens(new NonTerminal({ nonTerminalName: expression.name, referencedRule: expression }), new Set()) : new Set();
            const starters = query ? firstTokens(new NonTerminal({ nonTerminalName: query.name, referencedRule: query }), new Set()) : new Set<string>();
            grammar.queryStarters = new Set([...starters].filter(name => name !== '(' && !inExpression.has(name)));
            grammar.sharedQueryStarters = new Set([...starters].filter(name => name !== '(' && inExpression.has(name)));
        }
        state.atn = grammar.allStar.atn;
        state.dfas = grammar.allStar.dfas;
        return build();
    }

    /**
     * chevrotain-allstar's lookahead of a choice that one token decides: a table from the next token
     * to the alternative, as the base class builds it, from {@link FirstTokens} (the base class finds the
     * same sets by Chevrotain's `getLookaheadPaths`, which walks every rule the choice reaches each
     * time). `undefined` when one token does not decide, or an alternative can be empty: the base class
     * then decides.
     */
    private ll1Alternation(options: AlternationOptions, grammar: GrammarAnalysis, alternation: Alternation | undefined): AlternationLookahead | undefined {
        if (alternation === undefined || options.dynamicTokensEnabled) {
            return undefined;
        }
        const firsts = alternation.definition.map(alternative => grammar.first.of(alternative));
        const sets = firsts.map(first => first.tokens);
        if (firsts.some(first => first.nullable)) {
            return undefined;
        }
        if (!disjoint(sets)) {
            return this.allStarAlternation(options);
        }
        const table = ll1Table(sets);
        if (options.hasPredicates) {
            return function (this: ThisParameterType<AlternationLookahead>, orAlts) {
                const prediction = table.get(this.LA(1).tokenTypeIdx);
                const gate = prediction === undefined ? undefined : orAlts?.[prediction]?.GATE;
                return gate !== undefined && gate.call(this) === false ? undefined : prediction;
            };
        }
        return function (this: ThisParameterType<AlternationLookahead>) {
            return table.get(this.LA(1).tokenTypeIdx);
        };
    }

    /** As {@link ll1Alternation}, for an optional construct: whether the next token starts it. */
    private ll1Optional(options: OptionalOptions, grammar: GrammarAnalysis): OptionalLookahead | undefined {
        const production = findProduction(options.rule.definition, options.prodType, options.prodOccurrence);
        if (production === undefined || options.dynamicTokensEnabled) {
            return undefined;
        }
        const inside = grammar.first.ofSequence((production as Option).definition);
        const after = grammar.first.after(options.rule, production);
        // With tokens that can both start the construct and follow it, the base class's verdict depends
        // on the order in which Chevrotain lists the paths after it; it decides those.
        if (after === undefined || inside.nullable || inside.tokens.size === 0) {
            return undefined;
        }
        if (!disjoint([inside.tokens, after.tokens])) {
            return after.nullable ? undefined : this.allStarOptional(options);
        }
        const table = ll1Table([inside.tokens]);
        return function (this: ThisParameterType<OptionalLookahead>) {
            return table.has(this.LA(1).tokenTypeIdx);
        };
    }

    /**
     * The base class's ALL(*) prediction of a choice that one token does not decide. The base class
     * would first compute the choice's one-token paths to find that out; it is given a stand-in rule
     * of the same name whose choice has two empty alternatives, which it finds undecidable by one token
     * at once. The prediction itself uses only the name, kind and occurrence of the choice (its place
     * in the grammar's automaton), not the rule's body.
     */
    private allStarAlternation(options: AlternationOptions): AlternationLookahead {
        const stub = new Rule({
            name: options.rule.name,
            definition: [new Alternation({ idx: options.prodOccurrence, definition: [new AlternativeProduction({ definition: [] }), new AlternativeProduction({ definition: [] })] })],
        });
        return super.buildLookaheadForAlternation({ ...options, rule: stub });
    }

    /** As {@link allStarAlternation}, for an optional construct (an empty one, which one token cannot decide). */
    private allStarOptional(options: OptionalOptions): OptionalLookahead | undefined {
        const kinds: Partial<Record<OptionalProductionType, new (options: { idx: number; definition: IProduction[] }) => IProduction>> = {
            Option, Repetition, RepetitionMandatory,
        };
        const kind = kinds[options.prodType];
        if (kind === undefined) {
            return undefined;
        }
        const stub = new Rule({ name: options.rule.name, definition: [new kind({ idx: options.prodOccurrence, definition: [] })] });
        return super.buildLookaheadForOptional({ ...options, rule: stub });
    }

    private alternationLookahead(options: AlternationOptions, grammar: GrammarAnalysis): AlternationLookahead {
        const alternation = findAlternation(options.rule.definition, options.prodOccurrence);
        const predict = this.ll1Alternation(options, grammar, alternation) ?? super.buildLookaheadForAlternation(options);
        if (alternation === undefined) {
            return predict;
        }
        // The token names each alternative can start with; most choices never need them.
        let startersOfAlternatives: Array<Set<string>> | undefined;
        const alternativeStarters = (): Array<Set<string>> =>
            (startersOfAlternatives ??= alternation.definition.map(alternative => firstTokens(alternative, new Set())));
        const queries: QueryAlternative[] = [];
        const specialForms: SpecialFormAlternative[] = [];
        alternation.definition.forEach((production, index) => {
            const alternative = production as Alternative;
            const prefix = queryPrefix(alternative.definition);
            if (prefix !== undefined && alternativeStarters().some((names, other) => other !== index && names.has(prefix[0] ?? '('))) {
                queries.push({ index, prefix });
            }
            const only = alternative.definition.length === 1 ? alternative.definition[0] : undefined;
            if (only instanceof NonTerminal && Object.hasOwn(specialFormKeywords, ruleName(only.nonTerminalName))) {
                specialForms.push({ index, starters: alternativeStarters()[index], keyword: specialFormKeywords[ruleName(only.nonTerminalName)] });
            }
        });
        const bounded = queries.length > 0 || specialForms.length > 0;
        const withGates = { ...options, hasPredicates: true };
        const predictWithGates = bounded ? this.ll1Alternation(withGates, grammar, alternation) ?? super.buildLookaheadForAlternation(withGates) : undefined;
        const starterSets = { query: grammar.queryStarters!, shared: grammar.sharedQueryStarters! };
        return function (this: ThisParameterType<AlternationLookahead>, orAlts) {
            let prediction: number | undefined;
            if (bounded) {
                const token: TokenName = i => this.LA(i).tokenType.name;
                const excluded = new Set<number>();
                const next = token(1);
                for (const query of queries) {
                    if (!query.prefix.every((name, i) => token(i + 1) === name)) {
                        continue;
                    }
                    const content = groupContent(token, query.prefix.length + 1, starterSets);
                    if (content === 'unknown') {
                        continue;
                    }
                    const firstOther = alternativeStarters().findIndex((names, index) => index !== query.index && names.has(next));
                    if (content === 'query' || (content === 'either' && query.index < firstOther)) {
                        return query.index;
                    }
                    excluded.add(query.index);
                }
                for (const form of specialForms) {
                    if (form.starters.has(next) && token(2) === '(') {
                        if (hasTopLevelKeyword(token, 3, form.keyword)) {
                            return form.index;
                        }
                        excluded.add(form.index);
                    }
                }
                if (excluded.size > 0) {
                    const gates = alternation.definition.map((_, index) => ({ ALT: () => undefined, GATE: excluded.has(index) ? () => false : undefined }));
                    prediction = predictWithGates!.call(this, gates);
                } else {
                    prediction = predict.call(this, orAlts);
                }
            } else {
                prediction = predict.call(this, orAlts);
            }
            if (prediction !== undefined) {
                return prediction;
            }
            const next = this.LA(1).tokenType.name;
            const fallback = alternativeStarters().findIndex(names => names.has(next));
            return fallback >= 0 ? fallback : undefined;
        };
    }

    private optionalLookahead(options: OptionalOptions, grammar: GrammarAnalysis): OptionalLookahead {
        const fast = this.ll1Optional(options, grammar) ?? super.buildLookaheadForOptional(options);
        const name = ruleName(options.rule.name);
        const candidates = Object.hasOwn(sharedStarters, name) ? sharedStarters[name] : undefined;
        const production = candidates && findProduction(options.rule.definition, options.prodType, options.prodOccurrence);
        const starters = production ? [...firstTokens(production, new Set())].filter(name => candidates.has(name)) : [];
        if (starters.length === 0) {
            return fast;
        }
        // `dynamicTokensEnabled` is how the base class is told not to take its one-token shortcut.
        const full = super.buildLookaheadForOptional({ ...options, dynamicTokensEnabled: true });
        const ambiguous = new Set(starters);
        return function (this: ThisParameterType<OptionalLookahead>) {
            return ambiguous.has(this.LA(1).tokenType.name) ? full.call(this) : fast.call(this);
        };
    }
}

/**
 * The parser configuration (Langium's `ParserConfig` service): the lookahead strategy above, with
 * ambiguity reports collected in {@link lookaheadAmbiguities}, and `maxLookahead: 1`. The latter only
 * bounds the token paths Chevrotain computes to describe a syntax error; with a large `OR` such as the
 * primary-expression rule, the default depth of 3 made one error message cost tens of seconds.
 */
export function createPipelineSqlParserConfig(): NonNullable<LangiumCoreServices['parser']['ParserConfig']> {
    return {
        maxLookahead: 1,
        lookaheadStrategy: new PipelineSqlLookaheadStrategy({
            logging: message => {
                if (lookaheadAmbiguities.length < maxAmbiguityReports) {
                    lookaheadAmbiguities.push(message);
                }
            },
        }),
    };
}

/** Chevrotain's production classes for the optional production types. */
const productionClasses: Record<OptionalProductionType, abstract new (...args: never[]) => IProduction> = {
    Option,
    Repetition,
    RepetitionMandatory,
    RepetitionMandatoryWithSeparator,
    RepetitionWithSeparator,
};

/** Finds the optional production of a type and occurrence index in a rule body (not in called rules). */
function findProduction(definition: readonly IProduction[], type: OptionalProductionType, occurrence: number): IProduction | undefined {
    for (const node of definition) {
        if (node instanceof productionClasses[type] && (node as Option).idx === occurrence) {
            return node;
        }
        if (!(node instanceof NonTerminal) && !(node instanceof Terminal)) {
            const found = findProduction((node as Option).definition, type, occurrence);
            if (found !== undefined) {
                return found;
            }
        }
    }
    return undefined;
}

/** Finds the alternation with an occurrence index in a rule body (not in called rules). */
function findAlternation(definition: readonly IProduction[], occurrence: number): Alternation | undefined {
    for (const node of definition) {
        if (node instanceof Alternation && node.idx === occurrence) {
            return node;
        }
        if (!(node instanceof NonTerminal) && !(node instanceof Terminal)) {
            const found = findAlternation((node as Option).definition, occurrence);
            if (found !== undefined) {
                return found;
            }
        }
    }
    return undefined;
}

/** The token names a production can start with. */
function firstTokens(node: IProduction, visiting: Set<IProduction>): Set<string> {
    const result = new Set<string>();
    collectFirst(node, result, visiting);
    return result;
}

/** Adds the first tokens of `node`; returns whether it can match nothing. */
function collectFirst(node: IProduction, into: Set<string>, visiting: Set<IProduction>): boolean {
    if (node instanceof Terminal) {
        into.add(node.terminalType.name);
        return false;
    }
    if (node instanceof NonTerminal) {
        if (visiting.has(node)) {
            return false;
        }
        visiting.add(node);
        return collectSequence(node.referencedRule.definition, into, visiting);
    }
    if (node instanceof Alternation) {
        let nullable = false;
        for (const alternative of node.definition) {
            nullable = collectFirst(alternative, into, visiting) || nullable;
        }
        return nullable;
    }
    const children = (node as Option).definition;
    const nullable = collectSequence(children, into, visiting);
    return nullable || node instanceof Option || node instanceof Repetition || node instanceof RepetitionWithSeparator;
}

function collectSequence(nodes: readonly IProduction[], into: Set<string>, visiting: Set<IProduction>): boolean {
    for (const child of nodes) {
        if (!collectFirst(child, into, visiting)) {
            return false;
        }
    }
    return true;
}

/** A grammar rule's name as written (Langium appends a zero-width space to the names it gives Chevrotain). */
function ruleName(name: string): string {
    return name.replace(/\u200B$/, '');
}

/**
 * The token names before a query at the start of an alternative (`(` for `'(' query=Query ')'`, none
 * for `query=Query`), looking into the rules it starts with; `undefined` when it does not start that way.
 */
function queryPrefix(definition: readonly IProduction[], depth = 0): string[] | undefined {
    const prefix: string[] = [];
    for (const node of definition) {
        if (node instanceof Terminal) {
            prefix.push(node.terminalType.name);
        } else if (node instanceof NonTerminal && ruleName(node.nonTerminalName) === queryRule) {
            return prefix;
        } else if (node instanceof NonTerminal && prefix.length === 0 && depth < 3) {
            return queryPrefix(node.referencedRule.definition, depth + 1);
        } else {
            return undefined;
        }
    }
    return undefined;
}

/** The name of the token type at a lookahead offset (1 is the next token). */
type TokenName = (offset: number) => string;

/**
 * What the group that starts at token `offset` (just inside a `(`) holds: a query, something else, or
 * either (`((SELECT 1))` reads the same as a query or as an expression). A linear scan of the tokens.
 */
function groupContent(token: TokenName, offset: number, starters: { query: ReadonlySet<string>; shared: ReadonlySet<string> }): GroupContent {
    let i = offset;
    while (token(i) === '(') {
        i++;
    }
    const first = token(i);
    if (starters.shared.has(first)) {
        return 'unknown';
    }
    if (!starters.query.has(first)) {
        return 'other';
    }
    if (i === offset) {
        return 'query';
    }
    const close = matchingParenthesis(token, offset);
    if (close === undefined) {
        return 'query';
    }
    const after = token(close + 1);
    return queryContinuations.has(after) ? 'query' : after === ')' ? 'either' : 'other';
}

/** The offset of the `)` that closes the `(` at `offset`, or `undefined` at the end of the input. */
function matchingParenthesis(token: TokenName, offset: number): number | undefined {
    let depth = 0;
    for (let i = offset; ; i++) {
        const name = token(i);
        if (name === '(') {
            depth++;
        } else if (name === ')') {
            depth--;
            if (depth === 0) {
                return i;
            }
        } else if (name === 'EOF' || name === ';') {
            return undefined;
        }
    }
}

/** Whether `keyword` stands at the top level of the parentheses whose contents start at token `offset`. */
function hasTopLevelKeyword(token: TokenName, offset: number, keyword: string): boolean {
    let depth = 0;
    for (let i = offset; ; i++) {
        const name = token(i);
        if (name === '(') {
            depth++;
        } else if (name === ')') {
            if (depth === 0) {
                return false;
            }
            depth--;
        } else if (name === 'EOF' || name === ';') {
            return false;
        } else if (depth === 0 && name === keyword && !(keyword === 'FROM' && token(i - 1) === 'DISTINCT')) {
            return true;
        }
    }
}
