// Bundles the extension client, the language server, the CLI and the webview script.
// Usage: node esbuild.mjs [--watch] [--minify]
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const { version } = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

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
 */
const duckDbExports = Object.keys(createRequire(import.meta.url)('@duckdb/node-api'));
const lazyDuckDb = {
    name: 'lazy-duckdb',
    setup(build) {
        build.onResolve({ filter: /^@duckdb\/node-api$/ }, args => (args.namespace === 'lazy-duckdb' ? undefined : { path: 'duckdb', namespace: 'lazy-duckdb' }));
        build.onLoad({ filter: /.*/, namespace: 'lazy-duckdb' }, () => ({
            loader: 'js',
            contents: `let binding;
const load = () => (binding ??= require('@duckdb/node-api'));
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
    {
        ...node, entryPoints: { cli: 'server/src/cli/bin.ts' }, outdir: 'out', outExtension: { '.js': '.cjs' },
        banner: { js: "#!/usr/bin/env node\nconst importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    },
    { ...browser, entryPoints: ['client/webview/main.ts', 'client/webview/preview.css'], outdir: 'out/webview' },
];

const contexts = await Promise.all(builds.map(options => esbuild.context(options)));
if (watch) {
    await Promise.all(contexts.map(ctx => ctx.watch()));
} else {
    await Promise.all(contexts.map(ctx => ctx.rebuild()));
    await Promise.all(contexts.map(ctx => ctx.dispose()));
}
