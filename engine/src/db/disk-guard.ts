// The engine's bound on the disk one update takes. DuckDB keeps its memory within the memory limit by
// spilling blocks to the spill folder, but does not bound that folder for the blocks of temporary
// tables, and an update's uncommitted rows grow the state file: a materialized view over a large
// cross join would fill the disk instead of the memory. While a statement runs, the guard measures
// the spill folder plus the state file's growth since the database was opened, and interrupts the
// statement when they pass the spill limit; the statement then fails with UNABLE_TO_ACQUIRE_MEMORY.
import { ErrorClass, QueryExecutionError } from '../errors.js';
import { fileBytes, folderBytes, formatSize, type Resources } from './resources.js';

/** How often a running statement's disk use is measured. */
const CHECK_MS = 200;

/** Watches the disk use of the statements of one database. */
export class DiskGuard {
    /** Set when a statement was stopped for using too much: the bytes in use then. */
    exceeded?: number;
    private active = 0;
    private timer?: ReturnType<typeof setInterval>;
    private readonly base: number;

    constructor(private readonly file: string, readonly resources: Resources, private readonly interrupt: () => void) {
        this.base = this.stateBytes();
    }

    private stateBytes(): number {
        return fileBytes(this.file) + fileBytes(`${this.file}.wal`);
    }

    /** Bytes the update holds on disk beyond what the state had when it was opened. */
    used(): number {
        return folderBytes(this.resources.spillDir) + Math.max(0, this.stateBytes() - this.base);
    }

    /** Runs a statement, measuring its disk use until it ends. */
    async watch<T>(work: () => Promise<T>): Promise<T> {
        if (this.active++ === 0) {
            this.timer = setInterval(() => this.check(), CHECK_MS);
            this.timer.unref();
        }
        try {
            return await work();
        } finally {
            if (--this.active === 0) {
                this.stop();
            }
        }
    }

    private check(): void {
        if (this.exceeded !== undefined) {
            return;
        }
        const used = this.used();
        if (used > this.resources.spillLimit) {
            this.exceeded = used;
            this.interrupt();
        }
    }

    /** The error of a statement that ran out of memory or spill space. */
    error(cause: unknown): QueryExecutionError {
        return outOfMemoryError(this.resources, cause);
    }

    stop(): void {
        if (this.timer) {
            clearInterval(this.timer);
            this.timer = undefined;
        }
    }
}

/**
 * Spark's UNABLE_TO_ACQUIRE_MEMORY for a statement that needed more memory and spill space than the
 * update may use, with the limits and the way to raise them.
 */
export function outOfMemoryError(resources: Resources | undefined, cause: unknown): QueryExecutionError {
    const limits = resources
        ? ` (memory limit ${formatSize(resources.memoryLimit)}, spill space ${formatSize(resources.spillLimit)} in '${resources.spillDir}')`
        : '';
    return new QueryExecutionError(ErrorClass.outOfMemory,
        `Unable to acquire memory: the query needs more memory and disk than the local engine may use${limits}. `
        + 'Its changes were rolled back; the pipeline state is as the last successful update left it. '
        + 'Make the query produce less data (a join without a condition multiplies its inputs), or raise the limits '
        + '(the engine options memoryLimit and spillLimit, or the environment variables PIPELINE_SQL_MEMORY_LIMIT and PIPELINE_SQL_SPILL_LIMIT, e.g. 8GB).',
        {}, { cause });
}
