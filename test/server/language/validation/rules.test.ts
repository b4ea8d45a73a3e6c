import { afterEach, describe, expect, test } from 'vitest';
import type { TargetProfile } from '../../../../server/src/language/pipeline/pipeline-sql-settings.js';
import { createPipelineTester } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();

afterEach(() => tester.clear());

/** The sample catalog every case reads from: typed sources, so that no unknown-table warnings interfere. */
const catalog = `CREATE TABLE cdc.users (id INT, name STRING, city STRING, op STRING, seq BIGINT, sys_ts TIMESTAMP, cols ARRAY<STRING>);
CREATE TABLE raw.events (id INT, region STRING, seq INT, tags MAP<STRING, STRING>, ts TIMESTAMP);
CREATE TABLE snaps (k INT, v STRING, ver INT);`;

/** The printed diagnostics of one pipeline file (with a project file, so the file set is certain). */
async function check(sql: string, options: { hints?: boolean; target?: TargetProfile; spec?: boolean } = {}): Promise<string[]> {
    const p = await tester.load({ 'a.sql': sql }, { catalog, spec: options.spec === false ? undefined : {}, target: options.target });
    return p.diagnostics('a.sql', { hints: options.hints });
}

const flow = (clauses: string, target = 't'): string => `CREATE STREAMING TABLE ${target};\nCREATE FLOW f AS AUTO CDC INTO ${target} FROM STREAM(cdc.users) ${clauses};`;

describe('V1–V7: AUTO CDC clauses', () => {
    test('V1 AUTOCDC_EMPTY_KEYS: KEYS missing or empty, reported instead of the bare syntax error', async () => {
        expect(await check(flow('SEQUENCE BY seq'))).toEqual([
            '[2:57..2:65] error AUTOCDC_EMPTY_KEYS AUTO CDC needs a KEYS clause with at least one column right after the source (FROM source KEYS (key, ...)): '
            + 'Unexpected SEQUENCE after \')\': expected KEYS.',
        ]);
        expect(await check(flow('KEYS () SEQUENCE BY seq'))).toEqual([
            '[2:63..2:64] error AUTOCDC_EMPTY_KEYS AUTO CDC needs a KEYS clause with at least one column right after the source (FROM source KEYS (key, ...)): '
            + 'Unexpected \')\' after \'(\': expected a name.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq'))).toEqual([]);
    });

    test('V2 AUTOCDC_MISSING_SEQUENCE_BY: a change feed needs SEQUENCE BY (reported at the KEYS list)', async () => {
        expect(await check(flow('KEYS (id) STORED AS SCD TYPE 1'))).toEqual([
            '[2:62..2:66] error AUTOCDC_MISSING_SEQUENCE_BY The AUTO CDC flow into \'t\' has no SEQUENCE BY clause; a change feed must say how to order its events (SEQUENCE BY column or STRUCT(col1, col2)).',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY STRUCT(seq, sys_ts) STORED AS SCD TYPE 1'))).toEqual([]);
    });

    test('V3: SEQUENCE BY, APPLY AS, COLUMNS (and the other change-feed clauses) are not allowed in FROM SNAPSHOT', async () => {
        const snapshot = (clauses: string): string => `CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT k, v FROM snaps) KEYS (k) ${clauses};`;
        expect(await check(snapshot('SEQUENCE BY k APPLY AS DELETE WHEN v = \'x\' COLUMNS * EXCEPT (v)'))).toEqual([
            '[2:82..2:95] error PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED SEQUENCE BY is not allowed in AUTO CDC FROM SNAPSHOT; a snapshot flow takes only WITH VERSION, KEYS, STORED AS SCD TYPE 1|2 and TRACK HISTORY ON (filter inside the snapshot query instead).',
            '[2:96..2:124] error PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED APPLY AS DELETE WHEN is not allowed in AUTO CDC FROM SNAPSHOT; a snapshot flow takes only WITH VERSION, KEYS, STORED AS SCD TYPE 1|2 and TRACK HISTORY ON (filter inside the snapshot query instead).',
            '[2:125..2:145] error PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED COLUMNS is not allowed in AUTO CDC FROM SNAPSHOT; a snapshot flow takes only WITH VERSION, KEYS, STORED AS SCD TYPE 1|2 and TRACK HISTORY ON (filter inside the snapshot query instead).',
        ]);
        expect(await check(snapshot('STORED AS SCD TYPE 2 TRACK HISTORY ON (v)'))).toEqual([]);
    });

    test('V4: APPLY AS TRUNCATE WHEN only with SCD TYPE 1', async () => {
        expect(await check(flow('KEYS (id) APPLY AS TRUNCATE WHEN op = \'T\' SEQUENCE BY seq STORED AS SCD TYPE 2'))).toEqual([
            '[2:67..2:98] error PIPELINE_SQL_TRUNCATE_REQUIRES_SCD1 APPLY AS TRUNCATE WHEN is only allowed with STORED AS SCD TYPE 1 (the default), not with STORED AS SCD TYPE 2.',
        ]);
        expect(await check(flow('KEYS (id) APPLY AS TRUNCATE WHEN op = \'T\' SEQUENCE BY seq'))).toEqual([]);
    });

    test('V5: TRACK HISTORY ON only with SCD TYPE 2 (an error with SCD 1, a warning with BITEMPORAL)', async () => {
        expect(await check(flow('KEYS (id) SEQUENCE BY seq TRACK HISTORY ON (city)'))).toEqual([
            '[2:83..2:106] error PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2 TRACK HISTORY ON is only allowed with STORED AS SCD TYPE 2; SCD type 1 (the default) keeps no history.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts STORED AS BITEMPORAL TRACK HISTORY ON (city)'))).toEqual([
            '[2:130..2:153] warning PIPELINE_SQL_TRACK_HISTORY_WITH_BITEMPORAL TRACK HISTORY ON is not documented for STORED AS BITEMPORAL, which versions every change; it is only allowed with SCD TYPE 2.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (city)'))).toEqual([]);
    });

    test('V6: BITEMPORAL requires SYSTEM SEQUENCE BY, which requires BITEMPORAL', async () => {
        expect(await check(flow('KEYS (id) SEQUENCE BY seq STORED AS BITEMPORAL'))).toEqual([
            '[2:83..2:103] error PIPELINE_SQL_BITEMPORAL_REQUIRES_SYSTEM_SEQUENCE_BY STORED AS BITEMPORAL needs a SYSTEM SEQUENCE BY clause (the system time of each change) after SEQUENCE BY.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts'))).toEqual([
            '[2:83..2:108] error PIPELINE_SQL_SYSTEM_SEQUENCE_BY_REQUIRES_BITEMPORAL SYSTEM SEQUENCE BY is only allowed with STORED AS BITEMPORAL.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts STORED AS BITEMPORAL'))).toEqual([]);
    });

    test('V7: COLUMNS TO UPDATE not with IGNORE NULL UPDATES, not with BITEMPORAL', async () => {
        expect(await check(flow('KEYS (id) IGNORE NULL UPDATES SEQUENCE BY seq COLUMNS TO UPDATE cols'))).toEqual([
            '[2:103..2:125] error PIPELINE_SQL_COLUMNS_TO_UPDATE_CONFLICT COLUMNS TO UPDATE cannot be combined with IGNORE NULL UPDATES; use either partial updates or IGNORE NULL UPDATES.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts STORED AS BITEMPORAL COLUMNS TO UPDATE cols'))).toEqual([
            '[2:130..2:152] error PIPELINE_SQL_COLUMNS_TO_UPDATE_CONFLICT COLUMNS TO UPDATE cannot be combined with STORED AS BITEMPORAL; use either partial updates or STORED AS BITEMPORAL.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (cols) COLUMNS TO UPDATE cols'))).toEqual([]);
    });
});

describe('V8–V11: append and replace flows', () => {
    test('V8: ONCE not with REPLACE WHERE / REPLACE USING', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT ONCE INTO t BY NAME REPLACE WHERE id > 1 SELECT * FROM raw.events;')).toEqual([
            '[2:25..2:29] error PIPELINE_SQL_ONCE_WITH_REPLACE ONCE cannot be combined with REPLACE WHERE; a replace flow runs on every update.',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE WHERE id > 1 SELECT * FROM raw.events;')).toEqual([]);
    });

    test('V9: REPLACE USING keys unique and orderable, one SEQUENCE BY column', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (id, id, tags) SEQUENCE BY seq + 1 SELECT * FROM STREAM(raw.events);')).toEqual([
            '[2:59..2:61] error PIPELINE_SQL_REPLACE_USING_DUPLICATE_KEY REPLACE USING lists \'id\' twice; each key column once.',
            '[2:63..2:67] error PIPELINE_SQL_REPLACE_USING_KEY_NOT_ORDERABLE REPLACE USING key \'tags\' has type map<string,string>, which cannot be ordered; '
            + 'keys must be numbers, strings, dates, timestamps or structs of those.',
            '[2:81..2:88] error PIPELINE_SQL_REPLACE_USING_SEQUENCE_BY_NOT_COLUMN The SEQUENCE BY of REPLACE USING must be exactly one column name, not an expression.',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (id) SELECT * FROM STREAM(raw.events);')).toEqual([
            '[2:48..2:58] error PIPELINE_SQL_REPLACE_USING_MISSING_SEQUENCE_BY REPLACE USING needs SEQUENCE BY with exactly one column (REPLACE USING (key) SEQUENCE BY column).',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (id, region) SEQUENCE BY seq SELECT * FROM STREAM(raw.events);')).toEqual([]);
    });

    test('V9 / V10: REPLACE USING and REPLACE WHERE require BY NAME', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t REPLACE WHERE region = \'EU\' SELECT * FROM raw.events;')).toEqual([
            '[2:46..2:59] error PIPELINE_SQL_BY_NAME_REQUIRED REPLACE WHERE requires BY NAME (INSERT INTO target BY NAME REPLACE WHERE ...).',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE WHERE region = \'EU\' SELECT * FROM raw.events;')).toEqual([]);
    });

    test('V11 INVALID_FLOW_QUERY_TYPE: INSERT INTO needs a streaming query, INSERT ONCE a batch one, a materialized view a batch one', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM raw.events;')).toEqual([
            '[2:40..2:64] error INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE The flow \'f\' into the streaming table \'t\' reads only batch sources; '
            + 'read a source with STREAM(...) or make it a one-time backfill with INSERT ONCE.',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT ONCE INTO t BY NAME SELECT * FROM STREAM(raw.events);')).toEqual([
            '[2:45..2:77] error INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW The ONCE flow \'f\' reads a stream; a one-time flow reads its sources as a batch (remove STREAM(...) or ONCE).',
        ]);
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT * FROM STREAM(raw.events);')).toEqual([
            '[1:31..1:63] error INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW The materialized view \'m\' reads a stream; '
            + 'a materialized view\'s query is a batch query (remove STREAM(...), or make it a streaming table).',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(raw.events);\n'
            + 'CREATE FLOW g AS INSERT ONCE INTO t BY NAME SELECT * FROM raw.events;\nCREATE TABLE m FLOW INSERT BY NAME SELECT * FROM raw.events;')).toEqual([]);
    });

    test('V11 where the files loaded may not be the whole pipeline (no project file): a batch read of an unqualified name the files do not define is a warning (it may be a streaming temporary view), of a qualified name an error', async () => {
        expect(await check('CREATE STREAMING TABLE t AS SELECT * FROM staged_orders;\nCREATE STREAMING TABLE u AS SELECT * FROM LIVE.staged_orders;', { spec: false })
            .then(d => d.filter(x => x.includes('INVALID_FLOW_QUERY_TYPE')))).toEqual([
            '[1:29..1:56] warning INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE The flow \'t\' into the streaming table \'t\' reads only batch sources '
            + 'as far as the files loaded show (\'staged_orders\' may be a view of the pipeline that reads a stream); read a source with STREAM(...) or make it a one-time backfill with INSERT ONCE.',
            '[2:29..2:61] warning INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE The flow \'u\' into the streaming table \'u\' reads only batch sources '
            + 'as far as the files loaded show (\'LIVE.staged_orders\' may be a view of the pipeline that reads a stream); read a source with STREAM(...) or make it a one-time backfill with INSERT ONCE.',
        ]);
        expect(await check('CREATE STREAMING TABLE t AS SELECT * FROM raw.events;', { spec: false }).then(d => d.filter(x => x.includes('INVALID_FLOW_QUERY_TYPE'))))
            .toEqual([expect.stringMatching(/^\[1:29\.\.1:53\] error INVALID_FLOW_QUERY_TYPE\.BATCH_RELATION_FOR_STREAMING_TABLE .* reads only batch sources; /)]);
        // With a project file the loaded files are the pipeline: a name they do not define is no view.
        expect(await check('CREATE STREAMING TABLE t AS SELECT * FROM staged_orders;').then(d => d.filter(x => x.includes('INVALID_FLOW_QUERY_TYPE'))))
            .toEqual([expect.stringMatching(/ error INVALID_FLOW_QUERY_TYPE/)]);
    });

    test('V11 for AUTO CDC: the change feed is read as a stream; AUTO CDC ONCE reads a batch', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM cdc.users KEYS (id) SEQUENCE BY seq;')).toEqual([
            '[2:39..2:48] error PIPELINE_SQL_AUTO_CDC_BATCH_SOURCE AUTO CDC reads its source \'cdc.users\' as a stream; write FROM STREAM(cdc.users), or use AUTO CDC ONCE for a one-time batch load.',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC ONCE INTO t FROM STREAM cdc.users KEYS (id) SEQUENCE BY seq;')).toEqual([
            '[2:44..2:60] warning PIPELINE_SQL_AUTO_CDC_ONCE_STREAMING_SOURCE AUTO CDC ONCE reads its source once as a batch, so STREAM on \'cdc.users\' has no use; remove STREAM or drop ONCE.',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC ONCE INTO t FROM cdc.users KEYS (id) SEQUENCE BY seq;')).toEqual([]);
    });
});

describe('V12–V18: targets and the flows sharing them', () => {
    test('V12 MANAGED_TABLE_DOES_NOT_SUPPORT_CDC (golden 26)', async () => {
        expect(await check('CREATE TABLE m;\nCREATE FLOW f AS AUTO CDC INTO m FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;')).toEqual([
            '[2:32..2:33] error MANAGED_TABLE_DOES_NOT_SUPPORT_CDC \'m\' is a managed table (CREATE TABLE), which only append flows may write; AUTO CDC needs a streaming table (CREATE STREAMING TABLE m).',
        ]);
        expect(await check('CREATE TABLE m;\nCREATE FLOW f AS INSERT INTO m BY NAME SELECT * FROM cdc.users;')).toEqual([]);
    });

    test('V13: REPLACE WHERE into a managed table', async () => {
        expect(await check('CREATE TABLE m;\nCREATE FLOW f AS INSERT INTO m BY NAME REPLACE WHERE region = \'EU\' SELECT * FROM raw.events;')).toEqual([
            '[2:30..2:31] error PIPELINE_SQL_REPLACE_INTO_MANAGED_TABLE REPLACE WHERE cannot write to the managed table \'m\'; only streaming tables support it (managed tables take append flows).',
        ]);
    });

    test('V14 CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE: a managed table reusing a streaming table\'s name', async () => {
        expect(await check('CREATE STREAMING TABLE x AS SELECT * FROM STREAM(raw.events);\nCREATE TABLE x;')).toEqual([
            '[2:14..2:15] error CANNOT_SWITCH_STREAMING_TABLE_TO_MANAGED_TABLE \'x\' is already a streaming table of this pipeline; a managed table cannot reuse its name.',
        ]);
        expect(await check('CREATE STREAMING TABLE x AS SELECT * FROM STREAM(raw.events);\nCREATE TABLE y FLOW INSERT BY NAME SELECT * FROM x;')).toEqual([]);
    });

    test('V15: the snapshot-version functions outside their clause are UNRESOLVABLE_TABLE_VALUED_FUNCTION (Databricks), misuse inside a snapshot flow INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT k, v FROM snaps WHERE ver = (SELECT ver FROM current_snapshot_version())) KEYS (k);\n'
            + 'CREATE MATERIALIZED VIEW m AS SELECT * FROM last_snapshot_version();\n'
            + 'CREATE MATERIALIZED VIEW n AS SELECT * FROM current_snapshot_version();\n'
            + 'CREATE STREAMING TABLE u;\nCREATE FLOW g AS AUTO CDC INTO u FROM SNAPSHOT (SELECT k, v FROM snaps WHERE ver > (SELECT ver FROM last_snapshot_version()))\n'
            + 'WITH VERSION (SELECT max(ver) AS ver FROM snaps, current_snapshot_version() HAVING max(ver) IS NOT NULL) KEYS (k);')).toEqual([
            '[2:101..2:125] error INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION current_snapshot_version() can only be used inside the FROM SNAPSHOT (...) query of a flow that has WITH VERSION (...).',
            '[3:45..3:66] error UNRESOLVABLE_TABLE_VALUED_FUNCTION Could not resolve \'last_snapshot_version\' to a table-valued function: it exists only inside the WITH VERSION (...) query of an AUTO CDC FROM SNAPSHOT flow.',
            '[4:45..4:69] error UNRESOLVABLE_TABLE_VALUED_FUNCTION Could not resolve \'current_snapshot_version\' to a table-valued function: it exists only inside the FROM SNAPSHOT (...) query of an AUTO CDC FROM SNAPSHOT flow with WITH VERSION (...).',
            '[6:101..6:122] error UNRESOLVABLE_TABLE_VALUED_FUNCTION Could not resolve \'last_snapshot_version\' to a table-valued function: it exists only inside the WITH VERSION (...) query of an AUTO CDC FROM SNAPSHOT flow.',
            '[7:50..7:74] error UNRESOLVABLE_TABLE_VALUED_FUNCTION Could not resolve \'current_snapshot_version\' to a table-valued function: it exists only inside the FROM SNAPSHOT (...) query of an AUTO CDC FROM SNAPSHOT flow with WITH VERSION (...).',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT k, v FROM snaps WHERE ver = (SELECT ver FROM current_snapshot_version()))\n'
            + 'WITH VERSION (SELECT max(ver) AS ver FROM snaps WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version()) OR ver > (SELECT ver FROM last_snapshot_version()) HAVING max(ver) IS NOT NULL)\n'
            + 'KEYS (k);')).toEqual([]);
    });

    test('V16: one snapshot flow per target', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW s1 AS AUTO CDC INTO t FROM SNAPSHOT (SELECT k, v FROM snaps) KEYS (k);\n'
            + 'CREATE FLOW s2 AS AUTO CDC INTO t FROM SNAPSHOT (SELECT k, v FROM snaps) KEYS (k);')).toEqual([
            '[2:33..2:34] error APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE \'t\' is written by more than one AUTO CDC FROM SNAPSHOT flow (\'s1\', \'s2\'); a target takes one snapshot flow.',
            '[3:33..3:34] error APPLY_CHANGES_FROM_SNAPSHOT_ERROR.MULTIPLE_QUERIES_FOR_TABLE \'t\' is written by more than one AUTO CDC FROM SNAPSHOT flow (\'s1\', \'s2\'); a target takes one snapshot flow.',
        ]);
    });

    test('V17: a snapshot flow plus AUTO CDC flows needs SCD1, the same keys, no IGNORE NULL UPDATES, no expectations, a triggered pipeline', async () => {
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW s AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM cdc.users) KEYS (id) STORED AS SCD TYPE 2;\n'
            + 'CREATE FLOW c AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;')).toEqual([
            '[2:32..2:33] error PIPELINE_SQL_SNAPSHOT_INTEROP_REQUIRES_SCD1 \'t\' combines a snapshot flow with AUTO CDC flows, which is only supported for SCD type 1 targets.',
            '[3:32..3:33] error PIPELINE_SQL_SNAPSHOT_INTEROP_REQUIRES_SCD1 \'t\' combines a snapshot flow with AUTO CDC flows, which is only supported for SCD type 1 targets.',
        ]);
        expect(await check('CREATE STREAMING TABLE t (CONSTRAINT ok EXPECT (id > 0));\nCREATE FLOW s AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM cdc.users) KEYS (id);\n'
            + 'CREATE FLOW c AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (name) IGNORE NULL UPDATES SEQUENCE BY seq;')).toEqual([
            '[2:32..2:33] error APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_EXPECTATIONS_NOT_SUPPORTED \'t\' has expectations, which a snapshot flow combined with AUTO CDC flows does not support.',
            '[3:62..3:68] error APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_KEYS_MISMATCH The flows into \'t\' use different keys ((name) vs (id)); a snapshot flow and the AUTO CDC flows of one target need the same keys.',
            '[3:69..3:88] error APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_IGNORE_NULL_UNSUPPORTED IGNORE NULL UPDATES is not supported on an AUTO CDC flow into \'t\', which a snapshot flow also writes.',
        ]);
        const p = await tester.load({
            'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW s AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM cdc.users) KEYS (id);\n'
                + 'CREATE FLOW c AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY sys_ts COLUMNS (id, name);',
        }, { catalog, spec: { continuous: true } });
        expect(p.diagnostics('a.sql')).toEqual([
            '[2:32..2:33] error APPLY_CHANGES_FROM_SNAPSHOT_ERROR.INTEROP_CONTINUOUS_NOT_SUPPORTED \'t\' combines a snapshot flow with AUTO CDC flows, which only triggered pipelines support (the pipeline is continuous).',
        ]);
        expect(await check('CREATE STREAMING TABLE t;\nCREATE FLOW s AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM cdc.users) KEYS (id);\n'
            + 'CREATE FLOW c AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY sys_ts COLUMNS (id, name);')).toEqual([]);
    });

    test('V18: an AUTO CDC target is not also written by an append flow; Spark allows one flow per AUTO CDC target', async () => {
        const sql = 'CREATE STREAMING TABLE t;\nCREATE FLOW c AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;\n'
            + 'CREATE FLOW a AS INSERT INTO t BY NAME SELECT * FROM STREAM(cdc.users);';
        expect(await check(sql)).toEqual([
            '[3:40..3:71] error PIPELINE_SQL_CDC_TARGET_WITH_OTHER_FLOWS \'t\' is an AUTO CDC target, but the flow \'a\' appends to it; an AUTO CDC target is written only by AUTO CDC (and snapshot) flows.',
        ]);
        const twoCdc = 'CREATE STREAMING TABLE t;\nCREATE FLOW c1 AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;\n'
            + 'CREATE FLOW c2 AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;';
        expect(await check(twoCdc)).toEqual([]);
        expect(await check(twoCdc, { target: 'spark-4.2' })).toEqual([
            '[2:33..2:34] error AUTOCDC_MULTIPLE_FLOWS_TO_TARGET Apache Spark allows one flow per AUTO CDC target, and \'t\' has more.',
            '[3:33..3:34] error AUTOCDC_MULTIPLE_FLOWS_TO_TARGET Apache Spark allows one flow per AUTO CDC target, and \'t\' has more.',
        ]);
    });
});

describe('V19–V26', () => {
    test('V19: expectation names unique; no subqueries, no non-deterministic functions', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m (CONSTRAINT c1 EXPECT (id > 0), CONSTRAINT c1 EXPECT (rand() > 0.5), '
            + 'CONSTRAINT c2 EXPECT (id IN (SELECT id FROM raw.events))) AS SELECT * FROM raw.events;')).toEqual([
            '[1:71..1:73] error PIPELINE_SQL_DUPLICATE_EXPECTATION The expectation name \'c1\' is used twice on \'m\'; expectation names are unique per dataset.',
            '[1:82..1:88] error PIPELINE_SQL_INVALID_EXPECTATION An expectation must be a deterministic expression over the row: rand() is not deterministic.',
            '[1:119..1:152] error PIPELINE_SQL_INVALID_EXPECTATION An expectation must be a deterministic expression over the row: it cannot contain a subquery.',
        ]);
        expect(await check('CREATE MATERIALIZED VIEW m (CONSTRAINT c1 EXPECT (id > 0) ON VIOLATION DROP ROW, CONSTRAINT c2 EXPECT (upper(region) <> \'X\')) AS SELECT * FROM raw.events;')).toEqual([]);
    });

    test('V20: PARTITIONED BY with CLUSTER BY', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m PARTITIONED BY (region) CLUSTER BY (id) AS SELECT * FROM raw.events;')).toEqual([
            '[1:52..1:67] error PIPELINE_SQL_PARTITION_AND_CLUSTER PARTITIONED BY and CLUSTER BY cannot be used together; choose one layout.',
        ]);
        expect(await check('CREATE MATERIALIZED VIEW m CLUSTER BY (id) AS SELECT * FROM raw.events;')).toEqual([]);
    });

    test('V21 AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA / AUTOCDC_MULTIPART_COLUMN_IDENTIFIER in KEYS, IGNORE NULL UPDATES ON, SEQUENCE BY, COLUMNS, TRACK HISTORY ON', async () => {
        expect(await check(flow('KEYS (idd, a.b) IGNORE NULL UPDATES ON (nam) SEQUENCE BY sq COLUMNS (id, cty) STORED AS SCD TYPE 2 TRACK HISTORY ON (op)'))).toEqual([
            '[2:63..2:66] error AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA Column \'idd\' in KEYS is not a column of the source \'cdc.users\' (id, name, city, op, seq, sys_ts, cols). Did you mean \'id\'?',
            '[2:68..2:71] error AUTOCDC_MULTIPART_COLUMN_IDENTIFIER KEYS takes plain column names, not \'a.b\'; name a top-level column of the source.',
            '[2:97..2:100] error AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA Column \'nam\' in IGNORE NULL UPDATES ON is not a column of the source \'cdc.users\' (id, name, city, op, seq, sys_ts, cols). Did you mean \'name\'?',
            '[2:130..2:133] error AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA Column \'cty\' in COLUMNS is not a column of the source \'cdc.users\' (id, name, city, op, seq, sys_ts, cols). Did you mean \'city\'?',
            '[2:174..2:176] error AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA Column \'op\' in TRACK HISTORY ON is not a column of the columns the flow writes (id).',
            '[2:114..2:116] error AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA Column \'sq\' in SEQUENCE BY is not a column of the source (id, name, city, op, seq, sys_ts, cols). Did you mean \'seq\'?',
        ]);
        expect(await check(flow('KEYS (id) IGNORE NULL UPDATES ON (name) SEQUENCE BY seq COLUMNS (id, city) STORED AS SCD TYPE 2 TRACK HISTORY ON (city)'))).toEqual([]);
    });

    test('V22 AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA', async () => {
        expect(await check(flow('KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (id, op)'))).toEqual([
            '[2:63..2:65] error AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA Key column \'id\' is left out by the COLUMNS clause; the keys must be among the selected columns.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq COLUMNS (name, id)'))).toEqual([]);
    });

    test('V23 AUTOCDC_RESERVED_COLUMN_NAME_CONFLICT: an SCD2 target read by another SCD2 flow keeps its validity columns', async () => {
        const history = 'CREATE STREAMING TABLE h;\nCREATE FLOW c AS AUTO CDC INTO h FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;\n';
        expect(await check(`${history}CREATE STREAMING TABLE h2;\nCREATE FLOW c2 AS AUTO CDC INTO h2 FROM STREAM(h) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;`)).toEqual([
            '[4:41..4:50] error AUTOCDC_RESERVED_COLUMN_NAME_CONFLICT The source columns \'__START_AT\', \'__END_AT\' clash with the columns that SCD TYPE 2 adds to the target; '
            + 'rename them or leave them out with COLUMNS * EXCEPT (__START_AT, __END_AT).',
        ]);
        expect(await check(`${history}CREATE STREAMING TABLE h2;\nCREATE FLOW c2 AS AUTO CDC INTO h2 FROM STREAM(h) KEYS (id) SEQUENCE BY seq `
            + 'COLUMNS * EXCEPT (__START_AT, __END_AT) STORED AS SCD TYPE 2;')).toEqual([]);
    });

    test('V24: the declared schema of an SCD2 target has __START_AT / __END_AT typed like SEQUENCE BY', async () => {
        expect(await check('CREATE STREAMING TABLE h (id INT, name STRING, __START_AT TIMESTAMP);\n'
            + 'CREATE FLOW c AS AUTO CDC INTO h FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq COLUMNS (id, name) STORED AS SCD TYPE 2;')).toEqual([
            '[2:102..2:122] error PIPELINE_SQL_SCD2_SCHEMA_MISSING_COLUMNS The declared columns of \'h\' do not fit its SCD type 2 flow: '
            + '__START_AT is declared TIMESTAMP but the sequencing expression is BIGINT; __END_AT is missing (declare it as BIGINT).',
        ]);
        expect(await check('CREATE STREAMING TABLE h (id INT, name STRING, __START_AT BIGINT, __END_AT BIGINT);\n'
            + 'CREATE FLOW c AS AUTO CDC INTO h FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq COLUMNS (id, name) STORED AS SCD TYPE 2;')).toEqual([]);
    });

    test('V25: AUTO CDC writes only streaming tables', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT 1 AS id;\nCREATE FLOW c AS AUTO CDC INTO m FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;')).toEqual([
            '[2:32..2:33] error PIPELINE_SQL_AUTO_CDC_TARGET_NOT_STREAMING_TABLE \'m\' is a materialized view; AUTO CDC writes only to streaming tables.',
        ]);
    });

    test('V26: clause order (Databricks) and duplicate clauses (DUPLICATE_CLAUSES); Spark accepts any order', async () => {
        const clauses = 'KEYS (id) SEQUENCE BY seq APPLY AS DELETE WHEN op = \'D\' STORED AS SCD TYPE 1 STORED AS SCD TYPE 2';
        expect(await check(flow(clauses))).toEqual([
            '[2:83..2:112] error PIPELINE_SQL_AUTO_CDC_CLAUSE_ORDER APPLY AS DELETE WHEN must come before SEQUENCE BY; Databricks accepts the AUTO CDC clauses only in the documented order '
            + '(KEYS, IGNORE NULL UPDATES, APPLY AS DELETE WHEN, APPLY AS TRUNCATE WHEN, SEQUENCE BY, SYSTEM SEQUENCE BY, COLUMNS, STORED AS, TRACK HISTORY ON, COLUMNS TO UPDATE).',
            '[2:134..2:154] error DUPLICATE_CLAUSES STORED AS appears more than once; write it once.',
        ]);
        expect(await check(flow('KEYS (id) SEQUENCE BY seq APPLY AS DELETE WHEN op = \'D\''), { target: 'spark-4.2' })).toEqual([]);
    });
});
