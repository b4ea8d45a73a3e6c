import { expect, test } from 'vitest';
import { annotateChanges } from '../../../client/webview/model/changes.js';
import type { DatasetChangesModel, ResultRow } from '../../../common/result-model.js';

const columns = ['user_id', 'city'];

test('inserted and updated rows are marked, deleted rows are appended for striking through', () => {
    const rows: ResultRow[] = [{ user_id: 1, city: 'London' }, { user_id: 2, city: 'Cambridge' }, { user_id: 3, city: 'Arlington' }];
    const changes: DatasetChangesModel = {
        inserted: 1, updated: 1, deleted: 1,
        rows: { inserted: [{ user_id: 3, city: 'Arlington' }], updated: [{ user_id: 2, city: 'Cambridge' }], deleted: [{ user_id: 4, city: 'Amsterdam' }] },
    };
    const annotated = annotateChanges(rows, columns, changes);
    expect(annotated.changes).toEqual([undefined, 'updated', 'inserted', 'deleted']);
    expect(annotated.rows[3]).toEqual({ user_id: 4, city: 'Amsterdam' });
    expect(annotated.counts).toEqual({ inserted: 1, updated: 1, deleted: 1 });
});

test('duplicate rows of an append-only table are marked only as often as they were inserted', () => {
    const rows: ResultRow[] = [{ user_id: 1, city: 'X' }, { user_id: 1, city: 'X' }, { user_id: 1, city: 'X' }];
    const changes: DatasetChangesModel = { inserted: 1, updated: 0, deleted: 0, rows: { inserted: [{ city: 'X', user_id: 1 }], updated: [], deleted: [] } };
    expect(annotateChanges(rows, columns, changes).changes).toEqual(['inserted', undefined, undefined]);
});

test('without changes (a dataset the run did not update) nothing is marked', () => {
    const rows: ResultRow[] = [{ user_id: 1, city: 'X' }];
    expect(annotateChanges(rows, columns, undefined)).toEqual({ rows, changes: [undefined], counts: { inserted: 0, updated: 0, deleted: 0 } });
});
