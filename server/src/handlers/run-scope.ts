/**
 * Which datasets a run updates, worked out on the engine IR: the dataset a code lens names (by its
 * declared name, or by a flow's name), everything it reads transitively ("Run flow"), or everything
 * that reads it transitively ("Run from here"). Views are never refreshed (the engine computes them
 * when they are read), so they are left out of the list the engine gets.
 */
import type { DatasetIR, FlowIR, PipelineIR } from '../../../engine/src/index.js';
import type { RunScope } from '../../../common/result-model.js';

/** A dataset's key: its name parts joined by dots, lower-case (the engine compares names case-insensitively). */
export function datasetKey(name: readonly string[]): string {
    return name.join('.').toLowerCase();
}

/** The display name of a dataset (as declared). */
export function displayName(dataset: DatasetIR): string {
    return dataset.name.join('.');
}

/** Whether a dataset is a view (computed when read, never refreshed). */
export function isView(dataset: DatasetIR): boolean {
    return dataset.kind === 'temporary_view' || dataset.kind === 'view';
}

/** Every dataset a piece of IR reads (`{ kind: 'table', source: { kind: 'dataset' } }` nodes), as keys. */
export function datasetReads(node: unknown, into = new Set<string>()): Set<string> {
    if (Array.isArray(node)) {
        node.forEach(item => datasetReads(item, into));
    } else if (typeof node === 'object' && node !== null) {
        const record = node as Record<string, unknown>;
        const source = record.source as { kind?: unknown; name?: unknown } | undefined;
        if (record.kind === 'table' && source?.kind === 'dataset' && Array.isArray(source.name)) {
            into.add(datasetKey(source.name as string[]));
        }
        for (const value of Object.values(record)) {
            if (typeof value === 'object' && value !== null) {
                datasetReads(value, into);
            }
        }
    }
    return into;
}

/** The dependency graph of the pipeline's datasets: what each one reads through its flows (or its view query). */
export function datasetDependencies(pipeline: PipelineIR): Map<string, Set<string>> {
    const reads = new Map<string, Set<string>>(pipeline.datasets.map(d => [datasetKey(d.name), new Set<string>()]));
    for (const dataset of pipeline.datasets) {
        if (dataset.query) {
            datasetReads(dataset.query, reads.get(datasetKey(dataset.name)));
        }
    }
    for (const flow of pipeline.flows) {
        const target = reads.get(datasetKey(flow.target));
        if (target) {
            // The flow's target field names the dataset written, not one read.
            const { target: _written, ...body } = flow;
            datasetReads(body, target);
        }
    }
    for (const [key, deps] of reads) {
        deps.delete(key);
        for (const dep of [...deps]) {
            if (!reads.has(dep)) {
                deps.delete(dep);
            }
        }
    }
    return reads;
}

/** The outcome of resolving a name a code lens or command passed. */
export type DatasetLookup = { ok: true; dataset: DatasetIR } | { ok: false; message: string };

/**
 * The dataset a name means: a dataset declared with that name (case-insensitively, with or without
 * `LIVE.` and qualifiers), else the target of the flow with that name.
 */
export function findDataset(pipeline: PipelineIR, name: string): DatasetLookup {
    const wanted = name.replace(/`/g, '').replace(/^live\./i, '').toLowerCase();
    const exact = pipeline.datasets.find(d => datasetKey(d.name) === wanted);
    if (exact) {
        return { ok: true, dataset: exact };
    }
    const suffix = pipeline.datasets.filter(d => datasetKey(d.name).endsWith(`.${wanted}`) || wanted.endsWith(`.${datasetKey(d.name)}`));
    if (suffix.length === 1) {
        return { ok: true, dataset: suffix[0] };
    }
    const flow: FlowIR | undefined = pipeline.flows.find(f => f.name.toLowerCase() === wanted);
    const target = flow ? pipeline.datasets.find(d => datasetKey(d.name) === datasetKey(flow.target)) : undefined;
    if (target) {
        return { ok: true, dataset: target };
    }
    return { ok: false, message: suffix.length > 1 ? `'${name}' names several datasets: ${suffix.map(displayName).join(', ')}.` : `The pipeline has no dataset or flow named '${name}'.` };
}

function closure(start: string, next: (key: string) => Iterable<string>): Set<string> {
    const seen = new Set<string>([start]);
    const stack = [start];
    while (stack.length > 0) {
        for (const key of next(stack.pop()!)) {
            if (!seen.has(key)) {
                seen.add(key);
                stack.push(key);
            }
        }
    }
    return seen;
}

/** The datasets to refresh for a run of `scope` (names as declared, in declaration order, views left out); undefined: all. */
export function refreshList(pipeline: PipelineIR, scope: RunScope, dataset: DatasetIR | undefined): string[] | undefined {
    if (scope === 'pipeline' || !dataset) {
        return undefined;
    }
    const deps = datasetDependencies(pipeline);
    const start = datasetKey(dataset.name);
    let keys: Set<string>;
    if (scope === 'upstream') {
        keys = closure(start, key => deps.get(key) ?? []);
    } else {
        const readers = new Map<string, string[]>();
        for (const [key, reads] of deps) {
            for (const read of reads) {
                readers.set(read, [...(readers.get(read) ?? []), key]);
            }
        }
        keys = closure(start, key => readers.get(key) ?? []);
    }
    return pipeline.datasets.filter(d => keys.has(datasetKey(d.name)) && !isView(d)).map(displayName);
}
