import { clearDocuments, expectSymbols, parseHelper } from 'langium/test';
import { afterEach, describe, expect, test } from 'vitest';
import type { DocumentSymbol, FoldingRange } from 'vscode-languageserver';
import { SymbolKind } from 'vscode-languageserver';
import { createTestServices } from '../../../helpers/parse.js';
import { createEditorTester } from './editor-helpers.js';

const { shared, services } = createTestServices();
const symbols = expectSymbols(services);
const parse = parseHelper(services);
const editor = createEditorTester();

afterEach(async () => {
    await clearDocuments(shared);
    await editor.clear();
});

/** Names of the symbol kinds used in outlines. */
const kindNames: Record<number, string> = {
    [SymbolKind.Class]: 'Class', [SymbolKind.Struct]: 'Struct', [SymbolKind.Interface]: 'Interface', [SymbolKind.Field]: 'Field',
    [SymbolKind.Event]: 'Event', [SymbolKind.Function]: 'Function', [SymbolKind.Module]: 'Module', [SymbolKind.Property]: 'Property',
    [SymbolKind.Namespace]: 'Namespace',
};

/** A symbol and its children as `name (kind: detail)`, children indented. */
function printSymbol(symbol: DocumentSymbol, depth = 0): string {
    const line = `${'  '.repeat(depth)}${symbol.name} (${kindNames[symbol.kind]}${symbol.detail ? `: ${symbol.detail}` : ''})`;
    return [line, ...(symbol.children ?? []).map(c => printSymbol(c, depth + 1))].join('\n');
}

const pipelineFile = `-- Users
CREATE OR REFRESH STREAMING TABLE users_changes (
  CONSTRAINT known_operation EXPECT (operation IN ('INSERT', 'DELETE')) ON VIOLATION DROP ROW,
  CONSTRAINT has_email EXPECT (email IS NOT NULL)
)
AS SELECT user_id, lower(email) AS email, operation, event_ts FROM STREAM(cdc_data.users);

CREATE OR REFRESH STREAMING TABLE users_current (user_id INT, email STRING);

CREATE FLOW users_current_cdc AS AUTO CDC INTO users_current
FROM STREAM(users_changes) KEYS (user_id) SEQUENCE BY event_ts STORED AS SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE users_history FLOW AUTO CDC FROM STREAM(users_changes) KEYS (user_id) SEQUENCE BY event_ts STORED AS SCD TYPE 2;

CREATE MATERIALIZED VIEW by_domain AS
WITH domains AS (SELECT split_part(email, '@', 2) AS domain FROM users_current)
SELECT domain, count(*) AS users FROM domains GROUP BY domain;

SET pipelines.trigger.interval = '1 hour';
`;

describe('document symbols', () => {
    test('an outline by dataset and flow, with columns, expectations, CTEs and inline flows', async () => {
        await symbols({
            text: pipelineFile,
            symbolToString: s => printSymbol(s),
            expectedSymbols: [
                [
                    'users_changes (Class: streaming table)',
                    '  user_id (Field)', '  email (Field)', '  operation (Field)', '  event_ts (Field)',
                    '  known_operation (Event: expectation (drop row))', '  has_email (Event: expectation (warn))',
                ].join('\n'),
                'users_current (Class: streaming table)\n  user_id (Field: INT)\n  email (Field: STRING)',
                'users_current_cdc (Function: AUTO CDC (SCD type 1) into users_current)',
                'users_history (Class: streaming table)\n  FLOW (Function: AUTO CDC (SCD type 2))',
                'by_domain (Struct: materialized view)\n  domain (Field)\n  users (Field)\n  domains (Module: common table expression)',
                'pipelines.trigger.interval (Property: 1 hour)',
            ],
            disposeAfterCheck: true,
        });
    });

    test('the selection range of a dataset is its name', async () => {
        const document = await parse('CREATE MATERIALIZED VIEW m AS SELECT 1 AS x');
        const [symbol] = await services.lsp.DocumentSymbolProvider!.getSymbols(document, { textDocument: { uri: document.uri.toString() } });
        expect(symbol.selectionRange).toEqual({ start: { line: 0, character: 25 }, end: { line: 0, character: 26 } });
        expect(symbol.range.end.character).toBe(43);
    });
});

describe('workspace symbols', () => {
    test('datasets and flows of every file, filtered by the query, with the pipeline as container', async () => {
        await editor.load({
            'transformations/a.sql': 'CREATE STREAMING TABLE users_current;\nCREATE FLOW users_current_cdc AS AUTO CDC INTO users_current FROM s KEYS (id) SEQUENCE BY ts;',
            'transformations/b.sql': 'CREATE MATERIALIZED VIEW orders_daily AS SELECT 1 AS n;',
        }, { spec: { name: 'shop' } });
        const found = await shared.lsp.WorkspaceSymbolProvider!.getSymbols({ query: 'users' });
        const editorFound = await editor.shared.lsp.WorkspaceSymbolProvider!.getSymbols({ query: 'users' });
        expect(found).toEqual([]);
        expect(editorFound.map(s => `${s.name} ${kindNames[s.kind]} ${s.containerName} ${'range' in s.location ? s.location.range.start.line + 1 : ''}`))
            .toEqual(['users_current Class shop 1', 'users_current_cdc Function shop 2']);
        expect((await editor.shared.lsp.WorkspaceSymbolProvider!.getSymbols({ query: 'odaily' })).map(s => s.name)).toEqual(['orders_daily']);
    });
});

describe('folding ranges', () => {
    async function folds(text: string): Promise<string[]> {
        const document = await parse(text);
        const ranges: FoldingRange[] = await services.lsp.FoldingRangeProvider!.getFoldingRanges(document, { textDocument: { uri: document.uri.toString() } });
        return ranges.map(r => `${r.startLine + 1}-${r.endLine + 1}${r.kind ? ` ${r.kind}` : ''}`);
    }

    test('statements, the column list, a CTE and a subquery', async () => {
        // The two-line CREATE FLOW is too short to fold.
        expect(await folds(pipelineFile)).toEqual(['2-6', '2-4', '15-17']);
        expect(await folds('SELECT *\nFROM (\n  SELECT a\n  FROM t\n  WHERE a > 1\n) AS s\nWHERE EXISTS (\n  SELECT 1\n  FROM u\n)'))
            .toEqual(['1-10', '2-5', '7-9']);
    });

    test('notebook cells and blocks of comment lines', async () => {
        const notebook = '-- Databricks notebook source\n-- MAGIC %md\n-- MAGIC # Users\n\n-- COMMAND ----------\n\nCREATE MATERIALIZED VIEW a AS\nSELECT 1 AS x\nFROM t;\n\n-- COMMAND ----------\n\nSELECT 2;\n';
        expect(await folds(notebook)).toEqual(['1-3 comment', '1-3 region', '5-9 region', '7-9', '11-13 region']);
    });
});
