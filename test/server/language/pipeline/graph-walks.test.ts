import { describe, expect, test } from 'vitest';
import { depthFirst, stronglyConnectedComponents } from '../../../../server/src/language/pipeline/graph-walks.js';
import { prng } from '../../../helpers/prng.js';

/** A random directed graph over nodes 0..n-1 (adjacency lists), from a seed. */
function randomGraph(seed: number, n: number, edges: number): number[][] {
    const next = prng(seed);
    const adjacency: number[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < edges; i++) {
        adjacency[Math.floor(next() * n)].push(Math.floor(next() * n));
    }
    return adjacency;
}

/** The reference: Tarjan's algorithm written recursively, as the pipeline model had it. */
function recursiveComponents(adjacency: number[][]): number[][] {
    const index = new Map<number, number>();
    const low = new Map<number, number>();
    const onStack = new Set<number>();
    const stack: number[] = [];
    const components: number[][] = [];
    let counter = 0;
    const visit = (v: number): void => {
        index.set(v, counter);
        low.set(v, counter++);
        stack.push(v);
        onStack.add(v);
        for (const w of adjacency[v]) {
            if (!index.has(w)) {
                visit(w);
                low.set(v, Math.min(low.get(v)!, low.get(w)!));
            } else if (onStack.has(w)) {
                low.set(v, Math.min(low.get(v)!, index.get(w)!));
            }
        }
        if (low.get(v) === index.get(v)) {
            const component: number[] = [];
            let w: number;
            do {
                w = stack.pop()!;
                onStack.delete(w);
                component.push(w);
            } while (w !== v);
            components.push(component);
        }
    };
    adjacency.forEach((_, v) => index.has(v) || visit(v));
    return components;
}

describe('graph walks with explicit stacks', () => {
    test('strongly connected components agree with recursive Tarjan on 300 random graphs', () => {
        for (let seed = 1; seed <= 300; seed++) {
            const n = 1 + (seed % 40);
            const adjacency = randomGraph(seed, n, (seed * 7) % (3 * n + 1));
            expect(stronglyConnectedComponents(adjacency.keys(), v => adjacency[v]), `seed ${seed}`).toEqual(recursiveComponents(adjacency));
        }
    });

    test('depth-first enter and leave come in the order of a recursive walk, each node once', () => {
        for (let seed = 1; seed <= 100; seed++) {
            const adjacency = randomGraph(seed, 20, 40);
            const expected: string[] = [];
            const seen = new Set<number>();
            const visit = (v: number): void => {
                seen.add(v);
                expected.push(`enter ${v}`);
                adjacency[v].forEach(w => seen.has(w) || visit(w));
                expected.push(`leave ${v}`);
            };
            [0, 5, 10].forEach(v => seen.has(v) || visit(v));
            const actual: string[] = [];
            depthFirst([0, 5, 10], v => adjacency[v], { enter: v => actual.push(`enter ${v}`), leave: v => actual.push(`leave ${v}`) });
            expect(actual, `seed ${seed}`).toEqual(expected);
        }
    });

    test('skipped nodes are neither entered nor walked through', () => {
        const adjacency = [[1], [2], [3], []];
        const left: number[] = [];
        depthFirst([0], v => adjacency[v], { skip: v => v === 2, leave: v => left.push(v) });
        expect(left).toEqual([1, 0]);
    });

    test('a chain and a cycle of 200,000 nodes are walked without exhausting the call stack', () => {
        const n = 200_000;
        const chain = (v: number): number[] => (v + 1 < n ? [v + 1] : []);
        let left = 0;
        depthFirst([0], chain, { leave: () => left++ });
        expect(left).toBe(n);
        const cycle = stronglyConnectedComponents([0], v => [(v + 1) % n]);
        expect(cycle.map(c => c.length)).toEqual([n]);
    });
});
