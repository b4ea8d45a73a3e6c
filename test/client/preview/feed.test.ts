import { describe, expect, test } from 'vitest';
import { dataColumns, isFeed, pairFeed } from '../../../client/webview/model/feed.js';

describe('change data feed in the preview', () => {
    test('pre- and post-images pair into one update with its changed columns; inserts and deletes stay', () => {
        const rows = [
            { id: 1, name: 'a', city: 'X', _change_type: 'update_preimage' },
            { id: 1, name: 'A', city: 'X', _change_type: 'update_postimage' },
            { id: 2, name: 'b', city: 'Y', _change_type: 'delete' },
            { id: 3, name: 'c', city: 'Z', _change_type: 'insert' },
        ];
        const changes = pairFeed(rows, ['id', 'name', 'city']);
        expect(changes.map(c => [c.kind, c.before?.name ?? null, c.after?.name ?? null, [...c.changed]])).toEqual([
            ['update', 'a', 'A', ['name']], ['delete', 'b', null, []], ['insert', null, 'c', []],
        ]);
    });

    test('images written apart (all pre-images, then all post-images) pair in order', () => {
        const rows = [
            { id: 1, v: 1, _change_type: 'update_postimage' }, { id: 2, v: 2, _change_type: 'update_postimage' },
            { id: 1, v: 0, _change_type: 'update_preimage' }, { id: 2, v: 2, _change_type: 'update_preimage' },
        ];
        const changes = pairFeed(rows, ['id', 'v']);
        expect(changes.map(c => `${c.kind} ${c.before?.v}->${c.after?.v} [${[...c.changed].join()}]`)).toEqual(['update 0->1 [v]', 'update 2->2 []']);
    });

    test('the feed columns are recognised and left out of the data columns', () => {
        const columns = [{ name: 'id', type: 'INT' }, { name: '_change_type', type: 'STRING' }, { name: '_commit_version', type: 'BIGINT' }];
        expect(isFeed(columns)).toBe(true);
        expect(isFeed(columns.slice(0, 1))).toBe(false);
        expect(dataColumns(columns).map(c => c.name)).toEqual(['id']);
    });
});
