import { URI } from 'langium';
import { afterEach, describe, expect, test } from 'vitest';
import { printRelation } from '../../../../server/src/language/types/relation-type.js';
import { createPipelineTester } from '../../../helpers/pipeline.js';

/**
 * Long flat operator chains (`a + b + ... `, `p AND q AND ...`): a tree as deep as the chain is long
 * (AND / OR balanced as Spark balances them), checked without running out of stack and without a
 * false "nested too deeply": every operand is still resolved, and the chain's column is typed.
 */

const tester = createPipelineTester();

afterEach(() => tester.clear());

const catalog = 'CREATE TABLE raw.t (a INT, b INT, s STRING);';
const terms = 20_000;

describe(`${terms.toLocaleString('en')}-term operator chains are checked like short ones`, () => {
    test('a + chain and an AND chain: no diagnostics but the one unknown column at the end of each, and typed output columns', async () => {
        const plus = Array.from({ length: terms }, (_, i) => (i % 2 ? 'a' : 'b')).join(' + ');
        const and = Array.from({ length: terms }, (_, i) => `${i % 2 ? 'a' : 'b'} > ${i}`).join(' AND ');
        const p = await tester.load({
            'a.sql': `CREATE MATERIALIZED VIEW chains AS SELECT ${plus} + nope AS total, ${and} AND nope2 > 0 AS ok, ${plus} AS fine FROM raw.t;
CREATE MATERIALIZED VIEW typed AS SELECT total, ok, fine, missing FROM chains;`,
        }, { catalog, spec: {} });
        const diagnostics = p.diagnostics('a.sql');
        expect(diagnostics.map(d => d.replace(/^\[[^\]]*\] /, ''))).toEqual([
            'error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'nope\' does not exist in \'raw.t\' (a, b, s).',
            'error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'nope2\' does not exist in \'raw.t\' (a, b, s).',
            'error UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'missing\' does not exist in \'chains\' (total, ok, fine).',
        ]);
        const chains = tester.services.pipeline.Model.modelFor(URI.file(`${p.root}/a.sql`)).datasetsNamed('chains')[0];
        expect(printRelation(tester.services.types.TypeComputer.datasetSchema(chains.node))).toBe('total unknown, ok boolean, fine int');
    }, 120_000);
});
