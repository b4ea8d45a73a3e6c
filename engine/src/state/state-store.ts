// All pipeline state in ONE DuckDB database file (`<stateDir>/state.duckdb`): dataset tables
// (schema `ds`), AUTO CDC state and event logs (`cdc`), snapshot state (`snap`), REPLACE USING
// state (`rep`), and the bookkeeping tables of schema `meta` — streaming checkpoints (files and
// dataset rows already read per flow), ONCE markers, flow signatures, the last update's metrics.
// Because everything is in one database, one transaction makes an update atomic: a failure or a
// killed process leaves the last committed state, which the next run starts from (a commit the kill
// cut off in the write-ahead log is dropped whole when the state is next opened: Database.open).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database } from '../db/database.js';
import { openAskingRelease, type DatabaseKeeper } from '../db/kept-databases.js';
import { resolveResources, type ResourceOptions } from '../db/resources.js';
import { ErrorClass, StateError } from '../errors.js';
import { ident, join, qualified, sql, type Sql, str } from '../sql/sql.js';
import { storageLosesType } from '../sql/duckdb-types.js';
import { parseType, typeToSql } from '../spark/spark-types.js';
import type { DataType } from '../ir.js';

/** Version of the state layout; a different value in an existing file is refused. */
export const STATE_FORMAT_VERSION = '1';

/** What a streaming checkpoint remembers of a file it read: size, modification time, content hash (SHA-256, hex). */
export interface FileRead {
    size: number;
    mtimeMs: number;
    /** Absent in checkpoints written before hashes were recorded. */
    sha256?: string;
}

/** The file name of the state database inside the state folder. */
export const STATE_FILE = 'state.duckdb';

/**
 * Which pipeline a state belongs to. The state records it; a state recorded for another pipeline is
 * refused, because reconciling it with this pipeline would drop that pipeline's datasets and history.
 */
export interface PipelineIdentity {
    /**
     * A stable identity, compared as is: e.g. the pipeline's root-relative path and name, or for a
     * bundle the bundle and the pipeline's key.
     */
    id: string;
    /** The pipeline's name, for messages. */
    name?: string;
}

/** How a state is opened. */
export interface StateOpenOptions extends ResourceOptions {
    /** The pipeline opening the state; absent: the state's owner is not checked. */
    pipeline?: PipelineIdentity;
    /**
     * True for an update: a state that records no pipeline yet (a new state, or one written before
     * states recorded their pipeline) is recorded as this pipeline's. Reads never record anything.
     */
    claim?: boolean;
    /** The folders DuckDB may read besides the state folder (its sandbox, see `Database.open`). */
    readRoots?: readonly string[];
    /**
     * Keeps the database open after this use, for the next (a long-lived process: the language server).
     * Without it the database is opened and closed here.
     */
    keeper?: DatabaseKeeper;
}

/** What the state remembers about a materialized dataset. */
export interface DatasetState {
    kind: string;
    /** True when every write so far was an append (streaming reads of it are allowed). */
    appendOnly: boolean;
    /** Next value of the hidden row id of append-only tables. */
    nextRowId: bigint;
}

/** One version of a dataset (docs/semantics.md §15.3): `DESCRIBE HISTORY` lists them. */
export interface DatasetVersion {
    version: number;
    /** Commit time, `yyyy-MM-dd HH:mm:ss[.ffffff]` (UTC). */
    timestamp: string;
    /** `CREATE`, `PIPELINE UPDATE`, `PIPELINE FULL REFRESH`, or the DML statement (`INSERT`, `UPDATE`, `DELETE`, `MERGE`). */
    operation: string;
    /** Rows of each change kind in the version's feed: `numInsertedRows`, `numUpdatedRows`, `numDeletedRows`. */
    metrics: Record<string, number>;
}

/** The key under which a flow's position in a dataset's change data feed is kept (meta.dataset_reads). */
export function feedReadKey(dataset: string): string {
    return `cdf:${dataset}`;
}

/** What the state remembers about a flow. */
export interface FlowState {
    target: string;
    kind: string;
    /** A digest of the flow definition parts that make its state incompatible when changed. */
    signature: string;
    onceDone: boolean;
    /** Next arrival number for change events (AUTO CDC tie-breaking by arrival order). */
    nextArrival: bigint;
}

/**
 * Operations on one state file within this process, queued. DuckDB's file lock keeps other
 * processes out, but two databases opened on the same file inside one process would both write it
 * (and corrupt its write-ahead log), so runs, previews and queries on one state take turns.
 */
const queues = new Map<string, Promise<void>>();

async function acquire(file: string): Promise<() => void> {
    const previous = queues.get(file) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>(resolve => {
        release = resolve;
    });
    const tail = previous.then(() => current);
    queues.set(file, tail);
    await previous;
    return () => {
        release();
        if (queues.get(file) === tail) {
            queues.delete(file);
        }
    };
}

/** What was set up and checked on a database the keeper keeps open ('' for the layout; owner checks). */
const checked = new WeakMap<Database, Set<string>>();

/** Access to the state database. */
export class StateStore {
    private inTransaction = false;
    /** `schema.table` of every table, loaded on demand and dropped on any catalog change. */
    private tables?: Map<string, 'table' | 'view'>;
    /** Rows of meta.datasets / meta.flows read so far (null: absent); only this class writes them. */
    private readonly datasetRows = new Map<string, DatasetState | null>();
    private readonly flowRows = new Map<string, FlowState | null>();

    private constructor(readonly db: Database, readonly file: string, private readonly release: () => void, private readonly keeper?: DatabaseKeeper) {
        db.onCatalogChange = () => {
            this.tables = undefined;
        };
    }

    /**
     * Opens (creating if needed) the state in `stateDir`, checks its format and the pipeline it
     * belongs to; waits for other users in this process. DuckDB may then touch only `stateDir` and
     * `options.readRoots` (see `Database.open`).
     */
    static async open(stateDir: string, options: StateOpenOptions = {}): Promise<StateStore> {
        fs.mkdirSync(stateDir, { recursive: true });
        const file = path.resolve(stateDir, STATE_FILE);
        const resources = resolveResources(path.resolve(stateDir), options);
        const release = await acquire(file);
        let db: Database;
        try {
            // A kept database is reused only when opened as this use needs it (limits and sandbox are fixed at open).
            const allowedDirectories = [stateDir, ...(options.readRoots ?? [])];
            const open = () => Database.open(file, resources, { allowedDirectories });
            db = options.keeper
                ? await options.keeper.take(file, JSON.stringify([resources.memoryLimit, resources.spillLimit, allowedDirectories]), open)
                : await openAskingRelease(file, open);
        } catch (error) {
            release();
            throw error;
        }
        const store = new StateStore(db, file, release, options.keeper);
        try {
            // A database kept open since an earlier use was set up and checked then (nobody else can
            // write the file while it is open): only what that use did not check yet is checked now.
            const checks = checked.get(db) ?? new Set<string>();
            if (!checks.has('')) {
                await store.init();
                checks.add('');
            }
            const owner = options.pipeline ? `${options.claim ? 'claim' : 'read'}:${options.pipeline.id}:${options.pipeline.name ?? ''}` : '';
            if (options.pipeline && !checks.has(owner)) {
                await store.checkOwner(options.pipeline, options.claim ?? false);
                checks.add(owner);
            }
            if (options.keeper) {
                checked.set(db, checks);
            }
        } catch (error) {
            store.close();
            throw error;
        }
        return store;
    }

    /** Refuses another pipeline's state; records the owner of a state that has none (when claiming). */
    private async checkOwner(pipeline: PipelineIdentity, claim: boolean): Promise<void> {
        const result = await this.db.query(sql`SELECT key, value FROM meta.info WHERE key IN ('pipeline', 'pipeline_name')`);
        const info = new Map(result.rows.map(r => [String(r[0]), r[1] === null ? undefined : String(r[1])]));
        const owner = info.get('pipeline');
        if (owner === undefined) {
            if (claim) {
                await this.db.run(join([
                    sql`BEGIN TRANSACTION`,
                    sql`DELETE FROM meta.info WHERE key IN ('pipeline', 'pipeline_name')`,
                    sql`INSERT INTO meta.info VALUES ('pipeline', ${str(pipeline.id)}), ('pipeline_name', ${pipeline.name === undefined ? sql`NULL` : str(pipeline.name)})`,
                    sql`COMMIT`,
                ], sql`;\n`));
            }
            return;
        }
        if (owner !== pipeline.id) {
            const folder = path.dirname(this.file);
            const describe = (id: string, name: string | undefined) => (name && name !== id ? `'${name}' (${id})` : `'${id}'`);
            throw new StateError(ErrorClass.stateOfAnotherPipeline,
                `The pipeline state '${folder}' belongs to the pipeline ${describe(owner, info.get('pipeline_name'))}, not to ${describe(pipeline.id, pipeline.name)}; `
                + 'using it would drop that pipeline\'s datasets and AUTO CDC history. Nothing was changed. '
                + `Run this pipeline with its own state folder (pipeline-sql run --state DIR), or delete '${folder}' if the other pipeline's state is no longer needed.`);
        }
        if (claim && pipeline.name !== undefined && info.get('pipeline_name') !== pipeline.name) {
            await this.db.run(sql`UPDATE meta.info SET value = ${str(pipeline.name)} WHERE key = 'pipeline_name'`);
        }
    }

    private async init(): Promise<void> {
        // One transaction: a new state file is set up with one commit (one sync of the log).
        await this.db.run(join([
            sql`BEGIN TRANSACTION`,
            ...['meta', 'ds', 'cdc', 'snap', 'rep', 'cdf'].map(schema => sql`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`),
            sql`CREATE TABLE IF NOT EXISTS meta.info (key VARCHAR, value VARCHAR)`,
            sql`CREATE TABLE IF NOT EXISTS meta.datasets (name VARCHAR, kind VARCHAR, append_only BOOLEAN, next_rowid BIGINT)`,
            sql`CREATE TABLE IF NOT EXISTS meta.flows (name VARCHAR, target VARCHAR, kind VARCHAR, signature VARCHAR, once_done BOOLEAN, next_arrival BIGINT)`,
            sql`CREATE TABLE IF NOT EXISTS meta.files_read (flow VARCHAR, source VARCHAR, path VARCHAR, size BIGINT, mtime_ms DOUBLE)`,
            // The content hash of each file read (added after the first format: older states get the column, empty).
            sql`ALTER TABLE meta.files_read ADD COLUMN IF NOT EXISTS sha256 VARCHAR`,
            sql`CREATE TABLE IF NOT EXISTS meta.dataset_reads (flow VARCHAR, dataset VARCHAR, position BIGINT)`,
            // The Spark type of each dataset column whose DuckDB type cannot tell it (an interval's
            // fields, NULL's void; duckdb-types.ts storedType); added after the first format: older states get it empty.
            sql`CREATE TABLE IF NOT EXISTS meta.column_types (dataset VARCHAR, name VARCHAR, type VARCHAR)`,
            sql`CREATE TABLE IF NOT EXISTS meta.updates (id BIGINT, started VARCHAR, finished VARCHAR, full_refresh BOOLEAN, metrics VARCHAR)`,
            // The versions of each dataset (docs/semantics.md §15.3): creation is 0, then one per committed change; the rows of each are in cdf.<dataset>.
            sql`CREATE TABLE IF NOT EXISTS meta.versions (dataset VARCHAR, version BIGINT, committed TIMESTAMP, operation VARCHAR, metrics VARCHAR)`,
            sql`INSERT INTO meta.info SELECT 'format', ${str(STATE_FORMAT_VERSION)} WHERE NOT EXISTS (SELECT 1 FROM meta.info WHERE key = 'format')`,
            sql`COMMIT`,
        ], sql`;\n`));
        const version = await this.db.scalar(sql`SELECT value FROM meta.info WHERE key = 'format'`);
        if (version !== STATE_FORMAT_VERSION) {
            throw new StateError(ErrorClass.stateUnreadable,
                `The pipeline state '${this.file}' has format ${String(version)}, this engine writes format ${STATE_FORMAT_VERSION}. Delete the state folder (a full refresh) to continue.`);
        }
    }

    /** Starts the update's transaction. */
    async begin(): Promise<void> {
        await this.db.run(sql`BEGIN TRANSACTION`);
        this.inTransaction = true;
    }

    /** Commits the current transaction. */
    async commit(): Promise<void> {
        await this.db.run(sql`COMMIT`);
        this.inTransaction = false;
    }

    /** Rolls the current transaction back (no-op outside a transaction). */
    async rollback(): Promise<void> {
        this.datasetRows.clear();
        this.flowRows.clear();
        if (this.inTransaction) {
            this.inTransaction = false;
            await this.db.run(sql`ROLLBACK`);
        }
    }

    /** Closes the database (or gives it back to its keeper) and lets the next user of this state in. */
    close(): void {
        try {
            if (this.keeper) {
                this.keeper.give(this.db);
            } else {
                this.db.close();
            }
        } finally {
            this.release();
        }
    }

    // ------------------------------------------------------------ names

    /** The table holding a dataset's rows. */
    datasetTable(key: string): Sql {
        return qualified('ds', key);
    }

    /** A state table in schema `schema` for an owner (target or flow) and a role. */
    stateTable(schema: 'cdc' | 'snap' | 'rep', owner: string, role: string): Sql {
        return qualified(schema, `${owner}__${role}`);
    }

    /** True when a table exists (schema, unquoted name). */
    async tableExists(schema: string, name: string): Promise<boolean> {
        return (await this.catalog()).has(`${schema}.${name}`);
    }

    /** True when `schema.name` is a view (SCD1 targets are views over their state). */
    async isView(schema: string, name: string): Promise<boolean> {
        return (await this.catalog()).get(`${schema}.${name}`) === 'view';
    }

    private async catalog(): Promise<Map<string, 'table' | 'view'>> {
        if (!this.tables) {
            const result = await this.db.query(sql`SELECT schema_name, table_name, 'table' FROM duckdb_tables() WHERE NOT temporary
                UNION ALL SELECT schema_name, view_name, 'view' FROM duckdb_views() WHERE NOT temporary AND NOT internal`);
            this.tables = new Map(result.rows.map(r => [`${String(r[0])}.${String(r[1])}`, String(r[2]) as 'table' | 'view']));
        }
        return this.tables;
    }

    /** Drops every state table of an owner in a schema. */
    async dropStateTables(schema: 'cdc' | 'snap' | 'rep', owner: string): Promise<void> {
        const result = await this.db.query(sql`SELECT table_name FROM duckdb_tables() WHERE schema_name = ${str(schema)} AND starts_with(table_name, ${str(`${owner}__`)})`);
        for (const row of result.rows) {
            await this.db.run(sql`DROP TABLE IF EXISTS ${qualified(schema, String(row[0]))}`);
        }
    }

    // ------------------------------------------------------------ datasets

    /** The remembered state of a dataset, if it was ever materialized. */
    async dataset(key: string): Promise<DatasetState | undefined> {
        const known = this.datasetRows.get(key);
        if (known !== undefined) {
            return known === null ? undefined : { ...known };
        }
        const result = await this.db.query(sql`SELECT kind, append_only, next_rowid FROM meta.datasets WHERE name = ${str(key)}`);
        const row = result.rows[0];
        const state = row ? { kind: String(row[0]), appendOnly: row[1] === true, nextRowId: BigInt(row[2] as bigint) } : null;
        this.datasetRows.set(key, state);
        return state === null ? undefined : { ...state };
    }

    /** Records the state of a dataset. */
    async setDataset(key: string, state: DatasetState): Promise<void> {
        this.datasetRows.delete(key);
        await this.db.run(sql`DELETE FROM meta.datasets WHERE name = ${str(key)}`);
        await this.db.run(sql`INSERT INTO meta.datasets VALUES (${str(key)}, ${str(state.kind)}, ${state.appendOnly}, ${state.nextRowId})`);
        this.datasetRows.set(key, { ...state });
    }

    /**
     * The Spark types recorded for a dataset's columns whose DuckDB type cannot tell them (see
     * `recordColumnTypes`), by lower-case column name.
     */
    async columnTypes(key: string): Promise<Map<string, DataType>> {
        const result = await this.db.query(sql`SELECT name, type FROM meta.column_types WHERE dataset = ${str(key)}`);
        const types = new Map<string, DataType>();
        for (const [name, text] of result.rows) {
            const parsed = parseType(String(text));
            if (parsed.ok) {
                types.set(String(name).toLowerCase(), parsed.value);
            }
        }
        return types;
    }

    /**
     * Records the Spark types of these columns of a dataset where DuckDB's column type cannot tell
     * them (`INTERVAL DAY`, `VOID`), replacing what was recorded for them; `replace` forgets every
     * other column's record first (a table created afresh).
     */
    async recordColumnTypes(key: string, columns: readonly { name: string; type: DataType }[], replace = false): Promise<void> {
        if (replace) {
            await this.db.run(sql`DELETE FROM meta.column_types WHERE dataset = ${str(key)}`);
        }
        for (const column of columns) {
            if (!replace) {
                await this.db.run(sql`DELETE FROM meta.column_types WHERE dataset = ${str(key)} AND lower(name) = ${str(column.name.toLowerCase())}`);
            }
            if (storageLosesType(column.type)) {
                await this.db.run(sql`INSERT INTO meta.column_types VALUES (${str(key)}, ${str(column.name)}, ${str(typeToSql(column.type))})`);
            }
        }
    }

    /** Every dataset the state knows. */
    async datasetNames(): Promise<string[]> {
        const result = await this.db.query(sql`SELECT name FROM meta.datasets`);
        return result.rows.map(r => String(r[0]));
    }

    /** Drops a dataset's table and forgets it. */
    async dropDataset(key: string): Promise<void> {
        this.datasetRows.delete(key);
        const isView = await this.isView('ds', key);
        await this.db.run(sql`DROP ${isView ? sql`VIEW` : sql`TABLE`} IF EXISTS ${this.datasetTable(key)}`);
        await this.db.run(sql`DELETE FROM meta.datasets WHERE name = ${str(key)}`);
        await this.db.run(sql`DELETE FROM meta.dataset_reads WHERE dataset = ${str(key)} OR dataset = ${str(feedReadKey(key))}`);
        await this.db.run(sql`DELETE FROM meta.column_types WHERE dataset = ${str(key)}`);
        for (const schema of ['cdc', 'snap', 'rep'] as const) {
            await this.dropStateTables(schema, key);
        }
        // A dataset created again starts its history again at version 0.
        await this.db.run(sql`DELETE FROM meta.versions WHERE dataset = ${str(key)}`);
        await this.db.run(sql`DROP TABLE IF EXISTS ${this.feedTable(key)}`);
    }

    // ------------------------------------------------------------ versions and the change data feed

    /** The table holding a dataset's change data feed (its columns, `_change_type`, `_commit_version`, `_commit_timestamp`). */
    feedTable(key: string): Sql {
        return qualified('cdf', key);
    }

    /** The versions of a dataset, oldest first. */
    async versions(key: string): Promise<DatasetVersion[]> {
        const result = await this.db.query(sql`SELECT version, strftime(committed, '%Y-%m-%d %H:%M:%S.%f'), operation, metrics FROM meta.versions WHERE dataset = ${str(key)} ORDER BY version`);
        return result.rows.map(r => ({
            version: Number(r[0]),
            timestamp: String(r[1]).replace(/\.?0+$/, ''),
            operation: String(r[2]),
            metrics: JSON.parse(String(r[3])) as Record<string, number>,
        }));
    }

    /** Records a new version of a dataset. */
    async addVersion(key: string, version: DatasetVersion): Promise<void> {
        await this.db.run(sql`INSERT INTO meta.versions VALUES (${str(key)}, ${version.version}, CAST(${str(version.timestamp)} AS TIMESTAMP), ${str(version.operation)}, ${str(JSON.stringify(version.metrics))})`);
    }

    // ------------------------------------------------------------ flows

    /** The remembered state of a flow. */
    async flow(name: string): Promise<FlowState | undefined> {
        const known = this.flowRows.get(name);
        if (known !== undefined) {
            return known === null ? undefined : { ...known };
        }
        const result = await this.db.query(sql`SELECT target, kind, signature, once_done, next_arrival FROM meta.flows WHERE name = ${str(name)}`);
        const row = result.rows[0];
        const state = row ? { target: String(row[0]), kind: String(row[1]), signature: String(row[2]), onceDone: row[3] === true, nextArrival: BigInt(row[4] as bigint) } : null;
        this.flowRows.set(name, state);
        return state === null ? undefined : { ...state };
    }

    /** Records the state of a flow. */
    async setFlow(name: string, state: FlowState): Promise<void> {
        this.flowRows.delete(name);
        await this.db.run(sql`DELETE FROM meta.flows WHERE name = ${str(name)}`);
        await this.db.run(sql`INSERT INTO meta.flows VALUES (${str(name)}, ${str(state.target)}, ${str(state.kind)}, ${str(state.signature)}, ${state.onceDone}, ${state.nextArrival})`);
        this.flowRows.set(name, { ...state });
    }

    /** Every flow the state knows. */
    async flowNames(): Promise<string[]> {
        const result = await this.db.query(sql`SELECT name FROM meta.flows`);
        return result.rows.map(r => String(r[0]));
    }

    /** Forgets everything about a flow: checkpoints, ONCE marker, its own state tables. */
    async clearFlow(name: string): Promise<void> {
        this.flowRows.delete(name);
        await this.db.run(sql`DELETE FROM meta.flows WHERE name = ${str(name)}`);
        await this.db.run(sql`DELETE FROM meta.files_read WHERE flow = ${str(name)}`);
        await this.db.run(sql`DELETE FROM meta.dataset_reads WHERE flow = ${str(name)}`);
        await this.dropStateTables('snap', name);
        await this.dropStateTables('rep', name);
    }

    // ------------------------------------------------------------ streaming checkpoints

    /** Files of a source already read by a flow, with their size, modification time and content hash (SHA-256, hex). */
    async filesRead(flow: string, source: string): Promise<Map<string, FileRead>> {
        const result = await this.db.query(sql`SELECT path, size, mtime_ms, sha256 FROM meta.files_read WHERE flow = ${str(flow)} AND source = ${str(source)}`);
        return new Map(result.rows.map(r => [String(r[0]), { size: Number(r[1]), mtimeMs: Number(r[2]), sha256: r[3] === null ? undefined : String(r[3]) }]));
    }

    /** Marks files of a source as read by a flow (a file recorded before is recorded anew: a touched file's new time). */
    async addFilesRead(flow: string, source: string, files: ReadonlyArray<FileRead & { path: string }>): Promise<void> {
        if (files.length === 0) {
            return;
        }
        const where = sql`flow = ${str(flow)} AND source = ${str(source)}`;
        await this.db.run(sql`DELETE FROM meta.files_read WHERE ${where} AND path IN (${join(files.map(f => str(f.path)))})`);
        const values = files.map(f => sql`(${str(flow)}, ${str(source)}, ${str(f.path)}, ${f.size}, ${f.mtimeMs}, ${f.sha256 === undefined ? sql`NULL` : str(f.sha256)})`);
        await this.db.run(sql`INSERT INTO meta.files_read (flow, source, path, size, mtime_ms, sha256) VALUES ${join(values)}`);
    }

    /** The last row id of a dataset already read by a flow (0 = nothing read). */
    async readPosition(flow: string, dataset: string): Promise<bigint> {
        const value = await this.db.scalar(sql`SELECT position FROM meta.dataset_reads WHERE flow = ${str(flow)} AND dataset = ${str(dataset)}`);
        return value === undefined || value === null ? 0n : BigInt(value as bigint);
    }

    /** Records the last row id of a dataset read by a flow. */
    async setReadPosition(flow: string, dataset: string, position: bigint): Promise<void> {
        await this.db.run(sql`DELETE FROM meta.dataset_reads WHERE flow = ${str(flow)} AND dataset = ${str(dataset)}`);
        await this.db.run(sql`INSERT INTO meta.dataset_reads VALUES (${str(flow)}, ${str(dataset)}, ${position})`);
    }

    // ------------------------------------------------------------ updates

    /** Records a finished update and its metrics (the "last update" shown by previews). */
    async recordUpdate(started: string, finished: string, fullRefresh: boolean, metrics: unknown): Promise<void> {
        await this.db.run(sql`INSERT INTO meta.updates SELECT coalesce(max(id), 0) + 1, ${str(started)}, ${str(finished)}, ${fullRefresh},
            ${str(JSON.stringify(metrics))} FROM meta.updates`);
    }
}
