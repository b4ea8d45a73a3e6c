/**
 * A file listed by several pipelines has a document in each (see `sharedDocumentUri` in the
 * registry); the editor knows one file. This shows those documents as the file: their diagnostics
 * are published on the file, merged, and the locations LSP answers give (definition, references,
 * rename edits, symbols) name the file.
 */
import { URI, type LangiumDocument } from 'langium';
import type { Connection, Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
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
