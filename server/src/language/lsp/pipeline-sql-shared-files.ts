/**
 * A file listed by several pipelines has a document in each (see `sharedDocumentUri` in the
 * registry); the editor knows one file. This shows those documents as the file: their diagnostics
 * are published on the file, merged; hover and completion ask every pipeline's document and merge
 * the answers (what only some pipelines say names them); rename in it renames in every pipeline, and
 * definition and references in it give every pipeline's places; the locations LSP answers give
 * (definition, references, rename edits, symbols) name the file. Other requests asked in the file
 * itself (code actions, lenses, inlay hints, signature help) are answered by the file's document in
 * its first pipeline.
 */
import { URI, type LangiumDocument } from 'langium';
import { ResponseError } from 'vscode-languageserver';
import type {
    CompletionItem, CompletionList, CompletionParams, Connection, Diagnostic, Hover, HoverParams, MarkedString, MarkupContent,
    PublishDiagnosticsParams, RenameParams, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
} from 'vscode-languageserver';
import type { PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import { editorUri, parseSharedDocumentUri } from '../pipeline/pipeline-registry.js';

/** The diagnostics one pipeline's document of a shared file has. */
export interface PipelineDiagnostics {
    /** The pipeline, as the CLI names it (a bundle pipeline's key, else its name). */
    readonly label: string;
    readonly diagnostics: readonly Diagnostic[];
}

/**
 * Merges the diagnostics of a shared file's documents (the file's own first): a diagnostic every
 * pipeline reports is shown once, as it is; one only some pipelines report is shown once, its
 * source naming them (`pipeline-sql (pipeline us)`), so the user sees where it applies.
 */
export function mergeSharedDiagnostics(parts: readonly PipelineDiagnostics[]): Diagnostic[] {
    if (parts.length === 1) {
        return [...parts[0].diagnostics];
    }
    const byKey = new Map<string, { diagnostic: Diagnostic; labels: string[] }>();
    for (const part of parts) {
        for (const diagnostic of part.diagnostics) {
            const key = JSON.stringify([diagnostic.range, diagnostic.severity, diagnostic.code, diagnostic.message]);
            const entry = byKey.get(key);
            if (!entry) {
                byKey.set(key, { diagnostic, labels: [part.label] });
            } else if (!entry.labels.includes(part.label)) {
                entry.labels.push(part.label);
            }
        }
    }
    return [...byKey.values()].map(({ diagnostic, labels }) => labels.length === parts.length
        ? diagnostic
        : { ...diagnostic, source: `${diagnostic.source ?? 'pipeline-sql'} (pipeline${labels.length > 1 ? 's' : ''} ${labels.join(', ')})` });
}

/** One pipeline's answer to a request at a position of a shared file. */
export interface PipelineAnswer<T> {
    /** The pipeline, as the CLI names it (a bundle pipeline's key, else its name). */
    readonly label: string;
    readonly answer: T | null | undefined;
}

/** Hover contents as Markdown (a MarkedString with a language becomes a code block). */
function hoverMarkdown(contents: Hover['contents']): string {
    const one = (item: MarkupContent | MarkedString): string => typeof item === 'string' ? item
        : 'kind' in item ? item.value : `\`\`\`${item.language}\n${item.value}\n\`\`\``;
    return Array.isArray(contents) ? contents.map(one).join('\n\n') : one(contents);
}

const pipelinesText = (labels: readonly string[]): string => `pipeline${labels.length > 1 ? 's' : ''} ${labels.join(', ')}`;

/**
 * Merges the hovers of a shared file's documents (the file's own first): when every pipeline shows the
 * same card it is shown as it is; otherwise each different card is shown under the pipelines it is
 * theirs (`**In pipeline us**`), one after the other, and a pipeline with no card says nothing.
 */
export function mergeSharedHovers(parts: ReadonlyArray<PipelineAnswer<Hover>>): Hover | null {
    const cards = new Map<string, { hover: Hover; labels: string[] }>();
    for (const { label, answer } of parts) {
        if (!answer) {
            continue;
        }
        const text = hoverMarkdown(answer.contents);
        const card = cards.get(text);
        if (card) {
            card.labels.push(label);
        } else {
            cards.set(text, { hover: answer, labels: [label] });
        }
    }
    const all = [...cards.entries()];
    if (all.length === 0) {
        return null;
    }
    if (all.length === 1 && all[0][1].labels.length === parts.length) {
        return all[0][1].hover;
    }
    const value = all.map(([text, { labels }]) => `**In ${pipelinesText(labels)}**\n\n${text}`).join('\n\n---\n\n');
    const range = all.find(([, { hover }]) => hover.range)?.[1].hover.range;
    return { contents: { kind: 'markdown', value }, ...(range ? { range } : {}) };
}

/**
 * Merges the completions of a shared file's documents (the file's own first): an item every pipeline
 * offers is offered once, as it is; one only some offer is offered once, its detail naming them
 * (`string · orders (pipeline eu)`). The list is incomplete when any pipeline's is.
 */
export function mergeSharedCompletions(parts: ReadonlyArray<PipelineAnswer<CompletionList | CompletionItem[]>>): CompletionList | null {
    const answered = parts.filter(p => p.answer);
    if (answered.length === 0) {
        return null;
    }
    const items = new Map<string, { item: CompletionItem; labels: string[] }>();
    let isIncomplete = false;
    for (const { label, answer } of answered) {
        const list = Array.isArray(answer) ? answer : answer!.items;
        isIncomplete ||= !Array.isArray(answer) && answer!.isIncomplete;
        for (const item of list) {
            const key = JSON.stringify([item.label, item.kind, item.detail, item.labelDetails, item.textEdit, item.insertText]);
            const entry = items.get(key);
            if (!entry) {
                items.set(key, { item, labels: [label] });
            } else if (!entry.labels.includes(label)) {
                entry.labels.push(label);
            }
        }
    }
    return {
        isIncomplete,
        items: [...items.values()].map(({ item, labels }) => labels.length === parts.length
            ? item
            : { ...item, detail: `${item.detail ?? ''}${item.detail ? ' ' : ''}(${pipelinesText(labels)})` }),
    };
}

/**
 * The edits of several renames as one: each file's edits together, an edit made twice (in the file
 * two pipelines share) made once. Null when no rename had an edit.
 */
export function mergeWorkspaceEdits(edits: ReadonlyArray<WorkspaceEdit | null | undefined>): WorkspaceEdit | null {
    const changes = new Map<string, TextEdit[]>();
    for (const edit of edits) {
        for (const [uri, list] of Object.entries(edit?.changes ?? {})) {
            const target = editorUriString(uri);
            changes.set(target, [...(changes.get(target) ?? []), ...list]);
        }
    }
    return changes.size > 0 ? toEditorLocations({ changes: Object.fromEntries(changes) }) : null;
}

/** The places several answers give (a location or a list of them each), each once; null when none gave one. */
export function concatLocations(answers: readonly unknown[]): unknown[] | null {
    const all = answers.flatMap(answer => answer === null || answer === undefined ? [] : Array.isArray(answer) ? answer : [answer]);
    return all.length > 0 ? toEditorLocations(all) : null;
}

/** The LSP requests whose answers hold document locations. */
const locationMethods = ['onDefinition', 'onTypeDefinition', 'onImplementation', 'onReferences', 'onRenameRequest', 'onWorkspaceSymbol'] as const;

/**
 * Registers the shared-file view on the connection: call before Langium registers its handlers
 * (`startLanguageServer`), so that its publications and answers pass through here.
 */
export function registerSharedFiles(connection: Connection, shared: PipelineSqlSharedServices): void {
    const registry = shared.pipeline.Registry;
    const documents = shared.workspace.LangiumDocuments;
    const send = connection.sendDiagnostics.bind(connection);
    const labelOf = (document: LangiumDocument): string => {
        const info = registry.pipelineOf(document.uri);
        return info.project?.key ?? info.spec?.name ?? info.id;
    };
    connection.sendDiagnostics = (params: PublishDiagnosticsParams): Promise<void> => {
        const uri = URI.parse(params.uri);
        if (uri.scheme !== 'file') {
            return send(params);
        }
        const file = editorUri(uri);
        const extra = registry.sharedDocumentUris(file.fsPath);
        if (extra.length === 0 && !parseSharedDocumentUri(uri)) {
            return send(params);
        }
        // Every document of the file, with what is being published standing for its own.
        const parts: PipelineDiagnostics[] = [];
        for (const each of [file, ...extra]) {
            const document = documents.getDocument(each);
            const diagnostics = each.toString() === uri.toString() ? params.diagnostics : document?.diagnostics;
            if (diagnostics !== undefined && document) {
                parts.push({ label: labelOf(document), diagnostics });
            } else if (diagnostics !== undefined && each.toString() === file.toString()) {
                parts.push({ label: '', diagnostics });
            }
        }
        return send({ uri: file.toString(), diagnostics: mergeSharedDiagnostics(parts) });
    };
    /** The documents of a file several pipelines list (its own URI first, with their labels); undefined for any other document. */
    const documentsOfShared = (uriText: string): Array<{ uri: string; label: string }> | undefined => {
        const uri = URI.parse(uriText);
        if (uri.scheme !== 'file' || parseSharedDocumentUri(uri)) {
            return undefined;
        }
        const extra = registry.sharedDocumentUris(uri.fsPath);
        if (extra.length === 0) {
            return undefined;
        }
        return [uri, ...extra].map(each => {
            const info = registry.pipelineOf(each);
            return { uri: each.toString(), label: info.project?.key ?? info.spec?.name ?? info.id };
        });
    };
    // Hover and completion: each pipeline's document of a shared file answers, and the answers are merged.
    const onHover = connection.onHover.bind(connection);
    connection.onHover = handler => onHover(async (params: HoverParams, ...rest) => {
        const shared = documentsOfShared(params.textDocument.uri);
        if (!shared) {
            return handler(params, ...rest);
        }
        const parts = await Promise.all(shared.map(async ({ uri, label }) => ({ label, answer: await handler({ ...params, textDocument: { uri } }, ...rest) })));
        // A request cancelled or failed in one pipeline is that pipeline's answer for all.
        return parts.find(p => isResponseError(p.answer))?.answer ?? mergeSharedHovers(parts as Array<PipelineAnswer<Hover>>);
    });
    const onCompletion = connection.onCompletion.bind(connection);
    connection.onCompletion = handler => onCompletion(async (params: CompletionParams, ...rest) => {
        const shared = documentsOfShared(params.textDocument.uri);
        if (!shared) {
            return handler(params, ...rest);
        }
        const parts = await Promise.all(shared.map(async ({ uri, label }) => ({ label, answer: await handler({ ...params, textDocument: { uri } }, ...rest) })));
        return parts.find(p => isResponseError(p.answer))?.answer ?? mergeSharedCompletions(parts as Array<PipelineAnswer<CompletionList | CompletionItem[]>>);
    });
    // Rename in a shared file: each pipeline renames its references, and the edits are put together.
    const onRename = connection.onRenameRequest.bind(connection);
    connection.onRenameRequest = handler => onRename(async (params: RenameParams, ...rest) => {
        const shared = documentsOfShared(params.textDocument.uri);
        if (!shared) {
            return handler(params, ...rest);
        }
        const parts = await Promise.all(shared.map(async ({ uri }) => handler({ ...params, textDocument: { uri } }, ...rest)));
        return parts.find(isResponseError) ?? mergeWorkspaceEdits(parts as Array<WorkspaceEdit | null | undefined>);
    });
    // Go to definition and references in a shared file: every pipeline's places (`orders` may be a
    // different dataset in each), a place two pipelines give listed once.
    for (const method of ['onDefinition', 'onReferences'] as const) {
        type PositionHandler = (params: TextDocumentPositionParams, ...rest: unknown[]) => unknown;
        const register = (connection[method] as (handler: PositionHandler) => unknown).bind(connection);
        (connection as unknown as Record<string, unknown>)[method] = (handler: PositionHandler) =>
            register(async (params: TextDocumentPositionParams, ...rest: unknown[]) => {
                const shared = documentsOfShared(params.textDocument.uri);
                if (!shared) {
                    return handler(params, ...rest);
                }
                const parts = await Promise.all(shared.map(async ({ uri }) => handler({ ...params, textDocument: { uri } }, ...rest)));
                return parts.find(isResponseError) ?? concatLocations(parts);
            });
    }
    for (const method of locationMethods) {
        const register = (connection[method] as (handler: (...args: unknown[]) => unknown) => unknown).bind(connection);
        (connection as unknown as Record<string, unknown>)[method] = (handler: (...args: unknown[]) => unknown) =>
            register(async (...args: unknown[]) => toEditorLocations(await handler(...args)));
    }
}

/**
 * An LSP answer with the URIs of shared files' other documents replaced by the file's, and what
 * becomes a duplicate dropped (a reference found in two documents of one file is one reference).
 */
export function toEditorLocations<T>(answer: T): T {
    return map(answer) as T;
}

function map(value: unknown): unknown {
    if (Array.isArray(value)) {
        const seen = new Set<string>();
        return value.map(map).filter(item => {
            const key = JSON.stringify(item);
            return seen.has(key) ? false : (seen.add(key), true);
        });
    }
    if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) {
        return value;
    }
    const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
        if ((key === 'uri' || key === 'targetUri') && typeof item === 'string') {
            return [key, editorUriString(item)];
        }
        if (key === 'changes' && item && typeof item === 'object') {
            // A WorkspaceEdit's edits by document: those of one file's documents are the file's.
            const changes = new Map<string, unknown[]>();
            for (const [uri, edits] of Object.entries(item as Record<string, unknown[]>)) {
                const target = editorUriString(uri);
                changes.set(target, [...(changes.get(target) ?? []), ...edits]);
            }
            return [key, Object.fromEntries([...changes].map(([uri, edits]) => [uri, map(edits)]))];
        }
        return [key, map(item)];
    });
    return Object.fromEntries(entries);
}

function isResponseError(value: unknown): boolean {
    return value instanceof ResponseError;
}

function editorUriString(uri: string): string {
    const parsed = URI.parse(uri);
    return parseSharedDocumentUri(parsed) ? editorUri(parsed).toString() : uri;
}
