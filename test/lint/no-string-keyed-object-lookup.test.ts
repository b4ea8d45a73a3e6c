import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { expect, test } from 'vitest';
import rule from '../../scripts/eslint/no-string-keyed-object-lookup.mjs';
import { repoRoot } from '../helpers/parse.js';

/**
 * The lint rule that keeps names from SQL, YAML and files out of plain-object lookups reports each
 * kind of lookup by a `string` key (read, write, `in`) and leaves typed keys, literals, arrays, Maps
 * and `Object.hasOwn`-guarded lookups alone. The project's own sources pass it (`npx eslint .`).
 */
test('the rule reports exactly the lines of the fixture marked flagged', async () => {
    const fixture = path.join(repoRoot, 'test/fixtures/lint/user-keyed-lookups.ts');
    const eslint = new ESLint({
        cwd: repoRoot,
        overrideConfigFile: true,
        overrideConfig: [{
            files: ['**/*.ts'],
            languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: repoRoot } },
            plugins: { local: { rules: { 'no-string-keyed-object-lookup': rule } } },
            rules: { 'local/no-string-keyed-object-lookup': 'error' },
        }],
    });
    const [result] = await eslint.lintFiles([fixture]);
    const expected = fs.readFileSync(fixture, 'utf8').split('\n').flatMap((line, i) => (line.endsWith('// flagged') ? [i + 1] : []));
    expect(expected.length).toBe(4);
    expect(result.messages.map(m => m.line)).toEqual(expected);
    expect(result.messages.every(m => m.ruleId === 'local/no-string-keyed-object-lookup')).toBe(true);
}, 120_000);
