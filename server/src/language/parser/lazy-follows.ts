import type { IProduction, Rule, TokenType } from 'chevrotain';
import { setOwn } from '../../../../engine/src/records.js';
import {
    Alternation, type Alternative, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
    RepetitionWithSeparator, Terminal,
} from 'chevrotain';

/** How Chevrotain names the follow set of a rule call: `<called rule><occurrence>_~IN~_<calling rule>`. */
const inSeparator = '_~IN~_';

/**
 * The follow sets that Chevrotain's error recovery uses to resynchronise after a syntax error (its
 * `resyncFollows`: per rule call, the tokens that can come after it within the calling rule), computed
 * per calling rule on first use instead of for the whole grammar when the parser is built: a parser
 * that meets no syntax error never needs them, and computing them all is a tenth of its start-up.
 * The same walk as Chevrotain's `ResyncFollowsWalker`.
 */
export function lazyFollows(rules: Readonly<Record<string, Rule>>): Record<string, TokenType[]> {
    const computed = new Map<string, Record<string, TokenType[]>>();
    const followsIn = (ruleName: string): Record<string, TokenType[]> => {
        let follows = computed.get(ruleName);
        if (follows === undefined) {
            follows = {};
            const rule = Object.hasOwn(rules, ruleName) ? rules[ruleName] : undefined;
            if (rule) {
                walk(rule.definition, [], (call, rest) => {
                    setOwn(follows!, `${call.referencedRule.name}${call.idx}${inSeparator}${rule.name}`, first(rest));
                });
            }
            computed.set(ruleName, follows);
        }
        return follows;
    };
    return new Proxy({}, {
        get: (_, key) => {
            if (typeof key !== 'string') {
                return undefined;
            }
            const at = key.indexOf(inSeparator);
            const follows = at < 0 ? undefined : followsIn(key.slice(at + inSeparator.length));
            return follows && Object.hasOwn(follows, key) ? follows[key] : undefined;
        },
    });
}

/** Calls `visit` for every rule call in `definition`, with what can follow it up to the end of the rule. */
function walk(definition: readonly IProduction[], after: readonly IProduction[], visit: (call: NonTerminal, rest: IProduction[]) => void): void {
    definition.forEach((production, index) => {
        const rest = [...definition.slice(index + 1), ...after];
        if (production instanceof NonTerminal) {
            visit(production, rest);
        } else if (production instanceof Terminal) {
            // Nothing follows from a token.
        } else if (production instanceof Alternation) {
            for (const alternative of production.definition) {
                walk([alternative], rest, visit);
            }
        } else if (production instanceof RepetitionMandatory || production instanceof Repetition) {
            // (DE)+ F and (DE)* F: after the repetition's body, (DE)? F.
            walk((production as Repetition).definition, [new Option({ definition: (production as Repetition).definition }), ...rest], visit);
        } else if (production instanceof RepetitionMandatoryWithSeparator || production instanceof RepetitionWithSeparator) {
            // DE (, DE)* F: after the body, (, DE)? F.
            const repetition = production as RepetitionWithSeparator;
            const again = new Option({ definition: [new Terminal({ terminalType: repetition.separator }), ...repetition.definition] });
            walk(repetition.definition, [again, ...rest], visit);
        } else {
            // Alternative and Option: a sequence.
            walk((production as Alternative).definition, rest, visit);
        }
    });
}

/** The tokens a sequence of productions can start with (Chevrotain's `first` of a sequence). */
function first(sequence: readonly IProduction[]): TokenType[] {
    const tokens = new Set<TokenType>();
    for (const production of sequence) {
        collect(production, tokens);
        if (!isOptional(production, new Set())) {
            break;
        }
    }
    return [...tokens];
}

function collect(production: IProduction, into: Set<TokenType>): void {
    if (production instanceof Terminal) {
        into.add(production.terminalType);
    } else if (production instanceof NonTerminal) {
        for (const token of first(production.referencedRule.definition)) {
            into.add(token);
        }
    } else if (production instanceof Alternation) {
        for (const alternative of production.definition) {
            collect(alternative, into);
        }
    } else {
        for (const token of first((production as Alternative).definition)) {
            into.add(token);
        }
    }
}

/** Whether a production can match no token (Chevrotain's `isOptionalProd`). */
function isOptional(production: IProduction, visiting: Set<IProduction>): boolean {
    if (production instanceof Option || production instanceof Repetition || production instanceof RepetitionWithSeparator) {
        return true;
    }
    if (production instanceof Terminal) {
        return false;
    }
    if (production instanceof Alternation) {
        return production.definition.some(alternative => isOptional(alternative, visiting));
    }
    if (production instanceof NonTerminal) {
        if (visiting.has(production)) {
            return false;
        }
        visiting.add(production);
        return production.referencedRule.definition.every(child => isOptional(child, visiting));
    }
    return (production as Alternative).definition.every(child => isOptional(child, visiting));
}
