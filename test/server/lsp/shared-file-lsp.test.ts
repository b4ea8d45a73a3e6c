// A file listed by two pipelines of a bundle is checked in both, in the editor as in `check`: the
// server publishes on the file what each pipeline finds there (naming the pipeline where only some
// do), an edit in either pipeline updates it, and locations into it name the file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    DefinitionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, ReferencesRequest,
    type Diagnostic, type Location, type LocationLink,
} from 'vscode-languageserver-protocol/node.js';
import { PipelineGraphRequest } from '../../../common/protocol.js';
import { checkPaths } from '../../../server/src/cli/check.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

const fixture = path.join(repoRoot, 'test/fixtures/bundles/twins');
let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;
const shown = (diagnostics: Diagnostic[]): string[] =>
    diagnostics.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message} [${d.source}]`);

beforeAll(async () => {
    // A copy whose us pipeline's orders have no currency column, which the shared report reads.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-twins-'));
    fs.cpSync(fixture, dir, { recursive: true });
    fs.writeFileSync(file('src/us/orders.sql'), 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 10.0 AS amount;\n');
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

describe('a file two pipelines list', () => {
    test('check reports it in each pipeline, with that pipeline\'s datasets', async () => {
        expect(await checkPaths([fixture])).toEqual([]);
        const diagnostics = await checkPaths([dir]);
        expect(diagnostics.map(d => `${d.pipeline} ${path.relative(dir, path.resolve(d.file))}:${d.line}:${d.column} ${d.code}`)).toEqual([
            'us src/common/report.sql:3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION',
        ]);
        // Given alone, it is checked in both pipelines too.
        const alone = await checkPaths([file('src/common/report.sql')]);
        expect(alone.map(d => `${d.pipeline} ${d.line}:${d.column} ${d.code}`)).toEqual(['us 3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION']);
    });

    test('the editor shows what one pipeline finds in it, naming that pipeline, once', async () => {
        const published = await server.settled(uri('src/common/report.sql'), p => p.diagnostics.length > 0);
        expect(shown(published.diagnostics)).toEqual([
            '3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'currency\' does not exist in \'orders\' (id, amount). [pipeline-sql (pipeline us)]',
        ]);
        // Only the file itself: the pipelines' documents of it are never published under URIs of their own.
        expect([...server.publishedUris].filter(u => u.includes('report.sql'))).toEqual([uri('src/common/report.sql')]);
    });

    test('go to definition and references from the other pipeline land on the file', async () => {
        const summary = fs.readFileSync(file('src/us/summary.sql'), 'utf8');
        const line = summary.split('\n').findIndex(l => l.includes('FROM report'));
        const character = summary.split('\n')[line].lastIndexOf('report') + 2;
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: uri('src/us/summary.sql'), languageId: 'pipeline-sql', version: 1, text: summary },
        });
        const definition = await server.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uri('src/us/summary.sql') }, position: { line, character } }) as LocationLink[];
        expect(definition.map(d => `${d.targetUri}:${d.targetSelectionRange.start.line + 1}`)).toEqual([`${uri('src/common/report.sql')}:2`]);
        const references = await server.connection.sendRequest(ReferencesRequest.type, {
            textDocument: { uri: uri('src/us/summary.sql') }, position: { line, character }, context: { includeDeclaration: true },
        }) as Location[];
        expect(references.map(r => `${path.relative(dir, new URL(r.uri).pathname)}:${r.range.start.line + 1}`).sort()).toEqual([
            'src/common/report.sql:2', 'src/us/summary.sql:3',
        ]);
        const graph = await server.connection.sendRequest(PipelineGraphRequest, { uri: uri('src/us/summary.sql') });
        // The dataset and its flow, both on the file.
        expect([...new Set(graph.nodes.filter(n => n.name === 'report').map(n => n.uri))]).toEqual([uri('src/common/report.sql')]);
    });

    test('an edit in the other pipeline, and in the file itself, update what it shows', async () => {
        const orders = 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 10.0 AS amount;\n';
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: uri('src/us/orders.sql'), languageId: 'pipeline-sql', version: 1, text: orders },
        });
        const clean = server.diagnostics(uri('src/common/report.sql'), p => p.diagnostics.length === 0);
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: uri('src/us/orders.sql'), version: 2 },
            contentChanges: [{ text: 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 10.0 AS amount, \'USD\' AS currency;\n' }],
        });
        expect((await clean).diagnostics).toEqual([]);

        // A typo in the shared file (unsaved, in the editor) is found by both pipelines: shown once, unlabelled.
        const report = fs.readFileSync(file('src/common/report.sql'), 'utf8');
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: uri('src/common/report.sql'), languageId: 'pipeline-sql', version: 1, text: report },
        });
        const typo = server.diagnostics(uri('src/common/report.sql'), p => p.diagnostics.length > 0 && p.diagnostics.every(d => d.source === 'pipeline-sql'));
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: uri('src/common/report.sql'), version: 2 },
            contentChanges: [{ text: report.replace('currency', 'curency') }],
        });
        expect(shown((await typo).diagnostics)).toEqual([
            '3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'curency\' does not exist in \'orders\' (id, amount, currency). Did you mean \'currency\'? [pipeline-sql]',
        ]);
    });
});
