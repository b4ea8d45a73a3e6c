// Builds the extension and packs it into a .vsix for this machine's platform, then checks the package.
// Usage: node scripts/package.mjs [--out <file.vsix>]      (npm run package)
//        node scripts/package.mjs --check <file.vsix>      (only check an existing package)
//
// The server bundle loads DuckDB's native binding at run time (`@duckdb/node-api`, `@duckdb/node-bindings`
// and the platform's `@duckdb/node-bindings-<platform>` are external in esbuild.mjs), so the package carries
// those folders under node_modules/ and is platform-specific (`vsce --target`). package.json keeps
// `"vsce": {"dependencies": false}` so that a bare `vsce package` never sweeps node_modules in; here we ask
// vsce for the dependency walk (`--dependencies`) and .vscodeignore lets only the DuckDB folders through.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The vsce target and the DuckDB binding package of the running platform. */
export function platformTarget(platform = process.platform, arch = process.arch, musl = isMusl()) {
    const target = `${musl && platform === 'linux' ? 'alpine' : platform}-${arch}`;
    const binding = `@duckdb/node-bindings-${platform}-${arch}${musl ? '-musl' : ''}`;
    return { target, binding };
}

function isMusl() {
    // glibc reports its version in the process report; musl does not.
    return process.platform === 'linux' && !process.report?.getReport().header.glibcVersionRuntime;
}

/** Lists the file names in a zip archive (a .vsix) by reading its central directory. */
export function listZipEntries(file) {
    const data = fs.readFileSync(file);
    // The end-of-central-directory record sits in the last 22 bytes plus an optional comment (< 64 KiB).
    let eocd = -1;
    for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
        if (data.readUInt32LE(i) === 0x06054b50) {
            eocd = i;
            break;
        }
    }
    if (eocd < 0) {
        throw new Error(`${file}: not a zip archive (no end of central directory record).`);
    }
    const count = data.readUInt16LE(eocd + 10);
    let offset = data.readUInt32LE(eocd + 16);
    const names = [];
    for (let n = 0; n < count; n++) {
        if (data.readUInt32LE(offset) !== 0x02014b50) {
            throw new Error(`${file}: corrupt central directory at byte ${offset}.`);
        }
        const nameLength = data.readUInt16LE(offset + 28);
        const extraLength = data.readUInt16LE(offset + 30);
        const commentLength = data.readUInt16LE(offset + 32);
        names.push(data.toString('utf8', offset + 46, offset + 46 + nameLength));
        offset += 46 + nameLength + extraLength + commentLength;
    }
    return names;
}

/**
 * Checks the entries of a packaged extension: the bundles, grammar and manifests are there, the DuckDB
 * runtime packages (with the platform's native binding) are there, and nothing else of node_modules,
 * no sources, tests or source maps. Returns the list of problems (empty when the package is right).
 */
export function checkVsixEntries(entries, binding) {
    const set = new Set(entries);
    const problems = [];
    const required = [
        'extension/package.json',
        'extension/out/client.cjs',
        'extension/out/server.cjs',
        'extension/out/cli.cjs',
        'extension/out/cli-main.cjs',
        'extension/out/webview/main.js',
        'extension/out/webview/preview.css',
        'extension/syntaxes/pipeline-sql.tmLanguage.json',
        'extension/schemas/spark-pipeline.schema.json',
        'extension/schemas/bundle-pipelines.schema.json',
        'extension/language-configuration.json',
        'extension/readme.md',
        'extension/LICENSE.txt',
        'extension/node_modules/@duckdb/node-api/package.json',
        'extension/node_modules/@duckdb/node-bindings/package.json',
        'extension/node_modules/@duckdb/node-bindings/duckdb.js',
        `extension/node_modules/${binding}/duckdb.node`,
    ];
    for (const name of required) {
        // vsce stores README.md as readme.md on some versions and keeps the case on others.
        if (!set.has(name) && !(name.endsWith('readme.md') && set.has(name.replace('readme.md', 'README.md')))) {
            problems.push(`missing ${name}`);
        }
    }
    const allowedModules = ['@duckdb/node-api/', '@duckdb/node-bindings/', '@duckdb/node-bindings-', 'detect-libc/'];
    for (const name of entries) {
        const rel = name.replace(/^extension\//, '');
        if (rel.startsWith('node_modules/')) {
            if (!allowedModules.some(m => rel.slice('node_modules/'.length).startsWith(m))) {
                problems.push(`unexpected dependency ${name}`);
            }
        } else if (/^(client|server|engine|common|test|scripts|samples)\//.test(rel) || /\.(ts|map)$/.test(rel)) {
            problems.push(`unexpected source file ${name}`);
        }
    }
    return problems;
}

function run(command, args) {
    console.log(`> ${[command, ...args].join(' ')}`);
    const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (result.status !== 0) {
        throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}.`);
    }
}

/** Builds (production grammar, minified bundles), packs the .vsix and checks it; returns its path. */
export function packageExtension(outFile) {
    const { version, name } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const { target, binding } = platformTarget();
    if (!fs.existsSync(path.join(root, 'node_modules', binding, 'duckdb.node'))) {
        throw new Error(`node_modules/${binding}/duckdb.node is missing: run npm ci on this platform first.`);
    }
    const vsix = path.resolve(outFile ?? path.join(root, `${name}-${target}-${version}.vsix`));
    // A clean out/: no stale source maps or bundles from development builds get packed.
    fs.rmSync(path.join(root, 'out'), { recursive: true, force: true });
    const langium = path.join(root, 'node_modules/langium-cli/bin/langium.js');
    try {
        run(process.execPath, [langium, 'generate', '--mode', 'production']);
        run(process.execPath, ['esbuild.mjs', '--minify', '--no-cli-snapshot']);
    } finally {
        // The committed generated code is the development form; put it back.
        run(process.execPath, [langium, 'generate']);
    }
    const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
    // The README links to docs/ and engine/README.md by relative paths; the project has no public
    // repository URL for vsce to rewrite them to, so they stay as written.
    run(process.execPath, [vsce, 'package', '--dependencies', '--no-rewrite-relative-links', '--target', target, '--out', vsix]);
    const problems = checkVsixEntries(listZipEntries(vsix), binding);
    if (problems.length > 0) {
        throw new Error(`${vsix} is not packaged right:\n  ${problems.join('\n  ')}`);
    }
    console.log(`Packaged and checked ${path.relative(process.cwd(), vsix)} (${target}, ${(fs.statSync(vsix).size / 1048576).toFixed(1)} MiB).`);
    return vsix;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
    const args = process.argv.slice(2);
    try {
        if (args[0] === '--check') {
            const problems = checkVsixEntries(listZipEntries(args[1]), platformTarget().binding);
            if (problems.length > 0) {
                throw new Error(`${args[1]} is not packaged right:\n  ${problems.join('\n  ')}`);
            }
            console.log(`${args[1]}: ok`);
        } else {
            const out = args[0] === '--out' ? args[1] : undefined;
            packageExtension(out);
        }
    } catch (error) {
        console.error(`package: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
    }
}
