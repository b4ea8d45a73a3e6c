// Runs the real-VS-Code end-to-end suite (test/e2e/*.test.mjs): installs the tools first when they are
// missing (scripts/e2e-setup.sh: apt chromium + libkrb5-dev, Node 24 and code-server into .e2e-cache/),
// then runs the tests with node's test runner. The tests build and package the .vsix themselves.
// Screenshots land in test-artifacts/e2e/. Set PIPELINE_SQL_E2E_CACHE to keep the tools elsewhere.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolsReady } from '../test/e2e/harness.mjs';
import { packageExtension } from './package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

if (!toolsReady()) {
    console.log('[e2e] tools missing: running scripts/e2e-setup.sh');
    const setup = spawnSync('bash', [path.join(root, 'scripts/e2e-setup.sh')], { cwd: root, stdio: 'inherit' });
    if (setup.status !== 0) {
        console.error('[e2e] scripts/e2e-setup.sh failed.');
        process.exit(setup.status ?? 1);
    }
}
const setupSeconds = (Date.now() - started) / 1000;

// One package for all test files (each would otherwise build and pack its own).
let vsixDir;
const env = { ...process.env };
if (!env.PIPELINE_SQL_VSIX) {
    vsixDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-vsix-'));
    env.PIPELINE_SQL_VSIX = packageExtension(path.join(vsixDir, 'pipeline-sql.vsix'));
}
const tests = fs.readdirSync(path.join(root, 'test/e2e')).filter(f => f.endsWith('.test.mjs')).sort().map(f => path.join('test/e2e', f));
const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=1', ...tests], { cwd: root, stdio: 'inherit', env });
if (vsixDir) {
    fs.rmSync(vsixDir, { recursive: true, force: true });
}
console.log(`[e2e] setup ${setupSeconds.toFixed(1)} s, tests ${((Date.now() - started) / 1000 - setupSeconds).toFixed(1)} s`);
process.exit(run.status ?? 1);
