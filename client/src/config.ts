import * as vscode from 'vscode';

/** The extension's identifiers, each declared once: language, settings and commands. */
export const LanguageId = 'pipeline-sql';

/** Setting ids under `pipelineSql.*` (declared in package.json `contributes.configuration`). */
export const SettingIds = {
    detectionEnabled: 'pipelineSql.detection.enabled',
    traceServer: 'pipelineSql.trace.server',
} as const;

/** Command ids (declared in package.json `contributes.commands`). */
export const CommandIds = {
    restartServer: 'pipelineSql.restartServer',
    showOutput: 'pipelineSql.showOutput',
} as const;

/** Whether `.sql` files that belong to a pipeline are switched to the Pipeline SQL mode when opened. */
export function isDetectionEnabled(scope?: vscode.ConfigurationScope): boolean {
    return vscode.workspace.getConfiguration(undefined, scope).get<boolean>(SettingIds.detectionEnabled, true);
}

/** The user's `files.associations` (glob → language id) that apply to a resource. */
export function fileAssociations(scope?: vscode.ConfigurationScope): Record<string, string> {
    return vscode.workspace.getConfiguration('files', scope).get<Record<string, string>>('associations', {});
}
