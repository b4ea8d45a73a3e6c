import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
    CompletionRequest, DidOpenTextDocumentNotification, HoverRequest, type CompletionItem, type CompletionList, type Hover, type MarkupContent,
} from 'vscode-languageserver-protocol/node.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

/**
 * A file with an expression nested 1,000 levels deep, through the bundled `pipeline-sql lsp --stdio`:
 * the server reports "nested too deeply" where the expression starts (not a stack overflow) and then
 * goes on answering requests on the same file.
 */

let server: StdioServer;
let dir: string;

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-nesting-'));
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('a 1,000-level expression is reported as nested too deeply, and the server then answers completion and a hover', async () => {
    const uri = `file://${dir}/deep.sql`;
    const deep = `${'('.repeat(1000)}id${')'.repeat(1000)}`;
    const text = `CREATE MATERIALIZED VIEW deep AS SELECT ${deep} AS x FROM src;\nCREATE MATERIALIZED VIEW after AS SELECT abs(-1) AS one;\n`;
    const published = server.diagnostics(uri);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'pipeline-sql', version: 1, text },
    });
    const { diagnostics } = await published;
    expect(diagnostics).toEqual([expect.objectContaining({
        code: 'PARSE_SYNTAX_ERROR',
        severity: 1,
        range: { start: { line: 0, character: 40 }, end: { line: 0, character: 41 } },
        message: expect.stringMatching(/^Nested too deeply/),
    })]);

    // Completion in the middle of the deep expression answers (with whatever it can) rather than failing.
    const completion = await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 1041 } }) as CompletionList | CompletionItem[] | null;
    expect(completion).not.toBeUndefined();

    const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 42 } }) as Hover | null;
    expect((hover?.contents as MarkupContent | undefined)?.value).toMatch(/^```sql\nabs\(expr: numeric/);
    expect(hover?.range).toEqual({ start: { line: 1, character: 41 }, end: { line: 1, character: 44 } });
});
