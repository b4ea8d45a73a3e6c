/**
 * `npm run bench`: every benchmark of the project, each measurement in its own process, printed side
 * by side with its baseline from the same run. Not part of the test suite: numbers vary by machine.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** `npm run bench -- startup parse-scaling`: only the benchmarks whose file names contain one of these words. */
const only = process.argv.slice(2);
const sharedPresent = fs.existsSync(path.resolve(here, '../../../shared/corpus'));

interface ParseResult { task: string; parser: string; items: number; lines: number; rejected: number; ms: number[]; maxRssMb: number }

function measure(parser: string, task: string, runs: number): ParseResult {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'parse-bench.ts'), parser, task, String(runs)], {
        encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) {
        throw new Error(`parse-bench ${parser} ${task} failed:\n${result.stderr}`);
    }
    return JSON.parse(result.stdout.trim().split('\n').pop()!) as ParseResult;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 0): string => n.toFixed(digits);

if (only.length === 0) {
    console.log('## Parse + validate (median of runs after a warm-up; peak RSS of the measuring process)\n');
    console.log('| input | parser | items | lines | rejected | median ms | peak RSS MB |');
    console.log('|---|---|---|---|---|---|---|');
    const rows: ParseResult[] = [measure('ours', 'large', 5)];
    if (sharedPresent) {
        rows.push(measure('ours', 'corpus', 5), measure('ours', 'spark', 3), measure('ours-parse', 'spark', 3), measure('dt', 'spark', 3));
    } else {
        console.log('(../shared is absent: corpus and Spark-statement benchmarks skipped)');
    }
    for (const r of rows) {
        const name = { ours: 'pipeline-sql (Langium), parse + validate', 'ours-parse': 'pipeline-sql (Langium), parse only', dt: 'dt-sql-parser SparkSQL, parse only' }[r.parser];
        console.log(`| ${r.task} | ${name} | ${r.items} | ${r.lines} | ${r.rejected} | ${fmt(median(r.ms))} | ${fmt(r.maxRssMb)} |`);
    }
    const dtSpark = rows.find(r => r.parser === 'dt' && r.task === 'spark');
    for (const [parser, what] of [['ours-parse', 'parsing only'], ['ours', 'parsing, linking and validating']] as const) {
        const oursSpark = rows.find(r => r.parser === parser && r.task === 'spark');
        if (oursSpark && dtSpark) {
            const ratio = median(dtSpark.ms) / median(oursSpark.ms);
            const comparison = ratio >= 1 ? `${fmt(ratio, 2)}x faster than` : `${fmt(1 / ratio, 2)}x slower than`;
            console.log(`Spark query statements, ${what}: pipeline-sql is ${comparison} dt-sql-parser's parse ` +
                `(${fmt(median(oursSpark.ms))} ms vs ${fmt(median(dtSpark.ms))} ms); peak RSS ${fmt(oursSpark.maxRssMb)} MB vs ${fmt(dtSpark.maxRssMb)} MB.`);
        }
    }
    const large = rows[0];
    console.log(`Generated ${large.lines}-line pipeline file: ${fmt(median(large.ms))} ms, ${fmt(large.lines / median(large.ms) * 1000)} lines/s.`);
}

// Other benchmarks register themselves as test/perf/*-bench-main.ts and print their own tables.
for (const file of fs.readdirSync(here).filter(f => f.endsWith('-bench-main.ts') && (only.length === 0 || only.some(w => f.includes(w)))).sort()) {
    console.log(`\n## ${file}\n`);
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
    if (result.status !== 0) {
        process.exitCode = 1;
    }
}
