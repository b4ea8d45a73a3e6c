// Real VS Code end-to-end test: packages the extension, installs the .vsix into code-server, opens the
// fixture workspace in headless Chromium and checks what a user sees: the language mode of pipeline and
// plain .sql files, the highlighting, and a syntax-error squiggle that appears and goes away.
// One workbench is loaded once and shared by all checks (loading it costs ~10 s on 2 cores).
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/` once they are installed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { checkVsixEntries, listZipEntries, platformTarget } from '../../scripts/package.mjs';
import {
    activeEditor, createRecorder, createWorkbench, openWorkspaceFile, repo, runCommand, waitUntil,
} from './harness.mjs';

const fixture = path.join(repo, 'test/e2e/fixtures/workspace');
let page;
const recorder = createRecorder('editor-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const lap = step => recorder.lap(step);

const editor = () => activeEditor(page);
const languageMode = () => page.locator('[id="status.editor.mode"]').first();
const errorSquiggles = () => editor().locator('.squiggly-error');

/** The language mode shown in the status bar, once it equals `expected`. */
async function expectLanguageMode(expected, timeout = 30_000) {
    return waitUntil(`language mode "${expected}"`, async () => (await languageMode().textContent())?.trim(), v => v === expected, timeout);
}

/** Class and computed colour of the first rendered token span containing `text`. */
async function tokenStyle(text) {
    return editor().locator('.view-lines').evaluate((lines, wanted) => {
        for (const span of lines.querySelectorAll('.view-line span span')) {
            if (span.textContent.includes(wanted)) {
                return { text: span.textContent, className: span.className, color: getComputedStyle(span).color };
            }
        }
        return undefined;
    }, text);
}

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            const workspace = path.join(runDir, 'workspace');
            fs.cpSync(fixture, workspace, { recursive: true });
            return workspace;
        },
        treeItem: 'orders',
    });
    await screenshot('workbench');
});

after(() => workbench.close({ title: 'e2e' }));

test('the packaged .vsix ships the bundles and the DuckDB runtime, and nothing else from node_modules', () => {
    const entries = listZipEntries(workbench.vsix);
    const { binding } = platformTarget();
    assert.deepEqual(checkVsixEntries(entries, binding), []);
    assert.ok(entries.includes(`extension/node_modules/${binding}/duckdb.node`));
    // The check itself notices a missing native binding or a stray dependency.
    const broken = entries.filter(e => !e.includes(binding)).concat('extension/node_modules/langium/package.json');
    assert.deepEqual(checkVsixEntries(broken, binding), [
        `missing extension/node_modules/${binding}/duckdb.node`,
        'unexpected dependency extension/node_modules/langium/package.json',
    ]);
});

test('a .sql file listed in spark-pipeline.yml opens in the Pipeline SQL mode', { timeout: 90_000 }, async () => {
    await openWorkspaceFile(page, 'orders/transformations/orders.sql', 'CREATE OR REFRESH STREAMING TABLE');
    await expectLanguageMode('Pipeline SQL');
    lap('pipeline file in Pipeline SQL mode');
    // The language status ({} next to the mode) says why and whether the server runs.
    await page.locator('[id="status.languageStatus"]').first().click();
    const status = page.locator('.hover-language-status', { hasText: 'Listed in the libraries of spark-pipeline.yml' }).first();
    await status.waitFor({ timeout: 15_000 });
    await waitUntil('the server to be running', () => status.textContent(), t => /Language server running/.test(t ?? ''));
    assert.match(await status.textContent(), /pipeline 'orders'/);
    await screenshot('pipeline-file-mode');
    await page.keyboard.press('Escape');
});

test('keywords, strings and names get distinct TextMate colours', { timeout: 60_000 }, async () => {
    // Semantic tokens may recolour names after the server answers; keywords and strings keep the grammar's colours.
    const keyword = await waitUntil('a coloured CREATE token', () => tokenStyle('CREATE'), s => s !== undefined && !/\bmtk1\b/.test(s.className));
    const string = await tokenStyle('arrive');
    const plain = await tokenStyle('order_id');
    assert.ok(string && plain, 'string and identifier tokens are rendered');
    assert.notEqual(keyword.color, plain.color, `keyword ${JSON.stringify(keyword)} vs name ${JSON.stringify(plain)}`);
    assert.notEqual(string.color, plain.color, `string ${JSON.stringify(string)} vs name ${JSON.stringify(plain)}`);
    assert.notEqual(keyword.color, string.color);

    // The scope under the cursor comes from our grammar, as VS Code's token inspector shows.
    await editor().locator('.view-line', { hasText: 'CREATE OR REFRESH STREAMING TABLE orders_raw' }).click();
    await page.keyboard.press('Home');
    await runCommand(page, 'Developer: Inspect Editor Tokens and Scopes');
    const inspector = page.locator('.token-inspect-widget');
    await inspector.waitFor();
    const inspected = await waitUntil('the token inspector to show scopes', () => inspector.textContent(), t => /source\.pipeline-sql/.test(t ?? ''));
    assert.match(inspected, /keyword\.other\.ddl\.pipeline-sql/);
    await screenshot('highlighting-token-inspector');
    await page.keyboard.press('Escape');
    lap('highlighting');
});

test('a plain .sql file stays SQL; a pipeline statement outside a pipeline folder switches the mode', { timeout: 90_000 }, async () => {
    await openWorkspaceFile(page, 'orders/scratch/adhoc.sql', 'SELECT TOP 5 order_id');
    // VS Code's built-in SQL language is called "MS SQL".
    await expectLanguageMode('MS SQL');
    await screenshot('plain-sql-file');
    // A file the libraries glob matches, but .vscode/settings.json pins to "sql" in files.associations.
    await openWorkspaceFile(page, 'orders/transformations/legacy/old_report.sql', 'SELECT region');
    await expectLanguageMode('MS SQL');
    // The file outside any pipeline folder switches because of its CREATE FLOW statement ...
    await openWorkspaceFile(page, 'adhoc/cdc_flow.sql', 'CREATE FLOW customers_cdc');
    await expectLanguageMode('Pipeline SQL');
    await screenshot('statement-detected-file');
    // ... and by now detection has long run for the two files opened before it, which are still SQL.
    await openWorkspaceFile(page, 'orders/scratch/adhoc.sql', 'SELECT TOP 5 order_id');
    assert.equal((await languageMode().textContent())?.trim(), 'MS SQL');
    await openWorkspaceFile(page, 'orders/transformations/legacy/old_report.sql', 'SELECT region');
    assert.equal((await languageMode().textContent())?.trim(), 'MS SQL');
    lap('detection');
});

test('a plain SQL file shows no Pipeline SQL diagnostics', { timeout: 60_000 }, async () => {
    // The server loads only the files its pipelines list (spark-pipeline.yml libraries), not every .sql file.
    await openWorkspaceFile(page, 'orders/scratch/adhoc.sql', 'SELECT TOP 5 order_id');
    await expectLanguageMode('MS SQL');
    // The server validated the workspace when it started (the pipeline files above show its squiggles).
    await new Promise(resolve => setTimeout(resolve, 2000));
    assert.equal(await errorSquiggles().count(), 0);
});

test('switching a Pipeline SQL file to SQL by hand is not undone', { timeout: 60_000 }, async () => {
    await openWorkspaceFile(page, 'adhoc/cdc_flow.sql', 'CREATE FLOW customers_cdc');
    await expectLanguageMode('Pipeline SQL');
    await languageMode().click();
    await page.locator('.quick-input-widget input').fill('MS SQL');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'MS SQL' }).first().click();
    await expectLanguageMode('MS SQL');
    // Detection would switch it back within milliseconds if it took the change for a fresh open.
    await new Promise(resolve => setTimeout(resolve, 2000));
    assert.equal((await languageMode().textContent())?.trim(), 'MS SQL');
    await screenshot('manual-switch-kept');
    lap('manual switch');
});

test('a syntax error squiggle appears while typing a broken token and goes away when fixed', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'orders/transformations/orders.sql', 'CREATE OR REFRESH STREAMING TABLE');
    await expectLanguageMode('Pipeline SQL');
    const line = editor().locator('.view-line', { hasText: 'TABLE orders_history;' });
    // The run lenses move the lines down when they arrive: wait for them before aiming at a word.
    await editor().locator('.codelens-decoration').first().waitFor({ timeout: 60_000 });
    // Double-click selects the word STREAMING; typing replaces it with a misspelling.
    const keyword = line.locator('span span', { hasText: 'STREAMING' }).first();
    const box = await waitUntil('the keyword to render', () => keyword.boundingBox().catch(() => null), b => b !== null && b.width > 0);
    await page.mouse.dblclick(box.x + 8, box.y + box.height / 2);
    await page.keyboard.type('STREAMNG');
    await line.filter({ hasText: 'STREAMNG TABLE orders_history;' }).waitFor();
    await errorSquiggles().first().waitFor({ timeout: 60_000 });
    lap('squiggle shown');

    // Hovering the squiggle shows the language server's message with Spark's error class.
    // The squiggle is looked up on every try: run lenses arriving above its line move it down.
    const hover = page.locator('.monaco-hover', { hasText: 'PARSE_SYNTAX_ERROR' }).first();
    await waitUntil('a hover card with PARSE_SYNTAX_ERROR', async () => {
        const squiggle = await waitUntil('a rendered squiggle', () => errorSquiggles().first().boundingBox().catch(() => null), b => b !== null && b.width > 0);
        await page.mouse.move(5, 5);
        await page.mouse.move(squiggle.x + Math.min(5, squiggle.width / 2), squiggle.y + squiggle.height / 2);
        return hover.waitFor({ timeout: 3_000 }).then(() => true, () => false);
    }, shown => shown, 30_000);
    await screenshot('syntax-error-squiggle');
    await page.mouse.move(5, 5);

    // Fix it by typing: select the misspelt word back (the cursor is right after it) and retype it.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Control+ArrowLeft');
    await page.keyboard.type('STREAMING');
    await line.filter({ hasText: 'STREAMING TABLE orders_history;' }).waitFor();
    // No squiggle anywhere in the file: the whole pipeline file parses.
    await waitUntil('the squiggle to go away', () => errorSquiggles().count(), n => n === 0, 60_000);
    await screenshot('syntax-error-fixed');
    lap('squiggle cleared');
});
