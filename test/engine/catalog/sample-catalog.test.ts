// The local sample catalog: naming conventions, declared and inferred types, CSV / JSON / Parquet,
// read_files, append-only folders for streaming reads, and errors naming the data file and line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withDuckDB } from '../../helpers/duckdb.js';
import type { TableRelationIR } from '../../../engine/src/ir.js';
import {
    appendFlow, catalogTable, col, materializedView, mvFlow, pipeline, select, selectStar, stream, streamingTable, table,
} from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const readFiles = (filePath: string, options: Record<string, string | number | boolean> = {}, streaming = false): TableRelationIR =>
    ({ kind: 'table', source: { kind: 'read_files', path: filePath, options }, streaming, alias: 'f' });

const mvOf = (relation: TableRelationIR, catalog = [] as ReturnType<typeof catalogTable>[]) =>
    pipeline([materializedView('m')], [mvFlow('m', selectStar(relation))], catalog);

describe('sample catalog', () => {
    it('`a.b` resolves to samples/a/b.csv with inferred types', async () => {
        ws = new Workspace();
        ws.write('shop/orders.csv', 'id,amount,day\n1,2.5,2024-01-01\n2,3.0,2024-01-02\n');
        const result = await ws.ok(mvOf(table('shop.orders')));
        expect(result.datasets.m.columns).toEqual([{ name: 'id', type: 'BIGINT' }, { name: 'amount', type: 'DOUBLE' }, { name: 'day', type: 'DATE' }]);
        expect(result.datasets.m.rows).toEqual([{ id: 1, amount: 2.5, day: '2024-01-01' }, { id: 2, amount: 3, day: '2024-01-02' }]);
    });

    it('table names match sample folders case-insensitively', async () => {
        ws = new Workspace();
        ws.write('Shop/Orders.json', '{"id": 1}\n');
        const result = await ws.ok(mvOf(table('shop.orders')));
        expect(result.datasets.m.rows).toEqual([{ id: 1 }]);
    });

    it('a CREATE TABLE declaration types the data and points at its LOCATION', async () => {
        ws = new Workspace();
        ws.write('data/x.csv', 'id;label\n1;a\n');
        const catalog = [catalogTable('shop.items', 'id INT, label STRING', 'csv', 'data/x.csv', { delimiter: ';' })];
        const result = await ws.ok(mvOf(table('shop.items'), catalog));
        expect(result.datasets.m.columns).toEqual([{ name: 'id', type: 'INT' }, { name: 'label', type: 'STRING' }]);
        expect(result.datasets.m.rows).toEqual([{ id: 1, label: 'a' }]);
    });

    it('a folder of Parquet files is read with declared types', async () => {
        ws = new Workspace();
        const folder = path.join(ws.samples, 'lake', 'facts');
        fs.mkdirSync(folder, { recursive: true });
        await withDuckDB(async db => {
            await db.run(`COPY (SELECT 1 AS id, 'a' AS name) TO '${path.join(folder, 'p1.parquet')}' (FORMAT parquet)`);
            await db.run(`COPY (SELECT 2 AS id, 'b' AS name) TO '${path.join(folder, 'p2.parquet')}' (FORMAT parquet)`);
        });
        const catalog = [catalogTable('lake.facts', 'id BIGINT, name STRING', 'parquet')];
        const result = await ws.ok(mvOf(table('lake.facts'), catalog));
        expect(rowsOf(result.datasets.m.rows, 'id', 'name')).toEqual(expected([1, 'a'], [2, 'b']));
        expect(result.datasets.m.columns[0]).toEqual({ name: 'id', type: 'BIGINT' });
    });

    it('read_files reads a path relative to the pipeline root with reader options', async () => {
        ws = new Workspace();
        ws.write('../data/in.csv', 'a|b\n1|x\n');
        const result = await ws.ok(mvOf(readFiles('data/in.csv', { format: 'csv', delimiter: '|', schema: 'a INT, b STRING' })));
        // Auto Loader's _rescued_data column comes with read_files (nothing is rescued locally).
        expect(result.datasets.m.rows).toEqual([{ a: 1, b: 'x', _rescued_data: null }]);
    });

    it('a streaming read of a folder takes only files it has not read; a batch read takes all', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('s'), materializedView('b')], [
            appendFlow('s', 's', selectStar(stream('feed'))),
            mvFlow('b', select([col('id')], { from: [table('feed')] })),
        ], [catalogTable('feed', 'id INT', 'json')]);
        ws.append('feed', [{ id: 1 }]);
        await ws.ok(ir);
        ws.append('feed', [{ id: 2 }]);
        const result = await ws.ok(ir);
        expect(result.metrics.s.num_output_rows).toBe(1);
        expect(rowsOf(result.datasets.s.rows, 'id')).toEqual(expected([1], [2]));
        expect(rowsOf(result.datasets.b.rows, 'id')).toEqual(expected([1], [2]));
    });

    it('changing a file a streaming flow already read is an error naming the file', async () => {
        ws = new Workspace();
        const ir = pipeline([streamingTable('s')], [appendFlow('s', 's', selectStar(stream('feed')))], [catalogTable('feed', 'id INT', 'json')]);
        const file = ws.append('feed', [{ id: 1 }]);
        await ws.ok(ir);
        fs.appendFileSync(file, '{"id": 2}\n');
        const error = await ws.fails(ir);
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_STREAMING_SOURCE_CHANGED', file });
    });

    it('file sources offer Spark\'s _metadata column, which * leaves out', async () => {
        ws = new Workspace();
        const file = ws.write('feed/a.jsonl', '{"id": 1}\n');
        const metadata = (name: string) => ({ kind: 'field' as const, expr: col('_metadata'), field: name });
        const ir = pipeline([streamingTable('s')], [appendFlow('s', 's', select(['*', [metadata('file_path'), 'source_file'], [metadata('file_name'), 'name']], { from: [stream('feed')] }))],
            [catalogTable('feed', 'id INT', 'json')]);
        const result = await ws.ok(ir);
        expect(result.datasets.s.rows).toEqual([{ id: 1, source_file: `file:${file}`, name: 'a.jsonl' }]);
    });
});

describe('bad sample data', () => {
    it('a malformed CSV line names the file and line', async () => {
        ws = new Workspace();
        const file = ws.write('raw/rows.csv', 'id,name\n1,a\n2,b,extra\n3,c\n');
        const error = await ws.fails(mvOf(table('raw.rows'), [catalogTable('raw.rows', 'id INT, name STRING', 'csv')]));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 3 });
        expect(error.message).toContain('Expected Number of Columns');
    });

    it('a CSV value of the wrong type names the file and line', async () => {
        ws = new Workspace();
        const file = ws.write('raw/rows.csv', 'id,name\n1,a\nx,b\n');
        const error = await ws.fails(mvOf(table('raw.rows'), [catalogTable('raw.rows', 'id INT, name STRING', 'csv')]));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 3 });
    });

    it('a JSON value of the wrong type names the file and line', async () => {
        ws = new Workspace();
        ws.append('feed', [{ id: 1 }]);
        const file = ws.write('feed/part-9.jsonl', '{"id": 2}\n{"id": "two"}\n');
        const error = await ws.fails(mvOf(table('feed'), [catalogTable('feed', 'id INT', 'json')]));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file, line: 2 });
    });

    it('malformed JSON names the file and line', async () => {
        ws = new Workspace();
        const file = ws.write('feed.jsonl', '{"id": 1}\n{"id": 2\n');
        const error = await ws.fails(mvOf(table('feed'), [catalogTable('feed', 'id INT', 'json', 'feed.jsonl')]));
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file });
        expect(error.line).toBeGreaterThanOrEqual(2);
    });

    it('a declared LOCATION that does not exist is an error at the declaration naming the path', async () => {
        ws = new Workspace();
        const declaration = catalogTable('x.y', 'id INT', 'csv', 'nope/y.csv');
        const error = await ws.fails(mvOf(table('x.y'), [declaration]));
        expect(error.class).toBe('PIPELINE_SQL_SAMPLE_FILE_NOT_FOUND');
        expect(error.file).toBe(declaration.span.file);
        expect(error.message).toBe("The sample data of 'x.y' cannot be found: 'samples/nope/y.csv' does not exist.");
    });

    it('a Parquet file lacking a declared column is an error naming the file', async () => {
        ws = new Workspace();
        const folder = path.join(ws.samples, 'lake');
        fs.mkdirSync(folder, { recursive: true });
        await withDuckDB(db => db.run(`COPY (SELECT 1 AS id) TO '${path.join(folder, 'p.parquet')}' (FORMAT parquet)`));
        const error = await ws.fails(mvOf(table('lake'), [catalogTable('lake', 'id INT, missing STRING', 'parquet')]));
        expect(error.class).toBe('PIPELINE_SQL_BAD_SAMPLE_DATA');
        expect(error.message).toContain('missing');
    });
});
