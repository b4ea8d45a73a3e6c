// The one table of error classes: every stable name an error or diagnostic of Pipeline SQL carries,
// whether the language server reports it before a run (validation, the lowering) or the engine
// raises it during one. A Databricks / Spark error class where one is documented (docs/semantics.md §4
// and §19), otherwise a project name prefixed `PIPELINE_SQL_` (docs/semantics.md A21). A rule that both the editor
// and the engine enforce has one entry here, so the two can never name it differently.
//
// The editor's message templates and severities are in server/src/language/validation/issue-codes.ts
// (they refer to these entries); the engine writes its messages where it raises the error.

/** Error classes by name. */
export const ErrorClass = {
    //#region Syntax and names
    parseSyntaxError: 'PARSE_SYNTAX_ERROR',
    tableNotFound: 'TABLE_OR_VIEW_NOT_FOUND',
    unresolvedColumn: 'UNRESOLVED_COLUMN.WITH_SUGGESTION',
    unresolvedFunction: 'UNRESOLVED_ROUTINE',
    unresolvableTableFunction: 'UNRESOLVABLE_TABLE_VALUED_FUNCTION',
    unboundParameter: 'UNBOUND_SQL_PARAMETER',
    duplicateDataset: 'PIPELINE_DUPLICATE_IDENTIFIERS.DATASET',
    duplicateFlow: 'PIPELINE_DUPLICATE_IDENTIFIERS.FLOW',
    unknownDataset: 'PIPELINE_SQL_UNKNOWN_DATASET',
    unknownTableReadOption: 'PIPELINE_SQL_UNKNOWN_TABLE_READ_OPTION',
    tableChangesNotADataset: 'PIPELINE_SQL_TABLE_CHANGES_NOT_A_DATASET',
    //#endregion
    //#region Function calls
    wrongNumArgs: 'WRONG_NUM_ARGS.WITHOUT_SUGGESTION',
    windowWithoutOver: 'WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE',
    namedParametersNotSupported: 'NAMED_PARAMETERS_NOT_SUPPORTED',
    unexpectedPositionalArgument: 'UNEXPECTED_POSITIONAL_ARGUMENT',
    unrecognizedParameterName: 'UNRECOGNIZED_PARAMETER_NAME',
    bothPositionalAndNamed: 'DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.BOTH_POSITIONAL_AND_NAMED',
    doubleNamedArgument: 'DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE',
    requiredParameterNotFound: 'REQUIRED_PARAMETER_NOT_FOUND',
    unsupportedFunction: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION',
    //#endregion
    //#region AUTO CDC clauses (docs/semantics.md §4: V1–V7, V15, V21–V24, V26)
    emptyKeys: 'AUTOCDC_EMPTY_KEYS',
    autoCdcMissingSequenceBy: 'AUTOCDC_MISSING_SEQUENCE_BY',
    snapshotClauseNotAllowed: 'PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED',
    truncateRequiresScd1: 'PIPELINE_SQL_TRUNCATE_REQUIRES_SCD1',
    trackHistoryRequiresScd2: 'PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2',
    trackHistoryWithBitemporal: 'PIPELINE_SQL_TRACK_HISTORY_WITH_BITEMPORAL',
    bitemporalRequiresSystemSequence: 'PIPELINE_SQL_BITEMPORAL_REQUIRES_SYSTEM_SEQUENCE_BY',
    systemSequenceRequiresBitemporal: 'PIPELINE_SQL_SYSTEM_SEQUENCE_BY_REQUIRES_BITEMPORAL',
    columnsToUpdateConflict: 'PIPELINE_SQL_COLUMNS_TO_UPDATE_CONFLICT',
    invalidSnapshotFunctionUsage: 'INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION',
    columnsNotFound: 'AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA',
    autoCdcMultipartColumn: 'AUTOCDC_MULTIPART_COLUMN_IDENTIFIER',
    keyNotSelected: 'AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA',
    reservedColumn: 'AUTOCDC_RESERVED_COLUMN_NAME_CONFLICT',
    autoCdcReservedPrefix: 'AUTOCDC_RESERVED_COLUMN_NAME_PREFIX_CONFLICT',
    scd2DeclaredSchema: 'PIPELINE_SQL_SCD2_SCHEMA_MISSING_COLUMNS',
    autoCdcClauseOrder: 'PIPELINE_SQL_AUTO_CDC_CLAUSE_ORDER',
    duplicateClause: 'DUPLICATE_CLAUSES',
    //#endregion
    //#region AUTO CDC at run time (change events, state)
    nonOrderableSequence: 'AUTOCDC_MICROBATCH_VALIDATION.NON_ORDERABLE_SEQUENCE',
    nullKey: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY',
    nullSequence: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE',
    sequenceTypeDrift: 'AUTOCDC_INVALID_STATE.SEQUENCING_TYPE_DRIFT',
    keySchemaDrift: 'AUTOCDC_INVALID_STATE.KEY_SCHEMA_DRIFT',
    cdcFlowsIncompatible: 'PIPELINE_SQL_CDC_FLOWS_INCOMPATIBLE',
    //#endregion
    //#region Snapshots (AUTO CDC FROM SNAPSHOT)
    invalidVersionQuery: 'INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY',
    nonEmptyTargetWithoutVersion: 'AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION',
    versionSchemaChanged: 'AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED',
    outOfOrderSnapshot: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION',
    versionNotSortable: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.SNAPSHOT_VERSION_NOT_SORTABLE',
    snapshotDuplicateKey: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.DUPLICATE_KEY_VIOLATION',
    multipleSnapshotQueries: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE',
    interopKeysMismatch: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_KEYS_MISMATCH',
    interopIgnoreNull: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_IGNORE_NULL_UNSUPPORTED',
    interopExpectations: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_EXPECTATIONS_NOT_SUPPORTED',
    snapshotInteropContinuous: 'APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_CONTINUOUS_NOT_SUPPORTED',
    interopScd2: 'PIPELINE_SQL_SNAPSHOT_INTEROP_REQUIRES_SCD1',
    //#endregion
    //#region Flows and targets (V8–V14, V16–V18, V25)
    onceWithReplace: 'PIPELINE_SQL_ONCE_WITH_REPLACE',
    replaceWhereWithAutoCdc: 'PIPELINE_SQL_REPLACE_WHERE_WITH_AUTO_CDC',
    replaceUsingDuplicateKey: 'PIPELINE_SQL_REPLACE_USING_DUPLICATE_KEY',
    replaceUsingKeyNotOrderable: 'PIPELINE_SQL_REPLACE_USING_KEY_NOT_ORDERABLE',
    replaceUsingMissingSequenceBy: 'PIPELINE_SQL_REPLACE_USING_MISSING_SEQUENCE_BY',
    replaceUsingSequenceNotColumn: 'PIPELINE_SQL_REPLACE_USING_SEQUENCE_BY_NOT_COLUMN',
    byNameRequired: 'PIPELINE_SQL_BY_NAME_REQUIRED',
    batchForStreamingTable: 'INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE',
    streamingQueryForOnceFlow: 'INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW',
    streamingQueryForMaterializedView: 'INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW',
    autoCdcBatchSource: 'PIPELINE_SQL_AUTO_CDC_BATCH_SOURCE',
    autoCdcOnceStreamingSource: 'PIPELINE_SQL_AUTO_CDC_ONCE_STREAMING_SOURCE',
    managedTableCdc: 'MANAGED_TABLE_DOES_NOT_SUPPORT_CDC',
    replaceWhereManaged: 'PIPELINE_SQL_REPLACE_INTO_MANAGED_TABLE',
    switchStToManaged: 'CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE',
    mixedFlowKinds: 'PIPELINE_SQL_CDC_TARGET_WITH_OTHER_FLOWS',
    multipleFlowsToCdcTarget: 'AUTOCDC_MULTIPLE_FLOWS_TO_TARGET',
    cdcTargetKind: 'PIPELINE_SQL_AUTO_CDC_TARGET_NOT_STREAMING_TABLE',
    flowIntoNonTable: 'PIPELINE_SQL_FLOW_TARGET_NOT_TABLE',
    flowTargetNotFound: 'PIPELINE_SQL_FLOW_TARGET_NOT_FOUND',
    datasetWithoutFlow: 'PIPELINE_DATASET_WITHOUT_FLOW',
    streamingReadOfMaterializedView: 'PIPELINE_SQL_STREAMING_READ_OF_MATERIALIZED_VIEW',
    cycle: 'PIPELINE_SQL_CIRCULAR_DEPENDENCY',
    schemaMismatch: 'PIPELINE_SQL_SCHEMA_MISMATCH',
    //#endregion
    //#region Datasets and expectations (V19, V20)
    duplicateExpectation: 'PIPELINE_SQL_DUPLICATE_EXPECTATION',
    invalidExpectation: 'PIPELINE_SQL_INVALID_EXPECTATION',
    expectationOnTemporaryView: 'PIPELINE_SQL_EXPECTATION_ON_TEMPORARY_VIEW',
    expectationViolation: 'EXPECTATION_VIOLATION',
    partitionAndCluster: 'PIPELINE_SQL_PARTITION_AND_CLUSTER',
    statementNotInPipeline: 'PIPELINE_SQL_STATEMENT_NOT_IN_PIPELINE',
    ambiguousScratchFile: 'PIPELINE_SQL_AMBIGUOUS_SCRATCH_FILE',
    //#endregion
    //#region Legacy syntax and target profiles (docs/semantics.md §17)
    deprecatedLivePrefix: 'PIPELINE_SQL_DEPRECATED_LIVE_PREFIX',
    deprecatedLiveTable: 'PIPELINE_SQL_DEPRECATED_LIVE_DATASET',
    queryWithoutAs: 'PIPELINE_SQL_QUERY_WITHOUT_AS',
    deprecatedApplyChanges: 'PIPELINE_SQL_DEPRECATED_APPLY_CHANGES',
    deprecatedSnapshotTable: 'PIPELINE_SQL_DEPRECATED_SNAPSHOT_TABLE',
    unsupportedInTarget: 'PIPELINE_SQL_UNSUPPORTED_IN_TARGET',
    //#endregion
    //#region Values at run time
    divideByZero: 'DIVIDE_BY_ZERO',
    castInvalidInput: 'CAST_INVALID_INPUT',
    arithmeticOverflow: 'ARITHMETIC_OVERFLOW',
    invalidArrayIndex: 'INVALID_ARRAY_INDEX',
    invalidArrayIndexInElementAt: 'INVALID_ARRAY_INDEX_IN_ELEMENT_AT',
    invalidIndexOfZero: 'INVALID_INDEX_OF_ZERO',
    invalidStartParameter: 'INVALID_PARAMETER_VALUE.START',
    invalidLengthParameter: 'INVALID_PARAMETER_VALUE.LENGTH',
    notNullViolated: 'DELTA_NOT_NULL_CONSTRAINT_VIOLATED',
    outOfMemory: 'UNABLE_TO_ACQUIRE_MEMORY',
    queryError: 'PIPELINE_SQL_QUERY_ERROR',
    //#endregion
    //#region Sample data and reads
    sampleData: 'PIPELINE_SQL_BAD_SAMPLE_DATA',
    sampleDataUnreadable: 'PIPELINE_SQL_SAMPLE_DATA_UNREADABLE',
    sampleMissing: 'PIPELINE_SQL_SAMPLE_FILE_NOT_FOUND',
    pythonDatasetNotSampled: 'PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES',
    invalidSampleCatalog: 'PIPELINE_SQL_INVALID_SAMPLE_CATALOG',
    readOutsidePipeline: 'PIPELINE_SQL_READ_OUTSIDE_PIPELINE',
    fileAccessDenied: 'PIPELINE_SQL_FILE_ACCESS_DENIED',
    streamingSourceChanged: 'PIPELINE_SQL_STREAMING_SOURCE_CHANGED',
    streamingSourceNotAppendOnly: 'PIPELINE_SQL_STREAMING_SOURCE_NOT_APPEND_ONLY',
    streamingSourceUpdated: 'DELTA_SOURCE_TABLE_IGNORE_CHANGES',
    streamingSourceDeleted: 'DELTA_SOURCE_IGNORE_DELETE',
    //#endregion
    //#region Versions and the change data feed of datasets
    cdcInvalidRange: 'DELTA_INVALID_CDC_RANGE',
    dmlNotAllowed: 'PIPELINE_SQL_DML_NOT_ALLOWED',
    invalidScd2Row: 'PIPELINE_SQL_INVALID_SCD2_ROW',
    mergeMultipleMatches: 'DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE',
    ambiguousReference: 'AMBIGUOUS_REFERENCE',
    invalidStatement: 'PIPELINE_SQL_INVALID_STATEMENT',
    cdcTimestampAfterLatest: 'DELTA_TIMESTAMP_GREATER_THAN_COMMIT',
    cdcVersionAfterLatest: 'PIPELINE_SQL_CDC_VERSION_AFTER_LATEST',
    cdcTimestampBeforeEarliest: 'PIPELINE_SQL_CDC_TIMESTAMP_BEFORE_EARLIEST',
    //#endregion
    //#region State and updates
    stateLocked: 'PIPELINE_SQL_STATE_LOCKED',
    stateUnreadable: 'PIPELINE_SQL_STATE_UNREADABLE',
    stateOfAnotherPipeline: 'PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE',
    cancelled: 'PIPELINE_SQL_CANCELLED',
    //#endregion
    //#region Pipeline projects (bundles, spark-pipeline.yml, libraries, pipeline tests)
    invalidProjectFile: 'PIPELINE_SQL_INVALID_PROJECT_FILE',
    libraryNotFound: 'PIPELINE_SQL_LIBRARY_NOT_FOUND',
    libraryOutsideRoot: 'PIPELINE_SQL_LIBRARY_OUTSIDE_ROOT',
    libraryMatchesNothing: 'PIPELINE_SQL_LIBRARY_MATCHES_NOTHING',
    invalidGlobPattern: 'PIPELINE_SPEC_INVALID_GLOB_PATTERN',
    specUnexpectedField: 'PIPELINE_SPEC_UNEXPECTED_FIELD',
    specMissingRequiredField: 'PIPELINE_SPEC_MISSING_REQUIRED_FIELD',
    specFieldNotDict: 'PIPELINE_SPEC_FIELD_NOT_DICT',
    specDictValueNotString: 'PIPELINE_SPEC_DICT_VALUE_NOT_STRING',
    duplicatePipeline: 'PIPELINE_SQL_DUPLICATE_PIPELINE',
    unknownBundleTarget: 'PIPELINE_SQL_UNKNOWN_BUNDLE_TARGET',
    unknownBundleVariable: 'PIPELINE_SQL_UNKNOWN_BUNDLE_VARIABLE',
    noSources: 'PIPELINE_SQL_NO_SOURCES',
    invalidTestFile: 'PIPELINE_SQL_INVALID_TEST_FILE',
    testNoPipeline: 'PIPELINE_SQL_TEST_NO_PIPELINE',
    testUnknownSchema: 'PIPELINE_SQL_TEST_UNKNOWN_SCHEMA',
    testUnknownExpectation: 'PIPELINE_SQL_TEST_UNKNOWN_EXPECTATION',
    testRecordTooLarge: 'PIPELINE_SQL_TEST_RECORD_TOO_LARGE',
    testRecordFailed: 'PIPELINE_SQL_TEST_RECORD_FAILED',
    noRunToRecord: 'PIPELINE_SQL_NO_RUN_TO_RECORD',
    //#endregion
    //#region Requests of the editor (runs, previews)
    notAFile: 'PIPELINE_SQL_NOT_A_FILE',
    staleRun: 'PIPELINE_SQL_STALE_RUN',
    //#endregion
    //#region What the local engine cannot do, and its own faults
    unsupportedFeature: 'PIPELINE_SQL_UNSUPPORTED_FEATURE',
    invalidPipeline: 'PIPELINE_SQL_INVALID_PIPELINE',
    internal: 'PIPELINE_SQL_INTERNAL_ERROR',
    //#endregion
} as const;

/** One of the error classes above. */
export type ErrorClassName = (typeof ErrorClass)[keyof typeof ErrorClass];

/**
 * What a class means, for the classes whose messages are written where they are found (project
 * files, test files) rather than from a template of the editor's diagnostics table: the help text of
 * `check --format sarif` rules.
 */
export const ErrorClassHelp: Readonly<Partial<Record<ErrorClassName, string>>> = {
    [ErrorClass.invalidProjectFile]: 'A project file (databricks.yml, a file it includes, spark-pipeline.yml) is not valid YAML or not shaped as its format requires; the pipelines it defines cannot be read as written.',
    [ErrorClass.libraryNotFound]: 'A pipeline library (`file:` or `notebook:` path) names a file that does not exist.',
    [ErrorClass.libraryOutsideRoot]: 'A pipeline library points outside the pipeline\'s root folder; files there are not read.',
    [ErrorClass.libraryMatchesNothing]: 'A `glob:` library of a pipeline matches no .sql or .py file, so it adds nothing to the pipeline.',
    [ErrorClass.invalidGlobPattern]: 'A `glob:` include pattern cannot be read as a glob (Spark rejects it too).',
    [ErrorClass.specUnexpectedField]: 'spark-pipeline.yml has a field Spark Declarative Pipelines does not know.',
    [ErrorClass.specMissingRequiredField]: 'spark-pipeline.yml lacks a field Spark Declarative Pipelines requires.',
    [ErrorClass.specFieldNotDict]: 'A field of spark-pipeline.yml that must be a mapping is not one.',
    [ErrorClass.specDictValueNotString]: 'A value of a spark-pipeline.yml mapping that must be a string is not one.',
    [ErrorClass.duplicatePipeline]: 'Two pipelines of the bundle have the same name.',
    [ErrorClass.unknownBundleTarget]: 'The bundle target asked for is not one of the targets databricks.yml declares.',
    [ErrorClass.unknownBundleVariable]: 'A `${var.name}` in the bundle names a variable it does not declare.',
    [ErrorClass.noSources]: 'The pipeline has no SQL source file to check or run.',
    [ErrorClass.invalidTestFile]: 'A pipeline test file (*.test.yml) cannot be used as written: a YAML error, an unknown key, or a value of the wrong shape.',
    [ErrorClass.testNoPipeline]: 'A pipeline test file is in no pipeline\'s folder, or does not say which of several pipelines it tests (`pipeline: <key>`).',
    [ErrorClass.testUnknownSchema]: 'A test gives rows for a source whose columns nothing declares: give them in the test\'s `schemas:`.',
    [ErrorClass.testUnknownExpectation]: 'A test\'s `expect_metrics` names an expectation the dataset does not declare.',
};

const known: ReadonlySet<string> = new Set(Object.values(ErrorClass));

/** True when `code` is one of the error classes of the table. */
export function isErrorClass(code: string): code is ErrorClassName {
    return known.has(code);
}
