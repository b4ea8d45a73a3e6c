// What the lowering cannot express is an error naming the file, the line and the construct, never a
// silent drop: constructs the local engine cannot run, statements that are no part of a pipeline,
// and flows missing what they need.
import { describe, expect, test } from 'vitest';
import { firstProblem, lower } from './lower-helper.js';

const st = 'CREATE STREAMING TABLE t;\n';

describe('constructs the local engine cannot run', () => {
    test.each([
        ['CREATE MATERIALIZED VIEW v AS SELECT * FROM t TABLESAMPLE (10 PERCENT)',
            'pipeline.sql:1:47-1:71 PIPELINE_SQL_UNSUPPORTED_FEATURE TABLESAMPLE cannot run locally: sampling would make results differ from run to run.'],
        ['CREATE STREAMING TABLE s AS SELECT * FROM STREAM(t) WATERMARK ts DELAY OF INTERVAL 10 MINUTES',
            'pipeline.sql:1:53-1:94 PIPELINE_SQL_UNSUPPORTED_FEATURE WATERMARK cannot run locally: the local engine has no event-time state to expire, so late rows would not be dropped as in Spark.'],
        ['CREATE MATERIALIZED VIEW v AS SELECT * FROM t VERSION AS OF 3',
            'pipeline.sql:1:47-1:62 PIPELINE_SQL_UNSUPPORTED_FEATURE Time travel (VERSION AS OF) cannot run locally: the sample catalog keeps no table versions.'],
        [`${st}APPLY CHANGES INTO t FROM STREAM(s) KEYS (id) WHERE x > 1 SEQUENCE BY ts`,
            'pipeline.sql:2:47-2:58 PIPELINE_SQL_UNSUPPORTED_FEATURE The legacy flow filter WHERE of APPLY CHANGES cannot run locally; filter the source in a temporary view and read the view.'],
        ['CREATE STREAMING TABLE t (a INT MASK m.f)',
            'pipeline.sql:1:33-1:41 PIPELINE_SQL_UNSUPPORTED_FEATURE The column mask m.f cannot run locally; a local run would show the unmasked values.'],
        ['CREATE STREAMING TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY) AS SELECT * FROM STREAM(s)',
            'pipeline.sql:1:37-1:65 PIPELINE_SQL_UNSUPPORTED_FEATURE Identity columns (GENERATED ... AS IDENTITY) cannot run locally.'],
        ['CREATE MATERIALIZED VIEW v WITH ROW FILTER f ON (a) AS SELECT 1',
            'pipeline.sql:1:28-1:52 PIPELINE_SQL_UNSUPPORTED_FEATURE The row filter f cannot run locally; a local run would show every row.'],
        ['CREATE MATERIALIZED VIEW v AS SELECT my_schema.my_udf(x) FROM t',
            "pipeline.sql:1:38-1:57 PIPELINE_SQL_UNSUPPORTED_FEATURE The function 'my_schema.my_udf' is not a built-in function; user-defined functions cannot run locally."],
        ['CREATE MATERIALIZED VIEW v AS SELECT ? FROM t',
            'pipeline.sql:1:38-1:39 PIPELINE_SQL_UNSUPPORTED_FEATURE A positional parameter marker (?) has no value in a pipeline; use a named parameter or ${name}.'],
        ['CREATE MATERIALIZED VIEW v AS SELECT INTERVAL (x) DAY FROM t',
            'pipeline.sql:1:47-1:54 PIPELINE_SQL_UNSUPPORTED_FEATURE An interval with a computed value (INTERVAL (expr) unit) cannot run locally; use make_interval or a constant.'],
        ['CREATE MATERIALIZED VIEW v AS SELECT a FROM t ORDER BY ALL',
            'pipeline.sql:1:56-1:59 PIPELINE_SQL_UNSUPPORTED_FEATURE ORDER BY ALL cannot run locally; list the columns to sort by.'],
        ['CREATE MATERIALIZED VIEW v AS SELECT CAST(a AS TIME) FROM t',
            'pipeline.sql:1:48-1:52 PIPELINE_SQL_UNSUPPORTED_FEATURE The TIME type cannot run locally; use TIMESTAMP or STRING.'],
        ['CREATE MATERIALIZED VIEW v AS SELECT * FROM read_files(path_column)',
            'pipeline.sql:1:45-1:68 PIPELINE_SQL_UNSUPPORTED_FEATURE read_files takes the path as a string literal first argument.'],
    ])('%s', async (sql, problem) => {
        expect(await firstProblem(sql)).toBe(problem);
    });
});

describe('statements and clauses that are no part of a pipeline, or incomplete', () => {
    test.each([
        ['UPDATE t SET a = 1', 'pipeline.sql:1:1-1:19 PIPELINE_SQL_INVALID_PIPELINE UPDATE cannot be part of a pipeline'],
        ['SELECT 1', 'pipeline.sql:1:1-1:9 PIPELINE_SQL_INVALID_PIPELINE A query on its own cannot be part of a pipeline'],
        ['CREATE SCHEMA s', 'pipeline.sql:1:1-1:16 PIPELINE_SQL_INVALID_PIPELINE CREATE SCHEMA cannot be part of a pipeline'],
        ['DROP TABLE x', 'pipeline.sql:1:1-1:13 PIPELINE_SQL_INVALID_PIPELINE DROP TABLE cannot be part of a pipeline'],
        ['INSERT INTO x SELECT 1', 'pipeline.sql:1:1-1:23 PIPELINE_SQL_INVALID_PIPELINE INSERT INTO outside CREATE FLOW cannot be part of a pipeline'],
        [`${st}CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id)`,
            "pipeline.sql:2:34-2:58 AUTOCDC_MISSING_SEQUENCE_BY The AUTO CDC flow into 't' has no SEQUENCE BY clause; a change feed must say how to order its events."],
        [`${st}CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT * FROM s) KEYS (id) SEQUENCE BY ts`,
            'pipeline.sql:2:76-2:90 PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED SEQUENCE BY is not allowed in AUTO CDC FROM SNAPSHOT'],
        [`${st}CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT * FROM s) KEYS (id) STORED AS BITEMPORAL`,
            'pipeline.sql:2:76-2:96 PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED STORED AS BITEMPORAL is not allowed in AUTO CDC FROM SNAPSHOT; use SCD TYPE 1 or 2.'],
        [`${st}CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) SEQUENCE BY a SEQUENCE BY b`,
            'pipeline.sql:2:73-2:86 DUPLICATE_CLAUSES SEQUENCE BY appears more than once; write it once.'],
        [`${st}CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (a.b) SEQUENCE BY a`,
            "pipeline.sql:2:46-2:51 AUTOCDC_MULTIPART_COLUMN_IDENTIFIER KEYS takes plain column names, not 'a.b'."],
        [`${st}CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY a STORED AS SCD TYPE 3`,
            'pipeline.sql:2:65-2:85 PIPELINE_SQL_INVALID_PIPELINE SCD TYPE 3 does not exist; use SCD TYPE 1 or SCD TYPE 2.'],
        [`${st}CREATE FLOW f AS INSERT ONCE INTO t BY NAME REPLACE WHERE a = 1 SELECT * FROM s`,
            'pipeline.sql:2:25-2:29 PIPELINE_SQL_INVALID_PIPELINE ONCE cannot be combined with REPLACE WHERE; a replace flow runs on every update.'],
        [`${st}CREATE FLOW f AS INSERT INTO t REPLACE USING (k) SEQUENCE BY s SELECT * FROM s`,
            'pipeline.sql:2:18-2:79 PIPELINE_SQL_INVALID_PIPELINE REPLACE USING requires BY NAME'],
        [`${st}CREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (k) SEQUENCE BY s + 1 SELECT * FROM s`,
            'pipeline.sql:2:70-2:75 PIPELINE_SQL_REPLACE_USING_SEQUENCE_BY_NOT_COLUMN The SEQUENCE BY of REPLACE USING must be exactly one column name, not an expression.'],
        [`${st}CREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (k) SELECT * FROM s`,
            'pipeline.sql:2:48-2:57 PIPELINE_SQL_REPLACE_USING_MISSING_SEQUENCE_BY REPLACE USING needs SEQUENCE BY'],
        ['CREATE STREAMING TABLE t (a, b) AS SELECT 1, 2', "pipeline.sql:1:26-1:32 PIPELINE_SQL_INVALID_PIPELINE The columns of the table 't' need types (name TYPE, ...)."],
        ['CREATE MATERIALIZED VIEW v (a INT, b) AS SELECT 1, 2',
            "pipeline.sql:1:28-1:38 PIPELINE_SQL_INVALID_PIPELINE The column list of 'v' gives types for some columns only; give every column a type, or none."],
        ['CREATE MATERIALIZED VIEW v AS SELECT * FROM ${missing}.t',
            "pipeline.sql:1:45-1:57 UNBOUND_SQL_PARAMETER The pipeline parameter '${missing}' has no value; define it under 'configuration:' of the pipeline or with SET missing = ... ."],
    ])('%s', async (sql, problem) => {
        expect(await firstProblem(sql)).toContain(problem);
    });

    test('every statement is checked: one problem per statement, the others still lowered', async () => {
        const result = await lower(`${st}CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY a;\nUPDATE t SET a = 1;\nDELETE FROM t WHERE a = 2`);
        expect(result.problems.map(p => p.split(' ').slice(0, 2).join(' '))).toEqual([
            'pipeline.sql:3:1-3:19 PIPELINE_SQL_INVALID_PIPELINE',
            'pipeline.sql:4:1-4:26 PIPELINE_SQL_INVALID_PIPELINE',
        ]);
    });
});

describe('sample catalog files declare tables only', () => {
    test.each([
        ['CREATE STREAMING TABLE x', 'catalog.sql:1:1-1:25 PIPELINE_SQL_INVALID_SAMPLE_CATALOG CREATE STREAMING TABLE cannot be in a sample catalog file'],
        ['CREATE TABLE a.b (x INT) USING DELTA', 'catalog.sql:1:26-1:37 PIPELINE_SQL_INVALID_SAMPLE_CATALOG Sample tables are read from CSV, JSON or PARQUET files, not DELTA.'],
        ['CREATE TABLE a.b (x INT)', "catalog.sql:1:1-1:25 PIPELINE_SQL_INVALID_SAMPLE_CATALOG Say how the sample table 'a.b' is stored: USING CSV, JSON or PARQUET."],
        ['CREATE TABLE a.b (x) USING CSV', "catalog.sql:1:19-1:20 PIPELINE_SQL_INVALID_SAMPLE_CATALOG The column 'x' of the sample table 'a.b' needs a type."],
        ['CREATE TABLE a.b USING CSV AS SELECT 1', "catalog.sql:1:1-1:39 PIPELINE_SQL_INVALID_SAMPLE_CATALOG The sample table 'a.b' is declared, not computed: remove its query or flow."],
    ])('%s', async (declaration, problem) => {
        const result = await lower('CREATE MATERIALIZED VIEW v AS SELECT 1 AS one', { catalog: { 'catalog.sql': declaration } });
        expect(result.problems[0]).toContain(problem);
    });
});
