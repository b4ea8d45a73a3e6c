import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { AST } from '../../../../server/src/language/index.js';
import { createParser, createTestServices } from '../../../helpers/parse.js';
import { printExpression } from '../../../helpers/print-ast.js';

const { shared, services } = createTestServices();
const parse = createParser(services);

afterEach(() => clearDocuments(shared));

/** Parses `SELECT <expression>` and prints the expression fully parenthesised. */
async function expression(text: string): Promise<string> {
    const { statements, diagnostics } = await parse(`SELECT ${text}`);
    expect(diagnostics).toEqual([]);
    const query = statements[0];
    if (!AST.isQuery(query) || !AST.isSelectQuery(query.body)) {
        throw new Error(`not a SELECT: ${text}`);
    }
    return printExpression(query.body.items[0].expression);
}

/** Each case is `[source, fully parenthesised tree]`. */
type Cases = Array<[string, string]>;

function check(cases: Cases): void {
    test.each(cases)('%s', async (source, printed) => {
        expect(await expression(source)).toBe(printed);
    });
}

describe('operator precedence follows Spark', () => {
    check([
        ['a OR b AND c', '(a OR (b AND c))'],
        ['a and b or c and d', '((a AND b) OR (c AND d))'],
        ['NOT a = b AND c', '((NOT (a = b)) AND c)'],
        ['!a', '(NOT a)'],
        ['NOT NOT a', '(NOT (NOT a))'],
        ['a + b * c - d', '((a + (b * c)) - d)'],
        ['a - b - c', '((a - b) - c)'],
        ['a div b * c % d', '(((a DIV b) * c) % d)'],
        ['a || b + c', '((a || b) + c)'],
        ['a << 2 + 1', '(a << (2 + 1))'],
        ['a >> 1 >>> 2', '((a >> 1) >>> 2)'],
        ['a | b & c ^ d', '(a | ((b & c) ^ d))'],
        ['a & b = c', '((a & b) = c)'],
        ['a = b <=> c', '((a = b) <=> c)'],
        ['a == b AND c != d AND e <> f', '(((a == b) AND (c != d)) AND (e <> f))'],
        // Spark's parser balances AND / OR chains (AstBuilder.visitLogicalBinary), so a long chain is shallow.
        ['a < b OR a <= b OR a > b OR a >= b', '(((a < b) OR (a <= b)) OR ((a > b) OR (a >= b)))'],
        ['a AND b AND c AND d AND e OR f', '((((a AND b) AND c) AND (d AND e)) OR f)'],
        ['a OR b AND c OR d AND e AND f', '((a OR (b AND c)) OR ((d AND e) AND f))'],
        ['a - b - c - d + e', '((((a - b) - c) - d) + e)'],
        ['a || b + c * d - e / f', '(((a || b) + (c * d)) - (e / f))'],
        ['-a * b', '((- a) * b)'],
        ['~a + 1', '((~ a) + 1)'],
        ['-x::int', '(- CAST(x AS INT))'],
    ]);
});

describe('predicates', () => {
    check([
        ['a + 1 BETWEEN 1 AND 2 AND c', '(((a + 1) BETWEEN 1 AND 2) AND c)'],
        ['a NOT BETWEEN 1 AND 2', '(a NOT BETWEEN 1 AND 2)'],
        ['a NOT IN (1, 2)', '(a NOT IN (1, 2))'],
        ['a LIKE \'x%\' ESCAPE \'!\'', '(a LIKE \'x%\' ESCAPE \'!\')'],
        ['a NOT ILIKE ANY (\'a\', \'b\')', '(a NOT ILIKE ANY (\'a\', \'b\'))'],
        ['a RLIKE \'^x\' OR a REGEXP \'y\'', '((a RLIKE \'^x\') OR (a REGEXP \'y\'))'],
        ['a IS NOT NULL', '(a IS NOT NULL)'],
        ['a IS NOT TRUE', '(a IS NOT TRUE)'],
        ['a IS DISTINCT FROM b', '(a IS DISTINCT FROM b)'],
        ['a = 1 IS NULL', '((a = 1) IS NULL)'],
    ]);

    test('IN (subquery) and EXISTS keep the query', async () => {
        expect(await expression('a IN (SELECT x FROM t)')).toBe(
            '(a IN (Query(body: SelectQuery(items: [SelectItem(expression: x)], from: FromClause(relations: [TableReference(table: DatasetRef(ref: @t))])))))');
        expect(await expression('NOT EXISTS (SELECT 1)')).toBe('(NOT EXISTS (Query(body: SelectQuery(items: [SelectItem(expression: 1)]))))');
    });
});

describe('literals', () => {
    check([
        ['1L + 2S + 3Y + 1.5BD + 1D + 1F + 1e10 + .5', '(((((((1L + 2S) + 3Y) + 1.5BD) + 1D) + 1F) + 1e10) + .5)'],
        ['\'a\' \'b\' "c"', '\'abc\''],
        ['\'it\\\'s\\n\'', '\'it\'s\n\''],
        ['r\'C:\\path\'', '\'C:\\path\''],
        ['DATE \'2024-01-01\'', 'DATE \'2024-01-01\''],
        ['TIMESTAMP\'2024-01-01 00:00:00\'', 'TIMESTAMP \'2024-01-01 00:00:00\''],
        ['timestamp_ntz \'2024-01-01\'', 'TIMESTAMP_NTZ \'2024-01-01\''],
        ['X\'1F\'', 'X\'1F\''],
        ['INTERVAL \'1-2\' YEAR TO MONTH', 'INTERVAL \'1-2\' YEAR TO MONTH'],
        ['INTERVAL 1 DAY -2 HOURS', 'INTERVAL 1 DAY -2 HOURS'],
        ['INTERVAL 1 DAY - x', '(INTERVAL 1 DAY - x)'],
        ['interval \'1 day\'', 'INTERVAL \'1 day\''],
        ['TRUE AND NULL', '(TRUE AND NULL)'],
        [':p + ?', '(:p + ?)'],
    ]);
});

describe('access, casts and JSON paths', () => {
    check([
        ['x::int + 1', '(CAST(x AS INT) + 1)'],
        ['CAST(x AS DECIMAL(10, 2))', 'CAST(x AS DECIMAL(10, 2))'],
        ['TRY_CAST(x AS ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<INT>>>>)', 'TRY_CAST(x AS ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<INT>>>>)'],
        ['raw:a.b[0]::string', 'CAST(raw:a.b[0] AS STRING)'],
        ['raw:[\'key\'].c', 'raw:[\'key\'].c'],
        ['arr[0].f', 'arr[0].f'],
        ['m[\'k\']', 'm[\'k\']'],
        ['f(x).field', 'f(x).field'],
        ['t.c.d', 't.c.d'],
        ['t.end', 't.end'],
        ['t.*', 't.*'],
        ['* EXCEPT (a, b.c)', '* EXCEPT (a, b.c)'],
        ['(a, b)', '(a, b)'],
        ['(0 AS sum, 0 AS n)', '(0 AS sum, 0 AS n)'],
    ]);
});

describe('functions and special forms', () => {
    check([
        ['count(DISTINCT a, b)', 'count(DISTINCT a, b)'],
        ['count(*)', 'count(*)'],
        ['percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC)', 'percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC)'],
        ['first(x IGNORE NULLS)', 'first(x IGNORE NULLS)'],
        ['first_value(x) RESPECT NULLS OVER w', 'first_value(x) RESPECT NULLS OVER w'],
        ['sum(x) FILTER (WHERE y) OVER (PARTITION BY a ORDER BY b NULLS LAST RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW)',
            'sum(x) FILTER (WHERE y) OVER (PARTITION BY a ORDER BY b NULLS LAST RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW)'],
        ['row_number() OVER (ORDER BY a ROWS UNBOUNDED PRECEDING)', 'row_number() OVER (ORDER BY a ROWS UNBOUNDED PRECEDING)'],
        ['read_files(\'p\', format => \'json\')', 'read_files(\'p\', format => \'json\')'],
        ['STRUCT(a AS x, b)', 'STRUCT(a AS x, b)'],
        ['transform(xs, x -> x + 1)', 'transform(xs, (x) -> (x + 1))'],
        ['reduce(xs, 0, (acc, x) -> acc + x)', 'reduce(xs, 0, (acc, x) -> (acc + x))'],
        ['left(name, 2) || right(name, 1)', '(left(name, 2) || right(name, 1))'],
        ['CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END', 'CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END'],
        ['CASE x WHEN 1 THEN \'a\' END', 'CASE x WHEN 1 THEN \'a\' END'],
        ['EXTRACT(YEAR FROM d)', 'EXTRACT(YEAR FROM d)'],
        ['POSITION(\'a\' IN s)', 'POSITION(\'a\' IN s)'],
        ['position(\'a\', s)', 'position(\'a\', s)'],
        ['TRIM(BOTH \'x\' FROM s)', 'TRIM(BOTH \'x\' FROM s)'],
        ['TRIM(LEADING FROM s)', 'TRIM(LEADING FROM s)'],
        ['trim(s)', 'trim(s)'],
        ['SUBSTRING(s FROM 2 FOR 3)', 'SUBSTRING(s FROM 2 FOR 3)'],
        ['substring(s, 2, 3)', 'substring(s, 2, 3)'],
        ['OVERLAY(s PLACING \'x\' FROM 2 FOR 1)', 'OVERLAY(s PLACING \'x\' FROM 2 FOR 1)'],
        ['IDENTIFIER(\'abs\')(c1) + IDENTIFIER(\'a\' || \'b\')', '(abs(c1) + ab)'],
    ]);
});

describe('parentheses: a subquery, a query in parentheses, a tuple, a struct, a lambda or a grouping', () => {
    const select1 = 'Query(body: SelectQuery(items: [SelectItem(expression: 1)]))';
    check([
        ['((SELECT 1) + 1)', `((${select1}) + 1)`],
        ['((SELECT 1))', `(${select1})`],
        ['((SELECT 1) UNION (SELECT 2))',
            '(Query(body: SetOperation(left: ParenthesizedQuery(query: Query(body: SelectQuery(items: [SelectItem(expression: 1)]))), '
            + 'operator: \'UNION\', right: ParenthesizedQuery(query: Query(body: SelectQuery(items: [SelectItem(expression: 2)]))))))'],
        ['((SELECT 1) LIMIT 1)', `(Query(body: ParenthesizedQuery(query: ${select1}), limit: 1))`],
        ['(TABLE t)', '(Query(body: TableQuery(table: DatasetRef(ref: @t))))'],
        ['(((a + 1) * 2))', '((a + 1) * 2)'],
        ['((1, 2), (3, 4))', '((1, 2), (3, 4))'],
        ['((1 AS a, 2 AS b))', '(1 AS a, 2 AS b)'],
        ['((a, b) -> a + b)', '(a, b) -> (a + b)'],
        ['a IN ((1), (2))', '(a IN (1, 2))'],
        ['a IN ((SELECT 1) UNION (SELECT 2))',
            '(a IN (Query(body: SetOperation(left: ParenthesizedQuery(query: Query(body: SelectQuery(items: [SelectItem(expression: 1)]))), '
            + 'operator: \'UNION\', right: ParenthesizedQuery(query: Query(body: SelectQuery(items: [SelectItem(expression: 2)])))))))'],
        ['EXISTS ((SELECT 1))', `EXISTS (Query(body: ParenthesizedQuery(query: ${select1})))`],
        ['EXISTS (TABLE t)', 'EXISTS (Query(body: TableQuery(table: DatasetRef(ref: @t))))'],
        ['exists(xs, x -> x > 0)', 'exists(xs, (x) -> (x > 0))'],
        [`${'('.repeat(25)}a + 1${')'.repeat(25)}`, '(a + 1)'],
        ['(((((((id + 1) * 2) - 3) / 4) + 5) * 6) - 7)', '(((((((id + 1) * 2) - 3) / 4) + 5) * 6) - 7)'],
    ]);
});

describe('special forms nested in calls of the same name', () => {
    check([
        ['substring(substring(s FROM 2), 1, 2)', 'substring(SUBSTRING(s FROM 2), 1, 2)'],
        ['SUBSTRING(substring(s, 1) FROM 2)', 'SUBSTRING(substring(s, 1) FROM 2)'],
        ['trim(trim(BOTH \'x\' FROM s))', 'trim(TRIM(BOTH \'x\' FROM s))'],
        ['position(POSITION(\'a\' IN s), t)', 'position(POSITION(\'a\' IN s), t)'],
        ['overlay(OVERLAY(s PLACING \'x\' FROM 2), \'y\', 1)', 'overlay(OVERLAY(s PLACING \'x\' FROM 2), \'y\', 1)'],
        ['substring(a IS DISTINCT FROM b, 1)', 'substring((a IS DISTINCT FROM b), 1)'],
    ]);
});
