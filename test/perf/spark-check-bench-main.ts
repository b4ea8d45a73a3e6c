/**
 * Spark's own test queries (issue 13 goal 4), whole processes on the same files: `pipeline-sql check`
 * of a folder with one file per query statement of `corpus/spark-sql-tests/statements.jsonl` (parse,
 * link and validate), beside a process that runs dt-sql-parser's SparkSQL `validate` (parse only) on
 * each of the same files. Goal: check at least 5x faster. Skipped when ../shared is absent.
 * Run by `npm run bench` (test/perf/run.ts), or `node --import tsx test/perf/spark-check-bench-main.ts`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../helpers/lsp-client.js';

const RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 2);
const statementsFile = path.resolve(repoRoot, '../shared/corpus/spark-sql-tests/statements.jsonl');
const cli = path.join(repoRoot, 'out', 'cli.cjs');

/** The dt-sql-parser side: bundled once (its ESM build uses directory imports Node rejects, see NOTES.md). */
async function dtScript(dir: string): Promise<string> {
    const esbuild = await import('esbuild');
    const bundle = path.join(dir, 'dt-spark.cjs');
    await esbuild.build({
        stdin: { contents: "export { SparkSQL } from 'dt-sql-parser';", resolveDir: repoRoot },
        bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'error',
    });
    const script = path.join(dir, 'dt-validate.cjs');
    fs.writeFileSync(script, `const fs = require('fs'); const path = require('path');
const { SparkSQL } = require(${JSON.stringify(bundle)});
console.error = () => undefined;
const spark = new SparkSQL();
const dir = process.argv[2];
let rejected = 0;
for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.sql')).sort()) {
    if (spark.validate(fs.readFileSync(path.join(dir, f), 'utf8')).length > 0) rejected++;
}
process.stdout.write(JSON.stringify({ rejected }) + '\\n');
`);
    return script;
}

function timed(args: string[]): { ms: number; stdout: string } {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const ms = performance.now() - started;
    if (result.status !== 0 && result.status !== 1) {
        throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
    }
    return { ms, stdout: result.stdout };
}

if (!fs.existsSync(statementsFile)) {
    console.log(`(skipped: ${statementsFile} does not exist; ../shared is not in a clone of the repository)`);
} else {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spark-check-bench-'));
    try {
        const queries = fs.readFileSync(statementsFile, 'utf8').split('\n').filter(Boolean)
            .map(l => JSON.parse(l) as { kind: string; sql: string }).filter(s => s.kind === 'query');
        const dir = path.join(work, 'queries');
        fs.mkdirSync(dir);
        // A pipeline folder, so that check takes plain queries too (dt-validate reads only the .sql files).
        fs.writeFileSync(path.join(dir, 'spark-pipeline.yml'), 'name: spark_queries\nlibraries:\n  - glob:\n      include: "*.sql"\n');
        queries.forEach((q, i) => fs.writeFileSync(path.join(dir, `q${String(i).padStart(4, '0')}.sql`), `${q.sql}\n`));
        const script = await dtScript(work);
        const ours: number[] = [];
        const dt: number[] = [];
        let oursRejected = 0;
        let dtRejected = 0;
        for (let i = 0; i < RUNS; i++) {
            const check = timed([cli, 'check', '--json', dir]);
            ours.push(check.ms);
            const diagnostics = JSON.parse(check.stdout) as Array<{ file: string; code: string }>;
            oursRejected = new Set(diagnostics.filter(d => d.code === 'PARSE_SYNTAX_ERROR').map(d => d.file)).size;
            const other = timed([script, dir]);
            dt.push(other.ms);
            dtRejected = (JSON.parse(other.stdout.trim()) as { rejected: number }).rejected;
        }
        const best = (xs: number[]) => Math.min(...xs);
        const ratio = best(dt) / best(ours);
        console.log(`${queries.length.toLocaleString('en')} query statements of Spark's SQL tests, one file each; whole processes, best of ${RUNS} `
            + `(${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}).\n`);
        console.log('| process | ms | files with a syntax error | goal |');
        console.log('|---|---|---|---|');
        console.log(`| dt-sql-parser SparkSQL \`validate\` of each file (baseline) | ${Math.round(best(dt))} | ${dtRejected} | |`);
        console.log(`| \`pipeline-sql check --json\` of the folder (parse + link + validate) | ${Math.round(best(ours))} | ${oursRejected} | `
            + `${ratio >= 5 ? '≥ 5x faster: met' : '≥ 5x faster: NOT met'} (${ratio.toFixed(1)}x) |`);
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}
