import { describe, expect, test } from 'vitest';
import { parseTableName } from '../../../../server/src/language/references/dataset-names.js';
import { readPythonDefinitions } from '../../../../server/src/project/python/python-definitions.js';
import { PythonPipelineDatasets, pythonDatasetsIR } from '../../../../server/src/project/python/python-pipeline.js';

const ingest = [
    'import dlt',
    '@dlt.table(name="main.sales.orders")',
    'def orders():',
    '    return spark.read.table("raw.orders")',
    '@dlt.append_flow(target="LIVE.orders")',
    'def more_orders():',
    '    return spark.readStream.table("raw.more")',
    'dlt.create_sink("out", format="kafka")',
].join('\n');

function pipeline(target?: string): PythonPipelineDatasets {
    return new PythonPipelineDatasets([{ file: '/p/ingest.py', definitions: readPythonDefinitions(ingest) }],
        { parseName: parseTableName, target, defaults: { catalog: 'main', schema: 'sales' } });
}

describe('the Python datasets of a pipeline', () => {
    test('are found by Spark\'s name rules: case-insensitive, LIVE. dropped, qualifiers compared with the pipeline\'s', () => {
        const python = pipeline();
        const find = (name: string, defaults = { catalog: 'main', schema: 'sales' }) => python.find(parseTableName(name), defaults).map(e => e.displayName);
        expect(find('orders')).toEqual(['main.sales.orders']);
        expect(find('ORDERS')).toEqual(['main.sales.orders']);
        expect(find('LIVE.orders')).toEqual(['main.sales.orders']);
        expect(find('sales.orders')).toEqual(['main.sales.orders']);
        expect(find('other.orders')).toEqual([]);
        expect(find('orders_x')).toEqual([]);
    });

    test('a flow into a dataset of the same files is attached to it, its own query first', () => {
        const [orders] = pipeline().datasets;
        expect(orders.flows.map(f => `${f.flow.name} ${f.kind}`)).toEqual(['main.sales.orders materialized-view', 'more_orders append']);
    });

    test('under Apache Spark a batch @table is a streaming table and its query an append flow', () => {
        const [orders] = pipeline('spark-4.2').datasets;
        expect(orders.kind).toBe('streaming-table');
        expect(orders.flows[0].kind).toBe('append');
        expect(pipeline('databricks').datasets[0].kind).toBe('materialized-view');
    });

    test('the engine gets each dataset\'s name parts, how it is defined and its 1-based place', () => {
        expect(pythonDatasetsIR(pipeline())).toEqual([
            { name: ['main', 'sales', 'orders'], definedBy: '@dlt.table', span: { file: '/p/ingest.py', line: 2, column: 17, endLine: 2, endColumn: 36 } },
            { name: ['out'], definedBy: 'dlt.create_sink', span: { file: '/p/ingest.py', line: 8, column: 17, endLine: 8, endColumn: 22 } },
        ]);
    });
});
