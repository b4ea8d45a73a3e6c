/**
 * One parser measurement, run in its own process by `test/perf/run.ts` so that peak memory (max RSS)
 * belongs to that measurement alone. Prints one JSON line: {task, parser, items, ms: [runs], maxRssMb}.
 *
 * Usage: node --import tsx test/perf/parse-bench.ts <ours|ours-parse|dt> <large|corpus|spark> [runs]
 *
 * `ours` parses, links and validates (the whole check); `ours-parse` only parses (lexer and parser
 * errors), like dt-sql-parser's `validate`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmptyFileSystem, URI } from 'langium';
import { createPipelineSqlServices } from '../../server/src/language/pipeline-sql-module.js';
import { largePipelineFile } from './generate.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = path.resolve(here, '../../../shared');
const [parser, task, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);

function inputs(): string[] {
    switch (task) {
        case 'large':
            return [largePipelineFile(10_000)];
        case 'corpus': {
            const dir = path.join(shared, 'corpus/pipelines');
            const files: string[] = [];
            for (const repo of fs.readdirSync(dir)) {
                for (const f of fs.readdirSync(path.join(dir, repo))) {
                    if (f.endsWith('.sql')) {
                        // Lakehouse Plumber templates have bare `{name}` holes; fill them like the corpus test does.
                        files.push(fs.readFileSync(path.join(dir, repo, f), 'utf8').replace(/(?<!\$)\{(\w+)\}/g, '$1'));
                    }
                }
            }
            return files;
        }
        case 'spark':
            return fs.readFileSync(path.join(shared, 'corpus/spark-sql-tests/statements.jsonl'), 'utf8')
                .split('\n').filter(Boolean).map(l => JSON.parse(l) as { kind: string; sql: string })
                .filter(s => s.kind === 'query').map(s => s.sql);
        default:
            throw new Error(`unknown task ${task}`);
    }
}

async function ours(texts: string[]): Promise<() => Promise<number>> {
    const { shared: sharedServices } = createPipelineSqlServices(EmptyFileSystem);
    const documents = sharedServices.workspace.LangiumDocuments;
    const builder = sharedServices.workspace.DocumentBuilder;
    let n = 0;
    return async () => {
        const docs = texts.map(t => documents.createDocument(URI.parse(`memory:///bench/${n++}.sql`), t));
        await builder.build(docs, { validation: true });
        const errors = docs.filter(d => d.diagnostics?.some(x => x.severity === 1)).length;
        for (const d of docs) {
            documents.deleteDocument(d.uri);
        }
        return errors;
    };
}

async function oursParseOnly(texts: string[]): Promise<() => Promise<number>> {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    const parserService = PipelineSql.parser.LangiumParser;
    return async () => texts.reduce((sum, t) => {
        const result = parserService.parse(t);
        return sum + (result.lexerErrors.length + result.parserErrors.length > 0 ? 1 : 0);
    }, 0);
}

async function dt(texts: string[]): Promise<() => Promise<number>> {
    // dt-sql-parser's ESM build uses directory imports Node rejects; bundle its SparkSQL entry (NOTES.md).
    const esbuild = await import('esbuild');
    const out = path.join(here, '../../out/bench/dt-spark.cjs');
    await esbuild.build({
        stdin: { contents: "export { SparkSQL } from 'dt-sql-parser';", resolveDir: path.resolve(here, '../..') },
        bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error',
    });
    const { createRequire } = await import('node:module');
    const { SparkSQL } = createRequire(import.meta.url)(out) as { SparkSQL: new () => { validate(sql: string): unknown[] } };
    const spark = new SparkSQL();
    // dt-sql-parser prints ANTLR errors on stderr; they are not part of the measurement.
    console.error = () => undefined;
    return async () => texts.reduce((sum, t) => sum + (spark.validate(t).length > 0 ? 1 : 0), 0);
}

const texts = inputs();
const run = parser === 'dt' ? await dt(texts) : parser === 'ours-parse' ? await oursParseOnly(texts) : await ours(texts);
const ms: number[] = [];
let rejected = 0;
await run(); // warm-up: JIT, lazy grammar initialisation
for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    rejected = await run();
    ms.push(performance.now() - t0);
}
const lines = texts.reduce((sum, t) => sum + t.split('\n').length, 0);
process.stdout.write(JSON.stringify({
    task, parser, items: texts.length, lines, rejected, ms, maxRssMb: process.resourceUsage().maxRSS / 1024,
}) + '\n');
