import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkPaths, planCheck, type CliDiagnostic } from '../../../../server/src/cli/check.js';
import { NodeFileSystem } from 'langium/node';
import { createPipelineSqlServices } from '../../../../server/src/language/pipeline-sql-module.js';
import { repoRoot, sharedRoot } from '../../../helpers/parse.js';

const corpusDir = path.join(sharedRoot, 'corpus/pipelines');
const goldenDir = path.join(sharedRoot, 'golden');
const haveShared = fs.existsSync(corpusDir) && fs.existsSync(goldenDir);
if (!haveShared) {
    console.log(`../shared is absent (${sharedRoot}): the corpus and golden checks are skipped.`);
}

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-corpus-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

const errors = (diagnostics: CliDiagnostic[]): string[] =>
    diagnostics.filter(d => d.severity === 'error').map(d => `${path.basename(d.file)}:${d.line} ${d.code}`);

/**
 * Errors the corpus really contains. The sqlfluff files are parser fixtures: independent statements
 * collected in one file, so the same dataset or flow is defined several times and some statements
 * break pipeline rules on purpose; one real pipeline (retail_org) reads only batch sources into a
 * streaming table, which Databricks rejects ("If the ONCE option is not supplied, the query must be
 * a streaming query"). Each entry must still be reported, so the list cannot go stale.
 */
const knownCorpusErrors: Record<string, string[]> = {
    'databricks__retail_org_gold_dlt.sql': ['51 INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE'],
    'test__fixtures__dialects__databricks__create_flow_and_private_streaming_table.sql': ['52 PIPELINE_SQL_REPLACE_USING_MISSING_SEQUENCE_BY'],
    'test__fixtures__dialects__databricks__create_flow_auto_cdc_into.sql': ['24 PIPELINE_DUPLICATE_IDENTIFIERS.FLOW', '40 PIPELINE_DUPLICATE_IDENTIFIERS.FLOW'],
    'test__fixtures__dialects__databricks__create_materialized_view.sql': [
        '5 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET', '8 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET', '11 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET',
        '116 PIPELINE_SQL_PARTITION_AND_CLUSTER',
    ],
    'test__fixtures__dialects__databricks__create_streaming_table_private.sql': ['12 UNRESOLVED_COLUMN.WITH_SUGGESTION'],
    'test__fixtures__dialects__databricks__create_table_flow.sql': [
        '3 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET', '5 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET', '7 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET',
    ],
    'test__fixtures__dialects__databricks__databricks_dlt_apply_changes_into.sql': [
        ...[2, 14, 25, 34, 49, 58].map(l => `${l} PIPELINE_DUPLICATE_IDENTIFIERS.DATASET`),
        '70 PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2', '74 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET', '86 PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2',
    ],
    'test__fixtures__dialects__databricks__pipeline_parameters.sql': ['26 INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE'],
    'test__fixtures__dialects__sparksql__databricks_dlt_create_table.sql': [1, 7, 19, 25, 31, 37].map(l => `${l} PIPELINE_DUPLICATE_IDENTIFIERS.DATASET`),
    'test__fixtures__dialects__sparksql__databricks_dlt_create_view.sql': [3, 15, 40, 54].map(l => `${l} PIPELINE_DUPLICATE_IDENTIFIERS.DATASET`),
};

describe.runIf(haveShared)('real-world pipelines of ../shared/corpus/pipelines', () => {
    const files = haveShared ? fs.readdirSync(corpusDir).flatMap(repo => fs.readdirSync(path.join(corpusDir, repo))
        .filter(f => f.endsWith('.sql')).map(f => path.join(corpusDir, repo, f))) : [];

    test('each file, checked as a pipeline of its own, has no error-level diagnostics beyond the known true errors', async () => {
        const reported: Record<string, string[]> = {};
        const copies: string[] = [];
        for (const file of files) {
            // Lakehouse Plumber templates have bare `{name}` holes, filled like the parser's corpus test does.
            const folder = path.join(temp, 'corpus', path.basename(file, '.sql'));
            fs.mkdirSync(folder, { recursive: true });
            const copy = path.join(folder, path.basename(file));
            fs.writeFileSync(copy, fs.readFileSync(file, 'utf8').replace(/(?<!\$)\{(\w+)\}/g, '$1'));
            copies.push(copy);
        }
        // One check of every file given alone: each is a pipeline of its own (no project file above it).
        const diagnostics = await checkPaths(copies);
        for (const copy of copies) {
            // Syntax errors are the parser's corpus test's business; this test is about the semantic checks.
            const found = errors(diagnostics.filter(d => path.resolve(d.file) === copy)).filter(e => !e.endsWith('PARSE_SYNTAX_ERROR'));
            if (found.length > 0) {
                reported[path.basename(copy)] = found.map(e => e.slice(e.indexOf(':') + 1));
            }
        }
        expect(reported).toEqual(knownCorpusErrors);
    });
});

interface GoldenCase {
    name: string;
    sql: string;
    schemas: Record<string, string>;
    inputs?: Record<string, unknown[]>;
    expected_error?: { error_class: string; phase?: string };
}

describe.runIf(haveShared)('the pipelines of the golden cases (../shared/golden), with their inputs in a samples catalog', () => {
    const cases: GoldenCase[] = haveShared
        ? fs.readdirSync(goldenDir).filter(f => f.endsWith('.json')).sort().map(f => JSON.parse(fs.readFileSync(path.join(goldenDir, f), 'utf8')) as GoldenCase)
        : [];

    /** Builds a golden case as a pipeline folder, as the golden README describes. */
    function buildCase(c: GoldenCase): string {
        const root = path.join(temp, 'golden', c.name);
        fs.mkdirSync(path.join(root, 'transformations'), { recursive: true });
        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), `name: ${c.name}\nlibraries:\n  - glob:\n      include: transformations/**\n`);
        fs.writeFileSync(path.join(root, 'transformations', 'pipeline.sql'), c.sql);
        const ddl: string[] = [];
        for (const [table, schema] of Object.entries(c.schemas)) {
            const folder = path.join(root, 'samples', ...table.split('.'));
            fs.mkdirSync(folder, { recursive: true });
            fs.writeFileSync(path.join(folder, 'part-00001.jsonl'), (c.inputs?.[table] ?? []).map(r => JSON.stringify(r)).join('\n') + '\n');
            ddl.push(`CREATE TABLE ${table} (${schema}) USING JSON LOCATION '${table.split('.').join('/')}';`);
        }
        fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'), ddl.join('\n') + '\n');
        return root;
    }

    test('every case checks without errors and warnings, except the analysis errors the spec detects statically (golden 26)', async () => {
        const results: Record<string, string[]> = {};
        const roots = cases.map(c => buildCase(c));
        // One check of every case's folder: each is a pipeline of its own.
        const diagnostics = await checkPaths(roots);
        cases.forEach((c, i) => {
            results[c.name] = diagnostics.filter(d => path.resolve(d.file).startsWith(roots[i] + path.sep))
                .filter(d => d.severity === 'error' || d.severity === 'warning').map(d => `${d.severity} ${d.code}`);
        });
        const expected = Object.fromEntries(cases.map(c => [c.name,
            c.expected_error?.phase === 'analysis' ? [`error ${c.expected_error.error_class}`] : []]));
        expect(expected['26_error_managed_table_cdc']).toEqual(['error MANAGED_TABLE_DOES_NOT_SUPPORT_CDC']);
        expect(results).toEqual(expected);
    });
});

describe('the sample pipelines of the repository (samples/)', () => {
    test('check on samples/ reports nothing at all', async () => {
        const roots = fs.readdirSync(path.join(repoRoot, 'samples')).map(d => path.join(repoRoot, 'samples', d));
        const diagnostics = await checkPaths(roots);
        expect(diagnostics.map(d => `${d.file}:${d.line} ${d.severity} ${d.code} ${d.message}`)).toEqual([]);
        const plan = await planCheck(roots, createPipelineSqlServices(NodeFileSystem));
        expect(plan.pipelines.map(p => p.name).sort()).toEqual(['inventory_snapshots', 'prices_bitemporal', 'users_cdc']);
        expect(plan.pipelines.flatMap(p => p.sources).length).toBe(6);
    });
});
