// The hand-written baseline as a whole process (cli-bench-main.ts): Node starts, loads DuckDB, runs
// the SQL given as argv[3] on the database file argv[2] (DuckDB's defaults, except that row order
// need not be kept, as in the engine) and closes it, which checkpoints the table into the file.
// Plain JavaScript, so that nothing but Node and DuckDB is loaded.
import { DuckDBInstance } from '@duckdb/node-api';

const [file, sql] = process.argv.slice(2);
const instance = await DuckDBInstance.create(file);
const connection = await instance.connect();
await connection.run('SET preserve_insertion_order = false');
await connection.run(sql);
connection.closeSync();
instance.closeSync();
