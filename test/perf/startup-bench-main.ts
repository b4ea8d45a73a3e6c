/**
 * Start-up (issue 13 goal 1), whole processes as a user meets them, beside a bare `node -e 0` measured
 * in the same run (the ratio is what the goal bounds, so the machine's speed cancels out):
 * - `pipeline-sql check` of a one-statement pipeline (goal: at most 5x `node -e 0`);
 * - the language server from spawn to the first diagnostics of a file opened right after
 *   `initialized` (goal: at most 8x).
 * Medians of RUNS runs each, interleaved so that a change of machine load hits all three alike, in
 * wall-clock time and in CPU time (user + system of the process and what it started, read from
 * /proc on Linux): on a shared machine the CPU ratio holds when the wall-clock one does not.
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

interface Timing { wall: number; cpu: number }

/** CPU time in ms of this process's waited-for children (Linux; NaN elsewhere). */
function childrenCpuMs(): number {
    try {
        const stat = fs.readFileSync('/proc/self/stat', 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // Fields 16 and 17 of proc(5), cutime and cstime, in clock ticks (100 per second on Linux).
        return (Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
        return Number.NaN;
    }
}

function timeProcess(args: string[], expectStatus: number): Timing {
    const cpu = childrenCpuMs();
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
    const wall = performance.now() - started;
    if (result.status !== expectStatus) {
        throw new Error(`node ${args.join(' ')} exited with ${result.status}:\n${result.stderr}${result.stdout}`);
    }
    return { wall, cpu: childrenCpuMs() - cpu };
}

/** Wall time to the first diagnostics; CPU time of the server until it is stopped right after. */
async function timeServer(root: string, file: string): Promise<Timing> {
    const cpu = childrenCpuMs();
    const started = performance.now();
    const server = await startStdioServer(root);
    let wall = 0;
    try {
        const uri = pathToFileURL(file).toString();
        const published = server.diagnostics(uri);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'pipeline-sql', version: 1, text: fs.readFileSync(file, 'utf8') },
        });
        const diagnostics = await published;
        wall = performance.now() - started;
        if (diagnostics.diagnostics.some(d => d.severity === 1)) {
            throw new Error(`the one-statement pipeline has errors: ${JSON.stringify(diagnostics.diagnostics)}`);
        }
    } finally {
        await server.stop();
    }
    return { wall, cpu: childrenCpuMs() - cpu };
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

    const bare: Timing[] = [];
    const check: Timing[] = [];
    const server: Timing[] = [];
    for (let i = 0; i < RUNS; i++) {
        bare.push(timeProcess(['-e', '0'], 0));
        check.push(timeProcess([cli, 'check', root], 0));
        server.push(await timeServer(root, file));
    }
    const base = { wall: median(bare.map(t => t.wall)), cpu: median(bare.map(t => t.cpu)) };
    const row = (what: string, timings: Timing[], goal?: number): string => {
        const wall = timings.map(t => t.wall);
        const cpu = median(timings.map(t => t.cpu));
        const ratio = median(wall) / base.wall;
        const verdict = goal === undefined ? '' : ratio <= goal ? `≤ ${goal}x: met` : `≤ ${goal}x: NOT met`;
        const cpuColumns = Number.isNaN(cpu) ? '– | –' : `${fmt(cpu)} | ${(cpu / base.cpu).toFixed(1)}x`;
        return `| ${what} | ${fmt(median(wall))} | ${Math.round(Math.min(...wall))}–${Math.round(Math.max(...wall))} | ${ratio.toFixed(1)}x | ${cpuColumns} | ${verdict} |`;
    };
    console.log(`Whole processes, median of ${RUNS} interleaved runs (${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}).\n`);
    console.log('| process | median ms | range ms | vs `node -e 0` | CPU ms | CPU vs `node -e 0` | goal (wall) |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(row('`node -e 0` (baseline)', bare));
    console.log(row('`pipeline-sql check` of a one-statement pipeline', check, 5));
    console.log(row('language server: spawn → first diagnostics of an opened file', server, 8));
} finally {
    fs.rmSync(root, { recursive: true, force: true });
}
