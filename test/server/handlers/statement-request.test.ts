// "Run on local state" (`pipelineSql/runStatement`, issue 12): a statement of a scratch `.sql` file in a
// pipeline's folder (outside its libraries) runs on that pipeline's state, with the real engine.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CancellationToken } from 'vscode-languageserver';
import type { StatementOutcome } from '../../../common/result-model.js';
import { PipelineRunHandler } from '../../../server/src/handlers/pipeline-run-handler.js';
import { PipelineSqlCodeLensProvider } from '../../../server/src/language/lsp/pipeline-sql-code-lens-provider.js';
import { RuntimeDiagnostics } from '../../../server/src/handlers/runtime-diagnostics.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { repoRoot } from '../../helpers/lsp-client.js';

const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
let tmp: string;
let root: string;
let scratch: string;

function handlerWith(trusted: boolean): PipelineRunHandler {
    const diagnostics = new RuntimeDiagnostics({ publish: () => undefined, validation: () => [] });
    return new PipelineRunHandler(shared, PipelineSql, diagnostics, () => undefined, { trusted });
}

let handler: PipelineRunHandler;

async function statement(text: string, start = { line: 0, character: 0 }): Promise<StatementOutcome> {
    return handler.statement({ uri: URI.file(scratch).toString(), text, start, maxRows: 100 }, CancellationToken.None);
}

beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-statement-'));
    await shared.workspace.WorkspaceManager.initializeWorkspace([{ name: 'tmp', uri: URI.file(tmp).toString() }]);
    root = path.join(tmp, 'users-cdc');
    fs.cpSync(path.join(repoRoot, 'samples', 'users-cdc'), root, { recursive: true, filter: source => path.basename(source) !== '.pipeline-sql' });
    await PipelineSql.shared.pipeline.Project.loadFolder(root);
    // A scratch file beside the libraries (transformations/**): not a source of the pipeline.
    scratch = path.join(root, 'scratch.sql');
    fs.writeFileSync(scratch, 'SELECT 1;\n');
    handler = handlerWith(true);
    const run = await handler.run({ uri: URI.file(path.join(root, 'transformations', '02_users_current.sql')).toString(), scope: 'pipeline', fullRefresh: false, maxRows: 100 }, CancellationToken.None);
    expect(run.ok, JSON.stringify(run.ok ? '' : run.error)).toBe(true);
}, 120_000);

afterAll(() => {
    handler.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
});

describe('pipelineSql/runStatement', () => {
    test('a SELECT in a scratch file reads the datasets of the pipeline whose folder holds it', async () => {
        const outcome = await statement('SELECT count(*) AS n FROM users_current');
        expect(outcome).toMatchObject({ ok: true, kind: 'query', columns: [{ name: 'n', type: 'BIGINT' }], pipeline: { name: 'users_cdc' } });
        expect(outcome.ok && Number(outcome.rows[0].n)).toBeGreaterThan(0);
    });

    test('a GDPR DELETE on the SCD1 target writes a version whose feed is the removed row', async () => {
        const before = await statement('SELECT user_id FROM users_current ORDER BY user_id LIMIT 1');
        const id = before.ok ? Number(before.rows[0].user_id) : NaN;
        const outcome = await statement(`DELETE FROM users_current WHERE user_id = ${id}`);
        expect(outcome).toMatchObject({ ok: true, kind: 'delete', dataset: 'users_current', version: { operation: 'DELETE', metrics: { numDeletedRows: 1 } } });
        expect(outcome.ok && outcome.rows.map(r => [r.user_id, r._change_type])).toEqual([[id, 'delete']]);
        const after = await statement(`SELECT count(*) AS n FROM users_current WHERE user_id = ${id}`);
        expect(after.ok && Number(after.rows[0].n)).toBe(0);
    });

    test('pipelineSql/versionChanges lists the versions and gives the feed of one (the Changes view\'s history picker)', async () => {
        const uri = URI.file(path.join(root, 'transformations', '02_users_current.sql')).toString();
        const latest = await handler.versionChanges({ uri, dataset: 'users_current', maxRows: 100 }, CancellationToken.None);
        expect(latest.ok).toBe(true);
        if (!latest.ok) {
            return;
        }
        expect(latest.versions.map(v => `${v.version} ${v.operation}`)).toEqual(['0 CREATE', '1 PIPELINE UPDATE', '2 DELETE']);
        expect(latest.version).toBe(2);
        expect(latest.rows.map(r => r._change_type)).toEqual(['delete']);
        const first = await handler.versionChanges({ uri, dataset: 'users_current', version: 1, maxRows: 100 }, CancellationToken.None);
        expect(first.ok && first.rows.every(r => r._change_type === 'insert') && first.rows.length).toBeGreaterThan(0);
        expect(first.ok && first.columns.map(c => c.name)).not.toContain('_commit_version');
        expect(await handler.versionChanges({ uri, dataset: 'users_current', version: 9, maxRows: 100 }, CancellationToken.None)).toMatchObject({ ok: false, error: { message: /has no version 9/ } });
    });

    test('an error is placed in the document at the statement, with its class', async () => {
        const outcome = await statement('UPDATE users_by_city SET users = 0', { line: 4, character: 2 });
        expect(outcome).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_DML_NOT_ALLOWED' } });
        const syntax = await statement('SELECT FROM WHERE', { line: 4, character: 2 });
        expect(syntax).toMatchObject({ ok: false, error: { class: 'PARSE_SYNTAX_ERROR', location: { uri: URI.file(scratch).toString(), range: { start: { line: 4 } } } } });
        expect(await statement('SELECT 1; SELECT 2')).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_INVALID_STATEMENT' } });
    });

    test('"Run on local state" lenses above the queries and DML of the scratch file, none in the pipeline\'s sources', async () => {
        fs.writeFileSync(scratch, '-- try things\nSELECT * FROM users_current;\n\nDELETE FROM users_current\nWHERE user_id = 2;\nSET x = 1;\n');
        const provider = new PipelineSqlCodeLensProvider(PipelineSql);
        const document = await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(scratch));
        const lenses = await provider.provideCodeLens(document, { textDocument: { uri: document.uri.toString() } });
        expect(lenses.map(l => [l.range.start.line, l.command?.title, l.command?.command, (l.command?.arguments?.[0] as { text: string }).text])).toEqual([
            [1, '$(play) Run on local state', 'pipelineSql.runOnLocalState', 'SELECT * FROM users_current'],
            [3, '$(play) Run on local state', 'pipelineSql.runOnLocalState', 'DELETE FROM users_current\nWHERE user_id = 2'],
        ]);
        const source = await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(path.join(root, 'transformations', '02_users_current.sql')));
        expect((await provider.provideCodeLens(source, { textDocument: { uri: source.uri.toString() } })).map(l => l.command?.command)).not.toContain('pipelineSql.runOnLocalState');
    });

    test('a scratch file needs no mode switch to check: its names are the pipeline\'s datasets, its typos are reported', async () => {
        const file = path.join(root, 'gdpr.sql');
        fs.writeFileSync(file, [
            'SELECT user_id, name FROM users_current;',
            'DELETE FROM users_current WHERE user_id = 1;',
            "UPDATE users_history SET city = 'Paris' WHERE user_id = 2;",
            'MERGE INTO users_current t USING (SELECT 3 AS user_id) s ON t.user_id = s.user_id WHEN MATCHED THEN DELETE;',
            'DESCRIBE HISTORY users_history;',
            'SELECT nme FROM users_current;',
            'DELETE FROM users_curent WHERE user_id = 1;',
            '',
        ].join('\n'));
        const uri = URI.file(file);
        const document = await shared.workspace.LangiumDocuments.getOrCreateDocument(uri);
        await shared.workspace.DocumentBuilder.build([document], { validation: true });
        expect(PipelineSql.shared.pipeline.Registry.membershipOf(uri)).toMatchObject({ role: 'scratch', pipeline: { id: root, spec: { name: 'users_cdc' } } });
        expect(document.diagnostics?.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`)).toEqual([
            '6:8 UNRESOLVED_COLUMN.WITH_SUGGESTION',
            '7:13 TABLE_OR_VIEW_NOT_FOUND',
        ]);
        expect(document.diagnostics?.[1].message).toMatch(/Did you mean 'users_current'\?/);
        const lenses = await new PipelineSqlCodeLensProvider(PipelineSql).provideCodeLens(document, { textDocument: { uri: uri.toString() } });
        expect(lenses.filter(l => l.command?.command === 'pipelineSql.runOnLocalState')).toHaveLength(7);

        // Once it defines a dataset it is no scratch file: a file of its own again (its reads no longer resolve).
        fs.writeFileSync(file, 'CREATE MATERIALIZED VIEW mine AS SELECT * FROM mine_source;\nSELECT * FROM users_current;\n');
        await shared.workspace.DocumentBuilder.update([uri], []);
        expect(PipelineSql.shared.pipeline.Registry.membershipOf(uri).role).toBe('pipeline');
        const after = shared.workspace.LangiumDocuments.getDocument(uri)!;
        expect(after.diagnostics?.map(d => String(d.code))).toContain('PIPELINE_SQL_STATEMENT_NOT_IN_PIPELINE');
        await shared.workspace.DocumentBuilder.update([], [uri]);
    });

    test('columns inside DML of a scratch file resolve against the target (and MERGE\'s source); a misspelt one is reported', async () => {
        const file = path.join(root, 'fixes.sql');
        fs.writeFileSync(file, [
            "UPDATE users_current u SET city = upper(u.city) WHERE u.user_id = 2 AND name <> 'x';",
            'DELETE FROM users_current WHERE user_idd = 1;',
            "UPDATE users_history SET city = 'Paris' WHERE nmae = 'Ada';",
            'MERGE INTO users_current t USING (SELECT 3 AS user_id) s ON t.user_id = s.usr_id WHEN MATCHED THEN UPDATE SET city = s.user_id;',
            '',
        ].join('\n'));
        const uri = URI.file(file);
        const document = await shared.workspace.LangiumDocuments.getOrCreateDocument(uri);
        await shared.workspace.DocumentBuilder.build([document], { validation: true });
        expect(PipelineSql.shared.pipeline.Registry.membershipOf(uri).role).toBe('scratch');
        expect(document.diagnostics?.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`)).toEqual([
            '2:33 UNRESOLVED_COLUMN.WITH_SUGGESTION',
            '3:47 UNRESOLVED_COLUMN.WITH_SUGGESTION',
            '4:73 UNRESOLVED_COLUMN.WITH_SUGGESTION',
        ]);
        expect(document.diagnostics?.[0].message).toMatch(/user_id/);
        expect(document.diagnostics?.[1].message).toMatch(/name/);
        await shared.workspace.DocumentBuilder.update([], [uri]);
        fs.rmSync(file);
    });

    test('refused in an untrusted workspace: nothing runs', async () => {
        const untrusted = handlerWith(false);
        const outcome = await untrusted.statement({ uri: URI.file(scratch).toString(), text: 'DELETE FROM users_current', start: { line: 0, character: 0 }, maxRows: 10 }, CancellationToken.None);
        expect(outcome).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_UNTRUSTED_WORKSPACE' } });
        const count = await statement('SELECT count(*) AS n FROM users_current');
        expect(count.ok && Number(count.rows[0].n)).toBeGreaterThan(0);
    });
});
