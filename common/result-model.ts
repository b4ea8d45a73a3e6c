/**
 * The serialisable shape of a pipeline run's results, shared by the language server (which builds
 * it from the engine's `UpdateResult`), the client (which forwards it) and the webview (which draws
 * it). Plain data only: no imports, so the webview bundle stays free of LSP libraries.
 */

/** A value as the engine returns it: DATE `yyyy-MM-dd`, TIMESTAMP `yyyy-MM-dd HH:mm:ss[.ffffff]`, structs as objects. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A result row: column name → value. */
export type ResultRow = Record<string, JsonValue>;

/** A column of a result: its name and Spark SQL type (`INT`, `STRING`, `STRUCT<a: INT>`). */
export interface ResultColumn {
    readonly name: string;
    readonly type: string;
}

/** A position in a document (0-based, as in LSP). */
export interface SourcePosition {
    readonly line: number;
    readonly character: number;
}

/** A range in a document (0-based, end exclusive, as in LSP). */
export interface SourceRange {
    readonly start: SourcePosition;
    readonly end: SourcePosition;
}

/** A place in a pipeline source file. */
export interface SourceLocation {
    readonly uri: string;
    readonly range: SourceRange;
}

/** Dataset kinds as the engine names them (docs/semantics.md §1). */
export type DatasetKindName = 'streaming_table' | 'materialized_view' | 'temporary_view' | 'view' | 'managed_table';

/** How an AUTO CDC target keeps its rows, and by which key: decides the pictures the preview offers. */
export interface CdcTargetInfo {
    readonly storedAs: 'scd1' | 'scd2' | 'bitemporal';
    /** Key columns (`KEYS (...)`). */
    readonly keys: readonly string[];
    /** The flow that writes it. */
    readonly flow: string;
    /** Fed by `AUTO CDC ... FROM SNAPSHOT` rather than a change feed. */
    readonly snapshot: boolean;
}

/** Expectation counts of one dataset's last update (docs/semantics.md §10). */
export interface ExpectationCounts {
    readonly passed_records: number;
    readonly failed_records: number;
    /** Only for `ON VIOLATION DROP ROW`. */
    readonly dropped_records?: number;
}

/** Metrics of one dataset's last update, named as the event log names them (docs/semantics.md §10). */
export interface DatasetMetricsModel {
    readonly num_upserted_rows?: number;
    readonly num_deleted_rows?: number;
    readonly num_output_rows?: number;
    readonly expectations?: Readonly<Record<string, ExpectationCounts>>;
}

/** What the run changed in a dataset: counts, and the changed rows (capped like the rows). */
export interface DatasetChangesModel {
    readonly inserted: number;
    readonly updated: number;
    readonly deleted: number;
    readonly rows: {
        readonly inserted: readonly ResultRow[];
        /** Updated rows with their new values. */
        readonly updated: readonly ResultRow[];
        /** Rows the run removed (no longer in the dataset). */
        readonly deleted: readonly ResultRow[];
    };
    /**
     * The update's change data feed (spec 15.2): the changed rows with `_change_type` (`insert`,
     * `delete`, `update_preimage`, `update_postimage`), each pre-image before its post-image, capped like the rows.
     */
    readonly feed?: readonly ResultRow[];
}

/** One dataset after a run (or as the state holds it). */
export interface DatasetPreview {
    /** The name as declared (`sales.orders`). */
    readonly name: string;
    readonly kind: DatasetKindName;
    readonly columns: readonly ResultColumn[];
    /** The first rows (at most the run's `maxRows`). */
    readonly rows: readonly ResultRow[];
    /** The number of rows in the dataset. */
    readonly rowCount: number;
    /** `rowCount` is larger than `rows.length`; more rows can be paged in. */
    readonly truncated: boolean;
    /** The run updated it (it was selected and not a view). */
    readonly updated: boolean;
    readonly changes?: DatasetChangesModel;
    readonly metrics?: DatasetMetricsModel;
    /**
     * Versions statements on the local state wrote after the run (Run on local state), oldest first:
     * the rows are the state's now, while `changes` and `metrics` are still the run's.
     */
    readonly changedSince?: readonly DatasetVersionModel[];
    readonly cdc?: CdcTargetInfo;
    /** A view that could not be evaluated. */
    readonly error?: { readonly class: string; readonly message: string };
    /** Where the dataset is declared. */
    readonly location?: SourceLocation;
}

/** What happened to one flow in a run. */
export interface FlowReportModel {
    readonly name: string;
    readonly dataset: string;
    readonly status: 'completed' | 'skipped' | 'not_selected';
    readonly rows?: number;
    readonly message?: string;
}

/** Which datasets a run updates. */
export type RunScope =
    /** Every dataset of the pipeline. */
    | 'pipeline'
    /** One dataset and everything it reads, transitively ("Run flow"). */
    | 'upstream'
    /** One dataset and everything that reads it, transitively ("Run from here"). */
    | 'downstream';

/** What a run was asked to do and how it went. */
export interface RunSummary {
    /** Unique per server session; pages of rows are requested against it. */
    readonly runId: string;
    /** The document the run was asked from (a key to restore the preview after a reload). */
    readonly documentUri: string;
    /** The pipeline: its root folder's URI and its name from spark-pipeline.yml. */
    readonly pipeline: { readonly rootUri: string; readonly name?: string };
    readonly scope: RunScope;
    /** The dataset the run was asked for (scopes `upstream` and `downstream`). */
    readonly dataset?: string;
    readonly fullRefresh: boolean;
    /** The datasets the run selected (empty = all). */
    readonly refreshed: readonly string[];
    /** ISO time the run started. */
    readonly startedAt: string;
    readonly durationMs: number;
    /** The row cap of this run (setting `pipelineSql.preview.maxRows`). */
    readonly maxRows: number;
}

/** Why a run failed: the engine's error class and message, and where in the source. */
export interface RunErrorModel {
    /** Spark / Databricks error class, or `PIPELINE_SQL_*` (e.g. `AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE`). */
    readonly class: string;
    readonly message: string;
    readonly dataset?: string;
    readonly flow?: string;
    /** The responsible clause in the pipeline source. */
    readonly location?: SourceLocation;
    /** A bad sample data file (and its 1-based line), when the data is to blame. */
    readonly dataFile?: string;
    readonly dataLine?: number;
}

/** A successful run (or the state as the last run left it, `restored`). */
export interface RunSuccessModel {
    readonly ok: true;
    readonly summary: RunSummary;
    readonly datasets: readonly DatasetPreview[];
    readonly flows: readonly FlowReportModel[];
    /** Read from the stored state (after a reload), not produced by a run: nothing is highlighted. */
    readonly restored?: boolean;
}

/** A failed run: the state is as the last successful run left it. */
export interface RunFailureModel {
    readonly ok: false;
    readonly summary: RunSummary;
    readonly error: RunErrorModel;
}

/** The outcome of a run. */
export type RunOutcome = RunSuccessModel | RunFailureModel;

/** Rows of an inspection (a page of a dataset, or the change events of a key). */
export interface RowsModel {
    readonly columns: readonly ResultColumn[];
    readonly rows: readonly ResultRow[];
    readonly rowCount: number;
    readonly truncated: boolean;
}

/** A request that can fail without an exception: the value, or the error to show. */
export type Outcome<T> = ({ readonly ok: true } & T) | { readonly ok: false; readonly error: RunErrorModel };

/** The version a DML statement wrote (as `DESCRIBE HISTORY` lists it). */
export interface DatasetVersionModel {
    readonly version: number;
    /** Commit time, `yyyy-MM-dd HH:mm:ss`. */
    readonly timestamp: string;
    /** `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `PIPELINE UPDATE`, `CREATE`. */
    readonly operation: string;
    readonly metrics: Readonly<Record<string, number>>;
}

/**
 * A statement run on a pipeline's local state ("Run on local state", `pipeline-sql sql`): the rows of
 * a query or DESCRIBE HISTORY, or for DML the version it wrote and its change data feed (the rows,
 * with `_change_type`).
 */
export interface StatementResultModel extends RowsModel {
    readonly kind: 'query' | 'describe_history' | 'insert' | 'update' | 'delete' | 'merge';
    /** The statement as run. */
    readonly statement: string;
    /** The document it was run from, and the pipeline whose state it ran on. */
    readonly documentUri: string;
    readonly pipeline: { readonly rootUri: string; readonly name?: string };
    /** DML: the dataset it changed, and the version it wrote (absent when it changed nothing). */
    readonly dataset?: string;
    readonly version?: DatasetVersionModel;
    readonly durationMs: number;
}

/** A dataset's versions and the change data feed of one of them (the Changes view's history picker). */
export interface VersionChangesModel extends RowsModel {
    /** Every version, oldest first. */
    readonly versions: readonly DatasetVersionModel[];
    /** The version whose feed the rows are (with `_change_type`). */
    readonly version: number;
}

/** The outcome of a statement on the local state. */
export type StatementOutcome = ({ readonly ok: true } & StatementResultModel)
    | { readonly ok: false; readonly error: RunErrorModel; readonly statement: string; readonly documentUri: string };

/** Names of the hidden columns a change event carries (engine `readChangeEvents`). */
export const ChangeEventColumns = {
    sequence: '_sequence',
    systemSequence: '_system_sequence',
    change: '_change',
    arrival: '_arrival',
} as const;

/** Column names AUTO CDC adds to SCD2 and BITEMPORAL targets (docs/semantics.md §6.4). */
export const HistoryColumns = {
    startAt: '__START_AT',
    endAt: '__END_AT',
    systemStartAt: '__SYSTEM_START_AT',
    systemEndAt: '__SYSTEM_END_AT',
} as const;
