/**
 * The Python-defined datasets of one pipeline: what the reader found in each of its Python library
 * files, put together and looked up by table name with the same rules as the SQL datasets
 * (case-insensitive, `LIVE.` dropped, qualifiers compared with the pipeline's catalog and schema).
 * Pure data; no file access.
 */
import type { PythonDatasetIR } from '../../../../engine/src/index.js';
import { displayName, lastKey, referenceMatchesDataset, type NamespaceDefaults, type TableName } from '../../language/references/dataset-names.js';
import type { PythonDataset, PythonDatasetKind, PythonFileDefinitions, PythonFlow, PythonFlowKind, PythonSkipped } from './python-definitions.js';

/** What the reader found in one Python file of the pipeline. */
export interface PythonFileContribution {
    /** The file, absolute. */
    readonly file: string;
    readonly definitions: PythonFileDefinitions;
}

/** A Python-defined dataset of the pipeline. */
export interface PythonDatasetEntry {
    readonly file: string;
    readonly dataset: PythonDataset;
    /** Its kind under the pipeline's target (Apache Spark's `@table` is always a streaming table). */
    readonly kind: PythonDatasetKind;
    readonly name: TableName;
    readonly displayName: string;
    /** The Python flows that write it (its own query function first). */
    readonly flows: PythonFlowEntry[];
}

/** A Python-defined flow of the pipeline. */
export interface PythonFlowEntry {
    readonly file: string;
    readonly flow: PythonFlow;
    readonly kind: PythonFlowKind;
    /** The Python dataset it writes, when one of the pipeline's Python files defines it. */
    readonly target?: PythonDatasetEntry;
}

export interface PythonPipelineOptions {
    /** The target profile: under `spark-*`, `@table` defines a streaming table whatever its query reads. */
    readonly target?: string;
    /** Parses a name as written in the pipeline (its parameters substituted). */
    readonly parseName: (text: string) => TableName;
    /** The pipeline's default catalog and schema (Python flows' targets are compared with them). */
    readonly defaults?: NamespaceDefaults;
}

/** The Python datasets and flows of one pipeline. */
export class PythonPipelineDatasets {

    readonly datasets: readonly PythonDatasetEntry[];
    readonly flows: readonly PythonFlowEntry[];
    /** Definitions whose names are not statically known, with their files. */
    readonly skipped: ReadonlyArray<{ readonly file: string; readonly skipped: PythonSkipped }>;
    private readonly byKey = new Map<string, PythonDatasetEntry[]>();

    constructor(readonly files: readonly PythonFileContribution[], private readonly options: PythonPipelineOptions) {
        const spark = options.target?.startsWith('spark') ?? false;
        const datasets: PythonDatasetEntry[] = [];
        const flows: PythonFlowEntry[] = [];
        const skipped: Array<{ file: string; skipped: PythonSkipped }> = [];
        for (const { file, definitions } of files) {
            for (const dataset of definitions.datasets) {
                const name = options.parseName(dataset.name);
                const kind: PythonDatasetKind = spark && dataset.kindReason !== undefined ? 'streaming-table' : dataset.kind;
                const entry: PythonDatasetEntry = { file, dataset, kind, name, displayName: displayName(name), flows: [] };
                datasets.push(entry);
                const key = lastKey(name);
                this.byKey.set(key, [...(this.byKey.get(key) ?? []), entry]);
            }
            skipped.push(...definitions.skipped.map(s => ({ file, skipped: s })));
        }
        for (const { file, definitions } of files) {
            for (const flow of definitions.flows) {
                const target = flow.inline
                    ? datasets.find(d => d.file === file && d.dataset.range === flow.range)
                    : this.find(options.parseName(flow.target), options.defaults ?? {})[0];
                const kind: PythonFlowKind = flow.inline && target && target.kind !== target.dataset.kind ? 'append' : flow.kind;
                const entry: PythonFlowEntry = { file, flow, kind, target };
                flows.push(entry);
                target?.flows.push(entry);
            }
        }
        for (const dataset of datasets) {
            dataset.flows.sort((a, b) => Number(b.flow.inline) - Number(a.flow.inline));
        }
        this.datasets = datasets;
        this.flows = flows;
        this.skipped = skipped;
    }

    /** A name as a Python file writes it (`"LIVE.orders"`, `"main.sales.orders"`), parsed as the pipeline reads names. */
    parseName(text: string): TableName {
        return this.options.parseName(text);
    }

    /** The pipeline's default catalog and schema. */
    get defaults(): NamespaceDefaults {
        return this.options.defaults ?? {};
    }

    /** The Python datasets a reference (written where these namespace defaults hold) names. */
    find(reference: TableName, defaults: NamespaceDefaults): PythonDatasetEntry[] {
        return (this.byKey.get(lastKey(reference)) ?? []).filter(entry => referenceMatchesDataset(reference, entry.name, defaults));
    }
}

/** Whether a Python flow is a change-data-capture flow (AUTO CDC or snapshot), as `isCdcFlow` is for SQL. */
export function isPythonCdcFlow(flow: PythonFlowEntry): boolean {
    return flow.kind === 'auto-cdc' || flow.kind === 'auto-cdc-once' || flow.kind === 'snapshot' || flow.kind === 'snapshot-once';
}

/** Where a Python definition is, for messages: `ingest.py:12`. */
export function pythonPlace(file: string, range: { readonly start: { readonly line: number } }): string {
    return `${file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1)}:${range.start.line + 1}`;
}

/**
 * The Python datasets as the engine takes them (`PipelineIR.pythonDatasets`): names, how and where
 * each is defined (1-based lines and columns), so that a run can say which one it cannot compute.
 */
export function pythonDatasetsIR(datasets: PythonPipelineDatasets): PythonDatasetIR[] {
    return datasets.datasets.map(entry => {
        const { start, end } = entry.dataset.range;
        return {
            name: [...entry.name.parts], definedBy: entry.dataset.api,
            span: { file: entry.file, line: start.line + 1, column: start.column + 1, endLine: end.line + 1, endColumn: end.column + 1 },
        };
    });
}
