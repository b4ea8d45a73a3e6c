// Real VS Code end-to-end test of sample data scaffolding (issue 16): the users-cdc sample without its
// samples/ folder is the workspace. The source read has no sample data (a warning with a quick fix);
// the quick fix "Create sample data ..." writes a change feed and its declaration, the warning goes
// away, and "Run flow" on the SCD2 table shows its history, closed versions and the late event among them.
// Screenshots go to test-artifacts/e2e/sample-data-*.png and are listed at the end.
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/sample-data.test.mjs`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, createRecorder, createWorkbench, lightBulbAction, openWorkspaceFile, repo, waitUntil,
} from './harness.mjs';

let workspace;
let page;
const recorder = createRecorder('sample-data-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const editor = () => activeEditor(page);
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            workspace = path.join(runDir, 'users-cdc');
            // The pipeline as a user brings it: no samples, no tests, no state.
            fs.cpSync(path.join(repo, 'samples/users-cdc'), workspace, { recursive: true, filter: source => !['.pipeline-sql', 'samples', 'tests'].includes(path.basename(source)) });
            return workspace;
        },
        treeItem: 'transformations',
    });
});

after(() => workbench.close({ title: 'e2e sample-data' }));

test('no sample data: the quick fix creates it, the warning goes away, and Run flow shows the SCD2 history with the late event', { timeout: 300_000 }, async () => {
    await openWorkspaceFile(page, 'transformations/01_bronze_changes.sql', 'Raw change events from the source system');
    await editor().locator('.codelens-decoration').first().waitFor({ timeout: 60_000 });
    const squiggle = editor().locator('.squiggly-warning');
    await squiggle.first().waitFor({ timeout: 90_000 });
    await screenshot('no-sample-data');

    // The light bulb on the source name offers the fix.
    const source = editor().locator('.view-line', { hasText: 'FROM STREAM(cdc_data.users)' }).locator('span span', { hasText: 'users' }).last();
    const fix = await lightBulbAction(page, source, 'Create sample data for the sources of this pipeline that have none');
    await screenshot('quick-fix-menu');
    await fix.click();

    // The notification says what was created; the files are there; the warning goes away.
    const toasts = async () => (await page.locator('.notifications-toasts').allTextContents()).join(' ');
    const told = await waitUntil('the notification', toasts, t => t.includes('Created sample data for cdc_data.users'), 60_000);
    assert.match(told, /a late event, a duplicate/);
    for (const file of ['samples/catalog.sql', 'samples/cdc_data/users/part-00001.csv', 'samples/cdc_data/users/part-00002.csv']) {
        assert.ok(fs.existsSync(path.join(workspace, file)), file);
    }
    assert.match(fs.readFileSync(path.join(workspace, 'samples/catalog.sql'), 'utf8'), /CREATE TABLE cdc_data\.users \(\n {2}user_id BIGINT,/);
    await waitUntil('the warning to go away', () => squiggle.count(), n => n === 0, 60_000);
    await screenshot('samples-created');

    // Run flow on the SCD2 table: closed versions, one of them ended by the late event.
    await openWorkspaceFile(page, 'transformations/03_users_history.sql', 'Every version of every user');
    const lens = editor().locator('.codelens-decoration a', { hasText: 'Run flow' }).first();
    await lens.waitFor({ timeout: 60_000 });
    await lens.click();
    const header = webview().locator('.run-header');
    const text = await waitUntil('the run of users_history', () => header.textContent({ timeout: 60_000 }).catch(() => ''),
        t => /✓ Succeeded|✗ Failed/.test(t) && t.includes('users_history'), 120_000);
    assert.match(text, /✓ Succeeded/);
    const view = webview();
    await view.locator('button.dataset[data-dataset=users_history][aria-current=true]').waitFor();
    await view.locator('.grid-row').first().waitFor();
    const rows = await view.locator('.grid-row').evaluateAll(r => r.map(e => Array.from(e.querySelectorAll('.cell')).map(c => c.textContent)));
    const closed = rows.filter(r => r.at(-1) !== 'NULL' && r.at(-1) !== '');
    assert.ok(closed.length >= 3, JSON.stringify(rows));
    // The late event (10:30, after the 13:00 update was read) starts a version of user 1 between its insert and that update.
    assert.ok(rows.some(r => r[0] === '1' && r.at(-2) === '2025-01-01 10:30:00' && r.at(-1) === '2025-01-01 13:00:00'), JSON.stringify(rows));
    await screenshot('scd2-grid');

    // The history picture: one lane per user, closed versions, and the late event's version of user 1.
    await page.locator('.notifications-toasts .codicon-notifications-clear, .notifications-toasts .codicon-close').first().click().catch(() => undefined);
    await view.locator('[role=tab][data-view=history]').click();
    await view.locator('[role=tab][data-view=history][aria-selected=true]').waitFor();
    const bars = view.locator('svg.scd2 g.version');
    await bars.first().waitFor({ timeout: 30_000 });
    assert.ok(await bars.count() - await view.locator('svg.scd2 g.version.open').count() >= 3);
    const lateBar = await view.locator('svg.scd2 g.lane[data-key="user_id=1"] g.version').evaluateAll(v => v.map(e => e.getAttribute('aria-label')));
    assert.ok(lateBar.some(l => l?.includes('2025-01-01 10:30:00 → 2025-01-01 13:00:00')), JSON.stringify(lateBar));
    await screenshot('scd2-history');
});
