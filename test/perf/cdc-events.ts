/**
 * The change events of the engine benchmarks: key, payload, a sequence of which 10% move back in time
 * (out of order), a system time equal to the arrival order, and 5% deletes (`op = 'D'`). One SQL
 * definition, so that every benchmark reads the same data.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withDuckDB } from '../helpers/duckdb.js';

/** The schema of the events, as a Spark DDL column list. */
export const eventsSchema = 'id BIGINT, name STRING, city STRING, amount DOUBLE, seq BIGINT, sys BIGINT, op STRING';

/** DuckDB SQL producing `count` events starting at arrival number `from`, over `keys` keys. */
export function cdcEventsSql(from: number, count: number, keys: number): string {
    return `SELECT CAST(hash(i, 1) % ${keys} AS BIGINT) AS id, 'name_' || CAST(hash(i, 2) % 1000 AS VARCHAR) AS name, `
        + '\'city_\' || CAST(hash(i, 3) % 100 AS VARCHAR) AS city, CAST(hash(i, 4) % 100000 AS DOUBLE) / 100 AS amount, '
        + 'CAST(CASE WHEN hash(i, 5) % 10 = 0 THEN i - 1 - hash(i, 6) % 50000 ELSE i END AS BIGINT) AS seq, CAST(i AS BIGINT) AS sys, '
        + `CASE WHEN hash(i, 7) % 20 = 0 THEN 'D' ELSE 'U' END AS op FROM range(${from}, ${from + count}) t(i) ORDER BY i`;
}

export type Format = 'parquet' | 'csv';
export type StoredAs = 'scd1' | 'scd2' | 'bitemporal';

/**
 * Writes the benchmark's data to `dir/<format>/`: `part-00000` with `events` events over `keys` keys and
 * `part-00001` with 1% more (the next arrivals), in Parquet and CSV.
 */
export async function generateEvents(dir: string, events: number, keys: number): Promise<void> {
    await withDuckDB(async db => {
        for (const format of ['parquet', 'csv'] as const) {
            const options = format === 'parquet' ? '(FORMAT parquet)' : '(FORMAT csv, HEADER true)';
            fs.mkdirSync(path.join(dir, format), { recursive: true });
            await db.run(`COPY (${cdcEventsSql(0, events, keys)}) TO ${quoteString(path.join(dir, format, `part-00000.${format}`))} ${options}`);
            await db.run(`COPY (${cdcEventsSql(events, Math.round(events / 100), keys)}) TO ${quoteString(path.join(dir, format, `part-00001.${format}`))} ${options}`);
        }
    });
}

/** A string literal for the benchmark's own SQL (file paths). */
function quoteString(text: string): string {
    return `'${text.split("'").join("''")}'`;
}

/** The pipeline as a user writes it: an AUTO CDC flow from the sample table `events`. */
export function pipelineSql(storedAs: StoredAs): string {
    const stored = { scd1: 'SCD TYPE 1', scd2: 'SCD TYPE 2', bitemporal: 'BITEMPORAL' }[storedAs];
    return `CREATE OR REFRESH STREAMING TABLE target;

CREATE FLOW target_cdc AS AUTO CDC INTO target
FROM STREAM(events)
KEYS (id)
APPLY AS DELETE WHEN op = 'D'
SEQUENCE BY seq
${storedAs === 'bitemporal' ? 'SYSTEM SEQUENCE BY sys\n' : ''}COLUMNS * EXCEPT (${storedAs === 'scd1' ? 'op, sys' : 'op, seq, sys'})
STORED AS ${stored};
`;
}

/**
 * A pipeline folder in the temporary directory: spark-pipeline.yml, transformations/cdc.sql,
 * samples/catalog.sql and samples/events/part-00000 (the full run's events; the caller adds part-00001).
 */
export function pipelineFolder(dataDir: string, format: Format, storedAs: StoredAs): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${storedAs}-`));
    fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: bench\nlibraries:\n  - glob:\n      include: transformations/**\n');
    fs.mkdirSync(path.join(root, 'transformations'));
    fs.writeFileSync(path.join(root, 'transformations', 'cdc.sql'), pipelineSql(storedAs));
    fs.mkdirSync(path.join(root, 'samples', 'events'), { recursive: true });
    fs.writeFileSync(path.join(root, 'samples', 'catalog.sql'), `CREATE TABLE events (${eventsSchema}) USING ${format.toUpperCase()} LOCATION 'events';\n`);
    fs.copyFileSync(path.join(dataDir, format, `part-00000.${format}`), path.join(root, 'samples', 'events', `part-00000.${format}`));
    return root;
}

/**
 * The hand-written DuckDB SQL a user would write instead of the pipeline, persisting the same target
 * as the engine (the benchmarks check that both hold the same rows, `targetDigest`): SCD1 keeps each
 * key's last event by sequence unless it is a delete; SCD2 keeps every upsert as a version that ends
 * where the key's next event (upsert or delete) starts. At equal sequence the engine's tie rules
 * (docs/semantics.md §18, A5): for SCD1 the upsert wins over the delete, for SCD2 the delete comes last; then arrival
 * (`sys`, the row's position in the file): a later event at the same sequence replaces the version of the
 * earlier one, which therefore never shows (no version of zero length).
 */
export function baselineSql(storedAs: 'scd1' | 'scd2', source: string): string {
    return storedAs === 'scd1'
        ? `CREATE TABLE target AS SELECT id, w.name, w.city, w.amount, w.seq FROM (SELECT id, arg_max(struct_pack(name, city, amount, seq, op), (seq, op <> 'D', sys)) AS w FROM ${source} GROUP BY id) WHERE w.op <> 'D'`
        : `CREATE TABLE target AS SELECT id, name, city, amount, seq AS __START_AT, lead(seq) OVER w AS __END_AT FROM ${source} `
            + 'WINDOW w AS (PARTITION BY id ORDER BY seq, op = \'D\', sys) QUALIFY op <> \'D\' AND lead(seq) OVER w IS DISTINCT FROM seq';
}

/** The columns of the target, for the digest. */
export function targetColumns(storedAs: StoredAs): string[] {
    return storedAs === 'scd1' ? ['id', 'name', 'city', 'amount', 'seq']
        : storedAs === 'scd2' ? ['id', 'name', 'city', 'amount', '__START_AT', '__END_AT']
            : ['id', 'name', 'city', 'amount', '__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT'];
}

/** An order-independent digest of a table's rows (count and XOR of row hashes) over `columns`. */
export async function targetDigest(file: string, table: string, columns: string[]): Promise<string> {
    return withDuckDB(async db => {
        const row = (await db.query(`SELECT count(*), bit_xor(hash(${columns.map(c => `"${c}"`).join(', ')})) FROM ${table}`))[0];
        return `${String(row[0])}:${String(row[1])}`;
    }, file);
}
