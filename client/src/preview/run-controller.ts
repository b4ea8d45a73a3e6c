import * as vscode from 'vscode';
import { WorkDoneProgress, type LanguageClient } from 'vscode-languageclient/node.js';
import {
    ChangeEventsRequest, DatasetRowsRequest, PipelineGraphRequest, PipelineStateRequest, RunFinishedNotification, RunPipelineRequest, RunStatementRequest, VersionChangesRequest,
    type RunFinishedParams,
} from '../../../common/protocol.js';
import type { GraphModel, WebviewMessage } from '../../../common/preview-messages.js';
import type { RunOutcome } from '../../../common/result-model.js';
import { CommandIds, previewMaxRows } from '../config.js';
import type { PipelineSqlClient } from '../language-client.js';
import { PreviewPanel, type PreviewHost } from './preview-panel.js';
import { showRunProblem } from './run-errors.js';
import {
    lensesAtLine, needsDataset, progressIncrement, runLabel, runParams, statementFromArgument, targetFromArgument, runChoices, pipelineChoices, type LensInfo, type RunKind, type RunTarget,
} from './run-targets.js';

/** The error class of a run that was cancelled (the update was rolled back). */
const CANCELLED = 'PIPELINE_SQL_CANCELLED';

/** What is true about runs right now: the run in progress, and the outcome the preview shows. */
export interface RunState {
    readonly running?: string;
    readonly shown?: RunOutcome;
}

/**
 * Runs pipelines for the commands, the code lenses and the panel's "Run from here": checks
 * workspace trust, asks the language server to run (`pipelineSql/runPipeline`) with VS Code's
 * progress notification wired to the server's work-done progress and its Cancel button to the
 * request's cancellation, and shows the outcome in the preview panel. A failed run is reported
 * where it stays true until the next run: the panel's header (which keeps the previous results,
 * marked as such), the diagnostic on the clause and the "last run" status; not by a notification,
 * which would outlive the next successful run. Also answers the panel's requests for more rows,
 * change events, the graph and the restored state.
 */
export class RunController implements PreviewHost, vscode.Disposable {
    private readonly finishedEmitter = new vscode.EventEmitter<RunFinishedParams>();
    private readonly stateEmitter = new vscode.EventEmitter<RunState>();
    private readonly listening = new WeakSet<LanguageClient>();
    private readonly disposables: vscode.Disposable[] = [this.finishedEmitter, this.stateEmitter];
    private running: vscode.CancellationTokenSource | undefined;
    private state: RunState = {};

    /** Fires when the server reports a finished run (`pipelineSql/runFinished`). */
    readonly onDidFinishRun = this.finishedEmitter.event;

    /** Fires when a run starts or ends, or the preview shows another outcome (a run's, or the state restored after a reload). */
    readonly onDidChangeRunState = this.stateEmitter.event;

    /** The run in progress and the outcome the preview shows. */
    get runState(): RunState {
        return this.state;
    }

    constructor(private readonly context: vscode.ExtensionContext, private readonly client: PipelineSqlClient) {}

    /** Runs a command: `kind` with the command's argument (code lens `{ uri, dataset }`, editor URI, or nothing). */
    async runCommand(kind: RunKind, argument: unknown): Promise<void> {
        if (!vscode.workspace.isTrusted) {
            await showRunProblem({ kind: 'untrusted' });
            return;
        }
        try {
            const target = await this.resolveTarget(kind, argument);
            if (target) {
                await this.run(kind, target);
            }
        } catch (error) {
            this.client.outputChannel.appendLine(`${kind} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
            void showRunProblem({ kind: 'server', message: errorText(error), showOutput: () => this.client.outputChannel.show(true) });
        }
    }

    /**
     * "Run on local state": runs one statement (a code lens's, or the editor's selection) on the state of
     * the pipeline whose folder holds the document, and shows what it returned or changed in the panel.
     */
    async runStatement(argument: unknown): Promise<void> {
        if (!vscode.workspace.isTrusted) {
            await showRunProblem({ kind: 'untrusted' });
            return;
        }
        const editor = vscode.window.activeTextEditor;
        const selection = editor && !editor.selection.isEmpty
            ? { uri: editor.document.uri.toString(), text: editor.document.getText(editor.selection), start: { line: editor.selection.start.line, character: editor.selection.start.character } }
            : undefined;
        const target = statementFromArgument(argument, selection);
        if (!target) {
            await vscode.window.showInformationMessage('Pipeline SQL: select a statement (a query, DESCRIBE HISTORY, INSERT, UPDATE, DELETE or MERGE) to run it on the local state.');
            return;
        }
        try {
            const client = await this.languageClient();
            const panel = PreviewPanel.createOrShow(this.context.extensionUri, this, PreviewPanel.instance?.documentUri ?? target.uri);
            const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Pipeline SQL: Run on local state' },
                () => client.sendRequest(RunStatementRequest, { ...target, maxRows: previewMaxRows(vscode.Uri.parse(target.uri)) }));
            panel.post({ type: 'statementResult', outcome });
            // A statement that wrote a version changed the state the panel shows: its grid reads it again.
            const shown = panel.shownOutcome?.summary;
            if (outcome.ok && outcome.version && shown && (shown.pipeline.rootUri === outcome.pipeline.rootUri)) {
                const refreshed = await this.restore(shown.documentUri);
                if (refreshed) {
                    panel.showStateRows(refreshed, outcome.dataset ? { dataset: outcome.dataset, version: outcome.version } : undefined);
                }
            }
        } catch (error) {
            this.client.outputChannel.appendLine(`Run on local state failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
            void showRunProblem({ kind: 'server', message: errorText(error), showOutput: () => this.client.outputChannel.show(true) });
        }
    }

    /** Opens the panel on the graph of the active (or given) document's pipeline. */
    async showGraph(argument: unknown): Promise<void> {
        const target = targetFromArgument(argument, this.activePipelineUri());
        if (!target) {
            await showRunProblem({ kind: 'noDocument' });
            return;
        }
        const panel = PreviewPanel.createOrShow(this.context.extensionUri, this, target.uri);
        panel.showView('graph');
        await panel.refreshGraph();
    }

    private activePipelineUri(): string | undefined {
        const document = vscode.window.activeTextEditor?.document;
        return document && document.languageId === 'pipeline-sql' ? document.uri.toString() : undefined;
    }

    private async resolveTarget(kind: RunKind, argument: unknown): Promise<RunTarget | undefined> {
        const target = targetFromArgument(argument, this.activePipelineUri());
        if (!target) {
            await showRunProblem({ kind: 'noDocument' });
            return undefined;
        }
        if (target.dataset) {
            return target;
        }
        if (!needsDataset(kind)) {
            // Run pipeline and Full refresh of a file several pipelines list: a pick of the pipeline.
            const choices = pipelineChoices(await this.runFlowLenses(target.uri));
            if (choices.length === 0) {
                return target;
            }
            const picked = await vscode.window.showQuickPick(choices.map(c => c.label), { title: runLabel(kind, undefined), placeHolder: 'Pipeline to run' });
            return choices.find(c => c.label === picked)?.target;
        }
        // From the palette: the dataset of the statement under the cursor, else a pick from the file's datasets;
        // in a file several pipelines list, a pick of the pipeline to run it in.
        const lenses = await this.runFlowLenses(target.uri);
        const editor = vscode.window.activeTextEditor;
        const atCursor = editor && editor.document.uri.toString() === target.uri ? lensesAtLine(lenses, editor.selection.active.line) : [];
        const choices = runChoices(atCursor.length > 0 ? atCursor : lenses);
        if (choices.length === 0) {
            await showRunProblem({ kind: 'noDataset' });
            return undefined;
        }
        const picked = choices.length === 1 ? choices[0].label
            : await vscode.window.showQuickPick(choices.map(c => c.label), { title: runLabel(kind, '…'), placeHolder: 'Dataset to run' });
        return choices.find(c => c.label === picked)?.target;
    }

    /** The datasets of the "Run flow" code lenses of a document, with their lines. */
    private async runFlowLenses(uri: string): Promise<LensInfo[]> {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', vscode.Uri.parse(uri), 100);
        return (lenses ?? []).flatMap(lens => {
            const argument = lens.command?.command === CommandIds.runFlow ? lens.command.arguments?.[0] as { dataset?: unknown; uri?: unknown; pipeline?: unknown } | undefined : undefined;
            return typeof argument?.dataset === 'string' ? [{
                line: lens.range.start.line, dataset: argument.dataset, uri: typeof argument.uri === 'string' ? argument.uri : uri,
                pipeline: typeof argument.pipeline === 'string' ? argument.pipeline : undefined,
            }] : [];
        });
    }

    /** Runs and shows the outcome. Only one run at a time: a new one cancels the one in progress. */
    async run(kind: RunKind, target: RunTarget): Promise<void> {
        this.running?.cancel();
        const source = new vscode.CancellationTokenSource();
        this.running = source;
        const label = runLabel(kind, target.dataset);
        let client: LanguageClient;
        try {
            client = await this.languageClient();
        } catch (error) {
            await showRunProblem({ kind: 'server', message: errorText(error), showOutput: () => this.client.outputChannel.show(true) });
            return;
        }
        const panel = PreviewPanel.createOrShow(this.context.extensionUri, this, target.uri);
        panel.runStarted(label);
        this.setState({ ...this.state, running: label });
        const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Pipeline SQL: ${label}`, cancellable: true },
            async (progress, token) => {
                token.onCancellationRequested(() => source.cancel());
                const workDoneToken = `pipelineSql-run-${Date.now()}-${Math.random().toString(36).slice(2)}`;
                let last = 0;
                const subscription = client.onProgress(WorkDoneProgress.type, workDoneToken, value => {
                    if (value.kind === 'end') {
                        return;
                    }
                    const step = progressIncrement(last, value.percentage);
                    last = step.last;
                    progress.report({ message: value.message, increment: step.increment || undefined });
                });
                try {
                    return await client.sendRequest(RunPipelineRequest, { ...runParams(kind, target, previewMaxRows(vscode.Uri.parse(target.uri))), workDoneToken }, source.token);
                } catch (error) {
                    if (source.token.isCancellationRequested) {
                        return undefined;
                    }
                    throw error;
                } finally {
                    subscription.dispose();
                }
            }).then(value => value, (error: unknown) => {
            void showRunProblem({ kind: 'server', message: errorText(error), showOutput: () => this.client.outputChannel.show(true) });
            return undefined;
        });
        const superseded = this.running !== source;
        if (!superseded) {
            this.running = undefined;
        }
        source.dispose();
        if (!outcome || (!outcome.ok && outcome.error.class === CANCELLED)) {
            // A run cancelled because a newer one started leaves the newer one's busy state alone.
            if (!superseded) {
                panel.runEnded(false);
                this.setState({ ...this.state, running: undefined });
            }
            return;
        }
        if (!superseded) {
            panel.runEnded(true);
            this.setState({ ...this.state, running: undefined });
        }
        panel.showOutcome(outcome);
    }

    /** Notes what the panel shows now (a run's outcome, or the state restored after a reload). */
    didShow(outcome: RunOutcome): void {
        this.setState({ ...this.state, shown: outcome });
    }

    private setState(state: RunState): void {
        this.state = state;
        this.stateEmitter.fire(state);
    }

    /** The language client, with the run-finished notification handler attached once per client. */
    private async languageClient(): Promise<LanguageClient> {
        const client = await this.client.running();
        if (!this.listening.has(client)) {
            this.listening.add(client);
            this.disposables.push(client.onNotification(RunFinishedNotification, params => this.finishedEmitter.fire(params)));
        }
        return client;
    }

    log(message: string): void {
        this.client.outputChannel.appendLine(message);
    }

    async restore(documentUri: string): Promise<RunOutcome | undefined> {
        if (!vscode.workspace.isTrusted) {
            // Reading the state evaluates the pipeline's views and opens its database (the server refuses it too).
            return undefined;
        }
        try {
            const client = await this.languageClient();
            const outcome = await client.sendRequest(PipelineStateRequest, { uri: documentUri, maxRows: previewMaxRows(vscode.Uri.parse(documentUri)) });
            if (!outcome.ok) {
                this.client.outputChannel.appendLine(`The preview of ${documentUri} could not be restored: ${outcome.error.class}: ${outcome.error.message}`);
            }
            return outcome.ok ? outcome : undefined;
        } catch (error) {
            this.client.outputChannel.appendLine(`Could not restore the preview of ${documentUri}: ${errorText(error)}`);
            return undefined;
        }
    }

    async graph(documentUri: string): Promise<{ graph?: GraphModel; error?: string }> {
        try {
            const client = await this.languageClient();
            // The pipeline model's graph has the shape the preview draws.
            const graph: GraphModel = await client.sendRequest(PipelineGraphRequest, { uri: documentUri });
            return { graph };
        } catch (error) {
            return { error: `The pipeline graph is not available: ${errorText(error)}` };
        }
    }

    async handle(message: WebviewMessage, panel: PreviewPanel): Promise<void> {
        switch (message.type) {
            case 'openLocation':
                await this.openLocation(message.uri, message.range);
                return;
            case 'runFrom':
                if (panel.documentUri) {
                    await this.runCommand('runFrom', { uri: panel.documentUri, dataset: message.dataset });
                }
                return;
            case 'requestGraph':
                await panel.refreshGraph();
                return;
            case 'requestRows': {
                const page = await this.request(() => this.languageClient().then(c => c.sendRequest(DatasetRowsRequest, {
                    runId: message.runId, dataset: message.dataset, offset: message.offset, limit: message.limit,
                })));
                panel.post({ type: 'rowsPage', runId: message.runId, dataset: message.dataset, offset: message.offset, page });
                return;
            }
            case 'requestChangeEvents': {
                const uri = panel.documentUri;
                const events = uri
                    ? await this.request(() => this.languageClient().then(c => c.sendRequest(ChangeEventsRequest, {
                        uri, dataset: message.dataset, key: message.key, maxRows: previewMaxRows(vscode.Uri.parse(uri)),
                    })))
                    : { ok: false as const, error: { class: 'PIPELINE_SQL_NO_PIPELINE', message: 'The preview shows no pipeline.' } };
                panel.post({ type: 'changeEvents', requestId: message.requestId, dataset: message.dataset, events });
                return;
            }
            case 'requestVersionChanges': {
                const uri = panel.documentUri;
                const changes = uri
                    ? await this.request(() => this.languageClient().then(c => c.sendRequest(VersionChangesRequest, {
                        uri, dataset: message.dataset, maxRows: previewMaxRows(vscode.Uri.parse(uri)), ...(message.version !== undefined ? { version: message.version } : {}),
                    })))
                    : { ok: false as const, error: { class: 'PIPELINE_SQL_NO_PIPELINE', message: 'The preview shows no pipeline.' } };
                panel.post({ type: 'versionChanges', dataset: message.dataset, changes });
                return;
            }
            case 'ready':
                return;
        }
    }

    /** Runs a request; a transport failure becomes a failed outcome the page can show. */
    private async request<T extends { ok: boolean }>(send: () => Promise<T>): Promise<T | { ok: false; error: { class: string; message: string } }> {
        try {
            return await send();
        } catch (error) {
            return { ok: false, error: { class: 'PIPELINE_SQL_REQUEST_FAILED', message: errorText(error) } };
        }
    }

    /** Opens a definition in the editor column next to the panel. */
    private async openLocation(uri: string, range: { start: { line: number; character: number }; end: { line: number; character: number } } | undefined): Promise<void> {
        const parsed = vscode.Uri.parse(uri);
        // Only documents of the workspace are opened from the page.
        if (parsed.scheme !== 'file' && parsed.scheme !== 'untitled' && parsed.scheme !== 'vscode-remote') {
            return;
        }
        const selection = range ? new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character) : undefined;
        const column = vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === uri)?.viewColumn ?? vscode.ViewColumn.One;
        await vscode.window.showTextDocument(parsed, { selection, viewColumn: column, preserveFocus: false });
    }

    /** Cancels a run in progress and releases the handlers. */
    dispose(): void {
        this.running?.cancel();
        this.disposables.forEach(d => d.dispose());
    }
}

function errorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
