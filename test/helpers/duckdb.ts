// A plain DuckDB connection for test fixtures (writing Parquet files, inspecting or tampering with a
// state file). The engine's own Database only runs SQL it built and is locked to a pipeline's
// folders; fixtures are written from outside, as a user's tools would.
import { DuckDBInstance } from '@duckdb/node-api';

/** A scratch in-memory DuckDB: `run` and `query` take SQL text the test wrote itself. */
export interface ScratchDuckDB {
    run(sql: string): Promise<void>;
    query(sql: string): Promise<unknown[][]>;
    scalar(sql: string): Promise<unknown>;
    columns(sql: string): Promise<string[]>;
}

/** Opens a scratch DuckDB (or a database file), runs `work` on it, closes it. */
export async function withDuckDB<T>(work: (db: ScratchDuckDB) => Promise<T>, file = ':memory:'): Promise<T> {
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    const db: ScratchDuckDB = {
        run: async sql => {
            await connection.run(sql);
        },
        query: async sql => (await connection.runAndReadAll(sql)).getRows(),
        scalar: async sql => (await connection.runAndReadAll(sql)).getRows()[0]?.[0],
        columns: async sql => (await connection.runAndReadAll(sql)).columnNames(),
    };
    try {
        return await work(db);
    } finally {
        connection.closeSync();
        instance.closeSync();
    }
}
