import type { LangiumDocument, MaybePromise } from 'langium';
import type { CodeLensProvider } from 'langium/lsp';
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import * as ast from '../generated/ast.js';
import type { PipelineRegistry } from '../pipeline/pipeline-registry.js';
import { runsOnState } from '../pipeline/scratch-files.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { mergeSharedCodeLenses, type SharedFiles } from './pipeline-sql-shared-files.js';

/** The client commands the lenses call (declared in package.json). */
export const RunCommandIds = {
    runFlow: 'pipelineSql.runFlow',
    runPipeline: 'pipelineSql.runPipeline',
    fullRefresh: 'pipelineSql.fullRefresh',
    runOnLocalState: 'pipelineSql.runOnLocalState',
} as const;

/** The argument of "Run on local state": the document, the statement's text and where it starts. */
export interface StatementLensArgument {
    readonly uri: string;
    readonly text: string;
    readonly start: { readonly line: number; readonly character: number };
}


/** The argument every run lens passes: the document and the dataset it is above. */
export interface RunLensArgument {
    readonly uri: string;
    readonly dataset: string;
    /** In a file several pipelines list: the pipeline, as the lens title names it. */
    readonly pipeline?: string;
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
 * above every dataset and flow of a pipeline source file; "Run on local state" above every query and
 * DML statement of a scratch `.sql` file in a pipeline's folder (`pipelineSql/runStatement`). "Run flow" runs the dataset (a flow's
 * target) and everything it reads; "Full refresh" clears that dataset first. The lenses call client
 * commands, which ask the server to run with `pipelineSql/runPipeline`.
 */
export class PipelineSqlCodeLensProvider implements CodeLensProvider {

    private readonly registry: PipelineRegistry;
    private readonly sharedFiles: SharedFiles;

    constructor(services: PipelineSqlServices) {
        this.registry = services.pipeline.Registry;
        this.sharedFiles = services.shared.pipeline.SharedFiles;
    }

    /**
     * In a file several pipelines list: each pipeline's lenses, titled with its name (`Run flow · eu`);
     * each passes that pipeline's document of the file, so the run is that pipeline's.
     */
    provideCodeLens(document: LangiumDocument, _params: CodeLensParams): MaybePromise<CodeLens[]> {
        return this.sharedFiles.askEachPipeline(document, each => this.lensesIn(each), mergeSharedCodeLenses);
    }

    private lensesIn(document: LangiumDocument): CodeLens[] {
        const root = document.parseResult.value;
        // A sample catalog file (`samples/*.sql`) declares source tables; nothing in it runs.
        if (!ast.isPipelineFile(root) || this.registry.membershipOf(document.uri).role === 'catalog') {
            return [];
        }
        const uri = document.uri.toString();
        const lenses: CodeLens[] = [];
        // A scratch file in a pipeline's folder (none of its sources): its queries and DML run on that pipeline's
        // state; so do those of a file there that defines its own datasets too (a pipeline of its own).
        const membership = this.registry.membershipOf(document.uri);
        if (membership.role === 'scratch' || (!membership.pipeline.project && this.registry.enclosingPipeline(document.uri))) {
            for (const statement of root.statements.filter(runsOnState)) {
                const cst = statement.$cstNode;
                if (cst) {
                    const start = cst.range.start;
                    const argument: StatementLensArgument = { uri, text: cst.text, start };
                    lenses.push({ range: { start, end: start }, command: { title: '$(play) Run on local state', command: RunCommandIds.runOnLocalState, arguments: [argument] } });
                }
            }
            return lenses;
        }
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
