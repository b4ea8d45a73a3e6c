// In a file two pipelines of a bundle list, the answers that depend on the pipeline come from each
// pipeline: quick fixes (the union, what only one pipeline offers naming it), the run lenses (one set
// per pipeline, each running in its pipeline), and the column type hints (each pipeline's type where
// they differ). Over stdio, as an editor asks.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    CodeActionRequest, CodeLensRequest, InlayHintRequest, type CodeAction, type CodeLens, type InlayHint, type MarkupContent,
} from 'vscode-languageserver-protocol/node.js';
import { RunPipelineRequest } from '../../../common/protocol.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

let server: StdioServer;
let dir: string;
const file = (relative: string): string => path.join(dir, relative);
const uri = (relative: string): string => `file://${file(relative)}`;

const files: Record<string, string> = {
    'databricks.yml': 'bundle:\n  name: twins\ninclude:\n  - resources/*.yml\ntargets:\n  dev:\n    default: true\n',
    'resources/twins.pipeline.yml': [
        'resources:',
        '  pipelines:',
        ...['eu', 'us'].flatMap(key => [
            `    ${key}:`, `      name: twins_${key}`, '      catalog: main', `      schema: ${key}`, '      libraries:',
            `        - glob:\n            include: ../src/${key}/**`, '        - file:\n            path: ../src/common/shared.sql',
        ]),
        '',
    ].join('\n'),
    // Each pipeline's feed has its own change-time column, and its own type of id.
    'src/eu/feed.sql': "CREATE STREAMING TABLE feed AS SELECT * FROM STREAM(read_files('/in/eu', format => 'json', schema => 'id INT, updated_at TIMESTAMP'));\n",
    'src/us/feed.sql': "CREATE STREAMING TABLE feed AS SELECT * FROM STREAM(read_files('/in/us', format => 'json', schema => 'id STRING, changed_at TIMESTAMP'));\n",
    'src/common/shared.sql': [
        'CREATE MATERIALIZED VIEW latest AS SELECT id, 1 AS n FROM feed;',
        'CREATE STREAMING TABLE target;',
        'CREATE FLOW f AS AUTO CDC INTO target FROM STREAM(feed) KEYS (id);',
        '',
    ].join('\n'),
};

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-shared-answers-'));
    for (const [relative, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
        fs.writeFileSync(file(relative), text);
    }
    server = await startStdioServer(dir, {
        initializationOptions: { workspaceTrusted: true },
        configuration: section => section === 'pipelineSql' || section === 'pipeline-sql' ? { inlayHints: { columnTypes: true } } : undefined,
    });
});

afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

describe('a file two pipelines list answers from each pipeline', () => {
    test('quick fixes: each pipeline\'s fix where they differ, naming the pipeline, neither preferred', async () => {
        const published = await server.settled(uri('src/common/shared.sql'), p => p.diagnostics.some(d => d.code === 'AUTO_CDC_MISSING_SEQUENCE_BY' || /SEQUENCE BY/.test(d.message)));
        const missing = published.diagnostics.filter(d => /SEQUENCE BY/.test(d.message));
        expect(missing).toHaveLength(1);
        const actions = await server.connection.sendRequest(CodeActionRequest.type, {
            textDocument: { uri: uri('src/common/shared.sql') }, range: missing[0].range, context: { diagnostics: missing },
        }) as CodeAction[];
        expect(actions.map(a => `${a.title}${a.isPreferred ? ' *' : ''}`)).toEqual([
            'Add SEQUENCE BY updated_at (pipeline eu)',
            'Add SEQUENCE BY changed_at (pipeline us)',
        ]);
        // The edit of the second pipeline's fix is on the file itself.
        expect(Object.keys(actions[1].edit?.changes ?? {})).toEqual([uri('src/common/shared.sql')]);
    });

    test('run lenses: one set per pipeline, titled with its name, each running in its pipeline', async () => {
        const lenses = await server.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: uri('src/common/shared.sql') } }) as CodeLens[];
        const runFlow = lenses.filter(l => l.command?.command === 'pipelineSql.runFlow' && l.range.start.line === 0);
        expect(runFlow.map(l => l.command!.title)).toEqual(['$(play) Run flow · eu', '$(play) Run flow · us']);
        // The palette's Run Flow offers the same choice: each lens's argument names its pipeline.
        expect(runFlow.map(l => (l.command!.arguments![0] as { pipeline?: string }).pipeline)).toEqual(['eu', 'us']);
        const pipelines = await Promise.all(runFlow.map(async lens => {
            const argument = lens.command!.arguments![0] as { uri: string; dataset: string };
            const outcome = await server.connection.sendRequest(RunPipelineRequest, { uri: argument.uri, scope: 'upstream', dataset: argument.dataset, fullRefresh: false, maxRows: 10 });
            return outcome.summary.pipeline.name;
        }));
        expect(pipelines).toEqual(['twins_eu', 'twins_us']);
    }, 120_000);

    test('column type hints: one where the pipelines agree, each pipeline\'s type where they differ', async () => {
        const hints = await server.connection.sendRequest(InlayHintRequest.type, {
            textDocument: { uri: uri('src/common/shared.sql') }, range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
        }) as InlayHint[];
        const shown = hints.filter(h => h.position.line === 0).map(h => `${h.position.character} ${String(h.label)}`);
        const line = files['src/common/shared.sql'].split('\n')[0];
        expect(shown).toEqual([
            `${line.indexOf(', 1 AS n')} : int (eu) | string (us)`,
            `${line.indexOf(' FROM')} : int`,
        ]);
        const differing = hints.find(h => h.position.line === 0 && String(h.label).includes('|'))!;
        expect((differing.tooltip as MarkupContent).value).toContain('**In pipeline us**');
    });
});
