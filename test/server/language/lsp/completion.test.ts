import { clearDocuments, expectCompletion } from 'langium/test';
import { afterEach, describe, expect, test } from 'vitest';
import type { CompletionItem, TextEdit } from 'vscode-languageserver';
import { StatementSnippets, expandSnippet } from '../../../../server/src/language/lsp/completion/completion-snippets.js';
import { createTestServices } from '../../../helpers/parse.js';
import { createEditorTester, labels, sortItems } from './editor-helpers.js';

const { shared, services } = createTestServices();
const complete = expectCompletion(services);
const editor = createEditorTester();

afterEach(async () => {
    await clearDocuments(shared);
    await editor.clear();
    editor.services.pipeline.Settings.setTarget('databricks');
});

/** The labels proposed at the `<|>` of a text, in the order the editor shows them (a standalone file). */
async function proposals(text: string): Promise<string[]> {
    let result: string[] = [];
    await complete({ text, index: 0, assert: list => (result = labels(sortItems(list.items))), disposeAfterCheck: true });
    return result;
}

/** Only the keyword proposals (clauses), in order. */
async function keywords(text: string): Promise<string[]> {
    let result: string[] = [];
    await complete({ text, index: 0, assert: list => (result = labels(sortItems(list.items.filter(i => i.kind === 14)))), disposeAfterCheck: true });
    return result;
}

const cdcHead = 'CREATE STREAMING TABLE users_current;\nCREATE FLOW users_cdc AS AUTO CDC INTO users_current\nFROM STREAM(users_changes)\nKEYS (user_id)\n';

/** A pipeline whose bronze table (in another file) reads a typed sample catalog table. */
const bronze = 'CREATE OR REFRESH STREAMING TABLE users_changes AS\n'
    + 'SELECT user_id, name, email, city, operation, event_ts, named_struct(\'zip\', zip, \'street\', street) AS address\n'
    + 'FROM STREAM(cdc_data.users);';
const catalog = 'CREATE TABLE cdc_data.users (user_id INT, name STRING, email STRING, city STRING, zip STRING, street STRING, operation STRING, event_ts TIMESTAMP);';

/** The items proposed at the cursor of `file` in a pipeline that also has the bronze file and the catalog. */
async function inPipeline(file: string): Promise<CompletionItem[]> {
    return editor.completion({ 'transformations/01_bronze.sql': bronze, 'transformations/02_test.sql': file }, { catalog });
}

describe('AUTO CDC clauses: only those valid at the cursor', () => {
    test('after KEYS (...) of a change feed: the clauses that may come before the required SEQUENCE BY', async () => {
        expect(await keywords(cdcHead + '<|>')).toEqual(['IGNORE NULL UPDATES', 'APPLY AS DELETE WHEN', 'APPLY AS TRUNCATE WHEN', 'SEQUENCE BY']);
    });

    test('after SEQUENCE BY: the later clauses, never a second SEQUENCE BY, no TRACK HISTORY before STORED AS SCD TYPE 2', async () => {
        const after = await keywords(cdcHead + 'SEQUENCE BY event_ts\n<|>');
        expect(after.slice(0, 4)).toEqual(['SYSTEM SEQUENCE BY', 'COLUMNS', 'STORED AS', 'COLUMNS TO UPDATE']);
        expect(after).not.toContain('SEQUENCE BY');
        expect(after).not.toContain('APPLY AS DELETE WHEN');
        expect(after).not.toContain('TRACK HISTORY ON');
    });

    test('after STORED AS: SCD TYPE 1, SCD TYPE 2 and BITEMPORAL', async () => {
        expect(await keywords(cdcHead + 'SEQUENCE BY event_ts\nSTORED AS <|>')).toEqual(['SCD TYPE 1', 'SCD TYPE 2', 'BITEMPORAL']);
    });

    test('after a bare COLUMNS at the end of the text: TO UPDATE, and * EXCEPT (…) for the other COLUMNS clause', async () => {
        expect(await keywords(cdcHead + 'SEQUENCE BY event_ts\nCOLUMNS <|>')).toEqual(['* EXCEPT (…)', 'TO UPDATE']);
        // Not after IGNORE NULL UPDATES, which COLUMNS TO UPDATE conflicts with.
        expect(await keywords(cdcHead + 'IGNORE NULL UPDATES\nSEQUENCE BY event_ts\nCOLUMNS <|>')).toEqual(['* EXCEPT (…)']);
    });

    test('after STORED AS SCD TYPE 2: TRACK HISTORY ON and COLUMNS TO UPDATE', async () => {
        expect((await keywords(cdcHead + 'SEQUENCE BY event_ts\nSTORED AS SCD TYPE 2\n<|>'))).toEqual(['TRACK HISTORY ON', 'COLUMNS TO UPDATE']);
    });

    test('between KEYS and an existing SEQUENCE BY: only the clauses documented before it', async () => {
        expect(await keywords(cdcHead + '<|>\nSEQUENCE BY event_ts\nSTORED AS SCD TYPE 1;'))
            .toEqual(['IGNORE NULL UPDATES', 'APPLY AS DELETE WHEN', 'APPLY AS TRUNCATE WHEN']);
    });

    test('a flow stored as SCD TYPE 2 gets no APPLY AS TRUNCATE WHEN; one with IGNORE NULL UPDATES no COLUMNS TO UPDATE', async () => {
        expect(await keywords(cdcHead + '<|>\nSEQUENCE BY event_ts\nSTORED AS SCD TYPE 2;')).toEqual(['IGNORE NULL UPDATES', 'APPLY AS DELETE WHEN']);
        const afterSequence = await keywords(cdcHead + 'IGNORE NULL UPDATES\nSEQUENCE BY event_ts\n<|>');
        expect(afterSequence).not.toContain('COLUMNS TO UPDATE');
        expect(afterSequence).toContain('COLUMNS');
    });

    test('with SYSTEM SEQUENCE BY, STORED AS offers only BITEMPORAL', async () => {
        expect(await keywords(cdcHead + 'SEQUENCE BY valid_from\nSYSTEM SEQUENCE BY recorded_at\nSTORED AS <|>')).toEqual(['BITEMPORAL']);
    });

    test('a snapshot flow: no change-feed clauses, no BITEMPORAL, no TRACK HISTORY in an SCD1 snapshot flow', async () => {
        const snapshot = 'CREATE STREAMING TABLE stock;\nCREATE FLOW stock_cdc AS AUTO CDC INTO stock\nFROM SNAPSHOT (SELECT * FROM stock_snapshots)\nKEYS (sku)\n';
        expect(await keywords(snapshot + '<|>')).toEqual(['STORED AS']);
        expect(await keywords(snapshot + 'STORED AS <|>')).toEqual(['SCD TYPE 1', 'SCD TYPE 2']);
        expect(await keywords(snapshot + 'STORED AS SCD TYPE 1\n<|>')).toEqual([]);
        expect(await keywords(snapshot + 'STORED AS SCD TYPE 2\n<|>')).toEqual(['TRACK HISTORY ON']);
    });

    test('a partly typed clause word is completed in place', async () => {
        await complete({
            text: cdcHead + 'SEQ<|>',
            index: 0,
            assert: list => {
                const item = list.items.find(i => i.label === 'SEQUENCE BY');
                expect(item?.textEdit).toMatchObject({ newText: 'SEQUENCE BY', range: { start: { line: 4, character: 0 }, end: { line: 4, character: 3 } } });
            },
            disposeAfterCheck: true,
        });
    });

    test('the Spark 4.2 target has no TRUNCATE, SYSTEM SEQUENCE BY, COLUMNS TO UPDATE or BITEMPORAL', async () => {
        editor.services.pipeline.Settings.setTarget('spark-4.2');
        const file = cdcHead.replace('users_changes', 'users') + '<|>';
        const afterKeys = labels((await editor.completion({ 'transformations/a.sql': file }, { target: 'spark-4.2' })).filter(i => i.kind === 14));
        expect(afterKeys).toContain('SEQUENCE BY');
        expect(afterKeys).not.toContain('APPLY AS TRUNCATE WHEN');
        const stored = labels((await editor.completion({ 'transformations/a.sql': cdcHead + 'SEQUENCE BY event_ts\nSTORED AS <|>' }, { target: 'spark-4.2' }))
            .filter(i => i.kind === 14));
        expect(stored).toEqual(['SCD TYPE 1', 'SCD TYPE 2']);
    });
});

describe('keywords and snippets where a statement starts', () => {
    test('whole CREATE statements and the statement snippets', async () => {
        const items = await proposals('<|>');
        expect(items.slice(0, 4)).toEqual(['CREATE OR REFRESH STREAMING TABLE', 'CREATE OR REFRESH MATERIALIZED VIEW', 'CREATE TEMPORARY VIEW', 'CREATE FLOW']);
        expect(items).toContain('APPLY CHANGES INTO');
        expect(items.filter(i => i.includes('AUTO CDC'))).toEqual([
            'AUTO CDC flow: streaming table as SCD type 1', 'AUTO CDC flow: streaming table as SCD type 2 (history)',
            'AUTO CDC flow: streaming table stored as BITEMPORAL', 'AUTO CDC FROM SNAPSHOT flow: streaming table from periodic snapshots',
        ]);
        expect(items).toContain('Materialized view with expectations');
    });

    test.each(StatementSnippets.map(s => [s.label, s] as const))('the snippet "%s" is valid pipeline SQL once filled in', async (_label, snippet) => {
        const pipeline = await editor.load({ 'transformations/snippet.sql': expandSnippet(snippet.body) });
        expect(pipeline.diagnostics('transformations/snippet.sql').filter(d => d.includes('] error '))).toEqual([]);
        expect(pipeline.documents.get('transformations/snippet.sql')!.parseResult.value.$cstNode?.text.trim().length).toBeGreaterThan(20);
    });

    test('after SELECT ... FROM t: the clauses that may follow, joins as whole phrases', async () => {
        const items = await keywords('SELECT a FROM t <|>');
        expect(items).toEqual(expect.arrayContaining(['WHERE', 'GROUP BY', 'ORDER BY', 'LEFT JOIN', 'LEFT ANTI JOIN', 'UNION', 'LIMIT']));
        expect(items).not.toContain('SELECT');
    });
});

describe('dataset names after FROM, JOIN, STREAM(, INTO', () => {
    test('datasets of other files, CTEs and sample catalog tables after FROM, with table-valued functions', async () => {
        const items = await inPipeline('CREATE MATERIALIZED VIEW v AS WITH recent AS (SELECT 1 AS x)\nSELECT * FROM <|>');
        expect(labels(items).slice(0, 3)).toEqual(['recent', 'users_changes', 'cdc_data.users']);
        expect(items[1].detail).toBe('streaming table · 01_bronze.sql');
        expect(labels(items)).toContain('read_files');
        expect(labels(items)).toContain('table_changes');
    });

    test('after JOIN and inside STREAM(', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT * FROM cdc_data.users u JOIN <|>')).slice(0, 2))
            .toEqual(['users_changes', 'cdc_data.users']);
        expect(labels(await inPipeline('CREATE STREAMING TABLE s AS SELECT * FROM STREAM(<|>')).slice(0, 2)).toEqual(['users_changes', 'cdc_data.users']);
    });

    test('a query does not propose the dataset it defines; a flow target is never a catalog table', async () => {
        expect(labels(await inPipeline('CREATE STREAMING TABLE s AS SELECT * FROM STREAM(<|>'))).not.toContain('s');
        expect(labels(await inPipeline('CREATE STREAMING TABLE s;\nCREATE FLOW f AS INSERT INTO <|>')).filter(l => !/^[A-Z]+$/.test(l))).toEqual(['users_changes', 's']);
    });

    test('after AUTO CDC INTO and APPLY CHANGES INTO only streaming tables no other flow writes; after INSERT INTO no view', async () => {
        const targets = 'CREATE STREAMING TABLE users_history;\nCREATE MATERIALIZED VIEW mv AS SELECT 1 AS x;\nCREATE TABLE managed AS SELECT 1 AS x;\n';
        // users_changes (another file) is written by its own query: an AUTO CDC flow into it would be a second flow (V18).
        expect(labels(await inPipeline(targets + 'CREATE FLOW h AS AUTO CDC INTO <|>'))).toEqual(['users_history']);
        expect(labels(await inPipeline(targets + 'APPLY CHANGES INTO <|>'))).toEqual(['users_history']);
        expect(labels(await inPipeline(targets + 'CREATE FLOW h AS INSERT INTO <|>')).filter(l => !/^[A-Z]+$/.test(l)))
            .toEqual(['users_changes', 'users_history', 'managed']);
    });

    test('after AUTO CDC INTO t FROM: STREAM(…) first, then the datasets and sample tables (not the target), then SNAPSHOT', async () => {
        const head = 'CREATE STREAMING TABLE users_current;\nCREATE FLOW f AS AUTO CDC INTO users_current\nFROM ';
        for (const typed of ['', 's']) {
            const items = await inPipeline(`${head}${typed}<|>`);
            expect(labels(items)).toEqual(['STREAM(…)', 'users_changes', 'cdc_data.users', 'SNAPSHOT']);
            // The word typed is replaced; the snippet leaves the cursor in the parentheses and opens the list again.
            expect(items[0].textEdit).toMatchObject({ newText: 'STREAM($1)$0' });
            expect((items[0].textEdit as TextEdit).range.start.character).toBe(5);
            expect(items[0].command?.command).toBe('editor.action.triggerSuggest');
        }
        expect(labels(await inPipeline('CREATE STREAMING TABLE t;\nAPPLY CHANGES INTO t FROM <|>'))).toEqual(['STREAM(…)', 'users_changes', 'cdc_data.users']);
        // Inside STREAM( the tables again, without the flow's own target.
        expect(labels(await inPipeline(`${head}STREAM(<|>`)).slice(0, 2)).toEqual(['users_changes', 'cdc_data.users']);
        expect(labels(await inPipeline(`${head}STREAM(<|>`))).not.toContain('users_current');
    });

    test('a phrase whose first word may come alone is filtered without spaces: past the space it closes the list (FROM SNAPSHOT must not hide the sources)', async () => {
        const filterTexts = async (text: string) => {
            let items: CompletionItem[] = [];
            await complete({ text, index: 0, assert: l => (items = l.items.filter(i => i.kind === 14)), disposeAfterCheck: true });
            return Object.fromEntries(items.map(i => [i.label, i.filterText ?? i.label]));
        };
        const afterInto = await filterTexts('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t\nFR<|>');
        expect(afterInto).toMatchObject({ FROM: 'FROM', 'FROM SNAPSHOT': 'FROMSNAPSHOT' });
        // What may follow the space is asked for again: the sources, and SNAPSHOT for the phrase.
        expect(labels(await inPipeline('CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t\nFROM <|>'))).toContain('SNAPSHOT');
        const clauses = await filterTexts(`${cdcHead}SEQUENCE BY event_ts\n<|>`);
        expect(clauses).toMatchObject({ COLUMNS: 'COLUMNS', 'COLUMNS TO UPDATE': 'COLUMNSTOUPDATE', 'STORED AS': 'STORED AS' });
        expect(await keywords(`${cdcHead}SEQUENCE BY event_ts\nCOLUMNS <|>`)).toContain('TO UPDATE');
    });

    test('in a query FROM, STREAM(…) is a snippet after the tables', async () => {
        const items = labels(await inPipeline('CREATE STREAMING TABLE s AS SELECT * FROM <|>'));
        expect(items.slice(0, 3)).toEqual(['users_changes', 'cdc_data.users', 'STREAM(…)']);
        expect(items).not.toContain('STREAM');
    });

    test('after LIVE. only datasets of the pipeline', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT * FROM LIVE.<|>'))).toEqual(['users_changes']);
    });

    test('after a schema qualifier, the sample tables under it', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT * FROM cdc_data.<|>'))).toEqual(['users']);
    });
});

describe('new names are not completed', () => {
    // VS Code's Enter accepts the selected item: an item at an alias would turn `AS moves⏎` into another name.
    test.each([
        ['a select-list alias', 'CREATE MATERIALIZED VIEW v AS SELECT city, count(*) AS moves<|> FROM users_changes GROUP BY city;'],
        ['a select-list alias at the end of the text', 'CREATE MATERIALIZED VIEW v AS SELECT city, count(*) AS city<|>'],
        ['a table alias that repeats the table name', 'CREATE MATERIALIZED VIEW v AS SELECT * FROM users_changes AS users_changes<|>'],
        ['a table alias', 'CREATE MATERIALIZED VIEW v AS SELECT * FROM users_changes AS hist<|>'],
        ['after AS', 'CREATE MATERIALIZED VIEW v AS SELECT city AS <|>'],
    ])('%s gets no proposals', async (_what, text) => {
        expect(labels(await inPipeline(text))).toEqual([]);
    });

    test('a bare alias gets only the keywords that may follow, none spelled like it', async () => {
        const items = labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT * FROM users_changes h<|>'));
        expect(items.length).toBeGreaterThan(0);
        expect(items.every(l => /^[A-Z_ ]+$/.test(l))).toBe(true);
    });
});

describe('columns of the sources in scope', () => {
    test('in a select list: the source columns of a dataset defined in another file, then functions', async () => {
        const items = await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT <|> FROM users_changes');
        expect(labels(items).slice(0, 7)).toEqual(['user_id', 'name', 'email', 'city', 'operation', 'event_ts', 'address']);
        expect(items[0].detail).toBe('int · users_changes');
        const upper = items.find(i => i.label === 'upper');
        expect(upper?.detail).toBe('upper(str: string) → string');
        expect(upper?.textEdit?.newText).toBe('upper(${1:str})');
    });

    test('in a predicate, through a table alias, and after the alias and a dot', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT 1 FROM users_changes AS u WHERE u.<|>')))
            .toEqual(['user_id', 'name', 'email', 'city', 'operation', 'event_ts', 'address', '_metadata']);
    });

    test('through a CTE and a join: both sides, each column with its source', async () => {
        const items = await inPipeline('CREATE MATERIALIZED VIEW v AS\nWITH c AS (SELECT user_id, upper(city) AS city_upper FROM users_changes)\n'
            + 'SELECT <|> FROM c JOIN cdc_data.users AS raw USING (user_id)');
        const names = items.filter(i => i.kind === 5).map(i => `${i.label} (${i.detail})`);
        expect(names.slice(0, 3)).toEqual(['user_id (int · c)', 'city_upper (string · c)', 'user_id (int · cdc_data.users AS raw)']);
        expect(labels(items)).toContain('raw');
    });

    test('in a predicate without alias, in JOIN ... ON (both sides) and in GROUP BY', async () => {
        const columns = ['user_id', 'name', 'email', 'city', 'operation', 'event_ts', 'address'];
        expect(labels((await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT 1 FROM users_changes WHERE <|>')).filter(i => i.kind === 5)))
            .toEqual([...columns, '_metadata']);
        const on = (await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT 1 FROM users_changes u JOIN cdc_data.users r ON <|>')).filter(i => i.kind === 5);
        expect(on.filter(i => i.label === 'zip').map(i => i.detail)).toEqual(['string · cdc_data.users AS r']);
        expect(on.filter(i => i.label === 'operation').length).toBe(2);
        expect(labels((await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT city, count(*) AS n FROM users_changes GROUP BY <|>')).filter(i => i.kind === 5)).slice(0, 7))
            .toEqual(columns);
    });

    test('struct fields after a dot', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT address.<|> FROM users_changes'))).toEqual(['zip', 'street']);
    });

    test('in * EXCEPT (...): the columns of the relation, less those already listed', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v AS SELECT * EXCEPT (email, <|>) FROM users_changes')))
            .toEqual(['user_id', 'name', 'city', 'operation', 'event_ts', 'address']);
    });

    test('in KEYS (, SEQUENCE BY, COLUMNS, COLUMNS * EXCEPT ( and TRACK HISTORY ON: the AUTO CDC source and output columns', async () => {
        const flow = 'CREATE STREAMING TABLE users_history;\nCREATE FLOW h AS AUTO CDC INTO users_history\nFROM STREAM(users_changes)\n';
        expect(labels(await inPipeline(flow + 'KEYS (<|>'))).toEqual(['user_id', 'name', 'email', 'city', 'operation', 'event_ts', 'address']);
        expect(labels(await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY <|>')).slice(0, 3)).toEqual(['user_id', 'name', 'email']);
        // `COLUMNS a, b` without parentheses: the completion parser alone would expect only `COLUMNS TO UPDATE`.
        expect(labels(await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS <|>')))
            .toEqual(['user_id', 'name', 'email', 'city', 'operation', 'event_ts', 'address', '* EXCEPT (…)', 'TO UPDATE']);
        expect(labels((await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS <|>\nSTORED AS SCD TYPE 1;')).filter(i => i.kind === 5)))
            .toEqual(['user_id', 'name', 'email', 'city', 'operation', 'event_ts', 'address']);
        expect(labels(await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS user_id, <|>')))
            .toEqual(['name', 'email', 'city', 'operation', 'event_ts', 'address']);
        expect(labels(await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS * EXCEPT (operation, <|>)')))
            .toEqual(['user_id', 'name', 'email', 'city', 'event_ts', 'address']);
        expect(labels(await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS * EXCEPT (operation)\nSTORED AS SCD TYPE 2\nTRACK HISTORY ON <|>')))
            .toEqual(['user_id', 'name', 'email', 'city', 'event_ts', 'address', '* EXCEPT (…)']);
        // The column list after COLUMNS / TRACK HISTORY ON may be `* EXCEPT (…)`: offered as a snippet.
        const except = (await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS <|>')).find(i => i.label === '* EXCEPT (…)');
        expect(except?.textEdit?.newText).toBe('* EXCEPT ($0)');
        expect(labels(await inPipeline(flow + 'KEYS (user_id)\nSEQUENCE BY <|>'))).not.toContain('* EXCEPT (…)');
    });

    test('in an expectation: the columns of the dataset', async () => {
        expect(labels(await inPipeline('CREATE MATERIALIZED VIEW v (CONSTRAINT ok EXPECT (<|>)) AS SELECT user_id, email FROM users_changes')).slice(0, 2))
            .toEqual(['user_id', 'email']);
    });

    test('lambda variables inside a higher-order function', async () => {
        const items = await proposals('SELECT transform(array(1, 2), x -> <|>)');
        expect(items[0]).toBe('x');
    });
});

describe('functions, options, properties and types', () => {
    test('read_files options after the path, and the values of format', async () => {
        const options = await proposals('SELECT * FROM read_files(\'/data\', <|>)');
        expect(options.slice(0, 2)).toEqual(['format', 'schema']);
        await complete({
            text: 'SELECT * FROM read_files(\'/data\', format => \'json\', <|>)',
            index: 0,
            assert: list => {
                expect(labels(list.items)).not.toContain('format');
                expect(list.items.find(i => i.label === 'inferColumnTypes')?.textEdit?.newText).toBe('inferColumnTypes => ${1|true,false|}');
            },
            disposeAfterCheck: true,
        });
        expect(await proposals('SELECT * FROM read_files(\'/data\', format => <|>)')).toEqual(
            ['\'csv\'', '\'json\'', '\'xml\'', '\'text\'', '\'binaryFile\'', '\'parquet\'', '\'avro\'', '\'orc\'']);
    });

    test('known table properties in TBLPROPERTIES (', async () => {
        const items = await proposals('CREATE STREAMING TABLE t TBLPROPERTIES (<|>)');
        expect(items).toContain('\'pipelines.reset.allowed\'');
        expect(items).toContain('\'delta.enableChangeDataFeed\'');
    });

    test('data types after a column name and in CAST', async () => {
        expect((await proposals('SELECT CAST(x AS <|>)')).slice(0, 4)).toEqual(['BOOLEAN', 'TINYINT', 'SMALLINT', 'INT']);
        expect(await proposals('CREATE STREAMING TABLE t (id <|>)')).toContain('DECIMAL');
    });

    test('nothing inside a comment', async () => {
        expect(await proposals('SELECT 1 -- FROM <|>')).toEqual([]);
    });
});
