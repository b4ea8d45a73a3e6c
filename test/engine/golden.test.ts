// The golden cases of ../shared/golden, reproduced by running the engine over IR written here for
// each case's SQL (the lowering from SQL comes later; the same cases then run through the CLI).
import { describe, expect, it } from 'vitest';
import type { PipelineIR } from '../../engine/src/ir.js';
import {
    and, appendFlow, autoCdc, call, col, eq, exists, expect as expectation, gt, int, isNull, managedTable, or, pipeline,
    replaceUsing, sel, select, selectStar, snapshotFlow, snapshotVersion, str, stream, streamingTable, struct, subquery, table,
} from './helpers/ir-builder.js';
import { compareStep, goldenCatalog, loadGoldenCase, runGoldenCase, type GoldenCase } from './helpers/golden.js';

/** The IR of each case's SQL, written by hand. */
const cases: Record<string, (c: GoldenCase) => PipelineIR> = {
    '01_scd1_users_out_of_order_delete': c => pipeline([streamingTable('target')], [
        autoCdc('target_cdc', 'target', stream('cdc_data.users'), {
            keys: ['userId'],
            deleteWhen: eq(col('operation'), str('DELETE')),
            truncateWhen: eq(col('operation'), str('TRUNCATE')),
            sequenceBy: col('sequenceNum'),
            columns: sel.except('operation', 'sequenceNum'),
            storedAs: 'scd1',
        }),
    ], goldenCatalog(c)),
    '03_scd2_users_history': c => pipeline([streamingTable('target')], [
        autoCdc('target_cdc', 'target', stream('cdc_data.users'), {
            keys: ['userId'], deleteWhen: eq(col('operation'), str('DELETE')), sequenceBy: col('sequenceNum'),
            columns: sel.except('operation', 'sequenceNum'), storedAs: 'scd2',
        }),
    ], goldenCatalog(c)),
    '04_scd2_users_track_history_except_city': c => pipeline([streamingTable('target')], [
        autoCdc('target_cdc', 'target', stream('cdc_data.users'), {
            keys: ['userId'], deleteWhen: eq(col('operation'), str('DELETE')), sequenceBy: col('sequenceNum'),
            columns: sel.except('operation', 'sequenceNum'), storedAs: 'scd2', trackHistory: sel.except('city'),
        }),
    ], goldenCatalog(c)),
    '06_scd1_spark_three_runs': c => pipeline([streamingTable('customers')], [
        autoCdc('customers_cdc', 'customers', stream('cdc_events'), {
            keys: ['id'], deleteWhen: eq(col('op'), str('DELETE')), sequenceBy: col('version'), columns: sel.except('op'),
        }),
    ], goldenCatalog(c)),
    '07_snapshot_periodic_scd2': c => periodicSnapshot(c, 'scd2'),
    '31_snapshot_periodic_scd1': c => periodicSnapshot(c, 'scd1'),
    '09_bitemporal_company_four_changes': c => pipeline([streamingTable('company_bitemporal')], [
        autoCdc('company_bitemporal', 'company_bitemporal', stream('company_cdc'), {
            keys: ['company_id'], deleteWhen: eq(col('operation'), str('DELETE')), sequenceBy: col('business_ts'),
            systemSequenceBy: col('system_ts'), columns: sel.except('operation', 'business_ts', 'system_ts'), storedAs: 'bitemporal',
        }),
    ], goldenCatalog(c)),
    '10_replace_using_regions': c => pipeline([streamingTable('events_latest')], [
        replaceUsing('events_replace', 'events_latest', ['region_id'], 'seq',
            select([col('region_id'), col('device_type'), col('event_type'), col('seq')], { from: [stream('region_events')] })),
    ], goldenCatalog(c)),
    '11_scd1_tombstone_blocks_late_upsert': c => pipeline([streamingTable('t')], [
        autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], deleteWhen: eq(col('op'), str('DELETE')), sequenceBy: col('seq'), columns: sel.except('op') }),
    ], goldenCatalog(c)),
    '13_scd2_deletes_and_tombstones': c => pipeline([streamingTable('h')], [
        autoCdc('h_cdc', 'h', stream('src'), {
            keys: ['id'], deleteWhen: eq(col('op'), str('DELETE')), sequenceBy: col('seq'), columns: sel.except('op', 'seq'), storedAs: 'scd2',
        }),
    ], goldenCatalog(c)),
    '15_scd1_ignore_null_updates_all_columns': c => pipeline([streamingTable('people')], [
        autoCdc('people_cdc', 'people', stream('people_changes'), { keys: ['id'], ignoreNullUpdates: sel.all(), sequenceBy: col('seq') }),
    ], goldenCatalog(c)),
    '18_scd1_columns_to_update': c => pipeline([streamingTable('people')], [
        autoCdc('people_cdc', 'people', stream('people_changes'), {
            keys: ['id'], sequenceBy: col('seq'), columns: sel.except('cols', 'seq'), columnsToUpdate: 'cols',
        }),
    ], goldenCatalog(c)),
    '19_scd1_sequence_by_struct': c => pipeline([streamingTable('t')], [
        autoCdc('t_cdc', 't', stream('src'), { keys: ['id'], sequenceBy: struct(['ts', col('ts')], ['n', col('n')]), columns: sel.except('ts', 'n') }),
    ], goldenCatalog(c)),
    '22_append_flow_and_once_backfill_full_refresh': c => pipeline([streamingTable('users')], [
        appendFlow('users_flow', 'users', selectStar(stream('raw_users'))),
        appendFlow('backfill_users', 'users', selectStar(table('user_backfill')), { once: true }),
    ], goldenCatalog(c)),
    '24_expectations_warn_and_drop': c => pipeline([
        streamingTable('orders_clean', {
            expectations: [
                expectation('positive_amount', gt(col('amount'), int(0)), 'drop'),
                expectation('has_customer', isNull(col('customer_id'), true)),
            ],
        }),
    ], [appendFlow('orders_clean', 'orders_clean', selectStar(stream('orders_raw')))], goldenCatalog(c)),
    '26_error_managed_table_cdc': c => pipeline([managedTable('managed_target')], [
        autoCdc('cdc_into_managed', 'managed_target', stream('src'), { keys: ['id'], sequenceBy: col('seq') }),
    ], goldenCatalog(c)),
    '28_error_version_query_returns_two_rows': c => pipeline([streamingTable('target')], [
        snapshotFlow('target_snapshot_flow', 'target', {
            snapshot: select([col('Key'), col('Value')], {
                from: [table('snaps')],
                where: eq(col('v'), subquery(select([col('v')], { from: [snapshotVersion('current')] }))),
            }),
            version: select([col('v')], { from: [table('snaps')], distinct: true }),
            keys: ['Key'],
        }),
    ], goldenCatalog(c)),
};

/** Cases 07 and 31: periodic snapshots identified by snapshot_ts, processed one version at a time. */
function periodicSnapshot(c: GoldenCase, storedAs: 'scd1' | 'scd2'): PipelineIR {
    const snapshots = 'mycatalog.myschema.mytable_snapshots';
    const lastVersion = () => select([col('v')], { from: [snapshotVersion('last')] });
    return pipeline([streamingTable('target')], [
        snapshotFlow('target_snapshot_flow', 'target', {
            snapshot: select([col('Key'), col('Value')], {
                from: [table(snapshots)],
                where: eq(col('snapshot_ts'), subquery(select([col('v')], { from: [snapshotVersion('current')] }))),
            }),
            version: select([[call('min', col('snapshot_ts')), 'v']], {
                from: [table(snapshots)],
                where: or(exists(select([int(1)], { from: [snapshotVersion('last')] }), true), gt(col('snapshot_ts'), subquery(lastVersion()))),
                having: isNull(call('min', col('snapshot_ts')), true),
            }),
            keys: ['Key'],
            storedAs,
        }),
    ], goldenCatalog(c));
}

describe('golden cases', () => {
    for (const [name, build] of Object.entries(cases)) {
        it(name, async () => {
            const c = loadGoldenCase(name);
            if (!c) {
                return;
            }
            const steps = await runGoldenCase(c, build(c));
            steps.forEach((step, i) => {
                const label = `${name}, update ${i + 1}`;
                const wantedError = step.update.expected_error?.error_class
                    ?? (c.expected_error && c.expected_error.at_update === i + 1 ? c.expected_error.error_class : undefined);
                if (wantedError) {
                    expect(step.result.ok, `${label} should fail`).toBe(false);
                    expect(step.result.ok ? undefined : step.result.error.class, label).toBe(wantedError);
                } else {
                    expect(step.result.ok ? 'ok' : step.result.error, label).toBe('ok');
                }
                const expected = step.update.expected ?? (i === steps.length - 1 ? c.expected : undefined);
                if (expected) {
                    const { actual, wanted } = compareStep(step, expected);
                    expect(actual, label).toEqual(wanted);
                }
            });
            if (c.expected_metrics) {
                const last = steps[steps.length - 1].result;
                expect(last.ok).toBe(true);
                for (const [table, metrics] of Object.entries(c.expected_metrics)) {
                    const actual = last.ok ? last.metrics[table]?.expectations : undefined;
                    for (const [name, counts] of Object.entries(metrics)) {
                        expect({ name, ...(actual?.[name] ?? {}) }).toMatchObject({ name, ...counts });
                    }
                }
            }
        });
    }
});

// Keeps `and` referenced for readers extending the cases with compound conditions.
void and;
