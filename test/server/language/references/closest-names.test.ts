import { describe, expect, test } from 'vitest';
import { closestNames, editDistance } from '../../../../server/src/language/references/dataset-names.js';
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
});
