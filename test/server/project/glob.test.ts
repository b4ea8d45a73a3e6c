// The one glob matcher of the project model: Databricks / Spark library globs and bundle includes.
import { describe, expect, test } from 'vitest';
import { compileGlob, expandBraces, GlobError } from '../../../server/src/project/glob.js';

const matches = (pattern: string, path: string): boolean => compileGlob(pattern).matches(path);

describe('library globs', () => {
    test('** spans folders, * and ? stay within one, a folder pattern takes everything below it', () => {
        expect(matches('transformations/**', 'transformations/a.sql')).toBe(true);
        expect(matches('transformations/**', 'transformations/x/y/b.sql')).toBe(true);
        expect(matches('transformations/**/*.sql', 'transformations/b.sql')).toBe(true);
        expect(matches('transformations/*.sql', 'transformations/x/b.sql')).toBe(false);
        expect(matches('transformations/?.sql', 'transformations/a.sql')).toBe(true);
        expect(matches('transformations', 'transformations/deep/a.sql')).toBe(true);
        expect(matches('transformations/', 'transformations/a.sql')).toBe(true);
        expect(matches('./src/a.sql', 'src/a.sql')).toBe(true);
        expect(matches('src/a.sql', 'src/ab.sql')).toBe(false);
        expect(matches('transformations/**', 'other/a.sql')).toBe(false);
    });

    test('brace alternatives, classes and escapes', () => {
        expect(matches('src/{bronze,silver}/*.sql', 'src/silver/a.sql')).toBe(true);
        expect(matches('src/{bronze,silver}/*.sql', 'src/gold/a.sql')).toBe(false);
        expect(matches('src/{a,b{1,2}}.sql', 'src/b2.sql')).toBe(true);
        expect(matches('src/[ab].sql', 'src/b.sql')).toBe(true);
        expect(matches('src/[!ab].sql', 'src/b.sql')).toBe(false);
        expect(matches('src/[a-c]x.sql', 'src/cx.sql')).toBe(true);
        expect(matches('src/\\*.sql', 'src/*.sql')).toBe(true);
        expect(matches('src/\\*.sql', 'src/a.sql')).toBe(false);
        expect(() => compileGlob('src/{a,b')).toThrow(GlobError);
        expect(() => expandBraces('{a,b}'.repeat(9))).toThrow(/more than 256 alternatives/);
    });

    test('a glob with many stars answers at once on long names (no backtracking blow-up)', () => {
        // Exponential for a backtracking regular expression (picomatch: 63 s for ten stars on 40 letters).
        const glob = compileGlob(`${'*a'.repeat(30)}*b`);
        expect(glob.matches('a'.repeat(5000))).toBe(false);
        expect(glob.matches(`${'a'.repeat(5000)}b`)).toBe(true);
        const deep = compileGlob(`${'**/'.repeat(40)}x.sql`);
        expect(deep.matches(`${'d/'.repeat(2000)}y.sql`)).toBe(false);
        expect(deep.matches(`${'d/'.repeat(2000)}x.sql`)).toBe(true);
    });
});
