// The sample data commands as VS Code shows them: declared in the manifest (palette, explorer context
// menu on data files, trusted workspaces only) and the texts they show.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { copiesFirstRows, defaultTableName, parseRowLimit, sampleReportText, tableNameProblem } from '../../client/src/sample-data-text.js';

interface Manifest {
    contributes: {
        commands: Array<{ command: string; title: string; category?: string; enablement?: string }>;
        menus: Record<string, Array<{ command: string; when?: string }>>;
    };
}
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as Manifest;

describe('manifest', () => {
    test('Create Sample Data and Use this File as Sample Data are Pipeline SQL commands of trusted workspaces', () => {
        for (const [id, title] of [['pipelineSql.createSampleData', 'Create Sample Data'], ['pipelineSql.useAsSampleData', 'Use this File as Sample Data']]) {
            const command = manifest.contributes.commands.find(c => c.command === id);
            expect(command).toMatchObject({ title, category: 'Pipeline SQL', enablement: 'isWorkspaceTrusted' });
        }
        expect(manifest.contributes.menus.commandPalette.find(m => m.command === 'pipelineSql.createSampleData')?.when).toBe('editorLangId == pipeline-sql');
    });

    test('the explorer offers Use this File as Sample Data on CSV, JSON and Parquet files only', () => {
        const when = manifest.contributes.menus['explorer/context'].find(m => m.command === 'pipelineSql.useAsSampleData')?.when ?? '';
        const pattern = /resourceExtname =~ \/(.+)\/i$/.exec(when)?.[1];
        expect(pattern).toBeDefined();
        const regex = new RegExp(pattern!, 'i');
        expect(['.csv', '.json', '.jsonl', '.parquet', '.CSV'].every(ext => regex.test(ext))).toBe(true);
        expect(['.sql', '.yml', '.py', '.csv.bak'].some(ext => regex.test(ext))).toBe(false);
    });
});

describe('texts', () => {
    test('a default table name from the file name', () => {
        expect(defaultTableName('orders.csv')).toBe('orders');
        expect(defaultTableName('2025 export.jsonl')).toBe('t_2025_export');
        expect(defaultTableName('events.json.gz')).toBe('events');
    });

    test('table names: one to three plain names', () => {
        expect(tableNameProblem('raw.orders')).toBeUndefined();
        expect(tableNameProblem('main.raw.orders')).toBeUndefined();
        expect(tableNameProblem('../etc')).toBe('One to three plain names separated by dots, such as raw.orders.');
        expect(tableNameProblem('a.b.c.d')).toBeDefined();
    });

    test('rows to copy: empty copies the whole file, a whole number from 1 to 100,000 the first rows, anything else is refused', () => {
        expect(parseRowLimit('')).toEqual({});
        expect(parseRowLimit(' 50 ')).toEqual({ rows: 50 });
        expect(parseRowLimit('100000')).toEqual({ rows: 100_000 });
        for (const wrong of ['0', '-5', '2.5', '100001', 'ten', '1e3']) {
            expect(parseRowLimit(wrong).problem, wrong).toBe('A whole number of rows from 1 to 100,000, or nothing to copy the whole file.');
        }
    });

    test('only files of one row per line are offered a first-rows copy', () => {
        expect(['a.csv', 'b.TSV', 'c.jsonl', 'd.ndjson', 'f.parquet'].every(copiesFirstRows)).toBe(true);
        expect(['e.json', 'g.csv.gz'].some(copiesFirstRows)).toBe(false);
    });

    test('the summary names what was created, kept and skipped', () => {
        expect(sampleReportText({
            pipeline: 'users_cdc', written: [], kept: ['raw.present'],
            sources: [{ name: 'cdc_data.users', rows: 20, notes: ['5 keys', 'a late event'] }],
            skipped: [{ name: "read_files('s3://b/x')", reason: 'it is in cloud storage' }],
        })).toBe("Created sample data for cdc_data.users (20 rows: 5 keys, a late event). Kept raw.present (existing samples are never overwritten). Skipped read_files('s3://b/x'): it is in cloud storage");
        expect(sampleReportText({ pipeline: 'p', written: [], kept: ['a'], sources: [], skipped: [] })).toBe('Every source of p has sample data; nothing was created.');
    });
});
