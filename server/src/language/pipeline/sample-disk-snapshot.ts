/**
 * The sample-data layer's disk as the language server gives it ({@link SampleDisk}): it answers
 * from what was read beforehand, asynchronously, so the server does no synchronous disk reads of its
 * own. A question it cannot answer yet is a miss: it is answered as "not there" and remembered; the
 * sample catalog drops what it computed during a miss instead of keeping it, and after the build the
 * document builder reads what was missed ({@link fetch}) and revalidates the pipelines that asked.
 * Reading a folder reads its entries' kinds too, and reading a data file reads its head (and a
 * Parquet file's tail), so a lookup needs few rounds.
 */
import * as path from 'node:path';
import { Cancellation, OperationCancelled } from 'langium';
import type { AsyncSampleReads, SampleDirEntry, SampleDisk, SampleStat } from '../../../../engine/src/spark/sample-disk.js';
import { MaxBytesPerFile } from '../../../../engine/src/spark/sample-schema.js';

/** A failed read, kept to be thrown again. */
interface Failure {
    readonly code?: string;
    readonly message: string;
}

type Answer<T> = { readonly value: T } | { readonly failure: Failure };

/** The bytes read of one file. */
interface Chunk {
    readonly position: number;
    readonly bytes: Buffer;
}

/** The bytes of a file's head read (sample schemas read at most this much, a compressed file's head included). */
const HeadBytes = MaxBytesPerFile;
/** The bytes of a Parquet file's tail read (its footer). */
const TailBytes = 1024 * 1024;
/**
 * At most this many bytes of files are kept; the oldest go first (read again if asked again). The
 * schemas inferred from them are cached by the sample layer, so they are rarely asked twice.
 */
const MaxBytesKept = 128 * 1024 * 1024;

/** A question the snapshot could not answer yet. */
type Miss =
    | { readonly kind: 'realpath' | 'stat' | 'readdir'; readonly path: string }
    | { readonly kind: 'read'; readonly path: string; readonly position: number; readonly length: number };

function pending(kind: string, location: string): Error {
    // The code callers treat as "not there": what they compute from it is dropped anyway.
    return Object.assign(new Error(`${kind} of '${location}' is being read`), { code: kind === 'read' ? 'EAGAIN' : 'ENOENT' });
}

function rethrow(failure: Failure): never {
    throw Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {});
}

function failureOf(error: unknown): Failure {
    return { code: (error as NodeJS.ErrnoException | undefined)?.code, message: error instanceof Error ? error.message : String(error) };
}

export class SampleDiskSnapshot implements SampleDisk {

    private readonly realpaths = new Map<string, Answer<string>>();
    private readonly stats = new Map<string, Answer<SampleStat | undefined>>();
    private readonly folders = new Map<string, Answer<SampleDirEntry[]>>();
    private readonly chunks = new Map<string, Answer<Chunk[]>>();
    private readonly misses = new Map<string, Miss>();
    private missCount = 0;
    private bytesKept = 0;

    /** `reads`: the asynchronous reads that fill it (the server's one access to sample files). */
    constructor(readonly reads: AsyncSampleReads) {}

    /** How many misses there have been so far (a lookup compares it before and after). */
    get missed(): number {
        return this.missCount;
    }

    /** Whether questions are waiting for {@link fetch}. */
    get hasMisses(): boolean {
        return this.misses.size > 0;
    }

    realpath(location: string): string {
        const answer = this.realpaths.get(location);
        if (!answer) {
            this.miss({ kind: 'realpath', path: location });
            throw pending('realpath', location);
        }
        return 'value' in answer ? answer.value : rethrow(answer.failure);
    }

    stat(location: string): SampleStat | undefined {
        const answer = this.stats.get(location);
        if (!answer) {
            this.miss({ kind: 'stat', path: location });
            return undefined;
        }
        return 'value' in answer ? answer.value : rethrow(answer.failure);
    }

    readdir(dir: string): SampleDirEntry[] {
        const answer = this.folders.get(dir);
        if (!answer) {
            this.miss({ kind: 'readdir', path: dir });
            throw pending('readdir', dir);
        }
        return 'value' in answer ? answer.value : rethrow(answer.failure);
    }

    read(realPath: string, position: number, length: number): Buffer {
        const answer = this.chunks.get(realPath);
        const stat = this.stats.get(realPath);
        if (answer && 'failure' in answer) {
            rethrow(answer.failure);
        }
        const size = stat && 'value' in stat ? stat.value?.size : undefined;
        if (answer && size !== undefined) {
            const end = Math.min(position + length, size);
            const chunk = answer.value.find(c => c.position <= position && c.position + c.bytes.length >= end);
            if (chunk) {
                return chunk.bytes.subarray(position - chunk.position, Math.max(position, end) - chunk.position);
            }
        }
        this.miss({ kind: 'read', path: realPath, position, length });
        throw pending('read', realPath);
    }

    /**
     * Reads what was missed (asynchronously), with what a next question will likely need. Cancelled
     * (an edit arrived), it stops between two reads; what it did not read stays missed.
     */
    async fetch(cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None): Promise<void> {
        const misses = [...this.misses];
        this.misses.clear();
        for (const [index, [, miss]] of misses.entries()) {
            if (cancelToken.isCancellationRequested) {
                misses.slice(index).forEach(([key, rest]) => this.misses.set(key, rest));
                throw OperationCancelled;
            }
            switch (miss.kind) {
                case 'realpath': await this.fetchRealpath(miss.path); break;
                case 'stat': await this.fetchStat(miss.path, true); break;
                case 'readdir': await this.fetchFolder(miss.path); break;
                case 'read': await this.fetchRead(miss.path, miss.position, miss.length); break;
            }
        }
    }

    /** Forgets what was read under a path (a file or folder changed on disk). */
    forget(changedPath: string): void {
        const under = (p: string): boolean => p === changedPath || p.startsWith(changedPath.endsWith(path.sep) ? changedPath : changedPath + path.sep);
        for (const key of [...this.chunks.keys()].filter(under)) {
            this.drop(key);
        }
        for (const map of [this.realpaths, this.stats, this.folders] as Array<Map<string, unknown>>) {
            for (const key of [...map.keys()]) {
                if (under(key)) {
                    map.delete(key);
                }
            }
        }
        // The folder listing it is in changed too (an entry appeared or went away).
        this.folders.delete(path.dirname(changedPath));
    }

    private miss(miss: Miss): void {
        this.missCount++;
        this.misses.set(`${miss.kind}\0${miss.path}\0${miss.kind === 'read' ? `${miss.position}\0${miss.length}` : ''}`, miss);
    }

    private async fetchRealpath(location: string): Promise<void> {
        if (this.realpaths.has(location)) {
            return;
        }
        try {
            const real = await this.reads.realpath(location);
            this.realpaths.set(location, { value: real });
            // Its stat (and a file's bytes) come next.
            await this.fetchStat(real, false);
        } catch (error) {
            this.realpaths.set(location, { failure: failureOf(error) });
        }
    }

    private async fetchStat(location: string, more: boolean): Promise<void> {
        if (!this.stats.has(location)) {
            try {
                this.stats.set(location, { value: await this.reads.stat(location) });
            } catch (error) {
                this.stats.set(location, { failure: failureOf(error) });
            }
        }
        const answer = this.stats.get(location);
        const stat = answer && 'value' in answer ? answer.value : undefined;
        if (stat?.kind === 'file') {
            await this.fetchBytes(location, stat);
        } else if (stat?.kind === 'directory' && more) {
            await this.fetchFolder(location);
        }
    }

    private async fetchFolder(dir: string): Promise<void> {
        if (this.folders.has(dir)) {
            return;
        }
        try {
            const entries = await this.reads.readdir(dir);
            this.folders.set(dir, { value: entries });
            // The kinds of its entries (links followed) are asked next.
            for (const entry of entries) {
                const full = path.join(dir, entry.name);
                if (!this.stats.has(full)) {
                    try {
                        this.stats.set(full, { value: await this.reads.stat(full) });
                    } catch (error) {
                        this.stats.set(full, { failure: failureOf(error) });
                    }
                }
            }
        } catch (error) {
            this.folders.set(dir, { failure: failureOf(error) });
        }
    }

    /** A data file's head, and a Parquet file's tail. */
    private async fetchBytes(realPath: string, stat: SampleStat): Promise<void> {
        if (this.chunks.has(realPath)) {
            return;
        }
        try {
            const chunks: Chunk[] = [{ position: 0, bytes: await this.reads.read(realPath, 0, HeadBytes) }];
            if (/\.parquet$/i.test(realPath) && stat.size > HeadBytes) {
                const position = Math.max(0, stat.size - TailBytes);
                chunks.push({ position, bytes: await this.reads.read(realPath, position, stat.size - position) });
            }
            this.keep(realPath, chunks);
        } catch (error) {
            this.chunks.set(realPath, { failure: failureOf(error) });
        }
    }

    /** Keeps a file's bytes, letting go of the oldest kept beyond {@link MaxBytesKept}. */
    private keep(realPath: string, chunks: Chunk[]): void {
        this.drop(realPath);
        this.chunks.set(realPath, { value: chunks });
        this.bytesKept += chunks.reduce((sum, c) => sum + c.bytes.length, 0);
        for (const key of this.chunks.keys()) {
            if (this.bytesKept <= MaxBytesKept) {
                break;
            }
            if (key !== realPath) {
                this.drop(key);
            }
        }
    }

    private drop(realPath: string): void {
        const answer = this.chunks.get(realPath);
        if (answer && 'value' in answer) {
            this.bytesKept -= answer.value.reduce((sum, c) => sum + c.bytes.length, 0);
        }
        this.chunks.delete(realPath);
    }

    private async fetchRead(realPath: string, position: number, length: number): Promise<void> {
        if (!this.stats.has(realPath)) {
            await this.fetchStat(realPath, false);
        }
        const answer = this.chunks.get(realPath);
        if (answer && 'failure' in answer) {
            return;
        }
        try {
            const bytes = await this.reads.read(realPath, position, length);
            this.keep(realPath, [...(answer?.value ?? []), { position, bytes }]);
        } catch (error) {
            this.chunks.set(realPath, { failure: failureOf(error) });
        }
    }
}

/** How many rounds of reads {@link readSettled} makes before it gives up (a lookup needs a few: realpath, stat, bytes). */
const MaxSettleRounds = 32;

/**
 * Runs a synchronous computation over the sample layer's {@link SampleDisk} without a synchronous
 * read: it runs against a fresh snapshot, and while it misses (or fails because it missed), what it
 * missed is read asynchronously and it runs again. For one-off work of the language server on files
 * that change under it (writing sample data), so nothing is answered from an older snapshot.
 */
export async function readSettled<T>(reads: AsyncSampleReads, compute: (disk: SampleDisk) => T,
    cancelToken: Cancellation.CancellationToken = Cancellation.CancellationToken.None): Promise<T> {
    const snapshot = new SampleDiskSnapshot(reads);
    for (let round = 0; ; round++) {
        const before = snapshot.missed;
        let result: { value: T } | { error: unknown };
        try {
            result = { value: compute(snapshot) };
        } catch (error) {
            result = { error };
        }
        if (snapshot.missed === before) {
            if ('error' in result) {
                throw result.error;
            }
            return result.value;
        }
        if (round === MaxSettleRounds) {
            throw new Error(`Reading the sample files took more than ${MaxSettleRounds} rounds; try again.`);
        }
        await snapshot.fetch(cancelToken);
    }
}
