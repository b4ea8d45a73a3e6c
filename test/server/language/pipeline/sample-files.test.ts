import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { typeToString, type StructField } from '../../../../server/src/language/builtins/spark-types.js';
import { ParquetFormatError, readParquetSchema } from '../../../../server/src/language/pipeline/parquet-schema.js';
import {
    inferCsvColumns, inferJsonColumns, locateSampleTable, SampleFileSchemas,
} from '../../../../server/src/language/pipeline/sample-files.js';

const print = (fields: readonly StructField[]): string => fields.map(f => `${f.name} ${typeToString(f.type)}`).join(', ');

let dir: string;

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-samples-'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('CSV schema inference', () => {
    test('names from the header, types from the values (BIGINT, DOUBLE, BOOLEAN, DATE, TIMESTAMP, STRING)', () => {
        const csv = 'id,price,active,day,at,name,empty\n1,2.5,true,2024-01-02,2024-01-02 10:00:00,Ann,\n-2,3,FALSE,2024-01-03,2024-01-03T11:00:00Z,"Bob, Jr.",\n';
        expect(print(inferCsvColumns(csv))).toBe('id bigint, price double, active boolean, day date, at timestamp, name string, empty string');
    });

    test('a column mixing numbers and words is STRING; quoted fields with doubled quotes and CRLF line ends parse', () => {
        const csv = 'code,note\r\n1,"say ""hi"""\r\nA2,x\r\n';
        expect(print(inferCsvColumns(csv))).toBe('code string, note string');
    });

    test('header=false names the columns _c0, _c1 …; a custom delimiter is honoured', () => {
        expect(print(inferCsvColumns('1;x\n2;y\n', { header: 'false', sep: ';' }))).toBe('_c0 bigint, _c1 string');
    });
});

describe('JSON schema inference', () => {
    test('JSON Lines: keys in order of first appearance, merged across records; nested objects and arrays', () => {
        const jsonl = '{"id": 1, "user": {"name": "a"}, "tags": ["x"]}\n{"id": 2, "score": 1.5, "user": {"name": "b", "age": 3}, "ts": "2024-01-01 00:00:00"}\n';
        expect(print(inferJsonColumns(jsonl))).toBe(
            'id bigint, user struct<name:string,age:bigint>, tags array<string>, score double, ts timestamp');
    });

    test('a JSON array of objects; integers and decimals widen to DOUBLE, numbers and strings to STRING', () => {
        expect(print(inferJsonColumns('[{"a": 1, "b": 1}, {"a": 2.5, "b": "x"}]'))).toBe('a double, b string');
    });
});

describe('Parquet footer', () => {
    test('the schema of a Parquet file written by DuckDB, mapped to Spark types', async () => {
        const file = path.join(dir, 'types.parquet');
        const db = await DuckDBInstance.create(':memory:');
        const connection = await db.connect();
        await connection.run(`COPY (SELECT 1::INT AS i, 2::BIGINT AS b, 'x' AS s, 2.25::DECIMAL(10,2) AS dec, DATE '2024-01-01' AS dt,
            TIMESTAMPTZ '2024-01-01 00:00:00+00' AS ts, [1, 2]::INT[] AS arr, {'a': 1, 'b': 'x'} AS st, MAP {'k': 1} AS m, true AS bo,
            1.5::FLOAT AS f, 1.5::DOUBLE AS d) TO '${file}' (FORMAT parquet)`);
        connection.closeSync();
        expect(print(readParquetSchema(file))).toBe('i int, b bigint, s string, dec decimal(10,2), dt date, ts timestamp, '
            + 'arr array<int>, st struct<a:int,b:string>, m map<string,int>, bo boolean, f float, d double');
    });

    test('a file that is not Parquet is reported as such', () => {
        const file = path.join(dir, 'fake.parquet');
        fs.writeFileSync(file, 'this is not a parquet file at all');
        expect(() => readParquetSchema(file)).toThrow(ParquetFormatError);
        expect(() => readParquetSchema(file)).toThrow(/no PAR1 marker/);
    });
});

describe('the samples folder convention', () => {
    test('a.b is samples/a/b.<ext> or the folder samples/a/b/, names compared case-insensitively', () => {
        const samples = path.join(dir, 'conv', 'samples');
        fs.mkdirSync(path.join(samples, 'Raw', 'events'), { recursive: true });
        fs.writeFileSync(path.join(samples, 'Raw', 'events', 'part-1.jsonl'), '{"id": 1}\n');
        fs.writeFileSync(path.join(samples, 'Raw', 'users.csv'), 'id\n1\n');
        expect(locateSampleTable(samples, ['raw', 'EVENTS'])).toMatchObject({ isFolder: true, format: 'json' });
        expect(locateSampleTable(samples, ['raw', 'users'])).toMatchObject({ isFolder: false, format: 'csv' });
        expect(locateSampleTable(samples, ['raw', 'missing'])).toBeUndefined();
        expect(locateSampleTable(samples, ['${catalog}', 'users'])).toBeUndefined();
    });

    test('a folder\'s files are merged; an edited file is read again (cache keyed by size and mtime)', () => {
        const folder = path.join(dir, 'merge');
        fs.mkdirSync(folder);
        fs.writeFileSync(path.join(folder, 'part-1.jsonl'), '{"id": 1}\n');
        fs.writeFileSync(path.join(folder, 'part-2.jsonl'), '{"id": 2, "name": "x"}\n');
        fs.writeFileSync(path.join(folder, '_SUCCESS.json'), '{"ignored": true}\n');
        const schemas = new SampleFileSchemas();
        const location = { location: folder, isFolder: true, format: 'json' as const };
        const first = schemas.schemaOf(location);
        expect(first.ok && print(first.columns)).toBe('id bigint, name string');
        fs.writeFileSync(path.join(folder, 'part-2.jsonl'), '{"id": 2, "name": "x", "extra": true}\n');
        const later = new Date(Date.now() + 5000);
        fs.utimesSync(path.join(folder, 'part-2.jsonl'), later, later);
        const second = schemas.schemaOf(location);
        expect(second.ok && print(second.columns)).toBe('id bigint, name string, extra boolean');
    });

    test('an unreadable file gives a reason instead of columns', () => {
        const folder = path.join(dir, 'bad');
        fs.mkdirSync(folder);
        fs.writeFileSync(path.join(folder, 'x.json'), '{not json');
        const result = new SampleFileSchemas().schemaOf({ location: path.join(folder, 'x.json'), isFolder: false, format: 'json' });
        expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/cannot read '.*x\.json'/) });
    });
});
