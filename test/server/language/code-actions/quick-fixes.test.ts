import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction } from 'vscode-languageserver';
import { afterEach, describe, expect, test } from 'vitest';
import { createPipelineTester } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();

afterEach(() => tester.clear());

const catalog = `CREATE TABLE cdc.users (id INT, name STRING, city STRING, op STRING, seq BIGINT, sys_ts TIMESTAMP, cols ARRAY<STRING>);
CREATE TABLE raw.events (id INT, region STRING, seq INT, ts TIMESTAMP);`;

interface FixResult {
    /** The titles of every fix offered for the diagnostic. */
    titles: string[];
    /** The files after applying the chosen fix. */
    files: Record<string, string>;
    /** The diagnostics of the fixed pipeline (errors and warnings; hints too when asked). */
    after: string[];
}

/**
 * Loads the files, finds the first diagnostic with `code` in `file`, asks the code action provider
 * for its fixes, applies the one whose title starts with `choose` (the first by default) to every
 * document it edits, and checks the edited pipeline again.
 */
/** The "no sample data" fix, offered after "did you mean" on a table that is not found. */
const CreateSampleData = 'Create sample data for the sources of this pipeline that have none';

async function applyFix(files: Record<string, string>, file: string, code: string, choose?: string, hints = false): Promise<FixResult> {
    const before = await tester.load(files, { catalog, spec: {} });
    const diagnostic = before.raw(file).find(d => d.code === code);
    if (!diagnostic) {
        throw new Error(`No ${code} in ${file}: ${before.all({ hints: true }).join('\n')}`);
    }
    const document = before.documents.get(file)!;
    const actions = (await tester.services.lsp.CodeActionProvider!.getCodeActions(document, {
        textDocument: { uri: document.uri.toString() }, range: diagnostic.range, context: { diagnostics: [diagnostic] },
    }) ?? []) as CodeAction[];
    const action = choose ? actions.find(a => a.title.startsWith(choose)) : actions[0];
    if (!action?.edit?.changes) {
        throw new Error(`No fix${choose ? ` '${choose}'` : ''} among: ${actions.map(a => a.title).join(', ')}`);
    }
    const fixed: Record<string, string> = { ...files };
    for (const [uri, edits] of Object.entries(action.edit.changes)) {
        const name = Object.keys(files).find(f => uri.endsWith(`/${f}`))!;
        fixed[name] = TextDocument.applyEdits(TextDocument.create(uri, 'pipeline-sql', 1, files[name]), edits);
    }
    await tester.clear();
    const after = await tester.load(fixed, { catalog, spec: {} });
    return { titles: actions.map(a => a.title), files: fixed, after: after.all({ hints }) };
}

describe('legacy syntax', () => {
    test('APPLY CHANGES INTO becomes CREATE FLOW … AS AUTO CDC INTO; LIVE. is dropped', async () => {
        const files = { 'a.sql': 'CREATE STREAMING TABLE t;\nAPPLY CHANGES INTO LIVE.t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;' };
        const migrated = await applyFix(files, 'a.sql', 'PIPELINE_SQL_DEPRECATED_APPLY_CHANGES', undefined, true);
        expect(migrated.titles).toEqual(['Migrate to CREATE FLOW ... AS AUTO CDC INTO']);
        expect(migrated.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW t AS AUTO CDC INTO LIVE.t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(migrated.after).toEqual([
            'a.sql [2:32..2:38] hint PIPELINE_SQL_DEPRECATED_LIVE_PREFIX The LIVE. prefix is legacy; datasets of the pipeline are read by their plain name (t).',
        ]);
        const dropped = await applyFix(migrated.files, 'a.sql', 'PIPELINE_SQL_DEPRECATED_LIVE_PREFIX', undefined, true);
        expect(dropped.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW t AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(dropped.after).toEqual([]);
    });

    test('CREATE FLOW f AS APPLY CHANGES INTO becomes AUTO CDC INTO', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS APPLY CHANGES INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;' },
            'a.sql', 'PIPELINE_SQL_DEPRECATED_APPLY_CHANGES', undefined, true);
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(result.after).toEqual([]);
    });

    test('a dataset query without AS gets AS', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE s SELECT * FROM STREAM(raw.events);' }, 'a.sql', 'PIPELINE_SQL_QUERY_WITHOUT_AS', undefined, true);
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE s AS SELECT * FROM STREAM(raw.events);');
        expect(result.after).toEqual([]);
    });

    test('CREATE LIVE TABLE, STREAMING LIVE TABLE, INCREMENTAL LIVE TABLE and TEMPORARY LIVE VIEW get their modern forms', async () => {
        const mv = await applyFix({ 'a.sql': 'CREATE OR REFRESH LIVE TABLE m AS SELECT * FROM raw.events;' }, 'a.sql', 'PIPELINE_SQL_DEPRECATED_LIVE_DATASET', undefined, true);
        expect(mv.files['a.sql']).toBe('CREATE OR REFRESH MATERIALIZED VIEW m AS SELECT * FROM raw.events;');
        expect(mv.after).toEqual([]);
        const st = await applyFix({ 'a.sql': 'CREATE STREAMING LIVE TABLE s AS SELECT * FROM STREAM(raw.events);' }, 'a.sql', 'PIPELINE_SQL_DEPRECATED_LIVE_DATASET', undefined, true);
        expect(st.files['a.sql']).toBe('CREATE STREAMING TABLE s AS SELECT * FROM STREAM(raw.events);');
        expect(st.after).toEqual([]);
        const incremental = await applyFix({ 'a.sql': 'CREATE INCREMENTAL LIVE TABLE s AS SELECT * FROM STREAM(raw.events);' }, 'a.sql', 'PIPELINE_SQL_DEPRECATED_LIVE_DATASET', undefined, true);
        expect(incremental.files['a.sql']).toBe('CREATE STREAMING TABLE s AS SELECT * FROM STREAM(raw.events);');
        expect(incremental.after).toEqual([]);
        const view = await applyFix({ 'a.sql': 'CREATE TEMPORARY STREAMING LIVE VIEW v AS SELECT * FROM STREAM(raw.events);\nCREATE STREAMING TABLE s AS SELECT * FROM STREAM(v);' },
            'a.sql', 'PIPELINE_SQL_DEPRECATED_LIVE_DATASET', undefined, true);
        expect(view.files['a.sql']).toBe('CREATE TEMPORARY VIEW v AS SELECT * FROM STREAM(raw.events);\nCREATE STREAMING TABLE s AS SELECT * FROM STREAM(v);');
        expect(view.after).toEqual([]);
    });
});

describe('did you mean', () => {
    test('an unknown dataset becomes the dataset it was probably meant to be', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW orders_clean AS SELECT * FROM raw.events;', 'b.sql': 'CREATE MATERIALIZED VIEW v AS SELECT * FROM orders_claen;' },
            'b.sql', 'TABLE_OR_VIEW_NOT_FOUND');
        expect(result.titles).toEqual(['Change to \'orders_clean\'', CreateSampleData]);
        expect(result.files['b.sql']).toBe('CREATE MATERIALIZED VIEW v AS SELECT * FROM orders_clean;');
        expect(result.after).toEqual([]);
    });

    test('a sample table one letter off becomes the sample table, by its full name', async () => {
        const qualified = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT * FROM raw.event;' }, 'a.sql', 'TABLE_OR_VIEW_NOT_FOUND');
        expect(qualified.titles).toEqual(['Change to \'raw.events\'', CreateSampleData]);
        expect(qualified.files['a.sql']).toBe('CREATE MATERIALIZED VIEW v AS SELECT * FROM raw.events;');
        expect(qualified.after).toEqual([]);
        // Written without its schema, the table is still found by its own name, and proposed with the schema.
        const bare = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT * FROM user;' }, 'a.sql', 'TABLE_OR_VIEW_NOT_FOUND');
        expect(bare.titles).toEqual(['Change to \'cdc.users\'', CreateSampleData]);
        expect(bare.after).toEqual([]);
    });

    test('an unknown flow target', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE target_table;\nCREATE FLOW f AS INSERT INTO target_tabel BY NAME SELECT * FROM STREAM(raw.events);' },
            'a.sql', 'PIPELINE_SQL_FLOW_TARGET_NOT_FOUND');
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE target_table;\nCREATE FLOW f AS INSERT INTO target_table BY NAME SELECT * FROM STREAM(raw.events);');
        expect(result.after).toEqual([]);
    });

    test('unknown columns in a query (qualified) and in an AUTO CDC clause', async () => {
        const query = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT e.regoin FROM raw.events e;' }, 'a.sql', 'UNRESOLVED_COLUMN.WITH_SUGGESTION');
        expect(query.files['a.sql']).toBe('CREATE MATERIALIZED VIEW v AS SELECT e.region FROM raw.events e;');
        expect(query.after).toEqual([]);
        const named = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY sequ;' },
            'a.sql', 'AUTOCDC_COLUMNS_NOT_FOUND_IN_SCHEMA');
        expect(named.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(named.after).toEqual([]);
    });

    test('an unknown function', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT lowr(region) AS r FROM raw.events;' }, 'a.sql', 'UNRESOLVED_ROUTINE');
        expect(result.titles[0]).toBe('Change to \'lower\'');
        expect(result.files['a.sql']).toBe('CREATE MATERIALIZED VIEW v AS SELECT lower(region) AS r FROM raw.events;');
        expect(result.after).toEqual([]);
    });
});

describe('missing clauses', () => {
    test('a missing KEYS gets a skeleton with a key column of the source', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) SEQUENCE BY seq;' }, 'a.sql', 'AUTOCDC_EMPTY_KEYS');
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(result.after).toEqual([]);
        const empty = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS () SEQUENCE BY seq;' }, 'a.sql', 'AUTOCDC_EMPTY_KEYS');
        expect(empty.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(empty.after).toEqual([]);
    });

    test('a missing SEQUENCE BY is added at its documented place, with the source\'s sequence column', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users)\n  KEYS (id)\n  APPLY AS DELETE WHEN op = \'D\'\n  COLUMNS * EXCEPT (op);' },
            'a.sql', 'AUTOCDC_MISSING_SEQUENCE_BY');
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users)\n  KEYS (id)\n  APPLY AS DELETE WHEN op = \'D\'\n'
            + '  SEQUENCE BY seq\n  COLUMNS * EXCEPT (op);');
        expect(result.after).toEqual([]);
    });

    test('BITEMPORAL without SYSTEM SEQUENCE BY gets one after SEQUENCE BY', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq STORED AS BITEMPORAL;' },
            'a.sql', 'PIPELINE_SQL_BITEMPORAL_REQUIRES_SYSTEM_SEQUENCE_BY');
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts STORED AS BITEMPORAL;');
        expect(result.after).toEqual([]);
    });
});

describe('conflicting clauses', () => {
    const flow = (clauses: string): Record<string, string> => ({ 'a.sql': `CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) ${clauses};` });
    const fixed = (clauses: string): string => `CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) ${clauses};`;

    test('TRUNCATE with SCD2: drop the TRUNCATE, or switch to SCD TYPE 1', async () => {
        const clauses = 'KEYS (id) APPLY AS TRUNCATE WHEN op = \'T\' SEQUENCE BY seq STORED AS SCD TYPE 2';
        const dropped = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_TRUNCATE_REQUIRES_SCD1');
        expect(dropped.titles).toEqual(['Remove APPLY AS TRUNCATE WHEN', 'Change to STORED AS SCD TYPE 1']);
        expect(dropped.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2'));
        expect(dropped.after).toEqual([]);
        const switched = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_TRUNCATE_REQUIRES_SCD1', 'Change to');
        expect(switched.files['a.sql']).toBe(fixed('KEYS (id) APPLY AS TRUNCATE WHEN op = \'T\' SEQUENCE BY seq STORED AS SCD TYPE 1'));
        expect(switched.after).toEqual([]);
    });

    test('TRACK HISTORY with SCD1: drop it, or switch to SCD TYPE 2 (adding STORED AS where there is none)', async () => {
        const clauses = 'KEYS (id) SEQUENCE BY seq TRACK HISTORY ON (city)';
        const dropped = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2');
        expect(dropped.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq'));
        expect(dropped.after).toEqual([]);
        const switched = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2', 'Change to');
        expect(switched.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2 TRACK HISTORY ON (city)'));
        expect(switched.after).toEqual([]);
    });

    test('COLUMNS TO UPDATE with IGNORE NULL UPDATES: drop either', async () => {
        const clauses = 'KEYS (id) IGNORE NULL UPDATES SEQUENCE BY seq COLUMNS TO UPDATE cols';
        const first = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_COLUMNS_TO_UPDATE_CONFLICT');
        expect(first.titles).toEqual(['Remove COLUMNS TO UPDATE', 'Remove IGNORE NULL UPDATES']);
        expect(first.files['a.sql']).toBe(fixed('KEYS (id) IGNORE NULL UPDATES SEQUENCE BY seq'));
        expect(first.after).toEqual([]);
        const second = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_COLUMNS_TO_UPDATE_CONFLICT', 'Remove IGNORE');
        expect(second.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq COLUMNS TO UPDATE cols'));
        expect(second.after).toEqual([]);
    });

    test('SYSTEM SEQUENCE BY without BITEMPORAL: drop it, or switch to BITEMPORAL', async () => {
        const clauses = 'KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts';
        const switched = await applyFix(flow(clauses), 'a.sql', 'PIPELINE_SQL_SYSTEM_SEQUENCE_BY_REQUIRES_BITEMPORAL', 'Change to');
        expect(switched.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq SYSTEM SEQUENCE BY sys_ts STORED AS BITEMPORAL'));
        expect(switched.after).toEqual([]);
    });

    test('a change-feed clause in a snapshot flow, and a repeated clause, are removed', async () => {
        const snapshot = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM cdc.users) KEYS (id) SEQUENCE BY id;' },
            'a.sql', 'PIPELINE_SQL_SNAPSHOT_CLAUSE_NOT_ALLOWED');
        expect(snapshot.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT id, name FROM cdc.users) KEYS (id);');
        expect(snapshot.after).toEqual([]);
        const repeated = await applyFix(flow('KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 1 STORED AS SCD TYPE 2'), 'a.sql', 'DUPLICATE_CLAUSES');
        expect(repeated.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 1'));
        expect(repeated.after).toEqual([]);
    });

    test('AUTO CDC clauses out of order are put into the documented order', async () => {
        const result = await applyFix(flow('KEYS (id)\n  STORED AS SCD TYPE 2\n  SEQUENCE BY seq\n  APPLY AS DELETE WHEN op = \'D\'\n  COLUMNS * EXCEPT (op)'),
            'a.sql', 'PIPELINE_SQL_AUTO_CDC_CLAUSE_ORDER');
        expect(result.files['a.sql']).toBe(fixed('KEYS (id)\n  APPLY AS DELETE WHEN op = \'D\'\n  SEQUENCE BY seq\n  COLUMNS * EXCEPT (op)\n  STORED AS SCD TYPE 2'));
        expect(result.after).toEqual([]);
    });

    test('a key left out by COLUMNS is kept; columns clashing with SCD2 are left out', async () => {
        const key = await applyFix(flow('KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (id, op)'), 'a.sql', 'AUTOCDC_KEY_NOT_IN_SELECTED_SCHEMA');
        expect(key.files['a.sql']).toBe(fixed('KEYS (id) SEQUENCE BY seq COLUMNS * EXCEPT (op)'));
        expect(key.after).toEqual([]);
        const history = 'CREATE STREAMING TABLE h;\nCREATE FLOW c AS AUTO CDC INTO h FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;\n';
        const reserved = await applyFix({ 'a.sql': `${history}CREATE STREAMING TABLE h2;\nCREATE FLOW c2 AS AUTO CDC INTO h2 FROM STREAM(h) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;` },
            'a.sql', 'AUTOCDC_RESERVED_COLUMN_NAME_CONFLICT');
        expect(reserved.files['a.sql']).toBe(`${history}CREATE STREAMING TABLE h2;\nCREATE FLOW c2 AS AUTO CDC INTO h2 FROM STREAM(h) KEYS (id) SEQUENCE BY seq `
            + 'COLUMNS * EXCEPT (__START_AT, __END_AT) STORED AS SCD TYPE 2;');
        expect(reserved.after).toEqual([]);
    });

    test('PARTITIONED BY with CLUSTER BY: the later clause is removed', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW m PARTITIONED BY (region) CLUSTER BY (id) AS SELECT * FROM raw.events;' }, 'a.sql', 'PIPELINE_SQL_PARTITION_AND_CLUSTER');
        expect(result.files['a.sql']).toBe('CREATE MATERIALIZED VIEW m PARTITIONED BY (region) AS SELECT * FROM raw.events;');
        expect(result.after).toEqual([]);
    });
});

describe('targets and streaming reads', () => {
    test('a managed table written by AUTO CDC becomes a streaming table (in its own file)', async () => {
        const files = {
            'tables.sql': 'CREATE TABLE managed_target;',
            'flows.sql': 'CREATE FLOW cdc_into_managed AS AUTO CDC INTO managed_target FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;',
        };
        const result = await applyFix(files, 'flows.sql', 'MANAGED_TABLE_DOES_NOT_SUPPORT_CDC');
        expect(result.titles).toEqual(['Make \'managed_target\' a streaming table']);
        expect(result.files['tables.sql']).toBe('CREATE STREAMING TABLE managed_target;');
        expect(result.after).toEqual([]);
    });

    test('a batch read into a streaming table: wrap the source in STREAM(...), or make the flow ONCE', async () => {
        const files = { 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM raw.events e WHERE e.id > 0;' };
        const stream = await applyFix(files, 'a.sql', 'INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE');
        expect(stream.titles).toEqual(['Read raw.events as a stream', 'Make it a one-time flow (INSERT ONCE)']);
        expect(stream.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(raw.events) e WHERE e.id > 0;');
        expect(stream.after).toEqual([]);
        const once = await applyFix(files, 'a.sql', 'INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE', 'Make it');
        expect(once.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT ONCE INTO t BY NAME SELECT * FROM raw.events e WHERE e.id > 0;');
        expect(once.after).toEqual([]);
    });

    test('a streaming table\'s own batch query: wrap the source (ONCE does not apply)', async () => {
        const result = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE s AS SELECT * FROM read_files(\'/data\', format => \'json\', schema => \'id INT\');' },
            'a.sql', 'INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE');
        expect(result.titles).toEqual(['Read read_files(\'/data\', format => \'json\', schema => \'id INT\') as a stream']);
        expect(result.files['a.sql']).toBe('CREATE STREAMING TABLE s AS SELECT * FROM STREAM read_files(\'/data\', format => \'json\', schema => \'id INT\');');
        expect(result.after).toEqual([]);
    });

    test('a batch AUTO CDC source: STREAM(...) or AUTO CDC ONCE', async () => {
        const files = { 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM cdc.users KEYS (id) SEQUENCE BY seq;' };
        const stream = await applyFix(files, 'a.sql', 'PIPELINE_SQL_AUTO_CDC_BATCH_SOURCE');
        expect(stream.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(cdc.users) KEYS (id) SEQUENCE BY seq;');
        expect(stream.after).toEqual([]);
        const once = await applyFix(files, 'a.sql', 'PIPELINE_SQL_AUTO_CDC_BATCH_SOURCE', 'Make it');
        expect(once.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC ONCE INTO t FROM cdc.users KEYS (id) SEQUENCE BY seq;');
        expect(once.after).toEqual([]);
    });

    test('ONCE with a streaming read, ONCE with REPLACE, REPLACE without BY NAME, STREAM of a materialized view', async () => {
        const once = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT ONCE INTO t BY NAME SELECT * FROM STREAM(raw.events);' },
            'a.sql', 'INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_ONCE_FLOW');
        expect(once.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(raw.events);');
        expect(once.after).toEqual([]);
        const byName = await applyFix({ 'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t REPLACE WHERE region = \'EU\' SELECT * FROM raw.events;' },
            'a.sql', 'PIPELINE_SQL_BY_NAME_REQUIRED');
        expect(byName.files['a.sql']).toBe('CREATE STREAMING TABLE t;\nCREATE FLOW f AS INSERT INTO t BY NAME REPLACE WHERE region = \'EU\' SELECT * FROM raw.events;');
        expect(byName.after).toEqual([]);
        const mv = await applyFix({ 'a.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.events;\nCREATE MATERIALIZED VIEW n AS SELECT * FROM STREAM(m);' },
            'a.sql', 'PIPELINE_SQL_STREAMING_READ_OF_MATERIALIZED_VIEW');
        expect(mv.files['a.sql']).toBe('CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.events;\nCREATE MATERIALIZED VIEW n AS SELECT * FROM m;');
        expect(mv.after).toEqual([]);
    });
});
