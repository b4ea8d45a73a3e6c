import { afterEach, describe, expect, test } from 'vitest';
import * as ast from '../../../../server/src/language/generated/ast.js';
import { createTestServices, parseText } from '../../../helpers/parse.js';
import { createEditorTester, labels } from '../lsp/editor-helpers.js';
import { lower } from '../../lowering/lower-helper.js';

// The editor's side of reading a change data feed (docs/semantics.md §15.3): `STREAM t WITH (readChangeFeed = true)`
// and `table_changes('t', ...)` parse, add the three feed columns to the schema (completion, hover,
// the reader's inferred schema), unknown reader options warn, and the lowering hands the engine the
// options and bounds.

const editor = createEditorTester();

afterEach(async () => {
    await editor.clear();
});

const catalog = 'CREATE TABLE cdc_data.users (user_id INT, name STRING, city STRING, operation STRING, event_ts TIMESTAMP) USING CSV LOCATION \'users.csv\';';
const mv = 'CREATE OR REFRESH MATERIALIZED VIEW my_mv AS SELECT user_id, name, city FROM cdc_data.users;';
const target = 'CREATE OR REFRESH STREAMING TABLE users_current;\n'
    + 'CREATE FLOW users_cdc AS AUTO CDC INTO users_current FROM STREAM(cdc_data.users) KEYS (user_id) '
    + 'APPLY AS DELETE WHEN operation = \'DELETE\' SEQUENCE BY event_ts COLUMNS * EXCEPT (operation) STORED AS SCD TYPE 1;';

const files = (test: string) => ({ 'transformations/01_mv.sql': mv, 'transformations/02_target.sql': target, 'transformations/03_test.sql': test });
const feedColumns = ['_change_type', '_commit_version', '_commit_timestamp'];

describe('reading the change data feed in the editor', () => {
    test('the documented example parses without problems and its reader\'s schema ends with the feed columns', async () => {
        const pipeline = await editor.open(files('CREATE OR REFRESH STREAMING TABLE sales AS SELECT * FROM STREAM my_mv WITH (readChangeFeed=true);\n'
            + 'CREATE MATERIALIZED VIEW check_sales AS SELECT * FROM sales;'), { catalog });
        expect(pipeline.all()).toEqual([]);
        const hover = await editor.hover(files('CREATE OR REFRESH STREAMING TABLE sales AS SELECT * FROM STREAM my_mv WITH (readChangeFeed=true);\n'
            + 'CREATE MATERIALIZED VIEW check_sales AS SELECT * FROM sa<|>les;'), { catalog });
        expect(hover).toContain('| user\\_id | `int` |');
        expect(hover).toContain('| \\_change\\_type | `string` |\n| \\_commit\\_version | `bigint` |\n| \\_commit\\_timestamp | `timestamp` |');
    });

    test('completion in a feed read offers the feed columns after the table\'s; a plain read does not', async () => {
        const feed = labels(await editor.completion(files('CREATE MATERIALIZED VIEW x AS SELECT <|> FROM STREAM(users_current) WITH (readChangeFeed = true, startingVersion = 1);'), { catalog }));
        expect(feed).toEqual(expect.arrayContaining(['user_id', 'name', ...feedColumns]));
        const plain = labels(await editor.completion(files('CREATE MATERIALIZED VIEW x AS SELECT <|> FROM users_current;'), { catalog }));
        expect(plain).toContain('user_id');
        expect(plain).not.toContain('_change_type');
    });

    test('completion after table_changes(\'t\', 0) offers t\'s columns and the feed columns', async () => {
        const items = labels(await editor.completion(files('CREATE MATERIALIZED VIEW x AS SELECT <|> FROM table_changes(\'users_current\', 0);'), { catalog }));
        expect(items).toEqual(expect.arrayContaining(['user_id', 'city', ...feedColumns]));
    });

    test('hover on a feed column gives its type and meaning', async () => {
        const text = await editor.hover(files('CREATE MATERIALIZED VIEW x AS SELECT _change<|>_type FROM table_changes(\'users_current\', 1, 3);'), { catalog });
        expect(text).toMatch(/^\*\*column\*\* `_change_type`: `string`/);
        expect(text).toContain('**_change_type** (change data feed column, never NULL)');
        expect(text).toContain('`update_preimage`');
        const version = await editor.hover(files('CREATE MATERIALIZED VIEW x AS SELECT _commit_ver<|>sion FROM STREAM my_mv WITH (readChangeFeed = true);'), { catalog });
        expect(version).toMatch(/^\*\*column\*\* `_commit_version`: `bigint`[\s\S]*creation is version 0/);
    });

    test('an unknown reader option warns with the option it resembles; a column of a feed read resolves', async () => {
        const pipeline = await editor.open(files('CREATE STREAMING TABLE x AS SELECT _commit_timestamp FROM STREAM users_current WITH (readChangeFeeds = true);\n'
            + 'CREATE MATERIALIZED VIEW y AS SELECT _commit_timestamp FROM table_changes(\'my_mv\', 0);'), { catalog });
        expect(pipeline.diagnostics('transformations/03_test.sql')).toEqual([
            // Without the option the read is plain: its columns have no _commit_timestamp.
            expect.stringMatching(/error UNRESOLVED_COLUMN.WITH_SUGGESTION Column '_commit_timestamp' does not exist/),
            expect.stringMatching(/warning PIPELINE_SQL_UNKNOWN_TABLE_READ_OPTION 'readChangeFeeds' is not a table read option .* Did you mean 'readChangeFeed'\?/),
        ]);
    });

    test('table_changes of a name that is no dataset of the pipeline warns', async () => {
        const pipeline = await editor.open(files('CREATE MATERIALIZED VIEW x AS SELECT * FROM table_changes(\'users_currnt\', 0);'), { catalog });
        expect(pipeline.diagnostics('transformations/03_test.sql')).toEqual([
            expect.stringMatching(/warning PIPELINE_SQL_TABLE_CHANGES_NOT_A_DATASET 'users_currnt' is not a dataset .* Did you mean 'users_current'\?/),
        ]);
    });
});

describe('lowering of feed reads', () => {
    test('reader options and table_changes bounds reach the IR', async () => {
        const result = await lower({
            'mv.sql': mv,
            'sales.sql': 'CREATE OR REFRESH STREAMING TABLE sales AS SELECT * FROM STREAM my_mv WITH (readChangeFeed=true, startingVersion=2);\n'
                + 'CREATE MATERIALIZED VIEW ch AS SELECT * FROM table_changes(\'my_mv\', 1, \'2025-01-02 00:00:00\');\n'
                + 'CREATE OR REFRESH STREAMING TABLE skip AS SELECT * FROM STREAM(my_mv) WITH (skipChangeCommits = true);',
        }, { catalog: { 'samples/catalog.sql': catalog } });
        expect(result.problems).toEqual([]);
        const flows = result.pipeline.flows;
        const relationOf = (name: string) => {
            const flow = flows.find(f => f.name === name)!;
            return JSON.stringify(flow.kind === 'append' || flow.kind === 'materialized_view' ? flow.query : undefined);
        };
        expect(relationOf('sales')).toContain('"options":{"readChangeFeed":true,"startingVersion":2}');
        expect(relationOf('ch')).toContain('"source":{"kind":"table_changes","name":["my_mv"],"start":{"version":1},"end":{"timestamp":"2025-01-02 00:00:00"}}');
        expect(relationOf('skip')).toContain('"options":{"skipChangeCommits":true}');
    });

    test('startingVersion without readChangeFeed, and table_changes of a sample table, are clear errors', async () => {
        const result = await lower({
            'mv.sql': mv,
            'a.sql': 'CREATE OR REFRESH STREAMING TABLE a AS SELECT * FROM STREAM my_mv WITH (startingVersion = 2);',
            'b.sql': 'CREATE MATERIALIZED VIEW b AS SELECT * FROM table_changes(\'cdc_data.users\', 0);',
        }, { catalog: { 'samples/catalog.sql': catalog } });
        expect(result.problems).toEqual([
            expect.stringMatching(/^a\.sql:1:\d+-1:\d+ \S+ startingVersion and startingTimestamp apply to reads of the change data feed: add readChangeFeed = true\.$/),
            expect.stringMatching(/^b\.sql:1:\d+-1:\d+ \S+ table_changes reads the change data feed of a dataset of this pipeline; 'cdc_data\.users' is not one/),
        ]);
    });
});

describe('statements run on the local state parse', () => {
    const { services } = createTestServices();
    const parse = (text: string) => {
        const result = parseText(services, text);
        return { errors: [...result.lexerErrors, ...result.parserErrors].map(e => e.message), statement: (result.value as ast.PipelineFile).statements[0] };
    };

    test('MERGE with every kind of WHEN clause', () => {
        const { errors, statement } = parse('MERGE WITH SCHEMA EVOLUTION INTO users_current AS t USING (SELECT * FROM fixes) AS s ON t.user_id = s.user_id\n'
            + 'WHEN MATCHED AND s.op = \'D\' THEN DELETE\nWHEN MATCHED THEN UPDATE SET *\nWHEN MATCHED AND s.x THEN UPDATE SET t.name = s.name, city = \'x\'\n'
            + 'WHEN NOT MATCHED THEN INSERT *\nWHEN NOT MATCHED BY TARGET AND s.id > 0 THEN INSERT (user_id, name) VALUES (s.user_id, s.name)\n'
            + 'WHEN NOT MATCHED BY SOURCE THEN DELETE');
        expect(errors).toEqual([]);
        expect(ast.isMergeStatement(statement)).toBe(true);
        const merge = statement as ast.MergeStatement;
        expect(merge.schemaEvolution).toBe(true);
        expect(merge.clauses.map(c => `${c.not ? 'NOT ' : ''}MATCHED${c.bySource ? ' BY SOURCE' : c.byTarget ? ' BY TARGET' : ''}:${c.action.$type}`)).toEqual([
            'MATCHED:MergeDelete', 'MATCHED:MergeUpdate', 'MATCHED:MergeUpdate', 'NOT MATCHED:MergeInsert', 'NOT MATCHED BY TARGET:MergeInsert', 'NOT MATCHED BY SOURCE:MergeDelete',
        ]);
    });

    test('DESCRIBE HISTORY and DESC HISTORY; the seed\'s INSERT with __START_AT / __END_AT', () => {
        expect(parse('DESCRIBE HISTORY users_current').errors).toEqual([]);
        expect(ast.isDescribeHistoryStatement(parse('DESC HISTORY main.sch.users_current').statement)).toBe(true);
        expect(parse('INSERT INTO my_streaming_table (id, name, __START_AT, __END_AT) VALUES (123, \'John Doe\', 5, NULL)').errors).toEqual([]);
    });

    test('words of the new statements stay names', () => {
        expect(parse('SELECT merge, matched, source, target, history, describe, evolution FROM t').errors).toEqual([]);
    });
});
