// Table-driven Spark behaviours that the DuckDB translation must reproduce, checked by running
// DuckDB. Expected values are Spark's: the seed of ../shared/spec/spark-on-duckdb.md (section 4,
// "Snippets and Spark's results") and the examples of Spark's SQL function reference
// (https://spark.apache.org/docs/latest/api/sql/). Each row is one Spark SQL snippet written as IR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExprIR, QueryIR } from '../../../engine/src/ir.js';
import { Evaluator } from '../helpers/evaluate.js';
import {
    array, asc, bigint, bin, bool, call, cast, col, countStar, date, dbl, dec, desc, eq, gt, int, isNull, lambda, lit, nul, over, select, str,
    struct, sub, ts, values,
} from '../helpers/ir-builder.js';

const field = (expr: ExprIR, name: string): ExprIR => ({ kind: 'field', expr, field: name });
const at = (expr: ExprIR, index: ExprIR): ExprIR => ({ kind: 'subscript', expr, index });
const map = (...kv: ExprIR[]): ExprIR => call('map', ...kv);
const json = (expr: ExprIR, ...path: (string | number)[]): ExprIR => ({
    kind: 'json_path', expr, path: path.map(p => (typeof p === 'number' ? { kind: 'index', index: p } : { kind: 'field', name: p })),
});
const like = (expr: ExprIR, pattern: string, op: 'like' | 'ilike' | 'rlike' = 'like'): ExprIR => ({ kind: 'like', op, expr, patterns: [str(pattern)], not: false });
const inList = (expr: ExprIR, ...list: ExprIR[]): ExprIR => ({ kind: 'in', expr, list, not: false });
const word = (w: string): ExprIR => col(w);
const tbl = (rows: ExprIR[][], ...names: string[]) => values(rows, 't', names);

/** One snippet: an expression (evaluated as `SELECT expr`) or a whole query, and Spark's result. */
interface Case {
    sql: string;
    expr?: ExprIR;
    query?: QueryIR;
    /** Spark's values of the first column, one per row. */
    expected?: unknown[];
    /** Spark's error class. */
    error?: string;
}

const seed: Case[] = [
    { sql: 'SELECT "hello" AS s', expr: str('hello'), expected: ['hello'] },
    { sql: 'SELECT `my col` FROM (SELECT 1 AS `my col`)', query: select([col('my col')], { from: [sub(select([[int(1), 'my col']]))] }), expected: [1] },
    { sql: 'SELECT current_timestamp() IS NOT NULL', expr: isNull(call('current_timestamp'), true), expected: [true] },
    { sql: 'SELECT current_date() IS NOT NULL', expr: isNull(call('current_date'), true), expected: [true] },
    { sql: "SELECT date_add(DATE'2024-01-31', 1)", expr: call('date_add', date('2024-01-31'), int(1)), expected: ['2024-02-01'] },
    { sql: "SELECT date_add('2024-01-31', 1)", expr: call('date_add', str('2024-01-31'), int(1)), expected: ['2024-02-01'] },
    { sql: "SELECT DATE'2024-01-31' + 1", expr: bin('+', date('2024-01-31'), int(1)), expected: ['2024-02-01'] },
    { sql: "SELECT datediff(DATE'2024-03-01', DATE'2024-02-01')", expr: call('datediff', date('2024-03-01'), date('2024-02-01')), expected: [29] },
    { sql: "SELECT date_format(TIMESTAMP'2024-01-02 03:04:05', 'yyyy-MM-dd HH:mm')", expr: call('date_format', ts('2024-01-02 03:04:05'), str('yyyy-MM-dd HH:mm')), expected: ['2024-01-02 03:04'] },
    { sql: "SELECT to_date('02/01/2024', 'dd/MM/yyyy')", expr: call('to_date', str('02/01/2024'), str('dd/MM/yyyy')), expected: ['2024-01-02'] },
    { sql: "SELECT to_timestamp('2024-01-02 03:04:05')", expr: call('to_timestamp', str('2024-01-02 03:04:05')), expected: ['2024-01-02 03:04:05'] },
    { sql: "SELECT from_unixtime(0, 'yyyy-MM-dd')", expr: call('from_unixtime', int(0), str('yyyy-MM-dd')), expected: ['1970-01-01'] },
    { sql: "SELECT date_trunc('MONTH', TIMESTAMP'2024-02-15 10:00:00')", expr: call('date_trunc', str('MONTH'), ts('2024-02-15 10:00:00')), expected: ['2024-02-01 00:00:00'] },
    { sql: "SELECT trunc(DATE'2024-02-15', 'MM')", expr: call('trunc', date('2024-02-15'), str('MM')), expected: ['2024-02-01'] },
    { sql: "SELECT add_months(DATE'2024-01-31', 1)", expr: call('add_months', date('2024-01-31'), int(1)), expected: ['2024-02-29'] },
    {
        sql: "SELECT timestampdiff(HOUR, TIMESTAMP'2024-01-01 00:00:00', TIMESTAMP'2024-01-01 05:00:00')",
        expr: call('timestampdiff', word('HOUR'), ts('2024-01-01 00:00:00'), ts('2024-01-01 05:00:00')), expected: [5],
    },
    { sql: "SELECT struct(1 AS a, 'x' AS b) AS s", expr: struct(['a', int(1)], ['b', str('x')]), expected: [{ a: 1, b: 'x' }] },
    { sql: 'SELECT struct(a, b).b FROM (SELECT 1 AS a, 2 AS b)', query: select([field(call('struct', col('a'), col('b')), 'b')], { from: [sub(select([[int(1), 'a'], [int(2), 'b']]))] }), expected: [2] },
    { sql: "SELECT named_struct('a', 1, 'b', 'x')", expr: call('named_struct', str('a'), int(1), str('b'), str('x')), expected: [{ a: 1, b: 'x' }] },
    { sql: 'SELECT array(1, 2, 3)', expr: call('array', int(1), int(2), int(3)), expected: [[1, 2, 3]] },
    { sql: 'SELECT array(10, 20, 30)[0]', expr: at(call('array', int(10), int(20), int(30)), int(0)), expected: [10] },
    { sql: 'SELECT element_at(array(10, 20, 30), 1)', expr: call('element_at', call('array', int(10), int(20), int(30)), int(1)), expected: [10] },
    { sql: 'SELECT size(array(1, 2))', expr: call('size', call('array', int(1), int(2))), expected: [2] },
    { sql: 'SELECT array_contains(array(1, 2), 2)', expr: call('array_contains', call('array', int(1), int(2)), int(2)), expected: [true] },
    { sql: 'SELECT transform(array(1, 2), x -> x + 1)', expr: call('transform', call('array', int(1), int(2)), lambda(['x'], bin('+', col('x'), int(1)))), expected: [[2, 3]] },
    { sql: 'SELECT filter(array(1, 2, 3), x -> x > 1)', expr: call('filter', call('array', int(1), int(2), int(3)), lambda(['x'], gt(col('x'), int(1)))), expected: [[2, 3]] },
    {
        sql: 'SELECT aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x)',
        expr: call('aggregate', call('array', int(1), int(2), int(3)), int(0), lambda(['acc', 'x'], bin('+', col('acc'), col('x')))), expected: [6],
    },
    { sql: 'SELECT sequence(1, 3)', expr: call('sequence', int(1), int(3)), expected: [[1, 2, 3]] },
    { sql: "SELECT array_join(array('a', 'b'), ',')", expr: call('array_join', call('array', str('a'), str('b')), str(',')), expected: ['a,b'] },
    { sql: 'SELECT sort_array(array(2, 1, 3), false)', expr: call('sort_array', call('array', int(2), int(1), int(3)), bool(false)), expected: [[3, 2, 1]] },
    { sql: 'SELECT explode(array(1, 2))', query: select([call('explode', call('array', int(1), int(2)))]), expected: [1, 2] },
    {
        sql: 'SELECT x FROM (SELECT array(1, 2) AS arr) LATERAL VIEW explode(arr) t AS x',
        query: select([col('x')], {
            from: [{ kind: 'lateral_view', input: sub(select([[call('array', int(1), int(2)), 'arr']])), generator: { kind: 'call', name: 'explode', args: [col('arr')] }, outer: false, alias: 't', columnAliases: ['x'] }],
            orderBy: [asc(col('x'))],
        }),
        expected: [1, 2],
    },
    { sql: "SELECT posexplode(array('a', 'b'))", query: select([call('posexplode', call('array', str('a'), str('b')))]), expected: [0, 1] },
    { sql: 'SELECT collect_list(x) FROM (VALUES (1), (2)) AS t(x)', query: select([call('collect_list', col('x'))], { from: [tbl([[int(1)], [int(2)]], 'x')] }), expected: [[1, 2]] },
    { sql: 'SELECT size(collect_set(x)) FROM (VALUES (1), (1), (2)) AS t(x)', query: select([call('size', call('collect_set', col('x')))], { from: [tbl([[int(1)], [int(1)], [int(2)]], 'x')] }), expected: [2] },
    { sql: "SELECT id FROM VALUES (1, 'a'), (2, 'b') AS t(id, v)", query: select([col('id')], { from: [tbl([[int(1), str('a')], [int(2), str('b')]], 'id', 'v')], orderBy: [asc(col('id'))] }), expected: [1, 2] },
    { sql: 'SELECT 2 IN (1, 2, 3)', expr: inList(int(2), int(1), int(2), int(3)), expected: [true] },
    { sql: 'SELECT 4 IN (1, NULL)', expr: inList(int(4), int(1), nul()), expected: [null] },
    { sql: 'SELECT \'{"a":{"b":1}}\':a.b', expr: json(str('{"a":{"b":1}}'), 'a', 'b'), expected: ['1'] },
    { sql: "SELECT get_json_object('{\"a\":{\"b\":1}}', '$.a.b')", expr: call('get_json_object', str('{"a":{"b":1}}'), str('$.a.b')), expected: ['1'] },
    { sql: "SELECT from_json('{\"a\":1}', 'a INT').a", expr: field(call('from_json', str('{"a":1}'), str('a INT')), 'a'), expected: [1] },
    { sql: "SELECT to_json(named_struct('a', 1))", expr: call('to_json', call('named_struct', str('a'), int(1))), expected: ['{"a":1}'] },
    { sql: "SELECT concat('a', NULL)", expr: call('concat', str('a'), nul()), expected: [null] },
    { sql: "SELECT substring('hello', 0, 2)", expr: call('substring', str('hello'), int(0), int(2)), expected: ['he'] },
    { sql: "SELECT split('a1b2c', '[0-9]')", expr: call('split', str('a1b2c'), str('[0-9]')), expected: [['a', 'b', 'c']] },
    { sql: "SELECT regexp_replace('aaa', 'a', 'b')", expr: call('regexp_replace', str('aaa'), str('a'), str('b')), expected: ['bbb'] },
    { sql: "SELECT regexp_extract('abc123', '([a-z]+)([0-9]+)', 2)", expr: call('regexp_extract', str('abc123'), str('([a-z]+)([0-9]+)'), int(2)), expected: ['123'] },
    { sql: "SELECT 'abc' RLIKE 'b'", expr: like(str('abc'), 'b', 'rlike'), expected: [true] },
    { sql: 'SELECT NULL <=> NULL', expr: bin('<=>', nul(), nul()), expected: [true] },
    { sql: 'SELECT 1 == 1', expr: eq(int(1), int(1)), expected: [true] },
    { sql: 'SELECT nvl(NULL, 1) + nvl2(NULL, 10, 20)', expr: bin('+', call('nvl', nul(), int(1)), call('nvl2', nul(), int(10), int(20))), expected: [21] },
    { sql: "SELECT if(1 > 0, 'y', 'n')", expr: call('if', gt(int(1), int(0)), str('y'), str('n')), expected: ['y'] },
    { sql: 'SELECT 1L + 2S + 3Y', expr: bin('+', bin('+', bigint(1), lit('smallint', '2')), lit('tinyint', '3')), expected: [6] },
    { sql: 'SELECT * EXCEPT (b) FROM (SELECT 1 AS a, 2 AS b)', query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star', except: ['b'] }], from: [sub(select([[int(1), 'a'], [int(2), 'b']]))] } }, expected: [1] },
    { sql: 'SELECT cast(array(1, 2) AS ARRAY<STRING>)', expr: cast(call('array', int(1), int(2)), 'ARRAY<STRING>'), expected: [['1', '2']] },
    { sql: "SELECT cast(named_struct('a', '1') AS STRUCT<a: INT>).a", expr: field(cast(call('named_struct', str('a'), str('1')), 'STRUCT<a: INT>'), 'a'), expected: [1] },
    { sql: 'SELECT cast(1 AS STRING)', expr: cast(int(1), 'STRING'), expected: ['1'] },
    { sql: 'SELECT x FROM (VALUES (1), (NULL)) AS t(x) ORDER BY x', query: select([col('x')], { from: [tbl([[int(1)], [nul()]], 'x')], orderBy: [{ expr: col('x') }] }), expected: [null, 1] },
    { sql: 'SELECT 7 / 2', expr: bin('/', int(7), int(2)), expected: [3.5] },
    { sql: 'SELECT 7 div 2', expr: bin('div', int(7), int(2)), expected: [3] },
    { sql: "SELECT length('a\\tb')", expr: call('length', str('a\tb')), expected: [3] },
    { sql: "SELECT try_cast('abc' AS INT)", expr: cast(str('abc'), 'INT', true), expected: [null] },
    { sql: "SELECT sha2('abc', 256)", expr: call('sha2', str('abc'), int(256)), expected: ['ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'] },
    { sql: 'SELECT percentile_approx(x, 0.5) FROM (VALUES (1), (2), (3)) AS t(x)', query: select([call('percentile_approx', col('x'), dec('0.5'))], { from: [tbl([[int(1)], [int(2)], [int(3)]], 'x')] }), expected: [2] },
    { sql: 'SELECT first(x) FROM (VALUES (1), (2)) AS t(x)', query: select([call('first', col('x'))], { from: [tbl([[int(1)], [int(2)]], 'x')] }), expected: [1] },
    { sql: "SELECT format_string('%d-%s', 1, 'a')", expr: call('format_string', str('%d-%s'), int(1), str('a')), expected: ['1-a'] },
    { sql: "SELECT locate('b', 'abc')", expr: call('locate', str('b'), str('abc')), expected: [2] },
    { sql: "SELECT map('a', 1)['a']", expr: at(map(str('a'), int(1)), str('a')), expected: [1] },
    { sql: 'SELECT typeof(1)', expr: call('typeof', int(1)), expected: ['int'] },
];

/** Examples of Spark's SQL function reference (spark.apache.org/docs/latest/api/sql). */
const reference: Case[] = [
    { sql: "substring('Spark SQL', 5)", expr: call('substring', str('Spark SQL'), int(5)), expected: ['k SQL'] },
    { sql: "substring('Spark SQL', -3)", expr: call('substring', str('Spark SQL'), int(-3)), expected: ['SQL'] },
    { sql: "substring('Spark SQL', 5, 1)", expr: call('substring', str('Spark SQL'), int(5), int(1)), expected: ['k'] },
    { sql: "substr('Spark SQL', -3, 2)", expr: call('substr', str('Spark SQL'), int(-3), int(2)), expected: ['SQ'] },
    { sql: "concat_ws(' ', 'Spark', 'SQL')", expr: call('concat_ws', str(' '), str('Spark'), str('SQL')), expected: ['Spark SQL'] },
    { sql: "concat('Spark', 'SQL')", expr: call('concat', str('Spark'), str('SQL')), expected: ['SparkSQL'] },
    { sql: 'concat(array(1, 2, 3), array(4, 5), array(6))', expr: call('concat', array(int(1), int(2), int(3)), array(int(4), int(5)), array(int(6))), expected: [[1, 2, 3, 4, 5, 6]] },
    { sql: "initcap('sPark sql')", expr: call('initcap', str('sPark sql')), expected: ['Spark Sql'] },
    { sql: "lpad('hi', 5, '??')", expr: call('lpad', str('hi'), int(5), str('??')), expected: ['???hi'] },
    { sql: "lpad('hi', 1, '??')", expr: call('lpad', str('hi'), int(1), str('??')), expected: ['h'] },
    { sql: "rpad('hi', 5, '??')", expr: call('rpad', str('hi'), int(5), str('??')), expected: ['hi???'] },
    { sql: "instr('SparkSQL', 'SQL')", expr: call('instr', str('SparkSQL'), str('SQL')), expected: [6] },
    { sql: "locate('bar', 'foobarbar', 5)", expr: call('locate', str('bar'), str('foobarbar'), int(5)), expected: [7] },
    { sql: "replace('ABCabc', 'abc', 'DEF')", expr: call('replace', str('ABCabc'), str('abc'), str('DEF')), expected: ['ABCDEF'] },
    { sql: "regexp_replace('100-200', '(\\\\d+)', 'num')", expr: call('regexp_replace', str('100-200'), str('(\\d+)'), str('num')), expected: ['num-num'] },
    { sql: "regexp_replace('abc', '(b)', '[$1]')", expr: call('regexp_replace', str('abc'), str('(b)'), str('[$1]')), expected: ['a[b]c'] },
    { sql: "split('oneAtwoBthreeC', '[ABC]')", expr: call('split', str('oneAtwoBthreeC'), str('[ABC]')), expected: [['one', 'two', 'three', '']] },
    { sql: "left('Spark SQL', 3)", expr: call('left', str('Spark SQL'), int(3)), expected: ['Spa'] },
    { sql: "right('Spark SQL', 3)", expr: call('right', str('Spark SQL'), int(3)), expected: ['SQL'] },
    { sql: "reverse('Spark SQL')", expr: call('reverse', str('Spark SQL')), expected: ['LQS krapS'] },
    { sql: 'reverse(array(2, 1, 4, 3))', expr: call('reverse', array(int(2), int(1), int(4), int(3))), expected: [[3, 4, 1, 2]] },
    { sql: "repeat('123', 2)", expr: call('repeat', str('123'), int(2)), expected: ['123123'] },
    { sql: "ascii('222')", expr: call('ascii', str('222')), expected: [50] },
    { sql: 'chr(65)', expr: call('chr', int(65)), expected: ['A'] },
    { sql: "trim('    SparkSQL   ')", expr: call('trim', str('    SparkSQL   ')), expected: ['SparkSQL'] },
    { sql: "md5('Spark')", expr: call('md5', str('Spark')), expected: ['8cde774d6f7333752ed72cacddb05126'] },
    { sql: "sha1('Spark')", expr: call('sha1', str('Spark')), expected: ['85f5955f4b27a9a4c2aab6ffe5d7189fc298b92c'] },
    { sql: "base64('Spark SQL')", expr: call('base64', str('Spark SQL')), expected: ['U3BhcmsgU1FM'] },
    { sql: 'hex(17)', expr: call('hex', int(17)), expected: ['11'] },
    { sql: "upper('SparkSql')", expr: call('upper', str('SparkSql')), expected: ['SPARKSQL'] },
    { sql: "'a_b' LIKE 'a\\\\_b'", expr: like(str('a_b'), 'a\\_b'), expected: [true] },
    { sql: "'axb' LIKE 'a\\\\_b'", expr: like(str('axb'), 'a\\_b'), expected: [false] },
    { sql: "'Spark' ILIKE '_PARK'", expr: like(str('Spark'), '_PARK', 'ilike'), expected: [true] },
    { sql: 'abs(-1)', expr: call('abs', int(-1)), expected: [1] },
    { sql: 'ceil(-0.1)', expr: call('ceil', dec('-0.1')), expected: [0] },
    { sql: 'ceil(5)', expr: call('ceil', int(5)), expected: [5] },
    { sql: 'floor(-0.1)', expr: call('floor', dec('-0.1')), expected: [-1] },
    { sql: 'round(2.5, 0)', expr: call('round', dec('2.5'), int(0)), expected: [3] },
    { sql: 'round(-2.5)', expr: call('round', dec('-2.5')), expected: [-3] },
    { sql: 'bround(2.5, 0)', expr: call('bround', dec('2.5'), int(0)), expected: [2] },
    { sql: 'bround(25, -1)', expr: call('bround', int(25), int(-1)), expected: [20] },
    { sql: 'pmod(10, 3)', expr: call('pmod', int(10), int(3)), expected: [1] },
    { sql: 'pmod(-10, 3)', expr: call('pmod', int(-10), int(3)), expected: [2] },
    { sql: 'mod(2, 1.8)', expr: call('mod', int(2), dec('1.8')), expected: [0.2] },
    { sql: '-7 % 2', expr: bin('%', int(-7), int(2)), expected: [-1] },
    { sql: '-7 div 2', expr: bin('div', int(-7), int(2)), expected: [-3] },
    { sql: 'greatest(10, 9, 2, 4, 3)', expr: call('greatest', int(10), int(9), int(2), int(4), int(3)), expected: [10] },
    { sql: 'least(10, 9, 2, 4, 3)', expr: call('least', int(10), int(9), int(2), int(4), int(3)), expected: [2] },
    { sql: 'sqrt(4)', expr: call('sqrt', int(4)), expected: [2] },
    { sql: 'pow(2, 3)', expr: call('pow', int(2), int(3)), expected: [8] },
    { sql: 'log(10, 100)', expr: call('log', int(10), int(100)), expected: [2] },
    { sql: 'ln(1)', expr: call('ln', int(1)), expected: [0] },
    { sql: '1.0 / 3', expr: bin('/', dec('1.0'), int(3)), expected: [0.333333] },
    { sql: 'CAST(1.7 AS INT)', expr: cast(dec('1.7'), 'INT'), expected: [1] },
    { sql: 'CAST(-1.5 AS INT)', expr: cast(dec('-1.5'), 'INT'), expected: [-1] },
    { sql: "CAST(' 42 ' AS INT)", expr: cast(str(' 42 '), 'INT'), expected: [42] },
    { sql: 'coalesce(NULL, 1, NULL)', expr: call('coalesce', nul(), int(1), nul()), expected: [1] },
    { sql: 'nullif(2, 2)', expr: call('nullif', int(2), int(2)), expected: [null] },
    { sql: 'nvl2(NULL, 2, 1)', expr: call('nvl2', nul(), int(2), int(1)), expected: [1] },
    { sql: "ifnull(NULL, array('2'))", expr: call('ifnull', nul(), array(str('2'))), expected: [['2']] },
    { sql: "nanvl(cast('NaN' as double), 123)", expr: call('nanvl', cast(str('NaN'), 'DOUBLE'), int(123)), expected: [123] },
    { sql: "decode(2, 1, 'Southlake', 2, 'San Francisco', 'Non domestic')", expr: call('decode', int(2), int(1), str('Southlake'), int(2), str('San Francisco'), str('Non domestic')), expected: ['San Francisco'] },
    { sql: "elt(1, 'scala', 'java')", expr: call('elt', int(1), str('scala'), str('java')), expected: ['scala'] },
    { sql: "datediff('2009-07-31', '2009-07-30')", expr: call('datediff', str('2009-07-31'), str('2009-07-30')), expected: [1] },
    { sql: "date_sub('2016-07-30', 1)", expr: call('date_sub', str('2016-07-30'), int(1)), expected: ['2016-07-29'] },
    { sql: "add_months('2016-08-31', 1)", expr: call('add_months', str('2016-08-31'), int(1)), expected: ['2016-09-30'] },
    { sql: "last_day('2009-01-12')", expr: call('last_day', str('2009-01-12')), expected: ['2009-01-31'] },
    { sql: "dayofweek('2009-07-30')", expr: call('dayofweek', str('2009-07-30')), expected: [5] },
    { sql: "dayofmonth('2009-07-30')", expr: call('dayofmonth', str('2009-07-30')), expected: [30] },
    { sql: "dayofyear('2016-04-09')", expr: call('dayofyear', str('2016-04-09')), expected: [100] },
    { sql: "weekofyear('2008-02-20')", expr: call('weekofyear', str('2008-02-20')), expected: [8] },
    { sql: "quarter('2016-08-31')", expr: call('quarter', str('2016-08-31')), expected: [3] },
    { sql: "weekday('2009-07-30')", expr: call('weekday', str('2009-07-30')), expected: [3] },
    { sql: "hour('2009-07-30 12:58:59')", expr: call('hour', str('2009-07-30 12:58:59')), expected: [12] },
    { sql: "minute('2009-07-30 12:58:59')", expr: call('minute', str('2009-07-30 12:58:59')), expected: [58] },
    { sql: "second('2009-07-30 12:58:59')", expr: call('second', str('2009-07-30 12:58:59')), expected: [59] },
    { sql: "date_format('2016-04-08', 'y')", expr: call('date_format', str('2016-04-08'), str('y')), expected: ['2016'] },
    { sql: "to_date('2009-07-30 04:17:52')", expr: call('to_date', str('2009-07-30 04:17:52')), expected: ['2009-07-30'] },
    { sql: "to_date('2016-12-31', 'yyyy-MM-dd')", expr: call('to_date', str('2016-12-31'), str('yyyy-MM-dd')), expected: ['2016-12-31'] },
    { sql: "to_timestamp('2016-12-31', 'yyyy-MM-dd')", expr: call('to_timestamp', str('2016-12-31'), str('yyyy-MM-dd')), expected: ['2016-12-31 00:00:00'] },
    { sql: "unix_timestamp('2016-04-08', 'yyyy-MM-dd')", expr: call('unix_timestamp', str('2016-04-08'), str('yyyy-MM-dd')), expected: [1460073600] },
    { sql: "from_unixtime(0, 'yyyy-MM-dd HH:mm:ss')", expr: call('from_unixtime', int(0), str('yyyy-MM-dd HH:mm:ss')), expected: ['1970-01-01 00:00:00'] },
    { sql: "trunc('2019-08-04', 'week')", expr: call('trunc', str('2019-08-04'), str('week')), expected: ['2019-07-29'] },
    { sql: "trunc('2019-08-04', 'quarter')", expr: call('trunc', str('2019-08-04'), str('quarter')), expected: ['2019-07-01'] },
    { sql: "trunc('2015-10-27', 'YEAR')", expr: call('trunc', str('2015-10-27'), str('YEAR')), expected: ['2015-01-01'] },
    { sql: "date_trunc('HOUR', '2015-03-05T09:32:05.359')", expr: call('date_trunc', str('HOUR'), str('2015-03-05T09:32:05.359')), expected: ['2015-03-05 09:00:00'] },
    { sql: 'make_date(2013, 7, 15)', expr: call('make_date', int(2013), int(7), int(15)), expected: ['2013-07-15'] },
    { sql: 'timestamp_seconds(1230219000)', expr: call('timestamp_seconds', int(1230219000)), expected: ['2008-12-25 15:30:00'] },
    { sql: 'array_distinct(array(1, 2, 3, null, 3))', expr: call('array_distinct', array(int(1), int(2), int(3), nul(), int(3))), expected: [[1, 2, 3, null]] },
    { sql: 'array_except(array(1, 2, 3), array(1, 3, 5))', expr: call('array_except', array(int(1), int(2), int(3)), array(int(1), int(3), int(5))), expected: [[2]] },
    { sql: 'array_intersect(array(1, 2, 3), array(1, 3, 5))', expr: call('array_intersect', array(int(1), int(2), int(3)), array(int(1), int(3), int(5))), expected: [[1, 3]] },
    { sql: 'array_union(array(1, 2, 3), array(1, 3, 5))', expr: call('array_union', array(int(1), int(2), int(3)), array(int(1), int(3), int(5))), expected: [[1, 2, 3, 5]] },
    { sql: "array_join(array('hello', null ,'world'), ' ', ',')", expr: call('array_join', array(str('hello'), nul(), str('world')), str(' '), str(',')), expected: ['hello , world'] },
    { sql: "array_join(array('hello', null ,'world'), ' ')", expr: call('array_join', array(str('hello'), nul(), str('world')), str(' ')), expected: ['hello world'] },
    { sql: 'array_max(array(1, 20, null, 3))', expr: call('array_max', array(int(1), int(20), nul(), int(3))), expected: [20] },
    { sql: 'array_min(array(1, 20, null, 3))', expr: call('array_min', array(int(1), int(20), nul(), int(3))), expected: [1] },
    { sql: 'array_position(array(3, 2, 1), 1)', expr: call('array_position', array(int(3), int(2), int(1)), int(1)), expected: [3] },
    { sql: 'array_remove(array(1, 2, 3, null, 3), 3)', expr: call('array_remove', array(int(1), int(2), int(3), nul(), int(3)), int(3)), expected: [[1, 2, null]] },
    { sql: "array_repeat('123', 2)", expr: call('array_repeat', str('123'), int(2)), expected: [['123', '123']] },
    { sql: "array_sort(array('b', 'd', null, 'c', 'a'))", expr: call('array_sort', array(str('b'), str('d'), nul(), str('c'), str('a'))), expected: [['a', 'b', 'c', 'd', null]] },
    { sql: "sort_array(array('b', 'd', null, 'c', 'a'), true)", expr: call('sort_array', array(str('b'), str('d'), nul(), str('c'), str('a')), bool(true)), expected: [[null, 'a', 'b', 'c', 'd']] },
    { sql: 'arrays_overlap(array(1, 2, 3), array(3, 4, 5))', expr: call('arrays_overlap', array(int(1), int(2), int(3)), array(int(3), int(4), int(5))), expected: [true] },
    { sql: 'flatten(array(array(1, 2), array(3, 4)))', expr: call('flatten', array(array(int(1), int(2)), array(int(3), int(4)))), expected: [[1, 2, 3, 4]] },
    { sql: 'slice(array(1, 2, 3, 4), 2, 2)', expr: call('slice', array(int(1), int(2), int(3), int(4)), int(2), int(2)), expected: [[2, 3]] },
    { sql: 'slice(array(1, 2, 3, 4), -2, 2)', expr: call('slice', array(int(1), int(2), int(3), int(4)), int(-2), int(2)), expected: [[3, 4]] },
    { sql: 'element_at(array(1, 2, 3), -1)', expr: call('element_at', array(int(1), int(2), int(3)), int(-1)), expected: [3] },
    { sql: "element_at(map(1, 'a', 2, 'b'), 2)", expr: call('element_at', map(int(1), str('a'), int(2), str('b')), int(2)), expected: ['b'] },
    { sql: "size(map('a', 1, 'b', 2))", expr: call('size', map(str('a'), int(1), str('b'), int(2))), expected: [2] },
    { sql: "map_keys(map(1, 'a', 2, 'b'))", expr: call('map_keys', map(int(1), str('a'), int(2), str('b'))), expected: [[1, 2]] },
    { sql: "map_values(map(1, 'a', 2, 'b'))", expr: call('map_values', map(int(1), str('a'), int(2), str('b'))), expected: [['a', 'b']] },
    { sql: 'exists(array(1, 2, 3), x -> x % 2 == 0)', expr: call('exists', array(int(1), int(2), int(3)), lambda(['x'], eq(bin('%', col('x'), int(2)), int(0)))), expected: [true] },
    { sql: 'forall(array(1, 2, 3), x -> x % 2 == 0)', expr: call('forall', array(int(1), int(2), int(3)), lambda(['x'], eq(bin('%', col('x'), int(2)), int(0)))), expected: [false] },
    { sql: 'transform(array(1, 2, 3), (x, i) -> x + i)', expr: call('transform', array(int(1), int(2), int(3)), lambda(['x', 'i'], bin('+', col('x'), col('i')))), expected: [[1, 3, 5]] },
    { sql: 'filter(array(0, 2, 3), (x, i) -> x > i)', expr: call('filter', array(int(0), int(2), int(3)), lambda(['x', 'i'], gt(col('x'), col('i')))), expected: [[2, 3]] },
    {
        sql: 'aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x, acc -> acc * 10)',
        expr: call('aggregate', array(int(1), int(2), int(3)), int(0), lambda(['acc', 'x'], bin('+', col('acc'), col('x'))), lambda(['acc'], bin('*', col('acc'), int(10)))), expected: [60],
    },
    { sql: 'reduce(array(1, 2, 3), 0, (acc, x) -> acc + x)', expr: call('reduce', array(int(1), int(2), int(3)), int(0), lambda(['acc', 'x'], bin('+', col('acc'), col('x')))), expected: [6] },
    { sql: "str_to_map('a:1,b:2,c:3', ',', ':')", expr: call('str_to_map', str('a:1,b:2,c:3'), str(','), str(':')), expected: [{ a: '1', b: '2', c: '3' }] },
    { sql: 'get_json_object(\'{"a":"b"}\', \'$.a\')', expr: call('get_json_object', str('{"a":"b"}'), str('$.a')), expected: ['b'] },
    { sql: 'get_json_object(\'not json\', \'$.a\')', expr: call('get_json_object', str('not json'), str('$.a')), expected: [null] },
    { sql: 'from_json(\'{"a":1, "b":0.8}\', \'a INT, b DOUBLE\')', expr: call('from_json', str('{"a":1, "b":0.8}'), str('a INT, b DOUBLE')), expected: [{ a: 1, b: 0.8 }] },
    { sql: "to_json(named_struct('a', 1, 'b', 2))", expr: call('to_json', call('named_struct', str('a'), int(1), str('b'), int(2))), expected: ['{"a":1,"b":2}'] },
    { sql: "json_array_length('[1,2,3,4]')", expr: call('json_array_length', str('[1,2,3,4]')), expected: [4] },
    { sql: '\'{"a":[{"b":7}]}\':a[0].b', expr: json(str('{"a":[{"b":7}]}'), 'a', 0, 'b'), expected: ['7'] },
    { sql: 'count_if(col % 2 = 0) FROM VALUES (NULL), (0), (1), (2), (3)', query: select([call('count_if', eq(bin('%', col('c'), int(2)), int(0)))], { from: [tbl([[nul()], [int(0)], [int(1)], [int(2)], [int(3)]], 'c')] }), expected: [2] },
    { sql: "max_by(x, y) FROM VALUES ('a', 10), ('b', 50), ('c', 20)", query: select([call('max_by', col('x'), col('y'))], { from: [tbl([[str('a'), int(10)], [str('b'), int(50)], [str('c'), int(20)]], 'x', 'y')] }), expected: ['b'] },
    { sql: "min_by(x, y) FROM VALUES ('a', 10), ('b', 50), ('c', 20)", query: select([call('min_by', col('x'), col('y'))], { from: [tbl([[str('a'), int(10)], [str('b'), int(50)], [str('c'), int(20)]], 'x', 'y')] }), expected: ['a'] },
    { sql: 'bool_and(col) FROM VALUES (true), (false), (true)', query: select([call('bool_and', col('c'))], { from: [tbl([[bool(true)], [bool(false)], [bool(true)]], 'c')] }), expected: [false] },
    { sql: 'collect_list(col) FROM VALUES (1), (2), (NULL), (1)', query: select([call('collect_list', col('c'))], { from: [tbl([[int(1)], [int(2)], [nul()], [int(1)]], 'c')] }), expected: [[1, 2, 1]] },
    { sql: 'collect_list(col) FROM VALUES (NULL)', query: select([call('collect_list', col('c'))], { from: [tbl([[cast(nul(), 'INT')]], 'c')] }), expected: [[]] },
    { sql: 'percentile(col, 0.3) FROM VALUES (0), (10)', query: select([call('percentile', col('c'), dec('0.3'))], { from: [tbl([[int(0)], [int(10)]], 'c')] }), expected: [3] },
    { sql: 'median(col) FROM VALUES (0), (10)', query: select([call('median', col('c'))], { from: [tbl([[int(0)], [int(10)]], 'c')] }), expected: [5] },
    { sql: 'stddev(col) FROM VALUES (1), (2), (3)', query: select([call('stddev', col('c'))], { from: [tbl([[int(1)], [int(2)], [int(3)]], 'c')] }), expected: [1] },
    { sql: 'first(col, true) FROM VALUES (NULL), (5), (20)', query: select([call('first', col('c'), bool(true))], { from: [tbl([[nul()], [int(5)], [int(20)]], 'c')] }), expected: [5] },
    { sql: 'last(col) FROM VALUES (10), (5), (20)', query: select([call('last', col('c'))], { from: [tbl([[int(10)], [int(5)], [int(20)]], 'c')] }), expected: [20] },
    { sql: 'approx_count_distinct(col1) FROM VALUES (1), (1), (2), (2), (3)', query: select([call('approx_count_distinct', col('c'))], { from: [tbl([[int(1)], [int(1)], [int(2)], [int(2)], [int(3)]], 'c')] }), expected: [3] },
    { sql: 'sum(col) FROM VALUES (5), (10), (15)', query: select([call('sum', col('c'))], { from: [tbl([[int(5)], [int(10)], [int(15)]], 'c')] }), expected: [30] },
    { sql: 'avg(col) FROM VALUES (1), (2), (3)', query: select([call('avg', col('c'))], { from: [tbl([[int(1)], [int(2)], [int(3)]], 'c')] }), expected: [2] },
    { sql: 'count(*) FROM VALUES (NULL), (5), (5), (20)', query: select([countStar()], { from: [tbl([[nul()], [int(5)], [int(5)], [int(20)]], 'c')] }), expected: [4] },
    { sql: 'count(DISTINCT col) FROM VALUES (NULL), (5), (5), (10)', query: select([{ kind: 'call', name: 'count', args: [col('c')], distinct: true }], { from: [tbl([[nul()], [int(5)], [int(5)], [int(10)]], 'c')] }), expected: [2] },
    { sql: 'typeof(1.5)', expr: call('typeof', dec('1.5')), expected: ['decimal(2,1)'] },
    { sql: "typeof(array('a'))", expr: call('typeof', array(str('a'))), expected: ['array<string>'] },
    { sql: 'cast(1e3 as string)', expr: cast(dbl('1e3'), 'STRING'), expected: ['1000.0'] },
];

/** Queries: null ordering, joins, set operations, windows, grouping, generators. */
const queries: Case[] = [
    {
        sql: 'SELECT x FROM VALUES (2), (NULL), (1) AS t(x) ORDER BY x DESC',
        query: select([col('x')], { from: [tbl([[int(2)], [nul()], [int(1)]], 'x')], orderBy: [desc(col('x'))] }), expected: [2, 1, null],
    },
    {
        sql: 'SELECT x, row_number() OVER (ORDER BY x) FROM VALUES (3), (1), (2) AS t(x) ORDER BY x',
        query: select([col('x'), [over(call('row_number'), [], [asc(col('x'))]), 'rn']], { from: [tbl([[int(3)], [int(1)], [int(2)]], 'x')], orderBy: [asc(col('rn'))] }), expected: [1, 2, 3],
    },
    {
        sql: 'SELECT sum(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM VALUES (1), (2), (3)',
        query: select([[over(call('sum', col('x')), [], [asc(col('x'))], { unit: 'rows', start: { kind: 'preceding', offset: int(1) } }), 's']], { from: [tbl([[int(1)], [int(2)], [int(3)]], 'x')], orderBy: [asc(col('s'))] }),
        expected: [1, 3, 5],
    },
    {
        sql: 'SELECT lag(x, 1, 0) OVER (ORDER BY x) FROM VALUES (1), (2) ORDER BY 1',
        query: select([over(call('lag', col('x'), int(1), int(0)), [], [asc(col('x'))])], { from: [tbl([[int(1)], [int(2)]], 'x')], orderBy: [asc(int(1))] }), expected: [0, 1],
    },
    {
        sql: 'SELECT a FROM VALUES (1), (2) AS l(a) LEFT SEMI JOIN VALUES (2) AS r(b) ON a = b',
        query: select([col('a')], { from: [{ kind: 'join', joinType: 'semi', left: values([[int(1)], [int(2)]], 'l', ['a']), right: values([[int(2)]], 'r', ['b']), on: eq(col('a'), col('b')) }] }), expected: [2],
    },
    {
        sql: 'SELECT a FROM VALUES (1), (2) AS l(a) LEFT ANTI JOIN VALUES (2) AS r(b) ON a = b',
        query: select([col('a')], { from: [{ kind: 'join', joinType: 'anti', left: values([[int(1)], [int(2)]], 'l', ['a']), right: values([[int(2)]], 'r', ['b']), on: eq(col('a'), col('b')) }] }), expected: [1],
    },
    {
        sql: 'SELECT coalesce(l.a, r.b) FROM VALUES (1) AS l(a) FULL JOIN VALUES (2) AS r(b) ON a = b ORDER BY 1',
        query: select([call('coalesce', col('l.a'), col('r.b'))], { from: [{ kind: 'join', joinType: 'full', left: values([[int(1)]], 'l', ['a']), right: values([[int(2)]], 'r', ['b']), on: eq(col('a'), col('b')) }], orderBy: [asc(int(1))] }),
        expected: [1, 2],
    },
    {
        sql: 'SELECT 1 UNION SELECT 1',
        query: { kind: 'query', body: { kind: 'set_operation', op: 'union', all: false, left: select([int(1)]), right: select([int(1)]) } }, expected: [1],
    },
    {
        sql: 'SELECT 1 UNION ALL SELECT 1',
        query: { kind: 'query', body: { kind: 'set_operation', op: 'union', all: true, left: select([int(1)]), right: select([int(1)]) } }, expected: [1, 1],
    },
    {
        sql: 'WITH c AS (SELECT 2 AS x) SELECT x * 10 FROM c',
        query: { ...select([bin('*', col('x'), int(10))], { from: [{ kind: 'table', source: { kind: 'cte', name: 'c' }, streaming: false }] }), with: { recursive: false, ctes: [{ name: 'c', query: select([[int(2), 'x']]) }] } },
        expected: [20],
    },
    {
        sql: 'SELECT grouping_id(), a, sum(v) FROM VALUES (1, 10), (1, 20), (2, 5) AS t(a, v) GROUP BY ROLLUP(a) ORDER BY 1, 2',
        query: {
            kind: 'query',
            body: {
                kind: 'select', distinct: false, items: [{ kind: 'expr', expr: call('grouping_id'), alias: 'g' }, { kind: 'expr', expr: call('sum', col('v')), alias: 's' }],
                from: [tbl([[int(1), int(10)], [int(1), int(20)], [int(2), int(5)]], 'a', 'v')], groupBy: { items: [{ kind: 'rollup', exprs: [col('a')] }] },
            },
            orderBy: [asc(col('g')), asc(col('s'))],
        },
        expected: [0, 0, 1],
    },
    {
        sql: 'SELECT a FROM VALUES (1, 10), (2, 20) AS t(a, v) QUALIFY row_number() OVER (ORDER BY v DESC) = 1',
        query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'expr', expr: col('a') }], from: [tbl([[int(1), int(10)], [int(2), int(20)]], 'a', 'v')], qualify: eq(over(call('row_number'), [], [desc(col('v'))]), int(1)) } },
        expected: [2],
    },
    {
        sql: "SELECT key FROM (SELECT explode(map('a', 1, 'b', 2)))",
        query: select([col('key')], { from: [sub(select([call('explode', map(str('a'), int(1), str('b'), int(2)))]))], orderBy: [asc(col('key'))] }), expected: ['a', 'b'],
    },
    {
        sql: 'SELECT x FROM (SELECT array() AS arr) LATERAL VIEW OUTER explode(arr) t AS x',
        query: select([col('x')], { from: [{ kind: 'lateral_view', input: sub(select([[cast(array(), 'ARRAY<INT>'), 'arr']])), generator: { kind: 'call', name: 'explode', args: [col('arr')] }, outer: true, alias: 't', columnAliases: ['x'] }] }),
        expected: [null],
    },
    {
        sql: 'SELECT a FROM VALUES (1), (2), (3) AS t(a) WHERE a IN (SELECT 2) OR EXISTS (SELECT 1 WHERE a > 2)',
        query: select([col('a')], {
            from: [tbl([[int(1)], [int(2)], [int(3)]], 'a')],
            where: bin('or', { kind: 'in_subquery', exprs: [col('a')], query: select([int(2)]), not: false }, { kind: 'exists', not: false, query: select([int(1)], { where: gt(col('a'), int(2)) }) }),
            orderBy: [asc(col('a'))],
        }),
        expected: [2, 3],
    },
    {
        sql: "SELECT * FROM (SELECT 'a' AS k, 1 AS v) PIVOT (sum(v) FOR k IN ('a' AS a, 'b' AS b))",
        query: select(['*'], { from: [{ kind: 'pivot', input: sub(select([[str('a'), 'k'], [int(1), 'v']])), aggregates: [{ expr: call('sum', col('v')) }], columns: [col('k')], values: [{ values: [str('a')], alias: 'a' }, { values: [str('b')], alias: 'b' }] }] }),
        expected: [1],
    },
    {
        sql: 'SELECT name FROM (SELECT 1 AS a, 2 AS b) UNPIVOT (val FOR name IN (a, b))',
        query: select([col('name')], { from: [{ kind: 'unpivot', input: sub(select([[int(1), 'a'], [int(2), 'b']])), includeNulls: false, valueColumn: 'val', nameColumn: 'name', columns: [{ column: 'a' }, { column: 'b' }] }], orderBy: [asc(col('name'))] }),
        expected: ['a', 'b'],
    },
    {
        sql: "SELECT TIMESTAMP'2024-01-31 10:00:00' + INTERVAL 1 MONTH 2 HOURS",
        expr: bin('+', ts('2024-01-31 10:00:00'), { kind: 'interval', months: 1, days: 0, microseconds: 7_200_000_000 }), expected: ['2024-02-29 12:00:00'],
    },
    { sql: "SELECT DATE'2024-01-31' - INTERVAL 1 DAY", expr: bin('-', date('2024-01-31'), { kind: 'interval', months: 0, days: 1, microseconds: 0 }), expected: ['2024-01-30'] },
    { sql: 'SELECT 5 BETWEEN 1 AND 10', expr: { kind: 'between', expr: int(5), low: int(1), high: int(10), not: false }, expected: [true] },
    { sql: "SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END", expr: { kind: 'case', operand: int(2), branches: [{ when: int(1), then: str('one') }, { when: int(2), then: str('two') }], else: str('many') }, expected: ['two'] },
    { sql: "SELECT 'spark' LIKE ANY ('%ar%', 'x%')", expr: { kind: 'like', op: 'like', expr: str('spark'), patterns: [str('%ar%'), str('x%')], quantifier: 'any', not: false }, expected: [true] },
    { sql: "SELECT 'spark' LIKE ALL ('%ar%', 'x%')", expr: { kind: 'like', op: 'like', expr: str('spark'), patterns: [str('%ar%'), str('x%')], quantifier: 'all', not: false }, expected: [false] },
    { sql: 'SELECT NULL IS NOT TRUE', expr: { kind: 'is_bool', expr: nul(), value: true, not: true }, expected: [true] },
    { sql: 'SELECT 1 IS DISTINCT FROM NULL', expr: { kind: 'is_distinct_from', left: int(1), right: nul(), not: false }, expected: [true] },
    { sql: 'SELECT CAST(3.14159 AS DECIMAL(5,2))', expr: cast(dec('3.14159'), 'DECIMAL(5,2)'), expected: [3.14] },
    { sql: "SELECT CAST('2024-02-29' AS DATE) + 1", expr: bin('+', cast(str('2024-02-29'), 'DATE'), int(1)), expected: ['2024-03-01'] },
    { sql: 'SELECT 2147483647 + 1', expr: bin('+', int(2147483647), int(1)), error: 'ARITHMETIC_OVERFLOW' },
    {
        sql: 'SELECT a, sum(v) FROM VALUES (1, 10), (1, 20), (2, 5) AS t(a, v) GROUP BY ALL ORDER BY a',
        query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'expr', expr: col('a') }, { kind: 'expr', expr: call('sum', col('v')), alias: 's' }], from: [tbl([[int(1), int(10)], [int(1), int(20)], [int(2), int(5)]], 'a', 'v')], groupBy: { all: true, items: [] } }, orderBy: [asc(col('a'))] },
        expected: [1, 2],
    },
    {
        sql: 'SELECT sum(v) OVER w FROM VALUES (1, 10), (1, 20) AS t(a, v) WINDOW w AS (PARTITION BY a ORDER BY v) ORDER BY 1',
        query: {
            kind: 'query',
            body: {
                kind: 'select', distinct: false, items: [{ kind: 'expr', expr: { kind: 'call', name: 'sum', args: [col('v')], over: { ref: 'w', partitionBy: [], orderBy: [] } }, alias: 's' }],
                from: [tbl([[int(1), int(10)], [int(1), int(20)]], 'a', 'v')], windows: [{ name: 'w', spec: { partitionBy: [col('a')], orderBy: [asc(col('v'))] } }],
            },
            orderBy: [asc(int(1))],
        },
        expected: [10, 30],
    },
    {
        sql: 'SELECT a FROM VALUES (1, 2), (3, 4) AS t(a, b) WHERE (a, b) IN (SELECT 3, 4)',
        query: select([col('a')], { from: [tbl([[int(1), int(2)], [int(3), int(4)]], 'a', 'b')], where: { kind: 'in_subquery', exprs: [col('a'), col('b')], query: select([int(3), int(4)]), not: false } }),
        expected: [3],
    },
    {
        sql: 'SELECT l.a FROM VALUES (1) AS l(a) JOIN VALUES (1) AS r(a) USING (a)',
        query: select([col('l.a')], { from: [{ kind: 'join', joinType: 'inner', left: values([[int(1)]], 'l', ['a']), right: values([[int(1)]], 'r', ['a']), using: ['a'] }] }),
        expected: [1],
    },
];

/** Spark errors (ANSI mode, Spark 4 default) that must not become silent wrong answers. */
const errors: Case[] = [
    { sql: 'SELECT 1 / 0', expr: bin('/', int(1), int(0)), error: 'DIVIDE_BY_ZERO' },
    { sql: 'SELECT 1 % 0', expr: bin('%', int(1), int(0)), error: 'DIVIDE_BY_ZERO' },
    { sql: "SELECT CAST('1.7' AS INT)", expr: cast(str('1.7'), 'INT'), error: 'CAST_INVALID_INPUT' },
    { sql: "SELECT CAST('abc' AS DATE)", expr: cast(str('abc'), 'DATE'), error: 'CAST_INVALID_INPUT' },
    { sql: 'SELECT array(1, 2)[5]', expr: at(array(int(1), int(2)), int(5)), error: 'INVALID_ARRAY_INDEX' },
    { sql: 'SELECT element_at(array(1, 2), 0)', expr: call('element_at', array(int(1), int(2)), int(0)), error: 'INVALID_INDEX_OF_ZERO' },
    { sql: 'SELECT unknown_fn(1)', expr: call('unknown_fn', int(1)), error: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION' },
    { sql: "SELECT sha2('abc', 512)", expr: call('sha2', str('abc'), int(512)), error: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION' },
    { sql: "SELECT date_format(DATE'2024-01-01', 'QQQ')", expr: call('date_format', date('2024-01-01'), str('QQQ')), error: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION' },
    { sql: 'SELECT lower()', expr: call('lower'), error: 'WRONG_NUM_ARGS.WITHOUT_SUGGESTION' },
    { sql: 'SELECT row_number()', expr: call('row_number'), error: 'WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE' },
    { sql: "SELECT to_json(named_struct('t', TIMESTAMP'2024-01-01 00:00:00'))", expr: call('to_json', call('named_struct', str('t'), ts('2024-01-01 00:00:00'))), error: 'PIPELINE_SQL_UNSUPPORTED_FUNCTION' },
    { sql: 'SELECT try_divide(1, 0)', expr: call('try_divide', int(1), int(0)), expected: [null] },
];

let evaluator: Evaluator;
beforeAll(async () => {
    evaluator = await Evaluator.open();
});
afterAll(() => evaluator.close());

async function check(c: Case): Promise<void> {
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
