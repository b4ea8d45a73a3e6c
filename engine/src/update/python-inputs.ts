// Datasets a pipeline defines in Python cannot be computed by the local engine (it runs no Python):
// a flow reading one reads its sample data instead. An update whose selected flows read a Python
// dataset that has no sample data stops before it starts, naming the dataset, its file and line.
import * as path from 'node:path';
import { resolveCatalogTable } from '../catalog/sample-catalog.js';
import { EngineError, ErrorClass } from '../errors.js';
import type { PythonDatasetIR } from '../ir.js';
import { forEachTableRelation } from '../ir-walk.js';
import type { SampleDirs } from '../spark/sample-files.js';
import { datasetKey, flowQueries, isView, type PipelinePlan } from './plan.js';

/** Whether a name as read (`bronze`, `cat.sch.bronze`) and a Python dataset's name agree on their trailing parts. */
function sameTrailingName(read: readonly string[], declared: readonly string[]): boolean {
    const n = Math.min(read.length, declared.length);
    return datasetKey(read.slice(-n)) === datasetKey(declared.slice(-n));
}

/**
 * Checks the Python datasets that the datasets to be updated (`run`, dataset keys) read, directly
 * or through the views they read: each needs sample data. Throws the first that has none.
 */
export function checkPythonInputs(plan: PipelinePlan, run: ReadonlySet<string>, dirs: SampleDirs): void {
    const python = plan.pipeline.pythonDatasets ?? [];
    if (python.length === 0) {
        return;
    }
    const visited = new Set<string>();
    // Each dataset to visit, with the dataset of the update that reads it and the views in between.
    const pending = [...run].map(key => ({ key, reader: key, via: [] as string[] }));
    const checked = new Set<PythonDatasetIR>();
    while (pending.length > 0) {
        const { key, reader, via } = pending.pop()!;
        if (visited.has(key)) {
            continue;
        }
        visited.add(key);
        const dataset = plan.datasets.get(key);
        if (!dataset) {
            continue;
        }
        const flows = plan.flowsByTarget.get(key) ?? [];
        const queries = isView(dataset) && dataset.query ? [dataset.query] : flows.flatMap(flowQueries);
        const throughViews = key === reader ? via : [...via, key];
        for (const query of queries) {
            forEachTableRelation(query, relation => {
                const source = relation.source;
                if (source.kind === 'dataset') {
                    // A view is computed when read: what it reads is read by this update too.
                    pending.push({ key: datasetKey(source.name), reader, via: throughViews });
                } else if (source.kind === 'catalog') {
                    const defined = python.find(p => sameTrailingName(source.name, p.name));
                    if (defined && !checked.has(defined)) {
                        checked.add(defined);
                        requireSamples(defined, source.name, plan, { reader, via: throughViews }, dirs);
                    }
                }
            });
        }
    }
}

function requireSamples(dataset: PythonDatasetIR, read: string[], plan: PipelinePlan, chain: { reader: string; via: readonly string[] }, dirs: SampleDirs): void {
    const { reader, via } = chain;
    try {
        resolveCatalogTable(read, plan.pipeline.catalog, dirs);
    } catch (error) {
        if (!(error instanceof EngineError) || error.code !== ErrorClass.tableNotFound) {
            throw error;
        }
        const name = dataset.name.join('.');
        const where = `${path.basename(dataset.span.file)}:${dataset.span.line}`;
        const through = via.length === 0 ? '' : ` through the view${via.length > 1 ? 's' : ''} ${via.map(v => `'${plan.displayNames.get(v) ?? v}'`).join(', ')}`;
        const sample = path.join(path.basename(dirs.samplesDir), ...dataset.name.slice(-1));
        throw new EngineError(ErrorClass.pythonDatasetNotSampled,
            `'${plan.displayNames.get(reader) ?? reader}' reads '${name}'${through}, which is defined in Python (${dataset.definedBy} at ${where}); `
            + `a local run cannot run Python, and there is no sample data for it. Add ${sample}.csv (or .json, .parquet, or a folder ${sample}/), `
            + 'or refresh only datasets that do not read it.',
            { span: dataset.span, dataset: reader });
    }
}
