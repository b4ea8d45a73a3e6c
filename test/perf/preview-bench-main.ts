/**
 * Benchmark of the preview's pure parts on large results (issue 6: the grid stays fast on 100,000
 * rows): ordering and filtering the rows of the grid, the virtual window (the grid renders only the
 * rows it returns), change marks, and the SCD2 and bitemporal pictures, for 100,000 and 1,000,000
 * rows. Each step prints its median of five runs after a warm-up. Run by `npm run bench`
 * (test/perf/run.ts) or alone with `node --import tsx test/perf/preview-bench-main.ts`; not part of
 * the test suite: numbers vary by machine.
 */
import { annotateChanges } from '../../client/webview/model/changes.js';
import { viewportWindow, visibleOrder } from '../../client/webview/model/grid.js';
import { bitemporalPicture } from '../../client/webview/model/bitemporal.js';
import { scd2Picture } from '../../client/webview/model/scd2.js';
import type { DatasetChangesModel, ResultColumn, ResultRow } from '../../common/result-model.js';

const pad = (n: number): string => String(n).padStart(2, '0');
const time = (day: number, minute: number): string => `2025-01-${pad(1 + (day % 28))} ${pad(Math.floor(minute / 60) % 24)}:${pad(minute % 60)}:00`;

/** An SCD2-shaped table: `keys` keys with `versions` versions each. */
function history(keys: number, versions: number): ResultRow[] {
    const rows: ResultRow[] = [];
    for (let k = 0; k < keys; k++) {
        for (let v = 0; v < versions; v++) {
            rows.push({
                id: k, name: `user ${k}`, city: `city ${(k * 7 + v) % 97}`,
                __START_AT: time(v, k % 1000), __END_AT: v === versions - 1 ? null : time(v + 1, k % 1000),
            });
        }
    }
    return rows;
}

function median(run: () => void): number {
    run();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
        const started = performance.now();
        run();
        times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[2];
}

const columns: ResultColumn[] = ['id', 'name', 'city', '__START_AT', '__END_AT'].map(name => ({ name, type: 'STRING' }));
console.log('| rows | step | median ms |');
console.log('|---|---|---|');
for (const size of [100_000, 1_000_000]) {
    const rows = history(size / 4, 4);
    const names = columns.map(c => c.name);
    const bitemporalRows = rows.map(r => ({ ...r, __SYSTEM_START_AT: r.__START_AT, __SYSTEM_END_AT: r.__END_AT }));
    const bitemporalColumns: ResultColumn[] = [...columns, { name: '__SYSTEM_START_AT', type: 'STRING' }, { name: '__SYSTEM_END_AT', type: 'STRING' }];
    const changes: DatasetChangesModel = { inserted: 1000, updated: 0, deleted: 0, rows: { inserted: rows.slice(0, 1000), updated: [], deleted: [] } };
    const steps: Array<[string, () => unknown]> = [
        ['sort by a text column', () => visibleOrder(rows, names, '', { column: 'city', direction: 'asc' })],
        ['sort by a number, descending', () => visibleOrder(rows, names, '', { column: 'id', direction: 'desc' })],
        ['filter by key', () => visibleOrder(rows, ['id'], '4711', undefined)],
        ['virtual window', () => viewportWindow(rows.length * 12, 600, 24, rows.length)],
        ['change marks (1,000 inserted)', () => annotateChanges(rows, names, changes)],
        ['SCD2 picture (200 keys drawn)', () => scd2Picture(rows, columns, ['id'], { width: 1200, mode: 'proportional' })],
        ['bitemporal picture (50 keys drawn)', () => bitemporalPicture(bitemporalRows, bitemporalColumns, ['id'], { width: 1200, mode: 'even' })],
    ];
    for (const [step, run] of steps) {
        console.log(`| ${size.toLocaleString('en-US')} | ${step} | ${median(run).toFixed(1)} |`);
    }
}
