// A process killed while it writes an update's commit leaves the state's write-ahead log cut off
// inside that commit. Deterministic version of the fault test for that moment: the log of a committed
// update is cut by several byte counts, and each time the state must open as the update before it
// left it, and running the update again must give exactly the state of a twin that was never cut —
// nothing lost, nothing duplicated, at that open and at every later one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../../engine/src/index.js';
import { walTail } from '../../../engine/src/db/wal-tail.js';
import { StateStore } from '../../../engine/src/state/state-store.js';
import { faultPipeline, writeFaultEvents } from '../fixtures/fault-pipeline.js';
import { diffStates, FILES_READ, type StateDiff } from '../helpers/state-files.js';
import { Workspace } from '../helpers/workspace.js';

// More rows than a row group of the state (16,384), so that the update's appends are written to data
// blocks before the commit and its log holds pointers to them (ROW_GROUP_DATA), as large updates' do.
const ROWS = 20_000;
const DATASETS = ['raw', 'latest', 'history'];

const ws = new Workspace();
const stateFile = path.join(ws.state, STATE_FILE);
const wal = `${stateFile}.wal`;
/** Copies of the state files: after round 1, and after round 2 (the twin that was never cut). */
const saved = path.join(ws.root, 'saved');
let round1Log = 0;
let round2Log = 0;

function save(name: string): void {
    fs.mkdirSync(path.join(saved, name), { recursive: true });
    const file = path.join(saved, name, STATE_FILE);
    fs.copyFileSync(stateFile, file);
    fs.copyFileSync(wal, `${file}.wal`);
}

/** Puts back the state as round 2 left it, with the last `cut` bytes of its log gone. */
function restoreCut(cut: number): void {
    fs.rmSync(ws.state, { recursive: true, force: true });
    fs.mkdirSync(ws.state, { recursive: true });
    fs.copyFileSync(path.join(saved, 'round2', STATE_FILE), stateFile);
    fs.copyFileSync(path.join(saved, 'round2', `${STATE_FILE}.wal`), wal);
    fs.truncateSync(wal, round2Log - cut);
}

beforeAll(async () => {
    await writeFaultEvents(ws.samples, 1, ROWS);
    await ws.ok(faultPipeline(), { limit: 1 });
    save('round1');
    round1Log = fs.statSync(wal).size;
    await writeFaultEvents(ws.samples, 2, ROWS);
    await ws.ok(faultPipeline(), { limit: 1 });
    save('round2');
    round2Log = fs.statSync(wal).size;
}, 120_000);
afterAll(() => ws.dispose());

describe('an update whose commit was cut off in the write-ahead log', () => {
    it('leaves a log that ends in a complete commit when nothing was cut (opening it repairs nothing)', () => {
        expect(walTail(path.join(saved, 'round2', `${STATE_FILE}.wal`))).toBe('commit');
        expect(round2Log).toBeGreaterThan(round1Log);
    });

    // Cuts inside the commit's end marker, the whole marker (every entry complete, the commit
    // unfinished), into the entry before it (the raw table's row group pointers), and back to the
    // start of the commit.
    const cuts: Array<[string, (commitBytes: number) => number]> = [
        ['10 bytes', () => 10],
        ['its end marker (21 bytes)', () => 21],
        ['22 bytes', () => 22],
        ['all of the commit but its first byte', bytes => bytes - 1],
    ];
    it.each(cuts)('cut by %s: opens as the update before, and the next run gives the uncut state', async (_, cutOf) => {
        restoreCut(cutOf(round2Log - round1Log));
        expect(walTail(wal)).toBe('torn');
        const same = (diff: StateDiff) => Object.fromEntries(Object.entries(diff).map(([table, d]) => [table, { onlyA: 0, onlyB: 0, rows: d.rows }]));

        // Opened by the engine, the state is round 1's exactly: none of round 2's rows in any dataset,
        // and round 2's file not recorded as read.
        (await StateStore.open(ws.state)).close();
        expect(walTail(wal)).toBe('commit');
        const opened = await diffStates(stateFile, path.join(saved, 'round1', STATE_FILE), DATASETS, { filesRead: true });
        expect(opened).toEqual(same(opened));
        expect(opened.raw.rows).toBe(ROWS);

        // Running the update again reads round 2's file again, once: the state is the uncut twin's,
        // as this later open (a plain DuckDB replaying the log) finds it.
        await ws.ok(faultPipeline(), { limit: 1 });
        const rerun = await diffStates(stateFile, path.join(saved, 'round2', STATE_FILE), DATASETS, { filesRead: true });
        expect(rerun).toEqual(same(rerun));
        expect(rerun.raw.rows).toBe(2 * ROWS);
        expect(rerun[FILES_READ].rows).toBe(opened[FILES_READ].rows + 2);
    }, 120_000);
});
