// The sample generator (issue 16 item 2): deterministic for a seed, values that pass and fail each
// predicate (but never one that would fail the update), and a change feed that exercises AUTO CDC.
import { describe, expect, test } from 'vitest';
import { Types, type TypeDescriptor } from '../../../engine/src/spark/spark-types.js';
import { fileText, generateSource, type SampleRow, type SampleValue } from '../../../server/src/samples/sample-generator.js';
import type { ColumnPredicate, ColumnRole, FieldPredicate, RequiredColumn, SourceRequirement } from '../../../server/src/samples/source-requirements.js';

function column(name: string, type: TypeDescriptor, roles: ColumnRole[] = [], predicates: ColumnPredicate[] = [], fieldPredicates: FieldPredicate[] = []): RequiredColumn {
    return { name, type, typeStrength: 2, roles: new Set(roles), predicates, fieldPredicates, uses: [] };
}

function source(columns: RequiredColumn[], cdc: SourceRequirement['cdc'] = []): SourceRequirement {
    return { key: 'table:raw.t', kind: 'table', displayName: 'raw.t', name: ['raw', 't'], location: '/p/samples/raw/t', isFile: false, declared: false, columns, cdc, readAt: [] };
}

const expectation = (op: ColumnPredicate['op'], values: (string | number)[], mustHold = false): ColumnPredicate => ({ op, values, mustHold, origin: 'expectation' });

describe('determinism', () => {
    const columns = (): RequiredColumn[] => [column('id', Types.bigint), column('amount', Types.decimal(10, 2)), column('city', Types.string), column('seen_at', Types.timestamp)];

    test('the same seed gives the same files; another seed other values', () => {
        const text = (seed: number): string => generateSource(source(columns()), { seed }).files.map(f => f.name + '\n' + fileText(generateSource(source(columns()), { seed }), f)).join('');
        expect(text(7)).toBe(text(7));
        expect(text(7)).not.toBe(text(8));
    });

    test('--rows sets the number of rows; CSV with a header', () => {
        const generated = generateSource(source(columns()), { rows: 5, seed: 1 });
        expect(generated.format).toBe('csv');
        const lines = fileText(generated, generated.files[0]).trimEnd().split('\n');
        expect(lines[0]).toBe('id,amount,city,seen_at');
        expect(lines).toHaveLength(6);
        expect(lines[1]).toMatch(/^\d+,\d+(\.\d{1,2})?,[A-Z][a-z]+,2025-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    test('a struct column makes the file JSON Lines, with nested objects', () => {
        const generated = generateSource(source([column('payload', Types.struct([['amount', Types.int], ['note', Types.string]]))]), { rows: 2 });
        expect(generated.format).toBe('json');
        const first = JSON.parse(fileText(generated, generated.files[0]).split('\n')[0]) as { payload: { amount: unknown; note: unknown } };
        expect(typeof first.payload.amount).toBe('number');
        expect(typeof first.payload.note).toBe('string');
    });
});

describe('predicates', () => {
    const count = (rows: SampleRow[], test: (r: SampleRow) => boolean): number => rows.filter(test).length;

    test('each expectation gets rows that pass and rows that fail it; the literals compared against appear', () => {
        const generated = generateSource(source([
            column('status', Types.string, [], [expectation('in', ['open', 'paid'])]),
            column('email', Types.string, [], [expectation('notnull', [])]),
            column('amount', Types.int, [], [expectation('>', [0])]),
        ]), { seed: 3 });
        const rows = generated.files.flatMap(f => f.rows);
        expect(count(rows, r => r.get('status') === 'open' || r.get('status') === 'paid')).toBeGreaterThan(0);
        expect(count(rows, r => r.get('status') !== 'open' && r.get('status') !== 'paid')).toBeGreaterThan(0);
        expect(count(rows, r => r.get('email') === null)).toBeGreaterThan(0);
        expect(count(rows, r => r.get('email') !== null)).toBeGreaterThan(0);
        expect(count(rows, r => (r.get('amount') as number) > 0)).toBeGreaterThan(0);
        expect(count(rows, r => (r.get('amount') as number) <= 0)).toBeGreaterThan(0);
    });

    test('the rows a WHERE on one column keeps both pass and fail an expectation on another', () => {
        const generated = generateSource(source([
            column('status', Types.string, [], [{ op: '=', values: ['DONE'], mustHold: false, origin: 'where' }]),
            column('amount', Types.int, [], [expectation('>', [100])]),
        ]), { seed: 2 });
        const kept = generated.files.flatMap(f => f.rows).filter(r => r.get('status') === 'DONE');
        expect(kept.some(r => (r.get('amount') as number) > 100)).toBe(true);
        expect(kept.some(r => (r.get('amount') as number) <= 100)).toBe(true);
    });

    test('an expectation that fails the update is never failed', () => {
        const generated = generateSource(source([
            column('amount', Types.int, [], [expectation('>=', [10], true)]),
            column('code', Types.string, [], [expectation('in', ['A', 'B'], true)]),
        ]), { seed: 5, rows: 40 });
        const rows = generated.files.flatMap(f => f.rows);
        expect(rows.every(r => (r.get('amount') as number) >= 10)).toBe(true);
        expect(rows.every(r => r.get('code') === 'A' || r.get('code') === 'B')).toBe(true);
    });
});

describe('predicates on struct fields', () => {
    const field = (path: string[], op: ColumnPredicate['op'], values: (string | number)[], mustHold = false): FieldPredicate =>
        ({ path, predicate: { op, values, mustHold, origin: 'where' } });
    const payload = Types.struct([['status', Types.string], ['amount', Types.int], ['meta', Types.struct([['code', Types.string]])]]);
    const values = (rows: SampleRow[], pick: (p: Record<string, SampleValue>) => SampleValue): SampleValue[] =>
        rows.map(r => pick(r.get('payload') as Record<string, SampleValue>));

    test('payload.status = \'DONE\', payload.amount > 100 and payload.meta.code IN (...) each get passing and failing rows', () => {
        const generated = generateSource(source([column('payload', payload, [], [], [
            field(['status'], '=', ['DONE']), field(['amount'], '>', [100]), field(['meta', 'code'], 'in', ['A', 'B']),
        ])]), { seed: 3 });
        const rows = generated.files.flatMap(f => f.rows);
        const status = values(rows, p => p.status);
        expect(status).toContain('DONE');
        expect(status.some(s => s !== 'DONE')).toBe(true);
        const amount = values(rows, p => p.amount) as number[];
        expect(amount.some(a => a > 100)).toBe(true);
        expect(amount.some(a => a <= 100)).toBe(true);
        const code = values(rows, p => (p.meta as Record<string, SampleValue>).code);
        expect(code.some(c => c === 'A' || c === 'B')).toBe(true);
        expect(code.some(c => c !== 'A' && c !== 'B')).toBe(true);
    });

    test('a field predicate of an expectation that fails the update always holds', () => {
        const generated = generateSource(source([column('payload', payload, [], [], [field(['amount'], '>=', [0], true)])]), { seed: 4, rows: 30 });
        expect(generated.files.flatMap(f => f.rows).every(r => ((r.get('payload') as Record<string, SampleValue>).amount as number) >= 0)).toBe(true);
    });
});

describe('the change feed of an AUTO CDC source', () => {
    const feed = (seed = 1, rows = 20) => generateSource(source([
        column('user_id', Types.bigint, ['key']),
        column('op', Types.string, ['delete'], [{ op: '=', values: ['D'], mustHold: false, origin: 'delete' }, expectation('in', ['I', 'U', 'D'])]),
        column('event_ts', Types.timestamp, ['sequence']),
        column('city', Types.string),
    ], [{ flow: 'users_cdc', snapshot: false, scd: 2 }]), { seed, rows });

    test('two files: inserts of every key first, updates that change values, deletes, a late event and a duplicate in the second', () => {
        const generated = feed();
        expect(generated.files.map(f => f.name)).toEqual(['part-00001.csv', 'part-00002.csv']);
        const [first, second] = generated.files.map(f => f.rows);
        const keys = new Set(first.map(r => r.get('user_id')));
        expect(keys.size).toBeGreaterThanOrEqual(3);
        // Every key is inserted before anything else happens to it.
        expect(first.slice(0, keys.size).every(r => r.get('op') === 'I')).toBe(true);
        const all = [...first, ...second];
        // Updates change the values of some key.
        const cities = new Set(all.filter(r => r.get('user_id') === 1).map(r => r.get('city')));
        expect(cities.size).toBeGreaterThan(1);
        expect(all.some(r => r.get('op') === 'U')).toBe(true);
        // Deletes carry the value APPLY AS DELETE WHEN compares with, in the second file.
        expect(second.filter(r => r.get('op') === 'D').length).toBeGreaterThanOrEqual(1);
        // A late event: a row of the second file older than a row of the same key before it.
        const late = second.some((r, i) => [...first, ...second.slice(0, i)].some(e => e.get('user_id') === r.get('user_id') && String(e.get('event_ts')) > String(r.get('event_ts'))));
        expect(late).toBe(true);
        // An exact duplicate.
        const texts = all.map(r => JSON.stringify([...r]));
        expect(new Set(texts).size).toBeLessThan(texts.length);
        // An operation the expectation does not know, to exercise it.
        expect(all.some(r => !['I', 'U', 'D'].includes(r.get('op') as string))).toBe(true);
    });

    test('the feed is deterministic and sized by --rows', () => {
        const dump = (seed: number): string => JSON.stringify(feed(seed).files.map(f => f.rows.map(r => [...r])));
        expect(dump(4)).toBe(dump(4));
        const small = feed(1, 8).files.flatMap(f => f.rows).length;
        const large = feed(1, 40).files.flatMap(f => f.rows).length;
        expect(large).toBeGreaterThan(small);
        expect(Math.abs(large - 40)).toBeLessThanOrEqual(8);
    });

    test('a snapshot source gets successive snapshots: a changed, an added and a dropped key', () => {
        const generated = generateSource(source([
            column('sku', Types.string, ['key']), column('qty', Types.int), column('day', Types.date, ['snapshotVersion']),
        ], [{ flow: 'snap', snapshot: true, scd: 2 }]), { seed: 2 });
        const rows = generated.files.flatMap(f => f.rows);
        const versions = [...new Set(rows.map(r => r.get('day')))].sort();
        expect(versions).toHaveLength(3);
        const at = (v: SampleValue | undefined) => new Map(rows.filter(r => r.get('day') === v).map(r => [r.get('sku'), r.get('qty')]));
        const [v1, v2, v3] = versions.map(at);
        expect([...v2.keys()].some(k => !v1.has(k))).toBe(true);
        expect([...v2.keys()].some(k => v1.has(k) && v1.get(k) !== v2.get(k))).toBe(true);
        expect([...v2.keys()].some(k => !v3.has(k))).toBe(true);
        expect(generated.files[1].rows.every(r => r.get('day') === versions[2])).toBe(true);
    });
});
