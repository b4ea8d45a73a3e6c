import * as vscode from 'vscode';
import { CodeActionRequest, type CodeActionParams } from 'vscode-languageclient/node.js';
import { CreateSampleDataRequest, UseFileAsSampleRequest, type SampleDataReport } from '../../common/protocol.js';
import type { Outcome } from '../../common/result-model.js';
import { CommandIds } from './config.js';
import type { PipelineSqlClient } from './language-client.js';
import { copiesFirstRows, defaultTableName, parseRowLimit, sampleReportText, tableNameProblem } from './sample-data-text.js';

/** The document a command argument names: a URI string (quick fix), a Uri, else the active Pipeline SQL editor. */
function documentUri(argument: unknown): string | undefined {
    if (typeof argument === 'string') {
        return argument;
    }
    if (argument instanceof vscode.Uri) {
        return argument.toString();
    }
    const document = vscode.window.activeTextEditor?.document;
    return document && document.languageId === 'pipeline-sql' ? document.uri.toString() : undefined;
}

async function show(outcome: Outcome<SampleDataReport>): Promise<void> {
    if (!outcome.ok) {
        void vscode.window.showErrorMessage(`Pipeline SQL: ${outcome.error.message}`);
        return;
    }
    const catalog = outcome.written.find(f => /[\\/]catalog\.sql$/.test(f));
    const choice = await vscode.window.showInformationMessage(`Pipeline SQL: ${sampleReportText(outcome)}`, ...(catalog ? ['Open catalog.sql'] : []));
    if (choice && catalog) {
        await vscode.window.showTextDocument(vscode.Uri.file(catalog));
    }
}

/**
 * Registers `Pipeline SQL: Create Sample Data` (also run by the "no sample data" quick fix) and the
 * explorer's "Use this File as Sample Data". Both send a request that the server carries out; in an
 * untrusted workspace they are refused here first (the server refuses them too).
 */
export function registerSampleData(client: PipelineSqlClient): vscode.Disposable {
    const untrusted = (): boolean => {
        if (vscode.workspace.isTrusted) {
            return false;
        }
        void vscode.window.showWarningMessage('Pipeline SQL: creating sample data writes files, which Restricted Mode does not allow. Trust the workspace first.');
        return true;
    };
    return vscode.Disposable.from(
        vscode.commands.registerCommand(CommandIds.createSampleData, async (argument?: unknown) => {
            if (untrusted()) {
                return;
            }
            const uri = documentUri(argument);
            if (!uri) {
                void vscode.window.showWarningMessage('Pipeline SQL: open a file of the pipeline to create its sample data.');
                return;
            }
            const languageClient = await client.running();
            const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Pipeline SQL: creating sample data…' },
                () => languageClient.sendRequest(CreateSampleDataRequest, { uri }));
            await show(outcome);
        }),
        vscode.commands.registerCommand(CommandIds.useAsSampleData, async (argument?: unknown) => {
            if (untrusted()) {
                return;
            }
            const file = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
            if (!file || file.scheme !== 'file') {
                void vscode.window.showWarningMessage('Pipeline SQL: choose a CSV, JSON or Parquet file in the explorer.');
                return;
            }
            const table = await vscode.window.showInputBox({
                title: 'Use this File as Sample Data',
                prompt: 'The table the pipeline reads (catalog.schema.table, schema.table or table)',
                value: defaultTableName(file.path.split('/').pop() ?? ''),
                validateInput: text => tableNameProblem(text),
            });
            if (table === undefined) {
                return;
            }
            // Only files of one row per line can be cut after their first rows; others are copied whole.
            const rowsAnswer = !copiesFirstRows(file.path) ? '' : await vscode.window.showInputBox({
                title: 'Use this File as Sample Data',
                prompt: 'Copy only the first rows (empty: the whole file)',
                placeHolder: 'the whole file',
                validateInput: text => parseRowLimit(text).problem,
            });
            if (rowsAnswer === undefined) {
                return;
            }
            const { rows } = parseRowLimit(rowsAnswer);
            const languageClient = await client.running();
            await show(await languageClient.sendRequest(UseFileAsSampleRequest, { uri: file.toString(), table: table.trim(), ...(rows !== undefined ? { rows } : {}) }));
        }),
        // Python files are not the client's documents: for the errors the server put there (a run's "no
        // sample data" on a Python dataset), the server's quick fixes are asked for here; it decides.
        vscode.languages.registerCodeActionsProvider({ scheme: 'file', language: 'python' }, {
            async provideCodeActions(document, range, context, token) {
                if (!context.diagnostics.some(d => d.source?.startsWith('pipeline-sql') === true) || client.state !== 'running') {
                    return [];
                }
                const languageClient = await client.running();
                const params: CodeActionParams = {
                    textDocument: { uri: document.uri.toString() },
                    range: languageClient.code2ProtocolConverter.asRange(range),
                    context: await languageClient.code2ProtocolConverter.asCodeActionContext(context, token),
                };
                const result = await languageClient.sendRequest(CodeActionRequest.type, params, token);
                return languageClient.protocol2CodeConverter.asCodeActionResult(result ?? [], token);
            },
        }, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    );
}
