// Reading two pipeline state files side by side from outside the engine (a plain DuckDB attaching
// them read-only, which replays each one's write-ahead log as any later open would), for tests that
// compare an interrupted state with a twin that never was.
import { withDuckDB } from '../../helpers/duckdb.js';

/** Per table: rows in one state and not the other (both directions, as multisets), and the rows of the first. */
export type StateDiff = Record<string, { onlyA: number; onlyB: number; rows: number }>;

/** The key of `diffStates`' answer for the files the streaming flows recorded as read. */
export const FILES_READ = 'files read';

/**
 * Compares dataset tables (schema `ds`, the hidden row id left out) of two state files; with
 * `filesRead`, also the files each flow recorded as read (flow, source, path, size: the two states
 * must have read the same paths), under FILES_READ.
 */
export async function diffStates(a: string, b: string, tables: string[], options: { filesRead?: boolean } = {}): Promise<StateDiff> {
    const out: StateDiff = {};
    await withDuckDB(async db => {
        await db.run(`ATTACH '${a}' AS a (READ_ONLY)`);
        await db.run(`ATTACH '${b}' AS b (READ_ONLY)`);
        const count = async (sql: string) => Number(await db.scalar(`SELECT count(*) FROM (${sql})`));
        const diff = async (table: string, columns: string) => ({
            onlyA: await count(`SELECT ${columns} FROM a.${table} EXCEPT ALL SELECT ${columns} FROM b.${table}`),
            onlyB: await count(`SELECT ${columns} FROM b.${table} EXCEPT ALL SELECT ${columns} FROM a.${table}`),
            rows: await count(`SELECT * FROM a.${table}`),
        });
        for (const table of tables) {
            const columns = (await db.columns(`SELECT * FROM a.ds."${table}" LIMIT 0`)).map(c => `"${c}"`).filter(c => c !== '"__psql_rowid"').join(', ');
            out[table] = await diff(`ds."${table}"`, columns);
        }
        if (options.filesRead) {
            out[FILES_READ] = await diff('meta.files_read', 'flow, source, path, size');
        }
    });
    return out;
}
