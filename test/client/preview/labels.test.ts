import { describe, expect, test } from 'vitest';
import { keyLabels, placeLabels, shortenMiddle, textWidth } from '../../../client/webview/model/labels.js';

describe('key labels', () => {
    const names = ['sku', 'warehouse'];
    const keys = [['WIDGET-1', 'north'], ['WIDGET-2', 'north'], ['GADGET-9', 'south'], ['GADGET-9', 'north']];

    test('when name=value fits, that is the label', () => {
        expect(keyLabels([['1'], ['2']], ['user_id'], 24)).toEqual({ labels: ['user_id=1', 'user_id=2'] });
    });

    test('composite keys that do not fit show their values under a heading, and no two read the same', () => {
        const { labels, heading } = keyLabels(keys, names, 24);
        expect(heading).toBe('sku · warehouse');
        expect(labels).toEqual(['WIDGET-1 · north', 'WIDGET-2 · north', 'GADGET-9 · south', 'GADGET-9 · north']);
        expect(new Set(labels).size).toBe(keys.length);
        expect(labels.every(l => l.length <= 24)).toBe(true);
    });

    test('a column with the same value for every key is left out', () => {
        const { labels, heading } = keyLabels([['EU', 'customer-0001'], ['EU', 'customer-0002']], ['region', 'customer'], 20);
        expect(heading).toBe('customer');
        expect(labels).toEqual(['customer-0001', 'customer-0002']);
    });

    test('long values are cut in the middle; where that makes two alike, their ends are kept', () => {
        expect(keyLabels([['Amsterdam-North-Warehouse'], ['Rotterdam-Port-Warehouse']], ['site'], 12).labels).toEqual(['Amster…house', 'Rotter…house']);
        expect(keyLabels([['order-2025-000001'], ['order-2025-000002']], ['order_id'], 10).labels).toEqual(['order…0001', 'order…0002']);
        const alike = keyLabels([['north-warehouse-A-building'], ['north-warehouse-B-building']], ['site'], 10).labels;
        expect(alike).toEqual(['…e-A-buil…', '…e-B-buil…']);
    });

    test('shortenMiddle keeps both ends', () => {
        expect(shortenMiddle('abcdefghij', 5)).toBe('ab…ij');
        expect(shortenMiddle('abc', 5)).toBe('abc');
        expect(shortenMiddle('abcdef', 1)).toBe('…');
    });
});

describe('axis labels', () => {
    const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

    test('labels of close ticks are spread over the rows, never overlapping in a row, inside the axis', () => {
        // Timestamps a few pixels apart, as on a proportional axis with a long quiet period.
        const ticks = [0, 30, 60, 90, 400, 405, 410, 700].map((p, i) => ({ position: 100 + p, label: `2025-07-18 12:${String(10 + i).padStart(2, '0')}:00` }));
        const placed = placeLabels(ticks, { start: 100, end: 800, rows: 2 });
        for (const a of placed) {
            expect(a.from).toBeGreaterThanOrEqual(100);
            expect(a.to).toBeLessThanOrEqual(800);
            for (const b of placed) {
                if (a !== b && a.row === b.row) {
                    expect(overlaps(a, b), `${a.label} / ${b.label}`).toBe(false);
                }
            }
        }
        // The ends of the axis are labelled, anchored so that they stay inside it.
        expect(placed.map(p => p.label)).toContain(ticks[0].label);
        expect(placed.find(p => p.label === ticks[7].label)).toMatchObject({ anchor: 'end', at: 800 });
        expect(placed.find(p => p.label === ticks[0].label)).toMatchObject({ anchor: 'start', at: 100 });
        expect(placed.length).toBeLessThan(ticks.length);
    });

    test('a reserved extent (the "open →" label) is kept free', () => {
        const placed = placeLabels([{ position: 760, label: '2025-01-05' }], { start: 0, end: 800, rows: 1, reserved: [{ row: 0, from: 740, to: 800 }] });
        expect(placed).toEqual([]);
    });

    test('down a vertical axis labels take their line height', () => {
        const steps = [0, 4, 8, 40].map(p => ({ position: p + 20, label: 'x' }));
        const placed = placeLabels(steps, { start: 0, end: 200, size: () => 13, gap: 1 });
        expect(placed.map(p => p.position)).toEqual([20, 60]);
    });

    test('textWidth estimates 11 px text', () => {
        expect(textWidth('abcd')).toBe(26);
    });
});
