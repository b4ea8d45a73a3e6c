// Pipeline test files (`*.test.yml`) in the language server, over stdio, opened as YAML documents:
// diagnostics for names their pipeline does not know, on the exact key (errors where the pipeline is
// sure, warnings where it may not know), completion of datasets, sources and columns at the keys
// where they go, and hover with the SQL hover's cards. The YAML is never parsed as SQL.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    CompletionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest, HoverRequest,
    type CompletionItem, type CompletionList, type Diagnostic, type Hover,
} from 'vscode-languageserver-protocol/node.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const uri = (relative: string): string => `file://${path.join(dir, relative)}`;

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-lsp-tests-'));
    fs.cpSync(path.join(repoRoot, 'samples/users-cdc'), path.join(dir, 'users-cdc'), { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
    // A pipeline that reads a table nobody declares: its columns are unknown, and so are most of `wide`'s.
    fs.mkdirSync(path.join(dir, 'raw/transformations'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'raw/spark-pipeline.yml'), 'name: raw\nlibraries:\n  - glob: {include: transformations/**}\n');
    fs.writeFileSync(path.join(dir, 'raw/transformations/wide.sql'), 'CREATE MATERIALIZED VIEW wide AS SELECT e.*, 1 AS one FROM raw_data.events e;\n');
    // A bundle of two pipelines reading one source: a test says which it tests with `pipeline: <key>`.
    fs.mkdirSync(path.join(dir, 'shop/one'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'shop/two'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'shop/databricks.yml'), 'bundle:\n  name: shop\nresources:\n  pipelines:\n    one:\n      name: one\n      libraries:\n        - file: {path: one/a.sql}\n    two:\n      name: two\n      libraries:\n        - file: {path: two/b.sql}\n');
    fs.writeFileSync(path.join(dir, 'shop/one/a.sql'), 'CREATE MATERIALIZED VIEW only_in_one AS SELECT id FROM src.orders;\n');
    fs.writeFileSync(path.join(dir, 'shop/two/b.sql'), 'CREATE MATERIALIZED VIEW only_in_two AS SELECT id, amount FROM src.orders;\n');
    server = await startStdioServer(dir);
}, 60_000);

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

let version = 1;
async function open(relative: string, text: string): Promise<void> {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), text);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uri(relative), languageId: 'yaml', version: version++, text } });
}

/** `line:column code severity` of each diagnostic (1-based), sorted, with the text it covers. */
function printed(diagnostics: readonly Diagnostic[], text: string): string[] {
    const lines = text.split('\n');
    return diagnostics.map(d => {
        const covered = lines[d.range.start.line].slice(d.range.start.character, d.range.end.character);
        return `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)} ${d.severity === 1 ? 'error' : 'warning'} '${covered}'`;
    }).sort();
}

/** The position of the `|` in a text, and the text without it. */
function cursor(marked: string): { text: string; position: { line: number; character: number } } {
    const offset = marked.indexOf('|');
    const before = marked.slice(0, offset).split('\n');
    return { text: marked.slice(0, offset) + marked.slice(offset + 1), position: { line: before.length - 1, character: before[before.length - 1].length } };
}

async function complete(relative: string, marked: string): Promise<string[]> {
    const { text, position } = cursor(marked);
    await open(relative, text);
    const result = await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: uri(relative) }, position }) as CompletionList | CompletionItem[] | null;
    const items = Array.isArray(result) ? result : result?.items ?? [];
    return items.map(i => i.label);
}

async function hover(relative: string, marked: string): Promise<string | undefined> {
    const { text, position } = cursor(marked);
    await open(relative, text);
    const result = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uri(relative) }, position }) as Hover | null;
    return result ? (result.contents as { value: string }).value : undefined;
}

describe('diagnostics', () => {
    test('unknown sources, datasets, columns and expectations are errors on their keys; known names are not', async () => {
        const text = [
            'name: names checked',
            'updates:',
            '  - inputs:',
            '      cdc_data.users:',
            '        - {user_id: 1, nmae: Ada, operation: INSERT, event_ts: "2025-01-01 09:00:00"}',
            '      cdc_data.people:',
            '        - {id: 1}',
            '      users_current:',
            '        - {user_id: 1}',
            '    expect:',
            '      users_history:',
            '        - {user_id: 1, __START_AT: "2025-01-01 09:00:00", town: London}',
            '      users_hist:',
            '        - {user_id: 1}',
            '    expect_metrics:',
            '      users_changes: {expectations: {known_operation: {failed_records: 0}, has_phone: {failed_records: 0}}}',
            '',
        ].join('\n');
        const published = server.diagnostics(uri('users-cdc/tests/names.test.yml'));
        await open('users-cdc/tests/names.test.yml', text);
        const { diagnostics } = await published;
        expect(printed(diagnostics, text)).toEqual([
            "12:59 UNRESOLVED_COLUMN.WITH_SUGGESTION error 'town'",
            "13:7 TABLE_OR_VIEW_NOT_FOUND error 'users_hist'",
            "16:76 PIPELINE_SQL_TEST_UNKNOWN_EXPECTATION error 'has_phone'",
            "5:24 UNRESOLVED_COLUMN.WITH_SUGGESTION error 'nmae'",
            "6:7 TABLE_OR_VIEW_NOT_FOUND error 'cdc_data.people'",
            "8:7 TABLE_OR_VIEW_NOT_FOUND error 'users_current'",
        ]);
        expect(diagnostics.find(d => d.message.includes("'nmae'"))?.message).toBe(
            "'cdc_data.users' has no column 'nmae'; its columns: user_id, name, email, city, operation, event_ts.");
        expect(diagnostics.find(d => d.message.includes("'users_current'"))?.message).toMatch(/^'users_current' is a dataset of the pipeline; inputs feed the tables it reads \(cdc_data\.users\)\.$/);
        expect(diagnostics.find(d => d.message.includes("'users_hist'"))?.message).toMatch(/^The pipeline has no dataset 'users_hist'; its datasets: .*users_history/);
    });

    test('an edit that fixes the names clears them; the sample tests of the pipeline have no diagnostics', async () => {
        const relative = 'users-cdc/tests/names.test.yml';
        const fixed = 'updates:\n  - inputs:\n      cdc_data.users:\n        - {user_id: 1, name: Ada}\n    expect:\n      users_history: []\n';
        const cleared = server.diagnostics(uri(relative), p => p.diagnostics.length === 0);
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uri(relative), version: version++ }, contentChanges: [{ text: fixed }] });
        expect((await cleared).diagnostics).toEqual([]);
        for (const sample of fs.readdirSync(path.join(dir, 'users-cdc/tests')).filter(f => f !== 'names.test.yml')) {
            const published = server.diagnostics(uri(`users-cdc/tests/${sample}`));
            await open(`users-cdc/tests/${sample}`, fs.readFileSync(path.join(dir, 'users-cdc/tests', sample), 'utf8'));
            expect((await published).diagnostics, sample).toEqual([]);
        }
    });

    test('where the pipeline cannot know (a source without schema, a dataset over it) the names are warnings; a schema the test gives makes them certain', async () => {
        const text = [
            'updates:',
            '  - inputs:',
            '      raw_data.events:',
            '        - {id: 1}',
            '    expect:',
            '      wide:',
            '        - {id: 1, one: 1}',
            '',
        ].join('\n');
        const published = server.diagnostics(uri('raw/tests/wide.test.yml'));
        await open('raw/tests/wide.test.yml', text);
        const first = (await published).diagnostics;
        expect(printed(first, text)).toEqual([
            "3:7 PIPELINE_SQL_TEST_UNKNOWN_SCHEMA warning 'raw_data.events'",
            "7:12 UNRESOLVED_COLUMN.WITH_SUGGESTION warning 'id'",
        ]);
        const typed = 'schemas:\n  raw_data.events: "id INT"\n  raw_data.nothing: "x INT"\n' + text.replace('{id: 1}', '{id: 1, extra: 2}');
        const again = server.diagnostics(uri('raw/tests/typed.test.yml'));
        await open('raw/tests/typed.test.yml', typed);
        expect(printed((await again).diagnostics, typed)).toEqual([
            "10:12 UNRESOLVED_COLUMN.WITH_SUGGESTION warning 'id'",
            "3:3 TABLE_OR_VIEW_NOT_FOUND warning 'raw_data.nothing'",
            "7:19 UNRESOLVED_COLUMN.WITH_SUGGESTION error 'extra'",
        ]);
    });

    test('in a bundle of several pipelines, names are checked against the pipeline `pipeline:` names; without it the file says to name one', async () => {
        const text = 'pipeline: two\nschemas:\n  src.orders: "id INT, amount INT"\nupdates:\n  - expect:\n      only_in_two: [{id: 1, amount: 2}]\n      only_in_one: []\n';
        const published = server.diagnostics(uri('shop/tests/two.test.yml'));
        await open('shop/tests/two.test.yml', text);
        const diagnostics = (await published).diagnostics;
        expect(printed(diagnostics, text)).toEqual(["7:7 TABLE_OR_VIEW_NOT_FOUND error 'only_in_one'"]);
        expect(diagnostics[0].message).toMatch(/^The pipeline has no dataset 'only_in_one'; its datasets: only_in_two/);
        expect(await complete('shop/tests/two.test.yml', 'pipeline: two\nupdates:\n  - expect:\n      only_in_two:\n        - {id: 1, |}\n')).toEqual(['amount']);
        expect(await complete('shop/tests/two.test.yml', 'pipeline: two\nupdates:\n  - expect:\n      only|\n')).toEqual(['only_in_two']);
        const unnamed = 'updates:\n  - expect:\n      only_in_two: []\n';
        const which = server.diagnostics(uri('shop/tests/which.test.yml'));
        await open('shop/tests/which.test.yml', unnamed);
        const [problem, ...rest] = (await which).diagnostics;
        expect(rest).toEqual([]);
        expect(problem.message).toMatch(/The bundle has several pipelines \(one, two\); say which one with `pipeline: <key>`/);
    });

    test('the file\'s own mistakes are diagnostics too, and its YAML is never parsed as SQL', async () => {
        const text = 'updates:\n  - inputs: {}\n    expected: {}\n';
        const published = server.diagnostics(uri('users-cdc/tests/keys.test.yml'));
        await open('users-cdc/tests/keys.test.yml', text);
        expect(printed((await published).diagnostics, text)).toEqual(["3:5 PIPELINE_SQL_INVALID_TEST_FILE error 'expected'"]);
        await expect(server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri('users-cdc/tests/keys.test.yml') } })).rejects.toMatchObject({ code: -32800 });
    });
});

describe('completion', () => {
    const relative = 'users-cdc/tests/complete.test.yml';

    test('the columns of a source in an input row, without those the row has', async () => {
        expect(await complete(relative, 'updates:\n  - inputs:\n      cdc_data.users:\n        - {user_id: 1, |}\n')).toEqual(['name', 'email', 'city', 'operation', 'event_ts']);
    });

    test('the columns of a dataset in an expected row, SCD type 2 columns included', async () => {
        const labels = await complete(relative, 'updates:\n  - expect:\n      users_history:\n        - user_id: 1\n          |\n');
        expect(labels).toEqual(expect.arrayContaining(['name', 'email', 'city', '__START_AT', '__END_AT']));
        expect(labels).not.toContain('user_id');
    });

    test('the datasets under expect and expect_metrics, the sources under inputs, the expectations of a dataset', async () => {
        const datasets = ['users_by_city', 'users_changes', 'users_current', 'users_history'];
        expect((await complete(relative, 'updates:\n  - expect:\n      users_c|\n')).sort()).toEqual(datasets);
        expect((await complete(relative, 'updates:\n  - expect_metrics:\n      |\n')).sort()).toEqual(datasets);
        expect(await complete(relative, 'updates:\n  - inputs:\n      |\n')).toEqual(['cdc_data.users']);
        expect(await complete(relative, 'updates:\n  - expect_metrics:\n      users_changes: {expectations: {|}}\n')).toEqual(['known_operation', 'has_email']);
    });
});

describe('hover', () => {
    const relative = 'users-cdc/tests/hover.test.yml';

    test('a dataset shows the SQL hover\'s card: kind, where it is defined, its columns', async () => {
        const value = await hover(relative, 'updates:\n  - expect:\n      users_hi|story: []\n');
        expect(value).toMatch(/^\*\*streaming table\*\* `users_history`/);
        expect(value).toContain('users-cdc/transformations/03_users_history.sql#L3');
        expect(value).toContain('| \\_\\_START\\_AT | `timestamp` |');
    });

    test('a source shows its sample catalog card; a column its type and relation', async () => {
        expect(await hover(relative, 'updates:\n  - inputs:\n      cdc_da|ta.users: []\n')).toMatch(/^\*\*sample catalog table\*\* `cdc_data.users`/);
        expect(await hover(relative, 'updates:\n  - expect:\n      users_current:\n        - {ci|ty: London}\n')).toMatch(/^\*\*column\*\* `city`: `string`\n\nFrom `users_current`/);
        expect(await hover(relative, 'updates:\n  - expect:\n      nothing_here:\n        - {ci|ty: London}\n')).toBeUndefined();
    });
});
