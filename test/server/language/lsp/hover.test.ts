import { createRequire } from 'node:module';
import { clearDocuments, expectHover } from 'langium/test';
import { afterEach, describe, expect, test } from 'vitest';
import { createTestServices } from '../../../helpers/parse.js';
import { codeSpan, escapeMarkdown } from '../../../../server/src/language/lsp/lsp-text.js';
import { createEditorTester } from './editor-helpers.js';

const { shared, services } = createTestServices();
const hover = expectHover(services);
const editor = createEditorTester();

afterEach(async () => {
    await clearDocuments(shared);
    await editor.clear();
});

const catalog = 'CREATE TABLE cdc_data.users (user_id INT, name STRING, email STRING, city STRING, zip STRING, operation STRING, event_ts TIMESTAMP);';
const bronze = '-- Raw changes.\nCREATE OR REFRESH STREAMING TABLE users_changes (\n  CONSTRAINT has_id EXPECT (user_id IS NOT NULL)\n)\n'
    + 'COMMENT \'Change events of the users table\'\n'
    + 'AS SELECT user_id, trim(name) AS name, email, city, operation, event_ts, named_struct(\'zip\', zip) AS address\nFROM STREAM(cdc_data.users);';
const current = 'CREATE OR REFRESH STREAMING TABLE users_current;\n\nCREATE FLOW users_current_cdc AS AUTO CDC INTO users_current\n'
    + 'FROM STREAM(users_changes)\nKEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS * EXCEPT (operation)\nSTORED AS SCD TYPE 2;';

/** The hover at the cursor of `file` in the users pipeline (bronze table, SCD2 target, catalog). */
async function hoverIn(file: string): Promise<string | undefined> {
    return editor.hover({ 'transformations/01_bronze.sql': bronze, 'transformations/02_current.sql': current, 'transformations/03_test.sql': file }, { catalog });
}

describe('half-written statements', () => {
    test('a column of a dataset whose name is not written yet (TABLE* recovered by the parser) still gets its card', async () => {
        await hover({
            text: 'CREATE OR REFRESH STREAMING TABLE* bronze (id BIGINT, CONSTRAINT ok EXPECT (i<|>d > 0) ON VIOLATION DROP ROW)\nAS SELECT *',
            index: 0,
            hover: /declared in the query/,
            disposeAfterCheck: true,
        });
    });
});

describe('pipeline keywords and clauses', () => {
    test('SEQUENCE BY explains ordering, the default and an example', async () => {
        await hover({
            text: 'CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQ<|>UENCE BY ts;',
            index: 0,
            hover: /^\*\*SEQUENCE BY\*\*[\s\S]*Orders the change events of each key[\s\S]*\*\*When omitted:\*\* Required in the change-feed form[\s\S]*\*\*Example\*\*/,
            disposeAfterCheck: true,
        });
    });

    test.each([
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s K<|>EYS (id) SEQUENCE BY ts;', 'KEYS'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY ts STO<|>RED AS SCD TYPE 2;', 'STORED AS'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY ts STORED AS SCD TY<|>PE 2;', 'SCD TYPE 2'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY ts STORED AS BITEMP<|>ORAL;', 'BITEMPORAL'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) IGN<|>ORE NULL UPDATES SEQUENCE BY ts;', 'IGNORE NULL UPDATES'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) APPLY AS DEL<|>ETE WHEN op = \'D\' SEQUENCE BY ts;', 'APPLY AS DELETE WHEN'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY ts STORED AS SCD TYPE 2 TRA<|>CK HISTORY ON * EXCEPT (a);', 'TRACK HISTORY ON'],
        ['CREATE FLOW f AS AU<|>TO CDC INTO t FROM s KEYS (id) SEQUENCE BY ts;', 'AUTO CDC'],
        ['CREATE FLOW f AS AUTO CDC ON<|>CE INTO t FROM s KEYS (id) SEQUENCE BY ts;', 'ONCE'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM SNAP<|>SHOT (SELECT * FROM s) KEYS (id);', 'FROM SNAPSHOT'],
        ['CREATE OR REFRESH STREA<|>MING TABLE t AS SELECT 1;', 'CREATE STREAMING TABLE'],
        ['CREATE OR REFRESH MATERIALIZED V<|>IEW t AS SELECT 1;', 'CREATE MATERIALIZED VIEW'],
        ['CREATE OR REF<|>RESH MATERIALIZED VIEW t AS SELECT 1;', 'OR REFRESH'],
        ['CREATE OR REFRESH PRIV<|>ATE MATERIALIZED VIEW t AS SELECT 1;', 'PRIVATE'],
        ['CREATE MATERIALIZED VIEW t (CONSTRAINT c EXP<|>ECT (a > 0) ON VIOLATION DROP ROW) AS SELECT 1 AS a;', 'EXPECT'],
        ['CREATE MATERIALIZED VIEW t (CONSTRAINT c EXPECT (a > 0) ON VIOLATION DR<|>OP ROW) AS SELECT 1 AS a;', 'DROP ROW'],
        ['CREATE STREAMING TABLE t AS SELECT * FROM STRE<|>AM(s);', 'STREAM'],
        ['CREATE STREAMING TABLE t TBLPROPER<|>TIES (\'a\' = \'b\') AS SELECT * FROM STREAM(s);', 'TBLPROPERTIES'],
        ['CREATE FLOW f AS INSERT ONCE IN<|>TO t BY NAME SELECT 1;', 'INSERT ONCE INTO'],
    ])('%s explains %s', async (text, id) => {
        await hover({ text, index: 0, hover: new RegExp(`^\\*\\*${id}\\*\\*`), disposeAfterCheck: true });
    });

    test('plain SQL keywords (SELECT, FROM) have no pipeline hover', async () => {
        await hover({ text: 'SEL<|>ECT 1', index: 0, hover: undefined, disposeAfterCheck: true });
    });
});

describe('datasets, sources and CTEs', () => {
    test('a dataset defined in another file: kind, comment, where defined, columns and types', async () => {
        const text = await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT * FROM users_ch<|>anges;');
        expect(text?.split('\n\n')).toEqual([
            '**streaming table** `users_changes`',
            'Change events of the users table',
            expect.stringMatching(/^Defined in \[01\\_bronze\\\.sql:2\]\(file:\/\/\/virtual\/p\d+\/transformations\/01_bronze\.sql#L2\)\.$/),
            [
                '| column | type |', '|---|---|', '| user\\_id | `int` |', '| name | `string` |', '| email | `string` |', '| city | `string` |',
                '| operation | `string` |', '| event\\_ts | `timestamp` |', '| address | `struct<zip:string>` |',
            ].join('\n'),
        ]);
    });

    test('an AUTO CDC target: the flow that writes it and the SCD type 2 columns', async () => {
        const text = await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT * FROM users_cur<|>rent;');
        expect(text).toMatch(/^\*\*streaming table\*\* `users_current`/);
        expect(text).toContain('Written by flow `users_current_cdc` (AUTO CDC, SCD type 2, [02\\_current\\.sql:3]');
        expect(text).toContain('| \\_\\_START\\_AT | `timestamp` |');
        expect(text).not.toContain('| operation |');
    });

    test('the name in a dataset definition shows the same card', async () => {
        expect(await hoverIn('CREATE MATERIALIZED VIEW daily_<|>users AS SELECT count(*) AS n FROM users_current;'))
            .toMatch(/^\*\*materialized view\*\* `daily_users`\n\nDefined in \[03\\_test\\\.sql:1\][^\n]*\n\n\| column \| type \|\n\|---\|---\|\n\| n \| `bigint` \|$/);
    });

    test('a sample catalog table and a table outside the pipeline', async () => {
        expect(await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT * FROM cdc_data.us<|>ers;')).toMatch(/^\*\*sample catalog table\*\* `cdc_data\.users`[\s\S]*\| zip \| `string` \|/);
        expect(await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT * FROM main.crm.acc<|>ounts;'))
            .toMatch(/^\*\*table outside the pipeline\*\* `main\.crm\.accounts`\n\nNot defined by the pipeline[\s\S]*Columns unknown/);
    });

    test('a CTE and a table alias', async () => {
        const query = 'CREATE MATERIALIZED VIEW m AS WITH recent AS (SELECT user_id, city FROM users_current) SELECT r.city FROM rec<|>ent AS r;';
        expect(await hoverIn(query)).toMatch(/^\*\*common table expression\*\* `recent`[\s\S]*\| user\\_id \| `int` \|\n\| city \| `string` \|$/);
        expect(await hoverIn(query.replace('rec<|>ent', 'recent').replace('r.city', '<|>r.city'))).toMatch(/^\*\*alias\*\* `r` for common table expression `recent`/);
    });
});

describe('columns, functions, options and properties', () => {
    test('a column: its type, the relation it is read from and where it is computed', async () => {
        expect(await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT na<|>me FROM users_changes;')).toMatch(new RegExp(
            '^\\*\\*column\\*\\* `name`: `string`\n\nFrom `users_changes` \\(streaming table\\) · defined as `trim\\(name\\)` in `users_changes` '
            + '\\(\\[01\\\\_bronze\\\\\\.sql:6\\]\\(file:///virtual/p\\d+/transformations/01_bronze\\.sql#L6\\)\\)\\.$'));
    });

    test('a struct field after a dot, and a column named in KEYS', async () => {
        expect(await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT address.z<|>ip FROM users_changes;')).toMatch(/^\*\*field\*\* `zip` of `address`: `string`/);
        const keys = await hoverIn(current.replace('users_current', 'users_other').replace('users_current_cdc', 'other_cdc').replace('KEYS (user_id)', 'KEYS (user<|>_id)'));
        expect(keys).toMatch(/^\*\*column\*\* `user_id`: `int`\n\nFrom `users_changes` · defined in `users_changes`/);
    });

    test('system columns of an SCD type 2 target: type and meaning', async () => {
        const text = await hoverIn('CREATE MATERIALIZED VIEW m AS SELECT user_id FROM users_current WHERE __END<|>_AT IS NULL;');
        expect(text).toMatch(/^\*\*column\*\* `__END_AT`: `timestamp`\n\nFrom `users_current` \(streaming table\)\.\n\n---\n\n\*\*__END_AT\*\*/);
    });

    test('a function: signature and description; read_files also gets its pipeline documentation', async () => {
        await hover({ text: 'SELECT coal<|>esce(a, 0) FROM t', index: 0, hover: /^```sql\ncoalesce\(expr: any, …\) → [^\n]+\n```\n\nThe first argument that is not NULL/, disposeAfterCheck: true });
        await hover({ text: 'SELECT * FROM read_fi<|>les(\'/data\', format => \'json\')', index: 0, hover: /```sql\nread_files\([\s\S]*---\n\n\*\*READ_FILES\*\*/, disposeAfterCheck: true });
    });

    test('table_changes: its signature and what it reads, from the function catalog', async () => {
        await hover({
            text: 'SELECT * FROM table_chan<|>ges(\'customers\', 2, 5)', index: 0, disposeAfterCheck: true,
            hover: /^```sql\ntable_changes\(table_str: const string, start: const any\[, end: const any\]\)[^\n]*\n[\s\S]*```\n\nThe change data feed of a Delta table/,
        });
    });

    test('a read_files option and a table property', async () => {
        await hover({ text: 'SELECT * FROM read_files(\'/data\', for<|>mat => \'json\')', index: 0, hover: /^\*\*format\*\* \(option of `read_files`\)\n\nFile format to read/, disposeAfterCheck: true });
        await hover({
            text: 'CREATE MATERIALIZED VIEW m TBLPROPERTIES (\'pipelines.reset.al<|>lowed\' = \'false\') AS SELECT 1',
            index: 0, hover: /^\*\*pipelines\.reset\.allowed\*\* \(boolean\)\n\nWhether a full refresh may clear this table/, disposeAfterCheck: true,
        });
    });

    test('a data type', async () => {
        await hover({ text: 'CREATE STREAMING TABLE t (amount DECI<|>MAL(10, 2))', index: 0, hover: /^\*\*DECIMAL\*\* \(data type\)/, disposeAfterCheck: true });
    });
});

/** Markdown rendered as a client renders it (CommonMark with raw HTML and bare links on: the permissive case). */
const markdown = new (createRequire(import.meta.url)('markdown-it') as new (options: object) => { render(text: string): string })({ html: true, linkify: true });

/** Names that try to break out of a code span or a table cell and render live Markdown. */
const hostile = [
    'x` ![pixel](https://evil.example/a.png) [click](https://evil.example) `',
    'y`` <img src=https://evil.example/b.png> ``',
    '`z',
    'w | ![t](https://evil.example/t.png) | https://evil.example/bare',
];

describe('names from the workspace are shown as text, never as Markdown', () => {
    test.each(hostile)('a dataset named %s: its hover has no image, link or HTML, and shows the name', async name => {
        const quoted = '`' + name.replaceAll('`', '``') + '`';
        const column = '`' + `c${name}`.replaceAll('`', '``') + '`';
        const text = await editor.hover({
            'a.sql': `CREATE MATERIALIZED VIEW ${quoted} COMMENT '${name.replaceAll('\'', '\\\'')} [c](https://evil.example/c)' AS SELECT 1 AS ${column};\n`
                + `CREATE MATERIALIZED VIEW reader AS SELECT * FROM <|>${quoted};`,
        });
        expect(text).toBeDefined();
        const html = markdown.render(text!);
        expect(html).not.toMatch(/<img|<a |<script/i);
        // The name comes through as the text it is (in a code span: spaces around backticks are padding).
        const shown = html.replace(/<[^>]+>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&').replaceAll('&quot;', '"');
        expect(shown).toContain(name.trim());
        expect(shown).toContain(`c${name}`.trim());
    });

    test('a column and an alias with a backtick in the hover of a column', async () => {
        const text = await editor.hover({
            'a.sql': 'CREATE MATERIALIZED VIEW m AS SELECT `a``![i](https://evil.example/i.png)` AS `b``[l](https://evil.example)` FROM VALUES (1) AS t(`a``![i](https://evil.example/i.png)`);\n'
                + 'CREATE MATERIALIZED VIEW n AS SELECT <|>`b``[l](https://evil.example)` FROM m;',
        });
        expect(text).toMatch(/^\*\*column\*\*/);
        expect(markdown.render(text!)).not.toMatch(/<img|<a /i);
    });

    test('a delta feature table property with Markdown in its name', async () => {
        await hover({
            text: 'CREATE MATERIALIZED VIEW m TBLPROPERTIES (\'delta.feature.x` ![i](https://evil.example/i.png) `<|>\' = \'supported\') AS SELECT 1',
            index: 0, hover: /^\*\*delta\\\.feature\\\.x\\` \\!\\\[i\\\]/, disposeAfterCheck: true,
        });
    });

    test('code spans and escapes: the fence outgrows the backticks inside, line breaks cannot end the span', () => {
        expect(codeSpan('plain')).toBe('`plain`');
        expect(codeSpan('a`b')).toBe('``a`b``');
        expect(codeSpan('``x')).toBe('``` ``x ```');
        expect(codeSpan('')).toBe('` `');
        expect(markdown.render(codeSpan('a\n\n![i](https://evil.example/i.png)'))).not.toContain('<img');
        expect(markdown.render(escapeMarkdown('see <https://evil.example> and www.evil.example or **bold**\n# title'))).toBe(
            '<p>see &lt;https://evil.example&gt; and www.evil.example or **bold** # title</p>\n');
    });
});
