/**
 * A file listed by several pipelines has a document in each (see `sharedDocumentUri` in the
 * registry); the editor knows one file. This shows those documents as the file: their diagnostics
 * are published on the file, merged, and the locations LSP answers give (definition, references,
 * rename edits, symbols) name the file. A request in the file is answered by every pipeline's
 * document, merged ({@link SharedFiles.askEachPipeline}): hover (one card, or each pipeline's),
 * completion and code actions (the union; what only some pipelines offer names them), definition
 * and references (every pipeline's places), rename (in every pipeline), inlay hints (one hint where
 * the pipelines agree, else each pipeline's type under its name) and code lenses (each pipeline's
 * run lenses, titled with its name). Signature help is the built-in functions' and the same in every
 * pipeline: the file's own document answers it.
 */
import { Cancellation, DocumentState, URI, type LangiumDocument, type MaybePromise } from 'langium';
import type {
    CodeAction, CodeLens, Command, CompletionItem, CompletionList, Connection, Diagnostic, Hover, InlayHint, MarkedString, MarkupContent,
    PublishDiagnosticsParams, TextEdit, WorkspaceEdit,
} from 'vscode-languageserver';
import type { PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import { escapeMarkdown } from './lsp-text.js';
import { editorUri, parseSharedDocumentUri, type PipelineRegistry } from '../pipeline/pipeline-registry.js';

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
export function mergeSharedHovers(parts: ReadonlyArray<PipelineAnswer<Hover | undefined>>): Hover | null {
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

/**
 * Merges the code actions of a shared file's documents: an action every pipeline offers is offered
 * once, as it is; one only some offer is offered once, its title naming them
 * (`Add SEQUENCE BY updated_at (pipeline eu)`) and never as the preferred fix, since it is right for
 * the file in those pipelines only. Edits name the file.
 */
export function mergeSharedCodeActions(parts: ReadonlyArray<PipelineAnswer<Array<Command | CodeAction>>>): Array<Command | CodeAction> {
    const actions = new Map<string, { action: Command | CodeAction; labels: string[] }>();
    for (const { label, answer } of parts) {
        for (const action of toEditorLocations(answer ?? [])) {
            const key = JSON.stringify(action);
            const entry = actions.get(key);
            if (!entry) {
                actions.set(key, { action, labels: [label] });
            } else if (!entry.labels.includes(label)) {
                entry.labels.push(label);
            }
        }
    }
    return [...actions.values()].map(({ action, labels }) => {
        if (labels.length === parts.length) {
            return action;
        }
        const { isPreferred: _preferred, ...rest } = action as CodeAction;
        return { ...rest, title: `${action.title} (${pipelinesText(labels)})` };
    });
}

/**
 * Merges the code lenses of a shared file's documents: each pipeline's lenses, titled with its name
 * (`Run flow · eu`), each running in its pipeline (its argument names that pipeline's document).
 */
export function mergeSharedCodeLenses(parts: ReadonlyArray<PipelineAnswer<CodeLens[]>>): CodeLens[] {
    // A lens's argument names the pipeline too, for the palette's pick (`gold · eu`).
    const named = (argument: unknown, label: string): unknown =>
        argument && typeof argument === 'object' && !Array.isArray(argument) ? { ...argument, pipeline: label } : argument;
    return parts.flatMap(({ label, answer }) => (answer ?? []).map(lens => lens.command
        ? { ...lens, command: { ...lens.command, title: `${lens.command.title} · ${label}`, arguments: lens.command.arguments?.map(a => named(a, label)) } }
        : lens));
}

/**
 * Merges the inlay hints of a shared file's documents. A hint every pipeline gives alike is shown
 * once, as it is. Where the pipelines infer different types at one place, the hint shows each
 * pipeline's type under its name (`: decimal(3,1) (eu) | int (us)`), so the user sees that the
 * file's column has another type in each pipeline rather than one of them, or none.
 */
export function mergeSharedInlayHints(parts: ReadonlyArray<PipelineAnswer<InlayHint[]>>): InlayHint[] {
    const byPlace = new Map<string, { hint: InlayHint; labels: Map<string, string[]>; tooltips: Map<string, string> }>();
    const text = (hint: InlayHint): string => typeof hint.label === 'string' ? hint.label : hint.label.map(p => p.value).join('');
    for (const { label, answer } of parts) {
        for (const hint of answer ?? []) {
            const place = `${hint.position.line}:${hint.position.character}`;
            const entry = byPlace.get(place) ?? { hint, labels: new Map<string, string[]>(), tooltips: new Map<string, string>() };
            byPlace.set(place, entry);
            const shown = text(hint);
            entry.labels.set(shown, [...(entry.labels.get(shown) ?? []), label]);
            const tooltip = typeof hint.tooltip === 'string' ? hint.tooltip : hint.tooltip?.value;
            if (tooltip !== undefined) {
                entry.tooltips.set(shown, tooltip);
            }
        }
    }
    return [...byPlace.values()].map(({ hint, labels, tooltips }) => {
        const all = [...labels.entries()];
        if (all.length === 1 && all[0][1].length === parts.length) {
            return hint;
        }
        const label = `: ${all.map(([shown, names]) => `${shown.replace(/^: /, '')} (${names.join(', ')})`).join(' | ')}`;
        const tooltip = all.map(([shown, names]) => `**In ${pipelinesText(names)}**\n\n${tooltips.get(shown) ?? escapeMarkdown(shown.replace(/^: /, ''))}`).join('\n\n');
        return { ...hint, label, tooltip: { kind: 'markdown', value: tooltip } };
    });
}

/** The LSP requests whose answers hold document locations. */
const locationMethods = ['onDefinition', 'onTypeDefinition', 'onImplementation', 'onReferences', 'onRenameRequest', 'onWorkspaceSymbol'] as const;

/** One document of a file: the file's own, or its document in another pipeline that lists it. */
export interface PipelineDocument {
    readonly document: LangiumDocument;
    /** The pipeline, as the CLI names it (a bundle pipeline's key, else its name). */
    readonly label: string;
}

/**
 * The shared service `pipeline.SharedFiles`: the documents of a file that several pipelines list,
 * and the one way a language service answers in such a file ({@link askEachPipeline}): it asks each
 * pipeline's document and merges the answers. The providers call it from the hook Langium calls them
 * by (`getHoverContent`, `getCompletion`, `rename`, `getCodeActions`, `provideCodeLens`, …), so a
 * request reaches them as for any file, and an error or a cancellation in one pipeline is the
 * request's, as Langium's request handler reports it.
 */
export class SharedFiles {

    // Resolved on use: the providers that hold this service are created while the workspace services are.
    constructor(private readonly shared: PipelineSqlSharedServices) {}

    private get registry(): PipelineRegistry {
        return this.shared.pipeline.Registry;
    }

    /** The pipeline a document is checked in, as the CLI names it. */
    labelOf(uri: URI): string {
        const info = this.registry.pipelineOf(uri);
        return info.project?.key ?? info.spec?.name ?? info.id;
    }

    /**
     * Every document of the file a document is (its own URI first, then one per other pipeline that
     * lists it), or undefined when no other pipeline lists it. A shared file's document in another
     * pipeline (`?pipeline=` URI) is asked as itself: undefined.
     */
    documentsOf(document: LangiumDocument): PipelineDocument[] | undefined {
        const uri = document.uri;
        if (uri.scheme !== 'file' || parseSharedDocumentUri(uri)) {
            return undefined;
        }
        const extra = this.registry.sharedDocumentUris(uri.fsPath).flatMap(each => {
            const other = this.shared.workspace.LangiumDocuments.getDocument(each);
            return other ? [other] : [];
        });
        return extra.length === 0 ? undefined : [document, ...extra].map(each => ({ document: each, label: this.labelOf(each.uri) }));
    }

    /**
     * Answers a request in a document: in a file several pipelines list, `ask` is asked in each
     * pipeline's document (each as built as the file's own document is) and `merge` makes one answer
     * of theirs; in any other file `ask` answers alone.
     */
    askEachPipeline<T, R>(document: LangiumDocument, ask: (document: LangiumDocument) => MaybePromise<T>,
        merge: (parts: Array<PipelineAnswer<T>>) => R, cancelToken = Cancellation.CancellationToken.None): MaybePromise<T | R> {
        const all = this.documentsOf(document);
        // Any other file: `ask` answers, synchronously when it does.
        return all ? this.askEach(document, all, ask, merge, cancelToken) : ask(document);
    }

    private async askEach<T, R>(document: LangiumDocument, all: readonly PipelineDocument[], ask: (document: LangiumDocument) => MaybePromise<T>,
        merge: (parts: Array<PipelineAnswer<T>>) => R, cancelToken: Cancellation.CancellationToken): Promise<R> {
        // The request waited until the file's own document was built this far; the others are built with it.
        const state = Math.min(document.state, DocumentState.IndexedReferences);
        const parts = await Promise.all(all.map(async ({ document: each, label }) => {
            if (each !== document) {
                await this.shared.workspace.DocumentBuilder.waitUntil(state, each.uri, cancelToken);
            }
            return { label, answer: await ask(each) };
        }));
        return merge(parts);
    }
}

/**
 * Registers the shared-file view on the connection: call before Langium registers its handlers
 * (`startLanguageServer`), so that its publications and answers pass through here. What a request
 * answers in a shared file is the providers' (see {@link SharedFiles}); here, only the URIs: the
 * diagnostics of a file's documents are published on the file, and the locations answers give name it.
 */
export function registerSharedFiles(connection: Connection, shared: PipelineSqlSharedServices): void {
    const registry = shared.pipeline.Registry;
    const documents = shared.workspace.LangiumDocuments;
    const send = connection.sendDiagnostics.bind(connection);
    const labelOf = (document: LangiumDocument): string => shared.pipeline.SharedFiles.labelOf(document.uri);
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

function editorUriString(uri: string): string {
    const parsed = URI.parse(uri);
    return parseSharedDocumentUri(parsed) ? editorUri(parsed).toString() : uri;
}
