// Fuzzing the real language server over stdio (the bundled `pipeline-sql lsp --stdio`): mutated pipeline
// files and pathological inputs (deep nesting, a huge line, NUL bytes, lone surrogates, 2,000 statements,
// a 500-dataset cycle) are opened, edited at random positions and asked for hover, completion and
// symbols there. The process must never exit, and after each file it must answer a request on a file
// it already knows. Seeded, so a failure reproduces; bounded in time. The counts are printed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
    CompletionRequest, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification,
    DocumentSymbolRequest, HoverRequest, type Hover, type MarkupContent,
} from 'vscode-languageserver-protocol/node.js';
import { prng } from '../../helpers/prng.js';
import { sharedRoot } from '../../helpers/parse.js';
import { startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

/** Wall-clock budget for the mutated files beyond the first `minimumMutatedFiles` (the pathological inputs always run). */
const budgetMs = 60_000;
const mutatedFiles = 300;
/** Mutated files exercised however slow the machine is (the budget only bounds the rest). */
const minimumMutatedFiles = 25;

const builtInSeeds = [
    `CREATE OR REFRESH STREAMING TABLE bronze (id BIGINT, CONSTRAINT ok EXPECT (id > 0) ON VIOLATION DROP ROW)
AS SELECT *, current_timestamp() AS ts FROM STREAM read_files('/p', format => 'json');
CREATE FLOW f AS AUTO CDC INTO silver FROM STREAM(bronze) KEYS (id) APPLY AS DELETE WHEN op = 'D' SEQUENCE BY ts
COLUMNS * EXCEPT (op) STORED AS SCD TYPE 2;`,
    `CREATE MATERIALIZED VIEW gold AS WITH c AS (SELECT a, sum(b) OVER (PARTITION BY a ORDER BY t) s FROM silver)
SELECT a, CASE WHEN s > 1 THEN 'x' ELSE 'y' END AS k FROM c LEFT JOIN d USING (a) WHERE a NOT IN (1, 2) GROUP BY ALL;`,
];

function seedTexts(): string[] {
    const pipelines = path.join(sharedRoot, 'corpus', 'pipelines');
    if (!fs.existsSync(pipelines)) {
        return builtInSeeds;
    }
    return fs.readdirSync(pipelines).sort().flatMap(folder => {
        const dir = path.join(pipelines, folder);
        return fs.statSync(dir).isDirectory()
            ? fs.readdirSync(dir).filter(f => f.endsWith('.sql')).sort().map(f => fs.readFileSync(path.join(dir, f), 'utf8'))
            : [];
    });
}

const pieces = ['(', ')', '\'', '`', '"', '${', '}', ';', '--', '/*', '\0', '\uD800', '\uDC00', '😀', '\n', 'SELECT', 'FROM', 'STREAM(', 'AUTO CDC', ','];

function mutate(text: string, next: () => number): string {
    const at = Math.floor(next() * (text.length + 1));
    switch (Math.floor(next() * 4)) {
        case 0: return text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 20));
        case 1: return text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
        case 2: return text.slice(0, at);
        default: {
            const from = Math.floor(next() * text.length);
            return text.slice(0, at) + text.slice(from, from + 40) + text.slice(at);
        }
    }
}

/** A position inside a text (line and character of a random offset). */
function positionIn(text: string, next: () => number): { line: number; character: number } {
    const offset = Math.floor(next() * (text.length + 1));
    const before = text.slice(0, offset).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
}

const pathological: Array<[string, string]> = [
    ['deep parentheses', `CREATE MATERIALIZED VIEW deep AS SELECT ${'('.repeat(5000)}1${')'.repeat(5000)} AS a;`],
    ['deep subqueries', `CREATE MATERIALIZED VIEW deepq AS ${'SELECT * FROM ('.repeat(800)}SELECT 1 AS a${') t'.repeat(800)};`],
    ['a 1 MB line', `CREATE MATERIALIZED VIEW wide AS SELECT ${Array.from({ length: 60_000 }, (_, i) => `c${i}`).join(' + ')} AS a FROM t;`],
    ['NUL bytes and lone surrogates', 'CREATE MATERIALIZED VIEW n\0ul AS SELECT \'\uD800\' AS a, `\uDC00` AS b, `x\0` FROM \0t;'],
    ['2,000 statements', Array.from({ length: 2000 }, (_, i) => `CREATE MATERIALIZED VIEW m${i} AS SELECT ${i} AS a;`).join('\n')],
    ['a 500-dataset cycle', Array.from({ length: 500 }, (_, i) => `CREATE MATERIALIZED VIEW c${i} AS SELECT * FROM c${(i + 1) % 500};`).join('\n')],
];

let server: StdioServer;
let dir: string;
const knownUri = () => `file://${path.join(dir, 'known.sql')}`;

beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-stdio-fuzz-'));
    const known = 'CREATE MATERIALIZED VIEW known_view AS SELECT 1 AS a;\n';
    fs.writeFileSync(path.join(dir, 'known.sql'), known);
    server = await startStdioServer(dir, { captureStderr: true });
    const settled = server.settled(knownUri());
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: knownUri(), languageId: 'pipeline-sql', version: 1, text: known } });
    await settled;
});

afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

/** The server still answers: a hover on the file it knows names its dataset. */
async function stillAnswers(): Promise<void> {
    expect(server.process.exitCode).toBeNull();
    const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: knownUri() }, position: { line: 0, character: 28 } }) as Hover | null;
    expect((hover?.contents as MarkupContent | undefined)?.value).toContain('known_view');
}

test('mutated files and pathological inputs, edited and queried at random positions, never end the server; it answers after each', { timeout: 600_000 }, async () => {
    const next = prng(9);
    const seeds = seedTexts();
    const counts = { files: 0, pathological: 0, edits: 0, requests: 0, answered: 0, refused: 0, published: 0, unpublished: 0 };
    const started = Date.now();

    /** Waits for the diagnostics of a version (the server has built it), at most 30 s. */
    const checked = async (published: Promise<unknown>): Promise<void> => {
        const timedOut = await Promise.race([published.then(() => false), new Promise<boolean>(resolve => setTimeout(() => resolve(true), 30_000))]);
        counts[timedOut ? 'unpublished' : 'published']++;
    };
    const exercise = async (name: string, text: string): Promise<void> => {
        const uri = `file://${path.join(dir, `${name}.sql`)}`;
        let published = server.diagnostics(uri);
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pipeline-sql', version: 1, text } });
        await checked(published);
        let current = text;
        for (let version = 2; version <= 4; version++) {
            current = mutate(current, next);
            counts.edits++;
            published = server.diagnostics(uri);
            await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text: current }] });
            await checked(published);
            const position = positionIn(current, next);
            const requests = [
                server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }),
                server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
                server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
            ];
            counts.requests += requests.length;
            // An answer, or an error response (a request overtaken by the next edit is cancelled): never silence.
            for (const outcome of await Promise.allSettled(requests)) {
                counts[outcome.status === 'fulfilled' ? 'answered' : 'refused']++;
            }
        }
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        await stillAnswers();
    };

    for (const [name, text] of pathological) {
        await exercise(`pathological_${counts.pathological}`, text);
        counts.pathological++;
        expect(name).toBeTruthy();
    }
    const mutationsStarted = Date.now();
    while (counts.files < mutatedFiles && (counts.files < minimumMutatedFiles || Date.now() - mutationsStarted < budgetMs)) {
        let text = seeds[Math.floor(next() * seeds.length)];
        for (let i = Math.floor(next() * 4); i >= 0; i--) {
            text = mutate(text, next);
        }
        await exercise(`mutant_${counts.files}`, text);
        counts.files++;
    }
    console.log(`stdio fuzz: ${counts.pathological} pathological inputs and ${counts.files} mutated files (of ${seeds.length} seeds), `
        + `${counts.edits} edits, ${counts.requests} requests (${counts.answered} answered, ${counts.refused} error responses), diagnostics published for ${counts.published} of ${counts.published + counts.unpublished} versions in ${((Date.now() - started) / 1000).toFixed(1)} s; `
        + 'the server answered after every file');
    expect(counts.pathological).toBe(pathological.length);
    // Every version opened or edited was checked, and the requests on it were answered.
    expect(counts.unpublished).toBe(0);
    expect(counts.answered).toBe(counts.requests);
    expect(server.stderr).not.toMatch(/uncaught exception|unhandled rejection/);
});
