/**
 * The pipeline a document belongs to, ready for the engine: its root folder (as the pipeline
 * registry assigns it, else the document's folder), its source files and sample catalog files as
 * the language server has them (open documents with their unsaved text), checked for errors, and
 * lowered to the engine IR. Anything that stops a run is a typed error with a place to show it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { DocumentState, URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { DiagnosticSeverity, type CancellationToken, type Diagnostic } from 'vscode-languageserver';
import { YAMLParseError } from 'yaml';
import type { PipelineIR } from '../../../engine/src/index.js';
import type { RunErrorModel } from '../../../common/result-model.js';
import { parsePipelineSpec } from '../../../common/pipeline-files.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { IssueCodes } from '../language/validation/issue-codes.js';
import { lowerPipeline, type PipelineSettings } from '../lowering/index.js';
import { fileHasPipelineStatement, listCatalogFiles, listPipelineFiles } from '../workspace/pipeline-roots.js';
import { fileUri, spanLocation } from './run-results.js';

/** Where a pipeline lives and what the engine needs to run it. */
export interface PipelineLocation {
    /** The root folder. */
    readonly root: string;
    readonly rootUri: string;
    /** The pipeline's name from its project file. */
    readonly name?: string;
    readonly samplesDir: string;
    /** The state database folder, shared with `pipeline-sql run`. */
    readonly stateDir: string;
}

/** A pipeline lowered to the engine IR. */
export interface PreparedPipeline extends PipelineLocation {
    readonly ir: PipelineIR;
    /** URIs of the source documents (runtime errors in them become diagnostics). */
    readonly sourceUris: ReadonlySet<string>;
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

/** The pipeline folder of a document: the root the pipeline registry assigns it, else its own folder. */
export function locatePipeline(services: PipelineSqlServices, documentUri: string): PipelineLocation | RunErrorModel {
    const uri = URI.parse(documentUri);
    if (uri.scheme !== 'file') {
        return { class: 'PIPELINE_SQL_NOT_A_FILE', message: `Only pipelines saved on disk can run; ${documentUri} is not a file.` };
    }
    const info = services.pipeline.Registry.pipelineOf(uri);
    const root = info.rootPath ?? path.dirname(uri.fsPath);
    return {
        root, rootUri: URI.file(root).toString(), name: info.spec?.name, samplesDir: path.join(root, 'samples'), stateDir: path.join(root, '.pipeline-sql'),
    };
}

/** Whether a value is a run error rather than a location. */
export function isRunError(value: PipelineLocation | RunErrorModel): value is RunErrorModel {
    return 'class' in value;
}

/**
 * The source files of a document's pipeline, as the pipeline registry counts them: the project
 * file's libraries; in a root without project file, the `.sql` files with a pipeline statement (as
 * the workspace manager loads them); for a document in no pipeline folder, the document alone.
 */
function sourceFiles(services: PipelineSqlServices, documentUri: string): { files: string[]; specFile?: string } {
    const uri = URI.parse(documentUri);
    const info = services.pipeline.Registry.pipelineOf(uri);
    if (!info.rootPath) {
        return { files: [uri.fsPath] };
    }
    const files = listPipelineFiles(info.rootPath, info.spec);
    const own = path.resolve(uri.fsPath);
    return {
        files: info.spec ? files : files.filter(f => path.resolve(f) === own || fileHasPipelineStatement(f)),
        specFile: info.specFile,
    };
}

/**
 * The error of a project file the registry could not read, placed where the YAML parser stopped
 * (the registry keeps only the message, so the file is parsed again for the position).
 */
function projectFileError(specFile: string, message: string): RunErrorModel {
    let line = 0;
    let character = 0;
    let text = message;
    try {
        parsePipelineSpec(fs.readFileSync(specFile, 'utf8'));
    } catch (error) {
        if (error instanceof YAMLParseError) {
            const pos = error.linePos?.[0];
            line = Math.max(0, (pos?.line ?? 1) - 1);
            character = Math.max(0, (pos?.col ?? 1) - 1);
        }
        text = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
    return {
        class: 'PIPELINE_SQL_INVALID_PROJECT_FILE',
        message: `${path.basename(specFile)} is not valid YAML: ${text}`,
        location: { uri: fileUri(specFile), range: { start: { line, character }, end: { line, character } } },
    };
}


/** The documents for some files: those the workspace has, the others loaded and built now. */
async function documentsFor(shared: LangiumSharedServices, files: readonly string[], token: CancellationToken): Promise<LangiumDocument[]> {
    const documents = shared.workspace.LangiumDocuments;
    const uris = files.map(f => URI.file(f));
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

function firstError(documents: readonly LangiumDocument[], keep: (d: Diagnostic) => boolean): { document: LangiumDocument; diagnostic: Diagnostic } | undefined {
    for (const document of documents) {
        const diagnostic = (document.diagnostics ?? []).find(d => d.severity === DiagnosticSeverity.Error && keep(d));
        if (diagnostic) {
            return { document, diagnostic };
        }
    }
    return undefined;
}

/**
 * Prepares the pipeline of a document for a run: finds its files, refuses to run while a source
 * file has errors (they are already shown as diagnostics), and lowers it to the engine IR.
 */
export async function preparePipeline(shared: LangiumSharedServices, services: PipelineSqlServices, documentUri: string, token: CancellationToken): Promise<Preparation> {
    // Membership comes from the registry, which the workspace's first load fills.
    await shared.workspace.WorkspaceManager.ready;
    const location = locatePipeline(services, documentUri);
    if (isRunError(location)) {
        return { ok: false, error: location };
    }
    const { files, specFile } = sourceFiles(services, documentUri);
    if (files.length === 0) {
        return { ok: false, location, error: { class: 'PIPELINE_SQL_NO_SOURCES', message: `No pipeline SQL files in ${location.root}${specFile ? ` (the libraries of ${path.basename(specFile)} match none)` : ''}.` } };
    }
    const { spec, specError } = services.pipeline.Registry.pipelineOf(URI.parse(documentUri));
    if (specFile && specError) {
        return { ok: false, location, error: projectFileError(specFile, specError) };
    }
    const settings: PipelineSettings = { configuration: spec?.configuration ?? {}, catalog: spec?.catalog, schema: spec?.schema };
    const catalog = listCatalogFiles(location.root);
    const documents = await documentsFor(shared, [...files, ...catalog], token);
    const sourceUris = new Set(files.map(f => URI.file(f).toString()));
    const sourceDocuments = documents.filter(d => sourceUris.has(d.uri.toString()));
    const catalogDocuments = documents.filter(d => !sourceUris.has(d.uri.toString()));
    const invalid = firstError(sourceDocuments, () => true)
        // Catalog files are declarations, not pipeline sources: only their syntax must be right.
        ?? firstError(catalogDocuments, d => d.code === IssueCodes.ParseSyntaxError);
    if (invalid) {
        const code = typeof invalid.diagnostic.code === 'string' ? invalid.diagnostic.code : 'PIPELINE_SQL_INVALID_PIPELINE';
        return {
            ok: false, location,
            error: {
                class: code,
                message: `The pipeline has errors; fix them to run it. First: ${invalid.diagnostic.message}`,
                location: { uri: invalid.document.uri.toString(), range: invalid.diagnostic.range },
            },
        };
    }
    const lowered = lowerPipeline(services, { documents: sourceDocuments, catalogDocuments, settings });
    if (!lowered.ok) {
        const diagnostics = lowered.problems.map(problem => {
            const place = spanLocation(problem.span);
            return { uri: place.uri, diagnostic: { range: place.range, severity: DiagnosticSeverity.Error, code: problem.code, source: 'pipeline-sql run', message: problem.message } };
        });
        const first = lowered.problems[0];
        return { ok: false, location, diagnostics, error: { class: first.code, message: first.message, location: spanLocation(first.span) } };
    }
    return { ok: true, pipeline: { ...location, ir: lowered.pipeline, sourceUris } };
}
