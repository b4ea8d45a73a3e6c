// What a source without sample data must have (issue 16 item 1): the columns a pipeline uses and the
// type each use implies, one test per kind of use, on pipelines loaded from disk as the CLI loads them.
import * as fs from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { typeToString } from '../../../engine/src/spark/spark-types.js';
import type { SourceRequirement, SourceRequirements } from '../../../server/src/samples/source-requirements.js';
import { requirementsOf, sqlPipeline } from './samples-helpers.js';

const roots: string[] = [];
afterEach(() => {
    for (const root of roots.splice(0)) {
        fs.rmSync(root, { recursive: true, force: true });
    }
});

async function requirements(sql: Record<string, string>, extra: Record<string, string> = {}): Promise<SourceRequirements> {
    const root = sqlPipeline(sql, extra);
    roots.push(root);
    return requirementsOf(root);
}

/** `name type [roles] predicates` per column, as a reader would check it. */
function printColumns(source: SourceRequirement | undefined): string[] {
    return (source?.columns ?? []).map(c => {
        const roles = [...c.roles].sort().join(',');
        const predicates = c.predicates.map(p => `${p.op}${p.values.length > 0 ? ` ${p.values.join('|')}` : ''}${p.mustHold ? ' (must hold)' : ''}`).join('; ');
        const fields = c.fieldPredicates.map(({ path, predicate: p }) => `${path.join('.')} ${p.op}${p.values.length > 0 ? ` ${p.values.join('|')}` : ''}${p.mustHold ? ' (must hold)' : ''}`).join('; ');
        return `${c.name} ${typeToString(c.type)}${roles ? ` [${roles}]` : ''}${predicates ? ` {${predicates}}` : ''}${fields ? ` fields {${fields}}` : ''}`;
    });
}

const source = (r: SourceRequirements, display: string): SourceRequirement | undefined => r.sources.find(s => s.displayName === display);

describe('columns named by the pipeline', () => {
    test('a select list names the columns; with nothing else they are strings', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT order_id, note FROM raw.orders;' });
        expect(r.sources.map(s => s.displayName)).toEqual(['raw.orders']);
        expect(printColumns(source(r, 'raw.orders'))).toEqual(['order_id string', 'note string']);
    });

    test('a column used downstream of SELECT * belongs to the source the star expands', async () => {
        const r = await requirements({
            'a.sql': 'CREATE STREAMING TABLE bronze AS SELECT * FROM STREAM(raw.events);\n'
                + 'CREATE MATERIALIZED VIEW silver AS SELECT event_id, amount * 2 AS doubled FROM bronze;',
        });
        expect(printColumns(source(r, 'raw.events'))).toEqual(['event_id string', 'amount int']);
    });

    test('a source nobody names a column of still gets one column', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT * FROM raw.things;' });
        expect(printColumns(source(r, 'raw.things'))).toEqual(['id bigint']);
    });

    test('sources with sample data are not listed', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT a FROM raw.present JOIN raw.absent USING (a);' },
            { 'samples/raw/present.csv': 'a\n1\n' });
        expect(r.sources.map(s => s.displayName)).toEqual(['raw.absent']);
    });
});

describe('the type a use implies', () => {
    test('compared with a timestamp', async () => {
        const r = await requirements({ 'a.sql': "CREATE MATERIALIZED VIEW v AS SELECT id FROM raw.e WHERE created_at > current_timestamp() - INTERVAL 1 DAY AND day >= DATE'2025-01-01';" });
        expect(printColumns(source(r, 'raw.e'))).toEqual(['id string', 'created_at timestamp', 'day date {>= 2025-01-01}']);
    });

    test('summed, averaged and multiplied columns are numbers', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT shop, sum(amount) AS total, avg(qty * 2) AS q FROM raw.sales GROUP BY shop;' });
        expect(printColumns(source(r, 'raw.sales'))).toEqual(['shop string [group]', 'amount double', 'qty int']);
    });

    test('a function parameter and a cast give their types', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT date_format(ts, \'yyyy\') AS y, CAST(n AS INT) AS n2, upper(code) AS c FROM raw.t;' });
        expect(printColumns(source(r, 'raw.t'))).toEqual(['ts timestamp', 'n int', 'code string']);
    });

    test('predicates on struct fields: WHERE, a failing expectation on a.b, IN on a nested field, through a view', async () => {
        const r = await requirements({
            'a.sql': 'CREATE MATERIALIZED VIEW done (CONSTRAINT positive EXPECT (payload.amount >= 0) ON VIOLATION FAIL UPDATE) AS SELECT payload FROM raw.jobs WHERE payload.status = \'DONE\';\n'
                + 'CREATE MATERIALIZED VIEW coded AS SELECT * FROM done WHERE payload.meta.code IN (\'A\', \'B\');\n',
        });
        expect(printColumns(source(r, 'raw.jobs'))).toEqual([
            'payload struct<amount:int,status:string,meta:struct<code:string>> fields {amount >= 0 (must hold); status = DONE; meta.code in A|B}',
        ]);
    });

    test('a struct accessed by field', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT payload.customer.id AS cid, payload.amount + 1 AS a FROM raw.msgs;' });
        expect(printColumns(source(r, 'raw.msgs'))).toEqual(['payload struct<customer:struct<id:string>,amount:int>']);
        // A predicate on a field (here through an expectation on the column it becomes) stays off the struct.
        const checked = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v (CONSTRAINT ok EXPECT (amount >= 0)) AS SELECT payload.amount AS amount FROM raw.msgs WHERE payload.kind = \'x\';' });
        expect(printColumns(source(checked, 'raw.msgs'))).toEqual(['payload struct<amount:int,kind:string> fields {amount >= 0; kind = x}']);
    });

    test('JOIN: qualified columns go to their side; compared with a typed column, the same type', async () => {
        const r = await requirements({
            'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT o.order_id, c.name FROM raw.orders o JOIN raw.customers c ON o.customer_id = c.customer_id AND o.placed_at >= c.since;',
        }, { 'samples/catalog.sql': 'CREATE TABLE raw.customers (customer_id BIGINT, name STRING, since TIMESTAMP) USING CSV LOCATION \'raw/customers\';' });
        expect(printColumns(source(r, 'raw.orders'))).toEqual(['order_id string', 'customer_id bigint', 'placed_at timestamp']);
        // Declared without data: its declared columns, as declared.
        expect(printColumns(source(r, 'raw.customers'))).toEqual(['customer_id bigint', 'name string', 'since timestamp']);
        expect(source(r, 'raw.customers')?.declared).toBe(true);
    });

    test('WHERE keeps the literals compared against, IN lists and LIKE patterns', async () => {
        const r = await requirements({ 'a.sql': "CREATE MATERIALIZED VIEW v AS SELECT id FROM raw.t WHERE status IN ('open', 'paid') AND NOT (region = 'EU') AND code LIKE 'A%' AND qty >= 5;" });
        expect(printColumns(source(r, 'raw.t'))).toEqual(['id string', 'status string {in open|paid}', 'region string {<> EU}', 'code string {like A%}', 'qty int {>= 5}']);
    });

    test('GROUP BY marks a grouping column', async () => {
        const r = await requirements({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT city, count(*) AS n FROM raw.people GROUP BY city;' });
        expect(printColumns(source(r, 'raw.people'))).toEqual(['city string [group]']);
    });

    test('expectations reach the source through the select list; FAIL UPDATE ones must hold', async () => {
        const r = await requirements({
            'a.sql': 'CREATE STREAMING TABLE clean (\n'
                + '  CONSTRAINT has_email EXPECT (email IS NOT NULL),\n'
                + '  CONSTRAINT positive EXPECT (amount > 0) ON VIOLATION FAIL UPDATE\n'
                + ') AS SELECT id, lower(email) AS email, amount FROM STREAM(raw.signups);',
        });
        expect(printColumns(source(r, 'raw.signups'))).toEqual(['email string {notnull}', 'amount int {> 0 (must hold)}', 'id string']);
    });
});

describe('AUTO CDC clauses', () => {
    test('KEYS, SEQUENCE BY and APPLY AS DELETE WHEN, through the dataset that reads the feed', async () => {
        const r = await requirements({
            'a.sql': 'CREATE STREAMING TABLE changes AS SELECT * FROM STREAM(cdc.users);\n'
                + 'CREATE STREAMING TABLE users;\n'
                + "CREATE FLOW f AS AUTO CDC INTO users FROM STREAM(changes) KEYS (user_id) APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq STORED AS SCD TYPE 2;",
        });
        const feed = source(r, 'cdc.users');
        // Nothing else is named (the target takes `*`): a column that changes with each update is added.
        expect(printColumns(feed)).toEqual(['user_id bigint [key]', 'op string [delete] {= D}', 'seq bigint [sequence]', 'value string']);
        expect(feed?.cdc).toEqual([{ flow: 'f', snapshot: false, scd: 2 }]);
    });

    test('a SEQUENCE BY column named like a time is a timestamp; a snapshot flow marks its keys and version column', async () => {
        const r = await requirements({
            'a.sql': 'CREATE STREAMING TABLE t;\n'
                + 'CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT sku, qty FROM raw.snap WHERE snap_day = (SELECT v FROM current_snapshot_version()))\n'
                + 'WITH VERSION (SELECT max(snap_day) AS v FROM raw.snap) KEYS (sku) STORED AS SCD TYPE 2;',
        });
        const snap = source(r, 'raw.snap');
        expect(printColumns(snap)).toEqual(['sku string [key]', 'qty string', 'snap_day date [snapshotVersion]']);
        expect(snap?.cdc).toEqual([{ flow: 'f', snapshot: true, scd: 2 }]);
    });
});

describe('files and Python datasets', () => {
    test('read_files: a path without files is a source, placed where the read looks (/Volumes under samples/)', async () => {
        const r = await requirements({ 'a.sql': "CREATE STREAMING TABLE b AS SELECT id, ts FROM STREAM read_files('/Volumes/main/landing/events', format => 'json') WHERE ts > TIMESTAMP'2025-01-01 00:00:00';" });
        const files = r.sources[0];
        expect(files.kind).toBe('files');
        expect(files.location.endsWith('/samples/Volumes/main/landing/events')).toBe(true);
        expect(files.format).toBe('json');
        expect(printColumns(files)).toEqual(['id string', 'ts timestamp {> 2025-01-01 00:00:00}']);
    });

    test('read_files in cloud storage cannot be sampled locally: skipped with the reason', async () => {
        const r = await requirements({ 'a.sql': "CREATE STREAMING TABLE b AS SELECT id FROM STREAM read_files('s3://bucket/x', format => 'json');" });
        expect(r.sources).toEqual([]);
        expect(r.skipped.map(s => s.displayName)).toEqual(["read_files('s3://bucket/x')"]);
        expect(r.skipped[0].reason).toContain('cloud storage');
    });

    test('a Python dataset read by SQL, with its schema= columns', async () => {
        const r = await requirements({
            'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT title, price FROM products WHERE price > 10;',
            'products.py': 'import dlt\n\n@dlt.table(schema="sku STRING, title STRING, price DOUBLE")\ndef products():\n    return spark.read.table("x")\n',
        });
        const products = r.sources.find(s => s.kind === 'python');
        expect(products?.location.endsWith('/samples/products')).toBe(true);
        expect(printColumns(products)).toEqual(['sku string', 'title string', 'price double {> 10}']);
    });
});
