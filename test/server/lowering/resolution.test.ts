// Table resolution (TableSourceIR): a name naming a dataset of the pipeline → dataset (across files,
// without LIVE., case-insensitively, with the default catalog / schema as optional qualifiers); a CTE in
// scope → cte; read_files and the snapshot-version functions → their sources; else → the sample catalog.
import { describe, expect, test } from 'vitest';
import { lower } from './lower-helper.js';

async function flows(files: Record<string, string> | string, options?: Parameters<typeof lower>[1]): Promise<string[]> {
    const result = await lower(files, options);
    expect(result.problems).toEqual([]);
    return result.lines.filter(l => l.includes(' -> '));
}

describe('table resolution', () => {
    test('datasets across files, LIVE. and any letter case name the dataset as declared', async () => {
        expect(await flows({
            'a.sql': 'CREATE MATERIALIZED VIEW report AS SELECT * FROM Users_Changes JOIN LIVE.cities USING (city)',
            'b.sql': 'CREATE STREAMING TABLE users_changes AS SELECT * FROM STREAM(cdc.users);\nCREATE MATERIALIZED VIEW Cities AS SELECT DISTINCT city FROM users_changes',
        })).toEqual([
            'materialized_view report -> report: SELECT * FROM (dataset:users_changes INNER JOIN dataset:Cities USING (city))',
            'append users_changes -> users_changes BY NAME: SELECT * FROM STREAM(catalog:cdc.users)',
            'materialized_view Cities -> Cities: SELECT DISTINCT city FROM dataset:users_changes',
        ]);
    });

    test('without the pipeline model\'s links (files outside any registered root) the name fallback resolves the same', async () => {
        const files = {
            'a.sql': 'CREATE MATERIALIZED VIEW report AS WITH x AS (SELECT 1 AS one) SELECT * FROM Users_Changes JOIN LIVE.cities USING (city), X, cdc_data.users',
            'b.sql': 'CREATE STREAMING TABLE users_changes AS SELECT * FROM STREAM(cdc.users);\nCREATE MATERIALIZED VIEW Cities AS SELECT DISTINCT city FROM users_changes',
        };
        const catalog = { 'catalog.sql': "CREATE TABLE cdc_data.users (id INT) USING JSON LOCATION 'x'" };
        const linked = await flows(files, { catalog });
        expect(linked[0]).toBe('materialized_view report -> report: WITH x AS (SELECT 1 AS one) SELECT * FROM (dataset:users_changes INNER JOIN dataset:Cities USING (city)), cte:x, catalog:cdc_data.users');
        expect(await flows(files, { catalog, standalone: true })).toEqual(linked);
    });

    test('a CTE in scope wins over a dataset of the same name, also from a nested subquery', async () => {
        expect(await flows(`
            CREATE MATERIALIZED VIEW users AS SELECT 1 AS id;
            CREATE MATERIALIZED VIEW v AS WITH users AS (SELECT 2 AS id) SELECT * FROM (SELECT * FROM USERS) AS s WHERE id IN (SELECT id FROM users);
            CREATE MATERIALIZED VIEW w AS SELECT * FROM users`)).toEqual([
            'materialized_view users -> users: SELECT 1 AS id',
            'materialized_view v -> v: WITH users AS (SELECT 2 AS id) SELECT * FROM (SELECT * FROM cte:users) AS s WHERE ((id) IN (SELECT id FROM cte:users))',
            'materialized_view w -> w: SELECT * FROM dataset:users',
        ]);
    });

    test('qualified dataset names, and the project file\'s catalog and schema as optional qualifiers', async () => {
        expect(await flows(`
            CREATE MATERIALIZED VIEW sales.orders AS SELECT 1 AS id;
            CREATE MATERIALIZED VIEW a AS SELECT * FROM sales.orders;
            CREATE MATERIALIZED VIEW b AS SELECT * FROM main.sales.orders;
            CREATE MATERIALIZED VIEW c AS SELECT * FROM orders;
            CREATE MATERIALIZED VIEW d AS SELECT * FROM other.orders`, { settings: { configuration: {}, catalog: 'main', schema: 'sales' } })).toEqual([
            'materialized_view sales.orders -> sales.orders: SELECT 1 AS id',
            'materialized_view a -> a: SELECT * FROM dataset:sales.orders',
            'materialized_view b -> b: SELECT * FROM dataset:sales.orders',
            'materialized_view c -> c: SELECT * FROM dataset:sales.orders',
            'materialized_view d -> d: SELECT * FROM catalog:other.orders',
        ]);
    });

    test('a table declared in samples/*.sql is a catalog table, as is any name the pipeline does not define', async () => {
        expect(await flows('CREATE MATERIALIZED VIEW v AS SELECT * FROM cdc_data.users, lookup', {
            catalog: { 'catalog.sql': "CREATE TABLE cdc_data.users (id INT) USING JSON LOCATION 'cdc_data/users'" },
        })).toEqual([
            'materialized_view v -> v: SELECT * FROM catalog:cdc_data.users, catalog:lookup',
        ]);
    });

    test('flow targets resolve like references: INTO LIVE.t writes the dataset t', async () => {
        expect(await flows('CREATE STREAMING TABLE Target;\nCREATE FLOW f AS INSERT INTO live.target BY NAME SELECT * FROM STREAM(src)')).toEqual([
            'append f -> Target BY NAME: SELECT * FROM STREAM(catalog:src)',
        ]);
    });
});
