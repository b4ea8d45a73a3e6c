import { URI } from 'langium';
import { afterEach, describe, expect, test } from 'vitest';
import { createPipelineTester } from '../../../helpers/pipeline.js';
import { toPipelineGraph } from '../../../../server/src/language/pipeline/pipeline-graph.js';

/**
 * Pipelines whose dependency graph is long: every walk over it (cycles, query modes, schemas across
 * datasets) uses an explicit stack, so validation neither overflows the call stack nor reports an
 * internal error, and what flows along the chain still arrives at its end.
 */
const tester = createPipelineTester();

afterEach(() => tester.clear());

const codes = (diagnostics: ReadonlyArray<{ code?: string | number }>): string[] => [...new Set(diagnostics.map(d => String(d.code)))].sort();

describe('long dependency chains and cycles', () => {
    test('a chain of 1,000 datasets, each reading the one declared after it, carries its columns to the far end', async () => {
        const n = 1000;
        const lines = ['CREATE MATERIALIZED VIEW d0 AS SELECT missing FROM d1;'];
        for (let i = 1; i < n; i++) {
            lines.push(`CREATE MATERIALIZED VIEW d${i} AS SELECT a + 1 AS a FROM d${i + 1};`);
        }
        lines.push(`CREATE MATERIALIZED VIEW d${n} AS SELECT 1 AS a;`);
        const p = await tester.load({ 'a.sql': lines.join('\n') }, { spec: {} });
        const diagnostics = p.raw('a.sql');
        expect(codes(diagnostics)).toEqual(['UNRESOLVED_COLUMN.WITH_SUGGESTION']);
        // The column of d1000 reached d1 through 999 datasets: d0's reference is checked against it.
        expect(diagnostics.map(d => `${d.range.start.line + 1}: ${d.message}`)).toEqual(['1: Column \'missing\' does not exist in \'d1\' (a).']);
    });

    test('a chain of 400 datasets, one per file, in any file order', async () => {
        const n = 400;
        const files: Record<string, string> = {};
        for (let i = 0; i < n; i++) {
            files[`f${i}.sql`] = `CREATE MATERIALIZED VIEW d${i} AS SELECT a + 1 AS a FROM d${i + 1};`;
        }
        files[`f${n}.sql`] = `CREATE MATERIALIZED VIEW d${n} AS SELECT 1 AS a;`;
        files['last.sql'] = 'CREATE MATERIALIZED VIEW total AS SELECT sum(a) AS s, nope FROM d0;';
        const p = await tester.load(files, { spec: {} });
        expect(p.all()).toEqual(['last.sql [1:55..1:59] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'nope\' does not exist in \'d0\' (a).']);
    });

    test('a cycle through 500 datasets is reported on every one of them, and the graph names it', async () => {
        const n = 500;
        const lines: string[] = [];
        for (let i = 0; i < n; i++) {
            lines.push(`CREATE MATERIALIZED VIEW d${i} AS SELECT a FROM d${(i + 1) % n};`);
        }
        const p = await tester.load({ 'a.sql': lines.join('\n') }, { spec: {} });
        const diagnostics = p.raw('a.sql');
        expect(codes(diagnostics)).toEqual(['PIPELINE_SQL_CIRCULAR_DEPENDENCY']);
        expect(new Set(diagnostics.map(d => d.range.start.line)).size).toBe(n);
        const graph = toPipelineGraph(tester.services.pipeline.Model.modelFor(URI.file(`${p.root}/a.sql`)));
        expect(graph.cycles.map(c => c.length)).toEqual([n]);
    });

    test('a chain of 1,000 views over a stream, read by a streaming table, is decided without recursion', async () => {
        const n = 1000;
        const lines = ['CREATE STREAMING TABLE sink AS SELECT * FROM v0;'];
        for (let i = 0; i < n; i++) {
            lines.push(`CREATE TEMPORARY VIEW v${i} AS SELECT * FROM v${i + 1};`);
        }
        lines.push(`CREATE TEMPORARY VIEW v${n} AS SELECT * FROM STREAM(src);`, 'CREATE STREAMING TABLE src AS SELECT 1 AS a;');
        const p = await tester.load({ 'a.sql': lines.join('\n') }, { spec: {} });
        expect(codes(p.raw('a.sql')).filter(c => c.includes('INTERNAL'))).toEqual([]);
        const m = tester.services.pipeline.Model.modelFor(URI.file(`${p.root}/a.sql`));
        expect(m.queryMode(m.flowsNamed('sink')[0])).toBe('unknown');
        expect(m.queryMode(m.flowsNamed(`v${n}`)[0])).toBe('streaming');
    });
});
