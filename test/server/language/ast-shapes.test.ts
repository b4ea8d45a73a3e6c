import { afterEach, describe, expect, expectTypeOf, test } from 'vitest';
import type { AstNode, Reference } from 'langium';
import { AstUtils } from 'langium';
import { clearDocuments } from 'langium/test';
import { AST } from '../../../server/src/language/index.js';
import { createParser, createTestServices } from '../../helpers/parse.js';

/**
 * The AST contract other components build on (pipeline model, lowering, completion): the node types
 * exist with these guards and property types. The type assertions are checked by `tsc`, the rest at
 * run time; a grammar change that renames or retypes one of them fails here first.
 */

const { shared, services } = createTestServices();
const parse = createParser(services);

afterEach(() => clearDocuments(shared));

/** All node types under the statements of a text, in document order, without duplicates. */
async function nodeTypes(text: string): Promise<string[]> {
    const { statements, diagnostics } = await parse(text);
    expect(diagnostics).toEqual([]);
    const types = statements.flatMap(statement => [statement, ...AstUtils.streamAllContents(statement)]).map((node: AstNode) => node.$type);
    return [...new Set(types)];
}

describe('AST shapes', () => {
    test('property types of the main nodes', () => {
        expectTypeOf<AST.PipelineFile['statements']>().toEqualTypeOf<AST.Statement[]>();
        expectTypeOf<AST.CreateStreamingTable['name']>().toEqualTypeOf<string>();
        expectTypeOf<AST.CreateStreamingTable['query']>().toEqualTypeOf<AST.Query | undefined>();
        expectTypeOf<AST.CreateStreamingTable['flow']>().toEqualTypeOf<AST.InlineFlow | undefined>();
        expectTypeOf<AST.CreateStreamingTable['orRefresh']>().toEqualTypeOf<boolean>();
        expectTypeOf<AST.DatasetRef['ref']>().toEqualTypeOf<Reference<AST.TableSource>>();
        expectTypeOf<AST.Expectation['condition']>().toEqualTypeOf<AST.Expression>();
        expectTypeOf<AST.AutoCdcFlow['cdc']>().toEqualTypeOf<AST.AutoCdcSpec | AST.SnapshotSpec>();
        expectTypeOf<AST.AutoCdcSpec['clauses']>().toEqualTypeOf<AST.AutoCdcClause[]>();
        expectTypeOf<AST.SequenceByClause['expression']>().toEqualTypeOf<AST.Expression>();
        expectTypeOf<AST.StoredAsClause['scdType']>().toEqualTypeOf<number | undefined>();
        expectTypeOf<AST.SelectQuery['where']>().toEqualTypeOf<AST.Expression | undefined>();
        expectTypeOf<AST.JoinRelation['on']>().toEqualTypeOf<AST.Expression | undefined>();
        expectTypeOf<AST.BetweenExpression['lower']>().toEqualTypeOf<AST.Expression>();
        expectTypeOf<AST.BinaryExpression['left']>().toEqualTypeOf<AST.Expression>();
        expectTypeOf<AST.ColumnReference['parts']>().toEqualTypeOf<string[]>();
        expectTypeOf<AST.FunctionCall['parts']>().toEqualTypeOf<string[]>();
        expectTypeOf<AST.FunctionCall['args']>().toEqualTypeOf<AST.FunctionArgument[]>();
    });

    test('a pipeline with every statement family produces the documented node types', async () => {
        const types = await nodeTypes(`
            CREATE OR REFRESH STREAMING TABLE st (id INT, CONSTRAINT c EXPECT (id > 0)) PARTITIONED BY (id) AS SELECT * FROM STREAM(src);
            CREATE MATERIALIZED VIEW mv AS WITH c AS (SELECT 1 AS x) SELECT x FROM c JOIN st ON c.x = st.id LATERAL VIEW explode(a) e AS v;
            CREATE TEMPORARY VIEW v AS SELECT * FROM (SELECT 1) s PIVOT (sum(x) FOR y IN (1)) UNPIVOT (v FOR n IN (a, b));
            CREATE TABLE t FLOW INSERT BY NAME SELECT * FROM VALUES (1) AS r(x);
            CREATE FLOW f1 AS AUTO CDC INTO st FROM STREAM src KEYS (id) SEQUENCE BY ts COLUMNS * EXCEPT (op) STORED AS SCD TYPE 2;
            CREATE FLOW f2 AS AUTO CDC INTO st FROM SNAPSHOT (SELECT * FROM s) KEYS (id);
            CREATE FLOW f3 AS INSERT INTO st BY NAME SELECT * FROM STREAM read_files('/p', format => 'json');
            APPLY CHANGES INTO st FROM src KEYS (id) SEQUENCE BY ts;
            SET a = 1; USE CATALOG c`);
        expect(types).toEqual(expect.arrayContaining([
            'CreateStreamingTable', 'CreateMaterializedView', 'CreateView', 'CreateTable', 'CreateFlow', 'ApplyChanges', 'SetStatement', 'UseStatement',
            'TableSpec', 'ColumnDef', 'Expectation', 'PartitionedByClause', 'InlineFlow', 'InsertFlow', 'AutoCdcFlow', 'AutoCdcSpec', 'SnapshotSpec',
            'SourceRef', 'ColumnNameList', 'SequenceByClause', 'ColumnsClause', 'ColumnSelection', 'StoredAsClause',
            'Query', 'SelectQuery', 'CommonTableExpression', 'FromClause', 'TableReference', 'DatasetRef', 'JoinRelation', 'LateralView',
            'SubqueryRelation', 'PivotRelation', 'UnpivotRelation', 'ValuesRelation', 'TableFunctionCall', 'FunctionArgument',
            'SelectItem', 'ColumnReference', 'FunctionCall', 'BinaryExpression', 'Star', 'NumberLiteral', 'StringLiteral',
        ]));
    });

    test('the generated guards recognise the nodes', async () => {
        const { statements } = await parse('SELECT f(x) FROM a JOIN b ON a.k = b.k');
        const nodes = [...AstUtils.streamAllContents(statements[0])];
        expect(nodes.filter(AST.isJoinRelation)).toHaveLength(1);
        expect(nodes.filter(AST.isFunctionCall)).toHaveLength(1);
        expect(nodes.filter(AST.isColumnReference).map(c => c.parts.join('.'))).toEqual(['x', 'a.k', 'b.k']);
        expect(nodes.filter(AST.isExpression).length).toBeGreaterThan(0);
        expect(AST.isDataset(statements[0])).toBe(false);
    });
});
