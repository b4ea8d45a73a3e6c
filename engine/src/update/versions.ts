// Versions of datasets and their change data feed (docs/semantics.md §15.3). A dataset's creation is version 0
// (empty); every committed update that changes it, and every DML statement run on the local state,
// is the next version, with its commit time (the fixed clock when one is given). The rows of each
// version's feed are the before/after diff the flows already compute for the preview (docs/semantics.md §15.2:
// `insert`, `delete`, `update_preimage`, `update_postimage`), kept in `cdf.<dataset>` with
// `_commit_version` and `_commit_timestamp`.
import { ident, join, sql, str, type Sql } from '../sql/sql.js';
import { toDuckType } from '../sql/duckdb-types.js';
import type { DatasetVersion, StateStore } from '../state/state-store.js';
import { ownValue } from '../records.js';

/** The columns a change data feed adds to a dataset's columns, in order. */
export const FEED_COLUMNS = ['_change_type', '_commit_version', '_commit_timestamp'] as const;

/**
 * True when a dataset with these columns can keep a feed: a column named like a feed column
 * (`SELECT * FROM table_changes(...)`) makes its own feed ambiguous, as Delta refuses to enable the
 * change data feed on such a table; its versions then record no rows.
 */
export function keepsFeed(columns: readonly { name: string }[]): boolean {
    return !columns.some(c => (FEED_COLUMNS as readonly string[]).includes(c.name.toLowerCase()));
}

/** What each `_change_type` counts as in a version's metrics. */
const metricOf: Record<string, keyof Counts> = {
    insert: 'numInsertedRows', delete: 'numDeletedRows', update_postimage: 'numUpdatedRows',
};

interface Counts {
    numInsertedRows: number;
    numUpdatedRows: number;
    numDeletedRows: number;
}

/**
 * The versions one operation (an update, a DML statement) writes: each dataset it changes gets one
 * new version, created at the first change recorded for it and written to `meta.versions` by `flush`
 * (inside the operation's transaction).
 */
export class VersionLog {
    private readonly open = new Map<string, DatasetVersion>();

    constructor(private readonly store: StateStore, private readonly timestamp: string, public operation: string) {}

    /**
     * Adds the rows of `pending` (a relation with the dataset's columns and `_change_type`) to this
     * operation's version of the dataset; nothing when it has no rows.
     */
    async record(key: string, pending: Sql): Promise<void> {
        const db = this.store.db;
        const counts = await db.query(sql`SELECT "_change_type", count(*) FROM ${pending} GROUP BY ALL`);
        if (counts.rows.length === 0) {
            return;
        }
        const version = await this.versionOf(key);
        for (const [change, count] of counts.rows) {
            const metric = ownValue(metricOf, String(change));
            if (metric) {
                version.metrics[metric] = (version.metrics[metric] ?? 0) + Number(count);
            }
        }
        const feed = this.store.feedTable(key);
        const columns = (await db.describe(sql`SELECT * FROM ${pending}`)).filter(c => c.name !== '_change_type');
        if (!(await this.store.tableExists('cdf', key))) {
            const definition = [...columns.map(c => sql`${ident(c.name)} ${toDuckType(c.type)}`), sql`"_change_type" VARCHAR NOT NULL`, sql`"_commit_version" BIGINT NOT NULL`, sql`"_commit_timestamp" TIMESTAMP NOT NULL`];
            await db.run(sql`CREATE TABLE ${feed} (${join(definition)})`);
        } else {
            const existing = new Set((await db.describe(sql`SELECT * FROM ${feed}`)).map(c => c.name.toLowerCase()));
            for (const column of columns.filter(c => !existing.has(c.name.toLowerCase()))) {
                // A column the dataset gained: NULL in the versions before.
                await db.run(sql`ALTER TABLE ${feed} ADD COLUMN ${ident(column.name)} ${toDuckType(column.type)}`);
            }
        }
        await db.run(sql`INSERT INTO ${feed} BY NAME SELECT *, CAST(${version.version} AS BIGINT) AS "_commit_version", CAST(${str(version.timestamp)} AS TIMESTAMP) AS "_commit_timestamp" FROM ${pending}`);
    }

    /** Records version 0 of a dataset that has no history yet (it was just created). */
    async created(key: string): Promise<void> {
        if (!this.open.has(key) && (await this.store.versions(key)).length === 0) {
            await this.store.addVersion(key, { version: 0, timestamp: this.timestamp, operation: 'CREATE', metrics: {} });
        }
    }

    /** Writes the versions opened so far (before the transaction commits). */
    async flush(): Promise<void> {
        for (const [key, version] of this.open) {
            await this.store.addVersion(key, version);
        }
        this.open.clear();
    }

    private async versionOf(key: string): Promise<DatasetVersion> {
        let version = this.open.get(key);
        if (!version) {
            await this.created(key);
            const versions = await this.store.versions(key);
            version = { version: versions[versions.length - 1].version + 1, timestamp: this.timestamp, operation: this.operation, metrics: { numInsertedRows: 0, numUpdatedRows: 0, numDeletedRows: 0 } };
            this.open.set(key, version);
        }
        return version;
    }
}
