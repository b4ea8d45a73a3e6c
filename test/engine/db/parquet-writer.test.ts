// Parquet files of sample rows (issue 16): typed columns as Spark reads them back, hostile names and
// values kept as data (never SQL), an existing file never replaced, no write outside the file's folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Database } from '../../../engine/src/db/database.js';
import { copyParquetRows, writeParquetFile } from '../../../engine/src/db/parquet-writer.js';
import { toRows } from '../../../engine/src/db/values.js';
import { nodeSampleDisk } from '../../../engine/src/spark/sample-disk.js';
import { readParquetSchema } from '../../../engine/src/spark/sample-parquet.js';
import { formatOfFile } from '../../../engine/src/spark/sample-files.js';
import { Types, typeToString } from '../../../engine/src/spark/spark-types.js';
import { sql, str } from '../../../engine/src/sql/sql.js';

const folders: string[] = [];
afterEach(() => {
    for (const folder of folders.splice(0)) {
        fs.rmSync(folder, { recursive: true, force: true });
    }
});

function folder(): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-parquet-')));
    folders.push(dir);
    return dir;
}

function schemaOf(file: string): string[] {
    const stat = fs.statSync(file);
    const fields = readParquetSchema({ path: file, realPath: file, size: stat.size, mtimeMs: stat.mtimeMs, fileFormat: formatOfFile(file)!, disk: nodeSampleDisk });
    return fields.map(f => `${f.name} ${typeToString(f.type)}`);
}

async function rowsOf(file: string): Promise<unknown[]> {
    const db = await Database.open(':memory:', undefined, { allowedDirectories: [path.dirname(file)] });
    try {
        const result = await db.query(sql`SELECT * FROM read_parquet(${str(file)})`);
        return toRows(result.columns, result.rows);
    } finally {
        db.close();
    }
}

describe('writeParquetFile', () => {
    test('writes typed columns that read back as the same Spark types and values', async () => {
        const file = path.join(folder(), 'part-00001.parquet');
        const columns = [
            { name: 'id', type: Types.bigint }, { name: 'amount', type: Types.decimal(10, 2) }, { name: 'ok', type: Types.boolean },
            { name: 'day', type: Types.date }, { name: 'at', type: Types.timestamp }, { name: 'local', type: Types.timestampNtz },
            { name: 'tags', type: Types.array(Types.string) }, { name: 'attrs', type: Types.map(Types.string, Types.int) },
            { name: 'payload', type: Types.struct([['status', Types.string], ['n', Types.int]]) },
        ];
        await writeParquetFile(file, columns, [
            [1, 12.5, true, '2025-01-02', '2025-01-02 08:30:00', '2025-01-02 08:30:00', ['a', 'b'], { k1: 3 }, { status: 'DONE', n: 2 }],
            [2, null, false, null, null, null, [], {}, { status: null, n: null }],
        ]);
        expect(schemaOf(file)).toEqual([
            'id bigint', 'amount decimal(10,2)', 'ok boolean', 'day date', 'at timestamp', 'local timestamp_ntz',
            'tags array<string>', 'attrs map<string,int>', 'payload struct<status:string,n:int>',
        ]);
        expect(await rowsOf(file)).toEqual([
            { id: 1, amount: 12.5, ok: true, day: '2025-01-02', at: '2025-01-02 08:30:00', local: '2025-01-02 08:30:00', tags: ['a', 'b'], attrs: { k1: 3 }, payload: { status: 'DONE', n: 2 } },
            { id: 2, amount: null, ok: false, day: null, at: null, local: null, tags: [], attrs: {}, payload: { status: null, n: null } },
        ]);
    });

    test('names and values that look like SQL are data', async () => {
        const file = path.join(folder(), 'x.parquet');
        const hostile = "a'); COPY (SELECT 1) TO '/tmp/pwned.parquet'; --";
        await writeParquetFile(file, [{ name: hostile, type: Types.string }, { name: 'b"c', type: Types.struct([["it's", Types.string]]) }], [[hostile, { "it's": '$&$`' }]]);
        expect(await rowsOf(file)).toEqual([{ [hostile]: hostile, 'b"c': { "it's": '$&$`' } }]);
    });

    test('an existing file is never replaced; nothing is left behind', async () => {
        const dir = folder();
        const file = path.join(dir, 'x.parquet');
        fs.writeFileSync(file, 'mine');
        await expect(writeParquetFile(file, [{ name: 'a', type: Types.int }], [[1]])).rejects.toMatchObject({ code: 'EEXIST' });
        expect(fs.readFileSync(file, 'utf8')).toBe('mine');
        expect(fs.readdirSync(dir)).toEqual(['x.parquet']);
    });

    test('copyParquetRows copies the first rows in file order, with the same columns', async () => {
        const from = path.join(folder(), 'big.parquet');
        const rows = Array.from({ length: 3000 }, (_, i) => [i + 1, `row ${i + 1}`]);
        await writeParquetFile(from, [{ name: 'id', type: Types.bigint }, { name: 'note', type: Types.string }], rows);
        const to = path.join(folder(), 'first.parquet');
        expect(await copyParquetRows(from, to, 4)).toBe(4);
        expect(schemaOf(to)).toEqual(['id bigint', 'note string']);
        expect(await rowsOf(to)).toEqual([1, 2, 3, 4].map(id => ({ id, note: `row ${id}` })));
        await expect(copyParquetRows(from, to, 2)).rejects.toMatchObject({ code: 'EEXIST' });
    });
});
