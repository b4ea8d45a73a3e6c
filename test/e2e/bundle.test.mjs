// Real VS Code end-to-end test of a Databricks Asset Bundle with two pipelines that both define
// `gold` (test/fixtures/bundles/shop): the diagnostics of both pipelines and no duplicate-dataset
// error, the Pipeline status item naming the pipeline and bundle target of the active file, "Run
// flow" in each pipeline, a file both pipelines list (a Run flow lens per pipeline, the status item
// offering both definitions), and a new .sql file under a pipeline's libraries switching to Pipeline SQL.
// Screenshots go to test-artifacts/e2e/bundle-*.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, closeAllEditors, createRecorder, createWorkbench, openWorkspaceFile, repo, runCommand, waitUntil,
} from './harness.mjs';

let workspace;
let page;
const recorder = createRecorder('bundle-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);

const editor = () => activeEditor(page);
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
const languageMode = () => page.locator('[id="status.editor.mode"]').first();

/** The text of the language status hover (the `{}` next to the mode), once it contains `expected`. */
async function languageStatus(expected) {
    return waitUntil(`the language status to say "${expected}"`, async () => {
        await page.keyboard.press('Escape');
        await page.locator('[id="status.languageStatus"]').first().click();
        const hover = page.locator('.hover-language-status').first();
        await hover.waitFor({ timeout: 5_000 }).catch(() => undefined);
        // The hover that holds the language status (an editor's hover may come first in the page).
        return (await page.locator('.monaco-hover', { has: hover }).first().textContent().catch(() => '')) ?? '';
    }, t => t.includes(expected), 60_000);
}

/** Clicks the "Run flow" lens above the statement that starts with `statement` and waits for the run. */
async function runFlow(statement, dataset) {
    const lines = editor().locator('.view-lines');
    await lines.locator('.view-line', { hasText: statement }).first().waitFor();
    const lens = editor().locator('.codelens-decoration a', { hasText: 'Run flow' }).last();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const header = webview().locator('.run-header');
    await waitUntil(`the run of ${dataset} to finish`, () => header.textContent({ timeout: 60_000 }).catch(() => ''),
        t => /✓ Succeeded|✗ Failed/.test(t) && t.includes(dataset), 120_000);
    return (await header.textContent()) ?? '';
}

const typos = {
    'src/orders/gold.sql': '\nCREATE MATERIALIZED VIEW orders_typo AS SELECT amout FROM orders_bronze;\n',
    'src/customers/gold.sql': '\nCREATE MATERIALIZED VIEW customers_typo AS SELECT nmae FROM customers_clean;\n',
};

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            workspace = path.join(runDir, 'shop');
            fs.cpSync(path.join(repo, 'test/fixtures/bundles/shop'), workspace, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
            // A file both pipelines list.
            fs.mkdirSync(path.join(workspace, 'src/common'));
            fs.writeFileSync(path.join(workspace, 'src/common/report.sql'), '-- Listed by both pipelines.\nCREATE MATERIALIZED VIEW shared_report AS SELECT 1 AS one;\n');
            for (const resource of ['orders', 'customers']) {
                fs.appendFileSync(path.join(workspace, `resources/${resource}.pipeline.yml`), '        - file:\n            path: ../src/common/report.sql\n');
            }
            // One mistake in each pipeline, so that the Problems view shows the diagnostics of both.
            for (const [file, text] of Object.entries(typos)) {
                fs.appendFileSync(path.join(workspace, file), text);
            }
            return workspace;
        },
        viewport: { width: 1700, height: 1000 },
        treeItem: 'resources',
    });
});

after(() => workbench.close({ title: 'e2e bundle' }));

test('both pipelines\' diagnostics are shown, and gold defined in each is no duplicate', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'src/orders/gold.sql', 'CREATE MATERIALIZED VIEW gold');
    await waitUntil('the Pipeline SQL mode', async () => (await languageMode().textContent())?.trim(), v => v === 'Pipeline SQL', 60_000);
    await page.keyboard.press('Control+Shift+M');
    const problems = page.locator('.markers-panel');
    await waitUntil('both pipelines\' problems', () => problems.textContent().catch(() => ''),
        t => t.includes("'amout'") && t.includes("'nmae'"), 90_000);
    const text = await problems.textContent();
    assert.ok(!/DUPLICATE|more than once/i.test(text ?? ''), `no duplicate-dataset error: ${text}`);
    await screenshot('problems-of-both-pipelines');
    await page.keyboard.press('Control+Shift+M');
});

test('the Pipeline status item names the pipeline and bundle target of the active file', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'src/orders/gold.sql', 'CREATE MATERIALIZED VIEW gold');
    assert.match(await languageStatus('shop_orders_dev · dev'), /Bundle shop, target dev/);
    await screenshot('status-orders');
    await openWorkspaceFile(page, 'src/customers/gold.sql', 'CREATE MATERIALIZED VIEW gold');
    assert.match(await languageStatus('shop_customers · dev'), /Bundle shop, target dev/);
    await screenshot('status-customers');
    await page.keyboard.press('Escape');
});

test('"Run flow" runs gold in each pipeline, from that pipeline\'s own sources', { timeout: 300_000 }, async () => {
    // Fix the two mistakes on disk (the editors reload them): a pipeline with errors does not run.
    for (const file of Object.keys(typos)) {
        fs.copyFileSync(path.join(repo, 'test/fixtures/bundles/shop', file), path.join(workspace, file));
    }
    await closeAllEditors(page);
    await openWorkspaceFile(page, 'src/orders/gold.sql', 'CREATE MATERIALIZED VIEW gold');
    await waitUntil('the fix to reach the editor', () => editor().locator('.view-lines').textContent(), t => !(t ?? '').includes('orders_typo'), 30_000);
    const orders = await runFlow('CREATE MATERIALIZED VIEW gold', 'gold');
    assert.match(orders, /✓ Succeeded/);
    assert.match(await webview().locator('body').textContent(), /total/);
    await screenshot('run-orders-gold');
    await closeAllEditors(page);
    await openWorkspaceFile(page, 'src/customers/gold.sql', 'CREATE MATERIALIZED VIEW gold');
    await waitUntil('the fix to reach the editor', () => editor().locator('.view-lines').textContent(), t => !(t ?? '').includes('customers_typo'), 30_000);
    const customers = await runFlow('CREATE MATERIALIZED VIEW gold', 'gold');
    assert.match(customers, /✓ Succeeded/);
    assert.match(await webview().locator('body').textContent(), /customers_in_city/);
    await screenshot('run-customers-gold');
    // Each pipeline keeps its own state beside databricks.yml.
    assert.ok(fs.existsSync(path.join(workspace, '.pipeline-sql', 'orders')));
    assert.ok(fs.existsSync(path.join(workspace, '.pipeline-sql', 'customers')));
    await closeAllEditors(page);
});

test('a file both pipelines list: a Run flow lens per pipeline, and the status item offers both definitions', { timeout: 180_000 }, async () => {
    await closeAllEditors(page);
    await openWorkspaceFile(page, 'src/common/report.sql', 'Listed by both pipelines');
    const lenses = editor().locator('.codelens-decoration');
    await waitUntil('a Run flow lens of each pipeline', () => lenses.allTextContents().then(t => t.join(' | ')),
        t => t.includes('Run flow · orders') && t.includes('Run flow · customers'), 60_000);
    await screenshot('shared-file-lenses');
    // From the palette, Run Flow on the statement under the cursor asks which pipeline to run it in.
    await editor().locator('.view-line', { hasText: 'CREATE MATERIALIZED VIEW shared_report' }).first().click();
    await runCommand(page, 'Pipeline SQL: Run Flow', { keepSelection: true });
    const choices = page.locator('.quick-input-list .monaco-list-row');
    await waitUntil('a pick of the pipeline to run shared_report in', () => choices.allTextContents().then(t => t.join(' | ')),
        t => t.includes('shared_report · orders') && t.includes('shared_report · customers'), 30_000);
    await screenshot('shared-file-run-flow-pick');
    await page.keyboard.press('Escape');
    // Run Pipeline from the palette in the same file asks which pipeline, and runs that one.
    await runCommand(page, 'Pipeline SQL: Run Pipeline', { keepSelection: true });
    await waitUntil('a pick of the two pipelines', () => choices.allTextContents().then(t => t.join(' | ')),
        t => t.includes('orders') && t.includes('customers') && !t.includes('·'), 30_000);
    await screenshot('shared-file-run-pipeline-pick');
    await choices.filter({ hasText: 'customers' }).first().click();
    const header = webview().locator('.run-header');
    await waitUntil('the customers pipeline\'s run to finish', () => header.textContent({ timeout: 60_000 }).catch(() => ''), t => /✓ Succeeded|✗ Failed/.test(t), 120_000);
    assert.match((await header.textContent()) ?? '', /✓ Succeeded Run of pipeline \(pipeline shop_customers\)/);
    const shown = (await webview().locator('body').textContent()) ?? '';
    assert.match(shown, /customers_clean/);
    assert.doesNotMatch(shown, /orders_bronze/);
    await screenshot('shared-file-run-pipeline-customers');
    await closeAllEditors(page);
    await openWorkspaceFile(page, 'src/common/report.sql', 'Listed by both pipelines');
    await languageStatus('shop_');
    await page.locator('.hover-language-status').getByText('Open a pipeline definition').first().click();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await waitUntil('a pick of both pipelines\' definitions', () => rows.allTextContents().then(t => t.join(' | ')),
        t => t.includes('shop_customers') && t.includes('shop_orders_dev'), 30_000);
    await screenshot('shared-file-definitions');
    await rows.filter({ hasText: 'shop_customers' }).first().click();
    await waitUntil('customers.pipeline.yml to open', () => page.locator('.tab.active').first().textContent(), t => (t ?? '').includes('customers.pipeline.yml'), 30_000);
    await screenshot('shared-file-customers-definition');
    await closeAllEditors(page);
});

test('a new .sql file under a pipeline\'s libraries opens in the Pipeline SQL mode', { timeout: 120_000 }, async () => {
    fs.writeFileSync(path.join(workspace, 'src/orders/silver.sql'), '-- a new file of the orders pipeline\nSELECT 1 AS one;\n');
    await openWorkspaceFile(page, 'src/orders/silver.sql', 'a new file of the orders pipeline');
    await waitUntil('the new file to switch to Pipeline SQL', async () => (await languageMode().textContent())?.trim(), v => v === 'Pipeline SQL', 60_000);
    await screenshot('new-file-pipeline-sql');
});
