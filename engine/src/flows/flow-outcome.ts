// What running one flow produced, for the update report.

/** Outcome of one flow in an update. */
export interface FlowOutcome {
    /** `skipped`: the flow had nothing to do by definition (an ONCE flow that already ran). */
    status: 'completed' | 'skipped';
    /** Input rows (or change events) processed. */
    rows?: number;
    message?: string;
}
