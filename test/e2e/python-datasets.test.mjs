// Real VS Code end-to-end test of a pipeline that mixes SQL and Python files (the lakehouse bundle,
// test/fixtures/bundles/lakehouse, plus one file misspelling a Python dataset as a control): the SQL
// file that reads datasets defined in .py files has no warning; hovering such a dataset's name says
// where it is defined (`products.py:5`); F12 (go to definition) opens the .py file at that line. Both
// Python styles are covered: `pyspark.pipelines` (`@dp.materialized_view(name="products")`) and the
// classic `dlt` (`@dlt.table def orders_raw`).
// Screenshots go to test-artifacts/e2e/python-datasets-*.png and are listed at the end.
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/python-datasets.test.mjs`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, copyPipelineFolder, createRecorder, createWorkbench, openWorkspaceFile, repo, waitUntil,
} from './harness.mjs';

const fixture = path.join(repo, 'test/fixtures/bundles/lakehouse');
const gold = 'src/gold/gold.sql';
const goldFirstWords = 'Reads two Python datasets';
const controlSql = '-- Misspells a Python dataset: the one warning of the workspace.\nCREATE MATERIALIZED VIEW control AS SELECT * FROM orders_rawx;\n';
let page;
const recorder = createRecorder('python-datasets-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const lap = step => recorder.lap(step);

const editor = () => activeEditor(page);
/** The cursor position the status bar shows (`Ln 5, Col 10`). */
const cursorPosition = async () => ((await page.locator('[id="status.editor.selection"]').first().textContent().catch(() => '')) ?? '').trim();
const problemsText = async () => (await page.locator('.markers-panel').first().textContent().catch(() => '')) ?? '';

/** The bounding box of `word` on the line containing `lineText`, once it is rendered (lenses arriving move it down). */
async function wordBox(lineText, word) {
    const span = editor().locator('.view-line', { hasText: lineText }).first().locator('span span', { hasText: word }).first();
    return waitUntil(`the word ${word} to render`, () => span.boundingBox().catch(() => null), b => b !== null && b.width > 0);
}

/** Moves the mouse over `word` until a hover card containing `expected` shows; returns the card's text. */
async function hoverWord(lineText, word, expected) {
    const hover = page.locator('.monaco-hover', { hasText: expected }).first();
    // The server may still be reading the workspace: move the mouse off and on again until the card shows.
    await waitUntil(`a hover card with "${expected}"`, async () => {
        const box = await wordBox(lineText, word);
        await page.mouse.move(box.x + 2, box.y + box.height / 2);
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        return hover.isVisible().catch(() => false);
    }, visible => visible, 60_000).catch(async error => {
        await screenshot(`hover-${word}-not-shown`);
        throw error;
    });
    return (await hover.textContent()) ?? '';
}

/** Puts the cursor inside `word` and presses F12; waits for `file` to become the active tab. */
async function goToDefinition(lineText, word, file) {
    const box = await wordBox(lineText, word);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.press('F12');
    await page.locator('.tab.active', { hasText: file }).waitFor({ timeout: 30_000 }).catch(async error => {
        await screenshot(`definition-of-${word}-not-opened`);
        throw error;
    });
}

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            const workspace = path.join(runDir, 'lakehouse');
            copyPipelineFolder(fixture, workspace);
            // A control: one misspelt Python dataset name in another file of the pipeline. Its warning
            // shows that the pipeline's diagnostics have arrived (the whole pipeline is checked in one build).
            fs.writeFileSync(path.join(workspace, 'src/gold/control.sql'), controlSql);
            return workspace;
        },
        treeItem: 'resources',
    });
});

after(() => workbench.close({ title: 'e2e (Python datasets)' }));

test('SQL reading datasets defined in .py files has no warning', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, gold, goldFirstWords);
    await waitUntil('the Pipeline SQL mode', async () => (await page.locator('[id="status.editor.mode"]').first().textContent())?.trim(),
        v => v === 'Pipeline SQL', 60_000);
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel').first().waitFor({ timeout: 30_000 });
    // The control file's warning arrives with the rest of the pipeline's diagnostics: then gold.sql has none.
    const problems = await waitUntil('the control file\'s warning', problemsText, t => t.includes('orders_rawx'), 90_000);
    assert.ok(!problems.includes('gold.sql'), `Problems view: ${problems}`);
    assert.equal(problems.split('TABLE_OR_VIEW_NOT_FOUND').length, 2, `one warning only: ${problems}`);
    assert.equal(await editor().locator('.squiggly-warning, .squiggly-error').count(), 0);
    await screenshot('no-warning');
    await page.keyboard.press('Control+Shift+M');
    lap('no warning');
});

test('hover on a dataset defined in Python says where: products.py:5 and ingest.py:11', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, gold, goldFirstWords);
    const products = await hoverWord('JOIN products p', 'products', 'defined in Python');
    assert.match(products, /materialized view\s*products\s*· defined in Python/);
    assert.match(products, /Defined in\s*products\.py:5\s*by\s*@dp\.materialized_view/);
    assert.match(products, /title\s*string/);
    await screenshot('hover-products');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    const ordersRaw = await hoverWord('FROM STREAM(orders_raw)', 'orders_raw', 'defined in Python');
    assert.match(ordersRaw, /streaming table\s*orders_raw\s*· defined in Python/);
    assert.match(ordersRaw, /Defined in\s*ingest\.py:11\s*by\s*@dlt\.table/);
    await screenshot('hover-orders-raw');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    lap('hovers');
});

test('F12 on a dataset defined in Python opens the .py file at its line', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, gold, goldFirstWords);
    await goToDefinition('JOIN products p', 'products', 'products.py');
    await editor().locator('.view-lines', { hasText: 'name="products"' }).waitFor();
    // The cursor is on the name: `name="products",` is line 5, the string starts at column 10.
    assert.equal(await waitUntil('the cursor on line 5', cursorPosition, t => t.startsWith('Ln 5,')), 'Ln 5, Col 10');
    await screenshot('definition-products-py');

    await openWorkspaceFile(page, gold, goldFirstWords);
    await goToDefinition('FROM STREAM(orders_raw)', 'orders_raw', 'ingest.py');
    await editor().locator('.view-lines', { hasText: 'def orders_raw' }).waitFor();
    // `def orders_raw():` is line 11; the function name starts at column 5.
    assert.equal(await waitUntil('the cursor on line 11', cursorPosition, t => t.startsWith('Ln 11,')), 'Ln 11, Col 5');
    await screenshot('definition-ingest-py');
    lap('go to definition');
});
