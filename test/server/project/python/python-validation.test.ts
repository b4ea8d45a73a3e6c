// Validation of SQL in a spark-pipeline.yml pipeline whose Python files (both styles) define datasets:
// what the Python side defines counts for the SQL checks (existence, kinds, flows, duplicates,
// streaming reads), under the target's rules for @table, and a changed Python file is picked up.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createPipelineSqlServices } from '../../../../server/src/language/index.js';
import type { TargetProfile } from '../../../../server/src/language/pipeline/pipeline-sql-settings.js';
import { printDiagnostic } from '../../../helpers/pipeline.js';

let dir: string;
let services: ReturnType<typeof createPipelineSqlServices>;
const uri = (file: string): URI => URI.file(path.join(dir, 'transformations', file));

beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-python-validation-'));
    fs.writeFileSync(path.join(dir, 'spark-pipeline.yml'), 'name: mixed\nstorage: file:///tmp/s\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(dir, 'transformations'));
    services = createPipelineSqlServices(NodeFileSystem);
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes the files, loads the pipeline as the language server does at start, builds and validates its SQL. */
async function check(files: Record<string, string>, target: TargetProfile = 'databricks'): Promise<Record<string, string[]>> {
    for (const [file, text] of Object.entries(files)) {
        fs.writeFileSync(uri(file).fsPath, text);
    }
    services.PipelineSql.pipeline.Settings.setTarget(target);
    await services.shared.pipeline.Project.loadFolder(dir);
    const sql = Object.keys(files).filter(f => f.endsWith('.sql'));
    const documents = await Promise.all(sql.map(f => services.shared.workspace.LangiumDocuments.getOrCreateDocument(uri(f))));
    await services.shared.workspace.DocumentBuilder.build(documents, { validation: true });
    return Object.fromEntries(sql.map(f => [f, diagnosticsOf(f)]));
}

function diagnosticsOf(file: string): string[] {
    return (services.shared.workspace.LangiumDocuments.getDocument(uri(file))?.diagnostics ?? []).filter(d => d.severity !== 4).map(printDiagnostic);
}

const dlt = [
    'import dlt',
    '',
    '@dlt.table(name="bronze")',
    'def load():',
    '    return spark.readStream.format("cloudFiles").load("/in")',
    '',
    '@dlt.table',
    'def dims():',
    '    return spark.read.table("main.ref.dims")',
    '',
    '@dlt.view',
    'def changes():',
    '    return spark.readStream.table("main.raw.changes")',
].join('\n');

const dp = [
    'from pyspark import pipelines as dp',
    '',
    '@dp.append_flow(target="events")',
    'def events_from_python():',
    '    return dp.read_stream("bronze")',
].join('\n');

describe('SQL beside Python definitions', () => {
    test('reads of Python tables, materialized views and views get no warning', async () => {
        const result = await check({
            'ingest.py': dlt,
            'silver.sql': 'CREATE STREAMING TABLE silver AS SELECT * FROM STREAM(bronze);\n'
                + 'CREATE MATERIALIZED VIEW dims_copy AS SELECT * FROM dims;\n'
                // A view over a stream, read without STREAM: its mode is not known, so no batch-read error.
                + 'CREATE STREAMING TABLE changes_copy AS SELECT * FROM changes;\n',
        });
        expect(result).toEqual({ 'silver.sql': [] });
    });

    test('a streaming read of a Python materialized view is an error, as it is for SQL ones', async () => {
        const result = await check({ 'ingest.py': dlt, 'x.sql': 'CREATE STREAMING TABLE x AS SELECT * FROM STREAM(dims);\n' });
        expect(result['x.sql']).toEqual([expect.stringContaining("PIPELINE_SQL_STREAMING_READ_OF_MATERIALIZED_VIEW 'dims' is a materialized view")]);
    });

    test('under Apache Spark, @table always defines a streaming table, so the same read is fine', async () => {
        const result = await check({ 'ingest.py': dlt, 'x.sql': 'CREATE STREAMING TABLE x AS SELECT * FROM STREAM(dims);\n' }, 'spark-4.2');
        expect(result['x.sql']).toEqual([]);
    });

    test('a SQL streaming table that only a Python append flow writes has a flow', async () => {
        const result = await check({ 'ingest.py': dlt, 'flows.py': dp, 'events.sql': 'CREATE STREAMING TABLE events;\n' });
        expect(result['events.sql']).toEqual([]);
    });

    test('a SQL flow may write a Python streaming table, not a Python materialized view', async () => {
        const result = await check({
            'ingest.py': dlt,
            'flows.sql': 'CREATE FLOW more_bronze AS INSERT INTO bronze BY NAME SELECT * FROM STREAM(raw.more);\n'
                + 'CREATE FLOW into_dims AS INSERT INTO dims BY NAME SELECT * FROM raw.dims;\n',
        });
        expect(result['flows.sql'].filter(d => d.includes(' error '))).toEqual([
            expect.stringMatching(/^\[2:38\.\.2:42\] error PIPELINE_SQL_FLOW_TARGET_NOT_TABLE 'dims' is a materialized view/),
        ]);
    });

    test('a SQL dataset with the name of a Python dataset is a duplicate naming the Python line', async () => {
        const result = await check({ 'ingest.py': dlt, 'dup.sql': 'CREATE MATERIALIZED VIEW bronze AS SELECT 1 AS a;\n' });
        expect(result['dup.sql']).toEqual([expect.stringContaining("The dataset 'bronze' is defined more than once in this pipeline (also ingest.py:3)")]);
    });

    test('a misspelt name suggests the Python dataset', async () => {
        const result = await check({ 'ingest.py': dlt, 'x.sql': 'CREATE MATERIALIZED VIEW x AS SELECT * FROM bronz;\n' });
        expect(result['x.sql']).toEqual([expect.stringContaining("Did you mean 'bronze'?")]);
    });

    test('a Python dataset whose name is built at run time is not guessed: the SQL reading it warns', async () => {
        const result = await check({
            'gen.py': 'import dlt\nfor t in ["a", "b"]:\n    @dlt.table(name=f"{t}_raw")\n    def f():\n        return spark.read.table(t)\n',
            'x.sql': 'CREATE MATERIALIZED VIEW x AS SELECT * FROM a_raw;\n',
        });
        expect(result['x.sql']).toEqual([expect.stringContaining("TABLE_OR_VIEW_NOT_FOUND 'a_raw'")]);
    });

    test('a Python file created, changed or deleted is picked up by the next update', async () => {
        await check({ 'x.sql': 'CREATE MATERIALIZED VIEW x AS SELECT * FROM dims;\n' });
        expect(diagnosticsOf('x.sql')).toEqual([expect.stringContaining("TABLE_OR_VIEW_NOT_FOUND 'dims'")]);
        const builder = services.shared.workspace.DocumentBuilder;
        fs.writeFileSync(uri('ingest.py').fsPath, dlt);
        await builder.update([uri('ingest.py')], []);
        expect(diagnosticsOf('x.sql')).toEqual([]);
        fs.writeFileSync(uri('ingest.py').fsPath, dlt.replace('def dims():', 'def dimz():'));
        await builder.update([uri('ingest.py')], []);
        expect(diagnosticsOf('x.sql')).toEqual([expect.stringContaining("Did you mean 'dimz'?")]);
        fs.rmSync(uri('ingest.py').fsPath);
        await builder.update([], [uri('ingest.py')]);
        expect(diagnosticsOf('x.sql')).toEqual([expect.stringMatching(/TABLE_OR_VIEW_NOT_FOUND 'dims'(?!.*Did you mean)/)]);
    });
});
