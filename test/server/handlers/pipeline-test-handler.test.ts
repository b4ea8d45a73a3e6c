// The Test Explorer's requests in the language server: a test file's updates for the tree, a run
// on the workspace's documents with the expected and actual rows for the diff view, an unsaved
// editor text used as is, and no run in an untrusted workspace; a test recorded from the last run of a
// flow, which passes when `pipeline-sql test` runs it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CancellationToken } from 'vscode-languageserver';
import { PipelineRunHandler } from '../../../server/src/handlers/pipeline-run-handler.js';
import { PipelineTestHandler } from '../../../server/src/handlers/pipeline-test-handler.js';
import { RuntimeDiagnostics } from '../../../server/src/handlers/runtime-diagnostics.js';
import { testCommand } from '../../../server/src/cli/test.js';
import { readTestFile } from '../../../server/src/testing/test-file.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { repoRoot } from '../../helpers/lsp-client.js';

const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
let tmp: string;
let root: string;

beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-test-handler-'));
    await shared.workspace.WorkspaceManager.initializeWorkspace([{ name: 'tmp', uri: URI.file(tmp).toString() }]);
    root = path.join(tmp, 'users-cdc');
    fs.cpSync(path.join(repoRoot, 'samples/users-cdc'), root, { recursive: true, filter: source => path.basename(source) !== '.pipeline-sql' });
    await PipelineSql.shared.pipeline.Project.loadFolder(root);
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const uriOf = (file: string) => URI.file(file).toString();

test('describe lists a test file\'s updates with their labels and lines', async () => {
    const handler = new PipelineTestHandler(shared, PipelineSql);
    const model = await handler.describe({ uri: uriOf(path.join(root, 'tests/late-event.test.yml')) });
    expect(model.name).toBe('a late event splits the history');
    expect(model.updates.map(u => u.label)).toEqual(['update 1', 'update 2 (the late move to Berlin)']);
    expect(model.updates[0].line).toBe(5);
    expect(model.problems).toEqual([]);
}, 60_000);

test('a run of the editor\'s text fails on the wrong expect line with the expected and actual rows, one per line', async () => {
    const handler = new PipelineTestHandler(shared, PipelineSql);
    const file = path.join(root, 'tests/late-event.test.yml');
    const text = fs.readFileSync(file, 'utf8').replace('- {user_id: 1, city: Paris}\n      users_by_city', '- {user_id: 1, city: Rome}\n      users_by_city');
    const result = await handler.run({ uri: uriOf(file), text }, CancellationToken.None);
    expect(result.status).toBe('failed');
    expect(result.updates.map(u => u.status)).toEqual(['passed', 'failed']);
    const [problem] = result.updates[1].problems;
    // The second update's `users_current:` key.
    expect(text.split('\n')[problem.line - 1]).toBe('      users_current:');
    expect(problem.line).toBeGreaterThan(result.updates[1].line);
    expect(problem.message).toContain('users_current');
    expect(problem.expected).toBe('- {user_id: 1, city: Rome}\n');
    expect(problem.actual).toBe('- {user_id: 1, city: Paris}\n');
    // The file on disk passes: the editor's text was run, not the file.
    expect((await handler.run({ uri: uriOf(file) }, CancellationToken.None)).status).toBe('passed');
}, 120_000);

test('nothing runs in an untrusted workspace', async () => {
    const handler = new PipelineTestHandler(shared, PipelineSql, { trusted: false });
    const result = await handler.run({ uri: uriOf(path.join(root, 'tests/late-event.test.yml')) }, CancellationToken.None);
    expect(result.status).toBe('error');
    expect(result.error?.class).toBe('PIPELINE_SQL_UNTRUSTED_WORKSPACE');
    expect(result.updates).toEqual([]);
}, 60_000);

describe('Record test from last run', () => {
    const runs = () => new PipelineRunHandler(shared, PipelineSql, new RuntimeDiagnostics({ publish: () => undefined, validation: () => [] }));
    const historyUri = () => uriOf(path.join(root, 'transformations/03_users_history.sql'));

    test('writes the sources\' sample rows as inputs and the run\'s datasets as expect; the file passes with pipeline-sql test', async () => {
        const handler = new PipelineTestHandler(shared, PipelineSql);
        const run = runs();
        const outcome = await run.run({ uri: historyUri(), scope: 'upstream', dataset: 'users_history', fullRefresh: true, maxRows: 100 }, CancellationToken.None);
        expect(outcome.ok).toBe(true);
        const recorded = await handler.record({ uri: historyUri() }, run, CancellationToken.None);
        expect(recorded).toMatchObject({ ok: true, inputs: ['cdc_data.users'], datasets: ['users_changes', 'users_history'] });
        const file = URI.parse((recorded as { uri: string }).uri).fsPath;
        expect(path.relative(root, file)).toBe(path.join('tests', 'users_history-as-last-run.test.yml'));
        const test = readTestFile(file, fs.readFileSync(file, 'utf8'));
        expect(test.problems).toEqual([]);
        expect(test.name).toBe('users_history as last run');
        const [update] = test.updates;
        // Every row of the sample files, as the run read them (the email as written, not lower-cased).
        const sampleRows = fs.readdirSync(path.join(root, 'samples/cdc_data/users')).flatMap(f => fs.readFileSync(path.join(root, 'samples/cdc_data/users', f), 'utf8').trim().split('\n'));
        expect(update.inputs.get('cdc_data.users')?.rows).toHaveLength(sampleRows.length);
        // (in no particular order: the source's files are read in parallel)
        expect(update.inputs.get('cdc_data.users')?.rows).toContainEqual(expect.objectContaining({ user_id: 1, name: 'Ada Lovelace', email: 'ADA@example.com', event_ts: '2025-01-01 09:00:00' }));
        // The history as the run left it: Ada's first version closed when she moved.
        const history = update.expect.find(e => e.dataset === 'users_history')!;
        const state = (outcome.ok ? outcome.datasets : []).find(d => d.name === 'users_history')!;
        expect(history.rows).toHaveLength(state.rowCount);
        expect(history.rows.some(r => r.user_id === 1 && r.__END_AT !== null)).toBe(true);
        // The recorded file passes when pipeline-sql test runs it, and does not read the sample rows.
        let out = '';
        fs.rmSync(path.join(root, 'samples/cdc_data/users'), { recursive: true });
        try {
            const code = await testCommand([file], { out: t => { out += t; }, err: t => { out += t; }, color: false });
            expect(out).toMatch(/PASS/);
            expect(code).toBe(0);
        } finally {
            fs.cpSync(path.join(repoRoot, 'samples/users-cdc/samples/cdc_data/users'), path.join(root, 'samples/cdc_data/users'), { recursive: true });
        }
        // A second recording never replaces the first.
        const again = await handler.record({ uri: historyUri() }, run, CancellationToken.None);
        expect(path.basename(URI.parse((again as { uri: string }).uri).fsPath)).toBe('users_history-as-last-run-2.test.yml');
    }, 240_000);

    test('is refused without a run since the server started, and in an untrusted workspace', async () => {
        const none = await new PipelineTestHandler(shared, PipelineSql).record({ uri: historyUri() }, runs(), CancellationToken.None);
        expect(none).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_NO_RUN_TO_RECORD' } });
        const untrusted = await new PipelineTestHandler(shared, PipelineSql, { trusted: false }).record({ uri: historyUri() }, runs(), CancellationToken.None);
        expect(untrusted).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_UNTRUSTED_WORKSPACE' } });
    }, 60_000);
});
