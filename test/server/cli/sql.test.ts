// `pipeline-sql sql <root> "<statement>"` (issue 12): queries, DESCRIBE HISTORY and DML on the local
// state of a pipeline, through the built CLI as a user runs it.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../../helpers/parse.js';

const run = promisify(execFile);
const cli = path.join(repoRoot, 'out', 'cli.cjs');

async function cliRun(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
        const { stdout, stderr } = await run(process.execPath, [cli, ...args]);
        return { code: 0, stdout, stderr };
    } catch (error) {
        const e = error as { code?: number; stdout?: string; stderr?: string };
        return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
}

async function json(...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await cliRun('sql', root, ...args, '--json');
    return JSON.parse(stdout) as Record<string, unknown>;
}

let root: string;

beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-sql-'));
    fs.mkdirSync(path.join(root, 'transformations'));
    fs.mkdirSync(path.join(root, 'samples', 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'), 'CREATE TABLE src (id INT, name STRING, seq INT, op STRING) USING JSON LOCATION \'src\';\n');
    fs.writeFileSync(path.join(root, 'samples', 'src', 'p1.jsonl'), '{"id":1,"name":"a","seq":1,"op":"UPSERT"}\n{"id":2,"name":"b","seq":1,"op":"UPSERT"}\n');
    fs.writeFileSync(path.join(root, 'transformations', 'p.sql'), [
        'CREATE OR REFRESH STREAMING TABLE bronze AS SELECT id, name FROM STREAM(src);',
        'CREATE OR REFRESH MATERIALIZED VIEW counts AS SELECT count(*) AS n FROM bronze;',
        'CREATE OR REFRESH STREAMING TABLE users;',
        'CREATE FLOW users_cdc AS AUTO CDC INTO users FROM STREAM(src) KEYS (id) APPLY AS DELETE WHEN op = \'DELETE\' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);',
        'CREATE OR REFRESH STREAMING TABLE hist;',
        'CREATE FLOW hist_cdc AS AUTO CDC INTO hist FROM STREAM(src) KEYS (id) APPLY AS DELETE WHEN op = \'DELETE\' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;',
    ].join('\n'));
    const first = await cliRun('run', root, '--now', '2025-01-01 00:00:00');
    expect(first.code, first.stderr).toBe(0);
}, 120_000);

afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
});

describe('pipeline-sql sql', () => {
    test('a SELECT over a dataset and a sample table prints a table like run', async () => {
        const { code, stdout } = await cliRun('sql', root, 'SELECT b.id, b.name, s.seq FROM bronze b JOIN src s ON b.id = s.id ORDER BY b.id');
        expect(code).toBe(0);
        expect(stdout).toBe('  id  name  seq\n  --  ----  ---\n   1  a       1\n   2  b       1\n2 rows\n');
    });

    test('DESCRIBE HISTORY lists the versions newest first; DML adds one with its commit time and feed', async () => {
        const deleted = await json('DELETE FROM bronze WHERE id = 1', '--now', '2025-01-02 00:00:00');
        expect(deleted).toMatchObject({
            ok: true, kind: 'delete', dataset: 'bronze', rows: [{ id: 1, name: 'a', _change_type: 'delete' }],
            version: { version: 2, timestamp: '2025-01-02 00:00:00', operation: 'DELETE', metrics: { numDeletedRows: 1 } },
        });
        const history = await json('DESCRIBE HISTORY bronze');
        expect((history.rows as { version: number; operation: string }[]).map(r => `${r.version} ${r.operation}`)).toEqual(['2 DELETE', '1 PIPELINE UPDATE', '0 CREATE']);
        const inserted = await json('INSERT INTO bronze (id, name) VALUES (123, \'John Doe\')', '--now', '2025-01-02 01:00:00');
        expect(inserted).toMatchObject({ version: { version: 3, operation: 'INSERT' }, rows: [{ id: 123, name: 'John Doe', _change_type: 'insert' }] });
        const changes = await json('SELECT id, _change_type, _commit_version FROM table_changes(\'bronze\', 2) ORDER BY _commit_version');
        expect(changes.rows).toEqual([{ id: 1, _change_type: 'delete', _commit_version: 2 }, { id: 123, _change_type: 'insert', _commit_version: 3 }]);
    });

    test('a statement from a file (-f)', async () => {
        const file = path.join(root, 'q.sql');
        fs.writeFileSync(file, 'SELECT n FROM counts');
        const { code, stdout } = await cliRun('sql', root, '-f', file);
        expect(code).toBe(0);
        expect(stdout).toContain('  n\n  -\n  2\n1 row\n');
    });

    test.each([
        ['UPDATE counts SET n = 0', 'PIPELINE_SQL_DML_NOT_ALLOWED', /cannot change 'counts': it is a materialized view/],
        ['INSERT INTO users VALUES (2, \'dup\')', 'PIPELINE_SQL_DML_NOT_ALLOWED', /two rows with one key in 'users', e.g. \{"id":2,"rows":2\}; an SCD type 1 target has one row per key/],
        ['INSERT INTO hist (id, name, __START_AT, __END_AT) VALUES (9, \'x\', NULL, NULL)', 'PIPELINE_SQL_INVALID_SCD2_ROW', /"id":9.* needs a __START_AT and, when closed, an __END_AT after it/],
        ['INSERT INTO hist (id, name, __START_AT, __END_AT) VALUES (9, \'x\', 5, 5)', 'PIPELINE_SQL_INVALID_SCD2_ROW', /needs a __START_AT and, when closed, an __END_AT after it/],
        ['UPDATE hist SET __END_AT = 0 WHERE id = 1', 'PIPELINE_SQL_INVALID_SCD2_ROW', /"id":1,"name":"a","__START_AT":1,"__END_AT":0\} into the SCD type 2 target 'hist'/],
        ['INSERT INTO hist (id, name, city) VALUES (1, \'a\', \'x\')', 'PIPELINE_SQL_SCHEMA_MISMATCH', /writes the column 'city', which it does not have \(DML does not change a table's schema\)/],
        ['UPDATE bronze SET city = \'x\'', 'PIPELINE_SQL_SCHEMA_MISMATCH', /has no such column \(DML does not change a table's schema\)/],
        ['INSERT INTO bronze (id, name, city) VALUES (1, \'a\', \'x\')', 'PIPELINE_SQL_SCHEMA_MISMATCH', /city/],
        ['DELETE FROM src', 'PIPELINE_SQL_UNSUPPORTED_FEATURE', /'src' is not a dataset of this pipeline/],
        ['SELECT * FROM table_changes(\'bronze\', 9)', 'PIPELINE_SQL_CDC_VERSION_AFTER_LATEST', /start version 9 .* cannot be after the latest version of the table \(3\)/],
        ['SELECT * FROM table_changes(\'bronze\', 2, 1)', 'DELTA_INVALID_CDC_RANGE', /from version 2 to 1 is invalid/],
        ['SELECT * FROM table_changes(\'bronze\', \'2030-01-01 00:00:00\')', 'DELTA_TIMESTAMP_GREATER_THAN_COMMIT', /after the latest version of 'bronze'/],
        ['SELEC 1', 'PARSE_SYNTAX_ERROR', /Unexpected 'SELEC'/],
        ['MERGE INTO users t USING (SELECT 1 AS id UNION ALL SELECT 1) s ON t.id = s.id WHEN MATCHED THEN DELETE', 'DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE', /a row of 'users' that 2 source rows match/],
        ['MERGE INTO users t USING src s ON t.id = s.id WHEN MATCHED THEN INSERT *', 'PIPELINE_SQL_UNSUPPORTED_FEATURE', /INSERT is the action of WHEN NOT MATCHED \[BY TARGET\] only/],
        ['MERGE INTO hist t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *', 'PIPELINE_SQL_SCHEMA_MISMATCH', /INSERT \* needs the source column '__START_AT' of 'hist'/],
        ['MERGE INTO users t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET city = s.name', 'PIPELINE_SQL_SCHEMA_MISMATCH', /cannot set 'city': 'users' has no such column/],
        ['MERGE WITH SCHEMA EVOLUTION INTO users t USING src s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *', 'PIPELINE_SQL_UNSUPPORTED_FEATURE', /DML does not change a table's schema/],
        ['MERGE INTO counts t USING src s ON t.n = s.id WHEN MATCHED THEN DELETE', 'PIPELINE_SQL_DML_NOT_ALLOWED', /cannot change 'counts': it is a materialized view/],
    ])('%s fails with %s and a clear message', async (statement, errorClass, message) => {
        const { code, stdout } = await cliRun('sql', root, statement, '--json');
        expect(code).toBe(1);
        const output = JSON.parse(stdout) as { ok: boolean; error: { class: string; message: string } };
        expect(output.error.class).toBe(errorClass);
        expect(output.error.message).toMatch(message);
    });

    test('a failed DML statement changes nothing', async () => {
        const before = await json('SELECT count(*) AS n FROM bronze');
        await cliRun('sql', root, 'UPDATE bronze SET id = 1 / 0');
        expect(await json('SELECT count(*) AS n FROM bronze')).toMatchObject({ rows: (before as { rows: unknown }).rows });
        const history = await json('DESCRIBE HISTORY bronze');
        expect((history.rows as unknown[]).length).toBe(4);
    });

    test('no statement is a usage error (exit 2)', async () => {
        const { code, stderr } = await cliRun('sql', root);
        expect(code).toBe(2);
        expect(stderr).toContain('sql needs a statement');
    });

    test('DML on AUTO CDC targets: the next update applies its events on top by sequence', async () => {
        // A GDPR delete on the SCD1 target: a tombstone at the sequence of the row it removed (1).
        expect(await json('DELETE FROM users WHERE id = 1', '--now', '2025-01-05 00:00:00')).toMatchObject({
            ok: true, kind: 'delete', dataset: 'users', rows: [{ id: 1, name: 'a', _change_type: 'delete' }], version: { operation: 'DELETE', metrics: { numDeletedRows: 1 } },
        });
        // A row inserted into the SCD2 target is an upsert event at its __START_AT: it closes the open version of key 2.
        const inserted = await json('INSERT INTO hist (id, name, __START_AT, __END_AT) VALUES (2, \'John Doe\', 5, NULL)');
        expect((inserted.rows as Record<string, unknown>[]).map(r => `${r.name} ${r.__START_AT}..${r.__END_AT} ${r._change_type}`).sort())
            .toEqual(['John Doe 5..null insert', 'b 1..5 update_postimage', 'b 1..null update_preimage']);
        const overlap = await cliRun('sql', root, 'UPDATE hist SET __END_AT = 6 WHERE id = 2 AND __START_AT = 1');
        expect(overlap.code).toBe(1);
        expect(overlap.stderr).toMatch(/PIPELINE_SQL_INVALID_SCD2_ROW UPDATE would leave overlapping versions in the SCD type 2 target 'hist', e.g. \{"id":2,"name":"b","__START_AT":1,"__END_AT":6\}/);
        fs.writeFileSync(path.join(root, 'samples', 'src', 'p2.jsonl'),
            '{"id":1,"name":"late","seq":0,"op":"UPSERT"}\n{"id":2,"name":"c","seq":3,"op":"UPSERT"}\n{"id":2,"name":"d","seq":7,"op":"UPSERT"}\n');
        const next = await cliRun('run', root, '--now', '2025-01-06 00:00:00');
        expect(next.code, next.stderr).toBe(0);
        expect((await json('SELECT id, name FROM users ORDER BY id')).rows).toEqual([{ id: 2, name: 'd' }]);
        expect((await json('SELECT name, __START_AT, __END_AT FROM hist WHERE id = 2 ORDER BY __START_AT')).rows).toEqual([
            { name: 'b', __START_AT: 1, __END_AT: 3 }, { name: 'c', __START_AT: 3, __END_AT: 5 }, { name: 'John Doe', __START_AT: 5, __END_AT: 7 }, { name: 'd', __START_AT: 7, __END_AT: null },
        ]);
        const history = await json('DESCRIBE HISTORY hist');
        expect((history.rows as { version: number; operation: string }[]).map(r => `${r.version} ${r.operation}`)).toEqual(['3 PIPELINE UPDATE', '2 INSERT', '1 PIPELINE UPDATE', '0 CREATE']);
    });

    test('MERGE on a streaming table, an SCD1 and an SCD2 target: one version each, the feed of what it changed', async () => {
        // bronze has one row with id 123 (inserted above) and one named 'late' (read by the second run).
        const merged = await json('MERGE INTO bronze AS t USING (SELECT 123 AS id, \'Jane Doe\' AS name UNION ALL SELECT 50, \'fifty\') AS s ON t.id = s.id '
            + 'WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE AND t.name = \'late\' THEN DELETE', '--now', '2025-01-07 00:00:00');
        expect(merged).toMatchObject({ ok: true, kind: 'merge', dataset: 'bronze', version: { operation: 'MERGE', timestamp: '2025-01-07 00:00:00', metrics: { numInsertedRows: 1, numUpdatedRows: 1, numDeletedRows: 1 } } });
        expect((merged.rows as Record<string, unknown>[]).map(r => `${r.id} ${r.name} ${r._change_type}`).sort())
            .toEqual(['1 late delete', '123 Jane Doe update_postimage', '123 John Doe update_preimage', '50 fifty insert']);
        expect((await json('SELECT id, name FROM bronze WHERE id IN (1, 50, 123) ORDER BY id')).rows).toEqual([{ id: 50, name: 'fifty' }, { id: 123, name: 'Jane Doe' }]);
        // SCD1: a matched key is updated in place (its sequence kept), an unmatched one inserted.
        const users = await json('MERGE INTO users t USING (SELECT 2 AS id, \'Dee\' AS name UNION ALL SELECT 60, \'sixty\') s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *');
        expect((users.rows as Record<string, unknown>[]).map(r => `${r.id} ${r.name} ${r._change_type}`).sort())
            .toEqual(['2 Dee update_postimage', '2 d update_preimage', '60 sixty insert']);
        // SCD2: closing the open version of key 2 at 9 leaves it without a current row.
        const hist = await json('MERGE INTO hist t USING (SELECT 2 AS id) s ON t.id = s.id AND t.__END_AT IS NULL WHEN MATCHED THEN UPDATE SET __END_AT = 9');
        expect(hist.rows).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'd', __START_AT: 7, __END_AT: 9, _change_type: 'update_postimage' })]));
        expect((await json('SELECT count(*) AS open FROM hist WHERE id = 2 AND __END_AT IS NULL')).rows).toEqual([{ open: 0 }]);
    });
});
