// Schema inference of sample files (engine/src/spark/sample-schema.ts), shared by the editor and the
// engine: CSV and JSON values, Parquet footers, the samples folder convention and the cache.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StructField } from '../../../engine/src/ir.js';
import { describeProblem, listSource, locateConventionTable, sampleDirs, type SampleDirs } from '../../../engine/src/spark/sample-files.js';
import { inferCsvColumns, inferJsonColumns, SampleSchemas } from '../../../engine/src/spark/sample-schema.js';
import { formatType } from '../../../engine/src/spark/spark-types.js';

const print = (fields: readonly StructField[]): string => fields.map(f => `${f.name} ${formatType(f.type)}`).join(', ');

let dir: string;
let dirs: SampleDirs;

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-samples-'));
    dirs = sampleDirs(dir);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The schema of a file or folder under the test folder, or its problem's message. */
function schemaOf(relative: string, options: Record<string, string> = {}, schemas = new SampleSchemas()): string {
    const listed = listSource(dirs, path.join(dir, relative), undefined);
    if (!listed.ok) {
        return `problem: ${describeProblem(dirs, listed.problem)}`;
    }
    const result = schemas.sourceSchema(dirs, listed.value, options);
    return result.ok ? print(result.value.columns) : `problem: ${describeProblem(dirs, result.problem)}`;
}

describe('CSV schema inference', () => {
    test('names from the header, types from the values (BIGINT, DOUBLE, BOOLEAN, DATE, TIMESTAMP, STRING)', () => {
        const csv = 'id,price,active,day,at,name,empty\n1,2.5,true,2024-01-02,2024-01-02 10:00:00,Ann,\n-2,3,FALSE,2024-01-03,2024-01-03T11:00:00Z,"Bob, Jr.",\n';
        expect(print(inferCsvColumns(csv))).toBe('id BIGINT, price DOUBLE, active BOOLEAN, day DATE, at TIMESTAMP, name STRING, empty VOID');
    });

    test('a column mixing numbers and words is STRING; quoted fields with doubled quotes and CRLF line ends parse', () => {
        const csv = 'code,note\r\n1,"say ""hi"""\r\nA2,x\r\n';
        expect(print(inferCsvColumns(csv))).toBe('code STRING, note STRING');
    });

    test('header=false names the columns _c0, _c1 …; a custom delimiter is honoured', () => {
        expect(print(inferCsvColumns('1;x\n2;y\n', { header: 'false', sep: ';' }))).toBe('_c0 BIGINT, _c1 STRING');
    });

    test('leading zeros are still a number (007 is BIGINT, as Spark infers it); integers beyond BIGINT are DECIMAL', () => {
        expect(print(inferCsvColumns('code,big\n007,12345678901234567890\n010,1\n'))).toBe('code BIGINT, big DECIMAL(20,0)');
    });

    test('timestamps with a UTC offset are TIMESTAMP; impossible dates are STRING', () => {
        expect(print(inferCsvColumns('at,day\n2025-01-04T10:00:00+02:00,2024-02-30\n2025-01-04 10:00:00-0500,2024-02-29\n'))).toBe('at TIMESTAMP, day STRING');
    });

    test('empty and duplicate header names are named as Spark names them (_cN, name + index)', () => {
        expect(print(inferCsvColumns('id,,id\n1,2,3\n'))).toBe('id0 BIGINT, _c1 BIGINT, id2 BIGINT');
    });
});

describe('JSON schema inference', () => {
    test('JSON Lines: keys in order of first appearance, merged across records; nested objects and arrays', () => {
        const jsonl = '{"id": 1, "user": {"name": "a"}, "tags": ["x"]}\n{"id": 2, "score": 1.5, "user": {"name": "b", "age": 3}, "ts": "2024-01-01 00:00:00"}\n';
        expect(print(inferJsonColumns(jsonl))).toBe(
            'id BIGINT, user STRUCT<name: STRING, age: BIGINT>, tags ARRAY<STRING>, score DOUBLE, ts TIMESTAMP');
    });

    test('a JSON array of objects; integers and decimals widen to DOUBLE, numbers and strings to STRING', () => {
        expect(print(inferJsonColumns('[{"a": 1, "b": 1}, {"a": 2.5, "b": "x"}]'))).toBe('a DOUBLE, b STRING');
    });

    test('a number written with a fraction is DOUBLE even when whole (1.0)', () => {
        expect(print(inferJsonColumns('{"a": 1.0, "b": 1e2, "c": 3}\n'))).toBe('a DOUBLE, b DOUBLE, c BIGINT');
    });

    test('objects one after another over several lines are records too', () => {
        expect(print(inferJsonColumns('{\n  "a": 1\n}\n{\n  "b": "x"\n}\n'))).toBe('a BIGINT, b STRING');
    });

    test('a cut last record of a file head is dropped', () => {
        expect(print(inferJsonColumns('{"a": 1}\n{"b": "xy', false))).toBe('a BIGINT');
    });

    test('a stray quote is reported with its line and column', () => {
        expect(() => inferJsonColumns('{"id": 1, "name": "a"}\n{"id": 2, "name": "b""}\n')).toThrow(/Expected ',' or '}', found a quote/);
        try {
            inferJsonColumns('{"id": 1, "name": "a"}\n{"id": 2, "name": "b""}\n');
        } catch (error) {
            expect(error).toMatchObject({ line: 2, column: 22 });
        }
    });

    test('100,000 levels of nesting are reported, not followed (no stack overflow)', () => {
        const deep = '{"a": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}\n';
        expect(() => inferJsonColumns(deep)).toThrow(/nested more than 64 levels deep/);
        fs.writeFileSync(path.join(dir, 'deep.json'), deep);
        expect(schemaOf('deep.json')).toMatch(/^problem: deep\.json:1: The JSON is nested more than 64 levels deep/);
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
        expect(schemaOf('types.parquet')).toBe('i INT, b BIGINT, s STRING, dec DECIMAL(10,2), dt DATE, ts TIMESTAMP, '
            + 'arr ARRAY<INT>, st STRUCT<a: INT, b: STRING>, m MAP<STRING, INT>, bo BOOLEAN, f FLOAT, d DOUBLE');
    });

    test('a file that is not Parquet is reported as such', () => {
        fs.writeFileSync(path.join(dir, 'fake.parquet'), 'this is not a parquet file at all');
        expect(schemaOf('fake.parquet')).toBe('problem: fake.parquet: not a Parquet file (no PAR1 marker at its end)');
    });

    test('a footer length larger than the bound is refused before anything is allocated (a sparse 1.7 GB file)', () => {
        const file = path.join(dir, 'sparse.parquet');
        const size = 1_700_000_000;
        const fd = fs.openSync(file, 'w');
        const tail = Buffer.alloc(8);
        tail.writeUInt32LE(size - 100, 0);
        tail.write('PAR1', 4, 'latin1');
        fs.writeSync(fd, Buffer.from('PAR1'), 0, 4, 0);
        fs.writeSync(fd, tail, 0, 8, size - 8);
        fs.closeSync(fd);
        const before = process.memoryUsage().arrayBuffers;
        expect(schemaOf('sparse.parquet')).toMatch(/declares a Parquet footer of 1699999900 bytes; footers over 16 MB are not read/);
        expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
        fs.rmSync(file);
    });
});

describe('the samples folder convention', () => {
    test('a.b is samples/a/b.<ext> or the folder samples/a/b/, names compared case-insensitively', () => {
        const root = path.join(dir, 'conv');
        const samples = path.join(root, 'samples');
        fs.mkdirSync(path.join(samples, 'Raw', 'events'), { recursive: true });
        fs.writeFileSync(path.join(samples, 'Raw', 'events', 'part-1.jsonl'), '{"id": 1}\n');
        fs.writeFileSync(path.join(samples, 'Raw', 'users.csv'), 'id\n1\n');
        fs.writeFileSync(path.join(samples, 'Raw', 'logins.csv.gz'), 'x');
        const conv = sampleDirs(root);
        expect(locateConventionTable(conv, ['raw', 'EVENTS'])?.location).toBe(path.join(samples, 'Raw', 'events'));
        expect(locateConventionTable(conv, ['raw', 'users'])?.location).toBe(path.join(samples, 'Raw', 'users.csv'));
        expect(locateConventionTable(conv, ['raw', 'logins'])?.location).toBe(path.join(samples, 'Raw', 'logins.csv.gz'));
        expect(locateConventionTable(conv, ['raw', 'missing'])).toBeUndefined();
        expect(locateConventionTable(conv, ['${catalog}', 'users'])).toBeUndefined();
        expect(locateConventionTable(conv, ['..', 'users'])).toBeUndefined();
    });

    test('a folder\'s files are merged; an edited file is read again (cache keyed by size and mtime)', () => {
        const folder = path.join(dir, 'merge');
        fs.mkdirSync(folder);
        fs.writeFileSync(path.join(folder, 'part-1.jsonl'), '{"id": 1}\n');
        fs.writeFileSync(path.join(folder, 'part-2.jsonl'), '{"id": 2, "name": "x"}\n');
        fs.writeFileSync(path.join(folder, '_SUCCESS.json'), '{"ignored": true}\n');
        const schemas = new SampleSchemas();
        expect(schemaOf('merge', {}, schemas)).toBe('id BIGINT, name STRING');
        fs.writeFileSync(path.join(folder, 'part-2.jsonl'), '{"id": 2, "name": "x", "extra": true}\n');
        const later = new Date(Date.now() + 5000);
        fs.utimesSync(path.join(folder, 'part-2.jsonl'), later, later);
        expect(schemaOf('merge', {}, schemas)).toBe('id BIGINT, name STRING, extra BOOLEAN');
    });

    test('an unreadable file gives a reason naming it (relative to the pipeline) and its line instead of columns', () => {
        fs.mkdirSync(path.join(dir, 'bad'));
        fs.writeFileSync(path.join(dir, 'bad', 'x.json'), '{"a": 1}\n{not json\n');
        expect(schemaOf('bad/x.json')).toBe('problem: bad/x.json:2: Expected a key in quotes, found \'n\' (column 2)');
    });
});
