// The one way the engine builds DuckDB SQL (engine/src/sql/sql.ts): quoting of literals and
// identifiers, the `sql` template tag, and what reaches a real DuckDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../engine/src/db/database.js';
import { EngineError } from '../../../engine/src/errors.js';
import { ident, integer, join, sql, str, type Sql } from '../../../engine/src/sql/sql.js';

let db: Database;
beforeAll(async () => {
    db = await Database.open(':memory:');
});
afterAll(() => db.close());

const value = async (expression: Sql): Promise<unknown> => (await db.query(sql`SELECT ${expression} AS v`)).rows[0][0];

describe('string literals', () => {
    it.each([
        ['a quote', 'it\'s'],
        ['a string ending in $', 'US$'],
        ['every $ pattern of String.prototype.replace', '$\' $& $` $$ $1 $<n>'],
        ['backslashes', 'C:\\dir\\'],
        ['a newline and a tab', 'a\nb\tc'],
        ['DuckDB dollar quotes', '$$x$$ $tag$y$tag$'],
        ['a comment opener', '-- not a comment /* nor this'],
        ['an astral character', 'emoji 😀 and 𝄞'],
        ['a NUL character', 'a\0b\0'],
        ['nothing', ''],
    ])('%s comes back from DuckDB as written', async (_, text) => {
        expect(await value(str(text))).toBe(text);
    });

    it('an unpaired surrogate becomes ? as in Spark (Java writes it to UTF-8 as ?)', async () => {
        expect(await value(str('a\uD800b\uDC00c'))).toBe('a?b?c');
        expect(await value(str('pair 😀 kept'))).toBe('pair 😀 kept');
    });
});

describe('identifiers', () => {
    it.each([
        ['a double quote', 'say "hi"'],
        ['a quote and a dollar', 'it\'s $\''],
        ['a dot', 'a.b'],
        ['a backtick', 'x`y'],
        ['an astral character', 'naïve 😀'],
    ])('a name with %s is one column name in DuckDB', async (_, name) => {
        const result = await db.query(sql`SELECT 1 AS ${ident(name)}`);
        expect(result.columns.map(c => c.name)).toEqual([name]);
    });

    it('a name with a NUL character, or an empty name, is refused with an engine error (DuckDB cannot name it)', () => {
        expect(() => ident('a\0b')).toThrow(EngineError);
        expect(() => ident('')).toThrow(EngineError);
    });
});

describe('the sql template tag', () => {
    it('splices numbers, parenthesising negative ones so that `- -1` never becomes a comment', async () => {
        expect(sql`1 - ${-1}`).toBe('1 - (-1)');
        expect(sql`1-${-1}`).toBe('1-(-1)');
        expect(await value(sql`1-${-1}`)).toBe(2);
        expect(sql`${12n} ${true} ${false}`).toBe('12 TRUE FALSE');
    });

    it('refuses a non-finite number', () => {
        expect(() => sql`${Number.NaN}`).toThrow(EngineError);
        expect(() => sql`${Number.POSITIVE_INFINITY}`).toThrow(EngineError);
    });

    it('refuses a plain array posing as a template (only program text is SQL)', () => {
        const forged = Object.assign(['DROP TABLE x'], { raw: ['DROP TABLE x'] }) as unknown as TemplateStringsArray;
        expect(() => sql(forged)).toThrow(EngineError);
    });

    it('integer literals accept only digits', async () => {
        expect(await value(integer('-42'))).toBe(-42);
        expect(integer('+7')).toBe('7');
        expect(() => integer('1; DROP TABLE x')).toThrow(EngineError);
    });

    it('joins pieces with a separator', () => {
        expect(join([sql`a`, sql`b`])).toBe('a, b');
        expect(join([sql`a`, sql`b`], sql` AND `)).toBe('a AND b');
    });
});
