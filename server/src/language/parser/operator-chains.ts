/**
 * Operator chains in the AST. The parser builds `a + b + ... + z` as a left-deep tree of binary
 * expressions, as deep as the chain is long (AND / OR chains are balanced, as in Spark), so code that
 * walks from a node up to its clause or query must not do it once per node of a long chain.
 */
import type { AstNode } from 'langium';
import * as ast from '../generated/ast.js';

/** The topmost binary expression above each binary expression, for the chains already walked. */
const chainTops = new WeakMap<AstNode, AstNode>();

/**
 * The node from which a walk up the containers of `node` leaves its operator chain: the topmost of
 * the binary expressions that contain it directly one in another, or `node` itself when its container
 * is no binary expression. What a node sees (its query scope, its clause) is what that node sees.
 * Amortised constant time: the walk is remembered for every binary expression it passes.
 */
export function operatorChainTop(node: AstNode): AstNode {
    const passed: AstNode[] = [];
    let top = node;
    while (ast.isBinaryExpression(top.$container)) {
        const known = chainTops.get(top.$container);
        if (known) {
            top = known;
            break;
        }
        passed.push(top.$container);
        top = top.$container;
    }
    for (const binary of passed) {
        chainTops.set(binary, top);
    }
    return top;
}
