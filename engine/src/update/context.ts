// Shared state of one pipeline update: the state store, the plan, the resolved options, and the
// metrics and change summaries collected while flows run.
import type { Database } from '../db/database.js';
import type { Row } from '../db/values.js';
import { CancelledError } from '../errors.js';
import type { StateStore } from '../state/state-store.js';
import type { PipelinePlan } from './plan.js';
import { VersionLog } from './versions.js';
import { ident, sql, type Sql } from '../sql/sql.js';

/** Metrics of one dataset for the last update (the CLI JSON contract's `metrics.<name>`). */
export interface DatasetMetrics {
    /** AUTO CDC targets: output rows inserted or changed by the update. */
    num_upserted_rows?: number;
    /** AUTO CDC targets: existing output rows removed by the update. */
    num_deleted_rows?: number;
    /** Other flows: rows written by the update. */
    num_output_rows?: number;
    /** Per expectation: rows that passed and failed (and were dropped, for DROP ROW). */
    expectations?: Record<string, { passed_records: number; failed_records: number; dropped_records?: number }>;
}

/** What an update changed in a dataset, for previews (rows capped by the result limit). */
export interface DatasetChanges {
    inserted: number;
    updated: number;
    deleted: number;
    /** Sample rows of each kind (updated rows with their new values). */
    rows: { inserted: Row[]; updated: Row[]; deleted: Row[] };
    /**
     * The change data feed of the update (docs/semantics.md §15.2): rows with `_change_type` = `insert`, `delete`,
     * `update_preimage` or `update_postimage`, ordered by primary key (capped by the limit).
     */
    feed: Row[];
}

/** Changes as a flow computes them: the summary, and a temporary table with every feed row of the change. */
export interface RecordedChanges extends DatasetChanges {
    /** The change's feed rows: the dataset's columns and `_change_type` (dropped once recorded). */
    pending?: Sql;
}

/** A progress notification. */
export interface ProgressEvent {
    phase: 'start' | 'flow' | 'commit' | 'results' | 'done';
    /** 1-based index of the flow being run, and the number of flows to run. */
    index?: number;
    total?: number;
    flow?: string;
    dataset?: string;
    message: string;
}

/** Options after defaults were applied. */
export interface ResolvedOptions {
    stateDir: string;
    samplesDir: string;
    rootDir: string;
    /** Folders sample reads may touch (absolute, real); default: the pipeline root. */
    readRoots?: readonly string[];
    now: { date: string; timestamp: string };
    limit: number;
    signal?: AbortSignal;
    onProgress?: (event: ProgressEvent) => void;
}

/** Everything a flow needs while it runs. */
export class UpdateContext {
    readonly metrics = new Map<string, DatasetMetrics>();
    readonly changes = new Map<string, DatasetChanges>();
    private temp = 0;

    /** The versions this update writes (docs/semantics.md §15.3). */
    readonly versions: VersionLog;

    constructor(readonly store: StateStore, readonly plan: PipelinePlan, readonly options: ResolvedOptions) {
        this.versions = new VersionLog(store, options.now.timestamp, 'PIPELINE UPDATE');
    }

    /** The state database. */
    get db(): Database {
        return this.store.db;
    }

    /** A fresh name for a temporary table. */
    tempName(role: string): Sql {
        return ident(`__psql_${role}_${++this.temp}`);
    }

    /** Throws CancelledError when the caller aborted the update. */
    checkCancelled(): void {
        if (this.options.signal?.aborted) {
            throw new CancelledError();
        }
    }

    /** The metrics record of a dataset (created on first use). */
    metricsOf(dataset: string): DatasetMetrics {
        let metrics = this.metrics.get(dataset);
        if (!metrics) {
            metrics = {};
            this.metrics.set(dataset, metrics);
        }
        return metrics;
    }

    /**
     * Adds a change summary to a dataset's changes of this update; its `pending` table (the whole
     * feed of the change) becomes part of the dataset's new version, and is dropped.
     */
    async addChanges(dataset: string, summary: RecordedChanges): Promise<void> {
        const { pending, ...change } = summary;
        if (pending) {
            await this.versions.record(dataset, pending);
            await this.dropTemp(pending);
        }
        const current = this.changes.get(dataset);
        if (!current) {
            this.changes.set(dataset, change);
            return;
        }
        const cap = (rows: Row[]): Row[] => rows.slice(0, this.options.limit);
        current.inserted += change.inserted;
        current.updated += change.updated;
        current.deleted += change.deleted;
        current.rows.inserted = cap([...current.rows.inserted, ...change.rows.inserted]);
        current.rows.updated = cap([...current.rows.updated, ...change.rows.updated]);
        current.rows.deleted = cap([...current.rows.deleted, ...change.rows.deleted]);
        current.feed = cap([...current.feed, ...change.feed]);
    }

    /** Drops a temporary table. */
    async dropTemp(name: Sql): Promise<void> {
        await this.db.run(sql`DROP TABLE IF EXISTS ${name}`);
    }
}
