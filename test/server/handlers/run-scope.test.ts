import { describe, expect, test } from 'vitest';
import type { PipelineIR } from '../../../engine/src/index.js';
import { datasetDependencies, findDataset, refreshList } from '../../../server/src/handlers/run-scope.js';
import { errorDiagnostic } from '../../../server/src/handlers/pipeline-run-handler.js';
import { fileUri, spanRange, toRunError } from '../../../server/src/handlers/run-results.js';

const span = { file: '/p/t.sql', line: 1, column: 1, endLine: 1, endColumn: 2 };
const read = (name: string, streaming = true) => ({ kind: 'table', source: { kind: 'dataset', name: [name] }, streaming });
const selectFrom = (...names: string[]) => ({ kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: names.map(n => read(n)) } });

/** bronze → silver (CDC) → gold (MV, joins silver and a view over bronze); `other` stands alone. */
const pipeline = {
    irVersion: 1, catalog: [], conf: {},
    datasets: [
        { name: ['bronze'], kind: 'streaming_table', expectations: [], properties: {}, span },
        { name: ['silver'], kind: 'streaming_table', expectations: [], properties: {}, span },
        { name: ['recent'], kind: 'temporary_view', expectations: [], properties: {}, span, query: selectFrom('bronze') },
        { name: ['sales', 'gold'], kind: 'materialized_view', expectations: [], properties: {}, span },
        { name: ['other'], kind: 'materialized_view', expectations: [], properties: {}, span },
    ],
    flows: [
        { kind: 'append', name: 'bronze', target: ['bronze'], once: false, byName: true, span, query: { kind: 'query', body: { kind: 'select', distinct: false, items: [], from: [{ kind: 'table', source: { kind: 'catalog', name: ['raw'] }, streaming: true }] } } },
        { kind: 'auto_cdc', name: 'silver_cdc', target: ['silver'], once: false, span, source: read('bronze'), keys: { columns: ['id'] }, sequenceBy: { expr: { kind: 'column', name: 'ts' } }, storedAs: { type: 'scd2' } },
        { kind: 'materialized_view', name: 'gold', target: ['sales', 'gold'], span, query: selectFrom('silver', 'recent') },
        { kind: 'materialized_view', name: 'other', target: ['other'], span, query: selectFrom() },
    ],
} as unknown as PipelineIR;

describe('run scope', () => {
    test('dependencies come from flow queries, CDC sources and view queries, never from the written target', () => {
        const deps = datasetDependencies(pipeline);
        expect(Object.fromEntries([...deps].map(([k, v]) => [k, [...v].sort()]))).toEqual({
            bronze: [], silver: ['bronze'], recent: ['bronze'], 'sales.gold': ['recent', 'silver'], other: [],
        });
    });

    test('"Run flow" refreshes the dataset and what it reads, never a view', () => {
        const gold = findDataset(pipeline, 'sales.gold');
        expect(gold.ok && refreshList(pipeline, 'upstream', gold.dataset)).toEqual(['bronze', 'silver', 'sales.gold']);
        const recent = findDataset(pipeline, 'recent');
        expect(recent.ok && refreshList(pipeline, 'upstream', recent.dataset)).toEqual(['bronze']);
    });

    test('"Run from here" refreshes the dataset and what reads it', () => {
        const bronze = findDataset(pipeline, 'bronze');
        expect(bronze.ok && refreshList(pipeline, 'downstream', bronze.dataset)).toEqual(['bronze', 'silver', 'sales.gold']);
        expect(refreshList(pipeline, 'pipeline', undefined)).toBeUndefined();
    });

    test('names are found case-insensitively, by last part, with LIVE., or by flow name', () => {
        const name = (n: string) => {
            const found = findDataset(pipeline, n);
            return found.ok ? found.dataset.name.join('.') : found.message;
        };
        expect(name('GOLD')).toBe('sales.gold');
        expect(name('LIVE.silver')).toBe('silver');
        expect(name('silver_cdc')).toBe('silver');
        expect(name('`bronze`')).toBe('bronze');
        expect(name('nothing')).toBe('The pipeline has no dataset or flow named \'nothing\'.');
    });
});

describe('errors to diagnostics', () => {
    test('an error with a span in a source file points at that clause (0-based range)', () => {
        const error = toRunError({ class: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY', message: 'm', file: '/p/t.sql', line: 7, column: 1, endLine: 7, endColumn: 15 }, () => true);
        expect(error.location).toEqual({ uri: 'file:///p/t.sql', range: { start: { line: 6, character: 0 }, end: { line: 6, character: 14 } } });
        expect(errorDiagnostic(error)).toEqual({
            uri: 'file:///p/t.sql',
            diagnostic: { severity: 1, code: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY', source: 'pipeline-sql run', range: error.location!.range, message: 'm' },
        });
    });

    test('an error in a sample data file blames the file and line', () => {
        const error = toRunError({ class: 'PIPELINE_SQL_SAMPLE_DATA', message: 'bad JSON', file: '/p/samples/a/part-1.jsonl', line: 3 }, uri => uri.endsWith('.sql'));
        expect(error).toEqual({ class: 'PIPELINE_SQL_SAMPLE_DATA', message: 'bad JSON', dataset: undefined, flow: undefined, dataFile: '/p/samples/a/part-1.jsonl', dataLine: 3 });
        expect(errorDiagnostic(error)?.diagnostic.range).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: Number.MAX_SAFE_INTEGER } });
        expect(errorDiagnostic(error)?.uri).toBe('file:///p/samples/a/part-1.jsonl');
    });

    test('an error without a place has no diagnostic', () => {
        expect(errorDiagnostic(toRunError({ class: 'PIPELINE_SQL_STATE_LOCKED', message: 'locked' }, () => true))).toBeUndefined();
    });

    test('paths and URIs', () => {
        expect(fileUri('/a b/c.sql')).toBe('file:///a%20b/c.sql');
        expect(fileUri('memory:/x.sql')).toBe('memory:/x.sql');
        expect(spanRange({ line: 1, column: 1, endLine: 2, endColumn: 5 })).toEqual({ start: { line: 0, character: 0 }, end: { line: 1, character: 4 } });
    });
});
