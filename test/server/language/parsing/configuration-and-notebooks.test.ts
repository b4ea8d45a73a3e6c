import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { createParser, createTestServices } from '../../../helpers/parse.js';
import { printAst } from '../../../helpers/print-ast.js';
import { treeOf } from '../../../helpers/tree.js';

const { shared, services } = createTestServices();
const parse = createParser(services);
const tree = treeOf(parse);

afterEach(() => clearDocuments(shared));

/** Parses a file and returns its statements' printed trees, asserting that it has no diagnostics. */
async function trees(text: string): Promise<string[]> {
    const { statements, diagnostics } = await parse(text);
    expect(diagnostics).toEqual([]);
    return statements.map(statement => printAst(statement));
}

describe('SET and USE', () => {
    test('SET key = value with dotted keys, strings, numbers, booleans and units; SET CATALOG', async () => {
        expect(await trees(`SET spark.sql.shuffle.partitions = 10;
            SET pipelines.trigger.interval = '1 hour';
            SET flag = true;
            SET x = 10s;
            SET pipelines.trigger.interval = 1 hour;
            SET CATALOG main;`)).toEqual([
            'SetStatement(key: \'spark.sql.shuffle.partitions\', value: \'10\')',
            'SetStatement(key: \'pipelines.trigger.interval\', value: \'1 hour\')',
            'SetStatement(key: \'flag\', value: \'true\')',
            'SetStatement(key: \'x\', value: \'10s\')',
            'SetStatement(key: \'pipelines.trigger.interval\', value: \'1 hour\')',
            'SetStatement(scope: \'CATALOG\', target: \'main\')',
        ]);
    });

    test('SET key=value takes the rest of the statement as the value, as Spark does (a raw path, spaces, a comment inside)', async () => {
        expect(await trees(`SET datasets.path=dbfs:/mnt/demo;
            SET src = s3://bucket/raw-data/2024;
            SET msg = hello, world /* inside */ again -- after the value
            ;
            SET q = 'quoted';
            SET n = -1.5e3;`)).toEqual([
            'SetStatement(key: \'datasets.path\', value: \'dbfs:/mnt/demo\')',
            'SetStatement(key: \'src\', value: \'s3://bucket/raw-data/2024\')',
            'SetStatement(key: \'msg\', value: \'hello, world /* inside */ again\')',
            'SetStatement(key: \'q\', value: \'quoted\')',
            'SetStatement(key: \'n\', value: \'-1.5e3\')',
        ]);
    });

    test('USE [CATALOG|SCHEMA] with parameters and IDENTIFIER()', async () => {
        expect(await trees('USE CATALOG ${target_catalog}; USE SCHEMA IDENTIFIER(${schema_name}); USE main.sales; USE NAMESPACE n')).toEqual([
            'UseStatement(scope: \'CATALOG\', name: \'${target_catalog}\')',
            'UseStatement(scope: \'SCHEMA\', name: \'${schema_name}\')',
            'UseStatement(name: \'main.sales\')',
            'UseStatement(scope: \'NAMESPACE\', name: \'n\')',
        ]);
    });
});

describe('pipeline parameters', () => {
    test('${param} in names, inside a name, as a value and inside strings', async () => {
        expect(await tree('SELECT * FROM ${source_catalog}.${source_schema}.orders_${env} WHERE d = \'${run_date}\' AND id = ${id} AND a > :min_amount')).toBe(
            'Query(body: SelectQuery(items: [SelectItem(expression: *)], from: FromClause(relations: [TableReference(table: DatasetRef('
            + 'ref: @${source_catalog}.${source_schema}.orders_${env}))]), where: (((d = \'${run_date}\') AND (id = ${id})) AND (a > :min_amount))))');
    });

    test('a parameter as dataset name and in a streaming read', async () => {
        expect(await tree('CREATE OR REFRESH STREAMING TABLE ${schema}.silver AS SELECT c.* FROM STREAM (${bronze}.raw) AS c')).toBe(
            'CreateStreamingTable(orRefresh, name: \'${schema}.silver\', query: Query(body: SelectQuery(items: [SelectItem(expression: c.*)], '
            + 'from: FromClause(relations: [TableReference(stream, table: DatasetRef(ref: @${bronze}.raw), alias: \'c\')]))))');
    });
});

describe('Databricks SQL notebook exports', () => {
    test('cell breaks end statements; MAGIC lines and the header are comments', async () => {
        expect(await trees(`-- Databricks notebook source
-- MAGIC %md
-- MAGIC # Bronze tables

-- COMMAND ----------

CREATE OR REFRESH STREAMING TABLE a AS SELECT * FROM STREAM(b)

-- COMMAND ----------

-- MAGIC %python
-- MAGIC print("not SQL; ignored")

-- COMMAND ----------
CREATE OR REFRESH MATERIALIZED VIEW c AS SELECT count(*) AS n FROM a
`)).toEqual([
            'CreateStreamingTable(orRefresh, name: \'a\', query: Query(body: SelectQuery(items: [SelectItem(expression: *)], '
            + 'from: FromClause(relations: [TableReference(stream, table: DatasetRef(ref: @b))]))))',
            'CreateMaterializedView(orRefresh, name: \'c\', query: Query(body: SelectQuery(items: [SelectItem(expression: count(*), alias: \'n\')], '
            + 'from: FromClause(relations: [TableReference(table: DatasetRef(ref: @a))]))))',
        ]);
    });

    test('a cell break ends a statement that has no semicolon, and semicolons still work inside a cell', async () => {
        expect(await trees('SELECT 1\n-- COMMAND ----------\nSELECT 2; SELECT 3;\n')).toEqual([
            'Query(body: SelectQuery(items: [SelectItem(expression: 1)]))',
            'Query(body: SelectQuery(items: [SelectItem(expression: 2)]))',
            'Query(body: SelectQuery(items: [SelectItem(expression: 3)]))',
        ]);
    });
});

describe('other statements found in pipeline sources', () => {
    test('DML, catalog DDL and a stray expectation parse (the pipeline model judges them)', async () => {
        expect(await trees(`INSERT INTO \${c}.gold.summary SELECT 1;
            UPDATE t SET a = 1, b = b + 1 WHERE id = 2;
            DELETE FROM t WHERE d < CURRENT_DATE() - INTERVAL 7 DAYS;
            CREATE CATALOG IF NOT EXISTS \${new_catalog};
            ALTER CATALOG main SET OWNER TO \`team\`;
            DROP TABLE IF EXISTS a.b;
            DROP MATERIALIZED VIEW m CASCADE;
            CONSTRAINT valid_count EXPECT (count > 0) ON VIOLATION FAIL UPDATE`)).toEqual([
            'InsertStatement(target: DatasetRef(ref: @${c}.gold.summary), query: Query(body: SelectQuery(items: [SelectItem(expression: 1)])))',
            'UpdateStatement(target: DatasetRef(ref: @t), assignments: [Assignment(column: \'a\', value: 1), Assignment(column: \'b\', value: (b + 1))], where: (id = 2))',
            'DeleteStatement(target: DatasetRef(ref: @t), where: (d < (CURRENT_DATE() - INTERVAL 7 DAYS)))',
            'CreateNamespace(kind: \'CATALOG\', ifNotExists, name: \'${new_catalog}\')',
            'AlterOwner(kind: \'CATALOG\', name: \'main\', owner: \'team\')',
            'DropStatement(kind: \'TABLE\', ifExists, name: \'a.b\')',
            'DropStatement(kind: \'MATERIALIZED VIEW\', name: \'m\', option: \'CASCADE\')',
            'Expectation(name: \'valid_count\', condition: (count > 0), failUpdate)',
        ]);
    });
});
