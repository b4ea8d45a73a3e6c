/**
 * The language server's side of the VS Code Test Explorer: describes a test file (its name and
 * updates) and runs it in the server process with the one test runner (`server/src/testing/`), on
 * the workspace's own documents. Runs are refused in an untrusted workspace.
 */
import * as path from 'node:path';
import { URI, type LangiumDocument } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { UntrustedWorkspaceClass, type TestFileModel, type TestFileParams, type TestProblemModel, type TestRunModel, type TestUpdateResultModel } from '../../../common/protocol.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { readTestFile, type TestFile } from '../testing/test-file.js';
import { pipelineOfTest, runTest, updateLabel, type TestOutcome, type UpdateProblem } from '../testing/test-runner.js';
import { plainFailureText, problemLines, palette } from '../testing/test-report.js';
import { rowText } from '../testing/test-update.js';
import { documentsFor } from './pipeline-sources.js';
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
