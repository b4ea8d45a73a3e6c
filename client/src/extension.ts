import * as vscode from 'vscode';
import { registerCommands } from './commands.js';
import { PipelineSqlClient } from './language-client.js';
import { DetectionReasons, registerLanguageDetection } from './language-detection.js';
import { registerPreview } from './preview/register-preview.js';
import { registerLanguageStatus } from './status.js';
import { registerPipelineStatus } from './pipeline-status.js';
import { registerSampleData } from './sample-data.js';
import { registerTestExplorer } from './test-explorer.js';

let client: PipelineSqlClient | undefined;

/**
 * Activates Pipeline SQL: language detection for `.sql` files, the language client (started when the
 * first Pipeline SQL document opens), the language status item and the commands. Only wiring here.
 */
export function activate(context: vscode.ExtensionContext): void {
    try {
        const log = vscode.window.createOutputChannel('Pipeline SQL', { log: true });
        const reasons = new DetectionReasons();
        client = new PipelineSqlClient(context, log);
        context.subscriptions.push(
            log,
            reasons,
            client,
            registerLanguageDetection(client, reasons, log),
            registerPipelineStatus(client),
            registerLanguageStatus(client, reasons),
            registerCommands(client),
            registerPreview(context, client),
            registerTestExplorer(client),
            registerSampleData(client),
        );
    } catch (error) {
        // VS Code does not show a notification when an extension fails to activate, so we do.
        void vscode.window.showErrorMessage(`Pipeline SQL failed to activate: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
    }
}

/** Stops the language server. */
export function deactivate(): Promise<void> | undefined {
    return client?.dispose();
}
