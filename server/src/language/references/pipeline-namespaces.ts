import type { AstNode } from 'langium';
import type { PipelineSpec } from '../pipeline/pipeline-registry.js';
import * as ast from '../generated/ast.js';
import { splitName, type NamespaceDefaults } from './dataset-names.js';

/** The top-level statement that contains a node. */
export function statementOf(node: AstNode): ast.Statement | undefined {
    let current: AstNode | undefined = node;
    while (current && !ast.isPipelineFile(current.$container)) {
        current = current.$container;
    }
    return current as ast.Statement | undefined;
}

/**
 * The default catalog and schema in effect at a statement: the project file's `catalog` / `schema`,
 * changed by the `USE [CATALOG|SCHEMA] x` and `SET CATALOG|SCHEMA x` statements before it in the same
 * file (Databricks applies them to the statements that follow).
 */
export function namespaceDefaultsAt(node: AstNode, spec: PipelineSpec | undefined): NamespaceDefaults {
    let catalog = spec?.catalog;
    let schema = spec?.schema;
    const statement = statementOf(node);
    const file = statement?.$container;
    if (!statement || !ast.isPipelineFile(file)) {
        return { catalog, schema };
    }
    for (const s of file.statements) {
        if (s === statement) {
            break;
        }
        if (ast.isUseStatement(s) && s.name) {
            const parts = splitName(s.name);
            if (s.scope === 'CATALOG') {
                catalog = parts[parts.length - 1];
            } else if (parts.length >= 2) {
                catalog = parts[parts.length - 2];
                schema = parts[parts.length - 1];
            } else if (parts.length === 1) {
                schema = parts[0];
            }
        } else if (ast.isSetStatement(s) && s.scope && s.target) {
            const parts = splitName(s.target);
            if (s.scope === 'CATALOG') {
                catalog = parts[parts.length - 1];
            } else {
                schema = parts[parts.length - 1];
            }
        }
    }
    return { catalog, schema };
}
