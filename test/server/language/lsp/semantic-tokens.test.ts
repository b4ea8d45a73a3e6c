import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments, highlightHelper } from 'langium/test';
import { createTestServices } from '../../../helpers/parse.js';

const { shared, services } = createTestServices();
const highlight = highlightHelper(services);

afterEach(() => clearDocuments(shared));

/** The semantic tokens of a text as `text:type`, in document order. */
async function tokens(text: string): Promise<string[]> {
    const result = await highlight(text);
    return result.tokens.map(token => `${token.text}:${token.tokenType}`);
}

describe('semantic tokens for keywords used as names', () => {
    test('pipeline words used as columns, a table and an alias are coloured as names', async () => {
        expect(await tokens('SELECT version, type, keys AS snapshot FROM stream AS flow WHERE date > 1')).toEqual([
            'version:property', 'type:property', 'keys:property', 'snapshot:variable', 'stream:class', 'flow:variable', 'date:property',
        ]);
    });

    test('keywords used as keywords get no semantic token', async () => {
        expect(await tokens('CREATE OR REFRESH STREAMING TABLE t AS SELECT a FROM STREAM(s) WHERE b IS NOT NULL')).toEqual([]);
    });

    test('a dataset named like a keyword, a function named like a keyword, a type keyword', async () => {
        expect(await tokens('CREATE MATERIALIZED VIEW snapshot (day DATE) AS SELECT left(name, 2) AS first FROM LIVE.version')).toEqual([
            'snapshot:class', 'day:property', 'DATE:type', 'left:function', 'name:property', 'first:variable', 'LIVE:class', 'version:class',
        ]);
    });

    test('AUTO CDC column lists with columns named like CDC keywords', async () => {
        expect(await tokens('APPLY CHANGES INTO t FROM s KEYS (keys, sequence) SEQUENCE BY version COLUMNS * EXCEPT (operation, type)')).toEqual([
            'keys:property', 'sequence:property', 'version:property', 'type:property',
        ]);
    });
});
