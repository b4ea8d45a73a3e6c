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
    const statement = statementOf(node);
    const file = statement?.$container;
    if (!statement || !ast.isPipelineFile(file)) {
        return { catalog: spec?.catalog, schema: spec?.schema };
    }
    return defaultsOfFile(file, spec).get(statement) ?? { catalog: spec?.catalog, schema: spec?.schema };
}

interface FileDefaults {
    readonly catalog: string | undefined;
    readonly schema: string | undefined;
    readonly byStatement: Map<ast.Statement, NamespaceDefaults>;
}

/** The defaults in effect at each statement of a file, computed once per parsed file and project defaults. */
const fileDefaults = new WeakMap<ast.PipelineFile, FileDefaults>();

function defaultsOfFile(file: ast.PipelineFile, spec: PipelineSpec | undefined): Map<ast.Statement, NamespaceDefaults> {
    const cached = fileDefaults.get(file);
    if (cached && cached.catalog === spec?.catalog && cached.schema === spec?.schema) {
        return cached.byStatement;
    }
    const byStatement = new Map<ast.Statement, NamespaceDefaults>();
    let current: NamespaceDefaults = { catalog: spec?.catalog, schema: spec?.schema };
    for (const s of file.statements) {
        byStatement.set(s, current);
        if (ast.isUseStatement(s) && s.name) {
            const parts = splitName(s.name);
            if (s.scope === 'CATALOG') {
                current = { ...current, catalog: parts[parts.length - 1] };
            } else if (parts.length >= 2) {
                current = { catalog: parts[parts.length - 2], schema: parts[parts.length - 1] };
            } else if (parts.length === 1) {
                current = { ...current, schema: parts[0] };
            }
        } else if (ast.isSetStatement(s) && s.scope && s.target) {
            const parts = splitName(s.target);
            current = s.scope === 'CATALOG' ? { ...current, catalog: parts[parts.length - 1] } : { ...current, schema: parts[parts.length - 1] };
        }
    }
    fileDefaults.set(file, { catalog: spec?.catalog, schema: spec?.schema, byStatement });
    return byStatement;
}
