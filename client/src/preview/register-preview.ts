import * as vscode from 'vscode';
import { CommandIds, LanguageId } from '../config.js';
import type { PipelineSqlClient } from '../language-client.js';
import { PreviewPanel } from './preview-panel.js';
import { RunController } from './run-controller.js';
import { UntrustedExplanation } from './run-errors.js';
import { runStatus } from './run-status.js';

/**
 * Registers the run flow of the editor: the commands `pipelineSql.runFlow`, `runPipeline`,
 * `fullRefresh` and `showGraph` (the code lenses call the first three), the preview panel's
 * serializer (so it is revived after a reload), and a language status item with the last run.
 */
export function registerPreview(context: vscode.ExtensionContext, client: PipelineSqlClient): vscode.Disposable {
    const controller = new RunController(context, client);
    const status = vscode.languages.createLanguageStatusItem('pipelineSql.lastRun', { language: LanguageId });
    status.name = 'Pipeline SQL run';
    // Always what is true now: the run in progress, else the outcome the preview shows (restored ones included).
    const update = (): void => {
        const trusted = vscode.workspace.isTrusted;
        const view = runStatus({ trusted, ...controller.runState }, UntrustedExplanation);
        status.text = view.text;
        status.detail = view.detail;
        status.busy = view.busy;
        status.severity = view.severity === 'error' ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
        status.command = !trusted ? { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' }
            : controller.runState.shown ? { command: CommandIds.runPipeline, title: 'Run Pipeline' } : undefined;
    };
    update();
    return vscode.Disposable.from(
        controller,
        status,
        vscode.commands.registerCommand(CommandIds.runFlow, (argument?: unknown) => controller.runCommand('runFlow', argument)),
        vscode.commands.registerCommand(CommandIds.runPipeline, (argument?: unknown) => controller.runCommand('runPipeline', argument)),
        vscode.commands.registerCommand(CommandIds.fullRefresh, (argument?: unknown) => controller.runCommand('fullRefresh', argument)),
        vscode.commands.registerCommand(CommandIds.showGraph, (argument?: unknown) => controller.showGraph(argument)),
        vscode.commands.registerCommand(CommandIds.runOnLocalState, (argument?: unknown) => controller.runStatement(argument)),
        vscode.window.registerWebviewPanelSerializer(PreviewPanel.viewType, {
            async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
                PreviewPanel.revive(panel, context.extensionUri, controller, state);
            },
        }),
        vscode.workspace.onDidGrantWorkspaceTrust(update),
        controller.onDidChangeRunState(update),
    );
}
