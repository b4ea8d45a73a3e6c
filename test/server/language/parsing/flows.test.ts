import { afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { createParser, createTestServices } from '../../../helpers/parse.js';
import { treeOf } from '../../../helpers/tree.js';

const { shared, services } = createTestServices();
const tree = treeOf(createParser(services));

afterEach(() => clearDocuments(shared));

/** The printed tree of `SELECT * FROM <from>`, as it appears inside the expected trees below. */
function selectAllFrom(relation: string): string {
    return `Query(body: SelectQuery(items: [SelectItem(expression: *)], from: FromClause(relations: [${relation}])))`;
}

describe('CREATE FLOW ... AS AUTO CDC', () => {
    test('the documented SCD type 2 example', async () => {
        expect(await tree(`CREATE FLOW target_flow AS AUTO CDC INTO target
            FROM stream(cdc_data.users)
            KEYS (userId)
            APPLY AS DELETE WHEN operation = "DELETE"
            SEQUENCE BY sequenceNum
            COLUMNS * EXCEPT (operation, sequenceNum)
            STORED AS SCD TYPE 2
            TRACK HISTORY ON * EXCEPT (city)`)).toBe(
            'CreateFlow(name: \'target_flow\', body: AutoCdcFlow(target: DatasetRef(ref: @target), cdc: AutoCdcSpec('
            + 'source: SourceRef(streaming, table: DatasetRef(ref: @cdc_data.users)), keys: ColumnNameList(names: [\'userId\']), clauses: ['
            + 'ApplyAsDeleteClause(condition: (operation = \'DELETE\')), SequenceByClause(expression: sequenceNum), '
            + 'ColumnsClause(columns: ColumnSelection(star, except, names: [\'operation\', \'sequenceNum\'])), StoredAsClause(scdType: 2), '
            + 'TrackHistoryClause(columns: ColumnSelection(star, except, names: [\'city\']))])))');
    });

    test('optional clauses parse in any order (the validator reports the order)', async () => {
        expect(await tree(`CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id, region)
            STORED AS BITEMPORAL SYSTEM SEQUENCE BY sys_ts SEQUENCE BY STRUCT(ts, seq)
            IGNORE NULL UPDATES ON * EXCEPT (x) COLUMNS a, b COLUMNS TO UPDATE changed`)).toBe(
            'CreateFlow(name: \'f\', body: AutoCdcFlow(target: DatasetRef(ref: @t), cdc: AutoCdcSpec(source: SourceRef(table: DatasetRef(ref: @s)), '
            + 'keys: ColumnNameList(names: [\'id\', \'region\']), clauses: [StoredAsClause(bitemporal), SystemSequenceByClause(expression: sys_ts), '
            + 'SequenceByClause(expression: STRUCT(ts, seq)), IgnoreNullUpdatesClause(columns: ColumnSelection(star, except, names: [\'x\'])), '
            + 'ColumnsClause(columns: ColumnSelection(names: [\'a\', \'b\'])), ColumnsToUpdateClause(column: \'changed\')])))');
    });

    test('column lists with and without parentheses; STREAM without parentheses', async () => {
        expect(await tree(`CREATE FLOW f AS AUTO CDC INTO t FROM STREAM src KEYS (id)
            COLUMNS (a, b) IGNORE NULL UPDATES ON (a) TRACK HISTORY ON a, b APPLY AS DELETE WHEN op = 'D'`)).toBe(
            'CreateFlow(name: \'f\', body: AutoCdcFlow(target: DatasetRef(ref: @t), cdc: AutoCdcSpec(source: SourceRef(streaming, table: DatasetRef(ref: @src)), '
            + 'keys: ColumnNameList(names: [\'id\']), clauses: [ColumnsClause(columns: ColumnSelection(names: [\'a\', \'b\'])), '
            + 'IgnoreNullUpdatesClause(columns: ColumnSelection(names: [\'a\'])), TrackHistoryClause(columns: ColumnSelection(names: [\'a\', \'b\'])), '
            + 'ApplyAsDeleteClause(condition: (op = \'D\'))])))');
    });

    test('AUTO CDC ONCE FROM SNAPSHOT (query) WITH VERSION (query)', async () => {
        expect(await tree(`CREATE FLOW f AS AUTO CDC ONCE INTO t FROM SNAPSHOT (SELECT * FROM s)
            WITH VERSION (SELECT max(v) FROM s) KEYS (id) STORED AS SCD TYPE 2 TRACK HISTORY ON (a, b)`)).toBe(
            'CreateFlow(name: \'f\', body: AutoCdcFlow(once, target: DatasetRef(ref: @t), cdc: SnapshotSpec('
            + `snapshotQuery: ${selectAllFrom('TableReference(table: DatasetRef(ref: @s))')}, `
            + 'versionQuery: Query(body: SelectQuery(items: [SelectItem(expression: max(v))], from: FromClause(relations: [TableReference(table: DatasetRef(ref: @s))]))), '
            + 'keys: ColumnNameList(names: [\'id\']), clauses: [StoredAsClause(scdType: 2), TrackHistoryClause(columns: ColumnSelection(names: [\'a\', \'b\']))])))');
    });

    test('the legacy identifier form FROM SNAPSHOT table', async () => {
        expect(await tree('CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT snap_table KEYS (id)')).toBe(
            'CreateFlow(name: \'f\', body: AutoCdcFlow(target: DatasetRef(ref: @t), cdc: SnapshotSpec(snapshotTable: DatasetRef(ref: @snap_table), '
            + 'keys: ColumnNameList(names: [\'id\']))))');
    });

    test('change-feed clauses in the snapshot form still parse, for the validator to name', async () => {
        expect(await tree('CREATE FLOW f AS AUTO CDC INTO t FROM SNAPSHOT (SELECT * FROM s) KEYS (id) SEQUENCE BY ts')).toBe(
            'CreateFlow(name: \'f\', body: AutoCdcFlow(target: DatasetRef(ref: @t), cdc: SnapshotSpec('
            + `snapshotQuery: ${selectAllFrom('TableReference(table: DatasetRef(ref: @s))')}, `
            + 'keys: ColumnNameList(names: [\'id\']), clauses: [SequenceByClause(expression: ts)])))');
    });

    test('a subquery as source and a tuple as SEQUENCE BY (seen in real pipelines)', async () => {
        expect(await tree('CREATE FLOW f AS AUTO CDC INTO t FROM (SELECT * FROM STREAM(s) |> WHERE x > 0) KEYS (id) SEQUENCE BY (a, b)')).toBe(
            'CreateFlow(name: \'f\', body: AutoCdcFlow(target: DatasetRef(ref: @t), cdc: AutoCdcSpec(source: SourceRef(query: Query(body: PipeQuery('
            + 'input: SelectQuery(items: [SelectItem(expression: *)], from: FromClause(relations: [TableReference(stream, table: DatasetRef(ref: @s))])), '
            + 'operation: PipeWhere(condition: (x > 0))))), keys: ColumnNameList(names: [\'id\']), clauses: [SequenceByClause(expression: (a, b))])))');
    });
});

describe('CREATE FLOW ... AS INSERT', () => {
    test('INSERT INTO t BY NAME, with a comment, OR REFRESH and IF NOT EXISTS', async () => {
        expect(await tree('CREATE OR REFRESH FLOW IF NOT EXISTS f COMMENT \'west\' AS INSERT INTO customers BY NAME SELECT * FROM STREAM(west)')).toBe(
            'CreateFlow(orRefresh, ifNotExists, name: \'f\', comment: \'west\', body: InsertFlow(target: DatasetRef(ref: @customers), byName, '
            + `query: ${selectAllFrom('TableReference(stream, table: DatasetRef(ref: @west))')}))`);
    });

    test('both spellings of ONCE, and a target named once', async () => {
        expect(await tree('CREATE FLOW f AS INSERT ONCE INTO t BY NAME SELECT * FROM old')).toBe(
            `CreateFlow(name: 'f', body: InsertFlow(once, target: DatasetRef(ref: @t), byName, query: ${selectAllFrom('TableReference(table: DatasetRef(ref: @old))')}))`);
        expect(await tree('CREATE FLOW f AS INSERT INTO ONCE once BY NAME SELECT * FROM old')).toBe(
            `CreateFlow(name: 'f', body: InsertFlow(once, target: DatasetRef(ref: @once), byName, query: ${selectAllFrom('TableReference(table: DatasetRef(ref: @old))')}))`);
        expect(await tree('CREATE FLOW f AS INSERT INTO once BY NAME SELECT * FROM old')).toBe(
            `CreateFlow(name: 'f', body: InsertFlow(target: DatasetRef(ref: @once), byName, query: ${selectAllFrom('TableReference(table: DatasetRef(ref: @old))')}))`);
    });

    test('REPLACE USING ... SEQUENCE BY and REPLACE WHERE', async () => {
        expect(await tree('CREATE FLOW f AS INSERT INTO t BY NAME REPLACE USING (k) SEQUENCE BY s SELECT * FROM STREAM src')).toBe(
            'CreateFlow(name: \'f\', body: InsertFlow(target: DatasetRef(ref: @t), byName, replaceUsing: ReplaceUsingSpec(keys: ColumnNameList(names: [\'k\']), '
            + `sequenceBy: s), query: ${selectAllFrom('TableReference(stream, table: DatasetRef(ref: @src))')}))`);
        expect(await tree('CREATE FLOW f AS INSERT INTO t BY NAME REPLACE WHERE d > \'2024\' SELECT * FROM src')).toBe(
            'CreateFlow(name: \'f\', body: InsertFlow(target: DatasetRef(ref: @t), byName, replaceWhere: (d > \'2024\'), '
            + `query: ${selectAllFrom('TableReference(table: DatasetRef(ref: @src))')}))`);
    });

    test('positional INSERT INTO without BY NAME (open-source Spark)', async () => {
        expect(await tree('CREATE FLOW f AS INSERT INTO t SELECT * FROM STREAM s')).toBe(
            `CreateFlow(name: 'f', body: InsertFlow(target: DatasetRef(ref: @t), query: ${selectAllFrom('TableReference(stream, table: DatasetRef(ref: @s))')}))`);
    });
});

describe('APPLY CHANGES', () => {
    test('CREATE FLOW ... AS APPLY CHANGES INTO with LIVE. names', async () => {
        expect(await tree('CREATE FLOW f AS APPLY CHANGES INTO LIVE.t FROM STREAM(LIVE.s) KEYS (id) SEQUENCE BY ts')).toBe(
            'CreateFlow(name: \'f\', body: ApplyChangesFlow(target: DatasetRef(ref: @LIVE.t), cdc: AutoCdcSpec(source: SourceRef(streaming, '
            + 'table: DatasetRef(ref: @LIVE.s)), keys: ColumnNameList(names: [\'id\']), clauses: [SequenceByClause(expression: ts)])))');
    });

    test('the standalone legacy statement with the flow filter WHERE', async () => {
        expect(await tree(`APPLY CHANGES INTO live.target FROM STREAM(cdc.users) KEYS (user_id)
            IGNORE NULL UPDATES WHERE state = 'NY' APPLY AS TRUNCATE WHEN op = 'TRUNCATE' SEQUENCE BY seq`)).toBe(
            'ApplyChanges(target: DatasetRef(ref: @live.target), cdc: AutoCdcSpec(source: SourceRef(streaming, table: DatasetRef(ref: @cdc.users)), '
            + 'keys: ColumnNameList(names: [\'user_id\']), clauses: [IgnoreNullUpdatesClause, FlowWhereClause(condition: (state = \'NY\')), '
            + 'ApplyAsTruncateClause(condition: (op = \'TRUNCATE\')), SequenceByClause(expression: seq)]))');
    });
});
