/**
 * The pipeline a document belongs to, ready for the engine: the project model's pipeline of the
 * document (else the document alone, in its folder), its source files and sample catalog files as
 * the language server has them (open documents with their unsaved text), checked for errors, and
 * lowered to the engine IR by the one run preparation (`server/src/project/run-preparation.ts`).
 * Anything that stops a run is a typed error with a place to show it.
 */
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { DocumentState, URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { DiagnosticSeverity, type CancellationToken, type Diagnostic } from 'vscode-languageserver';
import type { PipelineIR } from '../../../engine/src/index.js';
import type { RunErrorModel } from '../../../common/result-model.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { plainPipeline } from '../project/discovery.js';
import type { PipelineProject } from '../project/project-types.js';
import { prepareRun, realReadRoots } from '../project/run-preparation.js';
import { fileUri } from './run-results.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** Where a pipeline lives and what the engine needs to run it. */
export interface PipelineLocation {
    /** The pipeline's id in the project model: runs, their state and their diagnostics are per id. */
    readonly id: string;
    /** The root folder (the bundle root for a bundle pipeline). */
    readonly root: string;
    /** The pipeline's identity as a URI (the root folder; `#<key>` added for a bundle pipeline). */
    readonly rootUri: string;
    /** The pipeline's name. */
    readonly name?: string;
    readonly samplesDir: string;
    /** The state database folder, shared with `pipeline-sql run`. */
    readonly stateDir: string;
    /** The model's pipeline. */
    readonly project: PipelineProject;
}

/** A pipeline lowered to the engine IR. */
export interface PreparedPipeline extends PipelineLocation {
    readonly ir: PipelineIR;
    /**
     * The folders engine reads may touch, symlinks resolved: the pipeline root (the bundle root) and
     * the folders the user allowed, as `pipeline-sql run` computes them (see `realReadRoots`).
     */
    readonly readRoots: string[];
    /** URIs of the source documents and Python library files (runtime errors in them become diagnostics). */
    readonly sourceUris: ReadonlySet<string>;
    /** The pipeline's source and sample catalog documents (to lower a statement run on its state). */
    readonly documents: { readonly sources: readonly LangiumDocument[]; readonly catalog: readonly LangiumDocument[] };
}

/** A diagnostic for a document (lowering problems are shown on their clause). */
export interface DocumentDiagnostic {
    readonly uri: string;
    readonly diagnostic: Diagnostic;
}

/** The outcome of preparing a pipeline. */
export type Preparation =
    | { readonly ok: true; readonly pipeline: PreparedPipeline }
    | { readonly ok: false; readonly location?: PipelineLocation; readonly error: RunErrorModel; readonly diagnostics?: readonly DocumentDiagnostic[] };

/**
 * The pipeline of a document as the model has it; a document in no pipeline is a pipeline of its own, in
 * its folder — or, with `enclosing` (a scratch file run on a pipeline's state), the model's pipeline
 * whose root folder holds it (the innermost).
 */
function projectOf(services: PipelineSqlServices, uri: URI, enclosing = false): PipelineProject {
    const registry = services.pipeline.Registry;
    const info = registry.pipelineOf(uri);
    if (info.project) {
        return info.project;
    }
    const holder = enclosing ? registry.enclosingPipeline(uri)?.project : undefined;
    if (holder) {
        return holder;
    }
    const root = info.rootPath ?? path.dirname(uri.fsPath);
    const sources = info.rootPath
        // An in-memory root: the documents the registry gives it.
        ? services.shared.workspace.LangiumDocuments.all.filter(d => registry.membershipOf(d.uri).role === 'pipeline' && registry.pipelineOf(d.uri).id === info.id).map(d => d.uri.fsPath).toArray()
        : [uri.fsPath];
    const pipeline = plainPipeline(root, sources);
    return { ...pipeline, id: info.id, name: info.spec?.name ?? pipeline.name, configuration: info.spec?.configuration ?? {}, catalog: info.spec?.catalog, schema: info.spec?.schema };
}

/** The pipeline of a document: where it lives and its folders. */
export function locatePipeline(services: PipelineSqlServices, documentUri: string, options: { enclosing?: boolean } = {}): PipelineLocation | RunErrorModel {
    const uri = URI.parse(documentUri);
    if (uri.scheme !== 'file') {
        return { class: ErrorClass.notAFile, message: `Only pipelines saved on disk can run; ${documentUri} is not a file.` };
    }
    const project = projectOf(services, uri, options.enclosing);
    const rootUri = URI.file(project.root).toString() + (project.key ? `#${encodeURIComponent(project.key)}` : '');
    return { id: project.id, root: project.root, rootUri, name: project.name, samplesDir: project.samplesDir, stateDir: project.stateDir, project };
}

/** Whether a value is a run error rather than a location. */
export function isRunError(value: PipelineLocation | RunErrorModel): value is RunErrorModel {
    return 'class' in value;
}

/** The documents for some files: those the workspace has, the others loaded and built now. */
export async function documentsFor(shared: LangiumSharedServices, files: ReadonlyArray<string | URI>, token: CancellationToken): Promise<LangiumDocument[]> {
    const documents = shared.workspace.LangiumDocuments;
    const uris = files.map(f => (typeof f === 'string' ? URI.file(f) : f));
    const missing = uris.filter(u => !documents.hasDocument(u));
    if (missing.length > 0) {
        // Building mutates the workspace: only under the write lock, like Langium's own updates.
        await shared.workspace.WorkspaceLock.write(async lockToken => {
            const created: LangiumDocument[] = [];
            for (const uri of missing) {
                if (!documents.hasDocument(uri)) {
                    created.push(await documents.getOrCreateDocument(uri));
                }
            }
            if (created.length > 0) {
                await shared.workspace.DocumentBuilder.build(created, { validation: true }, lockToken);
            }
        });
    }
    await shared.workspace.DocumentBuilder.waitUntil(DocumentState.Validated, token);
    return uris.map(u => documents.getDocument(u)).filter((d): d is LangiumDocument => d !== undefined);
}

/**
 * Prepares the pipeline of a document for a run: finds its files, refuses to run while a source
 * file has errors (they are already shown as diagnostics), and lowers it to the engine IR.
 */
export async function preparePipeline(shared: LangiumSharedServices, services: PipelineSqlServices, documentUri: string, token: CancellationToken,
    options: { enclosing?: boolean } = {}): Promise<Preparation> {
    // Membership comes from the project model, which the workspace's first load fills.
    await shared.workspace.WorkspaceManager.ready;
    // A reload of the model already asked for (a setting or the workspace's trust changed) comes first.
    await shared.workspace.WorkspaceLock.read(() => undefined);
    const location = locatePipeline(services, documentUri, options);
    if (isRunError(location)) {
        return { ok: false, error: location };
    }
    const readRoots = await realReadRoots(location.project);
    const prepared = await prepareRun(services, location.project, files => documentsFor(shared, files, token), undefined,
        { rootDir: location.root, samplesDir: location.samplesDir, readRoots });
    if (!prepared.ok) {
        const { error } = prepared;
        const place = error.place ? { uri: fileUri(error.place.file), range: error.place.range } : undefined;
        // Refused for the errors already shown: say so; otherwise (lowering, project file) show them.
        const shown = prepared.problems.length === 0 && place !== undefined;
        const diagnostics = prepared.problems.map(p => ({
            uri: fileUri(p.place.file),
            diagnostic: { range: p.place.range, severity: DiagnosticSeverity.Error, code: p.code, source: 'pipeline-sql run', message: p.message },
        }));
        return {
            ok: false, location, diagnostics,
            error: { class: error.class, message: shown ? `The pipeline has errors; fix them to run it. First: ${error.message}` : error.message, ...(place ? { location: place } : {}) },
        };
    }
    // Python library files count: an error may point at a Python dataset's definition.
    const sourceUris = new Set([...prepared.sourceDocuments.map(d => d.uri.toString()), ...prepared.pipeline.pythonFiles.map(f => URI.file(f).toString())]);
    return { ok: true, pipeline: { ...location, ir: prepared.ir, sourceUris, readRoots, documents: { sources: prepared.sourceDocuments, catalog: prepared.catalogDocuments } } };
}
