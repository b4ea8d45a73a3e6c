import type { SourceSpan } from '../../../engine/src/index.js';

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
