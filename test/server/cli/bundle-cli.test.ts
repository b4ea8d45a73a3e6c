// `check` and `run` over the project model: a bundle with two pipelines (each its own namespace),
// what the CLI says when there is nothing to check, and broken project files as diagnostics.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../../server/src/cli/main.js';
import { runCommand } from '../../../server/src/cli/run.js';
import { repoRoot } from '../../helpers/parse.js';

const cli = path.join(repoRoot, 'out', 'cli.cjs');
let tmp: string;
let shop: string;

async function check(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(['check', ...args], t => { out += t; }, t => { err += t; });
    return { code, out, err };
}

async function built(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return promisify(execFile)(process.execPath, [cli, ...args]).then(r => ({ code: 0, ...r }), (e: { code: number; stdout: string; stderr: string }) => e);
}

beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-bundle-cli-'));
    shop = path.join(tmp, 'shop');
    fs.cpSync(path.join(repoRoot, 'test/fixtures/bundles/shop'), shop, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('check of a bundle', () => {
    test('both pipelines define gold: no duplicate error; each diagnostic says its pipeline', async () => {
        const clean = await check('--json', shop);
        expect(clean.code).toBe(0);
        expect(JSON.parse(clean.out)).toEqual([]);
        fs.appendFileSync(path.join(shop, 'src/customers/gold.sql'), 'CREATE MATERIALIZED VIEW typo AS SELECT nmae FROM customers_clean;\n');
        try {
            const { code, out } = await check('--json', shop);
            expect(code).toBe(1);
            expect(JSON.parse(out)).toEqual([expect.objectContaining({
                file: expect.stringMatching(/src\/customers\/gold\.sql$/), line: 6, code: 'UNRESOLVED_COLUMN.WITH_SUGGESTION', pipeline: 'customers',
            })]);
            const plain = await check(shop);
            expect(plain.out.split('\n')).toEqual([
                'pipeline customers \'shop_customers\' (bundle shop, target dev):',
                expect.stringMatching(/^ {2}.*src\/customers\/gold\.sql:6:41: error UNRESOLVED_COLUMN\.WITH_SUGGESTION Column 'nmae' does not exist/),
                'pipeline orders \'shop_orders_dev\' (bundle shop, target dev): no diagnostics',
                '4 files checked in 2 pipelines: 1 error, 0 other diagnostics',
                '',
            ]);
        } finally {
            fs.copyFileSync(path.join(repoRoot, 'test/fixtures/bundles/shop/src/customers/gold.sql'), path.join(shop, 'src/customers/gold.sql'));
        }
    });

    test('--bundle-target picks the target: its variables change names, and an unknown target is an error on databricks.yml', async () => {
        const prod = await check('--json', '--bundle-target', 'prod', shop);
        expect(prod.code).toBe(0);
        const unknown = await check('--json', '--bundle-target', 'qa', shop);
        expect(unknown.code).toBe(1);
        expect(JSON.parse(unknown.out)).toContainEqual(expect.objectContaining({ file: expect.stringMatching(/databricks\.yml$/), code: 'PIPELINE_SQL_UNKNOWN_BUNDLE_TARGET' }));
    });

    test('a YAML error in a resource file is a diagnostic on its line (exit 1), and the other pipeline is still checked', async () => {
        const file = path.join(shop, 'resources/customers.pipeline.yml');
        const saved = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(file, 'resources:\n  pipelines:\n    customers:\n      name: [unclosed\n');
        try {
            const result = await built('check', shop);
            expect(result.code).toBe(1);
            expect(result.stderr).toBe('');
            expect(result.stdout).toMatch(/customers\.pipeline\.yml:\d+:\d+: error PIPELINE_SQL_INVALID_PROJECT_FILE customers\.pipeline\.yml is not valid YAML/);
            expect(result.stdout).toMatch(/pipeline orders 'shop_orders_dev'/);
        } finally {
            fs.writeFileSync(file, saved);
        }
    });
});

describe('check never passes by checking nothing', () => {
    test('a folder without pipeline SQL exits 2 and says what was looked for', async () => {
        const empty = fs.mkdtempSync(path.join(tmp, 'empty-'));
        fs.writeFileSync(path.join(empty, 'query.sql'), 'SELECT 1;\n');
        const result = await built('check', empty);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/holds no pipeline: looked for a databricks\.yml with resources\.pipelines, a spark-pipeline\.yml, or \.sql files with a pipeline statement/);
    });

    test('libraries that match nothing exit 2 and name the globs', async () => {
        const root = fs.mkdtempSync(path.join(tmp, 'globs-'));
        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: p\nlibraries:\n  - glob:\n      include: transformations/**\n');
        const result = await built('check', root);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain("the pipeline 'p'");
        expect(result.stderr).toContain("its libraries 'transformations/**' match nothing");
    });

    test('a file that is not SQL (LICENSE.txt from a shell glob) is skipped with a note, no stack trace', async () => {
        const license = path.join(tmp, 'LICENSE.txt');
        fs.writeFileSync(license, 'MIT\n');
        const alone = await built('check', license);
        expect(alone.code).toBe(2);
        expect(alone.stderr).toContain('LICENSE.txt is not pipeline SQL');
        expect(alone.stderr).not.toMatch(/internal error|at .*\.cjs/);
        const withSql = await built('check', license, path.join(shop, 'src/orders/gold.sql'));
        expect(withSql.code).toBe(0);
        expect(withSql.stdout).toContain('1 file checked');
    });

    test('--version, and --help for one command', async () => {
        expect((await built('--version')).stdout).toMatch(/^pipeline-sql \d+\.\d+\.\d+\n$/);
        const help = await built('run', '--help');
        expect(help.code).toBe(0);
        expect(help.stdout).toContain('--pipeline');
    });
});

describe('run of a bundle pipeline', () => {
    test('--pipeline is required when the bundle has several (the error lists them); the state lives in .pipeline-sql/<key>', async () => {
        const io = { out: () => undefined, err: () => undefined, progress: false };
        await expect(runCommand([shop], io)).rejects.toThrow('holds 2 pipelines; choose one with --pipeline: customers (shop_customers), orders (shop_orders_dev)');
        let out = '';
        const code = await runCommand([shop, '--pipeline', 'orders', '--json'], { ...io, out: t => { out += t; } });
        expect(code).toBe(0);
        const doc = JSON.parse(out) as { datasets: Record<string, { rows: Array<Record<string, unknown>> }> };
        // ${env}_summary with configuration Env: dev (case-insensitive), ${min_amount} from the bundle variable.
        expect(Object.keys(doc.datasets).sort()).toEqual(['dev_summary', 'gold', 'orders_bronze']);
        expect(fs.existsSync(path.join(shop, '.pipeline-sql', 'orders', 'state.duckdb'))).toBe(true);
        expect(fs.existsSync(path.join(shop, '.pipeline-sql', 'customers'))).toBe(false);
        await expect(runCommand([shop, '--pipeline', 'nope'], io)).rejects.toThrow("has no pipeline 'nope'; its pipelines: customers (shop_customers), orders (shop_orders_dev)");
    });
});
