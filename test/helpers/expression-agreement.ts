// What the editor shows is what the run produces, one expression at a time (issue 11: one Spark
// rule for both). Each expression becomes a materialized view of its own; the language server types
// it (as hover and inlay hints show it) and the CLI runs the pipeline on a real DuckDB. Tests compare
// both with Spark's type, and the run's value with Spark's value.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { URI } from 'langium';
import { parseType, typeToString } from '../../engine/src/spark/spark-types.js';
import { runCommand } from '../../server/src/cli/run.js';
import { printRelation } from '../../server/src/language/types/relation-type.js';
import { createPipelineTester } from './pipeline.js';

/** One expression as the editor types it and as the run gives it back. */
export interface ExpressionOutcome {
    /** The editor's type (`decimal(38,6)`). */
    editor: string;
    /** The run's column type, in the same spelling (read by the Spark module's type parser). */
    run: string;
    /** The run's value of the first row, as the CLI's JSON gives it. */
    value: unknown;
}

/** Catalog of the sample tables an expression may read (none: a one-row VALUES is enough). */
export interface ExpressionSource {
    /** The FROM clause (`FROM VALUES (1.5, 2.25) AS t(a, b)`). */
    from: string;
}

/**
 * Types each expression in the editor and runs it with the CLI: one dataset `d<i>` per expression
 * (an aggregate and scalars cannot share a select list), `SELECT <expr> AS c <from>`.
 */
export async function typeAndRun(expressions: readonly string[], source: ExpressionSource): Promise<ExpressionOutcome[]> {
    const text = expressions.map((expr, i) => `CREATE MATERIALIZED VIEW d${i} AS SELECT ${expr} AS c ${source.from};\n`).join('');
    const tester = createPipelineTester();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'expression-agreement-'));
    try {
        const loaded = await tester.load({ 'a.sql': text }, { spec: {} });
        const model = tester.services.pipeline.Model.modelFor(URI.file(`${loaded.root}/a.sql`));
        const editor = expressions.map((_, i) => printRelation(tester.services.types.TypeComputer.datasetSchema(model.datasetsNamed(`d${i}`)[0].node)).replace(/^c /, ''));

        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: expressions\nlibraries:\n  - glob:\n      include: transformations/**\n');
        fs.mkdirSync(path.join(root, 'transformations'), { recursive: true });
        fs.writeFileSync(path.join(root, 'transformations', 'a.sql'), text);
        let out = '';
        let err = '';
        const code = await runCommand([root, '--json'], { out: t => { out += t; }, err: t => { err += t; }, progress: false });
        if (code !== 0) {
            throw new Error(`The run failed (exit ${code}): ${err}${out}`);
        }
        const doc = JSON.parse(out) as { datasets: Record<string, { columns: Array<{ name: string; type: string }>; rows: Array<Record<string, unknown>> }> };
        return expressions.map((_, i) => {
            const run = doc.datasets[`d${i}`];
            const parsed = parseType(run.columns[0].type);
            return { editor: editor[i], run: parsed.ok ? typeToString(parsed.value) : `(unparsed) ${run.columns[0].type}`, value: run.rows[0]?.c };
        });
    } finally {
        await tester.clear();
        fs.rmSync(root, { recursive: true, force: true });
    }
}
