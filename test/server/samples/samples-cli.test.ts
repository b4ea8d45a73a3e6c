// `pipeline-sql samples` as a user runs it (issue 16 item 2): files and declarations created, nothing
// existing overwritten (and said so), the same seed the same data, another seed other data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runCli } from '../../../server/src/cli/main.js';
import { runCommand } from '../../../server/src/cli/run.js';
import { writeParquetFile } from '../../../engine/src/db/parquet-writer.js';
import { Types } from '../../../engine/src/spark/spark-types.js';
import { sqlPipeline } from './samples-helpers.js';

const roots: string[] = [];
afterEach(() => {
    for (const root of roots.splice(0)) {
        fs.rmSync(root, { recursive: true, force: true });
    }
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, t => { out += t; }, t => { err += t; });
    return { code, out, err };
}

const cdcPipeline = (extra: Record<string, string> = {}): string => {
    const root = sqlPipeline({
        'changes.sql': 'CREATE STREAMING TABLE users;\n'
            + "CREATE FLOW users_cdc AS AUTO CDC INTO users FROM STREAM(raw.user_events) KEYS (user_id) APPLY AS DELETE WHEN op = 'D' SEQUENCE BY event_ts STORED AS SCD TYPE 2;\n"
            + 'CREATE MATERIALIZED VIEW by_city AS SELECT city, count(*) AS n FROM users GROUP BY city;\n',
    }, extra);
    roots.push(root);
    return root;
};

const read = (root: string, relative: string): string => fs.readFileSync(path.join(root, relative), 'utf8');

describe('pipeline-sql samples', () => {
    test('creates a change feed in two files and declares the table in samples/catalog.sql', async () => {
        const root = cdcPipeline();
        const { code, out } = await cli('samples', root);
        expect(code).toBe(0);
        expect(out).toContain('samples/raw/user_events/part-00001.csv');
        expect(out).toContain('for raw.user_events: ');
        expect(out).toContain('a late event, a duplicate');
        expect(read(root, 'samples/raw/user_events/part-00001.csv').split('\n')[0]).toBe('user_id,op,event_ts,city');
        expect(fs.existsSync(path.join(root, 'samples/raw/user_events/part-00002.csv'))).toBe(true);
        expect(read(root, 'samples/catalog.sql')).toContain(
            'CREATE TABLE raw.user_events (\n  user_id BIGINT,\n  op STRING,\n  event_ts TIMESTAMP,\n  city STRING\n) USING CSV LOCATION \'raw/user_events\';');
        // And the pipeline runs on it.
        const run = await cli('run', root);
        expect(run.code).toBe(0);
    });

    test('never overwrites: a second call keeps the files and says so; other sources are still created', async () => {
        const root = cdcPipeline();
        await cli('samples', root);
        const before = read(root, 'samples/raw/user_events/part-00001.csv');
        fs.appendFileSync(path.join(root, 'transformations/changes.sql'), 'CREATE MATERIALIZED VIEW extra AS SELECT sku FROM raw.products;\n');
        const { code, out } = await cli('samples', root, '--seed', '9');
        expect(code).toBe(0);
        expect(out).toContain('kept raw.user_events: it has sample data (never overwritten)');
        expect(out).toContain('for raw.products');
        expect(read(root, 'samples/raw/user_events/part-00001.csv')).toBe(before);
        // The declaration of the new table is appended; the first one stays.
        const catalog = read(root, 'samples/catalog.sql');
        expect(catalog.match(/CREATE TABLE raw\.user_events/g)).toHaveLength(1);
        expect(catalog).toContain('CREATE TABLE raw.products (\n  sku STRING\n) USING CSV LOCATION \'raw/products\';');
    });

    test('an existing catalog.sql is appended to, not replaced', async () => {
        const root = cdcPipeline({ 'samples/catalog.sql': '-- my tables\nCREATE TABLE raw.other (a INT) USING CSV LOCATION \'raw/other\';' });
        await cli('samples', root);
        const catalog = read(root, 'samples/catalog.sql');
        expect(catalog.startsWith('-- my tables\nCREATE TABLE raw.other (a INT) USING CSV LOCATION \'raw/other\';\n')).toBe(true);
        expect(catalog).toContain('CREATE TABLE raw.user_events (');
    });

    test('the same seed gives the same files, another seed others; --rows sizes them', async () => {
        const [a, b, c] = [cdcPipeline(), cdcPipeline(), cdcPipeline()];
        await cli('samples', a, '--seed', '5');
        await cli('samples', b, '--seed', '5');
        await cli('samples', c, '--seed', '6', '--rows', '40');
        const feed = (root: string): string => read(root, 'samples/raw/user_events/part-00001.csv') + read(root, 'samples/raw/user_events/part-00002.csv');
        expect(feed(a)).toBe(feed(b));
        expect(feed(c)).not.toBe(feed(a));
        expect(feed(c).split('\n').length).toBeGreaterThan(feed(a).split('\n').length);
    });

    test('Parquet sources (read_files with format parquet, a table declared USING PARQUET) get Parquet files, and the pipeline runs on them', async () => {
        const root = sqlPipeline({
            'events.sql': "CREATE STREAMING TABLE events AS SELECT event_id, kind, amount, seen_at FROM STREAM read_files('data/events/', format => 'parquet');\n"
                + "CREATE MATERIALIZED VIEW big AS SELECT e.event_id, e.amount + 1 AS next, o.total FROM events e JOIN raw.orders o ON o.order_id = e.event_id WHERE e.seen_at > TIMESTAMP '2024-06-01 00:00:00' AND e.kind = 'click';\n",
        }, { 'samples/catalog.sql': 'CREATE TABLE raw.orders (order_id BIGINT, total DECIMAL(10,2), placed DATE, tags ARRAY<STRING>, info STRUCT<city: STRING, at: TIMESTAMP>) USING PARQUET LOCATION \'raw/orders\';\n' });
        roots.push(root);
        const { code, out } = await cli('samples', root);
        expect(code).toBe(0);
        expect(out).not.toContain('skipped');
        expect(out).toContain('data/events/part-00001.parquet');
        expect(out).toContain('samples/raw/orders/part-00001.parquet');
        // Parquet files (the magic number at both ends), not text.
        const bytes = fs.readFileSync(path.join(root, 'data/events/part-00001.parquet'));
        expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
        expect(bytes.subarray(bytes.length - 4).toString('latin1')).toBe('PAR1');
        // The declared table keeps its declaration: nothing appended for it.
        expect(read(root, 'samples/catalog.sql').match(/CREATE TABLE/g)).toHaveLength(1);
        // The pipeline runs on them, with the types written (a TIMESTAMP stays a TIMESTAMP).
        let json = '';
        expect(await runCommand([root, '--json'], { out: t => { json += t; }, err: t => { json += t; }, progress: false })).toBe(0);
        const result = JSON.parse(json) as { datasets: Record<string, { columns: { name: string; type: string }[]; rows: unknown[][] }> };
        expect(result.datasets.events.columns.map(c => `${c.name} ${c.type}`)).toEqual(['event_id BIGINT', 'kind STRING', 'amount INT', 'seen_at TIMESTAMP']);
        expect(result.datasets.events.rows.length).toBe(20);
        expect(result.datasets.big.rows.length).toBeGreaterThan(0);
        // Never overwrites: a second call keeps them.
        const again = await cli('samples', root);
        expect(again.out).toContain('kept');
        expect(fs.readFileSync(path.join(root, 'data/events/part-00001.parquet')).equals(bytes)).toBe(true);
    });

    test('predicates on struct fields get rows that pass and fail them: WHERE payload.status = \'DONE\' keeps some rows, an expectation on payload.amount passes and fails, one that fails the update holds', async () => {
        const root = sqlPipeline({
            'jobs.sql': 'CREATE MATERIALIZED VIEW done (CONSTRAINT sized EXPECT (payload.amount > 100), CONSTRAINT coded EXPECT (payload.meta.code IS NOT NULL) ON VIOLATION FAIL UPDATE)\n'
                + "AS SELECT payload FROM raw.jobs WHERE payload.status = 'DONE';\n",
        });
        roots.push(root);
        expect((await cli('samples', root)).code).toBe(0);
        let json = '';
        expect(await runCommand([root, '--json'], { out: t => { json += t; }, err: t => { json += t; }, progress: false })).toBe(0);
        const result = JSON.parse(json) as { datasets: Record<string, { rows: unknown[][] }>; metrics: Record<string, { expectations?: Record<string, { passed_records: number; failed_records: number }> }> };
        // Some rows are DONE, not all.
        const done = result.datasets.done.rows.length;
        expect(done).toBeGreaterThan(0);
        expect(done).toBeLessThan(20);
        const sized = result.metrics.done.expectations?.sized;
        expect(sized?.passed_records).toBeGreaterThan(0);
        expect(sized?.failed_records).toBeGreaterThan(0);
    });

    test('--from <file> --table <name>: a real export becomes the table\'s sample data (first --rows rows), declared with its columns; the pipeline runs on it; a second copy is refused', async () => {
        const root = sqlPipeline({ 'v.sql': 'CREATE MATERIALIZED VIEW big_orders AS SELECT order_id, total FROM raw.orders WHERE total > 10;\n' }, {
            'exports/orders.csv': 'order_id,total,placed\n1,5.50,2025-01-02\n2,12.00,2025-01-03\n3,40.25,2025-01-04\n4,8.00,2025-01-05\n',
        });
        roots.push(root);
        const { code, out } = await cli('samples', root, '--from', path.join(root, 'exports/orders.csv'), '--table', 'raw.orders', '--rows', '3');
        expect(code).toBe(0);
        expect(out).toMatch(/copied \S*exports\/orders\.csv to \S*samples\/raw\/orders\/orders\.csv as raw\.orders: 3 rows\n/);
        expect(out).toMatch(/declared raw\.orders in \S*samples\/catalog\.sql\n/);
        expect(read(root, 'samples/raw/orders/orders.csv')).toBe('order_id,total,placed\n1,5.50,2025-01-02\n2,12.00,2025-01-03\n3,40.25,2025-01-04\n');
        expect(read(root, 'samples/catalog.sql')).toContain('CREATE TABLE raw.orders (\n  order_id BIGINT,\n  total DOUBLE,\n  placed DATE\n) USING CSV LOCATION \'raw/orders\';');
        let json = '';
        expect(await runCommand([root, '--json'], { out: t => { json += t; }, err: t => { json += t; }, progress: false })).toBe(0);
        expect((JSON.parse(json) as { datasets: Record<string, { rows: unknown[] }> }).datasets.big_orders.rows).toEqual([{ order_id: 2, total: 12 }, { order_id: 3, total: 40.25 }]);
        // The table has data now: never overwritten; the error names the file and the cause.
        const again = await cli('samples', root, '--from', path.join(root, 'exports/orders.csv'), '--table', 'raw.orders');
        expect(again.code).toBe(1);
        expect(again.err).toMatch(/exports\/orders\.csv: error PIPELINE_SQL_BAD_SAMPLE_DATA\n/);
        expect(again.err).toContain("'samples/raw/orders' exists already; it is never overwritten.");
        const bad = await cli('samples', root, '--from', path.join(root, 'exports/orders.csv'), '--table', '../etc');
        expect(bad.code).toBe(1);
        expect(bad.err).toContain("'../etc' is not a table name for sample data");
    });

    test('--from a Parquet file with --rows copies its first rows as Parquet', async () => {
        const root = sqlPipeline({ 'v.sql': 'CREATE MATERIALIZED VIEW seen AS SELECT id, at FROM raw.events;\n' });
        roots.push(root);
        fs.mkdirSync(path.join(root, 'exports'));
        await writeParquetFile(path.join(root, 'exports/events.parquet'), [{ name: 'id', type: Types.bigint }, { name: 'at', type: Types.timestamp }],
            Array.from({ length: 10 }, (_, i) => [i + 1, `2025-01-0${(i % 9) + 1} 10:00:00`]));
        const { code, out } = await cli('samples', root, '--from', path.join(root, 'exports/events.parquet'), '--table', 'raw.events', '--rows', '3');
        expect(code).toBe(0);
        expect(out).toMatch(/as raw\.events: 3 rows\n/);
        expect(read(root, 'samples/catalog.sql')).toContain('CREATE TABLE raw.events (\n  id BIGINT,\n  at TIMESTAMP\n) USING PARQUET LOCATION \'raw/events\';');
        let json = '';
        expect(await runCommand([root, '--json'], { out: t => { json += t; }, err: t => { json += t; }, progress: false })).toBe(0);
        expect((JSON.parse(json) as { datasets: Record<string, { rows: unknown[] }> }).datasets.seen.rows)
            .toEqual([1, 2, 3].map(id => ({ id, at: `2025-01-0${id} 10:00:00` })));
    });

    test('usage: --help, a bad --rows, no folder', async () => {
        expect((await cli('samples', '--help')).out).toContain('pipeline-sql samples <root> [--pipeline key] [--rows n] [--seed s]');
        await expect(cli('samples', cdcPipeline(), '--rows', 'many')).rejects.toThrow("--rows takes a whole number from 1 to 100000, not 'many'");
        await expect(cli('samples')).rejects.toThrow('samples needs the folder of a pipeline');
        expect((await cli('samples', '--help')).out).toContain('pipeline-sql samples <root> --from <file> --table <name> [--rows n]');
        await expect(cli('samples', cdcPipeline(), '--from', 'x.csv')).rejects.toThrow('--from needs --table <name>');
        await expect(cli('samples', cdcPipeline(), '--table', 'raw.x')).rejects.toThrow('--table goes with --from <file>');
    });
});
