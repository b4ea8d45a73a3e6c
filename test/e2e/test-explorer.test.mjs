// Real VS Code end-to-end test of pipeline tests in the Test Explorer (issue 15): the users-cdc
// sample's test files (plus one whose expectation is wrong) are listed with their updates, Run All
// runs them through the language server, the wrong one fails and shows its expected and actual rows
// in the diff view; a test file stays YAML and shows an unknown column as an error squiggle on its key
// and a dataset's card on hover; corrected on disk, the failed test passes with Rerun Failed Tests;
// Record Test from Last Run, after a run of the pipeline, writes a test that is listed, opened and
// passes. Screenshots go to test-artifacts/e2e/tests-*.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, copyPipelineFolder, createRecorder, createWorkbench, focusWorkbench, openWorkspaceFile, repo, runCommand, waitUntil,
} from './harness.mjs';

let workspace;
let page;
const recorder = createRecorder('tests-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const lap = step => recorder.lap(step);

const wrong = `# Its expectation is wrong on purpose: Berlin is where Ada moved.
name: a wrong expectation
updates:
  - inputs:
      cdc_data.users:
        - {user_id: 1, name: Ada, email: ada@example.com, city: Berlin, operation: INSERT, event_ts: "2025-01-01 09:00:00"}
    expect:
      users_current:
        - {user_id: 1, city: Paris}
`;

// A misspelt column (nmae), for the editor's checks of test files.
const names = `name: names checked in the editor
updates:
  - inputs:
      cdc_data.users:
        - {user_id: 1, nmae: Ada, operation: INSERT, event_ts: "2025-01-01 09:00:00"}
    expect:
      users_history: []
`;

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            workspace = path.join(runDir, 'users-cdc');
            copyPipelineFolder(path.join(repo, 'samples/users-cdc'), workspace);
            fs.writeFileSync(path.join(workspace, 'tests', 'wrong.test.yml'), wrong);
            fs.writeFileSync(path.join(workspace, 'tests', 'names.test.yml'), names);
            return workspace;
        },
        viewport: { width: 1600, height: 1000 },
        treeItem: 'transformations',
    });
});

after(() => workbench.close({ title: 'e2e test explorer' }));

const testTree = () => page.locator('.test-explorer .monaco-list');
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

/** Shows the Testing view (a click on its activity bar item when it is not shown: a second click would hide it). */
async function showTesting() {
    await waitUntil('the Testing view', async () => {
        if (await page.locator('.test-explorer').isVisible().catch(() => false)) {
            return true;
        }
        await page.keyboard.press('Escape');
        await page.locator('.activitybar .action-item a[aria-label^="Testing"], .activitybar [aria-label^="Testing"]').first().click({ timeout: 10_000 }).catch(() => undefined);
        return page.locator('.test-explorer').isVisible().catch(() => false);
    }, shown => shown, 60_000);
}

/** The aria labels of the Test Explorer's rows (they carry each test's state). */
async function rowLabels() {
    const rows = await testTree().locator('.monaco-list-row').all();
    return (await Promise.all(rows.map(r => r.getAttribute('aria-label').catch(() => '')))).join('\n');
}

test('the Test Explorer lists the sample\'s test files and their updates', { timeout: 240_000 }, async () => {
    try {
        // The Testing container (the flask) in the activity bar.
        await waitUntil('the Testing view', async () => {
            await page.keyboard.press('Escape');
            await page.locator('.activitybar .action-item a[aria-label^="Testing"], .activitybar [aria-label^="Testing"]').first().click({ timeout: 10_000 }).catch(() => undefined);
            return page.locator('.test-explorer').count();
        }, n => n > 0, 90_000);
        await waitUntil('the test files to be listed', () => testTree().textContent().catch(() => ''),
            t => ['a late event splits the history', 'a delete closes the open version', 'a wrong expectation'].every(n => t.includes(n)), 120_000);
        // Expand the late-event file to show its updates.
        await testTree().locator('.monaco-list-row', { hasText: 'a late event splits the history' }).first().click();
        await page.keyboard.press('ArrowRight');
        await testTree().locator('.monaco-list-row', { hasText: 'update 2 (the late move to Berlin)' }).first().waitFor({ timeout: 30_000 });
        await screenshot('listed');
        console.log(await rowLabels());
    } catch (error) {
        await screenshot('listed-failed');
        throw error;
    }
    lap('listed');
});

test('Run All runs them in the language server: the wrong expectation fails with its diff, the others pass', { timeout: 300_000 }, async () => {
    try {
        await runCommand(page, 'Test: Run All Tests');
        await waitUntil('the runs to finish', rowLabels,
            t => /wrong\.test\.yml[^\n]*failed/i.test(t) && /late-event\.test\.yml[^\n]*passed/i.test(t), 240_000);
        await screenshot('ran');
        const labels = await rowLabels();
        console.log(labels);
        assert.match(labels, /delete-and-checks\.test\.yml[^\n]*passed/i);
        assert.match(labels, /null-sequence\.test\.yml[^\n]*passed/i);
        assert.match(labels, /update 2 \(the late move to Berlin\)[^\n]*passed/i);
        lap('ran');
        // The failure's message in the Test Results panel opens the diff of expected and actual rows.
        const message = page.locator('.monaco-list-row', { hasText: 'users_current (line 8)' }).last();
        await message.waitFor({ timeout: 30_000 });
        await message.dblclick();
        const diff = page.locator('.monaco-diff-editor').first();
        await waitUntil('the diff of expected and actual rows', () => diff.textContent({ timeout: 5_000 }).catch(() => ''), t => t.includes('Paris') && t.includes('Berlin'), 60_000);
        await screenshot('diff');
        const peekText = await diff.textContent();
        assert.match(peekText, /city:\s+Paris\}\s*Expected/);
        assert.match(peekText, /city:\s+Berlin\}\s*Actual/);
        lap('diff');
    } catch (error) {
        await screenshot('ran-failed');
        throw error;
    }
});

test('a test file stays YAML: an unknown column is an error squiggle on its key, a dataset shows its card on hover', { timeout: 240_000 }, async () => {
    try {
        await page.keyboard.press('Escape');
        await openWorkspaceFile(page, 'tests/names.test.yml', 'names checked in the editor');
        const editor = activeEditor(page);
        // The language mode stays YAML (the YAML extension keeps the file), the server adds its checks.
        await waitUntil('the YAML language mode', () => page.locator('.statusbar .statusbar-item', { hasText: /^YAML$/ }).count(), n => n > 0, 30_000);
        const squiggle = editor.locator('.squiggly-error');
        await waitUntil('an error squiggle', () => squiggle.count(), n => n > 0, 120_000);
        // The squiggle sits under `nmae`: hovering it shows the message.
        const box = await squiggle.first().boundingBox();
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        const problem = page.locator('.monaco-hover', { hasText: "has no column 'nmae'" }).first();
        await waitUntil('the problem\'s hover', () => problem.isVisible().catch(() => false), v => v, 30_000);
        await screenshot('test-file-problem');
        assert.match(await problem.textContent(), /'cdc_data\.users' has no column 'nmae'; its columns: user_id, name, email, city, operation, event_ts/);
        lap('test file problem');
        await page.mouse.move(0, 0);
        await page.keyboard.press('Escape');
        const word = editor.locator('.view-line', { hasText: 'users_history:' }).first().locator('span span', { hasText: 'users_history' }).first();
        const card = page.locator('.monaco-hover', { hasText: 'streaming table' }).first();
        await waitUntil('the dataset card', async () => {
            const at = await word.boundingBox();
            await page.mouse.move(at.x + 2, at.y + at.height / 2);
            await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
            return card.isVisible().catch(() => false);
        }, v => v, 60_000);
        await screenshot('test-file-hover');
        assert.match(await card.textContent(), /users_history[\s\S]*__START_AT/);
        lap('test file hover');
    } catch (error) {
        await screenshot('test-file-failed');
        throw error;
    }
});

test('Rerun Failed Tests runs the failed tests again, and only them: the one corrected on disk passes', { timeout: 300_000 }, async () => {
    try {
        await page.keyboard.press('Escape');
        fs.writeFileSync(path.join(workspace, 'tests', 'wrong.test.yml'), wrong.replace('city: Paris}', 'city: Berlin}'));
        // A passing test broken on disk: it is not run again, so it stays passed.
        const lateEvent = path.join(workspace, 'tests', 'late-event.test.yml');
        const lateText = fs.readFileSync(lateEvent, 'utf8');
        fs.writeFileSync(lateEvent, lateText.replaceAll('city: Paris}', 'city: Rome}'));
        await showTesting();
        await runCommand(page, 'Test: Rerun Failed Tests');
        await waitUntil('the failed test to pass', rowLabels, t => /wrong\.test\.yml[^\n]*passed/i.test(t), 240_000);
        // The run is over (no Cancel action in the Testing view) before the other tests' states are read.
        await waitUntil('the end of the run', () => page.locator('.part.sidebar [aria-label^="Cancel Test Run"]').count(), n => n === 0, 60_000);
        await screenshot('rerun-failed');
        const labels = await rowLabels();
        console.log(labels);
        assert.match(labels, /late-event\.test\.yml[^\n]*passed/i);
        fs.writeFileSync(lateEvent, lateText);
        lap('rerun failed');
    } catch (error) {
        await screenshot('rerun-failed-failed');
        throw error;
    }
});

test('Record Test from Last Run, after a run of the pipeline, writes a test file that is listed, opened, and passes', { timeout: 480_000 }, async () => {
    try {
        await page.keyboard.press('Escape');
        await openWorkspaceFile(page, 'transformations/02_users_current.sql', 'The users as they are now');
        const lens = activeEditor(page).locator('.codelens-decoration a', { hasText: 'Run pipeline' }).first();
        await lens.waitFor({ timeout: 60_000 });
        await lens.click();
        const header = webview().locator('.run-header');
        await waitUntil('the pipeline run', () => header.textContent({ timeout: 60_000 }).catch(() => ''), t => /✓ Succeeded|✗ Failed/.test(t), 120_000);
        assert.match(await header.textContent(), /✓ Succeeded/);
        lap('pipeline run');
        await focusWorkbench(page);
        await runCommand(page, 'Pipeline SQL: Record Test from Last Run');
        const tab = page.locator('.tabs-container .tab', { hasText: 'as-last-run.test.yml' });
        await waitUntil('the recorded test to open', () => tab.count(), n => n > 0, 120_000);
        const recorded = fs.readdirSync(path.join(workspace, 'tests')).filter(f => f.endsWith('-as-last-run.test.yml'));
        assert.equal(recorded.length, 1, JSON.stringify(recorded));
        const text = fs.readFileSync(path.join(workspace, 'tests', recorded[0]), 'utf8');
        assert.match(text, /inputs:\n\s+cdc_data\.users:/);
        assert.match(text, /expect:\n[\s\S]*users_current:/);
        await screenshot('recorded-open');
        await showTesting();
        await waitUntil('the recorded test in the Test Explorer', rowLabels, t => t.includes(recorded[0]), 60_000);
        await runCommand(page, 'Test: Run All Tests');
        const file = new RegExp(`${recorded[0].replace(/\./g, '\\.')}[^\n]*passed`, 'i');
        await waitUntil('the recorded test to pass', rowLabels, t => file.test(t), 240_000);
        await screenshot('recorded-passed');
        lap('recorded');
    } catch (error) {
        await screenshot('recorded-failed');
        throw error;
    }
});
