// Real VS Code end-to-end test of "Run on local state" and the preview's Changes view (issue 12):
// runs the users-cdc sample pipeline from its code lens, reads the Changes view of the SCD1 target,
// then opens a scratch .sql file beside the pipeline's libraries (it opens in the Pipeline SQL mode by
// itself, its names resolved against the pipeline's datasets), clicks "Run on local state" above a
// GDPR DELETE on that target and reads the Statement view (the version it wrote and its feed), and
// runs the editor's selection with the command (two statements: a clear error). Screenshots go to
// test-artifacts/e2e/local-state-*.png.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, copyPipelineFolder, createRecorder, createWorkbench, focusWorkbench, openWorkspaceFile, repo, runCommand, waitUntil,
} from './harness.mjs';

let page;
const recorder = createRecorder('local-state-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const lap = step => recorder.lap(step);
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            const workspace = path.join(runDir, 'workspace');
            copyPipelineFolder(path.join(repo, 'samples', 'users-cdc'), path.join(workspace, 'users-cdc'));
            // A scratch file beside transformations/ (the pipeline's libraries): not a source of the pipeline.
            fs.writeFileSync(path.join(workspace, 'users-cdc', 'scratch.sql'), [
                '-- Scratch statements on the local state',
                'SELECT user_id, name, city FROM users_current ORDER BY user_id;',
                '',
                '-- GDPR: forget Ada',
                'DELETE FROM users_current WHERE user_id = 1;',
                '',
            ].join('\n'));
            return workspace;
        },
        viewport: { width: 1700, height: 1000 },
        treeItem: 'users-cdc',
    });
});

after(() => workbench.close({ title: 'e2e local state', keepLogs: true }));

test('the Changes view shows the feed of the last update of the SCD1 target', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'users-cdc/transformations/02_users_current.sql', 'The users as they are now');
    const lens = activeEditor(page).locator('.codelens-decoration a', { hasText: 'Run pipeline' }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const header = webview().locator('.run-header');
    await waitUntil('the pipeline run', () => header.textContent({ timeout: 60_000 }).catch(() => ''), t => /✓ Succeeded|✗ Failed/.test(t), 90_000);
    assert.match(await header.textContent(), /✓ Succeeded/);
    lap('pipeline run');
    const view = webview();
    await view.locator('button.dataset[data-dataset=users_current]').click();
    await view.locator('[role=tab][data-view=changes]').click();
    await view.locator('[role=tab][data-view=changes][aria-selected=true]').waitFor();
    const rows = view.locator('.changes-view table.feed-table tbody tr');
    await rows.first().waitFor();
    // The first update inserts every current user: one insert per row of the target.
    const kinds = await rows.evaluateAll(r => r.map(e => e.getAttribute('data-change')));
    assert.ok(kinds.length >= 3 && kinds.every(k => k === 'insert'), JSON.stringify(kinds));
    assert.match(await view.locator('.changes-view .feed-summary').textContent(), /Change data feed of the last update of users_current: \+\d+ ~0 −0/);
    assert.match(await rows.first().textContent(), /^insert1Ada King/);
    await screenshot('changes-view');
});

test('"Run on local state" above a DELETE in a scratch file writes a version and shows its feed', { timeout: 180_000 }, async () => {
    // The scratch file opens in the first group, beside the preview.
    await focusWorkbench(page);
    await page.keyboard.press('Control+1');
    await openWorkspaceFile(page, 'users-cdc/scratch.sql', 'Scratch statements on the local state');
    // A scratch file (queries and DML on the pipeline's datasets, none of its libraries) opens in the
    // Pipeline SQL mode by itself: no manual switch of the language mode.
    const mode = page.locator('[id="status.editor.mode"]').first();
    await waitUntil('the Pipeline SQL mode', () => mode.textContent().catch(() => ''), t => t.trim() === 'Pipeline SQL', 60_000);
    // Only the scratch file has these lenses, whichever group is active.
    const lenses = page.locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: 'Run on local state' });
    await waitUntil('two "Run on local state" lenses', () => lenses.count(), n => n === 2, 60_000);
    // Its names are the pipeline's datasets: no "unknown table" or "ignored statement" squiggle.
    assert.equal(await activeEditor(page).locator('.squiggly-warning, .squiggly-error').count(), 0);
    await screenshot('scratch-lenses');
    await lenses.nth(1).click();
    const view = webview();
    const status = view.locator('.statement-view .statement-status');
    await waitUntil('the DELETE to run', () => status.textContent({ timeout: 60_000 }).catch(() => ''), t => /✓|✗/.test(t), 90_000);
    assert.match(await status.textContent(), /✓ DELETE on users_current: version \d+ at .* \(0 inserted, 0 updated, 1 deleted\)/);
    assert.equal(await view.locator('.statement-view pre.statement-text').textContent(), 'DELETE FROM users_current WHERE user_id = 1');
    const feed = await view.locator('.statement-view table.feed-table tbody tr').evaluateAll(r => r.map(e => `${e.getAttribute('data-change')} ${e.textContent}`));
    assert.equal(feed.length, 1);
    assert.match(feed[0], /^delete delete1Ada King/);
    await screenshot('statement-delete');
    lap('delete');

    // The other views follow without a run: the grid of users_current reads the state the DELETE left ...
    await view.locator('[role=tab][data-view=results]').click();
    const grid = view.locator('.results-view .grid-rows');
    await waitUntil('the grid without Ada', () => grid.textContent().catch(() => 'Ada King'), t => t.length > 0 && !t.includes('Ada King'), 60_000);
    // Its header gives the DELETE's counts, not the last update's (which no longer describe these rows).
    assert.match(await view.locator('.results-view [data-metric="changed by"]').textContent(), /^DELETE · version \d+$/);
    assert.equal(await view.locator('.results-view [data-metric=num_upserted_rows]').count(), 0);
    await screenshot('results-after-delete');
    // ... and the Changes view shows the DELETE's version (the latest in the Version picker) and its feed.
    await view.locator('[role=tab][data-view=changes]').click();
    const picker = view.locator('.changes-view select.version-picker');
    await waitUntil('the versions of users_current', () => picker.locator('option').allTextContents(), o => o.some(t => /· DELETE$/.test(t)), 60_000);
    const deleteVersion = (await picker.locator('option').allTextContents()).find(t => /· DELETE$/.test(t));
    await waitUntil('the feed of the DELETE version', () => view.locator('.changes-view .feed-summary').textContent().catch(() => ''), t => /Change data feed of version \d+ of users_current: 1 row/.test(t), 60_000);
    assert.equal(await picker.evaluate(select => select.options[select.selectedIndex]?.textContent), deleteVersion);
    assert.deepEqual(await view.locator('.changes-view table.feed-table tbody tr').evaluateAll(r => r.map(e => e.getAttribute('data-change'))), ['delete']);
    await screenshot('changes-version-picker');
    // The last update's feed is still one pick away.
    await picker.selectOption({ label: 'Last update (this run)' });
    await waitUntil('the feed of the last update', () => view.locator('.changes-view .feed-summary').textContent().catch(() => ''), t => /Change data feed of the last update of users_current/.test(t), 30_000);
    await view.locator('[role=tab][data-view=statement]').click();

    // The SELECT lens reads the state the DELETE left.
    await lenses.nth(0).click();
    await waitUntil('the SELECT to run', () => view.locator('.statement-view pre.statement-text').textContent().catch(() => ''), t => t.startsWith('SELECT'), 60_000);
    const users = await view.locator('.statement-view table.feed-table tbody tr').evaluateAll(r => r.map(e => e.firstElementChild?.textContent));
    assert.ok(users.length > 0 && !users.includes('1'), JSON.stringify(users));
    await screenshot('statement-select');
});

test('"Run on Local State" on a selection of two statements explains that it runs one', { timeout: 120_000 }, async () => {
    await focusWorkbench(page);
    await page.keyboard.press('Control+1');
    await openWorkspaceFile(page, 'users-cdc/scratch.sql', 'Scratch statements on the local state');
    await activeEditor(page).locator('.view-lines').click();
    await page.keyboard.press('Control+A');
    // keepSelection: an Escape would clear the selection.
    await runCommand(page, 'Pipeline SQL: Run on Local State', { keepSelection: true });
    const status = webview().locator('.statement-view .statement-status');
    await waitUntil('the refusal', () => status.textContent({ timeout: 30_000 }).catch(() => ''), t => t.includes('PIPELINE_SQL_INVALID_STATEMENT'), 60_000);
    assert.match(await status.textContent(), /✗ Failed PIPELINE_SQL_INVALID_STATEMENT Run on local state runs one statement, not 2; select one\./);
    await screenshot('statement-selection-error');
});
