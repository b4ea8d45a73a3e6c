import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

// Tokenises with the same engine VS Code uses (vscode-textmate + Oniguruma) and asserts scopes.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const grammarPath = path.join(repo, 'syntaxes/pipeline-sql.tmLanguage.json');
let grammar: vsctm.IGrammar;

beforeAll(async () => {
    const wasm = fs.readFileSync(path.join(repo, 'node_modules/vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new vsctm.Registry({
        onigLib: Promise.resolve({
            createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
            createOnigString: (text: string) => new oniguruma.OnigString(text),
        }),
        loadGrammar: async (scopeName: string) => scopeName === 'source.pipeline-sql'
            ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
            : null,
    });
    const loaded = await registry.loadGrammar('source.pipeline-sql');
    if (!loaded) {
        throw new Error('The Pipeline SQL grammar did not load.');
    }
    grammar = loaded;
});

/** Tokenises lines and returns `trimmed text → innermost scope` per token, whitespace-only tokens left out. */
function tokens(...lines: string[]): Array<[string, string]> {
    let state = vsctm.INITIAL;
    const out: Array<[string, string]> = [];
    for (const line of lines) {
        const result = grammar.tokenizeLine(line, state);
        for (const token of result.tokens) {
            const text = line.slice(token.startIndex, token.endIndex);
            if (text.trim()) {
                out.push([text.trim(), token.scopes[token.scopes.length - 1]]);
            }
        }
        state = result.ruleStack;
    }
    return out;
}

/** The innermost scope of the first token whose text is `text`. */
function scopeOf(text: string, ...lines: string[]): string | undefined {
    return tokens(...lines).find(([t]) => t === text)?.[1];
}

describe('pipeline statements', () => {
    test('CREATE OR REFRESH STREAMING TABLE names the dataset and colours the keywords', () => {
        expect(tokens('CREATE OR REFRESH STREAMING TABLE sales.orders_bronze')).toEqual([
            ['CREATE', 'keyword.other.ddl.pipeline-sql'],
            ['OR', 'keyword.other.ddl.pipeline-sql'],
            ['REFRESH', 'keyword.other.ddl.pipeline-sql'],
            ['STREAMING TABLE', 'keyword.other.pipeline.dataset.pipeline-sql'],
            ['sales', 'entity.name.type.dataset.pipeline-sql'],
            ['.', 'punctuation.accessor.pipeline-sql'],
            ['orders_bronze', 'entity.name.type.dataset.pipeline-sql'],
        ]);
    });

    test('keywords are case-insensitive; PRIVATE, MATERIALIZED VIEW and IF NOT EXISTS are recognised', () => {
        expect(tokens('create private materialized view if not exists `my mv`')).toEqual([
            ['create', 'keyword.other.ddl.pipeline-sql'],
            ['private', 'storage.modifier.pipeline-sql'],
            ['materialized view', 'keyword.other.pipeline.dataset.pipeline-sql'],
            ['if not exists', 'keyword.other.ddl.pipeline-sql'],
            ['`', 'punctuation.definition.identifier.begin.pipeline-sql'],
            ['my mv', 'variable.other.quoted.pipeline-sql'],
            ['`', 'punctuation.definition.identifier.end.pipeline-sql'],
        ]);
    });

    test('CREATE FLOW names the flow; AUTO CDC INTO names the target', () => {
        const t = tokens('CREATE FLOW users_cdc AS AUTO CDC INTO users');
        expect(t).toContainEqual(['FLOW', 'keyword.other.pipeline.flow.pipeline-sql']);
        expect(t).toContainEqual(['users_cdc', 'entity.name.function.flow.pipeline-sql']);
        expect(t).toContainEqual(['AUTO CDC', 'keyword.other.pipeline.flow.pipeline-sql']);
        expect(t).toContainEqual(['users', 'entity.name.type.dataset.pipeline-sql']);
    });

    test('the AUTO CDC clauses are keywords', () => {
        const lines = [
            'FROM STREAM(users_raw)',
            'KEYS (user_id)',
            'IGNORE NULL UPDATES',
            'APPLY AS DELETE WHEN operation = \'DELETE\'',
            'SEQUENCE BY ts',
            'SYSTEM SEQUENCE BY sys_ts',
            'COLUMNS * EXCEPT (operation)',
            'STORED AS SCD TYPE 2',
            'TRACK HISTORY ON * EXCEPT (city)',
        ];
        const t = tokens(...lines);
        for (const keyword of ['STREAM', 'KEYS', 'IGNORE NULL UPDATES', 'APPLY AS DELETE WHEN', 'SEQUENCE BY', 'SYSTEM SEQUENCE BY',
            'COLUMNS', 'STORED AS', 'SCD TYPE', 'TRACK HISTORY ON']) {
            expect(t.find(([text]) => text === keyword)?.[1], keyword).toMatch(/^keyword\.other\.pipeline\./);
        }
        expect(t).toContainEqual(['2', 'constant.numeric.pipeline-sql']);
        expect(t).toContainEqual(['EXCEPT', 'keyword.other.query.pipeline-sql']);
        expect(scopeOf('BITEMPORAL', 'STORED AS BITEMPORAL')).toBe('keyword.other.pipeline.cdc.pipeline-sql');
    });

    test('snapshot, append, replace and legacy forms', () => {
        expect(scopeOf('FROM SNAPSHOT', 'FROM SNAPSHOT (SELECT * FROM s)')).toBe('keyword.other.pipeline.cdc.pipeline-sql');
        expect(scopeOf('WITH VERSION', 'WITH VERSION (SELECT max(v) FROM s)')).toBe('keyword.other.pipeline.cdc.pipeline-sql');
        expect(tokens('INSERT ONCE INTO t BY NAME')).toEqual([
            ['INSERT ONCE', 'keyword.other.pipeline.flow.pipeline-sql'],
            ['INTO', 'keyword.other.dml.pipeline-sql'],
            ['t', 'entity.name.type.dataset.pipeline-sql'],
            ['BY NAME', 'keyword.other.pipeline.flow.pipeline-sql'],
        ]);
        expect(scopeOf('REPLACE USING', 'INSERT INTO t BY NAME REPLACE USING (region) SEQUENCE BY v')).toBe('keyword.other.pipeline.flow.pipeline-sql');
        expect(scopeOf('APPLY CHANGES', 'APPLY CHANGES INTO LIVE.target')).toBe('keyword.other.pipeline.flow.pipeline-sql');
        expect(tokens('FROM STREAM(LIVE.src)')).toContainEqual(['LIVE', 'variable.language.live.pipeline-sql']);
        expect(scopeOf('FLOW', 'FLOW AUTO CDC FROM s')).toBe('keyword.other.pipeline.flow.pipeline-sql');
    });

    test('expectations', () => {
        const t = tokens('CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW');
        expect(t).toContainEqual(['CONSTRAINT', 'keyword.other.pipeline.expectation.pipeline-sql']);
        expect(t).toContainEqual(['EXPECT', 'keyword.other.pipeline.expectation.pipeline-sql']);
        expect(t).toContainEqual(['ON VIOLATION', 'keyword.other.pipeline.expectation.pipeline-sql']);
        expect(t).toContainEqual(['DROP ROW', 'keyword.other.pipeline.expectation.pipeline-sql']);
        expect(t).toContainEqual(['valid_id', 'source.pipeline-sql']);
        expect(scopeOf('FAIL UPDATE', 'ON VIOLATION FAIL UPDATE')).toBe('keyword.other.pipeline.expectation.pipeline-sql');
    });
});

describe('pipeline words used as names stay names', () => {
    test.each([
        ['keys', 'SELECT keys, version, type, snapshot, flow FROM t'],
        ['version', 'SELECT keys, version, type, snapshot, flow FROM t'],
        ['type', 'SELECT keys, version, type, snapshot, flow FROM t'],
        ['snapshot', 'SELECT keys, version, type, snapshot, flow FROM t'],
        ['flow', 'SELECT keys, version, type, snapshot, flow FROM t'],
        ['stream', 'SELECT stream FROM t'],
        ['expect', 'SELECT expect FROM t'],
    ])('%s in %j', (word, line) => {
        expect(scopeOf(word, line)).toBe('source.pipeline-sql');
    });
});

describe('lexical elements', () => {
    test('line and block comments, also spanning lines', () => {
        expect(tokens('SELECT 1 -- CREATE FLOW in a comment')).toContainEqual(['CREATE FLOW in a comment', 'comment.line.double-dash.pipeline-sql']);
        const block = tokens('/* a', 'STREAMING TABLE', '*/ SELECT');
        expect(block).toContainEqual(['STREAMING TABLE', 'comment.block.pipeline-sql']);
        expect(block).toContainEqual(['SELECT', 'keyword.other.query.pipeline-sql']);
    });

    test('notebook exports: header, cell separators and MAGIC lines', () => {
        expect(tokens('-- Databricks notebook source')).toContainEqual(['Databricks notebook source', 'keyword.other.notebook.pipeline-sql']);
        expect(tokens('-- COMMAND ----------')).toEqual([
            ['--', 'punctuation.definition.comment.pipeline-sql'],
            ['COMMAND', 'keyword.other.notebook.pipeline-sql'],
            ['----------', 'punctuation.separator.cell.pipeline-sql'],
        ]);
        const magic = tokens('-- MAGIC %md # Title');
        expect(magic).toContainEqual(['MAGIC', 'keyword.other.notebook.pipeline-sql']);
        expect(magic).toContainEqual(['%md # Title', 'comment.line.magic.pipeline-sql']);
    });

    test('strings in single and double quotes with escapes and parameters; raw strings', () => {
        const t = tokens('SELECT \'it\\\'s ${env}\' , "a\\"b", r\'C:\\dir\'');
        expect(t).toContainEqual(['it', 'string.quoted.single.pipeline-sql']);
        expect(t).toContainEqual(['\\\'', 'constant.character.escape.pipeline-sql']);
        expect(t).toContainEqual(['env', 'variable.other.parameter.pipeline-sql']);
        expect(t).toContainEqual(['\\"', 'constant.character.escape.pipeline-sql']);
        expect(t).toContainEqual(['r', 'storage.type.string.raw.pipeline-sql']);
        expect(t).toContainEqual(['C:\\dir', 'string.quoted.single.raw.pipeline-sql']);
    });

    test('typed literals and interval units', () => {
        expect(scopeOf('DATE', 'WHERE d > DATE \'2024-01-01\'')).toBe('storage.type.literal.pipeline-sql');
        expect(scopeOf('TIMESTAMP_NTZ', 'TIMESTAMP_NTZ\'2024-01-01 00:00\'')).toBe('storage.type.literal.pipeline-sql');
        expect(scopeOf('X', 'SELECT X\'0F\'')).toBe('storage.type.literal.pipeline-sql');
        const interval = tokens('WATERMARK ts DELAY OF INTERVAL 10 MINUTES');
        expect(interval).toContainEqual(['INTERVAL', 'keyword.other.query.pipeline-sql']);
        expect(interval).toContainEqual(['MINUTES', 'keyword.other.unit.pipeline-sql']);
        expect(interval).toContainEqual(['WATERMARK', 'keyword.other.query.pipeline-sql']);
    });

    test('numbers with suffixes', () => {
        for (const n of ['42', '42L', '7S', '1Y', '3.14', '.5', '1e10', '2.5E-3D', '1.0F', '12.30BD']) {
            expect(scopeOf(n, `SELECT ${n}`), n).toBe('constant.numeric.pipeline-sql');
        }
        expect(scopeOf('t1', 'SELECT t1 FROM x')).toBe('source.pipeline-sql');
    });

    test('pipeline parameters in names and expressions', () => {
        const t = tokens('CREATE STREAMING TABLE ${catalog}.bronze.orders AS SELECT * FROM ${source_table}');
        expect(t).toContainEqual(['catalog', 'variable.other.parameter.pipeline-sql']);
        expect(t).toContainEqual(['bronze', 'entity.name.type.dataset.pipeline-sql']);
        expect(t).toContainEqual(['source_table', 'variable.other.parameter.pipeline-sql']);
    });

    test('operators: pipe, lambda, named argument, cast, comparison, concatenation, JSON path', () => {
        const t = tokens('FROM t |> WHERE transform(a, x -> x + 1) <=> b::INT || c:path AND read_files(format => \'json\')');
        expect(t).toContainEqual(['|>', 'keyword.operator.pipe.pipeline-sql']);
        expect(t).toContainEqual(['->', 'storage.type.function.arrow.pipeline-sql']);
        expect(t).toContainEqual(['+', 'keyword.operator.arithmetic.pipeline-sql']);
        expect(t).toContainEqual(['<=>', 'keyword.operator.comparison.pipeline-sql']);
        expect(t).toContainEqual(['::', 'keyword.operator.cast.pipeline-sql']);
        expect(t).toContainEqual(['INT', 'storage.type.pipeline-sql']);
        expect(t).toContainEqual(['||', 'keyword.operator.concatenation.pipeline-sql']);
        expect(t).toContainEqual([':', 'keyword.operator.json-path.pipeline-sql']);
        expect(t).toContainEqual(['=>', 'keyword.operator.named-argument.pipeline-sql']);
        expect(t).toContainEqual(['AND', 'keyword.operator.logical.pipeline-sql']);
    });

    test('function calls, including names that are also keywords or types elsewhere', () => {
        const t = tokens('SELECT count(*), left(name, 3), date(ts), struct(a, b), current_timestamp() FROM t LEFT JOIN u');
        for (const fn of ['count', 'left', 'date', 'struct', 'current_timestamp']) {
            expect(t.find(([text]) => text === fn)?.[1], fn).toBe('entity.name.function.pipeline-sql');
        }
        expect(t.filter(([text]) => text === 'LEFT')).toEqual([['LEFT', 'keyword.other.query.pipeline-sql']]);
        expect(scopeOf('DECIMAL', 'CAST(x AS DECIMAL(10, 2))')).toBe('storage.type.pipeline-sql');
        expect(scopeOf('IN', 'WHERE a IN (1, 2)')).toBe('keyword.operator.logical.pipeline-sql');
        expect(scopeOf('CASE', 'CASE WHEN a THEN b END')).toBe('keyword.control.conditional.pipeline-sql');
        expect(scopeOf('TRUE', 'SELECT TRUE')).toBe('constant.language.pipeline-sql');
    });
});

describe('robustness', () => {
    test('every pattern compiles and every corpus pipeline file tokenises', () => {
        const corpus = '/work/shared/corpus/pipelines';
        const files = fs.existsSync(corpus)
            ? fs.readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.sql')).map(f => path.join(corpus, f))
            : [];
        // The unit test covers the grammar even where the shared corpus is absent (a user's clone).
        const texts = files.map(f => fs.readFileSync(f, 'utf8'));
        texts.push('CREATE STREAMING TABLE t AS SELECT \'unterminated\n`also ${x', '/* open', '"\\', '${', '```');
        let lines = 0;
        for (const text of texts) {
            let state = vsctm.INITIAL;
            for (const line of text.split(/\r?\n/)) {
                const result = grammar.tokenizeLine(line, state, 5_000);
                expect(result.stoppedEarly).toBe(false);
                state = result.ruleStack;
                lines++;
            }
        }
        expect(lines).toBeGreaterThan(files.length);
    });
});
