import * as fs from 'node:fs';
import * as path from 'node:path';
import { clearDocuments, expectFormatting, parseHelper } from 'langium/test';
import { afterEach, describe, expect, test } from 'vitest';
import type { AST } from '../../../../server/src/language/index.js';
import type { PipelineSqlFormatter } from '../../../../server/src/language/lsp/format/pipeline-sql-formatter.js';
import { createTestServices, repoRoot, sharedRoot } from '../../../helpers/parse.js';
import { printAst } from '../../../helpers/print-ast.js';

const { shared, services } = createTestServices();
const formatting = expectFormatting(services);
const parse = parseHelper<AST.PipelineFile>(services);
const formatter = services.lsp.Formatter as PipelineSqlFormatter;

afterEach(() => clearDocuments(shared));

/** The formatted text of a source (whole-document formatting). */
async function format(text: string): Promise<string> {
    return formatter.format(await parse(text)).text;
}

describe('formatting rules', () => {
    test('keywords upper case; keywords used as names and function names as written', async () => {
        await formatting({
            before: 'select version, type, count(*) as n from stream as flow where date > current_date() group by all;\n',
            after: 'SELECT version, type, count(*) AS n\nFROM stream AS flow\nWHERE date > current_date()\nGROUP BY ALL;\n',
        });
    });

    test('an AUTO CDC flow written on one line gets one clause per line', async () => {
        await formatting({
            before: 'create flow users_cdc as auto cdc into users from stream(users_changes) keys (user_id) apply as delete when op = \'D\' '
                + 'sequence by ts columns * except (op) stored as scd type 2 track history on * except (email);\n',
            after: [
                'CREATE FLOW users_cdc AS AUTO CDC INTO users',
                'FROM STREAM(users_changes)',
                'KEYS (user_id)',
                'APPLY AS DELETE WHEN op = \'D\'',
                'SEQUENCE BY ts',
                'COLUMNS * EXCEPT (op)',
                'STORED AS SCD TYPE 2',
                'TRACK HISTORY ON * EXCEPT (email);',
                '',
            ].join('\n'),
        });
    });

    test('a dataset: column list one element per line, each clause on its line, the query clauses on theirs', async () => {
        await formatting({
            before: 'create or refresh streaming table orders (order_id bigint not null, amount decimal(10,2), constraint positive expect (amount > 0) '
                + 'on violation drop row) comment \'Orders\' tblproperties (\'pipelines.reset.allowed\' = \'false\') as select order_id, amount from stream(raw_orders)',
            after: [
                'CREATE OR REFRESH STREAMING TABLE orders (',
                '  order_id BIGINT NOT NULL,',
                '  amount DECIMAL(10, 2),',
                '  CONSTRAINT positive EXPECT (amount > 0) ON VIOLATION DROP ROW',
                ')',
                'COMMENT \'Orders\'',
                'TBLPROPERTIES (\'pipelines.reset.allowed\' = \'false\')',
                'AS SELECT order_id, amount',
                'FROM STREAM(raw_orders)',
            ].join('\n'),
        });
    });

    test('a short statement stays on one line; a long select list takes one item per line', async () => {
        expect(await format('create materialized view m as select 1 as x;')).toBe('CREATE MATERIALIZED VIEW m AS SELECT 1 AS x;');
        const long = await format('SELECT customer_identifier, first_name_of_customer, last_name_of_customer, email_address_of_customer, phone FROM customers');
        expect(long).toBe('SELECT\n  customer_identifier,\n  first_name_of_customer,\n  last_name_of_customer,\n  email_address_of_customer,\n  phone\nFROM customers');
    });

    test('subqueries: short ones inline, long ones indented between their parentheses', async () => {
        expect(await format('select * from t where id in (select id from u)')).toBe('SELECT *\nFROM t\nWHERE id IN (SELECT id FROM u)');
        expect(await format('select * from (select customer_identifier, sum(amount) as total_amount from orders_with_a_long_name group by customer_identifier) as s'))
            .toBe('SELECT *\nFROM (\n  SELECT customer_identifier, sum(amount) AS total_amount\n  FROM orders_with_a_long_name\n  GROUP BY customer_identifier\n) AS s');
    });

    test('comments stay where they are: own line, end of line, inside a statement; at most one blank line', async () => {
        await formatting({
            before: '-- header\n\n\n\nselect a, -- first\n  /* the second */ b\n  -- before FROM\nfrom t; -- done\n\n\n-- next\nselect 1\n',
            after: '-- header\n\nSELECT\n  a, -- first\n  /* the second */ b\n-- before FROM\nFROM t; -- done\n\n-- next\nSELECT 1\n',
        });
    });

    test('joins, CTEs and set operations', async () => {
        expect(await format('with a as (select 1 as x), b as (select 2 as x) select * from a join b using (x) union all select 3'))
            .toBe('WITH a AS (SELECT 1 AS x),\nb AS (SELECT 2 AS x)\nSELECT *\nFROM a\nJOIN b USING (x)\nUNION ALL\nSELECT 3');
        expect(await format('select * from a left outer join b on a.id = b.id left anti join c on c.id = a.id'))
            .toBe('SELECT *\nFROM a\nLEFT OUTER JOIN b ON a.id = b.id\nLEFT ANTI JOIN c ON c.id = a.id');
    });

    test('operators, casts, JSON paths, lambdas and named arguments keep their meaning', async () => {
        expect(await format('select - -1, a - -b, -x, ~b, payload:customer.name::string, cast(a as int)'))
            .toBe('SELECT - -1, a - -b, -x, ~b, payload:customer.name::STRING, CAST(a AS INT)');
        expect(await format('select transform(arr, x -> x + 1), filter(arr, (x, i) -> i > 0)')).toBe('SELECT transform(arr, x -> x + 1), filter(arr, (x, i) -> i > 0)');
        expect(await format('select * from read_files(\'/data\', format=>\'json\', schemaHints  =>  \'id BIGINT\')'))
            .toBe('SELECT *\nFROM read_files(\'/data\', format => \'json\', schemaHints => \'id BIGINT\')');
        expect(await format('select cast(x as array<int>), cast(m as map<string,array<int>>), arr[0], :param, ${env}_table.c from ${catalog}.sch.t'))
            .toBe('SELECT CAST(x AS ARRAY<INT>), CAST(m AS MAP<STRING, ARRAY<INT>>), arr[0], :param, ${env}_table.c\nFROM ${catalog}.sch.t');
    });

    test('SET, notebook cells and magic lines are kept', async () => {
        const notebook = '-- Databricks notebook source\n-- MAGIC %md\n-- MAGIC # Title\n\n-- COMMAND ----------\n\nset pipelines.trigger.interval = \'1 hour\'\n\n-- COMMAND ----------\n\nselect 1\n';
        expect(await format(notebook)).toBe(notebook.replace('set', 'SET').replace('select', 'SELECT'));
    });

    test('a statement with a syntax error is left as written; the others are formatted', async () => {
        expect(await format('select a from t;\nselect from where;\nselect b from u;')).toBe('SELECT a\nFROM t;\nselect from where;\nSELECT b\nFROM u;');
    });

    test('range formatting touches only the statements in the range', async () => {
        const document = await parse('select a from t;\nselect b from u;\nselect c from v;');
        const edits = await formatter.formatDocumentRange(document, {
            textDocument: { uri: document.uri.toString() }, options: { tabSize: 2, insertSpaces: true },
            range: { start: { line: 1, character: 3 }, end: { line: 1, character: 5 } },
        });
        expect(edits.map(e => `${e.range.start.line}:${e.range.start.character}-${e.range.end.line}:${e.range.end.character} ${JSON.stringify(e.newText)}`))
            .toEqual(['1:0-1:16 "SELECT b\\nFROM u;"']);
    });
});

/** The pipeline files of the shared corpus (Lakehouse Plumber's `{name}` template holes filled in), the samples and the golden cases. */
function formattingInputs(): Array<[string, string]> {
    const inputs: Array<[string, string]> = [];
    const corpus = path.join(sharedRoot, 'corpus', 'pipelines');
    if (fs.existsSync(corpus)) {
        for (const folder of fs.readdirSync(corpus).sort()) {
            for (const file of fs.readdirSync(path.join(corpus, folder)).filter(f => f.endsWith('.sql')).sort()) {
                const text = fs.readFileSync(path.join(corpus, folder, file), 'utf8').replace(/(?<!\$)\{(\w+)\}/g, (_hole, name: string) => name);
                inputs.push([`corpus/${folder}/${file}`, text]);
            }
        }
    } else {
        console.log(`Formatting of the corpus skipped: ${corpus} does not exist (the shared folder is not in a clone of the repository).`);
    }
    const golden = path.join(sharedRoot, 'golden');
    if (fs.existsSync(golden)) {
        for (const file of fs.readdirSync(golden).filter(f => f.endsWith('.json')).sort()) {
            inputs.push([`golden/${file}`, (JSON.parse(fs.readFileSync(path.join(golden, file), 'utf8')) as { sql: string }).sql]);
        }
    }
    const samples = path.join(repoRoot, 'samples');
    for (const pipeline of fs.readdirSync(samples).sort()) {
        for (const folder of ['transformations', 'samples']) {
            const dir = path.join(samples, pipeline, folder);
            for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.sql')).sort() : []) {
                inputs.push([`samples/${pipeline}/${folder}/${file}`, fs.readFileSync(path.join(dir, file), 'utf8')]);
            }
        }
    }
    return inputs;
}

/** The statements of a parsed text as printed trees (no positions), and its syntax errors. */
function shape(document: Awaited<ReturnType<typeof parse>>): { trees: string[]; errors: number } {
    return {
        trees: document.parseResult.value.statements.map(s => printAst(s)),
        errors: document.parseResult.lexerErrors.length + document.parseResult.parserErrors.length,
    };
}

describe('formatting every corpus file, sample and golden pipeline', () => {
    const inputs = formattingInputs();

    test('there are inputs: the samples always, the corpus and golden cases when the shared folder is present', () => {
        expect(inputs.filter(([name]) => name.startsWith('samples/')).length).toBeGreaterThanOrEqual(9);
        if (fs.existsSync(path.join(sharedRoot, 'corpus'))) {
            expect(inputs.filter(([name]) => name.startsWith('corpus/')).length).toBeGreaterThanOrEqual(40);
        }
    });

    test.each(inputs)('%s: formatting is idempotent and parses to the same tree', async (_name, text) => {
        const original = await parse(text);
        const result = formatter.format(original);
        // Every statement that parses is formatted; none is skipped as unsafe to re-print.
        expect(result.statements.filter(s => s.status === 'unsafe')).toEqual([]);
        const formatted = await parse(result.text);
        expect(shape(formatted)).toEqual(shape(original));
        expect(formatter.format(formatted).text).toBe(result.text);
    });
});
