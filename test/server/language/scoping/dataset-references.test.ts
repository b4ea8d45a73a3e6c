import { AstUtils, type LangiumDocument } from 'langium';
import { afterEach, describe, expect, test } from 'vitest';
import { AST } from '../../../../server/src/language/index.js';
import { createPipelineTester } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();

afterEach(() => tester.clear());

/** Every dataset reference of a document as `text -> what it names` (`kind name in file`, `CTE name`, `unresolved`). */
function resolved(document: LangiumDocument): string[] {
    return AstUtils.streamAst(document.parseResult.value).filter(AST.isDatasetRef).map(ref => {
        const target = ref.ref.ref;
        if (!target) {
            return `${ref.ref.$refText} -> unresolved`;
        }
        if (AST.isCommonTableExpression(target)) {
            return `${ref.ref.$refText} -> CTE ${target.name}`;
        }
        const file = AstUtils.getDocument(target).uri.path.replace(/^\/virtual\/p\d+\//, '');
        return `${ref.ref.$refText} -> ${target.$type} ${target.name} in ${file}`;
    }).toArray();
}

describe('dataset references across the files of a pipeline', () => {
    test('x, LIVE.x, STREAM(x), STREAM x and a different case all name the dataset of another file', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE STREAMING TABLE Bronze AS SELECT 1 AS id;',
            'b.sql': 'CREATE MATERIALIZED VIEW m1 AS SELECT * FROM bronze;\n'
                + 'CREATE MATERIALIZED VIEW m2 AS SELECT * FROM LIVE.bronze;\n'
                + 'CREATE STREAMING TABLE s1 AS SELECT * FROM STREAM(BRONZE);\n'
                + 'CREATE STREAMING TABLE s2 AS SELECT * FROM STREAM live.bronze;',
        });
        expect(resolved(p.documents.get('b.sql')!)).toEqual([
            'bronze -> CreateStreamingTable Bronze in a.sql',
            'LIVE.bronze -> CreateStreamingTable Bronze in a.sql',
            'BRONZE -> CreateStreamingTable Bronze in a.sql',
            'live.bronze -> CreateStreamingTable Bronze in a.sql',
        ]);
    });

    test('flow targets, AUTO CDC sources and FROM SNAPSHOT tables resolve to datasets, never to CTEs', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE STREAMING TABLE t;\nCREATE TEMPORARY VIEW changes AS SELECT 1 AS id, 1 AS seq;',
            'b.sql': 'CREATE FLOW f AS AUTO CDC INTO t FROM STREAM(changes) KEYS (id) SEQUENCE BY seq;\n'
                + 'CREATE FLOW g AS INSERT INTO t BY NAME WITH t AS (SELECT 1 AS id) SELECT * FROM t;',
        });
        expect(resolved(p.documents.get('b.sql')!)).toEqual([
            't -> CreateStreamingTable t in a.sql',
            'changes -> CreateView changes in a.sql',
            't -> CreateStreamingTable t in a.sql',
            't -> CTE t',
        ]);
    });

    test('a CTE shadows a dataset inside its query; a non-recursive CTE named like a table reads the table', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW orders AS SELECT 1 AS id;\n'
                + 'CREATE MATERIALIZED VIEW v AS WITH orders AS (SELECT * FROM orders WHERE id > 0), o2 AS (SELECT * FROM orders) SELECT * FROM o2;',
        });
        expect(resolved(p.documents.get('a.sql')!)).toEqual([
            'orders -> CreateMaterializedView orders in a.sql',
            'orders -> CTE orders',
            'o2 -> CTE o2',
        ]);
    });

    test('two pipelines do not see each other\'s datasets', async () => {
        const first = await tester.load({ 'a.sql': 'CREATE STREAMING TABLE shared_name AS SELECT * FROM STREAM(src);' });
        const second = await tester.load({ 'b.sql': 'CREATE MATERIALIZED VIEW v AS SELECT * FROM shared_name;' });
        expect(resolved(second.documents.get('b.sql')!)).toEqual(['shared_name -> unresolved']);
        expect(resolved(first.documents.get('a.sql')!)).toEqual(['src -> unresolved']);
    });

    test('sources resolve to the CREATE TABLEs of the pipeline\'s samples/*.sql, by trailing name parts', async () => {
        const p = await tester.load(
            { 'a.sql': 'CREATE MATERIALIZED VIEW v AS SELECT * FROM cdc_data.users JOIN main.cdc_data.users USING (id) JOIN users USING (id);' },
            { catalog: 'CREATE TABLE cdc_data.users (id INT, name STRING);' },
        );
        expect(resolved(p.documents.get('a.sql')!)).toEqual([
            'cdc_data.users -> CreateTable cdc_data.users in samples/catalog.sql',
            'main.cdc_data.users -> CreateTable cdc_data.users in samples/catalog.sql',
            'users -> CreateTable cdc_data.users in samples/catalog.sql',
        ]);
    });

    test('a qualified name matches a dataset only when the pipeline\'s catalog and schema say so', async () => {
        const withSchema = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT * FROM main.sales.x UNION ALL SELECT * FROM sales.x UNION ALL SELECT * FROM other.x;',
        }, { spec: { catalog: 'main', schema: 'sales' } });
        expect(resolved(withSchema.documents.get('b.sql')!)).toEqual([
            'main.sales.x -> CreateMaterializedView x in a.sql',
            'sales.x -> CreateMaterializedView x in a.sql',
            'other.x -> unresolved',
        ]);
        const without = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT * FROM sales.x;',
        });
        expect(resolved(without.documents.get('b.sql')!)).toEqual(['sales.x -> unresolved']);
    });

    test('USE SCHEMA before a definition qualifies it; pipeline parameters from the configuration are substituted', async () => {
        const p = await tester.load({
            'a.sql': 'USE SCHEMA silver;\nCREATE MATERIALIZED VIEW x AS SELECT 1 AS a;',
            'b.sql': 'CREATE MATERIALIZED VIEW y AS SELECT * FROM silver.x JOIN ${env}.x USING (a) JOIN ${unknown}.x USING (a);',
        }, { spec: { configuration: { env: 'silver' } } });
        expect(resolved(p.documents.get('b.sql')!)).toEqual([
            'silver.x -> CreateMaterializedView x in a.sql',
            '${env}.x -> CreateMaterializedView x in a.sql',
            '${unknown}.x -> unresolved',
        ]);
    });

    test('a qualified read of the dataset being defined names a source table, not itself', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW sales AS SELECT * FROM ${src}.raw.sales;\nCREATE MATERIALIZED VIEW loop AS SELECT * FROM loop;',
        });
        expect(resolved(p.documents.get('a.sql')!)).toEqual([
            '${src}.raw.sales -> unresolved',
            'loop -> CreateMaterializedView loop in a.sql',
        ]);
    });

    test('the scope lists the visible CTEs, the pipeline\'s datasets and its catalog tables', async () => {
        const p = await tester.load(
            { 'a.sql': 'CREATE STREAMING TABLE s AS SELECT * FROM STREAM(raw.e);', 'b.sql': 'CREATE MATERIALIZED VIEW v AS WITH c AS (SELECT 1) SELECT * FROM c;' },
            { catalog: 'CREATE TABLE raw.e (id INT);' },
        );
        const ref = AstUtils.streamAst(p.documents.get('b.sql')!.parseResult.value).filter(AST.isDatasetRef).head()!;
        const scope = tester.services.references.ScopeProvider.getScope({ reference: ref.ref, container: ref, property: 'ref' });
        expect(scope.getAllElements().map(d => d.name).toArray().sort()).toEqual(['c', 'raw.e', 's', 'v']);
    });
});
