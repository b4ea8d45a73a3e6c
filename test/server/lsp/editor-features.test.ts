import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    CompletionRequest, DefinitionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, DocumentFormattingRequest,
    DocumentSymbolRequest, HoverRequest, ReferencesRequest, RenameRequest, SignatureHelpRequest,
    type CompletionItem, type CompletionList, type DocumentSymbol, type Hover, type Location, type LocationLink, type MarkupContent,
    type SignatureHelp, type TextEdit, type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

/**
 * The editor features over the Language Server Protocol, against the bundled `pipeline-sql lsp --stdio`
 * with a pipeline of several files on disk: completion, hover, definition, references, rename,
 * signature help, document symbols and formatting as an editor asks for them.
 */

let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;

const bronze = 'CREATE OR REFRESH STREAMING TABLE users_changes\nAS SELECT user_id, trim(name) AS name, city, operation, event_ts\nFROM STREAM(cdc_data.users);\n';
const current = 'CREATE OR REFRESH STREAMING TABLE users_current;\n\nCREATE FLOW users_current_cdc AS AUTO CDC INTO users_current\n'
    + 'FROM STREAM(users_changes)\nKEYS (user_id)\nSEQUENCE BY event_ts\nSTORED AS SCD TYPE 1;\n';

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-lsp-editor-'));
    const write = (relative: string, text: string): void => {
        fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
        fs.writeFileSync(file(relative), text);
    };
    write('users/spark-pipeline.yml', 'name: users\nlibraries:\n  - glob:\n      include: transformations/**\n');
    write('users/samples/catalog.sql', 'CREATE TABLE cdc_data.users (user_id INT, name STRING, city STRING, operation STRING, event_ts TIMESTAMP);\n');
    write('users/transformations/01_bronze.sql', bronze);
    write('users/transformations/02_current.sql', current);
    write('users/transformations/03_edit.sql', 'CREATE OR REFRESH MATERIALIZED VIEW by_city AS\nSELECT city, count(*) AS users\nFROM users_current\nGROUP BY city;\n');
    server = await startStdioServer(dir);
    // The workspace is built once every file has its diagnostics.
    await Promise.all(['01_bronze.sql', '02_current.sql', '03_edit.sql'].map(f => server.settled(uri(`users/transformations/${f}`))));
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

let version = 1;

/** Opens (or changes) `03_edit.sql` with a text whose `|` is the cursor; returns the cursor position. */
async function edit(marked: string): Promise<{ line: number; character: number }> {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const target = uri('users/transformations/03_edit.sql');
    if (version === 1) {
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: target, languageId: 'pipeline-sql', version: ++version, text } });
    } else {
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: target, version: ++version }, contentChanges: [{ text }] });
    }
    const before = text.substring(0, offset).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
}

async function complete(marked: string): Promise<CompletionItem[]> {
    const position = await edit(marked);
    const result = await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: uri('users/transformations/03_edit.sql') }, position });
    const items = Array.isArray(result) ? result : (result as CompletionList | null)?.items ?? [];
    return [...items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''));
}

describe('pipeline-sql lsp --stdio: editor features', () => {
    test('completion after FROM lists the datasets defined in other files and the sample catalog', async () => {
        const items = await complete('CREATE MATERIALIZED VIEW v AS SELECT * FROM |');
        expect(items.slice(0, 3).map(i => `${i.label} (${i.detail})`)).toEqual([
            'users_changes (streaming table · 01_bronze.sql)', 'users_current (streaming table · 02_current.sql)', 'cdc_data.users (sample catalog table)',
        ]);
    });

    test('completion after KEYS ( lists the columns of the AUTO CDC source, defined in another file', async () => {
        const items = await complete('CREATE STREAMING TABLE t;\nCREATE FLOW t_cdc AS AUTO CDC INTO t\nFROM STREAM(users_changes)\nKEYS (|');
        expect(items.map(i => `${i.label}: ${i.detail}`)).toEqual([
            'user_id: int · users_changes', 'name: string · users_changes', 'city: string · users_changes', 'operation: string · users_changes',
            'event_ts: timestamp · users_changes',
        ]);
    });

    test('completion after KEYS (...) offers the clauses valid there', async () => {
        const items = await complete('CREATE STREAMING TABLE t;\nCREATE FLOW t_cdc AS AUTO CDC INTO t\nFROM STREAM(users_changes)\nKEYS (user_id)\n|');
        expect(items.map(i => i.label)).toEqual(['IGNORE NULL UPDATES', 'APPLY AS DELETE WHEN', 'APPLY AS TRUNCATE WHEN', 'SEQUENCE BY']);
    });

    test('hover on SEQUENCE BY returns its documentation', async () => {
        const position = await edit('CREATE STREAMING TABLE t;\nCREATE FLOW t_cdc AS AUTO CDC INTO t\nFROM STREAM(users_changes)\nKEYS (user_id)\nSEQU|ENCE BY event_ts;');
        const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uri('users/transformations/03_edit.sql') }, position }) as Hover;
        const value = (hover.contents as MarkupContent).value;
        expect(value).toMatch(/^\*\*SEQUENCE BY\*\*\n\n```sql\nSEQUENCE BY column/);
        expect(value).toContain('Orders the change events of each key');
        expect(hover.range).toEqual({ start: { line: 4, character: 0 }, end: { line: 4, character: 8 } });
    });

    test('go to definition jumps to the dataset in another file', async () => {
        const position = await edit('CREATE MATERIALIZED VIEW v AS SELECT * FROM users_cha|nges;');
        const links = await server.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uri('users/transformations/03_edit.sql') }, position }) as LocationLink[];
        expect(links.map(l => ({ uri: l.targetUri, range: l.targetSelectionRange }))).toEqual([
            { uri: uri('users/transformations/01_bronze.sql'), range: { start: { line: 0, character: 34 }, end: { line: 0, character: 47 } } },
        ]);
    });

    test('find references and rename of a dataset reach every file of the pipeline', async () => {
        const position = await edit('CREATE MATERIALIZED VIEW v AS SELECT * FROM users_cha|nges;');
        const references = await server.connection.sendRequest(ReferencesRequest.type, {
            textDocument: { uri: uri('users/transformations/03_edit.sql') }, position, context: { includeDeclaration: true },
        }) as Location[];
        expect(references.map(r => `${path.basename(r.uri)}:${r.range.start.line + 1}:${r.range.start.character + 1}`).sort())
            .toEqual(['01_bronze.sql:1:35', '02_current.sql:4:13', '03_edit.sql:1:45']);
        const rename = await server.connection.sendRequest(RenameRequest.type, {
            textDocument: { uri: uri('users/transformations/03_edit.sql') }, position, newName: 'user_events',
        }) as WorkspaceEdit;
        expect(Object.keys(rename.changes ?? {}).map(u => path.basename(u)).sort()).toEqual(['01_bronze.sql', '02_current.sql', '03_edit.sql']);
    });

    test('signature help of read_files shows the option being written', async () => {
        const position = await edit('CREATE STREAMING TABLE raw AS SELECT * FROM STREAM read_files(\'/data\', format => |');
        const help = await server.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: uri('users/transformations/03_edit.sql') }, position }) as SignatureHelp;
        expect(help.signatures[0].label).toMatch(/^read_files\(path: string\[, option => value, …\]\)/);
        const parameter = help.signatures[0].parameters![help.activeParameter!];
        expect((parameter.documentation as MarkupContent).value).toMatch(/^\*\*format\*\*: File format to read/);
    });

    test('document symbols and formatting', async () => {
        await edit('create materialized view by_city as select city, count(*) as users from users_current group by city;|');
        const symbols = await server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri('users/transformations/03_edit.sql') } }) as DocumentSymbol[];
        expect(symbols.map(s => `${s.name}: ${s.detail} (${(s.children ?? []).map(c => c.name).join(', ')})`)).toEqual(['by_city: materialized view (city, users)']);
        const edits = await server.connection.sendRequest(DocumentFormattingRequest.type, {
            textDocument: { uri: uri('users/transformations/03_edit.sql') }, options: { tabSize: 2, insertSpaces: true },
        }) as TextEdit[];
        const text = 'create materialized view by_city as select city, count(*) as users from users_current group by city;';
        const formatted = edits.reduce((t, e) => t.substring(0, e.range.start.character) + e.newText + t.substring(e.range.end.character), text);
        expect(formatted).toBe('CREATE MATERIALIZED VIEW by_city\nAS SELECT city, count(*) AS users\nFROM users_current\nGROUP BY city;');
    });
});
