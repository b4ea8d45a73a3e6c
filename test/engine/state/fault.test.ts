// Fault test: a child process running an update is killed (SIGKILL) at a random point — in a flow
// or while committing — and the update is then run again. The state after that must equal the
// state of a twin pipeline folder that received the same data and was never interrupted: nothing
// lost (checkpoints never run ahead of the data) and nothing duplicated (data never ahead of the
// checkpoints).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../../engine/src/index.js';
import { faultPipeline, writeFaultEvents } from '../fixtures/fault-pipeline.js';
import { diffStates } from '../helpers/state-files.js';
import { Workspace } from '../helpers/workspace.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const child = path.join(repo, 'test', 'engine', 'fixtures', 'fault-child.ts');
const ROWS = 40_000;

/** Runs the update in a child process and kills it at a random point; resolves with what happened. */
function runAndKill(ws: Workspace, seed: number): Promise<string> {
    return new Promise((resolve, reject) => {
        const proc = spawn(process.execPath, ['--import', 'tsx', child, ws.root], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
        // Kill after a chosen progress event, then after a short delay inside the work that follows it.
        const targets = ['flow:1', 'flow:2', 'flow:3', 'commit'];
        const target = targets[seed % targets.length];
        const delay = (seed * 37) % 150;
        let buffered = '';
        let stderr = '';
        let outcome = 'finished before the kill';
        proc.stdout.on('data', chunk => {
            buffered += String(chunk);
            let newline: number;
            while ((newline = buffered.indexOf('\n')) >= 0) {
                const line = buffered.slice(0, newline);
                buffered = buffered.slice(newline + 1);
                const event = JSON.parse(line) as { phase: string; index?: number };
                const tag = event.phase === 'flow' ? `flow:${event.index}` : event.phase;
                if (tag === target) {
                    setTimeout(() => {
                        if (proc.exitCode === null) {
                            outcome = `killed ${delay} ms after ${target}`;
                            proc.kill('SIGKILL');
                        }
                    }, delay);
                }
            }
        });
        proc.stderr.on('data', chunk => {
            stderr += String(chunk);
        });
        proc.on('error', reject);
        proc.on('exit', (code, signal) => (signal === 'SIGKILL' || code === 0 ? resolve(outcome) : reject(new Error(`child failed (${code}): ${stderr}`))));
    });
}

const workspaces: Workspace[] = [];
afterAll(() => workspaces.forEach(ws => ws.dispose()));

describe('a killed update', () => {
    it('leaves the last committed state, and the next run loses and duplicates nothing', async () => {
        const killed = new Workspace();
        const clean = new Workspace();
        workspaces.push(killed, clean);
        const outcomes: string[] = [];
        for (let round = 1; round <= 4; round++) {
            await writeFaultEvents(killed.samples, round, ROWS);
            await writeFaultEvents(clean.samples, round, ROWS);
            outcomes.push(await runAndKill(killed, round * 7 + 3));
            await killed.ok(faultPipeline(), { limit: 1 });
            await clean.ok(faultPipeline(), { limit: 1 });
            const diff = await diffStates(path.join(killed.state, STATE_FILE), path.join(clean.state, STATE_FILE), ['raw', 'latest', 'history']);
            expect(diff.raw, `round ${round} (${outcomes[round - 1]})`).toEqual({ onlyA: 0, onlyB: 0, rows: ROWS * round });
            expect(diff.latest.onlyA + diff.latest.onlyB, `round ${round}`).toBe(0);
            expect(diff.history.onlyA + diff.history.onlyB, `round ${round}`).toBe(0);
        }
        // At least one run must really have been interrupted for the test to mean anything.
        console.log(`fault test: ${outcomes.join('; ')}`);
        expect(outcomes.some(o => o.startsWith('killed')), outcomes.join('; ')).toBe(true);
    }, 300_000);
});
