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

    test('AUTO CDC from SQL into a Python streaming table is fine, into a Python materialized view an error as for SQL', async () => {
        const result = await check({
            'ingest.py': 'from pyspark import pipelines as dp\n\ndp.create_streaming_table("customers")\n\n'
                + '@dp.materialized_view\ndef totals():\n    return spark.read.table("main.raw.t")\n',
            'cdc.sql': 'CREATE FLOW c1 AS AUTO CDC INTO customers FROM STREAM(raw.changes) KEYS (id) SEQUENCE BY seq;\n'
                + 'CREATE FLOW c2 AS AUTO CDC INTO totals FROM STREAM(raw.changes) KEYS (id) SEQUENCE BY seq;\n',
        });
        expect(result['cdc.sql'].filter(d => d.includes(' error '))).toEqual([
            "[2:33..2:39] error PIPELINE_SQL_AUTO_CDC_TARGET_NOT_STREAMING_TABLE 'totals' is a materialized view; AUTO CDC writes only to streaming tables.",
        ]);
    });

    test('an AUTO CDC target takes no append flow, whichever language each flow is in', async () => {
        const python = 'from pyspark import pipelines as dp\n\ndp.create_streaming_table("py_st")\n\n'
            + 'dp.create_auto_cdc_flow(target="sql_st", source="main.raw.changes", keys=["id"], sequence_by="seq")\n\n'
            + '@dp.append_flow(target="sql_cdc")\ndef more():\n    return spark.readStream.table("main.raw.more")\n';
        const result = await check({
            'flows.py': python,
            'flows.sql': [
                // SQL AUTO CDC and a SQL append flow into a Python streaming table.
                'CREATE FLOW py_cdc AS AUTO CDC INTO py_st FROM STREAM(raw.changes) KEYS (id) SEQUENCE BY seq;',
                'CREATE FLOW py_app AS INSERT INTO py_st BY NAME SELECT * FROM STREAM(raw.more);',
                // A SQL append flow into a SQL table that a Python AUTO CDC flow writes.
                'CREATE STREAMING TABLE sql_st;',
                'CREATE FLOW sql_app AS INSERT INTO sql_st BY NAME SELECT * FROM STREAM(raw.more);',
                // A SQL AUTO CDC target that a Python flow appends to.
                'CREATE STREAMING TABLE sql_cdc;',
                'CREATE FLOW sql_cdc_flow AS AUTO CDC INTO sql_cdc FROM STREAM(raw.changes) KEYS (id) SEQUENCE BY seq;',
            ].join('\n') + '\n',
        });
        expect(result['flows.sql'].filter(d => d.includes(' error ')).map(d => d.replace(/; an AUTO CDC target .*/, ''))).toEqual([
            "[2:49..2:79] error PIPELINE_SQL_CDC_TARGET_WITH_OTHER_FLOWS 'py_st' is an AUTO CDC target, but the flow 'py_app' appends to it",
            "[4:51..4:81] error PIPELINE_SQL_CDC_TARGET_WITH_OTHER_FLOWS 'sql_st' is an AUTO CDC target, but the flow 'sql_app' appends to it",
            "[6:43..6:50] error PIPELINE_SQL_CDC_TARGET_WITH_OTHER_FLOWS 'sql_cdc' is an AUTO CDC target, but the flow 'more' (flows.py:8) appends to it",
        ]);
    });

    test('a Python flow into a SQL materialized view is an error on the view, naming the flow', async () => {
        const result = await check({
            'flows.py': 'from pyspark import pipelines as dp\n\n@dp.append_flow(target="totals")\ndef more_totals():\n    return spark.readStream.table("main.raw.t")\n',
            'totals.sql': 'CREATE MATERIALIZED VIEW totals AS SELECT 1 AS id;\n',
        });
        expect(result['totals.sql']).toEqual([
            "[1:26..1:32] error PIPELINE_SQL_FLOW_TARGET_NOT_TABLE 'totals' is a materialized view, which only its own query writes, but the Python flow "
                + "'more_totals' (flows.py:4) writes to it; a flow writes to a streaming table or a managed table.",
        ]);
    });

    test('a SQL flow named like a Python flow is a duplicate naming the Python line', async () => {
        const result = await check({
            'flows.py': 'from pyspark import pipelines as dp\n\n@dp.append_flow(target="events", name="backfill")\ndef f():\n    return spark.readStream.table("main.raw.t")\n',
            'events.sql': 'CREATE STREAMING TABLE events;\nCREATE FLOW backfill AS INSERT INTO events BY NAME SELECT * FROM STREAM(raw.t);\n',
        });
        expect(result['events.sql'].filter(d => d.includes(' error '))).toEqual([
            "[2:13..2:21] error PIPELINE_DUPLICATE_IDENTIFIERS.FLOW The flow name 'backfill' is used more than once in this pipeline (also flows.py:3); flow names are unique.",
        ]);
    });

    test('under Apache Spark an AUTO CDC target written by a Python flow too has one flow too many', async () => {
        const result = await check({
            'flows.py': 'from pyspark import pipelines as dp\n\ndp.create_streaming_table("py_st")\n\n@dp.append_flow(target="py_st")\ndef more():\n    return spark.readStream.table("main.raw.t")\n',
            'cdc.sql': 'CREATE FLOW c AS AUTO CDC INTO py_st FROM STREAM(raw.changes) KEYS (id) SEQUENCE BY seq;\n',
        }, 'spark-4.1');
        expect(result['cdc.sql'].filter(d => d.includes('AUTOCDC_MULTIPLE_FLOWS_TO_TARGET'))).toEqual([
            "[1:32..1:37] error AUTOCDC_MULTIPLE_FLOWS_TO_TARGET Apache Spark allows one flow per AUTO CDC target, and 'py_st' has more.",
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
