/**
 * The pipeline test runner: runs the updates of a test file against a pipeline with the real engine,
 * hermetically. The pipeline is prepared as for a run (the one run preparation: its files, its
 * catalog declarations, the types inferred from its sample files), then every sample table it reads
 * is re-declared in a temporary samples folder that holds only the test's rows (one JSON-lines file
 * per update, so that streaming reads see each update's rows as new), and the state lives in a
 * temporary folder. Nothing of the pipeline's own sample rows or state is read.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LangiumDocument, URI } from 'langium';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import { field } from '../../../engine/src/spark/spark-types.js';
import {
    ownValue, parseSparkSchema, runUpdate, type CatalogTableIR, type Column, type DatasetResult, type DatasetMetrics, type JsonValue,
    type PipelineIR, type SourceSpan, type StructField, type TableSourceIR, type UpdateErrorInfo,
} from '../../../engine/src/index.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { listFiles } from '../project/library-files.js';
import type { ProjectFileHost } from '../project/file-host.js';
import type { PipelineProject } from '../project/project-types.js';
import { engineIdentity, prepareRun } from '../project/run-preparation.js';
import { compareRows, isSame, type RowDiff } from './row-compare.js';
import { isTestFileName, type TestFile, type TestRow, type TestUpdate, type TestValue } from './test-file.js';

/** Why an update did not pass (each on the line of the test file it concerns). */
export type UpdateProblem =
    | { readonly kind: 'rows'; readonly dataset: string; /** The dataset as the test names it. */ readonly written: string; readonly line: number; readonly diff: RowDiff; readonly expected: readonly TestRow[]; readonly ordered: boolean; readonly truncated: boolean }
    | { readonly kind: 'dataset'; readonly dataset: string; readonly line: number; readonly message: string }
    | { readonly kind: 'metrics'; readonly dataset: string; readonly line: number; readonly path: string; readonly expected: TestValue; readonly actual: JsonValue | undefined }
    | { readonly kind: 'error'; readonly line: number; readonly expected?: string; readonly error?: UpdateErrorInfo; readonly message: string };

/** What one update of a test did. */
export interface UpdateOutcome {
    readonly index: number;
    /** `update 2` or `update 2 (a late event)`. */
    readonly label: string;
    readonly line: number;
    readonly status: 'passed' | 'failed' | 'skipped';
    readonly durationMs: number;
    readonly problems: readonly UpdateProblem[];
    /** Every dataset after the update (absent when it failed). */
    readonly datasets?: Readonly<Record<string, DatasetResult>>;
}

/** A test that could not run at all: its file, its pipeline, or the pipeline's sources are wrong. */
export interface TestError {
    readonly class: string;
    readonly message: string;
    readonly file?: string;
    /** 1-based. */
    readonly line?: number;
    readonly column?: number;
}

/** What one test file did. */
export interface TestOutcome {
    readonly file: string;
    readonly name: string;
    /** The pipeline it ran against (its key, else its name). */
    readonly pipeline?: string;
    readonly status: 'passed' | 'failed' | 'error';
    readonly durationMs: number;
    readonly updates: readonly UpdateOutcome[];
    readonly error?: TestError;
}

/** How an update is named in reports: `update 2`, or `update 2 (a late event)` when it has a name. */
export function updateLabel(update: Pick<TestUpdate, 'index' | 'name'>): string {
    return `update ${update.index + 1}${update.name ? ` (${update.name})` : ''}`;
}

/** Rows read back per dataset; a larger dataset fails its comparison as truncated. */
const RowLimit = 100_000;

/** What the runner needs from its host (the CLI or the language server). */
export interface TestRunContext {
    readonly services: PipelineSqlServices;
    /** Built and validated documents of files (the CLI builds them, the server reuses its own). */
    readonly documentsFor: (uris: readonly URI[]) => Promise<LangiumDocument[]>;
    readonly signal?: AbortSignal;
}

/** Runs every update of a test file against a pipeline. */
export async function runTest(context: TestRunContext, pipeline: PipelineProject, test: TestFile): Promise<TestOutcome> {
    const started = Date.now();
    const pipelineName = pipeline.key ?? pipeline.name;
    const errorOutcome = (error: TestError): TestOutcome => ({ file: test.file, name: test.name, pipeline: pipelineName, status: 'error', durationMs: Date.now() - started, updates: [], error });
    const invalid = test.problems.find(p => p.severity === 'error');
    if (invalid) {
        return errorOutcome({ class: invalid.code, message: invalid.message, file: invalid.file, line: invalid.line, column: invalid.column });
    }
    const prepared = await prepareRun(context.services, pipeline, context.documentsFor);
    if (!prepared.ok) {
        const place = prepared.error.place;
        return errorOutcome({
            class: prepared.error.class, message: `The pipeline cannot run: ${prepared.error.message}`,
            ...(place ? { file: place.file, line: place.range.start.line + 1, column: place.range.start.character + 1 } : {}),
        });
    }
    const temp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'pipeline-sql-test-'));
    try {
        const samplesDir = path.join(temp, 'samples');
        const stateDir = path.join(temp, 'state');
        await fs.promises.mkdir(samplesDir);
        const hermetic = hermeticPipeline(prepared.ir, test, temp);
        if (!hermetic.ok) {
            return errorOutcome(hermetic.error);
        }
        const readRoots = [await fs.promises.realpath(temp)];
        const identity = engineIdentity(pipeline);
        const updates: UpdateOutcome[] = [];
        let stopped = false;
        for (const update of test.updates) {
            const label = updateLabel(update);
            if (stopped) {
                updates.push({ index: update.index, label, line: update.line, status: 'skipped', durationMs: 0, problems: [] });
                continue;
            }
            const unknown = [...update.inputs.keys()].filter(t => !hermetic.tables.has(sourceKey(t)));
            const updateStarted = Date.now();
            if (unknown.length > 0) {
                const problems: UpdateProblem[] = unknown.map(t => ({
                    kind: 'dataset', dataset: t, line: update.inputs.get(t)!.line,
                    message: hermetic.datasets.has(sourceKey(t))
                        ? `'${t}' is a dataset of the pipeline; inputs feed the tables it reads (${[...hermetic.tables.values()].map(x => x.display).join(', ') || 'none'}).`
                        : `The pipeline reads no table '${t}'; it reads ${[...hermetic.tables.values()].map(x => x.display).join(', ') || 'no source table'}.`,
                }));
                updates.push({ index: update.index, label, line: update.line, status: 'failed', durationMs: 0, problems });
                stopped = true;
                continue;
            }
            // A column the source does not have would be read as nothing: say so instead.
            const unknownColumns: UpdateProblem[] = [];
            for (const [table, input] of update.inputs) {
                const source = hermetic.tables.get(sourceKey(table))!;
                const known = new Set(source.columns.map(c => c.name.toLowerCase()));
                const extra = [...new Set(input.rows.flatMap(r => Object.keys(r)).filter(k => !known.has(k.toLowerCase())))];
                if (extra.length > 0) {
                    unknownColumns.push({
                        kind: 'dataset', dataset: table, line: input.line,
                        message: `${source.display} has no column ${extra.map(c => `'${c}'`).join(', ')}; its columns: ${source.columns.map(c => c.name).join(', ')}.`,
                    });
                }
            }
            if (unknownColumns.length > 0) {
                updates.push({ index: update.index, label, line: update.line, status: 'failed', durationMs: 0, problems: unknownColumns });
                stopped = true;
                continue;
            }
            for (const source of hermetic.tables.values()) {
                await fs.promises.mkdir(path.join(samplesDir, source.location), { recursive: true });
            }
            for (const [table, input] of update.inputs) {
                const source = hermetic.tables.get(sourceKey(table))!;
                if (input.rows.length > 0) {
                    const file = path.join(samplesDir, source.location, `update-${String(update.index + 1).padStart(4, '0')}.jsonl`);
                    await fs.promises.writeFile(file, input.rows.map(r => JSON.stringify(r)).join('\n') + '\n');
                }
            }
            const result = await runUpdate(hermetic.ir, {
                stateDir, samplesDir, rootDir: pipeline.root, readRoots, limit: RowLimit, pipeline: identity,
                ...(update.now !== undefined ? { now: update.now } : {}),
                ...(update.fullRefresh !== undefined ? { fullRefresh: typeof update.fullRefresh === 'boolean' ? update.fullRefresh : [...update.fullRefresh] } : {}),
                ...(context.signal ? { signal: context.signal } : {}),
            });
            const problems = result.ok ? checkUpdate(update, result.datasets, result.metrics) : checkFailure(update, result.error);
            if (!result.ok && !update.expectError) {
                stopped = true;
            }
            updates.push({
                index: update.index, label, line: update.line, status: problems.length === 0 ? 'passed' : 'failed',
                durationMs: Date.now() - updateStarted, problems, ...(result.ok ? { datasets: result.datasets } : {}),
            });
        }
        const failed = updates.some(u => u.status !== 'passed');
        return { file: test.file, name: test.name, pipeline: pipelineName, status: failed ? 'failed' : 'passed', durationMs: Date.now() - started, updates };
    } finally {
        await fs.promises.rm(temp, { recursive: true, force: true });
    }
}

function checkFailure(update: TestUpdate, error: UpdateErrorInfo): UpdateProblem[] {
    const expected = update.expectError;
    if (!expected) {
        return [{ kind: 'error', line: update.line, error, message: `The update failed: ${error.class}: ${error.message}` }];
    }
    if (error.class === expected.errorClass || error.class.startsWith(`${expected.errorClass}.`)) {
        return [];
    }
    return [{ kind: 'error', line: expected.line, expected: expected.errorClass, error, message: `Expected the update to fail with ${expected.errorClass}; it failed with ${error.class}: ${error.message}` }];
}

function checkUpdate(update: TestUpdate, datasets: Readonly<Record<string, DatasetResult>>, metrics: Readonly<Record<string, DatasetMetrics>>): UpdateProblem[] {
    const problems: UpdateProblem[] = [];
    if (update.expectError) {
        problems.push({ kind: 'error', line: update.expectError.line, expected: update.expectError.errorClass, message: `Expected the update to fail with ${update.expectError.errorClass}; it succeeded.` });
    }
    for (const expected of update.expect) {
        const name = findDataset(Object.keys(datasets), expected.dataset);
        if (name === undefined) {
            problems.push({ kind: 'dataset', dataset: expected.dataset, line: expected.line, message: `The pipeline has no dataset '${expected.dataset}'; its datasets: ${Object.keys(datasets).join(', ')}.` });
            continue;
        }
        const dataset = ownValue(datasets, name);
        if (dataset === undefined) {
            continue;
        }
        const diff = compareRows(expected.rows, dataset.columns, dataset.rows, expected.ordered);
        if (!isSame(diff) || dataset.truncated) {
            problems.push({ kind: 'rows', dataset: name, written: expected.dataset, line: expected.line, diff, expected: expected.rows, ordered: expected.ordered, truncated: dataset.truncated });
        }
    }
    for (const [wanted, { value, line }] of update.expectMetrics) {
        const name = findDataset(Object.keys(datasets), wanted);
        if (name === undefined) {
            problems.push({ kind: 'dataset', dataset: wanted, line, message: `The pipeline has no dataset '${wanted}'; its datasets: ${Object.keys(datasets).join(', ')}.` });
            continue;
        }
        for (const mismatch of partialMismatches(value, ownValue(metrics, name) as unknown as JsonValue | undefined, '')) {
            problems.push({ kind: 'metrics', dataset: name, line, ...mismatch });
        }
    }
    return problems;
}

/** Where a partial metrics document differs from the actual one (`expectations.valid_id.failed_records`). */
function partialMismatches(expected: TestValue, actual: JsonValue | undefined, at: string): Array<{ path: string; expected: TestValue; actual: JsonValue | undefined }> {
    if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
        const record = actual !== null && typeof actual === 'object' && !Array.isArray(actual) ? actual : undefined;
        return Object.entries(expected).flatMap(([key, value]) => partialMismatches(value, record && Object.hasOwn(record, key) ? record[key] : undefined, at ? `${at}.${key}` : key));
    }
    const same = expected === actual || (typeof actual === 'number' && typeof expected === 'string' && Number(expected) === actual);
    return same ? [] : [{ path: at, expected, actual }];
}

/** A dataset's name among the update's: as written, then ignoring case, then on its last parts (`schema.t` for `t`). */
export function findDataset(names: readonly string[], wanted: string): string | undefined {
    const lower = wanted.toLowerCase();
    return names.find(n => n === wanted) ?? names.find(n => n.toLowerCase() === lower)
        ?? names.find(n => n.toLowerCase().endsWith(`.${lower}`) || lower.endsWith(`.${n.toLowerCase()}`));
}

/** A source table as the test's hermetic catalog holds it. */
interface HermeticTable {
    readonly display: string;
    /** Folder under the temporary samples folder. */
    readonly location: string;
    readonly columns: readonly Column[];
}

type Hermetic =
    | { ok: true; ir: PipelineIR; tables: Map<string, HermeticTable>; datasets: Set<string> }
    | { ok: false; error: TestError };

function sourceKey(name: string): string {
    return name.toLowerCase();
}

/**
 * The pipeline with every sample table it reads re-declared in the test's samples folder, typed by
 * the test's `schemas`, else by the pipeline's declaration, else by what was inferred from the sample
 * files. A `read_files(...)` source reads, instead of its path, a folder of the test's rows (keyed in
 * the test by the path as the SQL writes it), typed by the test's `schemas` (keyed the same way), else
 * by the read's `schema =>` option, else by what was inferred from the files at its path.
 */
function hermeticPipeline(original: PipelineIR, test: TestFile, temp: string): Hermetic {
    const ir = structuredClone(original);
    const found = new Map<string, { name: string[]; inferred?: StructField[]; span?: SourceSpan }>();
    const files = new Map<string, { path: string; columns?: Column[]; span?: SourceSpan; reads: Array<{ path: string; options: Record<string, string | number | boolean>; inferredColumns?: StructField[] }> }>();
    walk(ir, node => {
        if (node.kind !== 'table' || typeof node.source !== 'object' || node.source === null) {
            return;
        }
        const source = node.source as { kind: string; name?: string[]; path?: string; options?: Record<string, string | number | boolean>; inferredColumns?: StructField[] };
        if (source.kind === 'catalog' && source.name) {
            const key = sourceKey(source.name.join('.'));
            const seen = found.get(key);
            if (!seen || (!seen.inferred && source.inferredColumns)) {
                found.set(key, { name: source.name, inferred: source.inferredColumns, span: node.span as SourceSpan | undefined });
            }
            delete source.inferredColumns;
        } else if (source.kind === 'read_files' && source.path !== undefined && source.options) {
            const key = sourceKey(normalFilesPath(source.path));
            const read = source as { path: string; options: Record<string, string | number | boolean>; inferredColumns?: StructField[] };
            const declared = Object.entries(source.options).find(([k]) => k.toLowerCase() === 'schema')?.[1];
            const columns = typeof declared === 'string' ? parseSparkSchema(declared) : source.inferredColumns?.map(c => ({ name: c.name, type: c.type }));
            const seen = files.get(key);
            if (seen) {
                seen.reads.push(read);
                seen.columns ??= columns;
            } else {
                files.set(key, { path: source.path, columns, span: node.span as SourceSpan | undefined, reads: [read] });
            }
        }
    });
    const tables = new Map<string, HermeticTable>();
    const catalog: CatalogTableIR[] = [];
    let index = 0;
    const unknownSchema = (name: string): Hermetic => ({
        ok: false, error: {
            class: ErrorClass.testUnknownSchema,
            message: `The types of '${name}' are unknown (no declaration in samples/*.sql, no sample file): give them in the test's schemas: (e.g. ${name}: "id INT, name STRING").`,
            file: test.file, line: 1,
        },
    });
    for (const [key, source] of found) {
        const given = [...test.schemas].find(([t]) => sameName(t.split('.'), source.name));
        const declared = original.catalog.find(t => sameName(t.name, source.name));
        const columns: Column[] | undefined = given ? parseSparkSchema(given[1].schema) : declared?.columns?.map(c => ({ name: c.name, type: c.type })) ?? source.inferred?.map(c => ({ name: c.name, type: c.type }));
        if (!columns || columns.length === 0) {
            return unknownSchema(source.name.join('.'));
        }
        const location = `t${++index}`;
        const display = source.name.join('.');
        tables.set(key, { display, location, columns });
        catalog.push({
            name: source.name, columns: columns.map(c => ({ name: c.name, type: c.type })), format: 'json', location, options: {},
            span: declared?.span ?? source.span ?? { file: test.file, line: 1, column: 1, endLine: 1, endColumn: 1 },
        });
    }
    for (const [key, source] of files) {
        const given = [...test.schemas].find(([t]) => sourceKey(normalFilesPath(t)) === key);
        const columns = given ? parseSparkSchema(given[1].schema) : source.columns;
        if (!columns || columns.length === 0) {
            return unknownSchema(source.path);
        }
        const location = `t${++index}`;
        // Every read of the path reads the test's rows, as JSON lines with the columns' types.
        for (const read of source.reads) {
            read.path = path.join(temp, 'samples', location);
            read.options = { format: 'json' };
            read.inferredColumns = columns.map(c => field(c.name, c.type));
        }
        tables.set(key, { display: `read_files('${source.path}')`, location, columns });
    }
    // A test's input for a table the pipeline names in another form (`main.cdc_data.users` for `cdc_data.users`).
    for (const input of test.updates.flatMap(u => [...u.inputs.keys()])) {
        const match = [...found.entries()].find(([, s]) => sameName(s.name, input.split('.')));
        const key = sourceKey(input);
        if (match && !tables.has(key)) {
            tables.set(key, tables.get(match[0])!);
        }
        const file = files.has(sourceKey(normalFilesPath(input))) ? tables.get(sourceKey(normalFilesPath(input))) : undefined;
        if (file && !tables.has(key)) {
            tables.set(key, file);
        }
    }
    ir.catalog = catalog;
    const datasets = new Set(original.datasets.map(d => sourceKey(d.name.join('.'))));
    for (const d of original.datasets) {
        datasets.add(sourceKey(d.name[d.name.length - 1]));
    }
    return { ok: true, ir, tables, datasets };
}

/** A `read_files` path as a test names it: no leading `./`, no trailing `/`. */
export function normalFilesPath(filePath: string): string {
    return filePath.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/** The sample tables and `read_files` paths a pipeline reads (each read once, as the IR has it, inferred columns included). */
export function sourceReads(ir: PipelineIR): Array<Extract<TableSourceIR, { kind: 'catalog' | 'read_files' }>> {
    const reads: Array<Extract<TableSourceIR, { kind: 'catalog' | 'read_files' }>> = [];
    walk(ir, node => {
        const source = node.source as TableSourceIR | undefined;
        if (node.kind === 'table' && typeof source === 'object' && source !== null && (source.kind === 'catalog' || source.kind === 'read_files')) {
            reads.push(source);
        }
    });
    return reads;
}

/** Names that match on their trailing parts (`cdc_data.users` and `main.cdc_data.users`), ignoring case. */
export function sameName(a: readonly string[], b: readonly string[]): boolean {
    const n = Math.min(a.length, b.length);
    return a.slice(-n).join('.').toLowerCase() === b.slice(-n).join('.').toLowerCase() && (a.length === b.length || n >= 2);
}

function walk(value: unknown, visit: (node: Record<string, unknown>) => void): void {
    const stack: unknown[] = [value];
    while (stack.length > 0) {
        const node = stack.pop();
        if (Array.isArray(node)) {
            stack.push(...node);
        } else if (node !== null && typeof node === 'object') {
            visit(node as Record<string, unknown>);
            stack.push(...Object.values(node));
        }
    }
}

/** Every test file under a folder (the model's file walk: hidden folders and dependencies skipped). */
export async function findTestFiles(folder: string, host: ProjectFileHost): Promise<string[]> {
    const files = await listFiles(folder, host);
    return files.filter(f => isTestFileName(f.slice(f.lastIndexOf('/') + 1))).map(f => path.join(folder, ...f.split('/')));
}

/**
 * The pipeline a test file is for: among the pipelines whose root holds it (the deepest root), the
 * one its `pipeline:` names, or the only one. An explanation when there is none or several.
 */
export function pipelineOfTest(test: TestFile, pipelines: readonly PipelineProject[]): { pipeline: PipelineProject } | { error: string } {
    const inside = pipelines.filter(p => isInside(test.file, p.root));
    const depth = Math.max(-1, ...inside.map(p => p.root.length));
    const candidates = inside.filter(p => p.root.length === depth);
    const describe = (list: readonly PipelineProject[]) => list.map(p => p.key ?? p.name).join(', ');
    if (test.pipeline !== undefined) {
        const wanted = test.pipeline;
        const found = candidates.find(p => p.key === wanted) ?? candidates.find(p => p.name === wanted) ?? inside.find(p => p.key === wanted || p.name === wanted);
        return found ? { pipeline: found } : { error: `No pipeline '${wanted}' holds this test file; ${inside.length > 0 ? `the pipelines here: ${describe(inside)}` : 'it is in no pipeline\'s folder'}.` };
    }
    if (candidates.length === 1) {
        return { pipeline: candidates[0] };
    }
    if (candidates.length === 0) {
        return { error: 'This test file is in no pipeline\'s folder (a folder with spark-pipeline.yml, databricks.yml or pipeline SQL files).' };
    }
    return { error: `The bundle has several pipelines (${describe(candidates)}); say which one with \`pipeline: <key>\`.` };
}

function isInside(file: string, root: string): boolean {
    const relative = path.relative(root, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
