// Public API of the bundled pipeline engine. The language server and the CLI lower pipeline SQL
// into the IR (`./ir.js`) and call `runUpdate`; nothing else of the engine is needed by them.
export type * from './ir.js';
export {
    runUpdate, readState, errorInfo, type ReadStateOptions, type StateOptions,
    type RunOptions, type UpdateResult, type UpdateSuccess, type UpdateFailure, type UpdateErrorInfo,
    type DatasetResult, type ResultColumn, type FlowReport,
} from './update/run-update.js';
export { runQuery, readChangeEvents, readVersionChanges, type InspectOptions, type InspectResult, type VersionChangesResult } from './update/inspect.js';
export { runStatement, type StatementSuccess } from './update/statements.js';
export type { DatasetMetrics, DatasetChanges, ProgressEvent } from './update/context.js';
export type { JsonValue, Row } from './db/values.js';
export {
    EngineError, PipelineDefinitionError, UnsupportedFeatureError, QueryExecutionError, SampleDataError,
    PipelineRuntimeError, StateError, CancelledError, ErrorClass, type EngineErrorContext,
} from './errors.js';
export { parseSparkType, parseSparkSchema, type Column } from './sql/duckdb-types.js';
export { formatType } from './spark/spark-types.js';
export { localFunctions } from './spark/functions/catalog.js';
export { ownValue, setOwn } from './records.js';
export { STATE_FILE, type PipelineIdentity } from './state/state-store.js';
export { SPILL_DIR, type ResourceOptions } from './db/resources.js';
export { DatabaseKeeper, releaseRequestFile } from './db/kept-databases.js';
export { attachInferredColumns } from './catalog/sample-catalog.js';
export { sampleDirs, type SampleDirs } from './spark/sample-files.js';
export { childExprs } from './ir-walk.js';
