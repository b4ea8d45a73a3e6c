/**
 * The bitemporal picture: business time across, system time down, each row a rectangle, one panel
 * per key; an "as of system time" slider highlights the rows the table believed at that step (and
 * lists them), so that a late correction reads as a new band of rectangles below the old belief.
 */
import { HistoryColumns, type DatasetPreview, type ResultRow } from '../../../common/result-model.js';
import { believedAt, beliefAt, bitemporalPicture, type BitemporalPicture } from '../model/bitemporal.js';
import { fitLabel } from '../model/graph-layout.js';
import { placeLabels, textWidth } from '../model/labels.js';
import { resolveKeys, dataColumns } from '../model/scd2.js';
import { currentDataset, rowsOf, shownRun, type PreviewState } from '../model/state.js';
import { columnTypes, formatValue } from '../model/values.js';
import { count, h, replaceChildren, s } from '../dom.js';
import type { View, ViewContext } from './context.js';
import { scaleSwitch } from './history-view.js';

/** The bitemporal view. */
export class BitemporalView implements View {
    readonly element = h('section', { class: 'view bitemporal-view', role: 'tabpanel', 'aria-label': 'Bitemporal' });
    private readonly filterInput = h('input', { type: 'search', class: 'filter', placeholder: 'Filter keys', 'aria-label': 'Filter keys' });
    private readonly scaleHolder = h('span');
    private readonly slider = h('input', { type: 'range', min: 0, max: 0, step: 1, value: 0, class: 'as-of', 'aria-label': 'As of system time' });
    private readonly sliderLabel = h('output', { class: 'as-of-label', 'aria-live': 'polite' });
    private readonly note = h('span', { class: 'row-summary' });
    private readonly chart = h('div', { class: 'chart' });
    private readonly belief = h('div', { class: 'belief' });
    private dataset?: DatasetPreview;
    private picture?: BitemporalPicture;
    private rects: Array<{ element: SVGGElement; row: ResultRow }> = [];
    private line?: SVGGElement;
    private key = '';

    constructor(private readonly ctx: ViewContext) {
        this.element.append(
            h('div', { class: 'toolbar' }, this.filterInput, this.scaleHolder,
                h('label', { class: 'as-of-control' }, 'As of system time ', this.slider), this.sliderLabel, this.note),
            this.chart, this.belief);
        this.filterInput.addEventListener('input', () => {
            if (this.dataset) {
                ctx.dispatch({ type: 'ui/filter', dataset: this.dataset.name, filter: this.filterInput.value });
            }
        });
        this.slider.addEventListener('input', () => {
            if (this.dataset && this.picture) {
                const step = Number(this.slider.value);
                ctx.dispatch({ type: 'ui/asOf', dataset: this.dataset.name, step: step >= this.picture.steps.length - 1 ? undefined : step });
            }
        });
    }

    update(state: PreviewState): void {
        this.element.hidden = state.view !== 'bitemporal';
        const dataset = currentDataset(state);
        this.dataset = dataset;
        if (this.element.hidden) {
            return;
        }
        if (!dataset || dataset.cdc?.storedAs !== 'bitemporal') {
            this.key = '';
            this.picture = undefined;
            replaceChildren(this.chart, h('p', { class: 'empty' }, 'Pick a bitemporal dataset to see business and system time together.'));
            replaceChildren(this.belief);
            return;
        }
        const filter = state.filter[dataset.name] ?? '';
        if (this.filterInput.value !== filter) {
            this.filterInput.value = filter;
        }
        const rows = rowsOf(state, dataset);
        const width = Math.max(420, (this.element.clientWidth > 0 ? this.element.clientWidth : 900) - 24);
        const key = `${shownRun(state)?.summary.runId}|${dataset.name}|${rows.length}|${filter}|${state.scale.bitemporal}|${width}`;
        if (key !== this.key) {
            this.key = key;
            replaceChildren(this.scaleHolder, scaleSwitch(state.scale.bitemporal, mode => this.ctx.dispatch({ type: 'ui/scale', picture: 'bitemporal', mode })));
            this.picture = bitemporalPicture(rows, dataset.columns, dataset.cdc.keys, { width, mode: state.scale.bitemporal, filter });
            this.note.textContent = `${count(this.picture.panels.length)} of ${count(this.picture.matchingKeys)} matching keys · ${count(this.picture.steps.length)} system-time steps`;
            replaceChildren(this.chart, this.draw(this.picture, dataset, rows));
        }
        this.showStep(state, dataset, rows);
    }

    private draw(picture: BitemporalPicture, dataset: DatasetPreview, rows: readonly ResultRow[]): SVGSVGElement {
        const svg = s('svg', { width: picture.width, height: picture.height, class: 'bitemporal', role: 'group', 'aria-label': `Bitemporal picture of ${dataset.name}: business time across, system time down` });
        svg.append(s('defs', {}, s('marker', { id: 'open-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
            s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'open-arrow' }))));
        const axis = s('g', { class: 'axis' });
        // Two rows of business-time labels, none overlapping another or the axis name at the end of the lower row.
        const axisName = 'business time →';
        const rowY = [12, 26];
        const placed = placeLabels(picture.business.ticks, {
            start: picture.business.start, end: picture.business.end, rows: 2,
            reserved: [{ row: 1, from: picture.business.end - textWidth(axisName), to: picture.business.end }],
        });
        for (const tick of placed) {
            axis.append(s('text', { x: tick.at, y: rowY[tick.row], class: `tick-label ${tick.anchor}` }, tick.label));
        }
        axis.append(s('text', { x: picture.business.end, y: rowY[1], class: 'tick-label end' }, axisName));
        if (picture.keyHeading) {
            axis.append(s('text', { x: 8, y: rowY[1], class: 'key-heading' }, picture.keyHeading));
        }
        svg.append(axis);
        // System-time labels down the left, one line each: steps close in time share the first one's label.
        const systemTicks = picture.steps.map(step => ({ position: picture.panelHeader + picture.system.position(step), label: formatValue(step) }));
        this.rects = [];
        const stepLines = s('g', { class: 'as-of-lines' });
        for (const panel of picture.panels) {
            const g = s('g', { class: 'panel', transform: `translate(0 ${panel.top})`, 'data-key': panel.keyLabel });
            g.append(s('g', { class: 'key' }, s('title', {}, panel.keyLabel), s('text', { x: 8, y: 16, class: 'key-label' }, fitLabel(panel.shortLabel, picture.width - 16))));
            for (const tick of picture.business.ticks) {
                g.append(s('line', { class: 'tick', x1: tick.position, x2: tick.position, y1: 22, y2: panel.height - 6 }));
            }
            for (const tick of systemTicks) {
                g.append(s('line', { class: 'tick system', x1: picture.business.start, x2: picture.business.end, y1: tick.position, y2: tick.position }));
            }
            for (const tick of placeLabels(systemTicks, { start: picture.panelHeader - 8, end: panel.height, size: () => 13, gap: 1 })) {
                g.append(s('text', { x: 8, y: (tick.from + tick.to) / 2 + 4, class: 'tick-label system' }, tick.label));
            }
            for (const rect of panel.rects) {
                const width = Math.max(3, rect.x2 - rect.x1);
                const height = Math.max(3, rect.y2 - rect.y1);
                const element = s('g', {
                    class: `row-rect${rect.openBusinessEnd ? ' open-business' : ''}${rect.openSystemEnd ? ' open-system' : ''}`,
                    tabindex: 0, role: 'img', 'aria-label': rect.description,
                    'data-label': rect.label, 'data-system-start': formatValue(rect.systemStart), 'data-system-end': rect.systemEnd === null ? 'open' : formatValue(rect.systemEnd),
                },
                s('title', {}, rect.description),
                s('rect', { x: rect.x1, y: rect.y1, width, height, rx: 2 }),
                rect.openBusinessEnd ? s('line', { class: 'open-line', x1: rect.x2 - 12, x2: rect.x2, y1: rect.y1 + 8, y2: rect.y1 + 8, 'marker-end': 'url(#open-arrow)' }) : undefined,
                rect.openSystemEnd ? s('line', { class: 'open-line', x1: rect.x1 + 8, x2: rect.x1 + 8, y1: rect.y2 - 12, y2: rect.y2, 'marker-end': 'url(#open-arrow)' }) : undefined,
                s('text', { x: rect.x1 + 5, y: rect.y1 + Math.min(height - 4, 15), class: 'rect-label' }, fitLabel(rect.label, width - 8)));
                this.rects.push({ element, row: rows[rect.rowIndex] });
                g.append(element);
            }
            stepLines.append(s('line', { class: 'as-of-line', 'data-panel-top': panel.top, x1: picture.business.start, x2: picture.business.end, y1: 0, y2: 0 }));
            svg.append(g);
        }
        this.line = stepLines;
        svg.append(stepLines);
        return svg;
    }

    private showStep(state: PreviewState, dataset: DatasetPreview, rows: readonly ResultRow[]): void {
        const picture = this.picture;
        if (!picture || picture.steps.length === 0) {
            replaceChildren(this.belief);
            this.slider.disabled = true;
            this.sliderLabel.textContent = '';
            return;
        }
        const last = picture.steps.length - 1;
        const step = Math.min(state.asOf[dataset.name] ?? last, last);
        const at = picture.steps[step];
        this.slider.disabled = false;
        this.slider.max = String(last);
        this.slider.value = String(step);
        this.slider.setAttribute('aria-valuetext', formatValue(at));
        this.sliderLabel.textContent = `${formatValue(at)} (step ${step + 1} of ${picture.steps.length})`;
        for (const { element, row } of this.rects) {
            const believed = believedAt(row, at);
            element.classList.toggle('believed', believed);
            element.classList.toggle('retired', !believed);
        }
        this.line?.querySelectorAll('line').forEach(line => {
            const y = Number(line.getAttribute('data-panel-top')) + picture.panelHeader + picture.system.position(at);
            line.setAttribute('y1', String(y));
            line.setAttribute('y2', String(y));
        });
        const keys = resolveKeys(dataset.columns, dataset.cdc!.keys);
        const types = columnTypes(dataset.columns);
        const columns = [...keys, ...dataColumns(dataset.columns, keys), HistoryColumns.startAt, HistoryColumns.endAt];
        const shownKeys = new Set(picture.panels.map(p => p.keyId));
        const believed = beliefAt(rows, at).filter(r => shownKeys.has(JSON.stringify(keys.map(k => r[k] ?? null))));
        replaceChildren(this.belief,
            h('h3', {}, `What the table believed at ${formatValue(at)}: ${count(believed.length)} row${believed.length === 1 ? '' : 's'}`),
            h('table', { class: 'belief-table' },
                h('thead', {}, h('tr', {}, ...columns.map(c => h('th', { scope: 'col' }, c)))),
                h('tbody', {}, ...believed.map(r => h('tr', {}, ...columns.map(c => h('td', {}, c === HistoryColumns.endAt && r[c] === null ? 'open' : formatValue(r[c], types.get(c)))))))));
    }
}
