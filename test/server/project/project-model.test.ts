// The pipeline project model: which pipelines a folder holds, their files, parameters, namespace
// and folders, for the three layouts (bundle, spark-pipeline.yml, plain folder), and the problems
// of project files on their YAML lines.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { discoverProjects } from '../../../server/src/project/discovery.js';
import { langiumFileHost } from '../../../server/src/project/file-host.js';
import type { PipelineProject } from '../../../server/src/project/project-types.js';
import { repoRoot } from '../../helpers/parse.js';

const host = langiumFileHost(NodeFileSystem.fileSystemProvider());
const shop = path.join(repoRoot, 'test/fixtures/bundles/shop');
let tmp: string;

function write(relative: string, text: string): string {
    const file = path.join(tmp, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
}

const rel = (root: string, files: readonly string[]): string[] => files.map(f => path.relative(root, f));
const byKey = (pipelines: readonly PipelineProject[], key: string): PipelineProject => pipelines.find(p => p.key === key)!;

beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-project-'));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('a Databricks Asset Bundle', () => {
    test('each resources.pipelines entry of the included files is a pipeline with its own files', async () => {
        const set = await discoverProjects(shop, host);
        expect(set.problems).toEqual([]);
        expect(set.pipelines.map(p => p.id)).toEqual([`${shop}#customers`, `${shop}#orders`]);
        const orders = byKey(set.pipelines, 'orders');
        const customers = byKey(set.pipelines, 'customers');
        expect(rel(shop, orders.sources)).toEqual(['src/orders/bronze.sql', 'src/orders/gold.sql']);
        // The notebook path has no extension: it is the .sql notebook beside it.
        expect(rel(shop, customers.sources)).toEqual(['src/customers/customers_notebook.sql', 'src/customers/gold.sql']);
        expect(set.projectFiles.map(f => path.relative(shop, f))).toEqual(['databricks.yml', 'resources/customers.pipeline.yml', 'resources/orders.pipeline.yml']);
    });

    test('the default target\'s variables fill ${var.x}, ${bundle.target} and ${bundle.name}; samples and state live beside databricks.yml', async () => {
        const orders = byKey((await discoverProjects(shop, host)).pipelines, 'orders');
        expect(orders).toMatchObject({
            layout: 'bundle', name: 'shop_orders_dev', catalog: 'dev_catalog', schema: 'orders',
            configuration: { source_schema: 'raw', Env: 'dev', min_amount: '0' },
            bundle: { name: 'shop', target: 'dev', targets: ['dev', 'prod'], root: shop },
            root: shop, samplesDir: path.join(shop, 'samples'), stateDir: path.join(shop, '.pipeline-sql', 'orders'), readRoots: [shop],
        });
        expect(byKey((await discoverProjects(shop, host)).pipelines, 'customers')).toMatchObject({ sourceRoot: path.join(shop, 'src/customers'), stateDir: path.join(shop, '.pipeline-sql', 'customers') });
    });

    test('another target overrides the variables it sets; allowed read folders join the read roots', async () => {
        const set = await discoverProjects(shop, host, { bundleTarget: 'prod', allowedReadPaths: ['/data/extra'] });
        expect(byKey(set.pipelines, 'orders')).toMatchObject({
            name: 'shop_orders_prod', catalog: 'prod_catalog', configuration: { source_schema: 'raw', Env: 'prod', min_amount: '10' }, readRoots: [shop, '/data/extra'],
        });
        const unknown = await discoverProjects(shop, host, { bundleTarget: 'staging' });
        expect(unknown.problems.map(p => `${path.basename(p.file)}:${p.line} ${p.code} ${p.message}`)).toEqual([
            'databricks.yml:19 PIPELINE_SQL_UNKNOWN_BUNDLE_TARGET The bundle has no target \'staging\'; its targets are dev, prod.',
        ]);
    });

    test('target resource overrides, unknown variables and missing libraries are problems on their YAML lines', async () => {
        const root = path.join(tmp, 'overrides');
        write('overrides/databricks.yml', [
            'bundle: {name: b}',
            'variables:',
            '  schema: {default: s1}',
            'resources:',
            '  pipelines:',
            '    p:',
            '      schema: ${var.schema}',
            '      catalog: ${var.nope}',
            '      configuration: {a: "1"}',
            '      libraries:',
            '        - file: {path: src/a.sql}',
            '        - file: {path: src/missing.sql}',
            '        - glob: {include: "../outside/**"}',
            'targets:',
            '  t1:',
            '    default: true',
            '    resources:',
            '      pipelines:',
            '        p:',
            '          configuration: {b: "2"}',
            '          libraries:',
            '            - glob: {include: "src/extra/*.sql"}',
        ].join('\n') + '\n');
        write('overrides/src/a.sql', 'CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\n');
        write('overrides/src/extra/e.sql', 'CREATE MATERIALIZED VIEW e AS SELECT 1 AS x;\n');
        const [p] = (await discoverProjects(root, host)).pipelines;
        expect(p).toMatchObject({ schema: 's1', catalog: '${var.nope}', configuration: { a: '1', b: '2' } });
        expect(rel(root, p.sources)).toEqual(['src/a.sql', 'src/extra/e.sql']);
        expect(p.problems.map(x => `${x.line}:${x.column} ${x.severity} ${x.code}`)).toEqual([
            '8:16 error PIPELINE_SQL_UNKNOWN_BUNDLE_VARIABLE',
            '12:24 error PIPELINE_SQL_LIBRARY_NOT_FOUND',
            '13:27 error PIPELINE_SQL_LIBRARY_OUTSIDE_ROOT',
        ]);
    });
});

describe('spark-pipeline.yml', () => {
    test('its libraries, parameters and namespace; what spark-pipelines refuses is reported for the spark targets only', async () => {
        const root = path.join(tmp, 'spark');
        write('spark/spark-pipeline.yml', 'name: s\ntarget: legacy_schema\nconfiguration:\n  n: 1\nlibraries:\n  - glob:\n      include: transformations/*.sql\n');
        write('spark/transformations/a.sql', 'CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\n');
        write('spark/samples/catalog.sql', 'CREATE TABLE raw.t (id INT);\n');
        const [p] = (await discoverProjects(root, host)).pipelines;
        expect(p).toMatchObject({ id: root, layout: 'spark-pipeline', name: 's', schema: 'legacy_schema', configuration: { n: '1' }, stateDir: path.join(root, '.pipeline-sql') });
        expect(rel(root, p.sources)).toEqual(['transformations/a.sql']);
        expect(p.problems.map(x => `${x.line}:${x.column} ${x.code} ${(x as { onlyFor?: string }).onlyFor}`)).toEqual([
            '2:1 PIPELINE_SPEC_UNEXPECTED_FIELD spark',
            '1:1 PIPELINE_SPEC_MISSING_REQUIRED_FIELD spark',
            '4:6 PIPELINE_SPEC_DICT_VALUE_NOT_STRING spark',
            '7:16 PIPELINE_SPEC_INVALID_GLOB_PATTERN spark',
        ]);
    });

    test('a file that is not YAML is a problem on its line, never an exception; the folder\'s .sql files still count', async () => {
        const root = path.join(tmp, 'broken');
        write('broken/spark-pipeline.yml', 'name: b\nlibraries: [unclosed\n');
        write('broken/t/a.sql', 'CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;\n');
        const [p] = (await discoverProjects(root, host)).pipelines;
        expect(p.problems.map(x => `${x.line} ${x.code} ${x.message.slice(0, 40)}`)).toEqual([expect.stringMatching(/^[23] PIPELINE_SQL_INVALID_PROJECT_FILE spark-pipeline\.yml is not valid YAML/)]);
        expect(rel(root, p.sources)).toEqual(['t/a.sql']);
    });
});

describe('folders without a project file', () => {
    test('the .sql files with a pipeline statement and those beside them are the pipeline; other SQL is not', async () => {
        const root = path.join(tmp, 'plain');
        write('plain/pipelines/tables.sql', 'CREATE STREAMING TABLE t AS SELECT * FROM STREAM(raw.x);\n');
        write('plain/pipelines/views.sql', 'CREATE TEMPORARY VIEW v AS SELECT * FROM t;\n');
        write('plain/migrations/001.sql', 'CREATE TABLE accounts (id INT);\n');
        write('plain/samples/catalog.sql', 'CREATE TABLE raw.x (id INT);\n');
        const set = await discoverProjects(root, host);
        expect(set.pipelines.map(p => [p.layout, p.id])).toEqual([['folder', root]]);
        expect(rel(root, set.pipelines[0].sources)).toEqual(['pipelines/tables.sql', 'pipelines/views.sql']);
        expect((await discoverProjects(path.join(root, 'migrations'), host)).pipelines).toEqual([]);
    });

    test('.py files that import a pipelines module join the plain pipeline (with the .sql beside them); other Python does not', async () => {
        const root = path.join(tmp, 'mixed');
        write('mixed/sql/silver.sql', 'CREATE MATERIALIZED VIEW silver AS SELECT * FROM bronze;\n');
        write('mixed/python/bronze.py', 'import dlt\n\n@dlt.table\ndef bronze():\n    return spark.read.table("raw.x")\n');
        write('mixed/python/views.sql', 'CREATE TEMPORARY VIEW recent AS SELECT * FROM bronze;\n');
        write('mixed/python/gold.py', 'from pyspark import pipelines as dp\n');
        write('mixed/tools/lint.py', 'import sys\nprint(sys.argv)\n');
        write('mixed/tools/query.sql', 'SELECT 1;\n');
        write('mixed/samples/gen.py', 'import dlt\n');
        const [p] = (await discoverProjects(root, host)).pipelines;
        expect(rel(root, p.pythonFiles)).toEqual(['python/bronze.py', 'python/gold.py']);
        expect(rel(root, p.sources)).toEqual(['python/views.sql', 'sql/silver.sql']);
        // Python alone makes no pipeline: a plain pipeline needs pipeline SQL.
        expect((await discoverProjects(path.join(root, 'python'), host)).pipelines).toEqual([]);
    });

    test('a spark-pipeline.yml without libraries takes the .sql and .py files of its folder', async () => {
        const root = path.join(tmp, 'nolibs');
        write('nolibs/spark-pipeline.yml', 'name: n\n');
        write('nolibs/a.sql', 'CREATE MATERIALIZED VIEW a AS SELECT * FROM b;\n');
        write('nolibs/py/b.py', 'import dlt\n');
        write('nolibs/samples/gen.py', 'import dlt\n');
        const [p] = (await discoverProjects(root, host)).pipelines;
        expect([rel(root, p.sources), rel(root, p.pythonFiles)]).toEqual([['a.sql'], ['py/b.py']]);
    });

    test('pipelines under a folder named samples are found (as the editor finds them)', async () => {
        const set = await discoverProjects(repoRoot, host);
        expect(set.pipelines.map(p => path.relative(repoRoot, p.root))).toEqual(expect.arrayContaining(['samples/users-cdc', 'test/fixtures/bundles/shop']));
    });
});
