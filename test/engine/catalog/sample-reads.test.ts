// Sample reads with real files and a real DuckDB: reads stay inside the pipeline (one test per kind
// of path), only regular files are read, formats by extension (gzip CSV, TSV) or a clear error, data
// the engine must not get wrong (UTC offsets, touched files, large values), and reader errors that
// keep DuckDB's cause and name the file and line once, relative to the pipeline.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { TableRelationIR } from '../../../engine/src/ir.js';
import { appendFlow, catalogTable, materializedView, mvFlow, pipeline, selectStar, stream, streamingTable, table } from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

let ws: Workspace;
const outside: string[] = [];
afterEach(() => {
    ws?.dispose();
    outside.splice(0).forEach(dir => fs.rmSync(dir, { recursive: true, force: true }));
});

/** A folder outside the pipeline, with one CSV file in it. */
function outsideFolder(): { dir: string; file: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
    outside.push(dir);
    const file = path.join(dir, 'secret.csv');
    fs.writeFileSync(file, 'id,secret\n1,top\n');
    return { dir, file };
}

const readFiles = (filePath: string, options: Record<string, string | number | boolean> = {}): TableRelationIR =>
    ({ kind: 'table', source: { kind: 'read_files', path: filePath, options }, streaming: false, alias: 'f', span: { file: 'pipeline.sql', line: 7, column: 15, endLine: 7, endColumn: 40 } });

const mvOf = (relation: TableRelationIR, catalog = [] as ReturnType<typeof catalogTable>[]) =>
    pipeline([materializedView('m')], [mvFlow('m', selectStar(relation))], catalog);

describe('reads stay inside the pipeline', () => {
    it('LOCATION \'../../x.csv\' in samples/*.sql is refused at the declaration, naming the path and --allow-read', async () => {
        ws = new Workspace();
        const { file } = outsideFolder();
        const relative = path.relative(ws.samples, file);
        const declaration = catalogTable('x.y', undefined, 'csv', relative);
        const error = await ws.fails(mvOf(table('x.y'), [declaration]));
        expect(error.class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
        expect(error.file).toBe(declaration.span.file);
        expect(error.line).toBe(declaration.span.line);
        expect(error.message).toContain(`'${file}' is outside the pipeline folder '${ws.root}'`);
        expect(error.message).toContain('--allow-read DIR');
        expect(error.message).toContain('pipelineSql.run.allowedPaths');
    });

    it('read_files(\'/abs\') is refused at the read_files call', async () => {
        ws = new Workspace();
        const { file } = outsideFolder();
        const error = await ws.fails(mvOf(readFiles(file, { format: 'csv' })));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_READ_OUTSIDE_PIPELINE', file: 'pipeline.sql', line: 7 });
        expect(error.message).toMatch(/^read_files\('.*secret\.csv'\): '.*secret\.csv' is outside the pipeline folder/);
    });

    it('read_files(\'file:///...\') is refused like the path it names', async () => {
        ws = new Workspace();
        const { file } = outsideFolder();
        const error = await ws.fails(mvOf(readFiles(`file://${file}`, { format: 'csv' })));
        expect(error.class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
        expect(error.message).toContain(`'${file}' is outside`);
    });

    it('read_files(\'../x\') relative to the root is refused when it leaves the root', async () => {
        ws = new Workspace();
        const { file } = outsideFolder();
        const error = await ws.fails(mvOf(readFiles(path.relative(ws.root, file))));
        expect(error.class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
    });

    it('a symlinked sample file (to /etc/passwd, read as CSV with delimiter \':\') is refused, nothing is copied into the state', async () => {
        ws = new Workspace();
        fs.mkdirSync(path.join(ws.samples, 'sys'), { recursive: true });
        fs.symlinkSync('/etc/passwd', path.join(ws.samples, 'sys', 'users.csv'));
        const error = await ws.fails(mvOf(table('sys.users'), [catalogTable('sys.users', undefined, 'csv', 'sys/users.csv', { delimiter: ':', header: 'false' })]));
        expect(error.class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
        expect(error.message).toContain("'samples/sys/users.csv' (it resolves to '/etc/passwd') is outside the pipeline folder");
        const firstLine = fs.readFileSync('/etc/passwd', 'utf8').split('\n')[0];
        const state = path.join(ws.state, 'state.duckdb');
        expect(fs.existsSync(state) && fs.readFileSync(state).includes(firstLine)).toBe(false);
    });

    it('a symlinked sample folder is refused, and so is a symlinked file inside a sample folder', async () => {
        ws = new Workspace();
        const { dir, file } = outsideFolder();
        fs.mkdirSync(path.join(ws.samples, 'raw'), { recursive: true });
        fs.symlinkSync(dir, path.join(ws.samples, 'raw', 'leak'));
        expect((await ws.fails(mvOf(table('raw.leak')))).class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
        fs.mkdirSync(path.join(ws.samples, 'raw', 'feed'));
        fs.writeFileSync(path.join(ws.samples, 'raw', 'feed', 'a.csv'), 'id,secret\n2,no\n');
        fs.symlinkSync(file, path.join(ws.samples, 'raw', 'feed', 'b.csv'));
        const error = await ws.fails(mvOf(table('raw.feed')));
        expect(error.class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
        expect(error.message).toContain("'samples/raw/feed/b.csv' (it resolves to");
    });

    it('a symlink that stays inside the pipeline is read', async () => {
        ws = new Workspace();
        ws.write('../data/users.csv', 'id\n1\n');
        fs.mkdirSync(path.join(ws.samples, 'app'), { recursive: true });
        fs.symlinkSync(path.join(ws.root, 'data', 'users.csv'), path.join(ws.samples, 'app', 'users.csv'));
        expect((await ws.ok(mvOf(table('app.users')))).datasets.m.rows).toEqual([{ id: 1 }]);
    });

    it('a folder passed in readRoots is allowed', async () => {
        ws = new Workspace();
        const { dir, file } = outsideFolder();
        const result = await ws.ok(mvOf(readFiles(file)), { readRoots: [ws.root, dir] });
        expect(result.datasets.m.rows).toEqual([{ id: 1, secret: 'top', _rescued_data: null }]);
    });
});

describe('only regular files, formats by name', () => {
    it('a FIFO as a sample file is refused at once instead of blocking the run', async () => {
        ws = new Workspace();
        fs.mkdirSync(path.join(ws.samples, 'raw'), { recursive: true });
        const fifo = path.join(ws.samples, 'raw', 'events.csv');
        execFileSync('mkfifo', [fifo]);
        const started = Date.now();
        const error = await ws.fails(mvOf(table('raw.events')));
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file: fifo });
        expect(error.message).toBe("Bad sample data for 'raw.events': a named pipe (FIFO), not a regular file: only regular files are read as sample data");
    });

    it('a device as a sample file is refused', async () => {
        ws = new Workspace();
        fs.mkdirSync(path.join(ws.samples, 'raw'), { recursive: true });
        fs.symlinkSync('/dev/zero', path.join(ws.samples, 'raw', 'zeros.csv'));
        const error = await ws.fails(mvOf(table('raw.zeros')), { readRoots: [ws.root, '/dev'] });
        expect(error.message).toContain('a device, not a regular file');
    });

    it('gzip-compressed CSV (users.csv.gz) is read', async () => {
        ws = new Workspace();
        ws.write('crm/users.csv.gz', zlib.gzipSync('id,name\n1,Ann\n2,Bob\n'));
        const result = await ws.ok(mvOf(table('crm.users')));
        expect(result.datasets.m.columns).toEqual([{ name: 'id', type: 'BIGINT' }, { name: 'name', type: 'STRING' }]);
        expect(result.datasets.m.rows).toEqual([{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }]);
    });

    it('TSV is read with a tab delimiter', async () => {
        ws = new Workspace();
        ws.write('crm/visits.tsv', 'id\tpage\n1\t/home, page\n');
        expect((await ws.ok(mvOf(table('crm.visits')))).datasets.m.rows).toEqual([{ id: 1, page: '/home, page' }]);
    });

    it('read_files of a .txt file without a format is a clear error; with format => \'csv\' it is read', async () => {
        ws = new Workspace();
        ws.write('../data/users.txt', 'id\n1\n');
        const error = await ws.fails(mvOf(readFiles('data/users.txt')));
        expect(error.class).toBe('PIPELINE_SQL_UNSUPPORTED_FEATURE');
        expect(error.message).toContain("Cannot tell the format of 'data/users.txt' from its name");
        expect((await ws.ok(mvOf(readFiles('data/users.txt', { format: 'csv' })))).datasets.m.rows).toEqual([{ id: 1, _rescued_data: null }]);
    });

    it('JSON nested more deeply than schema inference follows is an error naming the file and line', async () => {
        ws = new Workspace();
        const file = ws.write('deep/doc.json', '{"a": 1}\n{"a": ' + '['.repeat(50_000) + ']'.repeat(50_000) + '}\n');
        const error = await ws.fails(mvOf(table('deep.doc')));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 2 });
        expect(error.message).toContain('nested more than 64 levels deep');
    });
});

describe('data the engine must not get wrong', () => {
    it('a timestamp with a UTC offset in a CSV or JSON file is that instant in UTC (10:00+02:00 is 08:00)', async () => {
        ws = new Workspace();
        ws.write('ev/csv.csv', 'id,at\n1,2025-01-04T10:00:00+02:00\n2,2025-01-04 10:00:00\n3,2025-01-04T10:00:00Z\n');
        ws.write('ev/json.jsonl', '{"id": 1, "at": "2025-01-04T10:00:00+02:00"}\n{"id": 2, "at": "2025-01-04T10:00:00-05:30"}\n');
        const csv = await ws.ok(mvOf(table('ev.csv')));
        expect(csv.datasets.m.columns[1]).toEqual({ name: 'at', type: 'TIMESTAMP' });
        expect(csv.datasets.m.rows).toEqual([
            { id: 1, at: '2025-01-04 08:00:00' }, { id: 2, at: '2025-01-04 10:00:00' }, { id: 3, at: '2025-01-04 10:00:00' },
        ]);
        const json = await ws.ok(mvOf(table('ev.json')));
        expect(json.datasets.m.rows).toEqual([{ id: 1, at: '2025-01-04 08:00:00' }, { id: 2, at: '2025-01-04 15:30:00' }]);
    });

    it('a declared TIMESTAMP column applies the offset too', async () => {
        ws = new Workspace();
        ws.write('ev/x.csv', 'at\n2025-01-04T10:00:00+02:00\n');
        const result = await ws.ok(mvOf(table('ev.x'), [catalogTable('ev.x', 'at TIMESTAMP', 'csv', 'ev/x.csv')]));
        expect(result.datasets.m.rows).toEqual([{ at: '2025-01-04 08:00:00' }]);
    });

    it('touch on a file a streaming flow already read does not block later updates; an edit of the same size does', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('s')], [appendFlow('s', 's', selectStar(stream('feed')))], [catalogTable('feed', 'id INT', 'json')]);
        const file = ws.append('feed', [{ id: 1 }]);
        await ws.ok(ir);
        const later = new Date(Date.now() + 60_000);
        fs.utimesSync(file, later, later);
        ws.append('feed', [{ id: 2 }]);
        const second = await ws.ok(ir);
        expect(second.metrics.s.num_output_rows).toBe(1);
        // And the touched file's new time is remembered: a third update reads nothing new and still succeeds.
        expect((await ws.ok(ir)).metrics.s.num_output_rows ?? 0).toBe(0);
        fs.writeFileSync(file, '{"id": 7}\n');
        fs.utimesSync(file, later, new Date(Date.now() + 120_000));
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_STREAMING_SOURCE_CHANGED', file });
        expect(error.message).toContain(`'samples/feed/${path.basename(file)}'`);
    });

    it('a CSV value over 2 MB is read', async () => {
        ws = new Workspace();
        const big = 'x'.repeat(3_000_000);
        ws.write('blob/docs.csv', `id,body\n1,${big}\n2,small\n`);
        const result = await ws.ok(mvOf(table('blob.docs')), { limit: 5 });
        expect((result.datasets.m.rows[0] as { body: string }).body.length).toBe(3_000_000);
    });
});

describe('reader errors keep their cause and name the file and line once', () => {
    const csvCase = async (content: string | Buffer): Promise<{ file: string; error: Awaited<ReturnType<Workspace['fails']>> }> => {
        ws = new Workspace();
        const file = ws.write('raw/rows.csv', content);
        const error = await ws.fails(mvOf(table('raw.rows'), [catalogTable('raw.rows', 'id INT, name STRING', 'csv')]));
        return { file, error };
    };

    it('invalid UTF-8 in a CSV file: DuckDB\'s reason, the file (not "is") and the line', async () => {
        const { file, error } = await csvCase(Buffer.concat([Buffer.from('id,name\n1,a\n2,'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 3 });
        expect(error.message).toBe("Bad sample data for 'raw.rows': Invalid unicode (byte sequence mismatch) detected. This file is not utf-8 encoded.");
    });

    it('an unterminated CSV quote says so, with its line', async () => {
        const { file, error } = await csvCase('id,name\n1,a\n2,b\n3,c\n4,d\n5,"unterminated\n6,f\n');
        expect(error).toMatchObject({ file, line: 6 });
        expect(error.message).toBe("Bad sample data for 'raw.rows': Value with unterminated quote found.");
    });

    it('a CSV value of the wrong type names the column and value', async () => {
        const { file, error } = await csvCase('id,name\n1,a\nx,b\n');
        expect(error).toMatchObject({ file, line: 3 });
        expect(error.message).toBe('Bad sample data for \'raw.rows\': Error when converting column "id". Could not convert string "x" to \'INTEGER\'');
    });

    it('a stray quote in JSON Lines gives the file, the line and what was expected, and no absolute path', async () => {
        ws = new Workspace();
        const file = ws.write('feed/part-1.jsonl', '{"id": 1, "name": "a"}\n{"id": 2, "name": "b""}\n{"id": 3, "name": "c"}\n');
        const error = await ws.fails(mvOf(table('feed'), [catalogTable('feed', 'id INT, name STRING', 'json')]));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 2 });
        expect(error.message).toBe("Bad sample data for 'feed': Malformed JSON: Expected ',' or '}', found a quote (\") (column 22)");
        expect(error.message).not.toContain(ws.root);
    });

    it('an inferred schema reports a malformed JSON file before any read, with file and line', async () => {
        ws = new Workspace();
        const file = ws.write('feed/part-1.jsonl', '{"id": 1}\n{"id": 2,}\n');
        const error = await ws.fails(mvOf(table('feed')));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 2 });
        expect(error.message).toBe("Bad sample data for 'feed': Expected a key in quotes, found '}' (column 10)");
    });
});
