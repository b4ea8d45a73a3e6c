/**
 * The SCD2 history picture: per key a lane of version bars on a shared time axis (an open end runs
 * to the end of the axis with an arrow), each labelled with the values that changed. Selecting a
 * bar (click, or Enter on the focused bar) asks the extension for the key's input events and lists
 * them with the role each played for that version.
 */
import { ChangeEventColumns, type DatasetPreview, type JsonValue, type ResultRow } from '../../../common/result-model.js';
import { fitLabel } from '../model/graph-layout.js';
import { placeLabels, textWidth } from '../model/labels.js';
import { type ScaleMode } from '../model/scale.js';
import { classifyEvents, dataColumns, resolveKeys, scd2Picture, type Scd2Picture } from '../model/scd2.js';
import { currentDataset, rowsOf, shownRun, type PreviewState } from '../model/state.js';
import { columnTypes, formatValue } from '../model/values.js';
import { count, h, onActivate, replaceChildren, s } from '../dom.js';
import type { View, ViewContext } from './context.js';

/** A key value as the change-events request carries it. */
export function keyValue(value: JsonValue | undefined): string | number | boolean | null {
    if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        return value ?? null;
    }
    return JSON.stringify(value);
}

/** A toolbar switch between proportional and even spacing of an axis. */
export function scaleSwitch(current: ScaleMode, onChange: (mode: ScaleMode) => void): HTMLElement {
    const select = h('select', { 'aria-label': 'Time axis spacing' },
        h('option', { value: 'proportional', selected: current === 'proportional' }, 'Axis: proportional to time'),
        h('option', { value: 'even', selected: current === 'even' }, 'Axis: one step per change'));
    select.addEventListener('change', () => onChange(select.value === 'even' ? 'even' : 'proportional'));
    return select;
}

/** The SCD2 history view. */
export class HistoryView implements View {
    readonly element = h('section', { class: 'view history-view', role: 'tabpanel', 'aria-label': 'History' });
    private readonly filterInput = h('input', { type: 'search', class: 'filter', placeholder: 'Filter keys', 'aria-label': 'Filter keys' });
    private readonly scaleHolder = h('span');
    private readonly note = h('span', { class: 'row-summary', 'aria-live': 'polite' });
    private readonly chart = h('div', { class: 'chart' });
    private readonly events = h('div', { class: 'events' });
    private dataset?: DatasetPreview;
    private key = '';
    private readonly bars = new Map<number, SVGGElement>();

    constructor(private readonly ctx: ViewContext) {
        this.element.append(h('div', { class: 'toolbar' }, this.filterInput, this.scaleHolder, this.note), this.chart, this.events);
        this.filterInput.addEventListener('input', () => {
            if (this.dataset) {
                ctx.dispatch({ type: 'ui/filter', dataset: this.dataset.name, filter: this.filterInput.value });
            }
        });
    }

    update(state: PreviewState): void {
        this.element.hidden = state.view !== 'history';
        const dataset = currentDataset(state);
        this.dataset = dataset;
        if (this.element.hidden) {
            return;
        }
        if (!dataset || dataset.cdc?.storedAs !== 'scd2') {
            this.key = '';
            replaceChildren(this.chart, h('p', { class: 'empty' }, 'Pick an SCD type 2 dataset to see how each key\'s versions unfold.'));
            replaceChildren(this.events);
            this.note.textContent = '';
            return;
        }
        const filter = state.filter[dataset.name] ?? '';
        if (this.filterInput.value !== filter) {
            this.filterInput.value = filter;
        }
        const rows = rowsOf(state, dataset);
        const width = Math.max(420, (this.element.clientWidth > 0 ? this.element.clientWidth : 900) - 24);
        const key = `${shownRun(state)?.summary.runId}|${dataset.name}|${rows.length}|${filter}|${state.scale.history}|${width}`;
        if (key !== this.key) {
            this.key = key;
            replaceChildren(this.scaleHolder, scaleSwitch(state.scale.history, mode => this.ctx.dispatch({ type: 'ui/scale', picture: 'history', mode })));
            const picture = scd2Picture(rows, dataset.columns, dataset.cdc.keys, { width, mode: state.scale.history, filter });
            this.note.textContent = `${count(picture.lanes.length)} of ${count(picture.matchingKeys)} matching keys (${count(picture.totalKeys)} in all)`
                + `${dataset.truncated ? ` · ${count(rows.length)} of ${count(dataset.rowCount)} rows loaded` : ''}`;
            replaceChildren(this.chart, this.draw(picture, dataset, rows));
        }
        // Selection only restyles the bars, so that the focused bar keeps the focus.
        for (const [rowIndex, bar] of this.bars) {
            const selected = state.selection?.dataset === dataset.name && state.selection.rowIndex === rowIndex;
            bar.classList.toggle('selected', selected);
            bar.setAttribute('aria-pressed', String(selected));
        }
        this.renderEvents(state, dataset, rows);
    }

    private draw(picture: Scd2Picture, dataset: DatasetPreview, rows: readonly ResultRow[]): SVGSVGElement {
        this.bars.clear();
        const svg = s('svg', { width: picture.width, height: picture.height, class: 'scd2', role: 'group', 'aria-label': `Version history of ${dataset.name}` });
        svg.append(s('defs', {}, s('marker', { id: 'open-end', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
            s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'open-arrow' }))));
        const axisY = picture.axisHeight - 10;
        const axis = s('g', { class: 'axis' }, s('line', { x1: picture.scale.start, x2: picture.scale.end, y1: axisY, y2: axisY }));
        for (const tick of picture.scale.ticks) {
            axis.append(s('line', { class: 'tick', x1: tick.position, x2: tick.position, y1: axisY, y2: picture.height }));
        }
        // Two rows of time labels, none overlapping another or the "open →" at the end of the lower row.
        const open = 'open →';
        const rowY = [14, axisY - 4];
        const placed = placeLabels(picture.scale.ticks, {
            start: picture.scale.start, end: picture.scale.end, rows: 2,
            reserved: [{ row: 1, from: picture.scale.end - textWidth(open), to: picture.scale.end }],
        });
        for (const tick of placed) {
            axis.append(s('text', { x: tick.at, y: rowY[tick.row], class: `tick-label ${tick.anchor}` }, tick.label));
        }
        axis.append(s('text', { x: picture.scale.end, y: rowY[1], class: 'tick-label end' }, open));
        if (picture.keyHeading) {
            axis.append(s('text', { x: 8, y: rowY[1], class: 'key-heading' }, fitLabel(picture.keyHeading, picture.gutter)));
        }
        svg.append(axis);
        for (const lane of picture.lanes) {
            const g = s('g', { class: 'lane', 'data-key': lane.keyLabel });
            g.append(s('g', { class: 'key' }, s('title', {}, lane.keyLabel),
                s('text', { x: 8, y: lane.y + picture.laneHeight / 2 + 4, class: 'key-label' }, fitLabel(lane.shortLabel, picture.gutter))));
            for (const version of lane.versions) {
                const width = Math.max(3, version.x2 - version.x1);
                const bar = s('g', {
                    class: `version${version.open ? ' open' : ''}`, tabindex: 0, role: 'button', 'aria-label': version.description,
                    'data-start': formatValue(version.start), 'data-end': version.open ? 'open' : formatValue(version.end),
                },
                s('title', {}, version.description),
                s('rect', { x: version.x1, y: lane.y + 5, width, height: picture.laneHeight - 10, rx: 3 }),
                version.open ? s('line', { class: 'open-line', x1: version.x2 - 14, x2: version.x2, y1: lane.y + picture.laneHeight / 2, y2: lane.y + picture.laneHeight / 2, 'marker-end': 'url(#open-end)' }) : undefined,
                s('text', { x: version.x1 + 5, y: lane.y + picture.laneHeight / 2 + 4, class: 'bar-label' }, fitLabel(version.label, width - (version.open ? 12 : 0))));
                onActivate(bar, () => {
                    this.ctx.dispatch({ type: 'ui/selectVersion', dataset: dataset.name, keyId: lane.keyId, rowIndex: version.rowIndex });
                    const selection = this.ctx.state().selection;
                    const keys = resolveKeys(dataset.columns, dataset.cdc!.keys);
                    if (selection) {
                        this.ctx.post({
                            type: 'requestChangeEvents', requestId: selection.requestId, dataset: dataset.name,
                            key: Object.fromEntries(keys.map(k => [k, keyValue(rows[version.rowIndex][k])])),
                        });
                    }
                });
                this.bars.set(version.rowIndex, bar);
                g.append(bar);
            }
            svg.append(g);
        }
        return svg;
    }

    private renderEvents(state: PreviewState, dataset: DatasetPreview, rows: readonly ResultRow[]): void {
        const selection = state.selection;
        if (!selection || selection.dataset !== dataset.name || !rows[selection.rowIndex]) {
            replaceChildren(this.events, h('p', { class: 'hint' }, 'Select a version bar (click, or Tab to it and press Enter) to see the input events behind it.'));
            return;
        }
        const row = rows[selection.rowIndex];
        const start = row.__START_AT ?? null;
        const end = row.__END_AT ?? null;
        const types = columnTypes(dataset.columns);
        const title = h('h3', {}, `Events of ${resolveKeys(dataset.columns, dataset.cdc!.keys).map(k => `${k}=${formatValue(row[k], types.get(k))}`).join(', ')} for the version ${formatValue(start)} → ${end === null ? 'open' : formatValue(end)}`);
        if (!selection.events) {
            replaceChildren(this.events, title, h('p', { class: 'hint' }, 'Loading events…'));
            return;
        }
        if (!selection.events.ok) {
            replaceChildren(this.events, title, h('p', { class: 'error' }, `${selection.events.error.class}: ${selection.events.error.message}`));
            return;
        }
        const events = classifyEvents(selection.events.rows, start, end);
        const data = dataColumns(dataset.columns, dataset.cdc!.keys);
        const { sequence, change } = ChangeEventColumns;
        const table = h('table', { class: 'event-table' },
            h('thead', {}, h('tr', {}, ...[sequence, change, 'role', ...data].map(c => h('th', { scope: 'col' }, c)))),
            h('tbody', {}, ...events.map(e => h('tr', { class: `event ${e.role}${e.late ? ' late' : ''}`, 'data-role': e.role },
                h('td', {}, formatValue(e.sequence)),
                h('td', {}, e.change),
                h('td', { class: 'role' }, e.description),
                ...data.map(c => h('td', {}, formatValue(e.row[c], types.get(c))))))));
        const note = selection.events.truncated ? h('p', { class: 'hint' }, `The first ${count(selection.events.rows.length)} of ${count(selection.events.rowCount)} events.`) : undefined;
        replaceChildren(this.events, title, table, note);
    }
}
