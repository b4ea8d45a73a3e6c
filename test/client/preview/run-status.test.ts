import { describe, expect, test } from 'vitest';
import { runStatus } from '../../../client/src/preview/run-status.js';
import type { RunOutcome, RunSummary } from '../../../common/result-model.js';

const summary: RunSummary = {
    runId: 'r1', documentUri: 'file:///p/a.sql', pipeline: { rootUri: 'file:///p', name: 'users_cdc' }, scope: 'pipeline', fullRefresh: false,
    refreshed: [], startedAt: '2025-01-01T00:00:00Z', durationMs: 1234, maxRows: 10,
};
const ok: RunOutcome = { ok: true, summary, flows: [], datasets: [] };
const failed: RunOutcome = { ok: false, summary, error: { class: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE', message: 'a NULL SEQUENCE BY value' } };
const explanation = 'Runs need trust.';

describe('the last-run status says what is true now', () => {
    test('before any run, and in Restricted Mode', () => {
        expect(runStatus({ trusted: true }, explanation)).toMatchObject({ text: 'No run yet', busy: false });
        expect(runStatus({ trusted: false, shown: ok }, explanation)).toMatchObject({ text: '$(shield) Runs disabled', detail: explanation });
    });

    test('a run in progress is busy, whatever was shown before', () => {
        expect(runStatus({ trusted: true, running: 'Run pipeline', shown: failed }, explanation))
            .toEqual({ text: '$(loading~spin) Running', detail: 'Run pipeline…', severity: 'information', busy: true });
    });

    test('after a reload the preview shows the stored state: the status says so, not "No run yet"', () => {
        expect(runStatus({ trusted: true, shown: { ...ok, restored: true } }, explanation)).toMatchObject({
            text: '$(history) State of the last run', severity: 'information',
        });
    });

    test('a failure is an error until the next run succeeds', () => {
        expect(runStatus({ trusted: true, shown: failed }, explanation)).toMatchObject({
            text: '$(error) Last run failed', severity: 'error', detail: expect.stringContaining('AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE'),
        });
        expect(runStatus({ trusted: true, shown: ok }, explanation)).toMatchObject({ text: '$(check) Last run 1,234 ms', severity: 'information' });
    });
});
