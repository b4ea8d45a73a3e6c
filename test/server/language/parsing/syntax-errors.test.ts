import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { createParser, createTestServices } from '../../../helpers/parse.js';
import { printAst } from '../../../helpers/print-ast.js';

const { shared, services } = createTestServices();
const parse = createParser(services);

afterEach(() => clearDocuments(shared));

/** The printed diagnostics of a text. */
async function errors(text: string): Promise<string[]> {
    return (await parse(text)).diagnostics;
}

describe('syntax error messages name what was found and what could come there', () => {
    test.each([
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS ;', '[1:46..1:47]: Unexpected \';\' after KEYS: expected a column list in parentheses.'],
        ['CREATE OR REFRESH STREAMIN TABLE x AS SELECT 1',
            '[1:19..1:27]: Unexpected \'STREAMIN\' after REFRESH: expected STREAMING TABLE, MATERIALIZED VIEW, VIEW, TABLE, FLOW, CATALOG or SCHEMA.'],
        ['SELECT a FROM t WHERE', '[1:22..1:22]: Unexpected end of file after WHERE: expected an expression.'],
        ['CREATE STREAMING TABLE t (a INT,) AS SELECT 1',
            '[1:33..1:34]: Unexpected \')\' after \',\': expected a column definition, CONSTRAINT ... EXPECT or a key constraint.'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) STORED AS SCD TYPE', '[1:69..1:69]: Unexpected end of file after TYPE: expected a number.'],
        ['CREATE MATERIALIZED VIEW m AS', '[1:30..1:30]: Unexpected end of file after AS: expected a query (SELECT, FROM, VALUES, TABLE or WITH).'],
        ['CREATE STREAMING TABLE t (CONSTRAINT c EXPECT (a > 0) ON VIOLATION DROP)', '[1:72..1:73]: Unexpected \')\' after DROP: expected ROW.'],
        ['SELECT CAST(a AS) FROM t', '[1:17..1:18]: Unexpected \')\' after AS: expected a data type.'],
        ['SELECT * FROM t WHERE (;', '[1:24..1:25]: Unexpected \';\' after \'(\': expected an expression.'],
        ['SELECT f(a b) FROM t', '[1:12..1:13]: Unexpected \'b\' after \'a\': expected \')\'.'],
        ['CREATE FLOW f AS INSERT INTO t BY SELECT 1', '[1:35..1:41]: Unexpected SELECT after BY: expected NAME.'],
        ['SET a = ;', '[1:9..1:10]: Unexpected \';\' after \'=\': expected a value.'],
        ['SELECT 1 SELECT 2', '[1:10..1:16]: Unexpected SELECT: expected \';\' or the end of the file.'],
        ['SELECT 1; SELCT a FROM t', '[1:11..1:16]: Unexpected \'SELCT\': expected a statement (CREATE, SELECT, SET, USE, APPLY CHANGES, INSERT, ...).'],
        ['SELECT * FROM t WHERE x IS', '[1:27..1:27]: Unexpected end of file after IS: expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT.'],
        ['SELECT * FROM t WHERE a IN', '[1:27..1:27]: Unexpected end of file after IN: expected \'(\'.'],
        ['SELECT * FROM t LIMIT', '[1:22..1:22]: Unexpected end of file after LIMIT: expected ALL or an expression.'],
        ['CREATE OR', '[1:10..1:10]: Unexpected end of file after OR: expected REFRESH or REPLACE.'],
        ['CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) STORED AS', '[1:60..1:60]: Unexpected end of file after AS: expected SCD TYPE 1, SCD TYPE 2 or BITEMPORAL.'],
        ['SELECT CASE x END', '[1:15..1:18]: Unexpected END after \'x\': expected WHEN.'],
        ['SELECT sum(x) OVER w FROM t WINDOW w AS', '[1:40..1:40]: Unexpected end of file after AS: expected a window specification in parentheses or a window name.'],
    ])('%s', async (text, message) => {
        expect(await errors(text)).toEqual([message]);
    });

    test('syntax errors carry the code PARSE_SYNTAX_ERROR', async () => {
        const { document } = await parse('SELECT FROM');
        expect(document.diagnostics?.map(d => d.code)).toEqual(['PARSE_SYNTAX_ERROR']);
    });
});

describe('lexical errors', () => {
    test.each([
        ['SELECT \'abc', '[1:8..1:9]: Unterminated string: no closing \' before the end of the file.'],
        ['SELECT `abc', '[1:8..1:9]: Unterminated back-quoted name: no closing ` before the end of the file.'],
        ['SELECT 1 /* open', '[1:10..1:12]: Unterminated comment: no closing */ for this /*.'],
        ['SELECT a § FROM t', '[1:10..1:11]: Unexpected character \'§\'.'],
    ])('%s', async (text, message) => {
        expect(await errors(text)).toEqual([message]);
    });

    test('nested block comments are one comment', async () => {
        expect(await errors('/* a /* b */ c */ SELECT 1')).toEqual([]);
    });
});

describe('recovery', () => {
    test('errors in two statements are both reported, and the statement between them parses', async () => {
        const { statements, diagnostics } = await parse(`CREATE STREAMING TABLE t AS SELECT * FROM s WHERE x = = 1;
SELECT a, b FROM u;
CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM s WHERE (;
SELECT 1`);
        expect(diagnostics).toEqual([
            '[1:55..1:56]: Unexpected \'=\' after \'=\': expected an expression.',
            '[3:70..3:71]: Unexpected \';\' after \'(\': expected an expression.',
        ]);
        expect(printAst(statements[1])).toBe(
            'Query(body: SelectQuery(items: [SelectItem(expression: a), SelectItem(expression: b)], from: FromClause(relations: [TableReference(table: DatasetRef(ref: @u))])))');
        expect(statements.map(s => s.$type)).toEqual(['CreateStreamingTable', 'Query', 'CreateFlow', 'Query']);
    });

    test('only the first error of a statement is reported; the next statement starts clean', async () => {
        expect(await errors('SELECT f(a b c) FROM t WHERE; SELECT 2 +; CREATE STREAMING TABLE x')).toEqual([
            '[1:12..1:13]: Unexpected \'b\' after \'a\': expected \')\'.',
            '[1:41..1:42]: Unexpected \';\' after \'+\': expected an expression.',
        ]);
    });

    test('a notebook cell break ends a broken statement like a semicolon', async () => {
        expect(await errors('SELECT 1\n-- COMMAND ----------\nSELECT FROM\n-- COMMAND ----------\nSELECT 3 +\n-- COMMAND ----------\nSELECT 4')).toEqual([
            '[3:8..3:12]: Unexpected FROM after SELECT: expected an expression.',
            '[6:1..6:22]: Unexpected notebook cell break after \'+\': expected an expression.',
        ]);
    });

    test('an unresolved dataset reference is not a syntax error (the pipeline model reports unknown datasets)', async () => {
        expect(await errors('CREATE MATERIALIZED VIEW m AS SELECT * FROM nowhere.to_be.found')).toEqual([]);
    });
});
