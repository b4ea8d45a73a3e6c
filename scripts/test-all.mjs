// The whole test suite, as the README's test command runs it: each step in order, stopping at
// the first failure. CI (.ci/run) installs the system packages first and then runs exactly this.
import { spawnSync } from 'node:child_process';

const steps = [
    ['generated code is up to date', 'npx langium generate && git diff --exit-code -- server/src/language/generated'],
    // ESLint, then no cycle of value imports between the project's modules (type-only imports are fine).
    ['lint', 'npx eslint . && node scripts/check-import-cycles.mjs'],
    ['typecheck', 'npx tsc --noEmit && npx tsc --noEmit -p tsconfig.webview.json'],
    ['build', 'node esbuild.mjs'],
    ['unit, integration and conformance tests', 'npx vitest run'],
    // The samples' own pipeline tests (samples/*/tests/*.test.yml), as a user runs them.
    ['pipeline tests of the samples', 'node out/cli.cjs test samples'],
    // Installs code-server, Node 24 and Chromium on first use (scripts/e2e-setup.sh), then packages the
    // .vsix and checks it in a real VS Code; screenshots in test-artifacts/e2e/.
    ['real VS Code end-to-end test (code-server + Chromium)', 'node scripts/e2e.mjs'],
];

for (const [name, command] of steps) {
    console.log(`\n=== ${name}: ${command}`);
    const started = Date.now();
    const result = spawnSync(command, { stdio: 'inherit', shell: true });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.status !== 0) {
        console.error(`\n=== FAILED: ${name} (${seconds} s)`);
        process.exit(result.status ?? 1);
    }
    console.log(`=== ok: ${name} (${seconds} s)`);
}
console.log('\nAll test steps passed.');
