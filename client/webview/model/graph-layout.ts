/**
 * Layout of the pipeline graph (a layered drawing of a DAG, left to right or top to bottom): cycles are broken by
 * reversing back edges, each node gets the layer of its longest path from a source, edges that
 * span several layers get invisible waypoints, the order inside each layer is improved by
 * barycentre sweeps to reduce crossings, and edges become smooth SVG paths. Shapes and labels
 * follow the node's kind. Pure data in, geometry out: unit-tested.
 */
import type { GraphEdgeModel, GraphModel, GraphNodeKind, GraphNodeModel } from '../../../common/preview-messages.js';

/** How a node is drawn. */
export type NodeShape = 'table' | 'view' | 'virtual' | 'managed' | 'source' | 'flow';

/** A placed node. */
export interface PlacedNode {
    readonly node: GraphNodeModel;
    readonly shape: NodeShape;
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
    readonly layer: number;
    /** The second line: the dataset kind, or the flow kind (`AUTO CDC · SCD2`). */
    readonly subtitle: string;
}

/** A routed edge. */
export interface RoutedEdge {
    readonly edge: GraphEdgeModel;
    /** SVG path data. */
    readonly path: string;
    /** The edge was reversed to break a cycle. */
    readonly reversed: boolean;
}

/** The whole drawing. */
export interface GraphLayout {
    readonly direction: LayoutDirection;
    readonly width: number;
    readonly height: number;
    readonly nodes: readonly PlacedNode[];
    readonly edges: readonly RoutedEdge[];
}

const shapes: Record<GraphNodeKind, NodeShape> = {
    'streaming-table': 'table',
    'materialized-view': 'view',
    'temporary-view': 'virtual',
    view: 'virtual',
    'managed-table': 'managed',
    source: 'source',
    sink: 'source',
    flow: 'flow',
};

const kindText: Record<GraphNodeKind, string> = {
    'streaming-table': 'streaming table',
    'materialized-view': 'materialized view',
    'temporary-view': 'temporary view',
    view: 'view',
    'managed-table': 'managed table',
    source: 'source',
    sink: 'sink',
    flow: 'flow',
};

/** The label of a flow: `append`, `AUTO CDC · SCD2`, `snapshot · SCD1`, `REPLACE USING`, ... */
export function flowLabel(flowKind: string | undefined, scd: GraphNodeModel['scd']): string {
    const history = scd === undefined ? '' : scd === 'bitemporal' ? ' · bitemporal' : ` · SCD${scd}`;
    switch (flowKind) {
        case 'append': return 'append';
        case 'append-once': return 'append once';
        case 'auto-cdc': return `AUTO CDC${history}`;
        case 'auto-cdc-once': return `AUTO CDC ONCE${history}`;
        case 'snapshot': return `snapshot${history}`;
        case 'snapshot-once': return `snapshot ONCE${history}`;
        case 'replace-using': return 'REPLACE USING';
        case 'replace-where': return 'REPLACE WHERE';
        case 'materialized-view': return 'MV query';
        case 'view': return 'view query';
        default: return flowKind ?? 'flow';
    }
}

/** The second line of a node. */
export function subtitleOf(node: GraphNodeModel): string {
    const text = node.kind === 'flow' ? flowLabel(node.flowKind, node.scd) : kindText[node.kind];
    return node.language === 'python' ? `${text} · Python` : text;
}

const CHAR = 7;
/** The height of a node's third line. */
export const FACTS_LINE = 15;
const MIN_WIDTH = 96;
const MAX_WIDTH = 240;

/** A label cut to fit `width` pixels (11 px text, about 6.5 px a character, a little padding), with an ellipsis. */
export function fitLabel(text: string, width: number): string {
    const room = Math.max(3, Math.floor((width - 10) / 6.5));
    return text.length <= room ? text : `${text.slice(0, room - 1)}…`;
}

interface Vertex {
    id: string;
    width: number;
    height: number;
    dummy: boolean;
    layer: number;
    order: number;
}

/** Which way the data flows in a drawing: left to right, or top to bottom. */
export type LayoutDirection = 'LR' | 'TB';

/** Options of {@link layoutGraph}. */
export interface LayoutOptions {
    readonly direction?: LayoutDirection;
    /** Nodes with a third line (the last run's row counts or error), drawn taller. */
    readonly withFacts?: ReadonlySet<string>;
    /** Gaps in pixels: between layers, between nodes of a layer, around the drawing. */
    readonly spacing?: { readonly layer: number; readonly node: number; readonly margin: number };
}

/** Lays out a pipeline graph. */
export function layoutGraph(graph: GraphModel, options: LayoutOptions = {}): GraphLayout {
    const direction = options.direction ?? 'LR';
    // Top to bottom, the layers are rows: less room between them, more between the nodes of a row.
    const gap = options.spacing ?? (direction === 'TB' ? { layer: 34, node: 28, margin: 16 } : { layer: 48, node: 22, margin: 16 });
    const vertices = new Map<string, Vertex>();
    const placed = new Map<string, { node: GraphNodeModel; subtitle: string }>();
    for (const node of graph.nodes) {
        const subtitle = subtitleOf(node);
        const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.max(node.name.length, subtitle.length) * CHAR + 20));
        const height = (node.kind === 'flow' ? 38 : 44) + (options.withFacts?.has(node.id) ? FACTS_LINE : 0);
        vertices.set(node.id, { id: node.id, width, height, dummy: false, layer: 0, order: 0 });
        placed.set(node.id, { node, subtitle });
    }
    const edges = graph.edges.filter(e => vertices.has(e.from) && vertices.has(e.to) && e.from !== e.to);

    // 1. Break cycles: edges that close a cycle in a depth-first search are laid out reversed.
    const outgoing = new Map<string, string[]>();
    for (const e of edges) {
        outgoing.set(e.from, [...(outgoing.get(e.from) ?? []), e.to]);
    }
    const reversed = new Set<GraphEdgeModel>();
    const state = new Map<string, 'active' | 'done'>();
    const backEdges = new Set<string>();
    const visit = (id: string): void => {
        state.set(id, 'active');
        for (const next of outgoing.get(id) ?? []) {
            if (state.get(next) === 'active') {
                backEdges.add(`${id}\u0000${next}`);
            } else if (!state.has(next)) {
                visit(next);
            }
        }
        state.set(id, 'done');
    };
    for (const id of vertices.keys()) {
        if (!state.has(id)) {
            visit(id);
        }
    }
    const dagEdges = edges.map(e => {
        if (backEdges.has(`${e.from}\u0000${e.to}`)) {
            reversed.add(e);
            return { from: e.to, to: e.from, edge: e };
        }
        return { from: e.from, to: e.to, edge: e };
    });

    // 2. Layers: longest path from a source, in topological order.
    const indegree = new Map([...vertices.keys()].map(id => [id, 0]));
    const succ = new Map<string, string[]>();
    for (const e of dagEdges) {
        indegree.set(e.to, indegree.get(e.to)! + 1);
        succ.set(e.from, [...(succ.get(e.from) ?? []), e.to]);
    }
    const queue = [...vertices.keys()].filter(id => indegree.get(id) === 0);
    while (queue.length > 0) {
        const id = queue.shift()!;
        for (const next of succ.get(id) ?? []) {
            const v = vertices.get(next)!;
            v.layer = Math.max(v.layer, vertices.get(id)!.layer + 1);
            indegree.set(next, indegree.get(next)! - 1);
            if (indegree.get(next) === 0) {
                queue.push(next);
            }
        }
    }

    // 3. Waypoints for edges that span several layers.
    const chains: Array<{ edge: GraphEdgeModel; ids: string[]; reversed: boolean }> = [];
    let dummyCount = 0;
    for (const e of dagEdges) {
        const ids = [e.from];
        for (let layer = vertices.get(e.from)!.layer + 1; layer < vertices.get(e.to)!.layer; layer++) {
            const id = `\u0000dummy${dummyCount++}`;
            vertices.set(id, { id, width: 8, height: 8, dummy: true, layer, order: 0 });
            ids.push(id);
        }
        ids.push(e.to);
        chains.push({ edge: e.edge, ids, reversed: reversed.has(e.edge) });
    }
    const up = new Map<string, string[]>();
    const down = new Map<string, string[]>();
    for (const { ids } of chains) {
        for (let i = 0; i + 1 < ids.length; i++) {
            down.set(ids[i], [...(down.get(ids[i]) ?? []), ids[i + 1]]);
            up.set(ids[i + 1], [...(up.get(ids[i + 1]) ?? []), ids[i]]);
        }
    }

    // 4. Order inside layers: barycentre sweeps, down and up.
    const layerCount = Math.max(0, ...[...vertices.values()].map(v => v.layer)) + 1;
    const layers: Vertex[][] = Array.from({ length: layerCount }, () => []);
    for (const v of vertices.values()) {
        layers[v.layer].push(v);
    }
    layers.forEach(layer => layer.forEach((v, i) => (v.order = i)));
    const sweep = (layer: Vertex[], neighbours: Map<string, string[]>): void => {
        const centre = (v: Vertex): number => {
            const ns = neighbours.get(v.id) ?? [];
            return ns.length === 0 ? v.order : ns.reduce((sum, id) => sum + vertices.get(id)!.order, 0) / ns.length;
        };
        const keyed = layer.map(v => ({ v, c: centre(v) }));
        keyed.sort((a, b) => a.c - b.c || a.v.order - b.v.order);
        keyed.forEach(({ v }, i) => (v.order = i));
        layer.sort((a, b) => a.order - b.order);
    };
    for (let round = 0; round < 6; round++) {
        for (let i = 1; i < layers.length; i++) {
            sweep(layers[i], up);
        }
        for (let i = layers.length - 2; i >= 0; i--) {
            sweep(layers[i], down);
        }
    }

    // 5. Coordinates: layers along the flow (columns left to right, or rows top to bottom), each
    //    layer centred across it. `along` is the flow's axis, `across` the other one.
    const tb = direction === 'TB';
    const alongSize = (v: Vertex): number => (tb ? v.height : v.width);
    const acrossSize = (v: Vertex): number => (tb ? v.width : v.height);
    const layerThickness = layers.map(layer => Math.max(0, ...layer.map(alongSize)));
    const layerLength = layers.map(layer => layer.reduce((sum, v) => sum + acrossSize(v), 0) + Math.max(0, layer.length - 1) * gap.node);
    const across = Math.max(0, ...layerLength) + 2 * gap.margin;
    const position = new Map<string, { x: number; y: number }>();
    let along = gap.margin;
    layers.forEach((layer, i) => {
        let offset = gap.margin + (across - 2 * gap.margin - layerLength[i]) / 2;
        for (const v of layer) {
            const a = along + (layerThickness[i] - alongSize(v)) / 2;
            position.set(v.id, tb ? { x: offset, y: a } : { x: a, y: offset });
            offset += acrossSize(v) + gap.node;
        }
        along += layerThickness[i] + gap.layer;
    });
    const length = Math.max(gap.margin * 2, along - gap.layer + gap.margin);
    const width = tb ? across : length;
    const height = tb ? length : across;

    const nodes: PlacedNode[] = graph.nodes.map(node => {
        const v = vertices.get(node.id)!;
        const p = position.get(node.id)!;
        return { node, shape: shapes[node.kind], x: p.x, y: p.y, width: v.width, height: v.height, layer: v.layer, subtitle: placed.get(node.id)!.subtitle };
    });
    const round1 = (n: number): number => Math.round(n * 10) / 10;
    const routed: RoutedEdge[] = chains.map(({ edge, ids, reversed: isReversed }) => {
        // Waypoints in drawing order (along the flow); a reversed edge is drawn from its real source.
        const points = ids.map((id, i) => {
            const v = vertices.get(id)!;
            const p = position.get(id)!;
            if (tb) {
                return { x: p.x + v.width / 2, y: v.dummy ? p.y + v.height / 2 : i === 0 ? p.y + v.height : p.y };
            }
            return { x: v.dummy ? p.x + v.width / 2 : i === 0 ? p.x + v.width : p.x, y: p.y + v.height / 2 };
        });
        let d = `M${round1(points[0].x)},${round1(points[0].y)}`;
        for (let i = 1; i < points.length; i++) {
            const a = points[i - 1];
            const b = points[i];
            if (tb) {
                const dy = (b.y - a.y) / 2;
                d += ` C${round1(a.x)},${round1(a.y + dy)} ${round1(b.x)},${round1(b.y - dy)} ${round1(b.x)},${round1(b.y)}`;
            } else {
                const dx = (b.x - a.x) / 2;
                d += ` C${round1(a.x + dx)},${round1(a.y)} ${round1(b.x - dx)},${round1(b.y)} ${round1(b.x)},${round1(b.y)}`;
            }
        }
        return { edge, path: d, reversed: isReversed };
    });
    return { direction, width, height, nodes, edges: routed };
}

/**
 * The layout that shows a graph largest in a `width` × `height` panel: left to right, or top to
 * bottom when that fits better (a narrow panel beside the code). Left to right wins a tie, and
 * whenever both fit at full size.
 */
export function layoutForPanel(graph: GraphModel, width: number, height: number, withFacts?: ReadonlySet<string>): GraphLayout {
    const lr = layoutGraph(graph, { direction: 'LR', withFacts });
    const tb = layoutGraph(graph, { direction: 'TB', withFacts });
    const fit = (layout: GraphLayout): number => Math.min(1, width / layout.width, height / layout.height);
    return fit(tb) > fit(lr) ? tb : lr;
}

/** The ids of the datasets downstream of a node (what "Run from here" updates besides it). */
export function downstreamOf(graph: GraphModel, id: string): string[] {
    const out = new Map<string, string[]>();
    for (const e of graph.edges) {
        out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
    }
    const seen = new Set<string>([id]);
    const stack = [id];
    while (stack.length > 0) {
        for (const next of out.get(stack.pop()!) ?? []) {
            if (!seen.has(next)) {
                seen.add(next);
                stack.push(next);
            }
        }
    }
    seen.delete(id);
    const kinds = new Map(graph.nodes.map(n => [n.id, n.kind]));
    return [...seen].filter(n => kinds.get(n) !== 'flow' && kinds.get(n) !== 'source');
}
