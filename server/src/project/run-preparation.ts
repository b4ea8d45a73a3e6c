/**
 * The one run preparation, shared by `pipeline-sql run` and the language server's run requests:
 * from a pipeline of the project model to the engine IR. It refuses a pipeline whose project file
 * is broken or that lists no file, builds (or reuses) its documents, refuses to run while a source
 * file has errors, and lowers it. Every refusal names its place.
 */
import * as fs from 'node:fs';
import type { LangiumDocument, URI } from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import type { PipelineIR } from '../../../engine/src/index.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { IssueCodes } from '../language/validation/issue-codes.js';
import { lowerPipeline, type LoweringProblem } from '../lowering/index.js';
import type { PipelineProject, ProjectProblem } from './project-types.js';
import { pythonDatasetsIR } from './python/python-pipeline.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** Where a refusal is: a document range (0-based, as LSP) or a project-file line. */
export interface PreparationPlace {
    readonly file: string;
    /** 0-based. */
    readonly range: Diagnostic['range'];
}

/** Why a pipeline cannot run. */
export interface PreparationError {
    readonly class: string;
    readonly message: string;
    readonly place?: PreparationPlace;
}

/** The outcome of preparing a run. */
export type RunPreparation =
    | { readonly ok: true; readonly pipeline: PipelineProject; readonly ir: PipelineIR; readonly sourceDocuments: readonly LangiumDocument[]; readonly catalogDocuments: readonly LangiumDocument[] }
    | {
        readonly ok: false; readonly pipeline: PipelineProject; readonly error: PreparationError;
        /** Every problem found (the first is `error`), for diagnostics. */
        readonly problems: ReadonlyArray<{ readonly code: string; readonly message: string; readonly place: PreparationPlace }>;
        readonly sourceDocuments?: readonly LangiumDocument[];
    };

function problemPlace(problem: ProjectProblem): PreparationPlace {
    return { file: problem.file, range: { start: { line: problem.line - 1, character: problem.column - 1 }, end: { line: problem.endLine - 1, character: problem.endColumn - 1 } } };
}

function loweringPlace(problem: LoweringProblem): PreparationPlace {
    const { span } = problem;
    return { file: span.file, range: { start: { line: span.line - 1, character: span.column - 1 }, end: { line: span.endLine - 1, character: span.endColumn - 1 } } };
}

/**
 * Prepares a pipeline for a run. `documentsFor` gives the documents of the pipeline's files (built
 * and validated): the CLI builds them, the server reuses its workspace's. A file the pipeline shares
 * with another is asked for by its document in this pipeline (`PipelineRegistry.documentUriOf`).
 */
export async function prepareRun(services: PipelineSqlServices, pipeline: PipelineProject,
    documentsFor: (uris: readonly URI[]) => Promise<LangiumDocument[]>, catalogFiles?: readonly string[],
    samples?: { rootDir: string; samplesDir: string; readRoots?: string[] }): Promise<RunPreparation> {
    const broken = pipeline.problems.filter(p => p.severity === 'error' && !(p as { onlyFor?: string }).onlyFor);
    if (broken.length > 0) {
        const first = broken[0];
        return {
            ok: false, pipeline, error: { class: first.code, message: first.message, place: problemPlace(first) },
            problems: broken.map(p => ({ code: p.code, message: p.message, place: problemPlace(p) })),
        };
    }
    if (pipeline.sources.length === 0) {
        const where = pipeline.specFile ? ` (the libraries of ${pipeline.specFile.split(/[\\/]/).pop()} match no .sql file)` : '';
        return { ok: false, pipeline, error: { class: ErrorClass.noSources, message: `No pipeline SQL files in ${pipeline.root}${where}.` }, problems: [] };
    }
    const catalog = catalogFiles ?? services.shared.pipeline.Project.catalogFilesOf(pipeline);
    const registry = services.pipeline.Registry;
    const documents = await documentsFor([...pipeline.sources, ...catalog].map(f => registry.documentUriOf(f, pipeline.id)));
    const sourceSet = new Set(pipeline.sources);
    const sourceDocuments = documents.filter(d => sourceSet.has(d.uri.fsPath));
    const catalogDocuments = documents.filter(d => !sourceSet.has(d.uri.fsPath));
    const invalid = firstError(sourceDocuments, () => true)
        // Catalog files are declarations, not pipeline sources: only their syntax must be right.
        ?? firstError(catalogDocuments, d => d.code === IssueCodes.ParseSyntaxError);
    if (invalid) {
        const code = typeof invalid.diagnostic.code === 'string' ? invalid.diagnostic.code : ErrorClass.invalidPipeline;
        const place = { file: invalid.document.uri.fsPath, range: invalid.diagnostic.range };
        return {
            ok: false, pipeline, sourceDocuments,
            error: { class: code, message: invalid.diagnostic.message, place },
            problems: [],
        };
    }
    const settings = { configuration: { ...pipeline.configuration }, catalog: pipeline.catalog, schema: pipeline.schema };
    const lowered = lowerPipeline(services, { documents: sourceDocuments, catalogDocuments, settings, ...(samples ? { samples } : {}) });
    if (!lowered.ok) {
        const first = lowered.problems[0];
        return {
            ok: false, pipeline, sourceDocuments,
            error: { class: first.code, message: first.message, place: loweringPlace(first) },
            problems: lowered.problems.map(p => ({ code: p.code, message: p.message, place: loweringPlace(p) })),
        };
    }
    // The engine runs no Python: it reads the Python datasets' sample data, or says which one it cannot compute.
    const python = services.pipeline.Python.of(services.pipeline.Registry.infoOf(pipeline));
    const ir: PipelineIR = python.datasets.length > 0 ? { ...lowered.pipeline, pythonDatasets: pythonDatasetsIR(python) } : lowered.pipeline;
    return { ok: true, pipeline, ir, sourceDocuments, catalogDocuments };
}

function firstError(documents: readonly LangiumDocument[], keep: (d: Diagnostic) => boolean): { document: LangiumDocument; diagnostic: Diagnostic } | undefined {
    for (const document of documents) {
        const diagnostic = (document.diagnostics ?? []).find(d => d.severity === 1 && keep(d));
        if (diagnostic) {
            return { document, diagnostic };
        }
    }
    return undefined;
}

/**
 * The folders the engine may read for a pipeline, symlinks resolved (the engine contract): its
 * read roots that exist. Resolving needs the real file system, so it happens here, on the run path.
 */
export async function realReadRoots(pipeline: PipelineProject): Promise<string[]> {
    const roots: string[] = [];
    for (const root of pipeline.readRoots) {
        try {
            roots.push(await fs.promises.realpath(root));
        } catch (error) {
            // A folder the user allowed that does not exist gives nothing to read.
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
                throw error;
            }
        }
    }
    return [...new Set(roots)];
}

/**
 * The identity the engine records in a pipeline's state (and checks, so that another pipeline's
 * state is refused): stable across machines and checkouts, so not a path: the bundle and the
 * pipeline's key, or the layout and the pipeline's name.
 */
export function engineIdentity(pipeline: PipelineProject): { id: string; name: string } {
    const id = pipeline.layout === 'bundle'
        ? `bundle:${pipeline.bundle?.name ?? pipeline.root.split(/[\\/]/).pop()}#${pipeline.key}`
        : `${pipeline.layout}:${pipeline.name}`;
    return { id, name: pipeline.name };
}
