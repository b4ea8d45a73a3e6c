// What the editor accepts under Spark's name rules (issue 11 item 5) also runs, with the names Spark gives:
// an expectation qualified by the query's table alias, an unaliased cast named after its column, unit words.
import { afterEach, describe, expect, test } from 'vitest';
import { Workspace, expected, rowsOf } from '../../engine/helpers/workspace.js';
import { lower } from './lower-helper.js';

let ws: Workspace | undefined;
afterEach(() => ws?.dispose());

const catalog = { 'catalog.sql': "CREATE TABLE raw.events (id INT, region STRING, ts TIMESTAMP) USING JSON LOCATION 'raw/events';\n" };

describe('Spark name rules in a run', () => {
    test('EXPECT (e.id IS NOT NULL) over FROM raw.events e drops the rows it fails; CAST(id AS STRING) is the column id; datediff(MINUTE, ...) counts minutes', async () => {
        const lowered = await lower(`CREATE OR REFRESH MATERIALIZED VIEW checked (
  CONSTRAINT has_id EXPECT (e.id IS NOT NULL) ON VIOLATION DROP ROW,
  CONSTRAINT named EXPECT (checked.region IS NOT NULL)
) AS SELECT e.id, region, e.ts FROM raw.events e;
CREATE OR REFRESH MATERIALIZED VIEW typed AS SELECT CAST(id AS STRING), region::STRING, datediff(MINUTE, ts, ts + INTERVAL 2 HOURS) AS minutes FROM checked;
CREATE OR REFRESH MATERIALIZED VIEW downstream AS SELECT id, region, minutes FROM typed;`, { catalog });
        expect([...lowered.diagnostics, ...lowered.problems]).toEqual([]);
        ws = new Workspace();
        ws.append('raw.events', [
            { id: 1, region: 'eu', ts: '2024-01-01 10:00:00' },
            { id: null, region: 'us', ts: '2024-01-01 11:00:00' },
            { id: 2, region: null, ts: '2024-01-01 12:00:00' },
        ]);
        const result = await ws.ok(lowered.pipeline);
        expect(result.datasets.typed.columns.map(c => `${c.name} ${c.type}`)).toEqual(['id STRING', 'region STRING', 'minutes BIGINT']);
        expect(rowsOf(result.datasets.downstream.rows, 'id', 'region', 'minutes')).toEqual(expected(['1', 'eu', 120], ['2', null, 120]));
        expect(result.metrics.checked.expectations).toEqual({
            has_id: { passed_records: 2, failed_records: 1, dropped_records: 1 }, named: { passed_records: 1, failed_records: 1 },
        });
    });
});
