import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { getFunction, inferOutputColumns, inferReturnType, type CallArgument } from '../../../../engine/src/spark/functions/catalog.js';
import { literalType, parseType, typeToString, Types } from '../../../../engine/src/spark/spark-types.js';

/**
 * Checks return-type inference against the result types Apache Spark itself reports in its SQL test
 * suite (the shared corpus beside the repository, present on the development machines and in CI):
 * every statement `SELECT f(…)` whose arguments are literals or further such calls, that Spark ran
 * without error, compared with the type Spark printed for it. Nested calls are typed by the catalog
 * itself, so the check covers composition too.
 */
const RESULTS = path.resolve(__dirname, '../../../../../shared/corpus/spark-sql-tests/results');

/**
 * Calls whose type the catalog cannot know, with the reason. The schema argument here is computed
 * by another call (schema_of_json), which only running it would reveal.
 */
const KNOWN_GAPS = new Map<string, string>([
    ['select from_json(\'{"c1":[1, 2, 3]}\', schema_of_json(\'{"c1":[0]}\'))', 'schema given by an expression, not a literal'],
]);

/** Not built-in functions: the IDENTIFIER clause and a test UDF. */
const NOT_BUILTINS = new Set(['identifier', 'test_udf']);

interface Call {
    readonly name: string;
    readonly args: readonly Expr[];
}

/** A select item made only of function calls and literals. */
type Expr = { readonly literal: string } | Call;

interface Case {
    readonly file: string;
    readonly sql: string;
    readonly call: Call;
    /** Spark's result schema, `struct<column:type,…>`. */
    readonly schema: string;
}

const TOKEN = /\s*(?:('[^']*'|"[^"]*")|((?:date|timestamp_ntz|timestamp|X)\s*'[^']*')|(-?\d+(?:\.\d+)?(?:BD|[LSYD])?)(?![\w.])|([A-Za-z_][A-Za-z_0-9]*)|([(),]))/iy;

/** Reads `name(arg, …)` where each argument is a literal or another such call; undefined for anything else. */
function parseCall(text: string): Call | undefined {
    const tokens: string[] = [];
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < text.trim().length) {
        const start = TOKEN.lastIndex;
        const m = TOKEN.exec(text);
        if (!m || TOKEN.lastIndex === start) {
            return undefined;
        }
        tokens.push(m[0].trim());
    }
    let pos = 0;
    const isName = (t: string | undefined): boolean => t !== undefined && /^[A-Za-z_]\w*$/.test(t) && !/^(null|true|false)$/i.test(t);
    const expr = (): Expr | undefined => {
        const t = tokens[pos];
        if (isName(t)) {
            return call();
        }
        if (t === undefined || t === '(' || t === ')' || t === ',') {
            return undefined;
        }
        pos++;
        return { literal: t };
    };
    const call = (): Call | undefined => {
        const name = tokens[pos];
        if (!isName(name) || tokens[pos + 1] !== '(') {
            return undefined;
        }
        pos += 2;
        const args: Expr[] = [];
        if (tokens[pos] === ')') {
            pos++;
            return { name: name.toLowerCase(), args };
        }
        for (;;) {
            const a = expr();
            if (!a) {
                return undefined;
            }
            args.push(a);
            const sep = tokens[pos++];
            if (sep === ')') {
                return { name: name.toLowerCase(), args };
            }
            if (sep !== ',') {
                return undefined;
            }
        }
    };
    const result = call();
    return result && pos === tokens.length ? result : undefined;
}

/** A literal argument: its type by Spark's literal rules, and its value where a rule reads it. */
function literalArgument(text: string): CallArgument {
    const t = text.trim();
    const type = literalType(t) ?? Types.unknown;
    const quoted = /^'([^']*)'$|^"([^"]*)"$/.exec(t);
    if (quoted) {
        return { type, literal: quoted[1] ?? quoted[2] };
    }
    if (/^null$/i.test(t)) {
        return { type, literal: null };
    }
    const number = Number(t.replace(/(BD|[LSYDF])$/i, ''));
    return Number.isNaN(number) ? { type } : { type, literal: number };
}

/** The argument an expression gives: a literal's type and value, or a nested call's inferred type. */
function argumentOf(e: Expr): CallArgument {
    return 'literal' in e ? literalArgument(e.literal) : { type: inferReturnType(e.name, e.args.map(argumentOf)) };
}

function namesIn(c: Call): string[] {
    return [c.name, ...c.args.flatMap(a => ('name' in a ? namesIn(a) : []))];
}

function collectCases(): Case[] {
    const cases: Case[] = [];
    for (const file of fs.readdirSync(RESULTS).filter(f => f.endsWith('.sql.out')).sort()) {
        const blocks = fs.readFileSync(path.join(RESULTS, file), 'utf8').split('-- !query\n').slice(1);
        for (const block of blocks) {
            const [sql, rest] = block.split('\n-- !query schema\n');
            if (rest === undefined) {
                continue;
            }
            const schema = rest.split('\n')[0];
            const select = /^select\s+([\s\S]*)$/i.exec(sql.trim());
            const call = select ? parseCall(select[1]) : undefined;
            if (!call || schema === 'struct<>' || namesIn(call).some(n => NOT_BUILTINS.has(n))) {
                continue;
            }
            cases.push({ file, sql: sql.trim(), call, schema });
        }
    }
    return cases;
}

/** The type of the single result column: the longest suffix after a ':' that parses as a type. */
function singleColumnType(schema: string): string | undefined {
    const body = schema.slice('struct<'.length, -1);
    for (let i = body.indexOf(':'); i >= 0; i = body.indexOf(':', i + 1)) {
        const parsed = parseType(body.slice(i + 1));
        if (parsed.ok) {
            return typeToString(parsed.value);
        }
    }
    return undefined;
}

describe.skipIf(!fs.existsSync(RESULTS))('return types agree with Spark\'s own test results', () => {
    const cases = fs.existsSync(RESULTS) ? collectCases() : [];

    test('the corpus yields a meaningful number of calls', () => {
        expect(cases.length).toBeGreaterThan(350);
        expect(new Set(cases.map(c => c.call.name)).size).toBeGreaterThan(55);
    });

    test('every function Spark called there is in the catalog', () => {
        expect([...new Set(cases.flatMap(c => namesIn(c.call)))].filter(n => !getFunction(n))).toEqual([]);
    });

    test('every inferred type equals the type Spark reported', () => {
        const mismatches: string[] = [];
        for (const c of cases) {
            const f = getFunction(c.call.name)!;
            const args = c.call.args.map(argumentOf);
            let actual: string;
            let expected: string | undefined;
            if (f.kind === 'generator' || f.kind === 'table-valued') {
                const columns = inferOutputColumns(f, args);
                actual = columns ? `struct<${columns.map(col => `${col.name}:${typeToString(col.type)}`).join(',')}>` : 'unknown';
                expected = c.schema;
            } else {
                actual = typeToString(inferReturnType(f, args));
                expected = singleColumnType(c.schema);
            }
            if (actual !== expected && !KNOWN_GAPS.has(c.sql)) {
                mismatches.push(`${c.file}: ${c.sql} → Spark ${expected}, inferred ${actual}`);
            }
        }
        expect(mismatches).toEqual([]);
    });

    test('the known gaps are still in the corpus and still unknown', () => {
        for (const sql of KNOWN_GAPS.keys()) {
            const c = cases.find(x => x.sql === sql);
            expect(c, sql).toBeDefined();
            expect(typeToString(inferReturnType(c!.call.name, c!.call.args.map(argumentOf)))).toBe('unknown');
        }
    });
});
