import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
    CodeActionRequest, DidChangeConfigurationNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification,
    type CodeAction, type Diagnostic,
} from 'vscode-languageserver-protocol/node.js';
import { PipelineGraphRequest } from '../../../common/protocol.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;
const codes = (diagnostics: Diagnostic[]): string[] => diagnostics.map(d => String(d.code));

const orders = 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 2.5 AS amount;\n';

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-lsp-ws-'));
    const write = (relative: string, text: string): void => {
        fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
        fs.writeFileSync(file(relative), text);
    };
    write('shop/spark-pipeline.yml', 'name: shop\nlibraries:\n  - glob:\n      include: transformations/**\n');
    write('shop/transformations/orders.sql', orders);
    write('shop/transformations/revenue.sql', 'CREATE MATERIALIZED VIEW revenue AS SELECT sum(amount) AS total FROM orders;\n');
    write('shop/transformations/cdc.sql', 'CREATE STREAMING TABLE users;\nCREATE FLOW users_cdc AS AUTO CDC INTO users FROM STREAM(raw.users) KEYS (id) SEQUENCE BY seq;\n');
    write('shop/samples/catalog.sql', 'CREATE TABLE raw.users (id INT, seq BIGINT);\n');
    // Not a library of the pipeline, and not Spark SQL: the server must not load it.
    write('shop/scratch/adhoc.sql', 'SELECT TOP 5 order_id FROM orders;\n');
    write('other/readme.sql', 'SELECT TOP 1 * FROM t;\n');
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('files that are not open get diagnostics; an edit in one file updates another', async () => {
    expect((await server.settled(uri('shop/transformations/revenue.sql'))).diagnostics).toEqual([]);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: uri('shop/transformations/orders.sql'), languageId: 'pipeline-sql', version: 1, text: orders },
    });
    const broken = server.diagnostics(uri('shop/transformations/revenue.sql'), p => p.diagnostics.length > 0);
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: uri('shop/transformations/orders.sql'), version: 2 },
        contentChanges: [{ text: 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 2.5 AS amounts;\n' }],
    });
    const published = await broken;
    expect(published.diagnostics.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`)).toEqual([
        '1:48 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'amount\' does not exist in \'orders\' (id, amounts). Did you mean \'amounts\'?',
    ]);

    // The quick fix is offered over LSP for the file that is not open.
    const actions = await server.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: uri('shop/transformations/revenue.sql') }, range: published.diagnostics[0].range,
        context: { diagnostics: published.diagnostics },
    }) as CodeAction[];
    expect(actions.map(a => a.title)).toEqual(['Change to \'amounts\'']);

    const fixed = server.diagnostics(uri('shop/transformations/revenue.sql'), p => p.diagnostics.length === 0);
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: uri('shop/transformations/orders.sql'), version: 3 }, contentChanges: [{ text: orders }],
    });
    expect((await fixed).diagnostics).toEqual([]);
});

test('plain SQL files outside the pipeline\'s libraries are not loaded, so they get no Pipeline SQL diagnostics', async () => {
    await server.settled(uri('shop/transformations/cdc.sql'));
    expect([...server.publishedUris].map(u => path.relative(dir, u.replace('file://', ''))).sort()).toEqual([
        'shop/samples/catalog.sql', 'shop/transformations/cdc.sql', 'shop/transformations/orders.sql', 'shop/transformations/revenue.sql',
    ]);
});

test('pipelineSql/pipelineGraph answers with the pipeline\'s datasets, flows and sources', async () => {
    const graph = await server.connection.sendRequest(PipelineGraphRequest, { uri: uri('shop/transformations/revenue.sql') });
    expect(graph.pipeline).toMatchObject({ name: 'shop', root: file('shop') });
    expect(graph.nodes.map(n => n.id).sort()).toEqual([
        'dataset:orders', 'dataset:revenue', 'dataset:users', 'flow:orders', 'flow:revenue', 'flow:users_cdc', 'source:raw.users',
    ]);
    expect(graph.edges).toContainEqual({ from: 'dataset:orders', to: 'flow:revenue', kind: 'read', streaming: false });
    await expect(server.connection.sendRequest(PipelineGraphRequest, { uri: uri('other/readme.sql') })).rejects.toThrow(/Not a Pipeline SQL document/);
});

test('changing pipelineSql.target revalidates every file against the new runtime', async () => {
    const spark = server.diagnostics(uri('shop/transformations/cdc.sql'), p => p.diagnostics.length > 0);
    await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { pipelineSql: { target: 'spark-4.1' } } });
    expect(codes((await spark).diagnostics)).toEqual(['PIPELINE_SQL_UNSUPPORTED_IN_TARGET']);
    const databricks = server.diagnostics(uri('shop/transformations/cdc.sql'), p => p.diagnostics.length === 0);
    await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { pipelineSql: { target: 'databricks' } } });
    expect((await databricks).diagnostics).toEqual([]);
});

test('a file outside every pipeline is validated while open, on its own, and forgotten when closed', async () => {
    const loose = uri('loose/flow.sql');
    const opened = server.diagnostics(loose);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: loose, languageId: 'pipeline-sql', version: 1, text: 'CREATE MATERIALIZED VIEW m AS SELECT * FROM orders;\n' },
    });
    // It does not see the shop pipeline's orders table.
    expect(codes((await opened).diagnostics)).toEqual(['TABLE_OR_VIEW_NOT_FOUND']);
    const closed = server.diagnostics(loose);
    await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: loose } });
    expect((await closed).diagnostics).toEqual([]);
});
