import type { AstNode, AstNodeDescription, LangiumDocument, LocalSymbols } from 'langium';
import { AstUtils, Cancellation, DefaultScopeComputation, interruptAndCheck, MultiMap } from 'langium';
import * as ast from '../generated/ast.js';

/**
 * Scope computation (Langium's `ScopeComputation` service). Exported symbols are the datasets a
 * statement declares (streaming tables, materialized views, views, tables): any file of the same
 * pipeline may read them. Local symbols are the common table expressions of a query, visible only
 * inside that query (attached to the `Query` node that declares them).
 */
export class PipelineSqlScopeComputation extends DefaultScopeComputation {

    /** Exports only dataset declarations; flows, SET and queries declare nothing other files can read. */
    protected override addExportedSymbol(node: AstNode, exports: AstNodeDescription[], document: LangiumDocument): void {
        if (ast.isDataset(node) && node.name) {
            exports.push(this.descriptions.createDescription(node, node.name, document));
        }
    }

    /** Collects the CTEs of every query, keyed by the query that declares them. */
    override async collectLocalSymbols(document: LangiumDocument, cancelToken = Cancellation.CancellationToken.None): Promise<LocalSymbols> {
        const symbols = new MultiMap<AstNode, AstNodeDescription>();
        for (const node of AstUtils.streamAllContents(document.parseResult.value)) {
            await interruptAndCheck(cancelToken);
            if (ast.isQuery(node)) {
                for (const cte of node.ctes) {
                    if (cte.name) {
                        symbols.add(node, this.descriptions.createDescription(cte, cte.name, document));
                    }
                }
            }
        }
        return symbols;
    }
}
