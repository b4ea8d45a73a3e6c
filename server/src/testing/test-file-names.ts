/**
 * The names a test file uses, checked against what its pipeline knows: the source tables under
 * `inputs:` and `schemas:`, the datasets under `expect:` and `expect_metrics:`, the columns of their
 * rows and the expectations of `expect_metrics`. Each mistake is a problem on its key. A name is an
 * error where the pipeline is sure (declared datasets, declared or sample-inferred columns) and a
 * warning where it may not know (a pipeline with Python files, a dataset whose columns are not all
 * known). Pure: the language server describes the pipeline ({@link TestPipelineNames}).
 */
import { parseSparkSchema } from '../../../engine/src/index.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import type { ProjectProblem } from '../project/project-types.js';
import { isRecord, YamlFile, type YamlPath } from '../project/yaml-file.js';
import type { TestFile } from './test-file.js';
import { findDataset, normalFilesPath, sameName } from './test-runner.js';

/** A column as the editor shows it. */
export interface TestColumnInfo {
    readonly name: string;
    /** Its Spark type (`INT`, `TIMESTAMP`), when known. */
    readonly type?: string;
}

/** A source table or dataset of the pipeline, as a test file may name it. */
export interface TestTableInfo {
    /** As a test names it: `cdc_data.users`, a dataset's name, or a `read_files` path as written. */
    readonly name: string;
    /** Its columns, when known. */
    readonly columns?: readonly TestColumnInfo[];
    /** Whether the columns listed are all there is (a name missing from them is then an error). */
    readonly complete: boolean;
    /** A dataset's expectation names, when the pipeline declares them. */
    readonly expectations?: readonly string[];
    /** A `read_files` source (named by its path). */
    readonly files?: boolean;
}

/** What the pipeline of a test file knows. */
export interface TestPipelineNames {
    /** The tables the pipeline reads and does not define. */
    readonly sources: readonly TestTableInfo[];
    readonly datasets: readonly TestTableInfo[];
    /** False when the pipeline may have datasets and sources its SQL does not show (Python files). */
    readonly complete: boolean;
}

/** The source a test names (`cdc_data.users`, `main.cdc_data.users`, or a `read_files` path). */
export function findSource(sources: readonly TestTableInfo[], written: string): TestTableInfo | undefined {
    const path = normalFilesPath(written);
    return sources.find(s => s.files && normalFilesPath(s.name) === path)
        ?? sources.find(s => !s.files && sameName(s.name.split('.'), written.split('.')));
}

/** The dataset a test names. */
export function findTestDataset(datasets: readonly TestTableInfo[], written: string): TestTableInfo | undefined {
    const name = findDataset(datasets.map(d => d.name), written);
    return name === undefined ? undefined : datasets.find(d => d.name === name);
}

/** The problems of the names a test file uses. */
export function checkTestNames(test: TestFile, text: string, pipeline: TestPipelineNames): ProjectProblem[] {
    const yaml = new YamlFile(test.file, text);
    const problems: ProjectProblem[] = [];
    const report = (at: YamlPath, code: string, severity: ProjectProblem['severity'], message: string) =>
        problems.push(yaml.problem(at, code, message, { key: true, severity }));
    const sure = pipeline.complete ? 'error' : 'warning';
    const list = (tables: readonly TestTableInfo[]) => tables.map(t => t.name).join(', ') || 'none';
    const root = yaml.value;
    if (!isRecord(root)) {
        return problems;
    }

    // Columns a test's `schemas:` gives win over the pipeline's (they are certain).
    const given = new Map<TestTableInfo, TestColumnInfo[]>();
    for (const [table, { schema }] of test.schemas) {
        const source = findSource(pipeline.sources, table);
        if (!source) {
            report(['schemas', table], ErrorClass.tableNotFound, 'warning',
                `The pipeline reads no table '${table}', so this schema is not used; it reads ${list(pipeline.sources)}.`);
            continue;
        }
        try {
            given.set(source, parseSparkSchema(schema).map(c => ({ name: c.name })));
        } catch {
            // An unreadable schema is already a problem of the file.
        }
    }

    for (const update of test.updates) {
        const at: YamlPath = ['updates', update.index];
        for (const [table, input] of update.inputs) {
            const place: YamlPath = [...at, 'inputs', table];
            const source = findSource(pipeline.sources, table);
            if (!source) {
                const dataset = findTestDataset(pipeline.datasets, table);
                report(place, ErrorClass.tableNotFound, dataset ? 'error' : sure, dataset
                    ? `'${table}' is a dataset of the pipeline; inputs feed the tables it reads (${list(pipeline.sources)}).`
                    : `The pipeline reads no table '${table}'; it reads ${list(pipeline.sources)}.`);
                continue;
            }
            const columns = given.get(source) ?? source.columns;
            if (!columns || columns.length === 0) {
                report(place, ErrorClass.testUnknownSchema, 'warning',
                    `The types of '${table}' are unknown (no declaration in samples/*.sql, no sample file): give them under schemas: (e.g. ${table}: "id INT, name STRING").`);
                continue;
            }
            checkColumns(input.rows, place, table, columns, given.has(source) || source.complete ? 'error' : 'warning', report);
        }
        for (const expected of update.expect) {
            const place: YamlPath = [...at, 'expect', expected.dataset];
            const dataset = findTestDataset(pipeline.datasets, expected.dataset);
            if (!dataset) {
                report(place, ErrorClass.tableNotFound, sure, `The pipeline has no dataset '${expected.dataset}'; its datasets: ${list(pipeline.datasets)}.`);
                continue;
            }
            if (dataset.columns && dataset.columns.length > 0) {
                checkColumns(expected.rows, place, expected.dataset, dataset.columns, dataset.complete ? 'error' : 'warning', report);
            }
        }
        for (const [name, { value }] of update.expectMetrics) {
            const place: YamlPath = [...at, 'expect_metrics', name];
            const dataset = findTestDataset(pipeline.datasets, name);
            if (!dataset) {
                report(place, ErrorClass.tableNotFound, sure, `The pipeline has no dataset '${name}'; its datasets: ${list(pipeline.datasets)}.`);
                continue;
            }
            const expectations = isRecord(value) ? value.expectations : undefined;
            if (dataset.expectations && isRecord(expectations)) {
                const known = new Set(dataset.expectations.map(e => e.toLowerCase()));
                for (const expectation of Object.keys(expectations)) {
                    if (!known.has(expectation.toLowerCase())) {
                        report([...place, 'expectations', expectation], ErrorClass.testUnknownExpectation, 'error',
                            `'${name}' has no expectation '${expectation}'; ${dataset.expectations.length > 0 ? `its expectations: ${dataset.expectations.join(', ')}` : 'it declares none'}.`);
                    }
                }
            }
        }
    }
    return problems;
}

type Report = (at: YamlPath, code: string, severity: ProjectProblem['severity'], message: string) => void;

function checkColumns(rows: ReadonlyArray<Record<string, unknown>>, place: YamlPath, table: string, columns: readonly TestColumnInfo[],
    severity: ProjectProblem['severity'], report: Report): void {
    const known = new Set(columns.map(c => c.name.toLowerCase()));
    rows.forEach((row, index) => {
        for (const column of Object.keys(row)) {
            if (!known.has(column.toLowerCase())) {
                report([...place, index, column], ErrorClass.unresolvedColumn, severity,
                    `'${table}' has no column '${column}'; its columns: ${columns.map(c => c.name).join(', ')}.`);
            }
        }
    });
}
