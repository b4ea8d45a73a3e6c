/**
 * Start-up (issue 13 goal 1), whole processes as a user meets them, beside a bare `node -e 0` measured
 * in the same run (the ratio is what the goal bounds, so the machine's speed cancels out):
 * - `pipeline-sql check` of a one-statement pipeline (goal: at most 5x `node -e 0`);
 * - the language server from spawn to the first diagnostics of a file opened right after
 *   `initialized` (goal: at most 8x).
 * Medians of RUNS runs each, interleaved so that a change of machine load hits all three alike.
 * Run by `npm run bench` (test/perf/run.ts), or `node --import tsx test/perf/startup-bench-main.ts`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node.js';
import { repoRoot, startStdioServer } from '../helpers/lsp-client.js';
import { fmt } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const cli = path.join(repoRoot, 'out', 'cli.cjs');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeProcess(args: string[], expectStatus: number): number {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
    const ms = performance.now() - started;
    if (result.status !== expectStatus) {
        throw new Error(`node ${args.join(' ')} exited with ${result.status}:\n${result.stderr}${result.stdout}`);
    }
    return ms;
}

async function timeServer(root: string, file: string): Promise<number> {
    const started = performance.now();
    const server = await startStdioServer(root);
    try {
        const uri = pathToFileURL(file).toString();
        const published = server.diagnostics(uri);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'pipeline-sql', version: 1, text: fs.readFileSync(file, 'utf8') },
        });
        const diagnostics = await published;
        const ms = performance.now() - started;
        if (diagnostics.diagnostics.some(d => d.severity === 1)) {
            throw new Error(`the one-statement pipeline has errors: ${JSON.stringify(diagnostics.diagnostics)}`);
        }
        return ms;
    } finally {
        await server.stop();
    }
}

if (!fs.existsSync(cli)) {
    throw new Error(`${cli} is missing: run npm run build first.`);
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-bench-'));
try {
    fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: startup\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(root, 'transformations'));
    const file = path.join(root, 'transformations', 'orders.sql');
    fs.writeFileSync(file, "CREATE OR REFRESH MATERIALIZED VIEW orders AS SELECT 1 AS id, 'open' AS status;\n");

    const bare: number[] = [];
    const check: number[] = [];
    const server: number[] = [];
    for (let i = 0; i < RUNS; i++) {
        bare.push(timeProcess(['-e', '0'], 0));
        check.push(timeProcess([cli, 'check', root], 0));
        server.push(await timeServer(root, file));
    }
    const base = median(bare);
    const row = (what: string, xs: number[], goal?: number): string => {
        const ratio = median(xs) / base;
        const verdict = goal === undefined ? '' : ratio <= goal ? `≤ ${goal}x: met` : `≤ ${goal}x: NOT met`;
        return `| ${what} | ${fmt(median(xs))} | ${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} | ${ratio.toFixed(1)}x | ${verdict} |`;
    };
    console.log(`Whole processes, median of ${RUNS} interleaved runs (${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}).\n`);
    console.log('| process | median ms | range ms | vs `node -e 0` | goal |');
    console.log('|---|---|---|---|---|');
    console.log(row('`node -e 0` (baseline)', bare));
    console.log(row('`pipeline-sql check` of a one-statement pipeline', check, 5));
    console.log(row('language server: spawn → first diagnostics of an opened file', server, 8));
} finally {
    fs.rmSync(root, { recursive: true, force: true });
}
