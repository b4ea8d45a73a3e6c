// Sample data from the editor (issue 16 item 5): the "no sample data" warning carries a quick fix that
// runs `Pipeline SQL: Create Sample Data`; its request writes the files, the warning goes away and the
// pipeline runs; "Use this File as Sample Data" copies a data file with a declaration. Both are refused
// in an untrusted workspace.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI, type LangiumDocument } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CancellationToken, type CodeAction, type Diagnostic } from 'vscode-languageserver';
import { CreateSampleDataCommand, UntrustedWorkspaceClass } from '../../../common/protocol.js';
import { PipelineRunHandler } from '../../../server/src/handlers/pipeline-run-handler.js';
import { RuntimeDiagnostics } from '../../../server/src/handlers/runtime-diagnostics.js';
import { SampleDataHandler } from '../../../server/src/handlers/sample-data-handler.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { repoRoot } from '../../helpers/lsp-client.js';

const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
let tmp: string;
const trusted = { trusted: true };

beforeAll(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-sample-handler-')));
    // As the language server does on `initialized`; pipelines copied in later are loaded by the tests.
    await shared.workspace.WorkspaceManager.initializeWorkspace([{ name: 'tmp', uri: URI.file(tmp).toString() }]);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of a repository pipeline without its samples, loaded into the workspace. */
async function pipelineWithoutSamples(from: string, name: string): Promise<string> {
    const to = path.join(tmp, name);
    fs.cpSync(path.join(repoRoot, from), to, { recursive: true, filter: source => !['.pipeline-sql', 'samples', 'tests'].includes(path.basename(source)) });
    await PipelineSql.shared.pipeline.Project.loadFolder(to);
    return to;
}

async function built(file: string): Promise<LangiumDocument> {
    const document = await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(file));
    await shared.workspace.DocumentBuilder.build([document], { validation: true });
    return document;
}

const noSampleData = (document: LangiumDocument): Diagnostic[] => (document.diagnostics ?? []).filter(d => d.code === 'TABLE_OR_VIEW_NOT_FOUND');

function quickFixes(document: LangiumDocument, diagnostics: Diagnostic[]): CodeAction[] {
    const range = diagnostics[0].range;
    return (PipelineSql.lsp.CodeActionProvider!.getCodeActions(document, { textDocument: { uri: document.uri.toString() }, range, context: { diagnostics } }) ?? []) as CodeAction[];
}

describe('Create Sample Data', () => {
    test('the warning offers the quick fix; its request creates the feed, the warning goes away, and the run shows SCD2 history', async () => {
        const root = await pipelineWithoutSamples('samples/users-cdc', 'users-cdc');
        const bronze = path.join(root, 'transformations/01_bronze_changes.sql');
        let document = await built(bronze);
        const warnings = noSampleData(document);
        expect(warnings.map(d => d.message)).toEqual([expect.stringContaining("'cdc_data.users' is not a dataset of this pipeline and not in the sample catalog")]);
        const fix = (await quickFixes(document, warnings)).find(a => a.command?.command === CreateSampleDataCommand);
        expect(fix?.title).toBe('Create sample data for the sources of this pipeline that have none');
        expect(fix?.command?.arguments).toEqual([document.uri.toString()]);

        const handler = new SampleDataHandler(shared, PipelineSql, trusted);
        const outcome = await handler.create({ uri: fix!.command!.arguments![0] as string }, CancellationToken.None);
        if (!outcome.ok) {
            throw new Error(outcome.error.message);
        }
        expect(outcome.sources.map(s => s.name)).toEqual(['cdc_data.users']);
        expect(outcome.sources[0].notes).toEqual(expect.arrayContaining(['a late event', 'a duplicate']));
        expect(outcome.written.map(f => path.relative(root, f)).sort()).toEqual(['samples/catalog.sql', 'samples/cdc_data/users/part-00001.csv', 'samples/cdc_data/users/part-00002.csv']);
        document = shared.workspace.LangiumDocuments.getDocument(URI.file(bronze))!;
        expect(noSampleData(document)).toEqual([]);

        const diagnostics = new RuntimeDiagnostics({ publish: () => undefined, validation: () => [] });
        const run = await new PipelineRunHandler(shared, PipelineSql, diagnostics).run({ uri: document.uri.toString(), scope: 'pipeline', fullRefresh: false, maxRows: 1000 }, CancellationToken.None);
        if (!run.ok) {
            throw new Error(run.error.message);
        }
        const history = run.datasets.find(d => d.name === 'users_history')!;
        const end = history.columns.findIndex(c => c.name === '__END_AT');
        expect(history.rows.some(r => r[end] !== null)).toBe(true);

        // Again: nothing to create, the samples are kept.
        const again = await handler.create({ uri: document.uri.toString() }, CancellationToken.None);
        expect(again.ok && again.sources.length === 0 && again.kept).toEqual(['cdc_data.users']);
    }, 120_000);

    test('refused in an untrusted workspace, and nothing is written', async () => {
        const root = await pipelineWithoutSamples('samples/prices-bitemporal', 'prices');
        const file = path.join(root, 'transformations/prices.sql');
        const outcome = await new SampleDataHandler(shared, PipelineSql, { trusted: false }).create({ uri: URI.file(file).toString() }, CancellationToken.None);
        expect(outcome.ok ? '' : outcome.error.class).toBe(UntrustedWorkspaceClass);
        expect(fs.existsSync(path.join(root, 'samples'))).toBe(false);
    });
});

describe('Use this File as Sample Data', () => {
    test('copies the file under samples/ and declares it with the inferred columns; a second copy is refused', async () => {
        const root = await pipelineWithoutSamples('samples/users-cdc', 'users-from-file');
        const data = path.join(root, 'exports', 'users.csv');
        fs.mkdirSync(path.dirname(data), { recursive: true });
        fs.writeFileSync(data, 'user_id,name,email,city,operation,event_ts\n1,Ada,a@x.org,London,INSERT,2025-01-01 09:00:00\n2,Alan,b@x.org,Paris,INSERT,2025-01-01 10:00:00\n1,Ada,a@x.org,Rome,UPDATE,2025-01-02 09:00:00\n');
        const handler = new SampleDataHandler(shared, PipelineSql, trusted);
        const outcome = await handler.useFile({ uri: URI.file(data).toString(), table: 'cdc_data.users', rows: 2 });
        if (!outcome.ok) {
            throw new Error(outcome.error.message);
        }
        expect(fs.readFileSync(path.join(root, 'samples/cdc_data/users/users.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(3);
        expect(fs.readFileSync(path.join(root, 'samples/catalog.sql'), 'utf8')).toContain(
            'CREATE TABLE cdc_data.users (\n  user_id BIGINT,\n  name STRING,\n  email STRING,\n  city STRING,\n  operation STRING,\n  event_ts TIMESTAMP\n) USING CSV LOCATION \'cdc_data/users\';');
        const document = await built(path.join(root, 'transformations/01_bronze_changes.sql'));
        expect(noSampleData(document)).toEqual([]);
        const again = await handler.useFile({ uri: URI.file(data).toString(), table: 'cdc_data.users' });
        expect(again.ok ? '' : again.error.message).toContain('exists already; it is never overwritten');
        const bad = await handler.useFile({ uri: URI.file(data).toString(), table: '../../etc' });
        expect(bad.ok ? '' : bad.error.message).toContain('is not a table name for sample data');
    }, 60_000);

    test('a large export: the first rows are copied (it is read a part at a time), the whole file when no count is given; the report counts the rows', async () => {
        const root = await pipelineWithoutSamples('samples/users-cdc', 'users-from-export');
        const data = path.join(root, 'exports', 'users.csv');
        fs.mkdirSync(path.dirname(data), { recursive: true });
        // About 2.4 MB: more than one read of 1 MiB; Windows line ends and a blank line in the middle.
        const rows = Array.from({ length: 40_000 }, (_, i) => `${i},user ${i},u${i}@example.org,City ${i % 97},INSERT,2025-01-01 09:00:00`);
        fs.writeFileSync(data, ['user_id,name,email,city,operation,event_ts', ...rows.slice(0, 20_000), '', ...rows.slice(20_000)].join('\r\n') + '\r\n');
        const handler = new SampleDataHandler(shared, PipelineSql, trusted);
        const few = await handler.useFile({ uri: URI.file(data).toString(), table: 'cdc_data.users', rows: 3 });
        expect(few.ok ? few.sources : few.error.message).toEqual([{ name: 'cdc_data.users', rows: 3, notes: ['copied from users.csv'] }]);
        expect(fs.readFileSync(path.join(root, 'samples/cdc_data/users/users.csv'), 'utf8').split('\n')).toEqual([
            'user_id,name,email,city,operation,event_ts', rows[0], rows[1], rows[2], '',
        ]);
        const all = await handler.useFile({ uri: URI.file(data).toString(), table: 'raw.users' });
        expect(all.ok ? all.sources : all.error.message).toEqual([{ name: 'raw.users', rows: 40_000, notes: ['copied from users.csv'] }]);
        expect(fs.readFileSync(path.join(root, 'samples/raw/users/users.csv'), 'utf8')).toBe(fs.readFileSync(data, 'utf8'));
        expect(fs.readFileSync(path.join(root, 'samples/catalog.sql'), 'utf8')).toMatch(/Copied from exports\/users\.csv\.\nCREATE TABLE raw\.users \(\n {2}user_id BIGINT,/);
    }, 60_000);
});
