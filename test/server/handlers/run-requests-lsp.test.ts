// The run requests through the real language server (the bundled `pipeline-sql lsp --stdio`): code
// lenses, work-done progress, the outcome, run diagnostics merged with validation diagnostics, and the
// run-finished notification.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
    CodeLensRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, WorkDoneProgress, type WorkDoneProgressBegin,
    type WorkDoneProgressEnd, type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node.js';
import { RunFinishedNotification, RunPipelineRequest, type RunFinishedParams } from '../../../common/protocol.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
let file: string;
let uri: string;
const finished: RunFinishedParams[] = [];

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-run-lsp-'));
    fs.cpSync(path.join(repoRoot, 'test/fixtures/preview/broken-sequence'), dir, { recursive: true });
    file = path.join(dir, 'transformations/customers.sql');
    uri = `file://${file}`;
    server = await startStdioServer(dir);
    server.connection.onNotification(RunFinishedNotification, params => finished.push(params));
    const validated = server.diagnostics(uri);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'pipeline-sql', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    expect((await validated).diagnostics).toEqual([]);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('the server offers the run lenses above the dataset and the flow', async () => {
    const lenses = await server.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    expect(lenses?.map(l => `${l.range.start.line} ${l.command?.command}`)).toEqual([
        '1 pipelineSql.runFlow', '1 pipelineSql.runPipeline', '1 pipelineSql.fullRefresh',
        '4 pipelineSql.runFlow', '4 pipelineSql.runPipeline', '4 pipelineSql.fullRefresh',
    ]);
});

test('a failing run reports progress, answers with the error, and puts it on the SEQUENCE BY clause until a run succeeds', async () => {
    const progress: Array<WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd> = [];
    const workDoneToken = 'run-1';
    const subscription = server.connection.onProgress(WorkDoneProgress.type, workDoneToken, value => progress.push(value));
    const diagnosed = server.diagnostics(uri, p => p.diagnostics.some(d => d.code === 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE'));
    const outcome = await server.connection.sendRequest(RunPipelineRequest, { uri, scope: 'upstream', dataset: 'customers', fullRefresh: false, maxRows: 100, workDoneToken });
    subscription.dispose();
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error.class).toBe('AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE');
    expect(progress[0]).toMatchObject({ kind: 'begin', title: 'Pipeline SQL' });
    expect(progress.some(p => p.kind === 'report' && /Running flow 'customers_cdc'/.test(p.message ?? ''))).toBe(true);
    expect(progress[progress.length - 1]).toEqual({ kind: 'end' });

    const published = await diagnosed;
    expect(published.diagnostics.map(d => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code} ${d.source}`))
        .toEqual(['8:0-8:22 AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE pipeline-sql run']);
    await new Promise(resolve => setTimeout(resolve, 100));
    expect(finished[finished.length - 1]).toMatchObject({ ok: false, errorClass: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE', diagnosedUris: [uri] });

    // Editing the file revalidates it: the run's diagnostic is published again with the validation result.
    const republished = server.diagnostics(uri, p => p.diagnostics.some(d => d.code === 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE'));
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: 2 }, contentChanges: [{ text: `${fs.readFileSync(file, 'utf8')}-- edited\n` }],
    });
    expect((await republished).diagnostics).toHaveLength(1);

    // Fixing the data and running again clears it.
    fs.writeFileSync(path.join(dir, 'samples/crm/customer_changes/part-00001.jsonl'),
        '{"customer_id": 1, "tier": "silver", "op": "INSERT", "changed_at": "2025-02-01 08:00:00"}\n');
    const cleared = server.diagnostics(uri, p => p.diagnostics.length === 0);
    const fixed = await server.connection.sendRequest(RunPipelineRequest, { uri, scope: 'upstream', dataset: 'customers', fullRefresh: false, maxRows: 100 });
    expect(fixed.ok).toBe(true);
    expect(fixed.ok && fixed.datasets.map(d => `${d.name} ${d.rowCount} ${d.cdc?.storedAs}`)).toEqual(['customers 1 scd2']);
    await cleared;
});
