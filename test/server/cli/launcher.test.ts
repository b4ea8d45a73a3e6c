// `pipeline-sql` (out/cli.cjs) starts the CLI from the start-up snapshot the build makes, and falls
// back to loading the bundle whenever the snapshot cannot be used, with the same output either way.
import { execFile, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../../helpers/parse.js';

const out = path.join(repoRoot, 'out');
let tmp: string;
let pipeline: string;

interface Outcome { code: number; stdout: string; stderr: string }

async function cli(launcher: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
    const options = { env: { ...process.env, NODE_OPTIONS: '', PIPELINE_SQL_TRACE: '1', ...env } };
    return promisify(execFile)(process.execPath, [launcher, ...args], options)
        .then(r => ({ code: 0, ...r }), (e: Outcome) => e);
}

/** A copy of the built CLI (launcher, bundle, snapshot, and its record updated to the copied bundle) to tamper with. */
function copyOfCli(name: string): string {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    for (const file of ['cli.cjs', 'cli-main.cjs', 'cli-snapshot.blob']) {
        fs.copyFileSync(path.join(out, file), path.join(dir, file));
    }
    const bundle = fs.statSync(path.join(dir, 'cli-main.cjs'));
    const blob = fs.statSync(path.join(dir, 'cli-snapshot.blob'));
    const record: unknown = JSON.parse(fs.readFileSync(path.join(out, 'cli-snapshot.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'cli-snapshot.json'), JSON.stringify({
        ...(record as object), bundleSize: bundle.size, bundleMtimeMs: bundle.mtimeMs, blobSize: blob.size, blobMtimeMs: blob.mtimeMs,
    }));
    return dir;
}

beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-launcher-'));
    pipeline = path.join(tmp, 'orders');
    fs.mkdirSync(path.join(pipeline, 'transformations'), { recursive: true });
    fs.writeFileSync(path.join(pipeline, 'spark-pipeline.yml'), 'name: orders\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.writeFileSync(path.join(pipeline, 'transformations', 'orders.sql'), "CREATE OR REFRESH MATERIALIZED VIEW orders AS SELECT 1 AS id, 'open' AS status;\n");
    fs.writeFileSync(path.join(pipeline, 'transformations', 'late.sql'), 'CREATE OR REFRESH MATERIALIZED VIEW late AS SELECT stauts FROM orders;\n');
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const expectedCheck = (outcome: Outcome): void => {
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain("late.sql:1:52: error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'stauts' does not exist");
    expect(outcome.stdout).toContain('2 files checked: 1 error, 0 other diagnostics');
};

describe('the start-up snapshot', () => {
    test('the build makes one for this Node.js, and check starts from it', async () => {
        const record = JSON.parse(fs.readFileSync(path.join(out, 'cli-snapshot.json'), 'utf8')) as { node: string };
        expect(record.node).toBe(process.version);
        const outcome = await cli(path.join(out, 'cli.cjs'), ['check', pipeline]);
        expect(outcome.stderr).toContain('started from the start-up snapshot');
        expectedCheck(outcome);
    });

    test('a run from the snapshot loads DuckDB and updates the pipeline', async () => {
        const outcome = await cli(path.join(out, 'cli.cjs'), ['run', pipeline, '--json', '--state', path.join(tmp, 'state')]);
        expect(outcome.stderr).toContain('started from the start-up snapshot');
        // The pipeline has an error (late.sql), so the run refuses it with the same diagnostic.
        expect(outcome.code).toBe(1);
        fs.rmSync(path.join(pipeline, 'transformations', 'late.sql'));
        try {
            const ran = await cli(path.join(out, 'cli.cjs'), ['run', pipeline, '--json', '--state', path.join(tmp, 'state')]);
            expect(ran.code).toBe(0);
            expect(JSON.parse(ran.stdout)).toMatchObject({ ok: true, datasets: { orders: { rows: [{ id: 1, status: 'open' }] } } });
        } finally {
            fs.writeFileSync(path.join(pipeline, 'transformations', 'late.sql'), 'CREATE OR REFRESH MATERIALIZED VIEW late AS SELECT stauts FROM orders;\n');
        }
    });

    test.each([
        ['PIPELINE_SQL_SNAPSHOT=off', { PIPELINE_SQL_SNAPSHOT: 'off' }, 'PIPELINE_SQL_SNAPSHOT=off'],
        ['Node.js options in NODE_OPTIONS', { NODE_OPTIONS: '--max-old-space-size=512' }, 'Node.js options are given'],
    ])('not used with %s: same result', async (_, env, reason) => {
        const outcome = await cli(path.join(out, 'cli.cjs'), ['check', pipeline], env);
        expect(outcome.stderr).toContain(`started without the start-up snapshot: ${reason}`);
        expectedCheck(outcome);
    });

    test('a rebuilt bundle is never paired with an older snapshot', async () => {
        const dir = copyOfCli('rebuilt');
        fs.appendFileSync(path.join(dir, 'cli-main.cjs'), '\n');
        const outcome = await cli(path.join(dir, 'cli.cjs'), ['check', pipeline]);
        expect(outcome.stderr).toContain('started without the start-up snapshot: the bundle was rebuilt after it');
        expectedCheck(outcome);
    });

    test('a snapshot made by another Node.js is not tried', async () => {
        const dir = copyOfCli('other-node');
        const file = path.join(dir, 'cli-snapshot.json');
        fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), node: 'v99.0.0' }));
        const outcome = await cli(path.join(dir, 'cli.cjs'), ['check', pipeline]);
        expect(outcome.stderr).toContain(`it was made by Node.js v99.0.0 (${process.platform}-${process.arch}), this is ${process.version}`);
        expectedCheck(outcome);
    });

    test('a damaged snapshot file is not tried (Node.js would abort on it)', async () => {
        const dir = copyOfCli('damaged');
        fs.writeFileSync(path.join(dir, 'cli-snapshot.blob'), Buffer.alloc(4096, 7));
        const outcome = await cli(path.join(dir, 'cli.cjs'), ['check', pipeline]);
        expect(outcome.stderr).toContain('started without the start-up snapshot: out/cli-snapshot.blob is missing or not the file that was made');
        expectedCheck(outcome);
    });

    test('a snapshot Node.js refuses at start: the bundle runs instead', async () => {
        // A snapshot made by this Node.js under other V8 flags: Node.js refuses it with exit status 14.
        const dir = copyOfCli('other-flags');
        const made = spawnSync(process.execPath, ['--stack-size=2000', '--snapshot-blob', path.join(dir, 'cli-snapshot.blob'), '--build-snapshot', path.join(dir, 'cli-main.cjs')]);
        expect(made.status).toBe(0);
        const blob = fs.statSync(path.join(dir, 'cli-snapshot.blob'));
        const file = path.join(dir, 'cli-snapshot.json');
        fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), blobSize: blob.size, blobMtimeMs: blob.mtimeMs }));
        const outcome = await cli(path.join(dir, 'cli.cjs'), ['check', pipeline]);
        expect(outcome.stderr).toContain('the start-up snapshot could not be loaded: started without it');
        expectedCheck(outcome);
    });

    test.skipIf(process.platform !== 'linux')('a signal sent to pipeline-sql alone stops the command it started', async () => {
        // `sql -f /dev/stdin` waits for its statement; the test never sends one.
        const launcher = spawn(process.execPath, [path.join(out, 'cli.cjs'), 'sql', pipeline, '-f', '/dev/stdin', '--state', path.join(tmp, 'state')], {
            env: { ...process.env, NODE_OPTIONS: '', PIPELINE_SQL_TRACE: '1' }, stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stderr = '';
        launcher.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
        await expect.poll(() => stderr, { timeout: 20_000 }).toContain('started from the start-up snapshot');
        await expect.poll(() => childOf(launcher.pid!), { timeout: 20_000 }).toBeDefined();
        const command = childOf(launcher.pid!)!;
        const exited = new Promise<NodeJS.Signals | null>(resolve => launcher.on('exit', (_, signal) => resolve(signal)));
        launcher.kill('SIGTERM');
        expect(await exited).toBe('SIGTERM');
        await expect.poll(() => alive(command), { timeout: 10_000 }).toBe(false);
    });
});

/** The process a process started (Linux: /proc). */
function childOf(pid: number): number | undefined {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return children === '' ? undefined : Number(children.split(' ')[0]);
}

function alive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}
