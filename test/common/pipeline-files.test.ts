// The statement sniff shared by the client's language detection and the project model's plain folders.
import { describe, expect, test } from 'vitest';
import { blankCommentsAndStrings, definesObjects, findPipelineStatement } from '../../common/pipeline-files.js';

describe('definesObjects (a scratch file defines nothing)', () => {
    test.each([
        'CREATE MATERIALIZED VIEW mv AS SELECT 1',
        'SELECT 1;\ncreate table t (id INT)',
        'CREATE OR REPLACE TEMPORARY VIEW v AS SELECT * FROM users_current',
        'APPLY CHANGES INTO live.t FROM stream(live.s) KEYS (id) SEQUENCE BY ts',
    ])('%j defines something', sql => {
        expect(definesObjects(sql)).toBe(true);
    });

    test.each([
        'DELETE FROM users_current WHERE user_id = 1',
        '-- CREATE the rows by hand\nINSERT INTO users_history (user_id, __START_AT, __END_AT) VALUES (7, 5, NULL)',
        "UPDATE t SET note = 'CREATE TABLE' WHERE `create` = 1",
        'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE',
        'SELECT created_at FROM users_current',
        '',
    ])('%j defines nothing', sql => {
        expect(definesObjects(sql)).toBe(false);
    });
});

describe('findPipelineStatement', () => {
    test.each([
        ['CREATE OR REFRESH STREAMING TABLE orders AS SELECT * FROM STREAM(raw)', 'CREATE STREAMING TABLE'],
        ['create streaming table t', 'CREATE STREAMING TABLE'],
        ['CREATE OR REFRESH PRIVATE STREAMING TABLE t', 'CREATE STREAMING TABLE'],
        ['CREATE STREAMING LIVE TABLE t', 'CREATE STREAMING TABLE'],
        ['CREATE OR REFRESH MATERIALIZED VIEW mv AS SELECT 1', 'CREATE MATERIALIZED VIEW'],
        ['CREATE FLOW f AS INSERT INTO t BY NAME SELECT 1', 'CREATE FLOW'],
        ['create or refresh flow f as auto cdc into t from s keys (id) sequence by ts', 'CREATE FLOW'],
        ['APPLY CHANGES INTO live.t FROM stream(live.s) KEYS (id) SEQUENCE BY ts', 'APPLY CHANGES INTO'],
        ['CREATE LIVE TABLE t AS SELECT 1', 'CREATE LIVE TABLE'],
        ['CREATE TEMPORARY LIVE VIEW v AS SELECT 1', 'CREATE LIVE TABLE'],
        ['CREATE OR REFRESH STREAMING TABLE t\n  FLOW AUTO CDC FROM s KEYS (id) SEQUENCE BY ts', 'CREATE STREAMING TABLE'],
        ['CREATE\n  OR   REFRESH\tSTREAMING\n TABLE t', 'CREATE STREAMING TABLE'],
    ])('finds it in %j', (sql, expected) => {
        expect(findPipelineStatement(sql)).toBe(expected);
    });

    test.each([
        'SELECT * FROM orders WHERE status = \'shipped\'',
        'CREATE TABLE t (id INT); INSERT INTO t VALUES (1)',
        'CREATE VIEW v AS SELECT 1',
        '-- CREATE STREAMING TABLE in a comment\nSELECT 1',
        '/* CREATE FLOW f\n AS AUTO CDC */ SELECT 1',
        'SELECT \'CREATE STREAMING TABLE t\' AS text',
        'SELECT "materialized view" AS text',
        'SELECT `auto cdc` FROM t',
        'SELECT auto, cdc FROM t',
        'SELECT flow FROM create_flow_log',
        '',
    ])('finds nothing in %j', sql => {
        expect(findPipelineStatement(sql)).toBeUndefined();
    });

    test('names the statement that comes first in the text', () => {
        expect(findPipelineStatement('CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (k) SEQUENCE BY v;\nCREATE STREAMING TABLE t;')).toBe('CREATE FLOW');
    });
});

describe('blankCommentsAndStrings', () => {
    test('keeps the length and the code, blanks comments, strings with escapes and quoted names', () => {
        const sql = "SELECT 'it\\'s -- no comment' AS a, `x``y` -- trailing\nFROM t /* b */";
        const blanked = blankCommentsAndStrings(sql);
        expect(blanked).toHaveLength(sql.length);
        expect(blanked.replace(/\s+/g, ' ').trim()).toBe('SELECT AS a, FROM t');
    });

    test('unterminated strings and comments run to the end without throwing', () => {
        expect(blankCommentsAndStrings("SELECT 'open").trim()).toBe('SELECT');
        expect(blankCommentsAndStrings('SELECT /* open').trim()).toBe('SELECT');
        expect(blankCommentsAndStrings('SELECT "a\\').trim()).toBe('SELECT');
    });
});
