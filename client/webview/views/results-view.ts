/**
 * The results view: the metrics of the dataset's last update and its rows in a virtualised grid
 * (only the rows in view are in the DOM), sortable by any column, filterable by key, with the rows
 * the last update inserted, updated and deleted marked (deleted rows struck through). Columns fit
 * their content (measured in the grid's own fonts) and are resized by dragging their header's edge
 * (or with the arrow keys on it; a double click fits the column again). After a failed run the rows
 * of the run before it stay, marked as such.
 */
import type { DatasetPreview, ResultRow } from '../../../common/result-model.js';
import { annotateChanges, type AnnotatedRows } from '../model/changes.js';
import {
    fitColumnWidths, gridTemplate, navigate, nextSort, resizedWidth, shownWidths, viewportWindow, visibleOrder, type TextMeasure,
} from '../model/grid.js';
import { resolveKeys } from '../model/scd2.js';
import { currentDataset, fromPreviousRun, rowsOf, runChangesOf, shownRun, type PreviewState } from '../model/state.js';
import { formatValue } from '../model/values.js';
import { count, h, onActivate, replaceChildren } from '../dom.js';
import type { View, ViewContext } from './context.js';

const ROW_HEIGHT = 24;
/** Rows paged in per request. */
const PAGE = 5000;

/** Pixels a keyboard step resizes a column by (with Shift: four steps). */
const RESIZE_STEP = 16;

/**
 * Measures texts in the fonts the grid draws them in (read from probe elements styled like a cell
 * and a header), on a canvas that is never shown.
 */
class GridTextMeasure implements TextMeasure {
    private readonly context = document.createElement('canvas').getContext('2d');

    constructor(private readonly cellProbe: HTMLElement, private readonly nameProbe: HTMLElement, private readonly typeProbe: HTMLElement) {}

    header(name: string, type: string): number {
        // The header button's padding and the room for the sort mark, around its name and type.
        return this.width(name, this.nameProbe) + this.width(` ${type}`, this.typeProbe) + this.width(' ▲', this.nameProbe) + 28;
    }

    cell(text: string): number {
        // The cell's padding and a pixel of rounding.
        return this.width(text, this.cellProbe) + 18;
    }

    private width(text: string, probe: HTMLElement): number {
        if (!this.context) {
            return text.length * 8;
        }
        // From its parts: the `font` shorthand reads empty when a part it cannot express is set (tabular numbers).
        const style = getComputedStyle(probe);
        this.context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        return this.context.measureText(text).width;
    }
}

/** The results view. */
export class ResultsView implements View {
    readonly element = h('section', { class: 'view results-view', role: 'tabpanel', 'aria-label': 'Results' });
    private readonly metrics = h('div', { class: 'metrics' });
    private readonly filterInput = h('input', { type: 'search', class: 'filter', placeholder: 'Filter by key', 'aria-label': 'Filter rows by key' });
    private readonly changedOnly = h('input', { type: 'checkbox', id: 'changed-only' });
    private readonly summary = h('span', { class: 'row-summary', 'aria-live': 'polite' });
    private readonly more = h('button', { class: 'more', type: 'button' });
    private readonly header = h('div', { class: 'grid-header', role: 'row' });
    private readonly body = h('div', { class: 'grid-rows', role: 'rowgroup' });
    // The canvas is as tall as all rows; only the rows in view are rendered into it.
    private readonly canvas = h('div', { class: 'grid-canvas' }, this.body);
    // The header sits inside the scroller (sticky) so that it scrolls sideways with the cells.
    private readonly scroller = h('div', { class: 'grid-scroller', tabindex: 0, role: 'grid', 'aria-label': 'Rows' }, this.header, this.canvas);
    private readonly empty = h('div', { class: 'empty' });
    private readonly previous = h('p', { class: 'previous-run', role: 'status' });
    private readonly toolbar: HTMLElement;
    // Invisible elements with the fonts of a cell and a header, for measuring texts.
    private readonly probes = { cell: h('span', { class: 'cell' }), name: h('span', { class: 'sort' }), type: h('span', { class: 'type' }) };
    private readonly measure: GridTextMeasure;
    private fitted: number[] = [];
    private widths: number[] = [];

    private dataset?: DatasetPreview;
    private rows: readonly ResultRow[] = [];
    private annotated?: AnnotatedRows;
    private order: number[] = [];
    private columns: string[] = [];
    /** The SQL type of each column, for the text of its cells. */
    private types = new Map<string, string>();
    private template = '';
    private active = 0;
    private key = '';

    constructor(private readonly ctx: ViewContext) {
        const toolbar = this.toolbar = h('div', { class: 'toolbar' },
            this.filterInput,
            h('label', { class: 'check' }, this.changedOnly, ' Changed rows only'),
            this.summary,
            this.more,
        );
        this.element.append(this.previous, this.metrics, toolbar, this.scroller, this.empty,
            h('div', { class: 'measure-probes', 'aria-hidden': 'true' }, this.probes.cell, this.probes.name, this.probes.type));
        this.measure = new GridTextMeasure(this.probes.cell, this.probes.name, this.probes.type);
        this.filterInput.addEventListener('input', () => {
            if (this.dataset) {
                ctx.dispatch({ type: 'ui/filter', dataset: this.dataset.name, filter: this.filterInput.value });
            }
        });
        this.changedOnly.addEventListener('change', () => ctx.dispatch({ type: 'ui/changedOnly', value: this.changedOnly.checked }));
        onActivate(this.more, () => {
            const shown = shownRun(ctx.state());
            if (this.dataset && shown) {
                ctx.dispatch({ type: 'ui/pageRequested', dataset: this.dataset.name });
                ctx.post({ type: 'requestRows', runId: shown.summary.runId, dataset: this.dataset.name, offset: this.rows.length, limit: PAGE });
            }
        });
        this.scroller.addEventListener('scroll', () => this.renderWindow());
        this.scroller.addEventListener('keydown', event => {
            const pageSize = Math.max(1, Math.floor(this.viewportHeight() / ROW_HEIGHT) - 1);
            const next = navigate(event.key, this.active, this.order.length, pageSize);
            if (next !== undefined) {
                event.preventDefault();
                this.active = next;
                this.scrollToActive();
                this.renderWindow();
            }
        });
        new ResizeObserver(() => this.renderWindow()).observe(this.scroller);
    }

    update(state: PreviewState): void {
        const dataset = currentDataset(state);
        this.dataset = dataset;
        this.element.hidden = state.view !== 'results';
        this.renderPrevious(state);
        this.toolbar.hidden = !dataset;
        this.scroller.hidden = !dataset;
        if (!dataset) {
            replaceChildren(this.metrics);
            this.empty.textContent = state.outcome?.ok === false ? 'The run failed; see the error above.' : 'Run a flow to see its rows here.';
            this.empty.hidden = false;
            this.order = [];
            this.renderWindow();
            return;
        }
        this.empty.hidden = dataset.error === undefined;
        this.empty.textContent = dataset.error ? `${dataset.error.class}: ${dataset.error.message}` : '';
        this.renderMetrics(dataset, state);
        const rows = rowsOf(state, dataset);
        const filter = state.filter[dataset.name] ?? '';
        const sort = state.sort[dataset.name];
        const runId = shownRun(state)?.summary.runId;
        const key = `${runId}|${dataset.name}|${rows.length}|${filter}|${sort?.column}|${sort?.direction}|${state.changedOnly}`;
        if (this.filterInput.value !== filter) {
            this.filterInput.value = filter;
        }
        this.changedOnly.checked = state.changedOnly;
        const keys = dataset.cdc ? resolveKeys(dataset.columns, dataset.cdc.keys) : [];
        this.filterInput.placeholder = keys.length > 0 ? `Filter by ${keys.join(', ')}` : 'Filter rows';
        if (key === this.key) {
            this.applyWidths(state.columnWidths.get(dataset.name));
            this.renderSummary(dataset, state);
            return;
        }
        const datasetChanged = !this.key.startsWith(`${runId}|${dataset.name}|`);
        this.key = key;
        this.rows = rows;
        this.columns = dataset.columns.map(c => c.name);
        this.types = new Map(dataset.columns.map(c => [c.name, c.type]));
        this.annotated = annotateChanges(rows, this.columns, runChangesOf(state, dataset));
        const all = this.annotated.rows;
        // Filter on the key columns when the dataset has keys, else on every column.
        let order = visibleOrder(all, keys.length > 0 ? keys : this.columns, filter, sort);
        if (state.changedOnly) {
            order = order.filter(i => this.annotated!.changes[i] !== undefined);
        }
        this.order = order;
        if (datasetChanged || this.fitted.length !== this.columns.length) {
            this.fitted = fitColumnWidths(dataset.columns, all, this.measure);
        }
        this.applyWidths(state.columnWidths.get(dataset.name));
        this.renderHeader(dataset, sort);
        if (datasetChanged) {
            this.scroller.scrollTop = 0;
            this.active = 0;
        }
        this.active = Math.min(this.active, Math.max(0, order.length - 1));
        this.renderSummary(dataset, state);
        this.renderWindow();
    }

    /** After a failed run: says that the rows shown are those of the run before it. */
    private renderPrevious(state: PreviewState): void {
        const shown = shownRun(state);
        const previous = fromPreviousRun(state) && shown !== undefined;
        this.previous.hidden = !previous;
        this.scroller.classList.toggle('previous', previous);
        if (previous && shown && state.outcome && !state.outcome.ok) {
            const when = shown.summary.startedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
            this.previous.textContent = shown.restored
                ? `The last run failed (${state.outcome.error.class}); these are the rows its pipeline's state held before it.`
                : `The last run failed (${state.outcome.error.class}); these rows are from the previous run, started ${when}.`;
        }
    }

    private renderMetrics(dataset: DatasetPreview, state: PreviewState): void {
        const m = dataset.metrics;
        const facts: Array<[string, string]> = [['rows', count(dataset.rowCount)]];
        const statements = dataset.changedSince ?? [];
        if (statements.length > 0) {
            // Statements changed the rows after the run: the run's counts no longer describe them, the statements' do.
            for (const v of statements) {
                facts.push(['changed by', `${v.operation} · version ${v.version}`], ...Object.entries(v.metrics).map(([k, n]): [string, string] => [k, count(n)]));
            }
        } else {
            const changes = runChangesOf(state, dataset);
            if (changes) {
                facts.push(['inserted', count(changes.inserted)], ['updated', count(changes.updated)], ['deleted', count(changes.deleted)]);
            }
            for (const name of ['num_upserted_rows', 'num_deleted_rows', 'num_output_rows'] as const) {
                if (m?.[name] !== undefined) {
                    facts.push([name, count(m[name]!)]);
                }
            }
        }
        const list = h('dl', { class: 'facts' }, ...facts.map(([k, v]) => h('div', { class: 'fact' }, h('dt', {}, k), h('dd', { 'data-metric': k }, v))));
        const expectations = Object.entries(m?.expectations ?? {});
        const table = expectations.length === 0 ? undefined : h('table', { class: 'expectations' },
            h('caption', {}, 'Expectations'),
            h('thead', {}, h('tr', {}, ...['expectation', 'passed', 'failed', 'dropped'].map(t => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, ...expectations.map(([name, e]) => h('tr', { class: e.failed_records > 0 ? 'failing' : undefined },
                h('th', { scope: 'row' }, name),
                h('td', {}, count(e.passed_records)),
                h('td', {}, count(e.failed_records)),
                h('td', {}, e.dropped_records === undefined ? '—' : count(e.dropped_records))))));
        replaceChildren(this.metrics, h('h2', {}, dataset.name, h('span', { class: 'kind' }, ` ${dataset.kind.replace(/_/g, ' ')}`)), list, table);
    }

    private renderSummary(dataset: DatasetPreview, state: PreviewState): void {
        const loaded = rowsOf(state, dataset).length;
        const deleted = this.annotated?.counts.deleted ?? 0;
        const parts = [`${count(this.order.length)} shown`, `${count(loaded)} of ${count(dataset.rowCount)} rows loaded`];
        if (deleted > 0) {
            parts.push(`${count(Math.min(deleted, dataset.changes?.rows.deleted.length ?? 0))} deleted rows shown struck through`);
        }
        if (state.pageError) {
            parts.push(state.pageError);
        }
        this.summary.textContent = parts.join(' · ');
        const remaining = dataset.rowCount - loaded;
        this.more.hidden = remaining <= 0;
        this.more.disabled = state.pageLoading === dataset.name;
        this.more.textContent = state.pageLoading === dataset.name ? 'Loading…' : `Load ${count(Math.min(PAGE, remaining))} more rows`;
    }

    /** Sets the columns' widths (the user's where set, the fitted ones elsewhere) on the whole grid at once. */
    private applyWidths(userSet: ReadonlyMap<string, number> | undefined): void {
        this.widths = shownWidths(this.columns, this.fitted, userSet);
        const template = gridTemplate(this.widths);
        if (template !== this.template) {
            this.template = template;
            // One custom property for the header and every row (set through the CSSOM, which the CSP allows).
            this.scroller.style.setProperty('--grid-columns', template);
            this.header.querySelectorAll<HTMLElement>('.col-resizer').forEach((handle, i) => handle.setAttribute('aria-valuenow', String(this.widths[i])));
        }
    }

    /** The edge of a column's header: drag it (or use the arrow keys on it) to resize, double-click to fit again. */
    private resizer(dataset: DatasetPreview, index: number): HTMLElement {
        const name = dataset.columns[index].name;
        const handle = h('div', {
            class: 'col-resizer', role: 'separator', 'aria-orientation': 'vertical', tabindex: 0, 'aria-label': `Resize column ${name}`,
            'aria-valuenow': this.widths[index], 'aria-valuemin': 40, title: 'Drag to resize; double-click to fit',
        });
        const set = (width: number | undefined): void => this.ctx.dispatch({ type: 'ui/columnWidth', dataset: dataset.name, column: name, width });
        let drag: { pointer: number; x: number; start: number } | undefined;
        handle.addEventListener('pointerdown', event => {
            if (event.button !== 0) {
                return;
            }
            event.preventDefault();
            event.stopPropagation();
            handle.setPointerCapture(event.pointerId);
            drag = { pointer: event.pointerId, x: event.clientX, start: this.widths[index] };
            handle.classList.add('dragging');
        });
        handle.addEventListener('pointermove', event => {
            if (drag?.pointer === event.pointerId) {
                // While dragging only the template changes; the state learns the width when the drag ends.
                const widths = [...this.widths];
                widths[index] = resizedWidth(drag.start, event.clientX - drag.x);
                this.widths = widths;
                this.template = gridTemplate(widths);
                this.scroller.style.setProperty('--grid-columns', this.template);
            }
        });
        const end = (event: PointerEvent): void => {
            if (drag?.pointer === event.pointerId) {
                drag = undefined;
                handle.classList.remove('dragging');
                set(this.widths[index]);
            }
        };
        handle.addEventListener('pointerup', end);
        handle.addEventListener('pointercancel', end);
        handle.addEventListener('dblclick', event => {
            event.stopPropagation();
            set(undefined);
        });
        handle.addEventListener('click', event => event.stopPropagation());
        handle.addEventListener('keydown', event => {
            const step = event.shiftKey ? 4 * RESIZE_STEP : RESIZE_STEP;
            if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
                event.preventDefault();
                set(resizedWidth(this.widths[index], event.key === 'ArrowLeft' ? -step : step));
            } else if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                set(undefined);
            }
        });
        return handle;
    }

    private renderHeader(dataset: DatasetPreview, sort: { column: string; direction: 'asc' | 'desc' } | undefined): void {
        const cells = dataset.columns.map((column, index) => {
            const sorted = sort?.column === column.name ? sort.direction : undefined;
            const button = h('button', { type: 'button', class: 'sort', title: `${column.name} ${column.type} — sort` },
                column.name, h('span', { class: 'type' }, ` ${column.type}`), sorted ? (sorted === 'asc' ? ' ▲' : ' ▼') : '');
            onActivate(button, () => this.ctx.dispatch({ type: 'ui/sort', dataset: dataset.name, sort: nextSort(sort, column.name) }));
            return h('div', { role: 'columnheader', class: 'col-header', 'aria-sort': sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none' },
                button, this.resizer(dataset, index));
        });
        replaceChildren(this.header, ...cells);
        this.scroller.setAttribute('aria-rowcount', String(this.order.length + 1));
        this.scroller.setAttribute('aria-colcount', String(dataset.columns.length));
    }

    /** The height of the rows' part of the viewport (below the sticky header). */
    private viewportHeight(): number {
        return Math.max(ROW_HEIGHT, (this.scroller.clientHeight || 400) - this.header.offsetHeight);
    }

    private scrollToActive(): void {
        const top = this.active * ROW_HEIGHT;
        if (top < this.scroller.scrollTop) {
            this.scroller.scrollTop = top;
        } else if (top + ROW_HEIGHT > this.scroller.scrollTop + this.viewportHeight()) {
            this.scroller.scrollTop = top + ROW_HEIGHT - this.viewportHeight();
        }
    }

    /** Renders only the rows in (and near) the viewport. */
    private renderWindow(): void {
        const window = viewportWindow(this.scroller.scrollTop, this.viewportHeight(), ROW_HEIGHT, this.order.length);
        this.canvas.style.height = `${window.totalHeight}px`;
        this.body.style.transform = `translateY(${window.offsetTop}px)`;
        const annotated = this.annotated;
        const rows: HTMLElement[] = [];
        for (let i = window.first; i < window.end && annotated; i++) {
            const index = this.order[i];
            const row = annotated.rows[index];
            const change = annotated.changes[index];
            const element = h('div', {
                role: 'row', class: `grid-row${change ? ` ${change}` : ''}${i === this.active ? ' active' : ''}`,
                id: `row-${i}`, 'aria-rowindex': i + 2, 'data-change': change,
                title: change ? `${change} by the last update` : undefined,
            }, ...this.columns.map(c => {
                const value = row[c];
                return h('div', { role: 'gridcell', class: value === null || value === undefined ? 'cell null' : 'cell' }, formatValue(value, this.types.get(c)));
            }));
            element.addEventListener('click', () => {
                this.active = i;
                this.renderWindow();
            });
            rows.push(element);
        }
        this.body.replaceChildren(...rows);
        if (this.order.length > 0) {
            this.scroller.setAttribute('aria-activedescendant', `row-${this.active}`);
        } else {
            this.scroller.removeAttribute('aria-activedescendant');
        }
    }
}
