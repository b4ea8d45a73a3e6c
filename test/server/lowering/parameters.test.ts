// Pipeline parameters: `${name}` takes its value from the project file's `configuration:` and from
// SET statements, in dataset and table names, in strings, and as an expression of its own.
import { describe, expect, test } from 'vitest';
import { lower } from './lower-helper.js';

describe('pipeline parameters', () => {
    test('in names (declarations, references, flow targets) and in read_files paths', async () => {
        const result = await lower(`
            SET env = dev;
            CREATE STREAMING TABLE \${env}_orders AS SELECT * FROM STREAM(\${source_catalog}.raw.orders);
            CREATE MATERIALIZED VIEW totals AS SELECT count(*) AS n FROM dev_orders;
            CREATE FLOW backfill AS INSERT ONCE INTO \${env}_orders BY NAME SELECT * FROM read_files('\${landing}/orders', format => 'json')`,
        { settings: { configuration: { source_catalog: 'bronze', landing: '/Volumes/landing' } } });
        expect(result.problems).toEqual([]);
        expect(result.lines).toEqual([
            'streaming_table dev_orders',
            'materialized_view totals',
            'append dev_orders -> dev_orders BY NAME: SELECT * FROM STREAM(catalog:bronze.raw.orders)',
            'materialized_view totals -> totals: SELECT count(*) AS n FROM dataset:dev_orders',
            'append once backfill -> dev_orders BY NAME: SELECT * FROM read_files(\'/Volumes/landing/orders\', format => "json")',
            'conf {"source_catalog":"bronze","landing":"/Volumes/landing","env":"dev"}',
        ]);
    });

    test('in strings the value is substituted; an unknown parameter in a string stays as written (as in Spark)', async () => {
        const result = await lower("CREATE MATERIALIZED VIEW v AS SELECT '${region}' AS r, 'cost: ${unknown}' AS u, DATE '${start}' AS d",
            { settings: { configuration: { region: 'EU', start: '2025-01-01' } } });
        expect(result.lines[1]).toBe("materialized_view v -> v: SELECT 'EU' AS r, 'cost: ${unknown}' AS u, DATE '2025-01-01' AS d");
    });

    test('standing alone, the value is read as an expression, as Spark substitutes text (SET keeps the quotes of a string value)', async () => {
        const result = await lower(`
            SET threshold = 100;
            SET label = 'big';
            SET column_name = amount;
            CREATE MATERIALIZED VIEW v AS SELECT \${label} AS label, \${column_name} * 2 AS twice, \${later} AS later, '\${label}' AS quoted
            FROM orders WHERE amount > \${threshold}`);
        // An unknown parameter is left to the engine, which reports UNBOUND_SQL_PARAMETER at run time.
        expect(result.lines[1]).toBe("materialized_view v -> v: SELECT 'big' AS label, (amount * 2) AS twice, ${later} AS later, 'big' AS quoted"
            + ' FROM catalog:orders WHERE (amount > 100)');
        expect(result.pipeline.conf).toEqual({ threshold: '100', label: 'big', column_name: 'amount' });
    });

    test('a value that is no expression is an error at the parameter', async () => {
        const result = await lower('CREATE MATERIALIZED VIEW v AS SELECT ${broken} AS x', { settings: { configuration: { broken: '1 +' } } });
        expect(result.problems).toEqual([
            "pipeline.sql:1:38-1:47 PIPELINE_SQL_UNSUPPORTED_FEATURE The value '1 +' of the pipeline parameter '${broken}' is not an expression.",
        ]);
    });
});
