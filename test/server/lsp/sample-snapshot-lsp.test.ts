// The language server reads sample data asynchronously (a snapshot the schema lookups answer from):
// the columns of a sample table, a read_files folder and a Parquet file still reach the diagnostics
// it publishes, as `check` reports them, and a changed sample file is read again.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DidChangeWatchedFilesNotification, FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol/node.js';
import { checkPaths } from '../../../server/src/cli/check.js';
import { withDuckDB } from '../../helpers/duckdb.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;
const shown = (diagnostics: Diagnostic[]): string[] => diagnostics.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`).sort();

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-sample-snapshot-'));
    const write = (relative: string, text: string | Buffer): void => {
        fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
        fs.writeFileSync(file(relative), text);
    };
    write('spark-pipeline.yml', 'name: shop\nlibraries:\n  - glob:\n      include: transformations/**\n');
    write('samples/raw/orders.csv', 'order_id,amount\n1,10\n2,20\n');
    write('data/events/day1.json', '{"id": 1, "kind": "click"}\n');
    // A Parquet file of several megabytes: its footer is read from the file's tail, not its head.
    const parquet = file('samples/raw/parquet_table.parquet');
    await withDuckDB(db => db.run(`COPY (SELECT range AS id, md5(range::VARCHAR) AS digest FROM range(200000)) TO '${parquet}' (FORMAT parquet)`));
    expect(fs.statSync(parquet).size).toBeGreaterThan(2 * 1024 * 1024);
    write('transformations/orders.sql', [
        'CREATE MATERIALIZED VIEW totals AS SELECT sum(amout) AS total FROM raw.orders;',
        'CREATE MATERIALIZED VIEW kinds AS SELECT kindd FROM read_files(\'data/events\', format => \'json\');',
        'CREATE MATERIALIZED VIEW p AS SELECT id, digestt FROM raw.parquet_table;',
    ].join('\n') + '\n');
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('sample columns read asynchronously give the diagnostics check reports', async () => {
    const expected = (await checkPaths([dir])).map(d => `${d.line}:${d.column} ${d.code} ${d.message}`).sort();
    expect(expected.filter(d => d.includes('amout') || d.includes('kindd') || d.includes('digestt'))).toHaveLength(3);
    const published = await server.settled(uri('transformations/orders.sql'), p => shown(p.diagnostics).join('\n') === expected.join('\n'));
    expect(shown(published.diagnostics)).toEqual(expected);
});

test('a sample file changed on disk is read again', async () => {
    fs.writeFileSync(file('samples/raw/orders.csv'), 'order_id,amout\n1,10\n');
    const fixed = server.diagnostics(uri('transformations/orders.sql'), p => !shown(p.diagnostics).some(d => d.includes('amout')));
    await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('samples/raw/orders.csv'), type: FileChangeType.Changed }] });
    expect(shown((await fixed).diagnostics).some(d => d.includes('kindd'))).toBe(true);
});
