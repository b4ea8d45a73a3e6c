import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { AST } from '../../../../server/src/language/index.js';
import { maxNestingLevels } from '../../../../server/src/language/parser/nesting-limit.js';
import { createParser, createTestServices, repoRoot } from '../../../helpers/parse.js';

/**
 * Nesting deeper than the recursive-descent parser can take is a "nested too deeply" syntax error at
 * the place the deep expression starts, never a stack overflow, and the rest of the file parses.
 */

const { shared, services } = createTestServices();
const parse = createParser(services);

afterEach(() => clearDocuments(shared));

/** Expressions nested `n` levels deep, by form. */
const nested: Record<string, (n: number) => string> = {
    'parentheses': n => `${'('.repeat(n)}id${')'.repeat(n)}`,
    'arithmetic in parentheses': n => {
        let e = 'id';
        for (let i = 0; i < n; i++) {
            e = `(${e} ${['+', '*', '-', '/'][i % 4]} ${i + 1})`;
        }
        return e;
    },
    'function calls': n => `${'abs('.repeat(n)}id${')'.repeat(n)}`,
    'scalar subqueries': n => `${'(SELECT '.repeat(n)}id${')'.repeat(n)}`,
    'CASE expressions': n => `${'CASE WHEN id > 0 THEN '.repeat(n)}id${' END'.repeat(n)}`,
    'subscripts': n => `${'a['.repeat(n)}0${']'.repeat(n)}`,
    'ARRAY types': n => `CAST(NULL AS ${'ARRAY<'.repeat(n)}INT${'>'.repeat(n)})`,
};

/** Column (1-based) at which the deep expression starts in `CREATE ... AS SELECT <expression>`. */
const prefix = 'CREATE MATERIALIZED VIEW deep AS SELECT ';

describe('an expression nested 1,000 levels deep is a syntax error where it starts, and the file goes on', () => {
    test.each(Object.keys(nested))('%s', async form => {
        const text = `${prefix}${nested[form](1000)} AS x FROM src;\nCREATE MATERIALIZED VIEW after AS SELECT 1 AS one;\n`;
        const { statements, diagnostics } = await parse(text);
        // The outermost bracket of the deep expression: `abs(`, `a[`, the `(` of `CAST(`, the first `CASE`.
        const [column, length] = form === 'ARRAY types' ? [prefix.length + 5, 1] : form === 'subscripts' ? [prefix.length + 2, 1]
            : form === 'function calls' ? [prefix.length + 4, 1] : form === 'CASE expressions' ? [prefix.length + 1, 4] : [prefix.length + 1, 1];
        expect(diagnostics).toEqual([expect.stringMatching(new RegExp(`^\\[1:${column}\\.\\.1:${column + length}\\]: Nested too deeply: this expression has more than ${maxNestingLevels} levels`))]);
        expect(statements.filter(AST.isCreateMaterializedView).map(s => s.name)).toEqual(['after']);
    });

    test('a run of 1,000 unary operators', async () => {
        const { statements, diagnostics } = await parse(`SELECT ${'- '.repeat(1000)}1;\nSELECT ${'NOT '.repeat(1000)}TRUE;\nSELECT 2;`);
        expect(diagnostics).toEqual([
            expect.stringMatching(/^\[1:8\.\.1:9\]: Nested too deeply/),
            expect.stringMatching(/^\[2:8\.\.2:11\]: Nested too deeply/),
        ]);
        expect(statements.filter(AST.isQuery)).toHaveLength(1);
    });
});

describe(`nesting up to ${maxNestingLevels} levels parses`, () => {
    test.each(Object.keys(nested).filter(form => form !== 'scalar subqueries'))('%s', async form => {
        // The `(` of CAST is one level of the ARRAY types.
        const { diagnostics } = await parse(`${prefix}${nested[form](form === 'ARRAY types' ? maxNestingLevels - 1 : maxNestingLevels)} AS x FROM src;`);
        expect(diagnostics).toEqual([]);
    });

    test('scalar subqueries (each counts as two levels)', async () => {
        const { diagnostics } = await parse(`${prefix}${nested['scalar subqueries'](maxNestingLevels / 2)} AS x FROM src;`);
        expect(diagnostics).toEqual([]);
        const deeper = await parse(`${prefix}${nested['scalar subqueries'](maxNestingLevels / 2 + 1)} AS x FROM src;`);
        expect(deeper.diagnostics).toEqual([expect.stringContaining('Nested too deeply')]);
    });

    test('many shallow expressions in one statement and in one file do not add up', async () => {
        const items = Array.from({ length: 30 }, (_, i) => `((((c${i} + 1))))`).join(', ');
        const file = Array.from({ length: 20 }, (_, i) => `SELECT - -${i}, CASE WHEN a THEN (1) END, t.end, ${items} FROM t`).join(';\n');
        const { diagnostics } = await parse(file);
        expect(diagnostics).toEqual([]);
    });
});

test('when the parser runs out of stack all the same, that statement is nested too deeply and the others are checked', () => {
    // A small stack makes 30 levels too many for the parser although the count lets them through.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-stack-'));
    try {
        const file = path.join(dir, 'deep.sql');
        fs.writeFileSync(file, `SELECT ${nested.parentheses(30)};\nSELECT undefined_function(1);\nSELECT ${nested['function calls'](30)};\n`);
        const result = spawnSync(process.execPath, ['--stack-size=300', path.join(repoRoot, 'out/cli.cjs'), 'check', '--json', file], { encoding: 'utf8' });
        expect(result.stderr).toBe('');
        const diagnostics = (JSON.parse(result.stdout) as Array<{ line: number; column: number; code: string; message: string }>)
            .filter(d => d.code !== 'PIPELINE_SQL_STATEMENT_NOT_IN_PIPELINE');
        expect(diagnostics.map(d => [d.line, d.column, d.code, d.message.slice(0, 80)])).toEqual([
            [1, 8, 'PARSE_SYNTAX_ERROR', 'Nested too deeply: this expression nests more deeply than the parser can take. M'],
            [2, 8, expect.stringMatching(/^UNRESOLVED_ROUTINE/), expect.stringContaining('undefined_function')],
            [3, 11, 'PARSE_SYNTAX_ERROR', 'Nested too deeply: this expression nests more deeply than the parser can take. M'],
        ]);
        expect(result.status).toBe(1);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});
