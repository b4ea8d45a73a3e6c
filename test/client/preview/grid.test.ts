import { describe, expect, test } from 'vitest';
import {
    ColumnWidths, fitColumnWidths, gridTemplate, navigate, nextSort, resizedWidth, shownWidths, viewportWindow, visibleOrder,
} from '../../../client/webview/model/grid.js';
import type { ResultRow } from '../../../common/result-model.js';

const users: ResultRow[] = [
    { user_id: 3, name: 'Grace Hopper', city: 'Arlington' },
    { user_id: 1, name: 'Ada King', city: 'London' },
    { user_id: 2, name: 'Alan Turing', city: null },
    { user_id: 10, name: 'Edsger Dijkstra', city: 'Amsterdam' },
];

describe('visibleOrder', () => {
    test('without filter or sort, rows keep their order', () => {
        expect(visibleOrder(users, ['user_id'], '', undefined)).toEqual([0, 1, 2, 3]);
    });

    test('sorts numbers numerically both ways; NULLs first ascending and last descending', () => {
        expect(visibleOrder(users, [], '', { column: 'user_id', direction: 'asc' }).map(i => users[i].user_id)).toEqual([1, 2, 3, 10]);
        expect(visibleOrder(users, [], '', { column: 'city', direction: 'asc' }).map(i => users[i].city)).toEqual([null, 'Amsterdam', 'Arlington', 'London']);
        expect(visibleOrder(users, [], '', { column: 'city', direction: 'desc' }).map(i => users[i].city)).toEqual(['London', 'Arlington', 'Amsterdam', null]);
    });

    test('filters on the given (key) columns only, case-insensitively', () => {
        expect(visibleOrder(users, ['user_id'], '1', undefined).map(i => users[i].user_id)).toEqual([1, 10]);
        // 'London' is a city, not a key: filtering by key does not find it.
        expect(visibleOrder(users, ['user_id'], 'london', undefined)).toEqual([]);
        expect(visibleOrder(users, ['name', 'city'], 'LONDON', undefined)).toEqual([1]);
        expect(visibleOrder(users, ['city'], 'null', undefined)).toEqual([2]);
    });

    test('sorting is stable for equal values', () => {
        const rows: ResultRow[] = [{ k: 1, v: 'b' }, { k: 0, v: 'a' }, { k: 1, v: 'a' }, { k: 0, v: 'b' }];
        expect(visibleOrder(rows, [], '', { column: 'k', direction: 'asc' })).toEqual([1, 3, 0, 2]);
    });

    test('100,000 rows: filter and sort give the right rows in the right order', () => {
        const rows: ResultRow[] = Array.from({ length: 100_000 }, (_, i) => ({ id: (i * 7919) % 100_000, label: `row ${i}` }));
        const sorted = visibleOrder(rows, ['id'], '', { column: 'id', direction: 'desc' });
        expect(sorted).toHaveLength(100_000);
        expect(rows[sorted[0]].id).toBe(99_999);
        expect(rows[sorted[99_999]].id).toBe(0);
        const outOfOrder = sorted.findIndex((row, i) => i > 0 && (rows[sorted[i - 1]].id as number) <= (rows[row].id as number));
        expect(outOfOrder).toBe(-1);
        const filtered = visibleOrder(rows, ['id'], '99999', undefined);
        expect(filtered.map(i => rows[i].id)).toEqual([99_999]);
    });
});

describe('viewportWindow', () => {
    test('renders only the rows in view plus the overscan', () => {
        const w = viewportWindow(24 * 1000, 240, 24, 100_000, 5);
        expect(w).toEqual({ first: 995, end: 1015, offsetTop: 995 * 24, totalHeight: 2_400_000 });
    });

    test('clamps at both ends', () => {
        expect(viewportWindow(0, 240, 24, 100_000, 5)).toMatchObject({ first: 0, end: 15, offsetTop: 0 });
        expect(viewportWindow(1e9, 240, 24, 100, 5)).toMatchObject({ first: 85, end: 100 });
        expect(viewportWindow(0, 240, 24, 0)).toMatchObject({ first: 0, end: 0, totalHeight: 0 });
    });
});

test('nextSort cycles ascending, descending, unsorted; another column starts ascending', () => {
    const asc = nextSort(undefined, 'a');
    expect(asc).toEqual({ column: 'a', direction: 'asc' });
    const desc = nextSort(asc, 'a');
    expect(desc).toEqual({ column: 'a', direction: 'desc' });
    expect(nextSort(desc, 'a')).toBeUndefined();
    expect(nextSort(desc, 'b')).toEqual({ column: 'b', direction: 'asc' });
});

test('navigate moves the active row by key, clamped to the rows', () => {
    expect(navigate('ArrowDown', 0, 10, 5)).toBe(1);
    expect(navigate('ArrowUp', 0, 10, 5)).toBe(0);
    expect(navigate('PageDown', 8, 10, 5)).toBe(9);
    expect(navigate('PageUp', 8, 10, 5)).toBe(3);
    expect(navigate('End', 0, 10, 5)).toBe(9);
    expect(navigate('Home', 7, 10, 5)).toBe(0);
    expect(navigate('a', 1, 10, 5)).toBeUndefined();
    expect(navigate('ArrowDown', 0, 0, 5)).toBeUndefined();
});

describe('column widths', () => {
    // A fixed-width font: 8 px a character, 20 px of padding, a header also has room for its sort mark.
    const measure = { header: (name: string, type: string) => (name.length + 1 + type.length) * 8 + 36, cell: (text: string) => text.length * 8 + 20 };
    const columns = [{ name: 'user_id', type: 'INT' }, { name: 'city', type: 'STRING' }, { name: 'price', type: 'DECIMAL(10,2)' }, { name: 'note', type: 'STRING' }];
    const rows = [
        { user_id: 1, city: 'Arlington', price: 101.5, note: 'x'.repeat(300) },
        { user_id: 22, city: 'Amsterdam-Noord', price: 3, note: null },
    ];

    test('each column fits its header and its longest cell text in full, within the bounds', () => {
        const [id, city, price, note] = fitColumnWidths(columns, rows, measure);
        expect(id).toBe(measure.header('user_id', 'INT'));
        // The longest city, not cut as "Arlingt…".
        expect(city).toBe(measure.cell('Amsterdam-Noord'));
        expect(city).toBeGreaterThan(measure.cell('Arlington'));
        // A decimal is measured with its scale (101.50), the header being wider still.
        expect(price).toBe(measure.header('price', 'DECIMAL(10,2)'));
        expect(note).toBe(ColumnWidths.fitMax);
    });

    test('a resized column keeps its width; the others fit; a drag stays within the bounds', () => {
        const fitted = fitColumnWidths(columns, rows, measure);
        const widths = shownWidths(columns.map(c => c.name), fitted, new Map([['city', 300]]));
        expect(widths).toEqual([fitted[0], 300, fitted[2], fitted[3]]);
        expect(gridTemplate(widths)).toBe(`${fitted[0]}px 300px ${fitted[2]}px ${fitted[3]}px`);
        expect(resizedWidth(100, 55.4)).toBe(155);
        expect(resizedWidth(100, -500)).toBe(ColumnWidths.min);
        expect(resizedWidth(100, 1e6)).toBe(ColumnWidths.max);
    });
});
