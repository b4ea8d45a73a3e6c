/**
 * The CLI end to end (`npm run bench`, or `node --import tsx test/perf/cli-bench-main.ts`): the engine
 * benchmark's data — 1,000,000 change events over 100,000 keys (10% out of order, 5% deletes), from
 * Parquet and from CSV — run as a user runs it: `node out/cli.cjs run ROOT --json` on a generated
 * pipeline folder (process start, loading and validating the SQL with the language services, lowering,
 * the update, the JSON output). Side by side in the same run and on the same files: the same update
 * through the engine API (`runUpdate` on the lowered IR), and the hand-written DuckDB baselines (SCD1 with
 * arg_max, SCD2 with window functions). Every measurement runs in its own process; peak RSS and CPU
 * time of a CLI run come from /usr/bin/time when it exists. Not part of the test suite.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { withDuckDB } from '../helpers/duckdb.js';
import { runUpdate } from '../../engine/src/index.js';
import { createPipelineSqlServices } from '../../server/src/language/index.js';
import { lowerPipeline } from '../../server/src/lowering/index.js';
import { STATE_FILE } from '../../engine/src/state/state-store.js';
import { baselineSql, generateEvents, pipelineFolder, targetColumns, targetDigest, type Format, type StoredAs } from './cdc-events.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const here = fileURLToPath(import.meta.url);
const repoRoot = path.resolve(path.dirname(here), '..', '..');
const cli = path.join(repoRoot, 'out', 'cli.cjs');
const timeCommand = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;


interface Measurement {
    ms: number;
    /** CPU time of the measured process (user + system), when known. */
    cpuMs?: number;
    peakRssMb?: number;
    rows?: number;
    /** For incremental runs: the full run before. */
    fullMs?: number;
    /** The target's digest (targetDigest), to check that the CLI and the baseline agree. */
    digest?: string;
}

/** One `pipeline-sql run ROOT --json` process, timed from outside (wall) and by /usr/bin/time (CPU, peak RSS). */
function runCli(root: string): Measurement {
    const result = timeProcess([cli, 'run', root, '--json', '--limit', '10', '--now', '2025-01-01 00:00:00']);
    const output = JSON.parse(result.stdout) as { datasets: { target: { rowCount: number } } };
    return { ms: result.ms, cpuMs: result.cpuMs, peakRssMb: result.peakRssMb, rows: output.datasets.target.rowCount };
}

/** The benchmark's full-run events as a DuckDB table function call. */
function sourceSql(dataDir: string, format: Format): string {
    const file = path.join(dataDir, format, `part-00000.${format}`);
    return format === 'parquet'
        ? `read_parquet('${file}')`
        : `read_csv('${file}', header = true, auto_detect = false, columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'city': 'VARCHAR', 'amount': 'DOUBLE', 'seq': 'BIGINT', 'sys': 'BIGINT', 'op': 'VARCHAR'})`;
}

/**
 * The baseline as a whole process (test/perf/baseline-process.mjs: Node, DuckDB, the SQL), timed from
 * outside as the CLI is, with the digest of the target it persisted.
 */
async function measureBaselineProcess(storedAs: 'scd1' | 'scd2', format: Format, dataDir: string): Promise<Measurement> {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bench-baseline-'));
    try {
        const file = path.join(workDir, 'baseline.duckdb');
        const args = [path.join(path.dirname(here), 'baseline-process.mjs'), file, baselineSql(storedAs, sourceSql(dataDir, format))];
        const m = timeProcess(args);
        return { ...m, digest: await digestOf(file, 'target', storedAs) };
    } finally {
        fs.rmSync(workDir, { recursive: true, force: true });
    }
}

/** A Node process run to its end: wall time from outside, CPU and peak RSS from /usr/bin/time. */
function timeProcess(args: string[]): Measurement & { stdout: string } {
    const started = performance.now();
    const result = timeCommand
        ? spawnSync(timeCommand, ['-f', '__time %e %U %S %M', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
        : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - started;
    if (result.status !== 0) {
        throw new Error(`${args.join(' ').slice(0, 200)} failed:\n${result.stderr}${result.stdout}`);
    }
    const times = /__time ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr ?? '');
    return { ms, stdout: result.stdout, ...(times ? { cpuMs: (Number(times[2]) + Number(times[3])) * 1000, peakRssMb: Number(times[4]) / 1024 } : {}) };
}

/** The digest of a target table in a database file. */
async function digestOf(file: string, table: string, storedAs: StoredAs): Promise<string> {
    return targetDigest(file, table, targetColumns(storedAs));
}

/** Child mode: a baseline or an engine-API run in a process of its own. */
async function child(task: string, format: Format, dataDir: string, workDir: string): Promise<Measurement> {
    const source = sourceSql(dataDir, format);
    const cpu = process.cpuUsage();
    const started = performance.now();
    if (task.startsWith('baseline')) {
        // Plain DuckDB with the engine's session settings that matter for speed.
        await withDuckDB(async db => {
            await db.run('SET preserve_insertion_order = false');
            await db.run(baselineSql(task === 'baseline-scd1' ? 'scd1' : 'scd2', source));
        }, path.join(workDir, 'baseline.duckdb'));
    } else {
        // The engine API on the IR the CLI would run (lowered here, outside the measured time).
        const root = pipelineFolder(dataDir, format, task.replace('api-', '') as StoredAs);
        const cpuBefore = process.cpuUsage();
        const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
        const documents = [
            await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(path.join(root, 'transformations', 'cdc.sql'))),
            await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(path.join(root, 'samples', 'catalog.sql'))),
        ];
        await shared.workspace.DocumentBuilder.build(documents, { validation: true });
        const lowered = lowerPipeline(PipelineSql, { documents: [documents[0]], catalogDocuments: [documents[1]] });
        if (!lowered.ok) {
            throw new Error(JSON.stringify(lowered.problems));
        }
        const cpuLowering = process.cpuUsage(cpuBefore);
        const updateStarted = performance.now();
        const result = await runUpdate(lowered.pipeline, { stateDir: path.join(root, '.pipeline-sql'), samplesDir: path.join(root, 'samples'), limit: 10, now: '2025-01-01 00:00:00' });
        const ms = performance.now() - updateStarted;
        fs.rmSync(root, { recursive: true, force: true });
        if (!result.ok) {
            throw new Error(JSON.stringify(result.error));
        }
        const used = process.cpuUsage(cpu);
        return {
            ms, rows: result.datasets.target.rowCount, peakRssMb: process.resourceUsage().maxRSS / 1024,
            cpuMs: (used.user + used.system - cpuLowering.user - cpuLowering.system) / 1000,
        };
    }
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

function measureChild(task: string, format: Format, dataDir: string): Measurement {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `cli-bench-${task}-`));
    try {
        const result = spawnSync(process.execPath, ['--import', 'tsx', here, 'child', task, format, dataDir, workDir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
        if (result.status !== 0) {
            throw new Error(`${task} (${format}) failed:\n${result.stderr}${result.stdout}`);
        }
        return JSON.parse(result.stdout.trim().split('\n').pop()!) as Measurement;
    } finally {
        fs.rmSync(workDir, { recursive: true, force: true });
    }
}

async function measureCli(task: string, format: Format, dataDir: string): Promise<Measurement> {
    const storedAs = task.replace('cli-', '').replace('-incremental', '') as StoredAs;
    const root = pipelineFolder(dataDir, format, storedAs);
    try {
        const full = runCli(root);
        if (!task.endsWith('incremental')) {
            return storedAs === 'bitemporal' ? full : { ...full, digest: await digestOf(path.join(root, '.pipeline-sql', STATE_FILE), 'ds.target', storedAs) };
        }
        fs.copyFileSync(path.join(dataDir, format, `part-00001.${format}`), path.join(root, 'samples', 'events', `part-00001.${format}`));
        return { ...runCli(root), fullMs: full.ms };
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
}

/** The median run of RUNS, by wall time (its CPU time and peak RSS with it). */
async function median(measure: () => Measurement | Promise<Measurement>): Promise<Measurement> {
    const all: Measurement[] = [];
    for (let i = 0; i < RUNS; i++) {
        all.push(await measure());
    }
    return [...all].sort((a, b) => a.ms - b.ms)[Math.floor((all.length - 1) / 2)];
}

async function main(): Promise<void> {
    if (process.argv[2] === 'child') {
        const [task, format, dataDir, workDir] = process.argv.slice(3) as [string, Format, string, string];
        process.stdout.write(JSON.stringify(await child(task, format, dataDir, workDir)) + '\n');
        return;
    }
    if (!fs.existsSync(cli)) {
        throw new Error(`${cli} is missing: run npm run build first.`);
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-bench-data-'));
    try {
        await generateEvents(dataDir, EVENTS, KEYS);
        console.log(`## CLI end to end: ${EVENTS.toLocaleString('en')} change events over ${KEYS.toLocaleString('en')} keys (10% out of order, 5% deletes); median of ${RUNS}\n`);
        console.log('`pipeline-sql run ROOT --json` as a process (start, load and validate the SQL, lower, update, print) beside the hand-written DuckDB');
        console.log('SQL as a process of its own (Node loads DuckDB, runs the SQL, persists the table: test/perf/baseline-process.mjs), the same');
        console.log('SQL timed inside a process, and the update through the engine API. Wall ms (CPU ms); process CPU and peak RSS from /usr/bin/time.');
        console.log('Both processes persist the same target: the digests (count, XOR of row hashes) are compared.\n');
        let disagree = false;
        for (const format of ['parquet', 'csv'] as const) {
            const proc1 = await median(() => measureBaselineProcess('scd1', format, dataDir));
            const proc2 = await median(() => measureBaselineProcess('scd2', format, dataDir));
            const base1 = await median(() => measureChild('baseline-scd1', format, dataDir));
            const base2 = await median(() => measureChild('baseline-scd2', format, dataDir));
            const ms = (m: Measurement) => `${m.ms.toFixed(0)}${m.cpuMs !== undefined ? ` (${m.cpuMs.toFixed(0)})` : ''}`;
            const mb = (m: Measurement) => (m.peakRssMb !== undefined ? m.peakRssMb.toFixed(0) : 'n/a');
            const ratio = (a: Measurement, b: Measurement) => `${(a.ms / b.ms).toFixed(2)}${a.cpuMs !== undefined && b.cpuMs ? ` (${(a.cpuMs / b.cpuMs).toFixed(2)})` : ''}`;
            console.log(`### ${format}\n`);
            console.log('| measurement | wall ms (cpu ms) | vs baseline process, wall (cpu) | CLI vs API (wall) | peak RSS MB | target rows | same target as the baseline |');
            console.log('|---|---|---|---|---|---|---|');
            console.log(`| baseline SCD1 (arg_max), whole process | ${ms(proc1)} | 1.00 | | ${mb(proc1)} | ${proc1.digest?.split(':')[0]} | |`);
            console.log(`| baseline SCD2 (window functions), whole process | ${ms(proc2)} | 1.00 | | ${mb(proc2)} | ${proc2.digest?.split(':')[0]} | |`);
            console.log(`| baseline SCD1, the SQL alone (in a running process) | ${ms(base1)} | ${ratio(base1, proc1)} | | ${mb(base1)} | | |`);
            console.log(`| baseline SCD2, the SQL alone (in a running process) | ${ms(base2)} | ${ratio(base2, proc2)} | | ${mb(base2)} | | |`);
            for (const storedAs of ['scd1', 'scd2', 'bitemporal'] as const) {
                const api = await median(() => measureChild(`api-${storedAs}`, format, dataDir));
                const viaCli = await median(() => measureCli(`cli-${storedAs}`, format, dataDir));
                const baseline = storedAs === 'scd1' ? proc1 : proc2;
                const label = storedAs === 'bitemporal' ? 'BITEMPORAL (vs the SCD2 baseline)' : storedAs.toUpperCase();
                const same = storedAs === 'bitemporal' ? '' : viaCli.digest === baseline.digest ? 'yes' : `**no** (${viaCli.digest} vs ${baseline.digest})`;
                disagree ||= same.startsWith('**no');
                console.log(`| engine API ${label} | ${ms(api)} | ${ratio(api, baseline)} | | ${mb(api)} | ${api.rows} | |`);
                console.log(`| CLI ${label} | ${ms(viaCli)} | **${ratio(viaCli, baseline)}** | ${(viaCli.ms / api.ms).toFixed(2)} | ${mb(viaCli)} | ${viaCli.rows} | ${same} |`);
            }
            for (const storedAs of ['scd1', 'scd2'] as const) {
                const inc = await median(() => measureCli(`cli-${storedAs}-incremental`, format, dataDir));
                console.log(`| CLI ${storedAs.toUpperCase()}, +1% events after a full run | ${ms(inc)} | **${(inc.ms / inc.fullMs!).toFixed(3)} of the full CLI run (${inc.fullMs!.toFixed(0)} ms)** | | ${mb(inc)} | ${inc.rows} | |`);
            }
            console.log('');
        }
        console.log('Aims (issue 13): a CLI full run within 1.3x of the baseline process; a +1% update through the CLI within 35% of a full CLI run.');
        console.log('A CLI run adds a fixed cost to the engine\'s: Node start, the language services (grammar, parser), validation and lowering.');
        if (disagree) {
            process.exitCode = 1;
        }
    } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

await main();
