/**
 * Reader options written after a table reference, `STREAM t WITH (readChangeFeed = true)` (Delta
 * reader options; docs/semantics.md §15.3 and §5.1), and the three columns a change data feed read adds. One list
 * for the lowering, validation, completion and hover. Option names are matched case-insensitively,
 * as Spark does for reader options.
 */
import type { FunctionOption } from '../../../../engine/src/spark/functions/function-model.js';

/** Every table read option the language services know. */
export const TABLE_READ_OPTIONS: readonly FunctionOption[] = [
    {
        name: 'readChangeFeed', valueKind: 'boolean', defaultValue: 'false',
        description: 'Read the table\'s change data feed: every inserted, deleted and updated row of each version, with _change_type, _commit_version and _commit_timestamp.',
    },
    {
        name: 'startingVersion', valueKind: 'integer',
        description: 'With readChangeFeed: the first version to read (a stream starts there on its first update, then continues where it stopped).',
    },
    {
        name: 'startingTimestamp', valueKind: 'timestamp',
        description: 'With readChangeFeed: read the versions committed at or after this time, instead of startingVersion.',
    },
    {
        name: 'skipChangeCommits', valueKind: 'boolean', defaultValue: 'false',
        description: 'A streaming read ignores commits that update or delete rows (DML, AUTO CDC) instead of failing; only appended rows are read.',
    },
];

/** The option of that name (any case). */
export function tableReadOption(name: string): FunctionOption | undefined {
    const key = name.toLowerCase();
    return TABLE_READ_OPTIONS.find(o => o.name.toLowerCase() === key);
}

/** A column a change data feed read adds to the table's columns. */
export interface ChangeFeedColumn {
    readonly name: '_change_type' | '_commit_version' | '_commit_timestamp';
    /** Spark type name. */
    readonly type: 'STRING' | 'BIGINT' | 'TIMESTAMP';
    readonly description: string;
}

/** The columns of a change data feed after the table's own, in this order (never NULL). */
export const CHANGE_FEED_COLUMNS: readonly ChangeFeedColumn[] = [
    { name: '_change_type', type: 'STRING', description: 'What happened to the row: `insert`, `delete`, `update_preimage` (the row before an update) or `update_postimage` (after it).' },
    { name: '_commit_version', type: 'BIGINT', description: 'The table version whose commit made the change (creation is version 0).' },
    { name: '_commit_timestamp', type: 'TIMESTAMP', description: 'When that version was committed.' },
];

/** The feed column of that name (any case). */
export function changeFeedColumn(name: string): ChangeFeedColumn | undefined {
    const key = name.toLowerCase();
    return CHANGE_FEED_COLUMNS.find(c => c.name === key);
}
