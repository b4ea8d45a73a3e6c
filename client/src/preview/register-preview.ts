import * as vscode from 'vscode';
import { CommandIds, LanguageId } from '../config.js';
import type { PipelineSqlClient } from '../language-client.js';
import { PreviewPanel } from './preview-panel.js';
import { RunController } from './run-controller.js';
import { UntrustedExplanation } from './run-errors.js';

/**
 * Registers the run flow of the editor: the commands `pipelineSql.runFlow`, `runPipeline`,
 * `fullRefresh` and `showGraph` (the code lenses call the first three), the preview panel's
 * serializer (so it is revived after a reload), and a language status item with the last run.
 */
export function registerPreview(context: vscode.ExtensionContext, client: PipelineSqlClient): vscode.Disposable {
    const controller = new RunController(context, client);
    const status = vscode.languages.createLanguageStatusItem('pipelineSql.lastRun', { language: LanguageId });
    status.name = 'Pipeline SQL run';
    const showTrust = (): void => {
        status.text = vscode.workspace.isTrusted ? 'No run yet' : '$(shield) Runs disabled';
        status.detail = vscode.workspace.isTrusted ? 'Use "Run flow" above a dataset.' : UntrustedExplanation;
        status.command = vscode.workspace.isTrusted ? undefined : { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' };
    };
    showTrust();
    return vscode.Disposable.from(
        controller,
        status,
        vscode.commands.registerCommand(CommandIds.runFlow, (argument?: unknown) => controller.runCommand('runFlow', argument)),
        vscode.commands.registerCommand(CommandIds.runPipeline, (argument?: unknown) => controller.runCommand('runPipeline', argument)),
        vscode.commands.registerCommand(CommandIds.fullRefresh, (argument?: unknown) => controller.runCommand('fullRefresh', argument)),
        vscode.commands.registerCommand(CommandIds.showGraph, (argument?: unknown) => controller.showGraph(argument)),
        vscode.window.registerWebviewPanelSerializer(PreviewPanel.viewType, {
            async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
                PreviewPanel.revive(panel, context.extensionUri, controller, state);
            },
        }),
        vscode.workspace.onDidGrantWorkspaceTrust(showTrust),
        controller.onDidFinishRun(run => {
            status.text = run.ok ? `$(check) Last run ${run.durationMs} ms` : '$(error) Last run failed';
            status.detail = run.ok ? `Run ${run.runId} succeeded.` : `${run.errorClass ?? 'Error'} (see the Problems view).`;
            status.severity = run.ok ? vscode.LanguageStatusSeverity.Information : vscode.LanguageStatusSeverity.Error;
            status.command = { command: CommandIds.runPipeline, title: 'Run Pipeline' };
        }),
    );
}
