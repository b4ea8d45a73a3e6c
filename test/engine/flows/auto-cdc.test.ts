// AUTO CDC flows: every clause of docs/semantics.md §3.7 and the semantics of §6–§10, on hand-built IR.
import { afterEach, describe, expect, it } from 'vitest';
import type { AutoCdcFlowIR, PipelineIR } from '../../../engine/src/ir.js';
import {
    autoCdc, call, catalogTable, col, eq, expect as expectation, gt, int, isNull, pipeline, sel, select, str, stream, streamingTable, struct, temporaryView,
    type CdcOptions,
} from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const schema = 'id INT, name STRING, city STRING, seq INT, op STRING';
const deletes = eq(col('op'), str('DELETE'));

function cdc(options: Partial<CdcOptions> = {}, table = 'src', tableSchema = schema): PipelineIR {
    return pipeline([streamingTable('t')], [
        autoCdc('t_cdc', 't', stream(table), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op'), ...options }),
    ], [catalogTable(table, tableSchema, 'json')]);
}

describe('AUTO CDC stored as SCD type 1', () => {
    it('composite keys identify rows by all key columns', async () => {
        ws = new Workspace();
        ws.append('src', [
            { a: 1, b: 'x', v: 'first', seq: 1 },
            { a: 1, b: 'y', v: 'other', seq: 1 },
            { a: 1, b: 'x', v: 'second', seq: 2 },
        ]);
        const ir = pipeline([streamingTable('t')], [autoCdc('f', 't', stream('src'), { keys: ['a', 'b'], sequenceBy: col('seq'), columns: sel.except('seq') })],
            [catalogTable('src', 'a INT, b STRING, v STRING, seq INT', 'json')]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'a', 'b', 'v')).toEqual(expected([1, 'x', 'second'], [1, 'y', 'other']));
    });

    it('APPLY AS TRUNCATE WHEN deletes every key older than the truncate, and later events still apply', async () => {
        ws = new Workspace();
        const ir = cdc({ truncateWhen: eq(col('op'), str('TRUNCATE')), columns: sel.except('op', 'seq') });
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' },
            { id: 2, name: 'b', city: 'x', seq: 2, op: 'UPSERT' },
            { id: null, name: null, city: null, seq: 3, op: 'TRUNCATE' },
            { id: 2, name: 'b2', city: 'y', seq: 4, op: 'UPSERT' },
        ]);
        let result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id', 'name')).toEqual(expected([2, 'b2']));
        // A late upsert older than the truncate is discarded; a newer one re-creates the key.
        ws.append('src', [{ id: 1, name: 'late', city: 'z', seq: 2, op: 'UPSERT' }, { id: 3, name: 'c', city: 'z', seq: 5, op: 'UPSERT' }]);
        result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id', 'name')).toEqual(expected([2, 'b2'], [3, 'c']));
    });

    it('an upsert wins over a delete with the same key and sequence, whatever the arrival order (A5, as Spark\'s SCD1 processor)', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' },
            { id: 1, name: null, city: null, seq: 5, op: 'DELETE' },
            { id: 1, name: 'same-seq', city: 'x', seq: 5, op: 'UPSERT' },
            { id: 2, name: 'kept', city: 'x', seq: 5, op: 'UPSERT' },
            { id: 3, name: 'upsert first', city: 'x', seq: 5, op: 'UPSERT' },
            { id: 3, name: null, city: null, seq: 5, op: 'DELETE' },
        ]);
        const result = await ws.ok(cdc());
        expect(rowsOf(result.datasets.t.rows, 'id', 'name')).toEqual(expected([1, 'same-seq'], [2, 'kept'], [3, 'upsert first']));
    });

    it('IGNORE NULL UPDATES ON (list) keeps listed columns when the update is NULL and applies other NULLs', async () => {
        ws = new Workspace();
        const ir = cdc({ ignoreNullUpdates: sel.list('name'), columns: sel.except('op', 'seq') });
        ws.append('src', [{ id: 1, name: 'Ann', city: 'Paris', seq: 1, op: 'UPSERT' }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 1, name: null, city: null, seq: 2, op: 'UPSERT' }]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', 'city')).toEqual(expected([1, 'Ann', null]));
    });

    it('IGNORE NULL UPDATES ON * EXCEPT (list) applies NULLs only to the listed columns', async () => {
        ws = new Workspace();
        const ir = cdc({ ignoreNullUpdates: sel.except('name'), columns: sel.except('op', 'seq') });
        ws.append('src', [{ id: 1, name: 'Ann', city: 'Paris', seq: 1, op: 'UPSERT' }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 1, name: null, city: null, seq: 2, op: 'UPSERT' }]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', 'city')).toEqual(expected([1, null, 'Paris']));
    });

    it('IGNORE NULL UPDATES applies per nested field of a struct column', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('t')], [autoCdc('f', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), ignoreNullUpdates: sel.all(), columns: sel.except('seq') })],
            [catalogTable('src', 'id INT, addr STRUCT<street: STRING, city: STRING>, seq INT', 'json')]);
        ws.append('src', [{ id: 1, addr: { street: 'Main', city: 'Paris' }, seq: 1 }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 1, addr: { street: null, city: 'Lyon' }, seq: 2 }]);
        const result = await ws.ok(ir);
        expect(result.datasets.t.rows).toEqual([{ id: 1, addr: { street: 'Main', city: 'Lyon' } }]);
    });

    it('partial updates for one key in one batch combine per column, latest authoring event first (spec 7.2)', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'Ann', city: 'Paris', seq: 1, op: 'UPSERT' },
            { id: 1, name: null, city: 'Lyon', seq: 3, op: 'UPSERT' },
            { id: 1, name: 'Anna', city: null, seq: 2, op: 'UPSERT' },
        ]);
        const result = await ws.ok(cdc({ ignoreNullUpdates: sel.all(), columns: sel.except('op', 'seq') }));
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', 'city')).toEqual(expected([1, 'Anna', 'Lyon']));
    });

    it('a delete forgets every column: an upsert after it authors only what it carries', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'Ann', city: 'Paris', seq: 1, op: 'UPSERT' },
            { id: 1, name: null, city: null, seq: 2, op: 'DELETE' },
            { id: 1, name: null, city: 'Rome', seq: 3, op: 'UPSERT' },
        ]);
        const result = await ws.ok(cdc({ ignoreNullUpdates: sel.all(), columns: sel.except('op', 'seq') }));
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', 'city')).toEqual(expected([1, null, 'Rome']));
    });

    it('a declared schema of an SCD1 target types its columns, also after the declaration changes', async () => {
        ws = new Workspace();
        const declared = (columns: string) => pipeline([streamingTable('t', { columns })], [
            autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op', 'seq') }),
        ], [catalogTable('src', schema, 'json')]);
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        let result = await ws.ok(declared('id BIGINT, name STRING, city STRING'));
        expect(result.datasets.t.columns.map(c => c.type)).toEqual(['BIGINT', 'STRING', 'STRING']);
        result = await ws.ok(declared('id BIGINT, name STRING, city STRING, note STRING'));
        expect(result.datasets.t.rows).toEqual([{ id: 1, name: 'a', city: 'x', note: null }]);
    });

    it('COLUMNS (list) keeps the source column order', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        const result = await ws.ok(cdc({ columns: sel.list('city', 'id') }));
        expect(result.datasets.t.columns).toEqual([{ name: 'id', type: 'INT' }, { name: 'city', type: 'STRING' }]);
    });

    it('reports num_upserted_rows and num_deleted_rows from the before/after difference', async () => {
        ws = new Workspace();
        const ir = cdc();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }, { id: 2, name: 'b', city: 'x', seq: 1, op: 'UPSERT' }]);
        let result = await ws.ok(ir);
        expect(result.metrics.t).toMatchObject({ num_upserted_rows: 2, num_deleted_rows: 0 });
        ws.append('src', [
            { id: 1, name: 'a2', city: 'x', seq: 2, op: 'UPSERT' },
            { id: 2, name: null, city: null, seq: 2, op: 'DELETE' },
            { id: 3, name: null, city: null, seq: 2, op: 'DELETE' },
            { id: 1, name: 'too late', city: 'x', seq: 0, op: 'UPSERT' },
        ]);
        result = await ws.ok(ir);
        expect(result.metrics.t).toMatchObject({ num_upserted_rows: 1, num_deleted_rows: 1 });
        expect(result.datasets.t.changes).toMatchObject({ inserted: 0, updated: 1, deleted: 1 });
        expect(rowsOf(result.datasets.t.changes!.rows.deleted, 'id', 'name')).toEqual(expected([2, 'b']));
    });

    it('the change data feed shows inserts, deletes and update pre/post images (spec 15.2)', async () => {
        ws = new Workspace();
        const ir = cdc({ columns: sel.except('op', 'seq') });
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }, { id: 2, name: 'b', city: 'x', seq: 1, op: 'UPSERT' }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 1, name: 'a2', city: 'x', seq: 2, op: 'UPSERT' }, { id: 2, name: null, city: null, seq: 2, op: 'DELETE' }, { id: 3, name: 'c', city: 'y', seq: 1, op: 'UPSERT' }]);
        const result = await ws.ok(ir);
        expect(result.datasets.t.changes!.feed).toEqual([
            { id: 1, name: 'a', city: 'x', _change_type: 'update_preimage' },
            { id: 1, name: 'a2', city: 'x', _change_type: 'update_postimage' },
            { id: 2, name: 'b', city: 'x', _change_type: 'delete' },
            { id: 3, name: 'c', city: 'y', _change_type: 'insert' },
        ]);
    });

    it('AUTO CDC ONCE reads its source as a batch once; a full refresh runs it again', async () => {
        ws = new Workspace();
        const ir = cdc({ once: true });
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        let result = await ws.ok(ir);
        expect(result.flows.t_cdc.status).toBe('completed');
        ws.append('src', [{ id: 2, name: 'b', city: 'x', seq: 1, op: 'UPSERT' }]);
        result = await ws.ok(ir);
        expect(result.flows.t_cdc.status).toBe('skipped');
        expect(rowsOf(result.datasets.t.rows, 'id')).toEqual(expected([1]));
        result = await ws.ok(ir, { fullRefresh: true });
        expect(rowsOf(result.datasets.t.rows, 'id')).toEqual(expected([1], [2]));
    });

    it('a source read through a temporary view keeps its streaming checkpoint', async () => {
        ws = new Workspace();
        const ir = pipeline([
            temporaryView('changes', select(['*'], { from: [stream('src')], where: gt(col('seq'), int(0)) })),
            streamingTable('t'),
        ], [autoCdc('t_cdc', 't', stream('ds:changes'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op') })],
        [catalogTable('src', schema, 'json')]);
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 2, name: 'b', city: 'x', seq: 1, op: 'UPSERT' }]);
        const result = await ws.ok(ir);
        expect(result.metrics.t.num_upserted_rows).toBe(1);
        expect(rowsOf(result.datasets.t.rows, 'id')).toEqual(expected([1], [2]));
    });

    it('several AUTO CDC flows into one target fold into one state', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('t')], [
            autoCdc('from_a', 't', stream('a'), { keys: ['id'], sequenceBy: col('seq'), columns: sel.except('op') }),
            autoCdc('from_b', 't', stream('b'), { keys: ['id'], sequenceBy: col('seq'), columns: sel.except('op') }),
        ], [catalogTable('a', schema, 'json'), catalogTable('b', schema, 'json')]);
        ws.append('a', [{ id: 1, name: 'from a', city: 'x', seq: 2, op: 'UPSERT' }]);
        ws.append('b', [{ id: 1, name: 'from b (older)', city: 'x', seq: 1, op: 'UPSERT' }, { id: 2, name: 'b', city: 'x', seq: 1, op: 'UPSERT' }]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id', 'name')).toEqual(expected([1, 'from a'], [2, 'b']));
    });

    it('expectations of the target apply to incoming change events before the merge', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('t', { expectations: [expectation('has_name', isNull(col('name'), true), 'drop')] })], [
            autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), columns: sel.except('op') }),
        ], [catalogTable('src', schema, 'json')]);
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }, { id: 1, name: null, city: 'y', seq: 2, op: 'UPSERT' }]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', 'city')).toEqual(expected([1, 'a', 'x']));
        expect(result.metrics.t.expectations).toEqual({ has_name: { passed_records: 1, failed_records: 1, dropped_records: 1 } });
    });
});

describe('AUTO CDC validation errors', () => {
    it('a NULL key fails the update with AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY at the KEYS clause, leaving the state intact', async () => {
        ws = new Workspace();
        const ir = cdc();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        await ws.ok(ir);
        ws.append('src', [{ id: 2, name: 'b', city: 'x', seq: 2, op: 'UPSERT' }, { id: null, name: 'b', city: 'x', seq: 2, op: 'UPSERT' }]);
        const error = await ws.fails(ir);
        const flow = ir.flows[0] as AutoCdcFlowIR;
        expect(error).toMatchObject({ class: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY', flow: 't_cdc', dataset: 't', line: flow.keys.span!.line });
        expect(rowsOf((await ws.tables(ir)).t, 'id')).toEqual(expected([1]));
    });

    it('a NULL sequence fails with AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE at the SEQUENCE BY clause', async () => {
        ws = new Workspace();
        const ir = cdc();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: null, op: 'UPSERT' }]);
        const error = await ws.fails(ir);
        const flow = ir.flows[0] as AutoCdcFlowIR;
        expect(error).toMatchObject({ class: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE', line: flow.sequenceBy.span!.line });
        expect(error.message).toContain('NULL SEQUENCE BY');
    });

    it('a sequence that cannot be ordered fails with NON_ORDERABLE_SEQUENCE', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        const error = await ws.fails(cdc({ sequenceBy: call('map', str('k'), col('seq')) }));
        expect(error.class).toBe('AUTOCDC_MICROBATCH_VALIDATION.NON_ORDERABLE_SEQUENCE');
    });

    it('a key column missing from the source is AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA; a key excluded by COLUMNS is AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        expect((await ws.fails(cdc({ keys: ['nope'] }))).class).toBe('AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA');
        expect((await ws.fails(cdc({ columns: sel.except('id', 'op') }))).class).toBe('AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA');
        expect((await ws.fails(cdc({ columns: sel.list('id', 'nope') }))).class).toBe('AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA');
    });

    it('changing KEYS needs a full refresh (AUTOCDC_INVALID_STATE.KEY_SCHEMA_DRIFT)', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        await ws.ok(cdc());
        expect((await ws.fails(cdc({ keys: ['id', 'name'] }))).class).toBe('AUTOCDC_INVALID_STATE.KEY_SCHEMA_DRIFT');
        const result = await ws.ok(cdc({ keys: ['id', 'name'] }), { fullRefresh: true });
        expect(rowsOf(result.datasets.t.rows, 'id', 'name')).toEqual(expected([1, 'a']));
    });

    it('changing the SEQUENCE BY type needs a full refresh (AUTOCDC_INVALID_STATE.SEQUENCING_TYPE_DRIFT)', async () => {
        ws = new Workspace();
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }]);
        await ws.ok(cdc());
        ws.append('src', [{ id: 1, name: 'b', city: 'x', seq: 2, op: 'UPSERT' }]);
        const error = await ws.fails(cdc({ sequenceBy: call('string', col('seq')) }));
        expect(error.class).toBe('AUTOCDC_INVALID_STATE.SEQUENCING_TYPE_DRIFT');
    });

    it('an AUTO CDC flow into a managed table is MANAGED_TABLE_DOES_NOT_SUPPORT_CDC before anything runs', async () => {
        ws = new Workspace();
        const ir = cdc();
        ir.datasets[0].kind = 'managed_table';
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'MANAGED_TABLE_DOES_NOT_SUPPORT_CDC', flow: 't_cdc', line: ir.flows[0].span.line });
    });
});

describe('AUTO CDC stored as SCD type 2', () => {
    const scd2 = (options: Partial<CdcOptions> = {}) => cdc({ storedAs: 'scd2', columns: sel.except('op', 'seq'), ...options });

    it('a declared schema of an SCD2 target types its columns, computes generated columns from system columns, and checks NOT NULL', async () => {
        ws = new Workspace();
        const declared = (notNullCity: boolean) => {
            const t = streamingTable('t', { columns: 'id BIGINT, name STRING, city STRING, open BOOLEAN' });
            t.columns!.find(c => c.name === 'city')!.notNull = notNullCity;
            t.columns!.find(c => c.name === 'open')!.generated = isNull(col('__END_AT'));
            return pipeline([t], [autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: deletes, columns: sel.except('op', 'seq'), storedAs: 'scd2' })],
                [catalogTable('src', schema, 'json')]);
        };
        ws.append('src', [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }, { id: 1, name: 'b', city: 'x', seq: 2, op: 'UPSERT' }]);
        const result = await ws.ok(declared(true));
        expect(result.datasets.t.columns.map(c => `${c.name} ${c.type}`)).toEqual(['id BIGINT', 'name STRING', 'city STRING', 'open BOOLEAN', '__START_AT INT', '__END_AT INT']);
        expect(rowsOf(result.datasets.t.rows, 'name', 'open', '__START_AT', '__END_AT')).toEqual(expected(['a', false, 1, 2], ['b', true, 2, null]));
        ws.append('src', [{ id: 2, name: 'c', city: null, seq: 3, op: 'UPSERT' }]);
        const error = await ws.fails(declared(true));
        expect(error.class).toBe('DELTA_NOT_NULL_CONSTRAINT_VIOLATED');
        expect(rowsOf((await ws.ok(declared(false))).datasets.t.rows, 'id', 'name', 'open')).toEqual(expected([1, 'a', false], [1, 'b', true], [2, 'c', true]));
    });

    it('switching between full-row and partial updates (IGNORE NULL UPDATES) recomputes the history from all events', async () => {
        ws = new Workspace();
        const full = scd2();
        const partial = scd2({ ignoreNullUpdates: sel.all() });
        const batches = [
            [{ id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' }, { id: 2, name: 'b', city: 'y', seq: 1, op: 'UPSERT' }],
            [{ id: 1, name: null, city: 'z', seq: 2, op: 'UPSERT' }, { id: 2, name: 'c', city: null, seq: 3, op: 'UPSERT' }],
            [{ id: 1, name: 'd', city: null, seq: 3, op: 'UPSERT' }, { id: 2, name: null, city: null, seq: 2, op: 'DELETE' }],
        ];
        const columns = ['id', 'name', 'city', '__START_AT', '__END_AT'];
        const fresh = async (ir: PipelineIR, upTo: number): Promise<string[]> => {
            const other = new Workspace();
            try {
                other.append('src', batches.slice(0, upTo + 1).flat());
                return rowsOf((await other.ok(ir)).datasets.t.rows, ...columns);
            } finally {
                other.dispose();
            }
        };
        const definitions = [full, partial, full];
        for (let i = 0; i < batches.length; i++) {
            ws.append('src', batches[i]);
            const result = await ws.ok(definitions[i]);
            expect(rowsOf(result.datasets.t.rows, ...columns), `after update ${i + 1}`).toEqual(await fresh(definitions[i], i));
        }
        expect(rowsOf((await ws.tables(full)).t, ...columns)).toEqual(expected(
            [1, 'a', 'x', 1, 2], [1, null, 'z', 2, 3], [1, 'd', null, 3, null], [2, 'b', 'y', 1, 2], [2, 'c', null, 3, null],
        ));
    });

    it('TRACK HISTORY ON (list) opens versions only for tracked changes and updates the others in place', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' },
            { id: 1, name: 'a', city: 'y', seq: 2, op: 'UPSERT' },
            { id: 1, name: 'b', city: 'y', seq: 3, op: 'UPSERT' },
        ]);
        const result = await ws.ok(scd2({ trackHistory: sel.list('name') }));
        expect(rowsOf(result.datasets.t.rows, 'id', 'name', 'city', '__START_AT', '__END_AT')).toEqual(expected([1, 'a', 'y', 1, 3], [1, 'b', 'y', 3, null]));
    });

    it('a late event with other tracked values splits a run of equal versions (spec 8.3)', async () => {
        ws = new Workspace();
        const ir = scd2();
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 10, op: 'UPSERT' },
            { id: 1, name: 'a', city: 'x', seq: 30, op: 'UPSERT' },
            { id: 1, name: 'c', city: 'x', seq: 40, op: 'UPSERT' },
        ]);
        let result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'name', '__START_AT', '__END_AT')).toEqual(expected(['a', 10, 40], ['c', 40, null]));
        ws.append('src', [{ id: 1, name: 'b', city: 'x', seq: 20, op: 'UPSERT' }]);
        result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'name', '__START_AT', '__END_AT')).toEqual(expected(['a', 10, 20], ['b', 20, 30], ['a', 30, 40], ['c', 40, null]));
        // The moved version counts as an upsert; nothing was removed by primary key (keys + __START_AT).
        expect(result.metrics.t).toMatchObject({ num_upserted_rows: 3, num_deleted_rows: 0 });
        expect(result.datasets.t.changes!.feed.map(r => `${r._change_type} ${r.name} ${r.__START_AT}-${r.__END_AT}`)).toEqual([
            'update_preimage a 10-40', 'update_postimage a 10-20', 'insert b 20-30', 'insert a 30-40',
        ]);
    });

    it('an upsert and a delete at the same sequence leave no zero-length version; duplicates are idempotent', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' },
            { id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' },
            { id: 1, name: 'b', city: 'x', seq: 5, op: 'UPSERT' },
            { id: 1, name: null, city: null, seq: 5, op: 'DELETE' },
        ]);
        const result = await ws.ok(scd2());
        expect(rowsOf(result.datasets.t.rows, 'name', '__START_AT', '__END_AT')).toEqual(expected(['a', 1, 5]));
    });

    it('IGNORE NULL UPDATES under SCD2 merges against the version current at that sequence (A9)', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 1, op: 'UPSERT' },
            { id: 1, name: null, city: 'y', seq: 2, op: 'UPSERT' },
        ]);
        const result = await ws.ok(scd2({ ignoreNullUpdates: sel.all() }));
        expect(rowsOf(result.datasets.t.rows, 'name', 'city', '__START_AT', '__END_AT')).toEqual(expected(['a', 'x', 1, 2], ['a', 'y', 2, null]));
    });

    it('COLUMNS TO UPDATE under SCD2 changes only the listed columns', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'a', city: 'x', seq: 1, cols: null },
            { id: 1, name: 'ignored', city: 'y', seq: 2, cols: ['city'] },
        ]);
        const ir = pipeline([streamingTable('t')], [autoCdc('f', 't', stream('src'), {
            keys: ['id'], sequenceBy: col('seq'), columns: sel.except('seq', 'cols'), columnsToUpdate: 'cols', storedAs: 'scd2',
        })], [catalogTable('src', 'id INT, name STRING, city STRING, seq INT, cols ARRAY<STRING>', 'json')]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'name', 'city', '__START_AT', '__END_AT')).toEqual(expected(['a', 'x', 1, 2], ['a', 'y', 2, null]));
    });

    it('SEQUENCE BY STRUCT makes __START_AT / __END_AT structs ordered field by field', async () => {
        ws = new Workspace();
        ws.append('src', [
            { id: 1, name: 'b', ts: 2, n: 1 },
            { id: 1, name: 'a', ts: 1, n: 9 },
            { id: 1, name: 'c', ts: 2, n: 0 },
        ]);
        const ir = pipeline([streamingTable('t')], [autoCdc('f', 't', stream('src'), {
            keys: ['id'], sequenceBy: struct(['ts', col('ts')], ['n', col('n')]), columns: sel.except('ts', 'n'), storedAs: 'scd2',
        })], [catalogTable('src', 'id INT, name STRING, ts INT, n INT', 'json')]);
        const result = await ws.ok(ir);
        expect(rowsOf(result.datasets.t.rows, 'name', '__START_AT', '__END_AT')).toEqual(expected(
            ['a', { ts: 1, n: 9 }, { ts: 2, n: 0 }], ['c', { ts: 2, n: 0 }, { ts: 2, n: 1 }], ['b', { ts: 2, n: 1 }, null],
        ));
        expect(result.datasets.t.columns.find(c => c.name === '__START_AT')?.type).toBe('STRUCT<ts: INT, n: INT>');
    });
});

describe('AUTO CDC stored as BITEMPORAL', () => {
    const bitemporal = () => pipeline([streamingTable('b')], [autoCdc('f', 'b', stream('src'), {
        keys: ['id'], sequenceBy: col('bt'), systemSequenceBy: col('st'), deleteWhen: deletes, columns: sel.except('bt', 'st', 'op'), storedAs: 'bitemporal',
    })], [catalogTable('src', 'id INT, v STRING, bt INT, st INT, op STRING', 'json')]);
    const events = [
        { id: 1, v: 'v1', bt: 10, st: 100, op: 'UPSERT' },
        { id: 1, v: 'v2', bt: 30, st: 200, op: 'UPSERT' },
        { id: 1, v: 'v3', bt: 20, st: 300, op: 'UPSERT' },
        { id: 1, v: null, bt: 40, st: 400, op: 'DELETE' },
    ];
    const columns = ['v', '__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT'];

    it('events arriving late in system time give the same history as in-order arrival', async () => {
        ws = new Workspace();
        ws.append('src', events);
        const inOrder = rowsOf((await ws.ok(bitemporal())).datasets.b.rows, ...columns);
        ws.dispose();
        ws = new Workspace();
        ws.append('src', [events[3], events[1]]);
        await ws.ok(bitemporal());
        ws.append('src', [events[2], events[0]]);
        const lateArrival = rowsOf((await ws.ok(bitemporal())).datasets.b.rows, ...columns);
        expect(lateArrival).toEqual(inOrder);
        expect(inOrder).toEqual(expected(
            ['v1', 10, null, 100, 200],
            ['v1', 10, 30, 200, 300],
            ['v2', 30, null, 200, 400],
            ['v1', 10, 20, 300, null],
            ['v3', 20, 30, 300, null],
            ['v2', 30, 40, 400, null],
        ));
    });
});
