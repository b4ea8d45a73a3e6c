import type { SourceSpan } from '../../../engine/src/index.js';

/** Error classes of problems found while lowering (the engine's `PIPELINE_SQL_*` naming). */
export const LoweringErrorClass = {
    /** Valid pipeline SQL that the local engine cannot run (time travel, TABLESAMPLE, a watermark...). */
    unsupported: 'PIPELINE_SQL_UNSUPPORTED_FEATURE',
    /** A statement or clause that has no meaning in a pipeline (a top-level UPDATE, a flow without target...). */
    invalidPipeline: 'PIPELINE_SQL_INVALID_PIPELINE',
    /** A `${name}` in a name or string that neither the pipeline configuration nor a SET defines. */
    unboundParameter: 'UNBOUND_SQL_PARAMETER',
    /** A `samples/*.sql` statement that is not a sample table declaration. */
    invalidCatalog: 'PIPELINE_SQL_INVALID_SAMPLE_CATALOG',
} as const;

/** One problem of the lowering: an error class, a message naming the construct, and where it is. */
export interface LoweringProblem {
    code: string;
    message: string;
    span: SourceSpan;
}

/**
 * Thrown by the lowering when a piece of validated pipeline SQL cannot be expressed in the engine IR.
 * The pipeline lowering catches it per statement and reports every statement's first problem.
 */
export class LoweringError extends Error {
    override readonly name = 'LoweringError';

    constructor(readonly code: string, message: string, readonly span: SourceSpan) {
        super(message);
    }

    /** The problem as plain data. */
    toProblem(): LoweringProblem {
        return { code: this.code, message: this.message, span: this.span };
    }
}
