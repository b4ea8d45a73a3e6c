// Real VS Code end-to-end test of the run flow: packages the extension, installs it into code-server,
// opens a workspace holding every sample pipeline (samples/) and the preview fixtures
// (test/fixtures/preview/), clicks "Run flow" on the code lens and checks the preview webview's DOM
// (nested iframes): the SCD2 rows and version bars, the bitemporal rectangles of golden 09's four
// steps, values with markup shown as text, a runtime error as a diagnostic on its clause, and the
// pipeline graph. One workbench is loaded once and shared by all checks. Screenshots of every view
// go to test-artifacts/e2e/preview-*.png and are listed at the end.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, closeAllEditors, copyPipelineFolder, createRecorder, createWorkbench, openWorkspaceFile, repo, runCommand, waitUntil,
} from './harness.mjs';

const dialogs = [];
let page;
const recorder = createRecorder('preview-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const lap = step => recorder.lap(step);

const editor = () => activeEditor(page);
/** The preview webview's document (VS Code nests it in two iframes). */
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

/** Clicks the first "Run flow" code lens of the active editor and waits for the run to finish in the preview. */
async function runFlowFromLens(expectedDataset) {
    const lens = editor().locator('.codelens-decoration a', { hasText: 'Run flow' }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const header = webview().locator('.run-header');
    // The panel opens beside the editor; the header says how the run went.
    await waitUntil(`the run of ${expectedDataset} to finish`, () => header.textContent({ timeout: 60_000 }).catch(() => ''),
        t => /✓ Succeeded|✗ Failed/.test(t) && t.includes(expectedDataset), 90_000);
    return (await header.textContent()) ?? '';
}

/** Runs "Pipeline SQL: Show Pipeline Graph" from the palette (again, when the palette had not listed it yet). */
async function showGraphFromPalette() {
    await runCommand(page, 'Pipeline SQL: Show Pipeline Graph');
    await webview().locator('svg.graph g.node').first().waitFor({ timeout: 60_000 });
}

/** Clicks a run lens again with the preview open: waits for a header other than the one before the click. */
async function runAgainFromLens(expectedDataset, lens = 'Run flow') {
    const header = webview().locator('.run-header');
    const before = (await header.textContent()) ?? '';
    await editor().locator('.codelens-decoration a', { hasText: lens }).first().click();
    await waitUntil(`the new run of ${expectedDataset} to finish`, () => header.textContent({ timeout: 60_000 }).catch(() => ''),
        t => t !== before && /✓ Succeeded|✗ Failed/.test(t) && !/Running/.test(t) && t.includes(expectedDataset), 90_000);
    return (await header.textContent()) ?? '';
}

/** The text of the "last run" language status item (the {} next to the language mode). */
async function runStatusText() {
    await page.locator('[id="status.languageStatus"]').first().click();
    const item = page.locator('.hover-language-status', { hasText: /Last run|State of the last run|No run yet|Running/ }).first();
    const text = await item.textContent({ timeout: 15_000 }).catch(() => '');
    await page.keyboard.press('Escape');
    return text ?? '';
}

/** Selects a tab of the preview. */
async function showView(view) {
    await webview().locator(`[role=tab][data-view=${view}]`).click();
    await webview().locator(`[role=tab][data-view=${view}][aria-selected=true]`).waitFor();
}

before(async () => {
    page = await workbench.open({
        // The workspace: every sample pipeline and the preview fixtures, side by side (copies: runs write state).
        prepare: runDir => {
            const workspace = path.join(runDir, 'workspace');
            for (const name of fs.readdirSync(path.join(repo, 'samples'))) {
                copyPipelineFolder(path.join(repo, 'samples', name), path.join(workspace, name));
            }
            for (const name of fs.readdirSync(path.join(repo, 'test/fixtures/preview'))) {
                fs.cpSync(path.join(repo, 'test/fixtures/preview', name), path.join(workspace, name), { recursive: true });
            }
            return workspace;
        },
        // Room for the editor and the preview side by side.
        viewport: { width: 1700, height: 1000 },
        // A value like <img onerror=alert(1)> must never run: any dialog is recorded and fails the check.
        onPage: opened => opened.on('dialog', dialog => {
            dialogs.push(dialog.message());
            void dialog.dismiss();
        }),
        treeItem: 'users-cdc',
    });
});

after(() => workbench.close({ title: 'e2e preview', keepLogs: true }));

test('users-cdc: "Run flow" on the SCD2 table shows its rows, the changes and metrics, and a version bar per version', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'users-cdc/transformations/03_users_history.sql', 'CREATE OR REFRESH STREAMING TABLE users_history');
    const header = await runFlowFromLens('users_history');
    assert.match(header, /✓ Succeeded/);
    lap('users-cdc run');
    const view = webview();
    // Run flow runs the dataset and what it reads: the bronze table and the SCD2 table.
    assert.deepEqual(await view.locator('button.dataset').evaluateAll(b => b.map(e => e.getAttribute('data-dataset'))), ['users_changes', 'users_history']);
    await view.locator('button.dataset[data-dataset=users_history][aria-current=true]').waitFor();
    // The grid: 9 versions, all inserted by this first run (highlighted), with the metrics.
    await view.locator('.grid-row').first().waitFor();
    assert.equal(await view.locator('.grid-row').count(), 9);
    assert.equal(await view.locator('.grid-row.inserted').count(), 9);
    assert.equal(await view.locator('dd[data-metric=num_upserted_rows]').textContent(), '9');
    const alan = await view.locator('.grid-row', { hasText: 'Alan M. Turing' }).locator('.cell').allTextContents();
    assert.deepEqual(alan, ['2', 'Alan M. Turing', 'alan@example.com', 'Manchester', '2025-01-02 15:00:00', '2025-01-03 11:00:00']);
    await screenshot('users-history-grid');

    // Sorting by a column header, and the key filter.
    await view.locator('[role=columnheader] button', { hasText: '__START_AT' }).click();
    assert.equal(await view.locator('.grid-row').first().locator('.cell').nth(4).textContent(), '2025-01-01 09:00:00');
    await view.locator('input.filter').first().fill('4');
    await waitUntil('the key filter', () => view.locator('.grid-row').count(), n => n === 1);
    assert.match(await view.locator('.grid-row').first().textContent(), /Edsger Dijkstra/);
    await view.locator('input.filter').first().fill('');

    // The bronze table's expectations: one row dropped, one email missing.
    await view.locator('button.dataset[data-dataset=users_changes]').click();
    const expectations = await view.locator('table.expectations tbody tr').allTextContents();
    assert.deepEqual(expectations, ['known_operation1111', 'has_email101—']);
    await view.locator('button.dataset[data-dataset=users_history]').click();

    // The history picture: one lane per user, one bar per version; open ends for the current versions.
    await showView('history');
    const bars = view.locator('svg.scd2 g.version');
    await bars.first().waitFor();
    assert.equal(await bars.count(), 9);
    assert.deepEqual(await view.locator('svg.scd2 g.lane').evaluateAll(l => l.map(e => `${e.getAttribute('data-key')}:${e.querySelectorAll('g.version').length}`)),
        ['user_id=1:2', 'user_id=2:4', 'user_id=3:2', 'user_id=4:1']);
    assert.equal(await view.locator('svg.scd2 g.version.open').count(), 3);
    // Each bar says what changed from the version before (the full text is its accessible name and tooltip).
    const described = await view.locator('svg.scd2 g.lane[data-key="user_id=2"] g.version').evaluateAll(v => v.map(e => e.getAttribute('aria-label')));
    assert.deepEqual(described, [
        'user_id=2, 2025-01-01 09:05:00 → 2025-01-02 15:00:00, first version: name=Alan Turing, email=alan@example.com, city=Manchester',
        'user_id=2, 2025-01-02 15:00:00 → 2025-01-03 11:00:00, name: Alan Turing → Alan M. Turing',
        'user_id=2, 2025-01-03 11:00:00 → 2025-01-05 09:00:00, name: Alan M. Turing → Alan Turing; city: Manchester → Cambridge',
        'user_id=2, 2025-01-05 09:00:00 → open, city: Cambridge → Wilmslow',
    ]);
    // The bar's own label is the same text, cut to the bar's width.
    const label = await view.locator('svg.scd2 g.lane[data-key="user_id=2"] g.version').nth(3).locator('.bar-label').textContent();
    assert.ok(label.length > 3 && 'city=Wilmslow'.startsWith(label.replace(/…$/, '')), `label ${label}`);
    await screenshot('users-history-versions');

    // Selecting a version (keyboard: Tab to it, Enter) lists the input events behind its key with their roles.
    const cambridge = view.locator('svg.scd2 g.lane[data-key="user_id=2"] g.version[data-start="2025-01-03 11:00:00"]');
    await cambridge.focus();
    await page.keyboard.press('Enter');
    const events = view.locator('.event-table tr.event');
    await events.first().waitFor();
    const roles = await events.evaluateAll(rows => rows.map(r => `${r.cells[0].textContent} ${r.getAttribute('data-role')}`));
    assert.deepEqual(roles, ['2025-01-01 09:05:00 other', '2025-01-02 15:00:00 other', '2025-01-03 11:00:00 opened', '2025-01-05 09:00:00 closed']);
    await screenshot('users-history-events');
    await closeAllEditors(page);
});

test('users-cdc: the pipeline graph from the model, with the last run on its nodes; "Run from here"; a click opens the definition', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'users-cdc/transformations/04_users_by_city.sql', 'CREATE OR REFRESH MATERIALIZED VIEW users_by_city');
    await runCommand(page, 'Pipeline SQL: Show Pipeline Graph');
    const view = webview();
    const nodes = view.locator('svg.graph g.node');
    await nodes.first().waitFor({ timeout: 60_000 });
    // Every dataset, flow and source of the pipeline model, each kind its own shape and flows labelled by kind.
    const drawn = await nodes.evaluateAll(list => list.map(n => `${n.getAttribute('data-kind')} ${n.querySelector('.node-name').textContent} | ${n.querySelector('.node-kind').textContent}`).sort());
    assert.deepEqual(drawn, [
        'flow users_by_city | MV query',
        'flow users_changes | append',
        'flow users_current_cdc | AUTO CDC · SCD1',
        'flow users_history_cdc | AUTO CDC · SCD2',
        'materialized-view users_by_city | materialized view',
        'source cdc_data.users | source',
        'streaming-table users_changes | streaming table',
        'streaming-table users_current | streaming table',
        'streaming-table users_history | streaming table',
    ]);
    assert.equal(await view.locator('svg.graph path.edge').count(), 8);
    // The state the first check's run left: row counts on the datasets it ran; users_current never ran.
    await waitUntil('row counts on the nodes', () => view.locator('g.node[data-node-id="dataset:users_history"] .node-facts').textContent().catch(() => ''), t => t === '9 rows');
    assert.equal(await view.locator('g.node[data-node-id="dataset:users_current"] .node-facts').count(), 0);
    await screenshot('graph-after-restore');

    // Space selects a node from the keyboard; "Run from here" runs it and everything downstream.
    await view.locator('g.node[data-node-id="dataset:users_changes"]').focus();
    await page.keyboard.press('Space');
    await view.locator('button', { hasText: 'Run from here' }).click();
    await waitUntil('the downstream run', () => view.locator('.run-header').textContent(), t => /✓ Succeeded Run of users_changes and downstream/.test(t ?? ''), 90_000);
    await waitUntil('users_current on the graph', () => view.locator('g.node[data-node-id="dataset:users_current"] .node-facts').textContent().catch(() => ''), t => t === '3 rows +3 ~0 −0');
    assert.equal(await view.locator('g.node[data-node-id="dataset:users_by_city"] .node-facts').textContent(), '3 rows +3 ~0 −0');
    await screenshot('graph-after-run-from-here');

    // A click on a node opens its definition in the editor.
    await view.locator('g.node[data-node-id="dataset:users_current"]').click();
    await page.locator('.tab.active', { hasText: '02_users_current.sql' }).waitFor();
    lap('graph');
    await closeAllEditors(page);
});

test('company-bitemporal (golden 09): six rectangles over four system-time steps, and the "as of" slider', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'company-bitemporal/transformations/company.sql', 'CREATE OR REFRESH STREAMING TABLE company_bitemporal');
    assert.match(await runFlowFromLens('company_bitemporal'), /✓ Succeeded/);
    lap('golden 09 run');
    const view = webview();
    await showView('bitemporal');
    const rects = view.locator('svg.bitemporal g.row-rect');
    await rects.first().waitFor();
    assert.equal(await rects.count(), 6);
    const described = await rects.evaluateAll(r => r.map(e => `${e.getAttribute('data-label')} ${e.getAttribute('data-system-start').slice(11)}→${e.getAttribute('data-system-end').slice(11) || 'open'}`).sort());
    assert.deepEqual(described, ['XFv1 10:05:00→12:20:00', 'XFv1 12:20:00→12:25:00', 'XFv1 12:25:00→open', 'XFv2 12:20:00→12:30:00', 'XFv2 12:30:00→open', 'XFv3 12:25:00→open']);
    // Latest step: what the table believes now.
    const slider = view.locator('input.as-of');
    assert.equal(await slider.getAttribute('max'), '3');
    assert.equal(await view.locator('svg.bitemporal g.row-rect.believed').count(), 3);
    await screenshot('bitemporal-golden09-now');
    // The keyboard walks the steps: at step 1 only XFv1 was believed, at step 2 XFv1 (cut) and XFv2.
    await slider.focus();
    await page.keyboard.press('Home');
    await waitUntil('step 1', () => view.locator('.as-of-label').textContent(), t => /step 1 of 4/.test(t ?? ''));
    assert.deepEqual(await view.locator('svg.bitemporal g.row-rect.believed').evaluateAll(r => r.map(e => e.getAttribute('data-label'))), ['XFv1']);
    await page.keyboard.press('ArrowRight');
    await waitUntil('step 2', () => view.locator('.as-of-label').textContent(), t => /2025-07-18 12:20:00 \(step 2 of 4\)/.test(t ?? ''));
    assert.deepEqual((await view.locator('svg.bitemporal g.row-rect.believed').evaluateAll(r => r.map(e => e.getAttribute('data-label')))).sort(), ['XFv1', 'XFv2']);
    assert.match(await view.locator('.belief h3').textContent(), /believed at 2025-07-18 12:20:00: 2 rows/);
    await screenshot('bitemporal-golden09-step2');
    await closeAllEditors(page);
});

test('prices-bitemporal and inventory-snapshots: each sample runs and offers its picture', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'prices-bitemporal/transformations/prices.sql', 'CREATE OR REFRESH STREAMING TABLE prices');
    assert.match(await runFlowFromLens('prices'), /✓ Succeeded/);
    const view = webview();
    await showView('bitemporal');
    await view.locator('svg.bitemporal g.panel').first().waitFor();
    assert.deepEqual(await view.locator('svg.bitemporal g.panel').evaluateAll(p => p.map(e => e.getAttribute('data-key'))),
        ['instrument=ACME', 'instrument=GLOBEX', 'instrument=INITECH']);
    const rows = Number((await view.locator('button.dataset[data-dataset=prices] .meta').textContent()).match(/(\d+) rows/)[1]);
    assert.equal(await view.locator('svg.bitemporal g.row-rect').count(), rows);
    await screenshot('prices-bitemporal');
    await closeAllEditors(page);

    await openWorkspaceFile(page, 'inventory-snapshots/transformations/stock.sql', 'CREATE OR REFRESH STREAMING TABLE stock_history');
    assert.match(await runFlowFromLens('stock_history'), /✓ Succeeded/);
    await showView('history');
    const bars = view.locator('svg.scd2 g.version');
    await bars.first().waitFor();
    const stockRows = Number((await view.locator('button.dataset[data-dataset=stock_history] .meta').textContent()).match(/(\d+) rows/)[1]);
    assert.ok(stockRows > 0);
    assert.equal(await bars.count(), stockRows);
    await screenshot('inventory-snapshot-history');
    lap('other samples');
    await closeAllEditors(page);
});

test('a value with markup is shown as text and runs nothing', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'markup-values/transformations/comments.sql', 'CREATE OR REFRESH STREAMING TABLE comments');
    assert.match(await runFlowFromLens('comments'), /✓ Succeeded/);
    const view = webview();
    const cells = view.locator('.grid-row .cell');
    await cells.first().waitFor();
    const texts = await cells.allTextContents();
    assert.ok(texts.includes('<img src=x onerror=alert(1)>'), `cells: ${JSON.stringify(texts)}`);
    assert.ok(texts.includes('<script>alert(2)</script>'));
    assert.ok(texts.includes('<b>bold?</b> &amp; <a href="javascript:alert(3)">link</a>'));
    // Nothing of it became markup: no images, links or bold elements, and only our own script.
    assert.equal(await view.locator('img').count(), 0);
    assert.equal(await view.locator('.grid-row a, .grid-row b').count(), 0);
    // The only scripts are our bundle and what VS Code's webview host adds; none came from the data.
    const scripts = await view.locator('script').evaluateAll(list => list.map(e => e.getAttribute('src') ?? `inline:${e.textContent.slice(0, 60)}`));
    assert.ok(scripts.some(src => /\/out\/webview\/main\.js$/.test(src)), `scripts: ${JSON.stringify(scripts)}`);
    assert.ok(scripts.every(src => !/alert/.test(src)), `scripts: ${JSON.stringify(scripts)}`);
    console.log(`webview scripts: ${JSON.stringify(scripts)}`);
    await page.waitForTimeout(500);
    assert.deepEqual(dialogs, []);
    await screenshot('markup-values-as-text');
    lap('markup values');
    await closeAllEditors(page);
});

test('a runtime error shows as a diagnostic on the SEQUENCE BY clause, with its error class', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'broken-sequence/transformations/customers.sql', 'CREATE OR REFRESH STREAMING TABLE customers');
    const header = await runFlowFromLens('customers');
    assert.match(header, /✗ Failed/);
    assert.match(header, /AUTOCDC_MICROBATCH_VALIDATION\.NULL_SEQUENCE/);
    // The squiggle sits on the line of SEQUENCE BY changed_at.
    const line = editor().locator('.view-line', { hasText: 'SEQUENCE BY changed_at' });
    await editor().locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
    const squiggle = await editor().locator('.squiggly-error').first().boundingBox();
    const lineBox = await line.boundingBox();
    assert.ok(Math.abs(squiggle.y - lineBox.y) < lineBox.height, `squiggle at y=${squiggle.y}, line at y=${lineBox.y}`);
    await page.mouse.move(squiggle.x + Math.min(20, squiggle.width / 2), squiggle.y + squiggle.height / 2);
    await page.locator('.monaco-hover', { hasText: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE' }).first().waitFor({ timeout: 15_000 });
    await screenshot('runtime-error-diagnostic');
    await page.mouse.move(5, 5);
    lap('runtime error');
    await closeAllEditors(page);
});

/** Measures the graph in the webview: the smallest label in screen pixels, the layout, and whether every node is in the panel. */
async function measureGraph() {
    return webview().locator('svg.graph').evaluate(svg => {
        const chart = svg.parentElement.getBoundingClientRect();
        const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
        const outside = [...svg.querySelectorAll('g.node')].filter(n => {
            const b = n.getBoundingClientRect();
            return b.left < chart.left - 1 || b.right > chart.right + 1 || b.top < chart.top - 1 || b.bottom > chart.bottom + 1;
        }).map(n => n.getAttribute('data-node-id'));
        const view = document.querySelector('.view.graph-view');
        return {
            minLabelPx: Math.round(Math.min(...sizes) * 10) / 10, direction: svg.getAttribute('data-direction'), scale: Number(svg.getAttribute('data-scale')),
            outside, chartWidth: Math.round(chart.width), scrolls: view.scrollWidth > view.clientWidth + 1 || view.scrollHeight > view.clientHeight + 1,
            pageWidth: document.documentElement.clientWidth,
        };
    });
}

test('every sample\'s graph is readable beside the code without scrolling (labels of 11 px or more); zoom and fit', { timeout: 240_000 }, async () => {
    for (const [file, words] of [
        ['users-cdc/transformations/04_users_by_city.sql', 'CREATE OR REFRESH MATERIALIZED VIEW users_by_city'],
        ['inventory-snapshots/transformations/stock.sql', 'CREATE OR REFRESH STREAMING TABLE stock_history'],
        ['prices-bitemporal/transformations/prices.sql', 'CREATE OR REFRESH STREAMING TABLE prices'],
    ]) {
        await openWorkspaceFile(page, file, words);
        await showGraphFromPalette();
        const sample = file.split('/')[0];
        const measured = await waitUntil(`the graph of ${sample} laid out`, measureGraph, m => m.outside.length === 0 && Number.isFinite(m.minLabelPx), 30_000);
        console.log(`graph ${sample}: ${JSON.stringify(measured)}`);
        assert.ok(measured.minLabelPx >= 11, `${sample}: smallest label ${measured.minLabelPx} px`);
        assert.deepEqual(measured.outside, [], `${sample}: nodes outside the panel`);
        assert.equal(measured.scrolls, false, `${sample}: the graph view scrolls`);
        // The default split: the panel takes about half of the window's width.
        assert.ok(measured.pageWidth < 1000, `${sample}: the preview is ${measured.pageWidth} px wide`);
        await screenshot(`graph-readable-${sample}`);
        await closeAllEditors(page);
    }
    // Zoom: the + button and the keys, the wheel at the pointer, and "Fit" back.
    await openWorkspaceFile(page, 'users-cdc/transformations/04_users_by_city.sql', 'CREATE OR REFRESH MATERIALIZED VIEW users_by_city');
    await showGraphFromPalette();
    const view = webview();
    const scale = async () => Number(await view.locator('svg.graph').getAttribute('data-scale'));
    const fitted = await scale();
    await view.locator('button.zoom', { hasText: '+' }).click();
    const zoomed = await waitUntil('zoomed in', scale, v => v > fitted * 1.1);
    assert.equal(await view.locator('.zoom-level').textContent(), `${Math.round(zoomed * 100)} %`);
    await screenshot('graph-zoomed');
    await view.locator('.graph-chart').hover();
    await page.mouse.wheel(0, 300);
    const wheeled = await waitUntil('zoomed out by the wheel', scale, v => v < zoomed);
    await view.locator('.graph-chart').focus();
    await page.keyboard.press('+');
    await waitUntil('zoomed in by a key', scale, v => v > wheeled);
    await page.keyboard.press('0');
    await waitUntil('the whole graph again', scale, v => v === fitted);
    assert.equal(await view.locator('svg.graph').getAttribute('data-shows-all'), 'true');
    await closeAllEditors(page);
    lap('graph readability');
});

test('the grid: columns fit their content and a column is resized by dragging its edge', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'users-cdc/transformations/03_users_history.sql', 'CREATE OR REFRESH STREAMING TABLE users_history');
    assert.match(await runFlowFromLens('users_history'), /✓ Succeeded/);
    const view = webview();
    await showView('results');
    await view.locator('.grid-row').first().waitFor();
    // No cell or header is cut short ("Arlingt…").
    const cut = await view.locator('.grid-scroller').evaluate(grid => [...grid.querySelectorAll('.grid-row .cell, .grid-header button.sort')]
        .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent));
    assert.deepEqual(cut, []);
    const header = view.locator('[role=columnheader]', { hasText: 'city' });
    const before = (await header.boundingBox()).width;
    const handle = header.locator('.col-resizer');
    const box = await handle.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const after = (await header.boundingBox()).width;
    assert.ok(Math.abs(after - before - 120) < 4, `city was ${before} px, is ${after} px after a 120 px drag`);
    // The cells follow their header, and the width stays through a re-render (sorting).
    const cityIndex = await view.locator('[role=columnheader]').evaluateAll(hs => hs.findIndex(h => h.textContent.startsWith('city')));
    const cell = (await view.locator('.grid-row').first().locator('.cell').nth(cityIndex).boundingBox()).width;
    assert.ok(Math.abs(cell - after) < 2, `cell ${cell} px, header ${after} px`);
    await view.locator('[role=columnheader] button', { hasText: 'name' }).click();
    assert.ok(Math.abs((await header.boundingBox()).width - after) < 2);
    await screenshot('grid-column-resized');
    await closeAllEditors(page);
    lap('grid columns');
});

test('the pictures: composite keys tell their lanes apart, decimals keep their scale, axis labels do not overlap', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'inventory-snapshots/transformations/stock.sql', 'CREATE OR REFRESH STREAMING TABLE stock_history');
    assert.match(await runFlowFromLens('stock_history'), /✓ Succeeded/);
    const view = webview();
    await showView('history');
    await view.locator('svg.scd2 g.lane').first().waitFor();
    const lanes = await view.locator('svg.scd2 g.lane').evaluateAll(ls => ls.map(l => ({ full: l.getAttribute('data-key'), shown: l.querySelector('.key-label').textContent })));
    assert.equal(new Set(lanes.map(l => l.shown)).size, lanes.length, `lane labels ${JSON.stringify(lanes)}`);
    assert.ok(lanes.some(l => l.full === 'sku=GADGET-9, warehouse=north'), JSON.stringify(lanes));
    // The whole key is the label's tooltip.
    assert.deepEqual(await view.locator('svg.scd2 g.lane g.key title').allTextContents(), lanes.map(l => l.full));
    const bars = await view.locator('svg.scd2 g.version').evaluateAll(v => v.map(e => e.getAttribute('aria-label')).join('\n'));
    assert.match(bars, /19\.90/);
    assert.doesNotMatch(bars, /19\.9(?!0)/);
    await screenshot('composite-key-lanes');
    await closeAllEditors(page);

    await openWorkspaceFile(page, 'prices-bitemporal/transformations/prices.sql', 'CREATE OR REFRESH STREAMING TABLE prices');
    assert.match(await runFlowFromLens('prices'), /✓ Succeeded/);
    await showView('bitemporal');
    await view.locator('svg.bitemporal g.row-rect').first().waitFor();
    await view.locator('select[aria-label="Time axis spacing"]').selectOption('proportional');
    await view.locator('svg.bitemporal').waitFor();
    const overlapping = await view.locator('svg.bitemporal').evaluate(svg => {
        const boxes = [...svg.querySelectorAll('text.tick-label, text.key-label, text.key-heading')].map(t => ({ text: t.textContent, box: t.getBoundingClientRect() }));
        const pairs = [];
        for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i].box;
                const b = boxes[j].box;
                if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
                    pairs.push(`${boxes[i].text} / ${boxes[j].text}`);
                }
            }
        }
        return pairs;
    });
    assert.deepEqual(overlapping, []);
    const rects = await view.locator('svg.bitemporal g.row-rect').evaluateAll(r => r.map(e => e.getAttribute('data-label')).join(' | '));
    assert.match(rects, /101\.50/);
    await screenshot('bitemporal-proportional-axis');
    await closeAllEditors(page);
    lap('pictures');
});

test('a failed run after a good one keeps the good rows, marked as from the previous run; the status follows the truth', { timeout: 240_000 }, async () => {
    await openWorkspaceFile(page, 'users-cdc/transformations/03_users_history.sql', 'CREATE OR REFRESH STREAMING TABLE users_history');
    assert.match(await runFlowFromLens('users_history'), /✓ Succeeded/);
    const view = webview();
    await showView('results');
    await view.locator('.grid-row').first().waitFor();
    const goodRows = await view.locator('.grid-row').allTextContents();
    // Back to the code's editor group (the click on the tab focused the preview's).
    await page.locator('.editor-group-container').first().locator('.view-lines').click();
    // The expectation that drops the event with an unknown operation now fails the update instead.
    await openWorkspaceFile(page, 'users-cdc/transformations/01_bronze_changes.sql', 'Raw change events from the source system');
    await editor().locator('.view-line', { hasText: 'CONSTRAINT known_operation EXPECT' }).click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'DROP ROW,'.length; i++) {
        await page.keyboard.press('Backspace');
    }
    await page.keyboard.type('FAIL UPDATE,');
    await page.keyboard.press('Escape');
    await editor().locator('.view-line', { hasText: 'ON VIOLATION FAIL UPDATE,' }).waitFor({ timeout: 15_000 });
    // A full refresh of the bronze table reads every change event again (a plain run would find no new ones).
    const failed = await runAgainFromLens('users_changes', 'Full refresh');
    assert.match(failed, /✗ Failed/);
    assert.match(failed, /Showing the results of the previous run/);
    assert.doesNotMatch(failed, /Running/);
    await view.locator('.previous-run').waitFor();
    assert.match(await view.locator('.previous-run').textContent(), /these rows are from the previous run/);
    assert.deepEqual(await view.locator('.grid-row').allTextContents(), goodRows);
    // No notification claims the failure: the header, the diagnostic and the status item do, until the next run.
    const toasts = async () => (await page.locator('.notifications-toasts').allTextContents()).join(' ');
    assert.doesNotMatch(await toasts(), /run failed/i);
    assert.match(await waitUntil('the failed status', runStatusText, t => /Last run failed/.test(t)), /EXPECTATION|expectation/i);
    await screenshot('failed-run-keeps-previous-rows');

    // Revert the edit and run again: success, nothing left from the failure.
    await openWorkspaceFile(page, 'users-cdc/transformations/01_bronze_changes.sql', 'Raw change events from the source system');
    await runCommand(page, 'File: Revert File');
    await editor().locator('.view-line', { hasText: 'ON VIOLATION DROP ROW,' }).waitFor({ timeout: 15_000 });
    const again = await runAgainFromLens('users_changes', 'Full refresh');
    assert.match(again, /✓ Succeeded/);
    assert.doesNotMatch(again, /Running|previous run/);
    assert.equal(await view.locator('.previous-run').isVisible(), false);
    assert.match(await waitUntil('the succeeded status', runStatusText, t => /Last run \d/.test(t)), /succeeded/);
    assert.doesNotMatch(await toasts(), /run failed/i);
    await screenshot('next-run-succeeds');
    await closeAllEditors(page);
    lap('failed run after a good one');
});

test('the preview is restored after a window reload, from the pipeline state', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'company-bitemporal/transformations/company.sql', 'CREATE OR REFRESH STREAMING TABLE company_bitemporal');
    assert.match(await runFlowFromLens('company_bitemporal'), /✓ Succeeded/);
    await showView('bitemporal');
    await webview().locator('svg.bitemporal g.row-rect').first().waitFor();
    // The page's state (vscode.setState) reaches the workbench by message; give it a moment, then reload
    // the way a user does (the command shuts the workbench down in order, so its editor state is saved).
    await page.waitForTimeout(1500);
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForEvent('load', { timeout: 60_000 });
    await page.getByRole('treeitem', { name: 'users-cdc' }).waitFor({ timeout: 120_000 });
    // The serializer revives the panel in the view it showed; its rows come from the stored state.
    const header = webview().locator('.run-header');
    await waitUntil('the restored preview', () => header.textContent({ timeout: 60_000 }).catch(() => ''), t => /State of the last run/.test(t), 90_000);
    await webview().locator('[role=tab][data-view=bitemporal][aria-selected=true]').waitFor();
    await waitUntil('the restored rectangles', () => webview().locator('svg.bitemporal g.row-rect').count(), n => n === 6, 30_000);
    // The status says what the panel shows, not "No run yet".
    await page.locator('.editor-group-container .tab', { hasText: 'company.sql' }).first().click();
    assert.match(await waitUntil('the restored status', runStatusText, t => /State of the last run/.test(t), 30_000), /State of the last run/);
    await screenshot('restored-after-reload');
    lap('reload');
    await closeAllEditors(page);
});
