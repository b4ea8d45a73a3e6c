/**
 * The logic of the results grid, kept apart from the DOM so that it is unit-tested: which rows pass
 * the filter, in which order they are shown, and which of them are in the scrolled viewport (the
 * grid renders only those, so it stays fast on 100,000 rows).
 */
import type { ResultRow } from '../../../common/result-model.js';
import { compareValues, formatValue } from './values.js';

/** A column sort. */
export interface SortSpec {
    readonly column: string;
    readonly direction: 'asc' | 'desc';
}

/** The next sort when a column header is activated: ascending, then descending, then unsorted. */
export function nextSort(current: SortSpec | undefined, column: string): SortSpec | undefined {
    if (current?.column !== column) {
        return { column, direction: 'asc' };
    }
    return current.direction === 'asc' ? { column, direction: 'desc' } : undefined;
}

/**
 * The indexes of `rows` that match `filter` (case-insensitive substring of a cell's text in one of
 * `columns`; every row when the filter is blank), in the order of `sort`. Sorting is stable, and
 * descending keeps Spark's convention of NULLs last.
 */
export function visibleOrder(rows: readonly ResultRow[], columns: readonly string[], filter: string, sort: SortSpec | undefined): number[] {
    const needle = filter.trim().toLowerCase();
    let order: number[] = [];
    if (needle === '') {
        order = Array.from({ length: rows.length }, (_, i) => i);
    } else {
        for (let i = 0; i < rows.length; i++) {
            const row = rows[i];
            if (columns.some(c => formatValue(row[c]).toLowerCase().includes(needle))) {
                order.push(i);
            }
        }
    }
    if (sort) {
        const sign = sort.direction === 'asc' ? 1 : -1;
        const column = sort.column;
        order.sort((a, b) => sign * compareValues(rows[a][column], rows[b][column]) || a - b);
    }
    return order;
}

/** The rows to render for a scroll position. */
export interface ViewportWindow {
    /** First row (index into the visible order) to render. */
    readonly first: number;
    /** One past the last row to render. */
    readonly end: number;
    /** Pixel offset of the first rendered row. */
    readonly offsetTop: number;
    /** Height of all rows: the scrollable height. */
    readonly totalHeight: number;
}

/**
 * The slice of rows a virtualised list renders: those intersecting the viewport plus `overscan`
 * rows on each side, for rows of a fixed height.
 */
export function viewportWindow(scrollTop: number, viewportHeight: number, rowHeight: number, rowCount: number, overscan = 8): ViewportWindow {
    const totalHeight = rowCount * rowHeight;
    const top = Math.max(0, Math.min(scrollTop, Math.max(0, totalHeight - viewportHeight)));
    const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
    const end = Math.min(rowCount, Math.ceil((top + viewportHeight) / rowHeight) + overscan);
    return { first, end: Math.max(first, end), offsetTop: first * rowHeight, totalHeight };
}

/** The row index to focus after a navigation key, clamped to the rows (undefined: not a navigation key). */
export function navigate(key: string, current: number, rowCount: number, pageSize: number): number | undefined {
    if (rowCount === 0) {
        return undefined;
    }
    const clamp = (i: number): number => Math.max(0, Math.min(rowCount - 1, i));
    switch (key) {
        case 'ArrowDown': return clamp(current + 1);
        case 'ArrowUp': return clamp(current - 1);
        case 'PageDown': return clamp(current + pageSize);
        case 'PageUp': return clamp(current - pageSize);
        case 'Home': return 0;
        case 'End': return rowCount - 1;
        default: return undefined;
    }
}

/** Bounds of a column's width in pixels: a fitted column stays within `fitMax`, one resized by hand within `max`. */
export const ColumnWidths = { min: 40, fitMax: 440, max: 2000, sampleRows: 1000 } as const;

/** How a text is measured (the grid's fonts, in pixels), and the padding around each kind of text. */
export interface TextMeasure {
    /** A header: the column name (bold) and its type. */
    header(name: string, type: string): number;
    /** A cell's text. */
    cell(text: string): number;
}

/**
 * The width of each column that shows its header (name, type and a sort mark) and the longest text
 * among the first rows in full, within the bounds; `types` gives each column's SQL type for the text
 * of its cells (a DECIMAL shows its scale).
 */
export function fitColumnWidths(columns: ReadonlyArray<{ readonly name: string; readonly type: string }>, rows: readonly ResultRow[], measure: TextMeasure): number[] {
    const sample = rows.length > ColumnWidths.sampleRows ? rows.slice(0, ColumnWidths.sampleRows) : rows;
    return columns.map(column => {
        let widest = measure.header(column.name, column.type);
        // Only the longest few texts need measuring: character counts pick the candidates.
        const texts = sample.map(r => formatValue(r[column.name], column.type));
        const longest = Math.max(0, ...texts.map(t => t.length));
        for (const text of new Set(texts.filter(t => t.length >= longest * 0.8))) {
            widest = Math.max(widest, measure.cell(text));
        }
        return Math.round(Math.max(ColumnWidths.min, Math.min(ColumnWidths.fitMax, widest)));
    });
}

/** A column's width after dragging its edge by `delta` pixels from `start`. */
export function resizedWidth(start: number, delta: number): number {
    return Math.round(Math.max(ColumnWidths.min, Math.min(ColumnWidths.max, start + delta)));
}

/** The widths shown: the user's where set, the fitted ones elsewhere. */
export function shownWidths(columns: readonly string[], fitted: readonly number[], userSet: ReadonlyMap<string, number> | undefined): number[] {
    return columns.map((c, i) => userSet?.get(c) ?? fitted[i] ?? ColumnWidths.min);
}

/** The CSS grid template of the widths. */
export function gridTemplate(widths: readonly number[]): string {
    return widths.map(w => `${w}px`).join(' ');
}
