import type { Rule, TokenType } from 'chevrotain';
import { createLangiumParser, DefaultTokenBuilder, EmptyFileSystem } from 'langium';
import { expect, test } from 'vitest';
import { createPipelineSqlServices } from '../../../../server/src/language/index.js';
import { PipelineSqlLanguageMetaData } from '../../../../server/src/language/generated/module.js';
import { lazyFollows } from '../../../../server/src/language/parser/lazy-follows.js';

/**
 * The services run in production mode, where Chevrotain skips its checks of the grammar and the token
 * definitions to start faster. Here the lexer and the parsers are built in development mode, so the
 * checks run: Chevrotain throws on a definition error (an unreachable token, a left recursion, an
 * undefined rule, a rule name clash, ...).
 */
test('the lexer, the parser and the completion parser pass Chevrotain\'s definition checks', () => {
    const { PipelineSql } = createPipelineSqlServices({
        ...EmptyFileSystem,
        module: { LanguageMetaData: () => ({ ...PipelineSqlLanguageMetaData, mode: 'development' }) },
    });
    expect(PipelineSql.LanguageMetaData.mode).toBe('development');
    expect(PipelineSql.parser.Lexer.tokenize('SELECT 1').errors).toEqual([]);
    const parser = PipelineSql.parser.LangiumParser;
    expect(parser.definitionErrors).toEqual([]);
    expect(parser.parse('CREATE MATERIALIZED VIEW v AS SELECT (1, 2) AS t').parserErrors).toEqual([]);
    expect(PipelineSql.parser.CompletionParser.parse('SELECT ').tokens).toHaveLength(1);
});

test('the services the language server and the CLI use run in production mode', () => {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    expect(PipelineSql.LanguageMetaData.mode).toBe('production');
});

test('the follow sets of error recovery, computed per rule on first use, are the ones Chevrotain computes for the whole grammar', () => {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    // Langium's own parser factory: Chevrotain computes every follow set when the parser is built.
    const eager = (createLangiumParser(PipelineSql) as unknown as { wrapper: { resyncFollows: Record<string, TokenType[]>; gastProductionsCache: Record<string, Rule> } }).wrapper;
    const lazy = lazyFollows(eager.gastProductionsCache);
    const keys = Object.keys(eager.resyncFollows);
    expect(keys.length).toBeGreaterThan(500);
    const names = (tokens: TokenType[] | undefined) => tokens?.map(t => t.name).sort();
    const different = keys.filter(key => JSON.stringify(names(lazy[key])) !== JSON.stringify(names(eager.resyncFollows[key])));
    expect(different).toEqual([]);
    expect(lazy['NoSuchRule1_~IN~_Query\u200B']).toBeUndefined();
});

test('the token builder finds the same longer alternatives of keywords as Langium\'s', () => {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    const alternatives = (tokens: TokenType[]) => tokens.map(t => [t.name, [t.LONGER_ALT ?? []].flat().map(a => a.name)]);
    const ours = PipelineSql.parser.TokenBuilder.buildTokens(PipelineSql.Grammar, { caseInsensitive: true }) as TokenType[];
    const langiums = new DefaultTokenBuilder().buildTokens(PipelineSql.Grammar, { caseInsensitive: true }) as TokenType[];
    expect(alternatives(ours)).toEqual(alternatives(langiums));
    expect(alternatives(ours).find(([name]) => name === 'SELECT')).toEqual(['SELECT', ['ID']]);
});
