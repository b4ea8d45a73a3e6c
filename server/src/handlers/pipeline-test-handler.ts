/**
 * The language server's side of the VS Code Test Explorer: describes a test file (its name and
 * updates) and runs it in the server process with the one test runner (`server/src/testing/`), on
 * the workspace's own documents. Runs are refused in an untrusted workspace.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { UntrustedWorkspaceClass, type RecordTestParams, type RecordTestResult, type TestFileModel, type TestFileParams, type TestProblemModel, type TestRunModel, type TestUpdateResultModel } from '../../../common/protocol.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { readTestFile, type TestFile } from '../testing/test-file.js';
import { pipelineOfTest, runTest, updateLabel, type TestOutcome, type UpdateProblem } from '../testing/test-runner.js';
import { plainFailureText, problemLines, palette } from '../testing/test-report.js';
import { rowText } from '../testing/test-update.js';
import { documentsFor } from './pipeline-sources.js';
import type { LastUpdate } from './pipeline-run-handler.js';
import { recordTest } from '../testing/test-recorder.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

export class PipelineTestHandler {
    constructor(
        private readonly shared: LangiumSharedServices,
        private readonly services: PipelineSqlServices,
        /** The workspace's trust (the run handler's): nothing runs in an untrusted workspace. */
        private readonly trust: { readonly trusted: boolean } = { trusted: true },
    ) {}

    private async read(params: TestFileParams): Promise<TestFile> {
        const file = URI.parse(params.uri).fsPath;
        const text = params.text ?? await this.services.shared.pipeline.Project.files.readFile(file) ?? '';
        return readTestFile(file, text);
    }

    /** The test file's name, updates and problems. */
    async describe(params: TestFileParams): Promise<TestFileModel> {
        const test = await this.read(params);
        return {
            uri: params.uri, name: test.name,
            updates: test.updates.map(u => ({ index: u.index, label: updateLabel(u), line: u.line })),
            problems: test.problems.map(p => ({ line: p.line, message: `${p.code}: ${p.message}` })),
        };
    }

    /**
     * Records a test from the last run of a document's pipeline (see `pipelineSql/recordTest`): writes
     * `tests/<name>.test.yml` under the pipeline's root (a new file: an existing one is never replaced).
     */
    async record(params: RecordTestParams, runs: { lastUpdate(uri: string): LastUpdate | undefined }, token: CancellationToken): Promise<RecordTestResult> {
        if (!this.trust.trusted) {
            return { ok: false, error: { class: UntrustedWorkspaceClass, message: 'This workspace is not trusted (Restricted Mode), so Pipeline SQL does not record tests: that would evaluate the workspace\'s SQL. Trust the workspace to record one.' } };
        }
        await this.shared.workspace.WorkspaceManager.ready;
        const last = runs.lastUpdate(params.uri);
        if (!last) {
            return { ok: false, error: { class: ErrorClass.noRunToRecord, message: 'This pipeline has not been run since the editor started: run a flow (or the pipeline), then record its test.' } };
        }
        const name = params.name ?? `${last.dataset ?? last.pipeline.name ?? 'pipeline'} as last run`;
        const folder = path.join(last.pipeline.root, 'tests');
        let file = path.join(folder, `${testFileSlug(name)}.test.yml`);
        const taken = (candidate: string): Promise<boolean> => fs.promises.access(candidate).then(() => true, () => false);
        for (let n = 2; await taken(file); n++) {
            file = path.join(folder, `${testFileSlug(name)}-${n}.test.yml`);
        }
        const abort = new AbortController();
        const subscription = token.onCancellationRequested(() => abort.abort());
        try {
            const recorded = await recordTest({
                services: this.services, signal: abort.signal,
                documentsFor: (uris: readonly URI[]): Promise<LangiumDocument[]> => documentsFor(this.shared, uris, token),
            }, last.pipeline.project, { ir: last.pipeline.ir, inspect: last.inspect, startedAt: last.startedAt, datasets: last.datasets, pipelineKey: last.pipeline.project.key }, file, name);
            if (!recorded.ok) {
                return recorded;
            }
            await fs.promises.mkdir(folder, { recursive: true });
            await fs.promises.writeFile(file, recorded.text, { flag: 'wx' });
            return { ok: true, uri: URI.file(file).toString(), inputs: recorded.inputs, datasets: last.datasets };
        } finally {
            subscription.dispose();
        }
    }

    /** Runs the test file against its pipeline. */
    async run(params: TestFileParams, token: CancellationToken): Promise<TestRunModel> {
        const started = Date.now();
        const test = await this.read(params);
        const refuse = (error: NonNullable<TestRunModel['error']>): TestRunModel => ({
            uri: params.uri, name: test.name, status: 'error', durationMs: Date.now() - started, updates: [], error, report: `${error.class}: ${error.message}\n`,
        });
        if (!this.trust.trusted) {
            return refuse({ class: UntrustedWorkspaceClass, message: 'This workspace is not trusted (Restricted Mode), so Pipeline SQL does not run its tests: that would evaluate the workspace\'s SQL. Trust the workspace to run them.' });
        }
        await this.shared.workspace.WorkspaceManager.ready;
        const project = this.services.shared.pipeline.Project;
        await project.ensureFile(test.file);
        const owner = pipelineOfTest(test, project.allPipelines());
        if ('error' in owner) {
            return refuse({ class: ErrorClass.testNoPipeline, message: owner.error, uri: params.uri, line: 1 });
        }
        const abort = new AbortController();
        const subscription = token.onCancellationRequested(() => abort.abort());
        try {
            const outcome = await runTest({
                services: this.services, signal: abort.signal,
                documentsFor: (uris: readonly URI[]): Promise<LangiumDocument[]> => documentsFor(this.shared, uris, token),
            }, owner.pipeline, test);
            return toModel(params.uri, outcome);
        } finally {
            subscription.dispose();
        }
    }
}

/** A test's name as a file name: `users_history as last run` → `users_history-as-last-run`. */
export function testFileSlug(name: string): string {
    return name.toLowerCase().replace(/[^a-z0-9_]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'recorded';
}

function toModel(uri: string, outcome: TestOutcome): TestRunModel {
    const updates: TestUpdateResultModel[] = outcome.updates.map(u => ({
        index: u.index, label: u.label, line: u.line, status: u.status, durationMs: u.durationMs, problems: u.problems.map(problemModel),
    }));
    const error = outcome.error
        ? { class: outcome.error.class, message: outcome.error.message, ...(outcome.error.file ? { uri: URI.file(path.resolve(outcome.error.file)).toString(), line: outcome.error.line } : {}) }
        : undefined;
    return { uri, name: outcome.name, status: outcome.status, durationMs: outcome.durationMs, updates, ...(error ? { error } : {}), report: plainFailureText(outcome) };
}

/** A problem for the editor: its message and, for rows, the expected and actual rows one per line. */
function problemModel(problem: UpdateProblem): TestProblemModel {
    const message = problemLines(problem, palette(false, {})).join('\n');
    if (problem.kind === 'rows' && problem.diff.unknownColumns.length === 0) {
        const columns = problem.diff.columns.map(c => c.name);
        const lower = (row: Record<string, unknown>) => new Map(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
        const expected = problem.expected.map(row => {
            const values = lower(row);
            return rowText(Object.fromEntries(columns.map(c => [c, (values.get(c.toLowerCase()) ?? null) as never])), columns);
        });
        const actual = (problem.diff.aligned ?? problem.diff.actual).map(row => rowText(row, columns));
        return { line: problem.line, message, expected: expected.map(l => `- ${l}\n`).join(''), actual: actual.map(l => `- ${l}\n`).join('') };
    }
    if (problem.kind === 'metrics') {
        return { line: problem.line, message, expected: `${problem.path}: ${JSON.stringify(problem.expected)}\n`, actual: `${problem.path}: ${JSON.stringify(problem.actual ?? null)}\n` };
    }
    return { line: problem.line, message };
}
