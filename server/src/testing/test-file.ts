/**
 * Pipeline test files (`*.test.yml`): read with positions, every mistake a problem on its YAML line
 * (never an exception). A test is a list of pipeline updates, each with the rows appended to the
 * pipeline's sources before it and what its datasets must hold after it.
 */
import { ownValue, parseSparkSchema } from '../../../engine/src/index.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import type { ProjectProblem } from '../project/project-types.js';
import { isRecord, YamlFile, type YamlPath } from '../project/yaml-file.js';

/** A value as YAML gives it (scalars, lists, maps). */
export type TestValue = null | boolean | number | string | TestValue[] | { [key: string]: TestValue };

/** A row of a test file: column → value. */
export type TestRow = Record<string, TestValue>;

/** What a dataset must hold after an update. */
export interface ExpectedDataset {
    /** The dataset as written (`users_history`, `schema.users_history`). */
    readonly dataset: string;
    readonly rows: readonly TestRow[];
    /** Compare in order (else as a multiset). */
    readonly ordered: boolean;
    /** 1-based line of the dataset's key in the file. */
    readonly line: number;
    /** 1-based line of each expected row. */
    readonly rowLines: readonly number[];
}

/** One update of a test. */
export interface TestUpdate {
    /** 0-based position in `updates`. */
    readonly index: number;
    /** `name:` of the update, if it has one. */
    readonly name?: string;
    /** 1-based line of the update's first key. */
    readonly line: number;
    readonly now?: string;
    readonly fullRefresh?: boolean | readonly string[];
    /** Source table (as written) → rows appended before the update. */
    readonly inputs: ReadonlyMap<string, { readonly rows: readonly TestRow[]; readonly line: number }>;
    readonly expect: readonly ExpectedDataset[];
    /** Dataset → a partial metrics document (`{expectations: {name: {failed_records: 0}}}`). */
    readonly expectMetrics: ReadonlyMap<string, { readonly value: TestValue; readonly line: number }>;
    /** The error class the update must fail with (`AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE`). */
    readonly expectError?: { readonly errorClass: string; readonly line: number };
}

/** A test file as read. */
export interface TestFile {
    readonly file: string;
    /** `name:`, else the file name without `.test.yml`. */
    readonly name: string;
    /** `pipeline:`: the bundle pipeline's key (or a pipeline's name) the test is for. */
    readonly pipeline?: string;
    /** Source table (as written) → its columns as a Spark schema string. */
    readonly schemas: ReadonlyMap<string, { readonly schema: string; readonly line: number }>;
    readonly updates: readonly TestUpdate[];
    /** Mistakes in the file, on their lines; a file with an error is not run. */
    readonly problems: readonly ProjectProblem[];
}

/** Error class of a test file that cannot be used as written. */
export const InvalidTestFileCode = ErrorClass.invalidTestFile;

/** Whether a file name is a pipeline test file. */
export function isTestFileName(name: string): boolean {
    return /\.test\.ya?ml$/i.test(name);
}

const testKeys = ['name', 'pipeline', 'schemas', 'updates', 'ordered'];
const updateKeys = ['name', 'now', 'full_refresh', 'inputs', 'expect', 'expect_metrics', 'expect_error', 'ordered'];
const NOW_PATTERN = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$/;

/** Reads a test file's text. */
export function readTestFile(file: string, text: string): TestFile {
    const yaml = new YamlFile(file, text);
    // A YAML error of a test file is a test-file error (exit code 2 of `pipeline-sql test`), not a project file's.
    const problems: ProjectProblem[] = yaml.problems.map(p => ({ ...p, code: InvalidTestFileCode }));
    const problem = (at: YamlPath, message: string, key = false) => problems.push(yaml.problem(at, InvalidTestFileCode, message, { key }));
    const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1).replace(/\.test\.ya?ml$/i, '');
    const empty = (): TestFile => ({ file, name: base, schemas: new Map(), updates: [], problems });
    const root = yaml.value;
    if (yaml.invalid) {
        return empty();
    }
    if (!isRecord(root)) {
        problem([], 'A test file is a mapping with an `updates:` list (and optionally `name:`, `pipeline:`, `schemas:`).');
        return empty();
    }
    for (const key of Object.keys(root)) {
        if (!testKeys.includes(key)) {
            problem([key], `Unknown key '${key}' in a test file; expected one of ${testKeys.join(', ')}.`, true);
        }
    }
    const name = optionalString(root, 'name', [], problem) ?? base;
    const pipeline = optionalString(root, 'pipeline', [], problem);
    const ordered = optionalBoolean(root, 'ordered', [], problem) ?? false;
    const schemas = new Map<string, { schema: string; line: number }>();
    if (root.schemas !== undefined && root.schemas !== null) {
        if (!isRecord(root.schemas)) {
            problem(['schemas'], '`schemas:` maps source tables to their columns, e.g. `cdc_data.users: "id INT, name STRING"`.');
        } else {
            for (const [table, schema] of Object.entries(root.schemas)) {
                if (typeof schema !== 'string') {
                    problem(['schemas', table], `The schema of '${table}' is a string of columns and types, e.g. "id INT, name STRING".`);
                    continue;
                }
                try {
                    parseSparkSchema(schema);
                } catch (error) {
                    problem(['schemas', table], `The schema of '${table}' cannot be read: ${error instanceof Error ? error.message : String(error)}`);
                    continue;
                }
                schemas.set(table, { schema, line: yaml.lineOf(['schemas', table]) });
            }
        }
    }
    const updates: TestUpdate[] = [];
    if (!Array.isArray(root.updates) || root.updates.length === 0) {
        problem(root.updates === undefined ? [] : ['updates'], 'A test needs `updates:`, a list of pipeline updates (each with `inputs:` and `expect:`).');
    } else {
        root.updates.forEach((raw, index) => {
            const update = readUpdate(raw, index, ordered, yaml, problem);
            if (update) {
                updates.push(update);
            }
        });
    }
    return { file, name, ...(pipeline !== undefined ? { pipeline } : {}), schemas, updates, problems };
}

type Report = (at: YamlPath, message: string, key?: boolean) => void;

function readUpdate(raw: unknown, index: number, orderedDefault: boolean, yaml: YamlFile, problem: Report): TestUpdate | undefined {
    const at: YamlPath = ['updates', index];
    if (!isRecord(raw)) {
        problem(at, `Update ${index + 1} is a mapping (with \`inputs:\`, \`expect:\`, ...).`);
        return undefined;
    }
    for (const key of Object.keys(raw)) {
        if (!updateKeys.includes(key)) {
            problem([...at, key], `Unknown key '${key}' in update ${index + 1}; expected one of ${updateKeys.join(', ')}.`, true);
        }
    }
    const name = optionalString(raw, 'name', at, problem);
    let now = optionalString(raw, 'now', at, problem);
    if (now !== undefined && !NOW_PATTERN.test(now)) {
        problem([...at, 'now'], `\`now:\` is 'yyyy-MM-dd HH:mm:ss' (or 'yyyy-MM-dd'), not '${now}'.`);
        now = undefined;
    }
    let fullRefresh: boolean | string[] | undefined;
    const fr = raw.full_refresh;
    if (typeof fr === 'boolean') {
        fullRefresh = fr;
    } else if (Array.isArray(fr) && fr.every(x => typeof x === 'string')) {
        fullRefresh = fr as string[];
    } else if (fr !== undefined && fr !== null) {
        problem([...at, 'full_refresh'], '`full_refresh:` is true, false, or a list of datasets.');
    }
    const ordered = optionalBoolean(raw, 'ordered', at, problem) ?? orderedDefault;
    const inputs = new Map<string, { rows: TestRow[]; line: number }>();
    for (const [table, rows] of entries(raw.inputs, [...at, 'inputs'], '`inputs:` maps source tables to lists of rows.', problem)) {
        const read = readRows(rows, [...at, 'inputs', table], yaml, problem);
        if (read) {
            inputs.set(table, { rows: read.rows, line: yaml.lineOf([...at, 'inputs', table]) });
        }
    }
    const expect: ExpectedDataset[] = [];
    for (const [dataset, rows] of entries(raw.expect, [...at, 'expect'], '`expect:` maps datasets to the list of rows they hold after the update.', problem)) {
        const read = readRows(rows, [...at, 'expect', dataset], yaml, problem);
        if (read) {
            expect.push({ dataset, rows: read.rows, rowLines: read.lines, ordered, line: keyLine(yaml, [...at, 'expect', dataset]) });
        }
    }
    const expectMetrics = new Map<string, { value: TestValue; line: number }>();
    for (const [dataset, value] of entries(raw.expect_metrics, [...at, 'expect_metrics'], '`expect_metrics:` maps datasets to metrics, e.g. `{expectations: {valid_id: {failed_records: 0}}}`.', problem)) {
        if (!isRecord(value)) {
            problem([...at, 'expect_metrics', dataset], `The metrics of '${dataset}' are a mapping, e.g. {num_output_rows: 2}.`);
            continue;
        }
        expectMetrics.set(dataset, { value: value as TestValue, line: keyLine(yaml, [...at, 'expect_metrics', dataset]) });
    }
    const errorClass = optionalString(raw, 'expect_error', at, problem);
    if (errorClass !== undefined && raw.expect !== undefined && raw.expect !== null) {
        problem([...at, 'expect_error'], 'An update with `expect_error:` fails and changes nothing: its datasets are checked in the next update, so drop its `expect:`.', true);
    }
    const line = yaml.lineOf(at);
    return {
        index, line, inputs, expect, expectMetrics,
        ...(name !== undefined ? { name } : {}),
        ...(now !== undefined ? { now } : {}),
        ...(fullRefresh !== undefined ? { fullRefresh } : {}),
        ...(errorClass !== undefined ? { expectError: { errorClass, line: yaml.lineOf([...at, 'expect_error']) } } : {}),
    };
}

function keyLine(yaml: YamlFile, at: YamlPath): number {
    return yaml.problem(at, '', '', { key: true }).line;
}

function entries(value: unknown, at: YamlPath, message: string, problem: Report): Array<[string, unknown]> {
    if (value === undefined || value === null) {
        return [];
    }
    if (!isRecord(value)) {
        problem(at, message);
        return [];
    }
    return Object.entries(value);
}

function readRows(value: unknown, at: YamlPath, yaml: YamlFile, problem: Report): { rows: TestRow[]; lines: number[] } | undefined {
    if (value === null || value === undefined) {
        return { rows: [], lines: [] };
    }
    if (!Array.isArray(value)) {
        problem(at, `The rows of '${String(at[at.length - 1])}' are a list of mappings, e.g. - {id: 1, name: Ada}; [] for none.`);
        return undefined;
    }
    const rows: TestRow[] = [];
    const lines: number[] = [];
    let ok = true;
    value.forEach((row, i) => {
        if (!isRecord(row)) {
            problem([...at, i], `Row ${i + 1} of '${String(at[at.length - 1])}' is a mapping of columns to values, e.g. {id: 1, name: Ada}.`);
            ok = false;
            return;
        }
        rows.push(row as TestRow);
        lines.push(yaml.lineOf([...at, i]));
    });
    return ok ? { rows, lines } : undefined;
}

function optionalString(record: Record<string, unknown>, key: string, at: YamlPath, problem: Report): string | undefined {
    const value = ownValue(record, key);
    if (value === undefined || value === null) {
        return undefined;
    }
    if (typeof value === 'string') {
        return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
        return String(value);
    }
    problem([...at, key], `\`${key}:\` is a string.`);
    return undefined;
}

function optionalBoolean(record: Record<string, unknown>, key: string, at: YamlPath, problem: Report): boolean | undefined {
    const value = ownValue(record, key);
    if (value === undefined || value === null) {
        return undefined;
    }
    if (typeof value === 'boolean') {
        return value;
    }
    problem([...at, key], `\`${key}:\` is true or false.`);
    return undefined;
}
