import { describe, expect, test } from 'vitest';
import { AstUtils, GrammarAST } from 'langium';
import { createTestServices, parseText } from '../../helpers/parse.js';

const { services } = createTestServices();
const grammar = services.Grammar;

/** The word keywords a grammar rule lists. */
function keywordsOf(ruleName: string): string[] {
    const rule = grammar.rules.find(r => r.name === ruleName);
    if (rule === undefined || !GrammarAST.isParserRule(rule)) {
        throw new Error(`no parser rule ${ruleName}`);
    }
    return collectKeywords(rule.definition);
}

function collectKeywords(element: GrammarAST.AbstractElement): string[] {
    if (GrammarAST.isKeyword(element)) {
        return [element.value];
    }
    if (GrammarAST.isAlternatives(element) || GrammarAST.isGroup(element)) {
        return element.elements.flatMap(collectKeywords);
    }
    return [];
}

/** Every word keyword used anywhere in the grammar's parser rules. */
function allWordKeywords(): Set<string> {
    const words = new Set<string>();
    for (const rule of grammar.rules) {
        if (GrammarAST.isParserRule(rule) || GrammarAST.isInfixRule(rule)) {
            for (const node of AstUtils.streamAllContents(rule)) {
                if (GrammarAST.isKeyword(node) && /^[A-Z_]+$/.test(node.value)) {
                    words.add(node.value);
                }
            }
        }
    }
    return words;
}

const soft = keywordsOf('SoftKeyword');
const clause = keywordsOf('ClauseKeyword');
const reserved = keywordsOf('ReservedKeyword');
const words = [...keywordsOf('StreamWord'), ...keywordsOf('GroupingWord'), ...keywordsOf('IdentifierWord'), ...keywordsOf('TableWord')];

function parses(text: string): boolean {
    const result = parseText(services, text);
    return result.lexerErrors.length === 0 && result.parserErrors.length === 0;
}

describe('keyword tiers', () => {
    test('every keyword of the grammar is in exactly one tier', () => {
        const tiers = [...soft, ...clause, ...reserved, ...words];
        expect(new Set(tiers).size).toBe(tiers.length);
        expect([...allWordKeywords()].filter(word => !tiers.includes(word)).sort()).toEqual([]);
        expect(tiers.filter(word => !allWordKeywords().has(word)).sort()).toEqual([]);
    });

    test('the pipeline words of the spec are soft keywords', () => {
        const pipelineWords = ['AUTO', 'CDC', 'FLOW', 'KEYS', 'SEQUENCE', 'SYSTEM', 'TRUNCATE', 'UPDATES', 'TRACK', 'HISTORY', 'STORED', 'SCD',
            'TYPE', 'BITEMPORAL', 'SNAPSHOT', 'VERSION', 'ONCE', 'REPLACE', 'CHANGES', 'LIVE', 'EXPECT', 'VIOLATION', 'NAME', 'COMMENT', 'DATE',
            'TIMESTAMP', 'YEAR', 'MONTH', 'DAY', 'HOUR', 'KEY', 'FIRST', 'LAST'];
        expect(pipelineWords.filter(word => !soft.includes(word))).toEqual([]);
    });

    test.each([...soft, ...clause])('%s is a column name', word => {
        expect(parses(`SELECT ${word}, t.${word} FROM t WHERE ${word} = 1 ORDER BY ${word}`)).toBe(true);
    });

    test.each(soft)('%s is a table name and a bare alias', word => {
        expect(parses(`SELECT 1 ${word} FROM ${word} ${word}`)).toBe(true);
    });

    test.each(reserved)('%s is reserved: a name only back-quoted or after a dot', word => {
        expect(parses(`SELECT 1 FROM ${word}`)).toBe(false);
        expect(parses(`SELECT \`${word}\`, t.${word} FROM t WHERE \`${word}\` = 1`)).toBe(true);
    });
});
