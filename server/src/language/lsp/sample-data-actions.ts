/**
 * The quick fix of the "no sample data" diagnostics (issue 16): a table the pipeline reads that is
 * neither a dataset nor in the sample catalog (`TABLE_OR_VIEW_NOT_FOUND`, as validation and runs
 * report it), missing sample files, a Python dataset without samples. It runs the client command
 * `Pipeline SQL: Create Sample Data` for the document's pipeline (the server writes the files on
 * the request that command sends), so the fix itself carries no edit. The same fix is offered in the
 * Python files of a pipeline (`.py`, which are no Langium documents): on the error a run puts on a
 * Python dataset without samples (`PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES`).
 */
import { URI } from 'langium';
import type { CancellationToken, CodeAction, Connection, Diagnostic } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { ProjectModel } from '../../project/project-model.js';
import { CreateSampleDataCommand } from '../../../../common/protocol.js';
import { ErrorClass } from '../../../../engine/src/spark/error-classes.js';

/** The codes the fix is offered on. */
const noSampleData: ReadonlySet<string> = new Set([ErrorClass.tableNotFound, ErrorClass.sampleMissing, ErrorClass.pythonDatasetNotSampled]);

function codeOf(diagnostic: Diagnostic): string | undefined {
    const data = diagnostic.data as { code?: unknown } | undefined;
    if (typeof data?.code === 'string') {
        return data.code;
    }
    return typeof diagnostic.code === 'string' ? diagnostic.code : undefined;
}

/** One "Create sample data" action for the diagnostics that say a source has no sample data (none for a file in no pipeline). */
export function sampleDataActions(documentUri: URI, diagnostics: readonly Diagnostic[], inPipeline: boolean): CodeAction[] {
    const matching = diagnostics.filter(d => noSampleData.has(codeOf(d) ?? ''));
    if (matching.length === 0 || !inPipeline || documentUri.scheme !== 'file') {
        return [];
    }
    const uri = documentUri.toString();
    return [{
        title: 'Create sample data for the sources of this pipeline that have none',
        kind: CodeActionKind.QuickFix,
        diagnostics: matching,
        command: { title: 'Create Sample Data', command: CreateSampleDataCommand, arguments: [uri] },
    }];
}

/** Whether a document is a Python file (by its name). */
function isPythonUri(uri: string): boolean {
    return /\.py$/i.test(URI.parse(uri).path);
}

/**
 * Answers `textDocument/codeAction` for Python files (Langium has no service for them and answers
 * nothing) with the "Create sample data" fix, when the file belongs to a pipeline; every other
 * document goes to the handler Langium registers. Installed before Langium's handlers.
 */
export function routePythonCodeActions(connection: Connection, project: ProjectModel): void {
    const onCodeAction = connection.onCodeAction.bind(connection);
    connection.onCodeAction = handler => onCodeAction((params, token: CancellationToken, progress, partial) => {
        if (!isPythonUri(params.textDocument.uri)) {
            return handler(params, token, progress, partial);
        }
        try {
            const uri = URI.parse(params.textDocument.uri);
            return sampleDataActions(uri, params.context.diagnostics, uri.scheme === 'file' && project.pipelinesContaining(uri.fsPath).length > 0);
        } catch (error) {
            // A fix that cannot be worked out is not offered; the editor goes on.
            console.error('The code actions of a Python file failed:', error);
            return [];
        }
    });
}
