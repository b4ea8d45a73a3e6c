// A state database kept open between updates (the language server's DatabaseKeeper) behaves exactly
// like opening the state for every update, whatever happens to the files in between; and it lets a
// process that needs the state (a CLI run) have it.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseKeeper, readState, releaseRequestFile, type PipelineIR, type UpdateResult } from '../../../engine/src/index.js';
import { STATE_FILE } from '../../../engine/src/state/state-store.js';
import { prng } from '../../helpers/prng.js';
import {
    appendFlow, autoCdc, catalogTable, col, countStar, eq, materializedView, mvFlow, pipeline, sel, select, selectStar, str, stream, streamingTable, table,
} from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');

let spaces: Workspace[] = [];
let keepers: DatabaseKeeper[] = [];
afterEach(() => {
    keepers.forEach(k => k.closeAll());
    spaces.forEach(w => w.dispose());
    spaces = [];
    keepers = [];
});

function workspace(): Workspace {
    const ws = new Workspace();
    spaces.push(ws);
    return ws;
}

function keeper(idleMs?: number): DatabaseKeeper {
    const k = new DatabaseKeeper(idleMs);
    keepers.push(k);
    return k;
}

/** An AUTO CDC flow, an append flow and a materialized view over a batch-read dimension file. */
const ir: PipelineIR = pipeline(
    [streamingTable('current'), streamingTable('raw'), materializedView('by_city')],
    [
        autoCdc('current_cdc', 'current', stream('events'), { keys: ['id'], sequenceBy: col('seq'), deleteWhen: eq(col('op'), str('D')), columns: sel.except('op'), storedAs: 'scd2' }),
        appendFlow('raw', 'raw', selectStar(stream('events'))),
        mvFlow('by_city', select([col('city'), [countStar(), 'n']], { from: [table('cities')], groupBy: [col('city')] })),
    ],
    [catalogTable('events', 'id INT, city STRING, seq INT, op STRING', 'json'), catalogTable('cities', 'city STRING', 'csv')],
);

/**
 * What a user sees of an update: every dataset's rows and counts and what the update changed, or the
 * error. Lists are compared as multisets: rows read from several files at once get their arrival
 * numbers in the order the reader's threads deliver them, with or without a kept database.
 */
function seen(result: UpdateResult): unknown {
    if (!result.ok) {
        return { error: result.error.class, message: result.error.message };
    }
    const canonical = (value: unknown): unknown => Array.isArray(value)
        ? value.map(canonical).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
        : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v)])) : value;
    return canonical(Object.fromEntries(Object.entries(result.datasets).map(([name, d]) => [name, { rows: d.rows, rowCount: d.rowCount, changes: d.changes }])));
}

describe('a state database kept open between updates', () => {
    it('gives what opening the state each time gives, across file changes, rewrites with the same size and time, deleted states and full refreshes', async () => {
        for (const seed of [1, 2]) {
            const random = prng(seed);
            const kept = workspace();
            const fresh = workspace();
            const k = keeper();
            let seq = 0;
            const cityFile = (text: string) => {
                for (const ws of [kept, fresh]) {
                    const file = ws.write('cities/cities.csv', text);
                    // The same modification time as before: only the content tells the change.
                    fs.utimesSync(file, new Date('2025-01-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'));
                }
            };
            cityFile('city\nberlin\nparis\n');
            kept.append('events', [{ id: 0, city: 'berlin', seq: 0, op: 'U' }]);
            fresh.append('events', [{ id: 0, city: 'berlin', seq: 0, op: 'U' }]);
            for (let step = 0; step < 12; step++) {
                const action = random();
                if (action < 0.45) {
                    const rows = Array.from({ length: 1 + Math.floor(random() * 20) }, () => ({
                        id: Math.floor(random() * 8), city: random() < 0.5 ? 'berlin' : 'paris', seq: ++seq, op: random() < 0.2 ? 'D' : 'U',
                    }));
                    kept.append('events', rows);
                    fresh.append('events', rows);
                } else if (action < 0.65) {
                    // Same size, other content.
                    cityFile(random() < 0.5 ? 'city\nberlin\nberlin\n' : 'city\nparis\nparis\n');
                } else if (action < 0.75) {
                    fs.rmSync(kept.state, { recursive: true, force: true });
                    fs.rmSync(fresh.state, { recursive: true, force: true });
                }
                const fullRefresh = random() < 0.1;
                const withKeeper = await kept.run(ir, { keeper: k, fullRefresh });
                const withoutKeeper = await fresh.run(ir, { fullRefresh });
                expect(seen(withKeeper), `seed ${seed}, step ${step}`).toEqual(seen(withoutKeeper));
                expect(withKeeper.ok, JSON.stringify(!withKeeper.ok && withKeeper.error)).toBe(true);
                // Reads through the keeper see what the update left.
                const state = await readState(ir, { stateDir: kept.state, samplesDir: kept.samples, keeper: k });
                expect(state.ok && state.datasets.raw.rowCount).toBe(withKeeper.ok && withKeeper.datasets.raw.rowCount);
                expect(k.parkedCount).toBe(1);
            }
        }
    });

    it('is released to another process that asks for the state, and the next update starts from what that process wrote', async () => {
        const ws = workspace();
        const simple = pipeline([streamingTable('t')], [appendFlow('t', 't', selectStar(stream('events')))], [catalogTable('events', 'id INT', 'json')]);
        ws.append('events', [{ id: 1 }]);
        const k = keeper();
        expect((await ws.run(simple, { keeper: k })).ok).toBe(true);
        expect(k.parkedCount).toBe(1);
        // Another process (as `pipeline-sql run` would) updates the state this process keeps open.
        ws.append('events', [{ id: 2 }, { id: 3 }]);
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '..', 'fixtures', 'update-child.ts'), ws.root], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', chunk => (output += String(chunk)));
        child.stderr.on('data', chunk => (output += String(chunk)));
        const code = await new Promise(resolve => child.once('exit', resolve));
        expect(output).toContain('rows 3');
        expect(code).toBe(0);
        expect(k.parkedCount).toBe(0);
        expect(fs.existsSync(releaseRequestFile(path.join(ws.state, STATE_FILE)))).toBe(false);
        // The next update here opens the state again: the rows the other process read are not read twice.
        ws.append('events', [{ id: 4 }]);
        const next = await ws.run(simple, { keeper: k });
        expect(next.ok && next.datasets.t.rowCount).toBe(4);
    });

    it('still refuses another pipeline\'s state, though the state was checked when it was opened', async () => {
        const ws = workspace();
        const simple = pipeline([streamingTable('t')], [appendFlow('t', 't', selectStar(stream('events')))], [catalogTable('events', 'id INT', 'json')]);
        ws.append('events', [{ id: 1 }]);
        const k = keeper();
        expect((await ws.run(simple, { keeper: k, pipeline: { id: 'a' } })).ok).toBe(true);
        expect((await ws.run(simple, { keeper: k, pipeline: { id: 'a' } })).ok).toBe(true);
        const other = await ws.run(simple, { keeper: k, pipeline: { id: 'b' } });
        expect(!other.ok && other.error.class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
        const read = await readState(simple, { stateDir: ws.state, samplesDir: ws.samples, keeper: k, pipeline: { id: 'b' } });
        expect(!read.ok && read.error.class).toBe('PIPELINE_SQL_STATE_OF_ANOTHER_PIPELINE');
    });

    it('is closed after its idle time, and the state is then free for anyone', async () => {
        const ws = workspace();
        const simple = pipeline([streamingTable('t')], [appendFlow('t', 't', selectStar(stream('events')))], [catalogTable('events', 'id INT', 'json')]);
        ws.append('events', [{ id: 1 }]);
        const k = keeper(50);
        expect((await ws.run(simple, { keeper: k })).ok).toBe(true);
        expect(k.parkedCount).toBe(1);
        await new Promise(resolve => setTimeout(resolve, 300));
        expect(k.parkedCount).toBe(0);
    });

    it('an update that fails leaves the kept database usable and the previous state intact', async () => {
        const ws = workspace();
        const k = keeper();
        const cdc = pipeline([streamingTable('t')], [autoCdc('t_cdc', 't', stream('events'), { keys: ['id'], sequenceBy: col('seq') })], [catalogTable('events', 'id INT, seq INT', 'json')]);
        ws.append('events', [{ id: 1, seq: 1 }]);
        expect((await ws.run(cdc, { keeper: k })).ok).toBe(true);
        ws.append('events', [{ id: 2, seq: null }]);
        const failed = await ws.run(cdc, { keeper: k });
        expect(!failed.ok && failed.error.class).toBe('AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE');
        expect(k.parkedCount).toBe(1);
        const state = await readState(cdc, { stateDir: ws.state, samplesDir: ws.samples, keeper: k });
        expect(state.ok && state.datasets.t.rows).toEqual([{ id: 1, seq: 1 }]);
    });
});
