// Read-only inspection of a pipeline's state: ad-hoc queries and the change events of CDC targets.
import { afterEach, describe, expect, it } from 'vitest';
import { readChangeEvents, runQuery } from '../../../engine/src/index.js';
import { autoCdc, call, catalogTable, col, countStar, eq, pipeline, sel, select, str, stream, streamingTable, table } from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const ir = (storedAs: 'scd1' | 'scd2') => pipeline([streamingTable('t')], [autoCdc('t_cdc', 't', stream('src'), {
    keys: ['id'], sequenceBy: col('seq'), deleteWhen: eq(col('op'), str('DELETE')), columns: sel.except('op', 'seq'), storedAs,
})], [catalogTable('src', 'id INT, name STRING, seq INT, op STRING', 'json')]);

describe('inspection', () => {
    it('runQuery evaluates a query over the datasets and samples without changing the state', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', seq: 1, op: 'UPSERT' }, { id: 2, name: 'b', seq: 1, op: 'UPSERT' }]);
        await ws.ok(ir('scd1'));
        const result = await runQuery(ir('scd1'), select([[countStar(), 'n'], [call('max', col('name')), 'top']], { from: [table('ds:t')] }), { stateDir: ws.state, samplesDir: ws.samples });
        expect(result).toMatchObject({ ok: true, rows: [{ n: 2, top: 'b' }], columns: [{ name: 'n', type: 'BIGINT' }, { name: 'top', type: 'STRING' }] });
        const samples = await runQuery(ir('scd1'), select([countStar()], { from: [table('src')] }), { stateDir: ws.state, samplesDir: ws.samples });
        expect(samples.ok && samples.rows[0]).toEqual({ 'count(1)': 2 });
    });

    it('readChangeEvents lists the events behind each SCD2 version, in per-key order', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'b', seq: 2, op: 'UPSERT' },
            { id: 1, name: 'a', seq: 1, op: 'UPSERT' },
            { id: 1, name: null, seq: 3, op: 'DELETE' },
            { id: 2, name: 'z', seq: 1, op: 'UPSERT' },
        ]);
        await ws.ok(ir('scd2'));
        const result = await readChangeEvents(ir('scd2'), 't', { stateDir: ws.state, samplesDir: ws.samples, keys: { id: 1 } });
        expect(result.ok && result.rows.map(r => `${r._sequence} ${r._change} ${r.name}`)).toEqual(['1 upsert a', '2 upsert b', '3 delete null']);
    });

    it('readChangeEvents of an SCD1 target shows the latest event per key, tombstones included', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', seq: 1, op: 'UPSERT' }, { id: 2, name: 'b', seq: 1, op: 'UPSERT' }, { id: 2, name: null, seq: 2, op: 'DELETE' }]);
        await ws.ok(ir('scd1'));
        const result = await readChangeEvents(ir('scd1'), 't', { stateDir: ws.state, samplesDir: ws.samples });
        expect(rowsOf(result.ok ? result.rows : [], 'id', '_change', '_sequence')).toEqual(expected([1, 'upsert', 1], [2, 'delete', 2]));
    });
});
