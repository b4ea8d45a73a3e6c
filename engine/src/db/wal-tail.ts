// How a DuckDB write-ahead log ends: after a complete commit, or in the middle of one (the process
// was killed while writing it). Database.open reads this before attaching a state file, because
// DuckDB 1.5 replays a cut-off commit in part: the transaction's row-level entries are rolled back,
// but its ROW_GROUP_DATA entries (appends large enough to have been written straight to data blocks)
// are merged into their tables for good. The state would then hold rows of an update whose
// checkpoints were never recorded, the next update would read those files again, and the commit it
// writes (deletes of row ids that exist only in that half-replayed state) fails its own replay at
// the open after, which DuckDB takes for one more cut-off tail and drops in silence.
//
// Only the framing of DuckDB's log (version 2, unencrypted, the one 1.5 writes) is read: an 8-byte
// version entry, then entries of [payload size: u64 LE][checksum: u64 LE][payload], each payload
// starting with field 100, the entry type, as one byte. A commit ends with a WAL_FLUSH entry (type
// 100). Checksums are DuckDB's to verify; a log that does not look like this is 'unknown'.
import * as fs from 'node:fs';

/**
 * How a write-ahead log ends: 'none' (no log, or an empty one), 'commit' (with a complete commit),
 * 'torn' (inside an entry or after entries with no commit end), 'unknown' (not a log this reader knows).
 */
export type WalTail = 'none' | 'commit' | 'torn' | 'unknown';

/** The version entry DuckDB 1.5 writes first: field 100 = WAL_VERSION (98), field 101 = 2, end of object. */
const VERSION_2 = Buffer.from([0x64, 0x00, 0x62, 0x65, 0x00, 0x02, 0xff, 0xff]);
/** The first bytes of a WAL_FLUSH entry's payload: field 100 = 100. */
const FLUSH = Buffer.from([0x64, 0x00, 0x64]);
/** Size and checksum before each entry's payload. */
const ENTRY_HEADER = 16;

/** Reads how the write-ahead log `walFile` ends (only the entries' sizes and types are read). */
export function walTail(walFile: string): WalTail {
    let fd: number;
    try {
        fd = fs.openSync(walFile, 'r');
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            return 'none';
        }
        throw error;
    }
    try {
        const size = fs.fstatSync(fd).size;
        if (size === 0) {
            return 'none';
        }
        const read = (at: number, length: number): Buffer => {
            const buffer = Buffer.alloc(length);
            const got = fs.readSync(fd, buffer, 0, length, at);
            return buffer.subarray(0, got);
        };
        const version = read(0, VERSION_2.length);
        if (version.length < VERSION_2.length) {
            // Cut inside the version entry: DuckDB replays nothing and rewrites the log from the start.
            return VERSION_2.subarray(0, version.length).equals(version) ? 'torn' : 'unknown';
        }
        if (!version.equals(VERSION_2)) {
            return 'unknown';
        }
        let at = VERSION_2.length;
        let lastWasFlush = true;
        while (at < size) {
            if (size - at < ENTRY_HEADER + FLUSH.length) {
                return 'torn';
            }
            const header = read(at, ENTRY_HEADER + FLUSH.length);
            const payload = header.readBigUInt64LE(0);
            if (payload > BigInt(size - at - ENTRY_HEADER)) {
                return 'torn';
            }
            lastWasFlush = header.subarray(ENTRY_HEADER).equals(FLUSH) && payload === BigInt(FLUSH.length + 2);
            at += ENTRY_HEADER + Number(payload);
        }
        return lastWasFlush ? 'commit' : 'torn';
    } finally {
        fs.closeSync(fd);
    }
}
