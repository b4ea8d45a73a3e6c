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
import { cdcEventsSql, eventsSchema } from './cdc-events.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const INCREMENT = Math.round(EVENTS / 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const here = fileURLToPath(import.meta.url);
const repoRoot = path.resolve(path.dirname(here), '..', '..');
const cli = path.join(repoRoot, 'out', 'cli.cjs');
const timeCommand = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

type Format = 'parquet' | 'csv';
type StoredAs = 'scd1' | 'scd2' | 'bitemporal';

interface Measurement {
    ms: number;
    /** CPU time of the measured process (user + system), when known. */
    cpuMs?: number;
    peakRssMb?: number;
    rows?: number;
    /** For incremental runs: the full run before. */
    fullMs?: number;
}

async function generate(dir: string): Promise<void> {
    await withDuckDB(async db => {
        for (const format of ['parquet', 'csv'] as const) {
            const options = format === 'parquet' ? '(FORMAT parquet)' : '(FORMAT csv, HEADER true)';
            fs.mkdirSync(path.join(dir, format), { recursive: true });
            await db.run(`COPY (${cdcEventsSql(0, EVENTS, KEYS)}) TO '${path.join(dir, format, `part-00000.${format}`)}' ${options}`);
            await db.run(`COPY (${cdcEventsSql(EVENTS, INCREMENT, KEYS)}) TO '${path.join(dir, format, `part-00001.${format}`)}' ${options}`);
        }
    });
}

/** The pipeline as a user writes it: an AUTO CDC flow from the sample table `events`. */
function pipelineSql(storedAs: StoredAs): string {
    const stored = { scd1: 'SCD TYPE 1', scd2: 'SCD TYPE 2', bitemporal: 'BITEMPORAL' }[storedAs];
    return `CREATE OR REFRESH STREAMING TABLE target;

CREATE FLOW target_cdc AS AUTO CDC INTO target
FROM STREAM(events)
KEYS (id)
APPLY AS DELETE WHEN op = 'D'
SEQUENCE BY seq
${storedAs === 'bitemporal' ? 'SYSTEM SEQUENCE BY sys\n' : ''}COLUMNS * EXCEPT (${storedAs === 'scd1' ? 'op, sys' : 'op, seq, sys'})
STORED AS ${stored};
`;
}

/** A pipeline folder: spark-pipeline.yml, transformations/cdc.sql, samples/catalog.sql and samples/events/. */
function pipelineFolder(dataDir: string, format: Format, storedAs: StoredAs): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `cli-bench-${storedAs}-`));
    fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: bench\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(root, 'transformations'));
    fs.writeFileSync(path.join(root, 'transformations', 'cdc.sql'), pipelineSql(storedAs));
    fs.mkdirSync(path.join(root, 'samples', 'events'), { recursive: true });
    fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'), `CREATE TABLE events (${eventsSchema}) USING ${format.toUpperCase()} LOCATION 'events';\n`);
    fs.copyFileSync(path.join(dataDir, format, `part-00000.${format}`), path.join(root, 'samples', 'events', `part-00000.${format}`));
    return root;
}

/** One `pipeline-sql run ROOT --json` process, timed from outside (wall) and by /usr/bin/time (CPU, peak RSS). */
function runCli(root: string): Measurement {
    const args = [cli, 'run', root, '--json', '--limit', '10', '--now', '2025-01-01 00:00:00'];
    const started = performance.now();
    const result = timeCommand
        ? spawnSync(timeCommand, ['-f', '__time %e %U %S %M', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
        : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = performance.now() - started;
    if (result.status !== 0) {
        throw new Error(`pipeline-sql run failed:\n${result.stderr}${result.stdout}`);
    }
    const output = JSON.parse(result.stdout) as { datasets: { target: { rowCount: number } } };
    const times = /__time ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(result.stderr ?? '');
    return {
        ms,
        rows: output.datasets.target.rowCount,
        ...(times ? { cpuMs: (Number(times[2]) + Number(times[3])) * 1000, peakRssMb: Number(times[4]) / 1024 } : {}),
    };
}

/** Child mode: a baseline or an engine-API run in a process of its own. */
async function child(task: string, format: Format, dataDir: string, workDir: string): Promise<Measurement> {
    const file = path.join(dataDir, format, `part-00000.${format}`);
    const source = format === 'parquet'
        ? `read_parquet('${file}')`
        : `read_csv('${file}', header = true, auto_detect = false, columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'city': 'VARCHAR', 'amount': 'DOUBLE', 'seq': 'BIGINT', 'sys': 'BIGINT', 'op': 'VARCHAR'})`;
    const cpu = process.cpuUsage();
    const started = performance.now();
    if (task.startsWith('baseline')) {
        const sql = task === 'baseline-scd1'
            ? `CREATE TABLE scd1 AS SELECT id, w.name, w.city, w.amount, w.seq FROM (SELECT id, arg_max(struct_pack(name, city, amount, seq, op), seq) AS w FROM ${source} GROUP BY id) WHERE w.op <> 'D'`
            : `CREATE TABLE scd2 AS SELECT id, name, city, amount, seq AS __START_AT, lead(seq) OVER (PARTITION BY id ORDER BY seq) AS __END_AT, op FROM ${source} QUALIFY op <> 'D'`;
        // Plain DuckDB with the engine's session settings that matter for speed.
        await withDuckDB(async db => {
            await db.run('SET preserve_insertion_order = false');
            await db.run(sql);
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

function measureCli(task: string, format: Format, dataDir: string): Measurement {
    const storedAs = task.replace('cli-', '').replace('-incremental', '') as StoredAs;
    const root = pipelineFolder(dataDir, format, storedAs);
    try {
        const full = runCli(root);
        if (!task.endsWith('incremental')) {
            return full;
        }
        fs.copyFileSync(path.join(dataDir, format, `part-00001.${format}`), path.join(root, 'samples', 'events', `part-00001.${format}`));
        return { ...runCli(root), fullMs: full.ms };
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
}

function best(measure: () => Measurement): Measurement {
    const all = Array.from({ length: RUNS }, measure);
    return all.reduce((a, b) => (b.ms < a.ms ? b : a));
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
        await generate(dataDir);
        console.log(`## CLI end to end: ${EVENTS.toLocaleString('en')} change events over ${KEYS.toLocaleString('en')} keys (10% out of order, 5% deletes); best of ${RUNS}\n`);
        console.log('`pipeline-sql run ROOT --json` as a process (start, load and validate the SQL, lower, update, print) beside the same update through');
        console.log('the engine API and the hand-written DuckDB baselines. Wall ms (CPU ms); CLI CPU and peak RSS from /usr/bin/time.\n');
        for (const format of ['parquet', 'csv'] as const) {
            const base1 = best(() => measureChild('baseline-scd1', format, dataDir));
            const base2 = best(() => measureChild('baseline-scd2', format, dataDir));
            const ms = (m: Measurement) => `${m.ms.toFixed(0)}${m.cpuMs !== undefined ? ` (${m.cpuMs.toFixed(0)})` : ''}`;
            const mb = (m: Measurement) => (m.peakRssMb !== undefined ? m.peakRssMb.toFixed(0) : 'n/a');
            const ratio = (a: Measurement, b: Measurement) => (a.ms / b.ms).toFixed(2);
            console.log(`### ${format}\n`);
            console.log('| measurement | wall ms (cpu ms) | vs baseline (wall) | CLI vs API (wall) | peak RSS MB | target rows |');
            console.log('|---|---|---|---|---|---|');
            console.log(`| baseline SCD1 (arg_max) | ${ms(base1)} | 1.00 | | ${mb(base1)} | |`);
            console.log(`| baseline SCD2 (window functions) | ${ms(base2)} | 1.00 | | ${mb(base2)} | |`);
            for (const storedAs of ['scd1', 'scd2', 'bitemporal'] as const) {
                const api = best(() => measureChild(`api-${storedAs}`, format, dataDir));
                const viaCli = best(() => measureCli(`cli-${storedAs}`, format, dataDir));
                const baseline = storedAs === 'scd1' ? base1 : base2;
                const label = storedAs === 'bitemporal' ? 'BITEMPORAL (vs the SCD2 baseline)' : storedAs.toUpperCase();
                console.log(`| engine API ${label} | ${ms(api)} | ${ratio(api, baseline)} | | ${mb(api)} | ${api.rows} |`);
                console.log(`| CLI ${label} | ${ms(viaCli)} | **${ratio(viaCli, baseline)}** | ${ratio(viaCli, api)} | ${mb(viaCli)} | ${viaCli.rows} |`);
            }
            for (const storedAs of ['scd1', 'scd2'] as const) {
                const inc = best(() => measureCli(`cli-${storedAs}-incremental`, format, dataDir));
                console.log(`| CLI ${storedAs.toUpperCase()}, +1% events after a full run | ${ms(inc)} | **${(inc.ms / inc.fullMs!).toFixed(3)} of the full CLI run (${inc.fullMs!.toFixed(0)} ms)** | | ${mb(inc)} | ${inc.rows} |`);
            }
            console.log('');
        }
        console.log('Aims (issue 5): within 1.5x of the baseline on a full run; an incremental 1% update under 10% of a full run.');
        console.log('A CLI run adds a fixed cost to the engine\'s: Node start, the language services (grammar, parser), validation and lowering.');
    } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
}

await main();
