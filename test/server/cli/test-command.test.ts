// `pipeline-sql test`: test files run on the real engine against fixture pipelines, hermetically
// (the pipeline's own sample rows are present and ignored), with readable diffs (in colour on a
// terminal), exit codes, now:, full_refresh:, ordered:, values as run --json prints them, JUnit XML,
// --update keeping the file's comments, --filter, bundles with several pipelines, and the samples'
// own tests through the built CLI.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CliUsageError } from '../../../server/src/cli/check.js';
import { testCommand } from '../../../server/src/cli/test.js';
import { repoRoot } from '../../helpers/parse.js';

let root: string;

function write(relative: string, text: string): string {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
}

async function runTests(...args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await testCommand(args, { out: t => { out += t; }, err: t => { out += t; }, color: false });
    return { code, out };
}

const pipelineSql = `CREATE OR REFRESH STREAMING TABLE events_clean (
  CONSTRAINT known_op EXPECT (op IN ('UPSERT', 'DELETE')) ON VIOLATION DROP ROW
) AS SELECT id, name, op, seq FROM STREAM(cdc.events);

CREATE OR REFRESH STREAMING TABLE users;

CREATE FLOW users_cdc AS AUTO CDC INTO users
FROM STREAM(events_clean)
KEYS (id)
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (op, seq);

CREATE MATERIALIZED VIEW user_count AS SELECT count(*) AS n FROM users;
`;

beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-tests-'));
    write('spark-pipeline.yml', 'name: shop\nlibraries:\n  - glob:\n      include: transformations/**\n');
    write('transformations/users.sql', pipelineSql);
    write('samples/catalog.sql', "CREATE TABLE cdc.events (id INT, name STRING, op STRING, seq BIGINT) USING JSON LOCATION 'cdc/events';\n");
    // Rows that would change every result below if a test read them.
    write('samples/cdc/events/part-1.jsonl', [
        { id: 1, name: 'FROM SAMPLES', op: 'UPSERT', seq: 100 },
        { id: 9, name: 'also from samples', op: 'UPSERT', seq: 1 },
    ].map(r => JSON.stringify(r)).join('\n') + '\n');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const passing = `# comment kept by --update
name: upsert then delete
updates:
  - inputs:
      cdc.events:
        - {id: 1, name: Ada, op: UPSERT, seq: 1}
        - {id: 2, name: Alan, op: UPSERT, seq: 2}
        - {id: 3, name: Bad, op: MERGE, seq: 3}
    expect:
      users:
        - {id: 2, name: Alan}
        - {id: 1, name: Ada}
      user_count:
        - {n: 2}
    expect_metrics:
      events_clean: {expectations: {known_op: {failed_records: 1, dropped_records: 1}}}
  - inputs:
      cdc.events:
        - {id: 1, name: Ada, op: DELETE, seq: 4}
    expect:
      users:
        - {id: 2, name: Alan}
      user_count:
        - {n: 1}
`;

describe('pipeline-sql test', () => {
    test('a passing test prints each update as passed with its time and exits 0; the sample rows of the pipeline are not read', async () => {
        write('tests/users.test.yml', passing);
        const { code, out } = await runTests(root);
        expect(out).toMatch(/PASS .*users\.test\.yml — upsert then delete \(pipeline shop\)/);
        expect(out).toMatch(/✓ update 1 \d+(\.\d)? m?s/);
        expect(out).toMatch(/✓ update 2 /);
        expect(out).toContain('1 test: 1 passed (2 updates passed of 2)');
        expect(out).not.toContain('FROM SAMPLES');
        expect(code).toBe(0);
        // The pipeline's own state folder is not touched.
        expect(fs.existsSync(path.join(root, '.pipeline-sql'))).toBe(false);
    }, 120_000);

    test('a failing expectation shows the dataset, the missing and the unexpected rows, and exits 1', async () => {
        write('tests/users.test.yml', passing.replace('- {id: 2, name: Alan}\n      user_count:\n        - {n: 1}', '- {id: 2, name: Alan Turing}\n      user_count:\n        - {n: 1}'));
        const { code, out } = await runTests(root);
        expect(code).toBe(1);
        expect(out).toMatch(/FAIL .*users\.test\.yml/);
        expect(out).toMatch(/✗ update 2/);
        expect(out).toContain('users (line 21): 1 expected row missing, 1 unexpected row');
        const lines = out.split('\n');
        expect(lines.some(l => /^\s+- 2\s+Alan Turing$/.test(l))).toBe(true);
        expect(lines.some(l => /^\s+\+ 2\s+Alan$/.test(l))).toBe(true);
        expect(out).not.toContain('\x1b[');
        expect(out).toContain('1 test: 0 passed, 1 failed');
    }, 120_000);

    test('the report is in colour on a terminal, and plain with NO_COLOR', async () => {
        write('tests/users.test.yml', passing.replace('- {n: 1}', '- {n: 5}'));
        const coloured = async (): Promise<string> => {
            let out = '';
            await testCommand([root], { out: t => { out += t; }, err: t => { out += t; }, color: true });
            return out;
        };
        const out = await coloured();
        expect(out).toContain('\x1b[31mFAIL\x1b[39m');
        expect(out).toContain('\x1b[31m- 5\x1b[39m');
        expect(out).toContain('\x1b[32m+ 1\x1b[39m');
        vi.stubEnv('NO_COLOR', '1');
        try {
            const plain = await coloured();
            expect(plain).not.toContain('\x1b[');
            expect(plain).toMatch(/^FAIL /);
        } finally {
            vi.unstubAllEnvs();
        }
    }, 120_000);

    test('a failing metric names the metric, the expected and the actual value', async () => {
        write('tests/users.test.yml', passing.replace('failed_records: 1, dropped_records: 1', 'failed_records: 0'));
        const { code, out } = await runTests(root);
        expect(code).toBe(1);
        expect(out).toContain('events_clean (line 16): metric expectations.known_op.failed_records: expected 0, got 1');
    }, 120_000);

    test('rows compare as a multiset unless ordered: true, and values are read in the column\'s type', async () => {
        write('tests/order.test.yml', `updates:
  - ordered: true
    inputs:
      cdc.events:
        - {id: 1, name: Ada, op: UPSERT, seq: "1"}
    expect:
      users:
        - {id: "1", name: Ada}
      user_count: [{n: 1.0}]
`);
        expect((await runTests(root)).code).toBe(0);
        // events_clean is append-only: its rows are in the order they arrived (1, 2, 3).
        const rows = '    inputs:\n      cdc.events:\n        - {id: 1, name: Ada, op: UPSERT, seq: 1}\n        - {id: 2, name: Alan, op: UPSERT, seq: 2}\n        - {id: 3, name: Grace, op: UPSERT, seq: 3}\n'
            + '    expect:\n      events_clean: [{id: 2}, {id: 1}, {id: 3}]\n';
        write('tests/order.test.yml', `updates:\n  - ordered: true\n${rows}`);
        const inOrder = await runTests(root);
        expect(inOrder.code).toBe(1);
        expect(inOrder.out).toContain('events_clean (line 9): 2 expected rows missing, 2 unexpected rows (in order)');
        expect(inOrder.out).toMatch(/- 2\n\s+- 1\n\s+\+ 1\n\s+\+ 2\n/);
        write('tests/order.test.yml', `ordered: true\nupdates:\n  - ordered: false\n${rows}`);
        expect((await runTests(root)).code).toBe(0);
        write('tests/order.test.yml', `ordered: true\nupdates:\n  - ${rows.slice(4)}`);
        expect((await runTests(root)).code).toBe(1);
    }, 120_000);

    test('now: fixes the clock of an update, and full_refresh: (true or a list of datasets) recomputes from every row the sources hold', async () => {
        write('transformations/users.sql', [
            'CREATE OR REFRESH STREAMING TABLE loaded AS SELECT id, current_timestamp() AS loaded_at FROM STREAM(cdc.events);',
            'CREATE OR REFRESH STREAMING TABLE days AS SELECT id, current_date() AS day FROM STREAM(cdc.events);',
            '',
        ].join('\n'));
        write('tests/clock.test.yml', `updates:
  - now: "2025-01-01 10:00:00"
    inputs:
      cdc.events: [{id: 1}]
    expect:
      loaded: [{id: 1, loaded_at: "2025-01-01 10:00:00"}]
      days: [{id: 1, day: 2025-01-01}]
  - now: "2025-01-02 11:00:00.25"
    inputs:
      cdc.events: [{id: 2}]
    expect:
      loaded: [{id: 1, loaded_at: "2025-01-01 10:00:00"}, {id: 2, loaded_at: "2025-01-02 11:00:00.25"}]
  - now: "2025-01-03"
    full_refresh: [loaded]
    expect:
      loaded: [{id: 1, loaded_at: "2025-01-03 00:00:00"}, {id: 2, loaded_at: "2025-01-03 00:00:00"}]
      days: [{id: 1, day: 2025-01-01}, {id: 2, day: 2025-01-02}]
  - now: "2025-01-04"
    full_refresh: true
    expect:
      days: [{id: 1, day: 2025-01-04}, {id: 2, day: 2025-01-04}]
`);
        const { code, out } = await runTests(root);
        expect(out).toContain('4 updates passed of 4');
        expect(code).toBe(0);
    }, 120_000);

    test('values compare as run --json prints them: DATE, TIMESTAMP with microseconds, structs as maps, arrays as lists', async () => {
        write('samples/catalog.sql', 'CREATE TABLE cdc.events (id INT, at TIMESTAMP, day DATE, tags ARRAY<STRING>, who STRUCT<name: STRING, age: INT>, score MAP<STRING, INT>) USING JSON LOCATION \'cdc/events\';\n');
        write('transformations/users.sql', 'CREATE OR REFRESH STREAMING TABLE events AS SELECT * FROM STREAM(cdc.events);\n');
        const row = '{id: 1, at: "2025-01-01 09:00:00.123456", day: 2025-01-02, tags: [a, b], who: {name: Ada, age: 36}, score: {x: 1}}';
        const test = (expected: string) => `updates:
  - inputs:
      cdc.events:
        - ${row}
        - {id: 2, at: "2025-01-01T09:00:00Z", day: "2025-01-03", tags: [], who: null, score: null}
    expect:
      events:
        - ${expected}
        - {id: 2, at: "2025-01-01 09:00:00", day: "2025-01-03", tags: [], who: null, score: null}
`;
        write('tests/values.test.yml', test(row));
        const passed = await runTests(root);
        expect(passed.out).toMatch(/PASS/);
        expect(passed.code).toBe(0);
        // A difference inside a timestamp's fraction, a list's order or a struct's field fails.
        for (const wrong of [row.replace('.123456', '.123'), row.replace('[a, b]', '[b, a]'), row.replace('age: 36', 'age: 37')]) {
            write('tests/values.test.yml', test(wrong));
            const failed = await runTests(root);
            expect(failed.code, wrong).toBe(1);
            expect(failed.out).toMatch(/\+ 1 +2025-01-01 09:00:00\.123456 +2025-01-02 +\["a","b"\] +\{"name":"Ada","age":36\} +\{"x":1\}/);
        }
    }, 120_000);

    test('an update that must fail passes when it fails with the error class named, or one of its sub-classes', async () => {
        write('tests/error.test.yml', `updates:
  - inputs:
      cdc.events: [{id: 1, name: Ada, op: UPSERT, seq: 1}]
    expect:
      users: [{id: 1, name: Ada}]
  - inputs:
      cdc.events: [{id: 2, name: Alan, op: UPSERT, seq: null}]
    expect_error: AUTOCDC_MICROBATCH_VALIDATION
`);
        const { code, out } = await runTests(root);
        expect(out).toContain('✓ update 2');
        expect(code).toBe(0);
    }, 120_000);

    test('an update that fails unexpectedly is a failure with the error class and its place; later updates are not run', async () => {
        write('tests/error.test.yml', `updates:
  - inputs:
      cdc.events: [{id: 2, name: Alan, op: UPSERT, seq: null}]
    expect:
      users: []
  - inputs:
      cdc.events: [{id: 3, name: Grace, op: UPSERT, seq: 3}]
`);
        const { code, out } = await runTests(root);
        expect(code).toBe(1);
        expect(out).toMatch(/✗ update 1[^\n]*\n\s+line 2: The update failed: AUTOCDC_MICROBATCH_VALIDATION\.NULL_SEQUENCE: .* at .*users\.sql:\d+/);
        expect(out).toContain('- update 2 not run: an earlier update failed');
    }, 120_000);

    test('an expected error that does not happen fails the update', async () => {
        write('tests/error.test.yml', `updates:
  - inputs:
      cdc.events: [{id: 1, name: Ada, op: UPSERT, seq: 1}]
    expect_error: AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE
`);
        const { code, out } = await runTests(root);
        expect(code).toBe(1);
        expect(out).toContain('line 4: Expected the update to fail with AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE; it succeeded.');
    }, 120_000);

    test('a malformed test file names its file and line and exits 2; the other tests still run', async () => {
        write('tests/a-broken.test.yml', 'updates:\n  - inputs:\n      cdc.events: [{id: 1}]\n    expcet:\n      users: []\n');
        write('tests/b-good.test.yml', 'updates:\n  - inputs:\n      cdc.events: [{id: 1, name: Ada, op: UPSERT, seq: 1}]\n    expect:\n      users: [{id: 1}]\n');
        const { code, out } = await runTests(root);
        expect(code).toBe(2);
        expect(out).toMatch(/a-broken\.test\.yml:4:5: error PIPELINE_SQL_INVALID_TEST_FILE Unknown key 'expcet' in update 1/);
        expect(out).toMatch(/PASS .*b-good\.test\.yml/);
    }, 120_000);

    test('a test file that is not YAML names its file and the line of the syntax error, and exits 2', async () => {
        write('tests/bad.test.yml', 'updates:\n  - inputs: {a: [1, 2}\n');
        const { code, out } = await runTests(root);
        expect(out).toMatch(/bad\.test\.yml:2:\d+: error PIPELINE_SQL_INVALID_TEST_FILE bad\.test\.yml is not valid YAML/);
        expect(code).toBe(2);
    }, 120_000);

    test('inputs for a table the pipeline does not read, and expectations of an unknown dataset or column, fail with what exists', async () => {
        write('tests/unknown.test.yml', `updates:
  - inputs:
      cdc.event: [{id: 1, name: Ada, op: UPSERT, seq: 1}]
`);
        write('tests/unknown3.test.yml', `updates:
  - inputs:
      cdc.events: [{id: 1, nmae: Ada, op: UPSERT, seq: 1}]
`);
        write('tests/unknown2.test.yml', `updates:
  - inputs:
      cdc.events: [{id: 1, name: Ada, op: UPSERT, seq: 1}]
    expect:
      userz: []
      users: [{id: 1, nmae: Ada}]
`);
        const { code, out } = await runTests(root);
        expect(code).toBe(1);
        expect(out).toContain("The pipeline reads no table 'cdc.event'; it reads cdc.events.");
        expect(out).toMatch(/The pipeline has no dataset 'userz'; its datasets: .*users/);
        expect(out).toContain("users (line 6): no column 'nmae'; its columns: id, name");
        expect(out).toContain("line 3: cdc.events has no column 'nmae'; its columns: id, name, op, seq.");
    }, 120_000);

    test('types of a source come from schemas: or from the header of its sample file when it is not declared', async () => {
        fs.rmSync(path.join(root, 'samples'), { recursive: true });
        write('samples/shop/orders.csv', 'order_id,amount,placed\n1,9.5,2025-01-01\n');
        write('transformations/users.sql', 'CREATE MATERIALIZED VIEW big AS SELECT order_id, amount * 2 AS doubled, placed FROM shop.orders;\n'
            + 'CREATE MATERIALIZED VIEW later AS SELECT count(*) AS n FROM shop.returns;\n');
        write('tests/types.test.yml', `schemas:
  shop.returns: "order_id INT, reason STRING"
updates:
  - now: "2025-02-01"
    inputs:
      shop.orders: [{order_id: 7, amount: 2.25, placed: 2025-01-31}]
      shop.returns: [{order_id: 7, reason: late}, {order_id: 8, reason: broken}]
    expect:
      big: [{order_id: 7, doubled: 4.5, placed: 2025-01-31}]
      later: [{n: 2}]
`);
        const { code, out } = await runTests(root);
        expect(out).toMatch(/PASS/);
        expect(code).toBe(0);
    }, 120_000);

    test('read_files sources take the rows a test gives under their path as written, typed by the files there, schema =>, or schemas:', async () => {
        // Files under data/ whose rows would change every result if a test read them.
        write('data/orders/part-1.csv', 'order_id,amount\n1,100.0\n2,200.0\n');
        write('transformations/users.sql', [
            'CREATE OR REFRESH STREAMING TABLE orders AS SELECT order_id, amount FROM STREAM read_files(\'data/orders/\', format => \'csv\', header => true);',
            'CREATE MATERIALIZED VIEW total AS SELECT sum(amount) AS total, count(*) AS n FROM orders;',
            'CREATE MATERIALIZED VIEW refunds AS SELECT count(*) AS n FROM read_files(\'/Volumes/main/raw/refunds\', format => \'json\', schema => \'order_id INT, reason STRING\');',
            'CREATE MATERIALIZED VIEW notes AS SELECT note FROM read_files(\'s3://bucket/notes\', format => \'json\');',
            '',
        ].join('\n'));
        write('tests/files.test.yml', `schemas:
  s3://bucket/notes: "note STRING"
updates:
  - inputs:
      data/orders/:
        - {order_id: 7, amount: 2.5}
      /Volumes/main/raw/refunds:
        - {order_id: 7, reason: late}
      s3://bucket/notes: [{note: hello}]
    expect:
      total: [{total: 2.5, n: 1}]
      refunds: [{n: 1}]
      notes: [{note: hello}]
  - inputs:
      ./data/orders:
        - {order_id: 8, amount: 1.5}
    expect:
      orders: [{order_id: 7, amount: 2.5}, {order_id: 8, amount: 1.5}]
      total: [{total: 4.0, n: 2}]
`);
        const { code, out } = await runTests(root);
        expect(out).toMatch(/PASS/);
        expect(code).toBe(0);
        // A column the files do not have is named, with the columns they have.
        write('tests/files.test.yml', 'schemas:\n  s3://bucket/notes: "note STRING"\nupdates:\n  - inputs:\n      data/orders/: [{order_id: 7, amont: 1}]\n    expect:\n      orders: []\n      notes: []\n');
        const failed = await runTests(root);
        expect(failed.code).not.toBe(0);
        expect(failed.out).toContain("read_files('data/orders/') has no column 'amont'; its columns: order_id, amount");
    }, 120_000);

    test('--update rewrites the failing expect rows from what the run produced and keeps the comments; the test then passes', async () => {
        const file = write('tests/users.test.yml', passing.replace('      users:\n        - {id: 2, name: Alan}\n      user_count:\n        - {n: 1}', '      users: []  # to record\n      user_count:\n        - {n: 7}'));
        const first = await runTests(root, '--update');
        expect(first.out).toContain('updated');
        expect(first.code).toBe(0);
        const text = fs.readFileSync(file, 'utf8');
        expect(text).toContain('# comment kept by --update');
        expect(text).toContain('      users:  # to record\n        - {id: 2, name: Alan}\n      user_count:\n        - {n: 1}\n');
        // The first update's lists, which passed, are as written.
        expect(text).toContain('        - {id: 2, name: Alan}\n        - {id: 1, name: Ada}\n');
        const again = await runTests(root);
        expect(again.code).toBe(0);
        // A file with CRLF line breaks keeps them on every line, the rewritten ones too.
        write('tests/users.test.yml', text.replace('        - {id: 2, name: Alan}\n      user_count:\n        - {n: 1}\n', '      user_count: []  # again\n').replace(/\n/g, '\r\n'));
        expect((await runTests(root, '--update')).code).toBe(0);
        const crlf = fs.readFileSync(file, 'utf8');
        expect(crlf).toContain('      users:  # to record\r\n        - {id: 2, name: Alan}\r\n      user_count:  # again\r\n        - {n: 1}\r\n');
        expect(crlf.match(/(?<!\r)\n/g)).toBeNull();
        expect((await runTests(root)).code).toBe(0);
    }, 120_000);

    test('--junit writes one test case per test file, with the failing update\'s diff in its failure', async () => {
        write('tests/a.test.yml', passing);
        write('tests/b.test.yml', passing.replace('- {n: 1}', '- {n: 5}').replace('name: upsert then delete', 'name: "b & <c>"'));
        const junit = path.join(root, 'out', 'junit.xml');
        const { code } = await runTests(root, '--junit', junit);
        expect(code).toBe(1);
        const xml = fs.readFileSync(junit, 'utf8');
        expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="pipeline-sql test" tests="2" failures="1" errors="0"/);
        expect(xml).toContain('<testsuite name="shop" tests="2" failures="1" errors="0"');
        expect(xml).toMatch(/<testcase classname="shop" name="upsert then delete" file="[^"]*a\.test\.yml" time="\d+\.\d{3}" \/>/);
        expect(xml).toContain('name="b &amp; &lt;c&gt;"');
        expect(xml).toMatch(/<failure type="PIPELINE_SQL_TEST_FAILED" message="update 2 failed: user_count: 1 missing, 1 unexpected">[^<]*✓ update 1[^<]*✗ update 2[^<]*- 5\n[^<]*\+ 1\n/);
        expect(xml.match(/<testcase /g)).toHaveLength(2);
        // A test file that cannot be used is an error case naming the file (as the report shows it) and the line.
        write('tests/c.test.yml', 'updates:\n  - inputs: {a: [1, 2}\n');
        const cwd = process.cwd();
        process.chdir(root);
        try {
            expect((await runTests('.', '--junit', junit)).code).toBe(2);
        } finally {
            process.chdir(cwd);
        }
        const errors = fs.readFileSync(junit, 'utf8');
        expect(errors).toContain('errors="1"');
        expect(errors).toMatch(/<testcase classname="shop" name="c" file="[^"]*c\.test\.yml" time="[\d.]+">\n\s+<error type="PIPELINE_SQL_INVALID_TEST_FILE" message="c\.test\.yml is not valid YAML[^"]*">tests\/c\.test\.yml:2: PIPELINE_SQL_INVALID_TEST_FILE: /);
    }, 120_000);

    test('--filter runs only the tests whose name or path contains the text; a filter matching nothing is a usage error', async () => {
        write('tests/a.test.yml', passing);
        write('tests/b.test.yml', passing.replace('name: upsert then delete', 'name: other'));
        const { out } = await runTests(root, '--filter', 'OTHER');
        expect(out).toContain('1 test: 1 passed');
        expect(out).toContain('b.test.yml');
        await expect(runTests(root, '--filter', 'nothing-like-this')).rejects.toThrow(CliUsageError);
    }, 120_000);

    test('no test file under the folder is a usage error (CI never passes on nothing)', async () => {
        await expect(runTests(root)).rejects.toThrow(/No test files \(\*\.test\.yml\)/);
    });

    test('in a bundle with several pipelines a test says which with pipeline:, and one that does not is a file error', async () => {
        fs.rmSync(path.join(root, 'spark-pipeline.yml'));
        write('databricks.yml', 'bundle:\n  name: b\nresources:\n  pipelines:\n    one:\n      name: one\n      libraries:\n        - file:\n            path: transformations/users.sql\n    two:\n      name: two\n      libraries:\n        - file:\n            path: other/count.sql\n');
        write('other/count.sql', 'CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM cdc.events;\n');
        write('tests/two.test.yml', 'pipeline: two\nupdates:\n  - inputs:\n      cdc.events: [{id: 1, name: A, op: UPSERT, seq: 1}]\n    expect:\n      total: [{n: 1}]\n');
        write('tests/which.test.yml', 'updates:\n  - expect:\n      total: [{n: 0}]\n');
        const { code, out } = await runTests(root);
        expect(out).toMatch(/PASS .*two\.test\.yml — two \(pipeline two\)/);
        expect(out).toMatch(/which\.test\.yml:1: error PIPELINE_SQL_TEST_NO_PIPELINE The bundle has several pipelines \(one, two\); say which one with `pipeline: <key>`/);
        expect(code).toBe(2);
    }, 120_000);
});

describe('the samples\' tests', () => {
    test('pipeline-sql test samples runs every sample\'s tests through the built CLI and they pass', async () => {
        const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'out', 'cli.cjs'), 'test', path.join(repoRoot, 'samples')],
            { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
        // Every sample pipeline (a folder of samples/ with its spark-pipeline.yml or databricks.yml) has at least two tests.
        const samples = fs.readdirSync(path.join(repoRoot, 'samples')).filter(s => ['spark-pipeline.yml', 'databricks.yml'].some(f => fs.existsSync(path.join(repoRoot, 'samples', s, f))));
        expect(samples.length).toBeGreaterThanOrEqual(3);
        const files = samples.map(s => fs.readdirSync(path.join(repoRoot, 'samples', s, 'tests')).filter(f => f.endsWith('.test.yml')).length);
        expect(samples.filter((_, i) => files[i] < 2), 'samples with fewer than two test files').toEqual([]);
        const total = files.reduce((a, b) => a + b, 0);
        expect(stdout).toContain(`${total} tests: ${total} passed`);
        expect(stdout).not.toContain('FAIL');
    }, 180_000);
});
