// Real VS Code end-to-end test of the editor intelligence: the users-cdc sample pipeline is opened as
// the workspace; typing a query in one file shows the completion list with a column of a dataset
// defined in another file, and hovering a dataset or a clause shows its card. This file loads its own
// workbench through the harness (packaged .vsix, or PIPELINE_SQL_VSIX when the runner packed it once).
// Screenshots go to test-artifacts/e2e/completion-hover-*.png and are listed at the end.
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/completion-hover.test.mjs`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, createRecorder, createWorkbench, openWorkspaceFile, pipelineCopy, repo, waitUntil,
} from './harness.mjs';

const prefix = 'completion-hover-';
const sample = path.join(repo, 'samples/users-cdc');
let page;
const recorder = createRecorder(prefix);
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const lap = step => recorder.lap(step);

const editor = () => activeEditor(page);

/** Moves the mouse over the word `word` of the line containing `lineText` until a hover card containing `expected` shows; returns its text. */
async function hoverWord(lineText, word, expected) {
    const line = editor().locator('.view-line', { hasText: lineText }).first();
    const span = line.locator('span span', { hasText: word }).first();
    const hover = page.locator('.monaco-hover', { hasText: expected }).first();
    // The server may still be linking the workspace: move the mouse off and on again until the card shows.
    // The word is looked up each time: code lenses arriving above its line move it down.
    await waitUntil(`a hover card with "${expected}"`, async () => {
        const box = await waitUntil(`the word ${word} to render`, () => span.boundingBox().catch(() => null), b => b !== null && b.width > 0);
        await page.mouse.move(box.x + 2, box.y + box.height / 2);
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        return hover.isVisible().catch(() => false);
    }, visible => visible, 60_000).catch(async error => {
        // What the editor showed instead (another card, none, the word elsewhere), for the failure's reader.
        await screenshot(`hover-${word.toLowerCase()}-not-shown`);
        throw error;
    });
    return (await hover.textContent()) ?? '';
}

before(async () => {
    page = await workbench.open({
        prepare: pipelineCopy(sample),
        treeItem: 'transformations',
    });
});

after(() => workbench.close({ title: 'e2e (completion/hover)' }));

test('completion in a sample pipeline lists a column of a dataset defined in another file', { timeout: 180_000 }, async () => {
    await openWorkspaceFile(page, 'transformations/04_users_by_city.sql', 'How many users live in each city today');
    await editor().locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    // users_current is written by an AUTO CDC flow (02_users_current.sql) from users_changes (01_bronze_changes.sql).
    await page.keyboard.type('CREATE OR REFRESH MATERIALIZED VIEW user_emails AS SELECT em FROM users_current;');
    await page.keyboard.press('Escape');
    await editor().locator('.view-line', { hasText: 'user_emails AS SELECT em FROM users_current;' }).waitFor();
    // Put the cursor right after `SELECT em`, then ask for suggestions.
    await page.keyboard.press('End');
    for (let i = 0; i < ' FROM users_current;'.length; i++) {
        await page.keyboard.press('ArrowLeft');
    }
    const suggest = page.locator('.editor-widget.suggest-widget');
    // The row labelled exactly `email`: VS Code's word-based fallback would offer `user_emails` alone.
    const email = suggest.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^email$/ }) }).first();
    await waitUntil('the completion list with the column email', async () => {
        if (!(await email.isVisible().catch(() => false))) {
            await page.keyboard.press('Escape');
            await page.keyboard.press('Control+Space');
            await suggest.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
        }
        return email.isVisible().catch(() => false);
    }, visible => visible, 90_000);
    lap('completion shown');
    // The column is the best match for `em`, shown with its type and the dataset it comes from.
    const rows = await suggest.locator('.monaco-list-row').allTextContents();
    assert.match(rows[0] ?? '', /^email/, `rows: ${JSON.stringify(rows)}`);
    assert.match(await suggest.textContent() ?? '', /string · users_current/);
    await screenshot('column-from-another-file');
    await page.keyboard.press('Enter');
    await editor().locator('.view-line', { hasText: 'SELECT email FROM users_current;' }).waitFor({ timeout: 15_000 });
});

test('hover on a dataset shows its card: kind, where it is defined, columns and types', { timeout: 120_000 }, async () => {
    const card = await hoverWord('user_emails AS SELECT email FROM', 'users_current', 'streaming table');
    lap('dataset hover shown');
    assert.match(card, /streaming table\s*users_current/);
    assert.match(card, /Defined in\s*02_users_current\.sql:2/);
    assert.match(card, /Written by flow users_current_cdc \(AUTO CDC, SCD type 1/);
    assert.match(card, /email\s*string/);
    await screenshot('dataset-card');
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
});

test('hover on SEQUENCE BY explains the clause', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'transformations/02_users_current.sql', 'The users as they are now');
    const card = await hoverWord('SEQUENCE BY event_ts', 'SEQUENCE', 'Orders the change events');
    lap('clause hover shown');
    assert.match(card, /SEQUENCE BY/);
    assert.match(card, /When omitted:\s*Required in the change-feed form/);
    await screenshot('sequence-by');
    await page.mouse.move(5, 5);
});

/** The text of the editor's lines, in order (Monaco renders only the lines in view: the file is short). */
async function editorLines() {
    return editor().locator('.view-lines').evaluate(lines => [...lines.querySelectorAll('.view-line')]
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map(l => l.textContent.replace(/\u00a0/g, ' ')));
}

test('Enter after an alias typed key by key breaks the line: no word-based suggestion takes it', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'transformations/04_users_by_city.sql', 'How many users live in each city today');
    await editor().locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    // A word of the document that a word-based suggestion would offer for `moves` ...
    await page.keyboard.press('Enter');
    await page.keyboard.type('-- city_moves and users_history are words of this file now', { delay: 5 });
    await page.keyboard.press('Enter');
    // ... then the statement of the issue, typed as a user types it, each alias followed by Enter.
    await page.keyboard.type('CREATE OR REFRESH MATERIALIZED VIEW moves_by_city AS SELECT city, count(*) AS moves', { delay: 30 });
    await page.waitForTimeout(800);
    await page.keyboard.press('Enter');
    await page.keyboard.type('FROM users_history AS hist', { delay: 30 });
    await page.waitForTimeout(800);
    await page.keyboard.press('Enter');
    await page.keyboard.type('GROUP BY city;', { delay: 10 });
    await page.keyboard.press('Escape');
    const lines = await waitUntil('the three typed lines', editorLines, l => l.some(t => t.startsWith('GROUP BY city;')));
    const end = lines.findLastIndex(t => t.startsWith('GROUP BY city;'));
    assert.deepEqual(lines.slice(end - 2, end + 1), [
        'CREATE OR REFRESH MATERIALIZED VIEW moves_by_city AS SELECT city, count(*) AS moves',
        'FROM users_history AS hist',
        'GROUP BY city;',
    ]);
    await screenshot('enter-after-alias');
    lap('Enter after an alias');
});

test('completion after AUTO CDC INTO … FROM offers STREAM(…) first, then the datasets, then SNAPSHOT', { timeout: 120_000 }, async () => {
    await openWorkspaceFile(page, 'transformations/02_users_current.sql', 'The users as they are now');
    await editor().locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('CREATE OR REFRESH STREAMING TABLE users_copy;', { delay: 5 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('CREATE FLOW users_copy_cdc AS AUTO CDC INTO users_copy', { delay: 5 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('FROM ', { delay: 30 });
    const suggest = page.locator('.editor-widget.suggest-widget');
    const labels = () => suggest.locator('.monaco-list-row .label-name').allTextContents();
    // The list of FROM / FROM SNAPSHOT closes at the space (it must not stay open, hiding the sources);
    // asked for after the space: every kind of source, STREAM(…) first and SNAPSHOT last.
    const shown = await waitUntil('the sources after FROM', async () => {
        if (!(await suggest.isVisible().catch(() => false))) {
            await page.keyboard.press('Control+Space');
            await suggest.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
        }
        return labels();
    }, l => l.includes('users_changes'), 60_000);
    assert.equal(shown[0], 'STREAM(…)', `rows: ${JSON.stringify(shown)}`);
    assert.ok(shown.includes('cdc_data.users'), `rows: ${JSON.stringify(shown)}`);
    assert.equal(shown.at(-1), 'SNAPSHOT', `rows: ${JSON.stringify(shown)}`);
    // The flow does not read its own target.
    assert.ok(!shown.includes('users_copy'), `rows: ${JSON.stringify(shown)}`);
    await screenshot('sources-after-from');
    // Typed on by a user: `s` pops the list up by itself, STREAM(…) first (the editor keeps the items
    // with a word starting with s: STREAM(…) and SNAPSHOT here).
    await page.keyboard.press('Escape');
    await page.keyboard.type('s', { delay: 30 });
    const typed = await waitUntil('the list for s', labels, l => l.includes('STREAM(…)') && l.includes('SNAPSHOT'), 30_000);
    assert.equal(typed[0], 'STREAM(…)', `rows: ${JSON.stringify(typed)}`);
    await screenshot('sources-after-from-s');
    // Accepting STREAM(…) puts the cursor in the parentheses and lists the tables again.
    await page.keyboard.press('Enter');
    await editor().locator('.view-line', { hasText: 'FROM STREAM()' }).waitFor({ timeout: 15_000 });
    const inside = await waitUntil('the tables inside STREAM(', labels, l => l.includes('users_changes'), 30_000);
    assert.ok(!inside.includes('STREAM(…)'), `rows: ${JSON.stringify(inside)}`);
    await screenshot('tables-inside-stream');
    await page.keyboard.press('Escape');
    lap('completion after FROM');
});
