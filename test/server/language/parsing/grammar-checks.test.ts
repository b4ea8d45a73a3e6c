import type { IProduction, Rule, TokenType } from 'chevrotain';
import { Alternation, getLookaheadPaths, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator, RepetitionWithSeparator, Terminal } from 'chevrotain';
import { createLangiumParser, DefaultTokenBuilder, EmptyFileSystem, GrammarAST, GrammarUtils } from 'langium';
import { expect, test } from 'vitest';
import { createPipelineSqlServices } from '../../../../server/src/language/index.js';
import { PipelineSqlLanguageMetaData } from '../../../../server/src/language/generated/module.js';
import { lazyFollows } from '../../../../server/src/language/parser/lazy-follows.js';
import { FirstTokens } from '../../../../server/src/language/parser/first-tokens.js';
import { DataTypeRules } from '../../../../server/src/language/parser/data-type-rules.js';

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

test('the token builder tells the lexer which characters start each keyword, as Chevrotain would find them', () => {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    const tokens = PipelineSql.parser.TokenBuilder.buildTokens(PipelineSql.Grammar, { caseInsensitive: true }) as TokenType[];
    const hint = (name: string) => tokens.find(t => t.name === name)?.START_CHARS_HINT;
    expect(hint('SELECT')).toEqual(['s', 'S']);
    expect(hint('<=>')).toEqual(['<']);
    // Every keyword token says where it starts, so the lexer analyses no keyword's regular expression.
    const keywords = tokens.filter(t => t.PATTERN instanceof RegExp && t.PATTERN.ignoreCase);
    expect(keywords.length).toBeGreaterThan(250);
    expect(keywords.filter(t => t.START_CHARS_HINT === undefined).map(t => t.name)).toEqual([]);
    // And the lexer built from them reads keywords in any case.
    expect(PipelineSql.parser.Lexer.tokenize('select Select sELECT x').tokens.map(t => t.tokenType.name)).toEqual(['SELECT', 'SELECT', 'SELECT', 'ID']);
});

test('the data-type rules found in one walk of the grammar are the ones Langium finds rule by rule', () => {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    const rules = PipelineSql.Grammar.rules.filter(GrammarAST.isParserRule);
    const ours = new DataTypeRules();
    const different = rules.filter(rule => ours.isDataTypeRule(rule) !== GrammarUtils.isDataTypeRule(rule)).map(rule => rule.name);
    expect(different).toEqual([]);
    expect(rules.filter(rule => ours.isDataTypeRule(rule)).length).toBeGreaterThan(5);
    expect(rules.filter(rule => !ours.isDataTypeRule(rule)).length).toBeGreaterThan(100);
});

/** Every decision of a rule body: alternations and optional constructs, nested ones too. */
function decisions(definition: readonly IProduction[], into: IProduction[] = []): IProduction[] {
    for (const node of definition) {
        if (node instanceof Terminal || node instanceof NonTerminal) {
            continue;
        }
        into.push(node);
        const children = node instanceof Alternation ? node.definition : [node];
        for (const child of children) {
            decisions((child as Option).definition, into);
        }
    }
    return into;
}

const prodTypes = new Map<abstract new (...args: never[]) => IProduction, string>([
    [Alternation, 'Alternation'], [Option, 'Option'], [Repetition, 'Repetition'], [RepetitionMandatory, 'RepetitionMandatory'],
    [RepetitionMandatoryWithSeparator, 'RepetitionMandatoryWithSeparator'], [RepetitionWithSeparator, 'RepetitionWithSeparator'],
]);

test('the one-token lookahead sets computed once per rule are Chevrotain\'s, for every decision of the grammar', () => {
    const { PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    const wrapper = (PipelineSql.parser.LangiumParser as unknown as { wrapper: { gastProductionsCache: Record<string, Rule> } }).wrapper;
    const first = new FirstTokens();
    const describe = (tokens: Iterable<TokenType>, nullable: boolean) => [...[...tokens].map(t => t.name).sort(), ...(nullable ? ['(nothing)'] : [])];
    const fromPaths = (paths: TokenType[][]) => describe(new Set(paths.filter(p => p.length > 0).map(p => p[0])), paths.some(p => p.length === 0));
    let compared = 0;
    const different: string[] = [];
    for (const rule of Object.values(wrapper.gastProductionsCache)) {
        for (const decision of decisions(rule.definition)) {
            const prodType = prodTypes.get(decision.constructor as abstract new (...args: never[]) => IProduction)!;
            const paths = getLookaheadPaths({ occurrence: (decision as Option).idx, rule, prodType: prodType as never, maxLookahead: 1 });
            const ours = decision instanceof Alternation
                ? decision.definition.map(alternative => first.of(alternative))
                : [first.ofSequence((decision as Option).definition), first.after(rule, decision)!];
            const theirs = paths.map(fromPaths);
            const mine = ours.map(f => describe(f.tokens, f.nullable));
            if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
                different.push(`${rule.name} ${prodType} ${(decision as Option).idx}: ${JSON.stringify(mine)} vs ${JSON.stringify(theirs)}`);
            }
            compared++;
        }
    }
    expect(different).toEqual([]);
    expect(compared).toBeGreaterThan(400);
});
