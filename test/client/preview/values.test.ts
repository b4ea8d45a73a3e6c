import { describe, expect, test } from 'vitest';
import { compareValues, formatValue, numericPosition, sameValue } from '../../../client/webview/model/values.js';

describe('formatValue', () => {
    test('NULL, numbers, booleans, structs and arrays print as Spark prints them', () => {
        expect(formatValue(null)).toBe('NULL');
        expect(formatValue(undefined)).toBe('NULL');
        expect(formatValue(1.5)).toBe('1.5');
        expect(formatValue(false)).toBe('false');
        expect(formatValue({ ts: 2, n: null })).toBe('{ts: 2, n: null}');
        expect(formatValue(['a', ['b']])).toBe('[a, [b]]');
    });

    test('a DECIMAL column\'s numbers keep their scale; other numbers print as they are', () => {
        expect(formatValue(101.5, 'DECIMAL(10,2)')).toBe('101.50');
        expect(formatValue(12, 'decimal(10, 2)')).toBe('12.00');
        expect(formatValue(101.5, 'DOUBLE')).toBe('101.5');
        expect(formatValue(null, 'DECIMAL(10,2)')).toBe('NULL');
    });

    test('markup is kept as text, character for character', () => {
        expect(formatValue('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
    });
});

describe('compareValues', () => {
    test('NULL first, numbers numerically, strings by code point', () => {
        const values = [10, null, 2, -1];
        expect([...values].sort(compareValues)).toEqual([null, -1, 2, 10]);
        expect(['b', 'B', 'a'].sort(compareValues)).toEqual(['B', 'a', 'b']);
    });

    test('timestamps order by time, with and without fractions', () => {
        const times = ['2025-01-02 00:00:00', '2025-01-01 10:00:00.5', '2025-01-01 10:00:00'];
        expect([...times].sort(compareValues)).toEqual(['2025-01-01 10:00:00', '2025-01-01 10:00:00.5', '2025-01-02 00:00:00']);
    });

    test('structs compare field by field (SEQUENCE BY STRUCT)', () => {
        expect(compareValues({ ts: 1, n: 5 }, { ts: 2, n: 0 })).toBeLessThan(0);
        expect(compareValues({ ts: 2, n: 1 }, { ts: 2, n: 0 })).toBeGreaterThan(0);
        expect(compareValues({ ts: 2, n: null }, { ts: 2, n: 0 })).toBeLessThan(0);
    });

    test('a large DECIMAL sent as text compares with numbers by value', () => {
        expect(compareValues('12345678901234567890', 5)).toBeGreaterThan(0);
    });

    test('sameValue is null-safe equality', () => {
        expect(sameValue(null, null)).toBe(true);
        expect(sameValue(null, 0)).toBe(false);
        expect(sameValue({ a: 1 }, { a: 1 })).toBe(true);
        expect(sameValue(5, '5')).toBe(false);
    });
});

test('numericPosition: epoch milliseconds for dates and timestamps, numbers as they are, nothing for other text', () => {
    expect(numericPosition('1970-01-02')).toBe(86_400_000);
    expect(numericPosition('1970-01-01 00:00:01.25')).toBe(1250);
    expect(numericPosition(42)).toBe(42);
    expect(numericPosition('ACME')).toBeUndefined();
    expect(numericPosition({ ts: 1 })).toBeUndefined();
});
