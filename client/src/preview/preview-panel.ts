import * as vscode from 'vscode';
import {
    isWebviewMessage, type GraphModel, type HostMessage, type PersistedPreviewState, type PreviewView, type WebviewMessage,
} from '../../../common/preview-messages.js';
import type { RunOutcome } from '../../../common/result-model.js';
import { withStateRows, type WrittenVersion } from '../../../common/local-state-rows.js';
import { createNonce, previewHtml } from './preview-html.js';

/** What the panel asks of the rest of the extension (the run controller implements it). */
export interface PreviewHost {
    /** The datasets as the pipeline's state holds them (after a reload). */
    restore(documentUri: string): Promise<RunOutcome | undefined>;
    /** The pipeline graph of a document's pipeline. */
    graph(documentUri: string): Promise<{ graph?: GraphModel; error?: string }>;
    /** Handles a request of the webview that needs the server (rows, events, run from here). */
    handle(message: WebviewMessage, panel: PreviewPanel): Promise<void>;
    /** Notes what the panel does in the extension's log. */
    log(message: string): void;
    /** The panel now shows this outcome (a run's, or the state restored after a reload). */
    didShow(outcome: RunOutcome): void;
}

/**
 * The results panel (one per window): a webview with a strict CSP that shows a run's datasets,
 * the SCD2 and bitemporal pictures and the pipeline graph. `createOrShow` opens or reveals it,
 * `revive` restores it after a reload (through the serializer registered in `register`), and
 * `dispose` releases it. Data reaches the page only through `post`.
 */
export class PreviewPanel implements vscode.Disposable {
    /** The panel's view type (also the `onWebviewPanel:` activation event). */
    static readonly viewType = 'pipelineSql.preview';
    private static current: PreviewPanel | undefined;

    private readonly disposables: vscode.Disposable[] = [];
    private outcome: RunOutcome | undefined;
    /** The label of the run in progress, if any: the page is told again when it reloads. */
    private running: string | undefined;
    private graphModel: GraphModel | undefined;
    private ready = false;
    private pending: HostMessage[] = [];

    private constructor(
        readonly panel: vscode.WebviewPanel,
        private readonly extensionUri: vscode.Uri,
        private readonly host: PreviewHost,
        /** A document of the pipeline shown. */
        public documentUri: string | undefined,
        private readonly initialView: PersistedPreviewState | undefined,
    ) {
        panel.webview.options = PreviewPanel.webviewOptions(extensionUri);
        panel.webview.html = this.html();
        this.disposables.push(
            panel.onDidDispose(() => this.dispose()),
            // A hidden webview is discarded (no retained context): messages posted meanwhile are lost; when it
            // is shown again the page reloads, says `ready` again, and gets the outcome and the graph again.
            panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
            // Hidden, the page is discarded: what is posted meanwhile waits for the reloaded page's `ready`.
            panel.onDidChangeViewState(() => {
                if (!panel.visible) {
                    this.ready = false;
                }
            }),
            vscode.workspace.onDidGrantWorkspaceTrust(() => this.post({ type: 'trust', trusted: true })),
        );
    }

    /** The open panel, if any. */
    static get instance(): PreviewPanel | undefined {
        return PreviewPanel.current;
    }

    /** Webview options: scripts on, and only `out/webview` may be loaded. */
    static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
        return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'out', 'webview')] };
    }

    /** Opens the panel beside the editor, or reveals the open one (without taking the focus). */
    static createOrShow(extensionUri: vscode.Uri, host: PreviewHost, documentUri: string): PreviewPanel {
        const existing = PreviewPanel.current;
        if (existing) {
            existing.documentUri = documentUri;
            existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
            return existing;
        }
        const panel = vscode.window.createWebviewPanel(PreviewPanel.viewType, 'Pipeline SQL Preview',
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, PreviewPanel.webviewOptions(extensionUri));
        PreviewPanel.current = new PreviewPanel(panel, extensionUri, host, documentUri, undefined);
        return PreviewPanel.current;
    }

    /** Restores the panel VS Code kept across a reload, from the state the webview saved. */
    static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, host: PreviewHost, state: unknown): PreviewPanel {
        PreviewPanel.current?.dispose();
        const saved = isPersistedState(state) ? state : undefined;
        PreviewPanel.current = new PreviewPanel(panel, extensionUri, host, saved?.documentUri, saved);
        return PreviewPanel.current;
    }

    /** The outcome the panel shows (a run's, or the state restored after a reload). */
    get shownOutcome(): RunOutcome | undefined {
        return this.outcome;
    }

    /**
     * A statement changed the local state: the page shows the rows read now, and so does a reloaded
     * page (the kept outcome takes them too, with the version written).
     */
    showStateRows(fresh: RunOutcome, written: WrittenVersion | undefined): void {
        if (this.outcome?.ok && fresh.ok) {
            this.outcome = withStateRows(this.outcome, fresh, written);
        }
        this.post({ type: 'stateRefreshed', outcome: fresh, ...(written ? { written } : {}) });
    }

    /** Shows a run's outcome (kept, so that a reloaded page gets it again). */
    showOutcome(outcome: RunOutcome): void {
        this.outcome = outcome;
        this.documentUri = outcome.summary.documentUri;
        this.post({ type: 'runResult', outcome });
        if (this.running) {
            // The result of a run a newer one superseded: the newer one is still busy.
            this.post({ type: 'runStarted', label: this.running });
        }
        this.host.didShow(outcome);
        void this.refreshGraph();
    }

    /** A run started: the page shows it as busy. */
    runStarted(label: string): void {
        this.running = label;
        this.post({ type: 'runStarted', label });
    }

    /**
     * The run ended. Without an outcome (cancelled, or the request failed) the page is told to drop
     * its busy state; with one, `showOutcome` follows and its result ends the busy state itself.
     */
    runEnded(withOutcome: boolean): void {
        const wasRunning = this.running !== undefined;
        this.running = undefined;
        if (wasRunning && !withOutcome) {
            this.post({ type: 'runCancelled' });
        }
    }

    /** Shows a view (and dataset). */
    showView(view: PreviewView, dataset?: string): void {
        this.post({ type: 'showView', view, dataset });
    }

    /** Asks the server for the pipeline graph and sends it to the page. */
    async refreshGraph(): Promise<void> {
        if (!this.documentUri) {
            this.post({ type: 'graph', graph: undefined, error: 'Open a pipeline file and run a flow, or use "Pipeline SQL: Show Pipeline Graph" from it.' });
            return;
        }
        const { graph, error } = await this.host.graph(this.documentUri);
        this.graphModel = graph ?? this.graphModel;
        this.post({ type: 'graph', graph, error });
    }

    /** Posts a message to the page (queued until the page first said it is ready). */
    post(message: HostMessage): void {
        if (!this.ready) {
            // Only the latest of each kind matters for a page that is (re)loading.
            this.pending = [...this.pending.filter(m => m.type !== message.type || m.type === 'rowsPage' || m.type === 'changeEvents'), message];
            return;
        }
        void this.panel.webview.postMessage(message);
    }

    /** Closes the panel. */
    dispose(): void {
        if (PreviewPanel.current === this) {
            PreviewPanel.current = undefined;
        }
        this.panel.dispose();
        this.disposables.forEach(d => d.dispose());
        this.disposables.length = 0;
    }

    private html(): string {
        const webview = this.panel.webview;
        const root = vscode.Uri.joinPath(this.extensionUri, 'out', 'webview');
        return previewHtml({
            cspSource: webview.cspSource,
            nonce: createNonce(),
            scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.js')).toString(),
            styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'preview.css')).toString(),
            initial: { view: this.initialView?.view, dataset: this.initialView?.dataset, documentUri: this.documentUri, trusted: vscode.workspace.isTrusted },
        });
    }

    private async receive(message: unknown): Promise<void> {
        // The page is ours, but nothing it sends is trusted further than its declared shape.
        if (!isWebviewMessage(message)) {
            return;
        }
        if (message.type === 'ready') {
            await this.onReady();
            return;
        }
        await this.host.handle(message, this);
    }

    private async onReady(): Promise<void> {
        this.host.log(`Preview page ready (${this.outcome ? 'showing a run' : this.documentUri ? `restoring ${this.documentUri}` : 'empty'}).`);
        this.ready = true;
        void this.panel.webview.postMessage({ type: 'trust', trusted: vscode.workspace.isTrusted } satisfies HostMessage);
        // The run messages queued for the page are replaced by what is true once it has caught up
        // (the outcome, then a run still in progress): replayed, a queued "run started" could land
        // after the result of that very run, which may arrive while the state is being restored.
        const isRunMessage = (m: HostMessage): boolean => m.type === 'runStarted' || m.type === 'runCancelled' || m.type === 'runResult';
        const queued = this.pending.filter(m => !isRunMessage(m));
        this.pending = [];
        if (!this.outcome && this.documentUri) {
            // Revived after a reload: show what the pipeline's state holds.
            const started = Date.now();
            const restored = await this.host.restore(this.documentUri);
            this.host.log(`Preview of ${this.documentUri} ${restored ? `restored from the pipeline state (${restored.ok ? restored.datasets.length : 0} datasets)` : 'not restored'} in ${Date.now() - started} ms.`);
            if (restored && !this.outcome) {
                this.outcome = restored;
                this.host.didShow(restored);
            }
        }
        if (this.outcome) {
            this.post({ type: 'runResult', outcome: this.outcome });
        }
        if (this.running) {
            this.post({ type: 'runStarted', label: this.running });
        }
        queued.forEach(m => this.post(m));
        if (this.graphModel && !queued.some(m => m.type === 'graph')) {
            this.post({ type: 'graph', graph: this.graphModel });
        } else if (!this.graphModel) {
            await this.refreshGraph();
        }
    }
}

function isPersistedState(value: unknown): value is PersistedPreviewState {
    return typeof value === 'object' && value !== null && typeof (value as { view?: unknown }).view === 'string';
}
