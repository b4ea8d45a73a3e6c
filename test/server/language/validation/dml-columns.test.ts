// Columns inside DML of a scratch file (issue 12): the columns a statement assigns are the target's,
// and MERGE's clauses see what Spark lets them see.
import { afterEach, describe, expect, test } from 'vitest';
import { createPipelineTester } from '../../../helpers/pipeline.js';
import { usersCatalog, usersCdcPipeline } from '../../../helpers/users-cdc-pipeline.js';

const tester = createPipelineTester();

afterEach(async () => {
    await tester.clear();
});

const catalog = usersCatalog('address STRUCT<zip: STRING, street: STRING>');

const pipeline = usersCdcPipeline;

/** The diagnostics of a scratch file (beside the libraries) holding these statements. */
async function scratch(...statements: string[]): Promise<string[]> {
    const loaded = await tester.load({ ...pipeline, 'scratch.sql': statements.join('\n') },
        { catalog, spec: { includes: ['transformations/**'] } });
    expect(loaded.all().filter(d => !d.startsWith('scratch.sql')), 'the pipeline itself is clean').toEqual([]);
    expect(tester.services.pipeline.Registry.membershipOf(loaded.documents.get('scratch.sql')!.uri).role).toBe('scratch');
    return loaded.diagnostics('scratch.sql');
}

describe('assigned columns are the target\'s', () => {
    test('UPDATE … SET: a misspelt column is reported with the closest name; qualified and struct paths resolve', async () => {
        expect(await scratch(
            "UPDATE users_current SET nmae = 'Ada' WHERE user_id = 1;",
            "UPDATE users_current u SET u.city = 'Paris', address.zip = '75001', u.address.street = 'Rue' WHERE u.user_id = 1;",
            "UPDATE users_current u SET u.citty = 'Paris';",
        )).toEqual([
            "[1:26..1:30] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'nmae' does not exist in 'users_current' (user_id, name, city, address). Did you mean 'name'?",
            "[3:28..3:35] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'citty' does not exist in 'u' (user_id, name, city, address). Did you mean 'city'?",
        ]);
    });

    test('INSERT INTO t (cols): each listed column must be the target\'s (an SCD2 target has __START_AT and __END_AT)', async () => {
        expect(await scratch(
            "INSERT INTO users_history (user_id, name, city, address, __START_AT, __END_AT) VALUES (123, 'John Doe', 'Oslo', NULL, 5, NULL);",
            "INSERT INTO users_history (user_id, name, __START, __END_AT) VALUES (123, 'John Doe', 5, NULL);",
        )).toEqual([
            "[2:43..2:50] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column '__START' does not exist in 'users_history' (user_id, name, city, address, __START_AT, __END_AT). Did you mean '__START_AT'?",
        ]);
    });

    test('MERGE: UPDATE SET and INSERT (cols) name target columns', async () => {
        expect(await scratch(
            'MERGE INTO users_current t USING (SELECT 3 AS user_id, \'Bo\' AS name) s ON t.user_id = s.user_id',
            '  WHEN MATCHED THEN UPDATE SET t.nam = s.name',
            '  WHEN NOT MATCHED THEN INSERT (user_id, nme) VALUES (s.user_id, s.name);',
        )).toEqual([
            "[2:32..2:37] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'nam' does not exist in 't' (user_id, name, city, address). Did you mean 'name'?",
            "[3:42..3:45] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'nme' does not exist in 't' (user_id, name, city, address). Did you mean 'name'?",
        ]);
    });
});

describe('MERGE clauses see what Spark lets them see', () => {
    const head = "MERGE INTO users_current t USING (SELECT 3 AS user_id, 'Bo' AS nick) s ON t.user_id = s.user_id AND t.name <> s.nick";

    test('ON and WHEN MATCHED: the target and the source', async () => {
        expect(await scratch(head, '  WHEN MATCHED AND t.city IS NULL AND s.nick IS NOT NULL THEN UPDATE SET name = concat(t.name, s.nick)',
            '  WHEN MATCHED AND city = \'x\' THEN DELETE;')).toEqual([]);
    });

    test('WHEN NOT MATCHED [BY TARGET]: only the source (there is no target row)', async () => {
        expect(await scratch(head,
            '  WHEN NOT MATCHED AND s.nick IS NOT NULL THEN INSERT (user_id, name) VALUES (s.user_id, t.name)',
            '  WHEN NOT MATCHED BY TARGET AND city IS NULL THEN INSERT (user_id, name) VALUES (user_id, nick);',
        )).toEqual([
            "[2:90..2:96] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 't.name' does not exist in 's' (user_id, nick): WHEN NOT MATCHED sees only the source.",
            "[3:34..3:38] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'city' does not exist in 's' (user_id, nick): WHEN NOT MATCHED sees only the source.",
        ]);
    });

    test('WHEN NOT MATCHED BY SOURCE: only the target (there is no source row)', async () => {
        expect(await scratch(head,
            '  WHEN NOT MATCHED BY SOURCE AND t.city IS NULL THEN UPDATE SET name = s.nick',
            '  WHEN NOT MATCHED BY SOURCE AND nick IS NULL THEN DELETE;',
        )).toEqual([
            "[2:72..2:78] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 's.nick' does not exist in 't' (user_id, name, city, address): WHEN NOT MATCHED BY SOURCE sees only the target.",
            "[3:34..3:38] error UNRESOLVED_COLUMN.WITH_SUGGESTION Column 'nick' does not exist in 't' (user_id, name, city, address): WHEN NOT MATCHED BY SOURCE sees only the target.",
        ]);
    });
});
