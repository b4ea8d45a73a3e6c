/**
 * The pipeline model as the protocol's DAG (`pipelineSql/pipelineGraph`): one node per dataset, flow
 * and outside source, read edges from inputs to flows and write edges from flows to targets.
 */
import type { AstNode } from 'langium';
import { CstUtils, GrammarUtils, URI } from 'langium';
import { lspRange } from '../../project/python/python-lookup.js';
import type { PythonDatasetEntry } from '../../project/python/python-pipeline.js';
import { lastKey, referenceMatchesDataset } from '../references/dataset-names.js';
import type { PipelineGraph, PipelineGraphEdge, PipelineGraphNode } from '../../../../common/protocol.js';
import * as ast from '../generated/ast.js';
import { editorUri } from './pipeline-registry.js';
import { scdKindOf, type DatasetInfo, type FlowInfo, type InputInfo, type PipelineModel } from './pipeline-model.js';

/** The range of a node's name (or of the node), for the protocol. */
function nameRange(node: AstNode): PipelineGraphNode['range'] {
    const name = GrammarUtils.findNodeForProperty(node.$cstNode, 'name') ?? node.$cstNode;
    return name ? CstUtils.toDocumentSegment(name).range : undefined;
}

/** Builds the protocol graph of a pipeline model. */
export function toPipelineGraph(model: PipelineModel): PipelineGraph {
    const nodes: PipelineGraphNode[] = [];
    const edges: PipelineGraphEdge[] = [];
    const used = new Map<string, number>();
    const uniqueId = (base: string): string => {
        const count = (used.get(base) ?? 0) + 1;
        used.set(base, count);
        return count === 1 ? base : `${base}#${count}`;
    };
    const datasetIds = new Map<DatasetInfo, string>();
    for (const dataset of model.datasets) {
        const id = uniqueId(`dataset:${dataset.displayName.toLowerCase()}`);
        datasetIds.set(dataset, id);
        nodes.push({ id, kind: dataset.kind, name: dataset.displayName, uri: editorUri(dataset.documentUri).toString(), range: nameRange(dataset.node) });
    }
    const pythonIds = new Map<PythonDatasetEntry, string>();
    for (const entry of model.python?.datasets ?? []) {
        const id = uniqueId(`dataset:${entry.displayName.toLowerCase()}`);
        pythonIds.set(entry, id);
        nodes.push({ id, kind: entry.kind, name: entry.displayName, uri: URI.file(entry.file).toString(), range: lspRange(entry.dataset.range), language: 'python' });
    }
    const sourceIds = new Map<string, string>();
    const sourceNode = (key: string, name: string, catalogTable?: ast.CreateTable): string => {
        let id = sourceIds.get(key);
        if (!id) {
            id = `source:${key}`;
            sourceIds.set(key, id);
            nodes.push({
                id, kind: 'source', name, sampled: catalogTable !== undefined || undefined,
                ...(catalogTable?.$document ? { uri: editorUri(catalogTable.$document.uri).toString(), range: nameRange(catalogTable) } : {}),
            });
        }
        return id;
    };
    const sourceKey = (name: string): string => name.toLowerCase().replace(/^live\./, '');
    const sourceId = (input: InputInfo): string =>
        sourceNode(ast.isTableFunctionCall(input.node) ? input.name.replace(/\s+/g, ' ') : sourceKey(input.name), input.name, input.catalogTable);
    for (const flow of model.flows) {
        const id = uniqueId(`flow:${flow.name.toLowerCase()}`);
        const spec = flow.cdc ?? flow.snapshot;
        nodes.push({
            id, kind: 'flow', name: flow.name, flowKind: flow.kind, inline: flow.inline, ...(spec ? { scd: scdKindOf(spec) } : {}),
            uri: editorUri(flow.documentUri).toString(), range: nameRange(flow.inline ? flow.statement : flowNameNode(flow)),
        });
        const seen = new Set<string>();
        for (const input of flow.inputs) {
            const python = model.pythonInput(input);
            const from = input.dataset ? datasetIds.get(input.dataset)! : python ? pythonIds.get(python)! : sourceId(input);
            const key = `${from}:${input.streaming}`;
            if (!seen.has(key)) {
                seen.add(key);
                edges.push({ from, to: id, kind: 'read', streaming: input.streaming });
            }
        }
        if (flow.target) {
            edges.push({ from: id, to: datasetIds.get(flow.target)!, kind: 'write' });
        }
    }
    addPythonFlows(model, uniqueId, nodes, edges, { datasetIds, pythonIds, sourceId: name => sourceNode(sourceKey(name), name) });
    return {
        pipeline: { id: model.pipeline.id, root: model.pipeline.rootPath, name: model.pipeline.spec?.name },
        nodes,
        edges,
        cycles: model.cycles.map(cycle => cycle.map(d => datasetIds.get(d)!)),
    };
}

/**
 * The flows of the pipeline's Python files: a node each, read edges from what they read (a dataset of
 * the SQL or Python files, else a source) and a write edge to their target.
 */
function addPythonFlows(model: PipelineModel, uniqueId: (base: string) => string, nodes: PipelineGraphNode[], edges: PipelineGraphEdge[],
    ids: { datasetIds: ReadonlyMap<DatasetInfo, string>; pythonIds: ReadonlyMap<PythonDatasetEntry, string>; sourceId: (name: string) => string }): void {
    const python = model.python;
    if (!python) {
        return;
    }
    const idOf = (text: string): string | undefined => {
        const name = python.parseName(text);
        const sql = model.datasetsNamed(lastKey(name)).find(d => referenceMatchesDataset(name, d.name, python.defaults));
        const defined = sql ? undefined : python.find(name, python.defaults)[0];
        return sql ? ids.datasetIds.get(sql) : defined ? ids.pythonIds.get(defined) : undefined;
    };
    for (const { file, flow, kind } of python.flows) {
        const id = uniqueId(`flow:${flow.name.toLowerCase()}`);
        nodes.push({
            id, kind: 'flow', name: flow.name, flowKind: kind, inline: flow.inline, ...(flow.scdType !== undefined ? { scd: flow.scdType } : {}),
            uri: URI.file(file).toString(), range: lspRange(flow.range), language: 'python',
        });
        const seen = new Set<string>();
        for (const read of flow.reads) {
            const from = idOf(read.name) ?? ids.sourceId(read.name);
            const key = `${from}:${read.streaming}`;
            if (!seen.has(key)) {
                seen.add(key);
                edges.push({ from, to: id, kind: 'read', streaming: read.streaming });
            }
        }
        const target = idOf(flow.target);
        if (target) {
            edges.push({ from: id, to: target, kind: 'write' });
        }
    }
}

function flowNameNode(flow: FlowInfo): AstNode {
    return ast.isCreateFlow(flow.statement) ? flow.statement : flow.targetRef ?? flow.statement;
}
