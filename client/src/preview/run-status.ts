/**
 * What the "last run" language status item says, as a pure function of what is true now: a run in
 * progress, the outcome the preview shows (a run of this session, or the state restored after a
 * reload), and workspace trust. Kept apart from `vscode` so that it is unit-tested; the item only
 * copies these fields.
 */
import type { RunOutcome } from '../../../common/result-model.js';

/** The fields of the status item. */
export interface RunStatusView {
    readonly text: string;
    readonly detail: string;
    readonly severity: 'information' | 'error';
    readonly busy: boolean;
}

/** What the status is computed from. */
export interface RunStatusInput {
    readonly trusted: boolean;
    /** The label of the run in progress ("Run flow users_history"). */
    readonly running?: string;
    /** The outcome the preview shows. */
    readonly shown?: RunOutcome;
}

/** The status item's fields. */
export function runStatus(input: RunStatusInput, untrustedExplanation: string): RunStatusView {
    if (!input.trusted) {
        return { text: '$(shield) Runs disabled', detail: untrustedExplanation, severity: 'information', busy: false };
    }
    if (input.running) {
        return { text: '$(loading~spin) Running', detail: `${input.running}…`, severity: 'information', busy: true };
    }
    const shown = input.shown;
    if (!shown) {
        return { text: 'No run yet', detail: 'Use "Run flow" above a dataset.', severity: 'information', busy: false };
    }
    const pipeline = shown.summary.pipeline.name ? ` of pipeline ${shown.summary.pipeline.name}` : '';
    if (shown.ok && shown.restored) {
        return {
            text: '$(history) State of the last run', detail: `The preview shows the datasets as the last run${pipeline} left them (stored state).`,
            severity: 'information', busy: false,
        };
    }
    if (shown.ok) {
        return {
            text: `$(check) Last run ${shown.summary.durationMs.toLocaleString('en-US')} ms`,
            detail: `The last run${pipeline} succeeded (${shown.datasets.filter(d => d.updated).length} datasets updated).`,
            severity: 'information', busy: false,
        };
    }
    return {
        text: '$(error) Last run failed', detail: `${shown.error.class}: ${shown.error.message} (the clause is marked in the Problems view).`,
        severity: 'error', busy: false,
    };
}
