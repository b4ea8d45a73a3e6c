import * as vscode from 'vscode';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node.js';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node.js';

let client: LanguageClient | undefined;

/** Starts the Pipeline SQL language client; the server runs in its own Node process. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const module = context.asAbsolutePath('out/server.cjs');
    const serverOptions: ServerOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
    };
    const clientOptions: LanguageClientOptions = {
        documentSelector: [{ language: 'pipeline-sql' }],
    };
    client = new LanguageClient('pipelineSql', 'Pipeline SQL', serverOptions, clientOptions);
    try {
        await client.start();
    } catch (error) {
        // VS Code does not show a notification when an extension fails to activate, so we do.
        void vscode.window.showErrorMessage(`Pipeline SQL: the language server failed to start: ${String(error)}`);
        throw error;
    }
}

export function deactivate(): Thenable<void> | undefined {
    return client?.stop();
}
