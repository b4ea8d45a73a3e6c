import { describe, expect, test } from 'vitest';
import {
    currentDataset, datasetsOf, fromPreviousRun, initialState, persistedPart, reduce, rowsOf, runChangesOf, shownRun, viewsFor, type PreviewState,
} from '../../../client/webview/model/state.js';
import type { DatasetPreview, RunOutcome, RunSummary } from '../../../common/result-model.js';
import { withStateRows } from '../../../common/local-state-rows.js';

const summary = (runId: string, dataset?: string): RunSummary => ({
    runId, documentUri: 'file:///p/transformations/a.sql', pipeline: { rootUri: 'file:///p' }, scope: dataset ? 'upstream' : 'pipeline', dataset,
    fullRefresh: false, refreshed: [], startedAt: '2025-01-01T00:00:00Z', durationMs: 12, maxRows: 2,
});
const dataset = (name: string, extra: Partial<DatasetPreview> = {}): DatasetPreview => ({
    name, kind: 'streaming_table', columns: [{ name: 'id', type: 'INT' }], rows: [{ id: 1 }, { id: 2 }], rowCount: 5, truncated: true, updated: true, ...extra,
});
const history = dataset('users_history', { cdc: { storedAs: 'scd2', keys: ['id'], flow: 'f', snapshot: false } });
const run = (runId: string, wanted?: string): RunOutcome => ({ ok: true, summary: summary(runId, wanted), datasets: [dataset('users_changes'), history], flows: [] });

describe('reduce', () => {
    test('a run result shows the dataset the run was for, and ends the busy state', () => {
        let state = reduce(initialState(), { type: 'runStarted', label: 'Run flow users_history' });
        expect(state.running).toBe('Run flow users_history');
        state = reduce(state, { type: 'runResult', outcome: run('r1', 'USERS_HISTORY') });
        expect(state.running).toBeUndefined();
        expect(state.dataset).toBe('users_history');
        expect(currentDataset(state)?.name).toBe('users_history');
    });

    test('a pipeline run keeps the dataset shown before, else shows the first updated one', () => {
        let state = reduce(initialState(), { type: 'runResult', outcome: run('r1') });
        expect(state.dataset).toBe('users_changes');
        state = reduce(state, { type: 'ui/dataset', dataset: 'users_history' });
        state = reduce(state, { type: 'runResult', outcome: run('r2') });
        expect(state.dataset).toBe('users_history');
    });

    test('a failed run keeps the last good results, marked as from the previous run, and the dataset choice', () => {
        const failure = (runId: string): RunOutcome => ({ ok: false, summary: summary(runId), error: { class: 'X', message: 'm' } });
        let state = reduce(initialState(), { type: 'runResult', outcome: run('r1', 'users_history') });
        expect(fromPreviousRun(state)).toBe(false);
        state = reduce(reduce(state, { type: 'runStarted', label: 'Run pipeline' }), { type: 'runResult', outcome: failure('r2') });
        expect(state.outcome?.ok).toBe(false);
        expect(state.running).toBeUndefined();
        expect(state.dataset).toBe('users_history');
        expect(currentDataset(state)?.name).toBe('users_history');
        expect(shownRun(state)?.summary.runId).toBe('r1');
        expect(fromPreviousRun(state)).toBe(true);
        // A second failure still shows r1; pages of r1's rows still join them.
        state = reduce(state, { type: 'runResult', outcome: failure('r3') });
        expect(shownRun(state)?.summary.runId).toBe('r1');
        const page = { ok: true as const, columns: [], rows: [{ id: 3 }], rowCount: 5, truncated: true };
        state = reduce(state, { type: 'rowsPage', runId: 'r1', dataset: 'users_history', offset: 2, page });
        expect(rowsOf(state, currentDataset(state)!).map(r => r.id)).toEqual([1, 2, 3]);
        // The next successful run replaces them and is no longer "previous".
        state = reduce(state, { type: 'runResult', outcome: run('r4') });
        expect(fromPreviousRun(state)).toBe(false);
        expect(state.previous).toBeUndefined();
        expect(shownRun(state)?.summary.runId).toBe('r4');
    });

    test('a failed first run shows no results', () => {
        const state = reduce(initialState(), { type: 'runResult', outcome: { ok: false, summary: summary('r1'), error: { class: 'X', message: 'm' } } });
        expect(fromPreviousRun(state)).toBe(false);
        expect(currentDataset(state)).toBeUndefined();
    });

    test('a column width set by hand is kept per dataset and column until fitted again', () => {
        let state = reduce(initialState(), { type: 'ui/columnWidth', dataset: 'users_history', column: 'city', width: 240 });
        state = reduce(state, { type: 'ui/columnWidth', dataset: 'users_history', column: 'name', width: 120 });
        expect([...state.columnWidths.get('users_history')!]).toEqual([['city', 240], ['name', 120]]);
        state = reduce(state, { type: 'ui/columnWidth', dataset: 'users_history', column: 'city', width: undefined });
        expect([...state.columnWidths.get('users_history')!]).toEqual([['name', 120]]);
        expect(state.columnWidths.get('other')).toBeUndefined();
        // A name like __proto__ is just a name.
        state = reduce(state, { type: 'ui/columnWidth', dataset: '__proto__', column: 'constructor', width: 50 });
        expect(state.columnWidths.get('__proto__')?.get('constructor')).toBe(50);
    });

    test('a cancelled run ends the busy state and keeps the results', () => {
        let state = reduce(initialState(), { type: 'runResult', outcome: run('r1') });
        state = reduce(reduce(state, { type: 'runStarted', label: 'x' }), { type: 'runCancelled' });
        expect(state.running).toBeUndefined();
        expect(state.outcome?.summary.runId).toBe('r1');
    });

    test('paged rows join the first rows only when they continue them, and only for the current run', () => {
        let state: PreviewState = reduce(initialState(), { type: 'runResult', outcome: run('r1') });
        state = reduce(state, { type: 'ui/pageRequested', dataset: 'users_changes' });
        expect(state.pageLoading).toBe('users_changes');
        const page = { ok: true as const, columns: [], rows: [{ id: 3 }, { id: 4 }], rowCount: 5, truncated: true };
        state = reduce(state, { type: 'rowsPage', runId: 'r1', dataset: 'users_changes', offset: 2, page });
        expect(rowsOf(state, currentDataset(state)!).map(r => r.id)).toEqual([1, 2, 3, 4]);
        expect(state.pageLoading).toBeUndefined();
        // The same page again (offset 2 is no longer the end) and a page of an older run are ignored.
        expect(reduce(state, { type: 'rowsPage', runId: 'r1', dataset: 'users_changes', offset: 2, page })).toEqual(state);
        expect(reduce(state, { type: 'rowsPage', runId: 'r0', dataset: 'users_changes', offset: 4, page })).toBe(state);
        // A new run starts from its own first rows.
        state = reduce(state, { type: 'runResult', outcome: run('r2') });
        expect(rowsOf(state, currentDataset(state)!)).toHaveLength(2);
    });

    test('a failed page shows its error', () => {
        const state = reduce(reduce(initialState(), { type: 'runResult', outcome: run('r1') }),
            { type: 'rowsPage', runId: 'r1', dataset: 'users_changes', offset: 2, page: { ok: false, error: { class: 'PIPELINE_SQL_STALE_RUN', message: 'newer run' } } });
        expect(state.pageError).toBe('PIPELINE_SQL_STALE_RUN: newer run');
    });

    test('change events are kept only for the latest version selection', () => {
        let state = reduce(initialState(), { type: 'runResult', outcome: run('r1', 'users_history') });
        state = reduce(state, { type: 'ui/selectVersion', dataset: 'users_history', keyId: '[1]', rowIndex: 0 });
        const first = state.selection!.requestId;
        state = reduce(state, { type: 'ui/selectVersion', dataset: 'users_history', keyId: '[2]', rowIndex: 1 });
        const events = { ok: true as const, columns: [], rows: [], rowCount: 0, truncated: false };
        expect(reduce(state, { type: 'changeEvents', requestId: first, dataset: 'users_history', events }).selection?.events).toBeUndefined();
        expect(reduce(state, { type: 'changeEvents', requestId: first + 1, dataset: 'users_history', events }).selection?.events).toBe(events);
    });

    test('a picture view falls back to the results for a dataset without that picture', () => {
        let state = reduce(initialState(), { type: 'runResult', outcome: run('r1', 'users_history') });
        state = reduce(state, { type: 'ui/view', view: 'history' });
        expect(state.view).toBe('history');
        state = reduce(state, { type: 'ui/dataset', dataset: 'users_changes' });
        expect(state.view).toBe('results');
        state = reduce(reduce(state, { type: 'ui/view', view: 'graph' }), { type: 'ui/dataset', dataset: 'users_history' });
        expect(state.view).toBe('graph');
    });

    test('graph, trust and view messages', () => {
        const graph = { pipeline: { id: 'p' }, nodes: [], edges: [], cycles: [] };
        let state = reduce(initialState(), { type: 'graph', graph });
        expect(state.graph).toBe(graph);
        // A failed refresh keeps the graph drawn and shows why.
        state = reduce(state, { type: 'graph', graph: undefined, error: 'no model' });
        expect(state).toMatchObject({ graph, graphError: 'no model' });
        expect(reduce(state, { type: 'trust', trusted: false }).trusted).toBe(false);
        expect(reduce(state, { type: 'showView', view: 'graph' }).view).toBe('graph');
    });

    test('the persisted part is the document, view and dataset', () => {
        const state = reduce(initialState({ view: 'graph' }), { type: 'runResult', outcome: run('r1', 'users_history') });
        expect(persistedPart(state)).toEqual({ documentUri: 'file:///p/transformations/a.sql', view: 'graph', dataset: 'users_history' });
        expect(persistedPart(initialState(), 'file:///x.sql')).toEqual({ documentUri: 'file:///x.sql', view: 'results', dataset: undefined });
    });
});

test('viewsFor offers the history picture for SCD2 and the bitemporal picture for bitemporal targets', () => {
    expect(viewsFor(history)).toEqual(['results', 'history', 'graph']);
    expect(viewsFor(dataset('b', { cdc: { storedAs: 'bitemporal', keys: ['k'], flow: 'f', snapshot: false } }))).toEqual(['results', 'bitemporal', 'graph']);
    expect(viewsFor(dataset('c'))).toEqual(['results', 'graph']);
});

test('viewsFor offers the Changes view when the last update changed the dataset, and the Statement view once a statement ran', () => {
    const changed = dataset('users', { changes: { inserted: 1, updated: 0, deleted: 0, rows: { inserted: [{ id: 1 }], updated: [], deleted: [] }, feed: [{ id: 1, _change_type: 'insert' }] } });
    expect(viewsFor(changed)).toEqual(['results', 'changes', 'graph']);
    const statement = {
        ok: true as const, kind: 'delete' as const, statement: 'DELETE FROM users WHERE id = 1', documentUri: 'file:///p/scratch.sql', pipeline: { rootUri: 'file:///p' },
        columns: [{ name: 'id', type: 'INT' }, { name: '_change_type', type: 'STRING' }], rows: [{ id: 1, _change_type: 'delete' }], rowCount: 1, truncated: false, durationMs: 3,
    };
    expect(viewsFor(history, statement)).toEqual(['results', 'history', 'statement', 'graph']);
    // A statement's outcome opens its view, and a later run keeps it open.
    const shown = reduce(reduce(initialState(), { type: 'runResult', outcome: run('r1') }), { type: 'statementResult', outcome: statement });
    expect(shown).toMatchObject({ view: 'statement', statement });
    expect(reduce(shown, { type: 'runResult', outcome: run('r2') }).view).toBe('statement');
});

test('the run\'s change marks and counts stop describing a dataset a statement changed after the run; the other datasets keep theirs', () => {
    const changes = { inserted: 1, updated: 0, deleted: 0, rows: { inserted: [{ id: 1 }], updated: [], deleted: [] }, feed: [{ id: 1, _change_type: 'insert' }] };
    const outcome: RunOutcome = { ok: true, summary: summary('r1'), datasets: [dataset('users_changes', { changes }), dataset('users_history', { changes })], flows: [] };
    const ran = reduce(initialState(), { type: 'runResult', outcome });
    const named = (state: PreviewState, name: string): DatasetPreview => datasetsOf(state).find(d => d.name === name)!;
    expect(runChangesOf(ran, named(ran, 'users_history'))).toEqual(changes);
    const dml = {
        ok: true as const, kind: 'delete' as const, statement: 'DELETE FROM users_history WHERE id = 1', documentUri: 'file:///p/scratch.sql', pipeline: { rootUri: 'file:///p' },
        columns: [], rows: [], rowCount: 0, truncated: false, durationMs: 3,
        dataset: 'users_history', version: { version: 3, timestamp: 't3', operation: 'DELETE', metrics: { numDeletedRows: 1 } },
    };
    const now: RunOutcome = { ok: true, restored: true, summary: summary('r2'), datasets: [dataset('users_changes'), dataset('users_history', { rows: [{ id: 2 }], rowCount: 1 })], flows: [] };
    const after = reduce(reduce(ran, { type: 'statementResult', outcome: dml }), { type: 'stateRefreshed', outcome: now, written: { dataset: 'users_history', version: dml.version } });
    expect(named(after, 'users_history').rows).toEqual([{ id: 2 }]);
    expect(runChangesOf(after, named(after, 'users_history'))).toBeUndefined();
    expect(runChangesOf(after, named(after, 'users_changes'))).toEqual(changes);
    // The state restored after a reload has no run to compare with.
    const restored = reduce(initialState(), { type: 'runResult', outcome: { ...outcome, restored: true } });
    expect(runChangesOf(restored, named(restored, 'users_changes'))).toBeUndefined();
});

test('after a DML statement wrote a version: its dataset and version are shown, and the grid takes the rows the state holds now', () => {
    const started = reduce(initialState(), { type: 'runResult', outcome: run('r1') });
    expect(started.dataset).toBe('users_changes');
    const dml = {
        ok: true as const, kind: 'update' as const, statement: 'UPDATE users_history SET id = 9', documentUri: 'file:///p/scratch.sql', pipeline: { rootUri: 'file:///p' },
        columns: [{ name: 'id', type: 'INT' }], rows: [], rowCount: 0, truncated: false, durationMs: 3,
        dataset: 'USERS_HISTORY', version: { version: 3, timestamp: 't3', operation: 'UPDATE', metrics: {} },
    };
    const ran = reduce(started, { type: 'statementResult', outcome: dml });
    expect(ran).toMatchObject({ view: 'statement', dataset: 'users_history', versions: { dataset: 'users_history', picked: 3 } });
    // The Changes view is offered for the dataset the statement changed, even if the last update did not change it.
    expect(viewsFor(dataset('users_history'), dml)).toContain('changes');
    expect(viewsFor(dataset('users_changes', { changes: undefined }), dml)).not.toContain('changes');
    // The state read after the statement: new rows for the grid, the run's other facts kept, pages from the new read.
    const paged = { ...ran, moreRows: { users_history: [{ id: 3 }] } };
    const now: RunOutcome = { ok: true, restored: true, summary: summary('r2'), datasets: [dataset('users_history', { rows: [{ id: 9 }], rowCount: 1, truncated: false, cdc: undefined })], flows: [] };
    const refreshed = reduce(paged, { type: 'stateRefreshed', outcome: now });
    expect(currentDataset(refreshed)).toMatchObject({ name: 'users_history', rows: [{ id: 9 }], rowCount: 1, truncated: false, cdc: { storedAs: 'scd2' } });
    expect(rowsOf(refreshed, currentDataset(refreshed)!)).toEqual([{ id: 9 }]);
    expect(shownRun(refreshed)?.summary).toMatchObject({ runId: 'r2', durationMs: 12 });
    expect(refreshed.outcome?.ok && refreshed.outcome.restored).toBeFalsy();
    expect(refreshed.versions).toEqual(ran.versions);
    // A failed read changes nothing; a statement that wrote nothing leaves the dataset shown.
    expect(reduce(ran, { type: 'stateRefreshed', outcome: { ok: false, summary: summary('r3'), error: { class: 'X', message: 'm' } } })).toBe(ran);
    // With the version written, the dataset it changed records it (the results view shows it instead of the run's metrics);
    // the panel keeps the same merge for a reloaded page, so the page shows the new rows, not the run's.
    const written = { dataset: 'USERS_HISTORY', version: dml.version };
    const marked = reduce(paged, { type: 'stateRefreshed', outcome: now, written });
    expect(currentDataset(marked)).toMatchObject({ rows: [{ id: 9 }], changedSince: [dml.version] });
    expect(shownRun(marked)).toEqual(withStateRows(shownRun(paged)!, now, written));
    const again = withStateRows(withStateRows(shownRun(paged)!, now, written), now, { dataset: 'users_history', version: { ...dml.version, version: 4, operation: 'DELETE' } });
    expect(again.datasets.find(d => d.name === 'users_history')?.changedSince?.map(v => `${v.operation} ${v.version}`)).toEqual(['UPDATE 3', 'DELETE 4']);
    expect(again.datasets.find(d => d.name === 'users_changes')?.changedSince).toBeUndefined();
    expect(reduce(started, { type: 'statementResult', outcome: { ...dml, version: undefined } })).toMatchObject({ dataset: 'users_changes', versions: undefined });
});

test('the Changes view\'s history: a picked version keeps only the answer for that version', () => {
    const shown = reduce(reduce(initialState(), { type: 'runResult', outcome: run('r1', 'users_history') }), { type: 'ui/view', view: 'results' });
    const versions = [{ version: 0, timestamp: 't0', operation: 'CREATE', metrics: {} }, { version: 1, timestamp: 't1', operation: 'PIPELINE UPDATE', metrics: {} }];
    const answer = (version: number) => ({ type: 'versionChanges' as const, dataset: 'users_history', changes: { ok: true as const, versions, version, columns: [], rows: [], rowCount: 0, truncated: false } });
    const listed = reduce(shown, answer(1));
    expect(listed.versions).toMatchObject({ dataset: 'users_history', picked: undefined, changes: { version: 1 } });
    const picked = reduce(listed, { type: 'ui/version', dataset: 'users_history', version: 0 });
    expect(reduce(picked, answer(1)).versions?.changes).toMatchObject({ version: 1 });
    expect(reduce(reduce(picked, answer(1)), answer(0)).versions).toMatchObject({ picked: 0, changes: { version: 0 } });
    // Another dataset's answer, or another dataset picked, leaves no stale history.
    expect(reduce(picked, { ...answer(0), dataset: 'users_changes' })).toBe(picked);
    expect(reduce(picked, { type: 'ui/dataset', dataset: 'users_changes' }).versions).toBeUndefined();
});
