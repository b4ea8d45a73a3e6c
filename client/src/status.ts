import * as vscode from 'vscode';
import { CommandIds, LanguageId } from './config.js';
import type { DetectionReasons } from './language-detection.js';
import type { PipelineSqlClient, ServerState } from './language-client.js';

const stateText: Record<ServerState, string> = {
    'not started': 'Pipeline SQL',
    starting: '$(loading~spin) Pipeline SQL',
    running: '$(check) Pipeline SQL',
    stopped: '$(debug-stop) Pipeline SQL',
    failed: '$(error) Pipeline SQL',
};

/**
 * The language status item of Pipeline SQL documents (the `{}` next to the language mode): the
 * server's state, and why the active file is in this mode. Clicking it shows the server's output.
 */
export function registerLanguageStatus(client: PipelineSqlClient, reasons: DetectionReasons): vscode.Disposable {
    const item = vscode.languages.createLanguageStatusItem('pipelineSql.status', { language: LanguageId });
    item.name = 'Pipeline SQL';
    item.command = { command: CommandIds.showOutput, title: 'Show Output' };

    const update = (): void => {
        const state = client.state;
        item.text = stateText[state];
        item.busy = state === 'starting';
        item.severity = state === 'failed' || state === 'stopped'
            ? vscode.LanguageStatusSeverity.Error
            : vscode.LanguageStatusSeverity.Information;
        const document = vscode.window.activeTextEditor?.document;
        const reason = document && document.languageId === LanguageId
            ? reasons.get(document.uri) ?? 'Mode set by files.associations or the language picker.'
            : undefined;
        item.detail = [`Language server ${state}.`, reason].filter(Boolean).join(' ');
    };
    update();
    return vscode.Disposable.from(
        item,
        client.onDidChangeState(update),
        reasons.onDidChange(update),
        vscode.window.onDidChangeActiveTextEditor(update),
    );
}
