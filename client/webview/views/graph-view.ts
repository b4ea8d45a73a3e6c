/**
 * The pipeline graph: the DAG from the language server's pipeline model (not from a run), drawn
 * left to right with shapes by kind and flows labelled by kind, with the last run's row counts,
 * changes and errors on the dataset nodes. Activating a node opens its definition; "Run from here"
 * runs the dataset and everything downstream of it.
 */
import type { GraphModel, GraphNodeModel } from '../../../common/preview-messages.js';
import type { DatasetPreview } from '../../../common/result-model.js';
import { fitLabel, layoutGraph, type GraphLayout, type PlacedNode } from '../model/graph-layout.js';
import { datasetsOf, type PreviewState } from '../model/state.js';
import { count, h, onActivate, replaceChildren, s } from '../dom.js';
import type { View, ViewContext } from './context.js';

/** What the last run says about a dataset node. */
export interface NodeRunInfo {
    readonly rows?: number;
    readonly changed?: string;
    readonly error?: string;
}

/** The last run's facts per node id (datasets matched by name, case-insensitively). */
export function runInfoByNode(graph: GraphModel, state: PreviewState): Map<string, NodeRunInfo> {
    const info = new Map<string, NodeRunInfo>();
    const outcome = state.outcome;
    if (!outcome) {
        return info;
    }
    const byName = new Map<string, DatasetPreview>(datasetsOf(state).map(d => [d.name.toLowerCase(), d]));
    for (const node of graph.nodes) {
        if (node.kind === 'flow' || node.kind === 'source') {
            continue;
        }
        const name = node.name.toLowerCase();
        if (!outcome.ok && outcome.error.dataset?.toLowerCase() === name) {
            info.set(node.id, { error: outcome.error.class });
            continue;
        }
        const dataset = byName.get(name);
        if (dataset) {
            const c = dataset.changes;
            info.set(node.id, {
                rows: dataset.rowCount,
                changed: c && !('restored' in outcome && outcome.restored) ? `+${count(c.inserted)} ~${count(c.updated)} −${count(c.deleted)}` : undefined,
                error: dataset.error?.class,
            });
        }
    }
    if (!outcome.ok && outcome.error.flow) {
        const flow = graph.nodes.find(n => n.kind === 'flow' && n.name.toLowerCase() === outcome.error.flow!.toLowerCase());
        if (flow) {
            info.set(flow.id, { error: outcome.error.class });
        }
    }
    return info;
}

function shapeOf(node: PlacedNode): SVGElement {
    const { x, y, width, height } = node;
    switch (node.shape) {
        case 'flow':
            return s('rect', { x, y, width, height, rx: height / 2, class: 'shape' });
        case 'view':
            return s('rect', { x, y, width, height, rx: 10, class: 'shape' });
        case 'virtual':
            return s('rect', { x, y, width, height, rx: 10, class: 'shape dashed' });
        case 'source': {
            // A cylinder: the classic symbol of stored data from outside.
            const r = 6;
            return s('path', { class: 'shape', d: `M${x},${y + r} A${width / 2},${r} 0 0 0 ${x + width},${y + r} A${width / 2},${r} 0 0 0 ${x},${y + r} V${y + height - r} A${width / 2},${r} 0 0 0 ${x + width},${y + height - r} V${y + r}` });
        }
        case 'managed':
            return s('g', {}, s('rect', { x, y, width, height, class: 'shape' }), s('rect', { x: x + 3, y: y + 3, width: width - 6, height: height - 6, class: 'shape inner' }));
        case 'table':
            return s('g', {}, s('rect', { x, y, width, height, class: 'shape' }), s('line', { x1: x, x2: x + width, y1: y + 8, y2: y + 8, class: 'shape-band' }));
    }
}

/** The graph view. */
export class GraphView implements View {
    readonly element = h('section', { class: 'view graph-view', role: 'tabpanel', 'aria-label': 'Pipeline graph' });
    private readonly actions = h('div', { class: 'toolbar' });
    private readonly chart = h('div', { class: 'chart' });
    private readonly legend = h('p', { class: 'hint' },
        'Rectangles: streaming tables · rounded: materialized views · dashed: views · double: managed tables · cylinders: sources · pills: flows. ',
        'Click a node (or Tab to it and press Enter) to open its definition; Space only selects it.');
    private key = '';
    private layout?: GraphLayout;

    constructor(private readonly ctx: ViewContext) {
        this.element.append(this.actions, this.chart, this.legend);
    }

    update(state: PreviewState): void {
        this.element.hidden = state.view !== 'graph';
        if (this.element.hidden) {
            return;
        }
        const graph = state.graph;
        this.renderActions(state);
        if (!graph) {
            this.key = '';
            replaceChildren(this.chart, h('p', { class: state.graphError ? 'error' : 'empty' }, state.graphError ?? 'Loading the pipeline graph…'));
            return;
        }
        const info = runInfoByNode(graph, state);
        const key = `${JSON.stringify(graph)}|${state.outcome?.summary.runId}|${state.selectedNode}|${this.chart.clientWidth}`;
        if (key === this.key) {
            return;
        }
        const focused = (document.activeElement as Element | null)?.getAttribute('data-node-id');
        this.key = key;
        this.layout = layoutGraph(graph);
        replaceChildren(this.chart, this.draw(this.layout, info, state));
        if (focused) {
            this.chart.querySelector<SVGGElement>(`[data-node-id="${CSS.escape(focused)}"]`)?.focus();
        }
    }

    private renderActions(state: PreviewState): void {
        const refresh = h('button', { type: 'button' }, 'Refresh graph');
        onActivate(refresh, () => this.ctx.post({ type: 'requestGraph' }));
        const node = state.graph?.nodes.find(n => n.id === state.selectedNode);
        const parts: Array<HTMLElement | string> = [refresh];
        if (node) {
            parts.push(h('span', { class: 'selected-node' }, `${node.name} (${node.kind})`));
            if (node.uri) {
                const open = h('button', { type: 'button' }, 'Open definition');
                onActivate(open, () => this.ctx.post({ type: 'openLocation', uri: node.uri!, range: node.range }));
                parts.push(open);
            }
            if (node.kind !== 'flow' && node.kind !== 'source' && node.kind !== 'temporary-view' && node.kind !== 'view') {
                const run = h('button', {
                    type: 'button', class: 'primary', disabled: !state.trusted || state.running !== undefined,
                    title: state.trusted ? `Run ${node.name} and everything downstream of it` : 'Running needs a trusted workspace',
                }, 'Run from here');
                onActivate(run, () => {
                    if (this.ctx.state().trusted) {
                        this.ctx.post({ type: 'runFrom', dataset: node.name });
                    }
                });
                parts.push(run);
            }
        }
        replaceChildren(this.actions, ...parts);
    }

    private draw(layout: GraphLayout, info: Map<string, NodeRunInfo>, state: PreviewState): SVGSVGElement {
        // Shrink a wide graph to the panel's width while its text stays readable; beyond that, scroll.
        const available = this.chart.clientWidth > 0 ? this.chart.clientWidth - 4 : layout.width;
        const scale = Math.max(0.6, Math.min(1, available / layout.width));
        const svg = s('svg', {
            width: Math.round(layout.width * scale), height: Math.round((layout.height + 16) * scale), viewBox: `0 0 ${layout.width} ${layout.height + 16}`,
            class: 'graph', role: 'group', 'aria-label': 'Pipeline graph',
        });
        svg.append(s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
            s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }))));
        const edges = s('g', { class: 'edges' });
        for (const edge of layout.edges) {
            edges.append(s('path', {
                d: edge.path, class: `edge ${edge.edge.kind}${edge.edge.streaming ? ' streaming' : ''}`,
                'marker-end': edge.reversed ? undefined : 'url(#arrow)', 'marker-start': edge.reversed ? 'url(#arrow)' : undefined,
            }));
        }
        svg.append(edges);
        for (const placed of layout.nodes) {
            svg.append(this.drawNode(placed, info.get(placed.node.id), state));
        }
        return svg;
    }

    private drawNode(placed: PlacedNode, run: NodeRunInfo | undefined, state: PreviewState): SVGGElement {
        const node: GraphNodeModel = placed.node;
        const selected = state.selectedNode === node.id;
        const facts = run?.error ? run.error : run?.rows !== undefined ? `${count(run.rows)} rows${run.changed ? ` ${run.changed}` : ''}` : undefined;
        const label = [node.name, placed.subtitle, facts].filter(Boolean).join(', ');
        const g = s('g', {
            class: `node ${node.kind}${selected ? ' selected' : ''}${run?.error ? ' failed' : ''}`, tabindex: 0, role: 'button',
            'aria-label': label, 'data-node-id': node.id, 'data-kind': node.kind,
        },
        s('title', {}, label),
        shapeOf(placed),
        s('text', { x: placed.x + placed.width / 2, y: placed.y + (node.kind === 'flow' ? 16 : 21), class: 'node-name' }, fitLabel(node.name, placed.width)),
        s('text', { x: placed.x + placed.width / 2, y: placed.y + (node.kind === 'flow' ? 30 : 36), class: 'node-kind' }, fitLabel(placed.subtitle, placed.width)),
        facts ? s('text', { x: placed.x + placed.width / 2, y: placed.y + placed.height + 13, class: `node-facts${run?.error ? ' error' : ''}` }, facts) : undefined);
        // A click selects the node (for "Run from here") and opens its definition.
        g.addEventListener('click', () => {
            this.ctx.dispatch({ type: 'ui/selectNode', id: node.id });
            if (node.uri) {
                this.ctx.post({ type: 'openLocation', uri: node.uri, range: node.range });
            }
        });
        g.addEventListener('keydown', event => {
            if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                this.ctx.dispatch({ type: 'ui/selectNode', id: node.id });
                if (event.key === 'Enter' && node.uri) {
                    this.ctx.post({ type: 'openLocation', uri: node.uri, range: node.range });
                }
            }
        });
        return g;
    }
}
