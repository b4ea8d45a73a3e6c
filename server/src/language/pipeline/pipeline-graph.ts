/**
 * The pipeline model as the protocol's DAG (`pipelineSql/pipelineGraph`): one node per dataset, flow
 * and outside source, read edges from inputs to flows and write edges from flows to targets.
 */
import type { AstNode } from 'langium';
import { CstUtils, GrammarUtils } from 'langium';
import type { PipelineGraph, PipelineGraphEdge, PipelineGraphNode } from '../../../../common/protocol.js';
import * as ast from '../generated/ast.js';
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
        nodes.push({ id, kind: dataset.kind, name: dataset.displayName, uri: dataset.documentUri.toString(), range: nameRange(dataset.node) });
    }
    const sourceIds = new Map<string, string>();
    const sourceId = (input: InputInfo): string => {
        const key = ast.isTableFunctionCall(input.node) ? input.name.replace(/\s+/g, ' ') : input.name.toLowerCase().replace(/^live\./, '');
        let id = sourceIds.get(key);
        if (!id) {
            id = `source:${key}`;
            sourceIds.set(key, id);
            nodes.push({
                id, kind: 'source', name: input.name, sampled: input.catalogTable !== undefined || undefined,
                ...(input.catalogTable?.$document ? { uri: input.catalogTable.$document.uri.toString(), range: nameRange(input.catalogTable) } : {}),
            });
        }
        return id;
    };
    for (const flow of model.flows) {
        const id = uniqueId(`flow:${flow.name.toLowerCase()}`);
        const spec = flow.cdc ?? flow.snapshot;
        nodes.push({
            id, kind: 'flow', name: flow.name, flowKind: flow.kind, inline: flow.inline, ...(spec ? { scd: scdKindOf(spec) } : {}),
            uri: flow.documentUri.toString(), range: nameRange(flow.inline ? flow.statement : flowNameNode(flow)),
        });
        const seen = new Set<string>();
        for (const input of flow.inputs) {
            const from = input.dataset ? datasetIds.get(input.dataset)! : sourceId(input);
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
    return {
        pipeline: { id: model.pipeline.id, root: model.pipeline.rootPath, name: model.pipeline.spec?.name },
        nodes,
        edges,
        cycles: model.cycles.map(cycle => cycle.map(d => datasetIds.get(d)!)),
    };
}

function flowNameNode(flow: FlowInfo): AstNode {
    return ast.isCreateFlow(flow.statement) ? flow.statement : flow.targetRef ?? flow.statement;
}
