// Datasets defined in Python: the engine runs no Python, so reads of them come from the sample
// catalog, and an update that needs one without sample data stops before it starts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineIR, PythonDatasetIR } from '../../../engine/src/ir.js';
import { appendFlow, catalogTable, materializedView, mvFlow, pipeline, select, selectStar, stream, streamingTable, table, temporaryView } from '../helpers/ir-builder.js';
import { Workspace, expected, rowsOf } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const bronze: PythonDatasetIR = {
    name: ['bronze'], definedBy: '@dlt.table',
    span: { file: '/p/transformations/ingest.py', line: 12, column: 5, endLine: 12, endColumn: 11 },
};

/** `silver` reads the Python dataset `bronze` as a stream (through a view); `other` reads only the catalog table `events`. */
function ir(): PipelineIR {
    const ir = pipeline([
        temporaryView('bronze_v', selectStar(stream('bronze'))),
        streamingTable('silver'),
        materializedView('other'),
    ], [
        appendFlow('silver', 'silver', selectStar(stream('ds:bronze_v'))),
        mvFlow('other', select(['*'], { from: [table('events')] })),
    ], [catalogTable('events', 'id INT', 'json')]);
    ir.pythonDatasets = [bronze];
    return ir;
}

describe('Python datasets in a local run', () => {
    it('a Python dataset without sample data stops the update before it starts, naming the dataset, its file and line', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1 }]);
        const error = await ws.fails(ir());
        expect(error).toMatchObject({ class: 'PIPELINE_SQL_PYTHON_DATASET_WITHOUT_SAMPLES', file: '/p/transformations/ingest.py', line: 12, dataset: 'silver' });
        expect(error.message).toContain("'silver' reads 'bronze' through the view 'bronze_v', which is defined in Python (@dlt.table at ingest.py:12)");
        expect(error.message).toContain('samples/bronze.csv');
        // Nothing ran: no state was written, not even for the dataset that does not need Python.
        expect(fs.existsSync(path.join(ws.state))).toBe(false);
    });

    it('a refresh of datasets that do not read the Python dataset runs', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1 }, { id: 2 }]);
        const result = await ws.ok(ir(), { refresh: ['other'] });
        expect(rowsOf(result.datasets.other.rows, 'id')).toEqual(expected([1], [2]));
    });

    it('a Python dataset with sample data is read from samples/<name>', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1 }]);
        ws.append('bronze', [{ order_id: 10 }, { order_id: 11 }]);
        const result = await ws.ok(ir());
        expect(rowsOf(result.datasets.silver.rows, 'order_id')).toEqual(expected([10], [11]));
    });

    it('a SQL flow into a Python table cannot run locally: the update says so, naming the Python line', async () => {
        ws = new Workspace();
        ws.append('events', [{ id: 1 }]);
        const into = pipeline([], [appendFlow('to_bronze', 'bronze', selectStar(stream('events')))], [catalogTable('events', 'id INT', 'json')]);
        into.pythonDatasets = [bronze];
        const error = await ws.fails(into);
        expect(error.message).toContain("The flow 'to_bronze' writes 'bronze', which is defined in Python (@dlt.table at ingest.py:12)");
    });
});
