// What the engine does with a state it must not use as it is: a damaged state file is reported as
// unreadable (not as locked) with the way out; another pipeline's state is refused before anything
// of it is dropped; a state written before states recorded their pipeline is adopted once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readState, runQuery, STATE_FILE, type PipelineIR } from '../../../engine/src/index.js';
import { appendFlow, autoCdc, catalogTable, col, countStar, pipeline, select, selectStar, stream, streamingTable, table } from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const events = catalogTable('events', 'id INT, name STRING, seq INT', 'json');

/** Pipeline A: an SCD1 target over the events. */
const pipelineA: PipelineIR = pipeline([streamingTable('users')], [
    autoCdc('users', 'users', stream('events'), { keys: ['id'], sequenceBy: col('seq') }),
], [events]);

/** Pipeline B: other datasets over the same sample folder. */
const pipelineB: PipelineIR = pipeline([streamingTable('raw')], [appendFlow('raw', 'raw', selectStar(stream('events')))], [events]);

const A = { id: 'pipelines/a', name: 'a' };
const B = { id: 'pipelines/b', name: 'b' };

describe('a damaged state file', () => {
    it('that is not a database is PIPELINE_SQL_STATE_UNREADABLE with the way out, not "locked", and is left as it was', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, name: 'Ada', seq: 1 }]);
        fs.mkdirSync(ws.state, { recursive: true });
        const file = path.join(ws.state, STATE_FILE);
        const garbage = Buffer.from('not a database '.repeat(2000));
        fs.writeFileSync(file, garbage);
        const error = await ws.fails(pipelineA);
        expect(error.class).toBe('PIPELINE_SQL_STATE_UNREADABLE');
        expect(error.message).toContain('damaged');
        expect(error.message).toContain(`delete the state folder '${ws.state}'`);
        expect(error.message).not.toMatch(/in use|another run/);
        expect(fs.readFileSync(file).equals(garbage)).toBe(true);
    });

    it('whose header block fails its checksum ("... in block at location ...") is unreadable, not locked', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, name: 'Ada', seq: 1 }]);
        await ws.ok(pipelineA);
        const file = path.join(ws.state, STATE_FILE);
        const bytes = fs.readFileSync(file);
        for (let i = 4096; i < 4096 + 64; i++) {
            bytes[i] ^= 0xff;
        }
        for (let i = 8192; i < 8192 + 64; i++) {
            bytes[i] ^= 0xff;
        }
        fs.writeFileSync(file, bytes);
        const error = await ws.fails(pipelineA);
        expect(error.class).toBe('PIPELINE_SQL_STATE_UNREADABLE');
        expect(error.message).toMatch(/block|checksum|not a valid/);
        expect(error.message).not.toMatch(/in use|another run/);
    });

    it('that is truncated is unreadable, for previews too', async () => {
        ws = new Workspace();
        ws.append('events', Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `n${i}`, seq: i })));
        await ws.ok(pipelineA);
        const file = path.join(ws.state, STATE_FILE);
        fs.truncateSync(file, 5000);
        fs.rmSync(`${file}.wal`, { force: true });
        const state = await readState(pipelineA, { stateDir: ws.state, samplesDir: ws.samples });
        expect(state.ok).toBe(false);
        expect(!state.ok && state.error.class).toBe('PIPELINE_SQL_STATE_UNREADABLE');
    });
});

describe('a state folder records the pipeline it belongs to', () => {
    it("another pipeline's state is refused with PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE and its datasets and CDC history are kept", async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, name: 'Ada', seq: 1 }, { id: 2, name: 'Alan', seq: 2 }]);
        await ws.ok(pipelineA, { pipeline: A });
        const error = await ws.fails(pipelineB, { pipeline: B });
        expect(error.class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
        expect(error.message).toContain('\'a\' (pipelines/a)');
        expect(error.message).toContain('\'b\' (pipelines/b)');
        expect(error.message).toContain('Nothing was changed');
        expect(error.message).toContain('--state');
        // A full refresh is refused just the same: it would drop the same tables.
        expect((await ws.fails(pipelineB, { pipeline: B, fullRefresh: true })).class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
        // Previews of the other pipeline are refused too; pipeline A still has its rows and events.
        const preview = await readState(pipelineB, { stateDir: ws.state, samplesDir: ws.samples, pipeline: B });
        expect(!preview.ok && preview.error.class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
        const query = await runQuery(pipelineB, select([countStar()], { from: [table('events')] }), { stateDir: ws.state, samplesDir: ws.samples, pipeline: B });
        expect(!query.ok && query.error.class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
        ws.append('events', [{ id: 1, name: 'Ada L.', seq: 3 }]);
        const again = await ws.ok(pipelineA, { pipeline: A });
        expect(rowsOf(again.datasets.users.rows, 'id', 'name')).toEqual(expected([1, 'Ada L.'], [2, 'Alan']));
        expect(again.metrics.users).toMatchObject({ num_upserted_rows: 1 });
    });

    it('a state written before states recorded their pipeline is adopted by the first pipeline that updates it, once', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, name: 'Ada', seq: 1 }]);
        await ws.ok(pipelineA);
        // Reads do not adopt: pipeline B's preview of the unowned state works and claims nothing.
        expect((await readState(pipelineB, { stateDir: ws.state, samplesDir: ws.samples, pipeline: B })).ok).toBe(true);
        const adopted = await ws.ok(pipelineA, { pipeline: A });
        expect(rowsOf(adopted.datasets.users.rows, 'id', 'name')).toEqual(expected([1, 'Ada']));
        expect((await ws.fails(pipelineB, { pipeline: B })).class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
    });

    it('the same pipeline under a new name keeps its state (the identity decides, the name is for messages)', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1, name: 'Ada', seq: 1 }]);
        await ws.ok(pipelineA, { pipeline: A });
        ws.append('events', [{ id: 3, name: 'Grace', seq: 1 }]);
        const renamed = await ws.ok(pipelineA, { pipeline: { id: A.id, name: 'users' } });
        expect(rowsOf(renamed.datasets.users.rows, 'id')).toEqual(expected([1], [3]));
        const error = await ws.fails(pipelineB, { pipeline: B });
        expect(error.message).toContain('\'users\' (pipelines/a)');
    });
});
