// The DuckDB instance of an update is locked to the folders the update needs (defence in depth
// behind the SQL builder, issue 9 item 1): even SQL that a translation bug let through cannot read
// or write elsewhere, attach another database, install or load an extension, or unlock itself.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/src/errors.js';
import { getFunction } from '../../../engine/src/spark/functions/catalog.js';
import type { FunctionSpec } from '../../../engine/src/spark/functions/local.js';
import { sql, str, type Sql } from '../../../engine/src/sql/sql.js';
import { StateStore } from '../../../engine/src/state/state-store.js';
import { call, catalogTable, col, materializedView, mvFlow, pipeline, select, table } from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

const workspaces: Workspace[] = [];
afterAll(() => workspaces.forEach(ws => ws.dispose()));

function workspace(): Workspace {
    const ws = new Workspace();
    workspaces.push(ws);
    return ws;
}

/** The error class of running `statement` on a state opened as an update opens it. */
async function refused(ws: Workspace, statement: Sql): Promise<string> {
    const store = await StateStore.open(ws.state, { readRoots: [ws.root] });
    try {
        await store.db.run(statement);
        return 'ran';
    } catch (error) {
        return error instanceof EngineError ? `${error.code}: ${error.message}` : String(error);
    } finally {
        store.close();
    }
}

describe('the DuckDB sandbox of an update', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-outside-'));
    afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));
    const secret = path.join(outside, 'secret.txt');
    fs.writeFileSync(secret, 'top secret\n');

    it.each([
        ['read_text of a file outside the pipeline', sql`SELECT * FROM read_text(${str(secret)})`],
        ['read_text of /etc/hostname', sql`SELECT * FROM read_text('/etc/hostname')`],
        ['read_csv of /etc/passwd', sql`SELECT * FROM read_csv('/etc/passwd', delim = ':')`],
        ['a glob outside the pipeline', sql`SELECT * FROM glob(${str(`${outside}/*`)})`],
        ['COPY ... TO a file outside', sql`COPY (SELECT 1) TO ${str(path.join(outside, 'x.csv'))}`],
        ['ATTACH of another database file', sql`ATTACH ${str(path.join(outside, 'other.duckdb'))} AS other`],
        ['INSTALL of an extension', sql`INSTALL httpfs`],
        ['LOAD of an extension', sql`LOAD httpfs`],
    ])('%s fails with PIPELINE_SQL_FILE_ACCESS_DENIED', async (_, statement) => {
        const ws = workspace();
        const outcome = await refused(ws, statement);
        expect(outcome).toMatch(/^PIPELINE_SQL_FILE_ACCESS_DENIED: /);
        expect(fs.readdirSync(outside).sort()).toEqual(['secret.txt']);
    });

    it.each([
        ['enable_external_access', sql`SET enable_external_access = true`],
        ['allowed_directories', sql`SET allowed_directories = ['/']`],
        ['temp_directory', sql`SET temp_directory = '/tmp'`],
        ['the lock itself', sql`SET lock_configuration = false`],
    ])('a query cannot change %s (the configuration is locked)', async (_, statement) => {
        const outcome = await refused(workspace(), statement);
        expect(outcome).toMatch(/locked|Cannot change configuration|Cannot enable external access/i);
    });

    it('a read through a symlink from inside the pipeline to outside is refused (DuckDB resolves the link)', async () => {
        const ws = workspace();
        fs.symlinkSync(outside, path.join(ws.root, 'link'));
        const outcome = await refused(ws, sql`SELECT * FROM read_text(${str(path.join(ws.root, 'link', 'secret.txt'))})`);
        expect(outcome).toMatch(/^PIPELINE_SQL_FILE_ACCESS_DENIED: /);
    });

    it('files inside the pipeline can be read, and the state folder written', async () => {
        const ws = workspace();
        const file = ws.write('data/x.csv', 'a\n1\n');
        const store = await StateStore.open(ws.state, { readRoots: [ws.root] });
        try {
            expect((await store.db.query(sql`SELECT * FROM read_csv(${str(file)})`)).rows).toEqual([[1n]]);
            await store.db.run(sql`COPY (SELECT 1) TO ${str(path.join(ws.state, 'scratch.csv'))}`);
            expect(fs.existsSync(path.join(ws.state, 'scratch.csv'))).toBe(true);
        } finally {
            store.close();
        }
    });
});

describe('an update whose translation went wrong still cannot leave its folders', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-update-'));
    afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));
    // The catalog row of pi() stands in for a buggy translation: its template is swapped for the test.
    const buggy = getFunction('pi')!.local as FunctionSpec;

    /** Runs `work` with pi()'s translation emitting `template` (a translation bug, for the test). */
    async function withBuggyFunction<T>(template: Sql, work: () => Promise<T>): Promise<T> {
        const original = buggy.sql;
        buggy.sql = () => template;
        try {
            return await work();
        } finally {
            buggy.sql = original;
        }
    }

    const catalog = [catalogTable('src', 'id INT', 'csv', 'src.csv')];
    const ir = pipeline([materializedView('m')], [mvFlow('m', select([[call('pi'), 'leak']], { from: [table('src')] }))], catalog);
    const before = pipeline([materializedView('m')], [mvFlow('m', select([col('id')], { from: [table('src')] }))], catalog);

    it('a query reading /etc/hostname fails the update, which keeps the previous state', async () => {
        const ws = workspace();
        ws.write('src.csv', 'id\n1\n');
        await ws.ok(before);
        const error = await withBuggyFunction(sql`(SELECT content FROM read_text('/etc/hostname'))`, () => ws.fails(ir));
        expect(error.class).toBe('PIPELINE_SQL_FILE_ACCESS_DENIED');
        expect(error.message).toContain('/etc/hostname');
        expect(await ws.tables(before)).toEqual({ m: [{ id: 1 }] });
    });

    it('a query writing a file outside the pipeline fails, and no file is written', async () => {
        const ws = workspace();
        ws.write('src.csv', 'id\n1\n');
        const target = path.join(outside, 'stolen.csv');
        // Statements of their own around the flow's query, as an injected `;` would make them (the
        // select list goes on with ` AS "leak" FROM ...`, which the last statement takes).
        const error = await withBuggyFunction(sql`1 AS "leak"; COPY (SELECT 1) TO ${str(target)}; SELECT 1`, () => ws.fails(ir));
        expect(error.class).toBe('PIPELINE_SQL_FILE_ACCESS_DENIED');
        expect(error.message).toContain(target);
        expect(fs.existsSync(target)).toBe(false);
    });

    it('a read_files of a path outside the pipeline is refused and nothing of it reaches the state', async () => {
        const ws = workspace();
        const secret = path.join(outside, 'users.csv');
        fs.writeFileSync(secret, 'name:uid\nroot:0\n');
        const readFiles = pipeline([materializedView('m')], [mvFlow('m', select(['*'], {
            from: [{ kind: 'table', source: { kind: 'read_files', path: secret, options: { format: 'csv', delimiter: ':' } }, streaming: false }],
        }))]);
        const error = await ws.fails(readFiles);
        expect(['PIPELINE_SQL_FILE_ACCESS_DENIED', 'PIPELINE_SQL_READ_OUTSIDE_PIPELINE']).toContain(error.class);
        expect(await ws.tables(readFiles)).toEqual({});
    });
});
