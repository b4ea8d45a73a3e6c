/**
 * The pipeline graph: the DAG from the language server's pipeline model (not from a run), drawn
 * left to right, or top to bottom in a narrow panel, with shapes by kind and flows labelled by kind,
 * zoomed (wheel, +/−, keys) and panned (drag, arrow keys) in its panel, with the last run's row counts,
 * changes and errors on the dataset nodes. Activating a node opens its definition; "Run from here"
 * runs the dataset and everything downstream of it.
 */
import type { GraphModel, GraphNodeModel } from '../../../common/preview-messages.js';
import type { DatasetPreview } from '../../../common/result-model.js';
import { FACTS_LINE, fitLabel, layoutForPanel, type GraphLayout, type PlacedNode } from '../model/graph-layout.js';
import {
    fitView, keyCommand, MinScale, panBy, ReadableScale, showsAll, viewTransform, wheelFactor, zoomAt, ZoomStep, type View as ViewState,
} from '../model/viewport.js';
import { datasetsOf, runChangesOf, shownRun, type PreviewState } from '../model/state.js';
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
    // After a failed run the datasets are those of the run before it; the failure marks its own node.
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
            const c = runChangesOf(state, dataset);
            info.set(node.id, {
                rows: dataset.rowCount,
                changed: c ? `+${count(c.inserted)} ~${count(c.updated)} −${count(c.deleted)}` : undefined,
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

/** The third line of a dataset node: the run's error class, or its row count and changes. */
export function factsOf(run: NodeRunInfo | undefined): string | undefined {
    return run?.error ? run.error : run?.rows !== undefined ? `${count(run.rows)} rows${run.changed ? ` ${run.changed}` : ''}` : undefined;
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
    private readonly zoomLabel = h('output', { class: 'zoom-level', 'aria-live': 'polite' });
    private readonly zoomControls: HTMLElement;
    // Focusable, so that the keys zoom and pan; nodes inside it are focusable too.
    private readonly chart = h('div', {
        class: 'chart graph-chart', tabindex: 0, role: 'group',
        'aria-label': 'Pipeline graph: wheel, + or − to zoom, drag or arrow keys to pan, 0 to show it whole, 1 for actual size',
    });
    private readonly legend = h('p', { class: 'hint' },
        'Rectangles: streaming tables · rounded: materialized views · dashed: views · double: managed tables · cylinders: sources · pills: flows. ',
        'Click a node (or Tab to it and press Enter) to open its definition; Space only selects it. Wheel or +/− zooms, dragging pans.');
    private key = '';
    private layout?: GraphLayout;
    private svg?: SVGSVGElement;
    private viewport?: SVGGElement;
    private view: ViewState = { scale: 1, dx: 0, dy: 0 };
    /** The user zoomed or panned: a resize keeps the view instead of fitting again. */
    private moved = false;
    private drag?: { pointer: number; x: number; y: number; dragging: boolean };
    private suppressClick = false;

    constructor(private readonly ctx: ViewContext) {
        const button = (label: string, title: string, action: () => void): HTMLButtonElement => {
            const b = h('button', { type: 'button', class: 'zoom', title, 'aria-label': title }, label);
            onActivate(b, action);
            return b;
        };
        this.zoomControls = h('div', { class: 'zoom-controls', role: 'toolbar', 'aria-label': 'Zoom' },
            button('−', 'Zoom out (−)', () => this.zoom(1 / ZoomStep)),
            button('+', 'Zoom in (+)', () => this.zoom(ZoomStep)),
            button('Fit', 'Show the whole graph (0)', () => this.fit(MinScale)),
            button('100%', 'Actual size (1)', () => this.actualSize()),
            this.zoomLabel);
        this.element.append(this.actions, this.chart, this.legend);
        this.chart.addEventListener('wheel', event => {
            event.preventDefault();
            this.zoom(wheelFactor(event.deltaY), this.pointerAt(event));
        }, { passive: false });
        this.chart.addEventListener('keydown', event => this.onKey(event));
        this.chart.addEventListener('pointerdown', event => {
            if (event.button === 0) {
                this.drag = { pointer: event.pointerId, x: event.clientX, y: event.clientY, dragging: false };
            }
        });
        this.chart.addEventListener('pointermove', event => this.onDrag(event));
        const endDrag = (event: PointerEvent): void => {
            if (this.drag?.pointer === event.pointerId) {
                // A drag is not a click on the node it started on.
                this.suppressClick = this.drag.dragging;
                this.drag = undefined;
                this.chart.classList.remove('panning');
            }
        };
        this.chart.addEventListener('pointerup', endDrag);
        this.chart.addEventListener('pointercancel', endDrag);
        new ResizeObserver(() => this.onResize()).observe(this.chart);
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
            this.layout = undefined;
            replaceChildren(this.chart, h('p', { class: state.graphError ? 'error' : 'empty' }, state.graphError ?? 'Loading the pipeline graph…'));
            return;
        }
        const panel = this.panelSize();
        const info = runInfoByNode(graph, state);
        const withFacts = new Set([...info].filter(([, run]) => factsOf(run) !== undefined).map(([id]) => id));
        const layout = layoutForPanel(graph, panel.width, panel.height, withFacts);
        const shape = `${JSON.stringify(graph)}|${layout.direction}|${[...withFacts].join(',')}`;
        const key = `${shape}|${state.outcome?.summary.runId}|${shownRun(state)?.summary.runId}|${state.selectedNode}`;
        if (key === this.key) {
            return;
        }
        const focused = (document.activeElement as Element | null)?.getAttribute('data-node-id');
        // A new graph or a turned layout is fitted again; a new run or selection keeps the view.
        if (!this.key.startsWith(`${shape}|`) || !this.layout) {
            this.moved = false;
        }
        this.key = key;
        this.layout = layout;
        replaceChildren(this.chart, this.draw(layout, info, state));
        if (!this.moved) {
            this.view = fitView(layout, panel);
        }
        this.applyView();
        if (focused) {
            this.chart.querySelector<SVGGElement>(`[data-node-id="${CSS.escape(focused)}"]`)?.focus();
        }
    }

    private panelSize(): { width: number; height: number } {
        return { width: this.chart.clientWidth || 600, height: this.chart.clientHeight || 400 };
    }

    private pointerAt(event: MouseEvent): { x: number; y: number } {
        const box = this.chart.getBoundingClientRect();
        return { x: event.clientX - box.left, y: event.clientY - box.top };
    }

    private zoom(factor: number, at?: { x: number; y: number }): void {
        if (!this.layout) {
            return;
        }
        const panel = this.panelSize();
        this.view = zoomAt(this.view, factor, at ?? { x: panel.width / 2, y: panel.height / 2 }, this.layout, panel);
        this.moved = true;
        this.applyView();
    }

    private fit(minScale: number): void {
        if (this.layout) {
            this.view = fitView(this.layout, this.panelSize(), minScale);
            this.moved = minScale !== ReadableScale;
            this.applyView();
        }
    }

    private actualSize(): void {
        if (this.layout) {
            const panel = this.panelSize();
            this.view = zoomAt(this.view, 1 / this.view.scale, { x: panel.width / 2, y: panel.height / 2 }, this.layout, panel);
            this.moved = true;
            this.applyView();
        }
    }

    private onKey(event: KeyboardEvent): void {
        const command = this.layout && !event.altKey && !event.ctrlKey && !event.metaKey ? keyCommand(event.key) : undefined;
        if (!command || !this.layout) {
            return;
        }
        event.preventDefault();
        switch (command.kind) {
            case 'zoom':
                this.zoom(command.factor);
                return;
            case 'fit':
                this.fit(MinScale);
                return;
            case 'actual':
                this.actualSize();
                return;
            case 'pan':
                this.view = panBy(this.view, command.x, command.y, this.layout, this.panelSize());
                this.moved = true;
                this.applyView();
                return;
        }
    }

    private onDrag(event: PointerEvent): void {
        const drag = this.drag;
        if (!drag || drag.pointer !== event.pointerId || !this.layout) {
            return;
        }
        const x = event.clientX - drag.x;
        const y = event.clientY - drag.y;
        if (!drag.dragging && Math.hypot(x, y) < 4) {
            return;
        }
        if (!drag.dragging) {
            drag.dragging = true;
            // Captured only once it is a drag, so that a plain click still reaches the node under it.
            this.chart.setPointerCapture(event.pointerId);
            this.chart.classList.add('panning');
        }
        drag.x = event.clientX;
        drag.y = event.clientY;
        this.view = panBy(this.view, x, y, this.layout, this.panelSize());
        this.moved = true;
        this.applyView();
    }

    private onResize(): void {
        if (this.element.hidden || !this.layout) {
            return;
        }
        // A panel made narrower may want the other direction: update() decides, and redraws then.
        this.update(this.ctx.state());
        if (!this.moved && this.layout) {
            this.view = fitView(this.layout, this.panelSize());
            this.applyView();
        }
    }

    private applyView(): void {
        if (!this.viewport || !this.svg || !this.layout) {
            return;
        }
        this.viewport.setAttribute('transform', viewTransform(this.view));
        this.svg.setAttribute('data-scale', String(Math.round(this.view.scale * 1000) / 1000));
        this.svg.setAttribute('data-shows-all', String(showsAll(this.view, this.layout, this.panelSize())));
        this.zoomLabel.textContent = `${Math.round(this.view.scale * 100)} %`;
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
        replaceChildren(this.actions, ...parts, this.zoomControls);
    }

    private draw(layout: GraphLayout, info: Map<string, NodeRunInfo>, state: PreviewState): SVGSVGElement {
        const svg = s('svg', { class: 'graph', role: 'group', 'aria-label': 'Pipeline graph', 'data-direction': layout.direction });
        svg.append(s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
            s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }))));
        const viewport = s('g', { class: 'viewport' });
        const edges = s('g', { class: 'edges' });
        for (const edge of layout.edges) {
            edges.append(s('path', {
                d: edge.path, class: `edge ${edge.edge.kind}${edge.edge.streaming ? ' streaming' : ''}`,
                'marker-end': edge.reversed ? undefined : 'url(#arrow)', 'marker-start': edge.reversed ? 'url(#arrow)' : undefined,
            }));
        }
        viewport.append(edges);
        for (const placed of layout.nodes) {
            viewport.append(this.drawNode(placed, info.get(placed.node.id), state));
        }
        svg.append(viewport);
        this.svg = svg;
        this.viewport = viewport;
        return svg;
    }

    private drawNode(placed: PlacedNode, run: NodeRunInfo | undefined, state: PreviewState): SVGGElement {
        const node: GraphNodeModel = placed.node;
        const selected = state.selectedNode === node.id;
        const facts = factsOf(run);
        const label = [node.name, placed.subtitle, facts].filter(Boolean).join(', ');
        const centre = placed.x + placed.width / 2;
        const g = s('g', {
            class: `node ${node.kind}${selected ? ' selected' : ''}${run?.error ? ' failed' : ''}`, tabindex: 0, role: 'button',
            'aria-label': label, 'data-node-id': node.id, 'data-kind': node.kind,
        },
        s('title', {}, label),
        shapeOf(placed),
        s('text', { x: centre, y: placed.y + (node.kind === 'flow' ? 16 : 21), class: 'node-name' }, fitLabel(node.name, placed.width)),
        s('text', { x: centre, y: placed.y + (node.kind === 'flow' ? 30 : 36), class: 'node-kind' }, fitLabel(placed.subtitle, placed.width)),
        facts ? s('text', { x: centre, y: placed.y + (node.kind === 'flow' ? 30 : 36) + FACTS_LINE, class: `node-facts${run?.error ? ' error' : ''}` }, fitLabel(facts, placed.width)) : undefined);
        // A click selects the node (for "Run from here") and opens its definition; the end of a drag is no click.
        g.addEventListener('click', () => {
            if (this.suppressClick) {
                this.suppressClick = false;
                return;
            }
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
