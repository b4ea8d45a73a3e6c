// The only exceptions the engine throws. Every error carries a stable class name (`code`): a
// Databricks / Spark error class where one is documented (docs/semantics.md §19), otherwise a
// project name prefixed `PIPELINE_SQL_`. Where the cause is a piece of pipeline SQL the error
// carries that clause's source span; where it is a sample data file, the file and line.
import type { SourceSpan } from './ir.js';
import { ErrorClass } from './spark/error-classes.js';

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
        super(ErrorClass.cancelled, 'The update was cancelled; the previous pipeline state is unchanged.');
    }
}

/** The error classes (one table for the editor and the engine). */
export { ErrorClass, type ErrorClassName } from './spark/error-classes.js';
