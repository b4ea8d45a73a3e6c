import { URI } from 'langium';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterEach, describe, expect, test } from 'vitest';
import { createPipelineTester } from '../../../helpers/pipeline.js';
import { toPipelineGraph } from '../../../../server/src/language/pipeline/pipeline-graph.js';

const tester = createPipelineTester();
const model = (root: string) => tester.services.pipeline.Model.modelFor(URI.file(`${root}/a.sql`));

afterEach(() => tester.clear());

const pipelineFiles = {
    'a.sql': `CREATE OR REFRESH STREAMING TABLE bronze AS SELECT * FROM STREAM read_files('/data/raw', format => 'json');
CREATE STREAMING TABLE silver;
CREATE FLOW silver_cdc AS AUTO CDC INTO silver FROM STREAM(bronze) KEYS (id) SEQUENCE BY ts;
CREATE PRIVATE MATERIALIZED VIEW gold AS SELECT count(*) AS n FROM silver JOIN cdc_data.users USING (id);`,
    'b.sql': `CREATE TEMPORARY VIEW recent AS SELECT * FROM gold;
CREATE TABLE archive FLOW INSERT ONCE BY NAME SELECT * FROM bronze;
CREATE FLOW late AS INSERT INTO silver BY NAME SELECT * FROM STREAM(bronze);
APPLY CHANGES INTO LIVE.snap_target FROM STREAM(bronze) KEYS (id) SEQUENCE BY ts;
CREATE STREAMING TABLE snap_target;
CREATE FLOW snap AS AUTO CDC ONCE INTO snap_target FROM SNAPSHOT (SELECT * FROM gold) KEYS (n);`,
};

describe('the pipeline model', () => {
    test('datasets with their kinds, and the flows writing each, in declaration order', async () => {
        const p = await tester.load(pipelineFiles, { catalog: 'CREATE TABLE cdc_data.users (id INT);' });
        const m = model(p.root);
        expect(m.datasets.map(d => `${d.displayName} ${d.kind}${d.private ? ' private' : ''}: ${d.flows.map(f => `${f.name}/${f.kind}`).join(', ')}`)).toEqual([
            'bronze streaming-table: bronze/append',
            'silver streaming-table: silver_cdc/auto-cdc, late/append',
            'gold materialized-view private: gold/materialized-view',
            'recent temporary-view: recent/view',
            'archive managed-table: archive/append-once',
            'snap_target streaming-table: LIVE.snap_target/auto-cdc, snap/snapshot-once',
        ]);
    });

    test('what each flow reads: pipeline datasets, catalog tables, files; stream or batch', async () => {
        const p = await tester.load(pipelineFiles, { catalog: 'CREATE TABLE cdc_data.users (id INT);' });
        const m = model(p.root);
        const describe = (name: string) => m.flows.filter(f => f.name === name).map(f => f.inputs.map(i =>
            `${i.name}${i.streaming ? ' (stream)' : ''} -> ${i.dataset ? `dataset ${i.dataset.displayName}` : i.catalogTable ? 'catalog' : 'outside'}`).join('; '));
        expect(describe('bronze')).toEqual(['read_files(\'/data/raw\', format => \'json\') (stream) -> outside']);
        expect(describe('silver_cdc')).toEqual(['bronze (stream) -> dataset bronze']);
        expect(describe('gold')).toEqual(['silver -> dataset silver; cdc_data.users -> catalog']);
        expect(describe('snap')).toEqual(['gold -> dataset gold']);
        expect(m.queryMode(m.flows.find(f => f.name === 'bronze')!)).toBe('streaming');
        expect(m.queryMode(m.flows.find(f => f.name === 'gold')!)).toBe('batch');
    });

    test('a view over a stream makes its readers\' mode unknown rather than batch', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE TEMPORARY VIEW v AS SELECT * FROM STREAM(src);\nCREATE STREAMING TABLE t AS SELECT * FROM v;',
        });
        const m = model(p.root);
        expect(m.queryMode(m.flows.find(f => f.name === 't')!)).toBe('unknown');
    });

    test('cycles name every dataset on them; an acyclic pipeline has none', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE MATERIALIZED VIEW a1 AS SELECT * FROM c1;\nCREATE MATERIALIZED VIEW b1 AS SELECT * FROM a1;\nCREATE MATERIALIZED VIEW c1 AS SELECT * FROM b1;\n'
                + 'CREATE MATERIALIZED VIEW selfish AS SELECT * FROM selfish;\nCREATE MATERIALIZED VIEW fine AS SELECT * FROM a1;',
        });
        expect(model(p.root).cycles.map(c => c.map(d => d.displayName))).toEqual([['a1', 'b1', 'c1'], ['selfish']]);
        const acyclic = await tester.load({ 'a.sql': 'CREATE MATERIALIZED VIEW x AS SELECT 1 AS a;\nCREATE MATERIALIZED VIEW y AS SELECT * FROM x;' });
        expect(model(acyclic.root).cycles).toEqual([]);
    });

    test('the protocol graph: dataset, flow and source nodes, read and write edges, ranges', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t FROM STREAM(raw.events) KEYS (id) SEQUENCE BY ts;\nCREATE MATERIALIZED VIEW m AS SELECT * FROM t;',
        }, { catalog: 'CREATE TABLE raw.events (id INT, ts INT);', spec: { name: 'demo' } });
        const graph = toPipelineGraph(tester.services.pipeline.Model.modelFor(URI.file(`${p.root}/a.sql`)));
        expect(graph.pipeline).toEqual({ id: p.root, root: p.root, name: 'demo' });
        expect(graph.nodes.map(n => `${n.id} ${n.kind}${n.flowKind ? ` ${n.flowKind}` : ''}${n.scd ? ` scd ${n.scd}` : ''}${n.inline ? ' inline' : ''}${n.sampled ? ' sampled' : ''}`)).toEqual([
            'dataset:t streaming-table',
            'dataset:m materialized-view',
            'flow:f flow auto-cdc scd 1',
            'source:raw.events source sampled',
            'flow:m flow materialized-view inline',
        ]);
        expect(graph.edges.map(e => `${e.from} -${e.kind}${e.streaming ? ' (stream)' : ''}-> ${e.to}`)).toEqual([
            'source:raw.events -read (stream)-> flow:f',
            'flow:f -write-> dataset:t',
            'dataset:t -read-> flow:m',
            'flow:m -write-> dataset:m',
        ]);
        expect(graph.nodes[0].range).toEqual({ start: { line: 0, character: 23 }, end: { line: 0, character: 24 } });
        expect(graph.cycles).toEqual([]);
    });
});

describe('the pipeline model after an edit', () => {
    test('a model asked for while a changed file waits to be parsed again does not keep that file\'s old datasets', async () => {
        const p = await tester.load({
            'a.sql': 'CREATE STREAMING TABLE users_changes AS SELECT * FROM STREAM(raw.users);',
            'b.sql': 'CREATE MATERIALIZED VIEW counts AS SELECT count(*) AS n FROM users_changes;',
        });
        const a = p.documents.get('a.sql')!;
        const { TextDocuments, DocumentBuilder } = tester.shared.workspace;
        TextDocuments!.set(TextDocument.create(a.uri.toString(), 'pipeline-sql', 2, 'CREATE STREAMING TABLE user_changes AS SELECT * FROM STREAM(raw.users);'));
        // A request served between the change notice and the new parse (a code lens, say) reads the model.
        const listener = DocumentBuilder.onUpdate(() => {
            model(p.root);
        });
        try {
            await DocumentBuilder.update([a.uri], []);
        } finally {
            listener.dispose();
        }
        expect(model(p.root).datasets.map(d => d.displayName)).toEqual(['user_changes', 'counts']);
        expect(p.diagnostics('b.sql')).toEqual([
            expect.stringContaining('TABLE_OR_VIEW_NOT_FOUND \'users_changes\' is not a dataset of this pipeline'),
        ]);
        expect(p.diagnostics('b.sql')[0]).toContain('Did you mean \'user_changes\'?');
    });
});
