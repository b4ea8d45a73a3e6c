// AST → IR for expressions: Spark's literal typing, special syntax lowered to ordinary calls (the
// conventions at the top of engine/src/ir.ts), constructors with resolved field names, windows.
import { describe, expect, test } from 'vitest';
import { lowerExpr } from './lower-helper.js';

/** `[SQL, printed IR]`: the printer spells every node kind one way (see print-ir.ts). */
type Case = [string, string];

function table(name: string, cases: Case[]): void {
    describe(name, () => {
        test.each(cases)('%s', async (sql, printed) => {
            expect(await lowerExpr(sql)).toBe(printed);
        });
    });
}

table('literals are typed by Spark\'s rules; strings are processed', [
    ['1', '1'],
    ['2147483648', '2147483648:BIGINT'],
    ['9223372036854775808', '9223372036854775808:DECIMAL(19,0)'],
    ['1L', '1:BIGINT'],
    ['1S', '1:SMALLINT'],
    ['1Y', '1:TINYINT'],
    ['1.5', '1.5:DECIMAL(2,1)'],
    ['.5', '0.5:DECIMAL(1,1)'],
    ['0.001', '0.001:DECIMAL(3,3)'],
    ['1.5D', '1.5:DOUBLE'],
    ['1e3', '1e3:DOUBLE'],
    ['1.5F', '1.5:FLOAT'],
    ['1.5BD', '1.5:DECIMAL(2,1)'],
    ['1.5e2BD', '150:DECIMAL(3,0)'],
    ['-1', '(-1)'],
    ['"double quoted"', "'double quoted'"],
    ["'it''s'", "'its'"],
    ["'tab\\there'", "'tab\there'"],
    ["r'C:\\raw'", "'C:\\raw'"],
    ["X'1F'", "X'1f'"],
    ['NULL', 'NULL'],
    ['true', 'true'],
    ["DATE '2024-01-01'", "DATE '2024-01-01'"],
    ["TIMESTAMP '2024-01-01 10:00:00'", "TIMESTAMP '2024-01-01 10:00:00'"],
    ["TIMESTAMP_NTZ '2024-01-01 10:00:00'", '2024-01-01 10:00:00:TIMESTAMP_NTZ'],
]);

table('interval literals are normalised to months, days and microseconds', [
    ["INTERVAL '1' DAY", 'INTERVAL(months 0, days 1, us 0)'],
    ['INTERVAL 1 YEAR 2 MONTHS', 'INTERVAL(months 14, days 0, us 0)'],
    ["INTERVAL '1-2' YEAR TO MONTH", 'INTERVAL(months 14, days 0, us 0)'],
    ["INTERVAL '1 10:30:00.5' DAY TO SECOND", 'INTERVAL(months 0, days 1, us 37800500000)'],
    ["INTERVAL '1 day 2 hours'", 'INTERVAL(months 0, days 1, us 7200000000)'],
    ['INTERVAL -3 HOURS', 'INTERVAL(months 0, days 0, us -10800000000)'],
    ['INTERVAL 2 WEEKS 90 SECONDS', 'INTERVAL(months 0, days 14, us 90000000)'],
]);

table('special syntax becomes ordinary nodes', [
    ['a::int', 'CAST(a AS INT)'],
    ['CAST(a AS DECIMAL(10,2))', 'CAST(a AS DECIMAL(10,2))'],
    ['TRY_CAST(a AS BIGINT)', 'TRY_CAST(a AS BIGINT)'],
    ['EXTRACT(YEAR FROM ts)', "extract('YEAR', ts)"],
    ["POSITION('a' IN s)", "position('a', s)"],
    ['TRIM(s)', 'trim(s)'],
    ["TRIM(BOTH 'x' FROM s)", "trim(s, 'x')"],
    ['TRIM(LEADING FROM s)', 'ltrim(s)'],
    ["TRIM(TRAILING 'y' FROM s)", "rtrim(s, 'y')"],
    ['SUBSTRING(s FROM 2 FOR 3)', 'substring(s, 2, 3)'],
    ['SUBSTR(s FROM 2)', 'substring(s, 2)'],
    ["OVERLAY(s PLACING 'x' FROM 2 FOR 1)", "overlay(s, 'x', 2, 1)"],
    ['current_date', 'current_date()'],
    ['system.builtin.abs(x)', 'abs(x)'],
    [':threshold', '${threshold}'],
    ["IDENTIFIER('col')", 'col'],
    ['current_snapshot_version()', 'current_snapshot_version()'],
]);

table('operators: == is =, != is <>, keyword operators in lower case, shifts are functions', [
    ['a == b AND c != d OR NOT e', '(((a = b) and (c <> d)) or (NOT e))'],
    ['!a', '(NOT a)'],
    ['a <=> b', '(a <=> b)'],
    ['a DIV b', '(a div b)'],
    ['a || b', '(a || b)'],
    ['a + b * c - d / e % f', '((a + (b * c)) - ((d / e) % f))'],
    ['a << 2', 'shiftleft(a, 2)'],
    ['a >> 2', 'shiftright(a, 2)'],
    ['a & b | c ^ d', '((a & b) | (c ^ d))'],
    ['~a', '(~a)'],
]);

table('predicates', [
    ['x NOT IN (1, 2)', '(x NOT IN (1, 2))'],
    ['x IN (SELECT id FROM t)', '((x) IN (SELECT id FROM catalog:t))'],
    ['(a, b) IN (SELECT x, y FROM t)', '((a, b) IN (SELECT x, y FROM catalog:t))'],
    ['x NOT BETWEEN 1 AND 10', '(x NOT BETWEEN 1 AND 10)'],
    ["s LIKE 'a%' ESCAPE '!'", "(s LIKE 'a%' ESCAPE '!')"],
    ["s NOT ILIKE 'A%'", "(s NOT ILIKE 'A%')"],
    ["s REGEXP 'b'", "(s RLIKE 'b')"],
    ["s LIKE ANY ('a%', 'b%')", "(s LIKE ANY ('a%', 'b%'))"],
    ["s LIKE SOME ('a%')", "(s LIKE ANY ('a%'))"],
    ["s NOT LIKE ALL ('a%', 'b%')", "(s NOT LIKE ALL ('a%', 'b%'))"],
    ['x IS NOT NULL', '(x IS NOT NULL)'],
    ['x IS TRUE', '(x IS TRUE)'],
    ['x IS NOT FALSE', '(x IS NOT FALSE)'],
    ['x IS UNKNOWN', '(x IS UNKNOWN)'],
    ['a IS NOT DISTINCT FROM b', '(a IS NOT DISTINCT FROM b)'],
    ['EXISTS (SELECT 1 FROM t)', 'EXISTS (SELECT 1 FROM catalog:t)'],
]);

table('constructors get their IR nodes with Spark\'s field names', [
    ['struct(a, t.b, c.d AS y, 1)', 'struct(a: a, b: t.b, y: c.d, col4: 1)'],
    ['(a AS x, b AS y)', 'struct(x: a, y: b)'],
    ['(a, b)', 'struct(col1: a, col2: b)'],
    ["named_struct('k', 1, 'v', 'x')", "struct(k: 1, v: 'x')"],
    ['array(1, 2)', 'array(1, 2)'],
    ["map('a', 1, 'b', 2)", "map('a': 1, 'b': 2)"],
]);

table('access paths, lambdas, CASE, subqueries', [
    ['s.field', 's.field'],
    ['f(x).y', 'f(x).y'],
    ['arr[0]', 'arr[0]'],
    ["m['k']", "m['k']"],
    ['j:a.b[0]', 'j:$.a.b[0]'],
    ["j:['a b'].c", 'j:$.a b.c'],
    ['transform(arr, x -> x + 1)', 'transform(arr, ((x) -> (x + 1)))'],
    ['aggregate(arr, 0, (acc, x) -> acc + x)', 'aggregate(arr, 0, ((acc, x) -> (acc + x)))'],
    ["CASE WHEN a > 1 THEN 'x' ELSE 'z' END", "CASE WHEN (a > 1) THEN 'x' ELSE 'z' END"],
    ["CASE a WHEN 1 THEN 'one' END", "CASE a WHEN 1 THEN 'one' END"],
    ['(SELECT max(x) FROM t)', '(SELECT max(x) FROM catalog:t)'],
    ['`weird col`', 'weird col'],
]);

table('aggregates and windows', [
    ['count(*)', 'count(*)'],
    ['count(DISTINCT a)', 'count(DISTINCT a)'],
    ['sum(x) FILTER (WHERE x > 0)', 'sum(x) FILTER (WHERE (x > 0))'],
    ['first(x IGNORE NULLS)', 'first(x IGNORE NULLS)'],
    ['last(x) IGNORE NULLS OVER (ORDER BY t)', 'last(x IGNORE NULLS) OVER (ORDER BY t)'],
    ['row_number() OVER (PARTITION BY k ORDER BY t DESC NULLS LAST)', 'row_number() OVER (PARTITION BY k ORDER BY t DESC NULLS LAST)'],
    ['sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)', 'sum(x) OVER (ORDER BY t ROWS UNBOUNDED PRECEDING TO CURRENT ROW)'],
    ['sum(x) OVER (ORDER BY t RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING)', 'sum(x) OVER (ORDER BY t RANGE 1 PRECEDING TO 2 FOLLOWING)'],
    ['avg(x) OVER (ROWS 2 PRECEDING)', 'avg(x) OVER (ROWS 2 PRECEDING)'],
    ['percentile_cont(0.5) WITHIN GROUP (ORDER BY x)', 'percentile_cont(0.5:DECIMAL(1,1)) WITHIN GROUP (ORDER BY x)'],
    ["to_json(s, map('pretty', 'true'))", "to_json(s, map('pretty': 'true'))"],
    ["read_json_field(doc => j, path => '$.a')", "read_json_field(doc => j, path => '$.a')"],
]);
