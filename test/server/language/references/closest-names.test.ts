import { describe, expect, test } from 'vitest';
import { closestNames, closestNamesIn, editDistance, NameIndex } from '../../../../server/src/language/references/dataset-names.js';
import { prng } from '../../../helpers/prng.js';

/** closestNames as its documentation states it, with the full edit distance (the reference for the bounded one). */
function reference(name: string, candidates: string[], limit = 3): string[] {
    const key = name.toLowerCase();
    const max = Math.min(3, Math.ceil(key.length / 3));
    const seen = new Set<string>();
    return candidates.filter(c => {
        const lower = c.toLowerCase();
        const fresh = lower !== key && !seen.has(lower);
        seen.add(lower);
        return fresh;
    }).map(candidate => ({ candidate, distance: editDistance(key, candidate.toLowerCase()) }))
        .filter(s => s.distance <= max)
        .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate)).slice(0, limit).map(s => s.candidate);
}

describe('did-you-mean suggestions', () => {
    test('cdc_data.user proposes users first, then names two edits away', () => {
        expect(closestNames('user', ['users', 'orders', 'uber', 'customers'])).toEqual(['uber', 'users']);
        expect(closestNames('custmer_silver', ['customer_silver', 'customers_silver', 'sales_orders_silver'])).toEqual(['customer_silver', 'customers_silver']);
    });

    test('the bounded edit distance gives the same suggestions as the full one (2,000 random names against 200 candidates)', () => {
        const random = prng(13);
        const word = (): string => Array.from({ length: 3 + Math.floor(random() * 9) }, () => 'abcdeor_s1'[Math.floor(random() * 10)]).join('');
        const candidates = Array.from({ length: 200 }, word);
        for (let i = 0; i < 2000; i++) {
            const name = random() < 0.5 ? word() : candidates[Math.floor(random() * candidates.length)].slice(1);
            if (name.length < 3) {
                continue; // short names take another rule (a letter more or less), without edit distances
            }
            expect(closestNames(name, candidates), name).toEqual(reference(name, candidates));
        }
    });

    test('suggestions from the index of a pipeline\'s names are those of comparing every name (2,000 random names against 2,000 candidates)', () => {
        const random = prng(31);
        const word = (): string => Array.from({ length: 1 + Math.floor(random() * 14) }, () => 'abcdeOR_s1'[Math.floor(random() * 10)]).join('');
        const candidates = Array.from({ length: 2000 }, word);
        const index = new NameIndex(candidates);
        for (let i = 0; i < 2000; i++) {
            const pick = candidates[Math.floor(random() * candidates.length)];
            const name = random() < 0.3 ? word() : random() < 0.5 ? pick.slice(1) : `${pick}${word().slice(0, 2)}`;
            const more = Array.from({ length: Math.floor(random() * 3) }, word);
            expect(closestNamesIn(name, index, more), name).toEqual(closestNames(name, [...candidates, ...more]));
        }
    });

    test('the index proposes the names a few edits away among 10,000 datasets', () => {
        const names = Array.from({ length: 10000 }, (_, i) => `silver_orders_${i}`);
        const index = new NameIndex([...names, 'Bronze_Orders', 'bronze_orders']);
        const suggestions = closestNamesIn('silver_ordrs_42', index);
        expect(suggestions[0]).toBe('silver_orders_42');
        expect(suggestions.slice(1).map(s => editDistance('silver_ordrs_42', s))).toEqual([2, 2]);
        expect(suggestions).toEqual(closestNames('silver_ordrs_42', names));
        expect(closestNamesIn('bronze_order', index, ['bronze_orders_cte'])).toEqual(['Bronze_Orders']);
        expect(closestNamesIn('events_1', index)).toEqual([]);
    });
});
