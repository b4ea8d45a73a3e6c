// AUTO CDC FROM SNAPSHOT (docs/semantics.md §11): each snapshot is the full content of the source at one
// version; it is diffed against the previously committed snapshot and applied to the target as
// SCD type 1 (the target equals the latest snapshot) or SCD type 2 (versions stamped with the
// snapshot version). With WITH VERSION the flow loops within one update — evaluate the version
// query, check it, expose it through current_snapshot_version(), diff, commit, repeat — and each
// snapshot commits on its own (docs/semantics.md §11.2, A14). A target shared with AUTO CDC flows (SCD1 only)
// receives the diff as change events at sequence = version (docs/semantics.md §11.5).
import { toRows } from '../db/values.js';
import { EngineError, ErrorClass, PipelineRuntimeError } from '../errors.js';
import type { DatasetIR, QueryIR, SnapshotFlowIR } from '../ir.js';
import { ident, join, sql, type Sql, str } from '../sql/sql.js';
import { autoName } from '../sql/translate.js';
import { toDuckType, type Column } from '../sql/duckdb-types.js';
import { formatType, isOrderable, typesEqual } from '../spark/spark-types.js';
import type { UpdateContext } from '../update/context.js';
import { FlowSources, emptyVersionRelation } from '../update/sources.js';
import { applyScd1Compact, runMapped, selectColumns, targetColumns } from './auto-cdc-flow.js';
import { ARR, KIND, SEQ, orderKey, type CdcLayout } from './cdc-sql.js';
import type { FlowOutcome } from './flow-outcome.js';
import { appendRows, diffByKey, ensureTable } from './target.js';
import { ownValue } from '../records.js';

const q = ident;

/** Longest loop of snapshot versions in one update (a version query that never returns 0 rows). */
const MAX_ITERATIONS = 10_000;

/** Runs a snapshot flow; `commit` commits the update so far and opens a new transaction. */
export async function runSnapshotFlow(ctx: UpdateContext, flow: SnapshotFlowIR, dataset: DatasetIR, key: string, sharedWithCdc: boolean, commit: () => Promise<void>): Promise<FlowOutcome> {
    const context = { flow: flow.name, dataset: key };
    const state = await ctx.store.flow(flow.name);
    if (flow.once && state?.onceDone) {
        return { status: 'skipped', message: 'ONCE snapshot flow already completed (a full refresh runs it again)' };
    }
    const versionTable = ctx.store.stateTable('snap', flow.name, 'version');
    const net = new NetChanges(ctx, key);
    let commits = 0;
    let rows = 0;
    if (!flow.version) {
        // Implicit version: the update's timestamp; only while nothing was committed yet (docs/semantics.md §11.2).
        const hasPrev = await ctx.store.tableExists('snap', `${flow.name}__prev`);
        const hasRows = await ctx.store.tableExists('ds', key) && Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${ctx.store.datasetTable(key)}`)) > 0;
        if (hasPrev || hasRows) {
            throw new PipelineRuntimeError(ErrorClass.nonEmptyTargetWithoutVersion,
                `The snapshot flow '${flow.name}' has no WITH VERSION clause and '${dataset.name.join('.')}' already holds data; without a version only the initial load can run. Add WITH VERSION (...), or use AUTO CDC ONCE for a one-off load.`,
                { ...context, span: flow.span });
        }
        const ver = ctx.tempName('version');
        await ctx.db.run(sql`CREATE TEMP TABLE ${ver} AS SELECT TIMESTAMP ${str(ctx.options.now.timestamp)} AS "__version"`);
        rows += await applySnapshot(ctx, flow, dataset, key, ver, sharedWithCdc, net);
        await ctx.db.run(sql`CREATE OR REPLACE TABLE ${versionTable} AS SELECT * FROM ${ver}`);
        await ctx.dropTemp(ver);
        commits++;
    } else {
        for (let iteration = 0; ; iteration++) {
            ctx.checkCancelled();
            if (iteration >= MAX_ITERATIONS) {
                throw new PipelineRuntimeError(ErrorClass.invalidVersionQuery,
                    `The WITH VERSION query of '${flow.name}' produced ${MAX_ITERATIONS} versions in one update; it must return no row once every snapshot is processed (e.g. HAVING max(v) IS NOT NULL with a filter on last_snapshot_version()).`,
                    { ...context, span: flow.version.span });
            }
            const ver = await evaluateVersion(ctx, flow, versionTable);
            if (!ver) {
                break;
            }
            rows += await applySnapshot(ctx, flow, dataset, key, ver, sharedWithCdc, net);
            await ctx.db.run(sql`CREATE OR REPLACE TABLE ${versionTable} AS SELECT * FROM ${ver}`);
            await ctx.dropTemp(ver);
            await ctx.store.setFlow(flow.name, { target: key, kind: 'snapshot', signature: 'snapshot', onceDone: false, nextArrival: 0n });
            commits++;
            // Each snapshot is its own transaction: a later failure keeps the versions committed so far.
            await commit();
        }
    }
    if (!(await ctx.store.tableExists('ds', key))) {
        // Nothing to load yet: create an empty target typed from the snapshot query.
        const sources = new FlowSources(ctx, flow.name, 'batch', { allowCurrent: flow.version !== undefined, allowLast: false, query: 'snapshot', current: { sql: sql`(SELECT NULL AS "__version" WHERE FALSE)` } });
        await sources.prepare(flow.snapshot.query);
        const columns = await sources.describe(sources.translate(flow.snapshot.query).sql, flow.snapshot.span ?? flow.span);
        await ensureTable(ctx, dataset, key, columns, { appendOnly: false });
    }
    await ctx.store.setFlow(flow.name, { target: key, kind: 'snapshot', signature: 'snapshot', onceDone: flow.once && commits > 0, nextArrival: 0n });
    await net.report();
    return { status: 'completed', rows };
}

/**
 * What the snapshots of one update changed in the target, as a whole: the target's rows as they were
 * before the update first touched their key are kept aside, and at the end diffed against the rows
 * of those keys now. A key the first snapshot of a first run inserts and a later one changes is one
 * inserted row, not an insert plus an update (the changes are relative to the state before the
 * update, even though each snapshot commits on its own).
 */
class NetChanges {
    private keys?: Sql;
    private origin?: Sql;
    private keyColumns: Column[] = [];
    private identity: string[] = [];
    private columns: Column[] = [];

    constructor(private readonly ctx: UpdateContext, private readonly key: string) {}

    /** Notes the keys of a snapshot's diff before it is applied; `identity` names a target row (keys, plus `__START_AT` in SCD2). */
    async touch(diff: Sql, keyColumns: Column[], identity: string[], columns: Column[]): Promise<void> {
        const table = this.ctx.store.datasetTable(this.key);
        const keys = join(keyColumns.map(k => q(k.name)));
        const match = (a: Sql, b: Sql): Sql => join(keyColumns.map(k => sql`${a}.${q(k.name)} IS NOT DISTINCT FROM ${b}.${q(k.name)}`), sql` AND `);
        this.keyColumns = keyColumns;
        this.identity = identity;
        this.columns = columns;
        if (!this.keys || !this.origin) {
            this.keys = this.ctx.tempName('net_keys');
            this.origin = this.ctx.tempName('net_origin');
            await this.ctx.db.run(sql`CREATE TEMP TABLE ${this.keys} AS SELECT DISTINCT ${keys} FROM ${diff}`);
            await this.ctx.db.run(sql`CREATE TEMP TABLE ${this.origin} AS SELECT * FROM ${table} AS "__t" WHERE EXISTS (SELECT 1 FROM ${this.keys} AS "__k" WHERE ${match(sql`"__t"`, sql`"__k"`)})`);
            return;
        }
        const fresh = sql`(SELECT DISTINCT ${keys} FROM ${diff} AS "__d" WHERE NOT EXISTS (SELECT 1 FROM ${this.keys} AS "__k" WHERE ${match(sql`"__d"`, sql`"__k"`)}))`;
        await this.ctx.db.run(sql`INSERT INTO ${this.origin} BY NAME SELECT * FROM ${table} AS "__t" WHERE EXISTS (SELECT 1 FROM ${fresh} AS "__f" WHERE ${match(sql`"__t"`, sql`"__f"`)})`);
        await this.ctx.db.run(sql`INSERT INTO ${this.keys} SELECT * FROM ${fresh}`);
    }

    /** Adds the update's changes of the target (nothing when no snapshot was applied). */
    async report(): Promise<void> {
        if (!this.keys || !this.origin) {
            return;
        }
        const table = this.ctx.store.datasetTable(this.key);
        const match = join(this.keyColumns.map(k => sql`"__t".${q(k.name)} IS NOT DISTINCT FROM "__k".${q(k.name)}`), sql` AND `);
        const after = sql`(SELECT * FROM ${table} AS "__t" WHERE EXISTS (SELECT 1 FROM ${this.keys} AS "__k" WHERE ${match}))`;
        await this.ctx.addChanges(this.key, await diffByKey(this.ctx, this.origin, after, this.identity, this.columns));
        await this.ctx.dropTemp(this.keys);
        await this.ctx.dropTemp(this.origin);
    }
}

/** The output column name of a version query, as Spark would name it. */
function versionColumnName(query: QueryIR): string {
    const body = query.body;
    if (body.kind === 'select' && body.items.length === 1 && body.items[0].kind === 'expr') {
        return body.items[0].alias ?? autoName(body.items[0].expr);
    }
    return 'version';
}

/**
 * Evaluates the WITH VERSION query into a one-row temp table, checking the rules of docs/semantics.md §11.2.
 * Returns undefined when it returns no row (nothing left to process).
 */
async function evaluateVersion(ctx: UpdateContext, flow: SnapshotFlowIR, versionTable: Sql): Promise<Sql | undefined> {
    const context = { flow: flow.name, dataset: flow.target.join('.').toLowerCase(), span: flow.version!.span ?? flow.span };
    const query = flow.version!.query;
    const stored = await ctx.store.tableExists('snap', `${flow.name}__version`);
    let last: Sql;
    let storedColumn: Column | undefined;
    if (stored) {
        storedColumn = (await ctx.db.describe(sql`SELECT * FROM ${versionTable}`))[0];
        last = sql`(SELECT * FROM ${versionTable})`;
    } else {
        // Before the first commit the relation is empty; its type is the version query's own type.
        const name = versionColumnName(query);
        const probe = new FlowSources(ctx, flow.name, 'batch', { allowCurrent: false, allowLast: true, query: 'version', last: { sql: sql`(SELECT NULL AS ${q(name)} WHERE FALSE)` } });
        await probe.prepare(query);
        const probed = await probe.describe(probe.translate(query).sql, context.span);
        last = emptyVersionRelation(name, probed.length === 1 ? toDuckType(probed[0].type) : sql`VARCHAR`);
    }
    const sources = new FlowSources(ctx, flow.name, 'batch', { allowCurrent: false, allowLast: true, query: 'version', last: { sql: last, columns: storedColumn ? [storedColumn] : undefined } });
    await sources.prepare(query);
    const translated = sources.translate(query);
    const ver = ctx.tempName('version');
    await runMapped(ctx, sources, sql`CREATE TEMP TABLE ${ver} AS ${translated.sql}`, context.span);
    const columns = await ctx.db.describe(sql`SELECT * FROM ${ver}`);
    const count = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${ver}`));
    if (columns.length !== 1) {
        throw new EngineError(ErrorClass.invalidVersionQuery,
            `The WITH VERSION query of '${flow.name}' must return exactly one column, but returns ${columns.length} (${columns.map(c => c.name).join(', ')}).`, context);
    }
    if (count > 1) {
        throw new EngineError(ErrorClass.invalidVersionQuery,
            `The WITH VERSION query of '${flow.name}' must return at most one row, but returned ${count}.`, context);
    }
    if (count === 0) {
        await ctx.dropTemp(ver);
        return undefined;
    }
    const column = columns[0];
    if ((await ctx.db.scalar(sql`SELECT ${q(column.name)} IS NULL FROM ${ver}`)) === true) {
        throw new EngineError(ErrorClass.invalidVersionQuery, `The WITH VERSION query of '${flow.name}' returned a NULL version.`, context);
    }
    if (!isOrderable(column.type)) {
        throw new EngineError(ErrorClass.versionNotSortable, `The snapshot version of '${flow.name}' has type ${formatType(column.type)}, which cannot be ordered.`, context);
    }
    if (storedColumn) {
        if (storedColumn.name.toLowerCase() !== column.name.toLowerCase() || !typesEqual(storedColumn.type, column.type)) {
            throw new EngineError(ErrorClass.versionSchemaChanged,
                `The snapshot version of '${flow.name}' changed from ${storedColumn.name} ${formatType(storedColumn.type)} to ${column.name} ${formatType(column.type)}; run a full refresh of the target.`, context);
        }
        const newer = await ctx.db.scalar(sql`SELECT ${orderKey(sql`(SELECT ${q(column.name)} FROM ${ver})`, column.type)} > ${orderKey(sql`(SELECT ${q(storedColumn.name)} FROM ${versionTable})`, column.type)}`);
        if (newer !== true) {
            const values = await ctx.db.query(sql`SELECT (SELECT ${q(column.name)} FROM ${ver}), (SELECT ${q(storedColumn.name)} FROM ${versionTable})`);
            const [current, previous] = toRows([{ name: 'a' }, { name: 'b' }], values.rows).map(r => [r.a, r.b])[0];
            throw new EngineError(ErrorClass.outOfOrderSnapshot,
                `The WITH VERSION query of '${flow.name}' returned version ${JSON.stringify(current)}, which is not greater than the last committed version ${JSON.stringify(previous)}.`, context);
        }
    }
    return ver;
}

/** Evaluates the snapshot at the version in `ver`, diffs it against the previous one and applies it. */
async function applySnapshot(ctx: UpdateContext, flow: SnapshotFlowIR, dataset: DatasetIR, key: string, ver: Sql, sharedWithCdc: boolean, net: NetChanges): Promise<number> {
    const context = { flow: flow.name, dataset: key };
    // current_snapshot_version() exists only for flows with WITH VERSION (docs/semantics.md §11.3).
    const sources = new FlowSources(ctx, flow.name, 'batch', { allowCurrent: flow.version !== undefined, allowLast: false, query: 'snapshot', current: { sql: sql`(SELECT * FROM ${ver})` } });
    await sources.prepare(flow.snapshot.query);
    const translated = sources.translate(flow.snapshot.query);
    const snap = ctx.tempName('snapshot');
    await runMapped(ctx, sources, sql`CREATE TEMP TABLE ${snap} AS ${translated.sql}`, flow.snapshot.span ?? flow.span);
    const columns = await ctx.db.describe(sql`SELECT * FROM ${snap}`);
    const versionColumn = (await ctx.db.describe(sql`SELECT * FROM ${ver}`))[0];
    const find = (name: string) => columns.find(c => c.name.toLowerCase() === name.toLowerCase());
    const keyColumns = flow.keys.columns.map(name => {
        const column = find(name);
        if (!column) {
            throw new PipelineRuntimeError(ErrorClass.columnsNotFound, `The key column '${name}' is not a column of the snapshot query (${columns.map(c => c.name).join(', ')}).`, { ...context, span: flow.keys.span });
        }
        return column;
    });
    const keys = join(keyColumns.map(k => q(k.name)));
    const duplicate = await ctx.db.query(sql`SELECT ${keys}, count(*) FROM ${snap} GROUP BY ${keys} HAVING count(*) > 1 LIMIT 1`);
    if (duplicate.rows.length > 0) {
        const row = toRows(duplicate.columns, duplicate.rows)[0];
        throw new EngineError(ErrorClass.snapshotDuplicateKey,
            `The snapshot of '${flow.name}' contains the key ${JSON.stringify(Object.fromEntries(keyColumns.map(k => [k.name, ownValue(row, k.name)])))} more than once; keys must be unique within a snapshot.`,
            { ...context, span: flow.keys.span });
    }
    const keySet = new Set(keyColumns.map(k => k.name.toLowerCase()));
    const data = columns.filter(c => !keySet.has(c.name.toLowerCase()));
    const prevTable = ctx.store.stateTable('snap', flow.name, 'prev');
    const prevExists = await ctx.store.tableExists('snap', `${flow.name}__prev`);
    const prev = prevExists ? prevTable : sql`(SELECT * FROM ${snap} WHERE FALSE)`;
    const match = (a: Sql, b: Sql): Sql => join(keyColumns.map(k => sql`${a}.${q(k.name)} IS NOT DISTINCT FROM ${b}.${q(k.name)}`), sql` AND `);
    const dataStruct = (alias: Sql, cols: Column[]): Sql => (cols.length === 0 ? sql`0` : sql`struct_pack(${join(cols.map(c => sql`${q(c.name)} := ${alias}.${q(c.name)}`))})`);
    // The diff: inserted keys, changed keys, removed keys (docs/semantics.md §11.1).
    const diff = ctx.tempName('diff');
    const present = sql`(SELECT *, TRUE AS "__psql_present" FROM ${prev})`;
    await ctx.db.run(sql`CREATE TEMP TABLE ${diff} AS
        SELECT "__n".*, CASE WHEN "__o"."__psql_present" IS NULL THEN 'insert' ELSE 'update' END AS "__psql_op", ${dataStruct(sql`"__o"`, data)} AS "__psql_old"
        FROM ${snap} AS "__n" LEFT JOIN ${present} AS "__o" ON ${match(sql`"__n"`, sql`"__o"`)}
        WHERE "__o"."__psql_present" IS NULL OR ${dataStruct(sql`"__n"`, data)} IS DISTINCT FROM ${dataStruct(sql`"__o"`, data)}
        UNION ALL BY NAME SELECT "__o".*, 'delete' AS "__psql_op" FROM ${prev} AS "__o" WHERE NOT EXISTS (SELECT 1 FROM ${snap} AS "__n" WHERE ${match(sql`"__n"`, sql`"__o"`)})`);
    const changed = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${diff}`));
    const version = sql`(SELECT ${q(versionColumn.name)} FROM ${ver})`;
    if (sharedWithCdc) {
        await applyAsEvents(ctx, flow, dataset, key, diff, keyColumns, columns, versionColumn, version);
    } else if (flow.storedAs.type === 'scd1') {
        await applyScd1(ctx, dataset, key, diff, keyColumns, columns, flow, net);
    } else {
        await applyScd2(ctx, dataset, key, diff, keyColumns, data, columns, versionColumn, version, flow, net);
    }
    if (prevExists) {
        await ctx.db.run(sql`DROP TABLE ${prevTable}`);
    }
    await ctx.db.run(sql`CREATE TABLE ${prevTable} AS SELECT * FROM ${snap}`);
    await ctx.dropTemp(diff);
    await ctx.dropTemp(snap);
    return changed;
}

async function applyScd1(ctx: UpdateContext, dataset: DatasetIR, key: string, diff: Sql, keyColumns: Column[], columns: Column[], flow: SnapshotFlowIR, net: NetChanges): Promise<void> {
    await ensureTable(ctx, dataset, key, columns, { appendOnly: false });
    const table = ctx.store.datasetTable(key);
    const match = (a: Sql, b: Sql): Sql => join(keyColumns.map(k => sql`${a}.${q(k.name)} IS NOT DISTINCT FROM ${b}.${q(k.name)}`), sql` AND `);
    await net.touch(diff, keyColumns, keyColumns.map(k => k.name), columns);
    await ctx.db.run(sql`DELETE FROM ${table} WHERE EXISTS (SELECT 1 FROM ${diff} AS "__d" WHERE ${match(table, sql`"__d"`)})`);
    const cols = join(columns.map(c => q(c.name)));
    await appendRows(ctx, dataset, key, sql`(SELECT ${cols} FROM ${diff} WHERE "__psql_op" <> 'delete')`, columns, { byName: true, flow: flow.name, span: flow.span });
}

async function applyScd2(ctx: UpdateContext, dataset: DatasetIR, key: string, diff: Sql, keyColumns: Column[], data: Column[], columns: Column[], versionColumn: Column, version: Sql, flow: SnapshotFlowIR, net: NetChanges): Promise<void> {
    const context = { flow: flow.name, dataset: key };
    const system: Column[] = [{ name: '__START_AT', type: versionColumn.type }, { name: '__END_AT', type: versionColumn.type }];
    const clash = columns.find(c => system.some(s => s.name.toLowerCase() === c.name.toLowerCase()));
    if (clash) {
        throw new PipelineRuntimeError(ErrorClass.reservedColumn, `The snapshot column '${clash.name}' conflicts with the SCD type 2 system column of the same name.`, { ...context, span: flow.snapshot.span });
    }
    const output = [...columns, ...system];
    await ensureTable(ctx, dataset, key, output, { appendOnly: false, extra: system });
    const tracked = selectColumns(flow.trackHistory?.selection, data, 'TRACK HISTORY ON', flow.trackHistory?.span, context);
    const untracked = data.filter(c => !tracked.includes(c));
    const table = ctx.store.datasetTable(key);
    const match = (a: Sql, b: Sql): Sql => join(keyColumns.map(k => sql`${a}.${q(k.name)} IS NOT DISTINCT FROM ${b}.${q(k.name)}`), sql` AND `);
    const trackedChange = tracked.length === 0
        ? sql`FALSE`
        : sql`struct_pack(${join(tracked.map(c => sql`${q(c.name)} := "__d".${q(c.name)}`))}) IS DISTINCT FROM struct_pack(${join(tracked.map(c => sql`${q(c.name)} := struct_extract("__d"."__psql_old", ${str(c.name)})`))})`;
    await net.touch(diff, keyColumns, [...keyColumns.map(k => k.name), '__START_AT'], output);
    // Close the open version of deleted keys and of keys whose tracked columns changed.
    await ctx.db.run(sql`UPDATE ${table} SET "__END_AT" = ${version} WHERE "__END_AT" IS NULL AND EXISTS (SELECT 1 FROM ${diff} AS "__d" WHERE ${match(table, sql`"__d"`)}
        AND ("__d"."__psql_op" = 'delete' OR ("__d"."__psql_op" = 'update' AND ${trackedChange})))`);
    // Untracked-only changes update the open version in place.
    if (untracked.length > 0) {
        const sets = join(untracked.map(c => sql`${q(c.name)} = "__d".${q(c.name)}`));
        await ctx.db.run(sql`UPDATE ${table} SET ${sets} FROM ${diff} AS "__d" WHERE ${match(table, sql`"__d"`)} AND ${table}."__END_AT" IS NULL AND "__d"."__psql_op" = 'update' AND NOT (${trackedChange})`);
    }
    const cols = join(columns.map(c => sql`"__d".${q(c.name)}`));
    const opened = sql`(SELECT ${cols}, ${version} AS "__START_AT", CAST(NULL AS ${toDuckType(versionColumn.type)}) AS "__END_AT" FROM ${diff} AS "__d"
        WHERE "__d"."__psql_op" = 'insert' OR ("__d"."__psql_op" = 'update' AND ${trackedChange}))`;
    await appendRows(ctx, dataset, key, opened, output, { byName: true, flow: flow.name, span: flow.span });
}

/** Snapshot + AUTO CDC on one SCD1 target: the diff becomes change events at sequence = version. */
async function applyAsEvents(ctx: UpdateContext, flow: SnapshotFlowIR, dataset: DatasetIR, key: string, diff: Sql, keyColumns: Column[], columns: Column[], versionColumn: Column, version: Sql): Promise<void> {
    const meta = ctx.store.stateTable('cdc', key, 'meta');
    if (!(await ctx.store.tableExists('cdc', `${key}__meta`))) {
        await ctx.db.run(sql`CREATE TABLE ${meta} AS SELECT CAST(1 AS BIGINT) AS next_arrival`);
    }
    const base = BigInt((await ctx.db.scalar(sql`SELECT next_arrival FROM ${meta}`)) as bigint);
    // The target may have more columns than the snapshot (A27): those are NULL in its events.
    const union = await targetColumns(ctx, key, columns, 'state');
    const cols = join(union.columns.map(c => (union.missing.has(c.name.toLowerCase()) ? sql`CAST(NULL AS ${toDuckType(c.type)}) AS ${q(c.name)}` : q(c.name))));
    const keyNames = new Set(keyColumns.map(k => k.name.toLowerCase()));
    const unionData = union.columns.filter(c => !keyNames.has(c.name.toLowerCase()));
    const ev = ctx.tempName('events');
    await ctx.db.run(sql`CREATE TEMP TABLE ${ev} AS SELECT ${cols}, ${version} AS ${q(SEQ)}, CAST(CASE WHEN "__psql_op" = 'delete' THEN 1 ELSE 0 END AS TINYINT) AS ${q(KIND)},
        CAST(${base} + row_number() OVER () - 1 AS BIGINT) AS ${q(ARR)} FROM ${diff}`);
    const count = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${ev}`));
    await ctx.db.run(sql`UPDATE ${meta} SET next_arrival = ${base + BigInt(count)}`);
    const layout: CdcLayout = { keys: keyColumns, data: unionData, seqType: versionColumn.type, authoring: { kind: 'all' }, tracked: unionData.map(c => c.name), upsertWinsTies: true };
    const result = await applyScd1Compact(ctx, dataset, key, layout, ev, union.columns, {
        name: flow.name, span: flow.span, sequenceSpan: flow.version?.span, keysSpan: flow.keys.span, run: statement => ctx.db.run(statement),
    });
    await ctx.addChanges(key, result);
    await ctx.dropTemp(ev);
}
