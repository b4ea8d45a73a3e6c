// Bundles the extension client, the language server, the CLI and the webview script.
// Usage: node esbuild.mjs [--watch] [--minify] [--no-cli-snapshot]
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const { version } = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');
/** `--no-cli-snapshot`: bundles only (the .vsix does not ship the CLI's start-up snapshot). */
const cliSnapshot = !process.argv.includes('--no-cli-snapshot');

/** Prints build results in the format of VS Code's esbuild problem matcher. */
const problemMatcher = {
    name: 'esbuild-problem-matcher',
    setup(build) {
        build.onStart(() => console.log('[watch] build started'));
        build.onEnd(result => {
            for (const { text, location } of result.errors) {
                console.error(`✘ [ERROR] ${text}`);
                if (location) {
                    console.error(`    ${location.file}:${location.line}:${location.column}:`);
                }
            }
            console.log('[watch] build finished');
        });
    },
};

/**
 * Loads DuckDB's Node binding when the engine first uses it, not when a bundle starts: `check`, the
 * language server and the editor features never run a query, and loading the native library and its
 * JavaScript costs a fifth of their start-up. The bundles reach `@duckdb/node-api` through this proxy
 * module; the first use of an export (`DuckDBInstance.create(...)`) loads the real module. Its export
 * names are read here, at build time, so that esbuild's interop can list them without loading it.
 * In a process started from the CLI's start-up snapshot the bundle's `require` is the snapshot
 * builder's, which loads only Node's modules; bin.ts then leaves a real one under a global symbol.
 */
const duckDbExports = Object.keys(createRequire(import.meta.url)('@duckdb/node-api'));
const lazyDuckDb = {
    name: 'lazy-duckdb',
    setup(build) {
        build.onResolve({ filter: /^@duckdb\/node-api$/ }, args => (args.namespace === 'lazy-duckdb' ? undefined : { path: 'duckdb', namespace: 'lazy-duckdb' }));
        build.onLoad({ filter: /.*/, namespace: 'lazy-duckdb' }, () => ({
            loader: 'js',
            contents: `let binding;
const load = () => (binding ??= (globalThis[Symbol.for('pipeline-sql.require')] ?? require)('@duckdb/node-api'));
const names = ${JSON.stringify(duckDbExports)};
module.exports = new Proxy({}, {
    get: (_, key) => load()[key],
    has: (_, key) => names.includes(key),
    ownKeys: () => names,
    getOwnPropertyDescriptor: (_, key) => (names.includes(key) ? { configurable: true, enumerable: true, writable: false, value: undefined } : undefined),
});`,
        }));
    },
};

const node = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: !minify,
    sourcesContent: false,
    minify,
    logLevel: 'warning',
    // The DuckDB binding loads a per-platform native library; it ships beside the bundle.
    external: ['vscode', '@duckdb/node-api', '@duckdb/node-bindings'],
    // Langium and its dependencies are ESM; `import.meta.url` is only used for paths we do not need.
    define: { 'import.meta.url': 'importMetaUrl', PIPELINE_SQL_VERSION: JSON.stringify(version) },
    banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    plugins: watch ? [problemMatcher, lazyDuckDb] : [lazyDuckDb],
};

// The preview webview's script and stylesheet: a browser IIFE with no imports at run time.
const browser = {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome114',
    sourcemap: !minify,
    sourcesContent: false,
    minify,
    logLevel: 'warning',
    plugins: watch ? [problemMatcher] : [],
};

const builds = [
    { ...node, entryPoints: { client: 'client/src/extension.ts' }, outdir: 'out', outExtension: { '.js': '.cjs' } },
    { ...node, entryPoints: { server: 'server/src/main.ts' }, outdir: 'out', outExtension: { '.js': '.cjs' } },
    { ...node, entryPoints: { 'cli-main': 'server/src/cli/bin.ts' }, outdir: 'out', outExtension: { '.js': '.cjs' } },
    // `pipeline-sql` itself: a few lines that start cli-main.cjs from its start-up snapshot (below) or load it.
    { ...node, entryPoints: { cli: 'server/src/cli/launcher.ts' }, outdir: 'out', outExtension: { '.js': '.cjs' }, banner: { js: '#!/usr/bin/env node' } },
    { ...browser, entryPoints: ['client/webview/main.ts', 'client/webview/preview.css'], outdir: 'out/webview' },
];

/**
 * The CLI's start-up snapshot (server/src/cli/launcher.ts): a V8 heap image of out/cli-main.cjs with its
 * language services ready, made by this Node.js, with a record of what it was made with. A snapshot
 * only loads into the Node.js that made it; the launcher checks the record and otherwise loads the
 * bundle. Not made in watch mode (the record is removed, so a rebuilt bundle is never paired with an
 * old snapshot).
 */
function buildCliSnapshot() {
    const bundle = 'out/cli-main.cjs';
    const blob = 'out/cli-snapshot.blob';
    const record = 'out/cli-snapshot.json';
    fs.rmSync(record, { force: true });
    if (watch || !cliSnapshot) {
        fs.rmSync(blob, { force: true });
        return;
    }
    const made = spawnSync(process.execPath, ['--snapshot-blob', `${blob}.tmp`, '--build-snapshot', bundle], { encoding: 'utf8' });
    if (made.status !== 0) {
        fs.rmSync(`${blob}.tmp`, { force: true });
        console.warn(`esbuild.mjs: the CLI's start-up snapshot was not made (the CLI starts without it):\n${made.stderr}`);
        return;
    }
    fs.renameSync(`${blob}.tmp`, blob);
    const bundled = fs.statSync(bundle);
    const written = fs.statSync(blob);
    fs.writeFileSync(record, JSON.stringify({
        node: process.version, platform: process.platform, arch: process.arch, v8: process.versions.v8,
        bundleSize: bundled.size, bundleMtimeMs: bundled.mtimeMs, blobSize: written.size, blobMtimeMs: written.mtimeMs,
    }, null, 2) + '\n');
}

const contexts = await Promise.all(builds.map(options => esbuild.context(options)));
if (watch) {
    buildCliSnapshot();
    await Promise.all(contexts.map(ctx => ctx.watch()));
} else {
    await Promise.all(contexts.map(ctx => ctx.rebuild()));
    await Promise.all(contexts.map(ctx => ctx.dispose()));
    buildCliSnapshot();
}
