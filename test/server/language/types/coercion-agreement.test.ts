// What the editor shows is what the run produces, where Spark's coercion rules differ from DuckDB's
// (issue 11: one Spark rule for both). Each expression is typed by the language server and run by
// the CLI; both must give Spark's type, and the run Spark's value. Spark runs with ANSI mode on (the
// Databricks default the Spark module follows): a STRING in arithmetic or compared with a number is
// cast to BIGINT next to an integral type and to DOUBLE next to a decimal or floating one.
import { describe, expect, test } from 'vitest';
import { typeAndRun } from '../../../helpers/expression-agreement.js';

const from = "FROM VALUES (DATE'2024-01-31', TIMESTAMP'2024-01-31 10:00:00', '7', 3, CAST(1.5 AS DECIMAL(10,2))) AS t(d, ts, s, n, p)";

/** Expression, Spark's type, Spark's value (d = 2024-01-31, ts = 2024-01-31 10:00, s = '7', n = 3, p = 1.50). */
type Case = [string, string, unknown];

async function expectSpark(cases: Case[]): Promise<void> {
    const outcomes = await typeAndRun(cases.map(c => c[0]), { from });
    const spark = cases.map(([expr, type, value]) => `${expr}: ${type} ${JSON.stringify(value)}`);
    expect(outcomes.map((o, i) => `${cases[i][0]}: ${o.editor}`)).toEqual(cases.map(([expr, type]) => `${expr}: ${type}`));
    expect(outcomes.map((o, i) => `${cases[i][0]}: ${o.run} ${JSON.stringify(o.value)}`)).toEqual(spark);
}

describe('the editor\'s type is the run\'s type, and the run gives Spark\'s value', () => {
    test('a DATE plus an interval of months or of whole days stays a DATE (Spark\'s DateAddYMInterval, DateAdd); plus hours it is a TIMESTAMP', async () => {
        await expectSpark([
            ['d + INTERVAL 1 MONTH', 'date', '2024-02-29'],
            ['INTERVAL 1 MONTH + d', 'date', '2024-02-29'],
            ["d + INTERVAL '1' DAY", 'date', '2024-02-01'],
            ['d - INTERVAL 1 DAY', 'date', '2024-01-30'],
            ["d + INTERVAL '1-2' YEAR TO MONTH", 'date', '2025-03-31'],
            ['d + INTERVAL 1 MONTH 2 DAYS', 'date', '2024-03-02'],
            ['d + INTERVAL 36 HOURS', 'timestamp', '2024-02-01 12:00:00'],
            ['ts + INTERVAL 1 MONTH', 'timestamp', '2024-02-29 10:00:00'],
        ]);
    }, 120_000);

    test('an interval keeps its fields and a column of NULLs is void in the stored result (DuckDB stores one INTERVAL type and no NULL type)', async () => {
        // The CLI writes an interval's value in its own notation (Spark would print INTERVAL '02' HOUR); the quantity is Spark's.
        await expectSpark([
            ["d - DATE'2024-01-01'", 'interval day', 'INTERVAL 30 days'],
            ['INTERVAL 1 DAY', 'interval day', 'INTERVAL 1 days'],
            ['INTERVAL 2 HOURS', 'interval hour', 'INTERVAL 7200 seconds'],
            ["INTERVAL '1-2' YEAR TO MONTH", 'interval year to month', 'INTERVAL 14 months'],
            ['NULL', 'void', null],
        ]);
    }, 120_000);

    test('a STRING in arithmetic is a BIGINT next to an integral number and a DOUBLE next to a decimal or another STRING (ANSI)', async () => {
        await expectSpark([
            ['s + 1', 'bigint', 8],
            ['s - n', 'bigint', 4],
            ['s * p', 'double', 10.5],
            ['s / 2', 'double', 3.5],
            ["'2' + '3'", 'double', 5],
        ]);
    }, 120_000);

    test('CASE, IF, COALESCE, NVL and greatest widen their values to the common type of any types, not only numbers', async () => {
        await expectSpark([
            ['CASE WHEN n > 1 THEN s ELSE 0 END', 'bigint', 7],
            ['CASE WHEN n > 5 THEN d ELSE ts END', 'timestamp', '2024-01-31 10:00:00'],
            ['if(n > 1, d, ts)', 'timestamp', '2024-01-31 00:00:00'],
            ['coalesce(NULL, s, 1)', 'bigint', 7],
            ['nvl(s, n)', 'bigint', 7],
            ['greatest(s, n)', 'bigint', 7],
        ]);
    }, 120_000);

    test('a STRING compared with a number, a DATE or in IN / BETWEEN is cast to the comparison type (DOUBLE against a decimal)', async () => {
        await expectSpark([
            // Spark compares 1.5 with 1.5000001 as DOUBLE; read as the decimal's DECIMAL(10,2) the text would be 1.50.
            ["p = '1.5000001'", 'boolean', false],
            ['s > 10', 'boolean', false],
            ['s IN (7, 8)', 'boolean', true],
            ['s BETWEEN 5 AND 10', 'boolean', true],
            ["d = '2024-01-31'", 'boolean', true],
            ["CASE s WHEN 7 THEN 'seven' ELSE 'other' END", 'string', 'seven'],
        ]);
    }, 120_000);
});
