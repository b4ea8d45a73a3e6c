import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { findImportCycles } from '../../scripts/check-import-cycles.mjs';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/import-cycles');

/**
 * The lint step's cycle check (`node scripts/check-import-cycles.mjs`) reports modules that import
 * values from each other, through `export * from` too, and leaves cycles closed only by type-only
 * imports (`import type`, `import { type X }`) alone.
 */
test('the cycle check reports the value-import cycles of the fixture and no type-only one', () => {
    const cycles = findImportCycles([fixtures]).map(c => c.chain.map(f => path.relative(fixtures, f)));
    expect(cycles).toEqual([
        ['reexport-g.ts', 'reexport-h.ts', 'reexport-g.ts'],
        ['value-a.ts', 'value-b.ts', 'value-a.ts'],
    ]);
});
