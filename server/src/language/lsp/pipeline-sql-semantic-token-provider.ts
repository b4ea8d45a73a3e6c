import type { AstNode, CstNode, GrammarAST } from 'langium';
import { GrammarAST as Ast, isCompositeCstNode, isLeafCstNode } from 'langium';
import type { SemanticTokenAcceptor } from 'langium/lsp';
import { AbstractSemanticTokenProvider } from 'langium/lsp';
import { SemanticTokenTypes } from 'vscode-languageserver';
import * as AST from '../generated/ast.js';

/**
 * Grammar rules that list keywords as alternatives of a name: a word keyword matched by one of them is
 * a name, not a keyword.
 */
const keywordNameRules = new Set([
    'SoftKeyword', 'ClauseKeyword', 'ReservedKeyword', 'StreamWord', 'GroupingWord', 'IdentifierWord', 'TableWord', 'AsAlias',
    'TypeName',
]);

/**
 * Semantic tokens (Langium's `SemanticTokenProvider` service, recipe "Keywords as Identifiers"). Most
 * keywords of Pipeline SQL are not reserved, so `version`, `keys`, `date` or `type` can be column or
 * table names; the TextMate grammar colours them as keywords. This provider marks every keyword that
 * the parser used as a name with the token type of what it names (table, column, function, type, ...),
 * which overrides the keyword colour.
 */
export class PipelineSqlSemanticTokenProvider extends AbstractSemanticTokenProvider {

    protected override highlightElement(node: AstNode, acceptor: SemanticTokenAcceptor): void {
        const cst = node.$cstNode;
        if (cst === undefined || !isCompositeCstNode(cst)) {
            return;
        }
        for (const leaf of ownLeaves(cst, node)) {
            const keyword = leaf.grammarSource;
            if (Ast.isKeyword(keyword) && /^[A-Z_]+$/.test(keyword.value) && keywordNameRules.has(containingRule(keyword) ?? '')) {
                const rule = containingRule(keyword) ?? '';
                acceptor({ cst: leaf, type: tokenType(node, assignedProperty(leaf, cst), rule) });
            }
        }
    }
}

/** The keyword leaves under `cst` that belong to `node` itself, not to a child AST node. */
function* ownLeaves(cst: CstNode, node: AstNode): Generator<CstNode> {
    if (isLeafCstNode(cst)) {
        if (!cst.hidden && Ast.isKeyword(cst.grammarSource)) {
            yield cst;
        }
        return;
    }
    if (isCompositeCstNode(cst)) {
        for (const child of cst.content) {
            if (child.astNode === node) {
                yield* ownLeaves(child, node);
            }
        }
    }
}

/** The AST property a name was assigned to: the first assignment met going up from the leaf. */
function assignedProperty(leaf: CstNode, root: CstNode): string | undefined {
    for (let current: CstNode | undefined = leaf; current !== undefined && current !== root; current = current.container) {
        const source = current.grammarSource;
        if (Ast.isRuleCall(source) || Ast.isCrossReference(source)) {
            const assignment = assignmentOf(source);
            if (assignment !== undefined) {
                return assignment.feature;
            }
        }
    }
    return undefined;
}

function assignmentOf(element: GrammarAST.AbstractElement): GrammarAST.Assignment | undefined {
    for (let current: AstNode | undefined = element; current !== undefined; current = current.$container) {
        if (Ast.isAssignment(current)) {
            return current;
        }
        if (Ast.isParserRule(current)) {
            return undefined;
        }
    }
    return undefined;
}

function containingRule(element: GrammarAST.AbstractElement): string | undefined {
    for (let current: AstNode | undefined = element; current !== undefined; current = current.$container) {
        if (Ast.isParserRule(current)) {
            return current.name;
        }
    }
    return undefined;
}

/** The semantic token type for a name, from what it names. */
function tokenType(node: AstNode, property: string | undefined, rule: string): string {
    if (rule === 'TypeName') {
        return SemanticTokenTypes.type;
    }
    if (AST.isFunctionCall(node) || AST.isRowFilterClause(node) || AST.isMaskProperty(node)) {
        return SemanticTokenTypes.function;
    }
    if (AST.isDatasetRef(node) || AST.isDataset(node) || AST.isCommonTableExpression(node) || AST.isCreateNamespace(node)
        || AST.isUseStatement(node)) {
        return SemanticTokenTypes.class;
    }
    if (AST.isLambda(node)) {
        return SemanticTokenTypes.parameter;
    }
    if (AST.isParameterMarker(node)) {
        return SemanticTokenTypes.parameter;
    }
    if (property === 'alias' || property === 'aliases' || property === 'columnAliases' || AST.isCreateFlow(node)
        || AST.isExpectation(node) || AST.isNamedWindow(node)) {
        return SemanticTokenTypes.variable;
    }
    return SemanticTokenTypes.property;
}
