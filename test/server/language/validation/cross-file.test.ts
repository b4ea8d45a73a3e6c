import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DocumentState, URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createPipelineSqlServices } from '../../../../server/src/language/index.js';
import { printDiagnostic } from '../../../helpers/pipeline.js';

let dir: string;
let services: ReturnType<typeof createPipelineSqlServices>;
/** The documents validated by the last update, by file name. */
let validated: string[];

beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-xfile-'));
    fs.writeFileSync(path.join(dir, 'spark-pipeline.yml'), 'name: xfile\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(dir, 'transformations'));
    services = createPipelineSqlServices(NodeFileSystem);
    await services.shared.pipeline.Project.loadFolder(dir);
    validated = [];
    services.shared.workspace.DocumentBuilder.onDocumentPhase(DocumentState.Validated, d => {
        validated.push(path.basename(d.uri.fsPath));
    });
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const uri = (file: string): URI => URI.file(path.join(dir, 'transformations', file));

/** Writes the files and builds them all, as the language server does when it starts. */
async function open(files: Record<string, string>): Promise<void> {
    const documents = [];
    for (const [file, text] of Object.entries(files)) {
        fs.writeFileSync(uri(file).fsPath, text);
    }
    // The project model lists the pipeline's files as the workspace manager's start-up does.
    await services.shared.pipeline.Project.loadFolder(dir);
    for (const file of Object.keys(files)) {
        documents.push(await services.shared.workspace.LangiumDocuments.getOrCreateDocument(uri(file)));
    }
    await services.shared.workspace.DocumentBuilder.build(documents, { validation: true });
    validated = [];
}

/** Changes one file on disk and lets the builder update, as for an edit or a file watcher event. */
async function edit(file: string, text: string | undefined): Promise<void> {
    validated = [];
    if (text === undefined) {
        fs.rmSync(uri(file).fsPath);
        await services.shared.workspace.DocumentBuilder.update([], [uri(file)]);
    } else {
        fs.writeFileSync(uri(file).fsPath, text);
        await services.shared.workspace.DocumentBuilder.update([uri(file)], []);
    }
}

function diagnostics(file: string): string[] {
    return (services.shared.workspace.LangiumDocuments.getDocument(uri(file))?.diagnostics ?? []).filter(d => d.severity !== 4).map(printDiagnostic);
}

describe('diagnostics follow edits in other files', () => {
    test('renaming a column upstream reaches a reader two files away (through a SELECT *), and renaming it back clears it', async () => {
        await open({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a, 2 AS b;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT * FROM x;',
            'c.sql': 'CREATE MATERIALIZED VIEW z AS SELECT b FROM y;',
            'd.sql': 'CREATE MATERIALIZED VIEW unrelated AS SELECT 1 AS one;',
        });
        expect(diagnostics('c.sql')).toEqual([]);
        await edit('a.sql', 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a, 2 AS c;');
        expect(diagnostics('c.sql')).toEqual([
            '[1:38..1:39] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'b\' does not exist in \'y\' (a, c).',
        ]);
        expect(validated.sort()).toEqual(['a.sql', 'b.sql', 'c.sql']);
        await edit('a.sql', 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a, 2 AS b;');
        expect(diagnostics('c.sql')).toEqual([]);
    });

    test('deleting the file that defines a dataset warns in the readers; creating it again clears the warning', async () => {
        await open({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT a FROM x;',
        });
        await edit('a.sql', undefined);
        expect(diagnostics('b.sql')).toEqual([
            '[1:45..1:46] warning TABLE_OR_VIEW_NOT_FOUND \'x\' is not a dataset of this pipeline and not in the sample catalog (no x under samples/); it may exist in the real catalog.',
        ]);
        fs.writeFileSync(uri('a2.sql').fsPath, 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;');
        validated = [];
        await services.shared.workspace.DocumentBuilder.update([uri('a2.sql')], []);
        expect(diagnostics('b.sql')).toEqual([]);
        expect(validated.sort()).toEqual(['a2.sql', 'b.sql']);
    });

    test('a second definition in another file makes both duplicates; removing it clears the first', async () => {
        await open({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'd.sql': 'CREATE MATERIALIZED VIEW other AS SELECT 1 AS a;',
        });
        await edit('d.sql', 'CREATE MATERIALIZED VIEW x AS SELECT 2 AS a;');
        expect(diagnostics('a.sql')).toEqual([
            '[1:26..1:27] error PIPELINE_DUPLICATE_IDENTIFIERS.DATASET The dataset \'x\' is defined more than once in this pipeline (also d.sql:1); each dataset has one definition.',
        ]);
        await edit('d.sql', 'CREATE MATERIALIZED VIEW other AS SELECT 1 AS a;');
        expect(diagnostics('a.sql')).toEqual([]);
    });

    test('a flow into a table that appears later in another file; the AUTO CDC rules of a target follow its flows', async () => {
        await open({
            'flows.sql': 'CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(src) KEYS (id) SEQUENCE BY seq;',
            'tables.sql': 'CREATE MATERIALIZED VIEW src AS SELECT 1 AS id, 2 AS seq;',
        });
        expect(diagnostics('flows.sql')).toEqual([
            '[1:32..1:33] error PIPELINE_SQL_FLOW_TARGET_NOT_FOUND The flow target \'t\' is not defined in this pipeline; declare it with CREATE STREAMING TABLE t.',
            '[1:46..1:49] error PIPELINE_SQL_STREAMING_READ_OF_MATERIALIZED_VIEW \'src\' is a materialized view, which cannot be read as a stream; read it without STREAM, or make it a streaming table.',
        ]);
        await edit('tables.sql', 'CREATE STREAMING TABLE src AS SELECT * FROM STREAM(raw);\nCREATE TABLE t;');
        expect(diagnostics('flows.sql')).toEqual([
            '[1:32..1:33] error MANAGED_TABLE_DOES_NOT_SUPPORT_CDC \'t\' is a managed table (CREATE TABLE), which only append flows may write; AUTO CDC needs a streaming table (CREATE STREAMING TABLE t).',
        ]);
        await edit('tables.sql', 'CREATE STREAMING TABLE src AS SELECT * FROM STREAM(raw);\nCREATE STREAMING TABLE t;');
        expect(diagnostics('flows.sql')).toEqual([]);
        expect(diagnostics('tables.sql')).toEqual([
            '[1:52..1:55] warning TABLE_OR_VIEW_NOT_FOUND \'raw\' is not a dataset of this pipeline and not in the sample catalog (no raw under samples/); it may exist in the real catalog.',
        ]);
    });

    test('an edit that changes nothing other files depend on revalidates only the edited file and its direct readers', async () => {
        await open({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT * FROM x;',
            'c.sql': 'CREATE MATERIALIZED VIEW z AS SELECT * FROM y;',
            'e.sql': 'CREATE MATERIALIZED VIEW e1 AS SELECT * FROM outside.table;',
        });
        await edit('a.sql', '-- a comment\nCREATE MATERIALIZED VIEW x AS SELECT 1 AS a;');
        expect(validated.sort()).toEqual(['a.sql', 'b.sql']);
        await edit('e.sql', 'CREATE MATERIALIZED VIEW e1 AS SELECT * FROM outside.table WHERE 1 = 1;');
        expect(validated.sort()).toEqual(['e.sql']);
    });

    test('a changed spark-pipeline.yml loads the files it now lists and unloads the others', async () => {
        fs.mkdirSync(path.join(dir, 'extra'));
        fs.writeFileSync(path.join(dir, 'extra', 'c.sql'), 'CREATE MATERIALIZED VIEW z AS SELECT 1 AS a;');
        await open({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT * FROM x JOIN z USING (a);',
        });
        expect(diagnostics('b.sql').map(d => d.slice(0, d.indexOf(' is not')))).toEqual(['[1:52..1:53] warning TABLE_OR_VIEW_NOT_FOUND \'z\'']);
        const spec = URI.file(path.join(dir, 'spark-pipeline.yml'));
        fs.writeFileSync(spec.fsPath, 'name: xfile\nlibraries:\n  - glob:\n      include: transformations/b.sql\n  - glob:\n      include: extra/**\n');
        await services.shared.workspace.DocumentBuilder.update([spec], []);
        expect(services.shared.workspace.LangiumDocuments.hasDocument(URI.file(path.join(dir, 'extra', 'c.sql')))).toBe(true);
        expect(services.shared.workspace.LangiumDocuments.hasDocument(uri('a.sql'))).toBe(false);
        expect(diagnostics('b.sql').map(d => d.slice(0, d.indexOf(' is not')))).toEqual(['[1:45..1:46] warning TABLE_OR_VIEW_NOT_FOUND \'x\'']);
    });

    test('a changed sample data file retypes the tables read from it', async () => {
        const csv = path.join(dir, 'samples', 'raw', 'orders.csv');
        fs.mkdirSync(path.dirname(csv), { recursive: true });
        fs.writeFileSync(csv, 'id,amount\n1,2.5\n');
        await open({ 'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT total FROM raw.orders;' });
        expect(diagnostics('b.sql')).toEqual(['[1:38..1:43] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'total\' does not exist in \'raw.orders\' (id, amount).']);
        fs.writeFileSync(csv, 'id,total\n1,2.5\n');
        await services.shared.workspace.DocumentBuilder.update([URI.file(csv)], []);
        expect(diagnostics('b.sql')).toEqual([]);
    });
});
