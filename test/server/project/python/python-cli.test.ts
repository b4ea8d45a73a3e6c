// `check` and `run` on a bundle whose SQL reads datasets its Python files define: no warnings, column
// errors against a Python schema, and a local run that reads a Python dataset's sample data, stops
// before it starts (naming the Python file and line) for one without, and refreshes the datasets
// that do not depend on it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { runCli } from '../../../../server/src/cli/main.js';
import { runCommand } from '../../../../server/src/cli/run.js';
import { repoRoot } from '../../../helpers/parse.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-python-cli-'));
let root: string;
let counter = 0;

beforeEach(() => {
    root = path.join(tmp, `lakehouse-${++counter}`);
    fs.cpSync(path.join(repoRoot, 'test/fixtures/bundles/lakehouse'), root, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, t => { out += t; }, t => { err += t; });
    return { code, out, err };
}

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCommand([root, ...args], { out: t => { out += t; }, err: t => { err += t; }, progress: false });
    return { code, out, err };
}

describe('check', () => {
    test('SQL reading Python datasets gets no warning', async () => {
        const { code, out } = await cli('check', '--json', root);
        expect(code).toBe(0);
        expect(JSON.parse(out)).toEqual([]);
    });

    test('a column missing from a Python dataset\'s schema= is an error, with the columns it has', async () => {
        const gold = path.join(root, 'src/gold/gold.sql');
        fs.writeFileSync(gold, fs.readFileSync(gold, 'utf8').replace('SELECT p.title,', 'SELECT p.titel,'));
        const { code, out } = await cli('check', '--json', root);
        expect(code).toBe(1);
        expect(JSON.parse(out)).toEqual([expect.objectContaining({
            code: 'UNRESOLVED_COLUMN.WITH_SUGGESTION', line: 9, message: "Column 'titel' does not exist in 'p' (sku, title, price). Did you mean 'title'?",
        })]);
    });

    test('a SQL dataset with the name of a Python one is a duplicate that names the Python line', async () => {
        fs.appendFileSync(path.join(root, 'src/gold/gold.sql'), '\nCREATE MATERIALIZED VIEW products AS SELECT 1 AS sku;\n');
        const { code, out } = await cli('check', '--json', root);
        expect(code).toBe(1);
        expect(JSON.parse(out)).toContainEqual(expect.objectContaining({
            code: 'PIPELINE_DUPLICATE_IDENTIFIERS.DATASET', message: expect.stringContaining('(also products.py:5)'),
        }));
    });

    test('a Python dataset defined again in another Python file is a duplicate on both Python lines', async () => {
        fs.writeFileSync(path.join(root, 'src/transform/more.py'), 'from pyspark import pipelines as dp\n\n\n@dp.materialized_view\ndef products():\n    return spark.read.table("main.ref.products")\n');
        const { code, out } = await cli('check', '--json', root);
        expect(code).toBe(1);
        expect((JSON.parse(out) as Array<Record<string, unknown>>).map(d => `${path.relative(root, path.resolve(String(d.file)))}:${d.line}:${d.column} ${d.code} ${d.pipeline} ${d.message}`)).toEqual([
            "src/transform/more.py:5:5 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET lakehouse The dataset 'products' is defined more than once in this pipeline (also products.py:5); each dataset has one definition.",
            "src/transform/products.py:5:10 PIPELINE_DUPLICATE_IDENTIFIERS.DATASET lakehouse The dataset 'products' is defined more than once in this pipeline (also more.py:5); each dataset has one definition.",
        ]);
    });

    test('a Python dataset a SQL file defines too is a duplicate on the Python line as on the SQL line', async () => {
        fs.appendFileSync(path.join(root, 'src/gold/gold.sql'), '\nCREATE MATERIALIZED VIEW products AS SELECT 1 AS sku;\n');
        const { out } = await cli('check', '--json', root);
        const duplicates = (JSON.parse(out) as Array<Record<string, unknown>>).filter(d => d.code === 'PIPELINE_DUPLICATE_IDENTIFIERS.DATASET');
        expect(duplicates.map(d => `${path.basename(String(d.file))}:${d.line} ${d.message}`)).toEqual([
            expect.stringMatching(/^gold\.sql:\d+ .*\(also products\.py:5\)/),
            expect.stringMatching(/^products\.py:5 .*\(also gold\.sql:\d+\)/),
        ]);
    });

    test('without the Python file, the same SQL warns', async () => {
        fs.rmSync(path.join(root, 'src/transform/products.py'));
        const { out } = await cli('check', '--json', root);
        expect(JSON.parse(out)).toEqual([expect.objectContaining({ code: 'TABLE_OR_VIEW_NOT_FOUND', message: expect.stringContaining("'products'") })]);
    });
});

describe('the same pipeline in the other two layouts', () => {
    /** The lakehouse's source files as a plain folder (no project file) or a spark-pipeline.yml folder. */
    function relayout(spec?: string): string {
        fs.rmSync(path.join(root, 'databricks.yml'));
        fs.rmSync(path.join(root, 'resources'), { recursive: true });
        if (spec !== undefined) {
            fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), spec);
        }
        return root;
    }

    test('a plain folder: the .py files that import a pipelines module are its Python files, so the SQL gets no warning', async () => {
        relayout();
        // A helper module beside them that imports no pipelines module is not pipeline code.
        fs.writeFileSync(path.join(root, 'src/transform/util.py'), 'def products():\n    return 1\n');
        const { code, out } = await cli('check', '--json', root);
        expect(JSON.parse(out)).toEqual([]);
        expect(code).toBe(0);
    });

    test('a spark-pipeline.yml without libraries takes the .py files of its folder as well as the .sql', async () => {
        relayout('name: lakehouse\ncatalog: main\nschema: sales\n');
        const { code, out } = await cli('check', '--json', root);
        expect(JSON.parse(out)).toEqual([]);
        expect(code).toBe(0);
    });

    test('without the Python files, both layouts warn about the datasets they define', async () => {
        relayout();
        fs.rmSync(path.join(root, 'src/transform/products.py'));
        const { out } = await cli('check', '--json', root);
        expect(JSON.parse(out)).toEqual([expect.objectContaining({ code: 'TABLE_OR_VIEW_NOT_FOUND', message: expect.stringContaining("'products'") })]);
    });
});

describe('run', () => {
    test('a Python dataset without sample data stops the run before it starts, naming its file and line', async () => {
        const { code, out, err } = await run();
        expect(code).toBe(1);
        expect(out).toBe('');
        expect(err).toContain('src/transform/products.py:5:10: error PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES');
        expect(err).toContain("'revenue_by_title' reads 'products', which is defined in Python (@dp.materialized_view at products.py:5)");
        // Nothing ran: no state was written.
        expect(fs.existsSync(path.join(root, '.pipeline-sql', 'lakehouse', 'state.duckdb'))).toBe(false);
    });

    test('--refresh of datasets that do not depend on it runs; a Python dataset with sample data is read from it', async () => {
        const { code, out } = await run('--refresh', 'orders_silver,regions', '--json');
        expect(code).toBe(0);
        const doc = JSON.parse(out) as { datasets: Record<string, { rows: Array<Record<string, unknown>> }> };
        // orders_silver reads the Python table orders_raw from samples/orders_raw.csv.
        expect(doc.datasets.orders_silver.rows.map(r => r.order_id)).toEqual([1, 3]);
        expect(doc.datasets.regions.rows).toHaveLength(2);
    });

    test('with sample data for the Python materialized view, the whole pipeline runs', async () => {
        fs.writeFileSync(path.join(root, 'samples/products.csv'), 'sku,title,price\nA-1,Anvil,9.5\n');
        const { code, out } = await run('--json');
        expect(code).toBe(0);
        const doc = JSON.parse(out) as { datasets: Record<string, { rows: Array<Record<string, unknown>> }> };
        expect(doc.datasets.revenue_by_title.rows).toEqual([{ title: 'Anvil', revenue: 15 }]);
    });
});
