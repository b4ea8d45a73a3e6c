// Real VS Code end-to-end test of Restricted Mode: the workspace is untrusted and holds a pipeline state
// (written by `pipeline-sql run`) and a temporary view over a sample file. Opening the pipeline graph
// and reloading the window (which revives the panel) must neither open nor change the state, nor
// evaluate the view, while diagnostics and the static graph work.
// Screenshots go to test-artifacts/e2e/restricted-*.png and are listed at the end.
// Run with scripts/e2e.mjs (installs the tools first) or `node --test test/e2e/restricted.test.mjs`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
    activeEditor, createRecorder, createWorkbench, openWorkspaceFile, repo, runCommand, waitUntil,
} from './harness.mjs';

let workspace;
let page;
let stateBefore;
const recorder = createRecorder('restricted-');
const workbench = createWorkbench(recorder);
const screenshot = name => recorder.screenshot(page, name);
const webview = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

/** Every file of the state folder with the SHA-256 of its bytes. */
function stateFiles() {
    const folder = path.join(workspace, '.pipeline-sql');
    if (!fs.existsSync(folder)) {
        return {};
    }
    return Object.fromEntries(fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter(e => e.isFile()).map(e => {
        const file = path.join(e.parentPath, e.name);
        return [path.relative(folder, file), createHash('sha256').update(fs.readFileSync(file)).digest('hex')];
    }));
}

before(async () => {
    page = await workbench.open({
        prepare: runDir => {
            workspace = path.join(runDir, 'restricted');
            fs.mkdirSync(path.join(workspace, 'data'), { recursive: true });
            fs.writeFileSync(path.join(workspace, 'data/people.csv'), 'id,name\n1,ada\n2,grace\n');
            const file = path.join(workspace, 'pipeline.sql');
            const pipeline = [
                "CREATE TEMPORARY VIEW staged AS SELECT id, upper(name) AS name FROM read_files('data/people.csv', format => 'csv');",
                'CREATE MATERIALIZED VIEW people AS SELECT * FROM staged;',
            ];
            fs.writeFileSync(file, pipeline.join('\n') + '\n');
            // The state a trusted run left (as a cloned repository may hold it).
            const run = spawnSync(process.execPath, [path.join(repo, 'out/cli.cjs'), 'run', workspace], { encoding: 'utf8' });
            assert.equal(run.status, 0, run.stderr);
            // Then a reader of a dataset nobody defines: a diagnostic the editor must still show.
            fs.writeFileSync(file, [...pipeline, 'CREATE MATERIALIZED VIEW report AS SELECT * FROM peple;'].join('\n') + '\n');
            stateBefore = stateFiles();
            assert.ok(Object.keys(stateBefore).some(f => f.endsWith('.duckdb')), JSON.stringify(stateBefore));
            return workspace;
        },
        restricted: true,
        treeItem: 'pipeline.sql',
    });
});

after(() => workbench.close({ title: 'e2e restricted' }));

test('in Restricted Mode diagnostics and the static graph work; the graph and a panel revived after a reload open no state and evaluate no view', { timeout: 300_000 }, async () => {
    // VS Code says the window is in Restricted Mode.
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    await openWorkspaceFile(page, 'pipeline.sql', 'CREATE TEMPORARY VIEW staged');
    // Diagnostics: the misspelt dataset is reported in the editor.
    await activeEditor(page).locator('.squiggly-error, .squiggly-warning').first().waitFor({ timeout: 90_000 });
    await screenshot('diagnostics');

    // The graph from the palette: the static model's datasets and the file the view reads.
    await runCommand(page, 'Pipeline SQL: Show Pipeline Graph');
    const labels = async () => (await webview().locator('svg.graph g.node').allTextContents().catch(() => [])).join(' | ');
    const shown = await waitUntil('the graph', labels, t => /staged/.test(t) && /people/.test(t) && /report/.test(t), 60_000);
    await screenshot('graph');
    assert.deepEqual(stateFiles(), stateBefore, `after the graph: ${shown}`);

    // Reload: the serializer revives the panel; it restores no state in an untrusted workspace.
    await page.waitForTimeout(1500);
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForEvent('load', { timeout: 60_000 });
    await page.getByRole('treeitem', { name: 'pipeline.sql' }).waitFor({ timeout: 120_000 });
    await page.locator('iframe.webview.ready').first().waitFor({ timeout: 90_000 });
    await page.waitForTimeout(5000);
    await screenshot('after-reload');
    const header = (await webview().locator('.run-header').textContent({ timeout: 10_000 }).catch(() => '')) ?? '';
    assert.doesNotMatch(header, /State of the last run|Succeeded/, header);

    // Nothing opened or wrote the state; no view was evaluated (its rows would be in the state).
    assert.deepEqual(stateFiles(), stateBefore);
});
