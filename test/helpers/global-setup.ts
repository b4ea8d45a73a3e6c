import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the bundles once before the suite, so that tests of the shipped artefacts (the CLI and the
 * language server over stdio) run against what users get, also when vitest is started on its own.
 */
export default function setup(): void {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
}
