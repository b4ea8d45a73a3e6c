// What the editor shows is what the run produces, for DECIMAL arithmetic (issue 11: one Spark
// rule for both). Spark types `DECIMAL(38,10) * DECIMAL(38,10)` as DECIMAL(38,6) (precision loss
// keeps six fractional digits); the run used to produce DuckDB's DECIMAL(38,20). Each expression is
// typed by the language server (as hover and inlay hints show it) and run by the CLI on a real
// DuckDB; both must give Spark's type, and the run Spark's value.
import { describe, expect, test } from 'vitest';
import { typeAndRun } from '../../../helpers/expression-agreement.js';

const a = 'CAST(a AS DECIMAL(38,10))';
const b = 'CAST(b AS DECIMAL(38,10))';
const p = 'CAST(a AS DECIMAL(10,2))';
const q = 'CAST(b AS DECIMAL(5,3))';
const n = 'CAST(a AS BIGINT)';
/** Expression, Spark's type, Spark's value for a = 1.5, b = 2.25 (CAST(1.5 AS BIGINT) is 1: Spark truncates). */
const cases: Array<[string, string, string]> = [
    [`${a} * ${b}`, 'decimal(38,6)', '3.375'],
    [`${a} + ${b}`, 'decimal(38,9)', '3.75'],
    [`${a} / ${b}`, 'decimal(38,6)', '0.666667'],
    [`${p} + ${q}`, 'decimal(12,3)', '3.75'],
    [`${p} - ${q}`, 'decimal(12,3)', '-0.75'],
    [`${p} * ${q}`, 'decimal(16,5)', '3.375'],
    [`${p} % ${q}`, 'decimal(5,3)', '1.5'],
    [`${p} * 2`, 'decimal(12,2)', '3'],
    // Leading zeros do not count: 007 is DECIMAL(1,0) next to a decimal (Spark's DecimalType.fromLiteral).
    [`${p} * 007`, 'decimal(12,2)', '10.5'],
    [`${p} + ${n}`, 'decimal(23,2)', '2.5'],
    [`sum(${p})`, 'decimal(20,2)', '1.5'],
    // Functions: the catalog's return-type rule is the run's (avg exact, rounded half up; round/ceil/floor to scale 0).
    [`avg(${p})`, 'decimal(14,6)', '1.5'],
    [`round(${p})`, 'decimal(9,0)', '2'],
    [`ceil(${q})`, 'decimal(3,0)', '3'],
    [`floor(${p})`, 'decimal(9,0)', '1'],
];

describe('DECIMAL arithmetic: the editor\'s type is the run\'s type', () => {
    test('each expression, typed by the language server and run by the CLI', async () => {
        const outcomes = await typeAndRun(cases.map(([expr]) => expr), { from: 'FROM VALUES (1.5, 2.25) AS t(a, b)' });
        expect(outcomes.map((o, i) => `${cases[i][0]}: ${o.editor}`)).toEqual(cases.map(([expr, type]) => `${expr}: ${type}`));
        expect(outcomes.map((o, i) => `${cases[i][0]}: ${o.run} ${String(o.value)}`)).toEqual(cases.map(([expr, type, value]) => `${expr}: ${type} ${value}`));
    });
});
