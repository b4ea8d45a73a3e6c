// DML on AUTO CDC targets (spec 8.6): INSERT, UPDATE, DELETE and MERGE run against the local state
// outside any update, as on Databricks, and the next update applies its events on top by sequence.
//
// A CDC target is a view over its CDC state (the winning event per key for SCD type 1, the annotated
// event log for SCD type 2), so a statement cannot change its rows directly. It runs on a copy of the
// target's rows instead; the keys it touched are then given events that reproduce the new rows:
// - SCD type 1: a key with a row is an upsert of that row at the sequence of the row it replaces
//   (a new key: older than all other changes, at the earliest sequence the target shows); a key
//   without a row is a tombstone at the sequence of the row it removed. With partial updates
//   (IGNORE NULL UPDATES, COLUMNS TO UPDATE) the key's logged events are replaced by that one event,
//   which authors every column (the row as the statement left it), at the key's latest sequence.
// - SCD type 2: INSERT adds each row as an upsert event at its __START_AT (and a delete at its
//   __END_AT when it is closed), on top of the key's events; UPDATE, DELETE and MERGE replace the
//   key's events by the events of its rows (an upsert at each __START_AT, a delete at an __END_AT no
//   other row starts at). The rows must carry valid, non-overlapping __START_AT / __END_AT.
// The statement's feed is the before/after diff of the touched keys' rows, as an update's is (15.2).
import type { AutoCdcFlowIR, FlowIR, SourceSpan } from '../ir.js';
import { EngineError, ErrorClass } from '../errors.js';
import { toRows } from '../db/values.js';
import { empty, ident, join, sql, type Sql } from '../sql/sql.js';
import type { Column } from '../sql/duckdb-types.js';
import { ARR, BOUNDARY, END, KIND, SEQ, START, orderKey, scd2AnnotateSql, type CdcLayout } from '../flows/cdc-sql.js';
import { nextArrival, selectColumns, setNextArrival } from '../flows/auto-cdc-flow.js';
import { diffByKey } from '../flows/target.js';
import type { UpdateContext } from './context.js';

const q = ident;

/** What a statement does to the copy of the target's rows; returns the rows it touched (any columns of the target, `_change_type`). */
export type ApplyToCopy = (table: Sql, columns: Column[]) => Promise<Sql | undefined>;

/**
 * Runs a DML statement on an AUTO CDC target: `apply` changes a copy of its rows, and the CDC state
 * gets the events of the change. Returns the statement's feed (undefined when nothing changed).
 */
export async function dmlOnCdcTarget(ctx: UpdateContext, verb: string, key: string, display: string, flows: FlowIR[], span: SourceSpan | undefined, apply: ApplyToCopy): Promise<Sql | undefined> {
    const flow = flows.find((f): f is AutoCdcFlowIR => f.kind === 'auto_cdc');
    // Databricks allows DML on every AUTO CDC target; for these three the specification does not say how
    // a written row enters the flow's own state (docs/semantics.md §8.6), so they are refused, each
    // message saying why and how to see the effect of the correction instead.
    const works = 'DML runs on the targets of AUTO CDC flows from a change feed stored as SCD type 1 (partial updates too) or full-row SCD type 2, on streaming tables and on managed tables.';
    if (!flow || flows.some(f => f.kind === 'snapshot')) {
        throw new EngineError(ErrorClass.unsupportedFeature,
            `${verb} on '${display}', the target of an AUTO CDC FROM SNAPSHOT flow, is not supported by the local engine: the specification does not say how a row `
            + 'written by DML would enter the diff against the next snapshot (docs/semantics.md §8.6). To see the effect of the correction locally, make it in the snapshot '
            + `source and run an update: its diff applies it. ${works}`, { span });
    }
    const mode = flow.storedAs.type;
    if (mode === 'bitemporal') {
        throw new EngineError(ErrorClass.unsupportedFeature, `${verb} on the BITEMPORAL target '${display}' is not supported by the local engine: the specification `
            + 'does not say how a row written by DML would enter its system-time beliefs (__SYSTEM_START_AT, __SYSTEM_END_AT; docs/semantics.md §8.6). To see the effect '
            + `of the correction locally, add it to the source as a change event with its business and system time and run an update. ${works}`, { span });
    }
    const compact = await ctx.store.tableExists('cdc', `${key}__state`);
    const logged = await ctx.store.tableExists('cdc', `${key}__log`);
    const table = ctx.store.stateTable('cdc', key, compact ? 'state' : 'log');
    const stored = compact || logged ? await ctx.db.describe(sql`SELECT * FROM ${table}`) : [];
    // A partial-update SCD1 target keeps every event in its log and its rows in a table.
    const partialScd1 = !compact && logged && mode === 'scd1';
    if (!compact && !partialScd1 && !(logged && mode === 'scd2' && stored.some(c => c.name === START) && await ctx.store.isView('ds', key))) {
        throw new EngineError(ErrorClass.unsupportedFeature, logged
            ? `${verb} on the SCD type 2 target '${display}' is not supported by the local engine: its AUTO CDC flow uses IGNORE NULL UPDATES or COLUMNS TO UPDATE, `
                + 'and the specification does not say how the versions a statement writes would merge with the partial events around them (docs/semantics.md §8.6). '
                + `To see the effect of the correction locally, add it to the source as a change event and run an update. ${works}`
            : `The dataset '${display}' has not been computed yet; run the pipeline before changing it.`, { span });
    }
    const layout = layoutOf(flow, stored, mode, key);
    const keyNames = layout.keys.map(k => k.name);
    const keys = join(keyNames.map(k => q(k)));
    const target = ctx.store.datasetTable(key);
    const columns = await ctx.db.describe(sql`SELECT * FROM ${target}`);

    // The statement runs on a copy of the rows; the keys it touched are those of the rows in its feed.
    const copy = ctx.tempName('dml_copy');
    await ctx.db.run(sql`CREATE TEMP TABLE ${copy} AS SELECT * FROM ${target}`);
    const changed = await apply(copy, columns);
    if (!changed) {
        return undefined;
    }
    const touched = ctx.tempName('dml_keys');
    await ctx.db.run(sql`CREATE TEMP TABLE ${touched} AS SELECT DISTINCT ${keys} FROM ${changed}`);
    const nullKey = join(keyNames.map(k => sql`${q(k)} IS NULL`), sql` OR `);
    const rows = sql`(SELECT * FROM ${copy} SEMI JOIN ${touched} USING (${keys}))`;
    await failOn(ctx, sql`SELECT * FROM ${rows} WHERE ${nullKey}`, ErrorClass.nullKey, sample =>
        `${verb} would leave a row of '${display}' with a NULL key column (KEYS ${keyNames.join(', ')}), e.g. ${sample}; an AUTO CDC target's rows need a key.`, span);
    const before = ctx.tempName('dml_before');
    await ctx.db.run(sql`CREATE TEMP TABLE ${before} AS SELECT * FROM ${target} SEMI JOIN ${touched} USING (${keys})`);
    const base = await nextArrival(ctx, key);
    const arrival = sql`CAST(${base} + row_number() OVER () - 1 AS BIGINT)`;
    let events: number;
    if (mode === 'scd1') {
        events = await scd1Events(ctx, { layout, table, key, display, verb, span, rows, touched, arrival }, partialScd1);
        if (partialScd1) {
            // The target is a table of the folded rows: the touched keys' rows are those the statement left.
            await ctx.db.run(sql`DELETE FROM ${target} WHERE rowid IN (SELECT "__t".rowid FROM ${target} AS "__t" SEMI JOIN ${touched} USING (${keys}))`);
            await ctx.db.run(sql`INSERT INTO ${target} BY NAME SELECT * FROM ${rows}`);
        }
    } else {
        const inserted = verb === 'INSERT' ? sql`(SELECT * EXCLUDE ("_change_type") FROM ${changed} WHERE "_change_type" = 'insert')` : undefined;
        events = await scd2Events(ctx, { layout, table, key, display, verb, span, rows, touched, arrival }, inserted);
    }
    await setNextArrival(ctx, key, base + BigInt(events));
    const after = sql`(SELECT * FROM ${target} SEMI JOIN ${touched} USING (${keys}))`;
    const diff = await diffByKey(ctx, before, after, mode === 'scd1' ? keyNames : [...keyNames, '__START_AT'], columns);
    for (const temp of [copy, changed, touched, before]) {
        await ctx.dropTemp(temp);
    }
    return diff.pending;
}

/** The layout of a CDC target's events, from its flow and the columns of its state. */
function layoutOf(flow: AutoCdcFlowIR, stored: Column[], mode: 'scd1' | 'scd2', key: string): CdcLayout {
    const find = (name: string): Column | undefined => stored.find(c => c.name.toLowerCase() === name.toLowerCase());
    const keys = flow.keys.columns.map(name => {
        const column = find(name);
        if (!column) {
            throw new EngineError(ErrorClass.keySchemaDrift, `The KEYS of '${flow.name}' changed since the last update; run the pipeline before changing its target.`, { span: flow.keys.span });
        }
        return column;
    });
    const keySet = new Set(keys.map(k => k.name.toLowerCase()));
    const data = stored.filter(c => !c.name.startsWith('__psql_') && !keySet.has(c.name.toLowerCase()));
    const tracked = mode === 'scd2'
        ? selectColumns(flow.trackHistory?.selection, data, 'TRACK HISTORY ON', flow.trackHistory?.span, { flow: flow.name, dataset: key }).map(c => c.name)
        : data.map(c => c.name);
    return { keys, data, seqType: find(SEQ)!.type, authoring: { kind: 'all' }, tracked, upsertWinsTies: mode === 'scd1' };
}

interface EventsInput {
    layout: CdcLayout;
    /** The state (SCD1) or annotated log (SCD2) table. */
    table: Sql;
    key: string;
    display: string;
    verb: string;
    span: SourceSpan | undefined;
    /** The touched keys' rows after the statement. */
    rows: Sql;
    /** The touched keys. */
    touched: Sql;
    /** The arrival number of the n-th new event. */
    arrival: Sql;
}

/** Fails with `errorClass` when `query` returns a row (the first one is shown). */
async function failOn(ctx: UpdateContext, query: Sql, errorClass: string, message: (sample: string) => string, span: SourceSpan | undefined): Promise<void> {
    const result = await ctx.db.query(sql`${query} LIMIT 1`);
    if (result.rows.length > 0) {
        throw new EngineError(errorClass, message(JSON.stringify(toRows(result.columns, result.rows)[0])), { span });
    }
}

/**
 * SCD type 1: each touched key's state becomes an upsert of its row at the sequence of the row it
 * replaces (new keys at the earliest sequence the target shows), or a tombstone at that sequence.
 * `logged`: the table is a partial-update log (every event, truncates as kind 2 without a key): the
 * key's events are replaced, at its latest sequence, after the latest truncate.
 */
async function scd1Events(ctx: UpdateContext, input: EventsInput, logged: boolean): Promise<number> {
    const { layout, table, key, display, verb, span, rows, touched, arrival } = input;
    const keyNames = layout.keys.map(k => k.name);
    const keys = join(keyNames.map(k => q(k)));
    await failOn(ctx, sql`SELECT ${keys}, count(*) AS "rows" FROM ${rows} GROUP BY ${keys} HAVING count(*) > 1`, ErrorClass.dmlNotAllowed, sample =>
        `${verb} would leave two rows with one key in '${display}', e.g. ${sample}; an SCD type 1 target has one row per key (KEYS ${keyNames.join(', ')}). Use UPDATE or MERGE to change a key's row.`, span);
    const meta = ctx.store.stateTable('cdc', key, 'meta');
    const hasTrunc = (await ctx.db.describe(sql`SELECT * FROM ${meta}`)).some(c => c.name === 'trunc_seq');
    const ord = (value: Sql): Sql => orderKey(value, layout.seqType);
    const trunc = logged ? sql`(SELECT arg_max(${q(SEQ)}, ${ord(q(SEQ))}) FROM ${table} WHERE ${q(KIND)} = 2)` : hasTrunc ? sql`(SELECT trunc_seq FROM ${meta})` : sql`NULL`;
    // "Older than all other changes" (8.6): the earliest sequence a visible row has, else the latest truncate.
    const visible = sql`${q(KIND)} = 0 AND (${trunc} IS NULL OR ${ord(q(SEQ))} >= ${ord(trunc)})`;
    const earliest = sql`coalesce((SELECT arg_min(${q(SEQ)}, ${ord(q(SEQ))}) FROM ${table} WHERE ${visible}), ${trunc}, (SELECT arg_min(${q(SEQ)}, ${ord(q(SEQ))}) FROM ${table}))`;
    // The sequence of each touched key's row (its latest event; a log has several per key).
    const current = sql`(SELECT ${keys}, arg_max(${q(SEQ)}, ${ord(q(SEQ))}) AS ${q(SEQ)} FROM ${table} SEMI JOIN ${touched} USING (${keys}) WHERE ${q(KIND)} <> 2 GROUP BY ${keys})`;
    const data = layout.data.map(c => sql`"__r".${q(c.name)}`);
    // A key whose row a truncate removed gets its new row after that truncate, or the truncate would hide it again.
    const own = sql`"__s".${q(SEQ)}`;
    const sequence = sql`CASE WHEN ${own} IS NULL THEN ${earliest} WHEN ${trunc} IS NOT NULL AND ${ord(own)} < ${ord(trunc)} THEN ${trunc} ELSE ${own} END`;
    const events = ctx.tempName('dml_events');
    await ctx.db.run(sql`CREATE TEMP TABLE ${events} AS SELECT *, ${arrival} AS ${q(ARR)} FROM (
        SELECT ${join(keyNames.map(k => sql`"__r".${q(k)}`))}${data.length ? sql`, ` : empty}${join(data)}, ${sequence} AS ${q(SEQ)}, CAST(0 AS TINYINT) AS ${q(KIND)}
            FROM ${rows} AS "__r" LEFT JOIN ${current} AS "__s" USING (${keys})
        UNION ALL BY NAME
        SELECT ${keys}, ${q(SEQ)}, CAST(1 AS TINYINT) AS ${q(KIND)} FROM ${current} AS "__s" ANTI JOIN ${rows} USING (${keys}))`);
    await failOn(ctx, sql`SELECT * EXCLUDE (${q(SEQ)}, ${q(KIND)}, ${q(ARR)}) FROM ${events} WHERE ${q(SEQ)} IS NULL`, ErrorClass.dmlNotAllowed, sample =>
        `${verb} cannot add the row ${sample} to '${display}': the target has no change events yet to give it a sequence; run the pipeline with some events first.`, span);
    await ctx.db.run(sql`DELETE FROM ${table} WHERE rowid IN (SELECT "__l".rowid FROM ${table} AS "__l" SEMI JOIN ${touched} USING (${keys}))`);
    await ctx.db.run(sql`INSERT INTO ${table} BY NAME SELECT * FROM ${events}`);
    const count = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${events}`));
    await ctx.dropTemp(events);
    return count;
}

/**
 * SCD type 2: the touched keys' events are re-annotated, with the inserted rows as events on top of
 * theirs (INSERT) or replaced by the events of their rows (UPDATE, DELETE, MERGE).
 */
async function scd2Events(ctx: UpdateContext, input: EventsInput, inserted: Sql | undefined): Promise<number> {
    const { layout, table, display, verb, span, rows, touched, arrival } = input;
    const keyNames = layout.keys.map(k => k.name);
    const keys = join(keyNames.map(k => q(k)));
    const ord = (value: Sql): Sql => orderKey(value, layout.seqType);
    const start = q('__START_AT');
    const end = q('__END_AT');
    const written = inserted ?? rows;
    await failOn(ctx, sql`SELECT * FROM ${written} WHERE ${start} IS NULL OR (${end} IS NOT NULL AND ${ord(end)} <= ${ord(start)})`,
        ErrorClass.invalidScd2Row, sample =>
            `${verb} would write the row ${sample} into the SCD type 2 target '${display}': a row needs a __START_AT and, when closed, an __END_AT after it, e.g. (..., __START_AT = 5, __END_AT = NULL).`, span);
    if (!inserted) {
        // The rows of a key are its history: versions in __START_AT order, each ending at or before the next one's start.
        await failOn(ctx, sql`SELECT * EXCLUDE ("__psql_next") FROM (SELECT *, lead(${start}) OVER (PARTITION BY ${keys} ORDER BY ${ord(start)}) AS "__psql_next" FROM ${rows})
            WHERE "__psql_next" IS NOT NULL AND (${end} IS NULL OR ${ord(end)} > ${ord(sql`"__psql_next"`)})`, ErrorClass.invalidScd2Row, sample =>
            `${verb} would leave overlapping versions in the SCD type 2 target '${display}', e.g. ${sample} overlaps the next version of its key; each version must end (__END_AT) at or before the next one starts (__START_AT).`, span);
    }
    // Each row is an upsert at its start, and a closed row a delete at its end unless a row of its key starts there.
    const data = layout.data.map(c => q(c.name));
    const upserts = sql`SELECT ${keys}${data.length ? sql`, ` : empty}${join(data)}, ${start} AS ${q(SEQ)}, CAST(0 AS TINYINT) AS ${q(KIND)} FROM ${written}`;
    const deletes = sql`SELECT ${keys}, ${end} AS ${q(SEQ)}, CAST(1 AS TINYINT) AS ${q(KIND)} FROM ${written} AS "__w"
        WHERE ${end} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${written} AS "__n" WHERE ${join(keyNames.map(k => sql`"__n".${q(k)} IS NOT DISTINCT FROM "__w".${q(k)}`), sql` AND `)} AND "__n".${start} = "__w".${end})`;
    const fresh = ctx.tempName('dml_events');
    await ctx.db.run(sql`CREATE TEMP TABLE ${fresh} AS SELECT *, ${arrival} AS ${q(ARR)} FROM (${upserts} UNION ALL BY NAME ${deletes})`);
    const count = Number(await ctx.db.scalar(sql`SELECT count(*) FROM ${fresh}`));
    const kept = inserted
        ? sql`SELECT * EXCLUDE (${q(BOUNDARY)}, ${q(START)}, ${q(END)}) FROM ${table} SEMI JOIN ${touched} USING (${keys}) UNION ALL BY NAME `
        : empty;
    const annotated = ctx.tempName('dml_annotated');
    await ctx.db.run(sql`CREATE TEMP TABLE ${annotated} AS ${scd2AnnotateSql(layout, sql`(${kept}SELECT * FROM ${fresh})`)}`);
    await ctx.db.run(sql`DELETE FROM ${table} WHERE rowid IN (SELECT "__l".rowid FROM ${table} AS "__l" SEMI JOIN ${touched} USING (${keys}))`);
    await ctx.db.run(sql`INSERT INTO ${table} BY NAME SELECT * FROM ${annotated}`);
    await ctx.dropTemp(fresh);
    await ctx.dropTemp(annotated);
    return count;
}
