// BITEMPORAL targets (docs/semantics.md §9) by a sweep over system time. The declarative definition recomputes a
// key's SCD2 history at every distinct system time of its events, which is quadratic in the number
// of a key's system times. The events that arrive at one system time change only the versions
// around them (the run each joins or splits and the runs next to it), so the sweep keeps the current
// belief and, per step, recomputes just those versions: O(n log n) per key.
//
// DuckDB does what it is good at — ordering the events and numbering equal values — and hands a few
// integer columns per event to the sweep, which hands back, per belief row, the numbers of the events
// that supply its values; joins then build the rows.
import type { Database } from '../db/database.js';
import { empty, ident, join, sql, type Sql } from '../sql/sql.js';
import { ARR, KIND, SEQ, SYS, eventOrder, orderKey, type CdcLayout } from './cdc-sql.js';

const q = ident;

/** One key's events in per-key order (sequence, upsert before delete, arrival). */
export interface KeyHistory {
    /** 0 upsert, 1 delete. */
    kind: ArrayLike<number>;
    /** Equal numbers for equal data (all data columns, null-safe). */
    data: ArrayLike<number>;
    /** Equal numbers for equal sequence values. */
    seq: ArrayLike<number>;
    /** The system-time step of each event: 1 for the key's earliest system time, dense. */
    step: ArrayLike<number>;
}

/**
 * Receives a belief row: event indexes supplying its data (`last`), `__START_AT` (`first`) and
 * `__END_AT` (`next`, -1 for none), and the system-time steps from which it is believed (`from`)
 * and from which it is not any more (`to`, -1 for still believed).
 */
export type BeliefSink = (last: number, first: number, next: number, from: number, to: number) => void;

/**
 * The bitemporal history of one key (docs/semantics.md §9), computed by a sweep over its system-time steps; one
 * sweeper serves key after key, reusing its buffers (most keys have a handful of events, so
 * allocating per key would dominate).
 *
 * The events known at a step, in per-key order, fall into runs: upserts with equal data that follow
 * each other. A run that does not start and end at the same sequence is a version: the data of its
 * last event, from its first event's sequence to the sequence of the event after it. A run starts at a
 * "boundary": an upsert whose previous known event is not an upsert with equal data (deletes are
 * boundaries too). When events become known, only the versions whose span — from the event before
 * their first event to the event after their last — contains one of them can change; those are
 * recomputed and compared by identity (data, start, end), so a version that comes out the same keeps
 * its system start. Two Fenwick trees count known events and boundaries by position, so each lookup
 * is O(log n); current versions are kept by the position of their first event.
 */
export class BeliefSweep {
    private known = new Int32Array(0);
    private boundaries = new Int32Array(0);
    private isBoundary = new Uint8Array(0);
    private byStep = new Int32Array(0);
    private stepStart = new Int32Array(0);
    private mark = new Int32Array(0);
    private versionLast = new Int32Array(0);
    private versionNext = new Int32Array(0);
    private versionFrom = new Int32Array(0);
    private readonly dirty: number[] = [];
    private readonly retired: number[] = [];
    private n = 0;
    private top = 1;
    private knownCount = 0;
    private boundaryCount = 0;
    /** Keys of up to 31 events (most keys) keep both sets as bit masks instead of Fenwick trees. */
    private small = false;
    private knownMask = 0;
    private boundaryMask = 0;
    private kind = new Int32Array(0);
    private data = new Int32Array(0);
    private seq = new Int32Array(0);
    private step = new Int32Array(0);

    /**
     * Emits every belief row of one key with its system-time interval: the key's events are
     * `history[from .. to)`; emitted event indexes count from `from`.
     */
    run(history: KeyHistory, emit: BeliefSink, from = 0, to = history.kind.length): void {
        const n = to - from;
        let steps = 0;
        for (let i = from; i < to; i++) {
            steps = Math.max(steps, history.step[i]);
        }
        this.prepare(n, steps);
        // Copies in typed arrays keep the loops below monomorphic.
        const { kind, data, seq, step } = this;
        for (let i = 0; i < n; i++) {
            kind[i] = history.kind[from + i];
            data[i] = history.data[from + i];
            seq[i] = history.seq[from + i];
            step[i] = history.step[from + i];
        }
        const { known, isBoundary, byStep, stepStart, versionLast, versionNext, versionFrom, dirty, retired } = this;
        // Positions grouped by step (a counting sort), in per-key order within a step:
        // byStep[stepStart[s] .. stepStart[s + 1]) are the events of step s.
        for (let i = 0; i < n; i++) {
            stepStart[step[i] + 1]++;
        }
        for (let s = 1; s <= steps + 1; s++) {
            stepStart[s] += stepStart[s - 1];
        }
        for (let i = 0; i < n; i++) {
            byStep[stepStart[step[i]]++] = i;
        }
        for (let s = steps; s >= 1; s--) {
            stepStart[s] = stepStart[s - 1];
        }
        stepStart[0] = 0;
        for (let s = 1; s <= steps; s++) {
            const begin = stepStart[s];
            const end = s === steps ? n : stepStart[s + 1];
            if (begin === end) {
                continue;
            }
            dirty.length = 0;
            retired.length = 0;
            // Versions whose span holds the place where an arriving event lands, before it lands.
            for (let j = begin; j < end; j++) {
                const p = byStep[j];
                this.addDirty(this.runStart(this.before(p)), s);
                const next = this.after(p);
                if (next >= 0 && isBoundary[next] === 1 && kind[next] === 0) {
                    this.addDirty(next, s);
                }
            }
            for (let j = begin; j < end; j++) {
                if (this.small) {
                    this.knownMask |= 1 << byStep[j];
                } else {
                    fenwickAdd(known, n, byStep[j], 1);
                }
            }
            this.knownCount += end - begin;
            for (let j = begin; j < end; j++) {
                const p = byStep[j];
                this.updateBoundary(p);
                const next = this.after(p);
                if (next >= 0) {
                    this.updateBoundary(next);
                }
            }
            // Versions whose span holds an arriving event, after it landed.
            for (let j = begin; j < end; j++) {
                const p = byStep[j];
                this.addDirty(this.runStart(this.before(p)), s);
                this.addDirty(this.runStart(p), s);
                const next = this.after(p);
                if (next >= 0 && isBoundary[next] === 1 && kind[next] === 0) {
                    this.addDirty(next, s);
                }
            }
            for (const start of dirty) {
                if (versionLast[start] >= 0) {
                    retired.push(versionLast[start], start, versionNext[start], versionFrom[start]);
                    versionLast[start] = -1;
                }
            }
            for (const start of dirty) {
                if (isBoundary[start] !== 1 || kind[start] !== 0) {
                    continue; // does not start a run (any more)
                }
                const next = this.boundaryAfter(start);
                if (next >= 0 && seq[next] === seq[start]) {
                    continue; // starts and ends at the same sequence: not a version
                }
                const last = next >= 0 ? this.before(next) : this.before(n);
                let since = s;
                // The same row (data, start, end) retired in this step stays believed since its step.
                for (let r = 0; r < retired.length; r += 4) {
                    const oldLast = retired[r];
                    const oldNext = retired[r + 2];
                    if (oldLast >= 0 && data[oldLast] === data[last] && seq[retired[r + 1]] === seq[start]
                        && (oldNext < 0 ? next < 0 : next >= 0 && seq[oldNext] === seq[next])) {
                        since = retired[r + 3];
                        retired[r] = -1;
                        break;
                    }
                }
                versionLast[start] = last;
                versionNext[start] = next;
                versionFrom[start] = since;
            }
            for (let r = 0; r < retired.length; r += 4) {
                if (retired[r] >= 0) {
                    emit(retired[r], retired[r + 1], retired[r + 2], retired[r + 3], s);
                }
            }
        }
        for (let first = 0; first < n; first++) {
            if (versionLast[first] >= 0) {
                emit(versionLast[first], first, versionNext[first], versionFrom[first], -1);
            }
        }
    }

    /** Makes room for `n` events and `steps` steps, with every counter cleared. */
    private prepare(n: number, steps: number): void {
        if (this.known.length < n + 1) {
            const size = Math.max(n + 1, this.known.length * 2);
            this.known = new Int32Array(size);
            this.boundaries = new Int32Array(size);
            this.isBoundary = new Uint8Array(size);
            this.byStep = new Int32Array(size);
            this.mark = new Int32Array(size);
            this.versionLast = new Int32Array(size);
            this.versionNext = new Int32Array(size);
            this.versionFrom = new Int32Array(size);
            this.kind = new Int32Array(size);
            this.data = new Int32Array(size);
            this.seq = new Int32Array(size);
            this.step = new Int32Array(size);
        }
        if (this.stepStart.length < steps + 2) {
            this.stepStart = new Int32Array(Math.max(steps + 2, this.stepStart.length * 2));
        }
        this.known.fill(0, 0, n + 1);
        this.boundaries.fill(0, 0, n + 1);
        this.isBoundary.fill(0, 0, n);
        this.mark.fill(0, 0, n);
        this.versionLast.fill(-1, 0, n);
        this.stepStart.fill(0, 0, steps + 2);
        this.n = n;
        this.top = 1;
        while (this.top * 2 <= n) {
            this.top *= 2;
        }
        this.knownCount = 0;
        this.boundaryCount = 0;
        this.small = n <= 31;
        this.knownMask = 0;
        this.boundaryMask = 0;
    }

    /** The known event just before `position` (`position` may be n), or -1. */
    private before(position: number): number {
        if (this.small) {
            return highestBit(this.knownMask & ((1 << position) - 1));
        }
        const count = position <= 0 ? 0 : fenwickCount(this.known, position - 1);
        return count === 0 ? -1 : fenwickNth(this.known, this.n, this.top, count);
    }

    /** The known event just after `position`, or -1. */
    private after(position: number): number {
        if (this.small) {
            return lowestBit(this.knownMask & ~((2 << position) - 1));
        }
        const count = fenwickCount(this.known, position);
        return count === this.knownCount ? -1 : fenwickNth(this.known, this.n, this.top, count + 1);
    }

    /** The first boundary after `position`, or -1. */
    private boundaryAfter(position: number): number {
        if (this.small) {
            return lowestBit(this.boundaryMask & ~((2 << position) - 1));
        }
        const count = fenwickCount(this.boundaries, position);
        return count === this.boundaryCount ? -1 : fenwickNth(this.boundaries, this.n, this.top, count + 1);
    }

    /** The first event of the run containing the event at `position` (-1: none, or a delete). */
    private runStart(position: number): number {
        if (position < 0) {
            return -1;
        }
        let first: number;
        if (this.small) {
            first = highestBit(this.boundaryMask & ((2 << position) - 1));
        } else {
            const count = fenwickCount(this.boundaries, position);
            first = count === 0 ? -1 : fenwickNth(this.boundaries, this.n, this.top, count);
        }
        return first >= 0 && this.kind[first] === 0 ? first : -1;
    }

    private updateBoundary(position: number): void {
        const { kind, data } = this;
        const previous = this.before(position);
        const boundary = kind[position] !== 0 || previous < 0 || kind[previous] !== 0 || data[previous] !== data[position];
        if (boundary !== (this.isBoundary[position] === 1)) {
            this.isBoundary[position] = boundary ? 1 : 0;
            if (this.small) {
                this.boundaryMask ^= 1 << position;
            } else {
                fenwickAdd(this.boundaries, this.n, position, boundary ? 1 : -1);
            }
            this.boundaryCount += boundary ? 1 : -1;
        }
    }

    private addDirty(first: number, step: number): void {
        if (first >= 0 && this.mark[first] !== step) {
            this.mark[first] = step;
            this.dirty.push(first);
        }
    }
}

/** The position of the highest set bit of a 31-bit mask, or -1. */
function highestBit(mask: number): number {
    return mask === 0 ? -1 : 31 - Math.clz32(mask);
}

/** The position of the lowest set bit of a 31-bit mask, or -1. */
function lowestBit(mask: number): number {
    return mask === 0 ? -1 : 31 - Math.clz32(mask & -mask);
}

/** Adds `delta` at `position` of a Fenwick tree over `n` positions. */
function fenwickAdd(tree: Int32Array, n: number, position: number, delta: number): void {
    for (let i = position + 1; i <= n; i += i & -i) {
        tree[i] += delta;
    }
}

/** How many positions <= `position` are counted in a Fenwick tree. */
function fenwickCount(tree: Int32Array, position: number): number {
    let sum = 0;
    for (let i = position + 1; i > 0; i -= i & -i) {
        sum += tree[i];
    }
    return sum;
}

/** The `k`-th (1-based) counted position of a Fenwick tree over `n` positions (`top`: highest power of two <= n). */
function fenwickNth(tree: Int32Array, n: number, top: number, k: number): number {
    let position = 0;
    for (let bit = top; bit > 0; bit >>= 1) {
        if (position + bit <= n && tree[position + bit] < k) {
            position += bit;
            k -= tree[position];
        }
    }
    return position;
}

/** The bitemporal history of one key (see `BeliefSweep`). */
export function sweepBeliefs(history: KeyHistory, emit: BeliefSink): void {
    new BeliefSweep().run(history, emit);
}

/**
 * Computes the BITEMPORAL rows of the events in `events` (a table or parenthesised query with the
 * event columns; every key's complete history, full-row upserts) into a new temporary table and
 * returns SQL of the rows (keys, data, __START_AT, __END_AT, __SYSTEM_START_AT, __SYSTEM_END_AT) and
 * the temporary tables to drop after use.
 */
export async function bitemporalRows(db: Database, layout: CdcLayout, events: Sql, tempName: (role: string) => Sql): Promise<{ sql: Sql; temps: Sql[] }> {
    const keys = join(layout.keys.map(k => q(k.name)));
    const ev = tempName('bitemporal_events');
    // Events numbered in per-key order, key after key: the sweep refers to them by that number. The
    // numbering sorts just the ordering columns (one sorted run, so the payload stays out of it).
    await db.run(sql`CREATE TEMP TABLE ${ev} AS SELECT "__e".*, "__n"."__psql_eid" FROM ${events} AS "__e" JOIN (SELECT ${q(ARR)},
        CAST(row_number() OVER (ORDER BY ${keys}, ${eventOrder(layout)}) AS INTEGER) AS "__psql_eid" FROM ${events}) AS "__n" USING (${q(ARR)})`);
    const dataValue = layout.data.length === 0 ? sql`0` : sql`struct_pack(${join(layout.data.map(c => sql`${q(c.name)} := ${q(c.name)}`))})`;
    // Per event, in that order: kind, position within its key, whether its sequence differs from the
    // previous event's, its system-time step and its data class (dense ranks number equal values).
    const numbered = sql`SELECT CAST(least(${q(KIND)}, 1) AS INTEGER), CAST(row_number() OVER "__w" AS INTEGER), (lag(${q(SEQ)}) OVER "__w") IS DISTINCT FROM ${q(SEQ)},
        CAST(dense_rank() OVER (PARTITION BY ${keys} ORDER BY ${orderKey(q(SYS), layout.sysType!)}) AS INTEGER),
        CAST(dense_rank() OVER (PARTITION BY ${keys} ORDER BY ${dataValue}) AS INTEGER)
        FROM ${ev} WINDOW "__w" AS (PARTITION BY ${keys} ORDER BY "__psql_eid") ORDER BY "__psql_eid"`;
    const history = { kind: [] as number[], data: [] as number[], seq: [] as number[], step: [] as number[] };
    const out: (number | null)[][] = [[], [], [], [], []];
    const sweep = new BeliefSweep();
    let keyStart = 0;
    // Sweeps the key whose events are history[keyStart .. end); event numbers are 1-based.
    const sweepKey = (end: number): void => {
        if (end === keyStart) {
            return;
        }
        const base = keyStart + 1;
        const atStep: number[] = []; // an event of each step, for its system time
        for (let i = keyStart; i < end; i++) {
            atStep[history.step[i]] ??= i + 1;
        }
        sweep.run(history, (last, first, next, from, to) => {
            out[0].push(base + last);
            out[1].push(base + first);
            out[2].push(next < 0 ? null : base + next);
            out[3].push(atStep[from]);
            out[4].push(to < 0 ? null : atStep[to]);
        }, keyStart, end);
        keyStart = end;
    };
    let seqClass = 0;
    await db.scanColumns(numbered, (columns, rows) => {
        const [kinds, positions, newSeq, steps, classes] = columns;
        for (let i = 0; i < rows; i++) {
            if (positions[i] === 1) {
                sweepKey(history.kind.length);
            }
            history.kind.push(kinds[i] as number);
            if (newSeq[i] === true) {
                seqClass++;
            }
            history.seq.push(seqClass);
            history.step.push(steps[i] as number);
            history.data.push(classes[i] as number);
        }
    });
    sweepKey(history.kind.length);
    const beliefs = tempName('beliefs');
    await db.run(sql`CREATE TEMP TABLE ${beliefs} ("l" INTEGER, "f" INTEGER, "x" INTEGER, "s" INTEGER, "e" INTEGER)`);
    await db.appendIntegers(beliefs.replace(/^"|"$/g, ''), out, 'temp');
    const dataItems = join(layout.data.map(c => sql`, "__l".${q(c.name)}`), empty);
    const on = (alias: string, column: string): Sql => sql`${ident(alias)}."__psql_eid" = "__b".${ident(column)}`;
    const rows = sql`SELECT ${join(layout.keys.map(k => sql`"__l".${q(k.name)}`))}${dataItems}, "__f".${q(SEQ)} AS "__START_AT", "__x".${q(SEQ)} AS "__END_AT",
        "__s".${q(SYS)} AS "__SYSTEM_START_AT", "__e".${q(SYS)} AS "__SYSTEM_END_AT" FROM ${beliefs} AS "__b"
        JOIN ${ev} AS "__l" ON ${on('__l', 'l')} JOIN ${ev} AS "__f" ON ${on('__f', 'f')} LEFT JOIN ${ev} AS "__x" ON ${on('__x', 'x')}
        JOIN ${ev} AS "__s" ON ${on('__s', 's')} LEFT JOIN ${ev} AS "__e" ON ${on('__e', 'e')}`;
    return { sql: rows, temps: [beliefs, ev] };
}
