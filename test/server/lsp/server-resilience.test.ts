import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, HoverRequest, type Hover, type MarkupContent,
} from 'vscode-languageserver-protocol/node.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

/**
 * The language server over stdio survives what one document can do to it: the file of an open
 * document deleted or renamed on disk before it is closed, a text whose parse exhausts the call
 * stack. After each, the process still runs and answers requests for every document.
 */
let server: StdioServer;
let dir: string;

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-resilience-'));
    fs.writeFileSync(path.join(dir, 'spark-pipeline.yml'), 'name: resilience\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(dir, 'transformations'));
    server = await startStdioServer(dir, { captureStderr: true });
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, text: string): Promise<string> {
    const uri = `file://${path.join(dir, file)}`;
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pipeline-sql', version: 1, text } });
    return uri;
}

/** Opens a fresh file (saved in the pipeline first) and hovers over its dataset name: the server parses, links and answers. */
async function answersForANewFile(name: string): Promise<void> {
    const text = `CREATE MATERIALIZED VIEW ${name} AS SELECT 1 AS a;`;
    fs.writeFileSync(path.join(dir, 'transformations', `${name}.sql`), text);
    const uri = `file://${path.join(dir, 'transformations', `${name}.sql`)}`;
    const checked = server.settled(uri);
    await open(`transformations/${name}.sql`, text);
    await checked;
    const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 26 } }) as Hover | null;
    expect((hover?.contents as MarkupContent | undefined)?.value).toContain(name);
    expect(server.process.exitCode).toBeNull();
}

describe('the language server keeps serving', () => {
    test('closing a document whose file was deleted on disk forgets it and clears its diagnostics', async () => {
        const file = path.join(dir, 'transformations', 'gone.sql');
        fs.writeFileSync(file, 'CREATE MATERIALIZED VIEW gone AS SELECT nope FROM VALUES (1) AS t(a);');
        const uri = `file://${file}`;
        const first = server.settled(uri, p => p.diagnostics.length > 0);
        await open('transformations/gone.sql', fs.readFileSync(file, 'utf8'));
        expect((await first).diagnostics.map(d => d.code)).toContain('UNRESOLVED_COLUMN.WITH_SUGGESTION');
        fs.unlinkSync(file);
        const cleared = server.diagnostics(uri, p => p.diagnostics.length === 0);
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        await cleared;
        await answersForANewFile('after_delete');
    });

    test('closing a document whose file was renamed on disk forgets the old name', async () => {
        const file = path.join(dir, 'transformations', 'old_name.sql');
        fs.writeFileSync(file, 'CREATE MATERIALIZED VIEW renamed AS SELECT 1 AS a;');
        const uri = `file://${file}`;
        const first = server.settled(uri);
        await open('transformations/old_name.sql', fs.readFileSync(file, 'utf8'));
        await first;
        fs.renameSync(file, path.join(dir, 'transformations', 'new_name.sql'));
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        await answersForANewFile('after_rename');
    });

    test('a text whose parse overflows the call stack gets an error on it, and every other file is still served', async () => {
        const uri = `file://${path.join(dir, 'transformations', 'deep.sql')}`;
        const published = server.settled(uri, p => p.diagnostics.length > 0);
        await open('transformations/deep.sql', `CREATE MATERIALIZED VIEW deep AS SELECT ${'~'.repeat(20_000)}1 AS a;`);
        const diagnostics = (await published).diagnostics;
        // Either the parser's own limit or the server's internal-error report; never silence.
        expect(diagnostics[0]).toMatchObject({ severity: 1, range: { start: { line: 0 } } });
        expect(diagnostics[0].message).toMatch(/nested too deeply/i);
        await answersForANewFile('after_deep');
        // Once more: the parser is reusable after the failure, not only once.
        await open('transformations/deep2.sql', `CREATE MATERIALIZED VIEW deep2 AS SELECT ${'-'.repeat(20_000)}1 AS a;`);
        await answersForANewFile('after_deep_twice');
    });
});
