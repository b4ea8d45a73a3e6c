import { AstUtils, GrammarAST } from 'langium';

/**
 * Which parser rules are data-type rules (rules that produce a string, not an AST node), as Langium's
 * `GrammarUtils.isDataTypeRule` decides it: no assignment, no action and no call of an infix rule or of
 * an unresolved rule in the rule or in any parser rule it calls, directly or not, and a rule body.
 * Langium walks every rule a rule calls again for each rule it asks about, which costs a tenth of the
 * parser's construction with this grammar; here each rule is walked once and each answer kept.
 */
export class DataTypeRules {

    /** Per rule: whether its own body rules it out, and the parser rules it calls. */
    private readonly local = new Map<GrammarAST.ParserRule, { bad: boolean; calls: GrammarAST.ParserRule[] }>();
    private readonly answers = new Map<GrammarAST.ParserRule, boolean>();

    isDataTypeRule(rule: GrammarAST.ParserRule): boolean {
        const known = this.answers.get(rule);
        if (known !== undefined) {
            return known;
        }
        // Every rule reachable from `rule` must be fine on its own; rules already answered `true` need no second look.
        const seen = new Set<GrammarAST.ParserRule>([rule]);
        const pending = [rule];
        let answer = true;
        for (let next = pending.pop(); next && answer; next = pending.pop()) {
            const { bad, calls } = this.localFacts(next);
            if (bad || this.answers.get(next) === false) {
                answer = false;
            } else if (next === rule || this.answers.get(next) !== true) {
                for (const called of calls) {
                    if (!seen.has(called)) {
                        seen.add(called);
                        pending.push(called);
                    }
                }
            }
        }
        this.answers.set(rule, answer);
        return answer;
    }

    private localFacts(rule: GrammarAST.ParserRule): { bad: boolean; calls: GrammarAST.ParserRule[] } {
        let facts = this.local.get(rule);
        if (facts === undefined) {
            facts = { bad: !rule.definition, calls: [] };
            for (const node of AstUtils.streamAllContents(rule)) {
                if (GrammarAST.isRuleCall(node)) {
                    const called = node.rule.ref;
                    if (!called || GrammarAST.isInfixRule(called)) {
                        facts.bad = true;
                    } else if (GrammarAST.isParserRule(called)) {
                        facts.calls.push(called);
                    }
                } else if (GrammarAST.isAssignment(node) || GrammarAST.isAction(node)) {
                    facts.bad = true;
                }
                if (facts.bad) {
                    break;
                }
            }
            this.local.set(rule, facts);
        }
        return facts;
    }
}
