// Completion inside the DML of a scratch file (issue 12): what a user gets after SET, in WHERE, in the
// column lists of INSERT and in MERGE's clauses.
import { afterEach, describe, expect, test } from 'vitest';
import type { CompletionItem } from 'vscode-languageserver';
import { createEditorTester, labels } from './editor-helpers.js';
import { usersCatalog, usersCdcPipeline } from '../../../helpers/users-cdc-pipeline.js';

const editor = createEditorTester();

afterEach(async () => {
    await editor.clear();
});

const catalog = usersCatalog();
const pipeline = usersCdcPipeline;

/** The items proposed at the `<|>` of a scratch file (beside the libraries) holding this text. */
async function inScratch(text: string): Promise<CompletionItem[]> {
    return editor.completion({ ...pipeline, 'scratch.sql': text }, { catalog, spec: { includes: ['transformations/**'] } });
}

/** The column items (name · where from) proposed at the cursor. */
async function columns(text: string): Promise<string[]> {
    return (await inScratch(text)).filter(i => i.kind === 5).map(i => `${String(i.label)} · ${i.detail?.split(' · ')[1] ?? ''}`);
}

const merge = 'MERGE INTO users_current t USING users_changes s ON t.user_id = s.user_id\n';

describe('the columns a statement assigns: the target\'s, less those already listed', () => {
    test('UPDATE t SET |, after a first assignment, and after the alias', async () => {
        expect(await columns('UPDATE users_current SET <|>')).toEqual(['user_id · users_current', 'name · users_current', 'city · users_current']);
        expect(labels(await inScratch('UPDATE users_current SET name = 1, <|>'))).toEqual(['user_id', 'city']);
        expect(labels(await inScratch('UPDATE users_current u SET u.<|>'))).toEqual(['user_id', 'name', 'city']);
    });

    test('INSERT INTO t (|: the target\'s columns (an SCD2 target\'s __START_AT and __END_AT too) besides a query', async () => {
        expect(await columns('INSERT INTO users_history (user_id, <|>')).toEqual(['name · users_history', 'city · users_history', '__START_AT · users_history', '__END_AT · users_history']);
        expect(labels(await inScratch('INSERT INTO users_history (<|>'))).toEqual(expect.arrayContaining(['user_id', '__START_AT', 'SELECT', 'VALUES']));
    });

    test('MERGE: UPDATE SET | and INSERT (| name target columns', async () => {
        expect(labels(await inScratch(`${merge}WHEN MATCHED THEN UPDATE SET <|>`))).toEqual(['user_id', 'name', 'city']);
        expect(labels(await inScratch(`${merge}WHEN NOT MATCHED THEN INSERT (user_id, <|>`))).toEqual(['name', 'city']);
    });
});

describe('expressions inside DML see what the statement lets them see', () => {
    test('UPDATE and DELETE: WHERE and the assigned value offer the target\'s columns and functions', async () => {
        for (const text of ["UPDATE users_current SET name = 'x' WHERE <|>", 'UPDATE users_current SET name = <|>', 'DELETE FROM users_current WHERE <|>']) {
            const items = labels(await inScratch(text));
            expect(items.slice(0, 3), text).toEqual(['user_id', 'name', 'city']);
            expect(items, text).toContain('upper');
            expect(items, text).not.toContain('operation');
        }
    });

    test('MERGE: ON and WHEN MATCHED see both sides, WHEN NOT MATCHED the source only, BY SOURCE the target only', async () => {
        const both = ['user_id · users_current AS t', 'name · users_current AS t', 'city · users_current AS t',
            'user_id · users_changes AS s', 'name · users_changes AS s', 'city · users_changes AS s', 'operation · users_changes AS s', 'seq · users_changes AS s'];
        const cols = async (text: string): Promise<string[]> => (await columns(text)).filter(c => !c.startsWith('_metadata'));
        expect(await cols('MERGE INTO users_current t USING users_changes s ON <|>')).toEqual(both);
        expect(await cols(`${merge}WHEN MATCHED AND <|>`)).toEqual(both);
        expect(await cols(`${merge}WHEN NOT MATCHED THEN INSERT (user_id) VALUES (<|>`)).toEqual(both.slice(3));
        expect(await cols(`${merge}WHEN NOT MATCHED BY SOURCE THEN UPDATE SET name = <|>`)).toEqual(both.slice(0, 3));
    });

    test('the targets of UPDATE, DELETE and MERGE are the pipeline\'s datasets', async () => {
        expect(labels(await inScratch('DELETE FROM <|>'))).toEqual(['users_changes', 'users_current', 'users_history']);
    });
});
