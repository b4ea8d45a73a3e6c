// Sample data as a user of the CLI meets it: bad data files are reported once, as file:line and
// DuckDB's cause (issue 14 item 8), and reads outside the pipeline are refused by `run` and reported
// by `check` (issue 9 item 3).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkPaths } from '../../../server/src/cli/check.js';
import { runCommand } from '../../../server/src/cli/run.js';

let root: string;
let outside: string;

function write(relative: string, text: string | Buffer): string {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
}

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCommand(args, { out: t => { out += t; }, err: t => { err += t; }, progress: false });
    return { code, out, err };
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-samples-cli-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-outside-')));
    write('spark-pipeline.yml', 'name: shop\nlibraries:\n  - glob:\n      include: transformations/**\n');
});

afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
});

describe('bad sample data: file:line and the cause, once', () => {
    test('an unterminated CSV quote', async () => {
        write('transformations/orders.sql', 'CREATE MATERIALIZED VIEW orders AS SELECT * FROM raw.orders;\n');
        write('samples/catalog.sql', "CREATE TABLE raw.orders (id INT, note STRING) USING CSV LOCATION 'raw/orders.csv';\n");
        const file = write('samples/raw/orders.csv', 'id,note\n1,a\n2,b\n3,c\n4,d\n5,"unterminated\n6,f\n');
        const { code, err } = await run(root);
        expect(code).toBe(1);
        expect(err.startsWith(`${file}:6: error PIPELINE_SQL_BAD_SAMPLE_DATA (flow 'orders', dataset 'orders')\n`
            + "  Bad sample data for 'raw.orders': Value with unterminated quote found.\n")).toBe(true);
        expect(occurrences(err, file)).toBe(1);
    });

    test('a stray quote in JSON Lines names the line, not a byte offset', async () => {
        write('transformations/orders.sql', 'CREATE MATERIALIZED VIEW orders AS SELECT * FROM raw.events;\n');
        write('samples/catalog.sql', "CREATE TABLE raw.events (id INT, name STRING) USING JSON LOCATION 'raw/events';\n");
        const file = write('samples/raw/events/part-1.jsonl', '{"id": 1, "name": "a"}\n{"id": 2, "name": "b""}\n');
        const { code, err } = await run(root);
        expect(code).toBe(1);
        expect(err.startsWith(`${file}:2: error PIPELINE_SQL_BAD_SAMPLE_DATA (flow 'orders', dataset 'orders')\n`
            + "  Bad sample data for 'raw.events': Malformed JSON: Expected ',' or '}', found a quote (\") (column 22)\n")).toBe(true);
        expect(occurrences(err, file)).toBe(1);
        const json = await run(root, '--json');
        expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 2 } });
    });
});

describe('reads outside the pipeline', () => {
    test('a symlinked sample file: run refuses it at the reading statement, check reports it as an error', async () => {
        fs.writeFileSync(path.join(outside, 'users.csv'), 'id,secret\n1,top\n');
        const sql = write('transformations/users.sql', 'CREATE MATERIALIZED VIEW users AS\nSELECT * FROM app.users;\n');
        fs.mkdirSync(path.join(root, 'samples', 'app'), { recursive: true });
        fs.symlinkSync(path.join(outside, 'users.csv'), path.join(root, 'samples', 'app', 'users.csv'));

        const checked = await checkPaths([root]);
        expect(checked.map(d => `${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(['2:15 error PIPELINE_SQL_READ_OUTSIDE_PIPELINE']);
        expect(checked[0].message).toContain('--allow-read DIR');

        const { code, out } = await run(root, '--json');
        expect(code).toBe(1);
        // `run` checks first: the same error stops it before anything is read.
        expect(JSON.parse(out)).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_READ_OUTSIDE_PIPELINE', file: sql, line: 2 } });
        expect(fs.existsSync(path.join(root, '.pipeline-sql'))).toBe(false);
    });

    test('a folder the user allowed: check infers the symlinked sample file and reports nothing, as run reads it', async () => {
        fs.writeFileSync(path.join(outside, 'users.csv'), 'id,secret\n1,top\n');
        write('transformations/users.sql', 'CREATE MATERIALIZED VIEW users AS\nSELECT id, secret FROM app.users;\n');
        fs.mkdirSync(path.join(root, 'samples', 'app'), { recursive: true });
        fs.symlinkSync(path.join(outside, 'users.csv'), path.join(root, 'samples', 'app', 'users.csv'));

        expect(await checkPaths([root], { allowedReadPaths: [outside] })).toEqual([]);
        const { code, out } = await run(root, '--allow-read', outside, '--json');
        expect(code).toBe(0);
        expect(JSON.parse(out)).toMatchObject({ ok: true });
    });

    test('read_files outside the root: check warns (it may exist where the pipeline runs), run refuses it', async () => {
        fs.writeFileSync(path.join(outside, 'rows.csv'), 'id\n1\n');
        const sql = write('transformations/rows.sql', `CREATE MATERIALIZED VIEW rows AS SELECT * FROM read_files('${outside}/rows.csv');\n`);
        const checked = await checkPaths([root]);
        expect(checked.map(d => `${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(['1:59 warning PIPELINE_SQL_READ_OUTSIDE_PIPELINE']);
        const { code, out } = await run(root, '--json');
        expect(code).toBe(1);
        expect(JSON.parse(out)).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_READ_OUTSIDE_PIPELINE', file: sql, line: 1 } });
    });
});
