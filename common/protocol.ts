/**
 * Every custom LSP request and notification between the Pipeline SQL client and server, and the
 * message types of the webview. Methods are named `pipelineSql/…`. The client, the server and the
 * webview import their types from here and from nowhere else.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Range, WorkDoneProgressParams } from 'vscode-languageserver-protocol';
import type { Outcome, RowsModel, RunOutcome, RunScope, SourcePosition, StatementOutcome, VersionChangesModel } from './result-model.js';

export type * from './result-model.js';
export type * from './preview-messages.js';

//#region Client → Server

/** Parameters of {@link PipelineGraphRequest}: any document of the pipeline. */
export interface PipelineGraphParams {
    /** The URI of a file of the pipeline (a source file, or a `samples/*.sql` catalog file). */
    readonly uri: string;
}

/** What a node of the pipeline graph stands for. */
export type PipelineGraphNodeKind =
    | 'streaming-table' | 'materialized-view' | 'temporary-view' | 'view' | 'managed-table'
    /** A table or files the pipeline reads but does not define (catalog table, `read_files(...)`). */
    | 'source'
    /** A destination outside the pipeline that flows write (`dp.create_sink`, Python only). */
    | 'sink'
    /** A flow: reads its inputs, writes its target. */
    | 'flow';

/** The kind of a flow (docs/semantics.md §1). */
export type PipelineFlowKind = 'append' | 'append-once' | 'auto-cdc' | 'auto-cdc-once' | 'snapshot' | 'snapshot-once'
    | 'replace-using' | 'replace-where' | 'materialized-view' | 'view';

/** A node of the pipeline graph. */
export interface PipelineGraphNode {
    /** Unique within the graph: `dataset:name`, `flow:name`, `source:name` (a `#2` suffix for repeats). */
    readonly id: string;
    readonly kind: PipelineGraphNodeKind;
    /** The name as declared or written. */
    readonly name: string;
    /** For flows: what kind of flow. */
    readonly flowKind?: PipelineFlowKind;
    /** For flows: the dataset's own query or inline FLOW clause rather than a CREATE FLOW / APPLY CHANGES. */
    readonly inline?: boolean;
    /** For AUTO CDC and snapshot flows: how the target stores the changes (`STORED AS`, SCD type 1 by default). */
    readonly scd?: 1 | 2 | 'bitemporal';
    /** For sources: declared in the sample catalog (`samples/*.sql`) or found as sample files. */
    readonly sampled?: boolean;
    /** Where it is defined: the document and the range of its name (absent for undeclared sources). */
    readonly uri?: string;
    readonly range?: Range;
    /** Defined in a Python file of the pipeline (the local engine cannot run it). */
    readonly language?: 'python';
}

/** An edge of the pipeline graph: a flow reads a dataset or source, or writes its target. */
export interface PipelineGraphEdge {
    readonly from: string;
    readonly to: string;
    readonly kind: 'read' | 'write';
    /** For reads: read as a stream (`STREAM(x)`). */
    readonly streaming?: boolean;
}

/** The dependency graph (DAG) of one pipeline. */
export interface PipelineGraph {
    /** The pipeline: its root folder (absent for a file that stands alone) and its name from spark-pipeline.yml. */
    readonly pipeline: { readonly id: string; readonly root?: string; readonly name?: string };
    readonly nodes: readonly PipelineGraphNode[];
    readonly edges: readonly PipelineGraphEdge[];
    /** Cycles, each the node ids of the datasets on it (a valid pipeline has none). */
    readonly cycles: ReadonlyArray<readonly string[]>;
}

/**
 * `pipelineSql/pipelineGraph` (client → server): the datasets, flows and sources of the pipeline a
 * document belongs to, with the edges between them. Sent by the DAG view when it opens and after
 * edits; answered once the pipeline's files are linked. Fails with `InvalidParams` for a document
 * the server does not know.
 */
export const PipelineGraphRequest = new RequestType<PipelineGraphParams, PipelineGraph, void>('pipelineSql/pipelineGraph');

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

/** Parameters of {@link VersionChangesRequest}. */
export interface VersionChangesParams {
    /** Any document of the pipeline. */
    readonly uri: string;
    readonly dataset: string;
    /** The version whose feed is wanted (default: the latest). */
    readonly version?: number;
    readonly maxRows: number;
}

/**
 * `pipelineSql/versionChanges` (client → server): a dataset's versions (as DESCRIBE HISTORY lists
 * them) and the change data feed of one version. Sent by the Changes view's version picker.
 */
export const VersionChangesRequest = new RequestType<VersionChangesParams, Outcome<VersionChangesModel>, void>('pipelineSql/versionChanges');

/** Parameters of {@link RunStatementRequest}. */
export interface RunStatementParams {
    /** The document the statement is in (a scratch `.sql` file, or any file of a pipeline folder). */
    readonly uri: string;
    /** One statement's text. */
    readonly text: string;
    /** Where the text starts in the document (errors are placed relative to it). */
    readonly start: SourcePosition;
    readonly maxRows: number;
}

/**
 * `pipelineSql/runStatement` (client → server): runs one statement on the local state of the pipeline
 * whose folder holds the document ("Run on local state"): a query, DESCRIBE HISTORY, or INSERT /
 * UPDATE / DELETE / MERGE, which writes a new version of its dataset (engine `runStatement`, as
 * `pipeline-sql sql`). Refused in an untrusted workspace.
 */
export const RunStatementRequest = new RequestType<RunStatementParams, StatementOutcome, void>('pipelineSql/runStatement');

/** Parameters of {@link DocumentPipelineRequest}. */
export interface DocumentPipelineParams {
    readonly uri: string;
    /** The document's text as the editor has it (else the file on disk is read): a scratch file is told by its statements. */
    readonly text?: string;
}

/** A pipeline as the client shows it (language status, detection reasons). */
export interface PipelineSummary {
    /** The project model's id: the root folder, or `<bundle root>#<key>`. */
    readonly id: string;
    readonly name: string;
    /** A bundle pipeline's resource key. */
    readonly key?: string;
    readonly layout: 'bundle' | 'spark-pipeline' | 'folder';
    /** The file that defines it (databricks.yml's resource file, spark-pipeline.yml), as a URI. */
    readonly specUri?: string;
    /** The 1-based line of that file where the pipeline is defined (a bundle pipeline's key). */
    readonly specLine?: number;
    readonly bundle?: { readonly name?: string; readonly target?: string };
}

/** Which pipelines a file belongs to, as the server's project model says. */
export interface DocumentPipelineInfo {
    /**
     * Whether the file is pipeline SQL: a source or a sample catalog file of a pipeline, or a scratch
     * file in its folder (none of its libraries; queries and DML on its datasets, run on its local state).
     */
    readonly isPipeline: boolean;
    readonly role?: 'source' | 'catalog' | 'scratch';
    /** The pipelines that list it (several when pipelines share a file); a scratch file's pipeline. */
    readonly pipelines: readonly PipelineSummary[];
    /**
     * For a `.sql` file in a pipeline's folder that is none of its files: its statements may make it a
     * scratch file later (the client asks again after an edit).
     */
    readonly scratchCandidate?: boolean;
    /** A one-line explanation for the language status. */
    readonly reason: string;
}

/**
 * Client → server, when a `.sql` document opens or the pipelines changed: whether the project model
 * counts the file as pipeline SQL (language detection) and which pipeline it is in (status item).
 */
export const DocumentPipelineRequest = new RequestType<DocumentPipelineParams, DocumentPipelineInfo, void>('pipelineSql/documentPipeline');

/** Parameters of the pipeline test requests. */
export interface TestFileParams {
    /** A `*.test.yml` file. */
    readonly uri: string;
    /** Its text as the editor has it (else it is read from disk). */
    readonly text?: string;
}

/** A problem of a test file or of an update's outcome; `line` is 1-based. */
export interface TestProblemModel {
    readonly line: number;
    readonly message: string;
    /** For a rows or metric mismatch: the expected and the actual text, line for line (the diff view). */
    readonly expected?: string;
    readonly actual?: string;
}

/** One update of a test file, as the Test Explorer lists it. */
export interface TestUpdateModel {
    readonly index: number;
    /** `update 2 (a late event)`. */
    readonly label: string;
    /** 1-based line of the update. */
    readonly line: number;
}

/** A test file as the server reads it. */
export interface TestFileModel {
    readonly uri: string;
    readonly name: string;
    readonly updates: readonly TestUpdateModel[];
    /** Mistakes in the file (it cannot run while it has one). */
    readonly problems: readonly TestProblemModel[];
}

/** `pipelineSql/describeTestFile` (client → server): a test file's name and updates, for the Test Explorer. */
export const DescribeTestFileRequest = new RequestType<TestFileParams, TestFileModel, void>('pipelineSql/describeTestFile');

/** What one update of a test did. */
export interface TestUpdateResultModel extends TestUpdateModel {
    readonly status: 'passed' | 'failed' | 'skipped';
    readonly durationMs: number;
    readonly problems: readonly TestProblemModel[];
}

/** What a test file's run did. */
export interface TestRunModel {
    readonly uri: string;
    readonly name: string;
    readonly status: 'passed' | 'failed' | 'error';
    readonly durationMs: number;
    readonly updates: readonly TestUpdateResultModel[];
    /** Why the test could not run at all (its file, its pipeline, an untrusted workspace). */
    readonly error?: { readonly class: string; readonly message: string; readonly uri?: string; readonly line?: number };
    /** The plain report, as `pipeline-sql test` prints it. */
    readonly report: string;
}

/**
 * `pipelineSql/runTestFile` (client → server): runs a test file in the server process (hermetically:
 * temporary samples and state), as `pipeline-sql test` does. Refused in an untrusted workspace.
 */
export const RunTestFileRequest = new RequestType<TestFileParams, TestRunModel, void>('pipelineSql/runTestFile');

/** Parameters of `pipelineSql/recordTest`. */
export interface RecordTestParams {
    /** A document of the pipeline whose last run is recorded. */
    readonly uri: string;
    /** The test's name (the file is named after it); by default the run's dataset or pipeline. */
    readonly name?: string;
}

/** The test file written by `pipelineSql/recordTest`, or why none was. */
export type RecordTestResult =
    | { readonly ok: true; readonly uri: string; readonly inputs: readonly string[]; readonly datasets: readonly string[] }
    | { readonly ok: false; readonly error: { readonly class: string; readonly message: string } };

/**
 * `pipelineSql/recordTest` (client → server): writes a test file (`tests/<name>.test.yml` under the
 * pipeline's root) from the last run of the document's pipeline: the rows its sources held as
 * `inputs`, what the datasets it updated hold after a hermetic run of them as `expect`. Refused in an
 * untrusted workspace.
 */
export const RecordTestRequest = new RequestType<RecordTestParams, RecordTestResult, void>('pipelineSql/recordTest');

/**
 * The `initializationOptions` of the Pipeline SQL client's `initialize` request. A client that sends
 * none (another editor over `pipeline-sql lsp --stdio`) gets a trusted workspace.
 */
export interface PipelineSqlInitializationOptions {
    /**
     * Whether the user trusts the workspace (VS Code's workspace trust). In an untrusted workspace
     * (Restricted Mode) the server evaluates no workspace SQL and opens no workspace DuckDB file:
     * run, state, rows and change-event requests fail with {@link UntrustedWorkspaceClass}; the
     * language features and the static pipeline graph keep working.
     */
    readonly workspaceTrusted?: boolean;
}

/** Parameters of {@link WorkspaceTrustNotification}. */
export interface WorkspaceTrustParams {
    readonly trusted: boolean;
}

/**
 * `pipelineSql/workspaceTrust` (client → server): the workspace's trust changed (the user granted
 * it). Sent by the VS Code client whenever VS Code reports a change after `initialize`.
 */
export const WorkspaceTrustNotification = new NotificationType<WorkspaceTrustParams>('pipelineSql/workspaceTrust');

/** Parameters of {@link CreateSampleDataRequest}. */
export interface CreateSampleDataParams {
    /** Any document of the pipeline (the one the quick fix or command was used in). */
    readonly uri: string;
    /** Rows per source (default 20). */
    readonly rows?: number;
    /** The generator's seed (default 1). */
    readonly seed?: number;
}

/** What creating sample data did. */
export interface SampleDataReport {
    /** The pipeline's name. */
    readonly pipeline: string;
    /** Files created or appended to (absolute paths). */
    readonly written: readonly string[];
    /** Per source created: its name, rows and what its data exercises (`5 keys, a late event`). */
    readonly sources: ReadonlyArray<{ readonly name: string; readonly rows: number; readonly notes: readonly string[] }>;
    /** Sources that have sample data already (never overwritten). */
    readonly kept: readonly string[];
    /** Sources left without sample data, and why. */
    readonly skipped: ReadonlyArray<{ readonly name: string; readonly reason: string }>;
}

/**
 * `pipelineSql/createSampleData` (client → server): creates sample data for every source of a
 * document's pipeline that has none (as `pipeline-sql samples`), in the server process, and
 * rechecks the pipeline. Sent by the "no sample data" quick fix and the command `Pipeline SQL:
 * Create Sample Data`. Refused in an untrusted workspace (it writes files).
 */
export const CreateSampleDataRequest = new RequestType<CreateSampleDataParams, Outcome<SampleDataReport>, void>('pipelineSql/createSampleData');

/** The client command the "no sample data" quick fix runs (argument: the document's URI); it sends {@link CreateSampleDataRequest}. */
export const CreateSampleDataCommand = 'pipelineSql.createSampleData';

/** The most rows a sample data request writes or copies (generated per source, or the first rows of a file). */
export const MaxSampleRows = 100_000;

/** A table name sample data can be copied for: one to three plain names (they become folders under `samples/`). */
export const SampleTableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

/**
 * Whether only the first rows of a file can be copied as sample data: a format of one row per line
 * (CSV, TSV, JSON Lines) or Parquet; a `.json` document or a compressed file is copied whole.
 */
export function copiesFirstRows(fileName: string): boolean {
    return /\.(csv|tsv|jsonl|ndjson|parquet)$/i.test(fileName);
}

/** Parameters of {@link UseFileAsSampleRequest}. */
export interface UseFileAsSampleParams {
    /** The data file (CSV, JSON, Parquet) inside a pipeline folder. */
    readonly uri: string;
    /** The table it stands for (`raw.orders`). */
    readonly table: string;
    /** Copy only the first rows (CSV and JSON Lines); absent: the whole file. */
    readonly rows?: number;
}

/**
 * `pipelineSql/useFileAsSample` (client → server): copies a data file under the pipeline's
 * `samples/` folder as the sample data of a table and declares it in `samples/catalog.sql` with
 * the columns inferred from it. Sent by the explorer's "Use this File as Sample Data". Refused in
 * an untrusted workspace; never overwrites.
 */
export const UseFileAsSampleRequest = new RequestType<UseFileAsSampleParams, Outcome<SampleDataReport>, void>('pipelineSql/useFileAsSample');

/** The error class of a request the server refuses because the workspace is not trusted. */
export const UntrustedWorkspaceClass = 'PIPELINE_SQL_UNTRUSTED_WORKSPACE';

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

/** Server → client, after the project model changed (a project file, a library file created or deleted, a setting). */
export const PipelinesChangedNotification = new NotificationType<Record<string, never>>('pipelineSql/pipelinesChanged');

//#endregion
