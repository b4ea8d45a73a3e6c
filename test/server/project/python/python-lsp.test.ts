// The language server over stdio on a bundle whose SQL reads datasets its Python files define (both
// the dlt and the pyspark.pipelines style): no warnings, hover and go-to-definition into the Python
// file, completion, the graph, and a changed Python file revalidating its SQL readers.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    CompletionRequest, DefinitionRequest, DidChangeWatchedFilesNotification, FileChangeType, HoverRequest,
    type CompletionItem, type CompletionList, type Hover, type LocationLink, type MarkupContent,
} from 'vscode-languageserver-protocol/node.js';
import { PipelineGraphRequest } from '../../../../common/protocol.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;
const gold = 'src/gold/gold.sql';

/** The LSP position of the first occurrence of `text` in a file (plus `offset` characters). */
function positionOf(relative: string, text: string, offset = 0): { line: number; character: number } {
    const lines = fs.readFileSync(file(relative), 'utf8').split('\n');
    const line = lines.findIndex(l => l.includes(text));
    return { line, character: lines[line].indexOf(text) + offset };
}

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-python-lsp-'));
    fs.cpSync(path.join(repoRoot, 'test/fixtures/bundles/lakehouse'), dir, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

describe('SQL reading Python-defined datasets', () => {
    test('gets no warning for the datasets the Python files define', async () => {
        expect((await server.settled(uri(gold))).diagnostics).toEqual([]);
    });

    test('hover says where the dataset is defined, how, and its known columns', async () => {
        await server.settled(uri(gold));
        const hover = await server.connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: uri(gold) }, position: positionOf(gold, 'JOIN products', 6),
        }) as Hover;
        const text = (hover.contents as MarkupContent).value;
        expect(text).toContain('**materialized view** `products` · defined in Python');
        expect(text).toContain(`Defined in [products\\.py:5](${uri('src/transform/products.py')}#L5) by \`@dp.materialized_view\`.`);
        expect(text).toContain('| sku | `string` |');
        expect(text).toContain('| price | `double` |');
        expect(text).toContain('there is no sample data for it');
    });

    test('hover of a dlt table read from sample data says so', async () => {
        const hover = await server.connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: uri(gold) }, position: positionOf(gold, 'STREAM(orders_raw)', 8),
        }) as Hover;
        const text = (hover.contents as MarkupContent).value;
        expect(text).toContain('**streaming table** `orders_raw` · defined in Python');
        expect(text).toContain(`[ingest\\.py:11](${uri('src/ingest/ingest.py')}#L11)`);
        expect(text).toContain('by `@dlt.table`. Its query reads a stream\\.');
        expect(text).toContain('it reads the sample data `samples/orders_raw.csv` instead.');
        expect(text).toContain('| order\\_id | `bigint` |');
    });

    test('go to definition opens the Python file at the dataset\'s name', async () => {
        const links = await server.connection.sendRequest(DefinitionRequest.type, {
            textDocument: { uri: uri(gold) }, position: positionOf(gold, 'JOIN products', 6),
        }) as LocationLink[];
        expect(links).toHaveLength(1);
        expect(links[0].targetUri).toBe(uri('src/transform/products.py'));
        // `name="products",` on line 5 of products.py (0-based 4), the string literal.
        expect(links[0].targetSelectionRange).toEqual({ start: { line: 4, character: 9 }, end: { line: 4, character: 19 } });
    });

    test('completion offers the Python datasets as tables', async () => {
        const result = await server.connection.sendRequest(CompletionRequest.type, {
            textDocument: { uri: uri(gold) }, position: positionOf(gold, 'FROM orders_silver o', 5),
        }) as CompletionList | CompletionItem[];
        const items = Array.isArray(result) ? result : result.items;
        const python = items.filter(i => i.detail?.endsWith('(Python)')).map(i => `${i.label}: ${i.detail}`);
        expect(python).toEqual(expect.arrayContaining([
            'products: materialized view · products.py (Python)',
            'orders_raw: streaming table · ingest.py (Python)',
            'customers: streaming table · ingest.py (Python)',
            'customer_feed: temporary view · ingest.py (Python)',
        ]));
    });

    test('the pipeline graph shows the Python datasets and flows, with their edges', async () => {
        const graph = await server.connection.sendRequest(PipelineGraphRequest, { uri: uri(gold) });
        const python = graph.nodes.filter(n => n.language === 'python').map(n => `${n.id} ${n.kind}`).sort();
        expect(python).toEqual([
            'dataset:customer_feed temporary-view', 'dataset:customers streaming-table', 'dataset:orders_enriched streaming-table',
            'dataset:orders_raw streaming-table', 'dataset:products materialized-view',
            'flow:customer_feed flow', 'flow:customers flow', 'flow:orders_enriched flow', 'flow:orders_raw flow', 'flow:products flow',
        ]);
        expect(graph.nodes.find(n => n.id === 'dataset:products')).toMatchObject({
            uri: uri('src/transform/products.py'), range: { start: { line: 4, character: 9 } },
        });
        expect(graph.edges).toEqual(expect.arrayContaining([
            // SQL reads Python.
            { from: 'dataset:orders_raw', to: 'flow:orders_silver', kind: 'read', streaming: true },
            { from: 'dataset:products', to: 'flow:revenue_by_title', kind: 'read', streaming: false },
            // Python reads SQL and Python, and writes its targets.
            { from: 'dataset:orders_silver', to: 'flow:orders_enriched', kind: 'read', streaming: true },
            { from: 'dataset:products', to: 'flow:orders_enriched', kind: 'read', streaming: false },
            { from: 'flow:orders_enriched', to: 'dataset:orders_enriched', kind: 'write' },
            { from: 'dataset:customer_feed', to: 'flow:customers', kind: 'read', streaming: true },
            { from: 'flow:customers', to: 'dataset:customers', kind: 'write' },
            { from: 'source:main.crm.customer_changes', to: 'flow:customer_feed', kind: 'read', streaming: true },
        ]));
        expect(graph.nodes.find(n => n.id === 'flow:customers')).toMatchObject({ flowKind: 'auto-cdc', scd: 2 });
    });

    test('a changed Python file revalidates the SQL that reads it', async () => {
        await server.settled(uri(gold), p => p.diagnostics.length === 0);
        const products = file('src/transform/products.py');
        const original = fs.readFileSync(products, 'utf8');
        const warned = server.diagnostics(uri(gold), p => p.diagnostics.length > 0);
        fs.writeFileSync(products, original.replace('name="products"', 'name="productz"'));
        await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('src/transform/products.py'), type: FileChangeType.Changed }] });
        expect((await warned).diagnostics.map(d => `${d.code} ${d.message}`)).toEqual([
            expect.stringMatching(/^TABLE_OR_VIEW_NOT_FOUND 'products' is not a dataset of this pipeline/),
        ]);
        const clean = server.diagnostics(uri(gold), p => p.diagnostics.length === 0);
        fs.writeFileSync(products, original);
        await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('src/transform/products.py'), type: FileChangeType.Changed }] });
        expect((await clean).diagnostics).toEqual([]);
    });

    test('a dataset two Python files define is an error on each Python line, gone when one goes', async () => {
        const more = file('src/transform/more.py');
        const reported = server.diagnostics(uri('src/transform/products.py'), p => p.diagnostics.length > 0);
        fs.writeFileSync(more, 'import dlt\n\n@dlt.table(name="products")\ndef p():\n    return spark.read.table("x")\n');
        await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('src/transform/more.py'), type: FileChangeType.Created }] });
        expect((await reported).diagnostics.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`)).toEqual([
            "5:10 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET The dataset 'products' is defined more than once in this pipeline (also more.py:3); each dataset has one definition.",
        ]);
        expect((await server.settled(uri('src/transform/more.py'), p => p.diagnostics.length > 0)).diagnostics.map(d => d.message)).toEqual([
            expect.stringContaining('(also products.py:5)'),
        ]);
        const cleared = server.diagnostics(uri('src/transform/products.py'), p => p.diagnostics.length === 0);
        fs.rmSync(more);
        await server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('src/transform/more.py'), type: FileChangeType.Deleted }] });
        expect((await cleared).diagnostics).toEqual([]);
    });
});
