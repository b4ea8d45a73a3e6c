import { afterEach, describe, expect, test } from 'vitest';
import type { TargetProfile } from '../../../../server/src/language/pipeline/pipeline-sql-settings.js';
import { createPipelineTester } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();

afterEach(() => tester.clear());

const catalog = `CREATE TABLE cdc.users (id INT, name STRING, city STRING, op STRING, seq BIGINT, sys_ts TIMESTAMP);
CREATE TABLE raw.events (id INT, region STRING, seq INT, tags MAP<STRING, STRING>, ts TIMESTAMP, payload STRUCT<kind: STRING, n: INT>);`;

async function check(sql: string, options: { hints?: boolean; target?: TargetProfile; spec?: boolean } = {}): Promise<string[]> {
    const p = await tester.load({ 'a.sql': sql }, { catalog, spec: options.spec === false ? undefined : {}, target: options.target });
    return p.diagnostics('a.sql', { hints: options.hints });
}

describe('pipeline-wide checks across files', () => {
    test('a dataset defined in two files: both definitions are reported, naming the other file', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW daily AS SELECT 1 AS n;',
            'b.sql': '-- the same name again\nCREATE MATERIALIZED VIEW Daily AS SELECT 2 AS n;',
        }, { catalog, spec: {} });
        expect(p.all()).toEqual([
            'a.sql [1:26..1:31] error PIPELINE_DUPLICATE_IDENTIFIERS.DATASET The dataset \'daily\' is defined more than once in this pipeline (also b.sql:2); each dataset has one definition.',
            'b.sql [2:26..2:31] error PIPELINE_DUPLICATE_IDENTIFIERS.DATASET The dataset \'Daily\' is defined more than once in this pipeline (also a.sql:1); each dataset has one definition.',
        ]);
    });

    test('a cycle across files names every dataset on it, on each of them', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW a AS SELECT * FROM c;',
            'b.sql': 'CREATE MATERIALIZED VIEW b AS SELECT * FROM a;',
            'c.sql': 'CREATE MATERIALIZED VIEW c AS SELECT * FROM b;\nCREATE MATERIALIZED VIEW ok AS SELECT * FROM c;',
        }, { catalog, spec: {} });
        expect(p.all()).toEqual([
            'a.sql [1:26..1:27] error PIPELINE_SQL_CIRCULAR_DEPENDENCY These datasets read each other in a cycle: \'a\' → \'b\' → \'c\' → \'a\'; a pipeline must be a directed acyclic graph.',
            'b.sql [1:26..1:27] error PIPELINE_SQL_CIRCULAR_DEPENDENCY These datasets read each other in a cycle: \'a\' → \'b\' → \'c\' → \'a\'; a pipeline must be a directed acyclic graph.',
            'c.sql [1:26..1:27] error PIPELINE_SQL_CIRCULAR_DEPENDENCY These datasets read each other in a cycle: \'a\' → \'b\' → \'c\' → \'a\'; a pipeline must be a directed acyclic graph.',
        ]);
    });

    test('explicit flow names are unique in a pipeline', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE STREAMING TABLE s;\nCREATE FLOW load AS INSERT INTO s BY NAME SELECT * FROM STREAM(raw.events);',
            'b.sql': 'CREATE FLOW load AS INSERT INTO s BY NAME SELECT * FROM STREAM(raw.events);',
        }, { catalog, spec: {} });
        expect(p.all()).toEqual([
            'a.sql [2:13..2:17] error PIPELINE_DUPLICATE_IDENTIFIERS.FLOW The flow name \'load\' is used more than once in this pipeline (also b.sql:1); flow names are unique.',
            'b.sql [1:13..1:17] error PIPELINE_DUPLICATE_IDENTIFIERS.FLOW The flow name \'load\' is used more than once in this pipeline (also a.sql:2); flow names are unique.',
        ]);
    });

    test('a flow into an undefined target: an error with a project file, a warning for a file set that may be incomplete', async () => {
        const sql = 'CREATE STREAMING TABLE target_table AS SELECT * FROM STREAM(raw.events);\nCREATE FLOW f AS INSERT INTO target_tabel BY NAME SELECT * FROM STREAM(raw.events);';
        expect(await check(sql)).toEqual([
            '[2:30..2:42] error PIPELINE_SQL_FLOW_TARGET_NOT_FOUND The flow target \'target_tabel\' is not defined in this pipeline; declare it with CREATE STREAMING TABLE target_tabel. Did you mean \'target_table\'?',
        ]);
        expect(await check(sql, { spec: false })).toEqual([
            '[2:30..2:42] warning PIPELINE_SQL_FLOW_TARGET_NOT_FOUND The flow target \'target_tabel\' is not defined in this pipeline (as far as the files loaded show); '
            + 'declare it with CREATE STREAMING TABLE target_tabel. Did you mean \'target_table\'?',
        ]);
    });

    test('a streaming table that nothing writes', async () => {
        expect(await check('CREATE STREAMING TABLE lonely;')).toEqual([
            '[1:24..1:30] error PIPELINE_DATASET_WITHOUT_FLOW The streaming table \'lonely\' has no query and no flow writes to it; add AS query, a FLOW clause or a CREATE FLOW ... INTO lonely.',
        ]);
        expect(await check('CREATE STREAMING TABLE fed;\nCREATE FLOW f AS INSERT INTO fed BY NAME SELECT * FROM STREAM(raw.events);')).toEqual([]);
    });

    test('a flow into a materialized view; a streaming read of a materialized view', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.events;\nCREATE FLOW f AS INSERT INTO m BY NAME SELECT * FROM STREAM(raw.events);\n'
            + 'CREATE STREAMING TABLE s AS SELECT * FROM STREAM(m);')).toEqual([
            '[2:30..2:31] error PIPELINE_SQL_FLOW_TARGET_NOT_TABLE \'m\' is a materialized view, which only its own query writes; a flow writes to a streaming table or a managed table.',
            '[3:50..3:51] error PIPELINE_SQL_STREAMING_READ_OF_MATERIALIZED_VIEW \'m\' is a materialized view, which cannot be read as a stream; read it without STREAM, or make it a streaming table.',
        ]);
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.events;\nCREATE MATERIALIZED VIEW n AS SELECT * FROM m;')).toEqual([]);
    });

    test('CREATE TEMPORARY VIEW takes no expectations; the legacy LIVE VIEW does', async () => {
        expect(await check('CREATE TEMPORARY VIEW v (CONSTRAINT ok EXPECT (id > 0)) AS SELECT * FROM raw.events;')).toEqual([
            '[1:26..1:55] error PIPELINE_SQL_EXPECTATION_ON_TEMPORARY_VIEW CREATE TEMPORARY VIEW does not take CONSTRAINT ... EXPECT clauses; '
            + 'use a materialized view, a streaming table or the legacy CREATE LIVE VIEW.',
        ]);
        expect(await check('CREATE TEMPORARY LIVE VIEW v (CONSTRAINT ok EXPECT (id > 0)) AS SELECT * FROM raw.events;')).toEqual([]);
    });

    test('statements a pipeline does not run are warnings', async () => {
        expect(await check('SELECT * FROM raw.events;\nCREATE MATERIALIZED VIEW m AS SELECT 1 AS a;\nCREATE SCHEMA IF NOT EXISTS sales;')).toEqual([
            '[1:1..1:25] warning PIPELINE_SQL_STATEMENT_NOT_IN_PIPELINE A query (SELECT) is not part of a pipeline definition and is ignored when the pipeline runs; '
            + 'a pipeline file defines datasets and flows (CREATE ... , CREATE FLOW, SET, USE).',
            '[3:1..3:34] warning PIPELINE_SQL_STATEMENT_NOT_IN_PIPELINE CREATE SCHEMA is not part of a pipeline definition and is ignored when the pipeline runs; '
            + 'a pipeline file defines datasets and flows (CREATE ... , CREATE FLOW, SET, USE).',
        ]);
        expect(await check('SET pipelines.reset.allowed = false;\nUSE CATALOG main;\nCREATE MATERIALIZED VIEW m AS SELECT 1 AS a;')).toEqual([]);
    });
});

describe('names: tables, columns, functions', () => {
    test('a table found nowhere is a warning with suggestions (datasets and sample tables); a catalog table is fine', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.evnts;\nCREATE MATERIALIZED VIEW n AS SELECT * FROM mm;')).toEqual([
            '[1:45..1:54] warning TABLE_OR_VIEW_NOT_FOUND \'raw.evnts\' is not a dataset of this pipeline and not in the sample catalog (no raw/evnts under samples/); it may exist in the real catalog. '
            + 'Did you mean \'raw.events\'?',
            '[2:45..2:47] warning TABLE_OR_VIEW_NOT_FOUND \'mm\' is not a dataset of this pipeline and not in the sample catalog (no mm under samples/); it may exist in the real catalog. Did you mean \'m\'?',
        ]);
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.events;')).toEqual([]);
    });

    test('parameterised names are not reported (their value is unknown here)', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * FROM ${source_catalog}.raw.other WHERE whatever > 1;')).toEqual([]);
    });

    test('unknown columns in select lists, predicates, joins and expectations, only where every relation is fully known', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m (CONSTRAINT ok EXPECT (regoin IS NOT NULL)) AS\n'
            + 'SELECT e.regoin, idd, payload.kind FROM raw.events e JOIN cdc.users u ON u.id = e.userid WHERE e.seq > 0;\n'
            + 'CREATE MATERIALIZED VIEW n (CONSTRAINT ok EXPECT (regoin IS NOT NULL)) AS SELECT region FROM raw.events;')).toEqual([
            '[2:8..2:16] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'regoin\' does not exist in \'e\' (id, region, seq, tags, ts, payload). Did you mean \'region\'?',
            '[2:18..2:21] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'idd\' does not exist in \'e\' (id, region, seq, tags, ts, payload), \'u\' (id, name, city, op, seq, sys_ts). Did you mean \'id\'?',
            '[2:81..2:89] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'userid\' does not exist in \'e\' (id, region, seq, tags, ts, payload).',
            '[3:51..3:57] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'regoin\' does not exist in \'n\' (region). Did you mean \'region\'?',
        ]);
    });

    test('a column of * EXCEPT (...) that does not exist', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * EXCEPT (regon, ts) FROM raw.events;\nCREATE MATERIALIZED VIEW n AS SELECT e.* EXCEPT (tags) FROM raw.events e;')).toEqual([
            '[1:48..1:53] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'regon\' does not exist in \'raw.events\' (id, region, seq, tags, ts, payload). Did you mean \'region\'?',
        ]);
    });

    test('no false errors: lateral aliases, GROUP BY / ORDER BY aliases, correlated subqueries, lambdas, CTEs, USING, niladic functions', async () => {
        expect(await check(`CREATE MATERIALIZED VIEW m AS
            WITH recent AS (SELECT id, region, ts FROM raw.events WHERE ts > current_date - INTERVAL 7 DAYS)
            SELECT region AS r, upper(r) AS r2, count(*) AS n, transform(collect_list(id), x -> x + 1) AS ids, current_timestamp AS at
            FROM recent r1
            WHERE EXISTS (SELECT 1 FROM cdc.users u WHERE u.id = r1.id)
            GROUP BY r ORDER BY n DESC;
            CREATE MATERIALIZED VIEW j AS SELECT id, name, region FROM cdc.users JOIN raw.events USING (id);`)).toEqual([]);
    });

    test('no column errors where a relation is not fully known (a table of the real catalog)', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT anything FROM raw.events JOIN main.other.table USING (id);')).toEqual([
            '[1:68..1:84] warning TABLE_OR_VIEW_NOT_FOUND \'main.other.table\' is not a dataset of this pipeline and not in the sample catalog (no main/other/table under samples/); it may exist in the real catalog.',
        ]);
    });

    test('unknown functions are warnings with suggestions; qualified names are user functions', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT uper(region) AS r, my_udf(id) AS u, cat.sch.f(id) AS q FROM raw.events;')).toEqual([
            '[1:38..1:42] warning UNRESOLVED_ROUTINE \'uper\' is not a built-in function; it may be a user-defined function of the real catalog. Did you mean \'upper\' or \'user\'?',
            '[1:57..1:63] warning UNRESOLVED_ROUTINE \'my_udf\' is not a built-in function; it may be a user-defined function of the real catalog.',
        ]);
    });
});

describe('deprecated syntax and target profiles', () => {
    test('LIVE., CREATE LIVE TABLE, STREAMING LIVE TABLE, LIVE VIEW and APPLY CHANGES are hints with the modern form', async () => {
        expect(await check('CREATE LIVE TABLE m AS SELECT * FROM LIVE.s;\nCREATE STREAMING LIVE TABLE s AS SELECT * FROM STREAM(raw.events);\n'
            + 'CREATE TEMPORARY LIVE VIEW v AS SELECT * FROM s;\nAPPLY CHANGES INTO LIVE.t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;\nCREATE STREAMING TABLE t;', { hints: true })).toEqual([
            '[1:8..1:12] hint PIPELINE_SQL_DEPRECATED_LIVE_DATASET CREATE LIVE TABLE is legacy syntax; write CREATE MATERIALIZED VIEW.',
            '[1:38..1:44] hint PIPELINE_SQL_DEPRECATED_LIVE_PREFIX The LIVE. prefix is legacy; datasets of the pipeline are read by their plain name (s).',
            '[2:18..2:22] hint PIPELINE_SQL_DEPRECATED_LIVE_DATASET CREATE STREAMING LIVE TABLE is legacy syntax; write CREATE STREAMING TABLE.',
            '[3:18..3:22] hint PIPELINE_SQL_DEPRECATED_LIVE_DATASET CREATE TEMPORARY LIVE VIEW is legacy syntax; write CREATE TEMPORARY VIEW.',
            '[4:1..4:19] hint PIPELINE_SQL_DEPRECATED_APPLY_CHANGES APPLY CHANGES INTO is the legacy name of AUTO CDC; write CREATE FLOW name AS AUTO CDC INTO target ...',
            '[4:20..4:26] hint PIPELINE_SQL_DEPRECATED_LIVE_PREFIX The LIVE. prefix is legacy; datasets of the pipeline are read by their plain name (t).',
        ]);
    });

    test('CREATE STREAMING TABLE / MATERIALIZED VIEW without AS before the query is valid (Spark\'s CTAS rule makes AS optional), with a hint to add it', async () => {
        expect(await check('CREATE STREAMING TABLE s SELECT * FROM STREAM(read_files(\'/data\', format => \'json\'));\n'
            + 'CREATE OR REFRESH MATERIALIZED VIEW m COMMENT \'x\' SELECT * FROM s;\nCREATE MATERIALIZED VIEW n AS SELECT * FROM m;', { hints: true })).toEqual([
            '[1:26..1:32] hint PIPELINE_SQL_QUERY_WITHOUT_AS The query of this dataset has no AS before it, which Databricks accepts (Spark\'s CTAS rule makes AS optional); add AS for Apache Spark.',
            '[2:51..2:57] hint PIPELINE_SQL_QUERY_WITHOUT_AS The query of this dataset has no AS before it, which Databricks accepts (Spark\'s CTAS rule makes AS optional); add AS for Apache Spark.',
        ]);
    });

    test('legacy CREATE INCREMENTAL LIVE TABLE is a streaming live table (the early DLT name), with the legacy hint', async () => {
        // The target of a legacy APPLY CHANGES, with expectations, as early Delta Live Tables notebooks wrote it.
        expect(await check('CREATE INCREMENTAL LIVE TABLE customers (CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW)\n'
            + 'COMMENT "clean customers" TBLPROPERTIES ("quality" = "silver");\n'
            + 'APPLY CHANGES INTO customers FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;', { hints: true })).toEqual([
            '[1:8..1:19] hint PIPELINE_SQL_DEPRECATED_LIVE_DATASET CREATE INCREMENTAL LIVE TABLE is legacy syntax; write CREATE STREAMING TABLE.',
            '[3:1..3:19] hint PIPELINE_SQL_DEPRECATED_APPLY_CHANGES APPLY CHANGES INTO is the legacy name of AUTO CDC; write CREATE FLOW name AS AUTO CDC INTO target ...',
        ]);
        expect(await check('CREATE INCREMENTAL LIVE TABLE b AS SELECT * FROM STREAM(read_files(\'/data\', format => \'json\'));')).toEqual([]);
    });

    const databricksOnly = 'CREATE OR REFRESH PRIVATE STREAMING TABLE t (CONSTRAINT ok EXPECT (id > 0));\n'
        + 'CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) APPLY AS TRUNCATE WHEN op = \'T\' SEQUENCE BY seq;\n'
        + 'CREATE STREAMING TABLE s AS SELECT * FROM STREAM read_files(\'/x\', format => \'json\');';

    test('spark-4.2: Databricks-only features are errors naming the target', async () => {
        const target = 'Apache Spark 4.2 declarative pipelines';
        const tail = '; change the target profile (pipelineSql.target) to \'databricks\' or remove it.';
        expect(await check(databricksOnly, { target: 'spark-4.2' })).toEqual([
            `[1:11..1:18] error PIPELINE_SQL_UNSUPPORTED_IN_TARGET OR REFRESH is not supported by ${target}${tail}`,
            `[1:19..1:26] error PIPELINE_SQL_UNSUPPORTED_IN_TARGET PRIVATE is not supported by ${target}${tail}`,
            `[1:60..1:66] error PIPELINE_SQL_UNSUPPORTED_IN_TARGET CONSTRAINT is not supported by ${target} (expectations are a Databricks feature)${tail}`,
            `[2:67..2:98] error PIPELINE_SQL_UNSUPPORTED_IN_TARGET APPLY AS TRUNCATE WHEN is not supported by ${target}${tail}`,
            `[3:50..3:60] error PIPELINE_SQL_UNSUPPORTED_IN_TARGET read_files() is not supported by ${target}${tail}`,
        ]);
        expect(await check(databricksOnly)).toEqual([]);
    });

    test('spark-4.1 has no AUTO CDC; spark-4.2 has it', async () => {
        const sql = 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;';
        expect(await check(sql, { target: 'spark-4.1' })).toEqual([
            '[2:18..2:26] error PIPELINE_SQL_UNSUPPORTED_IN_TARGET AUTO CDC is not supported by Apache Spark 4.1 declarative pipelines; change the target profile (pipelineSql.target) to \'databricks\' or remove it.',
        ]);
        expect(await check(sql, { target: 'spark-4.2' })).toEqual([]);
    });
});
