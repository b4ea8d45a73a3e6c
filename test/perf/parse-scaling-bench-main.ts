/**
 * Parse time against nesting and size (issue 13 goal 2), each beside its baseline from the same run:
 * - nesting: a view whose expression is nested 25 parentheses deep, and a 12-level arithmetic
 *   expression, parsed and validated in one language-service instance (median of warm runs), against
 *   the same view nested once (goal: within 1.5x); 1,000 levels, which must give the "nested too
 *   deeply" diagnostic, against the same baseline;
 * - throughput: `pipeline-sql check` as a process over a generated 5 MB pipeline file (goal: at least
 *   1 MB/s), and over one view whose select item is a 50,000-term `+` chain or a 50,000-term `AND`
 *   chain (goal: the same rate), the rates side by side.
 * Run by `npm run bench` (test/perf/run.ts), or `node --import tsx test/perf/parse-scaling-bench-main.ts`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmptyFileSystem, URI } from 'langium';
import { createPipelineSqlServices } from '../../server/src/language/pipeline-sql-module.js';
import { repoRoot } from '../helpers/lsp-client.js';
import { largePipelineFile } from './generate.js';
import { fmt } from './stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 41);
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 2);
const LARGE_MB = Number(process.env.BENCH_LARGE_MB ?? 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cli = path.join(repoRoot, 'out', 'cli.cjs');

//#region Nesting, in process

const { shared } = createPipelineSqlServices(EmptyFileSystem);
let counter = 0;

/** Parses, links and validates one file; its diagnostics' messages, the time it took and the CPU time. */
async function check(text: string): Promise<{ ms: number; cpuMs: number; messages: string[] }> {
    const documents = shared.workspace.LangiumDocuments;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const document = documents.createDocument(URI.parse(`memory:///bench/${counter++}.sql`), text);
    await shared.workspace.DocumentBuilder.build([document], { validation: true });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const messages = (document.diagnostics ?? []).map(d => d.message);
    documents.deleteDocument(document.uri);
    return { ms, cpuMs: (used.user + used.system) / 1000, messages };
}

const view = (expression: string): string => `CREATE MATERIALIZED VIEW v AS SELECT ${expression} AS x FROM (SELECT 1 AS id);\n`;
const parentheses = (n: number): string => `${'('.repeat(n)}id + 1${')'.repeat(n)}`;
function arithmetic(levels: number): string {
    let e = 'id';
    for (let i = 0; i < levels; i++) {
        e = `(${e} ${['+', '*', '-', '/'][i % 4]} ${i + 1})`;
    }
    return e;
}

/**
 * Median wall and CPU time of each text's check, the texts measured in turn (round-robin), so that a
 * change of machine load hits every row alike; after one warm-up check of each (the grammar's lazy
 * lookahead for these decisions, the JIT).
 */
async function medianChecks(texts: ReadonlyArray<{ text: string; nested: boolean }>): Promise<Array<{ ms: number; cpuMs: number }>> {
    const times = texts.map(() => ({ ms: [] as number[], cpuMs: [] as number[] }));
    for (let round = -1; round < RUNS; round++) {
        for (const [i, { text, nested }] of texts.entries()) {
            const { ms, cpuMs, messages } = await check(text);
            const deep = messages.some(m => m.startsWith('Nested too deeply'));
            if (deep !== nested || (!nested && messages.length > 0)) {
                throw new Error(`unexpected diagnostics for ${text.slice(0, 80)}...: ${JSON.stringify(messages)}`);
            }
            if (round >= 0) {
                times[i].ms.push(ms);
                times[i].cpuMs.push(cpuMs);
            }
        }
    }
    return times.map(t => ({ ms: median(t.ms), cpuMs: median(t.cpuMs) }));
}

//#endregion

//#region Throughput, whole process

function checkProcess(file: string): number {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, 'check', '--json', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const ms = performance.now() - started;
    // Exit 0 (clean) or 1 (diagnostics); the generated files have no errors, which the output shows.
    const diagnostics = JSON.parse(result.stdout || '[]') as Array<{ severity: string; code: string; message: string }>;
    const errors = diagnostics.filter(d => d.severity === 'error');
    if (result.status !== 0 || errors.length > 0) {
        throw new Error(`check ${file} failed (${result.status}): ${result.stderr}${JSON.stringify(errors.slice(0, 3))}`);
    }
    return ms;
}

//#endregion

if (!fs.existsSync(cli)) {
    throw new Error(`${cli} is missing: run npm run build first.`);
}
const nestingRows: Array<[string, string, boolean, string]> = [
    ['the view nested once (baseline)', view(parentheses(1)), false, ''],
    ['25 nested parentheses', view(parentheses(25)), false, '≤ 1.5x'],
    ['12-level arithmetic', view(arithmetic(12)), false, '≤ 1.5x'],
    ['1,000 levels (gives "nested too deeply")', view(parentheses(1000)), true, ''],
];
const measured = await medianChecks(nestingRows.map(([, text, nested]) => ({ text, nested })));
console.log(`Nesting: parse + link + validate of one view in a warm language-service instance, median of ${RUNS} runs each, `
    + `interleaved (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}); the goal is read on CPU time.\n`);
console.log('| view | median ms | median CPU ms | CPU vs nested once | goal |');
console.log('|---|---|---|---|---|');
for (const [i, [what, , , goal]] of nestingRows.entries()) {
    const ratio = measured[i].cpuMs / measured[0].cpuMs;
    const verdict = goal === '' ? '' : ratio <= 1.5 ? `${goal}: met` : `${goal}: NOT met`;
    console.log(`| ${what} | ${fmt(measured[i].ms)} | ${fmt(measured[i].cpuMs)} | ${ratio.toFixed(2)}x | ${verdict} |`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parse-scaling-bench-'));
try {
    // 5 MB (BENCH_LARGE_MB) of the generated pipeline (about 60 lines per entity, ~2.4 KB each), as one file.
    let large = largePipelineFile(1000);
    const lines = Math.ceil(large.split('\n').length * (LARGE_MB * 1024 * 1024) / Buffer.byteLength(large));
    large = largePipelineFile(lines);
    const inputs: Array<[string, string]> = [
        ['generated pipeline file', large],
        ['50,000-term `+` chain', view(Array.from({ length: 50_000 }, (_, i) => (i % 2 ? 'id' : 'id2')).join(' + ')).replace('SELECT 1 AS id', 'SELECT 1 AS id, 2 AS id2')],
        ['50,000-term `AND` chain', view(Array.from({ length: 50_000 }, (_, i) => `id > ${i}`).join(' AND '))],
    ];
    console.log(`\nThroughput: \`pipeline-sql check --json FILE\` as a process (start-up included), best of ${THROUGHPUT_RUNS}.\n`);
    console.log('| input | size | ms | MB/s | vs the generated file | goal |');
    console.log('|---|---|---|---|---|---|');
    let fileRate = 0;
    for (const [what, text] of inputs) {
        const file = path.join(dir, `${what.replace(/\W+/g, '-')}.sql`);
        fs.writeFileSync(file, text);
        const ms = Math.min(...Array.from({ length: THROUGHPUT_RUNS }, () => checkProcess(file)));
        const mb = Buffer.byteLength(text) / (1024 * 1024);
        const rate = mb / (ms / 1000);
        fileRate ||= rate;
        const verdict = rate >= 1 ? '≥ 1 MB/s: met' : '≥ 1 MB/s: NOT met';
        console.log(`| ${what} | ${mb.toFixed(2)} MB | ${Math.round(ms)} | ${rate.toFixed(2)} | ${(rate / fileRate).toFixed(2)}x | ${verdict} |`);
    }
} finally {
    fs.rmSync(dir, { recursive: true, force: true });
}
