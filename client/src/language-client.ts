import * as vscode from 'vscode';
import type { LanguageClientOptions, ServerOptions, StateChangeEvent } from 'vscode-languageclient/node.js';
import { LanguageClient, State, TransportKind } from 'vscode-languageclient/node.js';
import { WorkspaceTrustNotification, type PipelineSqlInitializationOptions } from '../../common/protocol.js';
import { LanguageId } from './config.js';

/** The port the language server's Node inspector listens on in debug mode ("Attach to Language Server"). */
export const ServerDebugPort = 6009;

/** Pipeline test files: YAML documents named `*.test.yml` (or `.test.yaml`). */
export const TestFileSelector: Array<{ language: string; pattern: string }> = [
    { language: 'yaml', pattern: '**/*.test.yml' },
    { language: 'yaml', pattern: '**/*.test.yaml' },
];

/** Server health as the language status item shows it. */
export type ServerState = 'not started' | 'starting' | 'running' | 'stopped' | 'failed';

/**
 * Owns the language client: builds it (IPC transport, `out/server.cjs`, inspector on port 6009 in
 * debug mode), starts it the first time a Pipeline SQL document is open, restarts it on request and
 * reports its state. Starting lazily keeps the server process away from workspaces that only
 * activated the extension through a plain `.sql` file.
 */
export class PipelineSqlClient implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private starting: Promise<void> | undefined;
    private stateValue: ServerState = 'not started';
    private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
    // One set of watchers for the whole session; a restarted client reuses them.
    private readonly watchers = [
        vscode.workspace.createFileSystemWatcher('**/*.sql'),
        // Project files (spark-pipeline.yml, databricks.yml and the resource files it includes) and
        // Python libraries: the server's project model reloads when they change.
        vscode.workspace.createFileSystemWatcher('**/*.{yml,yaml,py}'),
    ];
    private readonly disposables: vscode.Disposable[] = [this.stateEmitter, ...this.watchers];

    /** Fires whenever the server state changes. */
    readonly onDidChangeState = this.stateEmitter.event;

    constructor(private readonly context: vscode.ExtensionContext, readonly outputChannel: vscode.OutputChannel) {
        this.disposables.push(vscode.workspace.onDidOpenTextDocument(document => this.startFor(document)));
        // The server enforces Restricted Mode itself: it learns the trust at start and when it is granted.
        this.disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(() => {
            if (this.client?.isRunning()) {
                void this.client.sendNotification(WorkspaceTrustNotification, { trusted: vscode.workspace.isTrusted });
            }
        }));
        // The extension may activate after a Pipeline SQL document was opened (or made the switch).
        vscode.workspace.textDocuments.forEach(document => this.startFor(document));
    }

    /** The current server state. */
    get state(): ServerState {
        return this.stateValue;
    }

    /** Starts the server if it is not running yet; resolves once it answered `initialize`. */
    start(): Promise<void> {
        this.starting ??= this.doStart().catch((error: unknown) => {
            this.starting = undefined;
            this.setState('failed');
            // VS Code does not show a notification when a language server fails to start, so we do.
            void vscode.window.showErrorMessage(`Pipeline SQL: the language server failed to start: ${errorMessage(error)}`, 'Show Output')
                .then(choice => choice && this.outputChannel.show());
        });
        return this.starting;
    }

    /** The language client once the server runs (started first if needed), for custom requests. */
    async running(): Promise<LanguageClient> {
        await this.start();
        if (!this.client || !this.client.isRunning()) {
            throw new Error(`the language server is ${this.state}.`);
        }
        return this.client;
    }

    /** Stops the server (if running) and starts a fresh one. */
    async restart(): Promise<void> {
        const old = this.client;
        this.client = undefined;
        this.starting = undefined;
        if (old) {
            await old.dispose();
        }
        await this.start();
    }

    /** Stops the server; the extension's `deactivate` awaits this. */
    async dispose(): Promise<void> {
        this.disposables.forEach(d => d.dispose());
        const client = this.client;
        this.client = undefined;
        if (client) {
            await client.dispose();
        }
    }

    private startFor(document: vscode.TextDocument): void {
        if ((document.languageId === LanguageId || vscode.languages.match(TestFileSelector, document) > 0) && !this.starting) {
            void this.start();
        }
    }

    private async doStart(): Promise<void> {
        const client = createLanguageClient(this.context, this.outputChannel, this.watchers);
        this.client = client;
        client.onDidChangeState((event: StateChangeEvent) => {
            if (this.client === client) {
                this.setState(toServerState(event.newState));
            }
        });
        this.setState('starting');
        await client.start();
        if (vscode.workspace.isTrusted) {
            // Trust granted while the server was starting (after its initialize options were read).
            await client.sendNotification(WorkspaceTrustNotification, { trusted: true });
        }
    }

    private setState(state: ServerState): void {
        if (state !== this.stateValue) {
            this.stateValue = state;
            this.stateEmitter.fire(state);
        }
    }
}

/**
 * Builds the language client for Pipeline SQL documents. The server is the bundled `out/server.cjs`
 * in its own Node process over IPC; file events for SQL files and pipeline project files are
 * forwarded so the server sees files that are not open in the editor change. The workspace's trust
 * goes with `initialize`: in Restricted Mode the server runs nothing and opens no state database.
 */
export function createLanguageClient(
    context: vscode.ExtensionContext, outputChannel: vscode.OutputChannel, watchers: vscode.FileSystemWatcher[],
): LanguageClient {
    const module = context.asAbsolutePath('out/server.cjs');
    const serverOptions: ServerOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', `--inspect=${ServerDebugPort}`] } },
    };
    const clientOptions: LanguageClientOptions = {
        // Pipeline test files stay YAML documents (for the YAML extension); the server adds their names' checks, completion and hover.
        documentSelector: [{ language: LanguageId }, ...TestFileSelector],
        // Read at each start, so a restarted server gets the trust of that moment.
        initializationOptions: (): PipelineSqlInitializationOptions => ({ workspaceTrusted: vscode.workspace.isTrusted }),
        outputChannel,
        synchronize: { fileEvents: watchers },
    };
    // The id `pipelineSql` makes the client read the `pipelineSql.trace.server` setting.
    return new LanguageClient('pipelineSql', 'Pipeline SQL Language Server', serverOptions, clientOptions);
}

function toServerState(state: State): ServerState {
    switch (state) {
        case State.Starting: return 'starting';
        case State.Running: return 'running';
        case State.Stopped: return 'stopped';
    }
}

function errorMessage(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
