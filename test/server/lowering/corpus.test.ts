// The lowering on real SQL: every pipeline file of the shared corpus and every Spark SQL test query
// (as the query of a materialized view) is lowered to IR or reported as problems naming a construct,
// never a crash or an internal error. The corpus lives beside the repository (../shared).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sharedRoot } from '../../helpers/parse.js';
import { lower } from './lower-helper.js';

const pipelines = path.join(sharedRoot, 'corpus', 'pipelines');
const statements = path.join(sharedRoot, 'corpus', 'spark-sql-tests', 'statements.jsonl');
const available = fs.existsSync(pipelines) && fs.existsSync(statements);
if (!available) {
    console.log(`Lowering corpus test skipped: ${path.join(sharedRoot, 'corpus')} does not exist (the shared folder is not in a clone of the repository).`);
}

/** The classes a problem of the lowering may have; anything else (an internal error) fails the test. */
const knownClasses = new Set([
    'PARSE_SYNTAX_ERROR', 'PIPELINE_SQL_UNSUPPORTED_FEATURE', 'PIPELINE_SQL_INVALID_PIPELINE', 'UNBOUND_SQL_PARAMETER',
    'PIPELINE_SQL_REPLACE_USING_MISSING_SEQUENCE_BY', 'AUTOCDC_MISSING_SEQUENCE_BY', 'DUPLICATE_CLAUSES',
]);

function problemClass(problem: string): string {
    return problem.split(' ')[1];
}

describe.skipIf(!available)('lowering the corpus', () => {
    test('every corpus pipeline file lowers or names what it cannot run', async () => {
        const unexpected: string[] = [];
        let files = 0;
        for (const folder of fs.readdirSync(pipelines)) {
            for (const file of fs.readdirSync(path.join(pipelines, folder)).filter(f => f.endsWith('.sql'))) {
                // Lakehouse Plumber templates hold bare `{name}` holes; a name fills them (as in the parser's corpus test).
                const text = fs.readFileSync(path.join(pipelines, folder, file), 'utf8').replace(/(?<!\$)\{(\w+)\}/g, (_hole, name: string) => name);
                const result = await lower(text);
                files++;
                unexpected.push(...result.problems.filter(p => !knownClasses.has(problemClass(p))).map(p => `${folder}/${file}: ${p}`));
            }
        }
        expect(files).toBeGreaterThan(40);
        expect(unexpected).toEqual([]);
    });

    test('every Spark SQL test query that parses lowers or names what it cannot run', async () => {
        const rows = fs.readFileSync(statements, 'utf8').split('\n').filter(Boolean)
            .map(line => JSON.parse(line) as { file: string; sql: string; spark_parse: string; kind: string })
            .filter(s => s.spark_parse === 'ok' && s.kind === 'query');
        const unexpected: string[] = [];
        let lowered = 0;
        for (const s of rows) {
            const result = await lower(`CREATE MATERIALIZED VIEW q AS ${s.sql}`);
            if (result.problems.length === 0) {
                lowered++;
            }
            unexpected.push(...result.problems.filter(p => !knownClasses.has(problemClass(p))).map(p => `${s.file}: ${s.sql.slice(0, 80)}: ${p}`));
        }
        expect(unexpected).toEqual([]);
        // Most queries lower; the rest use what the local engine cannot run (TIME, TABLESAMPLE, ORDER BY ALL, ...).
        expect(lowered / rows.length).toBeGreaterThan(0.9);
    });
});
