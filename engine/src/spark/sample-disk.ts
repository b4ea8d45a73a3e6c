/**
 * What the sample-data layer reads from disk, behind one interface. Its calls are synchronous so
 * that the editor's schema lookups stay synchronous; `nodeSampleDisk` reads the disk directly (the
 * CLI, runs, tests), and the language server passes a disk that answers from what it has read
 * asynchronously beforehand (so it does no synchronous disk reads of its own). This file is the only
 * place of the sample layer that touches `node:fs`.
 */
import * as fs from 'node:fs';

/** What a path is. */
export type SampleEntryKind = 'file' | 'directory' | 'fifo' | 'device' | 'socket' | 'other';

/** A path's kind, size and modification time, its symbolic links followed. */
export interface SampleStat {
    readonly kind: SampleEntryKind;
    readonly size: number;
    readonly mtimeMs: number;
}

/** A folder entry, its symbolic links not followed. */
export interface SampleDirEntry {
    readonly name: string;
    readonly kind: SampleEntryKind | 'symlink';
}

/** The reads of the sample-data layer. Failures throw errors with a Node error `code` (`ENOENT`, `ENOTDIR`, `EACCES`, ...). */
export interface SampleDisk {
    /** The path with its symbolic links resolved (throws `ENOENT` when it does not exist). */
    realpath(location: string): string;
    /** The path's stat, links followed; undefined when it does not exist. */
    stat(location: string): SampleStat | undefined;
    /** A folder's entries (throws when it cannot be listed). */
    readdir(dir: string): SampleDirEntry[];
    /**
     * At most `length` bytes at `position` of a regular file (fewer at its end). A file that is not a
     * regular file once open throws `ENOTREGULAR`.
     */
    read(realPath: string, position: number, length: number): Buffer;
}

/** The kind of a Node stat. */
export function kindOfStats(stat: fs.Stats): SampleEntryKind {
    return stat.isFile() ? 'file'
        : stat.isDirectory() ? 'directory'
            : stat.isFIFO() ? 'fifo'
                : stat.isCharacterDevice() || stat.isBlockDevice() ? 'device'
                    : stat.isSocket() ? 'socket' : 'other';
}

/** The kind of a Node folder entry. */
export function kindOfDirent(entry: fs.Dirent): SampleDirEntry['kind'] {
    return entry.isSymbolicLink() ? 'symlink'
        : entry.isFile() ? 'file'
            : entry.isDirectory() ? 'directory'
                : entry.isFIFO() ? 'fifo'
                    : entry.isCharacterDevice() || entry.isBlockDevice() ? 'device'
                        : entry.isSocket() ? 'socket' : 'other';
}

/** The message of a read refused because the path is not a regular file. */
export function notRegularMessage(kind: SampleEntryKind): string {
    switch (kind) {
        case 'fifo': return 'a named pipe (FIFO), not a regular file';
        case 'device': return 'a device, not a regular file';
        case 'socket': return 'a socket, not a regular file';
        default: return 'not a regular file';
    }
}

/** The disk itself, read synchronously. */
export const nodeSampleDisk: SampleDisk = {
    realpath: location => fs.realpathSync.native(location),
    stat: location => {
        const stat = fs.statSync(location, { throwIfNoEntry: false });
        return stat ? { kind: kindOfStats(stat), size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
    },
    readdir: dir => fs.readdirSync(dir, { withFileTypes: true }).map(entry => ({ name: entry.name, kind: kindOfDirent(entry) })),
    read: (realPath, position, length) => {
        // Opened without blocking, and still a regular file once open: a FIFO swapped in after the
        // checks is refused, not waited on.
        const fd = fs.openSync(realPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
        try {
            const stat = fs.fstatSync(fd);
            if (!stat.isFile()) {
                throw Object.assign(new Error(`${notRegularMessage(kindOfStats(stat))}: only regular files are read as sample data`), { code: 'ENOTREGULAR' });
            }
            const size = Math.max(0, Math.min(length, stat.size - position));
            const buffer = Buffer.alloc(size);
            let read = 0;
            while (read < size) {
                const n = fs.readSync(fd, buffer, read, size - read, position + read);
                if (n === 0) {
                    break;
                }
                read += n;
            }
            return read === size ? buffer : buffer.subarray(0, read);
        } finally {
            fs.closeSync(fd);
        }
    },
};

/** The same reads, asynchronous (what the language server fills its {@link SampleDisk} with). */
export interface AsyncSampleReads {
    realpath(location: string): Promise<string>;
    stat(location: string): Promise<SampleStat | undefined>;
    readdir(dir: string): Promise<SampleDirEntry[]>;
    read(realPath: string, position: number, length: number): Promise<Buffer>;
}

/** The disk, read asynchronously. */
export const nodeAsyncSampleReads: AsyncSampleReads = {
    realpath: location => fs.promises.realpath(location),
    stat: async location => {
        try {
            const stat = await fs.promises.stat(location);
            return { kind: kindOfStats(stat), size: stat.size, mtimeMs: stat.mtimeMs };
        } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === 'ENOENT' || code === 'ENOTDIR') {
                return undefined;
            }
            throw error;
        }
    },
    readdir: async dir => (await fs.promises.readdir(dir, { withFileTypes: true })).map(entry => ({ name: entry.name, kind: kindOfDirent(entry) })),
    read: async (realPath, position, length) => {
        const handle = await fs.promises.open(realPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
        try {
            const stat = await handle.stat();
            if (!stat.isFile()) {
                throw Object.assign(new Error(`${notRegularMessage(kindOfStats(stat))}: only regular files are read as sample data`), { code: 'ENOTREGULAR' });
            }
            const size = Math.max(0, Math.min(length, stat.size - position));
            const buffer = Buffer.alloc(size);
            let read = 0;
            while (read < size) {
                const { bytesRead } = await handle.read(buffer, read, size - read, position + read);
                if (bytesRead === 0) {
                    break;
                }
                read += bytesRead;
            }
            return read === size ? buffer : buffer.subarray(0, read);
        } finally {
            await handle.close();
        }
    },
};
