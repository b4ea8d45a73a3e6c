// The DuckDB connection the engine works through: opened with Spark-like session settings
// (UTC, Spark's null ordering, no extension downloads), Spark-semantics macros installed, and every
// DuckDB error turned into an EngineError whose class follows Spark where there is a match.
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { type DuckDBAppender, DuckDBDataChunk, DuckDBInstance, INTEGER, type DuckDBConnection, type DuckDBValue, type DuckDBType } from '@duckdb/node-api';
import { CancelledError, EngineError, ErrorClass, QueryExecutionError, StateError } from '../errors.js';
import { sparkMacros } from '../sql/macros.js';
import { ident, join, sql, type Sql, str } from '../sql/sql.js';
import { fromDuckType, type Column } from '../sql/duckdb-types.js';
import { DiskGuard, outOfMemoryError } from './disk-guard.js';
import type { Resources } from './resources.js';
import { walTail } from './wal-tail.js';

/** The name under which a database file is attached (see `Database.open`). */
const STATE_CATALOG = ident('__psql_state');

/**
 * `PIPELINE_SQL_TRACE=1` prints every statement with its wall time and the process's CPU time (all
 * DuckDB threads; steadier than wall time on a busy machine) on stderr, for profiling; each statement cut
 * to `PIPELINE_SQL_TRACE_WIDTH` characters (300).
 */
async function timed<T>(sql: string, work: () => Promise<T>): Promise<T> {
    if (process.env.PIPELINE_SQL_TRACE !== '1') {
        return work();
    }
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
        return await work();
    } finally {
        const used = process.cpuUsage(cpu);
        process.stderr.write(`[sql ${(performance.now() - started).toFixed(1)} ms, cpu ${((used.user + used.system) / 1000).toFixed(1)} ms] ${sql.replace(/\s+/g, ' ').slice(0, Number(process.env.PIPELINE_SQL_TRACE_WIDTH ?? 300))}\n`);
    }
}

/** How a database is opened. */
export interface OpenOptions {
    /**
     * The only directories DuckDB may touch by path after opening (the state folder, the pipeline's
     * read roots): absolute; symlinks are resolved here. Absent or empty: no file access at all
     * beyond the attached database file itself.
     */
    allowedDirectories?: readonly string[];
    /**
     * Keep rows in the order a query gives them when writing (DuckDB's `preserve_insertion_order`): for
     * files written in a given row order (sample Parquet files). Off by default: parallel writes.
     */
    preserveInsertionOrder?: boolean;
}

/** Rows read from DuckDB with their column names and types. */
export interface QueryResult {
    columns: Column[];
    duckTypes: DuckDBType[];
    rows: DuckDBValue[][];
}

/** A DuckDB database (a state file or in-memory) with one connection. */
export class Database {
    /** Called after every statement that may change the catalog (DDL, ROLLBACK), for caches. */
    onCatalogChange?: () => void;

    private constructor(private readonly instance: DuckDBInstance, private readonly connection: DuckDBConnection, private readonly guard?: DiskGuard) {}

    /**
     * Opens (or creates) the database at `path` (`:memory:` for a scratch database). With `resources`,
     * DuckDB works within their memory limit and spills to their spill folder, and a statement that
     * needs more memory or spill space fails with UNABLE_TO_ACQUIRE_MEMORY. The database is locked
     * down: after the file is attached, DuckDB may reach the file system only inside
     * `options.allowedDirectories` (no other path, no `ATTACH` elsewhere, no extension install or
     * load), and no setting can change.
     */
    static async open(path: string, resources?: Resources, options: OpenOptions = {}): Promise<Database> {
        // Spill files stay inside the state folder (the sandbox); a scratch database never spills.
        const settings: Record<string, string> = {
            autoinstall_known_extensions: 'false',
            autoload_known_extensions: 'false',
            ...(resources ? {
                memory_limit: `${resources.memoryLimit}B`,
                temp_directory: resources.spillDir,
                max_temp_directory_size: `${resources.spillLimit}B`,
            } : { temp_directory: path === ':memory:' ? '' : `${path}.tmp` }),
        };
        let instance: DuckDBInstance | undefined;
        let connection: DuckDBConnection | undefined;
        try {
            const tail = path === ':memory:' ? 'none' : walTail(`${path}.wal`);
            if (tail === 'torn' || tail === 'unknown') {
                await timed(`[drop the cut-off commit of ${path}]`, () => dropCutOffCommit(path, settings));
            }
            instance = await DuckDBInstance.create(':memory:', settings);
            const opened = await instance.connect();
            connection = opened;
            if (path !== ':memory:') {
                await timed(`[open ${path}]`, () => opened.run(attach(path)));
            }
        } catch (error) {
            connection?.closeSync();
            instance?.closeSync();
            if (error instanceof EngineError) {
                throw error;
            }
            const message = error instanceof Error ? error.message : String(error);
            // DuckDB's own words for a file another process holds ("IO Error: Could not set lock on
            // file ...: Conflicting lock is held in ..."); anything else, a damaged file included
            // ("... checksum ... in block at location ..."), is not a lock.
            if (/Could not set lock on file/.test(message)) {
                throw new StateError(ErrorClass.stateLocked,
                    `The pipeline state '${path}' is in use by another run (${firstLine(message)}). Wait for it to finish and try again.`);
            }
            throw unreadableState(path, firstLine(message), error);
        }
        const db = new Database(instance, connection, resources && path !== ':memory:' ? new DiskGuard(path, resources, () => connection.interrupt()) : undefined);
        try {
            // One round trip for the session setup: Spark-like settings, then the macros.
            await db.run(join([
                sql`SET TimeZone = 'UTC'`,
                sql`SET default_null_order = 'nulls_first_on_asc_last_on_desc'`,
                // Spark orders and groups strings by code point, as DuckDB's binary collation does.
                sql`SET default_collation = ''`,
                // Parallel inserts and aggregations; the engine never relies on physical row order
                // (arrival order comes from row_number() OVER (), which DuckDB keeps in scan order,
                // or from Parquet's file_row_number; previews order explicitly).
                options.preserveInsertionOrder === true ? sql`SET preserve_insertion_order = true` : sql`SET preserve_insertion_order = false`,
                // The write-ahead log is replayed on the next open (a commit cut off in it dropped
                // first, see dropCutOffCommit); checkpoints happen as DuckDB decides (WAL size), not on
                // every close, which keeps small updates cheap.
                sql`PRAGMA disable_checkpoint_on_shutdown`,
                // The sandbox (defence in depth behind the SQL builder, docs/security.md): these must be
                // set by SQL on the running instance, in this order, and locked last.
                sql`SET allowed_directories = [${join(sandboxDirectories(options.allowedDirectories ?? []).map(str))}]`,
                sql`SET enable_external_access = false`,
                sql`SET lock_configuration = true`,
                ...sparkMacros,
            ], sql`;\n`));
        } catch (error) {
            db.close();
            throw error;
        }
        return db;
    }

    /** Runs a statement. */
    async run(statement: Sql): Promise<void> {
        try {
            await this.guarded(() => timed(statement, () => this.connection.run(statement)));
        } catch (error) {
            throw this.failure(error, statement);
        } finally {
            if (this.onCatalogChange && changesCatalog(statement)) {
                this.onCatalogChange();
            }
        }
    }

    /** Runs a query and reads all rows. */
    async query(statement: Sql): Promise<QueryResult> {
        try {
            const reader = await this.guarded(() => timed(statement, () => this.connection.runAndReadAll(statement)));
            const duckTypes = reader.columnTypes();
            const names = reader.columnNames();
            return {
                columns: names.map((name, i) => ({ name, type: fromDuckType(duckTypes[i]) })),
                duckTypes,
                rows: reader.getRows(),
            };
        } catch (error) {
            throw this.failure(error, statement);
        }
    }

    /** The first column of the first row, or undefined when there is no row. */
    async scalar(statement: Sql): Promise<DuckDBValue | undefined> {
        const result = await this.query(statement);
        return result.rows[0]?.[0];
    }

    /**
     * Runs a query and hands each chunk of its result to `onChunk` as columns of JS values (numbers
     * for INTEGER, bigints for BIGINT, booleans, null), in result order: for moving a few narrow
     * columns of many rows into JavaScript without building a row object per row.
     */
    async scanColumns(statement: Sql, onChunk: (columns: DuckDBValue[][], rowCount: number) => void): Promise<void> {
        try {
            await this.guarded(() => timed(statement, async () => {
                const result = await this.connection.stream(statement);
                for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
                    onChunk(Array.from({ length: chunk.columnCount }, (_, i) => chunk.getColumnValues(i)), chunk.rowCount);
                }
            }));
        } catch (error) {
            throw this.failure(error, statement);
        }
    }

    /**
     * Appends rows given as INTEGER columns (null for NULL) to a table with that many INTEGER columns
     * (`catalog` `temp` for a temporary table), a data chunk at a time.
     */
    async appendIntegers(table: string, columns: (number | null)[][], catalog?: string): Promise<void> {
        const rows = columns[0]?.length ?? 0;
        await timed(`[append ${rows} rows to ${table}]`, async () => {
            let appender: DuckDBAppender | undefined;
            try {
                appender = await this.connection.createAppender(table, null, catalog ?? null);
                const size = 2048;
                for (let start = 0; start < rows; start += size) {
                    const count = Math.min(size, rows - start);
                    const chunk = DuckDBDataChunk.create(columns.map(() => INTEGER), count);
                    columns.forEach((column, i) => chunk.setColumnValues(i, column.slice(start, start + count)));
                    appender.appendDataChunk(chunk);
                }
                appender.flushSync();
            } catch (error) {
                throw mapDuckDBError(error, `append to ${table}`);
            } finally {
                appender?.closeSync();
            }
        });
    }

    /** The output columns of a query, found by binding it (the query is not executed). */
    async describe(statement: Sql): Promise<Column[]> {
        try {
            const prepared = await timed(`PREPARE ${statement}`, () => this.connection.prepare(statement));
            const columns: Column[] = [];
            for (let i = 0; i < prepared.columnCount; i++) {
                columns.push({ name: prepared.columnName(i), type: fromDuckType(prepared.columnType(i)) });
            }
            prepared.destroySync();
            return columns;
        } catch (error) {
            throw mapDuckDBError(error, statement);
        }
    }

    /** Interrupts the running query (used for cancellation). */
    interrupt(): void {
        this.connection.interrupt();
    }

    /** Runs a statement under the disk guard (when the database has resources). */
    private guarded<T>(work: () => Promise<T>): Promise<T> {
        return this.guard ? this.guard.watch(work) : work();
    }

    /** The error a failed statement is reported as: out of memory when the guard stopped it. */
    private failure(error: unknown, statement: Sql): EngineError {
        if (this.guard?.exceeded) {
            return this.guard.error(error);
        }
        const mapped = mapDuckDBError(error, statement);
        if (mapped.code === ErrorClass.outOfMemory && this.guard) {
            return this.guard.error(error);
        }
        return mapped;
    }

    /** Closes the connection and the database (flushing the write-ahead log). */
    close(): void {
        this.guard?.stop();
        try {
            this.connection.closeSync();
        } finally {
            this.instance.closeSync();
        }
    }
}

/**
 * Attaches the database file `path` as the state catalog and makes it the default. The file is
 * attached to an in-memory instance rather than opened as its main database, because only ATTACH
 * takes a row group size. 16,384 rows (DuckDB's default is 122,880) makes appends of that many rows
 * go straight to data blocks at commit instead of into the write-ahead log, which the next open
 * would have to replay: after a large update the next one opens in milliseconds (the log holds
 * pointers to those blocks, which is why a commit cut off in it needs `dropCutOffCommit`). Opening
 * replays the log, so it belongs in a trace.
 */
function attach(path: string): Sql {
    return sql`ATTACH ${str(path)} AS ${STATE_CATALOG} (ROW_GROUP_SIZE 16384); USE ${STATE_CATALOG}`;
}

/**
 * Drops the commit a killed process was writing when it died, so that the file opens as the last
 * complete commit left it (see wal-tail.ts for why DuckDB's own replay cannot be trusted with it).
 * DuckDB does the dropping, under its lock on the file: its replay stops at the cut, and its first
 * write afterwards cuts the log back to the end of the last complete commit before appending. So this
 * attaches the file in an instance of its own, makes one logged change that changes nothing (a
 * schema created and dropped) and closes the instance without a checkpoint — the half-replayed
 * tables it held in memory are never written. A file another process holds fails here with
 * DuckDB's lock error, like any open.
 */
async function dropCutOffCommit(path: string, settings: Record<string, string>): Promise<void> {
    const instance = await DuckDBInstance.create(':memory:', {
        ...settings,
        // No checkpoint may write the half-replayed tables into the file: none on commit, none at close.
        debug_skip_checkpoint_on_commit: 'true',
        checkpoint_threshold: '1000000GB',
    });
    try {
        const connection = await instance.connect();
        try {
            const scratch = sql`${STATE_CATALOG}.${ident('__psql_log_repair')}`;
            await connection.run(sql`PRAGMA disable_checkpoint_on_shutdown; ${attach(path)}; CREATE SCHEMA ${scratch}; DROP SCHEMA ${scratch}`);
        } finally {
            connection.closeSync();
        }
    } finally {
        instance.closeSync();
    }
    if (walTail(`${path}.wal`) === 'torn') {
        throw unreadableState(path, `its write-ahead log '${path}.wal' ends inside a commit that could not be dropped`, undefined);
    }
}

/** The directories of the sandbox: real paths (DuckDB compares resolved paths), each with a final separator. */
function sandboxDirectories(directories: readonly string[]): string[] {
    const out = new Set<string>();
    for (const directory of directories) {
        let real = nodePath.resolve(directory);
        try {
            real = fs.realpathSync(real);
        } catch {
            // A folder that does not exist yet (a state folder about to be made): its resolved path.
        }
        out.add(real.endsWith(nodePath.sep) ? real : real + nodePath.sep);
    }
    return [...out];
}

/**
 * True when a statement may change the persistent catalog (DDL, ROLLBACK). Temporary tables and
 * macros (`CREATE TEMP ...`, `DROP TABLE IF EXISTS "__psql_..."`: the engine's temporary names) do
 * not, and updates create many of them.
 */
function changesCatalog(sql: string): boolean {
    return /^\s*(CREATE|DROP|ALTER|ROLLBACK)\b/i.test(sql)
        && !/^\s*CREATE\s+(OR\s+REPLACE\s+)?TEMP(ORARY)?\s/i.test(sql)
        && !/^\s*DROP\s+TABLE\s+IF\s+EXISTS\s+"__psql_[^".]*"\s*$/i.test(sql);
}

function firstLine(text: string): string {
    return text.split('\n')[0];
}

/**
 * A state file DuckDB cannot read (damaged, truncated, not a database): nothing in the engine can
 * repair it, and a full refresh needs a readable state too, so the way out is a new state folder.
 */
function unreadableState(file: string, cause: string, error: unknown): StateError {
    const folder = nodePath.dirname(file);
    return new StateError(ErrorClass.stateUnreadable,
        `The pipeline state '${file}' is damaged and cannot be read (${cause}). Nothing was changed. `
        + `Move or delete the state folder '${folder}' to start from scratch (the next update recomputes every dataset from its sources; `
        + 'history that only the state held, such as AUTO CDC events no longer in the sources, is lost).', {}, { cause: error });
}

/** Maps a DuckDB error to an EngineError, recovering Spark error classes where the cause is known. */
export function mapDuckDBError(error: unknown, sql?: string): EngineError {
    if (error instanceof EngineError) {
        return error;
    }
    const message = error instanceof Error ? error.message : String(error);
    const first = firstLine(message);
    const tagged = /\[([A-Z_]+(?:\.[A-Z_]+)?)\]\s*(.*)$/.exec(first);
    let code: string = ErrorClass.queryError;
    let text = first;
    if (tagged) {
        code = tagged[1];
        text = `[${tagged[1]}] ${tagged[2]}`;
    } else if (/^Conversion Error/.test(first) || /Could not convert/.test(first)) {
        code = ErrorClass.castInvalidInput;
    } else if (/Referenced column .* not found/.test(first)) {
        code = ErrorClass.unresolvedColumn;
    } else if (/NOT NULL constraint failed/.test(first)) {
        code = ErrorClass.notNullViolated;
    } else if (/^Permission Error/.test(first)) {
        // The sandbox refused a path, an ATTACH or an extension (see `Database.open`).
        const denied = /Cannot access (?:file|directory) "([^"]*)"/.exec(first)?.[1];
        return new QueryExecutionError(ErrorClass.fileAccessDenied, denied !== undefined
            ? `The local engine refused to access '${denied}': an update reads only inside the pipeline (and the folders allowed to it) and writes only its state folder.`
            : `The local engine refused an operation outside its sandbox (${first.replace(/^Permission Error: /, '')}).`, {}, { cause: error });
    } else if (/^Interrupt Error/i.test(first)) {
        // DuckDB 1.5 writes "INTERRUPT Error: Interrupted!": the statement was stopped by Cancel.
        return new CancelledError();
    } else if (/^Out of Memory Error/.test(first)) {
        return outOfMemoryError(undefined, error);
    } else if (/Corrupt database file|not a valid DuckDB database file|Could not read enough bytes from file/.test(first)) {
        const file = /file "([^"]+)"/.exec(first)?.[1];
        return unreadableState(file ?? 'state.duckdb', first, error);
    } else if (/Out of Range Error|overflow/i.test(first)) {
        code = ErrorClass.arithmeticOverflow;
    }
    const err = new QueryExecutionError(code, text.replace(/^[A-Za-z ]+ Error: /, ''), {}, { cause: error });
    if (sql) {
        Object.defineProperty(err, 'sql', { value: sql, enumerable: false });
    }
    return err;
}
