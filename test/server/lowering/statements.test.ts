// AST → IR for every statement family: datasets (streaming tables, materialized views, views,
// managed tables, legacy LIVE forms), flows (append, ONCE, REPLACE USING / WHERE, AUTO CDC with every
// clause, legacy APPLY CHANGES, snapshots), SET, and sample catalog declarations.
import { describe, expect, test } from 'vitest';
import { lower } from './lower-helper.js';

async function lines(sql: string, options?: Parameters<typeof lower>[1]): Promise<string[]> {
    const result = await lower(sql, options);
    expect(result.diagnostics).toEqual([]);
    expect(result.problems).toEqual([]);
    return result.lines;
}

describe('datasets', () => {
    test('CREATE OR REFRESH STREAMING TABLE ... AS query: the dataset with expectations, comment and properties, and an append flow by name', async () => {
        expect(await lines(`
            CREATE OR REFRESH STREAMING TABLE users_changes (
              CONSTRAINT known_operation EXPECT (operation IN ('INSERT', 'UPDATE', 'DELETE')) ON VIOLATION DROP ROW,
              CONSTRAINT has_email EXPECT (email IS NOT NULL OR operation = 'DELETE'),
              CONSTRAINT positive EXPECT (id > 0) ON VIOLATION FAIL UPDATE
            )
            COMMENT 'Change events' TBLPROPERTIES ('quality' = 'bronze', pipelines.reset.allowed = false)
            AS SELECT user_id, trim(name) AS name FROM STREAM(cdc_data.users)`)).toEqual([
            'streaming_table users_changes [comment \'Change events\', properties {"quality":"bronze","pipelines.reset.allowed":"false"}]'
            + " EXPECT known_operation (operation IN ('INSERT', 'UPDATE', 'DELETE')) drop"
            + " EXPECT has_email ((email IS NOT NULL) or (operation = 'DELETE')) warn"
            + ' EXPECT positive (id > 0) fail',
            'append users_changes -> users_changes BY NAME: SELECT user_id, trim(name) AS name FROM STREAM(catalog:cdc_data.users)',
        ]);
    });

    test('a streaming table with a declared schema: types, NOT NULL, COMMENT, GENERATED ALWAYS AS, DEFAULT', async () => {
        expect(await lines(`
            CREATE STREAMING TABLE orders (
              id BIGINT NOT NULL COMMENT 'key',
              amount DECIMAL(10, 2),
              tags ARRAY<STRING>,
              address STRUCT<city: STRING, zip: INT>,
              attrs MAP<STRING, DOUBLE>,
              order_date DATE GENERATED ALWAYS AS (CAST(ts AS DATE)),
              ts TIMESTAMP,
              status STRING DEFAULT 'new',
              CONSTRAINT pk PRIMARY KEY (id)
            ) PARTITIONED BY (order_date) LOCATION '/tmp/x'
            AS SELECT * FROM STREAM(raw.orders)`)).toEqual([
            "streaming_table orders (id BIGINT NOT NULL COMMENT 'key', amount DECIMAL(10,2), tags ARRAY<STRING>, address STRUCT<city: STRING, zip: INT>,"
            + " attrs MAP<STRING, DOUBLE>, order_date DATE GENERATED AS CAST(ts AS DATE), ts TIMESTAMP, status STRING DEFAULT 'new')",
            'append orders -> orders BY NAME: SELECT * FROM STREAM(catalog:raw.orders)',
        ]);
    });

    test('PRIVATE and legacy TEMPORARY streaming tables and materialized views are private', async () => {
        expect(await lines(`
            CREATE PRIVATE STREAMING TABLE a AS SELECT * FROM STREAM(src);
            CREATE TEMPORARY STREAMING LIVE TABLE b AS SELECT * FROM STREAM(src);
            CREATE PRIVATE MATERIALIZED VIEW c AS SELECT 1 AS one`)).toEqual([
            'streaming_table a [private]',
            'streaming_table b [private]',
            'materialized_view c [private]',
            'append a -> a BY NAME: SELECT * FROM STREAM(catalog:src)',
            'append b -> b BY NAME: SELECT * FROM STREAM(catalog:src)',
            'materialized_view c -> c: SELECT 1 AS one',
        ]);
    });

    test('materialized views, legacy LIVE TABLE, and a column list that renames the query', async () => {
        expect(await lines(`
            CREATE OR REFRESH MATERIALIZED VIEW by_city (city, n COMMENT 'users') AS SELECT city, count(*) FROM users GROUP BY city;
            CREATE LIVE TABLE legacy AS SELECT * FROM LIVE.by_city;
            CREATE MATERIALIZED VIEW typed (city STRING, n BIGINT) AS SELECT * FROM by_city`)).toEqual([
            'materialized_view by_city',
            'materialized_view legacy',
            'materialized_view typed (city STRING, n BIGINT)',
            'materialized_view by_city -> by_city: SELECT * FROM (SELECT city, count(*) FROM catalog:users GROUP BY city) AS __renamed(city, n)',
            'materialized_view legacy -> legacy: SELECT * FROM dataset:by_city',
            'materialized_view typed -> typed: SELECT * FROM dataset:by_city',
        ]);
    });

    test('temporary views (also legacy LIVE VIEW with expectations) and persisted views carry their query', async () => {
        expect(await lines(`
            CREATE TEMPORARY VIEW recent AS SELECT * FROM events WHERE ts > current_date() - INTERVAL 7 DAYS;
            CREATE TEMPORARY LIVE VIEW checked (CONSTRAINT ok EXPECT (id IS NOT NULL)) AS SELECT * FROM recent;
            CREATE STREAMING LIVE VIEW streamed AS SELECT * FROM STREAM(events);
            CREATE VIEW published (a, b) AS SELECT x, y FROM checked`)).toEqual([
            'temporary_view recent AS SELECT * FROM catalog:events WHERE (ts > (current_date() - INTERVAL(months 0, days 7, us 0)))',
            'temporary_view checked EXPECT ok (id IS NOT NULL) warn AS SELECT * FROM dataset:recent',
            'temporary_view streamed AS SELECT * FROM STREAM(catalog:events)',
            'view published AS SELECT * FROM (SELECT x, y FROM dataset:checked) AS __renamed(a, b)',
        ]);
    });

    test('CREATE TABLE ... FLOW INSERT: a managed table with an inline append flow named after it', async () => {
        expect(await lines(`
            CREATE TABLE managed (id INT, name STRING) FLOW INSERT BY NAME SELECT * FROM raw;
            CREATE TABLE backfilled FLOW INSERT ONCE BY NAME SELECT * FROM archive`)).toEqual([
            'managed_table managed (id INT, name STRING)',
            'managed_table backfilled',
            'append managed -> managed BY NAME: SELECT * FROM catalog:raw',
            'append once backfilled -> backfilled BY NAME: SELECT * FROM catalog:archive',
        ]);
    });
});

describe('flows', () => {
    test('CREATE FLOW ... INSERT INTO: append flows, ONCE (both word orders), positional inserts, flow comments', async () => {
        expect(await lines(`
            CREATE STREAMING TABLE users;
            CREATE FLOW users_flow AS INSERT INTO users BY NAME SELECT * FROM STREAM(raw_users);
            CREATE FLOW backfill COMMENT 'one time' AS INSERT ONCE INTO users BY NAME SELECT * FROM user_backfill;
            CREATE FLOW backfill2 AS INSERT INTO ONCE users BY NAME SELECT * FROM old_users;
            CREATE FLOW positional AS INSERT INTO LIVE.users SELECT id, name FROM STREAM(more_users)`)).toEqual([
            'streaming_table users',
            'append users_flow -> users BY NAME: SELECT * FROM STREAM(catalog:raw_users)',
            "append once backfill -> users [comment 'one time'] BY NAME: SELECT * FROM catalog:user_backfill",
            'append once backfill2 -> users BY NAME: SELECT * FROM catalog:old_users',
            'append positional -> users: SELECT id, name FROM STREAM(catalog:more_users)',
        ]);
    });

    test('REPLACE USING and REPLACE WHERE flows, standalone and inline', async () => {
        expect(await lines(`
            CREATE STREAMING TABLE events_latest;
            CREATE FLOW events_replace AS INSERT INTO events_latest BY NAME REPLACE USING (region_id, device) SEQUENCE BY seq
              SELECT region_id, device, seq FROM STREAM(region_events);
            CREATE STREAMING TABLE daily;
            CREATE FLOW daily_fix AS INSERT INTO daily BY NAME REPLACE WHERE day >= DATE '2025-01-01' SELECT * FROM corrections;
            CREATE STREAMING TABLE inline_using FLOW REPLACE USING (k) SEQUENCE BY s BY NAME SELECT * FROM STREAM(src);
            CREATE STREAMING TABLE inline_where FLOW REPLACE WHERE k = 1 BY NAME SELECT * FROM src`)).toEqual([
            'streaming_table events_latest',
            'streaming_table daily',
            'streaming_table inline_using',
            'streaming_table inline_where',
            'replace_using events_replace -> events_latest USING (region_id, device) SEQUENCE BY seq: SELECT region_id, device, seq FROM STREAM(catalog:region_events)',
            "replace_where daily_fix -> daily WHERE (day >= DATE '2025-01-01'): SELECT * FROM catalog:corrections",
            'replace_using inline_using -> inline_using USING (k) SEQUENCE BY s: SELECT * FROM STREAM(catalog:src)',
            'replace_where inline_where -> inline_where WHERE (k = 1): SELECT * FROM catalog:src',
        ]);
    });

    test('AUTO CDC with every clause', async () => {
        expect(await lines(`
            CREATE OR REFRESH STREAMING TABLE target;
            CREATE FLOW target_cdc AS AUTO CDC INTO target
            FROM stream(cdc_data.users)
            KEYS (userId, region)
            IGNORE NULL UPDATES ON * EXCEPT (note)
            APPLY AS DELETE WHEN operation = "DELETE"
            APPLY AS TRUNCATE WHEN operation = 'TRUNCATE'
            SEQUENCE BY STRUCT(ts, n)
            COLUMNS * EXCEPT (operation, ts, n)
            STORED AS SCD TYPE 1`)).toEqual([
            'streaming_table target',
            'auto_cdc target_cdc -> target FROM STREAM(catalog:cdc_data.users) KEYS (userId, region) IGNORE NULL UPDATES ON * EXCEPT (note)'
            + " DELETE WHEN (operation = 'DELETE') TRUNCATE WHEN (operation = 'TRUNCATE') SEQUENCE BY struct(ts: ts, n: n)"
            + ' COLUMNS * EXCEPT (operation, ts, n) STORED AS scd1',
        ]);
        expect(await lines(`
            CREATE STREAMING TABLE history;
            CREATE FLOW h AS AUTO CDC INTO history FROM src KEYS (id) SEQUENCE BY seq
            COLUMNS (id, name, city) STORED AS SCD TYPE 2 TRACK HISTORY ON name, city;
            CREATE STREAMING TABLE partial;
            CREATE FLOW p AS AUTO CDC ONCE INTO partial FROM src KEYS (id) SEQUENCE BY seq COLUMNS id, name COLUMNS TO UPDATE cols;
            CREATE STREAMING TABLE nulls;
            CREATE FLOW n AS AUTO CDC INTO nulls FROM STREAM src KEYS (id) IGNORE NULL UPDATES ON (a, b) SEQUENCE BY seq;
            CREATE STREAMING TABLE bi;
            CREATE FLOW b AS AUTO CDC INTO bi FROM STREAM(src) KEYS (id) SEQUENCE BY business_ts SYSTEM SEQUENCE BY system_ts STORED AS BITEMPORAL`)).toEqual([
            'streaming_table history',
            'streaming_table partial',
            'streaming_table nulls',
            'streaming_table bi',
            'auto_cdc h -> history FROM catalog:src KEYS (id) SEQUENCE BY seq COLUMNS (id, name, city) STORED AS scd2 TRACK HISTORY ON (name, city)',
            'auto_cdc once p -> partial FROM catalog:src KEYS (id) SEQUENCE BY seq COLUMNS (id, name) STORED AS scd1 COLUMNS TO UPDATE cols',
            'auto_cdc n -> nulls FROM STREAM(catalog:src) KEYS (id) IGNORE NULL UPDATES ON (a, b) SEQUENCE BY seq STORED AS scd1',
            'auto_cdc b -> bi FROM STREAM(catalog:src) KEYS (id) SEQUENCE BY business_ts SYSTEM SEQUENCE BY system_ts STORED AS bitemporal',
        ]);
    });

    test('inline FLOW AUTO CDC and the legacy APPLY CHANGES statement are flows named after their target', async () => {
        expect(await lines(`
            CREATE OR REFRESH STREAMING TABLE inline_target FLOW AUTO CDC FROM STREAM(src) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;
            CREATE STREAMING LIVE TABLE legacy;
            APPLY CHANGES INTO LIVE.legacy FROM STREAM(LIVE.inline_target) KEYS (id) IGNORE NULL UPDATES SEQUENCE BY seq;
            CREATE STREAMING TABLE via_flow;
            CREATE FLOW via_flow_cdc AS APPLY CHANGES INTO via_flow FROM STREAM(src) KEYS (id) SEQUENCE BY seq`)).toEqual([
            'streaming_table inline_target',
            'streaming_table legacy',
            'streaming_table via_flow',
            'auto_cdc inline_target -> inline_target FROM STREAM(catalog:src) KEYS (id) SEQUENCE BY seq STORED AS scd2',
            'auto_cdc legacy -> legacy FROM STREAM(dataset:inline_target) KEYS (id) IGNORE NULL UPDATES ON * SEQUENCE BY seq STORED AS scd1',
            'auto_cdc via_flow_cdc -> via_flow FROM STREAM(catalog:src) KEYS (id) SEQUENCE BY seq STORED AS scd1',
        ]);
    });

    test('AUTO CDC FROM SNAPSHOT: query and version query with the snapshot-version functions; the legacy FROM SNAPSHOT name', async () => {
        expect(await lines(`
            CREATE OR REFRESH STREAMING TABLE target;
            CREATE FLOW target_snapshot_flow AS AUTO CDC INTO target
            FROM SNAPSHOT (
              SELECT Key, Value FROM mycatalog.myschema.snaps
              WHERE snapshot_ts = (SELECT v FROM current_snapshot_version())
            )
            WITH VERSION (
              SELECT min(snapshot_ts) AS v FROM mycatalog.myschema.snaps
              WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version()) OR snapshot_ts > last_snapshot_version()
              HAVING min(snapshot_ts) IS NOT NULL
            )
            KEYS (Key)
            STORED AS SCD TYPE 2
            TRACK HISTORY ON * EXCEPT (Value);
            CREATE STREAMING TABLE simple;
            CREATE FLOW simple_snapshot AS AUTO CDC ONCE INTO simple FROM SNAPSHOT daily_export KEYS (id)`)).toEqual([
            'streaming_table target',
            'streaming_table simple',
            'snapshot target_snapshot_flow -> target'
            + ' SNAPSHOT (SELECT Key, Value FROM catalog:mycatalog.myschema.snaps WHERE (snapshot_ts = (SELECT v FROM current_snapshot_version())))'
            + ' VERSION (SELECT min(snapshot_ts) AS v FROM catalog:mycatalog.myschema.snaps'
            + ' WHERE ((NOT EXISTS (SELECT 1 FROM last_snapshot_version())) or (snapshot_ts > last_snapshot_version())) HAVING (min(snapshot_ts) IS NOT NULL))'
            + ' KEYS (Key) STORED AS scd2 TRACK HISTORY ON * EXCEPT (Value)',
            'snapshot once simple_snapshot -> simple SNAPSHOT (SELECT * FROM catalog:daily_export) KEYS (id) STORED AS scd1',
        ]);
    });
});

describe('configuration and the sample catalog', () => {
    test('SET statements and the project file configuration become the pipeline conf; SET CATALOG / USE SCHEMA are namespaces', async () => {
        const result = await lower(`
            SET pipelines.trigger.interval = 1 hour;
            SET source_schema = 'raw';
            SET CATALOG main;
            USE SCHEMA sales;
            CREATE MATERIALIZED VIEW orders_copy AS SELECT * FROM main.sales.orders;
            CREATE MATERIALIZED VIEW orders AS SELECT * FROM \${source_schema}.orders`, { settings: { configuration: { env: 'dev', source_schema: 'ignored' } } });
        expect(result.problems).toEqual([]);
        expect(result.pipeline.conf).toEqual({ env: 'dev', source_schema: 'raw', 'pipelines.trigger.interval': '1 hour' });
        // `main.sales.orders` names the pipeline's own `orders` (default catalog and schema); `${source_schema}.orders` is the raw table.
        expect(result.lines.filter(l => l.includes(' -> '))).toEqual([
            'materialized_view orders_copy -> orders_copy: SELECT * FROM dataset:orders',
            'materialized_view orders -> orders: SELECT * FROM catalog:raw.orders',
        ]);
    });

    test('samples/*.sql declarations become catalog tables (format, location, options, declared columns)', async () => {
        expect(await lines('CREATE MATERIALIZED VIEW v AS SELECT * FROM cdc_data.users JOIN ref.codes USING (code)', {
            catalog: {
                'catalog.sql': `-- Types of the sample tables.
                    CREATE TABLE cdc_data.users (user_id INT, name STRING, event_ts TIMESTAMP) USING JSON LOCATION 'cdc_data/users';
                    CREATE TABLE ref.codes USING CSV LOCATION 'ref/codes.csv' OPTIONS (header 'true', delimiter ';');
                    CREATE TABLE ref.rates LOCATION 'ref/rates.parquet'`,
            },
        })).toEqual([
            'materialized_view v',
            'materialized_view v -> v: SELECT * FROM (catalog:cdc_data.users INNER JOIN catalog:ref.codes USING (code))',
            "catalog cdc_data.users (user_id INT, name STRING, event_ts TIMESTAMP) USING json LOCATION 'cdc_data/users'",
            'catalog ref.codes USING csv LOCATION \'ref/codes.csv\' OPTIONS {"header":"true","delimiter":";"}',
            "catalog ref.rates USING parquet LOCATION 'ref/rates.parquet'",
        ]);
    });
});
