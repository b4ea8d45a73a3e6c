// Property test of the SQL builder (issue 9 item 1): random string literals and identifiers full
// of SQL and `String.prototype.replace` metacharacters pass through every function template of the
// function table, every aggregate wrapper, the CDC folds and parameter substitution, and come back
// from a real DuckDB as data, equal to what went in (or to Spark's result).
//
// Seeded: a failure prints its seed; `PSQL_PROPERTY_SEED=n` replays it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../engine/src/db/database.js';
import { toJsonValue, type JsonValue } from '../../../engine/src/db/values.js';
import { EngineError } from '../../../engine/src/errors.js';
import type { CallExprIR, ExprIR, QueryIR } from '../../../engine/src/ir.js';
import { localFunctions } from '../../../engine/src/spark/functions/catalog.js';
import { SparkTranslator } from '../../../engine/src/sql/translate.js';
import { prng } from '../../helpers/prng.js';
import {
    autoCdc, call, col, eq, int, materializedView, mvFlow, pipeline, select, str, stream, streamingTable, table, values,
} from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';
import { errors, queries, reference, seed as seedCases, type SparkCase } from './spark-cases.js';

const SEED = Number(process.env.PSQL_PROPERTY_SEED ?? 917);

/** Pieces that break naive SQL building: quotes, every replacement pattern, comments, escapes, NUL, astral and lone surrogates. */
const PIECES = [
    '\'', '"', '\\', '$\'', '$&', '$`', '$$', '$1', '$0', '$<g>', '`', '\n', '\r\n', '\t', '\0', '😀', '𝄞', '\uD800', '\uDFFF',
    '--', '/*', '*/', ';', '%', '_', '${x}', '{}', '(', ')', ',', '[', ']', ':', '~', '/', ' ', 'a', 'Z', '9', 'é', 'ß', 'DROP TABLE t',
    '\'); COPY (SELECT 1) TO \'/tmp/x\'; --', '$$);--', 'E\'\\x41\'',
];

/** A random hostile string of up to `max` pieces. */
function hostile(random: () => number, max = 8): string {
    const n = Math.floor(random() * (max + 1));
    let out = '';
    for (let i = 0; i < n; i++) {
        out += PIECES[Math.floor(random() * PIECES.length)];
    }
    return out;
}

/** What DuckDB holds for a JS string: UTF-8, so an unpaired surrogate is `?` (as Java, and Spark, write it). */
function asStored(text: string): string {
    return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, () => '?');
}

const now = { date: '2024-05-06', timestamp: '2024-05-06 07:08:09' };

let db: Database;
beforeAll(async () => {
    db = await Database.open(':memory:');
});
afterAll(() => db.close());

function translator(conf?: Record<string, string>): SparkTranslator {
    return new SparkTranslator({
        now, conf,
        resolveTable: relation => {
            throw new Error(`no tables here: ${JSON.stringify(relation.source)}`);
        },
    });
}

/** Runs a query; rows of JSON values, or the error (with DuckDB's own message, whose first word tells a parser error). */
async function run(query: QueryIR, conf?: Record<string, string>): Promise<{ rows: JsonValue[][] } | { error: EngineError; duckdb: string; sql?: string }> {
    let sqlText: string | undefined;
    try {
        const translated = translator(conf).query(query);
        sqlText = translated.sql;
        const result = await db.query(translated.sql);
        return { rows: result.rows.map(r => r.map(toJsonValue)) };
    } catch (error) {
        if (!(error instanceof EngineError)) {
            throw error;
        }
        const cause = error.cause instanceof Error ? error.cause.message : '';
        return { error, duckdb: cause, sql: sqlText };
    }
}

const selectExpr = (...items: [ExprIR, string][]): QueryIR => select(items.map(([e, alias]) => [e, alias]));
/** `CASE WHEN h = h THEN e END`: the value of e, with hostile text spliced around it. */
const around = (e: ExprIR, h: string): ExprIR => ({ kind: 'case', branches: [{ when: eq(str(h), str(h)), then: e }] });

describe(`string literals are data (seed ${SEED})`, () => {
    it('a literal comes back as written, alone, in every aggregate wrapper and in the common string functions', async () => {
        const random = prng(SEED);
        for (let i = 0; i < 60; i++) {
            const [a, b] = [hostile(random), hostile(random)];
            const [sa, sb] = [asStored(a), asStored(b)];
            const from = [values([[str(a), str(b)], [str(b), str(a)]], 't', ['x', 'y'])];
            const context = `seed ${SEED}, case ${i}: ${JSON.stringify([a, b])}`;
            const scalars = await run(selectExpr(
                [str(a), 'lit'],
                [call('concat', str(a), str(b)), 'concat'],
                [call('coalesce', { kind: 'literal', type: { kind: 'string' }, value: null }, str(a)), 'coalesce'],
                [call('if', { kind: 'literal', type: { kind: 'boolean' }, value: true }, str(a), str(b)), 'if'],
                [{ kind: 'subscript', expr: call('array', str(a), str(b)), index: int(1) }, 'subscript'],
                [{ kind: 'field', expr: call('named_struct', str('k'), str(a)), field: 'k' }, 'named_struct'],
                [{ kind: 'subscript', expr: call('map', str('k'), str(b)), index: str('k') }, 'map'],
                [call('replace', str(a), str('\u0001'), str(b)), 'replace'],
                [call('regexp_replace', str(a), str('[^\\s\\S]'), str(b)), 'regexp_replace_no_match'],
                [{ kind: 'like', op: 'like', expr: str(a), patterns: [str(a.replace(/[\\%_]/g, c => `\\${c}`))], not: false }, 'like_itself'],
                [call('concat_ws', str(b), str(a), str(a)), 'concat_ws'],
            ));
            expect(scalars, context).toEqual({
                rows: [[sa, sa + sb, sa, sa, sb, sa, sb, sa, sa, true, `${sa}${sb}${sa}`]],
            });
            const aggregates = await run(select([
                [call('collect_list', col('x')), 'list'],
                [call('array_agg', col('x')), 'agg'],
                [call('collect_set', col('x')), 'set'],
                [call('min', col('x')), 'min'],
                [call('max', col('x')), 'max'],
                [call('count', col('x')), 'n'],
                [call('string_agg', col('x'), str(b)), 'string_agg'],
            ], { from }));
            expect('rows' in aggregates, `${context}: ${'error' in aggregates ? aggregates.error.message : ''}`).toBe(true);
            const [list, agg, set, min, max, n, joined] = (aggregates as { rows: JsonValue[][] }).rows[0];
            expect([...list as string[]].sort(), context).toEqual([sa, sb].sort());
            expect([...agg as string[]].sort(), context).toEqual([sa, sb].sort());
            expect([...set as string[]].sort(), context).toEqual([...new Set([sa, sb])].sort());
            // DuckDB's VARCHAR order is byte order, which is Spark's (UTF-8 binary).
            const sortedBytes = [sa, sb].sort((p, q) => Buffer.compare(Buffer.from(p), Buffer.from(q)));
            expect([min, max, n], context).toEqual([sortedBytes[0], sortedBytes[1], 2]);
            expect([`${sa}${sb}${sb}`, `${sb}${sb}${sa}`], context).toContain(joined);
        }
    });

    it('collect_list(concat(name, \' US$\')) runs (it was a DuckDB syntax error)', async () => {
        const result = await run(select([[call('collect_list', call('concat', col('name'), str(' US$'))), 'names']],
            { from: [values([[str('a')], [str('b')]], 't', ['name'])] }));
        expect(result).toEqual({ rows: [[['a US$', 'b US$']]] });
    });

    it('regexp_replace reads its replacement as Java does ($n a group, \\c the character c, a bad $ an error when the pattern matches)', async () => {
        const random = prng(SEED + 1);
        for (let i = 0; i < 80; i++) {
            // Built from pieces whose Java meaning is known: the expected text is assembled alongside.
            let replacement = '';
            let expected: string | undefined = '';
            const n = 1 + Math.floor(random() * 6);
            for (let j = 0; j < n; j++) {
                const r = random();
                if (r < 0.4) {
                    // (A digit right after a group reference would extend it: the fixed cases below cover that.)
                    // (Unpaired surrogates are covered by the literal tests; here two of them could pair up.)
                    const c = asStored(hostile(random, 2)).replace(/[\\$]/g, '').replace(/^[0-9]/, 'x$&');
                    replacement += c;
                    expected = expected === undefined ? undefined : expected + c;
                } else if (r < 0.6) {
                    const c = asStored(PIECES[Math.floor(random() * PIECES.length)][0] ?? 'x');
                    replacement += `\\${c}`;
                    expected = expected === undefined ? undefined : expected + c;
                } else if (r < 0.8) {
                    replacement += random() < 0.5 ? '$0' : '$1';
                    expected = expected === undefined ? undefined : `${expected}b`;
                } else if (r < 0.9) {
                    replacement += '$2';
                    expected = undefined; // No group 2.
                } else {
                    replacement += '$x';
                    expected = undefined; // Illegal group reference.
                }
            }
            const literal = await run(selectExpr([call('regexp_replace', str('abc'), str('(b)'), str(replacement)), 'r']));
            // The same replacement given by an expression (converted by DuckDB for each row).
            const computed = await run(selectExpr([call('regexp_replace', str('abc'), str('(b)'), call('concat', str(replacement), str(''))), 'r']));
            const context = `seed ${SEED + 1}, case ${i}: ${JSON.stringify(replacement)}`;
            for (const result of [literal, computed]) {
                if (expected === undefined) {
                    expect('error' in result ? result.error.code : result.rows, context).toBe('PIPELINE_SQL_QUERY_ERROR');
                } else {
                    expect(result, context).toEqual({ rows: [[`a${expected}c`]] });
                }
            }
        }
    });

    it.each([
        ['$00', 'abc', 'abc'], ['$01', 'abc', 'abc'], ['$05', 'abc', 'ab5c'], ['$10', 'abc', 'ab0c'], ['$12', 'abc', 'ab2c'],
        ['\\$1', 'abc', 'a$1c'], ['\\\\', 'abc', 'a\\c'], ['x$', 'abc', 'PIPELINE_SQL_QUERY_ERROR'], ['$5', 'abc', 'PIPELINE_SQL_QUERY_ERROR'],
        ['$5', 'zz', 'zz'],
    ])('regexp_replace(%j, \'(b)\', ...) of %j reads the replacement as Java does', async (replacement, input, expected) => {
        for (const rep of [str(replacement), call('concat', str(replacement), str(''))]) {
            const result = await run(selectExpr([call('regexp_replace', str(input), str('(b)'), rep), 'r']));
            expect('error' in result ? result.error.code : result.rows[0][0], JSON.stringify(rep)).toBe(expected);
        }
    });

    it('a Databricks JSON path with any field name reads that field', async () => {
        const random = prng(SEED + 2);
        for (let i = 0; i < 40; i++) {
            // JSON cannot carry a NUL or a lone surrogate through DuckDB's parser unchanged.
            const name = asStored(hostile(random)).replace(/\0/g, '');
            const doc = JSON.stringify({ [name]: { inner: [10, 20] } });
            const path: ({ kind: 'field'; name: string } | { kind: 'index'; index: number })[] = [{ kind: 'field', name }, { kind: 'field', name: 'inner' }, { kind: 'index', index: 1 }];
            const result = await run(selectExpr([{ kind: 'json_path', expr: str(doc), path }, 'v']));
            expect(result, `seed ${SEED + 2}, case ${i}: ${JSON.stringify(name)}`).toEqual({ rows: [['20']] });
        }
    });
});

describe(`identifiers are names (seed ${SEED})`, () => {
    it('column aliases, struct fields, CTE and table aliases of any text are the names DuckDB returns', async () => {
        const random = prng(SEED + 3);
        for (let i = 0; i < 40; i++) {
            const name = hostile(random).replace(/\0/g, '') || 'x';
            const other = `${hostile(random).replace(/\0/g, '')}2`;
            const stored = asStored(name);
            const query: QueryIR = {
                kind: 'query',
                with: { recursive: false, ctes: [{ name, query: select([[str(name), other]]) }] },
                body: {
                    kind: 'select', distinct: false,
                    items: [
                        { kind: 'expr', expr: col(other), alias: name },
                        { kind: 'expr', expr: { kind: 'field', expr: { kind: 'struct', fields: [{ name, value: int(7) }] }, field: name }, alias: other },
                    ],
                    from: [{ kind: 'table', source: { kind: 'cte', name }, streaming: false, alias: other }],
                },
            };
            const translated = translator().query(query);
            const result = await db.query(translated.sql);
            const context = `seed ${SEED + 3}, case ${i}: ${JSON.stringify([name, other])}`;
            expect(result.columns.map(c => c.name), context).toEqual([stored, asStored(other)]);
            expect(result.rows.map(r => r.map(toJsonValue)), context).toEqual([[stored, 7]]);
        }
    });
});

/** Every scalar, aggregate and window row of the function table with `arity` arguments. */
function calls(arity: (min: number, max: number) => number[]): { name: string; args: number }[] {
    const out: { name: string; args: number }[] = [];
    for (const [name, spec] of localFunctions()) {
        // Generators and the functions the engine runs in its own code have no template to splice into.
        if (spec.kind === 'generator' || spec.kind === 'native') {
            continue;
        }
        for (const n of arity(spec.min, spec.max)) {
            out.push({ name, args: n });
        }
    }
    return out;
}

describe(`every function template splices its arguments as SQL pieces (seed ${SEED})`, () => {
    it('hostile string arguments never make the SQL unparseable, and a probe beside the call comes back intact', async () => {
        const random = prng(SEED + 4);
        const tried = calls((min, max) => [...new Set([min, Math.min(max, min + 1), Math.min(max, min + 2)])]);
        let ran = 0;
        for (const { name, args } of tried) {
            const texts = Array.from({ length: args }, () => hostile(random));
            const probe = hostile(random);
            const spec = localFunctions().get(name)!;
            const callIR: CallExprIR = { kind: 'call', name, args: texts.map(t => str(t)) };
            if (spec.kind === 'window') {
                callIR.over = { partitionBy: [], orderBy: [] };
            }
            const result = await run(selectExpr([callIR, 'r'], [str(probe), 'probe']));
            const context = `seed ${SEED + 4}: ${name}(${texts.map(t => JSON.stringify(t)).join(', ')})`;
            if ('rows' in result) {
                ran++;
                expect(result.rows[0][1], context).toBe(asStored(probe));
            } else {
                // Refused by the translation, or a DuckDB type / value error on string input: fine.
                // A parser error would mean the hostile text was spliced as SQL.
                expect(result.duckdb, `${context}\n${result.sql ?? ''}`).not.toMatch(/^Parser Error|syntax error/i);
            }
        }
        console.log(`function templates: ${tried.length} calls of ${localFunctions().size} functions with hostile arguments, ${ran} ran on DuckDB`);
        expect(ran).toBeGreaterThan(100);
    });

    it('every Spark-behaviour case gives Spark\'s result with hostile text spliced around each of its literals', async () => {
        const random = prng(SEED + 5);
        let wrapped = 0;
        const cases: SparkCase[] = [...seedCases, ...reference, ...queries, ...errors];
        for (const c of cases) {
            const h = hostile(random);
            // Literals a translation reads as constants (patterns, units, schemas) stay bare, and so do
            // numbers (a numeric literal's own digits decide Spark's decimal result types); hostile text
            // surrounds every other literal of the case.
            const numeric = (e: ExprIR): boolean => e.kind === 'literal' && ['tinyint', 'smallint', 'int', 'bigint', 'decimal', 'float', 'double'].includes(e.type.kind);
            const rewrite = (e: ExprIR, inCall: boolean): ExprIR => (e.kind === 'literal' && !inCall && !numeric(e) ? around(e, h) : mapChildren(e, child => rewrite(child, e.kind === 'call')));
            const expr = c.expr ? rewrite(c.expr, false) : undefined;
            const original = c.query ? await run(c.query) : await run(selectExpr([c.expr!, 'r']));
            const changed = c.query ? await run(mapQueryExprs(c.query, e => rewrite(e, false))) : await run(selectExpr([expr!, 'r']));
            const first = (r: Awaited<ReturnType<typeof run>>): unknown => ('rows' in r ? r.rows.map(row => row[0]) : r.error.code);
            expect(first(changed), `${c.sql} with ${JSON.stringify(h)} around its literals`).toEqual(first(original));
            wrapped++;
        }
        expect(wrapped).toBe(cases.length);
    });
});

/** The expression with each direct child expression replaced by `f(child)` (a shallow map over the IR). */
function mapChildren(e: ExprIR, f: (child: ExprIR) => ExprIR): ExprIR {
    const out: Record<string, unknown> = { ...e };
    for (const [key, value] of Object.entries(e)) {
        if (key === 'span' || key === 'type' || key === 'query' || key === 'over' || key === 'withinGroup' || key === 'filter') {
            continue;
        }
        if (Array.isArray(value)) {
            out[key] = value.map(v => (isExpr(v) ? f(v) : v));
        } else if (isExpr(value)) {
            out[key] = f(value);
        }
    }
    return out as unknown as ExprIR;
}

function isExpr(value: unknown): value is ExprIR {
    return typeof value === 'object' && value !== null && 'kind' in value && typeof (value as { kind: unknown }).kind === 'string'
        && !['query', 'select', 'table', 'values', 'join', 'subquery'].includes((value as { kind: string }).kind);
}

/** The query with the expressions of its top-level SELECT list rewritten. */
function mapQueryExprs(query: QueryIR, f: (e: ExprIR) => ExprIR): QueryIR {
    if (query.body.kind !== 'select') {
        return query;
    }
    return { ...query, body: { ...query.body, items: query.body.items.map(item => (item.kind === 'expr' ? { ...item, expr: f(item.expr) } : item)) } };
}

describe(`parameters are data (seed ${SEED})`, () => {
    it('a pipeline parameter of any value is that value, as a string and cast to another type', async () => {
        const random = prng(SEED + 6);
        for (let i = 0; i < 40; i++) {
            const value = hostile(random);
            const conf = { 'my.param': value, n: '42' };
            const result = await run(selectExpr(
                [{ kind: 'parameter', name: 'my.param' }, 'v'],
                [{ kind: 'parameter', name: 'MY.PARAM' }, 'ci'],
                [{ kind: 'parameter', name: 'n', type: { kind: 'bigint' } }, 'n'],
            ), conf);
            expect(result, `seed ${SEED + 6}, case ${i}: ${JSON.stringify(value)}`).toEqual({ rows: [[asStored(value), asStored(value), 42]] });
        }
    });

    it('a parameter named like an Object.prototype member is unbound, not the member', async () => {
        const result = await run(selectExpr([{ kind: 'parameter', name: 'constructor' }, 'v']), {});
        expect('error' in result ? result.error.code : result).toBe('UNBOUND_SQL_PARAMETER');
    });
});

describe(`the CDC folds keep keys, names and values as data (seed ${SEED})`, () => {
    const workspaces: Workspace[] = [];
    afterAll(() => workspaces.forEach(ws => ws.dispose()));

    for (const storedAs of ['scd1', 'scd2', 'scd1 ignore nulls', 'bitemporal'] as const) {
        it(`AUTO CDC ${storedAs.toUpperCase()}: hostile dataset, flow and column names and values come back from the state`, async () => {
            const random = prng(SEED + 7 + storedAs.length);
            for (let round = 0; round < 3; round++) {
                const ws = new Workspace();
                workspaces.push(ws);
                // Names: JSON keys of the sample file and DuckDB identifiers; NUL cannot be a name, and a
                // lone surrogate is not valid in the UTF-8 file.
                // A dot would split a dataset name into parts (the IR's names are lists of parts).
                const cleanName = (prefix: string): string => `${prefix}${asStored(hostile(random, 4)).replace(/[\0.]/g, '')}`;
                const dataName = cleanName('d');
                const keyName = cleanName('k');
                const target = cleanName('t');
                // Two different keys.
                const values1 = [`1${asStored(hostile(random))}`, asStored(hostile(random))];
                const values2 = [`2${asStored(hostile(random))}`, asStored(hostile(random))];
                const events = [
                    { [keyName]: values1[0], [dataName]: values1[1], seq: 1, sys: 1 },
                    { [keyName]: values1[0], [dataName]: values2[1], seq: 2, sys: 2 },
                    { [keyName]: values2[0], [dataName]: storedAs === 'scd1 ignore nulls' ? null : values2[1], seq: 1, sys: 1 },
                ];
                ws.append('src.events', events);
                const mode = storedAs === 'scd2' ? 'scd2' : storedAs === 'bitemporal' ? 'bitemporal' : 'scd1';
                const flow = autoCdc(cleanName('f'), target, stream('src.events'), {
                    keys: [keyName],
                    sequenceBy: col('seq'),
                    storedAs: mode,
                    ...(mode === 'bitemporal' ? { systemSequenceBy: col('sys') } : {}),
                    ...(storedAs === 'scd1 ignore nulls' ? { ignoreNullUpdates: { kind: 'all' } } : {}),
                    columns: { kind: 'except', columns: ['seq', 'sys'] },
                });
                const columns = [[keyName, 'string'], [dataName, 'string'], ['seq', 'int'], ['sys', 'int']] as const;
                const ir = pipeline([streamingTable(target), materializedView('names')], [
                    flow,
                    mvFlow('names', select([[call('collect_list', col(dataName)), 'all']], { from: [table(`ds:${target}`)] })),
                ], [{
                    name: ['src', 'events'], format: 'json', options: {}, span: { file: 'samples/catalog.sql', line: 1, column: 1, endLine: 1, endColumn: 2 },
                    columns: columns.map(([name, kind]) => ({ name, type: { kind } })),
                }]);
                const result = await ws.ok(ir);
                const rows = result.datasets[target].rows.map(r => [r[keyName], r[dataName]]);
                const context = `seed ${SEED + 7 + storedAs.length}, round ${round}: ${JSON.stringify({ keyName, dataName, target, values1, values2 })}`;
                if (mode === 'scd1') {
                    expect(sortRows(rows), context).toEqual(sortRows([[values1[0], values2[1]], [values2[0], storedAs === 'scd1 ignore nulls' ? null : values2[1]]]));
                } else if (mode === 'bitemporal') {
                    // Key 1's first version is believed twice: from system time 1 open-ended, from 2 closed by its second version.
                    expect(sortRows(rows), context).toEqual(sortRows([[values1[0], values1[1]], [values1[0], values1[1]], [values1[0], values2[1]], [values2[0], values2[1]]]));
                } else {
                    expect(sortRows(rows), context).toEqual(sortRows([[values1[0], values1[1]], [values1[0], values2[1]], [values2[0], values2[1]]]));
                }
                expect(result.datasets.names.rowCount, context).toBe(1);
            }
        });
    }
});

function sortRows(rows: unknown[][]): unknown[][] {
    return [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
