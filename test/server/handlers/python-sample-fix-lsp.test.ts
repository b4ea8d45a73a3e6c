// The "Create sample data" quick fix in a pipeline's Python file (issue 16): a run that reads a Python
// dataset without sample data puts PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES on its line in the
// .py file; code actions there offer the fix (the language server answers for .py files, which are no
// Langium documents), and the request its command sends creates the samples, so the next run passes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol/node.js';
import { CreateSampleDataCommand, CreateSampleDataRequest, RunPipelineRequest } from '../../../common/protocol.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const uri = (relative: string): string => `file://${path.join(dir, relative)}`;
let gold: string;
let products: string;
const notSampled = 'PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES';

beforeAll(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-python-fix-')));
    fs.cpSync(path.join(repoRoot, 'test/fixtures/bundles/lakehouse'), dir, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
    gold = uri('src/gold/gold.sql');
    products = uri('src/transform/products.py');
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('a run\'s "no sample data" error in a .py file offers Create sample data; its request creates the samples and the pipeline then runs', async () => {
    await server.settled(gold);
    const diagnosed = server.diagnostics(products, p => p.diagnostics.some(d => d.code === notSampled));
    const failed = await server.connection.sendRequest(RunPipelineRequest, { uri: gold, scope: 'pipeline', fullRefresh: false, maxRows: 10 });
    expect(failed.ok ? '' : failed.error.class).toBe(notSampled);
    const diagnostics = (await diagnosed).diagnostics.filter(d => d.code === notSampled);
    expect(diagnostics.map(d => `${d.range.start.line + 1} ${d.source}`)).toEqual(['5 pipeline-sql run']);

    const actions = await server.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: products }, range: diagnostics[0].range, context: { diagnostics },
    }) as CodeAction[];
    expect(actions.map(a => `${a.title} → ${a.command?.command}(${String(a.command?.arguments?.[0])})`))
        .toEqual([`Create sample data for the sources of this pipeline that have none → ${CreateSampleDataCommand}(${products})`]);
    // Other diagnostics of a Python file get no fix; a Python file outside every pipeline neither.
    const unrelated = await server.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: products }, range: diagnostics[0].range, context: { diagnostics: [{ ...diagnostics[0], code: 'SOMETHING_ELSE' }] },
    });
    expect(unrelated).toEqual([]);
    const outside = await server.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: `file://${path.join(os.tmpdir(), 'elsewhere', 'x.py')}` }, range: diagnostics[0].range, context: { diagnostics },
    });
    expect(outside).toEqual([]);

    // What the client's command sends with the fix's argument.
    const created = await server.connection.sendRequest(CreateSampleDataRequest, { uri: String(actions[0].command!.arguments![0]) });
    expect(created.ok ? created.sources.map(s => s.name) : created.error.message).toContain('products');
    const cleared = server.diagnostics(products, p => !p.diagnostics.some(d => d.code === notSampled));
    const passed = await server.connection.sendRequest(RunPipelineRequest, { uri: gold, scope: 'pipeline', fullRefresh: false, maxRows: 10 });
    expect(passed.ok ? '' : `${passed.error.class}: ${passed.error.message}`).toBe('');
    await cleared;
}, 120_000);
