import type { LangiumDocument } from 'langium';
import type { CodeLensProvider } from 'langium/lsp';
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import * as ast from '../generated/ast.js';
import type { PipelineRegistry } from '../pipeline/pipeline-registry.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';

/** The client commands the lenses call (declared in package.json). */
export const RunCommandIds = {
    runFlow: 'pipelineSql.runFlow',
    runPipeline: 'pipelineSql.runPipeline',
    fullRefresh: 'pipelineSql.fullRefresh',
} as const;

/** The argument every run lens passes: the document and the dataset it is above. */
export interface RunLensArgument {
    readonly uri: string;
    readonly dataset: string;
}

/** The dataset a statement defines or writes: a dataset's name, a flow's (or APPLY CHANGES') target. */
export function lensDataset(statement: ast.Statement): string | undefined {
    if (ast.isDataset(statement)) {
        return statement.name || undefined;
    }
    if (ast.isCreateFlow(statement)) {
        return statement.body?.target?.ref.$refText || undefined;
    }
    if (ast.isApplyChanges(statement)) {
        return statement.target?.ref.$refText || undefined;
    }
    return undefined;
}

/**
 * Code lenses (Langium's `CodeLensProvider` service): "Run flow", "Run pipeline" and "Full refresh"
 * above every dataset and flow of a pipeline source file. "Run flow" runs the dataset (a flow's
 * target) and everything it reads; "Full refresh" clears that dataset first. The lenses call client
 * commands, which ask the server to run with `pipelineSql/runPipeline`.
 */
export class PipelineSqlCodeLensProvider implements CodeLensProvider {

    private readonly registry: PipelineRegistry;

    constructor(services: PipelineSqlServices) {
        this.registry = services.pipeline.Registry;
    }

    provideCodeLens(document: LangiumDocument, _params: CodeLensParams): CodeLens[] {
        const root = document.parseResult.value;
        // A sample catalog file (`samples/*.sql`) declares source tables; nothing in it runs.
        if (!ast.isPipelineFile(root) || this.registry.membershipOf(document.uri).role === 'catalog') {
            return [];
        }
        const uri = document.uri.toString();
        const lenses: CodeLens[] = [];
        for (const statement of root.statements) {
            const dataset = lensDataset(statement);
            const cst = statement.$cstNode;
            if (!dataset || !cst) {
                continue;
            }
            const start = cst.range.start;
            const range = { start, end: start };
            const argument: RunLensArgument = { uri, dataset };
            lenses.push(
                { range, command: { title: '$(play) Run flow', command: RunCommandIds.runFlow, arguments: [argument] } },
                { range, command: { title: 'Run pipeline', command: RunCommandIds.runPipeline, arguments: [{ uri }] } },
                { range, command: { title: 'Full refresh', command: RunCommandIds.fullRefresh, arguments: [argument] } },
            );
        }
        return lenses;
    }
}
