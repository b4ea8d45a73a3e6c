// The only exceptions the engine throws. Every error carries a stable class name (`code`): a
// Databricks / Spark error class where one is documented (spec section 19), otherwise a
// project name prefixed `PIPELINE_SQL_`. Where the cause is a piece of pipeline SQL the error
// carries that clause's source span; where it is a sample data file, the file and line.
import type { SourceSpan } from './ir.js';

/** Where an error happened, as far as the engine knows it. */
export interface EngineErrorContext {
    /** Source span of the responsible clause or statement (pipeline SQL). */
    span?: SourceSpan;
    /** Dataset being updated when the error happened (its normalised name). */
    dataset?: string;
    /** Flow being run when the error happened. */
    flow?: string;
    /** A data file (sample table, read_files) that caused the error, when not pipeline SQL. */
    dataFile?: string;
    /** 1-based line inside `dataFile`. */
    dataLine?: number;
}

/** Base class of every error the engine throws; `code` is the error class name. */
export class EngineError extends Error {
    readonly code: string;
    span?: SourceSpan;
    dataset?: string;
    flow?: string;
    dataFile?: string;
    dataLine?: number;

    constructor(code: string, message: string, context: EngineErrorContext = {}, options?: { cause?: unknown }) {
        super(message, options);
        this.name = new.target.name;
        this.code = code;
        this.span = context.span;
        this.dataset = context.dataset;
        this.flow = context.flow;
        this.dataFile = context.dataFile;
        this.dataLine = context.dataLine;
    }

    /** Fills in context fields that are still empty (inner code knows the span, outer code the flow). */
    withContext(context: EngineErrorContext): this {
        this.span ??= context.span;
        this.dataset ??= context.dataset;
        this.flow ??= context.flow;
        this.dataFile ??= context.dataFile;
        this.dataLine ??= context.dataLine;
        return this;
    }
}

/** The pipeline IR is malformed or asks for something the engine cannot run (a lowering bug or an unsupported construct). */
export class PipelineDefinitionError extends EngineError {}

/** A Spark SQL construct or function that the DuckDB translation cannot reproduce faithfully. */
export class UnsupportedFeatureError extends EngineError {}

/** A query failed while running (DuckDB error mapped onto the flow and clause that caused it). */
export class QueryExecutionError extends EngineError {}

/** Sample data could not be read: missing file, malformed line, value of the wrong type. */
export class SampleDataError extends EngineError {}

/** A documented pipeline runtime error: AUTO CDC validation, snapshot versions, expectations. */
export class PipelineRuntimeError extends EngineError {}

/** The pipeline state under `.pipeline-sql/` is unusable (locked by another process, damaged, unknown format, another pipeline's). */
export class StateError extends EngineError {}

/** The caller aborted the update through its AbortSignal; the state is left as before the update. */
export class CancelledError extends EngineError {
    constructor() {
        super('PIPELINE_SQL_CANCELLED', 'The update was cancelled; the previous pipeline state is unchanged.');
    }
}

/** Error classes used by the engine (documented names first, then project names). */
export const ErrorClass = {
    managedTableCdc: 'MANAGED_TABLE_DOES_NOT_SUPPORT_CDC',
    switchStToManaged: 'CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE',
    invalidVersionQuery: 'INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY',
    nonEmptyTargetWithoutVersion: 'AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION',
    versionSchemaChanged: 'AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED',
    invalidSnapshotFunctionUsage: 'INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION',
    unresolvableTableFunction: 'UNRESOLVABLE_TABLE_VALUED_FUNCTION',
    outOfOrderSnapshot: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION',
    versionNotSortable: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.SNAPSHOT_VERSION_NOT_SORTABLE',
    snapshotDuplicateKey: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.DUPLICATE_KEY_VIOLATION',
    multipleSnapshotQueries: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE',
    interopKeysMismatch: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_KEYS_MISMATCH',
    interopIgnoreNull: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_IGNORE_NULL_UNSUPPORTED',
    interopExpectations: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_EXPECTATIONS_NOT_SUPPORTED',
    interopScd2: 'PIPELINE_SQL_SNAPSHOT_INTEROP_REQUIRES_SCD1',
    nonOrderableSequence: 'AUTOCDC_MICROBATCH_VALIDATION.NON_ORDERABLE_SEQUENCE',
    nullKey: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY',
    nullSequence: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE',
    sequenceTypeDrift: 'AUTOCDC_INVALID_STATE.SEQUENCING_TYPE_DRIFT',
    keySchemaDrift: 'AUTOCDC_INVALID_STATE.KEY_SCHEMA_DRIFT',
    columnsNotFound: 'AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA',
    keyNotSelected: 'AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA',
    reservedColumn: 'AUTOCDC_RESERVED_COLUMN_NAME_CONFLICT',
    emptyKeys: 'AUTOCDC_EMPTY_KEYS',
    expectationViolation: 'EXPECTATION_VIOLATION',
    tableNotFound: 'TABLE_OR_VIEW_NOT_FOUND',
    pythonDatasetNotSampled: 'PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES',
    batchForStreamingTable: 'INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE',
    divideByZero: 'DIVIDE_BY_ZERO',
    castInvalidInput: 'CAST_INVALID_INPUT',
    outOfMemory: 'UNABLE_TO_ACQUIRE_MEMORY',
    unsupportedFunction: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION',
    unsupportedFeature: 'PIPELINE_SQL_UNSUPPORTED_FEATURE',
    invalidPipeline: 'PIPELINE_SQL_INVALID_PIPELINE',
    queryError: 'PIPELINE_SQL_QUERY_ERROR',
    sampleData: 'PIPELINE_SQL_BAD_SAMPLE_DATA',
    sampleMissing: 'PIPELINE_SQL_SAMPLE_FILE_NOT_FOUND',
    readOutsidePipeline: 'PIPELINE_SQL_READ_OUTSIDE_PIPELINE',
    streamingSourceChanged: 'PIPELINE_SQL_STREAMING_SOURCE_CHANGED',
    streamingSourceNotAppendOnly: 'PIPELINE_SQL_STREAMING_SOURCE_NOT_APPEND_ONLY',
    fileAccessDenied: 'PIPELINE_SQL_FILE_ACCESS_DENIED',
    stateLocked: 'PIPELINE_SQL_STATE_LOCKED',
    stateUnreadable: 'PIPELINE_SQL_STATE_UNREADABLE',
    stateOfAnotherPipeline: 'PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE',
    cycle: 'PIPELINE_SQL_CYCLIC_DEPENDENCY',
    cdcFlowsIncompatible: 'PIPELINE_SQL_CDC_FLOWS_INCOMPATIBLE',
    mixedFlowKinds: 'PIPELINE_SQL_CDC_TARGET_HAS_OTHER_FLOWS',
    schemaMismatch: 'PIPELINE_SQL_SCHEMA_MISMATCH',
    replaceWhereManaged: 'PIPELINE_SQL_REPLACE_WHERE_INTO_MANAGED_TABLE',
    cdcTargetKind: 'PIPELINE_SQL_CDC_TARGET_NOT_STREAMING_TABLE',
    unknownDataset: 'PIPELINE_SQL_UNKNOWN_DATASET',
    internal: 'PIPELINE_SQL_INTERNAL_ERROR',
    cdcInvalidRange: 'DELTA_INVALID_CDC_RANGE',
    cdcTimestampAfterLatest: 'DELTA_TIMESTAMP_GREATER_THAN_COMMIT',
    cdcVersionAfterLatest: 'PIPELINE_SQL_CDC_VERSION_AFTER_LATEST',
    cdcTimestampBeforeEarliest: 'PIPELINE_SQL_CDC_TIMESTAMP_BEFORE_EARLIEST',
    streamingSourceUpdated: 'DELTA_SOURCE_TABLE_IGNORE_CHANGES',
    streamingSourceDeleted: 'DELTA_SOURCE_IGNORE_DELETE',
} as const;
