// The bitemporal sweep (engine/src/flows/bitemporal.ts) against the declarative definition of docs/semantics.md §9
// computed the slow way: the SCD2 fold of the events known at every system time, diffed step by
// step. Histories are random — repeated sequences and data values (long runs of equal versions),
// deletes, several events per system time, system time unrelated to business time — and some are
// long, so the incremental bookkeeping is exercised well beyond what the pipeline tests reach.
import { describe, expect, it } from 'vitest';
import { sweepBeliefs, type KeyHistory } from '../../../engine/src/flows/bitemporal.js';
import { prng } from '../../helpers/prng.js';

interface Event { seq: number; kind: number; data: number; sys: number }

/** Events in per-key order (sequence, upsert before delete, arrival = index in `raw`). */
function perKeyOrder(raw: Event[]): Event[] {
    return raw.map((e, arrival) => ({ ...e, arrival })).sort((a, b) => a.seq - b.seq || a.kind - b.kind || a.arrival - b.arrival);
}

/** docs/semantics.md §8.2 with every data column tracked: versions as [data, start, end] of one key's known events. */
function scd2(events: Event[]): string[] {
    const out: string[] = [];
    let open: { data: number; start: number } | null = null;
    for (const e of events) {
        if (e.kind === 1) {
            if (open && open.start !== e.seq) {
                out.push(JSON.stringify([open.data, open.start, e.seq]));
            }
            open = null;
        } else if (!open) {
            open = { data: e.data, start: e.seq };
        } else if (open.data !== e.data) {
            if (open.start !== e.seq) {
                out.push(JSON.stringify([open.data, open.start, e.seq]));
            }
            open = { data: e.data, start: e.seq };
        }
    }
    if (open) {
        out.push(JSON.stringify([open.data, open.start, null]));
    }
    return out;
}

/** docs/semantics.md §9 pseudocode: rows as [data, start, end, system start, system end]. */
function reference(ordered: Event[]): string[] {
    const rows: string[] = [];
    const open = new Map<string, number>();
    for (const s of [...new Set(ordered.map(e => e.sys))].sort((a, b) => a - b)) {
        const belief = new Set(scd2(ordered.filter(e => e.sys <= s)));
        for (const [id, since] of open) {
            if (!belief.has(id)) {
                rows.push(JSON.stringify([...JSON.parse(id) as unknown[], since, s]));
                open.delete(id);
            }
        }
        for (const id of belief) {
            if (!open.has(id)) {
                open.set(id, s);
            }
        }
    }
    for (const [id, since] of open) {
        rows.push(JSON.stringify([...JSON.parse(id) as unknown[], since, null]));
    }
    return rows.sort();
}

/** The sweep's rows in the same form. */
function swept(ordered: Event[]): string[] {
    const systemTimes = [...new Set(ordered.map(e => e.sys))].sort((a, b) => a - b);
    const seqValues = [...new Set(ordered.map(e => e.seq))].sort((a, b) => a - b);
    const history: KeyHistory = {
        kind: ordered.map(e => e.kind),
        data: ordered.map(e => e.data),
        seq: ordered.map(e => seqValues.indexOf(e.seq)),
        step: ordered.map(e => systemTimes.indexOf(e.sys) + 1),
    };
    const rows: string[] = [];
    sweepBeliefs(history, (last, first, next, from, to) => {
        rows.push(JSON.stringify([ordered[last].data, ordered[first].seq, next < 0 ? null : ordered[next].seq, systemTimes[from - 1], to < 0 ? null : systemTimes[to - 1]]));
    });
    return rows.sort();
}

function randomHistory(random: () => number, length: number, values: number, seqs: number, times: number, deletes: number): Event[] {
    return Array.from({ length }, () => ({
        seq: Math.floor(random() * seqs),
        kind: random() < deletes ? 1 : 0,
        data: Math.floor(random() * values),
        sys: Math.floor(random() * times),
    }));
}

describe('the bitemporal sweep gives the belief history of spec 9', () => {
    it('on many short random histories', () => {
        const random = prng(7);
        for (let trial = 0; trial < 3000; trial++) {
            const raw = randomHistory(random, 1 + Math.floor(random() * 14), 1 + Math.floor(random() * 3), 1 + Math.floor(random() * 10), 1 + Math.floor(random() * 8), random() * 0.4);
            const ordered = perKeyOrder(raw);
            expect(swept(ordered), `trial ${trial}: ${JSON.stringify(raw)}`).toEqual(reference(ordered));
        }
    });

    it('on long histories with long runs of equal data and many system times', () => {
        const random = prng(11);
        for (let trial = 0; trial < 40; trial++) {
            const raw = randomHistory(random, 150 + Math.floor(random() * 150), 2, 400, 120, 0.05);
            const ordered = perKeyOrder(raw);
            expect(swept(ordered), `trial ${trial}`).toEqual(reference(ordered));
        }
    });

    it('when events arrive in reverse business order, one per system time', () => {
        const raw = Array.from({ length: 60 }, (_, i) => ({ seq: 60 - i, kind: i % 7 === 3 ? 1 : 0, data: i % 3, sys: i }));
        const ordered = perKeyOrder(raw);
        expect(swept(ordered)).toEqual(reference(ordered));
    });
});
