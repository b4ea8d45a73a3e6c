import type { IProduction, Rule, TokenType } from 'chevrotain';
import {
    Alternation, Alternative, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
    RepetitionWithSeparator, Terminal,
} from 'chevrotain';

/** The tokens a part of the grammar can start with, and whether it can match no token at all. */
export interface First {
    tokens: ReadonlySet<TokenType>;
    nullable: boolean;
}

const empty: First = { tokens: new Set(), nullable: true };

/**
 * One-token lookahead sets of a Chevrotain grammar, each rule's computed once. They are the sets of
 * Chevrotain's `getLookaheadPaths` with `maxLookahead: 1`, which chevrotain-allstar asks for each
 * decision to tell whether one token decides it; that function recomputes the sets of every rule a
 * decision reaches, each time, and was a third of the first parse of a file. Chevrotain's two
 * particulars are kept: an empty alternative of a nested alternation is ignored (so the alternation
 * does not let the tokens after it through), and the tokens after an optional construct are those up to
 * the end of its rule. A test compares these sets with Chevrotain's for every decision of the grammar.
 */
export class FirstTokens {

    private readonly rules = new Map<Rule, First>();
    private readonly computing = new Set<Rule>();

    /** The first tokens of a sequence of productions. */
    ofSequence(productions: readonly IProduction[]): First {
        let tokens: Set<TokenType> | undefined;
        for (const production of productions) {
            const first = this.of(production);
            if (first.tokens.size > 0) {
                tokens ??= new Set();
                for (const token of first.tokens) {
                    tokens.add(token);
                }
            }
            if (!first.nullable) {
                return { tokens: tokens ?? new Set(), nullable: false };
            }
        }
        return tokens ? { tokens, nullable: true } : empty;
    }

    /** The first tokens of one production. */
    of(production: IProduction): First {
        if (production instanceof Terminal) {
            return { tokens: new Set([production.terminalType]), nullable: false };
        }
        if (production instanceof NonTerminal) {
            return this.ofRule(production.referencedRule);
        }
        if (production instanceof Alternative) {
            return this.ofSequence(production.definition);
        }
        if (production instanceof Alternation) {
            const tokens = new Set<TokenType>();
            let nullable = false;
            for (const alternative of production.definition) {
                if ((alternative as Alternative).definition.length === 0) {
                    continue;
                }
                const first = this.of(alternative);
                first.tokens.forEach(token => tokens.add(token));
                nullable ||= first.nullable;
            }
            return { tokens, nullable };
        }
        const inside = this.ofSequence((production as Option).definition);
        if (production instanceof RepetitionMandatoryWithSeparator || production instanceof RepetitionWithSeparator) {
            // A separator can start the construct only when its body can be empty.
            const tokens = inside.nullable ? new Set([...inside.tokens, production.separator]) : inside.tokens;
            return { tokens, nullable: production instanceof RepetitionWithSeparator || inside.nullable };
        }
        if (production instanceof RepetitionMandatory) {
            return inside;
        }
        if (production instanceof Option || production instanceof Repetition) {
            return { tokens: inside.tokens, nullable: true };
        }
        throw new Error(`Unknown grammar production ${production.constructor.name}.`);
    }

    private ofRule(rule: Rule): First {
        const known = this.rules.get(rule);
        if (known !== undefined) {
            return known;
        }
        if (this.computing.has(rule)) {
            // Only left recursion comes back here, which Chevrotain's grammar checks refuse.
            throw new Error(`Rule ${rule.name} is left-recursive.`);
        }
        this.computing.add(rule);
        try {
            const first = this.ofSequence(rule.definition);
            this.rules.set(rule, first);
            return first;
        } finally {
            this.computing.delete(rule);
        }
    }

    /**
     * The first tokens of what may follow `target` inside `rule` (Chevrotain's "rest" of an optional
     * construct: the rest of each enclosing sequence up to the end of the rule, a repetition's body not
     * counted again), or `undefined` when `target` is not in the rule's body.
     */
    after(rule: Rule, target: IProduction): First | undefined {
        const rests = restsAfter(rule.definition, target);
        return rests && this.ofSequence(rests.flat());
    }
}

/** The productions after `target` in each sequence that encloses it, innermost first. */
function restsAfter(definition: readonly IProduction[], target: IProduction): IProduction[][] | undefined {
    for (let i = 0; i < definition.length; i++) {
        const node = definition[i];
        const rest = definition.slice(i + 1);
        if (node === target) {
            return [rest];
        }
        if (node instanceof NonTerminal || node instanceof Terminal) {
            continue;
        }
        const children = node instanceof Alternation ? node.definition : [node];
        for (const child of children) {
            const inner = restsAfter((child as Option).definition, target);
            if (inner) {
                return [...inner, rest];
            }
        }
    }
    return undefined;
}

/** Whether no token (or token category) starts more than one of the sets. */
export function disjoint(sets: ReadonlyArray<ReadonlySet<TokenType>>): boolean {
    const owner = new Map<number, number>();
    for (let i = 0; i < sets.length; i++) {
        for (const token of sets[i]) {
            for (const index of [token.tokenTypeIdx!, ...(token.categoryMatches ?? [])]) {
                const other = owner.get(index);
                if (other !== undefined && other !== i) {
                    return false;
                }
                owner.set(index, i);
            }
        }
    }
    return true;
}

/** A table from token type index (and category) to the alternative it starts. */
export function ll1Table(sets: ReadonlyArray<ReadonlySet<TokenType>>): Map<number, number> {
    const table = new Map<number, number>();
    sets.forEach((set, alternative) => {
        for (const token of set) {
            table.set(token.tokenTypeIdx!, alternative);
            for (const category of token.categoryMatches ?? []) {
                table.set(category, alternative);
            }
        }
    });
    return table;
}
