import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NodeFileSystem } from 'langium/node';
import { checkPaths, formatCliDiagnostic, planCheck } from '../../../server/src/cli/check.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { runCli } from '../../../server/src/cli/main.js';

let dir: string;

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-check-'));
    fs.writeFileSync(path.join(dir, 'spark-pipeline.yml'), 'name: demo\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(dir, 'transformations'));
    fs.mkdirSync(path.join(dir, 'scratch'));
    fs.writeFileSync(path.join(dir, 'transformations', 'good.sql'), "SET trigger = 'x';\n");
    fs.writeFileSync(path.join(dir, 'transformations', 'bad.sql'), "SET a = 'b';\nSET ;\n");
    fs.writeFileSync(path.join(dir, 'scratch', 'ignored.sql'), 'not sql at all');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pipeline-sql check', () => {
    test('a pipeline folder checks the files its spark-pipeline.yml includes, and only those', async () => {
        const plan = await planCheck([dir], createPipelineSqlServices(NodeFileSystem));
        expect(plan.pipelines.flatMap(p => p.sources).map(f => path.relative(dir, f)).sort()).toEqual(['transformations/bad.sql', 'transformations/good.sql']);
        const diagnostics = await checkPaths([dir]);
        expect(diagnostics.map(d => ({ ...d, file: path.basename(d.file) }))).toEqual([
            expect.objectContaining({ file: 'bad.sql', line: 2, column: 5, severity: 'error', code: 'PARSE_SYNTAX_ERROR' }),
        ]);
        expect(formatCliDiagnostic(diagnostics[0])).toMatch(/bad\.sql:2:5: error PARSE_SYNTAX_ERROR /);
    });
});

describe('pipeline-sql check with the pipeline model', () => {
    let root: string;

    beforeAll(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-check-model-'));
        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: shop\nlibraries:\n  - glob:\n      include: transformations/**\n');
        fs.mkdirSync(path.join(root, 'transformations'));
        fs.mkdirSync(path.join(root, 'samples', 'raw'), { recursive: true });
        // A sample table typed by its CSV file, and one declared in the catalog.
        fs.writeFileSync(path.join(root, 'samples', 'raw', 'orders.csv'), 'order_id,amount,placed_at\n1,9.5,2024-01-01 10:00:00\n');
        fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'), 'CREATE TABLE raw.users (user_id INT, name STRING, seq BIGINT);\n');
        fs.writeFileSync(path.join(root, 'transformations', 'orders.sql'),
            'CREATE MATERIALIZED VIEW totals AS SELECT order_id, amount * 2 AS doubled, amnt FROM raw.orders;\n');
        fs.writeFileSync(path.join(root, 'transformations', 'users.sql'),
            'CREATE STREAMING TABLE users;\nCREATE FLOW users_cdc AS AUTO CDC INTO users FROM STREAM(raw.users) KEYS (user_id) SEQUENCE BY seq;\n');
    });

    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

    test('sources are typed by their sample files and by samples/*.sql; each file is checked against them', async () => {
        const services = createPipelineSqlServices(NodeFileSystem);
        const plan = await planCheck([root], services);
        expect([...plan.pipelines[0].sources, ...services.shared.pipeline.Project.catalogFilesOf(plan.pipelines[0])].map(f => path.relative(root, f)).sort())
            .toEqual(['samples/catalog.sql', 'transformations/orders.sql', 'transformations/users.sql']);
        const diagnostics = await checkPaths([root]);
        expect(diagnostics.map(d => `${path.basename(d.file)}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`)).toEqual([
            'orders.sql:1:76 error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'amnt\' does not exist in \'raw.orders\' (order_id, amount, placed_at). Did you mean \'amount\'?',
        ]);
    });

    test('--target spark-4.1 reports what Apache Spark 4.1 lacks; an unknown target is a usage error', async () => {
        let output = '';
        const code = await runCli(['check', '--target', 'spark-4.1', path.join(root, 'transformations', 'users.sql')], text => {
            output += text;
        });
        expect(code).toBe(1);
        expect(output).toContain('users.sql:2:26: error PIPELINE_SQL_UNSUPPORTED_IN_TARGET AUTO CDC is not supported by Apache Spark 4.1 declarative pipelines');
        await expect(runCli(['check', '--target', 'spark-3', root], () => undefined)).rejects.toThrow(/--target takes one of databricks, spark-4.1, spark-4.2, not 'spark-3'/);
    });
});

describe('parameters: check and run agree on ${...} names', () => {
    test('SET env = dev and configuration {Env: dev} both make ${env}_a the dataset dev_a that others read', async () => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-check-params-'));
        try {
            fs.mkdirSync(path.join(root, 'set/t'), { recursive: true });
            fs.writeFileSync(path.join(root, 'set/spark-pipeline.yml'), 'name: set\nlibraries:\n  - glob:\n      include: t/**\n');
            fs.writeFileSync(path.join(root, 'set/t/a.sql'), 'SET env = dev;\nCREATE MATERIALIZED VIEW ${env}_a AS SELECT 1 AS x;\n');
            fs.writeFileSync(path.join(root, 'set/t/b.sql'), 'CREATE MATERIALIZED VIEW b AS SELECT x FROM dev_a;\n');
            fs.mkdirSync(path.join(root, 'conf/t'), { recursive: true });
            fs.writeFileSync(path.join(root, 'conf/spark-pipeline.yml'), 'name: conf\nconfiguration:\n  Env: dev\nlibraries:\n  - glob:\n      include: t/**\n');
            fs.writeFileSync(path.join(root, 'conf/t/a.sql'), 'CREATE MATERIALIZED VIEW ${env}_a AS SELECT 1 AS x;\nCREATE MATERIALIZED VIEW b AS SELECT x FROM dev_a;\n');
            expect(await checkPaths([root])).toEqual([]);
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });

    test('a name holding a parameter the pipeline has no value for is UNBOUND_SQL_PARAMETER in check, where run stops', async () => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-check-unbound-'));
        try {
            fs.mkdirSync(path.join(root, 'p/t'), { recursive: true });
            fs.writeFileSync(path.join(root, 'p/spark-pipeline.yml'), 'name: p\nconfiguration:\n  Env: dev\nlibraries:\n  - glob:\n      include: t/**\n');
            fs.writeFileSync(path.join(root, 'p/t/a.sql'), [
                'CREATE MATERIALIZED VIEW ${env}_a AS SELECT 1 AS x, \'${nope} in a string stays\' AS s;',
                'CREATE MATERIALIZED VIEW b AS SELECT x FROM ${nope}_a;',
                '',
            ].join('\n'));
            const found = (await checkPaths([path.join(root, 'p')])).map(d => `${path.basename(d.file)}:${d.line}:${d.column} ${d.code} ${d.message}`);
            const message = "The pipeline parameter '${nope}' (in '${nope}_a') has no value; define it under 'configuration:' of the pipeline or with SET nope = ... .";
            expect(found).toEqual([`a.sql:2:45 UNBOUND_SQL_PARAMETER ${message}`]);
            // A file in no pipeline has no configuration to look in: not reported.
            fs.writeFileSync(path.join(root, 'alone.sql'), 'CREATE MATERIALIZED VIEW c AS SELECT x FROM ${nope}_a;\n');
            expect(await checkPaths([path.join(root, 'alone.sql')])).toEqual([]);
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });
});

describe('pipeline-sql check on AUTO CDC flows with different source columns (Spark AutoCdcScd1MultiPipeline, A27)', () => {
    let root: string;

    beforeAll(() => {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-check-union-'));
        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: union\nlibraries:\n  - glob:\n      include: transformations/**\n');
        fs.mkdirSync(path.join(root, 'transformations'));
        fs.mkdirSync(path.join(root, 'samples'));
        fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'),
            'CREATE TABLE v1 (id INT, name STRING, version BIGINT);\nCREATE TABLE v2 (id INT, name STRING, age INT, version BIGINT);\n');
        fs.writeFileSync(path.join(root, 'transformations', 'target.sql'), [
            'CREATE STREAMING TABLE shared_target;',
            'CREATE FLOW flow_v1 AS AUTO CDC INTO shared_target FROM STREAM(v1) KEYS (id) SEQUENCE BY version;',
            'CREATE FLOW flow_v2 AS AUTO CDC INTO shared_target FROM STREAM(v2) KEYS (id) SEQUENCE BY version;',
            // `age` comes only from the second flow; `nickname` from neither.
            'CREATE MATERIALIZED VIEW ages AS SELECT id, name, age, version FROM shared_target;',
            'CREATE MATERIALIZED VIEW nicknames AS SELECT id, nickname FROM shared_target;',
            '',
        ].join('\n'));
    });

    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

    test('the target has the union of the flows\' columns: reading a column of either flow is fine, a column of neither is an error naming the union', async () => {
        const diagnostics = await checkPaths([root]);
        expect(diagnostics.map(d => `${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(['5:50 error UNRESOLVED_COLUMN.WITH_SUGGESTION']);
        expect(diagnostics[0].message).toContain('nickname');
        expect(diagnostics[0].message).toMatch(/id.*name.*version.*age/);
    });
});
