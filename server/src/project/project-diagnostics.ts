/**
 * The language server's side of the project model: the problems of project files (a YAML error in
 * databricks.yml, spark-pipeline.yml or a resource file, an unknown field or target, a library that
 * names nothing) published as diagnostics on their YAML lines, and the settings the model follows
 * (`pipelineSql.bundle.target`; `pipelineSql.run.allowedPaths`, honoured only in a trusted workspace).
 * A broken project file never stops the server: it is a diagnostic, and the pipelines that can
 * still be read are served.
 */
import { DocumentState, URI } from 'langium';
import type { Connection, Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { PipelineSqlServices, PipelineSqlSharedServices } from '../language/pipeline-sql-module.js';
import type { PipelineSqlDocumentBuilder } from '../language/pipeline/pipeline-sql-document-builder.js';
import { ambiguousScratchNote, chooseScratchPipeline } from '../language/pipeline/scratch-files.js';
import type { TargetProfile } from '../language/pipeline/pipeline-sql-settings.js';
import type { PipelineProject, ProjectProblem } from './project-types.js';
import {
    DocumentPipelineRequest, PipelinesChangedNotification, type DocumentPipelineInfo, type PipelineSummary,
} from '../../../common/protocol.js';
import * as path from 'node:path';
import { pythonFileDiagnostics } from '../language/validation/python-dataset-checks.js';

const severities: Record<ProjectProblem['severity'], DiagnosticSeverity> = {
    error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information,
};

/** A project problem as an LSP diagnostic (0-based positions). */
export function problemToDiagnostic(problem: ProjectProblem): Diagnostic {
    return {
        range: { start: { line: problem.line - 1, character: problem.column - 1 }, end: { line: problem.endLine - 1, character: problem.endColumn - 1 } },
        severity: severities[problem.severity], code: problem.code, source: 'pipeline-sql', message: problem.message,
    };
}

/** The problems shown under a target: Spark's own checks of spark-pipeline.yml only for the spark-4.x targets. */
export function problemsFor(problems: readonly ProjectProblem[], target: TargetProfile): ProjectProblem[] {
    return problems.filter(p => !(p as { onlyFor?: string }).onlyFor || target !== 'databricks');
}

/** The project-model settings of the client (`pipelineSql.bundle.target`, `pipelineSql.run.allowedPaths`). */
export interface ProjectSettingValues {
    readonly bundleTarget?: string;
    readonly allowedPaths?: readonly string[];
}

/**
 * Publishes project-file diagnostics whenever the model or the target profile changes, and applies
 * the project settings. Returns a function that tells whether the workspace is trusted (the trust
 * gate calls it); until then allowed paths are not honoured.
 */
export function registerProjectDiagnostics(connection: Connection, shared: PipelineSqlSharedServices, services: PipelineSqlServices): { setTrusted(trusted: boolean): void } {
    const project = shared.pipeline.Project;
    const settings = services.pipeline.Settings;
    // What was last published on each file, so that a build that changes nothing there sends nothing.
    const published = new Map<string, string>();
    const publish = (): void => {
        const byFile = new Map<string, Diagnostic[]>();
        const add = (uri: string, diagnostic: Diagnostic): void => {
            const list = byFile.get(uri) ?? [];
            byFile.set(uri, list);
            if (!list.some(d => JSON.stringify(d) === JSON.stringify(diagnostic))) {
                list.push(diagnostic);
            }
        };
        for (const problem of problemsFor(project.problems(), settings.target)) {
            add(URI.file(problem.file).toString(), problemToDiagnostic(problem));
        }
        // The pipelines' Python files (no documents of their own): the errors of the datasets they define.
        for (const pipeline of services.pipeline.Registry.allRoots()) {
            if (project.contributionsOf(pipeline.id, shared.pipeline.PythonDatasets.reader).length === 0) {
                continue;
            }
            for (const { file, diagnostic } of pythonFileDiagnostics(services.pipeline.Model.model(pipeline))) {
                add(URI.file(file).toString(), diagnostic);
            }
        }
        for (const uri of published.keys()) {
            if (!byFile.has(uri)) {
                void connection.sendDiagnostics({ uri, diagnostics: [] });
                published.delete(uri);
            }
        }
        for (const [uri, diagnostics] of byFile) {
            const text = JSON.stringify(diagnostics);
            if (published.get(uri) !== text) {
                void connection.sendDiagnostics({ uri, diagnostics });
                published.set(uri, text);
            }
        }
    };
    const publishSafely = (): void => {
        try {
            publish();
        } catch (error) {
            console.error('Publishing the diagnostics of project and Python files failed:', error);
        }
    };
    project.onDidChange(publishSafely);
    project.onDidChange(() => void connection.sendNotification(PipelinesChangedNotification, {}));
    settings.onDidChangeTarget(publishSafely);
    // The Python files' errors depend on the SQL files too (a SQL dataset named like a Python one).
    shared.workspace.DocumentBuilder.onBuildPhase(DocumentState.Validated, publishSafely);
    connection.onRequest(DocumentPipelineRequest, async params => {
        try {
            await shared.workspace.WorkspaceManager.ready;
            return await documentPipeline(shared, params.uri, { services, text: params.text });
        } catch (error) {
            console.error('pipelineSql/documentPipeline failed:', error);
            return { isPipeline: false, pipelines: [], reason: `The pipelines could not be read: ${error instanceof Error ? error.message : String(error)}` };
        }
    });

    let values: ProjectSettingValues = {};
    let trusted = false;
    const apply = (): void => {
        const next = { bundleTarget: values.bundleTarget || undefined, allowedReadPaths: trusted ? [...(values.allowedPaths ?? [])] : [] };
        const current = project.currentOptions;
        if (JSON.stringify(next) === JSON.stringify({ bundleTarget: current.bundleTarget, allowedReadPaths: [...(current.allowedReadPaths ?? [])] })) {
            return;
        }
        project.setOptions(next);
        const builder = shared.workspace.DocumentBuilder as PipelineSqlDocumentBuilder;
        void shared.workspace.WorkspaceManager.ready
            .then(() => shared.workspace.WorkspaceLock.write(token => builder.reloadProject(token)))
            .catch((error: unknown) => console.error('Reloading the pipelines after a settings change failed:', error));
    };
    const read = (configuration: unknown): void => {
        const section = configuration as { bundle?: { target?: unknown }; run?: { allowedPaths?: unknown } } | undefined;
        const target = section?.bundle?.target;
        const allowed = section?.run?.allowedPaths;
        values = {
            bundleTarget: typeof target === 'string' ? target : undefined,
            allowedPaths: Array.isArray(allowed) ? allowed.filter((p): p is string => typeof p === 'string') : [],
        };
        apply();
    };
    const configuration = shared.workspace.ConfigurationProvider;
    void configuration.ready.then(async () => read({
        bundle: await configuration.getConfiguration('pipeline-sql', 'bundle'),
        run: await configuration.getConfiguration('pipeline-sql', 'run'),
    })).catch((error: unknown) => console.error('Reading the pipeline settings failed:', error));
    configuration.onConfigurationSectionUpdate(update => {
        if (update.section === 'pipelineSql') {
            read(update.configuration);
        }
    });
    return {
        setTrusted(value: boolean): void {
            trusted = value;
            apply();
        },
    };
}

/** A pipeline as the client shows it. */
export function summarize(pipeline: PipelineProject): PipelineSummary {
    return {
        id: pipeline.id, name: pipeline.name, key: pipeline.key, layout: pipeline.layout,
        specUri: pipeline.specFile ? URI.file(pipeline.specFile).toString() : undefined,
        specLine: pipeline.specFile ? pipeline.specLine : undefined,
        bundle: pipeline.bundle ? { name: pipeline.bundle.name, target: pipeline.bundle.target } : undefined,
    };
}

/**
 * Whether the project model counts a file as pipeline SQL, and why (the answer to `pipelineSql/documentPipeline`).
 * With the language services, a `.sql` file in a pipeline's folder that is none of its files is told
 * from its text (the editor's, else the file's): a scratch file of that pipeline (scratch-files.ts).
 */
export async function documentPipeline(shared: PipelineSqlSharedServices, uriText: string,
    scratch: { services?: PipelineSqlServices; text?: string } = {}): Promise<DocumentPipelineInfo> {
    const uri = URI.parse(uriText);
    if (uri.scheme !== 'file') {
        return { isPipeline: false, pipelines: [], reason: 'Not a file on disk: only its statements can tell.' };
    }
    const project = shared.pipeline.Project;
    const file = uri.fsPath;
    await project.ensureFile(file);
    const describe = (p: PipelineProject): string => p.layout === 'bundle'
        ? `the libraries of the pipeline '${p.name}' (${p.key}) of the bundle${p.bundle?.name ? ` '${p.bundle.name}'` : ''}${p.bundle?.target ? `, target ${p.bundle.target}` : ''}`
        : p.layout === 'spark-pipeline' ? `the libraries of ${path.basename(p.specFile ?? 'spark-pipeline.yml')} (pipeline '${p.name}')`
            : `the pipeline SQL of the folder ${path.basename(p.root)} (a pipeline statement in it or beside it)`;
    const sources = project.pipelinesOfSource(file);
    if (sources.length > 0) {
        return { isPipeline: true, role: 'source', pipelines: sources.map(summarize), reason: `Listed in ${sources.map(describe).join(' and in ')}.` };
    }
    const catalog = project.pipelineOfCatalogFile(file);
    if (catalog) {
        return { isPipeline: true, role: 'catalog', pipelines: [summarize(catalog)], reason: `Declares sample tables of the pipeline '${catalog.name}'.` };
    }
    const registry = shared.pipeline.Registry;
    // Several when the file is directly under a bundle root that several pipelines share.
    const enclosing = registry.enclosingPipelines(uri);
    const first = enclosing[0];
    const candidate = first?.project !== undefined && /\.sql$/i.test(file)
        && ![first.samplesPath, first.project.stateDir].some(folder => folder && file.startsWith(path.resolve(folder) + path.sep));
    if (candidate && scratch.services) {
        const text = scratch.text ?? await project.files.readFile(file);
        // The datasets of the pipeline are indexed once its documents are.
        await shared.workspace.DocumentBuilder.waitUntil(DocumentState.IndexedContent);
        const choice = text === undefined ? undefined : chooseScratchPipeline(scratch.services, enclosing, text, { strict: true });
        const membership = registry.membershipOf(uri);
        // A document the server has (in the Pipeline SQL mode) is a scratch file while it defines nothing.
        if (choice?.named || membership.role === 'scratch') {
            const chosen = choice?.named ? choice : { pipeline: membership.pipeline, alsoIn: membership.alsoIn };
            const named = choice?.named;
            const reads = named ? `its statements read or change ${named.map(n => `'${n}'`).join(', ')}` : 'its names are the pipeline\'s datasets';
            const ambiguity = chosen.alsoIn ? ` ${ambiguousScratchNote(chosen.pipeline, chosen.alsoIn)}` : '';
            const pipeline = chosen.pipeline.project ?? first.project!;
            return {
                isPipeline: true, role: 'scratch', pipelines: [summarize(pipeline)], scratchCandidate: true,
                reason: `A scratch file of the pipeline '${pipeline.name}' (in its folder, not one of its libraries): ${reads}. Run on local state runs its statements on the pipeline's local state.${ambiguity}`,
            };
        }
    }
    const names = enclosing.map(p => `'${p.project?.name ?? p.id}'`).join(', ');
    return {
        isPipeline: false, pipelines: [], ...(candidate ? { scratchCandidate: true } : {}),
        reason: enclosing.length > 1 ? `In the folder of the pipelines ${names}, but not listed in their libraries.`
            : enclosing.length > 0 ? `In the folder of the pipeline ${names}, but not listed in its libraries.` : 'Not in a pipeline folder.',
    };
}
