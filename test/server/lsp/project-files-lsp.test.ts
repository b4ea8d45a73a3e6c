// The project model in the language server, over stdio: project-file problems as diagnostics on
// their YAML lines (a broken file never stops the server), pipelineSql/documentPipeline for the
// client's detection and status item, and a new library file becoming pipeline SQL without a restart.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
    DidChangeWatchedFilesNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest, FileChangeType, HoverRequest,
} from 'vscode-languageserver-protocol/node.js';
import { DocumentPipelineRequest, PipelineGraphRequest, PipelinesChangedNotification } from '../../../common/protocol.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const uri = (relative: string): string => `file://${path.join(dir, relative)}`;

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-lsp-project-'));
    fs.cpSync(path.join(repoRoot, 'test/fixtures/bundles/shop'), path.join(dir, 'shop'), { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
    fs.mkdirSync(path.join(dir, 'broken/transformations'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'broken/spark-pipeline.yml'), 'name: broken\nlibraries:\n  - glob: {include: [unclosed\n');
    fs.writeFileSync(path.join(dir, 'broken/transformations/t.sql'), 'CREATE MATERIALIZED VIEW t AS SELECT 1 AS x;\nCREATE MATERIALIZED VIEW u AS SELECT y FROM t;\n');
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('a YAML error at start-up is a diagnostic on its line, and the folder\'s SQL is still checked', async () => {
    const yaml = await server.settled(uri('broken/spark-pipeline.yml'));
    expect(yaml.diagnostics.map(d => `${d.range.start.line + 1} ${d.code}`)).toContainEqual(expect.stringMatching(/^[34] PIPELINE_SQL_INVALID_PROJECT_FILE$/));
    const sql = await server.settled(uri('broken/transformations/t.sql'), p => p.diagnostics.length > 0);
    expect(sql.diagnostics.map(d => String(d.code))).toEqual(['UNRESOLVED_COLUMN.WITH_SUGGESTION']);
});

test('documentPipeline names the bundle pipeline and target of a file; a file no pipeline lists is not pipeline SQL', async () => {
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('shop/src/orders/gold.sql') })).toMatchObject({
        isPipeline: true, role: 'source',
        pipelines: [{ id: `${path.join(dir, 'shop')}#orders`, key: 'orders', name: 'shop_orders_dev', layout: 'bundle', bundle: { name: 'shop', target: 'dev' } }],
    });
    fs.writeFileSync(path.join(dir, 'shop/scratch.sql'), 'SELECT 1;\n');
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('shop/scratch.sql') })).toMatchObject({
        isPipeline: false, reason: "In the folder of the pipelines 'shop_customers', 'shop_orders_dev', but not listed in their libraries.",
    });
});

test('a scratch file (in a pipeline\'s folder, no library, queries and DML on its datasets) is pipeline SQL of that pipeline', async () => {
    const scratch = uri('shop/src/customers/scratch.sql');
    const text = '-- GDPR\nDELETE FROM customers_clean WHERE id = 7;\nSELECT * FROM gold;\n';
    fs.writeFileSync(path.join(dir, 'shop/src/customers/scratch.sql'), 'SELECT 1;\n');
    // The editor's text decides, not the file's.
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: scratch, text })).toMatchObject({
        isPipeline: true, role: 'scratch', pipelines: [{ key: 'customers', name: 'shop_customers' }],
        reason: "A scratch file of the pipeline 'shop_customers' (in its folder, not one of its libraries): its statements read or change 'customers_clean', 'gold'. Run on local state runs its statements on the pipeline's local state.",
    });
    // A dataset named only as the table whose change data feed table_changes reads counts too.
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: scratch, text: "SELECT * FROM table_changes('gold', 0);\n" })).toMatchObject({
        isPipeline: true, role: 'scratch', reason: expect.stringContaining("its statements read or change 'gold'."),
    });
    // Other SQL beside a pipeline stays plain SQL, and may become a scratch file as it is edited.
    for (const other of ['SELECT * FROM prod.sales.orders;', 'SELECT TOP 5 * FROM gold;', 'CREATE VIEW v AS SELECT * FROM gold;\nSELECT * FROM v;', '']) {
        expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: scratch, text: other }), other).toMatchObject({ isPipeline: false, scratchCandidate: true });
    }
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('shop/samples/scratch.sql'), text })).toMatchObject({ isPipeline: false });
    expect((await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('shop/samples/scratch.sql'), text })).scratchCandidate).toBeUndefined();
});

test('a scratch file directly under a bundle root two pipelines share belongs to the one whose datasets it names; when its text does not tell, it says so', async () => {
    const request = (file: string, text: string) => server.connection.sendRequest(DocumentPipelineRequest, { uri: uri(file), text });
    fs.writeFileSync(path.join(dir, 'shop/fix_orders.sql'), 'SELECT 1;\n');
    expect(await request('shop/fix_orders.sql', 'DELETE FROM orders_bronze WHERE order_id = 7;\n')).toMatchObject({
        isPipeline: true, role: 'scratch', pipelines: [{ key: 'orders' }], reason: expect.not.stringContaining('several'),
    });
    expect(await request('shop/fix_orders.sql', "SELECT * FROM table_changes('customers_clean', 0);\n")).toMatchObject({ pipelines: [{ key: 'customers' }] });
    // gold is a dataset of both: the first pipeline, and the reason says why and what to do.
    expect(await request('shop/fix_orders.sql', 'SELECT * FROM gold;\n')).toMatchObject({
        pipelines: [{ key: 'customers' }],
        reason: expect.stringContaining("This scratch file is in the folder of several pipelines ('shop_customers', 'shop_orders_dev') and its statements do not tell which one it is for"),
    });
    // Opened: its names resolve against the pipeline it names (no unknown table), and an ambiguous one gets a warning.
    const open = async (file: string, text: string) => {
        fs.writeFileSync(path.join(dir, file), text);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uri(file), languageId: 'pipeline-sql', version: 1, text } });
        return (await server.diagnostics(uri(file))).diagnostics.map(d => `${d.range.start.line + 1} ${String(d.code)} ${d.message}`);
    };
    expect(await open('shop/fix_orders.sql', 'DELETE FROM orders_bronze WHERE order_id = 7;\nSELECT * FROM gold;\n')).toEqual([]);
    expect(await open('shop/either.sql', 'SELECT * FROM gold;\n')).toEqual([
        expect.stringMatching(/^1 PIPELINE_SQL_AMBIGUOUS_SCRATCH_FILE This scratch file is in the folder of several pipelines \('shop_customers', 'shop_orders_dev'\).*its root_path\)\.$/),
    ]);
});

test('a new file under a pipeline\'s glob becomes pipeline SQL: the server reloads and says the pipelines changed', async () => {
    const changed = new Promise<void>(resolve => server.connection.onNotification(PipelinesChangedNotification, () => resolve()));
    fs.writeFileSync(path.join(dir, 'shop/src/orders/silver.sql'), 'CREATE MATERIALIZED VIEW silver AS SELECT customer_id FROM gold;\n');
    const published = server.diagnostics(uri('shop/src/orders/silver.sql'));
    await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('shop/src/orders/silver.sql'), type: FileChangeType.Created }] });
    await changed;
    expect((await published).diagnostics).toEqual([]);
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('shop/src/orders/silver.sql') })).toMatchObject({ isPipeline: true, pipelines: [{ key: 'orders' }] });
});

test('saving a resource file with a YAML error publishes it on its line; the server keeps answering', async () => {
    const file = path.join(dir, 'shop/resources/customers.pipeline.yml');
    const broken = server.diagnostics(uri('shop/resources/customers.pipeline.yml'), p => p.diagnostics.length > 0);
    fs.writeFileSync(file, 'resources:\n  pipelines:\n    customers:\n      name: [oops\n');
    await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('shop/resources/customers.pipeline.yml'), type: FileChangeType.Changed }] });
    expect((await broken).diagnostics.map(d => String(d.code))).toEqual(['PIPELINE_SQL_INVALID_PROJECT_FILE']);
    expect(await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('shop/src/orders/gold.sql') })).toMatchObject({ isPipeline: true });
});

test('a request right after didOpen of a file the model does not list yet waits for the refresh instead of failing', async () => {
    // A new file in the bundle before any watcher event, and a file outside the workspace in a
    // pipeline folder of its own: each needs the project model to be read before it has a document.
    fs.writeFileSync(path.join(dir, 'shop/src/orders/fresh.sql'), 'CREATE MATERIALIZED VIEW fresh AS SELECT customer_id FROM gold;\n');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-outside-'));
    fs.writeFileSync(path.join(outside, 'spark-pipeline.yml'), 'name: outside\n');
    fs.writeFileSync(path.join(outside, 'a.sql'), 'CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\n');
    try {
        for (const [fileUri, text] of [[uri('shop/src/orders/fresh.sql'), 'fresh AS SELECT'], [`file://${path.join(outside, 'a.sql')}`, 'a AS SELECT']]) {
            const content = fs.readFileSync(new URL(fileUri), 'utf8');
            await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: fileUri, languageId: 'pipeline-sql', version: 1, text: content } });
            const position = { line: 0, character: content.indexOf(text) + 1 };
            const [hover, symbols, graph] = await Promise.all([
                server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: fileUri }, position }),
                server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: fileUri } }),
                server.connection.sendRequest(PipelineGraphRequest, { uri: fileUri }),
            ]);
            expect(JSON.stringify(hover)).toContain('materialized view');
            expect(symbols).not.toBeNull();
            expect(graph.nodes.map(n => n.name)).toContain(text.split(' ')[0]);
        }
    } finally {
        fs.rmSync(outside, { recursive: true, force: true });
    }
});
