/**
 * Runs through the language server (`npm run bench`, or `node --import tsx test/perf/lsp-run-bench-main.ts`):
 * the engine benchmark's data — 1,000,000 change events over 100,000 keys, Parquet — in a pipeline
 * folder opened in the bundled server (`node out/cli.cjs lsp --stdio`, as VS Code starts it). Each
 * round: a full run (`pipelineSql/runPipeline`), then 1% more events arrive (a new file) and the next
 * run is timed: the +1% incremental update. Side by side in the same run: the same with the server
 * keeping nothing open between runs (`PIPELINE_SQL_STATE_IDLE_MS=0`, the state opened and closed by
 * every run, as before the keeper). Wall time of the request, CPU time of the server process during it
 * (/proc), the server's peak RSS. Medians over BENCH_RUNS rounds (3), the variants interleaved.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node.js';
import { RunPipelineRequest, type RunPipelineParams } from '../../common/protocol.js';
import { startStdioServer } from '../helpers/lsp-client.js';
import { generateEvents, pipelineFolder, type StoredAs } from './cdc-events.js';
import { percentile } from './stats.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time (user + system) of a process so far, from /proc (undefined elsewhere). */
function processCpuMs(pid: number): number | undefined {
    try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
    } catch {
        return undefined;
    }
}

/** Peak resident memory of a process (VmHWM), in MB. */
function peakRssMb(pid: number): number | undefined {
    try {
        const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        return match ? Number(match[1]) / 1024 : undefined;
    } catch {
        return undefined;
    }
}

interface Round {
    fullMs: number;
    fullCpuMs?: number;
    incMs: number;
    incCpuMs?: number;
    peakRssMb?: number;
    rows: number;
}

/** One round in a fresh server: a full run, 1% more events, the incremental run. */
async function round(dataDir: string, storedAs: StoredAs, keep: boolean): Promise<Round> {
    const root = pipelineFolder(dataDir, 'parquet', storedAs);
    const saved = process.env.PIPELINE_SQL_STATE_IDLE_MS;
    process.env.PIPELINE_SQL_STATE_IDLE_MS = keep ? '' : '0';
    const server = await startStdioServer(root);
    if (saved === undefined) {
        delete process.env.PIPELINE_SQL_STATE_IDLE_MS;
    } else {
        process.env.PIPELINE_SQL_STATE_IDLE_MS = saved;
    }
    try {
        const file = path.join(root, 'transformations', 'cdc.sql');
        const uri = `file://${file}`;
        const validated = server.diagnostics(uri);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'pipeline-sql', version: 1, text: fs.readFileSync(file, 'utf8') },
        });
        await validated;
        const pid = server.process.pid!;
        const params: RunPipelineParams = { uri, scope: 'pipeline', fullRefresh: false, maxRows: 100 };
        const timed = async () => {
            const cpu = processCpuMs(pid);
            const started = performance.now();
            const outcome = await server.connection.sendRequest(RunPipelineRequest, params);
            const ms = performance.now() - started;
            const used = processCpuMs(pid);
            if (!outcome.ok) {
                throw new Error(`run failed: ${JSON.stringify(outcome.error)}`);
            }
            const target = outcome.datasets.find(d => d.name === 'target');
            return { ms, cpuMs: cpu !== undefined && used !== undefined ? used - cpu : undefined, rows: target?.rowCount ?? -1 };
        };
        const full = await timed();
        fs.copyFileSync(path.join(dataDir, 'parquet', 'part-00001.parquet'), path.join(root, 'samples', 'events', 'part-00001.parquet'));
        const inc = await timed();
        return { fullMs: full.ms, fullCpuMs: full.cpuMs, incMs: inc.ms, incCpuMs: inc.cpuMs, peakRssMb: peakRssMb(pid), rows: inc.rows };
    } finally {
        await server.stop();
        await new Promise(resolve => setTimeout(resolve, 200));
        fs.rmSync(root, { recursive: true, force: true });
    }
}

const median = (xs: number[]): number => percentile(xs, 50);
const fmt = (n: number | undefined, digits = 0): string => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));

async function main(): Promise<void> {
    const cli = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'out', 'cli.cjs');
    if (!fs.existsSync(cli)) {
        throw new Error(`${cli} is missing: run npm run build first.`);
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-bench-data-'));
    try {
        await generateEvents(dataDir, EVENTS, KEYS);
        console.log(`## Runs through the language server: ${EVENTS.toLocaleString('en')} change events over ${KEYS.toLocaleString('en')} keys (Parquet), +1% in a new file; median of ${RUNS} rounds\n`);
        console.log('`pipelineSql/runPipeline` on the bundled server: wall ms of the request (CPU ms of the server process during it); the');
        console.log('incremental update as a share of the full run before it, in the same server. "state kept open": the server keeps the');
        console.log('state database open between runs (DatabaseKeeper); "opened per run": PIPELINE_SQL_STATE_IDLE_MS=0, the baseline.\n');
        console.log('| flow | state | full run ms (cpu) | +1% update ms (cpu) | +1% / full, wall (cpu) | server peak RSS MB | target rows |');
        console.log('|---|---|---|---|---|---|---|');
        for (const storedAs of ['scd1', 'scd2'] as const) {
            const rounds = new Map<boolean, Round[]>([[true, []], [false, []]]);
            for (let i = 0; i < RUNS; i++) {
                for (const keep of [true, false]) {
                    rounds.get(keep)!.push(await round(dataDir, storedAs, keep));
                }
            }
            for (const keep of [true, false]) {
                const all = rounds.get(keep)!;
                const m = (f: (r: Round) => number | undefined) => {
                    const values = all.map(f).filter((v): v is number => v !== undefined);
                    return values.length ? median(values) : undefined;
                };
                const share = m(r => r.incMs / r.fullMs)!;
                const cpuShare = m(r => (r.incCpuMs !== undefined && r.fullCpuMs ? r.incCpuMs / r.fullCpuMs : undefined));
                console.log(`| ${storedAs.toUpperCase()} | ${keep ? 'kept open' : 'opened per run'} | ${fmt(m(r => r.fullMs))} (${fmt(m(r => r.fullCpuMs))}) | `
                    + `${fmt(m(r => r.incMs))} (${fmt(m(r => r.incCpuMs))}) | **${fmt(share, 3)}** (${fmt(cpuShare, 3)}) | ${fmt(Math.max(...all.map(r => r.peakRssMb ?? 0)))} | ${all[0].rows} |`);
            }
        }
        console.log('\nAim (issue 13): a +1% update through the language server within 10% of a full run.');
    } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

await main();
