/**
 * Recording a pipeline test from a run: the rows of every source the pipeline read (as its sample
 * data holds them now: sample tables and `read_files` paths) become the `inputs` of one update, and
 * the datasets the run updated its `expect`, filled by running that update hermetically with the one
 * test runner (as `test --update` fills empty `expect` lists). The file written therefore passes
 * when `pipeline-sql test` runs it.
 */
import {
    runStatement, type InspectOptions, type JsonValue, type PipelineIR, type StatementIR,
} from '../../../engine/src/index.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import type { PipelineProject } from '../project/project-types.js';
import { readTestFile } from './test-file.js';
import { normalFilesPath, runTest, sourceReads, type TestRunContext } from './test-runner.js';
import { rewriteExpectations, rowText } from './test-update.js';

/** The run a test is recorded from. */
export interface RecordedRun {
    /** The pipeline as it was run (with the columns inferred from its sample files). */
    readonly ir: PipelineIR;
    /** Where the run read its sample data (and its state, which a query of a source opens). */
    readonly inspect: InspectOptions;
    /** When the run started (ISO): the recorded update's fixed clock. */
    readonly startedAt: string;
    /** The datasets the run updated (display names): the recorded `expect`. */
    readonly datasets: readonly string[];
    /** The bundle pipeline's key (the test names its pipeline: a bundle may have several). */
    readonly pipelineKey?: string;
}

/** Why a test could not be recorded. */
export interface RecordError {
    readonly class: string;
    readonly message: string;
}

/** Rows read per source at most; a larger source is not recorded (a test file is for a few rows). */
const MaxRows = 1000;

/** The rows of each source the pipeline reads, keyed as a test names it (table name, or `read_files` path). */
export async function readSourceRows(run: RecordedRun): Promise<{ ok: true; sources: Map<string, Array<Record<string, JsonValue>>> } | { ok: false; error: RecordError }> {
    const sources = new Map<string, Array<Record<string, JsonValue>>>();
    for (const source of sourceReads(run.ir)) {
        const key = source.kind === 'catalog' ? source.name.join('.') : normalFilesPath(source.path);
        if (sources.has(key)) {
            continue;
        }
        const statement: StatementIR = {
            kind: 'query',
            query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [{ kind: 'table', source: structuredClone(source), streaming: false }] } },
        };
        const result = await runStatement(run.ir, statement, { ...run.inspect, limit: MaxRows });
        if (!result.ok) {
            return { ok: false, error: { class: result.error.class, message: `Reading ${key} failed: ${result.error.message}` } };
        }
        if (result.truncated) {
            return { ok: false, error: { class: ErrorClass.testRecordTooLarge, message: `${key} holds ${result.rowCount} rows; a recorded test keeps at most ${MaxRows} per source. Make the sample data smaller.` } };
        }
        // Auto Loader's rescued-data column is not a column of the files.
        const rows = (result.rows ?? []).map(row => Object.fromEntries(Object.entries(row as Record<string, JsonValue>).filter(([column]) => column !== '_rescued_data')));
        sources.set(key, rows);
    }
    return { ok: true, sources: new Map([...sources].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/** The text of a one-update test: its inputs, and the datasets to expect with empty lists (filled by {@link recordTest}). */
export function recordedTestText(name: string, now: string, inputs: ReadonlyMap<string, ReadonlyArray<Record<string, JsonValue>>>, datasets: readonly string[], pipelineKey?: string): string {
    const lines = [
        `# Recorded from a run of the pipeline on ${now}: the sample rows it read, and what its datasets held after it.`,
        `name: ${yamlScalar(name)}`,
        ...(pipelineKey !== undefined ? [`pipeline: ${yamlScalar(pipelineKey)}`] : []),
        'updates:',
        `  - now: "${now}"`,
        '    inputs:',
    ];
    for (const [source, rows] of inputs) {
        if (rows.length === 0) {
            lines.push(`      ${yamlScalar(source)}: []`);
            continue;
        }
        lines.push(`      ${yamlScalar(source)}:`);
        for (const row of rows) {
            lines.push(`        - ${rowText(row, Object.keys(row))}`);
        }
    }
    lines.push('    expect:');
    for (const dataset of datasets) {
        lines.push(`      ${yamlScalar(dataset)}: []`);
    }
    return lines.join('\n') + '\n';
}

/**
 * Records a test of a run: reads the sources' rows, writes them as the inputs of one update with the
 * run's datasets to expect, runs it hermetically, and fills the expectations from what it produced.
 */
export async function recordTest(context: TestRunContext, pipeline: PipelineProject, run: RecordedRun, file: string, name: string): Promise<{ ok: true; text: string; inputs: string[] } | { ok: false; error: RecordError }> {
    const read = await readSourceRows(run);
    if (!read.ok) {
        return read;
    }
    const now = run.startedAt.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
    const draft = recordedTestText(name, now, read.sources, run.datasets, run.pipelineKey);
    const outcome = await runTest(context, pipeline, readTestFile(file, draft));
    if (outcome.error) {
        return { ok: false, error: { class: outcome.error.class, message: outcome.error.message } };
    }
    const failure = outcome.updates.flatMap(u => u.problems).find(p => p.kind !== 'rows' || p.truncated || p.diff.unknownColumns.length > 0);
    if (failure) {
        return { ok: false, error: { class: failure.kind === 'error' && failure.error ? failure.error.class : ErrorClass.testRecordFailed, message: `The recorded update did not run as the last run did: ${'message' in failure ? failure.message : failure.kind}` } };
    }
    return { ok: true, text: rewriteExpectations(draft, outcome).text, inputs: [...read.sources.keys()] };
}

/** A YAML scalar: plain when it reads back as the same string, else double-quoted. */
function yamlScalar(text: string): string {
    return /^[A-Za-z_/][\w./$-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(text) ? text : JSON.stringify(text);
}
