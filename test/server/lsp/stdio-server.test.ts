import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DidChangeTextDocumentNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-lsp-'));
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('pipeline-sql lsp --stdio publishes a syntax error on the bad token and clears it when fixed', async () => {
    const uri = `file://${dir}/flow.sql`;
    const broken = "SET a = 'x';\nSET = 'y';\n";
    const first = server.diagnostics(uri);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'pipeline-sql', version: 1, text: broken },
    });
    const published = await first;
    expect(published.diagnostics.length).toBeGreaterThan(0);
    expect(published.diagnostics.every(d => d.range.start.line === 1)).toBe(true);
    expect(published.diagnostics[0]).toMatchObject({
        code: 'PARSE_SYNTAX_ERROR',
        severity: 1,
        range: { start: { line: 1, character: 4 }, end: { line: 1, character: 5 } },
    });

    const cleared = server.diagnostics(uri, p => p.diagnostics.length === 0);
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: 2 }, contentChanges: [{ text: "SET a = 'x';\nSET b = 'y';\n" }],
    });
    expect((await cleared).diagnostics).toEqual([]);
});
