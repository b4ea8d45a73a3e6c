import { afterAll, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../engine/src/update/context.js';
import {
    call, cast, catalogTable, col, expect as expectation, int, isNull, materializedView, mvFlow, pipeline, select, span, table, temporaryView,
} from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

/**
 * A function the local engine cannot run stops the update before it starts (issue 11 item 3): never
 * an error halfway through, after some flows ran.
 */

const workspaces: Workspace[] = [];
afterAll(() => workspaces.forEach(ws => ws.dispose()));

function workspace(): Workspace {
    const ws = new Workspace();
    workspaces.push(ws);
    ws.write('src.csv', 'id,y,x\n1,2.0,1.0\n2,4.0,2.0\n');
    return ws;
}

const catalog = [catalogTable('src', 'id INT, y DOUBLE, x DOUBLE', 'csv', 'src.csv')];
const first = mvFlow('a_first', select([col('id')], { from: [table('src')] }));
const slope = { kind: 'call' as const, name: 'regr_slope', args: [col('y'), col('x')], span: span(42) };

describe('a run calling a function that is not available locally', () => {
    it('stops before its first flow, naming the function, file and line; the previous state stays', async () => {
        const ws = workspace();
        const good = pipeline([materializedView('a_first'), materializedView('b_second')],
            [first, mvFlow('b_second', select([[call('count', col('id')), 'n']], { from: [table('src')] }))], catalog);
        await ws.ok(good);
        ws.write('src.csv', 'id,y,x\n1,2.0,1.0\n2,4.0,2.0\n3,6.0,3.0\n');
        const bad = pipeline([materializedView('a_first'), materializedView('b_second')],
            [first, mvFlow('b_second', select([[slope, 'slope']], { from: [table('src')] }))], catalog);
        const events: ProgressEvent[] = [];
        const error = await ws.fails(bad, { onProgress: e => events.push(e) });
        expect(error).toMatchObject({
            class: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION', file: 'pipeline.sql', line: 42,
            message: '`regr_slope` is not available in the local engine: it has no exact DuckDB translation, so the update did not start.',
        });
        expect(events.filter(e => e.phase === 'flow')).toEqual([]);
        expect(await ws.tables(good)).toEqual({ a_first: [{ id: 1 }, { id: 2 }], b_second: [{ n: 2 }] });
    });

    it('stops too when the call is in a view the dataset reads or in an expectation', async () => {
        const ws = workspace();
        const throughView = pipeline([temporaryView('fits', select([[slope, 'slope']], { from: [table('src')] })), materializedView('m')],
            [mvFlow('m', select(['*'], { from: [table('ds:fits')] }))], catalog);
        expect((await ws.fails(throughView)).message).toContain('`regr_slope` is not available in the local engine');
        const inExpectation = pipeline([materializedView('m', { expectations: [expectation('fits', isNull(call('bit_count', col('id'))))] })],
            [mvFlow('m', select([col('id')], { from: [table('src')] }))], catalog);
        expect((await ws.fails(inExpectation)).message).toContain('`bit_count` is not available in the local engine');
    });

    it('does not stop an update that does not refresh the dataset calling it', async () => {
        const ws = workspace();
        const bad = pipeline([materializedView('a_first'), materializedView('b_second')],
            [first, mvFlow('b_second', select([[slope, 'slope']], { from: [table('src')] }))], catalog);
        await ws.ok(bad, { refresh: ['a_first'] });
        expect((await ws.tables(pipeline([materializedView('a_first')], [first], catalog))).a_first).toEqual([{ id: 1 }, { id: 2 }]);
    });

    it('stops before its first flow when a call\'s arguments cannot run locally (sha2 with 384 bits), naming the function and why', async () => {
        const ws = workspace();
        const sha384 = { kind: 'call' as const, name: 'sha2', args: [col('x'), int(384)], span: span(7) };
        const bad = pipeline([materializedView('a_first'), materializedView('b_second')],
            [first, mvFlow('b_second', select([[sha384, 'h']], { from: [table('src')] }))], catalog);
        const events: ProgressEvent[] = [];
        const error = await ws.fails(bad, { onProgress: e => events.push(e) });
        expect(error).toMatchObject({
            class: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION', file: 'pipeline.sql', line: 7,
            message: '`sha2` is not available in the local engine with these arguments: only sha2(x, 256) (or 0) has a DuckDB equivalent, so the update did not start.',
        });
        expect(events.filter(e => e.phase === 'flow')).toEqual([]);
        const sha256 = { kind: 'call' as const, name: 'sha2', args: [cast(col('id'), 'STRING'), int(256)], span: span(7) };
        await ws.ok(pipeline([materializedView('b_second')], [mvFlow('b_second', select([[call('length', sha256), 'n']], { from: [table('src')] }))], catalog));
    });
});
