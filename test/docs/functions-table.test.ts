import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { functionsMarkdown, functionsPage } from '../../scripts/docs-functions.js';

describe('docs/functions.md', () => {
    test('is what `npm run docs:functions` writes from the function catalog (run it after changing the catalog)', () => {
        const committed = fs.readFileSync(path.resolve(__dirname, '../..', functionsPage), 'utf8');
        expect(committed).toBe(functionsMarkdown());
    });
});
