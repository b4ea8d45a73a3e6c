import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import { findEnclosingRoot } from '../project/discovery.js';
import { InvalidTestFileCode, isTestFileName, readTestFile } from '../testing/test-file.js';
import { findTestFiles, pipelineOfTest, runTest, type TestOutcome } from '../testing/test-runner.js';
import { formatSummary, formatTestOutcome, junitXml, palette } from '../testing/test-report.js';
import { rewriteExpectations } from '../testing/test-update.js';
import { buildFiles, CliUsageError, displayPath } from './check.js';
import { parseCommandArguments } from './run.js';
import { cliServices, type CliServices } from './cli-services.js';

/** The usage of `test`. */
export const testUsage = `pipeline-sql test [root] [--filter text] [--update] [--junit file] [--bundle-target name]
      run the pipeline tests (*.test.yml) under root (default: the current folder), or one test file,
      each on the engine with only the test's rows and a temporary state; --filter: only tests whose
      name or path contains the text; --update: rewrite the expect rows of failing updates from what
      the run produced; --junit: also write JUnit XML; exit 0 when all pass, 1 when one fails, 2 for
      a usage or test-file error`;

/** Error classes of a test file that cannot be used (exit code 2, as a usage error). */
const fileErrorClasses: ReadonlySet<string> = new Set([InvalidTestFileCode, ErrorClass.testNoPipeline]);

/** The options of `pipeline-sql test`. */
interface TestArguments {
    root: string;
    filter?: string;
    update: boolean;
    junit?: string;
    bundleTarget?: string;
}

function parseTestArguments(args: string[]): TestArguments {
    const { values, positionals } = parseCommandArguments('test', args, {
        filter: { type: 'string' },
        update: { type: 'boolean' },
        junit: { type: 'string' },
        'bundle-target': { type: 'string' },
    });
    if (positionals.length > 1) {
        throw new CliUsageError(`test takes one folder or test file, not ${positionals.length}`);
    }
    return {
        root: positionals[0] ?? '.', update: values.update === true,
        ...(values.filter !== undefined ? { filter: values.filter } : {}),
        ...(values.junit !== undefined ? { junit: values.junit } : {}),
        ...(values['bundle-target'] !== undefined ? { bundleTarget: values['bundle-target'] } : {}),
    };
}

/** Where the output goes; `color`: whether stdout takes colour. */
export interface TestIO {
    out: (text: string) => void;
    err: (text: string) => void;
    color: boolean;
}

const defaultIO = (): TestIO => ({
    out: text => process.stdout.write(text),
    err: text => process.stderr.write(text),
    color: process.stdout.isTTY === true,
});

/**
 * `pipeline-sql test`: finds the test files under a folder (or takes one), finds each one's pipeline
 * with the project model, runs it (see `server/src/testing/test-runner.ts`), prints each test and
 * update with its time and, for a failure, the diff; writes JUnit XML and rewrites expectations when
 * asked. Returns the exit code.
 */
export async function testCommand(args: string[], io: TestIO = defaultIO(), services?: CliServices): Promise<number> {
    const options = parseTestArguments(args);
    const started = Date.now();
    const abs = path.resolve(options.root);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) {
        throw new CliUsageError(`No such file or folder: ${options.root}`);
    }
    if (stat.isFile() && !isTestFileName(path.basename(abs))) {
        throw new CliUsageError(`${options.root} is not a test file (*.test.yml)`);
    }
    const { shared, PipelineSql } = services ?? cliServices();
    const project = shared.pipeline.Project;
    project.setOptions({ bundleTarget: options.bundleTarget });
    const folder = stat.isDirectory() ? abs : await findEnclosingRoot(abs, project.files) ?? path.dirname(abs);
    const set = await project.loadFolder(folder);
    let files = stat.isDirectory() ? await findTestFiles(abs, project.files) : [abs];
    if (files.length === 0) {
        throw new CliUsageError(`No test files (*.test.yml) under ${displayPath(abs) || '.'}`);
    }
    const p = palette(io.color);
    const outcomes: TestOutcome[] = [];
    let fileErrors = 0;
    let unfixed = 0;
    const filter = options.filter?.toLowerCase();
    let shownAny = false;
    files = files.sort();
    for (const file of files) {
        const text = await project.files.readFile(file) ?? '';
        const test = readTestFile(file, text);
        if (filter !== undefined && !test.name.toLowerCase().includes(filter) && !displayPath(file).toLowerCase().includes(filter)) {
            continue;
        }
        shownAny = true;
        const owner = pipelineOfTest(test, set.pipelines);
        const outcome: TestOutcome = 'error' in owner
            ? { file, name: test.name, status: 'error', durationMs: 0, updates: [], error: { class: ErrorClass.testNoPipeline, message: owner.error, file: displayPath(file), line: 1 } }
            : await runTest({ services: PipelineSql, documentsFor: files => buildFiles(shared, files) }, owner.pipeline, test);
        const shown = outcome.error?.file ? { ...outcome, error: { ...outcome.error, file: displayPath(outcome.error.file) } } : outcome;
        outcomes.push(shown);
        io.out(formatTestOutcome(shown, displayPath(file), p));
        if (outcome.status === 'error' && fileErrorClasses.has(outcome.error?.class ?? '')) {
            fileErrors++;
        }
        if (outcome.status === 'failed') {
            unfixed += options.update ? update(file, text, outcome, io) : 1;
        }
    }
    if (!shownAny) {
        throw new CliUsageError(`No test matches --filter '${options.filter}' (${files.length} test file${files.length === 1 ? '' : 's'} under ${displayPath(abs) || '.'})`);
    }
    const duration = Date.now() - started;
    io.out(formatSummary(outcomes, duration, p));
    if (options.junit !== undefined) {
        const target = path.resolve(options.junit);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, junitXml(outcomes, displayPath, duration));
    }
    if (fileErrors > 0) {
        return 2;
    }
    return unfixed > 0 || outcomes.some(o => o.status === 'error') ? 1 : 0;
}

/** Rewrites a failing test's expectations; returns 1 when failures remain that rows cannot fix. */
function update(file: string, text: string, outcome: TestOutcome, io: TestIO): number {
    const rewrite = rewriteExpectations(text, outcome);
    if (rewrite.rewritten.length > 0) {
        fs.writeFileSync(file, rewrite.text);
        io.out(`  updated ${displayPath(file)}: ${rewrite.rewritten.join(', ')}\n`);
    }
    const fixable = outcome.updates.every(u => u.status !== 'skipped' && u.problems.every(pr => pr.kind === 'rows' && pr.diff.unknownColumns.length === 0 && !pr.truncated));
    return fixable ? 0 : 1;
}
