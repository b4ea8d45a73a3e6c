import { clearDocuments, expectGoToDefinition } from 'langium/test';
import { afterEach, describe, expect, test } from 'vitest';
import type { Location, LocationLink, Range, WorkspaceEdit } from 'vscode-languageserver';
import { createTestServices } from '../../../helpers/parse.js';
import { createEditorTester, type EditorPipeline } from './editor-helpers.js';

const { shared, services } = createTestServices();
const goToDefinition = expectGoToDefinition(services);
const editor = createEditorTester();

afterEach(async () => {
    await clearDocuments(shared);
    await editor.clear();
});

const catalog = 'CREATE TABLE cdc_data.users (user_id INT, name STRING, city STRING, operation STRING, event_ts TIMESTAMP);';
const files = {
    'transformations/01_bronze.sql': 'CREATE OR REFRESH STREAMING TABLE users_changes\nAS SELECT user_id, trim(name) AS name, city, operation, event_ts\n'
        + 'FROM STREAM(cdc_data.users);',
    'transformations/02_current.sql': 'CREATE OR REFRESH STREAMING TABLE users_current;\n\nCREATE FLOW users_current_cdc AS AUTO CDC INTO users_current\n'
        + 'FROM STREAM(LIVE.users_changes)\nKEYS (user_id)\nSEQUENCE BY event_ts\nCOLUMNS * EXCEPT (operation)\nSTORED AS SCD TYPE 1;',
    'transformations/03_by_city.sql': 'CREATE OR REFRESH MATERIALIZED VIEW users_by_city AS\nSELECT c.city, count(*) AS users\nFROM users_current AS c\n'
        + 'JOIN users_changes AS ch ON ch.user_id = c.user_id\nGROUP BY c.city;',
};

/** `file:line:col-line:col` (1-based) for a location in the test pipeline. */
function printRange(uri: string, range: Range): string {
    const file = uri.split('/').pop();
    return `${file}:${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1}`;
}

/** Loads the pipeline with the cursor marked in one of its files (replacing that file). */
async function openAt(file: keyof typeof files, marked: string): Promise<EditorPipeline> {
    return editor.open({ ...files, [file]: marked }, { catalog });
}

function position(pipeline: EditorPipeline, index = 0): { textDocument: { uri: string }; position: { line: number; character: number } } {
    return { textDocument: { uri: pipeline.document.uri.toString() }, position: pipeline.document.textDocument.positionAt(pipeline.offsets[index]) };
}

async function definition(file: keyof typeof files, marked: string): Promise<string[]> {
    const pipeline = await openAt(file, marked);
    const links = await editor.services.lsp.DefinitionProvider!.getDefinition(pipeline.document, position(pipeline)) as LocationLink[] | undefined;
    return (links ?? []).map(l => printRange(l.targetUri, l.targetSelectionRange));
}

async function references(file: keyof typeof files, marked: string, includeDeclaration = true): Promise<string[]> {
    const pipeline = await openAt(file, marked);
    const locations: Location[] = await editor.services.lsp.ReferencesProvider!.findReferences(pipeline.document, { ...position(pipeline), context: { includeDeclaration } });
    return locations.map(l => printRange(l.uri, l.range)).sort();
}

function printEdit(edit: WorkspaceEdit | undefined): string[] {
    return Object.entries(edit?.changes ?? {}).flatMap(([uri, edits]) => edits.map(e => `${printRange(uri, e.range)} ${e.newText}`)).sort();
}

describe('go to definition', () => {
    test('a dataset read in another file, also through LIVE. and as a flow target', async () => {
        expect(await definition('transformations/03_by_city.sql', files['transformations/03_by_city.sql'].replace('FROM users_current', 'FROM users_cur<|>rent')))
            .toEqual(['02_current.sql:1:35-1:48']);
        expect(await definition('transformations/02_current.sql', files['transformations/02_current.sql'].replace('LIVE.users_changes', 'LIVE.users_ch<|>anges')))
            .toEqual(['01_bronze.sql:1:35-1:48']);
        expect(await definition('transformations/02_current.sql', files['transformations/02_current.sql'].replace('INTO users_current', 'INTO users_c<|>urrent')))
            .toEqual(['02_current.sql:1:35-1:48']);
    });

    test('a sample catalog table: its declaration in samples/catalog.sql', async () => {
        expect(await definition('transformations/01_bronze.sql', files['transformations/01_bronze.sql'].replace('cdc_data.users', 'cdc_data.us<|>ers')))
            .toEqual(['catalog.sql:1:23-1:28']);
    });

    test('a CTE (one file, with the Langium helper)', async () => {
        await goToDefinition({ text: 'WITH <|recent|> AS (SELECT 1 AS x) SELECT x FROM rec<|>ent', index: 0, rangeIndex: 0, disposeAfterCheck: true });
    });

    test('a table alias and a column through it', async () => {
        const query = files['transformations/03_by_city.sql'];
        expect(await definition('transformations/03_by_city.sql', query.replace('SELECT c.city', 'SELECT <|>c.city'))).toEqual(['03_by_city.sql:3:23-3:24']);
        // city of users_current comes, through AUTO CDC, from the bronze table's select list.
        expect(await definition('transformations/03_by_city.sql', query.replace('SELECT c.city', 'SELECT c.ci<|>ty'))).toEqual(['01_bronze.sql:2:40-2:44']);
        expect(await definition('transformations/03_by_city.sql', query.replace('ch.user_id', 'ch.user<|>_id'))).toEqual(['01_bronze.sql:2:11-2:18']);
    });

    test('a column named in KEYS and SEQUENCE BY: the source column', async () => {
        const flow = files['transformations/02_current.sql'];
        expect(await definition('transformations/02_current.sql', flow.replace('KEYS (user_id)', 'KEYS (user<|>_id)'))).toEqual(['01_bronze.sql:2:11-2:18']);
        expect(await definition('transformations/02_current.sql', flow.replace('SEQUENCE BY event_ts', 'SEQUENCE BY event<|>_ts'))).toEqual(['01_bronze.sql:2:57-2:65']);
    });

    test('an output alias used in ORDER BY', async () => {
        expect(await definition('transformations/03_by_city.sql', 'CREATE MATERIALIZED VIEW m AS SELECT city, count(*) AS users FROM users_current GROUP BY city ORDER BY use<|>rs'))
            .toEqual(['03_by_city.sql:1:56-1:61']);
    });
});

describe('find references', () => {
    test('a dataset: its declaration and every reference in every file of the pipeline (the last part of LIVE.x)', async () => {
        expect(await references('transformations/01_bronze.sql', files['transformations/01_bronze.sql'].replace('TABLE users_changes', 'TABLE users_ch<|>anges')))
            .toEqual(['01_bronze.sql:1:35-1:48', '02_current.sql:4:18-4:31', '03_by_city.sql:4:6-4:19']);
        expect(await references('transformations/01_bronze.sql', files['transformations/01_bronze.sql'].replace('TABLE users_changes', 'TABLE users_ch<|>anges'), false))
            .toEqual(['02_current.sql:4:18-4:31', '03_by_city.sql:4:6-4:19']);
    });

    test('a column across files: its select item, the names that resolve to it and the source column it passes on', async () => {
        expect(await references('transformations/01_bronze.sql', files['transformations/01_bronze.sql'].replace('AS name', 'AS na<|>me').replace('SELECT user_id', 'SELECT user_id')))
            .toEqual(['01_bronze.sql:2:34-2:38']);
        expect(await references('transformations/01_bronze.sql', files['transformations/01_bronze.sql'].replace('SELECT user_id', 'SELECT user<|>_id')))
            .toEqual([
                '01_bronze.sql:2:11-2:18', '02_current.sql:5:7-5:14', '03_by_city.sql:4:32-4:39', '03_by_city.sql:4:44-4:51',
                // The bronze select item also reads the sample table's column.
                'catalog.sql:1:30-1:37',
            ]);
    });

    test('a table alias: the declaration and its qualified uses', async () => {
        expect(await references('transformations/03_by_city.sql', files['transformations/03_by_city.sql'].replace('AS c\n', 'AS <|>c\n')))
            .toEqual(['03_by_city.sql:2:8-2:9', '03_by_city.sql:3:23-3:24', '03_by_city.sql:4:42-4:43', '03_by_city.sql:5:10-5:11']);
    });
});

describe('document highlights', () => {
    test('a CTE: declaration (write) and references (read) in the file', async () => {
        const pipeline = await openAt('transformations/03_by_city.sql', 'CREATE MATERIALIZED VIEW m AS WITH r<|>ecent AS (SELECT 1 AS x) SELECT * FROM recent JOIN recent AS again USING (x)');
        const highlights = await editor.services.lsp.DocumentHighlightProvider!.getDocumentHighlight(pipeline.document, position(pipeline));
        expect(highlights?.map(h => `${printRange('f', h.range)} ${h.kind === 3 ? 'write' : 'read'}`)).toEqual(['f:1:36-1:42 write', 'f:1:76-1:82 read', 'f:1:88-1:94 read']);
    });
});

describe('rename', () => {
    test('a dataset: its declaration and every reference, keeping the LIVE. qualifier', async () => {
        const pipeline = await openAt('transformations/02_current.sql', files['transformations/02_current.sql'].replace('LIVE.users_changes', 'LIVE.users_ch<|>anges'));
        const range = await editor.services.lsp.RenameProvider!.prepareRename(pipeline.document, position(pipeline));
        expect(range && printRange('02_current.sql', range)).toBe('02_current.sql:4:18-4:31');
        const edit = await editor.services.lsp.RenameProvider!.rename(pipeline.document, { ...position(pipeline), newName: 'user_events' });
        expect(printEdit(edit)).toEqual(['01_bronze.sql:1:35-1:48 user_events', '02_current.sql:4:18-4:31 user_events', '03_by_city.sql:4:6-4:19 user_events']);
    });

    test('a CTE in its query only; a name that needs quoting is quoted', async () => {
        const pipeline = await openAt('transformations/03_by_city.sql', 'CREATE MATERIALIZED VIEW m AS WITH recent AS (SELECT 1 AS x) SELECT * FROM rec<|>ent');
        const edit = await editor.services.lsp.RenameProvider!.rename(pipeline.document, { ...position(pipeline), newName: 'last week' });
        expect(printEdit(edit)).toEqual(['03_by_city.sql:1:36-1:42 `last week`', '03_by_city.sql:1:76-1:82 `last week`']);
    });

    test('a name another dataset already has, and something that is no dataset, are refused with a reason', async () => {
        const pipeline = await openAt('transformations/03_by_city.sql', files['transformations/03_by_city.sql'].replace('FROM users_current', 'FROM users_cur<|>rent'));
        await expect(editor.services.lsp.RenameProvider!.rename(pipeline.document, { ...position(pipeline), newName: 'USERS_CHANGES' }))
            .rejects.toThrow('A dataset named \'USERS_CHANGES\' already exists in this pipeline (01_bronze.sql).');
        const column = await openAt('transformations/03_by_city.sql', files['transformations/03_by_city.sql'].replace('c.city,', 'c.ci<|>ty,'));
        await expect(editor.services.lsp.RenameProvider!.prepareRename(column.document, position(column)))
            .rejects.toThrow('Only datasets and common table expressions can be renamed');
    });
});
