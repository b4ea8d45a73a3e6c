// An AUTO CDC source written as a subquery (`FROM (SELECT ... FROM STREAM(x) ...)`, `FROM (WITH ...)`),
// as real pipelines write it (docs/semantics.md A28): lowered like a temporary view inlined and run on real files,
// its STREAM(...) reads incremental.
import { afterEach, describe, expect, test } from 'vitest';
import { Workspace, expected, rowsOf } from '../../engine/helpers/workspace.js';
import { lower } from './lower-helper.js';

let ws: Workspace | undefined;
afterEach(() => ws?.dispose());

const catalog = { 'catalog.sql': "CREATE TABLE cdc.raw (id INT, name STRING, op STRING, seq INT, valid BOOLEAN) USING JSON LOCATION 'cdc/raw';\n" };

describe('Databricks pipelines: an AUTO CDC source written as a subquery (A28)', () => {
    test('FROM (SELECT ... FROM STREAM(x) WHERE ...) is read like an inlined temporary view, incrementally', async () => {
        const lowered = await lower(`CREATE OR REFRESH STREAMING TABLE users;
CREATE FLOW users_cdc AS AUTO CDC INTO users
FROM (SELECT id, upper(name) AS name, op, seq FROM STREAM(cdc.raw) WHERE valid)
KEYS (id) APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);`, { catalog });
        expect([...lowered.diagnostics, ...lowered.problems]).toEqual([]);
        expect(lowered.lines.find(l => l.startsWith('auto_cdc'))).toContain('FROM (SELECT');
        ws = new Workspace();
        ws.append('cdc.raw', [
            { id: 1, name: 'ada', op: 'UPSERT', seq: 1, valid: true },
            { id: 2, name: 'alan', op: 'UPSERT', seq: 1, valid: false },
        ]);
        let result = await ws.ok(lowered.pipeline);
        expect(rowsOf(result.datasets.users.rows, 'id', 'name')).toEqual(expected([1, 'ADA']));
        ws.append('cdc.raw', [{ id: 1, name: null, op: 'DELETE', seq: 2, valid: true }, { id: 3, name: 'grace', op: 'UPSERT', seq: 1, valid: true }]);
        result = await ws.ok(lowered.pipeline);
        expect(rowsOf(result.datasets.users.rows, 'id', 'name')).toEqual(expected([3, 'GRACE']));
        // The second update read only the new file: two change events.
        expect(result.flows.users_cdc.rows).toBe(2);
    });

    test('FROM (WITH ... SELECT ...) with a CTE, stored as SCD type 2', async () => {
        const lowered = await lower(`CREATE OR REFRESH STREAMING TABLE history;
CREATE FLOW history_cdc AS AUTO CDC INTO history
FROM (WITH changes AS (SELECT * FROM STREAM(cdc.raw) WHERE valid) SELECT id, name, seq FROM changes)
KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (seq) STORED AS SCD TYPE 2;`, { catalog });
        expect([...lowered.diagnostics, ...lowered.problems]).toEqual([]);
        ws = new Workspace();
        ws.append('cdc.raw', [
            { id: 1, name: 'a', op: 'UPSERT', seq: 1, valid: true },
            { id: 1, name: 'b', op: 'UPSERT', seq: 2, valid: true },
            { id: 1, name: 'ignored', op: 'UPSERT', seq: 3, valid: false },
        ]);
        const result = await ws.ok(lowered.pipeline);
        expect(rowsOf(result.datasets.history.rows, 'id', 'name', '__START_AT', '__END_AT')).toEqual(expected([1, 'a', 1, 2], [1, 'b', 2, null]));
    });
});
