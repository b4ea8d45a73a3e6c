/**
 * `pipeline-sql` (`out/cli.cjs`): starts the CLI from a V8 start-up snapshot when one was built for
 * this Node.js, so that a command does not pay for loading the 4 MB bundle and building the parser
 * again (issue 13: `check` of a small pipeline in about a third of the CPU time). `npm run build`
 * makes the snapshot (`out/cli-snapshot.blob`, a heap image of `out/cli-main.cjs` with its language
 * services created and its parser warmed, see cli-services.ts) and records in `out/cli-snapshot.json`
 * what it was built with. A snapshot only loads into the very Node.js binary and V8 flags it was made
 * with, so it is used only when the record matches this process, no Node.js or V8 option is given,
 * and the command is not the language server (which stays in one process). Otherwise, and with
 * PIPELINE_SQL_SNAPSHOT=off, the bundle runs in this process as before. Only Node's own modules here.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What esbuild.mjs records next to a snapshot it built. */
export interface SnapshotRecord {
    readonly node: string;
    readonly platform: string;
    readonly arch: string;
    readonly v8: string;
    /** The bundle the snapshot holds, as it was then: a rebuilt bundle makes the snapshot stale. */
    readonly bundleSize: number;
    readonly bundleMtimeMs: number;
    /** The snapshot file as written (a damaged or replaced file is not tried: Node.js aborts on one). */
    readonly blobSize: number;
    readonly blobMtimeMs: number;
}

/** Exit status of Node.js when a start-up snapshot cannot be deserialized. */
const snapshotLoadFailure = 14;

/** The snapshot to start from, or why there is none to use. */
function usableSnapshot(dir: string, args: readonly string[]): { blob: string } | { reason: string } {
    if (process.env.PIPELINE_SQL_SNAPSHOT === 'off') {
        return { reason: 'PIPELINE_SQL_SNAPSHOT=off' };
    }
    if (args[0] === 'lsp') {
        return { reason: 'the language server runs in this process' };
    }
    if (process.execArgv.length > 0 || (process.env.NODE_OPTIONS ?? '') !== '') {
        return { reason: 'Node.js options are given (a snapshot loads only with the options it was made with)' };
    }
    let record: SnapshotRecord;
    try {
        record = JSON.parse(fs.readFileSync(path.join(dir, 'cli-snapshot.json'), 'utf8')) as SnapshotRecord;
    } catch {
        return { reason: 'none was made (out/cli-snapshot.json is missing)' };
    }
    if (record.node !== process.version || record.platform !== process.platform || record.arch !== process.arch || record.v8 !== process.versions.v8) {
        return { reason: `it was made by Node.js ${record.node} (${record.platform}-${record.arch}), this is ${process.version} (${process.platform}-${process.arch})` };
    }
    const bundle = fs.statSync(path.join(dir, 'cli-main.cjs'), { throwIfNoEntry: false });
    if (!bundle || record.bundleSize !== bundle.size || record.bundleMtimeMs !== bundle.mtimeMs) {
        return { reason: 'the bundle was rebuilt after it' };
    }
    const blob = path.join(dir, 'cli-snapshot.blob');
    const written = fs.statSync(blob, { throwIfNoEntry: false });
    if (!written || record.blobSize !== written.size || record.blobMtimeMs !== written.mtimeMs) {
        return { reason: 'out/cli-snapshot.blob is missing or not the file that was made' };
    }
    return { blob };
}

/** With PIPELINE_SQL_TRACE=1, how the CLI started (on stderr). */
function trace(text: string): void {
    if (process.env.PIPELINE_SQL_TRACE === '1') {
        process.stderr.write(`[pipeline-sql] ${text}\n`);
    }
}

function runInProcess(dir: string): void {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(dir, 'cli-main.cjs'));
}

function launch(): void {
    const dir = __dirname;
    const args = process.argv.slice(2);
    const snapshot = usableSnapshot(dir, args);
    if ('reason' in snapshot) {
        trace(`started without the start-up snapshot: ${snapshot.reason}`);
        runInProcess(dir);
        return;
    }
    const { blob } = snapshot;
    trace(`started from the start-up snapshot ${blob}`);
    const child = spawn(process.execPath, ['--snapshot-blob', blob, path.join(dir, 'cli-main.cjs'), ...args], { stdio: 'inherit' });
    // A signal sent to this process alone (a CI's timeout, `kill`) goes on to the command.
    const forward = (signal: NodeJS.Signals): void => {
        child.kill(signal);
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) {
        process.on(signal, forward);
    }
    child.on('error', error => {
        for (const signal of signals) {
            process.off(signal, forward);
        }
        trace(`the start-up snapshot's process did not start (${error.message}): started without it`);
        runInProcess(dir);
    });
    child.on('exit', (code, signal) => {
        for (const s of signals) {
            process.off(s, forward);
        }
        if (code === snapshotLoadFailure) {
            trace('the start-up snapshot could not be loaded: started without it');
            runInProcess(dir);
        } else if (signal) {
            process.kill(process.pid, signal);
        } else {
            process.exitCode = code ?? 1;
        }
    });
}

launch();
