// A rule that both the editor (validation, before a run) and the engine (the plan of an update)
// enforce is reported with one error class (issue 11: one error-class table). Each case gives the
// engine a pipeline that breaks the rule, as if the editor had not been asked first, and expects the
// code the editor's diagnostic for the same rule carries (test/server/language/validation/rules.test.ts
// shows the editor's side on pipeline SQL).
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetIR, FlowIR } from '../../../engine/src/ir.js';
import { ErrorClass, isErrorClass } from '../../../engine/src/spark/error-classes.js';
import { IssueCodes } from '../../../server/src/language/validation/issue-codes.js';
import {
    appendFlow, autoCdc, bool, catalogTable, col, managedTable, materializedView, mvFlow, pipeline, replaceWhere, selectStar, sel, stream,
    streamingTable, table,
} from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

let ws: Workspace;
afterEach(() => ws?.dispose());

const users = catalogTable('users', 'id INT, name STRING, seq BIGINT, sys BIGINT, op STRING, cols ARRAY<STRING>', 'json');
const cdc = (target: string, options: Partial<Parameters<typeof autoCdc>[3]> = {}): FlowIR =>
    autoCdc('f', target, stream('users'), { keys: ['id'], sequenceBy: col('seq'), ...options });

async function engineClass(datasets: DatasetIR[], flows: FlowIR[]): Promise<string> {
    ws = new Workspace();
    ws.append('users', [{ id: 1, name: 'a', seq: 1, sys: 1, op: 'u', cols: [] }]);
    return (await ws.fails(pipeline(datasets, flows, [users]))).class;
}

describe('the editor and the engine name a rule with the same error class', () => {
    const cases: Array<[string, string, () => [DatasetIR[], FlowIR[]]]> = [
        ['a cycle between datasets', IssueCodes.CircularDependency,
            () => [[materializedView('a'), materializedView('b')], [mvFlow('a', selectStar(table('ds:b'))), mvFlow('b', selectStar(table('ds:a')))]]],
        ['STORED AS BITEMPORAL without SYSTEM SEQUENCE BY', IssueCodes.BitemporalRequiresSystemSequence,
            () => [[streamingTable('t')], [cdc('t', { storedAs: 'bitemporal' })]]],
        ['SYSTEM SEQUENCE BY without BITEMPORAL', IssueCodes.SystemSequenceRequiresBitemporal,
            () => [[streamingTable('t')], [cdc('t', { systemSequenceBy: col('sys') })]]],
        ['COLUMNS TO UPDATE with IGNORE NULL UPDATES', IssueCodes.ColumnsToUpdateConflict,
            () => [[streamingTable('t')], [cdc('t', { columnsToUpdate: 'cols', ignoreNullUpdates: sel.all() })]]],
        ['COLUMNS TO UPDATE with STORED AS BITEMPORAL', IssueCodes.ColumnsToUpdateConflict,
            () => [[streamingTable('t')], [cdc('t', { columnsToUpdate: 'cols', storedAs: 'bitemporal', systemSequenceBy: col('sys') })]]],
        ['APPLY AS TRUNCATE WHEN with SCD type 2', IssueCodes.TruncateRequiresScd1,
            () => [[streamingTable('t')], [cdc('t', { storedAs: 'scd2', truncateWhen: bool(false) })]]],
        ['TRACK HISTORY ON with SCD type 1', IssueCodes.TrackHistoryRequiresScd2,
            () => [[streamingTable('t')], [cdc('t', { trackHistory: sel.all() })]]],
        ['an append flow into an AUTO CDC target', IssueCodes.CdcTargetWithOtherFlows,
            () => [[streamingTable('t')], [cdc('t'), appendFlow('a', 't', selectStar(stream('users')))]]],
        ['REPLACE WHERE into a managed table', IssueCodes.ReplaceIntoManagedTable,
            () => [[managedTable('m')], [replaceWhere('r', 'm', bool(true), selectStar(table('users')))]]],
        ['AUTO CDC into a materialized view', IssueCodes.AutoCdcTargetNotStreamingTable,
            () => [[materializedView('m')], [cdc('m')]]],
        ['AUTO CDC into a managed table', IssueCodes.ManagedTableCdc,
            () => [[managedTable('m')], [cdc('m')]]],
        ['AUTO CDC without keys', IssueCodes.AutoCdcEmptyKeys,
            () => [[streamingTable('t')], [cdc('t', { keys: [] })]]],
    ];
    it.each(cases)('%s: %s', async (_rule, code, build) => {
        expect(await engineClass(...build())).toBe(code);
    });
});

describe('the error-class table', () => {
    it('names each error class once', () => {
        const codes = Object.values(ErrorClass);
        expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
    });

    it('holds every code the editor reports', () => {
        expect(Object.values(IssueCodes).filter(code => !isErrorClass(code))).toEqual([]);
    });
});
