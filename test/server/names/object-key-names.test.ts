// Names that are also properties of every JavaScript object (`constructor`, `valueOf`, `toString`,
// `__proto__`, `hasOwnProperty`) are ordinary names everywhere: as functions, datasets, columns,
// parameters, TBLPROPERTIES keys, read_files options and SET keys, in `run` and in the editor.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCommand } from '../../../server/src/cli/run.js';
import { PipelineParameters } from '../../../server/src/project/parameters.js';
import { configurationOf } from '../../../server/src/project/spark-pipeline-spec.js';
import { createPipelineTester } from '../../helpers/pipeline.js';

let root: string;

function write(relative: string, text: string): void {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
}

async function runJson(...args: string[]): Promise<{ code: number; doc: { ok: boolean; datasets?: Record<string, { rows: object[] }>; error?: { class: string; message: string } } }> {
    let out = '';
    const code = await runCommand([...args, '--json'], { out: t => { out += t; }, err: () => undefined, progress: false });
    return { code, doc: JSON.parse(out) };
}

beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-names-'));
    write('spark-pipeline.yml', 'name: names\nlibraries:\n  - glob:\n      include: transformations/**\n');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('pipeline-sql run with names that objects have', () => {
    test.each(['constructor', 'valueOf', 'toString', '__proto__', 'hasOwnProperty'])('a call of %s() is an unsupported function, not an internal error', async name => {
        write('transformations/a.sql', `CREATE MATERIALIZED VIEW m AS SELECT ${name === '__proto__' ? '`__proto__`' : name}(1) AS x;\n`);
        const { code, doc } = await runJson(root);
        expect(code).toBe(1);
        expect(doc.error?.class).toBe('PIPELINE_SQL_UNSUPPORTED_FUNCTION');
        expect(doc.error?.message.toLowerCase()).toContain(`\`${name.toLowerCase()}\` is not available in the local engine: it is not a built-in function`);
    });

    test('datasets and columns named __proto__ and constructor come back with their rows', async () => {
        write('transformations/a.sql', "CREATE MATERIALIZED VIEW `__proto__` AS SELECT 1 AS a, named_struct('x', 2) AS `__proto__`, 3 AS `constructor`;\n"
            + 'CREATE MATERIALIZED VIEW `constructor` AS SELECT * FROM `__proto__`;\n');
        const { code, doc } = await runJson(root);
        expect(code).toBe(0);
        expect(Object.keys(doc.datasets!).sort()).toEqual(['__proto__', 'constructor']);
        for (const name of ['__proto__', 'constructor']) {
            const rows = doc.datasets![name].rows;
            expect(rows.map(r => Object.entries(r))).toEqual([[['a', 1], ['__proto__', { x: 2 }], ['constructor', 3]]]);
            expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
        }
    });

    test('an SCD type 2 target with a column named constructor keeps it as data', async () => {
        write('samples/catalog.sql', "CREATE TABLE raw.events (id INT, `constructor` STRING, seq INT) USING JSON LOCATION 'events';\n");
        write('samples/events/part-1.jsonl', '{"id":1,"constructor":"a","seq":1}\n{"id":1,"constructor":"b","seq":2}\n');
        write('transformations/a.sql', 'CREATE OR REFRESH STREAMING TABLE t;\n'
            + 'CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(raw.events) KEYS (id) SEQUENCE BY seq STORED AS SCD TYPE 2;\n');
        const { code, doc } = await runJson(root);
        expect(code).toBe(0);
        expect(doc.datasets!.t.rows.map(r => (r as { constructor: string }).constructor)).toEqual(['a', 'b']);
    });

    test('SET keys and TBLPROPERTIES keys named like object properties are kept, and ${constructor} reads the SET value', async () => {
        write('samples/in/part-1.csv', 'a\n1\n');
        write('transformations/a.sql', "SET `__proto__` = 'x';\nSET constructor = 'y';\n"
            + "CREATE MATERIALIZED VIEW m TBLPROPERTIES ('__proto__' = 'p', 'constructor' = 'c') AS SELECT '${constructor}' AS c, * FROM read_files('samples/in', format => 'csv');\n");
        const { code, doc } = await runJson(root);
        expect({ code, error: doc.error }).toEqual({ code: 0, error: undefined });
        expect(doc.datasets!.m.rows).toEqual([expect.objectContaining({ c: 'y', a: 1 })]);
    });

    test('a read_files option named __proto__ is an option the engine names and refuses', async () => {
        write('samples/in/part-1.csv', 'a\n1\n');
        write('transformations/a.sql', "CREATE MATERIALIZED VIEW m AS SELECT * FROM read_files('samples/in', format => 'csv', `__proto__` => 'z');\n");
        const { code, doc } = await runJson(root);
        expect(code).toBe(1);
        expect(doc.error?.message).toMatch(/The CSV option '__proto__' of .*read_files\('samples\/in'\).* is not supported/);
    });
});

describe('parameters and quick fixes keyed by such names', () => {
    test('configuration keys __proto__ and constructor are parameters like any other', () => {
        const configuration = configurationOf(JSON.parse('{"__proto__": "p", "constructor": "c", "a": 1}'));
        expect(Object.keys(configuration)).toEqual(['__proto__', 'constructor', 'a']);
        expect(new PipelineParameters(configuration).substitute('${__proto__}.${constructor}.${a}')).toBe('p.c.1');
    });

    test('${constructor} without a value in the configuration stays as written', () => {
        expect(new PipelineParameters({ a: '1' }).substitute('${constructor}.${valueOf}.${__proto__}.${a}')).toBe('${constructor}.${valueOf}.${__proto__}.1');
    });

    const tester = createPipelineTester();
    afterEach(() => tester.clear());

    test('a code action request whose diagnostic claims the code constructor offers nothing and does not throw', async () => {
        const p = await tester.load({ 'a.sql': 'CREATE MATERIALIZED VIEW m AS SELECT 1 AS a;' });
        const document = p.documents.get('a.sql')!;
        const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } };
        for (const code of ['constructor', '__proto__', 'toString']) {
            const actions = await tester.services.lsp.CodeActionProvider!.getCodeActions(document, {
                textDocument: { uri: document.uri.toString() }, range, context: { diagnostics: [{ range, message: 'x', data: { code } }] },
            });
            expect(actions).toEqual([]);
        }
    });
});
