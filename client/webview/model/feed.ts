/**
 * A change data feed (spec 15.2) as the preview shows it: `insert` and `delete` rows as they are, and
 * each `update_preimage` paired with its `update_postimage` into one change whose changed columns are
 * marked, so that the values before and after stand side by side.
 */
import type { ResultColumn, ResultRow } from '../../../common/result-model.js';
import { sameValue } from './values.js';

/** The columns a feed adds to a dataset's columns. */
export const FeedColumns = ['_change_type', '_commit_version', '_commit_timestamp'] as const;

/** One change of a feed. */
export interface FeedChange {
    readonly kind: 'insert' | 'delete' | 'update';
    /** The row before the change (delete, update). */
    readonly before?: ResultRow;
    /** The row after the change (insert, update). */
    readonly after?: ResultRow;
    /** For an update: the columns whose value changed. */
    readonly changed: ReadonlySet<string>;
}

/** The dataset's own columns of a feed (the feed columns left out). */
export function dataColumns(columns: readonly ResultColumn[]): ResultColumn[] {
    return columns.filter(c => !(FeedColumns as readonly string[]).includes(c.name));
}

/** Whether rows are a feed (they carry `_change_type`). */
export function isFeed(columns: readonly ResultColumn[]): boolean {
    return columns.some(c => c.name === '_change_type');
}

/**
 * The changes of a feed in its order: the n-th `update_preimage` pairs with the n-th
 * `update_postimage` (the engine writes each pair in the same order); an unpaired image stays alone.
 */
export function pairFeed(rows: readonly ResultRow[], columns: readonly string[]): FeedChange[] {
    const changes: Array<FeedChange & { kind: 'update' }> = [];
    const out: FeedChange[] = [];
    const pre: number[] = [];
    const post: number[] = [];
    for (const row of rows) {
        const type = row._change_type;
        if (type === 'insert') {
            out.push({ kind: 'insert', after: row, changed: new Set() });
        } else if (type === 'delete') {
            out.push({ kind: 'delete', before: row, changed: new Set() });
        } else if (type === 'update_preimage' || type === 'update_postimage') {
            const mine = type === 'update_preimage' ? pre : post;
            const index = mine.length;
            mine.push(index);
            if (index < changes.length) {
                const change = changes[index];
                const before = type === 'update_preimage' ? row : change.before!;
                const after = type === 'update_postimage' ? row : change.after!;
                const changed = new Set(columns.filter(c => !sameValue(before[c], after[c])));
                const paired: FeedChange & { kind: 'update' } = { kind: 'update', before, after, changed };
                changes[index] = paired;
                out[out.indexOf(change)] = paired;
            } else {
                const change: FeedChange & { kind: 'update' } = { kind: 'update', ...(type === 'update_preimage' ? { before: row } : { after: row }), changed: new Set() };
                changes.push(change);
                out.push(change);
            }
        }
    }
    return out;
}
