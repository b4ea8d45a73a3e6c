// Fault test: a child process running an update is killed (SIGKILL) at a random point — in a flow
// or while committing — and the update is then run again. The state after that must equal the
// state of a twin pipeline folder that received the same data and was never interrupted: nothing
// lost (checkpoints never run ahead of the data) and nothing duplicated (data never ahead of the
// checkpoints).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withDuckDB } from '../../helpers/duckdb.js';
import { STATE_FILE } from '../../../engine/src/index.js';
import { faultPipeline } from '../fixtures/fault-pipeline.js';
import { Workspace } from '../helpers/workspace.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const child = path.join(repo, 'test', 'engine', 'fixtures', 'fault-child.ts');
const ROWS = 40_000;

/** Writes round `round`'s events (a Parquet file) into a workspace's sample folder. */
async function writeRound(ws: Workspace, round: number): Promise<void> {
    const folder = path.join(ws.samples, 'events');
    fs.mkdirSync(folder, { recursive: true });
    await withDuckDB(async db => {
        await db.run(`COPY (SELECT CAST(${round} * 1000000 + i AS BIGINT) AS id, CAST(hash(i, ${round}) % 20000 AS INTEGER) AS k, 'v' || i AS v, `
            + `CAST(hash(${round}, i, 7) % 1000000 AS BIGINT) AS seq, CASE WHEN hash(i, ${round}, 3) % 20 = 0 THEN 'D' ELSE 'U' END AS op FROM range(${ROWS}) t(i)) `
            + `TO '${path.join(folder, `part-${round}.parquet`)}' (FORMAT parquet)`);
    });
}

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

/** Rows of `table` present in one state file and not the other (both directions), and row counts. */
async function compareStates(a: string, b: string, tables: string[]): Promise<Record<string, { onlyA: number; onlyB: number; rows: number }>> {
    const out: Record<string, { onlyA: number; onlyB: number; rows: number }> = {};
    await withDuckDB(async db => {
        await db.run(`ATTACH '${a}' AS a (READ_ONLY)`);
        await db.run(`ATTACH '${b}' AS b (READ_ONLY)`);
        for (const table of tables) {
            const columns = (await db.columns(`SELECT * FROM a.ds."${table}" LIMIT 0`)).map(c => `"${c}"`).filter(c => c !== '"__psql_rowid"').join(', ');
            const count = async (sql: string) => Number(await db.scalar(`SELECT count(*) FROM (${sql})`));
            out[table] = {
                onlyA: await count(`SELECT ${columns} FROM a.ds."${table}" EXCEPT ALL SELECT ${columns} FROM b.ds."${table}"`),
                onlyB: await count(`SELECT ${columns} FROM b.ds."${table}" EXCEPT ALL SELECT ${columns} FROM a.ds."${table}"`),
                rows: await count(`SELECT * FROM a.ds."${table}"`),
            };
        }
    });
    return out;
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
            await writeRound(killed, round);
            await writeRound(clean, round);
            outcomes.push(await runAndKill(killed, round * 7 + 3));
            await killed.ok(faultPipeline(), { limit: 1 });
            await clean.ok(faultPipeline(), { limit: 1 });
            const diff = await compareStates(path.join(killed.state, STATE_FILE), path.join(clean.state, STATE_FILE), ['raw', 'latest', 'history']);
            expect(diff.raw, `round ${round} (${outcomes[round - 1]})`).toEqual({ onlyA: 0, onlyB: 0, rows: ROWS * round });
            expect(diff.latest.onlyA + diff.latest.onlyB, `round ${round}`).toBe(0);
            expect(diff.history.onlyA + diff.history.onlyB, `round ${round}`).toBe(0);
        }
        // At least one run must really have been interrupted for the test to mean anything.
        console.log(`fault test: ${outcomes.join('; ')}`);
        expect(outcomes.some(o => o.startsWith('killed')), outcomes.join('; ')).toBe(true);
    }, 300_000);
});
