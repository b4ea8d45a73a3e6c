/**
 * The language server's side of the run flow: `pipelineSql/runPipeline` runs one update of a
 * document's pipeline with the bundled engine (in the server process: the engine's work happens in
 * DuckDB's threads, so requests keep being answered), with work-done progress and cancellation; the
 * state, rows and change-events requests read what the last run left. Every handler answers with a
 * typed `{ ok }` outcome; runtime errors also become diagnostics on the responsible clause.
 */
import type { CancellationToken } from 'vscode-languageserver';
import type { LangiumSharedServices } from 'langium/lsp';
import { DiagnosticSeverity, type WorkDoneProgressReporter } from 'vscode-languageserver';
import { DatabaseKeeper, readChangeEvents, readState, readVersionChanges, runUpdate, type InspectOptions, type ProgressEvent } from '../../../engine/src/index.js';
import type {
    ChangeEventsParams, DatasetRowsParams, PipelineStateParams, RunFinishedParams, RunPipelineParams, RunStatementParams, VersionChangesParams,
} from '../../../common/protocol.js';
import type { Outcome, RowsModel, RunErrorModel, RunOutcome, RunSummary, StatementOutcome, VersionChangesModel } from '../../../common/result-model.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { engineIdentity } from '../project/run-preparation.js';
import { isRunError, locatePipeline, preparePipeline, type DocumentDiagnostic, type PipelineLocation, type PreparedPipeline } from './pipeline-sources.js';
import { fileUri, toDatasetPreviews, toFlowReports, toRunError, updatedDatasets } from './run-results.js';
import type { RuntimeDiagnostics } from './runtime-diagnostics.js';
import { untrustedWorkspaceError, WorkspaceTrust } from './workspace-trust.js';
import { datasetKey, displayName, findDataset, isView, refreshList } from './run-scope.js';
import { runStatementOnState } from './statement-runner.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** The error class of a cancelled run (the engine rolls the update back). */
export const CancelledClass = ErrorClass.cancelled;

/** The largest row cap a request may ask for. */
const MAX_ROWS = 1_000_000;

/** What a run left for later requests (pages of rows, change events). */
interface RunRecord {
    readonly runId: string;
    readonly pipeline: PreparedPipeline;
    /** For an update (not a restored state): when it started, the dataset it ran the flow of, the datasets it updated. */
    readonly update?: { readonly startedAt: string; readonly dataset?: string; readonly datasets: readonly string[] };
}

/** The last update of a pipeline, as a test records it. */
export interface LastUpdate {
    readonly pipeline: PreparedPipeline;
    readonly startedAt: string;
    readonly dataset?: string;
    readonly datasets: readonly string[];
    readonly inspect: InspectOptions;
}

/** Notifies the client of finished runs. */
export type RunFinishedSink = (params: RunFinishedParams) => void;

function clampRows(n: number | undefined, fallback = 10_000): number {
    return Number.isFinite(n) ? Math.max(1, Math.min(MAX_ROWS, Math.floor(n!))) : fallback;
}

function failure(error: RunErrorModel): { ok: false; error: RunErrorModel } {
    return { ok: false, error };
}

/** The diagnostic of an engine error: on its clause (code = error class), or on the sample data line to blame. */
export function errorDiagnostic(error: RunErrorModel): DocumentDiagnostic | undefined {
    const base = { severity: DiagnosticSeverity.Error, code: error.class, source: 'pipeline-sql run' };
    if (error.location) {
        return { uri: error.location.uri, diagnostic: { ...base, range: error.location.range, message: error.message } };
    }
    if (error.dataFile && error.dataLine !== undefined) {
        const line = Math.max(0, error.dataLine - 1);
        const range = { start: { line, character: 0 }, end: { line, character: Number.MAX_SAFE_INTEGER } };
        return { uri: fileUri(error.dataFile), diagnostic: { ...base, range, message: error.message } };
    }
    return undefined;
}

/**
 * Runs pipelines for the language server and answers the preview's follow-up requests. One
 * instance per server; it remembers the last run of each pipeline.
 */
export class PipelineRunHandler {
    private readonly lastRun = new Map<string, RunRecord>();
    private counter = 0;
    /**
     * The pipelines' state databases, kept open between runs and previews (an update then skips opening
     * the state); released at once when a CLI run or another server asks for the file, and when idle.
     */
    private readonly keeper = new DatabaseKeeper();

    constructor(
        private readonly shared: LangiumSharedServices,
        private readonly services: PipelineSqlServices,
        readonly diagnostics: RuntimeDiagnostics,
        private readonly onFinished: RunFinishedSink = () => undefined,
        /** The workspace's trust: nothing here runs or opens a state in an untrusted workspace. */
        private readonly trust: { readonly trusted: boolean } = new WorkspaceTrust(),
    ) {}

    private nextRunId(): string {
        return `run-${Date.now().toString(36)}-${++this.counter}`;
    }

    /** `pipelineSql/runPipeline`: one update of the document's pipeline. */
    async run(params: RunPipelineParams, token: CancellationToken, progress?: WorkDoneProgressReporter): Promise<RunOutcome> {
        const started = Date.now();
        const maxRows = clampRows(params.maxRows);
        const base: Omit<RunSummary, 'durationMs' | 'pipeline'> = {
            runId: this.nextRunId(), documentUri: params.uri, scope: params.scope, dataset: params.dataset,
            fullRefresh: params.fullRefresh === true, refreshed: [], startedAt: new Date(started).toISOString(), maxRows,
        };
        const fail = (location: PipelineLocation | undefined, error: RunErrorModel, diagnostics: readonly DocumentDiagnostic[] = []): RunOutcome => {
            const summary: RunSummary = { ...base, pipeline: { rootUri: location?.rootUri ?? params.uri, name: location?.name }, durationMs: Date.now() - started };
            if (location && error.class !== CancelledClass) {
                const diagnosed = this.diagnostics.replace(location.id, diagnostics);
                this.finished(summary, false, error.class, diagnosed);
            }
            return { ok: false, summary, error };
        };
        if (!this.trust.trusted) {
            return { ok: false, summary: { ...base, pipeline: { rootUri: params.uri }, durationMs: Date.now() - started }, error: untrustedWorkspaceError('run pipelines') };
        }
        progress?.begin('Pipeline SQL', 0, 'Preparing the pipeline', false);
        try {
            const prepared = await preparePipeline(this.shared, this.services, params.uri, token);
            if (!prepared.ok) {
                return fail(prepared.location, prepared.error, prepared.diagnostics);
            }
            const pipeline = prepared.pipeline;
            let target;
            if (params.scope !== 'pipeline' || params.dataset) {
                const found = params.dataset ? findDataset(pipeline.ir, params.dataset) : { ok: false as const, message: 'A dataset is needed to run its flow.' };
                if (!found.ok) {
                    return fail(pipeline, { class: ErrorClass.unknownDataset, message: found.message });
                }
                target = found.dataset;
            }
            const refresh = refreshList(pipeline.ir, params.scope, target);
            const fullRefresh = !params.fullRefresh ? false
                : !target ? true
                    // A view is not refreshed itself: fully refresh what it reads.
                    : isView(target) ? (refresh ?? true) : [displayName(target)];
            const abort = new AbortController();
            const cancel = token.onCancellationRequested(() => abort.abort());
            let result;
            try {
                result = await runUpdate(pipeline.ir, {
                    stateDir: pipeline.stateDir, samplesDir: pipeline.samplesDir, rootDir: pipeline.root, readRoots: pipeline.readRoots, pipeline: engineIdentity(pipeline.project), keeper: this.keeper, limit: maxRows,
                    fullRefresh, refresh, signal: abort.signal,
                    onProgress: event => progress?.report(percentage(event), event.message),
                });
            } finally {
                cancel.dispose();
            }
            const summary: RunSummary = {
                ...base, pipeline: { rootUri: pipeline.rootUri, name: pipeline.name }, refreshed: refresh ?? [], durationMs: Date.now() - started,
            };
            if (!result.ok) {
                const error = toRunError(result.error, uri => pipeline.sourceUris.has(uri));
                if (result.error.class === CancelledClass || token.isCancellationRequested) {
                    return { ok: false, summary, error: { ...error, class: CancelledClass } };
                }
                const diagnostic = errorDiagnostic(error);
                return fail(pipeline, error, diagnostic ? [diagnostic] : []);
            }
            const updated = updatedDatasets(result.flows);
            this.lastRun.set(pipeline.id, {
                runId: summary.runId, pipeline,
                update: { startedAt: base.startedAt, dataset: target ? displayName(target) : undefined, datasets: pipeline.ir.datasets.filter(d => updated.has(datasetKey(d.name))).map(displayName) },
            });
            const diagnosed = this.diagnostics.replace(pipeline.id, []);
            this.finished(summary, true, undefined, diagnosed);
            return {
                ok: true, summary,
                datasets: toDatasetPreviews(pipeline.ir, result.datasets, result.metrics, updatedDatasets(result.flows)),
                flows: toFlowReports(result.flows),
            };
        } catch (error) {
            console.error('pipelineSql/runPipeline failed:', error);
            return fail(undefined, { class: ErrorClass.internal, message: `The run failed unexpectedly: ${error instanceof Error ? error.message : String(error)}` });
        } finally {
            progress?.done();
        }
    }

    /** `pipelineSql/runStatement`: one statement on the local state of the pipeline whose folder holds the document. */
    async statement(params: RunStatementParams, token: CancellationToken): Promise<StatementOutcome> {
        if (!this.trust.trusted) {
            return { ok: false, error: untrustedWorkspaceError('run statements on the local state'), statement: params.text, documentUri: params.uri };
        }
        return runStatementOnState(this.shared, this.services, this.keeper, params, clampRows(params.maxRows), token);
    }

    /** The last update run of the pipeline of a document (not a state read back), if there was one. */
    lastUpdate(documentUri: string): LastUpdate | undefined {
        const located = locatePipeline(this.services, documentUri);
        const record = isRunError(located) ? undefined : this.lastRun.get(located.id);
        if (!record?.update) {
            return undefined;
        }
        const pipeline = record.pipeline;
        return {
            pipeline, ...record.update,
            inspect: { stateDir: pipeline.stateDir, samplesDir: pipeline.samplesDir, rootDir: pipeline.root, readRoots: pipeline.readRoots, pipeline: engineIdentity(pipeline.project), keeper: this.keeper },
        };
    }

    /** Closes the state databases kept open (at shutdown). */
    dispose(): void {
        this.keeper.closeAll();
    }

    private finished(summary: RunSummary, ok: boolean, errorClass: string | undefined, diagnosedUris: string[]): void {
        this.onFinished({ rootUri: summary.pipeline.rootUri, runId: summary.runId, ok, durationMs: summary.durationMs, errorClass, diagnosedUris });
    }

    /** `pipelineSql/pipelineState`: the datasets as the last successful update left them (nothing runs). */
    async state(params: PipelineStateParams, token: CancellationToken): Promise<RunOutcome> {
        const started = Date.now();
        const maxRows = clampRows(params.maxRows);
        const summary = (location: PipelineLocation | undefined): RunSummary => ({
            runId: this.nextRunId(), documentUri: params.uri, pipeline: { rootUri: location?.rootUri ?? params.uri, name: location?.name },
            scope: 'pipeline', fullRefresh: false, refreshed: [], startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, maxRows,
        });
        if (!this.trust.trusted) {
            return { ok: false, summary: summary(undefined), error: untrustedWorkspaceError('read the state of its pipelines') };
        }
        try {
            const prepared = await preparePipeline(this.shared, this.services, params.uri, token);
            if (!prepared.ok) {
                return { ok: false, summary: summary(prepared.location), error: prepared.error };
            }
            const pipeline = prepared.pipeline;
            const state = await readState(pipeline.ir, { stateDir: pipeline.stateDir, samplesDir: pipeline.samplesDir, rootDir: pipeline.root, readRoots: pipeline.readRoots, pipeline: engineIdentity(pipeline.project), keeper: this.keeper, limit: maxRows });
            const done = summary(pipeline);
            if (!state.ok) {
                return { ok: false, summary: done, error: toRunError(state.error, uri => pipeline.sourceUris.has(uri)) };
            }
            // Rows are paged from this read now; the last update (a test records it) is still the last one.
            this.lastRun.set(pipeline.id, { update: this.lastRun.get(pipeline.id)?.update, runId: done.runId, pipeline });
            return { ok: true, restored: true, summary: done, datasets: toDatasetPreviews(pipeline.ir, state.datasets, undefined, new Set()), flows: [] };
        } catch (error) {
            console.error('pipelineSql/pipelineState failed:', error);
            return { ok: false, summary: summary(undefined), error: { class: ErrorClass.internal, message: error instanceof Error ? error.message : String(error) } };
        }
    }

    /** `pipelineSql/datasetRows`: more rows of a dataset of the last run, in the order of its first rows. */
    async rows(params: DatasetRowsParams): Promise<Outcome<RowsModel>> {
        if (!this.trust.trusted) {
            return failure(untrustedWorkspaceError('read the state of its pipelines'));
        }
        const record = [...this.lastRun.values()].find(r => r.runId === params.runId);
        if (!record) {
            return failure({ class: ErrorClass.staleRun, message: 'These results are from an earlier run; run the pipeline again to page its rows.' });
        }
        const { pipeline } = record;
        const limit = clampRows(params.limit, 1000);
        const offset = Math.max(0, Math.floor(params.offset));
        // The engine reads from the start: the same query as the run's first rows, so the order matches.
        const state = await readState(pipeline.ir, { stateDir: pipeline.stateDir, samplesDir: pipeline.samplesDir, rootDir: pipeline.root, readRoots: pipeline.readRoots, pipeline: engineIdentity(pipeline.project), keeper: this.keeper, limit: Math.min(MAX_ROWS, offset + limit) });
        if (!state.ok) {
            return failure(toRunError(state.error, uri => pipeline.sourceUris.has(uri)));
        }
        const entry = Object.entries(state.datasets).find(([name]) => name.toLowerCase() === params.dataset.toLowerCase());
        if (!entry) {
            return failure({ class: ErrorClass.unknownDataset, message: `The pipeline's state has no dataset '${params.dataset}'.` });
        }
        const dataset = entry[1];
        const rows = dataset.rows.slice(offset);
        return { ok: true, columns: dataset.columns, rows, rowCount: dataset.rowCount, truncated: offset + rows.length < dataset.rowCount };
    }

    /** `pipelineSql/versionChanges`: a dataset's versions and the feed of one of them. */
    async versionChanges(params: VersionChangesParams, token: CancellationToken): Promise<Outcome<VersionChangesModel>> {
        const state = await this.stateOf(params.uri, token);
        if (!state.ok) {
            return state;
        }
        const { pipeline } = state;
        const result = await readVersionChanges(pipeline.ir, params.dataset, {
            ...this.stateOptions(pipeline), limit: clampRows(params.maxRows), ...(params.version !== undefined ? { version: params.version } : {}),
        });
        if (!result.ok) {
            return failure(toRunError(result.error, () => false));
        }
        return {
            ok: true, columns: result.columns, rows: result.rows, rowCount: result.rowCount, truncated: result.truncated, version: result.version,
            versions: result.versions.map(v => ({ version: v.version, timestamp: v.timestamp, operation: v.operation, metrics: { ...v.metrics } })),
        };
    }

    /** `pipelineSql/changeEvents`: the change events an AUTO CDC target keeps for one key. */
    async changeEvents(params: ChangeEventsParams, token: CancellationToken): Promise<Outcome<RowsModel>> {
        const state = await this.stateOf(params.uri, token);
        if (!state.ok) {
            return state;
        }
        const { pipeline } = state;
        const events = await readChangeEvents(pipeline.ir, params.dataset, { ...this.stateOptions(pipeline), limit: clampRows(params.maxRows), keys: { ...params.key } });
        if (!events.ok) {
            return failure(toRunError(events.error, uri => pipeline.sourceUris?.has(uri) ?? false));
        }
        return { ok: true, columns: events.columns, rows: events.rows, rowCount: events.rowCount, truncated: events.truncated };
    }

    /**
     * The pipeline whose state a read request looks at (trusted workspaces only): the pipeline as it
     * was last run — the state's rows came from it — or, before any run, as it is now.
     */
    private async stateOf(uri: string, token: CancellationToken): Promise<{ ok: true; pipeline: PreparedPipeline } | { ok: false; error: RunErrorModel }> {
        if (!this.trust.trusted) {
            return failure(untrustedWorkspaceError('read the state of its pipelines'));
        }
        await this.shared.workspace.WorkspaceManager.ready;
        const located = locatePipeline(this.services, uri);
        if (isRunError(located)) {
            return failure(located);
        }
        const last = this.lastRun.get(located.id);
        if (last) {
            return { ok: true, pipeline: last.pipeline };
        }
        const prepared = await preparePipeline(this.shared, this.services, uri, token);
        return prepared.ok ? { ok: true, pipeline: prepared.pipeline } : failure(prepared.error);
    }

    /** Where a pipeline's state lives and who may read it, as the engine's state readers take it. */
    private stateOptions(pipeline: PreparedPipeline) {
        return { stateDir: pipeline.stateDir, samplesDir: pipeline.samplesDir, rootDir: pipeline.root, readRoots: pipeline.readRoots, pipeline: engineIdentity(pipeline.project), keeper: this.keeper };
    }
}

/** Progress of an update in percent: flows take 5–90 %, reading the results the rest. */
export function percentage(event: ProgressEvent): number {
    switch (event.phase) {
        case 'start': return 5;
        case 'flow': return event.index !== undefined && event.total ? 5 + Math.round((85 * (event.index - 1)) / event.total) : 5;
        case 'commit': return 90;
        case 'results': return 95;
        case 'done': return 100;
    }
}
