import * as vscode from 'vscode';
import { DocumentPipelineRequest, PipelinesChangedNotification } from '../../common/protocol.js';
import { CommandIds, LanguageId } from './config.js';
import { definitionChoices, pipelineStatusText, type DefinitionChoice } from './pipeline-status-text.js';
import type { PipelineSqlClient } from './language-client.js';

/**
 * The language status item naming the pipeline (and bundle target) of the active Pipeline SQL file,
 * as the server's project model has it; clicking it opens where the pipeline is defined, or, for a
 * file several pipelines list, offers a pick of their definitions (the command
 * `pipelineSql.openPipelineDefinition`, also in the palette for the active file). Updated when the active editor changes and when the server says the pipelines changed.
 */
export function registerPipelineStatus(client: PipelineSqlClient): vscode.Disposable {
    const item = vscode.languages.createLanguageStatusItem('pipelineSql.pipeline', { language: LanguageId });
    item.name = 'Pipeline';
    item.text = '$(type-hierarchy) Pipeline';
    let asked = 0;
    const update = async (): Promise<void> => {
        const document = vscode.window.activeTextEditor?.document;
        if (!document || document.languageId !== LanguageId || client.state !== 'running') {
            return;
        }
        const ask = ++asked;
        const language = await client.running();
        const info = await language.sendRequest(DocumentPipelineRequest, { uri: document.uri.toString() });
        if (ask !== asked) {
            return;
        }
        const { text, detail } = pipelineStatusText(info);
        item.text = text;
        item.detail = detail;
        const choices = definitionChoices(info);
        item.command = choices.length > 0
            ? { command: CommandIds.openPipelineDefinition, title: choices.length > 1 ? 'Open a pipeline definition' : 'Open the pipeline definition', arguments: [choices] }
            : undefined;
    };
    /** Opens a pipeline definition: the only one, else the one picked; without choices, those of the active file. */
    const openDefinition = async (argument?: unknown): Promise<void> => {
        let choices = Array.isArray(argument) ? argument as DefinitionChoice[] : undefined;
        const document = vscode.window.activeTextEditor?.document;
        if (!choices && document && client.state === 'running') {
            const language = await client.running();
            choices = definitionChoices(await language.sendRequest(DocumentPipelineRequest, { uri: document.uri.toString() }));
        }
        if (!choices || choices.length === 0) {
            await vscode.window.showInformationMessage('Pipeline SQL: the active file belongs to no pipeline defined in a project file (databricks.yml, spark-pipeline.yml).');
            return;
        }
        const picked = choices.length === 1 ? choices[0]
            : await vscode.window.showQuickPick(choices, { title: 'Pipeline SQL: Open Pipeline Definition', placeHolder: 'The file is in several pipelines: which definition?' });
        if (picked) {
            const at = new vscode.Range(picked.line, 0, picked.line, 0);
            await vscode.window.showTextDocument(vscode.Uri.parse(picked.uri), { selection: at });
        }
    };
    const safely = (): void => {
        update().catch((error: unknown) => {
            item.text = '$(type-hierarchy) Pipeline';
            item.detail = `The pipeline could not be read: ${error instanceof Error ? error.message : String(error)}`;
        });
    };
    return vscode.Disposable.from(
        item,
        vscode.commands.registerCommand(CommandIds.openPipelineDefinition, (argument?: unknown) => openDefinition(argument).catch((error: unknown) => {
            void vscode.window.showErrorMessage(`Pipeline SQL: the pipeline definition could not be opened: ${error instanceof Error ? error.message : String(error)}`);
        })),
        vscode.window.onDidChangeActiveTextEditor(safely),
        // Detection switches a document to Pipeline SQL after it became active: answer for it then.
        vscode.workspace.onDidOpenTextDocument(document => {
            if (document.languageId === LanguageId) {
                setTimeout(safely, 0);
            }
        }),
        client.onDidChangeState(state => {
            if (state === 'running') {
                void client.running().then(language => {
                    language.onNotification(PipelinesChangedNotification, safely);
                    safely();
                });
            }
        }),
    );
}
