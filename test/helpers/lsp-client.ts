import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
    ConfigurationRequest, createProtocolConnection, InitializeRequest, InitializedNotification, PublishDiagnosticsNotification,
    StreamMessageReader, StreamMessageWriter, type ProtocolConnection, type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A real language-server process started with `pipeline-sql lsp --stdio`, and an LSP connection to it. */
export interface StdioServer {
    connection: ProtocolConnection;
    process: ChildProcess;
    /** Resolves with the next diagnostics published for `uri` that satisfy `accept`. */
    diagnostics(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
    /** Resolves with the diagnostics last published for `uri` if they satisfy `accept`, else with the next that do. */
    settled(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
    /** Every URI the server has published diagnostics for so far. */
    readonly publishedUris: ReadonlySet<string>;
    /** The diagnostics last published for each URI, and how many publications there were in all. */
    readonly lastPublished: ReadonlyMap<string, PublishDiagnosticsParams>;
    readonly publications: number;
    /** What the server wrote to stderr (with `captureStderr`; else it goes to the test's stderr). */
    readonly stderr: string;
    stop(): Promise<void>;
}

/** Options of {@link startStdioServer}. */
export interface StdioServerOptions {
    /** Sent as the `initializationOptions` of `initialize`. */
    readonly initializationOptions?: unknown;
    /** Keep the server's stderr (its log) in {@link StdioServer.stderr} instead of printing it. */
    readonly captureStderr?: boolean;
    /**
     * The client's settings: with it, the client says it answers `workspace/configuration` and
     * answers each item with the value of its section (`pipelineSql`).
     */
    readonly configuration?: (section: string | undefined) => unknown;
}

/** Starts the bundled CLI's language server over stdio and initialises it for `rootDir`. */
export async function startStdioServer(rootDir: string, options: StdioServerOptions = {}): Promise<StdioServer> {
    const child = spawn(process.execPath, [path.join(repoRoot, 'out/cli.cjs'), 'lsp', '--stdio'], {
        stdio: ['pipe', 'pipe', options.captureStderr ? 'pipe' : 'inherit'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
    });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const waiting: Array<{ uri: string; accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];
    const latest = new Map<string, PublishDiagnosticsParams>();
    let publications = 0;
    connection.onNotification(PublishDiagnosticsNotification.type, params => {
        publications++;
        latest.set(params.uri, params);
        const i = waiting.findIndex(w => w.uri === params.uri && w.accept(params));
        if (i >= 0) {
            waiting.splice(i, 1)[0].resolve(params);
        }
    });
    const configuration = options.configuration;
    if (configuration) {
        connection.onRequest(ConfigurationRequest.type, params => params.items.map(item => configuration(item.section)));
    }
    connection.listen();
    const rootUri = `file://${rootDir}`;
    await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid, rootUri, capabilities: configuration ? { workspace: { configuration: true } } : {}, workspaceFolders: [{ uri: rootUri, name: 'test' }],
        initializationOptions: options.initializationOptions,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return {
        connection,
        process: child,
        diagnostics: (uri, accept = () => true) => new Promise(resolve => waiting.push({ uri, accept, resolve })),
        settled: (uri, accept = () => true) => {
            const last = latest.get(uri);
            return last && accept(last) ? Promise.resolve(last) : new Promise(resolve => waiting.push({ uri, accept, resolve }));
        },
        get publishedUris() {
            return new Set(latest.keys());
        },
        get lastPublished() {
            return new Map(latest);
        },
        get publications() {
            return publications;
        },
        get stderr() {
            return stderr;
        },
        async stop() {
            connection.dispose();
            const exited = child.exitCode !== null || child.signalCode !== null
                ? Promise.resolve()
                : new Promise<void>(resolve => child.once('exit', () => resolve()));
            child.kill();
            await exited;
        },
    };
}
