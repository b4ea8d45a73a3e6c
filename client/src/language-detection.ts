import * as vscode from 'vscode';
import {
    decidePipelineFile, describePipelineDecision, PipelineSpecFileNames, type PipelineFileHost,
} from '../../common/pipeline-files.js';
import { fileAssociations, isDetectionEnabled, LanguageId } from './config.js';
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

/**
 * Opens `.sql` files that belong to a pipeline in the Pipeline SQL mode. For every document VS Code
 * opens as `sql`, it asks the pure decision in `common/pipeline-files.ts` (the nearest
 * `spark-pipeline.yml` and its `libraries` globs, else the text's statements) and, when the answer is
 * yes, calls `languages.setTextDocumentLanguage`. Plain SQL files keep their mode; so do files the
 * user pinned to `sql` in `files.associations` or switched back to SQL by hand.
 */
export function registerLanguageDetection(reasons: DetectionReasons, log: vscode.LogOutputChannel): vscode.Disposable {
    // Project files are read once per session and forgotten when any of them changes.
    const specCache = new Map<string, Promise<string | undefined>>();
    const switchedAway = new LanguageSwitchMemory();

    const hostFor = (document: vscode.TextDocument): PipelineFileHost => {
        // Only documents backed by a file system can lie in a pipeline folder; others are judged by their text.
        if (vscode.workspace.fs.isWritableFileSystem(document.uri.scheme) === undefined) {
            return { readFile: () => Promise.resolve(undefined) };
        }
        return {
            readFile: (filePath: string) => {
                const uri = document.uri.with({ path: filePath, query: '', fragment: '' });
                const key = uri.toString();
                let text = specCache.get(key);
                if (!text) {
                    text = readIfExists(uri);
                    text.catch(() => specCache.delete(key));
                    specCache.set(key, text);
                }
                return text;
            },
        };
    };

    const consider = async (document: vscode.TextDocument): Promise<void> => {
        if (document.languageId !== 'sql' || !isDetectionEnabled(document.uri)) {
            return;
        }
        if (switchedAway.isSwitchAway(document.uri.toString()) || isPinnedToSql(document)) {
            return;
        }
        const decision = await decidePipelineFile(document.uri.path, document.getText(), hostFor(document));
        // The document may have been closed or switched by someone else while we read project files.
        if (decision.isPipeline && !document.isClosed && document.languageId === 'sql') {
            const switched = await vscode.languages.setTextDocumentLanguage(document, LanguageId);
            reasons.set(switched.uri, describePipelineDecision(decision));
            log.info(`${vscode.workspace.asRelativePath(document.uri)}: Pipeline SQL mode. ${describePipelineDecision(decision)}`);
        }
    };
    const considerSafely = (document: vscode.TextDocument): void => {
        consider(document).catch((error: unknown) => {
            // A failed detection leaves the document as plain SQL; the log says why.
            log.error(`Could not decide the language of ${document.uri.toString()}: ${error instanceof Error ? error.message : String(error)}`);
        });
    };

    const specWatchers = PipelineSpecFileNames.map(name => vscode.workspace.createFileSystemWatcher(`**/${name}`));
    const disposables: vscode.Disposable[] = [
        ...specWatchers,
        ...specWatchers.flatMap(w => [w.onDidCreate, w.onDidChange, w.onDidDelete].map(on => on(() => specCache.clear()))),
        vscode.workspace.onDidOpenTextDocument(considerSafely),
        vscode.workspace.onDidCloseTextDocument(document => {
            if (document.languageId === LanguageId) {
                switchedAway.closedAsPipelineSql(document.uri.toString());
            }
            reasons.delete(document.uri);
        }),
    ];
    // Documents opened before the extension activated (activation itself may come from opening one).
    vscode.workspace.textDocuments.forEach(considerSafely);
    return vscode.Disposable.from(...disposables);
}

/** Reads a file as UTF-8; undefined when it does not exist (the common case while walking up folders). */
async function readIfExists(uri: vscode.Uri): Promise<string | undefined> {
    try {
        return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
        if (error instanceof vscode.FileSystemError) {
            return undefined;
        }
        throw error;
    }
}

/** Whether the user's `files.associations` map this document to plain `sql` explicitly. */
function isPinnedToSql(document: vscode.TextDocument): boolean {
    return associationPatterns(fileAssociations(document.uri), 'sql')
        .some(pattern => vscode.languages.match({ pattern }, document) > 0);
}
