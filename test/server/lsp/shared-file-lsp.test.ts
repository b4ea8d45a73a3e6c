// A file listed by two pipelines of a bundle is checked in both, in the editor as in `check`: the
// server publishes on the file what each pipeline finds there (naming the pipeline where only some
// do), an edit in either pipeline updates it, and locations into it name the file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    CompletionRequest, DefinitionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, HoverRequest, ReferencesRequest, RenameRequest,
    type CompletionItem, type CompletionList, type Diagnostic, type Hover, type Location, type LocationLink, type MarkupContent, type TextEdit, type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node.js';
import { DocumentPipelineRequest, PipelineGraphRequest } from '../../../common/protocol.js';
import { definitionChoices } from '../../../client/src/pipeline-status-text.js';
import { checkPaths } from '../../../server/src/cli/check.js';
import { mergeSharedCompletions, mergeSharedHovers, mergeWorkspaceEdits } from '../../../server/src/language/lsp/pipeline-sql-shared-files.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

const fixture = path.join(repoRoot, 'test/fixtures/bundles/twins');
let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;
const shown = (diagnostics: Diagnostic[]): string[] =>
    diagnostics.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message} [${d.source}]`);

beforeAll(async () => {
    // A copy whose us pipeline's orders have no currency column, which the shared report reads.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-twins-'));
    fs.cpSync(fixture, dir, { recursive: true });
    fs.writeFileSync(file('src/us/orders.sql'), 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 10.0 AS amount;\n');
    // A reader of the shared report in the eu pipeline too.
    fs.writeFileSync(file('src/eu/digest.sql'), 'CREATE MATERIALIZED VIEW eu_digest AS SELECT count(*) AS n FROM report;\n');
    server = await startStdioServer(dir);
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

describe('a file two pipelines list', () => {
    test('check reports it in each pipeline, with that pipeline\'s datasets', async () => {
        expect(await checkPaths([fixture])).toEqual([]);
        const diagnostics = await checkPaths([dir]);
        expect(diagnostics.map(d => `${d.pipeline} ${path.relative(dir, path.resolve(d.file))}:${d.line}:${d.column} ${d.code}`)).toEqual([
            'us src/common/report.sql:3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION',
        ]);
        // Given alone, it is checked in both pipelines too.
        const alone = await checkPaths([file('src/common/report.sql')]);
        expect(alone.map(d => `${d.pipeline} ${d.line}:${d.column} ${d.code}`)).toEqual(['us 3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION']);
    });

    test('the editor shows what one pipeline finds in it, naming that pipeline, once', async () => {
        const published = await server.settled(uri('src/common/report.sql'), p => p.diagnostics.length > 0);
        expect(shown(published.diagnostics)).toEqual([
            '3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'currency\' does not exist in \'orders\' (id, amount). [pipeline-sql (pipeline us)]',
        ]);
        // Only the file itself: the pipelines' documents of it are never published under URIs of their own.
        expect([...server.publishedUris].filter(u => u.includes('report.sql'))).toEqual([uri('src/common/report.sql')]);
    });

    test('go to definition and references from the other pipeline land on the file', async () => {
        const summary = fs.readFileSync(file('src/us/summary.sql'), 'utf8');
        const line = summary.split('\n').findIndex(l => l.includes('FROM report'));
        const character = summary.split('\n')[line].lastIndexOf('report') + 2;
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: uri('src/us/summary.sql'), languageId: 'pipeline-sql', version: 1, text: summary },
        });
        const definition = await server.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uri('src/us/summary.sql') }, position: { line, character } }) as LocationLink[];
        expect(definition.map(d => `${d.targetUri}:${d.targetSelectionRange.start.line + 1}`)).toEqual([`${uri('src/common/report.sql')}:2`]);
        const references = await server.connection.sendRequest(ReferencesRequest.type, {
            textDocument: { uri: uri('src/us/summary.sql') }, position: { line, character }, context: { includeDeclaration: true },
        }) as Location[];
        expect(references.map(r => `${path.relative(dir, new URL(r.uri).pathname)}:${r.range.start.line + 1}`).sort()).toEqual([
            'src/common/report.sql:2', 'src/us/summary.sql:3',
        ]);
        const graph = await server.connection.sendRequest(PipelineGraphRequest, { uri: uri('src/us/summary.sql') });
        // The dataset and its flow, both on the file.
        expect([...new Set(graph.nodes.filter(n => n.name === 'report').map(n => n.uri))]).toEqual([uri('src/common/report.sql')]);
    });

    test('the status item\'s click offers each pipeline\'s definition, at its key in the resource file', async () => {
        const info = await server.connection.sendRequest(DocumentPipelineRequest, { uri: uri('src/common/report.sql') });
        const resources = fs.readFileSync(file('resources/twins.pipeline.yml'), 'utf8').split('\n');
        expect(definitionChoices(info).map(c => `${c.label} ${path.relative(dir, new URL(c.uri).pathname)}:${c.line + 1}`)).toEqual([
            `twins_eu resources/twins.pipeline.yml:${resources.indexOf('    eu:') + 1}`,
            `twins_us resources/twins.pipeline.yml:${resources.indexOf('    us:') + 1}`,
        ]);
    });

    test('hover in it answers from each pipeline: each pipeline\'s card where they differ', async () => {
        const report = fs.readFileSync(file('src/common/report.sql'), 'utf8').split('\n');
        const line = report.findIndex(l => l.includes('FROM orders'));
        const hover = async (word: string): Promise<string> => {
            const character = report[line].lastIndexOf(word) + 2;
            const answer = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uri('src/common/report.sql') }, position: { line, character } }) as Hover;
            return (answer.contents as MarkupContent).value;
        };
        // `orders` is a dataset of each pipeline, with other columns in us: both cards, each under its pipeline.
        const orders = await hover('orders');
        const [eu, us] = orders.split('\n\n---\n\n');
        expect(eu).toMatch(/^\*\*In pipeline eu\*\*\n\n/);
        expect(eu).toContain('orders\\.sql:1');
        expect(eu).toContain('| currency |');
        expect(us).toMatch(/^\*\*In pipeline us\*\*\n\n/);
        expect(us).toContain('| amount |');
        expect(us).not.toContain('| currency |');
        // A column of each pipeline's orders: each card links its own pipeline's orders.sql.
        const amount = (await hover('amount')).split('\n\n---\n\n');
        expect(amount.map(card => card.match(/^\*\*In pipeline (\w+)\*\*/)?.[1])).toEqual(['eu', 'us']);
        expect(amount[0]).toContain(`(${uri('src/eu/orders.sql')}#L1)`);
        expect(amount[1]).toContain(`(${uri('src/us/orders.sql')}#L1)`);
    });

    test('completion in it offers what each pipeline has; what only one has names it', async () => {
        const report = fs.readFileSync(file('src/common/report.sql'), 'utf8').split('\n');
        const line = report.findIndex(l => l.includes('FROM orders'));
        const result = await server.connection.sendRequest(CompletionRequest.type, {
            textDocument: { uri: uri('src/common/report.sql') }, position: { line, character: report[line].indexOf(' FROM') },
        }) as CompletionList | CompletionItem[];
        const items = Array.isArray(result) ? result : result.items;
        const shown = (label: string): string[] => items.filter(i => i.label === label).map(i => `${i.label}: ${i.detail}`);
        expect(shown('amount')).toEqual([expect.not.stringContaining('pipeline')]);
        expect(shown('currency')).toEqual([expect.stringMatching(/\(pipeline eu\)$/)]);
        // Each item once.
        expect(items.filter(i => i.label === 'id')).toHaveLength(1);
    });

    test('go to definition and references in it give every pipeline\'s places', async () => {
        const report = fs.readFileSync(file('src/common/report.sql'), 'utf8').split('\n');
        const line = report.findIndex(l => l.includes('FROM orders'));
        const position = { line, character: report[line].lastIndexOf('orders') + 2 };
        const definition = await server.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uri('src/common/report.sql') }, position }) as LocationLink[];
        expect(definition.map(d => `${path.relative(dir, new URL(d.targetUri).pathname)}:${d.targetSelectionRange.start.line + 1}`)).toEqual([
            'src/eu/orders.sql:1', 'src/us/orders.sql:1',
        ]);
        const references = await server.connection.sendRequest(ReferencesRequest.type, {
            textDocument: { uri: uri('src/common/report.sql') }, position, context: { includeDeclaration: true },
        }) as Location[];
        // The read in the shared file is each pipeline's: listed once.
        expect(references.map(r => `${path.relative(dir, new URL(r.uri).pathname)}:${r.range.start.line + 1}`).sort()).toEqual([
            'src/common/report.sql:3', 'src/eu/orders.sql:1', 'src/us/orders.sql:1',
        ]);
    });

    test('rename in it renames in every pipeline: the reader in the second pipeline too, the file once', async () => {
        const report = fs.readFileSync(file('src/common/report.sql'), 'utf8').split('\n');
        const line = report.findIndex(l => l.includes('VIEW report'));
        const edit = await server.connection.sendRequest(RenameRequest.type, {
            textDocument: { uri: uri('src/common/report.sql') }, position: { line, character: report[line].indexOf('report') + 2 }, newName: 'daily_report',
        }) as WorkspaceEdit;
        const edits = Object.entries(edit.changes ?? {}).map(([u, list]) => `${path.relative(dir, new URL(u).pathname)}: ${list.map(e => `${e.range.start.line + 1}:${e.range.start.character + 1} ${e.newText}`).join(', ')}`);
        expect(edits.sort()).toEqual(['src/common/report.sql: 2:26 daily_report', 'src/eu/digest.sql: 1:65 daily_report', 'src/us/summary.sql: 3:33 daily_report']);
    });

    test('rename of its dataset from a file of one pipeline renames in every pipeline that lists it', async () => {
        const summary = fs.readFileSync(file('src/us/summary.sql'), 'utf8').split('\n');
        const line = summary.findIndex(l => l.includes('FROM report'));
        const edit = await server.connection.sendRequest(RenameRequest.type, {
            textDocument: { uri: uri('src/us/summary.sql') }, position: { line, character: summary[line].lastIndexOf('report') + 2 }, newName: 'daily_report',
        }) as WorkspaceEdit;
        const edits = Object.entries(edit.changes ?? {}).map(([u, list]) => `${path.relative(dir, new URL(u).pathname)}: ${list.map(e => `${e.range.start.line + 1}:${e.range.start.character + 1} ${e.newText}`).join(', ')}`);
        // The eu pipeline's reader too: the report is its dataset as much as the us pipeline's.
        expect(edits.sort()).toEqual(['src/common/report.sql: 2:26 daily_report', 'src/eu/digest.sql: 1:65 daily_report', 'src/us/summary.sql: 3:33 daily_report']);
    });

    test('an edit in the other pipeline, and in the file itself, update what it shows', async () => {
        const orders = 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 10.0 AS amount;\n';
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: uri('src/us/orders.sql'), languageId: 'pipeline-sql', version: 1, text: orders },
        });
        const clean = server.diagnostics(uri('src/common/report.sql'), p => p.diagnostics.length === 0);
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: uri('src/us/orders.sql'), version: 2 },
            contentChanges: [{ text: 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id, 10.0 AS amount, \'USD\' AS currency;\n' }],
        });
        expect((await clean).diagnostics).toEqual([]);

        // A typo in the shared file (unsaved, in the editor) is found by both pipelines: shown once, unlabelled.
        const report = fs.readFileSync(file('src/common/report.sql'), 'utf8');
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: uri('src/common/report.sql'), languageId: 'pipeline-sql', version: 1, text: report },
        });
        const typo = server.diagnostics(uri('src/common/report.sql'), p => p.diagnostics.length > 0 && p.diagnostics.every(d => d.source === 'pipeline-sql'));
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: uri('src/common/report.sql'), version: 2 },
            contentChanges: [{ text: report.replace('currency', 'curency') }],
        });
        expect(shown((await typo).diagnostics)).toEqual([
            '3:20 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'curency\' does not exist in \'orders\' (id, amount, currency). Did you mean \'currency\'? [pipeline-sql]',
        ]);
    });
});

describe('merging the answers of a shared file\'s pipelines', () => {
    const card = (value: string): Hover => ({ contents: { kind: 'markdown', value } });

    test('the same hover card from every pipeline is shown once, as it is; a pipeline without a card says nothing', () => {
        expect(mergeSharedHovers([{ label: 'eu', answer: card('**SELECT**') }, { label: 'us', answer: card('**SELECT**') }])).toEqual(card('**SELECT**'));
        expect(mergeSharedHovers([{ label: 'eu', answer: null }, { label: 'us', answer: undefined }])).toBeNull();
        expect(mergeSharedHovers([{ label: 'eu', answer: null }, { label: 'us', answer: card('only here') }, { label: 'asia', answer: card('only here') }]))
            .toEqual(card('**In pipelines us, asia**\n\nonly here'));
    });

    test('renames: each file\'s edits together, an edit two pipelines make made once', () => {
        const edit = (line: number): TextEdit => ({ range: { start: { line, character: 0 }, end: { line, character: 3 } }, newText: 'new' });
        const shared = 'file:///b/report.sql';
        expect(mergeWorkspaceEdits([
            { changes: { [shared]: [edit(1)], 'file:///b/eu.sql': [edit(2)] } },
            null,
            { changes: { [`${shared}?pipeline=%2Fb%23us`]: [edit(1)], 'file:///b/us.sql': [edit(3)] } },
        ])).toEqual({ changes: { [shared]: [edit(1)], 'file:///b/eu.sql': [edit(2)], 'file:///b/us.sql': [edit(3)] } });
        expect(mergeWorkspaceEdits([null, undefined])).toBeNull();
    });

    test('completion items every pipeline offers are offered once, as they are; the list is incomplete when one is', () => {
        const item = (label: string, detail: string): CompletionItem => ({ label, detail });
        expect(mergeSharedCompletions([
            { label: 'eu', answer: [item('id', 'int · orders'), item('currency', 'string · orders')] },
            { label: 'us', answer: { isIncomplete: true, items: [item('id', 'int · orders')] } },
        ])).toEqual({ isIncomplete: true, items: [item('id', 'int · orders'), item('currency', 'string · orders (pipeline eu)')] });
    });
});
