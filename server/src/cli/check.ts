import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import type { Diagnostic } from 'vscode-languageserver';
import { createPipelineSqlServices, type PipelineSqlServices, type PipelineSqlSharedServices } from '../language/pipeline-sql-module.js';
import type { TargetProfile } from '../language/pipeline/pipeline-sql-settings.js';
import { discoverEnclosing, SearchDescription } from '../project/discovery.js';
import type { PipelineProject, ProjectOptions, ProjectProblem } from '../project/project-types.js';
import { isProjectFileName } from '../project/project-types.js';
import { pythonFileDiagnostics } from '../language/validation/python-dataset-checks.js';

/** One diagnostic as `pipeline-sql check` prints it: 1-based lines and columns, end exclusive. */
export interface CliDiagnostic {
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    severity: 'error' | 'warning' | 'info' | 'hint';
    code: string;
    message: string;
    /** The pipeline it belongs to (a bundle pipeline's key, else its name); absent for a file in no pipeline. */
    pipeline?: string;
}

const severityNames = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' } as const;

/** Converts an LSP diagnostic of `file` to the CLI's shape. */
export function toCliDiagnostic(file: string, d: Diagnostic): CliDiagnostic {
    return {
        file,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
        severity: severityNames[d.severity ?? 1],
        code: d.code === undefined ? 'PIPELINE_SQL' : String(d.code),
        message: d.message,
    };
}

/** A project-file problem in the CLI's shape. */
export function problemDiagnostic(problem: ProjectProblem): CliDiagnostic {
    return {
        file: displayPath(problem.file), line: problem.line, column: problem.column, endLine: problem.endLine, endColumn: problem.endColumn,
        severity: problem.severity, code: problem.code, message: problem.message,
    };
}

/** Formats a diagnostic as `file:line:col: severity CODE message`. */
export function formatCliDiagnostic(d: CliDiagnostic): string {
    return `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}`;
}

/** A path for messages: relative to the working folder when inside it. */
export function displayPath(file: string): string {
    const relative = path.relative(process.cwd(), file);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** A mistake on the command line (exit code 2). */
export class CliUsageError extends Error {
    override readonly name = 'CliUsageError';
}

/** Nothing to check: the arguments name no pipeline SQL (exit code 2, so that CI never passes on nothing). */
export class NothingToCheckError extends CliUsageError {}

/** The name a diagnostic's `pipeline` field gives a pipeline. */
export function pipelineLabel(pipeline: PipelineProject): string {
    return pipeline.key ?? pipeline.name;
}

/** What `check` checks: pipelines (every file of each), single files (in their pipeline's context), and notes on skipped arguments. */
export interface CheckPlan {
    /** Pipelines whose files are all loaded and reported. */
    readonly pipelines: PipelineProject[];
    /** Files given one by one: reported alone (their pipeline, if any, loaded for context). */
    readonly files: Array<{ file: string; pipeline?: PipelineProject }>;
    /** Problems of project files found (YAML errors, unknown target, ...). */
    readonly problems: ProjectProblem[];
    /** Arguments skipped, and why (`LICENSE.txt is not pipeline SQL`). */
    readonly skipped: string[];
}

/**
 * Works out what to check for command-line paths with the project model: a folder means every
 * pipeline under it (bundles, spark-pipeline.yml folders, or the folder itself as plain pipeline
 * SQL); a `.sql` file is checked in the context of its pipeline (its other files are loaded, only its
 * own diagnostics are reported); a project file means its folder; any other file is skipped. Throws
 * {@link NothingToCheckError} when nothing is left, saying what was looked for.
 */
export async function planCheck(paths: readonly string[], services: { shared: PipelineSqlSharedServices }, options: ProjectOptions = {}): Promise<CheckPlan> {
    const project = services.shared.pipeline.Project;
    project.setOptions(options);
    const pipelines = new Map<string, PipelineProject>();
    const files: CheckPlan['files'] = [];
    const problems: ProjectProblem[] = [];
    const skipped: string[] = [];
    const empty: string[] = [];
    for (const p of paths) {
        const abs = path.resolve(p);
        const stat = fs.statSync(abs, { throwIfNoEntry: false });
        if (!stat) {
            throw new CliUsageError(`No such file or folder: ${p}`);
        }
        if (stat.isDirectory() || (stat.isFile() && isProjectFileName(path.basename(abs)))) {
            const folder = stat.isDirectory() ? abs : path.dirname(abs);
            const set = await project.loadFolder(folder);
            problems.push(...set.problems);
            if (set.pipelines.length === 0) {
                empty.push(`${displayPath(folder) || '.'} holds no pipeline: looked for ${set.searched}`);
            }
            for (const pipeline of set.pipelines) {
                pipelines.set(pipeline.id, pipeline);
            }
        } else if (stat.isFile() && abs.toLowerCase().endsWith('.sql')) {
            const set = await discoverEnclosing(abs, project.files, options);
            let owner: PipelineProject | undefined;
            if (set) {
                const loaded = await project.loadFolder(set.pipelines[0]?.bundle?.root ?? set.pipelines[0]?.root ?? path.dirname(abs));
                owner = loaded.pipelines.find(pl => pl.sources.includes(abs));
            }
            files.push({ file: abs, pipeline: owner });
        } else {
            skipped.push(`${p} is not pipeline SQL (not a .sql file or a pipeline folder); skipped`);
        }
    }
    const nothing = [...pipelines.values()].filter(pl => pl.sources.length === 0 && pl.pythonFiles.length === 0);
    if (pipelines.size === 0 && files.length === 0) {
        throw new NothingToCheckError([...skipped, ...empty, ...(paths.length === 0 ? ['no file or folder given'] : [])].join('\n') || `Nothing to check: looked for ${SearchDescription}.`);
    }
    if (files.length === 0 && nothing.length === pipelines.size) {
        const list = nothing.map(pl => `the pipeline '${pl.name}' (${displayPath(pl.specFile ?? pl.root)}) lists no existing file${pl.libraries.length > 0 ? `: its libraries ${pl.libraries.map(l => `'${l.pattern}'`).join(', ')} match nothing` : ''}`);
        throw new NothingToCheckError(`Nothing to check: ${list.join('; ')}.`);
    }
    return { pipelines: [...pipelines.values()], files, problems, skipped };
}

/** Loads documents for files or document URIs (those already loaded are reused) and builds them with validation. */
export async function buildFiles(shared: PipelineSqlSharedServices, files: ReadonlyArray<string | URI>): Promise<LangiumDocument[]> {
    const documents: LangiumDocument[] = [];
    for (const file of files) {
        documents.push(await shared.workspace.LangiumDocuments.getOrCreateDocument(typeof file === 'string' ? URI.file(file) : file));
    }
    await shared.workspace.DocumentBuilder.build(documents, { validation: true });
    return documents;
}

/** The diagnostics of a document in the CLI's shape, ordered by position. */
function documentDiagnostics(document: LangiumDocument, pipeline: string | undefined): CliDiagnostic[] {
    const shown = displayPath(document.uri.fsPath);
    return (document.diagnostics ?? []).map(d => ({ ...toCliDiagnostic(shown, d), ...(pipeline ? { pipeline } : {}) }));
}

function byPosition(a: CliDiagnostic, b: CliDiagnostic): number {
    return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
}

/** The diagnostics of one pipeline (or of the files given alone), in the order they are printed. */
export interface DiagnosticGroup {
    /** The pipeline, when the group is one. */
    readonly pipeline?: PipelineProject;
    readonly diagnostics: CliDiagnostic[];
    readonly files: number;
}

/**
 * Parses and validates what a plan names with the language server's own services (the same project
 * model, schema inference and checks) and returns the diagnostics grouped by pipeline: each
 * pipeline's project-file problems, then its files' diagnostics ordered by file and position.
 */
export async function runCheck(plan: CheckPlan, services: { shared: PipelineSqlSharedServices; PipelineSql: PipelineSqlServices }, options: { target?: TargetProfile } = {}): Promise<DiagnosticGroup[]> {
    if (options.target) {
        services.PipelineSql.pipeline.Settings.setTarget(options.target);
    }
    const target = services.PipelineSql.pipeline.Settings.target;
    const project = services.shared.pipeline.Project;
    const registry = services.PipelineSql.pipeline.Registry;
    const models = services.PipelineSql.pipeline.Model;
    // A file given alone is checked in every pipeline that lists it, as every file of a pipeline is.
    const ownersOf = (f: CheckPlan['files'][number]): PipelineProject[] => {
        const owners = project.pipelinesOfSource(f.file);
        return owners.length > 0 ? [...owners] : f.pipeline ? [f.pipeline] : [];
    };
    // Each pipeline's document of each of its files: a file two pipelines list has one in each.
    const load = new Map<string, URI>();
    const add = (uri: URI): void => {
        load.set(uri.toString(), uri);
    };
    for (const pipeline of [...plan.pipelines, ...plan.files.flatMap(ownersOf)]) {
        [...pipeline.sources, ...project.catalogFilesOf(pipeline)].forEach(f => add(registry.documentUriOf(f, pipeline.id)));
    }
    plan.files.forEach(f => add(URI.file(f.file)));
    const documents = new Map((await buildFiles(services.shared, [...load.values()])).map(d => [d.uri.toString(), d]));
    const documentIn = (file: string, pipeline: PipelineProject): LangiumDocument | undefined => {
        const document = documents.get(registry.documentUriOf(file, pipeline.id).toString());
        // A sample catalog file shared by a bundle's pipelines is reported with the first.
        return document && registry.pipelineOf(document.uri).id === pipeline.id ? document : undefined;
    };
    const shownProblems = (problems: readonly ProjectProblem[]): CliDiagnostic[] => problems
        .filter(p => !(p as { onlyFor?: string }).onlyFor || target !== 'databricks')
        .map(problemDiagnostic);
    const groups: DiagnosticGroup[] = [];
    const general = shownProblems(plan.problems);
    if (general.length > 0) {
        groups.push({ diagnostics: general.sort(byPosition), files: 0 });
    }
    for (const pipeline of plan.pipelines) {
        const label = pipelineLabel(pipeline);
        const files = [...pipeline.sources, ...project.catalogFilesOf(pipeline)];
        const diagnostics = [
            ...shownProblems(pipeline.problems).map(d => ({ ...d, pipeline: label })),
            ...[
                ...files.flatMap(f => {
                    const document = documentIn(f, pipeline);
                    return document ? documentDiagnostics(document, label) : [];
                }),
                // The pipeline's Python files: their datasets' own errors (a name defined twice).
                ...pythonFileDiagnostics(models.model(registry.infoOf(pipeline)))
                    .map(({ file, diagnostic }) => ({ ...toCliDiagnostic(displayPath(file), diagnostic), pipeline: label })),
            ].sort(byPosition),
        ];
        groups.push({ pipeline, diagnostics, files: files.length });
    }
    const single = plan.files.filter(f => !plan.pipelines.some(p => p.sources.includes(f.file)));
    if (single.length > 0) {
        groups.push({
            diagnostics: single.flatMap(f => {
                const owners = ownersOf(f);
                if (owners.length === 0) {
                    const document = documents.get(URI.file(f.file).toString());
                    return document ? documentDiagnostics(document, undefined) : [];
                }
                return owners.flatMap(owner => {
                    const document = documents.get(registry.documentUriOf(f.file, owner.id).toString());
                    return document ? documentDiagnostics(document, pipelineLabel(owner)) : [];
                });
            }).sort(byPosition),
            files: single.length,
        });
    }
    return groups;
}

/** Checks paths as `pipeline-sql check` does and returns every diagnostic (for tests and embedders). */
export async function checkPaths(paths: readonly string[], options: { target?: TargetProfile } & ProjectOptions = {},
    services: { shared: PipelineSqlSharedServices; PipelineSql: PipelineSqlServices } = createPipelineSqlServices(NodeFileSystem)): Promise<CliDiagnostic[]> {
    const plan = await planCheck(paths, services, options);
    return (await runCheck(plan, services, options)).flatMap(g => g.diagnostics);
}
