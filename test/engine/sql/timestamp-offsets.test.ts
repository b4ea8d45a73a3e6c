// Text with a UTC offset or a zone becomes the instant it names (Spark's rule, session time zone
// UTC): `2025-01-04T10:00:00+02:00` is 08:00 UTC, in TIMESTAMP literals, casts and to_timestamp,
// so that SEQUENCE BY over such text orders events by time. TIMESTAMP_NTZ ignores the zone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Evaluator } from '../helpers/evaluate.js';
import { appendFlow, autoCdc, call, cast, catalogTable, col, gt, lit, pipeline, select, stream, streamingTable, str, ts } from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let evaluator: Evaluator;
beforeAll(async () => {
    evaluator = await Evaluator.open();
});
afterAll(() => evaluator.close());

async function value(expr: Parameters<Evaluator['expr']>[0]): Promise<unknown> {
    const result = await evaluator.expr(expr);
    if (!('rows' in result)) {
        throw new Error(`${result.error}: ${result.message}`);
    }
    return result.rows[0][0];
}

describe('Spark: a timestamp written with a UTC offset names an instant (session time zone UTC)', () => {
    it("TIMESTAMP '2025-01-04T10:00:00+02:00' is 2025-01-04 08:00:00", async () => {
        expect(await value(ts('2025-01-04T10:00:00+02:00'))).toBe('2025-01-04 08:00:00');
        expect(await value(ts('2025-01-04T10:00:00-05:30'))).toBe('2025-01-04 15:30:00');
        expect(await value(ts('2025-01-04T10:00:00Z'))).toBe('2025-01-04 10:00:00');
        expect(await value(ts('2025-01-04 10:00:00'))).toBe('2025-01-04 10:00:00');
    });

    it("CAST('2025-01-04T10:00:00+02:00' AS TIMESTAMP), TRY_CAST and timestamp() give 08:00 UTC", async () => {
        expect(await value(cast(str('2025-01-04T10:00:00+02:00'), 'TIMESTAMP'))).toBe('2025-01-04 08:00:00');
        expect(await value(cast(str('2025-01-04T10:00:00+02:00'), 'TIMESTAMP', true))).toBe('2025-01-04 08:00:00');
        expect(await value(cast(str('not a time'), 'TIMESTAMP', true))).toBeNull();
        expect(await value(call('timestamp', str('2025-01-04 10:00:00 Europe/Paris')))).toBe('2025-01-04 09:00:00');
    });

    it("to_timestamp('2025-01-04T10:00:00+02:00') and to_timestamp with an XXX pattern give 08:00 UTC", async () => {
        expect(await value(call('to_timestamp', str('2025-01-04T10:00:00+02:00')))).toBe('2025-01-04 08:00:00');
        expect(await value(call('try_to_timestamp', str('2025-01-04T10:00:00+02:00')))).toBe('2025-01-04 08:00:00');
        expect(await value(call('to_timestamp', str('2025-01-04 10:00:00+02:00'), str('yyyy-MM-dd HH:mm:ssXXX')))).toBe('2025-01-04 08:00:00');
    });

    it('TIMESTAMP_NTZ ignores the offset in the text, as Spark does', async () => {
        expect(await value(lit('TIMESTAMP_NTZ', '2025-01-04T10:00:00+02:00'))).toBe('2025-01-04 10:00:00');
        expect(await value(cast(str('2025-01-04T10:00:00+02:00'), 'TIMESTAMP_NTZ'))).toBe('2025-01-04 10:00:00');
    });

    it('a string compared with a timestamp is read with its offset', async () => {
        expect(await value(gt(ts('2025-01-04 08:30:00'), str('2025-01-04T10:00:00+02:00')))).toBe(true);
    });
});

describe('SEQUENCE BY over text timestamps with offsets orders events by instant', () => {
    let ws: Workspace;
    afterEach(() => ws?.dispose());

    const events = catalogTable('events', 'id INT, name STRING, ts STRING', 'json');

    for (const [label, sequence] of [
        ['to_timestamp(ts)', call('to_timestamp', col('ts'))],
        ['CAST(ts AS TIMESTAMP)', cast(col('ts'), 'TIMESTAMP')],
    ] as const) {
        it(`SCD1 keeps the event latest in time, whatever the offsets (SEQUENCE BY ${label})`, async () => {
            ws = new Workspace();
            // 10:00+02:00 is 08:00 UTC, before 09:00Z: 'later' is the newest event of key 1. Read
            // without its offset, 10:00 would look newer and 'earlier' would win.
            ws.append('events', [
                { id: 1, name: 'later', ts: '2025-01-04T09:00:00Z' },
                { id: 1, name: 'earlier', ts: '2025-01-04T10:00:00+02:00' },
                { id: 2, name: 'only', ts: '2025-01-04T23:30:00-05:00' },
            ]);
            const ir = pipeline([streamingTable('users')], [
                autoCdc('users', 'users', stream('events'), { keys: ['id'], sequenceBy: sequence }),
            ], [events]);
            const result = await ws.ok(ir);
            expect(rowsOf(result.datasets.users.rows, 'id', 'name')).toEqual(expected([1, 'later'], [2, 'only']));
        });
    }

    it('SCD2 versions start at the instants the events name (__START_AT in UTC)', async () => {
        ws = new Workspace();
        ws.append('events', [
            { id: 1, name: 'a', ts: '2025-01-04T10:00:00+02:00' },
            { id: 1, name: 'b', ts: '2025-01-04T09:00:00+00:00' },
        ]);
        const ir = pipeline([streamingTable('users')], [
            autoCdc('users', 'users', stream('events'), { keys: ['id'], sequenceBy: call('to_timestamp', col('ts')), storedAs: 'scd2' }),
        ], [events]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.users.rows, 'name', '__START_AT', '__END_AT')).toEqual(expected(
            ['a', '2025-01-04 08:00:00', '2025-01-04 09:00:00'],
            ['b', '2025-01-04 09:00:00', null],
        ));
    });

    it('a filter against a TIMESTAMP literal with an offset compares instants', async () => {
        ws = new Workspace();
        ws.append('events', [
            { id: 1, name: 'before', ts: '2025-01-04T07:59:59Z' },
            { id: 2, name: 'after', ts: '2025-01-04T08:00:01Z' },
        ]);
        const ir = pipeline([streamingTable('recent')], [appendFlow('recent', 'recent',
            select([col('id'), col('name')], { from: [stream('events')], where: gt(call('to_timestamp', col('ts')), ts('2025-01-04T10:00:00+02:00')) }))], [events]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.recent.rows, 'name')).toEqual(expected(['after']));
    });
});
