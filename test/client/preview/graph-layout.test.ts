import { describe, expect, test } from 'vitest';
import { downstreamOf, fitLabel, flowLabel, layoutForPanel, layoutGraph, subtitleOf } from '../../../client/webview/model/graph-layout.js';
import type { GraphEdgeModel, GraphModel, GraphNodeModel } from '../../../common/preview-messages.js';

/** The graph of samples/users-cdc as the pipeline model describes it. */
const nodes: GraphNodeModel[] = [
    { id: 'dataset:users_changes', kind: 'streaming-table', name: 'users_changes' },
    { id: 'dataset:users_current', kind: 'streaming-table', name: 'users_current' },
    { id: 'dataset:users_history', kind: 'streaming-table', name: 'users_history' },
    { id: 'dataset:users_by_city', kind: 'materialized-view', name: 'users_by_city' },
    { id: 'source:cdc_data.users', kind: 'source', name: 'cdc_data.users' },
    { id: 'flow:users_changes', kind: 'flow', name: 'users_changes', flowKind: 'append' },
    { id: 'flow:users_current_cdc', kind: 'flow', name: 'users_current_cdc', flowKind: 'auto-cdc', scd: 1 },
    { id: 'flow:users_history_cdc', kind: 'flow', name: 'users_history_cdc', flowKind: 'auto-cdc', scd: 2 },
    { id: 'flow:users_by_city', kind: 'flow', name: 'users_by_city', flowKind: 'materialized-view' },
];
const edges: GraphEdgeModel[] = [
    { from: 'source:cdc_data.users', to: 'flow:users_changes', kind: 'read', streaming: true },
    { from: 'flow:users_changes', to: 'dataset:users_changes', kind: 'write' },
    { from: 'dataset:users_changes', to: 'flow:users_current_cdc', kind: 'read', streaming: true },
    { from: 'flow:users_current_cdc', to: 'dataset:users_current', kind: 'write' },
    { from: 'dataset:users_changes', to: 'flow:users_history_cdc', kind: 'read', streaming: true },
    { from: 'flow:users_history_cdc', to: 'dataset:users_history', kind: 'write' },
    { from: 'dataset:users_current', to: 'flow:users_by_city', kind: 'read' },
    { from: 'flow:users_by_city', to: 'dataset:users_by_city', kind: 'write' },
];
const graph: GraphModel = { pipeline: { id: 'users_cdc' }, nodes, edges, cycles: [] };

describe('layoutGraph', () => {
    const layout = layoutGraph(graph);
    const at = (id: string) => layout.nodes.find(n => n.node.id === id)!;

    test('every node is placed once, left to right along the data flow', () => {
        expect(layout.nodes).toHaveLength(nodes.length);
        expect(layout.nodes.map(n => n.layer)).toEqual([2, 4, 4, 6, 0, 1, 3, 3, 5]);
        for (const edge of edges) {
            expect(at(edge.from).x + at(edge.from).width, `${edge.from} → ${edge.to}`).toBeLessThan(at(edge.to).x);
        }
    });

    test('nodes of a layer do not overlap, and everything lies inside the drawing', () => {
        for (const a of layout.nodes) {
            expect(a.x).toBeGreaterThanOrEqual(0);
            expect(a.y).toBeGreaterThanOrEqual(0);
            expect(a.x + a.width).toBeLessThanOrEqual(layout.width);
            expect(a.y + a.height).toBeLessThanOrEqual(layout.height);
            for (const b of layout.nodes) {
                if (a !== b && a.layer === b.layer) {
                    expect(a.y + a.height <= b.y || b.y + b.height <= a.y, `${a.node.id} / ${b.node.id}`).toBe(true);
                }
            }
        }
    });

    test('kinds are shapes, flows are labelled by kind and storage', () => {
        expect(at('dataset:users_changes').shape).toBe('table');
        expect(at('dataset:users_by_city').shape).toBe('view');
        expect(at('source:cdc_data.users').shape).toBe('source');
        expect(at('flow:users_history_cdc').shape).toBe('flow');
        expect(at('flow:users_history_cdc').subtitle).toBe('AUTO CDC · SCD2');
        expect(at('flow:users_current_cdc').subtitle).toBe('AUTO CDC · SCD1');
        expect(at('flow:users_by_city').subtitle).toBe('MV query');
        expect(at('dataset:users_by_city').subtitle).toBe('materialized view');
    });

    test('each edge is a path from the right side of its source to the left side of its target', () => {
        for (const routed of layout.edges) {
            const from = at(routed.edge.from);
            const to = at(routed.edge.to);
            const numbers = routed.path.match(/-?\d+(\.\d+)?/g)!.map(Number);
            expect(numbers[0]).toBeCloseTo(from.x + from.width, 0);
            expect(numbers[1]).toBeCloseTo(from.y + from.height / 2, 0);
            expect(numbers[numbers.length - 2]).toBeCloseTo(to.x, 0);
            expect(numbers[numbers.length - 1]).toBeCloseTo(to.y + to.height / 2, 0);
        }
    });

    test('an edge that skips layers passes waypoints instead of crossing nodes', () => {
        const skipping: GraphModel = {
            ...graph,
            nodes: [...nodes, { id: 'flow:audit', kind: 'flow', name: 'audit', flowKind: 'append' }, { id: 'dataset:audit', kind: 'streaming-table', name: 'audit' }],
            edges: [...edges, { from: 'dataset:users_by_city', to: 'flow:audit', kind: 'read' }, { from: 'source:cdc_data.users', to: 'flow:audit', kind: 'read' },
                { from: 'flow:audit', to: 'dataset:audit', kind: 'write' }],
        };
        const long = layoutGraph(skipping).edges.find(e => e.edge.from === 'source:cdc_data.users' && e.edge.to === 'flow:audit')!;
        // Seven layers apart: one curve per layer crossed.
        expect(long.path.match(/C/g)).toHaveLength(7);
    });

    test('a cycle (an invalid pipeline) is still drawn, with the closing edge reversed', () => {
        const cyclic: GraphModel = {
            pipeline: { id: 'p' }, cycles: [['dataset:a', 'dataset:b']],
            nodes: [
                { id: 'dataset:a', kind: 'materialized-view', name: 'a' }, { id: 'dataset:b', kind: 'materialized-view', name: 'b' },
                { id: 'flow:a', kind: 'flow', name: 'a', flowKind: 'materialized-view' }, { id: 'flow:b', kind: 'flow', name: 'b', flowKind: 'materialized-view' },
            ],
            edges: [
                { from: 'dataset:a', to: 'flow:b', kind: 'read' }, { from: 'flow:b', to: 'dataset:b', kind: 'write' },
                { from: 'dataset:b', to: 'flow:a', kind: 'read' }, { from: 'flow:a', to: 'dataset:a', kind: 'write' },
            ],
        };
        const drawn = layoutGraph(cyclic);
        expect(drawn.nodes).toHaveLength(4);
        expect(drawn.edges.filter(e => e.reversed)).toHaveLength(1);
    });

    test('an empty graph is an empty drawing', () => {
        expect(layoutGraph({ pipeline: { id: 'p' }, nodes: [], edges: [], cycles: [] })).toMatchObject({ nodes: [], edges: [] });
    });
});

describe('top to bottom', () => {
    const layout = layoutGraph(graph, { direction: 'TB' });
    const at = (id: string) => layout.nodes.find(n => n.node.id === id)!;

    test('layers are rows: every edge runs from the bottom of its source down to the top of its target', () => {
        expect(layout.direction).toBe('TB');
        expect(layout.nodes.map(n => n.layer)).toEqual([2, 4, 4, 6, 0, 1, 3, 3, 5]);
        for (const routed of layout.edges) {
            const from = at(routed.edge.from);
            const to = at(routed.edge.to);
            expect(from.y + from.height).toBeLessThan(to.y);
            const numbers = routed.path.match(/-?\d+(\.\d+)?/g)!.map(Number);
            expect(numbers[0]).toBeCloseTo(from.x + from.width / 2, 0);
            expect(numbers[1]).toBeCloseTo(from.y + from.height, 0);
            expect(numbers[numbers.length - 2]).toBeCloseTo(to.x + to.width / 2, 0);
            expect(numbers[numbers.length - 1]).toBeCloseTo(to.y, 0);
        }
    });

    test('nodes of a row do not overlap and the drawing is taller than wide', () => {
        for (const a of layout.nodes) {
            expect(a.x + a.width).toBeLessThanOrEqual(layout.width);
            expect(a.y + a.height).toBeLessThanOrEqual(layout.height);
            for (const b of layout.nodes) {
                if (a !== b && a.layer === b.layer) {
                    expect(a.x + a.width <= b.x || b.x + b.width <= a.x, `${a.node.id} / ${b.node.id}`).toBe(true);
                }
            }
        }
        expect(layout.height).toBeGreaterThan(layout.width);
    });

    test('a panel beside the code gets the top-to-bottom drawing at full size; a wide one left to right', () => {
        const narrow = layoutForPanel(graph, 620, 700);
        expect(narrow.direction).toBe('TB');
        expect(narrow.width).toBeLessThanOrEqual(620);
        expect(narrow.height).toBeLessThanOrEqual(700);
        expect(layoutForPanel(graph, 1800, 500).direction).toBe('LR');
    });
});

test('flowLabel names every flow kind', () => {
    expect(flowLabel('append', undefined)).toBe('append');
    expect(flowLabel('append-once', undefined)).toBe('append once');
    expect(flowLabel('auto-cdc', 'bitemporal')).toBe('AUTO CDC · bitemporal');
    expect(flowLabel('auto-cdc-once', 1)).toBe('AUTO CDC ONCE · SCD1');
    expect(flowLabel('snapshot', 2)).toBe('snapshot · SCD2');
    expect(flowLabel('replace-using', undefined)).toBe('REPLACE USING');
    expect(flowLabel('replace-where', undefined)).toBe('REPLACE WHERE');
    expect(subtitleOf({ id: 'x', kind: 'temporary-view', name: 'x' })).toBe('temporary view');
});

test('downstreamOf lists the datasets a "Run from here" updates besides the node', () => {
    expect(downstreamOf(graph, 'dataset:users_changes').sort()).toEqual(['dataset:users_by_city', 'dataset:users_current', 'dataset:users_history']);
    expect(downstreamOf(graph, 'dataset:users_by_city')).toEqual([]);
});

test('fitLabel cuts long names with an ellipsis', () => {
    expect(fitLabel('short', 200)).toBe('short');
    expect(fitLabel('a_very_long_dataset_name_that_does_not_fit', 110)).toBe('a_very_long_da…');
    expect(fitLabel('abcdef', 20)).toBe('ab…');
});
