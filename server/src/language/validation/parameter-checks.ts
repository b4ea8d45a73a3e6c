/**
 * Pipeline parameters in names: a table, dataset or column name holding `${name}` for which the
 * pipeline has no value (no `configuration` key, no `SET`) cannot be run — the run stops with
 * UNBOUND_SQL_PARAMETER at that place (the lowering's `substituteName`) — so the editor and `check`
 * report it there too. Strings keep an unknown `${name}` as written, as Spark does, and are not
 * checked; nor are files outside any pipeline, which have no configuration to look in.
 */
import { AstUtils, type AstNode, type ValidationAcceptor, type ValidationChecks } from 'langium';
import type * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { Issues } from './issue-codes.js';
import { report, type IssueLocation } from './validation-context.js';

const parameterPattern = /\$\{([^}\r\n]*)\}/g;

/** The parameter checks. */
export class ParameterChecks {

    constructor(private readonly services: PipelineSqlServices) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            DatasetRef: (node, accept) => this.checkName(node, node.ref.$refText, { node }, accept),
            ColumnReference: (node, accept) => this.checkName(node, node.parts.join('.'), { node }, accept),
            Dataset: (node, accept) => this.checkName(node, node.name, { node, property: 'name' }, accept),
        };
    }

    /** Reports each `${name}` of a name that the pipeline of the node has no value for. */
    private checkName(node: AstNode, text: string | undefined, location: IssueLocation, accept: ValidationAcceptor): void {
        if (!text?.includes('${')) {
            return;
        }
        const registry = this.services.pipeline.Registry;
        const membership = registry.membershipOf(AstUtils.getDocument(node).uri);
        if (!membership.pipeline.project || membership.role !== 'pipeline') {
            return;
        }
        const parameters = this.services.references.SymbolIndex.parametersOf(membership.pipeline);
        for (const [, name] of text.matchAll(parameterPattern)) {
            if (parameters.lookup(name) === undefined) {
                report(accept, Issues.UnboundParameter, { name, text }, location);
            }
        }
    }
}
