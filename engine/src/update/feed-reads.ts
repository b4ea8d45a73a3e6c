// Reads of a dataset's versions and change data feed (docs/semantics.md §15.3, §5.1): `table_changes('t', start
// [, end])`, `t WITH (readChangeFeed = true [, startingVersion | startingTimestamp])` as a batch or
// a stream, and what a streaming read does with versions that updated or deleted rows.
import { EngineError, ErrorClass } from '../errors.js';
import type { ChangeFeedBoundIR, SourceSpan } from '../ir.js';
import { ident, join, sql, str, type Sql } from '../sql/sql.js';
import type { Column } from '../sql/duckdb-types.js';
import { Types as T } from '../spark/spark-types.js';
import type { DatasetVersion, StateStore } from '../state/state-store.js';
import { FEED_COLUMNS } from './versions.js';

/** The columns of a feed read: the dataset's, then `_change_type`, `_commit_version`, `_commit_timestamp`. */
export function feedColumns(columns: readonly Column[]): Column[] {
    const own = columns.filter(c => !(FEED_COLUMNS as readonly string[]).includes(c.name.toLowerCase()));
    return [...own, { name: '_change_type', type: T.string }, { name: '_commit_version', type: T.bigint }, { name: '_commit_timestamp', type: T.timestamp }];
}

/** The dataset's versions; an error when it has none (it was never computed). */
export async function versionsOf(store: StateStore, key: string, display: string, span?: SourceSpan): Promise<DatasetVersion[]> {
    const versions = await store.versions(key);
    if (versions.length === 0) {
        throw new EngineError(ErrorClass.tableNotFound, `The dataset '${display}' has no versions yet; run the pipeline before reading its change data feed.`, { span });
    }
    return versions;
}

/** The first version a `start` bound names (table_changes, startingVersion, startingTimestamp). */
export async function startVersion(store: StateStore, versions: DatasetVersion[], bound: ChangeFeedBoundIR, display: string, span?: SourceSpan): Promise<number> {
    const latest = versions[versions.length - 1];
    if ('version' in bound) {
        return checkedVersion(bound.version, 'start', latest, display, span);
    }
    const found = await firstAtOrAfter(store, versions, bound.timestamp, span);
    if (found === undefined) {
        throw timestampAfterLatest(bound.timestamp, latest, display, span);
    }
    return found;
}

/** The last version an `end` bound names (inclusive). */
export async function endVersion(store: StateStore, versions: DatasetVersion[], bound: ChangeFeedBoundIR, display: string, span?: SourceSpan): Promise<number> {
    const latest = versions[versions.length - 1];
    if ('version' in bound) {
        return checkedVersion(bound.version, 'end', latest, display, span);
    }
    if (!(await isAtOrAfter(store, latest.timestamp, bound.timestamp, span))) {
        throw timestampAfterLatest(bound.timestamp, latest, display, span);
    }
    const last = await lastAtOrBeforeVersion(store, versions, bound.timestamp, span);
    if (last === undefined) {
        throw new EngineError(ErrorClass.cdcTimestampBeforeEarliest,
            `The timestamp '${bound.timestamp}' is before the first version of '${display}' (version ${versions[0].version}, committed ${versions[0].timestamp}).`, { span });
    }
    return last;
}

/** A version bound, refused when it is after the latest version. */
function checkedVersion(version: number, which: 'start' | 'end', latest: DatasetVersion, display: string, span?: SourceSpan): number {
    if (version > latest.version) {
        throw new EngineError(ErrorClass.cdcVersionAfterLatest,
            `The ${which} version ${version} for reading the change data feed of '${display}' is invalid: it cannot be after the latest version of the table (${latest.version}).`, { span });
    }
    return version;
}

function timestampAfterLatest(timestamp: string, latest: DatasetVersion, display: string, span?: SourceSpan): EngineError {
    return new EngineError(ErrorClass.cdcTimestampAfterLatest,
        `The timestamp '${timestamp}' is after the latest version of '${display}' (version ${latest.version}, committed ${latest.timestamp}); use a timestamp before or at that commit.`, { span });
}

/** `DELTA_INVALID_CDC_RANGE` when the end comes before the start. */
export function checkRange(from: number, to: number, span?: SourceSpan): void {
    if (to < from) {
        throw new EngineError(ErrorClass.cdcInvalidRange, `The change data feed range from version ${from} to ${to} is invalid: the end cannot be before the start.`, { span });
    }
}

/** SQL of the feed rows of versions `from`..`to` (inclusive), with the columns `feedColumns(columns)`. */
export async function feedRows(store: StateStore, key: string, columns: readonly Column[], from: number, to: number, where: Sql = sql`TRUE`): Promise<Sql> {
    const out = feedColumns(columns);
    if (!(await store.tableExists('cdf', key))) {
        return sql`(SELECT ${join(out.map(c => sql`CAST(NULL AS ${castType(c)}) AS ${ident(c.name)}`))} WHERE FALSE)`;
    }
    const feed = store.feedTable(key);
    const stored = new Set((await store.db.describe(sql`SELECT * FROM ${feed}`)).map(c => c.name.toLowerCase()));
    const items = out.map(c => (stored.has(c.name.toLowerCase()) ? ident(c.name) : sql`CAST(NULL AS ${castType(c)}) AS ${ident(c.name)}`));
    return sql`(SELECT ${join(items)} FROM ${feed} WHERE "_commit_version" BETWEEN ${from} AND ${to} AND (${where}))`;
}

/** The current rows of a dataset as a feed: every row an `insert` of the latest version (a stream's first read without a start). */
export function snapshotAsFeed(select: Sql, latest: DatasetVersion): Sql {
    return sql`(SELECT *, 'insert' AS "_change_type", CAST(${latest.version} AS BIGINT) AS "_commit_version", CAST(${str(latest.timestamp)} AS TIMESTAMP) AS "_commit_timestamp" FROM (${select}))`;
}

/**
 * A plain streaming read of a dataset changed by versions after the reader's last read (5.1): a
 * version that updated rows is `DELTA_SOURCE_TABLE_IGNORE_CHANGES`, one that only deleted rows is
 * `DELTA_SOURCE_IGNORE_DELETE`, unless the read says skipChangeCommits.
 */
export function checkAppendOnlySince(versions: DatasetVersion[], next: number, display: string, flow: string, span?: SourceSpan): void {
    const changed = versions.find(v => v.version >= next && ((v.metrics.numUpdatedRows ?? 0) > 0 || (v.metrics.numDeletedRows ?? 0) > 0));
    if (!changed) {
        return;
    }
    const updated = (changed.metrics.numUpdatedRows ?? 0) > 0;
    throw new EngineError(updated ? ErrorClass.streamingSourceUpdated : ErrorClass.streamingSourceDeleted,
        `Detected a data ${updated ? 'update' : 'deletion'} (${changed.operation}) in the source table '${display}' at version ${changed.version}, which '${flow}' reads as a stream; `
        + 'streaming sources must be append-only. To ignore such commits, read it with WITH (skipChangeCommits = true); to read the changes, use WITH (readChangeFeed = true); or run a full refresh of the reader.',
        { span });
}

function castType(column: Column): Sql {
    return column.type.kind === 'bigint' ? sql`BIGINT` : column.type.kind === 'timestamp' ? sql`TIMESTAMP` : column.type.kind === 'string' ? sql`VARCHAR` : sql`VARCHAR`;
}

async function firstAtOrAfter(store: StateStore, versions: DatasetVersion[], timestamp: string, span?: SourceSpan): Promise<number | undefined> {
    for (const v of versions) {
        if (await isAtOrAfter(store, v.timestamp, timestamp, span)) {
            return v.version;
        }
    }
    return undefined;
}

async function lastAtOrBeforeVersion(store: StateStore, versions: DatasetVersion[], timestamp: string, span?: SourceSpan): Promise<number | undefined> {
    let found: number | undefined;
    for (const v of versions) {
        if (await isAtOrAfter(store, timestamp, v.timestamp, span)) {
            found = v.version;
        }
    }
    return found;
}

/** `a >= b` for two timestamps as text (DuckDB reads the user's text as a TIMESTAMP). */
async function isAtOrAfter(store: StateStore, a: string, b: string, span?: SourceSpan): Promise<boolean> {
    try {
        return (await store.db.scalar(sql`SELECT CAST(${str(a)} AS TIMESTAMP) >= CAST(${str(b)} AS TIMESTAMP)`)) === true;
    } catch {
        throw new EngineError(ErrorClass.castInvalidInput, `'${a}' is not a timestamp (yyyy-MM-dd HH:mm:ss).`, { span });
    }
}
