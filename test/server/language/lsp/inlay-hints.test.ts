import { afterEach, describe, expect, test } from 'vitest';
import type { InlayHint } from 'vscode-languageserver';
import { createEditorTester } from './editor-helpers.js';

const editor = createEditorTester();
const configuration = editor.shared.workspace.ConfigurationProvider;

afterEach(async () => {
    configuration.updateConfiguration({ settings: { pipelineSql: { inlayHints: { columnTypes: false } } } });
    await editor.clear();
});

const catalog = 'CREATE TABLE cdc_data.users (user_id INT, name STRING, city STRING, operation STRING, event_ts TIMESTAMP);';
const files = {
    'transformations/01_bronze.sql': 'CREATE OR REFRESH STREAMING TABLE users_changes AS\nSELECT upper(name) AS name_upper, *, 1 AS one\nFROM STREAM(cdc_data.users);',
    'transformations/02_current.sql': 'CREATE OR REFRESH STREAMING TABLE users_current;\nCREATE FLOW users_current_cdc AS AUTO CDC INTO users_current\n'
        + 'FROM STREAM(users_changes) KEYS (user_id) SEQUENCE BY event_ts COLUMNS * EXCEPT (operation) STORED AS SCD TYPE 2;',
};

/** The hints of a file, printed as `line:col label`. */
async function hints(file: keyof typeof files): Promise<string[]> {
    const pipeline = await editor.load(files, { catalog });
    const document = pipeline.documents.get(file)!;
    const result: InlayHint[] = await editor.services.lsp.InlayHintProvider!.getInlayHints(document, {
        textDocument: { uri: document.uri.toString() },
        range: { start: { line: 0, character: 0 }, end: document.textDocument.positionAt(document.textDocument.getText().length) },
    }) ?? [];
    return result.map(h => `${h.position.line + 1}:${h.position.character + 1} ${String(h.label)}`);
}

describe('inlay hints with the inferred column types of dataset outputs', () => {
    test('off by default', async () => {
        expect(await hints('transformations/01_bronze.sql')).toEqual([]);
    });

    test('after each select item of a dataset query, and after * the columns it stands for', async () => {
        configuration.updateConfiguration({ settings: { pipelineSql: { inlayHints: { columnTypes: true } } } });
        expect(await hints('transformations/01_bronze.sql')).toEqual([
            '2:33 : string', '2:36 : user_id int, name string, city string, operation string, …', '2:46 : int',
        ]);
    });

    test('after the name of a streaming table written by an AUTO CDC flow: its inferred schema', async () => {
        configuration.updateConfiguration({ settings: { pipelineSql: { inlayHints: { columnTypes: true } } } });
        expect(await hints('transformations/02_current.sql')).toEqual(['1:48 : name_upper string, user_id int, name string, city string, …']);
    });

    test('turning the setting off again removes them', async () => {
        configuration.updateConfiguration({ settings: { pipelineSql: { inlayHints: { columnTypes: true } } } });
        configuration.updateConfiguration({ settings: { pipelineSql: { inlayHints: { columnTypes: false } } } });
        expect(await hints('transformations/01_bronze.sql')).toEqual([]);
    });
});

describe('inlay hint tooltips', () => {
    test('the column list tooltip shows hostile column names as text', async () => {
        configuration.updateConfiguration({ settings: { pipelineSql: { inlayHints: { columnTypes: true } } } });
        const pipeline = await editor.load({ 'a.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM VALUES (1) AS t(`![i](https://evil.example/i.png) [l](https://evil.example)`);' });
        const document = pipeline.documents.get('a.sql')!;
        const result: InlayHint[] = await editor.services.lsp.InlayHintProvider!.getInlayHints(document, {
            textDocument: { uri: document.uri.toString() },
            range: { start: { line: 0, character: 0 }, end: document.textDocument.positionAt(document.textDocument.getText().length) },
        }) ?? [];
        const tooltips = result.map(h => (typeof h.tooltip === 'object' ? h.tooltip.value : String(h.tooltip)));
        expect(tooltips).toEqual(['- \\!\\[i\\]\\(https\\:\\/\\/evil\\.example\\/i\\.png\\) \\[l\\]\\(https\\:\\/\\/evil\\.example\\) int']);
    });
});
