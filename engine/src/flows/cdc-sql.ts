// Set-based SQL for the declarative AUTO CDC semantics (docs/semantics.md §6–§9). Every builder takes a
// relation of change events and returns a query that computes target rows from them:
//
//   events: key columns, data columns, __psql_seq, [__psql_sys], __psql_kind (0 upsert, 1 delete,
//           2 truncate), [__psql_ctu], __psql_arr (arrival number)
//
// Per-key event order is ascending sequence, then at an equal sequence the kind that wins comes last
// (SCD2 and BITEMPORAL: upserts before deletes, a delete wins; SCD1: deletes before upserts, an upsert
// wins — docs/semantics.md §6.2, A5, as Spark's processors do), then arrival order (docs/semantics.md §6.5). Because each result is
// a function of the set of events, out-of-order arrival and any split of the events into updates give
// the same target.
import { empty, ident, join, sql, type Sql, str } from '../sql/sql.js';
import type { Column } from '../sql/duckdb-types.js';
import type { DataType } from '../ir.js';

/** Event column: the SEQUENCE BY value. */
export const SEQ = '__psql_seq';
/** Event column: the SYSTEM SEQUENCE BY value (bitemporal). */
export const SYS = '__psql_sys';
/** Event column: 0 upsert, 1 delete, 2 truncate. */
export const KIND = '__psql_kind';
/** Event column: the COLUMNS TO UPDATE array. */
export const CTU = '__psql_ctu';
/** Event column: arrival number (order of arrival across updates). */
export const ARR = '__psql_arr';

/** Which columns an upsert authors (docs/semantics.md §7.2). */
export type Authoring =
    | { kind: 'all' }
    /** IGNORE NULL UPDATES: listed columns (`null-checked`) are authored only when non-NULL. */
    | { kind: 'ignore_nulls'; nullChecked: Set<string> }
    /** COLUMNS TO UPDATE: the columns named in the __psql_ctu array (all when the array is NULL). */
    | { kind: 'columns_to_update' };

/** The shape of a CDC target's events and rows. */
export interface CdcLayout {
    keys: Column[];
    data: Column[];
    seqType: DataType;
    sysType?: DataType;
    authoring: Authoring;
    /** SCD2: names of tracked data columns. */
    tracked: string[];
    /** SCD1: at an equal key and sequence an upsert wins over a delete or truncate (A5); otherwise the delete wins. */
    upsertWinsTies?: boolean;
}

/** What the per-key event order depends on. */
export type EventOrdering = Pick<CdcLayout, 'seqType' | 'upsertWinsTies'>;

/**
 * An expression whose ordering is Spark's ordering of `sql` (a value of `type`): for a STRUCT,
 * NULL fields sort first (DuckDB sorts them last), so each field is preceded by a not-null flag.
 */
export function orderKey(value: Sql, type: DataType): Sql {
    if (type.kind !== 'struct') {
        return value;
    }
    const fields = type.fields.flatMap(f => {
        const field = sql`struct_extract(${value}, ${str(f.name)})`;
        return [sql`${ident(`${f.name}__nn`)} := (${field} IS NOT NULL)`, sql`${ident(f.name)} := ${orderKey(field, f.type)}`];
    });
    return sql`struct_pack(${join(fields)})`;
}

const q = ident;

/**
 * A single sortable value giving the per-key event order (sequence, then the winning kind last, then
 * arrival), for the columns of an event under `prefix` (`''` or `"alias".`). Integral, date and
 * timestamp sequences pack into one HUGEINT — sequence in the high 64 bits, kind and arrival below —
 * which DuckDB compares and sorts faster than a struct; other types use a struct.
 */
export function eventRank(layout: EventOrdering, prefix: Sql): Sql {
    const seq = sql`${prefix}${q(SEQ)}`;
    const kind = sql`${prefix}${q(KIND)}`;
    const arr = sql`${prefix}${q(ARR)}`;
    const kindOf = layout.seqType.kind;
    let ordinal: Sql | undefined;
    if (['tinyint', 'smallint', 'int', 'bigint'].includes(kindOf)) {
        ordinal = seq;
    } else if (kindOf === 'date' || kindOf === 'timestamp' || kindOf === 'timestamp_ntz') {
        ordinal = sql`epoch_us(CAST(${seq} AS TIMESTAMP))`;
    }
    const wins = winsTie(layout, kind);
    if (ordinal) {
        // A truncate (kind 2) ranks like a delete. One HUGEINT multiplication, not two: a
        // multiplication costs several times an addition (about 12 ms per million events here).
        return sql`(CAST(${ordinal} AS HUGEINT) * 18446744073709551616 + CASE WHEN ${wins} THEN CAST(9223372036854775808 AS HUGEINT) ELSE CAST(0 AS HUGEINT) END + ${arr})`;
    }
    return sql`struct_pack(o := ${orderKey(seq, layout.seqType)}, k := CAST(${wins} AS INTEGER), a := ${arr})`;
}

/** True for an event of the kind that wins at an equal sequence (`kind`: the event's kind column). */
function winsTie(layout: EventOrdering, kind: Sql): Sql {
    return layout.upsertWinsTies ? sql`${kind} = 0` : sql`${kind} > 0`;
}

function keyList(layout: CdcLayout, prefix: Sql = empty): Sql {
    return join(layout.keys.map(k => sql`${prefix}${q(k.name)}`));
}


/** `struct_pack(...)` of the data columns (the row payload of a version). */
function dataStruct(layout: CdcLayout): Sql {
    return layout.data.length === 0 ? sql`struct_pack("__psql_none" := NULL::INTEGER)` : sql`struct_pack(${join(layout.data.map(c => sql`${q(c.name)} := ${q(c.name)}`))})`;
}

/** The data columns taken back out of the payload struct `__psql_d`. */
function dataFields(layout: CdcLayout): Sql {
    return join(layout.data.map(c => sql`struct_extract("__psql_d", ${str(c.name)}) AS ${q(c.name)}`));
}

function authored(layout: CdcLayout, column: string, valueSql: Sql): Sql {
    switch (layout.authoring.kind) {
        case 'all':
            return sql`TRUE`;
        case 'ignore_nulls':
            return layout.authoring.nullChecked.has(column.toLowerCase()) ? sql`(${valueSql} IS NOT NULL)` : sql`TRUE`;
        case 'columns_to_update':
            return sql`(${q(CTU)} IS NULL OR list_contains(list_transform(${q(CTU)}, lambda __c: lower(__c)), ${str(column.toLowerCase())}))`;
    }
}

/** True for a struct column merged leaf by leaf (IGNORE NULL UPDATES covers it). */
function mergedByLeaf(layout: CdcLayout, column: string, type: DataType): boolean {
    return layout.authoring.kind === 'ignore_nulls' && layout.authoring.nullChecked.has(column.toLowerCase()) && type.kind === 'struct';
}

/**
 * The value of a data column merged over the upserts since the key's last delete (docs/semantics.md §7.2): the
 * value from the latest upsert that authored it. Struct columns under IGNORE NULL UPDATES merge per
 * leaf field (then `nullIfNoLeaf` makes a struct without any value NULL, A26). `window` partitions
 * by key (and step) and the delete epoch, ordered by event order.
 */
function mergedValue(layout: CdcLayout, column: string, valueSql: Sql, type: DataType, window: Sql): Sql {
    if (mergedByLeaf(layout, column, type) && type.kind === 'struct') {
        const fields = type.fields.map(f => {
            const leaf = sql`struct_extract(${valueSql}, ${str(f.name)})`;
            const nested: CdcLayout = { ...layout, authoring: { kind: 'ignore_nulls', nullChecked: new Set([f.name.toLowerCase()]) } };
            return sql`${q(f.name)} := ${mergedValue(nested, f.name, leaf, f.type, window)}`;
        });
        return sql`struct_pack(${join(fields)})`;
    }
    const condition = sql`${q(KIND)} = 0 AND ${authored(layout, column, valueSql)}`;
    return sql`struct_extract(last_value(CASE WHEN ${condition} THEN struct_pack(v := ${valueSql}) END IGNORE NULLS) OVER (${window}), 'v')`;
}

/** True when every leaf of a struct value is NULL (or the value is): no event gave it a value. */
function noLeaf(value: Sql, type: DataType): Sql {
    if (type.kind !== 'struct' || type.fields.length === 0) {
        return sql`(${value} IS NULL)`;
    }
    return sql`(${join(type.fields.map(f => noLeaf(sql`struct_extract(${value}, ${str(f.name)})`, f.type)), sql` AND `)})`;
}

/**
 * A merged struct as Spark gives it (A26): NULL when none of its leaves has a value, else the struct
 * with each nested struct treated the same way; never a struct of NULLs.
 */
function nullIfNoLeaf(value: Sql, type: DataType): Sql {
    if (type.kind !== 'struct' || type.fields.length === 0) {
        return value;
    }
    const fields = type.fields.map(f => sql`${q(f.name)} := ${nullIfNoLeaf(sql`struct_extract(${value}, ${str(f.name)})`, f.type)}`);
    return sql`CASE WHEN ${noLeaf(value, type)} THEN NULL ELSE struct_pack(${join(fields)}) END`;
}

/**
 * Adds the per-key order (`__psql_rk`) to the events and, with partial authoring, replaces the data
 * columns by their merged values. `partition` lists the partition columns (keys, plus the belief
 * step for bitemporal).
 */
function orderedEvents(layout: CdcLayout, events: Sql, partition: Sql): Sql {
    const ranked = sql`SELECT *, ${eventRank(layout, empty)} AS "__psql_rk" FROM ${events}`;
    if (layout.authoring.kind === 'all') {
        return ranked;
    }
    const epochs = sql`SELECT *, sum(CASE WHEN ${q(KIND)} <> 0 THEN 1 ELSE 0 END) OVER (PARTITION BY ${partition} ORDER BY "__psql_rk" ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS "__psql_ep" FROM (${ranked})`;
    const window = sql`PARTITION BY ${partition}, "__psql_ep" ORDER BY "__psql_rk" ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`;
    const merged = layout.data.map(c => sql`${mergedValue(layout, c.name, q(c.name), c.type, window)} AS ${q(c.name)}`);
    if (merged.length === 0) {
        return epochs;
    }
    const mergedRows = sql`SELECT * REPLACE (${join(merged)}) FROM (${epochs})`;
    const structs = layout.data.filter(c => mergedByLeaf(layout, c.name, c.type));
    if (structs.length === 0) {
        return mergedRows;
    }
    return sql`SELECT * REPLACE (${join(structs.map(c => sql`${nullIfNoLeaf(q(c.name), c.type)} AS ${q(c.name)}`))}) FROM (${mergedRows})`;
}

/** SCD type 1 from a full event log (partial authoring, truncates as deletes): the surviving rows. */
export function scd1FoldSql(layout: CdcLayout, events: Sql): Sql {
    const keys = keyList(layout);
    const ordered = orderedEvents(layout, events, keys);
    return sql`SELECT ${keys}${layout.data.length ? sql`, ` : empty}${dataFields(layout)} FROM (
        SELECT ${keys}, arg_max_null(${dataStruct(layout)}, "__psql_rk") AS "__psql_d", arg_max(${q(KIND)}, "__psql_rk") AS "__psql_last"
        FROM (${ordered}) GROUP BY ${keys}) WHERE "__psql_last" = 0`;
}

/**
 * SCD type 2 versions (docs/semantics.md §8.2): runs of upserts with equal tracked values form one version that
 * starts at the run's first sequence, carries the run's last values, and ends at the sequence of the
 * event after the run (a delete or the next run's first upsert); zero-length versions are dropped.
 * `partition` may add the belief step (bitemporal). Output: partition columns, `__psql_d` payload,
 * `__psql_s` start, `__psql_e` end.
 *
 * One window pass marks each upsert as a run start (the previous event is not an upsert with the
 * same tracked values) and/or a run end (the next event is not one). A one-event run is a version by
 * itself; a longer run pairs its start row with its end row in a second, small pass over just those
 * rows.
 */
export function scd2VersionsSql(layout: CdcLayout, events: Sql, partition: Sql): Sql {
    const ordered = orderedEvents(layout, events, partition);
    const tracked = layout.tracked.length === 0 ? sql`0` : sql`struct_pack(${join(layout.tracked.map(c => sql`${q(c)} := ${q(c)}`))})`;
    const marked = sql`SELECT *, lag(${q(KIND)}) OVER "__w" AS "__psql_pk", lag(${tracked}) OVER "__w" AS "__psql_pt",
        lead(${q(KIND)}) OVER "__w" AS "__psql_nk", lead(${tracked}) OVER "__w" AS "__psql_nt", lead(${q(SEQ)}) OVER "__w" AS "__psql_next"
        FROM (${ordered}) WINDOW "__w" AS (PARTITION BY ${partition} ORDER BY "__psql_rk")`;
    const bounds = sql`SELECT *, ("__psql_pk" IS NULL OR "__psql_pk" <> 0 OR ${tracked} IS DISTINCT FROM "__psql_pt") AS "__psql_is",
        ("__psql_nk" IS NULL OR "__psql_nk" <> 0 OR ${tracked} IS DISTINCT FROM "__psql_nt") AS "__psql_il" FROM (${marked}) WHERE ${q(KIND)} = 0`;
    const single = sql`SELECT ${partition}, ${dataStruct(layout)} AS "__psql_d", ${q(SEQ)} AS "__psql_s", "__psql_next" AS "__psql_e" FROM "__psql_b" WHERE "__psql_is" AND "__psql_il"`;
    const paired = sql`SELECT ${partition}, "__psql_d", "__psql_s", "__psql_e" FROM (SELECT ${partition}, ${dataStruct(layout)} AS "__psql_d",
        lag(${q(SEQ)}) OVER (PARTITION BY ${partition} ORDER BY "__psql_rk") AS "__psql_s", "__psql_next" AS "__psql_e", "__psql_il"
        FROM "__psql_b" WHERE "__psql_is" <> "__psql_il") WHERE "__psql_il"`;
    return sql`WITH "__psql_b" AS MATERIALIZED (${bounds}) SELECT * FROM (${single} UNION ALL ${paired}) WHERE "__psql_s" IS DISTINCT FROM "__psql_e"`;
}

/** Annotation column of an SCD2 event log: the event starts afresh (a delete, or an upsert that starts a run). */
export const BOUNDARY = '__psql_b';
/** Annotation column of an SCD2 event log: the version start when the event is a visible version row, else NULL. */
export const START = '__psql_s';
/** Annotation column of an SCD2 event log: the version end of a visible version row (NULL: open). */
export const END = '__psql_e';

/** The per-key event order as ORDER BY items: sequence, the winning kind last, arrival. */
export function eventOrder(layout: EventOrdering, prefix: Sql = empty): Sql {
    return sql`${orderKey(sql`${prefix}${q(SEQ)}`, layout.seqType)}, ${winsTie(layout, sql`${prefix}${q(KIND)}`)}, ${prefix}${q(ARR)}`;
}

/**
 * SCD type 2 with full-row upserts, as an annotated event log (docs/semantics.md §8.2): every event of `events`
 * with three more columns — BOUNDARY (the event does not continue a run: a delete, or an upsert whose
 * previous event is not an upsert with the same tracked values), START and END (set on the last event
 * of each run of positive length: that event's values are the version's row, START is the run's first
 * sequence and END the sequence of the event after the run). The target is then the events with a
 * START, so the log is the only copy of the data.
 *
 * One window pass marks run starts and run ends; a run longer than one event pairs its start with its
 * end in a second, small pass over just those events. Recomputing a tail of a key's events gives the
 * same annotations as recomputing all of them when the tail begins at a BOUNDARY event (a run start
 * cannot tell that it is one from inside the tail; a boundary event is one either way).
 *
 * `few`: the events are a few per key (an update's tails): one window ordered by key, without
 * partitions — DuckDB's per-partition setup would dominate — that compares each neighbour's key.
 */
export function scd2AnnotateSql(layout: CdcLayout, events: Sql, options: { few?: boolean } = {}): Sql {
    const keys = keyList(layout);
    const order = eventOrder(layout);
    const tracked = layout.tracked.length === 0 ? sql`0` : sql`struct_pack(${join(layout.tracked.map(c => sql`${q(c)} := ${q(c)}`))})`;
    let marked: Sql;
    if (options.few) {
        const key = layout.keys.length === 1 ? q(layout.keys[0].name) : sql`struct_pack(${join(layout.keys.map(k => sql`${q(k.name)} := ${q(k.name)}`))})`;
        // A neighbour of another key is no neighbour: its columns read as NULL.
        const same = (fn: Sql, value: Sql): Sql => sql`CASE WHEN ${fn}(${key}) OVER "__w" = ${key} THEN ${fn}(${value}) OVER "__w" END`;
        const lag = sql`lag`;
        const lead = sql`lead`;
        marked = sql`SELECT *, ${same(lag, q(KIND))} AS "__psql_pk", ${same(lag, tracked)} AS "__psql_pt",
            ${same(lead, q(KIND))} AS "__psql_nk", ${same(lead, tracked)} AS "__psql_nt", ${same(lead, q(SEQ))} AS "__psql_next"
            FROM ${events} WINDOW "__w" AS (ORDER BY ${keys}, ${order})`;
    } else {
        marked = sql`SELECT *, lag(${q(KIND)}) OVER "__w" AS "__psql_pk", lag(${tracked}) OVER "__w" AS "__psql_pt",
            lead(${q(KIND)}) OVER "__w" AS "__psql_nk", lead(${tracked}) OVER "__w" AS "__psql_nt", lead(${q(SEQ)}) OVER "__w" AS "__psql_next"
            FROM ${events} WINDOW "__w" AS (PARTITION BY ${keys} ORDER BY ${order})`;
    }
    const bounds = sql`SELECT * EXCLUDE ("__psql_pk", "__psql_pt", "__psql_nk", "__psql_nt"),
        (${q(KIND)} <> 0 OR "__psql_pk" IS NULL OR "__psql_pk" <> 0 OR ${tracked} IS DISTINCT FROM "__psql_pt") AS ${q(BOUNDARY)},
        (${q(KIND)} = 0 AND ("__psql_nk" IS NULL OR "__psql_nk" <> 0 OR ${tracked} IS DISTINCT FROM "__psql_nt")) AS "__psql_il" FROM (${marked})`;
    // Single-event runs (and every other event but the two ends of longer runs) are annotated at once.
    const single = sql`SELECT * EXCLUDE ("__psql_next", "__psql_il"),
        CASE WHEN "__psql_il" AND ${q(SEQ)} IS DISTINCT FROM "__psql_next" THEN ${q(SEQ)} END AS ${q(START)},
        CASE WHEN "__psql_il" AND ${q(SEQ)} IS DISTINCT FROM "__psql_next" THEN "__psql_next" END AS ${q(END)}
        FROM "__psql_a" WHERE NOT (${q(KIND)} = 0 AND ${q(BOUNDARY)} <> "__psql_il")`;
    // The two ends of longer runs alternate (start, end, start, end...) in per-key order, each key's
    // first one a start, so an end's previous row is its run's start (also without partitions).
    const pairWindow = options.few ? sql`ORDER BY ${keys}, ${order}` : sql`PARTITION BY ${keys} ORDER BY ${order}`;
    const paired = sql`SELECT * EXCLUDE ("__psql_next", "__psql_il", "__psql_ps"),
        CASE WHEN "__psql_il" AND "__psql_ps" IS DISTINCT FROM "__psql_next" THEN "__psql_ps" END AS ${q(START)},
        CASE WHEN "__psql_il" AND "__psql_ps" IS DISTINCT FROM "__psql_next" THEN "__psql_next" END AS ${q(END)}
        FROM (SELECT *, lag(${q(SEQ)}) OVER (${pairWindow}) AS "__psql_ps" FROM "__psql_a" WHERE ${q(KIND)} = 0 AND ${q(BOUNDARY)} <> "__psql_il")`;
    return sql`WITH "__psql_a" AS MATERIALIZED (${bounds}) ${single} UNION ALL BY NAME ${paired}`;
}

/** SCD type 2 target rows: keys, data, __START_AT, __END_AT. */
export function scd2FoldSql(layout: CdcLayout, events: Sql): Sql {
    const keys = keyList(layout);
    return sql`SELECT ${keys}${layout.data.length ? sql`, ` : empty}${dataFields(layout)}, "__psql_s" AS "__START_AT", "__psql_e" AS "__END_AT" FROM (${scd2VersionsSql(layout, events, keys)})`;
}

/**
 * BITEMPORAL target rows (docs/semantics.md §9): for every distinct system time of a key, the belief is the SCD2
 * history of the events known by then; a belief row (data + business interval) is valid in system
 * time from the step it appears until the first later step that no longer contains it.
 */
export function bitemporalFoldSql(layout: CdcLayout, events: Sql): Sql {
    const keys = keyList(layout);
    const sysType = layout.sysType!;
    const using = join(layout.keys.map(k => q(k.name)));
    // Each key's belief steps (its distinct system times), numbered in order; computed once.
    const index = sql`SELECT ${keys}, "__psql_step", dense_rank() OVER (PARTITION BY ${keys} ORDER BY ${orderKey(sql`"__psql_step"`, sysType)}) AS "__psql_i"
        FROM (SELECT DISTINCT ${keys}, ${q(SYS)} AS "__psql_step" FROM ${events})`;
    const expanded = sql`SELECT "__e".*, "__st"."__psql_step" FROM ${events} AS "__e" JOIN "__psql_x" AS "__st" USING (${using})
        WHERE ${orderKey(sql`"__e".${q(SYS)}`, sysType)} <= ${orderKey(sql`"__st"."__psql_step"`, sysType)}`;
    const partition = sql`${keys}, "__psql_step"`;
    const beliefs = scd2VersionsSql(layout, sql`(${expanded})`, partition);
    const indexed = sql`SELECT "__v".*, "__x"."__psql_i" FROM (${beliefs}) AS "__v" JOIN "__psql_x" AS "__x" USING (${using}, "__psql_step")`;
    const islands = sql`SELECT *, "__psql_i" - row_number() OVER (PARTITION BY ${keys}, "__psql_d", "__psql_s", "__psql_e" ORDER BY "__psql_i") AS "__psql_g" FROM (${indexed})`;
    const grouped = sql`SELECT ${keys}, "__psql_d", "__psql_s", "__psql_e", min("__psql_i") AS "__psql_i0", max("__psql_i") AS "__psql_i1"
        FROM (${islands}) GROUP BY ${keys}, "__psql_d", "__psql_s", "__psql_e", "__psql_g"`;
    const keyJoin = (alias: Sql): Sql => join(layout.keys.map(k => sql`"__g".${q(k.name)} = ${alias}.${q(k.name)}`), sql` AND `);
    return sql`WITH "__psql_x" AS MATERIALIZED (${index}) SELECT ${join(layout.keys.map(k => sql`"__g".${q(k.name)}`))}${layout.data.length ? sql`, ` : empty}
        ${join(layout.data.map(c => sql`struct_extract("__g"."__psql_d", ${str(c.name)}) AS ${q(c.name)}`))},
        "__g"."__psql_s" AS "__START_AT", "__g"."__psql_e" AS "__END_AT", "__i0"."__psql_step" AS "__SYSTEM_START_AT", "__i1"."__psql_step" AS "__SYSTEM_END_AT"
        FROM (${grouped}) AS "__g" JOIN "__psql_x" AS "__i0" ON ${keyJoin(sql`"__i0"`)} AND "__i0"."__psql_i" = "__g"."__psql_i0"
        LEFT JOIN "__psql_x" AS "__i1" ON ${keyJoin(sql`"__i1"`)} AND "__i1"."__psql_i" = "__g"."__psql_i1" + 1`;
}
