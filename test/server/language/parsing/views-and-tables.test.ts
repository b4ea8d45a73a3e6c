import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { createParser, createTestServices } from '../../../helpers/parse.js';
import { treeOf } from '../../../helpers/tree.js';

const { shared, services } = createTestServices();
const tree = treeOf(createParser(services));

afterEach(() => clearDocuments(shared));

describe('CREATE MATERIALIZED VIEW', () => {
    test('columns with expectations, CLUSTER BY, REFRESH POLICY and USING ICEBERG', async () => {
        expect(await tree(`CREATE OR REFRESH MATERIALIZED VIEW mv (id INT, CONSTRAINT c EXPECT (id > 0))
            CLUSTER BY (id) REFRESH POLICY INCREMENTAL STRICT USING ICEBERG AS SELECT id FROM LIVE.src`)).toBe(
            'CreateMaterializedView(orRefresh, name: \'mv\', spec: TableSpec(elements: [ColumnDef(name: \'id\', type: INT), '
            + 'Expectation(name: \'c\', condition: (id > 0))]), clauses: [ClusterByClause(columns: [\'id\']), '
            + 'RefreshPolicyClause(policy: \'INCREMENTAL STRICT\'), UsingClause(format: \'ICEBERG\')], '
            + 'query: Query(body: SelectQuery(items: [SelectItem(expression: id)], from: FromClause(relations: [TableReference(table: DatasetRef(ref: @LIVE.src))]))))');
    });

    test('PRIVATE, IF NOT EXISTS and a COMMENT clause', async () => {
        expect(await tree('CREATE PRIVATE MATERIALIZED VIEW IF NOT EXISTS m COMMENT "daily totals" AS SELECT 1 AS one')).toBe(
            'CreateMaterializedView(private, ifNotExists, name: \'m\', clauses: [CommentClause(comment: \'daily totals\')], '
            + 'query: Query(body: SelectQuery(items: [SelectItem(expression: 1, alias: \'one\')])))');
    });

    test('legacy CREATE OR REFRESH [TEMPORARY] LIVE TABLE is a materialized view', async () => {
        expect(await tree('CREATE OR REFRESH TEMPORARY LIVE TABLE t AS SELECT 1')).toBe(
            'CreateMaterializedView(orRefresh, temporary, legacyLiveTable, name: \'t\', query: Query(body: SelectQuery(items: [SelectItem(expression: 1)])))');
    });

    test('Databricks SQL schedules and triggers', async () => {
        expect(await tree(`CREATE MATERIALIZED VIEW m SCHEDULE EVERY 1 HOUR TRIGGER ON UPDATE AT MOST EVERY INTERVAL 5 MINUTES
            DEFAULT COLLATION UTF8_BINARY AS SELECT 1`)).toBe('CreateMaterializedView(name: \'m\', clauses: ['
            + 'ScheduleClause(every: \'1\', unit: \'HOUR\'), TriggerOnUpdateClause(atMostEvery: INTERVAL 5 MINUTES), '
            + 'DefaultCollationClause(collation: \'UTF8_BINARY\')], query: Query(body: SelectQuery(items: [SelectItem(expression: 1)])))');
    });
});

describe('views', () => {
    test('CREATE OR REPLACE TEMPORARY VIEW with column aliases', async () => {
        expect(await tree('CREATE OR REPLACE TEMPORARY VIEW v (a, b COMMENT \'x\') AS SELECT 1, 2')).toBe(
            'CreateView(orReplace, temporary, name: \'v\', spec: TableSpec(elements: [ColumnDef(name: \'a\'), '
            + 'ColumnDef(name: \'b\', properties: [CommentProperty(comment: \'x\')])]), '
            + 'query: Query(body: SelectQuery(items: [SelectItem(expression: 1), SelectItem(expression: 2)])))');
    });

    test('legacy TEMPORARY STREAMING LIVE VIEW with an expectation', async () => {
        expect(await tree('CREATE TEMPORARY STREAMING LIVE VIEW v (a COMMENT \'a\', CONSTRAINT ok EXPECT (a > 0)) AS SELECT * FROM STREAM(s)')).toBe(
            'CreateView(temporary, streaming, live, name: \'v\', spec: TableSpec(elements: [ColumnDef(name: \'a\', '
            + 'properties: [CommentProperty(comment: \'a\')]), Expectation(name: \'ok\', condition: (a > 0))]), '
            + 'query: Query(body: SelectQuery(items: [SelectItem(expression: *)], from: FromClause(relations: [TableReference(stream, table: DatasetRef(ref: @s))]))))');
    });

    test('a persisted view', async () => {
        expect(await tree('CREATE VIEW v AS SELECT 1')).toBe('CreateView(name: \'v\', query: Query(body: SelectQuery(items: [SelectItem(expression: 1)])))');
    });
});

describe('CREATE TABLE', () => {
    test('a catalog table of a sample catalog: CREATE TABLE a.b (cols) USING CSV LOCATION \'path\'', async () => {
        expect(await tree('CREATE TABLE sales.orders (id INT, amount DOUBLE) USING CSV LOCATION \'/data/orders.csv\'')).toBe(
            'CreateTable(name: \'sales.orders\', spec: TableSpec(elements: [ColumnDef(name: \'id\', type: INT), ColumnDef(name: \'amount\', type: DOUBLE)]), '
            + 'clauses: [UsingClause(format: \'CSV\'), LocationClause(path: \'/data/orders.csv\')])');
    });

    test('a CSV catalog table with OPTIONS written with and without =', async () => {
        expect(await tree('CREATE TABLE cat.sales.orders (id INT) USING CSV OPTIONS (header \'true\', delimiter = \',\', \'inferSchema\' true) LOCATION \'samples/o.csv\'')).toBe(
            'CreateTable(name: \'cat.sales.orders\', spec: TableSpec(elements: [ColumnDef(name: \'id\', type: INT)]), clauses: [UsingClause(format: \'CSV\'), '
            + 'OptionsClause(properties: [Property(key: \'header\', value: \'true\'), Property(key: \'delimiter\', value: \',\'), '
            + 'Property(key: \'inferSchema\', value: \'true\')]), LocationClause(path: \'samples/o.csv\')])');
    });

    test('a managed table with an inline append flow', async () => {
        expect(await tree('CREATE TABLE t PARTITIONED BY (b) FLOW INSERT BY NAME SELECT 1, 2')).toBe(
            'CreateTable(name: \'t\', clauses: [PartitionedByClause(columns: [PartitionColumn(name: \'b\')])], '
            + 'flow: InlineFlow(body: InsertFlow(byName, query: Query(body: SelectQuery(items: [SelectItem(expression: 1), SelectItem(expression: 2)])))))');
    });

    test('column-level foreign keys, as Databricks\' column_constraint writes them: [CONSTRAINT n] [FOREIGN KEY] REFERENCES t [(c)] [options]', async () => {
        expect(await tree(`CREATE MATERIALIZED VIEW f (
            k BIGINT NOT NULL CONSTRAINT fk_k FOREIGN KEY REFERENCES dim_t (id) NOT ENFORCED RELY,
            j BIGINT REFERENCES cat.sch.dim_t,
            m BIGINT CONSTRAINT m_fk REFERENCES dim_t(id) MATCH FULL ON DELETE NO ACTION,
            p BIGINT CONSTRAINT pk PRIMARY KEY RELY,
            action STRING, match STRING, no INT
        ) AS SELECT 1 AS k`)).toBe(
            'CreateMaterializedView(name: \'f\', spec: TableSpec(elements: ['
            + 'ColumnDef(name: \'k\', type: BIGINT, properties: [NotNullProperty, ForeignKeyProperty(name: \'fk_k\', referencedTable: \'dim_t\', '
            + 'referencedColumns: ColumnNameList(names: [\'id\']), options: [\'NOT ENFORCED\', \'RELY\'])]), '
            + 'ColumnDef(name: \'j\', type: BIGINT, properties: [ForeignKeyProperty(referencedTable: \'cat.sch.dim_t\')]), '
            + 'ColumnDef(name: \'m\', type: BIGINT, properties: [ForeignKeyProperty(name: \'m_fk\', referencedTable: \'dim_t\', '
            + 'referencedColumns: ColumnNameList(names: [\'id\']), options: [\'MATCH FULL\', \'ON DELETE NO ACTION\'])]), '
            + 'ColumnDef(name: \'p\', type: BIGINT, properties: [PrimaryKeyProperty(name: \'pk\', options: [\'RELY\'])]), '
            + 'ColumnDef(name: \'action\', type: STRING), ColumnDef(name: \'match\', type: STRING), ColumnDef(name: \'no\', type: INT)]), '
            + 'query: Query(body: SelectQuery(items: [SelectItem(expression: 1, alias: \'k\')])))');
    });

    test('CREATE TABLE ... AS query, and informational key constraints', async () => {
        expect(await tree('CREATE TABLE t AS SELECT 1')).toBe('CreateTable(name: \'t\', query: Query(body: SelectQuery(items: [SelectItem(expression: 1)])))');
        expect(await tree(`CREATE TABLE o (id BIGINT PRIMARY KEY, c BIGINT,
            CONSTRAINT fk FOREIGN KEY (c) REFERENCES customers (id) NOT ENFORCED)`)).toBe(
            'CreateTable(name: \'o\', spec: TableSpec(elements: [ColumnDef(name: \'id\', type: BIGINT, properties: [PrimaryKeyProperty]), '
            + 'ColumnDef(name: \'c\', type: BIGINT), TableConstraint(name: \'fk\', foreignKey, columns: ColumnNameList(names: [\'c\']), '
            + 'referencedTable: \'customers\', referencedColumns: ColumnNameList(names: [\'id\']), options: [\'NOT ENFORCED\'])]))');
    });
});
