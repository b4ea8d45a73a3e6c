// AUTO CDC FROM SNAPSHOT (docs/semantics.md §11): versions, diffs, SCD1/SCD2, per-snapshot commits, errors.
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineIR, QueryIR } from '../../../engine/src/ir.js';
import {
    appendFlow, autoCdc, call, cast, catalogTable, col, eq, exists, gt, int, isNull, or, pipeline, sel, select, selectStar, snapshotFlow, snapshotVersion, str,
    stream, streamingTable, subquery, table,
} from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const catalog = [catalogTable('snaps', 'Key INT, Value STRING, Other STRING, v INT', 'json')];
const current = (): QueryIR => select([col('Key'), col('Value'), col('Other')], {
    from: [table('snaps')], where: eq(col('v'), subquery(select([col('v')], { from: [snapshotVersion('current')] }))),
});
/** The next version after the last committed one, or no row. */
const nextVersion = (): QueryIR => select([[call('min', col('v')), 'v']], {
    from: [table('snaps')],
    where: or(exists(select([int(1)], { from: [snapshotVersion('last')] }), true), gt(col('v'), subquery(select([col('v')], { from: [snapshotVersion('last')] })))),
    having: isNull(call('min', col('v')), true),
});

function snapshotPipeline(options: { storedAs?: 'scd1' | 'scd2'; snapshot?: QueryIR; version?: QueryIR | null; once?: boolean; trackHistory?: ReturnType<typeof sel.list> } = {}): PipelineIR {
    return pipeline([streamingTable('target')], [snapshotFlow('snap_flow', 'target', {
        snapshot: options.snapshot ?? (options.version === null ? selectStar(table('snaps')) : current()),
        version: options.version === null ? undefined : options.version ?? nextVersion(),
        keys: ['Key'], storedAs: options.storedAs, once: options.once, trackHistory: options.trackHistory,
    })], catalog);
}

const row = (Key: number, Value: string, v: number, Other = 'o') => ({ Key, Value, Other, v });

describe('AUTO CDC FROM SNAPSHOT', () => {
    it('processes every available version in order within one update (SCD1 equals the latest snapshot)', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1), row(2, 'b', 1), row(2, 'b2', 2), row(3, 'c', 2), row(3, 'c3', 3)]);
        const result = await ws.ok(snapshotPipeline());
        expect(rowsOf(result.datasets.target.rows, 'Key', 'Value')).toEqual(expected([3, 'c3']));
        expect(result.flows.snap_flow.status).toBe('completed');
        expect(result.metrics.target?.num_upserted_rows).toBeUndefined();
    });

    it('SCD2 from snapshots stamps versions with the snapshot version; TRACK HISTORY leaves untracked changes in place', async () => {
        ws = new Workspace();
        const ir = snapshotPipeline({ storedAs: 'scd2', trackHistory: sel.list('Value') });
        ws.append('snaps', [row(1, 'a', 1, 'o1'), row(2, 'b', 1)]);
        await ws.ok(ir);
        ws.append('snaps', [row(1, 'a', 2, 'o2'), row(2, 'b2', 2)]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.target.rows, 'Key', 'Value', 'Other', '__START_AT', '__END_AT')).toEqual(expected(
            [1, 'a', 'o2', 1, null], [2, 'b', 'o', 1, 2], [2, 'b2', 'o', 2, null],
        ));
    });

    it('the changes of an update are relative to the state before it: a first run of several snapshots only inserts', async () => {
        ws = new Workspace();
        const ir = snapshotPipeline({ storedAs: 'scd2', trackHistory: sel.list('Value') });
        // Version 2 changes key 1 (tracked) and key 2 (untracked only) and adds key 3; version 3 drops key 2.
        ws.append('snaps', [row(1, 'a', 1), row(2, 'b', 1), row(1, 'a2', 2), row(2, 'b', 2, 'o2'), row(3, 'c', 2), row(1, 'a2', 3), row(3, 'c', 3)]);
        const first = await ws.ok(ir);
        expect(rowsOf(first.datasets.target.rows, 'Key', 'Value', 'Other', '__START_AT', '__END_AT')).toEqual(expected(
            [1, 'a', 'o', 1, 2], [1, 'a2', 'o', 2, null], [2, 'b', 'o2', 1, 3], [3, 'c', 'o', 2, null],
        ));
        expect(first.datasets.target.changes).toMatchObject({ inserted: 4, updated: 0, deleted: 0 });
        expect(first.datasets.target.changes!.rows.inserted).toHaveLength(4);
        // A later run that changes a key counts it once, against the row before the update.
        ws.append('snaps', [row(1, 'a3', 4), row(3, 'c', 4, 'o4'), row(1, 'a4', 5), row(3, 'c', 5, 'o4')]);
        const second = await ws.ok(ir);
        expect(second.datasets.target.changes).toMatchObject({ inserted: 2, updated: 2, deleted: 0 });
        expect(rowsOf(second.datasets.target.changes!.rows.updated, 'Key', 'Value', 'Other', '__START_AT', '__END_AT')).toEqual(expected(
            [1, 'a2', 'o', 2, 4], [3, 'c', 'o4', 2, null],
        ));
    });

    it('without WITH VERSION only the initial load runs; afterwards AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1)]);
        const ir = snapshotPipeline({ version: null });
        const first = await ws.ok(ir);
        expect(rowsOf(first.datasets.target.rows, 'Key', 'Value')).toEqual(expected([1, 'a']));
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'AUTO_CDC_FROM_SNAPSHOT_NON_EMPTY_TARGET_WITHOUT_VERSION', flow: 'snap_flow', dataset: 'target' });
        // ONCE is the intended one-off load: idle afterwards, run again by a full refresh.
        const once = snapshotPipeline({ version: null, once: true });
        expect((await ws.ok(once, { fullRefresh: true })).flows.snap_flow.status).toBe('completed');
        expect((await ws.ok(once)).flows.snap_flow.status).toBe('skipped');
    });

    it('a version that is not newer than the last commit fails with OUT_OF_ORDER_SNAPSHOT_VERSION, keeping the snapshots committed before it (A14)', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1), row(1, 'b', 2)]);
        // max(v) without a filter returns 2 again in the second iteration.
        const ir = snapshotPipeline({ version: select([[call('max', col('v')), 'v']], { from: [table('snaps')] }) });
        const error = await ws.fails(ir);
        expect(error.class).toBe('APPLY_CHANGES_FROM_SNAPSHOT_ERROR.OUT_OF_ORDER_SNAPSHOT_VERSION');
        expect(error.message).toContain('version 2');
        expect(rowsOf((await ws.tables(ir)).target, 'Key', 'Value')).toEqual(expected([1, 'b']));
    });

    it('a snapshot with a duplicate key fails with DUPLICATE_KEY_VIOLATION', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1), row(1, 'b', 1)]);
        expect((await ws.fails(snapshotPipeline())).class).toBe('APPLY_CHANGES_FROM_SNAPSHOT_ERROR.DUPLICATE_KEY_VIOLATION');
    });

    it('a version query with two columns or a NULL value is INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1)]);
        const twoColumns = snapshotPipeline({ version: select([col('v'), col('Key')], { from: [table('snaps')] }) });
        expect((await ws.fails(twoColumns)).class).toBe('INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY');
        const nullVersion = snapshotPipeline({ version: select([[call('max', col('v')), 'v']], { from: [table('snaps')], where: gt(col('v'), int(5)) }) });
        const error = await ws.fails(nullVersion);
        expect(error.class).toBe('INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY');
        expect(error.message).toContain('NULL');
    });

    it('changing the version type needs a full refresh (AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED)', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1)]);
        await ws.ok(snapshotPipeline());
        ws.append('snaps', [row(1, 'b', 2)]);
        const asString = snapshotPipeline({ version: select([[cast(call('max', col('v')), 'STRING'), 'v']], { from: [table('snaps')] }) });
        expect((await ws.fails(asString)).class).toBe('AUTO_CDC_FROM_SNAPSHOT_VERSION_SCHEMA_CHANGED');
    });

    it('current_snapshot_version() outside FROM SNAPSHOT is UNRESOLVABLE_TABLE_VALUED_FUNCTION (Databricks: an ordinary table-valued function that does not exist)', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1)]);
        const ir = pipeline([streamingTable('t')], [appendFlow('t', 't', select(['*'], { from: [stream('snaps'), snapshotVersion('current')] }))], catalog);
        const error = await ws.fails(ir);
        expect(error.class).toBe('UNRESOLVABLE_TABLE_VALUED_FUNCTION');
        expect(error.message).toContain('Could not resolve `current_snapshot_version` to a table-valued function');
    });

    it('last_snapshot_version() in the FROM SNAPSHOT query, current_snapshot_version() in the WITH VERSION query: UNRESOLVABLE_TABLE_VALUED_FUNCTION', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1)]);
        const lastInSnapshot = snapshotPipeline({ snapshot: select(['*'], { from: [table('snaps'), snapshotVersion('last')] }) });
        expect((await ws.fails(lastInSnapshot)).class).toBe('UNRESOLVABLE_TABLE_VALUED_FUNCTION');
        const currentInVersion = snapshotPipeline({ version: select([[call('max', col('v')), 'v']], { from: [table('snaps'), snapshotVersion('current')] }) });
        expect((await ws.fails(currentInVersion)).class).toBe('UNRESOLVABLE_TABLE_VALUED_FUNCTION');
    });

    it('current_snapshot_version() in a snapshot flow without WITH VERSION is INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION', async () => {
        ws = new Workspace();
        ws.append('snaps', [row(1, 'a', 1)]);
        const ir = pipeline([streamingTable('target')], [snapshotFlow('snap_flow', 'target', { snapshot: current(), keys: ['Key'] })], catalog);
        expect((await ws.fails(ir)).class).toBe('INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION');
    });

    it('a full refresh clears the version state and replays every snapshot', async () => {
        ws = new Workspace();
        const ir = snapshotPipeline({ storedAs: 'scd2' });
        ws.append('snaps', [row(1, 'a', 1)]);
        await ws.ok(ir);
        ws.append('snaps', [row(1, 'b', 2)]);
        const incremental = rowsOf((await ws.ok(ir)).datasets.target.rows, 'Key', 'Value', '__START_AT', '__END_AT');
        const refreshed = rowsOf((await ws.ok(ir, { fullRefresh: true })).datasets.target.rows, 'Key', 'Value', '__START_AT', '__END_AT');
        expect(refreshed).toEqual(incremental);
        expect(refreshed).toEqual(expected([1, 'a', 1, 2], [1, 'b', 2, null]));
    });

    it('a snapshot flow sharing an SCD1 target with an AUTO CDC flow feeds its diff as events at sequence = version (spec 11.5)', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('target')], [
            snapshotFlow('snap_flow', 'target', { snapshot: select([col('Key'), col('Value')], { from: [table('snaps')], where: eq(col('v'), subquery(select([col('v')], { from: [snapshotVersion('current')] }))) }), version: nextVersion(), keys: ['Key'] }),
            autoCdc('cdc_flow', 'target', stream('feed'), { keys: ['Key'], sequenceBy: col('seq'), deleteWhen: eq(col('op'), str('DELETE')), columns: sel.except('seq', 'op') }),
        ], [...catalog, catalogTable('feed', 'Key INT, Value STRING, seq INT, op STRING', 'json')]);
        ws.append('snaps', [row(1, 'a', 10), row(2, 'b', 10)]);
        ws.append('feed', [{ Key: 1, Value: 'from feed', seq: 12, op: 'UPSERT' }]);
        let result = await ws.ok(ir);
        expect(rowsOf(result.datasets.target.rows, 'Key', 'Value')).toEqual(expected([1, 'from feed'], [2, 'b']));
        // Snapshot 11 changes key 1 (older than the feed's 12: no effect), drops key 2, adds key 3.
        ws.append('snaps', [row(1, 'a2', 11), row(3, 'c', 11)]);
        result = await ws.ok(ir);
        expect(rowsOf(result.datasets.target.rows, 'Key', 'Value')).toEqual(expected([1, 'from feed'], [3, 'c']));
    });
});
