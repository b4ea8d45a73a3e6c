// Bundles the extension client, the language server, the CLI and the webview script.
// Usage: node esbuild.mjs [--watch] [--minify]
import * as fs from 'node:fs';
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
    plugins: watch ? [problemMatcher] : [],
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
