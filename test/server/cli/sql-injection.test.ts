// Regression test of issue 9 item 1: a pipeline that `check` passes used string literals ending in
// `$` inside collect_list so that `String.prototype.replace` ended the DuckDB string early and the
// next literal ran as DuckDB code — reading /etc/hostname and writing it to a file. The run must
// treat every literal as data: the file is not written, the values are the literals.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkPaths } from '../../../server/src/cli/check.js';
import { runCommand } from '../../../server/src/cli/run.js';

let root: string;
let outside: string;

beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-injection-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-injection-outside-'));
    fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: innocent\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(root, 'transformations'));
});

afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
});

/** The exploit as it was reproduced on main: `$'` in the replacement became the text after `$agg`. */
function attack(stolen: string): string {
    const dollars = (text: string): string => `$$$$${text}$$$$`; // `$$` is one `$` in a replacement string
    const payload = `)))) AS r; COPY (SELECT content FROM read_text(${dollars('/etc/hostname')})) TO ${dollars(stolen)} (HEADER false); SELECT 1 --`;
    return `CREATE MATERIALIZED VIEW evil AS\nSELECT collect_list(concat('a$', '${payload}')) AS r;\n`;
}

async function run(): Promise<{ code: number; doc: { ok: boolean; datasets?: Record<string, { rows: Record<string, unknown>[] }>; error?: { class: string } } }> {
    let out = '';
    const code = await runCommand([root, '--json'], { out: t => { out += t; }, err: () => undefined, progress: false });
    return { code, doc: JSON.parse(out) };
}

describe('string literals ending in $ in collect_list (issue 9, SQL injection into DuckDB)', () => {
    test('the pipeline checks clean, and its run reads and writes nothing outside: the literals are data', async () => {
        const stolen = path.join(outside, 'stolen.txt');
        fs.writeFileSync(path.join(root, 'transformations', 'evil.sql'), attack(stolen));
        const diagnostics = await checkPaths([root]);
        expect(diagnostics.filter(d => d.severity === 'error')).toEqual([]);

        const { code, doc } = await run();
        expect(fs.existsSync(stolen)).toBe(false);
        expect({ code, ok: doc.ok }).toEqual({ code: 0, ok: true });
        // Spark's result: one row holding the concatenated literal (the SQL text of the payload, as data).
        const payload = attack(stolen).split('\'')[3];
        expect(doc.datasets?.evil.rows).toEqual([{ r: [`a$${payload}`] }]);
        expect(payload).toContain('read_text($$$$/etc/hostname$$$$)');
    });

    test("collect_list(concat(name, ' US$')) runs (it was a DuckDB syntax error)", async () => {
        fs.writeFileSync(path.join(root, 'transformations', 'prices.sql'),
            "CREATE MATERIALIZED VIEW prices AS\nSELECT collect_list(concat(name, ' US$')) AS names FROM VALUES ('a'), ('b') AS t(name);\n");
        const { code, doc } = await run();
        expect({ code, ok: doc.ok }).toEqual({ code: 0, ok: true });
        expect(doc.datasets?.prices.rows).toEqual([{ names: ['a US$', 'b US$'] }]);
    });
});
