// The bundled sample pipelines (samples/) run through the built CLI, as the README's first command
// does, and show what each is there to show: SCD1 and SCD2 users with a late event, bitemporal prices
// with a late correction, and a snapshot-fed stock history.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../../helpers/parse.js';

type Row = Record<string, unknown>;

interface Output {
    ok: boolean;
    datasets: Record<string, { rows: Row[]; rowCount: number }>;
    metrics: Record<string, { num_upserted_rows?: number; num_deleted_rows?: number; expectations?: Record<string, { passed_records: number; failed_records: number; dropped_records?: number }> }>;
}

let stateRoot: string;

beforeAll(() => {
    stateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-samples-'));
});

afterAll(() => fs.rmSync(stateRoot, { recursive: true, force: true }));

/** Runs a sample through `node out/cli.cjs run samples/<name>` (state kept outside the repository). */
async function runSample(name: string, ...extra: string[]): Promise<{ stdout: string }> {
    const state = path.join(stateRoot, name);
    return promisify(execFile)(process.execPath, [path.join(repoRoot, 'out', 'cli.cjs'), 'run', path.join(repoRoot, 'samples', name), '--state', state, ...extra],
        { maxBuffer: 16 * 1024 * 1024 });
}

async function runSampleJson(name: string): Promise<Output> {
    const { stdout } = await runSample(name, '--json', '--full-refresh');
    const output = JSON.parse(stdout) as Output;
    expect(output.ok).toBe(true);
    return output;
}

/** The rows of a key, with only the given columns, sorted by the first column given. */
function rowsOf(rows: Row[], where: Row, columns: string[]): Row[] {
    return rows.filter(r => Object.entries(where).every(([k, v]) => r[k] === v))
        .map(r => Object.fromEntries(columns.map(c => [c, r[c]])))
        .sort((a, b) => String(a[columns[0]]).localeCompare(String(b[columns[0]])) || String(a[columns[1]]).localeCompare(String(b[columns[1]])));
}

describe('samples/users-cdc', () => {
    test('users_history keeps the late Manchester version of user 2; users_current applies the delete of user 4', async () => {
        const out = await runSampleJson('users-cdc');
        expect(rowsOf(out.datasets.users_history.rows, { user_id: 2 }, ['__START_AT', '__END_AT', 'name', 'city'])).toEqual([
            { __START_AT: '2025-01-01 09:05:00', __END_AT: '2025-01-02 15:00:00', name: 'Alan Turing', city: 'Manchester' },
            // Arrived in the second file, after the Cambridge and Wilmslow events, but earlier in sequence.
            { __START_AT: '2025-01-02 15:00:00', __END_AT: '2025-01-03 11:00:00', name: 'Alan M. Turing', city: 'Manchester' },
            { __START_AT: '2025-01-03 11:00:00', __END_AT: '2025-01-05 09:00:00', name: 'Alan Turing', city: 'Cambridge' },
            { __START_AT: '2025-01-05 09:00:00', __END_AT: null, name: 'Alan Turing', city: 'Wilmslow' },
        ]);
        // The changed email of user 1 does not open a version (TRACK HISTORY ON * EXCEPT (email)).
        expect(rowsOf(out.datasets.users_history.rows, { user_id: 1 }, ['__START_AT', '__END_AT', 'name'])).toEqual([
            { __START_AT: '2025-01-01 09:00:00', __END_AT: '2025-01-06 09:30:00', name: 'Ada Lovelace' },
            { __START_AT: '2025-01-06 09:30:00', __END_AT: null, name: 'Ada King' },
        ]);
        // User 4's delete closes its only version.
        expect(rowsOf(out.datasets.users_history.rows, { user_id: 4 }, ['__START_AT', '__END_AT'])).toEqual([
            { __START_AT: '2025-01-03 12:00:00', __END_AT: '2025-01-06 07:00:00' },
        ]);
        expect(rowsOf(out.datasets.users_current.rows, {}, ['user_id', 'city'])).toEqual([
            { user_id: 1, city: 'London' }, { user_id: 2, city: 'Wilmslow' }, { user_id: 3, city: 'Arlington' },
        ]);
        // The MERGE event of user 5 is dropped by the known_operation expectation; user 4's missing email is only counted.
        expect(out.metrics.users_changes.expectations).toEqual({
            known_operation: { passed_records: 11, failed_records: 1, dropped_records: 1 },
            has_email: { passed_records: 10, failed_records: 1 },
        });
        expect(out.metrics.users_current).toMatchObject({ num_upserted_rows: 3, num_deleted_rows: 0 });
    });

    test('the human output shows the SCD2 table and a summary line', async () => {
        const { stdout } = await runSample('users-cdc', '--full-refresh');
        expect(stdout).toContain('users_history — streaming table, 9 rows\n');
        expect(stdout).toMatch(/ {8}2 {2}Alan M\. Turing +alan@example\.com +Manchester +2025-01-02 15:00:00 +2025-01-03 11:00:00\n/);
        expect(stdout).toMatch(/Update of users_cdc \(.+\) completed in [\d.]+ s: 4 datasets updated, 4 flows run, 2 expectation failures\.\n$/);
    });
});

describe('samples/prices-bitemporal', () => {
    test('ACME\'s late 11:00 correction (recorded 13:00) retires the belief it corrects: five business × system rectangles', async () => {
        const out = await runSampleJson('prices-bitemporal');
        const acme = rowsOf(out.datasets.prices.rows, { instrument: 'ACME' }, ['__SYSTEM_START_AT', '__START_AT', '__END_AT', '__SYSTEM_END_AT', 'price']);
        expect(acme).toEqual([
            // What we believed from 09:31: 101.50 from 09:30 on.
            { __SYSTEM_START_AT: '2025-03-03 09:31:00', __START_AT: '2025-03-03 09:30:00', __END_AT: null, __SYSTEM_END_AT: '2025-03-03 12:01:00', price: 101.5 },
            // From 12:01: 101.50 until 12:00, then 103.
            { __SYSTEM_START_AT: '2025-03-03 12:01:00', __START_AT: '2025-03-03 09:30:00', __END_AT: '2025-03-03 12:00:00', __SYSTEM_END_AT: '2025-03-03 13:00:00', price: 101.5 },
            { __SYSTEM_START_AT: '2025-03-03 12:01:00', __START_AT: '2025-03-03 12:00:00', __END_AT: null, __SYSTEM_END_AT: null, price: 103 },
            // From 13:00, the correction: 101.50 until 11:00, 102.25 until 12:00.
            { __SYSTEM_START_AT: '2025-03-03 13:00:00', __START_AT: '2025-03-03 09:30:00', __END_AT: '2025-03-03 11:00:00', __SYSTEM_END_AT: null, price: 101.5 },
            { __SYSTEM_START_AT: '2025-03-03 13:00:00', __START_AT: '2025-03-03 11:00:00', __END_AT: '2025-03-03 12:00:00', __SYSTEM_END_AT: null, price: 102.25 },
        ]);
        // GLOBEX is delisted at 15:00: what is believed now ends its price there.
        expect(rowsOf(out.datasets.prices.rows, { instrument: 'GLOBEX', __SYSTEM_END_AT: null }, ['__START_AT', '__END_AT'])).toEqual([
            { __START_AT: '2025-03-03 09:30:00', __END_AT: '2025-03-03 15:00:00' },
        ]);
        expect(rowsOf(out.datasets.current_prices.rows, {}, ['instrument', 'price', 'valid_since'])).toEqual([
            { instrument: 'ACME', price: 103, valid_since: '2025-03-03 12:00:00' },
            { instrument: 'INITECH', price: 12, valid_since: '2025-03-03 10:00:00' },
        ]);
    });
});

describe('samples/inventory-snapshots', () => {
    test('stock_history closes GADGET-9 south\'s version at 2025-06-03 and WIDGET-2\'s when it leaves the snapshot', async () => {
        const out = await runSampleJson('inventory-snapshots');
        const history = out.datasets.stock_history.rows;
        expect(rowsOf(history, { sku: 'GADGET-9', warehouse: 'south' }, ['__START_AT', '__END_AT', 'quantity'])).toEqual([
            { __START_AT: '2025-06-01', __END_AT: '2025-06-03', quantity: 15 },
            { __START_AT: '2025-06-03', __END_AT: null, quantity: 3 },
        ]);
        // Only quantity is tracked: WIDGET-2's price change on 06-02 is corrected in place; it is gone from the 06-03 snapshot.
        expect(rowsOf(history, { sku: 'WIDGET-2' }, ['__START_AT', '__END_AT', 'quantity', 'unit_price'])).toEqual([
            { __START_AT: '2025-06-01', __END_AT: '2025-06-03', quantity: 40, unit_price: 7.5 },
        ]);
        expect(rowsOf(out.datasets.stock_value.rows, {}, ['warehouse', 'quantity', 'stock_value'])).toEqual([
            { warehouse: 'north', quantity: 103, stock_value: 406.2 },
            { warehouse: 'south', quantity: 3, stock_value: 59.7 },
        ]);
    });
});
