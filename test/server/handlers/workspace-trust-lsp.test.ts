// Restricted Mode through the real language server (the bundled `pipeline-sql lsp --stdio`): a client
// that says the workspace is untrusted gets every request that would evaluate the workspace's SQL or
// open its state database refused by the server itself, whatever it asks, while diagnostics and the
// static graph keep working; once it says trust was granted, runs work and read what
// `pipelineSql.run.allowedPaths` allows (the same read roots as `pipeline-sql run`).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node.js';
import {
    ChangeEventsRequest, DatasetRowsRequest, PipelineGraphRequest, PipelineStateRequest, RunPipelineRequest, UntrustedWorkspaceClass,
    WorkspaceTrustNotification,
} from '../../../common/protocol.js';
import { runCommand } from '../../../server/src/cli/run.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

/** A pipeline whose temporary view reads a sample file, and a materialized view over a folder outside it. */
function makeWorkspace(outside: string): { dir: string; file: string; uri: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-trust-'));
    fs.mkdirSync(path.join(dir, 'data'));
    fs.writeFileSync(path.join(dir, 'data/people.csv'), 'id,name\n1,ada\n2,grace\n');
    const file = path.join(dir, 'pipeline.sql');
    fs.writeFileSync(file, [
        "CREATE TEMPORARY VIEW staged AS SELECT id, upper(name) AS name FROM read_files('data/people.csv', format => 'csv');",
        'CREATE MATERIALIZED VIEW people AS SELECT * FROM staged;',
        `CREATE MATERIALIZED VIEW extra AS SELECT * FROM read_files('${outside}/extra.csv', format => 'csv');`,
        '',
    ].join('\n'));
    return { dir, file, uri: `file://${file}` };
}

/** Every file under a folder with the SHA-256 of its bytes (nothing when the folder does not exist). */
function snapshot(folder: string): Record<string, string> {
    if (!fs.existsSync(folder)) {
        return {};
    }
    const files = fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter(e => e.isFile());
    return Object.fromEntries(files.map(e => {
        const file = path.join(e.parentPath, e.name);
        return [path.relative(folder, file), createHash('sha256').update(fs.readFileSync(file)).digest('hex')];
    }));
}

async function open(server: StdioServer, file: string, uri: string): Promise<void> {
    const validated = server.diagnostics(uri);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'pipeline-sql', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    // Only the warning that the outside read may exist where the pipeline runs.
    expect((await validated).diagnostics.map(d => `${d.range.start.line} ${d.severity} ${d.code}`)).toEqual(['2 2 PIPELINE_SQL_READ_OUTSIDE_PIPELINE']);
}

/** The four requests that evaluate the workspace's SQL or open its state, with the class each failed with. */
async function stateRequests(server: StdioServer, uri: string): Promise<string[]> {
    const run = await server.connection.sendRequest(RunPipelineRequest, { uri, scope: 'pipeline', fullRefresh: true, maxRows: 100 });
    const state = await server.connection.sendRequest(PipelineStateRequest, { uri, maxRows: 100 });
    const rows = await server.connection.sendRequest(DatasetRowsRequest, { runId: 'run-any', dataset: 'people', offset: 0, limit: 10 });
    const events = await server.connection.sendRequest(ChangeEventsRequest, { uri, dataset: 'people', key: { id: 1 }, maxRows: 10 });
    return [run, state, rows, events].map(outcome => (outcome.ok ? 'ok' : outcome.error.class));
}

let outside: string;

beforeAll(() => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-trust-outside-'));
    fs.writeFileSync(path.join(outside, 'extra.csv'), 'n\n7\n');
});

afterAll(() => {
    fs.rmSync(outside, { recursive: true, force: true });
});

describe('an untrusted workspace without a state, whose settings allow a folder outside the pipeline', () => {
    let server: StdioServer;
    let ws: ReturnType<typeof makeWorkspace>;

    beforeAll(async () => {
        ws = makeWorkspace(outside);
        server = await startStdioServer(ws.dir, {
            initializationOptions: { workspaceTrusted: false },
            configuration: section => (section === 'pipelineSql' ? { run: { allowedPaths: [outside] } } : undefined),
        });
        await open(server, ws.file, ws.uri);
    });

    afterAll(async () => {
        await server.stop();
        fs.rmSync(ws.dir, { recursive: true, force: true });
    });

    test('run, state, rows and change events are refused by the server, and no state folder is created', async () => {
        const refused = await stateRequests(server, ws.uri);
        expect(refused).toEqual([UntrustedWorkspaceClass, UntrustedWorkspaceClass, UntrustedWorkspaceClass, UntrustedWorkspaceClass]);
        const run = await server.connection.sendRequest(RunPipelineRequest, { uri: ws.uri, scope: 'pipeline', fullRefresh: false, maxRows: 10 });
        expect(!run.ok && run.error.message).toMatch(/not trusted \(Restricted Mode\).*Trust the workspace/);
        expect(fs.existsSync(path.join(ws.dir, '.pipeline-sql'))).toBe(false);
    });

    test('the static graph still shows the datasets and what they read', async () => {
        const graph = await server.connection.sendRequest(PipelineGraphRequest, { uri: ws.uri });
        expect(graph.nodes.filter(n => n.kind !== 'flow').map(n => `${n.kind} ${n.name}`).sort()).toEqual([
            'materialized-view extra', 'materialized-view people', `source read_files('${outside}/extra.csv', format => 'csv')`,
            "source read_files('data/people.csv', format => 'csv')", 'temporary-view staged',
        ].sort());
        expect(fs.existsSync(path.join(ws.dir, '.pipeline-sql'))).toBe(false);
    });

    test('once trust is granted, a run evaluates the view and reads the allowed folder', async () => {
        await server.connection.sendNotification(WorkspaceTrustNotification, { trusted: true });
        const run = await server.connection.sendRequest(RunPipelineRequest, { uri: ws.uri, scope: 'pipeline', fullRefresh: false, maxRows: 10 });
        expect(run.ok ? run.datasets.map(d => `${d.name} ${JSON.stringify(d.rows)}`).sort() : run.error).toEqual([
            'extra [{"n":7,"_rescued_data":null}]', 'people [{"id":1,"name":"ADA"},{"id":2,"name":"GRACE"}]',
            'staged [{"id":1,"name":"ADA"},{"id":2,"name":"GRACE"}]',
        ]);
        expect(fs.existsSync(path.join(ws.dir, '.pipeline-sql'))).toBe(true);
    });
});

describe('an untrusted workspace holding a state', () => {
    let server: StdioServer;
    let ws: ReturnType<typeof makeWorkspace>;
    let before: Record<string, string>;

    beforeAll(async () => {
        ws = makeWorkspace(outside);
        let out = '';
        const code = await runCommand([ws.dir, '--allow-read', outside, '--json'], { out: text => void (out += text), err: () => undefined, progress: false });
        expect(code, out).toBe(0);
        before = snapshot(path.join(ws.dir, '.pipeline-sql'));
        expect(Object.keys(before).length).toBeGreaterThan(0);
        server = await startStdioServer(ws.dir, { initializationOptions: { workspaceTrusted: false } });
        await open(server, ws.file, ws.uri);
    });

    afterAll(async () => {
        await server.stop();
        fs.rmSync(ws.dir, { recursive: true, force: true });
    });

    test('no request opens the state: its files stay byte for byte as they were, none is added', async () => {
        expect(await stateRequests(server, ws.uri)).toEqual([UntrustedWorkspaceClass, UntrustedWorkspaceClass, UntrustedWorkspaceClass, UntrustedWorkspaceClass]);
        expect(snapshot(path.join(ws.dir, '.pipeline-sql'))).toEqual(before);
    });
});

describe('a client that says nothing about trust (another editor over stdio)', () => {
    let server: StdioServer;
    let ws: ReturnType<typeof makeWorkspace>;

    beforeAll(async () => {
        ws = makeWorkspace(outside);
        server = await startStdioServer(ws.dir);
        await open(server, ws.file, ws.uri);
    });

    afterAll(async () => {
        await server.stop();
        fs.rmSync(ws.dir, { recursive: true, force: true });
    });

    test('runs, and reads stay inside the pipeline: the folder outside it is refused like pipeline-sql run refuses it', async () => {
        const run = await server.connection.sendRequest(RunPipelineRequest, { uri: ws.uri, scope: 'pipeline', fullRefresh: false, maxRows: 10 });
        expect(!run.ok && run.error.class).toBe('PIPELINE_SQL_READ_OUTSIDE_PIPELINE');
        expect(!run.ok && run.error.message).toContain(`${outside}/extra.csv`);
    });
});
