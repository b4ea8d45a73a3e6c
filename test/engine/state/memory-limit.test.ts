// A query that explodes (a materialized view over a large cross join) runs within DuckDB's memory
// limit, spills to the state's spill folder, and ends with UNABLE_TO_ACQUIRE_MEMORY on the dataset's
// statement when the spill space is used up, the previous state intact; Cancel works meanwhile.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSize, resolveResources, SPILL_DIR } from '../../../engine/src/db/resources.js';
import { readState, type PipelineIR, type RelationIR } from '../../../engine/src/index.js';
import { sql } from '../../../engine/src/sql/sql.js';
import { StateStore } from '../../../engine/src/state/state-store.js';
import { catalogTable, col, materializedView, mvFlow, pipeline, select, table } from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const numbers = catalogTable('numbers', 'id INT, label STRING', 'json');

/** `SELECT a.id, b.id, a.label, b.label FROM numbers a CROSS JOIN numbers b` as a materialized view. */
function explodingPipeline(): PipelineIR {
    const cross: RelationIR = { kind: 'join', joinType: 'cross', left: table('numbers', { alias: 'a' }), right: table('numbers', { alias: 'b' }) };
    const query = select([[col('a.id'), 'a_id'], [col('b.id'), 'b_id'], [col('a.label'), 'a_label'], [col('b.label'), 'b_label']], { from: [cross] });
    return pipeline([materializedView('pairs')], [mvFlow('pairs', query)], [numbers]);
}

/** The number of rows the state holds for the view. */
async function rowCount(ir: PipelineIR): Promise<number | undefined> {
    const state = await readState(ir, { stateDir: ws.state, samplesDir: ws.samples, limit: 1 });
    return state.ok ? state.datasets.pairs?.rowCount : undefined;
}

function writeNumbers(count: number): void {
    ws.append('numbers', Array.from({ length: count }, (_, i) => ({ id: i, label: `label number ${i} of the sample ${'x'.repeat(20)}` })));
}

describe('the memory and disk an update may use', () => {
    it('sizes are read as people write them and the defaults follow the machine', () => {
        expect(parseSize('2GB', 'memory limit')).toBe(2e9);
        expect(parseSize('512MiB', 'memory limit')).toBe(512 * 1024 * 1024);
        expect(parseSize('1.5g', 'memory limit')).toBe(1.5 * 1024 ** 3);
        expect(() => parseSize('lots', 'memory limit')).toThrow(/not a size/);
        expect(() => parseSize('12', 'memory limit')).toThrow(/at least 1 MiB/);
        const defaults = resolveResources(os.tmpdir(), {});
        expect(defaults.memoryLimit).toBe(Math.max(512 * 1024 ** 2, Math.floor(os.totalmem() / 4)));
        expect(defaults.spillLimit).toBeLessThanOrEqual(2 * defaults.memoryLimit);
        expect(defaults.spillDir).toBe(path.join(os.tmpdir(), SPILL_DIR));
    });

    it('DuckDB gets the memory limit and spills into the state folder', async () => {
        ws = new Workspace();
        const store = await StateStore.open(ws.state, { memoryLimit: '300MiB', spillLimit: '1GiB' });
        try {
            expect(String(await store.db.scalar(sql`SELECT current_setting('memory_limit')`))).toBe('300.0 MiB');
            expect(String(await store.db.scalar(sql`SELECT current_setting('temp_directory')`))).toBe(path.join(ws.state, SPILL_DIR));
        } finally {
            store.close();
        }
    });

    it('a materialized view over a large cross join ends with UNABLE_TO_ACQUIRE_MEMORY on its statement, and the previous state is intact', async () => {
        ws = new Workspace();
        writeNumbers(100);
        const ir = explodingPipeline();
        const limits = { memoryLimit: '128MiB', spillLimit: '256MiB' };
        const first = await ws.ok(ir, limits);
        expect(first.datasets.pairs.rowCount).toBe(10_000);
        writeNumbers(9_900);
        const started = Date.now();
        const error = await ws.fails(ir, limits);
        const seconds = (Date.now() - started) / 1000;
        expect(error.class).toBe('UNABLE_TO_ACQUIRE_MEMORY');
        expect(error.message).toContain('memory limit 128 MiB, spill space 256 MiB');
        expect(error.message).toContain('PIPELINE_SQL_MEMORY_LIMIT');
        expect(error).toMatchObject({ dataset: 'pairs', flow: 'pairs', file: 'pipeline.sql', line: (ir.flows[0] as { query: { span: { line: number } } }).query.span.line });
        // The first update's 10,000 rows are still there; the spill folder is gone with the database.
        expect(await rowCount(ir)).toBe(10_000);
        expect(fs.existsSync(path.join(ws.state, SPILL_DIR)) ? fs.readdirSync(path.join(ws.state, SPILL_DIR)) : []).toEqual([]);
        console.log(`cross join of 10,000 x 10,000 rows stopped after ${seconds.toFixed(1)} s at 128 MiB memory / 256 MiB spill`);
    }, 120_000);

    it('Cancel (AbortSignal) stops an update while the exploding query runs, and the state is as before', async () => {
        ws = new Workspace();
        writeNumbers(100);
        const ir = explodingPipeline();
        await ws.ok(ir);
        writeNumbers(19_900);
        const controller = new AbortController();
        let abortedAt = 0;
        const result = await ws.run(ir, {
            memoryLimit: '256MiB', spillLimit: '8GiB', signal: controller.signal,
            onProgress: event => {
                if (event.phase === 'flow') {
                    setTimeout(() => {
                        abortedAt = Date.now();
                        controller.abort();
                    }, 1500);
                }
            },
        });
        const stoppedAfter = Date.now() - abortedAt;
        expect(result.ok ? 'ok' : `${result.error.class}: ${result.error.message}`).toBe('PIPELINE_SQL_CANCELLED: The update was cancelled; the previous pipeline state is unchanged.');
        expect(await rowCount(ir)).toBe(10_000);
        console.log(`cancelled ${stoppedAfter} ms after the abort`);
    }, 120_000);
});
