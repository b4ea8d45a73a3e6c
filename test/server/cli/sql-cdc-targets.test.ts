// `pipeline-sql sql` DML on the AUTO CDC targets beyond full-row SCD1 and SCD2 (docs/semantics.md §8.6):
// a partial-update (IGNORE NULL UPDATES) SCD1 target takes INSERT, UPDATE, DELETE and MERGE like any SCD1
// target, and the next update applies its events on top by sequence; a BITEMPORAL, a snapshot and a partial-update SCD2
// target are refused by the local engine with the reason and what to do instead, through the built CLI as a user runs it.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../../helpers/parse.js';

const run = promisify(execFile);
const cli = path.join(repoRoot, 'out', 'cli.cjs');
let root: string;

async function cliRun(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
        const { stdout, stderr } = await run(process.execPath, [cli, ...args]);
        return { code: 0, stdout, stderr };
    } catch (error) {
        const e = error as { code?: number; stdout?: string; stderr?: string };
        return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
}

async function sqlJson(statement: string): Promise<{ ok: boolean; rows?: Record<string, unknown>[]; error?: { class: string; message: string } }> {
    const { stdout } = await cliRun('sql', root, statement, '--json');
    return JSON.parse(stdout) as { ok: boolean; rows?: Record<string, unknown>[]; error?: { class: string; message: string } };
}

function events(file: string, rows: object[]): void {
    fs.writeFileSync(path.join(root, 'samples', 'src', file), rows.map(r => JSON.stringify(r)).join('\n') + '\n');
}

beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-sql-cdc-'));
    fs.mkdirSync(path.join(root, 'transformations'));
    fs.mkdirSync(path.join(root, 'samples', 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'), 'CREATE TABLE src (id INT, name STRING, city STRING, seq INT, op STRING) USING JSON LOCATION \'src\';\n');
    events('p1.jsonl', [
        { id: 1, name: 'Ada', city: 'London', seq: 10, op: 'UPSERT' },
        { id: 2, name: 'Alan', city: 'Wilmslow', seq: 10, op: 'UPSERT' },
        // A partial update: the NULL name leaves Alan's name as it is.
        { id: 2, name: null, city: 'Manchester', seq: 11, op: 'UPSERT' },
    ]);
    fs.writeFileSync(path.join(root, 'transformations', 'p.sql'), [
        'CREATE OR REFRESH STREAMING TABLE partial;',
        'CREATE FLOW partial_cdc AS AUTO CDC INTO partial FROM STREAM(src) KEYS (id) IGNORE NULL UPDATES APPLY AS DELETE WHEN op = \'DELETE\' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);',
        'CREATE OR REFRESH STREAMING TABLE bt;',
        'CREATE FLOW bt_cdc AS AUTO CDC INTO bt FROM STREAM(src) KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS BITEMPORAL;',
        'CREATE OR REFRESH STREAMING TABLE history;',
        'CREATE FLOW history_cdc AS AUTO CDC INTO history FROM STREAM(src) KEYS (id) IGNORE NULL UPDATES SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;',
        'CREATE OR REFRESH STREAMING TABLE snap;',
        'CREATE FLOW snap_cdc AS AUTO CDC ONCE INTO snap FROM SNAPSHOT (SELECT id, max(name) AS name FROM src GROUP BY id) KEYS (id);',
    ].join('\n'));
    const first = await cliRun('run', root, '--now', '2025-01-01 00:00:00');
    expect(first.code, first.stderr).toBe(0);
}, 180_000);

afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
});

describe('DML on AUTO CDC targets of every kind', () => {
    test('a partial-update SCD1 target: the statement sets the rows, and the next update applies its events on top by sequence', async () => {
        expect((await sqlJson('SELECT id, name, city FROM partial ORDER BY id')).rows).toEqual([
            { id: 1, name: 'Ada', city: 'London' }, { id: 2, name: 'Alan', city: 'Manchester' },
        ]);
        // A manual correction that clears a value: NULL is what the statement wrote, not "keep the old value".
        const updated = await sqlJson('UPDATE partial SET city = NULL WHERE id = 2');
        expect(updated.rows?.map(r => `${r.id} ${r.city} ${r._change_type}`).sort()).toEqual(['2 Manchester update_preimage', '2 null update_postimage']);
        expect(await sqlJson('DELETE FROM partial WHERE id = 1')).toMatchObject({ ok: true, rows: [{ id: 1, name: 'Ada', _change_type: 'delete' }] });
        expect(await sqlJson('INSERT INTO partial VALUES (3, \'Grace\', \'Arlington\')')).toMatchObject({ ok: true, rows: [{ id: 3, _change_type: 'insert' }] });
        expect((await sqlJson('SELECT id, name, city FROM partial ORDER BY id')).rows).toEqual([
            { id: 2, name: 'Alan', city: null }, { id: 3, name: 'Grace', city: 'Arlington' },
        ]);
        // Late events (older than the rows the statements wrote or removed) change nothing; a newer
        // partial update merges into the corrected row, a newer upsert brings the deleted key back.
        events('p2.jsonl', [
            { id: 1, name: 'Ada (late)', city: 'Paris', seq: 5, op: 'UPSERT' },
            { id: 2, name: 'Alan (late)', city: 'Leeds', seq: 9, op: 'UPSERT' },
            { id: 2, name: null, city: 'Cambridge', seq: 20, op: 'UPSERT' },
            { id: 1, name: 'Ada', city: null, seq: 20, op: 'UPSERT' },
        ]);
        const next = await cliRun('run', root, '--now', '2025-01-02 00:00:00');
        expect(next.code, next.stderr).toBe(0);
        expect((await sqlJson('SELECT id, name, city FROM partial ORDER BY id')).rows).toEqual([
            { id: 1, name: 'Ada', city: null }, { id: 2, name: 'Alan', city: 'Cambridge' }, { id: 3, name: 'Grace', city: 'Arlington' },
        ]);
        const history = await sqlJson('DESCRIBE HISTORY partial');
        expect(history.rows?.map(r => r.operation)).toEqual(['PIPELINE UPDATE', 'INSERT', 'DELETE', 'UPDATE', 'PIPELINE UPDATE', 'CREATE']);
        // Each statement and the run are whole CLI processes: minutes on a loaded machine.
    }, 300_000);

    test('MERGE on a partial-update SCD1 target', async () => {
        const merged = await sqlJson('MERGE INTO partial t USING (SELECT 3 AS id, \'Grace Hopper\' AS name) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name');
        expect(merged.rows?.map(r => `${r.id} ${r.name} ${r._change_type}`).sort()).toEqual(['3 Grace Hopper update_postimage', '3 Grace update_preimage']);
        expect((await sqlJson('SELECT name, city FROM partial WHERE id = 3')).rows).toEqual([{ name: 'Grace Hopper', city: 'Arlington' }]);
    }, 120_000);

    test.each([
        ['DELETE FROM bt WHERE id = 1', /^DELETE on the BITEMPORAL target 'bt' is not supported by the local engine: the specification does not say how a row written by DML would enter its system-time beliefs .* To see the effect of the correction locally, add it to the source as a change event with its business and system time and run an update\. DML runs on/],
        ['UPDATE snap SET name = \'x\'', /^UPDATE on 'snap', the target of an AUTO CDC FROM SNAPSHOT flow, is not supported by the local engine: .*diff against the next snapshot.* make it in the snapshot source and run an update/],
        ['UPDATE history SET city = NULL WHERE id = 2', /^UPDATE on the SCD type 2 target 'history' is not supported by the local engine: its AUTO CDC flow uses IGNORE NULL UPDATES or COLUMNS TO UPDATE.* add it to the source as a change event and run an update\./],
    ])('%s is refused with the reason and what to do instead, and changes nothing', async (statement, message) => {
        const target = /(?:FROM|UPDATE) (\w+)/.exec(statement)![1];
        const before = await sqlJson(`DESCRIBE HISTORY ${target}`);
        const refused = await sqlJson(statement);
        expect(refused).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_UNSUPPORTED_FEATURE' } });
        expect(refused.error?.message).toMatch(message);
        expect((await sqlJson(`DESCRIBE HISTORY ${target}`)).rows).toEqual(before.rows);
    }, 120_000);
});
