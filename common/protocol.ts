/**
 * Every custom LSP request and notification between the Pipeline SQL client and server, and the
 * message types of the webview. Methods are named `pipelineSql/…`. The client, the server and the
 * webview import their types from here and from nowhere else.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { WorkDoneProgressParams } from 'vscode-languageserver-protocol';
import type { GraphModel } from './preview-messages.js';
import type { Outcome, RowsModel, RunOutcome, RunScope } from './result-model.js';

export type * from './result-model.js';
export type * from './preview-messages.js';

//#region Client → Server

/** Parameters of {@link RunPipelineRequest}. */
export interface RunPipelineParams extends WorkDoneProgressParams {
    /** Any document of the pipeline (the one the code lens or command was used in). */
    readonly uri: string;
    readonly scope: RunScope;
    /** The dataset to run (scopes `upstream` and `downstream`); a flow's name picks the dataset it writes. */
    readonly dataset?: string;
    /** Fully refresh `dataset` (or, without one, every dataset): clear its data and flow state first. */
    readonly fullRefresh: boolean;
    /** Rows sent per dataset (setting `pipelineSql.preview.maxRows`). */
    readonly maxRows: number;
}

/**
 * `pipelineSql/runPipeline` (client → server): runs one update of the pipeline a document belongs
 * to with the bundled engine, in the server process, and answers with the datasets it produced.
 * Sent by the "Run flow" / "Run pipeline" / "Full refresh" code lenses and commands and by the
 * graph's "Run from here". Reports progress through the `workDoneToken` (LSP work-done progress)
 * and is cancellable (the update is rolled back). Never fails with a `ResponseError` for a pipeline
 * problem: that is a `{ ok: false }` outcome; runtime errors are also published as diagnostics on
 * the responsible clause (code = error class) until the next run of the pipeline.
 */
export const RunPipelineRequest = new RequestType<RunPipelineParams, RunOutcome, void>('pipelineSql/runPipeline');

/** Parameters of {@link PipelineStateRequest}. */
export interface PipelineStateParams {
    /** Any document of the pipeline. */
    readonly uri: string;
    readonly maxRows: number;
}

/**
 * `pipelineSql/pipelineState` (client → server): the datasets as the last successful run left them
 * (read from the state, nothing runs). Sent when the preview panel is revived after a reload.
 */
export const PipelineStateRequest = new RequestType<PipelineStateParams, RunOutcome, void>('pipelineSql/pipelineState');

/** Parameters of {@link DatasetRowsRequest}. */
export interface DatasetRowsParams {
    /** The run whose rows are paged; a later run of the pipeline makes the request fail. */
    readonly runId: string;
    readonly dataset: string;
    readonly offset: number;
    readonly limit: number;
}

/**
 * `pipelineSql/datasetRows` (client → server): more rows of a dataset whose preview was truncated,
 * in the same order as the first rows. Sent when the user asks the grid for more rows.
 */
export const DatasetRowsRequest = new RequestType<DatasetRowsParams, Outcome<RowsModel>, void>('pipelineSql/datasetRows');

/** Parameters of {@link ChangeEventsRequest}. */
export interface ChangeEventsParams {
    /** Any document of the pipeline. */
    readonly uri: string;
    /** An AUTO CDC target. */
    readonly dataset: string;
    /** Key column → value: only this key's events. */
    readonly key: Readonly<Record<string, string | number | boolean | null>>;
    readonly maxRows: number;
}

/**
 * `pipelineSql/changeEvents` (client → server): the input events an AUTO CDC target keeps for one
 * key (`_sequence`, `_system_sequence`, `_change`, `_arrival` plus the data columns), in per-key
 * event order. Sent when a version is selected in the SCD2 history picture.
 */
export const ChangeEventsRequest = new RequestType<ChangeEventsParams, Outcome<RowsModel>, void>('pipelineSql/changeEvents');

/** Parameters of {@link PreviewGraphRequest}. */
export interface PreviewGraphParams {
    /** Any document of the pipeline. */
    readonly uri: string;
}

/**
 * `pipelineSql/previewGraph` (client → server): the pipeline's DAG from the language server's
 * pipeline model (as `pipelineSql/pipelineGraph` sends it), with the storage of every AUTO CDC and
 * snapshot flow (SCD1, SCD2, bitemporal) for the flow labels. Sent when the preview's graph view
 * opens or is refreshed, and after each run.
 */
export const PreviewGraphRequest = new RequestType<PreviewGraphParams, Outcome<{ graph: GraphModel }>, void>('pipelineSql/previewGraph');

//#endregion

//#region Server → Client

/** Parameters of {@link RunFinishedNotification}: a short summary of a run. */
export interface RunFinishedParams {
    /** The pipeline's root folder URI. */
    readonly rootUri: string;
    readonly runId: string;
    readonly ok: boolean;
    readonly durationMs: number;
    /** The error class of a failed run. */
    readonly errorClass?: string;
    /** The documents that got (or lost) runtime-error diagnostics. */
    readonly diagnosedUris: readonly string[];
}

/**
 * `pipelineSql/runFinished` (server → client): a run of a pipeline finished (successfully, with an
 * error, or cancelled). Sent after every `pipelineSql/runPipeline`; the client shows the last run
 * in the language status of the pipeline's documents.
 */
export const RunFinishedNotification = new NotificationType<RunFinishedParams>('pipelineSql/runFinished');

//#endregion
