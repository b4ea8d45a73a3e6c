import { URI } from 'langium';
import { afterEach, describe, expect, test } from 'vitest';
import { printRelation } from '../../../../server/src/language/types/relation-type.js';
import { createPipelineTester, type LoadedPipeline } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();

afterEach(() => tester.clear());

const catalog = `CREATE TABLE shop.orders (order_id INT, customer_id BIGINT, amount DECIMAL(10, 2), status STRING,
  placed_at TIMESTAMP, items ARRAY<STRUCT<sku: STRING, qty: INT>>, address STRUCT<city: STRING, zip: STRING>);
CREATE TABLE shop.customers (customer_id BIGINT, name STRING, tier STRING);
CREATE TABLE cdc.users (user_id INT, name STRING, city STRING, op STRING, seq BIGINT, sys_ts TIMESTAMP);`;

/** The printed schema (`name type, …`, with `…` when incomplete) of each named dataset. */
function schemas(p: LoadedPipeline, ...names: string[]): string[] {
    const model = tester.services.pipeline.Model.modelFor(URI.file(`${p.root}/a.sql`));
    return names.map(name => {
        const dataset = model.datasetsNamed(name)[0];
        return `${name}: ${printRelation(tester.services.types.TypeComputer.datasetSchema(dataset.node))}`;
    });
}

async function infer(sql: string, ...names: string[]): Promise<string[]> {
    const p = await tester.load({ 'a.sql': sql }, { catalog });
    return schemas(p, ...names);
}

describe('schema inference of queries', () => {
    test('joins with aliases, t.*, * EXCEPT, struct fields and column aliases', async () => {
        expect(await infer(`CREATE MATERIALIZED VIEW v AS
            SELECT o.order_id AS id, c.*, o.address.city, o.amount * 2 AS doubled
            FROM shop.orders o JOIN shop.customers AS c ON o.customer_id = c.customer_id;
            CREATE MATERIALIZED VIEW w AS SELECT * EXCEPT (items, address) FROM shop.orders;`, 'v', 'w')).toEqual([
            'v: id int, customer_id bigint, name string, tier string, city string, doubled decimal(12,2)',
            'w: order_id int, customer_id bigint, amount decimal(10,2), status string, placed_at timestamp',
        ]);
    });

    test('USING joins list the join columns once in SELECT *; semi joins only the left side', async () => {
        expect(await infer(`CREATE MATERIALIZED VIEW u AS SELECT * FROM shop.customers JOIN shop.orders USING (customer_id);
            CREATE MATERIALIZED VIEW s AS SELECT * FROM shop.customers LEFT SEMI JOIN shop.orders USING (customer_id);`, 'u', 's')).toEqual([
            'u: customer_id bigint, name string, tier string, order_id int, amount decimal(10,2), status string, placed_at timestamp, '
                + 'items array<struct<sku:string,qty:int>>, address struct<city:string,zip:string>',
            's: customer_id bigint, name string, tier string',
        ]);
    });

    test('CTEs with column lists, subqueries with aliases, VALUES, set operations widen types', async () => {
        expect(await infer(`CREATE MATERIALIZED VIEW v AS
            WITH big (oid, total) AS (SELECT order_id, amount FROM shop.orders WHERE amount > 100)
            SELECT b.oid, x.n FROM big b CROSS JOIN (SELECT count(*) AS n FROM shop.customers) AS x;
            CREATE MATERIALIZED VIEW vals AS SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(k, label);
            CREATE MATERIALIZED VIEW un AS SELECT order_id AS id FROM shop.orders UNION ALL SELECT customer_id FROM shop.customers;`,
        'v', 'vals', 'un')).toEqual([
            'v: oid int, n bigint',
            'vals: k int, label string',
            'un: id bigint',
        ]);
    });

    test('aggregates, window functions, built-in function return types, casts, literals and CASE', async () => {
        expect(await infer(`CREATE MATERIALIZED VIEW v AS
            SELECT status, sum(amount) AS total, avg(amount) AS mean, count(DISTINCT customer_id) AS buyers,
              max(placed_at) AS last_at, collect_list(order_id) AS ids,
              row_number() OVER (PARTITION BY status ORDER BY max(placed_at)) AS rn,
              upper(status) AS up, date_trunc('DAY', max(placed_at)) AS day, to_date('2024-01-01') AS d,
              CAST(sum(amount) AS DOUBLE) AS total_d, sum(amount)::STRING AS total_s, 1.5 AS lit, 7L AS big,
              CASE WHEN count(*) > 10 THEN 'many' ELSE 'few' END AS size, concat_ws('-', status, 'x') AS tag
            FROM shop.orders GROUP BY status;`, 'v')).toEqual([
            'v: status string, total decimal(20,2), mean decimal(14,6), buyers bigint, last_at timestamp, ids array<int>, rn int, '
                + 'up string, day timestamp, d date, total_d double, total_s string, lit decimal(2,1), big bigint, size string, tag string',
        ]);
    });

    test('LATERAL VIEW explode and generators in the select list name their columns', async () => {
        expect(await infer(`CREATE MATERIALIZED VIEW v AS SELECT order_id, item.sku FROM shop.orders LATERAL VIEW explode(items) t AS item;
            CREATE MATERIALIZED VIEW w AS SELECT explode(items) AS item FROM shop.orders;`, 'v', 'w')).toEqual([
            'v: order_id int, sku string',
            'w: item struct<sku:string,qty:int>',
        ]);
    });

    test('a table found nowhere makes SELECT * incomplete; named columns keep unknown types', async () => {
        expect(await infer('CREATE MATERIALIZED VIEW v AS SELECT * FROM nowhere.t;\nCREATE MATERIALIZED VIEW w AS SELECT a, b + 1 AS c FROM nowhere.t;',
            'v', 'w')).toEqual(['v: …', 'w: a unknown, c unknown']);
    });
});

describe('schema inference of datasets', () => {
    test('a declared column list wins over the query; a view\'s column list renames', async () => {
        expect(await infer(`CREATE MATERIALIZED VIEW m (id BIGINT NOT NULL, label STRING, CONSTRAINT ok EXPECT (id > 0)) AS SELECT order_id, status FROM shop.orders;
            CREATE TEMPORARY VIEW tv (oid, st) AS SELECT order_id, status FROM shop.orders;`, 'm', 'tv')).toEqual([
            'm: id bigint, label string',
            'tv: oid int, st string',
        ]);
    });

    test('datasets read other datasets across files, through views', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE TEMPORARY VIEW paid AS SELECT order_id, amount FROM shop.orders WHERE status = \'PAID\';',
            'b.sql': 'CREATE MATERIALIZED VIEW revenue AS SELECT sum(amount) AS revenue FROM paid;',
        }, { catalog });
        expect(schemas(p, 'paid', 'revenue')).toEqual(['paid: order_id int, amount decimal(10,2)', 'revenue: revenue decimal(20,2)']);
    });

    test('AUTO CDC targets: source columns after COLUMNS / EXCEPT, plus SCD2 and bitemporal columns typed like their sequences', async () => {
        expect(await infer(`CREATE STREAMING TABLE scd1;
            CREATE FLOW f1 AS AUTO CDC INTO scd1 FROM STREAM(cdc.users) KEYS (user_id) SEQUENCE BY seq COLUMNS * EXCEPT (op, seq);
            CREATE STREAMING TABLE scd2;
            CREATE FLOW f2 AS AUTO CDC INTO scd2 FROM STREAM(cdc.users) KEYS (user_id) SEQUENCE BY seq COLUMNS (city, user_id) STORED AS SCD TYPE 2;
            CREATE STREAMING TABLE bt FLOW AUTO CDC FROM STREAM(cdc.users) KEYS (user_id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts
              COLUMNS * EXCEPT (op) STORED AS BITEMPORAL;
            CREATE STREAMING TABLE st2;
            CREATE FLOW f3 AS AUTO CDC INTO st2 FROM STREAM(cdc.users) KEYS (user_id) SEQUENCE BY STRUCT(seq, sys_ts) COLUMNS (user_id) STORED AS SCD TYPE 2;`,
        'scd1', 'scd2', 'bt', 'st2')).toEqual([
            'scd1: user_id int, name string, city string, sys_ts timestamp',
            'scd2: user_id int, city string, __START_AT bigint, __END_AT bigint',
            'bt: user_id int, name string, city string, seq bigint, sys_ts timestamp, __START_AT bigint, __END_AT bigint, '
                + '__SYSTEM_START_AT timestamp, __SYSTEM_END_AT timestamp',
            'st2: user_id int, __START_AT struct<seq:bigint,sys_ts:timestamp>, __END_AT struct<seq:bigint,sys_ts:timestamp>',
        ]);
    });

    test('Spark AutoCdcScd1MultiPipeline: AUTO CDC flows with different source columns give their target the union, first-seen order, system columns last (A27)', async () => {
        expect(await infer(`CREATE STREAMING TABLE users_all;
            CREATE FLOW from_cdc AS AUTO CDC INTO users_all FROM STREAM(cdc.users) KEYS (user_id) SEQUENCE BY seq COLUMNS (user_id, name) STORED AS SCD TYPE 2;
            CREATE FLOW from_shop AS AUTO CDC INTO users_all FROM (SELECT CAST(customer_id AS INT) AS user_id, tier, CAST(1 AS BIGINT) AS seq FROM STREAM(shop.customers))
              KEYS (user_id) SEQUENCE BY seq COLUMNS * EXCEPT (seq) STORED AS SCD TYPE 2;`, 'users_all')).toEqual([
            'users_all: user_id int, name string, tier string, __START_AT bigint, __END_AT bigint',
        ]);
    });

    test('snapshot targets get the snapshot query\'s columns, SCD2 adds validity columns typed like the version', async () => {
        expect(await infer(`CREATE STREAMING TABLE snap;
            CREATE FLOW s AS AUTO CDC INTO snap FROM SNAPSHOT (SELECT order_id, status FROM shop.orders WHERE placed_at = (SELECT v FROM current_snapshot_version()))
            WITH VERSION (SELECT max(placed_at) AS v FROM shop.orders) KEYS (order_id) STORED AS SCD TYPE 2;
            CREATE STREAMING TABLE implicit_version;
            CREATE FLOW s2 AS AUTO CDC INTO implicit_version FROM SNAPSHOT (SELECT customer_id FROM shop.customers) KEYS (customer_id) STORED AS SCD TYPE 2;`,
        'snap', 'implicit_version')).toEqual([
            'snap: order_id int, status string, __START_AT timestamp, __END_AT timestamp',
            'implicit_version: customer_id bigint, __START_AT timestamp, __END_AT timestamp',
        ]);
    });

    test('several append flows into one table merge by name', async () => {
        expect(await infer(`CREATE STREAMING TABLE all_ids;
            CREATE FLOW a1 AS INSERT INTO all_ids BY NAME SELECT order_id AS id, status FROM STREAM(shop.orders);
            CREATE FLOW a2 AS INSERT INTO all_ids BY NAME SELECT customer_id AS id, tier FROM STREAM(shop.customers);`, 'all_ids')).toEqual([
            'all_ids: id bigint, status string, tier string',
        ]);
    });

    test('read_files with a schema option is typed by it, plus the rescued data column', async () => {
        expect(await infer('CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files(\'s3://bucket/x\', format => \'json\', schema => \'id INT, payload STRING\');',
            'raw')).toEqual(['raw: id int, payload string, _rescued_data string']);
    });

    test('a dataset that reads itself in a cycle is unknown rather than looping', async () => {
        expect(await infer('CREATE MATERIALIZED VIEW x AS SELECT * FROM y;\nCREATE MATERIALIZED VIEW y AS SELECT * FROM x;', 'x')).toEqual(['x: …']);
    });
});
