// State databases kept open between uses, for a long-lived process (the language server): the next
// update, preview or query of the same state skips creating the DuckDB instance, attaching the file,
// replaying its write-ahead log and setting up the session, and finds the state's blocks in DuckDB's
// buffer pool.
//
// DuckDB locks the state file while it is open, so a kept database would lock out a CLI run (or
// another editor window's server) on the same state. The release protocol: a process that finds the
// file locked writes `<state file>.release` and retries for a while; a keeper closes an idle database
// as soon as that file appears (and one in use as soon as its use ends), and never keeps one longer
// than its idle time. A kept database is reopened when the state file was replaced or deleted, when
// its configuration (memory limit, ...) differs, or when it no longer answers.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorClass, StateError } from '../errors.js';
import { ident, join, sql } from '../sql/sql.js';
import type { Database } from './database.js';
import { ownValue } from '../records.js';

/** The file a process writes to ask the holder of a state file to close it. */
export function releaseRequestFile(stateFile: string): string {
    return `${stateFile}.release`;
}

/** A duration in milliseconds from the environment, or the default. */
function envMs(name: string, fallback: number): number {
    const value = ownValue(process.env, name);
    const setting = value === undefined || value === '' ? NaN : Number(value);
    return Number.isFinite(setting) && setting >= 0 ? setting : fallback;
}

/** How long a process waits for a holder to release a locked state file (`PIPELINE_SQL_LOCK_WAIT_MS`). */
function lockWaitMs(): number {
    return envMs('PIPELINE_SQL_LOCK_WAIT_MS', 10_000);
}

/**
 * Opens a state database; when another process holds the file, asks it to release the file (see the
 * module comment) and tries again until it does or the wait is over (then the locked-state error).
 */
export async function openAskingRelease(stateFile: string, open: () => Promise<Database>): Promise<Database> {
    // DuckDB's file lock is per process: a second instance on a file this process keeps open would
    // take it and both would write it. A database kept by any keeper of this process is closed first.
    for (const keeper of keepers) {
        await keeper.evict(stateFile);
    }
    try {
        return await open();
    } catch (error) {
        if (!(error instanceof StateError) || error.code !== ErrorClass.stateLocked) {
            throw error;
        }
        const request = releaseRequestFile(stateFile);
        const deadline = Date.now() + lockWaitMs();
        let last: unknown = error;
        try {
            fs.writeFileSync(request, `${process.pid}\n`);
        } catch {
            throw error;
        }
        try {
            while (Date.now() < deadline) {
                await new Promise(resolve => setTimeout(resolve, 50));
                try {
                    return await open();
                } catch (retry) {
                    if (!(retry instanceof StateError) || retry.code !== ErrorClass.stateLocked) {
                        throw retry;
                    }
                    last = retry;
                }
            }
            throw last;
        } finally {
            fs.rmSync(request, { force: true });
        }
    }
}

/** What identifies a file on disk (a replaced or deleted and recreated file is another). */
function fileIdentity(file: string): string | undefined {
    try {
        const stats = fs.statSync(file);
        return `${stats.dev}:${stats.ino}`;
    } catch {
        return undefined;
    }
}

/** True when a release of `stateFile` was asked for after `since` (ms since the epoch). */
function releaseRequested(stateFile: string, since: number): boolean {
    try {
        return fs.statSync(releaseRequestFile(stateFile)).mtimeMs >= since - 1000;
    } catch {
        return false;
    }
}

/** The keepers of this process that may hold databases. */
const keepers = new Set<DatabaseKeeper>();

/** An open database and what it was opened as. */
interface Opened {
    readonly db: Database;
    readonly file: string;
    readonly key: string;
    readonly identity: string | undefined;
    readonly since: number;
}

/** A database parked between uses. */
interface Parked extends Opened {
    /** Dropping what the last use left in the session (temporary tables); false when that failed. */
    readonly cleaned: Promise<boolean>;
    timer?: NodeJS.Timeout;
    watcher?: fs.FSWatcher;
}

/**
 * Keeps state databases open between uses (one per state file). Users take a database, use it under
 * the state's in-process queue (state-store.ts), and give it back.
 */
export class DatabaseKeeper {
    private readonly parked = new Map<string, Parked>();
    private readonly inUse = new Map<Database, Opened>();
    private closed = false;

    /**
     * @param idleMs how long an unused database stays open: `PIPELINE_SQL_STATE_IDLE_MS`, else two
     *   minutes; 0 keeps nothing open.
     */
    constructor(readonly idleMs = envMs('PIPELINE_SQL_STATE_IDLE_MS', 120_000)) {
        keepers.add(this);
    }

    /**
     * The database of `stateFile` opened as `key` (the configuration it needs: a kept database with
     * another key is reopened): the kept one if it is still good, else a new one from `open`.
     */
    async take(stateFile: string, key: string, open: () => Promise<Database>): Promise<Database> {
        const parked = this.parked.get(stateFile);
        if (parked) {
            this.unpark(stateFile, parked);
            const good = (await parked.cleaned) && parked.key === key && !this.closed
                && parked.identity !== undefined && parked.identity === fileIdentity(stateFile)
                && !releaseRequested(stateFile, parked.since) && await answers(parked.db);
            if (good) {
                this.inUse.set(parked.db, parked);
                return parked.db;
            }
            closeQuietly(parked.db);
        }
        const since = Date.now();
        const db = await openAskingRelease(stateFile, open);
        this.inUse.set(db, { db, file: stateFile, key, identity: fileIdentity(stateFile), since });
        return db;
    }

    /** Gives a database back after its use: kept for the next use, or closed (released, shut down). */
    give(db: Database): void {
        const opened = this.inUse.get(db);
        this.inUse.delete(db);
        if (!opened) {
            closeQuietly(db);
            return;
        }
        const file = opened.file;
        if (this.closed || this.idleMs <= 0 || releaseRequested(file, opened.since)) {
            closeQuietly(db);
            return;
        }
        const parked: Parked = { ...opened, cleaned: dropTemporaries(db) };
        this.parked.set(file, parked);
        parked.timer = setTimeout(() => this.closeParked(file, parked), this.idleMs);
        parked.timer.unref();
        try {
            parked.watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, name) => {
                if (name === path.basename(releaseRequestFile(file)) && releaseRequested(file, parked.since)) {
                    this.closeParked(file, parked);
                }
            });
            parked.watcher.on('error', () => this.closeParked(file, parked));
        } catch {
            // No watcher (an unusual file system): the idle time still bounds how long the file is held.
        }
    }

    /** Closes every kept database; later uses open and close their own. */
    closeAll(): void {
        this.closed = true;
        keepers.delete(this);
        for (const [file, parked] of [...this.parked]) {
            this.closeParked(file, parked);
        }
    }

    /** Closes the database kept for `stateFile`, if any, and waits until it is closed. */
    async evict(stateFile: string): Promise<void> {
        const parked = this.parked.get(stateFile);
        if (parked) {
            this.unpark(stateFile, parked);
            await parked.cleaned;
            closeQuietly(parked.db);
        }
    }

    /** Number of databases kept open while unused (for tests). */
    get parkedCount(): number {
        return this.parked.size;
    }

    private unpark(file: string, parked: Parked): void {
        if (this.parked.get(file) === parked) {
            this.parked.delete(file);
        }
        clearTimeout(parked.timer);
        parked.watcher?.close();
    }

    private closeParked(file: string, parked: Parked): void {
        if (this.parked.get(file) !== parked) {
            return;
        }
        this.unpark(file, parked);
        void parked.cleaned.finally(() => closeQuietly(parked.db));
    }
}

async function answers(db: Database): Promise<boolean> {
    try {
        await db.run(sql`SELECT 1`);
        return true;
    } catch {
        return false;
    }
}

/** Drops the temporary tables and views a use left in the session (the macros of the session stay). */
async function dropTemporaries(db: Database): Promise<boolean> {
    try {
        const result = await db.query(sql`SELECT table_name, table_type FROM information_schema.tables WHERE table_catalog = 'temp'`);
        if (result.rows.length > 0) {
            await db.run(join(result.rows.map(([name, type]) => (type === 'VIEW'
                ? sql`DROP VIEW IF EXISTS temp.main.${ident(String(name))}`
                : sql`DROP TABLE IF EXISTS temp.main.${ident(String(name))}`)), sql`;
`));
        }
        return true;
    } catch {
        return false;
    }
}

function closeQuietly(db: Database): void {
    try {
        db.close();
    } catch {
        // Closing a database that failed is best effort.
    }
}
