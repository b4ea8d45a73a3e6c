// Real VS Code end-to-end test of the pipeline model: the users-cdc sample is the workspace. Renaming a
// dataset in one file makes its readers in other files — open or not — report the name they no longer
// find (Problems view and squiggles), and the light bulb's "Change to" quick fix clears the warning.
// Screenshots go to test-artifacts/e2e/model-*.png and are listed at the end.
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/model.test.mjs`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, createRecorder, createWorkbench, lightBulbAction, openWorkspaceFile, pipelineCopy, repo, waitUntil,
} from './harness.mjs';

const sample = path.join(repo, 'samples/users-cdc');
let page;
const recorder = createRecorder('model-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);

const editor = () => activeEditor(page);
const warningSquiggles = () => editor().locator('.squiggly-warning');

const open = (relativePath, firstWords) => openWorkspaceFile(page, relativePath, firstWords);

/** The Problems view's text (it is opened once and stays open in the panel). */
const problemsText = async () => (await page.locator('.markers-panel').first().textContent().catch(() => '')) ?? '';

before(async () => {
    page = await workbench.open({
        prepare: pipelineCopy(sample),
        treeItem: 'transformations',
    });
});

after(() => workbench.close({ title: 'e2e model' }));

test('renaming a dataset warns in the files that read it, open or not; the light bulb fixes the name', { timeout: 240_000 }, async () => {
    // A reader of users_changes, open in the editor; 03_users_history.sql (another reader) stays closed.
    await open('transformations/02_users_current.sql', 'CREATE OR REFRESH STREAMING TABLE users_current');
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel').first().waitFor({ timeout: 30_000 });
    assert.equal(await warningSquiggles().count(), 0);

    // Rename the dataset where it is defined, by typing over its name.
    await open('transformations/01_bronze_changes.sql', 'CREATE OR REFRESH STREAMING TABLE users_changes');
    // The run lenses move the lines down when they arrive: wait for them before aiming at a word.
    await editor().locator('.codelens-decoration').first().waitFor({ timeout: 60_000 });
    const definition = editor().locator('.view-line', { hasText: 'STREAMING TABLE users_changes (' });
    const name = definition.locator('span span', { hasText: 'users_changes' }).first();
    const box = await waitUntil('the dataset name to render', () => name.boundingBox().catch(() => null), b => b !== null && b.width > 0);
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.type('user_changes');
    await editor().locator('.view-line', { hasText: 'STREAMING TABLE user_changes (' }).waitFor();

    // Both readers report the missing name in the Problems view, the closed file included, with the
    // new name as the suggestion (while the name was being typed, the messages suggested nothing).
    const text = await waitUntil('warnings for both readers in the Problems view', problemsText,
        t => t.includes('02_users_current.sql') && t.includes('03_users_history.sql') && t.split('Did you mean \'user_changes\'?').length === 3, 60_000);
    assert.equal(text.split('TABLE_OR_VIEW_NOT_FOUND').length, 3);
    await screenshot('problems-after-rename');

    // In the open reader, the squiggle sits on the old name; the light bulb's quick fix changes it.
    await open('transformations/02_users_current.sql', 'CREATE OR REFRESH STREAMING TABLE users_current');
    await warningSquiggles().first().waitFor({ timeout: 30_000 });
    await editor().locator('.codelens-decoration').first().waitFor({ timeout: 60_000 });
    const reference = editor().locator('.view-line', { hasText: 'FROM STREAM(users_changes)' })
        .locator('span span', { hasText: 'users_changes' }).first();
    const fix = await lightBulbAction(page, reference, 'Change to \'user_changes\'');
    await screenshot('quick-fix-menu');
    await fix.click();
    await editor().locator('.view-line', { hasText: 'FROM STREAM(user_changes)' }).waitFor();
    await waitUntil('the squiggle to go away', () => warningSquiggles().count(), n => n === 0, 60_000);

    // The Problems view keeps only the closed reader.
    await waitUntil('only 03_users_history.sql left in the Problems view', problemsText,
        t => !t.includes('02_users_current.sql') && t.includes('03_users_history.sql'), 60_000);
    await screenshot('quick-fix-applied');
});
