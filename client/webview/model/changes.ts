/**
 * Which rows of a dataset the last update changed: rows are matched against the update's inserted
 * and updated rows by their values (as a multiset, so duplicate rows of an append-only table are
 * marked only as often as they were inserted), and the deleted rows, which are no longer in the
 * dataset, are added so that the grid can show them struck through.
 */
import type { DatasetChangesModel, ResultRow } from '../../../common/result-model.js';
import { rowKey } from './values.js';

/** How the last update touched a row of the grid. */
export type RowChange = 'inserted' | 'updated' | 'deleted' | undefined;

/** The rows of the grid with their change marks. */
export interface AnnotatedRows {
    /** The dataset's rows followed by the deleted rows. */
    readonly rows: readonly ResultRow[];
    /** The change of each row, by index into `rows`. */
    readonly changes: readonly RowChange[];
    readonly counts: { readonly inserted: number; readonly updated: number; readonly deleted: number };
}

function multiset(rows: readonly ResultRow[], columns: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const row of rows) {
        const key = rowKey(row, columns);
        counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
}

function take(counts: Map<string, number>, key: string): boolean {
    const n = counts.get(key) ?? 0;
    if (n === 0) {
        return false;
    }
    counts.set(key, n - 1);
    return true;
}

/** Marks the rows an update inserted and updated, and appends the rows it deleted. */
export function annotateChanges(rows: readonly ResultRow[], columns: readonly string[], changes: DatasetChangesModel | undefined): AnnotatedRows {
    if (!changes) {
        return { rows, changes: rows.map(() => undefined), counts: { inserted: 0, updated: 0, deleted: 0 } };
    }
    const inserted = multiset(changes.rows.inserted, columns);
    const updated = multiset(changes.rows.updated, columns);
    const marks: RowChange[] = rows.map(row => {
        const key = rowKey(row, columns);
        return take(inserted, key) ? 'inserted' : take(updated, key) ? 'updated' : undefined;
    });
    return {
        rows: [...rows, ...changes.rows.deleted],
        changes: [...marks, ...changes.rows.deleted.map((): RowChange => 'deleted')],
        counts: { inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted },
    };
}
