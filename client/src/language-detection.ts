import * as vscode from 'vscode';
import { findPipelineStatement } from '../../common/pipeline-files.js';
import { DocumentPipelineRequest, PipelinesChangedNotification, type DocumentPipelineInfo } from '../../common/protocol.js';
import { fileAssociations, isDetectionEnabled, LanguageId } from './config.js';
import type { PipelineSqlClient } from './language-client.js';
import { associationPatterns, LanguageSwitchMemory } from './language-mode-policy.js';

/** Why each open document is (or is not) in the Pipeline SQL mode, for the language status item. */
export class DetectionReasons {
    private readonly reasons = new Map<string, string>();
    private readonly emitter = new vscode.EventEmitter<vscode.Uri>();

    /** Fires with the document whose reason changed. */
    readonly onDidChange = this.emitter.event;

    /** Records the reason for a document. */
    set(uri: vscode.Uri, reason: string): void {
        this.reasons.set(uri.toString(), reason);
        this.emitter.fire(uri);
    }

    /** The reason recorded for a document; undefined when the mode came from elsewhere (a setting, the picker). */
    get(uri: vscode.Uri): string | undefined {
        return this.reasons.get(uri.toString());
    }

    /** Forgets a closed document. */
    delete(uri: vscode.Uri): void {
        this.reasons.delete(uri.toString());
    }

    /** Releases the event emitter. */
    dispose(): void {
        this.emitter.dispose();
    }
}

/** Project files whose presence makes the server's project model worth asking. */
const ProjectFilesGlob = '**/{databricks,spark-pipeline}.{yml,yaml}';

/**
 * Opens `.sql` files that belong to a pipeline in the Pipeline SQL mode. A document VS Code opens as
 * `sql` is switched with `languages.setTextDocumentLanguage` when its text has a pipeline-only
 * statement, or when the server's project model lists it (a library of a bundle pipeline or of a
 * spark-pipeline.yml, or pipeline SQL of a plain folder), or when the server finds it a scratch file
 * of a pipeline (in its folder, none of its files, queries and DML on its datasets: its "Run on local
 * state" lenses work at once; asked again after edits). The server tells when the pipelines change
 * (a new file under a pipeline's libraries, an edited project file): open `sql` documents are asked
 * about again, so a new file switches without being reopened; so does a `sql` document whose text
 * gains a pipeline statement. Plain SQL files keep their mode; so do files the user pinned to `sql` in
 * `files.associations` or switched back to SQL by hand.
 */
export function registerLanguageDetection(client: PipelineSqlClient, reasons: DetectionReasons, log: vscode.LogOutputChannel): vscode.Disposable {
    const switchedAway = new LanguageSwitchMemory();
    // Documents the user switched from Pipeline SQL to SQL: never switched back while they stay open.
    const keptAsSql = new Set<string>();
    let projectFiles: Promise<boolean> | undefined;
    const hasProjectFiles = (): Promise<boolean> => {
        projectFiles ??= Promise.resolve(vscode.workspace.findFiles(ProjectFilesGlob, '**/node_modules/**', 1)).then(found => found.length > 0, () => false);
        return projectFiles;
    };

    const askServer = async (document: vscode.TextDocument): Promise<DocumentPipelineInfo | undefined> => {
        if (document.uri.scheme !== 'file' || !(client.state === 'running' || await hasProjectFiles())) {
            return undefined;
        }
        const language = await client.running();
        return language.sendRequest(DocumentPipelineRequest, { uri: document.uri.toString(), text: document.getText() });
    };
    // Documents in a pipeline's folder that are none of its files: an edit may make them scratch files.
    const scratchCandidates = new Set<string>();

    const consider = async (document: vscode.TextDocument): Promise<void> => {
        if (document.languageId !== 'sql' || !isDetectionEnabled(document.uri)) {
            return;
        }
        const key = document.uri.toString();
        if (keptAsSql.has(key)) {
            return;
        }
        if (switchedAway.isSwitchAway(key)) {
            // Switched back to SQL by the user: kept until the document closes.
            keptAsSql.add(key);
            return;
        }
        if (isPinnedToSql(document)) {
            return;
        }
        // A pipeline statement switches at once; the project model's answer (asked next) is the better reason.
        const statement = findPipelineStatement(document.getText());
        let switched: vscode.TextDocument | undefined;
        if (statement) {
            switched = await vscode.languages.setTextDocumentLanguage(document, LanguageId);
            reasons.set(switched.uri, `Contains a pipeline statement (${statement}).`);
        }
        const info = await askServer(document);
        if (info?.scratchCandidate && !document.isClosed) {
            scratchCandidates.add(key);
        } else {
            scratchCandidates.delete(key);
        }
        // The document may have been closed or switched by someone else while we asked.
        if (!switched && info?.isPipeline && !document.isClosed && document.languageId === 'sql') {
            switched = await vscode.languages.setTextDocumentLanguage(document, LanguageId);
        }
        if (switched && info?.isPipeline) {
            reasons.set(switched.uri, info.reason);
        }
        if (switched) {
            log.info(`${vscode.workspace.asRelativePath(document.uri)}: Pipeline SQL mode. ${reasons.get(switched.uri) ?? ''}`);
        }
    };
    const considerSafely = (document: vscode.TextDocument): void => {
        consider(document).catch((error: unknown) => {
            // A failed detection leaves the document as plain SQL; the log says why.
            log.error(`Could not decide the language of ${document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
        });
    };
    const reconsiderOpen = (): void => vscode.workspace.textDocuments.filter(d => d.languageId === 'sql').forEach(considerSafely);

    // Typing a pipeline statement into a plain SQL document switches it (checked once typing pauses).
    const typing = new Map<string, ReturnType<typeof setTimeout>>();
    const onEdit = (event: vscode.TextDocumentChangeEvent): void => {
        const { document } = event;
        if (document.languageId !== 'sql' || event.contentChanges.length === 0) {
            return;
        }
        const key = document.uri.toString();
        clearTimeout(typing.get(key));
        typing.set(key, setTimeout(() => {
            typing.delete(key);
            if (scratchCandidates.has(key) || findPipelineStatement(document.getText())) {
                considerSafely(document);
            }
        }, 400));
    };

    const projectWatcher = vscode.workspace.createFileSystemWatcher(ProjectFilesGlob);
    const disposables: vscode.Disposable[] = [
        projectWatcher,
        projectWatcher.onDidCreate(() => { projectFiles = Promise.resolve(true); }),
        vscode.workspace.onDidOpenTextDocument(considerSafely),
        vscode.workspace.onDidChangeTextDocument(onEdit),
        // A document VS Code opened for a moment in the background (a hover's or a definition's model) may
        // be gone before its switch, and then shown without a new open: it is decided when it shows.
        vscode.window.onDidChangeActiveTextEditor(editor => {
            if (editor?.document.languageId === 'sql') {
                considerSafely(editor.document);
            }
        }),
        vscode.workspace.onDidCloseTextDocument(document => {
            const key = document.uri.toString();
            if (document.languageId === LanguageId) {
                // A switch of language happens in an editor; a model VS Code opened in the background (for
                // a hover's or a definition's link) and disposed is not one, even when it is reopened at once.
                if (vscode.window.visibleTextEditors.some(e => e.document.uri.toString() === key)) {
                    switchedAway.closedAsPipelineSql(key);
                }
            } else {
                keptAsSql.delete(key);
            }
            scratchCandidates.delete(key);
            reasons.delete(document.uri);
        }),
        // The server says when the pipelines changed: a file may have become a library.
        client.onDidChangeState(state => {
            if (state === 'running') {
                void client.running().then(language => {
                    language.onNotification(PipelinesChangedNotification, reconsiderOpen);
                    reconsiderOpen();
                });
            }
        }),
        { dispose: () => typing.forEach(timer => clearTimeout(timer)) },
    ];
    // Documents opened before the extension activated (activation itself may come from opening one).
    vscode.workspace.textDocuments.forEach(considerSafely);
    return vscode.Disposable.from(...disposables);
}

/** Whether the user's `files.associations` map this document to plain `sql` explicitly. */
function isPinnedToSql(document: vscode.TextDocument): boolean {
    return associationPatterns(fileAssociations(document.uri), 'sql')
        .some(pattern => vscode.languages.match({ pattern }, document) > 0);
}
