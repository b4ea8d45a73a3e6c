/**
 * Pipeline tests in VS Code's Test Explorer: every `*.test.yml` file of the workspace is a test and
 * each of its updates a child test. Runs go to the language server (`pipelineSql/runTestFile`), which
 * runs them with the bundled engine; nothing runs in the extension host, and nothing runs in an
 * untrusted workspace. A failing `expect` shows as a message on its line with the expected and the
 * actual rows in the diff view.
 */
import * as vscode from 'vscode';
import { DescribeTestFileRequest, RecordTestRequest, RunTestFileRequest, type TestProblemModel, type TestRunModel } from '../../common/protocol.js';
import { CommandIds, LanguageId } from './config.js';
import type { PipelineSqlClient } from './language-client.js';

const TestFileGlob = '**/*.test.{yml,yaml}';
const Excluded = '{**/node_modules/**,**/.pipeline-sql/**}';

/** Registers the test controller, its discovery of test files and its run profile. */
export function registerTestExplorer(client: PipelineSqlClient): vscode.Disposable {
    const controller = vscode.tests.createTestController('pipelineSql.tests', 'Pipeline SQL tests');
    const disposables: vscode.Disposable[] = [controller];

    /** Describes a test file through the server and (re)builds its item and its updates' items. */
    const refresh = async (uri: vscode.Uri): Promise<vscode.TestItem | undefined> => {
        if (uri.scheme !== 'file') {
            return undefined;
        }
        const languageClient = await client.running();
        const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
        const model = await languageClient.sendRequest(DescribeTestFileRequest, { uri: uri.toString(), ...(open ? { text: open.getText() } : {}) });
        const item = controller.items.get(uri.toString()) ?? controller.createTestItem(uri.toString(), model.name, uri);
        item.label = model.name;
        item.description = vscode.workspace.asRelativePath(uri);
        item.range = new vscode.Range(0, 0, 0, 0);
        item.error = model.problems.length > 0 ? model.problems.map(p => `line ${p.line}: ${p.message}`).join('\n') : undefined;
        item.children.replace(model.updates.map(update => {
            const child = controller.createTestItem(`${uri.toString()}#${update.index}`, update.label, uri);
            child.range = new vscode.Range(update.line - 1, 0, update.line - 1, 0);
            return child;
        }));
        controller.items.add(item);
        return item;
    };

    const discover = async (): Promise<void> => {
        const files = await vscode.workspace.findFiles(TestFileGlob, Excluded);
        await Promise.all(files.map(f => refresh(f).catch(error => console.error(`Pipeline SQL: cannot read ${f.fsPath}:`, error))));
    };
    controller.resolveHandler = async item => {
        if (!item) {
            await discover();
        }
    };
    controller.refreshHandler = async () => {
        controller.items.replace([]);
        await discover();
    };

    const watcher = vscode.workspace.createFileSystemWatcher(TestFileGlob);
    disposables.push(
        watcher,
        watcher.onDidCreate(uri => void refresh(uri)),
        watcher.onDidChange(uri => void refresh(uri)),
        watcher.onDidDelete(uri => controller.items.delete(uri.toString())),
        vscode.workspace.onDidSaveTextDocument(document => {
            if (/\.test\.ya?ml$/i.test(document.uri.path)) {
                void refresh(document.uri);
            }
        }),
    );

    disposables.push(vscode.commands.registerCommand(CommandIds.recordTest, () => recordTest(client, async uri => {
        const item = await refresh(uri);
        if (item) {
            controller.invalidateTestResults?.(item);
        }
    })));

    const run = async (request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> => {
        const testRun = controller.createTestRun(request);
        // The files to run, and for each which of its items were asked for (a file runs whole: updates build on each other).
        const files = new Map<string, { file: vscode.TestItem; asked: Set<string> | 'all' }>();
        const roots: vscode.TestItem[] = [];
        if (request.include) {
            roots.push(...request.include);
        } else {
            controller.items.forEach(item => roots.push(item));
        }
        for (const item of roots) {
            const file = item.parent ?? item;
            const entry = files.get(file.id) ?? { file, asked: new Set<string>() };
            if (item.parent) {
                if (entry.asked !== 'all') {
                    entry.asked.add(item.id);
                }
            } else {
                entry.asked = 'all';
            }
            files.set(file.id, entry);
        }
        for (const { file, asked } of files.values()) {
            if (token.isCancellationRequested) {
                break;
            }
            if (request.exclude?.includes(file)) {
                continue;
            }
            const children: vscode.TestItem[] = [];
            file.children.forEach(child => children.push(child));
            const shown = asked === 'all' ? children : children.filter(c => asked.has(c.id));
            testRun.started(file);
            shown.forEach(c => testRun.started(c));
            if (!vscode.workspace.isTrusted) {
                testRun.errored(file, new vscode.TestMessage('This workspace is not trusted (Restricted Mode): Pipeline SQL runs no tests. Trust the workspace to run them.'));
                continue;
            }
            try {
                const languageClient = await client.running();
                const uri = vscode.Uri.parse(file.id);
                const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === file.id);
                const source = new vscode.CancellationTokenSource();
                const cancel = token.onCancellationRequested(() => source.cancel());
                let result: TestRunModel;
                try {
                    result = await languageClient.sendRequest(RunTestFileRequest, { uri: uri.toString(), ...(open ? { text: open.getText() } : {}) }, source.token);
                } finally {
                    cancel.dispose();
                    source.dispose();
                }
                testRun.appendOutput(result.report.replace(/\r?\n/g, '\r\n'), undefined, file);
                report(testRun, file, shown, result);
            } catch (error) {
                testRun.errored(file, new vscode.TestMessage(`The test could not run: ${error instanceof Error ? error.message : String(error)}`));
            }
        }
        testRun.end();
    };
    disposables.push(controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, run, true));
    void discover();
    return vscode.Disposable.from(...disposables);
}

/** Puts a file's outcome on its items: each update passed, failed (with its messages) or skipped. */
function report(testRun: vscode.TestRun, file: vscode.TestItem, shown: readonly vscode.TestItem[], result: TestRunModel): void {
    const uri = file.uri!;
    if (result.status === 'error' || result.error) {
        const error = result.error!;
        const message = new vscode.TestMessage(`${error.class}: ${error.message}`);
        if (error.uri) {
            message.location = new vscode.Location(vscode.Uri.parse(error.uri), new vscode.Position(Math.max(0, (error.line ?? 1) - 1), 0));
        }
        testRun.errored(file, message, result.durationMs);
        shown.forEach(c => testRun.errored(c, message));
        return;
    }
    for (const update of result.updates) {
        const item = shown.find(c => c.id === `${file.id}#${update.index}`);
        if (!item) {
            continue;
        }
        if (update.status === 'passed') {
            testRun.passed(item, update.durationMs);
        } else if (update.status === 'skipped') {
            testRun.skipped(item);
        } else {
            testRun.failed(item, update.problems.map(p => testMessage(uri, p)), update.durationMs);
        }
    }
    if (result.status === 'passed') {
        testRun.passed(file, result.durationMs);
    } else {
        const failed = result.updates.filter(u => u.status === 'failed');
        testRun.failed(file, failed.flatMap(u => u.problems.map(p => testMessage(uri, p, `${u.label}: `))), result.durationMs);
    }
}

function testMessage(uri: vscode.Uri, problem: TestProblemModel, prefix = ''): vscode.TestMessage {
    const message = problem.expected !== undefined && problem.actual !== undefined
        ? vscode.TestMessage.diff(`${prefix}${problem.message}`, problem.expected, problem.actual)
        : new vscode.TestMessage(`${prefix}${problem.message}`);
    message.location = new vscode.Location(uri, new vscode.Position(Math.max(0, problem.line - 1), 0));
    return message;
}

/**
 * "Record Test from Last Run": asks the server to write a test file from the last run of the pipeline
 * of the Pipeline SQL file in view (its sources' rows as inputs, its datasets as expected), then lists
 * and opens it. Refused in an untrusted workspace (the server refuses too).
 */
async function recordTest(client: PipelineSqlClient, listed: (uri: vscode.Uri) => Promise<void>): Promise<void> {
    if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('Pipeline SQL: recording a test runs the pipeline\'s SQL, so it needs a trusted workspace.');
        return;
    }
    const document = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].map(e => e?.document).find(d => d?.languageId === LanguageId);
    if (!document) {
        void vscode.window.showInformationMessage('Pipeline SQL: open a file of the pipeline whose last run to record as a test.');
        return;
    }
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Pipeline SQL: recording a test from the last run' },
        async () => (await client.running()).sendRequest(RecordTestRequest, { uri: document.uri.toString() }));
    if (!result.ok) {
        void vscode.window.showErrorMessage(`Pipeline SQL: no test recorded: ${result.error.message}`);
        return;
    }
    const uri = vscode.Uri.parse(result.uri);
    await listed(uri);
    await vscode.window.showTextDocument(uri);
}
