import { describe, expect, test } from 'vitest';
import { classifyEvents, scd2Picture } from '../../../client/webview/model/scd2.js';
import type { ResultColumn, ResultRow } from '../../../common/result-model.js';

// The target of golden case 03 (the Databricks SCD2 example): key 123 deleted at 6, 125 with a late event.
const columns: ResultColumn[] = [
    { name: 'userId', type: 'INT' }, { name: 'name', type: 'STRING' }, { name: 'city', type: 'STRING' },
    { name: '__START_AT', type: 'INT' }, { name: '__END_AT', type: 'INT' },
];
const rows: ResultRow[] = [
    { userId: 123, name: 'Isabel', city: 'Monterrey', __START_AT: 1, __END_AT: 5 },
    { userId: 123, name: 'Isabel', city: 'Chihuahua', __START_AT: 5, __END_AT: 6 },
    { userId: 124, name: 'Raul', city: 'Oaxaca', __START_AT: 1, __END_AT: null },
    { userId: 125, name: 'Mercedes', city: 'Guadalajara', __START_AT: 6, __END_AT: null },
    { userId: 125, name: 'Mercedes', city: 'Tijuana', __START_AT: 2, __END_AT: 5 },
    { userId: 125, name: 'Mercedes', city: 'Mexicali', __START_AT: 5, __END_AT: 6 },
    { userId: 126, name: 'Lily', city: 'Cancun', __START_AT: 2, __END_AT: null },
];

describe('scd2Picture', () => {
    const picture = scd2Picture(rows, columns, ['USERID'], { width: 1000, mode: 'proportional', gutter: 100 });

    test('one lane per key, one bar per version, versions in sequence order', () => {
        expect(picture.lanes.map(l => l.keyLabel)).toEqual(['userId=123', 'userId=124', 'userId=125', 'userId=126']);
        expect(picture.lanes.map(l => l.versions.length)).toEqual([2, 1, 3, 1]);
        expect(picture.lanes[2].versions.map(v => [v.start, v.end])).toEqual([[2, 5], [5, 6], [6, null]]);
        expect(picture.lanes.map(l => l.y)).toEqual([44, 74, 104, 134]);
    });

    test('bars run from __START_AT to __END_AT on a proportional axis; an open end reaches the end of the axis', () => {
        const { scale } = picture;
        expect(scale.start).toBe(108);
        expect(scale.end).toBe(988);
        // Sequences 1..6 fill the axis but for the room kept for open ends (12%).
        const unit = (988 - 108) * 0.88 / 5;
        const [first, second] = picture.lanes[0].versions;
        expect(first.x1).toBeCloseTo(108);
        expect(first.x2).toBeCloseTo(108 + 4 * unit);
        expect(second.x1).toBeCloseTo(first.x2);
        expect(second.x2).toBeCloseTo(108 + 5 * unit);
        const open = picture.lanes[1].versions[0];
        expect(open.open).toBe(true);
        expect(open.x2).toBe(988);
        expect(open.x2).toBeGreaterThan(second.x2);
    });

    test('a version is labelled with the values that changed; a first version with all its values', () => {
        const mercedes = picture.lanes[2].versions;
        expect(mercedes.map(v => v.label)).toEqual(['Mercedes, Tijuana', 'city=Mexicali', 'city=Guadalajara']);
        expect(mercedes[1].changes).toEqual([{ column: 'city', before: 'Tijuana', after: 'Mexicali' }]);
        expect(mercedes[2].description).toBe('userId=125, 6 → open, city: Mexicali → Guadalajara');
        expect(mercedes[0].fresh).toBe(true);
    });

    test('a version after a deleted period is labelled with all its values again', () => {
        const gap: ResultRow[] = [
            { userId: 1, name: 'A', city: 'X', __START_AT: 1, __END_AT: 3 },
            { userId: 1, name: 'A', city: 'X', __START_AT: 5, __END_AT: null },
        ];
        const [before, after] = scd2Picture(gap, columns, ['userId'], { width: 600, mode: 'even' }).lanes[0].versions;
        expect(before.label).toBe('A, X');
        expect(after.fresh).toBe(true);
        expect(after.label).toBe('A, X');
        expect(after.description).toContain('after a deleted period');
    });

    test('the even axis gives every boundary the same room', () => {
        const even = scd2Picture(rows, columns, ['userId'], { width: 1000, mode: 'even', gutter: 100 });
        const ticks = even.scale.ticks.map(t => t.position);
        expect(ticks).toHaveLength(4); // 1, 2, 5, 6
        const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
        expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThan(1e-9);
    });

    test('the key filter and the lane cap keep the picture small', () => {
        const filtered = scd2Picture(rows, columns, ['userId'], { width: 800, mode: 'even', filter: '125' });
        expect(filtered.lanes.map(l => l.keyLabel)).toEqual(['userId=125']);
        expect(filtered.matchingKeys).toBe(1);
        expect(filtered.totalKeys).toBe(4);
        const capped = scd2Picture(rows, columns, ['userId'], { width: 800, mode: 'even', maxKeys: 2 });
        expect(capped.lanes).toHaveLength(2);
        expect(capped.matchingKeys).toBe(4);
    });
});

describe('classifyEvents', () => {
    // Key 123 of golden case 04 (TRACK HISTORY ON * EXCEPT (city)): one version 1..6 in the target.
    const events: ResultRow[] = [
        { userId: 123, name: 'Isabel', city: 'Monterrey', _sequence: 1, _change: 'upsert', _arrival: 1 },
        { userId: 123, name: 'Isabel', city: 'Chihuahua', _sequence: 5, _change: 'upsert', _arrival: 7 },
        { userId: 123, name: null, city: null, _sequence: 6, _change: 'delete', _arrival: 4 },
    ];

    test('the first event opened the version, the untracked change was applied in place and arrived late, the delete closed it', () => {
        const classified = classifyEvents(events, 1, 6);
        expect(classified.map(e => [e.sequence, e.role, e.late])).toEqual([[1, 'opened', false], [5, 'in-place', true], [6, 'closed', false]]);
        expect(classified[2].description).toBe('closed this version (delete)');
        expect(classified[1].description).toContain('arrived late');
    });

    test('events of other versions are told apart; an upsert at the end closes the version by opening the next', () => {
        const history: ResultRow[] = [
            { k: 1, v: 'a', _sequence: 1, _change: 'upsert', _arrival: 1 },
            { k: 1, v: 'b', _sequence: 5, _change: 'upsert', _arrival: 2 },
            { k: 1, v: 'c', _sequence: 9, _change: 'upsert', _arrival: 3 },
        ];
        expect(classifyEvents(history, 5, 9).map(e => e.role)).toEqual(['other', 'opened', 'closed']);
        expect(classifyEvents(history, 5, 9)[2].description).toBe('closed this version (the next version starts here)');
        expect(classifyEvents(history, 9, null).map(e => e.role)).toEqual(['other', 'other', 'opened']);
    });

    test('at the same sequence the delete wins, then the upsert that arrived last; the losers are superseded', () => {
        const ties: ResultRow[] = [
            { k: 1, v: 'x', _sequence: 3, _change: 'upsert', _arrival: 1 },
            { k: 1, v: 'y', _sequence: 3, _change: 'upsert', _arrival: 2 },
            { k: 1, v: 'z', _sequence: 7, _change: 'upsert', _arrival: 3 },
            { k: 1, v: null, _sequence: 7, _change: 'delete', _arrival: 4 },
        ];
        expect(classifyEvents(ties, 3, 7).map(e => e.role)).toEqual(['superseded', 'opened', 'superseded', 'closed']);
    });

    test('timestamp sequences compare as times', () => {
        const ts: ResultRow[] = [
            { id: 1, _sequence: '2025-01-01 09:00:00', _change: 'upsert', _arrival: 1 },
            { id: 1, _sequence: '2025-01-01 10:00:00', _change: 'upsert', _arrival: 2 },
        ];
        expect(classifyEvents(ts, '2025-01-01 09:00:00', null).map(e => e.role)).toEqual(['opened', 'in-place']);
    });
});
