// Property test of the declarative AUTO CDC semantics (spec 6.5): random change feeds — out of
// order, with deletes, truncates, NULL values and repeated sequence values — split at random into
// updates must give the target that an independent reference model computes from all events.
// The reference model below is a direct transcription of the spec's per-key folds (7.1, 7.2, 8.2).
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineIR } from '../../../engine/src/ir.js';
import { autoCdc, catalogTable, col, eq, pipeline, sel, str, stream, streamingTable, type CdcOptions } from '../helpers/ir-builder.js';
import { Workspace } from '../helpers/workspace.js';

type Op = 'UPSERT' | 'DELETE' | 'TRUNCATE';
type Event = { id: number | null; name: string | null; city: string | null; seq: number; op: Op };
type Data = { name: string | null; city: string | null };

/** A small deterministic PRNG (mulberry32) so failures can be replayed from the seed. */
function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

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
            // Few distinct sequence values, so equal (key, sequence) pairs occur.
            seq: 1 + Math.floor(random() * 15),
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

interface Keyed { seq: number; kind: 0 | 1; arrival: number; data: Data }

/** Each key's events in per-key order; truncates become deletes of every key at their sequence. */
function perKey(events: Event[]): Map<number, Keyed[]> {
    const keys = new Set(events.filter(e => e.op !== 'TRUNCATE').map(e => e.id!));
    const byKey = new Map<number, Keyed[]>();
    for (const key of keys) {
        const list: Keyed[] = [];
        events.forEach((e, arrival) => {
            if (e.op === 'TRUNCATE' || e.id === key) {
                list.push({ seq: e.seq, kind: e.op === 'UPSERT' ? 0 : 1, arrival, data: { name: e.name, city: e.city } });
            }
        });
        list.sort((a, b) => a.seq - b.seq || a.kind - b.kind || a.arrival - b.arrival);
        byKey.set(key, list);
    }
    return byKey;
}

function merge(current: Data | null, data: Data, ignoreNulls: boolean): Data {
    if (!ignoreNulls || !current) {
        return ignoreNulls ? { name: data.name, city: data.city } : data;
    }
    return { name: data.name ?? current.name, city: data.city ?? current.city };
}

/** SCD type 1 (spec 7.1/7.2): fold each key's events; the final row if present. */
function referenceScd1(events: Event[], ignoreNulls: boolean): string[] {
    const rows: string[] = [];
    for (const [key, list] of perKey(events)) {
        let row: Data | null = null;
        for (const e of list) {
            row = e.kind === 1 ? null : merge(row, e.data, ignoreNulls);
        }
        if (row) {
            rows.push(JSON.stringify([key, row.name, row.city]));
        }
    }
    return rows.sort();
}

/** SCD type 2 (spec 8.2 pseudocode, every data column tracked). */
function referenceScd2(events: Event[], ignoreNulls: boolean): string[] {
    const rows: string[] = [];
    const same = (a: Data, b: Data) => a.name === b.name && a.city === b.city;
    for (const [key, list] of perKey(events)) {
        let open: { data: Data; start: number } | null = null;
        const emit = (data: Data, start: number, end: number | null) => rows.push(JSON.stringify([key, data.name, data.city, start, end]));
        for (const e of list) {
            if (e.kind === 1) {
                if (open && open.start !== e.seq) {
                    emit(open.data, open.start, e.seq);
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
                        emit(open.data, open.start, e.seq);
                    }
                    open = { data: d, start: e.seq };
                }
            }
        }
        if (open) {
            emit(open.data, open.start, null);
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

const modes: Mode[] = [
    { name: 'SCD1, full-row updates, truncates', options: { storedAs: 'scd1', truncateWhen: eq(col('op'), str('TRUNCATE')) }, truncates: true, reference: e => referenceScd1(e, false), columns: ['id', 'name', 'city'] },
    { name: 'SCD1, IGNORE NULL UPDATES, truncates', options: { storedAs: 'scd1', truncateWhen: eq(col('op'), str('TRUNCATE')), ignoreNullUpdates: sel.all() }, truncates: true, reference: e => referenceScd1(e, true), columns: ['id', 'name', 'city'] },
    { name: 'SCD2', options: { storedAs: 'scd2' }, truncates: false, reference: e => referenceScd2(e, false), columns: ['id', 'name', 'city', '__START_AT', '__END_AT'] },
    { name: 'SCD2, IGNORE NULL UPDATES', options: { storedAs: 'scd2', ignoreNullUpdates: sel.all() }, truncates: false, reference: e => referenceScd2(e, true), columns: ['id', 'name', 'city', '__START_AT', '__END_AT'] },
];

function cdcPipeline(mode: Mode): PipelineIR {
    return pipeline([streamingTable('t')], [autoCdc('t_cdc', 't', stream('feed'), {
        keys: ['id'], sequenceBy: col('seq'), deleteWhen: eq(col('op'), str('DELETE')), columns: sel.except('seq', 'op'), ...mode.options,
    })], [catalogTable('feed', 'id INT, name STRING, city STRING, seq INT, op STRING', 'json')]);
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
