import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { AST } from '../../../server/src/language/index.js';
import { createParser, createTestServices, sharedRoot } from '../../helpers/parse.js';

/**
 * Fuzzing: mutated pipeline files (tokens deleted, duplicated or swapped, text cut at a random offset,
 * random characters inserted) never make parsing, validation or semantic highlighting throw, and every
 * diagnostic points into the text. The mutations are drawn from a seeded generator, so a failure
 * reproduces; the seed texts are the shared corpus when present, else a few built-in pipelines.
 */

const mutantsPerMutation = 80;

const builtInSeeds = [
    `CREATE OR REFRESH STREAMING TABLE bronze (id BIGINT NOT NULL, CONSTRAINT ok EXPECT (id > 0) ON VIOLATION DROP ROW)
TBLPROPERTIES ('quality' = 'bronze') AS SELECT *, current_timestamp() AS ts FROM STREAM read_files('/p', format => 'json');
CREATE FLOW f AS AUTO CDC INTO silver FROM STREAM(bronze) KEYS (id) APPLY AS DELETE WHEN op = 'D' SEQUENCE BY STRUCT(ts, seq)
COLUMNS * EXCEPT (op) STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (city);`,
    `-- Databricks notebook source
CREATE MATERIALIZED VIEW gold AS WITH c AS (SELECT a, sum(b) OVER (PARTITION BY a ORDER BY t ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) s FROM silver)
SELECT a, CASE WHEN s > 1 THEN 'x' ELSE "y" END AS k, raw:a.b[0]::string FROM c LEFT JOIN d USING (a) WHERE a NOT IN (1, 2) GROUP BY ALL
-- COMMAND ----------
APPLY CHANGES INTO LIVE.t FROM STREAM(LIVE.s) KEYS (k) IGNORE NULL UPDATES SEQUENCE BY v;`,
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

/** A small seeded pseudo-random generator (mulberry32), so that every run fuzzes the same inputs. */
function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const { shared, services } = createTestServices();
const parse = createParser(services);
const lexer = services.parser.Lexer;
const seeds = seedTexts();

afterEach(() => clearDocuments(shared));

type Mutation = (text: string, next: () => number) => string;

/** Token boundaries of a text (start and end offsets), from the language's own lexer. */
function tokenSpans(text: string): Array<[number, number]> {
    return lexer.tokenize(text).tokens.map(token => [token.startOffset, token.endOffset! + 1]);
}

function pick<T>(items: readonly T[], next: () => number): T {
    return items[Math.floor(next() * items.length)];
}

const mutations: Record<string, Mutation> = {
    'delete a token': (text, next) => {
        const [start, end] = pick(tokenSpans(text), next) ?? [0, 0];
        return text.slice(0, start) + text.slice(end);
    },
    'duplicate a token': (text, next) => {
        const [start, end] = pick(tokenSpans(text), next) ?? [0, 0];
        return text.slice(0, end) + ' ' + text.slice(start, end) + text.slice(end);
    },
    'swap two neighbouring tokens': (text, next) => {
        const spans = tokenSpans(text);
        if (spans.length < 2) {
            return text;
        }
        const i = Math.floor(next() * (spans.length - 1));
        const [a, b] = [spans[i], spans[i + 1]];
        return text.slice(0, a[0]) + text.slice(b[0], b[1]) + text.slice(a[1], b[0]) + text.slice(a[0], a[1]) + text.slice(b[1]);
    },
    'cut at a random offset': (text, next) => text.slice(0, Math.floor(next() * text.length)),
    'insert random characters': (text, next) => {
        const alphabet = ['\'', '"', '`', '(', ')', '/*', '*/', '--', ';', ',', '.', ':', '::', '${', '}', '[', ']', '<', '>>', '\u0000', '\u00e9', '\ud83d\ude00', '\n', 'SELECT', 'KEYS', 'AS'];
        let result = text;
        for (let n = 1 + Math.floor(next() * 4); n > 0; n--) {
            const at = Math.floor(next() * (result.length + 1));
            result = result.slice(0, at) + pick(alphabet, next) + result.slice(at);
        }
        return result;
    },
};

describe('mutated pipeline files never make the language services throw', () => {
    test.each(Object.keys(mutations))('%s', async name => {
        const next = random(name.length * 7919);
        for (let i = 0; i < mutantsPerMutation; i++) {
            const text = mutations[name](pick(seeds, next), next);
            const { document } = await parse(text);
            expect(AST.isPipelineFile(document.parseResult.value)).toBe(true);
            const lines = text.split(/\r?\n|\r/);
            for (const diagnostic of document.diagnostics ?? []) {
                const { start, end } = diagnostic.range;
                expect(start.line).toBeGreaterThanOrEqual(0);
                expect(end.line).toBeLessThan(lines.length);
                expect(start.line * 1e6 + start.character).toBeLessThanOrEqual(end.line * 1e6 + end.character);
            }
            await services.lsp.SemanticTokenProvider!.semanticHighlight(document, { textDocument: { uri: document.uri.toString() } });
            await clearDocuments(shared);
        }
    });
});
