// The run requests of the language server over real pipeline folders (copies of samples/ and of
// test/fixtures/preview/ in a temporary folder) with the real engine and DuckDB.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CancellationToken, CancellationTokenSource, type Diagnostic, type WorkDoneProgressReporter } from 'vscode-languageserver';
import type { RunFinishedParams, RunPipelineParams } from '../../../common/protocol.js';
import type { DatasetPreview, RunOutcome, RunSuccessModel } from '../../../common/result-model.js';
import { PipelineRunHandler } from '../../../server/src/handlers/pipeline-run-handler.js';
import { RuntimeDiagnostics } from '../../../server/src/handlers/runtime-diagnostics.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { repoRoot } from '../../helpers/lsp-client.js';

const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
let tmp: string;
const published = new Map<string, Diagnostic[]>();
const finished: RunFinishedParams[] = [];
let handler: PipelineRunHandler;

function newHandler(): PipelineRunHandler {
    const diagnostics = new RuntimeDiagnostics({
        publish: (uri, list) => published.set(uri, list),
        validation: uri => shared.workspace.LangiumDocuments.getDocument(URI.parse(uri))?.diagnostics ?? [],
    });
    return new PipelineRunHandler(shared, PipelineSql, diagnostics, params => finished.push(params));
}

/**
 * Copies a pipeline folder (from the repository) into the workspace and registers it as a pipeline
 * root, as the workspace manager does. State left in the repository's copy by `npm run demo` stays behind.
 */
async function copyPipeline(from: string, name = path.basename(from)): Promise<string> {
    const to = path.join(tmp, name);
    fs.cpSync(path.join(repoRoot, from), to, { recursive: true, filter: source => path.basename(source) !== '.pipeline-sql' });
    await PipelineSql.shared.pipeline.Project.loadFolder(to);
    return to;
}

const uriOf = (file: string) => URI.file(file).toString();

function params(file: string, extra: Partial<RunPipelineParams> = {}): RunPipelineParams {
    return { uri: uriOf(file), scope: 'pipeline', fullRefresh: false, maxRows: 1000, ...extra };
}

function success(outcome: RunOutcome): RunSuccessModel {
    if (!outcome.ok) {
        throw new Error(`expected a successful run, got ${outcome.error.class}: ${outcome.error.message}`);
    }
    return outcome;
}

function dataset(outcome: RunOutcome, name: string): DatasetPreview {
    const found = success(outcome).datasets.find(d => d.name === name);
    if (!found) {
        throw new Error(`no dataset ${name} in ${success(outcome).datasets.map(d => d.name).join(', ')}`);
    }
    return found;
}

/** A progress reporter that records what it was told. */
function recorder(): WorkDoneProgressReporter & { events: string[]; percentages: number[] } {
    const events: string[] = [];
    const percentages: number[] = [];
    return {
        events, percentages,
        begin: (title: string) => events.push(`begin ${title}`),
        report: (a: number | string, b?: string) => {
            if (typeof a === 'number') {
                percentages.push(a);
            }
            events.push(`report ${typeof a === 'string' ? a : b ?? ''}`);
        },
        done: () => events.push('done'),
    };
}

beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-run-handler-'));
    // As the language server does on `initialized`; pipelines copied in later are loaded by the handler.
    await shared.workspace.WorkspaceManager.initializeWorkspace([{ name: 'tmp', uri: URI.file(tmp).toString() }]);
    handler = newHandler();
});

afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
});

describe('users-cdc sample', () => {
    let root: string;
    let historyFile: string;
    beforeAll(async () => {
        root = await copyPipeline('samples/users-cdc');
        historyFile = path.join(root, 'transformations/03_users_history.sql');
    });

    test('"Run flow" on users_history runs it and what it reads, with progress, and returns its SCD2 versions', async () => {
        const progress = recorder();
        const outcome = await handler.run(params(historyFile, { scope: 'upstream', dataset: 'users_history' }), CancellationToken.None, progress);
        const run = success(outcome);
        expect(run.summary).toMatchObject({ scope: 'upstream', dataset: 'users_history', refreshed: ['users_changes', 'users_history'], documentUri: uriOf(historyFile) });
        expect(run.summary.pipeline).toEqual({ rootUri: uriOf(root), name: 'users_cdc' });
        // Only the upstream closure ran: the SCD1 table and the view over it were not updated.
        expect(run.datasets.map(d => [d.name, d.updated])).toEqual([['users_changes', true], ['users_history', true]]);
        const history = dataset(outcome, 'users_history');
        expect(history.cdc).toEqual({ storedAs: 'scd2', keys: ['user_id'], flow: 'users_history_cdc', snapshot: false });
        expect(history.location).toEqual({ uri: uriOf(historyFile), range: { start: { line: 2, character: 0 }, end: { line: 3, character: 39 } } });
        const alan = history.rows.filter(r => r.user_id === 2).map(r => `${r.name}|${r.city}|${r.__START_AT}|${r.__END_AT}`).sort();
        expect(alan).toEqual([
            'Alan M. Turing|Manchester|2025-01-02 15:00:00|2025-01-03 11:00:00',
            'Alan Turing|Cambridge|2025-01-03 11:00:00|2025-01-05 09:00:00',
            'Alan Turing|Manchester|2025-01-01 09:05:00|2025-01-02 15:00:00',
            'Alan Turing|Wilmslow|2025-01-05 09:00:00|null',
        ]);
        expect(history.changes).toMatchObject({ inserted: 9, updated: 0, deleted: 0 });
        expect(history.metrics).toEqual({ num_upserted_rows: 9, num_deleted_rows: 0 });
        const bronze = dataset(outcome, 'users_changes');
        expect(bronze.metrics?.expectations).toEqual({
            known_operation: { passed_records: 11, failed_records: 1, dropped_records: 1 },
            has_email: { passed_records: 10, failed_records: 1 },
        });
        expect(progress.events[0]).toBe('begin Pipeline SQL');
        expect(progress.events).toContain('report Running flow \'users_history_cdc\' into \'users_history\'');
        expect(progress.events[progress.events.length - 1]).toBe('done');
        expect(progress.percentages).toEqual([...progress.percentages].sort((a, b) => a - b));
        expect(finished[finished.length - 1]).toMatchObject({ rootUri: uriOf(root), ok: true, runId: run.summary.runId });
    });

    test('"Run pipeline" then runs the rest; an unchanged dataset reports no changes', async () => {
        const outcome = await handler.run(params(historyFile), CancellationToken.None);
        const run = success(outcome);
        expect(run.datasets.map(d => d.name)).toEqual(['users_changes', 'users_current', 'users_history', 'users_by_city']);
        expect(dataset(outcome, 'users_current').cdc?.storedAs).toBe('scd1');
        expect(dataset(outcome, 'users_by_city').rows).toEqual([{ city: 'Arlington', users: 1 }, { city: 'London', users: 1 }, { city: 'Wilmslow', users: 1 }]);
        // No new sample files: the streaming tables read nothing new.
        expect(dataset(outcome, 'users_history').changes ?? { inserted: 0, updated: 0, deleted: 0 }).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
    });

    test('"Full refresh" of one dataset recomputes it from all input', async () => {
        const outcome = await handler.run(params(historyFile, { scope: 'upstream', dataset: 'users_history', fullRefresh: true }), CancellationToken.None);
        expect(success(outcome).summary.fullRefresh).toBe(true);
        expect(dataset(outcome, 'users_history').rowCount).toBe(9);
        expect(dataset(outcome, 'users_history').changes).toMatchObject({ inserted: 9 });
    });

    test('rows past the row cap are paged in the order of the first rows', async () => {
        const full = dataset(await handler.run(params(historyFile, { maxRows: 1000 }), CancellationToken.None), 'users_history');
        const outcome = await handler.run(params(historyFile, { maxRows: 4 }), CancellationToken.None);
        const first = dataset(outcome, 'users_history');
        expect(first).toMatchObject({ rowCount: 9, truncated: true });
        expect(first.rows).toEqual(full.rows.slice(0, 4));
        const page = await handler.rows({ runId: outcome.summary.runId, dataset: 'USERS_HISTORY', offset: 4, limit: 3 });
        expect(page).toMatchObject({ ok: true, rowCount: 9, truncated: true });
        expect(page.ok && page.rows).toEqual(full.rows.slice(4, 7));
        const last = await handler.rows({ runId: outcome.summary.runId, dataset: 'users_history', offset: 7, limit: 100 });
        expect(last.ok && last.rows).toEqual(full.rows.slice(7));
        expect(last).toMatchObject({ truncated: false });
        // A later run makes the earlier run's pages stale.
        await handler.run(params(historyFile), CancellationToken.None);
        const stale = await handler.rows({ runId: outcome.summary.runId, dataset: 'users_history', offset: 4, limit: 3 });
        expect(stale).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_STALE_RUN' } });
    });

    test('the change events behind a key of the SCD2 table', async () => {
        const events = await handler.changeEvents({ uri: uriOf(historyFile), dataset: 'users_history', key: { user_id: 2 }, maxRows: 100 }, CancellationToken.None);
        expect(events.ok).toBe(true);
        if (events.ok) {
            expect(events.rows.map(e => [e._sequence, e._change, e.city])).toEqual([
                ['2025-01-01 09:05:00', 'upsert', 'Manchester'],
                ['2025-01-02 15:00:00', 'upsert', 'Manchester'],
                ['2025-01-03 11:00:00', 'upsert', 'Cambridge'],
                ['2025-01-05 09:00:00', 'upsert', 'Wilmslow'],
            ]);
        }
        const scd1 = await handler.changeEvents({ uri: uriOf(historyFile), dataset: 'users_by_city', key: {}, maxRows: 100 }, CancellationToken.None);
        expect(scd1).toMatchObject({ ok: false });
    });

    test('after a restart, the state request restores what the last run left', async () => {
        const restarted = newHandler();
        const outcome = await restarted.state({ uri: uriOf(historyFile), maxRows: 1000 }, CancellationToken.None);
        const restored = success(outcome);
        expect(restored.restored).toBe(true);
        expect(restored.datasets.map(d => [d.name, d.rowCount])).toEqual([['users_changes', 11], ['users_current', 3], ['users_history', 9], ['users_by_city', 3]]);
        expect(restored.datasets.every(d => d.changes === undefined && !d.updated)).toBe(true);
        // Its rows can be paged like a run's.
        const page = await restarted.rows({ runId: restored.summary.runId, dataset: 'users_changes', offset: 10, limit: 10 });
        expect(page).toMatchObject({ ok: true, rowCount: 11 });
    });

    test('a dataset the pipeline does not have is a typed failure', async () => {
        const outcome = await handler.run(params(historyFile, { scope: 'upstream', dataset: 'no_such_table' }), CancellationToken.None);
        expect(outcome).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_UNKNOWN_DATASET', message: 'The pipeline has no dataset or flow named \'no_such_table\'.' } });
    });

    test('a flow name selects the dataset it writes', async () => {
        const outcome = await handler.run(params(historyFile, { scope: 'upstream', dataset: 'users_current_cdc' }), CancellationToken.None);
        expect(success(outcome).summary.refreshed).toEqual(['users_changes', 'users_current']);
    });

    test('"Run from here" runs the dataset and everything downstream of it', async () => {
        const outcome = await handler.run(params(historyFile, { scope: 'downstream', dataset: 'users_current' }), CancellationToken.None);
        expect(success(outcome).summary.refreshed).toEqual(['users_current', 'users_by_city']);
        expect(success(outcome).datasets.filter(d => d.updated).map(d => d.name)).toEqual(['users_current', 'users_by_city']);
    });
});

describe('cancellation', () => {
    test('cancelling a run rolls the update back: the state is as before', async () => {
        const root = await copyPipeline('samples/users-cdc', 'users-cancel');
        const file = path.join(root, 'transformations/01_bronze_changes.sql');
        const source = new CancellationTokenSource();
        const progress = recorder();
        const cancelling: WorkDoneProgressReporter = {
            ...progress,
            report: (a: number | string, b?: string) => {
                progress.report(a as number, b as string);
                // Cancel as soon as the first flow starts.
                if (String(b ?? a).startsWith('Running flow')) {
                    source.cancel();
                }
            },
        };
        const outcome = await handler.run(params(file), source.token, cancelling);
        expect(outcome).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_CANCELLED' } });
        const state = success(await handler.state({ uri: uriOf(file), maxRows: 10 }, CancellationToken.None));
        expect(state.datasets).toEqual([]);
        // The next run works and reads everything.
        expect(dataset(await handler.run(params(file), CancellationToken.None), 'users_changes').rowCount).toBe(11);
    });
});

describe('runtime errors become diagnostics on the responsible clause', () => {
    test('a NULL sequence value is reported on SEQUENCE BY with the error class as code, and cleared by the next successful run', async () => {
        const root = await copyPipeline('test/fixtures/preview/broken-sequence');
        const file = path.join(root, 'transformations/customers.sql');
        const outcome = await handler.run(params(file, { scope: 'upstream', dataset: 'customers' }), CancellationToken.None);
        expect(outcome.ok).toBe(false);
        if (outcome.ok) {
            return;
        }
        expect(outcome.error).toMatchObject({
            class: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE', dataset: 'customers', flow: 'customers_cdc',
            location: { uri: uriOf(file), range: { start: { line: 8, character: 0 }, end: { line: 8, character: 22 } } },
        });
        const diagnostics = published.get(uriOf(file)) ?? [];
        expect(diagnostics.map(d => `[${d.range.start.line}:${d.range.start.character}..${d.range.end.line}:${d.range.end.character}] ${d.code}`))
            .toEqual(['[8:0..8:22] AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE']);
        const text = fs.readFileSync(file, 'utf8').split('\n')[8];
        expect(text).toBe('SEQUENCE BY changed_at');
        expect(finished[finished.length - 1]).toMatchObject({ ok: false, errorClass: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE', diagnosedUris: [uriOf(file)] });

        // Fix the data and run again: the diagnostic goes away.
        fs.writeFileSync(path.join(root, 'samples/crm/customer_changes/part-00001.jsonl'),
            '{"customer_id": 1, "tier": "silver", "op": "INSERT", "changed_at": "2025-02-01 08:00:00"}\n');
        const fixed = await handler.run(params(file, { scope: 'upstream', dataset: 'customers' }), CancellationToken.None);
        expect(dataset(fixed, 'customers').rows).toEqual([{ customer_id: 1, tier: 'silver', __START_AT: '2025-02-01 08:00:00', __END_AT: null }]);
        expect(published.get(uriOf(file))).toEqual([]);
    });

    test('a pipeline with a syntax error does not run; the error names the clause', async () => {
        const root = await copyPipeline('test/fixtures/preview/markup-values', 'syntax-error');
        const file = path.join(root, 'transformations/comments.sql');
        fs.writeFileSync(file, 'CREATE OR REFRESH STREAMNG TABLE comments AS SELECT 1 AS id;\n');
        const outcome = await handler.run(params(file), CancellationToken.None);
        expect(outcome).toMatchObject({ ok: false, error: { class: 'PARSE_SYNTAX_ERROR', location: { uri: uriOf(file) } } });
    });

    test('a project file that is not YAML stops the run; the error points into the project file', async () => {
        const to = path.join(tmp, 'bad-project-file');
        fs.cpSync(path.join(repoRoot, 'test/fixtures/preview/markup-values'), to, { recursive: true });
        const specFile = path.join(to, 'spark-pipeline.yml');
        fs.writeFileSync(specFile, 'name: bad\nlibraries: [unclosed\n');
        await PipelineSql.shared.pipeline.Project.loadFolder(to);
        const outcome = await handler.run(params(path.join(to, 'transformations/comments.sql')), CancellationToken.None);
        expect(outcome).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_INVALID_PROJECT_FILE', location: { uri: uriOf(specFile) } } });
        if (!outcome.ok) {
            expect(outcome.error.message).toMatch(/^spark-pipeline\.yml is not valid YAML: /);
            expect(outcome.error.location?.range.start.line).toBeGreaterThanOrEqual(1);
        }
    });
});

describe('bitemporal pipelines', () => {
    test('golden 09 as a pipeline folder: the six rows of the four steps, marked as a bitemporal target', async () => {
        const root = await copyPipeline('test/fixtures/preview/company-bitemporal');
        const outcome = await handler.run(params(path.join(root, 'transformations/company.sql'), { scope: 'upstream', dataset: 'company_bitemporal' }), CancellationToken.None);
        const target = dataset(outcome, 'company_bitemporal');
        expect(target.cdc).toEqual({ storedAs: 'bitemporal', keys: ['company_id'], flow: 'company_bitemporal', snapshot: false });
        const rows = target.rows.map(r => `${r.data_point} ${r.__START_AT}–${r.__END_AT} @ ${r.__SYSTEM_START_AT}–${r.__SYSTEM_END_AT}`).sort();
        expect(rows).toEqual([
            'XFv1 2025-07-18 10:01:00–2025-07-18 12:05:00 @ 2025-07-18 12:25:00–null',
            'XFv1 2025-07-18 10:01:00–2025-07-18 12:15:43 @ 2025-07-18 12:20:00–2025-07-18 12:25:00',
            'XFv1 2025-07-18 10:01:00–null @ 2025-07-18 10:05:00–2025-07-18 12:20:00',
            'XFv2 2025-07-18 12:15:43–2025-07-18 12:30:00 @ 2025-07-18 12:30:00–null',
            'XFv2 2025-07-18 12:15:43–null @ 2025-07-18 12:20:00–2025-07-18 12:30:00',
            'XFv3 2025-07-18 12:05:00–2025-07-18 12:15:43 @ 2025-07-18 12:25:00–null',
        ]);
    });

    test('the prices sample keeps both timelines', async () => {
        const root = await copyPipeline('samples/prices-bitemporal');
        const outcome = await handler.run(params(path.join(root, 'transformations/prices.sql')), CancellationToken.None);
        expect(dataset(outcome, 'prices').cdc?.storedAs).toBe('bitemporal');
        expect(dataset(outcome, 'current_prices').rows.map(r => r.instrument).sort()).toEqual(['ACME', 'INITECH']);
    });
});
