// How much memory and disk one update may use. DuckDB gets a memory limit (a share of the machine's
// memory, overridable) and a spill folder inside the state folder; the engine itself bounds the disk
// an update takes (spilled data plus growth of the state file), because DuckDB does not bound the
// spilled blocks of temporary tables (its max_temp_directory_size was measured not to hold for
// them). A query that needs more ends with UNABLE_TO_ACQUIRE_MEMORY instead of taking the machine.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError, ErrorClass } from '../errors.js';

/** Limits as the caller gives them: bytes, or a size such as `2GB`, `512MiB`, `1.5g`. */
export interface ResourceOptions {
    /** DuckDB's memory limit; default: a quarter of the machine's memory (at least 512 MiB). */
    memoryLimit?: number | string;
    /**
     * Disk the update may use for spilled data and for the growth of the state file; default: twice
     * the memory limit, at most half the free space of the state folder's file system.
     */
    spillLimit?: number | string;
}

/** Limits after defaults were applied. */
export interface Resources {
    memoryLimit: number;
    spillLimit: number;
    /** The spill folder (DuckDB's temp_directory), inside the state folder. */
    spillDir: string;
}

/** The name of the spill folder inside the state folder. */
export const SPILL_DIR = 'spill';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

const UNITS: Record<string, number> = {
    '': 1, b: 1,
    k: 1024, kb: 1000, kib: 1024,
    m: MIB, mb: 1000 ** 2, mib: MIB,
    g: GIB, gb: 1000 ** 3, gib: GIB,
    t: 1024 * GIB, tb: 1000 ** 4, tib: 1024 * GIB,
};

/** Parses a size (`2GB`, `512MiB`, `1.5g`, a number of bytes); throws on anything else. */
export function parseSize(value: number | string, what: string): number {
    const match = typeof value === 'number' ? undefined : /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
    const unit = match ? match[2].toLowerCase() : '';
    const bytes = typeof value === 'number' ? value : match && Object.hasOwn(UNITS, unit) ? Number(match[1]) * UNITS[unit] : NaN;
    if (!Number.isFinite(bytes) || bytes < MIB) {
        throw new EngineError(ErrorClass.invalidPipeline, `The ${what} '${String(value)}' is not a size of at least 1 MiB (e.g. 4GB, 512MiB).`);
    }
    return Math.floor(bytes);
}

/** The machine's memory as this process may use it (a cgroup limit when there is one). */
function machineMemory(): number {
    const total = os.totalmem();
    const constrained = process.constrainedMemory?.() ?? 0;
    return constrained > 0 && constrained < total ? constrained : total;
}

function freeDisk(dir: string): number {
    try {
        const stats = fs.statfsSync(dir);
        return stats.bavail * stats.bsize;
    } catch {
        return Number.POSITIVE_INFINITY;
    }
}

/**
 * The limits of an update on the state in `stateDir`: the options, else `PIPELINE_SQL_MEMORY_LIMIT` /
 * `PIPELINE_SQL_SPILL_LIMIT` from the environment, else the defaults.
 */
export function resolveResources(stateDir: string, options: ResourceOptions = {}): Resources {
    const memorySetting = options.memoryLimit ?? process.env.PIPELINE_SQL_MEMORY_LIMIT;
    const spillSetting = options.spillLimit ?? process.env.PIPELINE_SQL_SPILL_LIMIT;
    const memoryLimit = memorySetting !== undefined && memorySetting !== ''
        ? parseSize(memorySetting, 'memory limit')
        : Math.max(512 * MIB, Math.floor(machineMemory() / 4));
    const spillLimit = spillSetting !== undefined && spillSetting !== ''
        ? parseSize(spillSetting, 'spill limit')
        : Math.max(256 * MIB, Math.floor(Math.min(2 * memoryLimit, freeDisk(stateDir) / 2)));
    return { memoryLimit, spillLimit, spillDir: path.join(stateDir, SPILL_DIR) };
}

/** A size as people read it: `6 GiB`, `512 MiB`. */
export function formatSize(bytes: number): string {
    if (bytes >= GIB) {
        const gib = bytes / GIB;
        return `${Number.isInteger(gib) ? gib : gib.toFixed(1)} GiB`;
    }
    return `${Math.round(bytes / MIB)} MiB`;
}

/** Bytes on disk of the files in a folder (not recursive; 0 when it does not exist). */
export function folderBytes(dir: string): number {
    let total = 0;
    let names: string[];
    try {
        names = fs.readdirSync(dir);
    } catch {
        return 0;
    }
    for (const name of names) {
        total += fileBytes(path.join(dir, name));
    }
    return total;
}

/** Bytes on disk of a file (allocated blocks, so sparse files count what they use; 0 when missing). */
export function fileBytes(file: string): number {
    try {
        const stats = fs.statSync(file);
        return stats.isFile() ? Math.min(stats.size, stats.blocks * 512) : 0;
    } catch {
        return 0;
    }
}
