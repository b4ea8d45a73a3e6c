// Analysis of a pipeline before anything runs: every flow has a target of a kind it may write,
// flow combinations are legal (docs/semantics.md §4 rules that would otherwise give wrong results), and
// datasets are ordered so that each runs after the datasets it reads (the DAG, docs/semantics.md §5.1).
import { EngineError, ErrorClass, PipelineDefinitionError } from '../errors.js';
import type { AutoCdcFlowIR, DatasetIR, FlowIR, PipelineIR, QueryIR, SnapshotFlowIR, SourceSpan } from '../ir.js';
import { forEachTableRelation, forEachTableRelationInExpr } from '../ir-walk.js';

/** Normalised key of a dataset name (lower-case parts joined with dots). */
export function datasetKey(name: string[]): string {
    return name.map(p => p.toLowerCase()).join('.');
}

/** The analysed pipeline. */
export interface PipelinePlan {
    pipeline: PipelineIR;
    /** Every dataset by key. */
    datasets: Map<string, DatasetIR>;
    /** Display name (as declared) of every dataset key. */
    displayNames: Map<string, string>;
    /** Flows writing each dataset, in declaration order. */
    flowsByTarget: Map<string, FlowIR[]>;
    /** Materialized datasets (not views) in dependency order. */
    order: string[];
    /** Upstream datasets (materialized or views) of each dataset. */
    upstream: Map<string, Set<string>>;
}

/** True for datasets that are evaluated when read rather than stored. */
export function isView(dataset: DatasetIR): boolean {
    return dataset.kind === 'temporary_view' || dataset.kind === 'view';
}

/** Queries a flow evaluates (for dependency analysis). */
export function flowQueries(flow: FlowIR): QueryIR[] {
    switch (flow.kind) {
        case 'append':
        case 'replace_using':
        case 'replace_where':
        case 'materialized_view':
            return [flow.query];
        case 'auto_cdc':
            return [{ kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [flow.source] } }];
        case 'snapshot':
            return [flow.snapshot.query, ...(flow.version ? [flow.version.query] : [])];
    }
}

/** Datasets (keys) a query reads directly. */
function datasetsRead(query: QueryIR): string[] {
    const out: string[] = [];
    forEachTableRelation(query, relation => {
        if (relation.source.kind === 'dataset' || relation.source.kind === 'table_changes') {
            out.push(datasetKey(relation.source.name));
        }
    });
    return out;
}

/** Validates a pipeline and computes the order in which its datasets are updated. */
export function buildPlan(pipeline: PipelineIR): PipelinePlan {
    if (pipeline.irVersion !== 1) {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `Unsupported pipeline IR version ${String(pipeline.irVersion)}; this engine reads version 1.`);
    }
    const datasets = new Map<string, DatasetIR>();
    const displayNames = new Map<string, string>();
    for (const dataset of pipeline.datasets) {
        const key = datasetKey(dataset.name);
        if (datasets.has(key)) {
            throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `The dataset '${dataset.name.join('.')}' is defined more than once.`, { span: dataset.span, dataset: key });
        }
        datasets.set(key, dataset);
        displayNames.set(key, dataset.name.join('.'));
        if (isView(dataset) && !dataset.query) {
            throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `The view '${dataset.name.join('.')}' has no query.`, { span: dataset.span, dataset: key });
        }
    }
    const flowNames = new Set<string>();
    const flowsByTarget = new Map<string, FlowIR[]>();
    for (const flow of pipeline.flows) {
        const key = datasetKey(flow.target);
        const context = { span: flow.span, flow: flow.name, dataset: key };
        if (flowNames.has(flow.name.toLowerCase())) {
            throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `The flow name '${flow.name}' is used more than once.`, context);
        }
        flowNames.add(flow.name.toLowerCase());
        const target = datasets.get(key);
        const python = target ? undefined : pipeline.pythonDatasets?.find(p => datasetKey(p.name.slice(-flow.target.length)) === key || datasetKey(flow.target.slice(-p.name.length)) === datasetKey(p.name));
        if (python) {
            throw new PipelineDefinitionError(ErrorClass.unknownDataset,
                `The flow '${flow.name}' writes '${flow.target.join('.')}', which is defined in Python (${python.definedBy} at ${python.span.file.split(/[\\/]/).pop()}:${python.span.line}); `
                + 'a local run cannot run the Python definition of its target.', context);
        }
        if (!target) {
            throw new PipelineDefinitionError(ErrorClass.unknownDataset,
                `The flow '${flow.name}' writes '${flow.target.join('.')}', which the pipeline does not define. Declare it with CREATE STREAMING TABLE.`, context);
        }
        checkFlowTarget(flow, target, context);
        flowsByTarget.set(key, [...(flowsByTarget.get(key) ?? []), flow]);
    }
    for (const [key, flows] of flowsByTarget) {
        checkFlowCombination(datasets.get(key)!, flows);
    }
    for (const [key, dataset] of datasets) {
        if (!isView(dataset) && !flowsByTarget.has(key)) {
            throw new PipelineDefinitionError(ErrorClass.invalidPipeline,
                `The ${dataset.kind.replace('_', ' ')} '${dataset.name.join('.')}' has no query and no flow writes it.`, { span: dataset.span, dataset: key });
        }
    }

    // Dependency graph over all datasets (views included, so views of views resolve).
    const upstream = new Map<string, Set<string>>();
    for (const [key, dataset] of datasets) {
        const deps = new Set<string>();
        const queries = isView(dataset) ? [dataset.query!] : (flowsByTarget.get(key) ?? []).flatMap(flowQueries);
        for (const query of queries) {
            for (const dep of datasetsRead(query)) {
                if (!datasets.has(dep)) {
                    throw new PipelineDefinitionError(ErrorClass.unknownDataset, `'${key}' reads the dataset '${dep}', which the pipeline does not define.`, { span: dataset.span, dataset: key });
                }
                if (dep !== key) {
                    deps.add(dep);
                }
            }
        }
        for (const expectation of dataset.expectations) {
            forEachTableRelationInExpr(expectation.condition, () => {
                throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `The expectation '${expectation.name}' must not contain a subquery.`, { span: expectation.span, dataset: key });
            });
        }
        upstream.set(key, deps);
    }
    const order: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (key: string, path: string[]): void => {
        const mark = state.get(key);
        if (mark === 'done') {
            return;
        }
        if (mark === 'visiting') {
            const cycle = [...path.slice(path.indexOf(key)), key].map(k => displayNames.get(k) ?? k).join(' -> ');
            throw new PipelineDefinitionError(ErrorClass.cycle, `The pipeline has a cyclic dependency: ${cycle}.`, { span: datasets.get(key)?.span, dataset: key });
        }
        state.set(key, 'visiting');
        for (const dep of upstream.get(key) ?? []) {
            visit(dep, [...path, key]);
        }
        state.set(key, 'done');
        if (!isView(datasets.get(key)!)) {
            order.push(key);
        }
    };
    for (const key of datasets.keys()) {
        visit(key, []);
    }
    return { pipeline, datasets, displayNames, flowsByTarget, order, upstream };
}

function checkFlowTarget(flow: FlowIR, target: DatasetIR, context: { span?: SourceSpan; flow: string; dataset: string }): void {
    if (isView(target)) {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `The flow '${flow.name}' cannot write the view '${target.name.join('.')}'.`, context);
    }
    const cdc = flow.kind === 'auto_cdc' || flow.kind === 'snapshot';
    if (cdc && target.kind === 'managed_table') {
        throw new EngineError(ErrorClass.managedTableCdc,
            `AUTO CDC flows cannot write the managed table '${target.name.join('.')}' (CREATE TABLE ... FLOW supports append flows only). Declare it as a streaming table.`, context);
    }
    if (cdc && target.kind !== 'streaming_table') {
        throw new PipelineDefinitionError(ErrorClass.cdcTargetKind, `The AUTO CDC flow '${flow.name}' must write a streaming table, not a ${target.kind.replace('_', ' ')}.`, context);
    }
    if (flow.kind === 'replace_where' && target.kind === 'managed_table') {
        throw new PipelineDefinitionError(ErrorClass.replaceWhereManaged, `REPLACE WHERE flows cannot write the managed table '${target.name.join('.')}'.`, context);
    }
    if (flow.kind === 'materialized_view' && target.kind !== 'materialized_view') {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `The query flow '${flow.name}' targets '${target.name.join('.')}', which is not a materialized view.`, context);
    }
    if (flow.kind !== 'materialized_view' && target.kind === 'materialized_view') {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `Only its own query can write the materialized view '${target.name.join('.')}'.`, context);
    }
    if (flow.kind === 'auto_cdc') {
        checkCdcClauses(flow, context);
    }
}

function checkCdcClauses(flow: AutoCdcFlowIR, context: { flow: string; dataset: string }): void {
    const type = flow.storedAs.type;
    const at = (span: SourceSpan | undefined) => ({ ...context, span: span ?? flow.span });
    if (flow.keys.columns.length === 0) {
        throw new PipelineDefinitionError(ErrorClass.emptyKeys, `The AUTO CDC flow '${flow.name}' needs at least one key in KEYS (...).`, at(flow.keys.span));
    }
    if (flow.applyAsTruncateWhen && type !== 'scd1') {
        throw new PipelineDefinitionError(ErrorClass.truncateRequiresScd1, 'APPLY AS TRUNCATE WHEN is only supported with STORED AS SCD TYPE 1.', at(flow.applyAsTruncateWhen.span));
    }
    if (flow.trackHistory && type !== 'scd2') {
        throw new PipelineDefinitionError(ErrorClass.trackHistoryRequiresScd2, 'TRACK HISTORY ON is only supported with STORED AS SCD TYPE 2.', at(flow.trackHistory.span));
    }
    if (type === 'bitemporal' && !flow.systemSequenceBy) {
        throw new PipelineDefinitionError(ErrorClass.bitemporalRequiresSystemSequence, 'STORED AS BITEMPORAL requires SYSTEM SEQUENCE BY.', at(flow.storedAs.span));
    }
    if (flow.systemSequenceBy && type !== 'bitemporal') {
        throw new PipelineDefinitionError(ErrorClass.systemSequenceRequiresBitemporal, 'SYSTEM SEQUENCE BY is only supported with STORED AS BITEMPORAL.', at(flow.systemSequenceBy.span));
    }
    if (flow.columnsToUpdate && flow.ignoreNullUpdates) {
        throw new PipelineDefinitionError(ErrorClass.columnsToUpdateConflict, 'COLUMNS TO UPDATE cannot be combined with IGNORE NULL UPDATES.', at(flow.columnsToUpdate.span));
    }
    if (flow.columnsToUpdate && type === 'bitemporal') {
        throw new PipelineDefinitionError(ErrorClass.columnsToUpdateConflict, 'COLUMNS TO UPDATE is not supported with STORED AS BITEMPORAL.', at(flow.columnsToUpdate.span));
    }
}

function checkFlowCombination(target: DatasetIR, flows: FlowIR[]): void {
    const key = datasetKey(target.name);
    const cdc = flows.filter((f): f is AutoCdcFlowIR => f.kind === 'auto_cdc');
    const snapshots = flows.filter((f): f is SnapshotFlowIR => f.kind === 'snapshot');
    const others = flows.filter(f => f.kind !== 'auto_cdc' && f.kind !== 'snapshot');
    if ((cdc.length > 0 || snapshots.length > 0) && others.length > 0) {
        throw new PipelineDefinitionError(ErrorClass.mixedFlowKinds,
            `The streaming table '${target.name.join('.')}' is written by AUTO CDC and by other flows ('${others[0].name}'); an AUTO CDC target accepts only AUTO CDC flows.`,
            { span: others[0].span, flow: others[0].name, dataset: key });
    }
    if (snapshots.length > 1) {
        throw new EngineError(ErrorClass.multipleSnapshotQueries,
            `The streaming table '${target.name.join('.')}' has more than one AUTO CDC FROM SNAPSHOT flow.`, { span: snapshots[1].span, flow: snapshots[1].name, dataset: key });
    }
    for (const flow of cdc.slice(1)) {
        const first = cdc[0];
        const sameKeys = first.keys.columns.map(k => k.toLowerCase()).join(',') === flow.keys.columns.map(k => k.toLowerCase()).join(',');
        if (!sameKeys || first.storedAs.type !== flow.storedAs.type) {
            throw new PipelineDefinitionError(ErrorClass.cdcFlowsIncompatible,
                `The AUTO CDC flows '${first.name}' and '${flow.name}' write the same table with different KEYS or STORED AS.`, { span: flow.span, flow: flow.name, dataset: key });
        }
        // One target's events are folded with one rule: the flows must agree on how an upsert merges and what opens a version.
        const rule = (f: AutoCdcFlowIR) => JSON.stringify([
            f.ignoreNullUpdates?.columns ?? null, f.columnsToUpdate ? true : null, f.trackHistory?.selection ?? null,
        ]).toLowerCase();
        if (rule(first) !== rule(flow)) {
            throw new PipelineDefinitionError(ErrorClass.cdcFlowsIncompatible,
                `The AUTO CDC flows '${first.name}' and '${flow.name}' write the same table with different IGNORE NULL UPDATES, COLUMNS TO UPDATE or TRACK HISTORY clauses; `
                + 'the local engine merges all events of a target by one rule, so give them the same clauses.', { span: flow.span, flow: flow.name, dataset: key });
        }
    }
    if (snapshots.length === 1 && cdc.length > 0) {
        const snapshot = snapshots[0];
        const context = { span: snapshot.span, flow: snapshot.name, dataset: key };
        if (snapshot.storedAs.type !== 'scd1' || cdc.some(f => f.storedAs.type !== 'scd1')) {
            throw new PipelineDefinitionError(ErrorClass.interopScd2, 'A snapshot flow and AUTO CDC flows can share a target only when it is stored as SCD TYPE 1.', context);
        }
        const keys = snapshot.keys.columns.map(k => k.toLowerCase()).join(',');
        if (cdc.some(f => f.keys.columns.map(k => k.toLowerCase()).join(',') !== keys)) {
            throw new EngineError(ErrorClass.interopKeysMismatch, 'The snapshot flow and the AUTO CDC flows of this target must use the same KEYS.', context);
        }
        const ignoring = cdc.find(f => f.ignoreNullUpdates);
        if (ignoring) {
            throw new EngineError(ErrorClass.interopIgnoreNull, `The AUTO CDC flow '${ignoring.name}' uses IGNORE NULL UPDATES, which is not supported together with a snapshot flow.`,
                { ...context, span: ignoring.ignoreNullUpdates?.span ?? ignoring.span, flow: ignoring.name });
        }
        if (target.expectations.length > 0) {
            throw new EngineError(ErrorClass.interopExpectations, 'A target shared by a snapshot flow and AUTO CDC flows cannot have expectations.', context);
        }
    }
}
