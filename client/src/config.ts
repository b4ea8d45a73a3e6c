import * as vscode from 'vscode';

/** The extension's identifiers, each declared once: language, settings and commands. */
export const LanguageId = 'pipeline-sql';

/** Setting ids under `pipelineSql.*` (declared in package.json `contributes.configuration`). */
export const SettingIds = {
    detectionEnabled: 'pipelineSql.detection.enabled',
    traceServer: 'pipelineSql.trace.server',
    previewMaxRows: 'pipelineSql.preview.maxRows',
} as const;

/** Command ids (declared in package.json `contributes.commands`). */
export const CommandIds = {
    restartServer: 'pipelineSql.restartServer',
    showOutput: 'pipelineSql.showOutput',
    runFlow: 'pipelineSql.runFlow',
    runPipeline: 'pipelineSql.runPipeline',
    fullRefresh: 'pipelineSql.fullRefresh',
    showGraph: 'pipelineSql.showGraph',
    runOnLocalState: 'pipelineSql.runOnLocalState',
    recordTest: 'pipelineSql.recordTest',
    createSampleData: 'pipelineSql.createSampleData',
    useAsSampleData: 'pipelineSql.useAsSampleData',
    openPipelineDefinition: 'pipelineSql.openPipelineDefinition',
} as const;

/** Rows per dataset a run sends to the preview (`pipelineSql.preview.maxRows`), clamped to 1..1,000,000. */
export function previewMaxRows(scope?: vscode.ConfigurationScope): number {
    const value = vscode.workspace.getConfiguration(undefined, scope).get<number>(SettingIds.previewMaxRows, 10_000);
    return Number.isFinite(value) ? Math.max(1, Math.min(1_000_000, Math.floor(value))) : 10_000;
}

/** Whether `.sql` files that belong to a pipeline are switched to the Pipeline SQL mode when opened. */
export function isDetectionEnabled(scope?: vscode.ConfigurationScope): boolean {
    return vscode.workspace.getConfiguration(undefined, scope).get<boolean>(SettingIds.detectionEnabled, true);
}

/** The user's `files.associations` (glob → language id) that apply to a resource. */
export function fileAssociations(scope?: vscode.ConfigurationScope): Record<string, string> {
    return vscode.workspace.getConfiguration('files', scope).get<Record<string, string>>('associations', {});
}
