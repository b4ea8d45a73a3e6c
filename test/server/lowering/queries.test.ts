// AST → IR for queries and FROM items: WITH, set operations, VALUES, TABLE, GROUP BY forms, windows,
// joins, lateral views, table functions, read_files, PIVOT / UNPIVOT and pipe operators.
import { describe, expect, test } from 'vitest';
import { lower, lowerQuery } from './lower-helper.js';
import { printExpr } from './print-ir.js';

type Case = [string, string];

function table(name: string, cases: Case[]): void {
    describe(name, () => {
        test.each(cases)('%s', async (sql, printed) => {
            expect(await lowerQuery(sql)).toBe(printed);
        });
    });
}

table('query structure', [
    ['WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x FROM a) SELECT * FROM b', 'WITH a AS (SELECT 1 AS x), b(y) AS (SELECT x FROM cte:a) SELECT * FROM cte:b'],
    ['WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
        'WITH RECURSIVE r AS ((SELECT 1 AS n) UNION ALL (SELECT (n + 1) FROM cte:r WHERE (n < 3))) SELECT * FROM cte:r'],
    ['SELECT DISTINCT a FROM t ORDER BY a DESC LIMIT 10 OFFSET 5', 'SELECT DISTINCT a FROM catalog:t ORDER BY a DESC LIMIT 10 OFFSET 5'],
    ['SELECT a FROM t DISTRIBUTE BY a SORT BY a', 'SELECT a FROM catalog:t ORDER BY a'],
    ['SELECT a FROM t LIMIT ALL', 'SELECT a FROM catalog:t'],
    ['SELECT * EXCEPT (b), t.*, LIVE.t.* FROM t', 'SELECT * EXCEPT (b), t.*, t.* FROM catalog:t'],
    ['SELECT a FROM t UNION SELECT a FROM u UNION ALL SELECT a FROM v',
        '((SELECT a FROM catalog:t) UNION (SELECT a FROM catalog:u)) UNION ALL (SELECT a FROM catalog:v)'],
    ['SELECT a FROM t INTERSECT SELECT a FROM u EXCEPT ALL SELECT a FROM v MINUS SELECT a FROM w',
        '(((SELECT a FROM catalog:t) INTERSECT (SELECT a FROM catalog:u)) EXCEPT ALL (SELECT a FROM catalog:v)) EXCEPT (SELECT a FROM catalog:w)'],
    ["VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')"],
    ["SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(id, name)", "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, name)"],
    ['SELECT * FROM (VALUES 1, 2) t(x)', 'SELECT * FROM (VALUES (1), (2)) AS t(x)'],
    ['TABLE t', 'SELECT * FROM catalog:t'],
    ['FROM t SELECT a WHERE b > 1', 'SELECT a FROM catalog:t WHERE (b > 1)'],
    ['SELECT explode(arr) AS item, posexplode(arr) AS (p, v) FROM t', 'SELECT explode(arr) AS item, posexplode(arr) AS (p, v) FROM catalog:t'],
]);

table('grouping and windows', [
    ['SELECT a, count(*) FROM t GROUP BY ALL', 'SELECT a, count(*) FROM catalog:t GROUP BY ALL'],
    ['SELECT a, b, sum(c) FROM t GROUP BY ROLLUP (a, b)', 'SELECT a, b, sum(c) FROM catalog:t GROUP BY ROLLUP(a, b)'],
    ['SELECT a, b, sum(c) FROM t GROUP BY CUBE (a, b)', 'SELECT a, b, sum(c) FROM catalog:t GROUP BY CUBE(a, b)'],
    ['SELECT a, b, sum(c) FROM t GROUP BY a, b WITH ROLLUP', 'SELECT a, b, sum(c) FROM catalog:t GROUP BY ROLLUP(a, b)'],
    ['SELECT a, b, sum(c) FROM t GROUP BY GROUPING SETS ((a, b), (a), ())', 'SELECT a, b, sum(c) FROM catalog:t GROUP BY GROUPING SETS ((a, b), (a), ())'],
    ['SELECT a, sum(b) FROM t GROUP BY a HAVING sum(b) > 1', 'SELECT a, sum(b) FROM catalog:t GROUP BY a HAVING (sum(b) > 1)'],
    ['SELECT a, row_number() OVER w AS rn FROM t WINDOW w AS (PARTITION BY a ORDER BY b) QUALIFY rn = 1',
        'SELECT a, row_number() OVER (w) AS rn FROM catalog:t WINDOW w AS (PARTITION BY a ORDER BY b) QUALIFY (rn = 1)'],
    ['SELECT a, sum(b) OVER (w ROWS 1 PRECEDING) FROM t WINDOW w AS (ORDER BY a)',
        'SELECT a, sum(b) OVER (w ROWS 1 PRECEDING) FROM catalog:t WINDOW w AS (ORDER BY a)'],
]);

table('joins and FROM items', [
    ['SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (id) RIGHT JOIN d ON true FULL OUTER JOIN e ON true',
        'SELECT * FROM ((((catalog:a INNER JOIN catalog:b ON (a.id = b.id)) LEFT JOIN catalog:c USING (id)) RIGHT JOIN catalog:d ON true) FULL JOIN catalog:e ON true)'],
    ['SELECT * FROM a CROSS JOIN b NATURAL JOIN c LEFT SEMI JOIN d ON a.x = d.x LEFT ANTI JOIN e ON a.x = e.x',
        'SELECT * FROM ((((catalog:a CROSS JOIN catalog:b) NATURAL INNER JOIN catalog:c) SEMI JOIN catalog:d ON (a.x = d.x)) ANTI JOIN catalog:e ON (a.x = e.x))'],
    ['SELECT * FROM a SEMI JOIN b ON true ANTI JOIN c ON true', 'SELECT * FROM ((catalog:a SEMI JOIN catalog:b ON true) ANTI JOIN catalog:c ON true)'],
    ['SELECT * FROM a, b WHERE a.id = b.id', 'SELECT * FROM catalog:a, catalog:b WHERE (a.id = b.id)'],
    ['SELECT * FROM (a JOIN b ON a.id = b.id)', 'SELECT * FROM (catalog:a INNER JOIN catalog:b ON (a.id = b.id))'],
    ['SELECT * FROM (a JOIN b ON a.id = b.id) AS j', 'SELECT * FROM (SELECT * FROM (catalog:a INNER JOIN catalog:b ON (a.id = b.id))) AS j'],
    ['SELECT * FROM (SELECT 1 AS x) AS s(y), LATERAL (SELECT y + 1 AS z)', 'SELECT * FROM (SELECT 1 AS x) AS s(y), LATERAL (SELECT (y + 1) AS z)'],
    ['SELECT * FROM t LATERAL VIEW explode(arr) e AS item', 'SELECT * FROM catalog:t LATERAL VIEW explode(arr) e AS item'],
    ['SELECT * FROM t, u LATERAL VIEW OUTER posexplode(arr) AS pos, item LATERAL VIEW inline(structs) s AS a, b',
        'SELECT * FROM (catalog:t CROSS JOIN catalog:u) LATERAL VIEW OUTER posexplode(arr) AS pos, item LATERAL VIEW inline(structs) s AS a, b'],
    ['SELECT * FROM range(0, 10, 2) AS r(id)', 'SELECT * FROM range(0, 10, 2) AS r(id)'],
    ['SELECT * FROM explode(array(1, 2)) AS e(x)', 'SELECT * FROM explode(array(1, 2)) AS e(x)'],
    ['SELECT * FROM STREAM t', 'SELECT * FROM STREAM(catalog:t)'],
    ['SELECT * FROM stream(LIVE.t) AS s', 'SELECT * FROM STREAM(catalog:t) AS s'],
    ['SELECT * FROM `my.schema`.tbl', 'SELECT * FROM catalog:my.schema.tbl'],
]);

table('read_files and cloud_files', [
    ["SELECT * FROM read_files('data/orders', format => 'json', header => true, maxFiles => 10)",
        'SELECT * FROM read_files(\'data/orders\', format => "json", header => true, maxFiles => 10)'],
    ["SELECT * FROM STREAM read_files('/Volumes/x/y', format => 'csv')", 'SELECT * FROM STREAM(read_files(\'/Volumes/x/y\', format => "csv"))'],
    ["SELECT * FROM cloud_files('/landing', 'json', map('cloudFiles.inferColumnTypes', 'true'))",
        'SELECT * FROM STREAM(read_files(\'/landing\', format => "json", cloudFiles.inferColumnTypes => "true"))'],
]);

table('PIVOT and UNPIVOT', [
    ["SELECT * FROM t PIVOT (sum(v) AS s, avg(v) FOR k IN ('a' AS a, 'b'))", "SELECT * FROM catalog:t PIVOT (sum(v) AS s, avg(v) FOR k IN ('a' AS a, 'b'))"],
    ['SELECT * FROM t UNPIVOT INCLUDE NULLS (v FOR k IN (a AS x, b))', 'SELECT * FROM catalog:t UNPIVOT INCLUDE NULLS (v FOR k IN (a AS x, b))'],
    ['SELECT * FROM t UNPIVOT (v FOR k IN (a, b)) AS u', 'SELECT * FROM catalog:t UNPIVOT (v FOR k IN (a, b)) AS u'],
]);

table('pipe operators apply to the query on their left', [
    ['FROM t |> WHERE a > 1 |> SELECT a, b |> ORDER BY a', '(SELECT a, b FROM (SELECT * FROM catalog:t WHERE (a > 1)) ORDER BY a)'],
    ['FROM t AS x |> EXTEND a + 1 AS c |> DROP b |> AS y', 'SELECT * FROM (SELECT * EXCEPT (b) FROM (SELECT *, (a + 1) AS c FROM catalog:t AS x)) AS y'],
    ['FROM t |> AGGREGATE count(*) AS n GROUP BY a, b AS bb', 'SELECT a, b AS bb, count(*) AS n FROM catalog:t GROUP BY a, b'],
    ['FROM t |> LEFT JOIN u ON t.id = u.id |> UNION ALL (SELECT * FROM v)', '(SELECT * FROM (catalog:t LEFT JOIN catalog:u ON (t.id = u.id))) UNION ALL ((SELECT * FROM catalog:v))'],
]);

describe('a multi-column PIVOT keeps its value tuples', () => {
    test("FOR (k1, k2) IN (('a', 1) AS a1, ('b', 2))", async () => {
        const result = await lower("CREATE MATERIALIZED VIEW q AS SELECT * FROM t PIVOT (sum(v) FOR (k1, k2) IN (('a', 1) AS a1, ('b', 2)))");
        const flow = result.pipeline.flows[0];
        const body = flow.kind === 'materialized_view' ? flow.query.body : undefined;
        const pivot = body?.kind === 'select' ? body.from[0] : undefined;
        expect(pivot?.kind).toBe('pivot');
        if (pivot?.kind === 'pivot') {
            expect(pivot.columns.map(printExpr)).toEqual(['k1', 'k2']);
            expect(pivot.values.map(v => ({ values: v.values.map(printExpr), alias: v.alias }))).toEqual([
                { values: ["'a'", '1'], alias: 'a1' },
                { values: ["'b'", '2'], alias: undefined },
            ]);
        }
    });
});
