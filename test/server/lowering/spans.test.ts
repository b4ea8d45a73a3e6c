// Source spans in the IR: datasets, flows, each AUTO CDC clause, expectations and expressions carry
// the file and the 1-based, end-exclusive range of their text, so that runtime errors point at the
// clause that caused them.
import { describe, expect, test } from 'vitest';
import type { AutoCdcFlowIR, SnapshotFlowIR } from '../../../engine/src/index.js';
import { lower } from './lower-helper.js';
import { printSpan } from './print-ir.js';

describe('source spans', () => {
    test('an AUTO CDC flow: the statement, the source, and each clause from its first keyword', async () => {
        const sql = [
            'CREATE OR REFRESH STREAMING TABLE target;',
            '',
            'CREATE FLOW target_cdc AS AUTO CDC INTO target',
            'FROM stream(cdc_data.users)',
            'KEYS (userId)',
            'APPLY AS DELETE WHEN operation = "DELETE"',
            'SEQUENCE BY sequenceNum',
            'COLUMNS * EXCEPT (operation, sequenceNum)',
            'STORED AS SCD TYPE 2;',
        ].join('\n');
        const result = await lower(sql);
        const flow = result.pipeline.flows[0] as AutoCdcFlowIR;
        expect(flow.span.file).toBe('/pipeline/pipeline.sql');
        expect({
            dataset: printSpan(result.pipeline.datasets[0].span),
            flow: printSpan(flow.span),
            source: printSpan(flow.source.span),
            keys: printSpan(flow.keys.span),
            delete: printSpan(flow.applyAsDeleteWhen?.span),
            deleteCondition: printSpan(flow.applyAsDeleteWhen?.condition.span),
            sequenceBy: printSpan(flow.sequenceBy.span),
            sequenceExpr: printSpan(flow.sequenceBy.expr.span),
            columns: printSpan(flow.columns?.span),
            storedAs: printSpan(flow.storedAs.span),
        }).toEqual({
            dataset: 'pipeline.sql:1:1-1:41',
            flow: 'pipeline.sql:3:1-9:21',
            source: 'pipeline.sql:4:6-4:28',
            keys: 'pipeline.sql:5:1-5:14',
            delete: 'pipeline.sql:6:1-6:42',
            deleteCondition: 'pipeline.sql:6:22-6:42',
            sequenceBy: 'pipeline.sql:7:1-7:24',
            sequenceExpr: 'pipeline.sql:7:13-7:24',
            columns: 'pipeline.sql:8:1-8:42',
            storedAs: 'pipeline.sql:9:1-9:21',
        });
    });

    test('expectations, snapshot queries and version queries', async () => {
        const result = await lower([
            'CREATE STREAMING TABLE t (',
            '  CONSTRAINT ok EXPECT (id > 0) ON VIOLATION DROP ROW',
            ');',
            'CREATE FLOW s AS AUTO CDC INTO t',
            'FROM SNAPSHOT (SELECT * FROM snaps WHERE v = current_snapshot_version())',
            'WITH VERSION (SELECT max(v) FROM snaps)',
            'KEYS (id);',
        ].join('\n'));
        const flow = result.pipeline.flows[0] as SnapshotFlowIR;
        expect({
            expectation: printSpan(result.pipeline.datasets[0].expectations[0].span),
            condition: printSpan(result.pipeline.datasets[0].expectations[0].condition.span),
            snapshot: printSpan(flow.snapshot.span),
            version: printSpan(flow.version?.span),
            keys: printSpan(flow.keys.span),
        }).toEqual({
            expectation: 'pipeline.sql:2:3-2:54',
            condition: 'pipeline.sql:2:25-2:31',
            snapshot: 'pipeline.sql:5:16-5:72',
            version: 'pipeline.sql:6:1-6:39',
            keys: 'pipeline.sql:7:1-7:10',
        });
    });
});
