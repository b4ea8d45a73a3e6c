import * as vscode from 'vscode';
import { DocumentPipelineRequest, PipelinesChangedNotification } from '../../common/protocol.js';
import { LanguageId } from './config.js';
import { pipelineStatusText } from './pipeline-status-text.js';
import type { PipelineSqlClient } from './language-client.js';

/**
 * The language status item naming the pipeline (and bundle target) of the active Pipeline SQL file,
 * as the server's project model has it; clicking it opens the file that defines the pipeline.
 * Updated when the active editor changes and when the server says the pipelines changed.
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
        const spec = info.pipelines.find(p => p.specUri)?.specUri;
        item.command = spec ? { command: 'vscode.open', title: 'Open the pipeline definition', arguments: [vscode.Uri.parse(spec)] } : undefined;
    };
    const safely = (): void => {
        update().catch((error: unknown) => {
            item.text = '$(type-hierarchy) Pipeline';
            item.detail = `The pipeline could not be read: ${error instanceof Error ? error.message : String(error)}`;
        });
    };
    return vscode.Disposable.from(
        item,
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
