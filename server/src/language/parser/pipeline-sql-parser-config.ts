import type { IProduction, OptionalProductionType } from 'chevrotain';
import {
    Alternation, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
    RepetitionWithSeparator, Terminal,
} from 'chevrotain';
import { LLStarLookaheadStrategy } from 'chevrotain-allstar';
import type { LangiumCoreServices } from 'langium';

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
 * The lookahead strategy: Langium's ALL(*) (from chevrotain-allstar) with two adjustments.
 *
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

    override buildLookaheadForAlternation(options: AlternationOptions): AlternationLookahead {
        const predict = super.buildLookaheadForAlternation(options);
        const alternation = findAlternation(options.rule.definition, options.prodOccurrence);
        if (alternation === undefined) {
            return predict;
        }
        const starters = alternation.definition.map(alternative => firstTokens(alternative, new Set()));
        return function (this: ThisParameterType<AlternationLookahead>, orAlts) {
            const prediction = predict.call(this, orAlts);
            if (prediction !== undefined) {
                return prediction;
            }
            const next = this.LA(1).tokenType.name;
            const fallback = starters.findIndex(names => names.has(next));
            return fallback >= 0 ? fallback : undefined;
        };
    }

    override buildLookaheadForOptional(options: OptionalOptions): OptionalLookahead {
        const fast = super.buildLookaheadForOptional(options);
        const candidates = sharedStarters[options.rule.name.replace(/\u200B$/, '')];
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
