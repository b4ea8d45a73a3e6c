// The editor's Run (the language server's run requests) on a bundle whose SQL reads Python datasets:
// "Run flow" of a dataset that reads a sampled Python table runs; "Run pipeline" stops before it
// starts, pointing at the Python definition that has no sample data.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CancellationToken, type Diagnostic } from 'vscode-languageserver';
import type { RunPipelineParams } from '../../../../common/protocol.js';
import { PipelineRunHandler } from '../../../../server/src/handlers/pipeline-run-handler.js';
import { RuntimeDiagnostics } from '../../../../server/src/handlers/runtime-diagnostics.js';
import { createPipelineSqlServices } from '../../../../server/src/language/pipeline-sql-module.js';
import { repoRoot } from '../../../helpers/lsp-client.js';

const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
const published = new Map<string, Diagnostic[]>();
let tmp: string;
let root: string;
let handler: PipelineRunHandler;
const gold = (): string => path.join(root, 'src/gold/gold.sql');

function params(extra: Partial<RunPipelineParams> = {}): RunPipelineParams {
    return { uri: URI.file(gold()).toString(), scope: 'pipeline', fullRefresh: false, maxRows: 100, ...extra };
}

beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-python-run-'));
    root = path.join(tmp, 'lakehouse');
    fs.cpSync(path.join(repoRoot, 'test/fixtures/bundles/lakehouse'), root, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
    await shared.workspace.WorkspaceManager.initializeWorkspace([{ name: 'tmp', uri: URI.file(tmp).toString() }]);
    const diagnostics = new RuntimeDiagnostics({
        publish: (uri, list) => published.set(uri, list),
        validation: uri => shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))?.diagnostics ?? [],
    });
    handler = new PipelineRunHandler(shared, PipelineSql, diagnostics, () => undefined);
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('"Run flow" of a dataset that reads a Python table with sample data runs, reading the sample', async () => {
    const outcome = await handler.run(params({ scope: 'upstream', dataset: 'orders_silver' }), CancellationToken.None);
    expect(outcome.ok ? outcome.datasets.map(d => `${d.name}: ${d.rowCount}`) : outcome.error).toEqual(['orders_silver: 2']);
});

test('"Run pipeline" stops before it starts at the Python dataset without sample data', async () => {
    const outcome = await handler.run(params(), CancellationToken.None);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
        expect(outcome.error).toMatchObject({
            class: 'PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES', dataset: 'revenue_by_title',
            location: { uri: URI.file(path.join(root, 'src/transform/products.py')).toString(), range: { start: { line: 4, character: 9 } } },
        });
        expect(outcome.error.message).toContain('defined in Python (@dp.materialized_view at products.py:5)');
    }
    // The Problems view shows it on the Python definition.
    expect((published.get(URI.file(path.join(root, 'src/transform/products.py')).toString()) ?? []).map(d => `${d.range.start.line}:${d.code}`))
        .toEqual(['4:PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES']);
});
