import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkFiles, collectFiles, formatCliDiagnostic } from '../../../server/src/cli/check.js';

let dir: string;

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-check-'));
    fs.writeFileSync(path.join(dir, 'spark-pipeline.yml'), 'name: demo\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(dir, 'transformations'));
    fs.mkdirSync(path.join(dir, 'scratch'));
    fs.writeFileSync(path.join(dir, 'transformations', 'good.sql'), "SET trigger = 'x';\n");
    fs.writeFileSync(path.join(dir, 'transformations', 'bad.sql'), "SET a = 'b';\nSET ;\n");
    fs.writeFileSync(path.join(dir, 'scratch', 'ignored.sql'), 'not sql at all');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pipeline-sql check', () => {
    test('a pipeline folder checks the files its spark-pipeline.yml includes, and only those', async () => {
        const files = collectFiles([dir]);
        expect([...files.report].map(f => path.relative(dir, f)).sort()).toEqual(['transformations/bad.sql', 'transformations/good.sql']);
        const diagnostics = await checkFiles(files);
        expect(diagnostics.map(d => ({ ...d, file: path.basename(d.file) }))).toEqual([
            expect.objectContaining({ file: 'bad.sql', line: 2, column: 5, severity: 'error', code: 'PARSE_SYNTAX_ERROR' }),
        ]);
        expect(formatCliDiagnostic(diagnostics[0])).toMatch(/bad\.sql:2:5: error PARSE_SYNTAX_ERROR /);
    });
});
