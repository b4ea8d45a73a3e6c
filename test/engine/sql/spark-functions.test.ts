// Table-driven Spark behaviours that the DuckDB translation must reproduce, checked by running
// DuckDB. The cases and their sources are in ./spark-cases.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Evaluator } from '../helpers/evaluate.js';
import { errors, queries, reference, seed, type SparkCase } from './spark-cases.js';

let evaluator: Evaluator;
beforeAll(async () => {
    evaluator = await Evaluator.open();
});
afterAll(() => evaluator.close());

async function check(c: SparkCase): Promise<void> {
    const result = c.query ? await evaluator.query(c.query) : await evaluator.expr(c.expr!);
    if (c.error) {
        expect('error' in result ? result.error : { unexpectedRows: (result as { rows: unknown }).rows }, c.sql).toBe(c.error);
        return;
    }
    if ('error' in result) {
        throw new Error(`${c.sql}: ${result.error}: ${result.message}\n${result.sql ?? ''}`);
    }
    expect(result.rows.map(r => r[0]), `${c.sql}\n${result.sql}`).toEqual(c.expected);
}

describe('Spark behaviours of the seed (spark-on-duckdb.md)', () => {
    for (const c of seed) {
        it(c.sql, () => check(c));
    }
});

describe("Spark's function reference examples", () => {
    for (const c of reference) {
        it(c.sql, () => check(c));
    }
});

describe('query shapes', () => {
    for (const c of queries) {
        it(c.sql, () => check(c));
    }
});

describe('Spark errors are errors', () => {
    for (const c of errors) {
        it(c.sql, () => check(c));
    }
});
