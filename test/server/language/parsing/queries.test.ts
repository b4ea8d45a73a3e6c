import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { createParser, createTestServices } from '../../../helpers/parse.js';
import { treeOf } from '../../../helpers/tree.js';

const { shared, services } = createTestServices();
const tree = treeOf(createParser(services));

afterEach(() => clearDocuments(shared));

const t = (name: string) => `TableReference(table: DatasetRef(ref: @${name}))`;
const star = 'SelectItem(expression: *)';

describe('query structure', () => {
    test('WITH RECURSIVE CTEs, ORDER BY, LIMIT and OFFSET', async () => {
        expect(await tree('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3), s AS (SELECT 2) SELECT * FROM r ORDER BY n DESC LIMIT 10 OFFSET 2')).toBe(
            'Query(recursive, ctes: [CommonTableExpression(name: \'r\', columns: [\'n\'], query: Query(body: SetOperation(left: SelectQuery(items: [SelectItem(expression: 1)]), '
            + `operator: 'UNION', quantifier: 'ALL', right: SelectQuery(items: [SelectItem(expression: (n + 1))], from: FromClause(relations: [${t('r')}]), where: (n < 3))))), `
            + 'CommonTableExpression(name: \'s\', query: Query(body: SelectQuery(items: [SelectItem(expression: 2)])))], '
            + `body: SelectQuery(items: [${star}], from: FromClause(relations: [${t('r')}])), orderBy: [SortItem(expression: n, descending)], limit: 10, offset: 2)`);
    });

    test('INTERSECT binds tighter than UNION, EXCEPT and MINUS, which go left to right', async () => {
        const select = (n: number) => `SelectQuery(items: [SelectItem(expression: ${n})])`;
        expect(await tree('SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT ALL SELECT 4 MINUS DISTINCT SELECT 5')).toBe(
            `Query(body: SetOperation(left: SetOperation(left: SetOperation(left: ${select(1)}, operator: 'UNION', right: SetOperation(left: ${select(2)}, `
            + `operator: 'INTERSECT', right: ${select(3)})), operator: 'EXCEPT', quantifier: 'ALL', right: ${select(4)}), operator: 'MINUS', `
            + `quantifier: 'DISTINCT', right: ${select(5)}))`);
    });

    test('VALUES, TABLE and FROM-first queries', async () => {
        expect(await tree('VALUES 1, 2')).toBe('Query(body: ValuesRelation(rows: [1, 2]))');
        expect(await tree('TABLE t')).toBe('Query(body: TableQuery(table: DatasetRef(ref: @t)))');
        expect(await tree('FROM t SELECT a WHERE b')).toBe(
            `Query(body: SelectQuery(from: FromClause(relations: [${t('t')}]), items: [SelectItem(expression: a)], where: b))`);
    });

    test('the |> pipe syntax with a watermark on a streaming source', async () => {
        expect(await tree('FROM STREAM(src) WATERMARK ts DELAY OF INTERVAL 10 MINUTES |> WHERE x > 0 |> SELECT a, b |> AGGREGATE sum(b) AS s GROUP BY a |> ORDER BY s DESC |> LIMIT 5')).toBe(
            'Query(body: PipeQuery(input: PipeQuery(input: PipeQuery(input: PipeQuery(input: PipeQuery(input: SelectQuery(from: FromClause(relations: ['
            + 'TableReference(stream, table: DatasetRef(ref: @src), watermark: WatermarkClause(column: \'ts\', delay: INTERVAL 10 MINUTES))])), '
            + 'operation: PipeWhere(condition: (x > 0))), operation: PipeSelect(items: [SelectItem(expression: a), SelectItem(expression: b)])), '
            + 'operation: PipeAggregate(items: [SelectItem(expression: sum(b), alias: \'s\')], groupBy: [AliasedExpression(expression: a)])), '
            + 'operation: PipeOrganization(orderBy: [SortItem(expression: s, descending)])), operation: PipeOrganization(limit: 5)))');
    });

    test('a pipe applies to the whole set operation on its left', async () => {
        expect(await tree('SELECT 1 AS x UNION ALL SELECT 2 |> WHERE x > 1')).toBe(
            'Query(body: PipeQuery(input: SetOperation(left: SelectQuery(items: [SelectItem(expression: 1, alias: \'x\')]), operator: \'UNION\', '
            + 'quantifier: \'ALL\', right: SelectQuery(items: [SelectItem(expression: 2)])), operation: PipeWhere(condition: (x > 1))))');
    });
});

describe('FROM clause', () => {
    test('every join kind', async () => {
        expect(await tree('SELECT * FROM a NATURAL JOIN b LEFT SEMI JOIN c ON a.x = c.x CROSS JOIN d FULL OUTER JOIN e USING (k) JOIN LATERAL (SELECT 1) l ANTI JOIN f ON TRUE')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [JoinRelation(left: JoinRelation(left: JoinRelation(left: JoinRelation(`
            + `left: JoinRelation(left: JoinRelation(left: ${t('a')}, natural, right: ${t('b')}), joinType: 'LEFT SEMI', right: ${t('c')}, on: (a.x = c.x)), `
            + `joinType: 'CROSS', right: ${t('d')}), joinType: 'FULL', right: ${t('e')}, using: ['k']), right: SubqueryRelation(lateral, `
            + `query: Query(body: SelectQuery(items: [SelectItem(expression: 1)])), alias: 'l')), joinType: 'LEFT ANTI', right: ${t('f')}, on: TRUE)])))`);
    });

    test('LEFT OUTER and RIGHT joins with aliases with and without AS', async () => {
        expect(await tree('SELECT * FROM a x LEFT OUTER JOIN b AS y ON x.k = y.k RIGHT JOIN c ON TRUE')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [JoinRelation(left: JoinRelation(`
            + 'left: TableReference(table: DatasetRef(ref: @a), alias: \'x\'), joinType: \'LEFT\', right: TableReference(table: DatasetRef(ref: @b), alias: \'y\'), '
            + `on: (x.k = y.k)), joinType: 'RIGHT', right: ${t('c')}, on: TRUE)])))`);
    });

    test('LATERAL VIEW, ROLLUP, HAVING, WINDOW and QUALIFY', async () => {
        expect(await tree('SELECT a, count(*) FROM t LATERAL VIEW OUTER explode(xs) ex AS x GROUP BY ROLLUP(a, (a, b), ()) HAVING count(*) > 1 WINDOW w AS (PARTITION BY a) QUALIFY row_number() OVER w = 1')).toBe(
            `Query(body: SelectQuery(items: [SelectItem(expression: a), SelectItem(expression: count(*))], from: FromClause(relations: [${t('t')}], `
            + 'lateralViews: [LateralView(outer, generator: explode(xs), alias: \'ex\', columns: [\'x\'])]), groupBy: GroupByClause(items: ['
            + 'GroupingSets(kind: \'ROLLUP\', sets: [a, (a, b), EmptyGroupingSet])]), having: (count(*) > 1), window: WindowClause(windows: ['
            + 'NamedWindow(name: \'w\', spec: WindowSpec(partitionBy: [a]))]), qualify: (row_number() OVER w = 1)))');
    });

    test('GROUP BY ALL, WITH CUBE and GROUPING SETS', async () => {
        expect(await tree('SELECT * FROM t GROUP BY ALL')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [${t('t')}]), groupBy: GroupByClause(all)))`);
        expect(await tree('SELECT a FROM t GROUP BY a, b WITH CUBE')).toBe(
            `Query(body: SelectQuery(items: [SelectItem(expression: a)], from: FromClause(relations: [${t('t')}]), groupBy: GroupByClause(items: [a, b], withModifier: 'CUBE')))`);
        expect(await tree('SELECT * FROM t GROUP BY GROUPING SETS ((a, b), a, ())')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [${t('t')}]), groupBy: GroupByClause(items: [`
            + 'GroupingSets(kind: \'GROUPING SETS\', sets: [(a, b), a, EmptyGroupingSet])])))');
    });

    test('VALUES with column aliases, subquery aliases, TABLESAMPLE and time travel', async () => {
        expect(await tree('SELECT * FROM VALUES (1, \'a\'), (2, \'b\') AS v(n, s)')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [ValuesRelation(rows: [(1, 'a'), (2, 'b')], alias: 'v', columnAliases: ['n', 's'])])))`);
        expect(await tree('SELECT * FROM (SELECT * FROM t) TABLESAMPLE (10 PERCENT) REPEATABLE (1) AS s (x, y)')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [SubqueryRelation(query: Query(body: SelectQuery(items: [${star}], `
            + `from: FromClause(relations: [${t('t')}]))), sample: TableSample(value: 10, unit: 'PERCENT', seed: '1'), alias: 's', columnAliases: ['x', 'y'])])))`);
        expect(await tree('SELECT * FROM t VERSION AS OF 3, u TIMESTAMP AS OF \'2024-01-01\'')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [TableReference(table: DatasetRef(ref: @t), `
            + 'temporal: TemporalClause(kind: \'VERSION\', value: 3)), TableReference(table: DatasetRef(ref: @u), temporal: TemporalClause(kind: \'TIMESTAMP\', value: \'2024-01-01\'))])))');
    });

    test('PIVOT and UNPIVOT', async () => {
        expect(await tree('SELECT * FROM sales PIVOT (sum(amount) AS total FOR quarter IN (\'Q1\' AS q1, \'Q2\')) AS p')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [PivotRelation(input: ${t('sales')}, pivot: PivotClause(`
            + 'aggregates: [AliasedExpression(expression: sum(amount), alias: \'total\')], columns: [\'quarter\'], values: ['
            + 'AliasedExpression(expression: \'Q1\', alias: \'q1\'), AliasedExpression(expression: \'Q2\')]), alias: \'p\')])))');
        expect(await tree('SELECT * FROM t UNPIVOT INCLUDE NULLS (val FOR col IN (a AS x, b))')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [UnpivotRelation(input: ${t('t')}, unpivot: UnpivotClause(`
            + 'nulls: \'INCLUDE\', valueColumns: [\'val\'], nameColumn: \'col\', columns: [UnpivotColumn(columns: [\'a\'], alias: \'x\'), UnpivotColumn(columns: [\'b\'])]))])))');
    });

    test('streaming reads: STREAM(t), STREAM t, STREAM table-function, and a table named stream', async () => {
        expect(await tree('SELECT * FROM STREAM read_files(\'/p\', format => \'json\') AS f, range(10)')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [TableFunctionCall(stream, name: 'read_files', args: [`
            + 'FunctionArgument(value: \'/p\'), FunctionArgument(name: \'format\', value: \'json\')], alias: \'f\'), TableFunctionCall(name: \'range\', args: [FunctionArgument(value: 10)])])))');
        expect(await tree('SELECT * FROM STREAM(a), STREAM b, stream AS c, stream')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [TableReference(stream, table: DatasetRef(ref: @a)), `
            + 'TableReference(stream, table: DatasetRef(ref: @b)), TableReference(table: DatasetRef(ref: @stream), alias: \'c\'), '
            + 'TableReference(table: DatasetRef(ref: @stream))])))');
    });

    test('a file path as a table: JSON.`/path`', async () => {
        expect(await tree('SELECT * FROM JSON.`/data/x.json`')).toBe(
            `Query(body: SelectQuery(items: [${star}], from: FromClause(relations: [TableReference(table: DatasetRef(ref: @JSON./data/x.json))])))`);
    });
});

describe('select lists', () => {
    test('aliases with and without AS; a keyword as alias; * EXCEPT; DISTINCT', async () => {
        expect(await tree('SELECT DISTINCT a AS x, b y, c AS version, * EXCEPT (d), posexplode(e) AS (p, v) FROM t')).toBe(
            'Query(body: SelectQuery(distinct, items: [SelectItem(expression: a, alias: \'x\'), SelectItem(expression: b, alias: \'y\'), '
            + 'SelectItem(expression: c, alias: \'version\'), SelectItem(expression: * EXCEPT (d)), SelectItem(expression: posexplode(e), aliases: [\'p\', \'v\'])], '
            + `from: FromClause(relations: [${t('t')}])))`);
    });
});
