// Several operations on one pipeline state inside one process (the language server may start a
// preview while a run is going) take turns: DuckDB's file lock only keeps other processes out.
import { afterEach, describe, expect, it } from 'vitest';
import { readState, runQuery } from '../../../engine/src/index.js';
import { appendFlow, catalogTable, countStar, pipeline, select, selectStar, stream, streamingTable, table } from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

describe('one state, several operations at once', () => {
    it('concurrent updates, reads and queries neither duplicate rows nor damage the state', async () => {
        ws = new Workspace();
        ws.append('events', Array.from({ length: 20_000 }, (_, i) => ({ id: i })));
        const ir = pipeline([streamingTable('t')], [appendFlow('t', 't', selectStar(stream('events')))], [catalogTable('events', 'id INT', 'json')]);
        const options = { stateDir: ws.state, samplesDir: ws.samples };
        const results = await Promise.all([
            ws.run(ir), ws.run(ir), readState(ir, options), runQuery(ir, select([countStar()], { from: [table('events')] }), options), ws.run(ir),
        ]);
        for (const result of results) {
            expect(result.ok ? 'ok' : result.error).toBe('ok');
        }
        const after = await ws.ok(ir);
        expect(after.datasets.t.rowCount).toBe(20_000);
    });
});
