import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { beliefAt, believedAt, bitemporalPicture, systemSteps } from '../../../client/webview/model/bitemporal.js';
import type { ResultColumn, ResultRow } from '../../../common/result-model.js';
import { repoRoot } from '../../helpers/lsp-client.js';

// Golden case 09 (the Databricks bitemporal example, four changes): the target after the fourth update,
// and what each update left open in system time (the table's belief after that step).
const columns: ResultColumn[] = ['company_id', 'data_point', '__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT']
    .map(name => ({ name, type: name.startsWith('__') ? 'TIMESTAMP' : 'STRING' }));
const final: ResultRow[] = [
    { company_id: 'A', data_point: 'XFv1', __START_AT: '2025-07-18 10:01:00', __END_AT: null, __SYSTEM_START_AT: '2025-07-18 10:05:00', __SYSTEM_END_AT: '2025-07-18 12:20:00' },
    { company_id: 'A', data_point: 'XFv1', __START_AT: '2025-07-18 10:01:00', __END_AT: '2025-07-18 12:15:43', __SYSTEM_START_AT: '2025-07-18 12:20:00', __SYSTEM_END_AT: '2025-07-18 12:25:00' },
    { company_id: 'A', data_point: 'XFv1', __START_AT: '2025-07-18 10:01:00', __END_AT: '2025-07-18 12:05:00', __SYSTEM_START_AT: '2025-07-18 12:25:00', __SYSTEM_END_AT: null },
    { company_id: 'A', data_point: 'XFv3', __START_AT: '2025-07-18 12:05:00', __END_AT: '2025-07-18 12:15:43', __SYSTEM_START_AT: '2025-07-18 12:25:00', __SYSTEM_END_AT: null },
    { company_id: 'A', data_point: 'XFv2', __START_AT: '2025-07-18 12:15:43', __END_AT: null, __SYSTEM_START_AT: '2025-07-18 12:20:00', __SYSTEM_END_AT: '2025-07-18 12:30:00' },
    { company_id: 'A', data_point: 'XFv2', __START_AT: '2025-07-18 12:15:43', __END_AT: '2025-07-18 12:30:00', __SYSTEM_START_AT: '2025-07-18 12:30:00', __SYSTEM_END_AT: null },
];
/** Per step: the believed rows as `data_point start–end`. */
const beliefs = [
    ['XFv1 10:01:00–open'],
    ['XFv1 10:01:00–12:15:43', 'XFv2 12:15:43–open'],
    ['XFv1 10:01:00–12:05:00', 'XFv3 12:05:00–12:15:43', 'XFv2 12:15:43–open'],
    ['XFv1 10:01:00–12:05:00', 'XFv3 12:05:00–12:15:43', 'XFv2 12:15:43–12:30:00'],
];

const short = (row: ResultRow): string => `${row.data_point} ${String(row.__START_AT).slice(11)}–${row.__END_AT === null ? 'open' : String(row.__END_AT).slice(11)}`;

describe('golden 09: the four steps of the bitemporal example', () => {
    test('the system-time steps are the four times at which the belief changed', () => {
        expect(systemSteps(final)).toEqual(['2025-07-18 10:05:00', '2025-07-18 12:20:00', '2025-07-18 12:25:00', '2025-07-18 12:30:00']);
    });

    test('"as of" each step the table believed what that update of the example left open', () => {
        systemSteps(final).forEach((step, i) => {
            expect(beliefAt(final, step).map(short)).toEqual(beliefs[i]);
        });
        // Before the first step nothing was believed; a row is believed from its system start, not at its end.
        expect(beliefAt(final, '2025-07-18 10:00:00')).toEqual([]);
        expect(believedAt(final[0], '2025-07-18 12:20:00')).toBe(false);
        expect(believedAt(final[1], '2025-07-18 12:20:00')).toBe(true);
    });

    const goldenFile = path.resolve(repoRoot, '../shared/golden/09_bitemporal_company_four_changes.json');
    test.skipIf(!fs.existsSync(goldenFile))('the expected rows match the golden file (../shared beside the repository)', () => {
        const file = goldenFile;
        const golden = JSON.parse(fs.readFileSync(file, 'utf8')) as { expected: { company_bitemporal: ResultRow[] }; updates: Array<{ expected: { company_bitemporal: ResultRow[] } }> };
        const sort = (rows: ResultRow[]) => rows.map(r => JSON.stringify(r)).sort();
        expect(sort(golden.expected.company_bitemporal)).toEqual(sort(final));
        golden.updates.forEach((update, i) => {
            expect(update.expected.company_bitemporal.filter(r => r.__SYSTEM_END_AT === null).map(short).sort()).toEqual([...beliefs[i]].sort());
        });
    });

    test('six rectangles, one band per step: each rectangle spans its business and system periods', () => {
        const picture = bitemporalPicture(final, columns, ['company_id'], { width: 900, mode: 'even', gutter: 100, stepHeight: 30 });
        expect(picture.panels).toHaveLength(1);
        const panel = picture.panels[0];
        expect(panel.keyLabel).toBe('company_id=A');
        expect(panel.rects).toHaveLength(6);
        expect(picture.steps).toHaveLength(4);
        // System time down: step i starts i bands below the panel header; an open system end is one band below the last step.
        const band = (i: number) => picture.panelHeader + i * 30;
        const rect = (dataPoint: string, sysStart: string) => panel.rects.find(r => r.label === dataPoint && r.systemStart === sysStart)!;
        expect([rect('XFv1', '2025-07-18 10:05:00').y1, rect('XFv1', '2025-07-18 10:05:00').y2]).toEqual([band(0), band(1)]);
        expect([rect('XFv1', '2025-07-18 12:20:00').y1, rect('XFv1', '2025-07-18 12:20:00').y2]).toEqual([band(1), band(2)]);
        expect([rect('XFv2', '2025-07-18 12:20:00').y1, rect('XFv2', '2025-07-18 12:20:00').y2]).toEqual([band(1), band(3)]);
        expect([rect('XFv2', '2025-07-18 12:30:00').y1, rect('XFv2', '2025-07-18 12:30:00').y2]).toEqual([band(3), band(4)]);
        expect(rect('XFv3', '2025-07-18 12:25:00').openSystemEnd).toBe(true);
        // Business time across: the boundaries 10:01, 12:05, 12:15:43, 12:30 evenly spaced; open ends reach the axis end.
        const x = picture.business.ticks.map(t => t.position);
        expect(picture.business.ticks.map(t => t.label.slice(11))).toEqual(['10:01:00', '12:05:00', '12:15:43', '12:30:00']);
        expect(rect('XFv1', '2025-07-18 10:05:00')).toMatchObject({ x1: x[0], x2: picture.business.end, openBusinessEnd: true });
        expect(rect('XFv3', '2025-07-18 12:25:00')).toMatchObject({ x1: x[1], x2: x[2], openBusinessEnd: false });
        expect(rect('XFv2', '2025-07-18 12:30:00')).toMatchObject({ x1: x[2], x2: x[3] });
    });

    test('no two rectangles of a key overlap: every point of the plane has at most one belief', () => {
        const { rects } = bitemporalPicture(final, columns, ['company_id'], { width: 900, mode: 'proportional' }).panels[0];
        for (let i = 0; i < rects.length; i++) {
            for (let j = i + 1; j < rects.length; j++) {
                const a = rects[i];
                const b = rects[j];
                const overlap = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > 0.01 && Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > 0.01;
                expect(overlap, `${a.description} / ${b.description}`).toBe(false);
            }
        }
    });
});

test('one panel per key, stacked, with the key filter', () => {
    const prices: ResultRow[] = [
        { instrument: 'ACME', price: 101.5, __START_AT: '2025-03-03 09:30:00', __END_AT: null, __SYSTEM_START_AT: '2025-03-03 09:31:00', __SYSTEM_END_AT: null },
        { instrument: 'GLOBEX', price: 55.1, __START_AT: '2025-03-03 09:30:00', __END_AT: '2025-03-03 15:00:00', __SYSTEM_START_AT: '2025-03-03 15:00:00', __SYSTEM_END_AT: null },
    ];
    const cols: ResultColumn[] = Object.keys(prices[0]).map(name => ({ name, type: 'STRING' }));
    const picture = bitemporalPicture(prices, cols, ['instrument'], { width: 800, mode: 'even' });
    expect(picture.panels.map(p => p.keyLabel)).toEqual(['instrument=ACME', 'instrument=GLOBEX']);
    expect(picture.panels[1].top).toBe(picture.panels[0].top + picture.panels[0].height);
    expect(picture.panels[0].rects[0].label).toBe('101.5');
    expect(bitemporalPicture(prices, cols, ['instrument'], { width: 800, mode: 'even', filter: 'glob' }).panels.map(p => p.keyLabel)).toEqual(['instrument=GLOBEX']);
});
