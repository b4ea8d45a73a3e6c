import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments, parseHelper } from 'langium/test';
import type { CodeLens } from 'vscode-languageserver';
import type { AST } from '../../../server/src/language/index.js';
import { URI } from 'langium';
import { PipelineSqlCodeLensProvider } from '../../../server/src/language/lsp/pipeline-sql-code-lens-provider.js';
import { createTestServices } from '../../helpers/parse.js';

const { shared, services } = createTestServices();
const parse = parseHelper<AST.PipelineFile>(services);
const provider = new PipelineSqlCodeLensProvider(services);

afterEach(() => clearDocuments(shared));

/** Each lens as `line: title → dataset`. */
function print(lenses: CodeLens[]): string[] {
    return lenses.map(l => `${l.range.start.line}: ${l.command?.title} ${l.command?.command} ${JSON.stringify((l.command?.arguments?.[0] as { dataset?: string }).dataset ?? null)}`);
}

describe('code lenses', () => {
    test('"Run flow", "Run pipeline" and "Full refresh" above every dataset and flow', async () => {
        const document = await parse([
            'SET pipelines.x = 1;',
            'CREATE OR REFRESH STREAMING TABLE users_history;',
            '',
            '-- the flow',
            'CREATE FLOW users_history_cdc AS AUTO CDC INTO users_history',
            'FROM STREAM(users_changes) KEYS (id) SEQUENCE BY ts STORED AS SCD TYPE 2;',
            'CREATE MATERIALIZED VIEW by_city AS SELECT city, count(*) AS n FROM users_history GROUP BY city;',
            'APPLY CHANGES INTO legacy FROM STREAM(src) KEYS (id) SEQUENCE BY ts;',
            'SELECT 1;',
        ].join('\n'));
        const lenses = await provider.provideCodeLens(document, { textDocument: { uri: document.uri.toString() } });
        expect(print(lenses)).toEqual([
            '1: $(play) Run flow pipelineSql.runFlow "users_history"',
            '1: Run pipeline pipelineSql.runPipeline null',
            '1: Full refresh pipelineSql.fullRefresh "users_history"',
            '4: $(play) Run flow pipelineSql.runFlow "users_history"',
            '4: Run pipeline pipelineSql.runPipeline null',
            '4: Full refresh pipelineSql.fullRefresh "users_history"',
            '6: $(play) Run flow pipelineSql.runFlow "by_city"',
            '6: Run pipeline pipelineSql.runPipeline null',
            '6: Full refresh pipelineSql.fullRefresh "by_city"',
            '7: $(play) Run flow pipelineSql.runFlow "legacy"',
            '7: Run pipeline pipelineSql.runPipeline null',
            '7: Full refresh pipelineSql.fullRefresh "legacy"',
        ]);
        expect(lenses[0].command?.arguments?.[0]).toEqual({ uri: document.uri.toString(), dataset: 'users_history' });
    });

    test('a file of only settings and queries has no lenses', async () => {
        const document = await parse('SET a = 1;\nSELECT 1;');
        expect(await provider.provideCodeLens(document, { textDocument: { uri: document.uri.toString() } })).toEqual([]);
    });

    test('sample catalog declarations (samples/*.sql of a pipeline root) get no lenses', async () => {
        services.pipeline.Registry.addRoot('/virtual/lenses', { includes: [] });
        const text = 'CREATE TABLE cdc.users (id INT) USING JSON LOCATION \'cdc/users\';';
        const catalog = await parse(text, { documentUri: URI.file('/virtual/lenses/samples/catalog.sql').toString() });
        expect(await provider.provideCodeLens(catalog, { textDocument: { uri: catalog.uri.toString() } })).toEqual([]);
        const source = await parse(text, { documentUri: URI.file('/virtual/lenses/transformations/t.sql').toString() });
        expect(print(await provider.provideCodeLens(source, { textDocument: { uri: source.uri.toString() } }))[0]).toBe('0: $(play) Run flow pipelineSql.runFlow "cdc.users"');
    });
});
