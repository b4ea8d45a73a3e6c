// Append flows, materialized views, views, REPLACE USING / WHERE, expectations, declared schemas,
// the dependency graph, selective and full refresh, and atomicity of an update.
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetIR } from '../../../engine/src/ir.js';
import {
    appendFlow, bin, call, catalogTable, col, countStar, date, eq, expect as expectation, gt, int, isNull, managedTable, materializedView, mvFlow, pipeline,
    replaceUsing, replaceWhere, select, selectStar, str, stream, streamingTable, table, temporaryView,
} from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const events = catalogTable('events', 'id INT, kind STRING, amount INT', 'json');

describe('append flows and the dependency graph', () => {
    it('a streaming table reading another streaming table as a stream gets only the rows appended since its last update', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('bronze'), streamingTable('silver')], [
            appendFlow('silver', 'silver', select(['*'], { from: [stream('ds:bronze')], where: gt(col('amount'), int(0)) })),
            appendFlow('bronze', 'bronze', selectStar(stream('events'))),
        ], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }, { id: 2, kind: 'b', amount: -1 }]);
        let result = await ws.ok(ir);
        expect(result.metrics.silver.num_output_rows).toBe(1);
        ws.append('events', [{ id: 3, kind: 'c', amount: 7 }]);
        result = await ws.ok(ir);
        expect(result.metrics).toMatchObject({ bronze: { num_output_rows: 1 }, silver: { num_output_rows: 1 } });
        expect(rowsOf(result.datasets.silver.rows, 'id')).toEqual(expected([1], [3]));
        expect(result.datasets.bronze.rows.map(r => r.id)).toEqual([1, 2, 3]);
    });

    it('a materialized view always equals its query over the current inputs', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('raw'), materializedView('totals')], [
            appendFlow('raw', 'raw', selectStar(stream('events'))),
            mvFlow('totals', select([col('kind'), [call('sum', col('amount')), 'total'], [countStar(), 'n']], { from: [table('ds:raw')], groupBy: [col('kind')] })),
        ], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }, { id: 2, kind: 'a', amount: 1 }]);
        let result = await ws.ok(ir);
        expect(rowsOf(result.datasets.totals.rows, 'kind', 'total', 'n')).toEqual(expected(['a', 6, 2]));
        ws.append('events', [{ id: 3, kind: 'b', amount: 7 }, { id: 4, kind: 'a', amount: 4 }]);
        result = await ws.ok(ir);
        expect(rowsOf(result.datasets.totals.rows, 'kind', 'total', 'n')).toEqual(expected(['a', 10, 3], ['b', 7, 1]));
        expect(result.datasets.totals.columns).toEqual([{ name: 'kind', type: 'STRING' }, { name: 'total', type: 'BIGINT' }, { name: 'n', type: 'BIGINT' }]);
        expect(result.datasets.totals.changes).toMatchObject({ inserted: 2, deleted: 1 });
    });

    it('a temporary view is evaluated when read and shown in the results', async () => {
        ws = new Workspace();
        const ir = pipeline([temporaryView('big', select(['*'], { from: [table('events')], where: gt(col('amount'), int(4)) }))], [], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }, { id: 2, kind: 'b', amount: 1 }]);
        const result = await ws.ok(ir);
        expect(result.datasets.big).toMatchObject({ kind: 'temporary_view', rowCount: 1 });
        expect(rowsOf(result.datasets.big.rows, 'id')).toEqual(expected([1]));
    });

    it('a streaming read of a materialized view fails (streaming sources must be append-only)', async () => {
        ws = new Workspace();
        const ir = pipeline([materializedView('m'), streamingTable('s')], [
            mvFlow('m', selectStar(table('events'))),
            appendFlow('s', 's', selectStar(stream('ds:m'))),
        ], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_STREAMING_SOURCE_NOT_APPEND_ONLY', flow: 's' });
    });

    it('an append flow into a streaming table without any streaming source is INVALID_FLOW_QUERY_TYPE', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        const ir = pipeline([streamingTable('s')], [appendFlow('s', 's', selectStar(table('events')))], [events]);
        expect((await ws.fails(ir)).class).toBe('INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE');
    });

    it('a managed table accepts batch append flows and INSERT ONCE backfills', async () => {
        ws = new Workspace();
        const ir = pipeline([managedTable('m')], [
            appendFlow('load', 'm', select([col('id')], { from: [stream('events')] })),
            appendFlow('backfill', 'm', select([[int(0), 'id']]), { once: true }),
        ], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir);
        ws.append('events', [{ id: 2, kind: 'a', amount: 5 }]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.m.rows, 'id')).toEqual(expected([0], [1], [2]));
    });

    it('INSERT without BY NAME maps columns by position', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('t', { columns: 'a STRING, b INT' })], [
            appendFlow('t', 't', select([col('kind'), col('id')], { from: [stream('events')] }), { byName: false }),
        ], [events]);
        ws.append('events', [{ id: 7, kind: 'x', amount: 5 }]);
        const result = await ws.ok(ir);
        expect(result.datasets.t.rows).toEqual([{ a: 'x', b: 7 }]);
    });

    it('a declared schema casts values, computes generated columns, fills defaults, and rejects unknown columns', async () => {
        ws = new Workspace();
        const t: DatasetIR = streamingTable('t', { columns: 'id BIGINT, amount DOUBLE, doubled DOUBLE, label STRING' });
        t.columns![2].generated = bin('*', col('amount'), int(2));
        t.columns![3].default = str('none');
        const ir = pipeline([t], [appendFlow('t', 't', select([col('id'), col('amount')], { from: [stream('events')] }))], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        const result = await ws.ok(ir);
        expect(result.datasets.t.rows).toEqual([{ id: 1, amount: 5, doubled: 10, label: 'none' }]);
        expect(result.datasets.t.columns.map(c => c.type)).toEqual(['BIGINT', 'DOUBLE', 'DOUBLE', 'STRING']);
        const extra = pipeline([t], [appendFlow('t', 't', select([col('id'), col('kind')], { from: [stream('events')] }))], [events]);
        ws.append('events', [{ id: 2, kind: 'b', amount: 1 }]);
        expect((await ws.fails(extra)).class).toBe('PIPELINE_SQL_SCHEMA_MISMATCH');
    });

    it('a cyclic dependency is reported before anything runs', async () => {
        ws = new Workspace();
        const ir = pipeline([materializedView('a'), materializedView('b')], [mvFlow('a', selectStar(table('ds:b'))), mvFlow('b', selectStar(table('ds:a')))]);
        const error = await ws.fails(ir);
        expect(error.class).toBe('PIPELINE_SQL_CIRCULAR_DEPENDENCY');
        expect(error.message).toMatch(/a -> b -> a|b -> a -> b/);
    });

    it('an unknown table is TABLE_OR_VIEW_NOT_FOUND at the reference', async () => {
        ws = new Workspace();
        const ref = table('nowhere.to_be_found');
        const ir = pipeline([materializedView('m')], [mvFlow('m', selectStar(ref))]);
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'TABLE_OR_VIEW_NOT_FOUND', line: ref.span!.line, flow: 'm' });
        expect(error.message).toContain('nowhere.to_be_found');
    });
});

describe('pipeline parameters', () => {
    it('${name} takes its value from the pipeline configuration; an unknown name is UNBOUND_SQL_PARAMETER', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }, { id: 2, kind: 'b', amount: 50 }]);
        const threshold = { kind: 'parameter' as const, name: 'min_amount', type: { kind: 'int' as const } };
        const ir = pipeline([materializedView('m')], [mvFlow('m', select([col('id')], { from: [table('events')], where: gt(col('amount'), threshold) }))], [events], { min_amount: '10' });
        expect(rowsOf((await ws.ok(ir)).datasets.m.rows, 'id')).toEqual(expected([2]));
        const unbound = pipeline([materializedView('m')], [mvFlow('m', select([col('id')], { from: [table('events')], where: gt(col('amount'), threshold) }))], [events]);
        expect((await ws.fails(unbound)).class).toBe('UNBOUND_SQL_PARAMETER');
    });
});

describe('expectations', () => {
    it('FAIL UPDATE fails the update with EXPECTATION_VIOLATION and commits nothing of it', async () => {
        ws = new Workspace();
        const guarded = streamingTable('guarded', { expectations: [expectation('positive', gt(col('amount'), int(0)), 'fail')] });
        const ir = pipeline([streamingTable('first'), guarded], [
            appendFlow('first', 'first', selectStar(stream('events'))),
            appendFlow('guarded', 'guarded', selectStar(stream('ds:first'))),
        ], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir);
        ws.append('events', [{ id: 2, kind: 'a', amount: -5 }]);
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'EXPECTATION_VIOLATION', dataset: 'guarded', flow: 'guarded', line: guarded.expectations[0].span.line });
        expect(error.message).toContain("'positive'");
        const tables = await ws.tables(ir);
        expect(rowsOf(tables.first, 'id')).toEqual(expected([1]));
        expect(rowsOf(tables.guarded, 'id')).toEqual(expected([1]));
    });

    it('an expectation that evaluates to NULL is a violation (A17)', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('t', { expectations: [expectation('big', gt(col('amount'), int(1)), 'drop')] })], [
            appendFlow('t', 't', selectStar(stream('events'))),
        ], [events]);
        ws.append('events', [{ id: 1, kind: 'a', amount: null }, { id: 2, kind: 'a', amount: 3 }]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id')).toEqual(expected([2]));
        expect(result.metrics.t.expectations).toEqual({ big: { passed_records: 1, failed_records: 1, dropped_records: 1 } });
    });
});

describe('REPLACE USING and REPLACE WHERE', () => {
    it('REPLACE USING appends rows whose sequence equals the current one and ignores older ones', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('t')], [replaceUsing('r', 't', ['k'], 's', selectStar(stream('src')))], [catalogTable('src', 'k INT, v STRING, s INT', 'json')]);
        ws.append('src', [{ k: 1, v: 'a', s: 2 }]);
        await ws.ok(ir);
        ws.append('src', [{ k: 1, v: 'b', s: 2 }, { k: 1, v: 'old', s: 1 }]);
        let result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'k', 'v')).toEqual(expected([1, 'a'], [1, 'b']));
        ws.append('src', [{ k: 1, v: 'old', s: 1 }]);
        result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'k', 'v')).toEqual(expected([1, 'a'], [1, 'b']));
    });

    it('REPLACE WHERE replaces only the predicate range, evaluated with the update clock', async () => {
        ws = new Workspace();
        const recent = gt(col('day'), call('date_add', call('current_date'), int(-2)));
        const ir = pipeline([streamingTable('t')], [replaceWhere('r', 't', recent, selectStar(table('src')))], [catalogTable('src', 'day DATE, v INT', 'json')]);
        ws.append('src', [{ day: '2025-01-01', v: 1 }, { day: '2025-01-02', v: 2 }, { day: '2025-01-03', v: 3 }]);
        let result = await ws.ok(ir, { now: '2025-01-03 12:00:00' });
        expect(rowsOf(result.datasets.t.rows, 'day', 'v')).toEqual(expected(['2025-01-02', 2], ['2025-01-03', 3]));
        ws.append('src', [{ day: '2025-01-03', v: 30 }, { day: '2025-01-04', v: 4 }]);
        result = await ws.ok(ir, { now: '2025-01-04 12:00:00' });
        // 2025-01-02 is now outside the range: kept as it was; the range is replaced from the query.
        expect(rowsOf(result.datasets.t.rows, 'day', 'v')).toEqual(expected(['2025-01-02', 2], ['2025-01-03', 3], ['2025-01-03', 30], ['2025-01-04', 4]));
    });
});

describe('refresh selection and state reconciliation', () => {
    const ir = () => pipeline([streamingTable('a'), streamingTable('b')], [
        appendFlow('a', 'a', selectStar(stream('events'))),
        appendFlow('b', 'b', select([col('id')], { from: [stream('events')] })),
    ], [events]);

    it('refresh updates only the selected datasets', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir());
        ws.append('events', [{ id: 2, kind: 'a', amount: 5 }]);
        const result = await ws.ok(ir(), { refresh: ['a'] });
        expect(result.flows.b.status).toBe('not_selected');
        expect(rowsOf(result.datasets.a.rows, 'id')).toEqual(expected([1], [2]));
        expect(rowsOf(result.datasets.b.rows, 'id')).toEqual(expected([1]));
    });

    it('a full refresh of one dataset clears it and its checkpoints, leaving the others incremental', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir());
        ws.append('events', [{ id: 2, kind: 'a', amount: 5 }]);
        const result = await ws.ok(ir(), { fullRefresh: ['b'] });
        expect(result.flows.a.status).toBe('not_selected');
        expect(rowsOf(result.datasets.b.rows, 'id')).toEqual(expected([1], [2]));
        expect(rowsOf(result.datasets.a.rows, 'id')).toEqual(expected([1]));
        const next = await ws.ok(ir());
        expect(rowsOf(next.datasets.a.rows, 'id')).toEqual(expected([1], [2]));
        expect(rowsOf(next.datasets.b.rows, 'id')).toEqual(expected([1], [2]));
    });

    it('a dataset removed from the pipeline is dropped from the state', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir());
        const onlyA = pipeline([streamingTable('a')], [appendFlow('a', 'a', selectStar(stream('events')))], [events]);
        const result = await ws.ok(onlyA);
        expect(Object.keys(result.datasets)).toEqual(['a']);
        // Declaring it again starts it from scratch.
        const again = await ws.ok(ir());
        expect(rowsOf(again.datasets.b.rows, 'id')).toEqual(expected([1]));
    });

    it('a streaming table cannot become a managed table (CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE)', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir());
        const switched = ir();
        switched.datasets[0].kind = 'managed_table';
        const error = await ws.fails(switched);
        expect(error).toMatchObject({ class: 'CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE', dataset: 'a', line: switched.datasets[0].span.line });
    });

    it('an aborted update is rolled back', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        await ws.ok(ir());
        ws.append('events', [{ id: 2, kind: 'a', amount: 5 }]);
        const controller = new AbortController();
        const result = await ws.run(ir(), { signal: controller.signal, onProgress: e => (e.phase === 'flow' && e.index === 2 ? controller.abort() : undefined) });
        expect(result.ok ? 'ok' : result.error.class).toBe('PIPELINE_SQL_CANCELLED');
        const tables = await ws.tables(ir());
        expect(rowsOf(tables.a, 'id')).toEqual(expected([1]));
        const next = await ws.ok(ir());
        expect(rowsOf(next.datasets.a.rows, 'id')).toEqual(expected([1], [2]));
        expect(rowsOf(next.datasets.b.rows, 'id')).toEqual(expected([1], [2]));
    });

    it('progress reports every flow with its position', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, kind: 'a', amount: 5 }]);
        const seen: string[] = [];
        await ws.ok(ir(), { onProgress: e => (e.phase === 'flow' ? seen.push(`${e.index}/${e.total} ${e.flow}`) : undefined) });
        expect(seen).toEqual(['1/2 a', '2/2 b']);
    });
});

describe('result values', () => {
    it('dates, timestamps, structs, arrays and maps have their JSON forms', async () => {
        ws = new Workspace();
        const ir = pipeline([materializedView('v')], [mvFlow('v', select([
            [date('2024-02-29'), 'd'],
            [{ kind: 'literal', type: { kind: 'timestamp' }, value: '2024-01-02 03:04:05.120' }, 'ts'],
            [{ kind: 'struct', fields: [{ name: 'a', value: int(1) }, { name: 'b', value: str('x') }] }, 's'],
            [{ kind: 'array', elements: [int(1), int(2)] }, 'arr'],
            [call('map', str('k'), int(1)), 'm'],
            [isNull(int(1)), 'flag'],
            [eq(int(1), int(1)), 'yes'],
        ]))]);
        const result = await ws.ok(ir);
        expect(result.datasets.v.rows).toEqual([{ d: '2024-02-29', ts: '2024-01-02 03:04:05.12', s: { a: 1, b: 'x' }, arr: [1, 2], m: { k: 1 }, flag: false, yes: true }]);
        expect(result.datasets.v.columns.map(c => c.type)).toEqual(['DATE', 'TIMESTAMP', 'STRUCT<a: INT, b: STRING>', 'ARRAY<INT>', 'MAP<STRING, INT>', 'BOOLEAN', 'BOOLEAN']);
    });

    it('results are capped by the limit and report the full row count', async () => {
        ws = new Workspace();
        ws.append('events', Array.from({ length: 30 }, (_, i) => ({ id: i, kind: 'a', amount: i })));
        const result = await ws.ok(pipeline([streamingTable('t')], [appendFlow('t', 't', selectStar(stream('events')))], [events]), { limit: 10 });
        expect(result.datasets.t).toMatchObject({ rowCount: 30, truncated: true });
        expect(result.datasets.t.rows).toHaveLength(10);
    });
});
