// What the editor shows is what the run produces, for DECIMAL arithmetic (issue 11: one Spark
// rule for both). Spark types `DECIMAL(38,10) * DECIMAL(38,10)` as DECIMAL(38,6) (precision loss
// keeps six fractional digits); the run used to produce DuckDB's DECIMAL(38,20). Each expression is
// typed by the language server (as hover and inlay hints show it) and run by the CLI on a real
// DuckDB; both must give Spark's type, and the run Spark's value.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { afterAll, describe, expect, test } from 'vitest';
import { runCommand } from '../../../../server/src/cli/run.js';
import { printRelation } from '../../../../server/src/language/types/relation-type.js';
import { createPipelineTester } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'decimal-agreement-'));
afterAll(() => {
    tester.clear();
    fs.rmSync(root, { recursive: true, force: true });
});

const a = 'CAST(a AS DECIMAL(38,10))';
const b = 'CAST(b AS DECIMAL(38,10))';
const p = 'CAST(a AS DECIMAL(10,2))';
const q = 'CAST(b AS DECIMAL(5,3))';
const n = 'CAST(a AS BIGINT)';
/** Expression, Spark's type, Spark's value for a = 1.5, b = 2.25 (CAST(1.5 AS BIGINT) is 1: Spark truncates). */
const cases: Array<[string, string, string]> = [
    [`${a} * ${b}`, 'decimal(38,6)', '3.375'],
    [`${a} + ${b}`, 'decimal(38,9)', '3.75'],
    [`${a} / ${b}`, 'decimal(38,6)', '0.666667'],
    [`${p} + ${q}`, 'decimal(12,3)', '3.75'],
    [`${p} - ${q}`, 'decimal(12,3)', '-0.75'],
    [`${p} * ${q}`, 'decimal(16,5)', '3.375'],
    [`${p} % ${q}`, 'decimal(5,3)', '1.5'],
    [`${p} * 2`, 'decimal(12,2)', '3'],
    // Leading zeros do not count: 007 is DECIMAL(1,0) next to a decimal (Spark's DecimalType.fromLiteral).
    [`${p} * 007`, 'decimal(12,2)', '10.5'],
    [`${p} + ${n}`, 'decimal(23,2)', '2.5'],
    [`sum(${p})`, 'decimal(20,2)', '1.5'],
    // Functions: the catalog's return-type rule is the run's (avg exact, rounded half up; round/ceil/floor to scale 0).
    [`avg(${p})`, 'decimal(14,6)', '1.5'],
    [`round(${p})`, 'decimal(9,0)', '2'],
    [`ceil(${q})`, 'decimal(3,0)', '3'],
    [`floor(${p})`, 'decimal(9,0)', '1'],
];

describe('DECIMAL arithmetic: the editor\'s type is the run\'s type', () => {
    test('each expression, typed by the language server and run by the CLI', async () => {
        // One dataset per expression (an aggregate and scalars cannot share a select list).
        const text = cases.map(([expr], i) => `CREATE MATERIALIZED VIEW d${i} AS SELECT ${expr} AS c FROM VALUES (1.5, 2.25) AS t(a, b);\n`).join('');

        const loaded = await tester.load({ 'a.sql': text }, { spec: {} });
        const model = tester.services.pipeline.Model.modelFor(URI.file(`${loaded.root}/a.sql`));
        const editor = cases.map((_, i) => printRelation(tester.services.types.TypeComputer.datasetSchema(model.datasetsNamed(`d${i}`)[0].node)));

        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: decimals\nlibraries:\n  - glob:\n      include: transformations/**\n');
        fs.mkdirSync(path.join(root, 'transformations'), { recursive: true });
        fs.writeFileSync(path.join(root, 'transformations', 'a.sql'), text);
        let out = '';
        const code = await runCommand([root, '--json'], { out: t => { out += t; }, err: () => undefined, progress: false });
        const doc = JSON.parse(out) as { datasets: Record<string, { columns: Array<{ name: string; type: string }>; rows: Array<Record<string, unknown>> }> };
        expect(code).toBe(0);

        const spark = cases.map(([expr, type, value]) => `${expr}: ${type} ${value}`);
        expect(cases.map(([expr], i) => `${expr}: ${editor[i].replace(/^c /, '')}`)).toEqual(cases.map(([expr, type]) => `${expr}: ${type}`));
        expect(cases.map(([expr], i) => {
            const run = doc.datasets[`d${i}`];
            return `${expr}: ${run.columns[0].type.toLowerCase().replace(/\s/g, '')} ${String(run.rows[0].c)}`;
        })).toEqual(spark);
    });
});
