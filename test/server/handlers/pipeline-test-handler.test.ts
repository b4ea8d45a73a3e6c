// The Test Explorer's requests in the language server: a test file's updates for the tree, a run
// on the workspace's documents with the expected and actual rows for the diff view, an unsaved
// editor text used as is, and no run in an untrusted workspace.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CancellationToken } from 'vscode-languageserver';
import { PipelineTestHandler } from '../../../server/src/handlers/pipeline-test-handler.js';
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
