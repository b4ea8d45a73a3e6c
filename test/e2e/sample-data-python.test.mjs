// Real VS Code end-to-end test of the "Create sample data" quick fix in a Python file (issue 16): the
// lakehouse bundle (test/fixtures/bundles/lakehouse), whose Python dataset `products` has no sample
// data. Run pipeline fails on it, the error is shown on its line in products.py, the light bulb there
// offers "Create sample data ...", which writes the samples; Run pipeline then succeeds.
// Screenshots go to test-artifacts/e2e/sample-data-python-*.png and are listed at the end.
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/sample-data-python.test.mjs`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, createRecorder, createWorkbench, lightBulbAction, openWorkspaceFile, pipelineCopy, repo, waitUntil,
} from './harness.mjs';

let page;
let workspace;
const recorder = createRecorder('sample-data-python-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const editor = () => activeEditor(page);
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

before(async () => {
    const prepare = pipelineCopy(path.join(repo, 'test/fixtures/bundles/lakehouse'));
    page = await workbench.open({ prepare: runDir => (workspace = prepare(runDir)), treeItem: 'resources' });
});

after(() => workbench.close({ title: 'e2e sample-data-python' }));

/** Clicks the gold file's "Run pipeline" lens and waits for the preview's header to say `outcome`. */
async function runPipeline(outcome) {
    await openWorkspaceFile(page, 'src/gold/gold.sql', 'Reads two Python datasets');
    const lens = editor().locator('.codelens-decoration a', { hasText: 'Run pipeline' }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const header = webview().locator('.run-header');
    return waitUntil(`the run to end: ${outcome}`, () => header.textContent({ timeout: 60_000 }).catch(() => ''), t => outcome.test(t), 120_000);
}

test('a Python dataset without sample data: the run\'s error in the .py offers Create sample data; after it the run succeeds', { timeout: 400_000 }, async () => {
    assert.match(await runPipeline(/✗ Failed/), /PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES|products/);

    await openWorkspaceFile(page, 'src/transform/products.py', 'from pyspark import pipelines as dp');
    const squiggle = editor().locator('.squiggly-error');
    await squiggle.first().waitFor({ timeout: 60_000 });
    await screenshot('python-error');
    const name = editor().locator('.view-line', { hasText: 'name="products"' }).locator('span span', { hasText: 'products' }).last();
    const fix = await lightBulbAction(page, name, 'Create sample data for the sources of this pipeline that have none');
    await screenshot('quick-fix-menu');
    await fix.click();

    const toasts = async () => (await page.locator('.notifications-toasts').allTextContents()).join(' ');
    await waitUntil('the notification', toasts, t => t.includes('Created sample data for') && t.includes('products'), 60_000);
    assert.ok(fs.readdirSync(path.join(workspace, 'samples')).some(f => f.startsWith('products')), fs.readdirSync(path.join(workspace, 'samples')).join(', '));
    await screenshot('samples-created');

    await page.locator('.notifications-toasts .codicon-notifications-clear, .notifications-toasts .codicon-close').first().click().catch(() => undefined);
    await runPipeline(/✓ Succeeded/);
    await screenshot('run-succeeded');
});
