// AUTO CDC behaviours taken from Apache Spark's AutoCDC test suites and Databricks' reference pages
// (issue 11 item 4; docs/semantics.md §6.2, §11.3 and §18 rows A5, A26, A27), each test named after the
// behaviour it reproduces. Real DuckDB, real sample files.
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineIR } from '../../../engine/src/ir.js';
import { autoCdc, catalogTable, col, eq, pipeline, sel, stream, streamingTable, str, type CdcOptions } from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const deletes = eq(col('op'), str('DELETE'));

describe('Spark Scd1LeafLevelReconciliation / Scd2CoalesceIgnoredNulls: IGNORE NULL UPDATES over a STRUCT column (A26)', () => {
    const schema = 'id INT, addr STRUCT<street: STRING, geo: STRUCT<lat: DOUBLE, lon: DOUBLE>>, tags ARRAY<STRING>, seq INT, op STRING';
    const cdc = (options: Partial<CdcOptions>): PipelineIR => pipeline([streamingTable('t')], [
        autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op', 'seq'), ignoreNullUpdates: sel.all(), ...options }),
    ], [catalogTable('src', schema, 'json')]);
    const events = [
        // 1: a NULL struct that no event ever filled is NULL, not {street: NULL, geo: NULL}.
        { id: 1, addr: null, tags: ['a'], seq: 1, op: 'UPSERT' },
        // 2: leaves merge one by one, nested structs included; an array is one value.
        { id: 2, addr: { street: 'Main', geo: null }, tags: ['x'], seq: 1, op: 'UPSERT' },
        { id: 2, addr: { street: null, geo: { lat: 1.5, lon: null } }, tags: null, seq: 2, op: 'UPSERT' },
        { id: 2, addr: null, tags: ['y'], seq: 3, op: 'UPSERT' },
        // 3: after a delete nothing of the old struct is left; a NULL struct then is NULL.
        { id: 3, addr: { street: 'Old', geo: { lat: 2, lon: 3 } }, tags: null, seq: 1, op: 'UPSERT' },
        { id: 3, addr: null, tags: null, seq: 2, op: 'DELETE' },
        { id: 3, addr: null, tags: ['after'], seq: 3, op: 'UPSERT' },
        // 4: a struct whose leaves are all NULL is no value either.
        { id: 4, addr: { street: null, geo: { lat: null, lon: null } }, tags: null, seq: 1, op: 'UPSERT' },
    ];

    it('SCD1: merged leaf by leaf, and a struct without any leaf value is NULL (also after a delete)', async () => {
        ws = new Workspace();
        ws.append('src', events);
        const result = await ws.ok(cdc({ storedAs: 'scd1' }));
        expect(rowsOf(result.datasets.t.rows, 'id', 'addr', 'tags')).toEqual(expected(
            [1, null, ['a']],
            [2, { street: 'Main', geo: { lat: 1.5, lon: null } }, ['y']],
            [3, null, ['after']],
            [4, null, null],
        ));
    });

    it('SCD2: each version carries the leaf-merged struct, NULL when no leaf has a value (also after a delete)', async () => {
        ws = new Workspace();
        ws.append('src', events);
        const result = await ws.ok(cdc({ storedAs: 'scd2' }));
        expect(rowsOf(result.datasets.t.rows, 'id', 'addr', '__START_AT', '__END_AT')).toEqual(expected(
            [1, null, 1, null],
            [2, { street: 'Main', geo: null }, 1, 2],
            // seq 3 changes only the tags (a tracked column): a new version, the struct as merged.
            [2, { street: 'Main', geo: { lat: 1.5, lon: null } }, 2, 3],
            [2, { street: 'Main', geo: { lat: 1.5, lon: null } }, 3, null],
            [3, { street: 'Old', geo: { lat: 2, lon: 3 } }, 1, 2],
            [3, null, 3, null],
            [4, null, 1, null],
        ));
    });

    it('the same across updates: a later NULL struct keeps the merged value, split into one event per update', async () => {
        ws = new Workspace();
        const ir = cdc({ storedAs: 'scd1' });
        for (const event of events) {
            ws.append('src', [event]);
            await ws.ok(ir);
        }
        const tables = await ws.tables(ir);
        expect(rowsOf(tables.t, 'id', 'addr')).toEqual(expected(
            [1, null], [2, { street: 'Main', geo: { lat: 1.5, lon: null } }], [3, null], [4, null],
        ));
    });
});

describe('Spark AutoCdcScd1MultiPipeline: AUTO CDC flows into one target whose sources have different columns (A27)', () => {
    const twoFlows = (options: Partial<CdcOptions> = {}): PipelineIR => pipeline([streamingTable('shared_target')], [
        autoCdc('flow_v1', 'shared_target', stream('v1'), { keys: ['id'], sequenceBy: col('version'), ...options }),
        autoCdc('flow_v2', 'shared_target', stream('v2'), { keys: ['id'], sequenceBy: col('version'), ...options }),
    ], [catalogTable('v1', 'id INT, name STRING, version BIGINT', 'json'), catalogTable('v2', 'id INT, name STRING, age INT, version BIGINT', 'json')]);

    it('the target takes the union of the columns in first-seen order; a flow\'s missing columns are NULL in the rows it writes', async () => {
        ws = new Workspace();
        const ir = twoFlows();
        // As in Spark's test, the second flow joins later (a pipeline that only had the first one).
        const firstOnly: PipelineIR = { ...ir, flows: ir.flows.slice(0, 1) };
        ws.append('v1', [{ id: 1, name: 'alice', version: 1 }, { id: 2, name: 'bob', version: 1 }]);
        let result = await ws.ok(firstOnly);
        expect(result.datasets.shared_target.columns.map(c => c.name)).toEqual(['id', 'name', 'version']);
        // The second source brings `age`: rows written before have it NULL.
        ws.append('v2', [{ id: 2, name: 'bob-v2', age: 25, version: 2 }, { id: 3, name: 'carol', age: 30, version: 1 }]);
        result = await ws.ok(ir);
        expect(result.datasets.shared_target.columns).toEqual([
            { name: 'id', type: 'INT' }, { name: 'name', type: 'STRING' }, { name: 'version', type: 'BIGINT' }, { name: 'age', type: 'INT' },
        ]);
        expect(rowsOf(result.datasets.shared_target.rows, 'id', 'name', 'version', 'age')).toEqual(expected(
            [1, 'alice', 1, null], [2, 'bob-v2', 2, 25], [3, 'carol', 1, 30],
        ));
        // The first flow again, with its own columns: the evolved schema stays; its rows have age NULL.
        ws.append('v1', [{ id: 1, name: 'alice-v2', version: 2 }, { id: 4, name: 'dave', version: 1 }, { id: 3, name: 'carol-v2', version: 2 }]);
        result = await ws.ok(ir);
        expect(rowsOf(result.datasets.shared_target.rows, 'id', 'name', 'version', 'age')).toEqual(expected(
            [1, 'alice-v2', 2, null], [2, 'bob-v2', 2, 25], [3, 'carol-v2', 2, null], [4, 'dave', 1, null],
        ));
        expect(result.metrics.shared_target).toMatchObject({ num_upserted_rows: 3, num_deleted_rows: 0 });
    });

    for (const [label, options, extra] of [
        ['SCD2', { storedAs: 'scd2' }, ['__START_AT', '__END_AT']],
        ['SCD2 with IGNORE NULL UPDATES (a recomputed target table)', { storedAs: 'scd2', ignoreNullUpdates: sel.all() }, ['__START_AT', '__END_AT']],
        ['SCD1 with IGNORE NULL UPDATES', { storedAs: 'scd1', ignoreNullUpdates: sel.all() }, []],
    ] as const) {
        it(`${label}: both flows in the first update, the union before the system columns`, async () => {
            ws = new Workspace();
            ws.append('v1', [{ id: 1, name: 'alice', version: 1 }]);
            ws.append('v2', [{ id: 1, name: 'alice', age: 40, version: 2 }, { id: 2, name: 'bob', age: 25, version: 1 }]);
            const result = await ws.ok(twoFlows(options));
            expect(result.datasets.shared_target.columns.map(c => c.name)).toEqual(['id', 'name', 'version', 'age', ...extra]);
            const last = rowsOf(result.datasets.shared_target.rows.filter(r => r.__END_AT === undefined || r.__END_AT === null), 'id', 'name', 'age');
            expect(last).toEqual(expected([1, 'alice', 40], [2, 'bob', 25]));
        });
    }
});

describe('AUTO CDC flows into one target must merge by the same rule', () => {
    it('flows with different IGNORE NULL UPDATES are refused before anything runs (PIPELINE_SQL_CDC_FLOWS_INCOMPATIBLE)', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', seq: 1 }]);
        const ir = pipeline([streamingTable('t')], [
            autoCdc('full_rows', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq') }),
            autoCdc('ignoring_nulls', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), ignoreNullUpdates: sel.all() }),
        ], [catalogTable('src', 'id INT, name STRING, seq INT', 'json')]);
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_CDC_FLOWS_INCOMPATIBLE', flow: 'ignoring_nulls', line: ir.flows[1].span!.line });
        expect(error.message).toContain('IGNORE NULL UPDATES');
    });
});

describe('Spark Scd1 processor: equal key and sequence (A5, spec 6.2)', () => {
    const schema = 'id INT, name STRING, seq INT, op STRING';
    const cdc = (options: Partial<CdcOptions> = {}): PipelineIR => pipeline([streamingTable('t')], [
        autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op'), ...options }),
    ], [catalogTable('src', schema, 'json')]);

    it('SCD1: the upsert wins over a delete at the same sequence, in one update and across updates (an upsert at a tombstone\'s sequence clears it)', async () => {
        ws = new Workspace();
        const ir = cdc();
        ws.append('src', [{ id: 1, name: 'a', seq: 5, op: 'UPSERT' }, { id: 1, name: null, seq: 5, op: 'DELETE' }]);
        expect(rowsOf((await ws.ok(ir)).datasets.t.rows, 'id', 'name')).toEqual(expected([1, 'a']));
        ws.append('src', [{ id: 2, name: null, seq: 7, op: 'DELETE' }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 2, name: 'b', seq: 7, op: 'UPSERT' }, { id: 1, name: null, seq: 5, op: 'DELETE' }]);
        expect(rowsOf((await ws.ok(ir)).datasets.t.rows, 'id', 'name')).toEqual(expected([1, 'a'], [2, 'b']));
    });

    it('SCD1: among upserts at the same sequence the one that arrived last wins; an upsert at a truncate\'s sequence survives it', async () => {
        ws = new Workspace();
        const ir = cdc({ truncateWhen: eq(col('op'), str('TRUNCATE')) });
        ws.append('src', [
            { id: 1, name: 'first', seq: 3, op: 'UPSERT' }, { id: 1, name: 'second', seq: 3, op: 'UPSERT' },
            { id: 2, name: 'old', seq: 2, op: 'UPSERT' }, { id: 3, name: 'at the truncate', seq: 4, op: 'UPSERT' },
            { id: null, name: null, seq: 4, op: 'TRUNCATE' },
        ]);
        expect(rowsOf((await ws.ok(ir)).datasets.t.rows, 'id', 'name')).toEqual(expected([3, 'at the truncate']));
        const again = pipeline([streamingTable('t')], [
            autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op') }),
        ], [catalogTable('src', schema, 'json')]);
        ws.dispose();
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'first', seq: 3, op: 'UPSERT' }, { id: 1, name: 'second', seq: 3, op: 'UPSERT' }]);
        expect(rowsOf((await ws.ok(again)).datasets.t.rows, 'id', 'name')).toEqual(expected([1, 'second']));
    });

    it('SCD2 and BITEMPORAL: the delete wins over an upsert at the same sequence (Spark\'s Scd2 processor)', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', seq: 1, op: 'UPSERT' }, { id: 1, name: 'b', seq: 5, op: 'UPSERT' }, { id: 1, name: null, seq: 5, op: 'DELETE' }]);
        const result = await ws.ok(cdc({ storedAs: 'scd2' }));
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', '__START_AT', '__END_AT')).toEqual(expected([1, 'a', 1, 5]));
        const bitemporal = await ws.ok(pipeline([streamingTable('b')], [
            autoCdc('b_cdc', 'b', stream('src'), { keys: ['id'], sequenceBy: col('seq'), systemSequenceBy: col('seq'), storedAs: 'bitemporal', deleteWhen: deletes, columns: sel.except('op') }),
        ], [catalogTable('src', schema, 'json')]));
        const current = bitemporal.datasets.b.rows.filter(r => r.__SYSTEM_END_AT === null);
        expect(rowsOf(current, 'id', 'name', '__START_AT', '__END_AT')).toEqual(expected([1, 'a', 1, 5]));
    });

    it('a row with both a NULL key and a NULL sequence is AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE (Spark checks the sequence first)', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: null, name: 'x', seq: null, op: 'UPSERT' }]);
        for (const storedAs of ['scd1', 'scd2'] as const) {
            const error = await ws.fails(cdc({ storedAs }));
            expect(error.class).toBe('AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE');
        }
        ws.dispose();
        ws = new Workspace();
        ws.append('src', [{ id: null, name: 'x', seq: 1, op: 'UPSERT' }]);
        expect((await ws.fails(cdc())).class).toBe('AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY');
    });
});
