// Property test of the declarative AUTO CDC semantics (docs/semantics.md §6.5): random change feeds — out of
// order, with deletes, truncates, NULL values and repeated sequence values — split at random into
// updates must give the target that an independent reference model computes from all events.
// The reference model below is a direct transcription of the spec's per-key folds (7.1, 7.2, 8.2)
// and of the bitemporal belief history (9): an SCD2 fold per system time, diffed step by step. Ties
// at an equal key and sequence: SCD1 lets the upsert win, SCD2 and BITEMPORAL the delete (A5). A
// STRUCT column under IGNORE NULL UPDATES merges leaf by leaf and is NULL when no leaf has a value (A26).
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineIR } from '../../../engine/src/ir.js';
import { autoCdc, catalogTable, col, eq, pipeline, sel, str, stream, streamingTable, type CdcOptions } from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';
import { prng } from '../../helpers/prng.js';

type Op = 'UPSERT' | 'DELETE' | 'TRUNCATE';
type Address = { street: string | null; zip: string | null };
type Event = { id: number | null; name: string | null; city: string | null; addr: Address | null; seq: number; sys: number; op: Op };
type Data = { name: string | null; city: string | null; addr: Address | null };

/** Addresses with every mix of NULL leaves, and a NULL address. */
const addresses: (Address | null)[] = [null, { street: 's1', zip: null }, { street: null, zip: 'z1' }, { street: null, zip: null }, { street: 's2', zip: 'z2' }];

function randomFeed(random: () => number, withTruncates: boolean): Event[] {
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const count = 10 + Math.floor(random() * 30);
    const events: Event[] = [];
    for (let i = 0; i < count; i++) {
        const roll = random();
        const op: Op = withTruncates && roll < 0.04 ? 'TRUNCATE' : roll < 0.25 ? 'DELETE' : 'UPSERT';
        events.push({
            id: op === 'TRUNCATE' ? null : 1 + Math.floor(random() * 4),
            name: op === 'UPSERT' ? pick(['a', 'b', 'c', null]) : null,
            city: op === 'UPSERT' ? pick(['x', 'y', null]) : null,
            addr: op === 'UPSERT' ? pick(addresses) : null,
            // Few distinct sequence values, so equal (key, sequence) pairs occur.
            seq: 1 + Math.floor(random() * 15),
            // System times (bitemporal) repeat and arrive out of order too.
            sys: 1 + Math.floor(random() * 12),
            op,
        });
    }
    return events;
}

/** Splits a feed into 1–4 consecutive updates at random points. */
function randomSplit(random: () => number, events: Event[]): Event[][] {
    const parts = 1 + Math.floor(random() * 4);
    const cuts = new Set<number>();
    while (cuts.size < parts - 1) {
        cuts.add(1 + Math.floor(random() * (events.length - 1)));
    }
    const sorted = [...cuts].sort((a, b) => a - b);
    const out: Event[][] = [];
    let start = 0;
    for (const cut of [...sorted, events.length]) {
        out.push(events.slice(start, cut));
        start = cut;
    }
    return out;
}

// ------------------------------------------------------------------ reference model

interface Keyed { seq: number; sys: number; kind: 0 | 1; arrival: number; data: Data }

/**
 * Each key's events in per-key order; truncates become deletes of every key at their sequence. At an
 * equal sequence the winning kind comes last: the upsert for SCD1 (`upsertWins`), else the delete.
 */
function perKey(events: Event[], upsertWins = false): Map<number, Keyed[]> {
    const keys = new Set(events.filter(e => e.op !== 'TRUNCATE').map(e => e.id!));
    const byKey = new Map<number, Keyed[]>();
    for (const key of keys) {
        const list: Keyed[] = [];
        events.forEach((e, arrival) => {
            if (e.op === 'TRUNCATE' || e.id === key) {
                list.push({ seq: e.seq, sys: e.sys, kind: e.op === 'UPSERT' ? 0 : 1, arrival, data: { name: e.name, city: e.city, addr: e.addr } });
            }
        });
        list.sort((a, b) => a.seq - b.seq || (upsertWins ? b.kind - a.kind : a.kind - b.kind) || a.arrival - b.arrival);
        byKey.set(key, list);
    }
    return byKey;
}

/** A struct merged leaf by leaf: each leaf's latest value; NULL when no leaf has one (A26). */
function mergeAddress(current: Address | null, incoming: Address | null): Address | null {
    const street = incoming?.street ?? current?.street ?? null;
    const zip = incoming?.zip ?? current?.zip ?? null;
    return street === null && zip === null ? null : { street, zip };
}

function merge(current: Data | null, data: Data, ignoreNulls: boolean): Data {
    if (!ignoreNulls) {
        return data;
    }
    return { name: data.name ?? current?.name ?? null, city: data.city ?? current?.city ?? null, addr: mergeAddress(current?.addr ?? null, data.addr) };
}

/** SCD type 1 (docs/semantics.md §7.1/§7.2): fold each key's events; the final row if present. */
function referenceScd1(events: Event[], ignoreNulls: boolean): string[] {
    const rows: string[] = [];
    for (const [key, list] of perKey(events, true)) {
        let row: Data | null = null;
        for (const e of list) {
            row = e.kind === 1 ? null : merge(row, e.data, ignoreNulls);
        }
        if (row) {
            rows.push(JSON.stringify([key, row.name, row.city, row.addr]));
        }
    }
    return rows.sort();
}

/** Which data columns SCD2 tracks (TRACK HISTORY ON). */
type Tracked = (keyof Data)[];

interface Version { data: Data; start: number; end: number | null }

/** One key's SCD2 versions (docs/semantics.md §8.2 pseudocode) from its events in per-key order. */
function scd2Fold(list: Keyed[], ignoreNulls: boolean, tracked: Tracked): Version[] {
    const out: Version[] = [];
    const same = (a: Data, b: Data) => tracked.every(c => JSON.stringify(a[c]) === JSON.stringify(b[c]));
    let open: { data: Data; start: number } | null = null;
    for (const e of list) {
        if (e.kind === 1) {
            if (open && open.start !== e.seq) {
                out.push({ data: open.data, start: open.start, end: e.seq });
            }
            open = null;
        } else {
            const d = merge(open?.data ?? null, e.data, ignoreNulls);
            if (!open) {
                open = { data: d, start: e.seq };
            } else if (same(d, open.data)) {
                open.data = d;
            } else {
                if (open.start !== e.seq) {
                    out.push({ data: open.data, start: open.start, end: e.seq });
                }
                open = { data: d, start: e.seq };
            }
        }
    }
    if (open) {
        out.push({ data: open.data, start: open.start, end: null });
    }
    return out;
}

/** SCD type 2 target rows. */
function referenceScd2(events: Event[], ignoreNulls: boolean, tracked: Tracked = ['name', 'city', 'addr']): string[] {
    const rows: string[] = [];
    for (const [key, list] of perKey(events)) {
        for (const v of scd2Fold(list, ignoreNulls, tracked)) {
            rows.push(JSON.stringify([key, v.data.name, v.data.city, v.data.addr, v.start, v.end]));
        }
    }
    return rows.sort();
}

/**
 * BITEMPORAL target rows (docs/semantics.md §9 pseudocode): at each distinct system time the belief is the SCD2
 * history of the events known by then; a belief row (data + business interval) is valid in system
 * time from the step it appears until the first step that no longer contains it.
 */
function referenceBitemporal(events: Event[], ignoreNulls: boolean): string[] {
    const rows: string[] = [];
    for (const [key, list] of perKey(events)) {
        const open = new Map<string, { v: Version; since: number }>();
        for (const s of [...new Set(list.map(e => e.sys))].sort((a, b) => a - b)) {
            const belief = new Map(scd2Fold(list.filter(e => e.sys <= s), ignoreNulls, ['name', 'city', 'addr']).map(v => [JSON.stringify(v), v]));
            for (const [id, row] of open) {
                if (!belief.has(id)) {
                    rows.push(JSON.stringify([key, row.v.data.name, row.v.data.city, row.v.data.addr, row.v.start, row.v.end, row.since, s]));
                    open.delete(id);
                }
            }
            for (const [id, v] of belief) {
                if (!open.has(id)) {
                    open.set(id, { v, since: s });
                }
            }
        }
        for (const row of open.values()) {
            rows.push(JSON.stringify([key, row.v.data.name, row.v.data.city, row.v.data.addr, row.v.start, row.v.end, row.since, null]));
        }
    }
    return rows.sort();
}

// ------------------------------------------------------------------ the property

interface Mode {
    name: string;
    options: Partial<CdcOptions>;
    truncates: boolean;
    reference: (events: Event[]) => string[];
    columns: string[];
}

const bitemporalColumns = ['id', 'name', 'city', 'addr', '__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT'];
const scd1Columns = ['id', 'name', 'city', 'addr'];
const scd2Columns = ['id', 'name', 'city', 'addr', '__START_AT', '__END_AT'];

const modes: Mode[] = [
    { name: 'SCD1, full-row updates, truncates', options: { storedAs: 'scd1', truncateWhen: eq(col('op'), str('TRUNCATE')) }, truncates: true, reference: e => referenceScd1(e, false), columns: scd1Columns },
    { name: 'SCD1, IGNORE NULL UPDATES, truncates', options: { storedAs: 'scd1', truncateWhen: eq(col('op'), str('TRUNCATE')), ignoreNullUpdates: sel.all() }, truncates: true, reference: e => referenceScd1(e, true), columns: scd1Columns },
    { name: 'SCD2', options: { storedAs: 'scd2' }, truncates: false, reference: e => referenceScd2(e, false), columns: scd2Columns },
    { name: 'SCD2, IGNORE NULL UPDATES', options: { storedAs: 'scd2', ignoreNullUpdates: sel.all() }, truncates: false, reference: e => referenceScd2(e, true), columns: scd2Columns },
    { name: 'SCD2, TRACK HISTORY ON (name)', options: { storedAs: 'scd2', trackHistory: sel.list('name') }, truncates: false, reference: e => referenceScd2(e, false, ['name']), columns: scd2Columns },
    { name: 'BITEMPORAL', options: { storedAs: 'bitemporal', systemSequenceBy: col('sys') }, truncates: false, reference: e => referenceBitemporal(e, false), columns: bitemporalColumns },
    { name: 'BITEMPORAL, IGNORE NULL UPDATES', options: { storedAs: 'bitemporal', systemSequenceBy: col('sys'), ignoreNullUpdates: sel.all() }, truncates: false, reference: e => referenceBitemporal(e, true), columns: bitemporalColumns },
];

function cdcPipeline(mode: Mode): PipelineIR {
    return pipeline([streamingTable('t')], [autoCdc('t_cdc', 't', stream('feed'), {
        keys: ['id'], sequenceBy: col('seq'), deleteWhen: eq(col('op'), str('DELETE')), columns: sel.except('seq', 'sys', 'op'), ...mode.options,
    })], [catalogTable('feed', 'id INT, name STRING, city STRING, addr STRUCT<street: STRING, zip: STRING>, seq INT, sys INT, op STRING', 'json')]);
}

let ws: Workspace | undefined;
afterEach(() => ws?.dispose());

const TRIALS = 12;

describe('AUTO CDC targets are a function of the set of events, whatever the split into updates', () => {
    for (const mode of modes) {
        it(mode.name, async () => {
            for (let trial = 0; trial < TRIALS; trial++) {
                const seed = 1000 * (modes.indexOf(mode) + 1) + trial;
                const random = prng(seed);
                const events = randomFeed(random, mode.truncates);
                const split = randomSplit(random, events);
                ws = new Workspace();
                let rows: Record<string, unknown>[] = [];
                for (const part of split) {
                    ws.append('feed', part);
                    const result = await ws.ok(cdcPipeline(mode));
                    rows = result.datasets.t?.rows ?? [];
                }
                const actual = rows.map(r => JSON.stringify(mode.columns.map(c => r[c] ?? null))).sort();
                expect(actual, `seed ${seed}: ${split.length} update(s) of ${JSON.stringify(events)}`).toEqual(mode.reference(events));
                ws.dispose();
                ws = undefined;
            }
        });
    }
});
