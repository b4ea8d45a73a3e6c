import { ErrorClass, type ErrorClassName } from '../../../../engine/src/spark/error-classes.js';
import { argumentsNotAvailableLocally, notAvailableLocally } from '../../../../engine/src/spark/functions/local.js';

/**
 * Every diagnostic the language server reports, in one table: a stable code (Spark's or Databricks'
 * error class where one is documented, `PIPELINE_SQL_*` otherwise, docs/semantics.md A21), a severity, the rule
 * of docs/semantics.md §4 it enforces (V1–V26) where there is one, and the message template. Messages are
 * full sentences that quote the offending name and say what is allowed instead.
 */

/** Severity of a diagnostic, as Langium's validation acceptor takes it. */
export type IssueSeverity = 'error' | 'warning' | 'info' | 'hint';

/** One kind of diagnostic. */
export interface IssueDefinition<A = void> {
    readonly code: string;
    readonly severity: IssueSeverity;
    /** The rule of docs/semantics.md §4 this issue enforces (`V12`), if any. */
    readonly rule?: string;
    readonly message: (args: A) => string;
}

function issue<A = void>(code: ErrorClassName, severity: IssueSeverity, rule: string | undefined, message: (args: A) => string): IssueDefinition<A> {
    return { code, severity, rule, message };
}

const q = (name: string): string => `'${name}'`;
const list = (names: readonly string[]): string => names.map(q).join(', ');
const didYouMean = (candidates: readonly string[] | undefined): string =>
    candidates && candidates.length > 0 ? ` Did you mean ${candidates.map(q).join(' or ')}?` : '';

/** The diagnostics of Pipeline SQL. */
export const Issues = {
    //#region Syntax
    ParseSyntaxError: issue(ErrorClass.parseSyntaxError, 'error', undefined, () => 'Syntax error.'),
    //#endregion

    //#region The language server itself
    InternalError: issue<{ step: string; cause: string }>(ErrorClass.internal, 'error', undefined, a =>
        `Pipeline SQL failed while ${a.step} this file (${a.cause}). Its other diagnostics may be missing; the other files are checked as usual. Please report this with the file.`),
    //#endregion

    //#region AUTO CDC clauses (V1–V7, V15, V21–V24, V26)
    AutoCdcEmptyKeys: issue<{ detail: string }>(ErrorClass.emptyKeys, 'error', 'V1', a =>
        `AUTO CDC needs a KEYS clause with at least one column right after the source (FROM source KEYS (key, ...)): ${a.detail}`),
    AutoCdcMissingSequenceBy: issue<{ target: string }>(ErrorClass.autoCdcMissingSequenceBy, 'error', 'V2', a =>
        `The AUTO CDC flow into ${q(a.target)} has no SEQUENCE BY clause; a change feed must say how to order its events (SEQUENCE BY column or STRUCT(col1, col2)).`),
    SnapshotClauseNotAllowed: issue<{ clause: string }>(ErrorClass.snapshotClauseNotAllowed, 'error', 'V3', a =>
        `${a.clause} is not allowed in AUTO CDC FROM SNAPSHOT; a snapshot flow takes only WITH VERSION, KEYS, STORED AS SCD TYPE 1|2 and TRACK HISTORY ON (filter inside the snapshot query instead).`),
    TruncateRequiresScd1: issue<{ stored: string }>(ErrorClass.truncateRequiresScd1, 'error', 'V4', a =>
        `APPLY AS TRUNCATE WHEN is only allowed with STORED AS SCD TYPE 1 (the default), not with ${a.stored}.`),
    TrackHistoryRequiresScd2: issue(ErrorClass.trackHistoryRequiresScd2, 'error', 'V5', () =>
        'TRACK HISTORY ON is only allowed with STORED AS SCD TYPE 2; SCD type 1 (the default) keeps no history.'),
    TrackHistoryWithBitemporal: issue(ErrorClass.trackHistoryWithBitemporal, 'warning', 'V5', () =>
        'TRACK HISTORY ON is not documented for STORED AS BITEMPORAL, which versions every change; it is only allowed with SCD TYPE 2.'),
    BitemporalRequiresSystemSequence: issue(ErrorClass.bitemporalRequiresSystemSequence, 'error', 'V6', () =>
        'STORED AS BITEMPORAL needs a SYSTEM SEQUENCE BY clause (the system time of each change) after SEQUENCE BY.'),
    SystemSequenceRequiresBitemporal: issue(ErrorClass.systemSequenceRequiresBitemporal, 'error', 'V6', () =>
        'SYSTEM SEQUENCE BY is only allowed with STORED AS BITEMPORAL.'),
    ColumnsToUpdateConflict: issue<{ with: string }>(ErrorClass.columnsToUpdateConflict, 'error', 'V7', a =>
        `COLUMNS TO UPDATE cannot be combined with ${a.with}; use either partial updates or ${a.with}.`),
    InvalidSnapshotVersionFunction: issue<{ fn: string; allowed: string }>(ErrorClass.invalidSnapshotFunctionUsage, 'error', 'V15', a =>
        `${a.fn}() can only be used ${a.allowed}.`),
    UnresolvableSnapshotVersionFunction: issue<{ fn: string; allowed: string }>(ErrorClass.unresolvableTableFunction, 'error', 'V15', a =>
        `Could not resolve ${q(a.fn)} to a table-valued function: it exists only ${a.allowed}.`),
    AutoCdcColumnNotFound: issue<{ column: string; clause: string; schema: string; candidates?: readonly string[] }>(
        ErrorClass.columnsNotFound, 'error', 'V21', a =>
            `Column ${q(a.column)} in ${a.clause} is not a column of ${a.schema}.${didYouMean(a.candidates)}`),
    AutoCdcMultipartColumn: issue<{ column: string; clause: string }>(ErrorClass.autoCdcMultipartColumn, 'error', 'V21', a =>
        `${a.clause} takes plain column names, not ${q(a.column)}; name a top-level column of the source.`),
    AutoCdcKeyNotSelected: issue<{ key: string }>(ErrorClass.keyNotSelected, 'error', 'V22', a =>
        `Key column ${q(a.key)} is left out by the COLUMNS clause; the keys must be among the selected columns.`),
    AutoCdcReservedColumn: issue<{ columns: readonly string[]; stored: string }>(ErrorClass.reservedColumn, 'error', 'V23', a =>
        `The source column${a.columns.length > 1 ? 's' : ''} ${list(a.columns)} clash${a.columns.length > 1 ? '' : 'es'} with the columns that ${a.stored} adds to the target; `
        + `rename ${a.columns.length > 1 ? 'them' : 'it'} or leave ${a.columns.length > 1 ? 'them' : 'it'} out with COLUMNS * EXCEPT (${a.columns.join(', ')}).`),
    AutoCdcReservedPrefix: issue<{ column: string }>(ErrorClass.autoCdcReservedPrefix, 'error', 'V23', a =>
        `The source column ${q(a.column)} uses the prefix '__spark_autocdc_' that the engine reserves for its own columns; rename it.`),
    Scd2DeclaredSchema: issue<{ target: string; problem: string }>(ErrorClass.scd2DeclaredSchema, 'error', 'V24', a =>
        `The declared columns of ${q(a.target)} do not fit its SCD type 2 flow: ${a.problem}`),
    AutoCdcClauseOrder: issue<{ clause: string; before: string }>(ErrorClass.autoCdcClauseOrder, 'error', 'V26', a =>
        `${a.clause} must come before ${a.before}; Databricks accepts the AUTO CDC clauses only in the documented order `
        + '(KEYS, IGNORE NULL UPDATES, APPLY AS DELETE WHEN, APPLY AS TRUNCATE WHEN, SEQUENCE BY, SYSTEM SEQUENCE BY, COLUMNS, STORED AS, TRACK HISTORY ON, COLUMNS TO UPDATE).'),
    DuplicateClause: issue<{ clause: string }>(ErrorClass.duplicateClause, 'error', 'V26', a => `${a.clause} appears more than once; write it once.`),
    //#endregion

    //#region Flows and targets (V8–V14, V16–V18, V25)
    OnceWithReplace: issue<{ replace: string }>(ErrorClass.onceWithReplace, 'error', 'V8', a =>
        `ONCE cannot be combined with ${a.replace}; a replace flow runs on every update.`),
    ReplaceWhereWithAutoCdc: issue<{ target: string }>(ErrorClass.replaceWhereWithAutoCdc, 'error', 'V8', a =>
        `${q(a.target)} is an AUTO CDC target; REPLACE WHERE cannot write to it.`),
    ReplaceUsingDuplicateKey: issue<{ key: string }>(ErrorClass.replaceUsingDuplicateKey, 'error', 'V9', a =>
        `REPLACE USING lists ${q(a.key)} twice; each key column once.`),
    ReplaceUsingKeyNotOrderable: issue<{ key: string; type: string }>(ErrorClass.replaceUsingKeyNotOrderable, 'error', 'V9', a =>
        `REPLACE USING key ${q(a.key)} has type ${a.type}, which cannot be ordered; keys must be numbers, strings, dates, timestamps or structs of those.`),
    ReplaceUsingMissingSequenceBy: issue(ErrorClass.replaceUsingMissingSequenceBy, 'error', 'V9', () =>
        'REPLACE USING needs SEQUENCE BY with exactly one column (REPLACE USING (key) SEQUENCE BY column).'),
    ReplaceUsingSequenceNotColumn: issue(ErrorClass.replaceUsingSequenceNotColumn, 'error', 'V9', () =>
        'The SEQUENCE BY of REPLACE USING must be exactly one column name, not an expression.'),
    ByNameRequired: issue<{ replace: string }>(ErrorClass.byNameRequired, 'error', 'V9', a =>
        `${a.replace} requires BY NAME (INSERT INTO target BY NAME ${a.replace} ...).`),
    BatchQueryForStreamingTable: issue<{ flow: string; target: string; unsure?: string }>(ErrorClass.batchForStreamingTable, 'error', 'V11', a =>
        `The flow ${q(a.flow)} into the streaming table ${q(a.target)} reads only batch sources${a.unsure ? ` as far as the files loaded show (${q(a.unsure)} may be a view of the pipeline that reads a stream)` : ''}; read a source with STREAM(...) or make it a one-time backfill with INSERT ONCE.`),
    StreamingQueryForOnceFlow: issue<{ flow: string }>(ErrorClass.streamingQueryForOnceFlow, 'error', 'V11', a =>
        `The ONCE flow ${q(a.flow)} reads a stream; a one-time flow reads its sources as a batch (remove STREAM(...) or ONCE).`),
    StreamingQueryForMaterializedView: issue<{ target: string }>(ErrorClass.streamingQueryForMaterializedView, 'error', undefined, a =>
        `The materialized view ${q(a.target)} reads a stream; a materialized view's query is a batch query (remove STREAM(...), or make it a streaming table).`),
    AutoCdcBatchSource: issue<{ source: string }>(ErrorClass.autoCdcBatchSource, 'error', 'V11', a =>
        `AUTO CDC reads its source ${q(a.source)} as a stream; write FROM STREAM(${a.source}), or use AUTO CDC ONCE for a one-time batch load.`),
    AutoCdcOnceStreamingSource: issue<{ source: string }>(ErrorClass.autoCdcOnceStreamingSource, 'warning', 'V11', a =>
        `AUTO CDC ONCE reads its source once as a batch, so STREAM on ${q(a.source)} has no use; remove STREAM or drop ONCE.`),
    ManagedTableCdc: issue<{ target: string }>(ErrorClass.managedTableCdc, 'error', 'V12', a =>
        `${q(a.target)} is a managed table (CREATE TABLE), which only append flows may write; AUTO CDC needs a streaming table (CREATE STREAMING TABLE ${a.target}).`),
    ReplaceIntoManagedTable: issue<{ target: string; replace: string }>(ErrorClass.replaceWhereManaged, 'error', 'V13', a =>
        `${a.replace} cannot write to the managed table ${q(a.target)}; only streaming tables support it (managed tables take append flows).`),
    StreamingTableToManagedTable: issue<{ name: string }>(ErrorClass.switchStToManaged, 'error', 'V14', a =>
        `${q(a.name)} is already a streaming table of this pipeline; a managed table cannot reuse its name.`),
    MultipleSnapshotFlows: issue<{ target: string; flows: readonly string[] }>(ErrorClass.multipleSnapshotQueries, 'error', 'V16', a =>
        `${q(a.target)} is written by more than one AUTO CDC FROM SNAPSHOT flow (${list(a.flows)}); a target takes one snapshot flow.`),
    SnapshotInteropRequiresScd1: issue<{ target: string }>(ErrorClass.interopScd2, 'error', 'V17', a =>
        `${q(a.target)} combines a snapshot flow with AUTO CDC flows, which is only supported for SCD type 1 targets.`),
    SnapshotInteropKeysMismatch: issue<{ target: string; keys: string; other: string }>(ErrorClass.interopKeysMismatch, 'error', 'V17', a =>
        `The flows into ${q(a.target)} use different keys (${a.keys} vs ${a.other}); a snapshot flow and the AUTO CDC flows of one target need the same keys.`),
    SnapshotInteropIgnoreNulls: issue<{ target: string }>(ErrorClass.interopIgnoreNull, 'error', 'V17', a =>
        `IGNORE NULL UPDATES is not supported on an AUTO CDC flow into ${q(a.target)}, which a snapshot flow also writes.`),
    SnapshotInteropExpectations: issue<{ target: string }>(ErrorClass.interopExpectations, 'error', 'V17', a =>
        `${q(a.target)} has expectations, which a snapshot flow combined with AUTO CDC flows does not support.`),
    SnapshotInteropContinuous: issue<{ target: string }>(ErrorClass.snapshotInteropContinuous, 'error', 'V17', a =>
        `${q(a.target)} combines a snapshot flow with AUTO CDC flows, which only triggered pipelines support (the pipeline is continuous).`),
    CdcTargetWithOtherFlows: issue<{ target: string; flow: string; where?: string }>(ErrorClass.mixedFlowKinds, 'error', 'V18', a =>
        `${q(a.target)} is an AUTO CDC target, but the flow ${q(a.flow)}${a.where ? ` (${a.where})` : ''} appends to it; an AUTO CDC target is written only by AUTO CDC (and snapshot) flows.`),
    MultipleFlowsToCdcTarget: issue<{ target: string }>(ErrorClass.multipleFlowsToCdcTarget, 'error', 'V18', a =>
        `Apache Spark allows one flow per AUTO CDC target, and ${q(a.target)} has more.`),
    AutoCdcTargetNotStreamingTable: issue<{ target: string; kind: string; flow?: string }>(ErrorClass.cdcTargetKind, 'error', 'V25', a =>
        `${q(a.target)} is a ${a.kind}${a.flow ? `, but the Python flow ${a.flow} writes to it with AUTO CDC` : ''}; AUTO CDC writes only to streaming tables.`),
    FlowIntoNonTable: issue<{ target: string; kind: string; flow?: string }>(ErrorClass.flowIntoNonTable, 'error', undefined, a =>
        `${q(a.target)} is a ${a.kind}, which only its own query writes${a.flow ? `, but the Python flow ${a.flow} writes to it` : ''}; a flow writes to a streaming table or a managed table.`),
    FlowTargetNotFound: issue<{ target: string; certain: boolean; candidates?: readonly string[] }>(ErrorClass.flowTargetNotFound, 'error', undefined, a =>
        `The flow target ${q(a.target)} is not defined in this pipeline${a.certain ? '' : ' (as far as the files loaded show)'}; declare it with CREATE STREAMING TABLE ${a.target}.${didYouMean(a.candidates)}`),
    DatasetWithoutFlow: issue<{ name: string; kind: string; certain: boolean }>(ErrorClass.datasetWithoutFlow, 'error', undefined, a =>
        `The ${a.kind} ${q(a.name)} has no query and no flow writes to it${a.certain ? '' : ' in the files loaded'}; add AS query, a FLOW clause or a CREATE FLOW ... INTO ${a.name}.`),
    StreamingReadOfMaterializedView: issue<{ name: string }>(ErrorClass.streamingReadOfMaterializedView, 'error', undefined, a =>
        `${q(a.name)} is a materialized view, which cannot be read as a stream; read it without STREAM, or make it a streaming table.`),
    //#endregion

    //#region Pipeline parameters
    UnboundParameter: issue<{ name: string; text: string }>(ErrorClass.unboundParameter, 'error', undefined, a =>
        `The pipeline parameter '\${${a.name}}'${a.text === `\${${a.name}}` ? '' : ` (in '${a.text}')`} has no value; define it under 'configuration:' of the pipeline or with SET ${a.name} = ... .`),
    //#endregion

    //#region Datasets and expectations (V19, V20, duplicates, cycles)
    DuplicateDataset: issue<{ name: string; other: string }>(ErrorClass.duplicateDataset, 'error', undefined, a =>
        `The dataset ${q(a.name)} is defined more than once in this pipeline (also ${a.other}); each dataset has one definition.`),
    DuplicateFlow: issue<{ name: string; other: string }>(ErrorClass.duplicateFlow, 'error', undefined, a =>
        `The flow name ${q(a.name)} is used more than once in this pipeline (also ${a.other}); flow names are unique.`),
    CircularDependency: issue<{ cycle: readonly string[] }>(ErrorClass.cycle, 'error', undefined, a =>
        `These datasets read each other in a cycle: ${a.cycle.map(q).join(' → ')} → ${q(a.cycle[0])}; a pipeline must be a directed acyclic graph.`),
    DuplicateExpectation: issue<{ name: string; dataset: string }>(ErrorClass.duplicateExpectation, 'error', 'V19', a =>
        `The expectation name ${q(a.name)} is used twice on ${q(a.dataset)}; expectation names are unique per dataset.`),
    InvalidExpectation: issue<{ problem: string }>(ErrorClass.invalidExpectation, 'error', 'V19', a =>
        `An expectation must be a deterministic expression over the row: ${a.problem}`),
    ExpectationOnTemporaryView: issue(ErrorClass.expectationOnTemporaryView, 'error', undefined, () =>
        'CREATE TEMPORARY VIEW does not take CONSTRAINT ... EXPECT clauses; use a materialized view, a streaming table or the legacy CREATE LIVE VIEW.'),
    PartitionAndCluster: issue(ErrorClass.partitionAndCluster, 'error', 'V20', () =>
        'PARTITIONED BY and CLUSTER BY cannot be used together; choose one layout.'),
    StatementNotInPipeline: issue<{ statement: string }>(ErrorClass.statementNotInPipeline, 'warning', undefined, a =>
        `${a.statement} is not part of a pipeline definition and is ignored when the pipeline runs; a pipeline file defines datasets and flows (CREATE ... , CREATE FLOW, SET, USE).`),
    AmbiguousScratchFile: issue<{ note: string }>(ErrorClass.ambiguousScratchFile, 'warning', undefined, a => a.note),
    //#endregion

    //#region Names
    TableNotFound: issue<{ name: string; where: string; candidates?: readonly string[] }>(ErrorClass.tableNotFound, 'warning', undefined, a =>
        `${q(a.name)} is not a dataset of this pipeline and not in the sample catalog (${a.where}); it may exist in the real catalog.${didYouMean(a.candidates)}`),
    SampleDataUnreadable: issue<{ name: string; problem: string }>(ErrorClass.sampleDataUnreadable, 'warning', undefined, a =>
        `The sample data of ${q(a.name)} cannot be read (${a.problem}), so its columns are unknown.`),
    SampleReadOutsidePipeline: issue<{ problem: string }>(ErrorClass.readOutsidePipeline, 'error', undefined, a =>
        `Not read: ${a.problem}`),
    UnresolvedColumn: issue<{ name: string; where: string; candidates?: readonly string[] }>(ErrorClass.unresolvedColumn, 'error', undefined, a =>
        `Column ${q(a.name)} does not exist in ${a.where}.${didYouMean(a.candidates)}`),
    UnresolvedFunction: issue<{ name: string; candidates?: readonly string[] }>(ErrorClass.unresolvedFunction, 'warning', undefined, a =>
        `${q(a.name)} is not a built-in function; it may be a user-defined function of the real catalog.${didYouMean(a.candidates)}`),
    FunctionNotAvailableLocally: issue<{ name: string }>(ErrorClass.unsupportedFunction, 'warning', undefined, a =>
        `${notAvailableLocally(a.name)}: a local run that calls it stops before it starts (docs/functions.md lists what runs locally).`),
    FunctionArgumentsNotAvailableLocally: issue<{ name: string; reason: string }>(ErrorClass.unsupportedFunction, 'warning', undefined, a =>
        `${argumentsNotAvailableLocally(a.name, a.reason)}; a local run refuses this call (docs/functions.md lists what runs locally).`),
    UnknownTableReadOption: issue<{ name: string; candidates?: readonly string[] }>(ErrorClass.unknownTableReadOption, 'warning', undefined, a =>
        `${q(a.name)} is not a table read option the local engine knows (readChangeFeed, startingVersion, startingTimestamp, skipChangeCommits); it is ignored here.${didYouMean(a.candidates)}`),
    TableChangesNotADataset: issue<{ name: string; candidates?: readonly string[] }>(ErrorClass.tableChangesNotADataset, 'warning', undefined, a =>
        `${q(a.name)} is not a dataset of this pipeline, so its change data feed cannot be read locally; it may exist in the real catalog.${didYouMean(a.candidates)}`),
    //#endregion

    //#region Deprecated syntax
    DeprecatedLivePrefix: issue<{ name: string }>(ErrorClass.deprecatedLivePrefix, 'hint', undefined, a =>
        `The LIVE. prefix is legacy; datasets of the pipeline are read by their plain name (${a.name}).`),
    DeprecatedLiveTable: issue<{ legacy: string; modern: string }>(ErrorClass.deprecatedLiveTable, 'hint', undefined, a =>
        `${a.legacy} is legacy syntax; write ${a.modern}.`),
    QueryWithoutAs: issue(ErrorClass.queryWithoutAs, 'hint', undefined, () =>
        'The query of this dataset has no AS before it, which Databricks accepts (Spark\'s CTAS rule makes AS optional); add AS for Apache Spark.'),
    DeprecatedApplyChanges: issue(ErrorClass.deprecatedApplyChanges, 'hint', undefined, () =>
        'APPLY CHANGES INTO is the legacy name of AUTO CDC; write CREATE FLOW name AS AUTO CDC INTO target ...'),
    DeprecatedSnapshotTable: issue(ErrorClass.deprecatedSnapshotTable, 'hint', undefined, () =>
        'FROM SNAPSHOT table is the deprecated identifier form; write FROM SNAPSHOT (SELECT * FROM table).'),
    //#endregion

    //#region Target profile (docs/semantics.md §17)
    UnsupportedInTarget: issue<{ feature: string; target: string; note?: string }>(ErrorClass.unsupportedInTarget, 'error', undefined, a =>
        `${a.feature} is not supported by ${a.target}${a.note ? ` (${a.note})` : ''}; change the target profile (pipelineSql.target) to 'databricks' or remove it.`),
    //#endregion
} as const;

/** Every diagnostic code the language server reports, by name. */
export const IssueCodes = Object.fromEntries(Object.entries(Issues).map(([k, v]) => [k, v.code])) as { readonly [K in keyof typeof Issues]: (typeof Issues)[K]['code'] };

/** One of the codes above. */
export type IssueCode = string;

/** The data a Pipeline SQL diagnostic carries for quick fixes: its code plus issue-specific facts. */
export interface IssueData {
    readonly code: string;
    readonly [key: string]: unknown;
}
