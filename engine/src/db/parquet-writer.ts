// Writes rows to a Parquet file with DuckDB's `COPY ... TO ... (FORMAT parquet)`, for sample data
// (the scaffold of a Parquet source, issue 16). The rows are SQL literals built with the `sql`
// template, each cast to its column's type, so user text never becomes SQL. DuckDB runs sandboxed
// (`Database.open`): it may touch only the target's folder. The file is written under a temporary
// name and then hard-linked to its name, so an existing file is never replaced (EEXIST instead).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataType } from '../ir.js';
import { ownValue } from '../records.js';
import { toDuckType, timestampFromText, type Column } from '../sql/duckdb-types.js';
import { ident, join, sql, str, type Sql } from '../sql/sql.js';
import { readerType } from '../catalog/sample-catalog.js';
import { Database } from './database.js';
import type { JsonValue } from './values.js';

/** A value as a DuckDB expression of the storage type of `type` (dates and timestamps given as Spark text). */
function literal(value: JsonValue, type: DataType): Sql {
    const duck = toDuckType(type);
    if (value === null) {
        return sql`CAST(NULL AS ${duck})`;
    }
    switch (type.kind) {
        case 'boolean':
            return typeof value === 'boolean' ? sql`${value}` : sql`CAST(${str(String(value))} AS BOOLEAN)`;
        case 'tinyint': case 'smallint': case 'int': case 'bigint': case 'float': case 'double': case 'decimal':
            // Decimal text keeps every digit; a number's text is its shortest exact form.
            return sql`CAST(${str(String(value))} AS ${duck})`;
        case 'timestamp': case 'timestamp_ntz':
            return timestampFromText(str(String(value)), type);
        case 'array': {
            const items = Array.isArray(value) ? value : [value];
            return sql`CAST([${join(items.map(item => literal(item, type.element)))}] AS ${duck})`;
        }
        case 'map': {
            const entries = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
            return sql`CAST(MAP {${join(entries.map(([k, v]) => sql`${literal(k, type.key)}: ${literal(v, type.value)}`))}} AS ${duck})`;
        }
        case 'struct': {
            const record = typeof value === 'object' && !Array.isArray(value) ? value : {};
            return sql`struct_pack(${join(type.fields.map(f => sql`${ident(f.name)} := ${literal(ownValue(record, f.name) ?? null, f.type)}`))})`;
        }
        default:
            return sql`CAST(${str(typeof value === 'object' ? JSON.stringify(value) : String(value))} AS ${duck})`;
    }
}

/**
 * Writes `rows` (values in the order of `columns`) to a new Parquet file at `file`, whose folder must
 * exist. Throws an `EEXIST` error when the file exists (it is never replaced), an `EngineError` when
 * DuckDB refuses a value or the path.
 */
export async function writeParquetFile(file: string, columns: readonly Column[], rows: readonly (readonly JsonValue[])[]): Promise<void> {
    const names = columns.map((_, i) => ident(`c${i}`));
    const values = rows.map(row => sql`(${join(columns.map((c, i) => literal(row[i] ?? null, c.type)))})`);
    await copyExclusive(file, [], sql`SELECT ${join(columns.map((c, i) => sql`CAST(${names[i]} AS ${readerType(c.type)}) AS ${ident(c.name)}`))}
        FROM (VALUES ${join(values)}) AS "__rows"(${join(names)})`);
}

/**
 * Writes the first `limit` rows of the Parquet file `source` to a new Parquet file `target` (its
 * folder must exist), with the same columns; answers how many rows were written. DuckDB may read only
 * the source's folder and write only the target's. Throws as `writeParquetFile` does.
 */
export async function copyParquetRows(source: string, target: string, limit: number): Promise<number> {
    const from = str(path.resolve(source));
    // In file order (the engine's DuckDB does not preserve insertion order by itself).
    return copyExclusive(target, [path.dirname(path.resolve(source))], sql`SELECT * EXCLUDE (file_row_number)
        FROM read_parquet(${from}, file_row_number = true) ORDER BY file_row_number LIMIT ${Math.max(0, Math.floor(limit))}`);
}

/** `COPY (select) TO file (FORMAT parquet)` under a temporary name, then linked to `file` (never replacing it); the rows written. */
async function copyExclusive(file: string, readFolders: readonly string[], select: Sql): Promise<number> {
    const folder = path.dirname(path.resolve(file));
    const temporary = path.join(folder, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
    let rows = 0;
    // In the order the select gives (the rows' order, the source file's order): a change feed's order matters.
    const db = await Database.open(':memory:', undefined, { allowedDirectories: [folder, ...readFolders], preserveInsertionOrder: true });
    try {
        await db.run(sql`COPY (${select}) TO ${str(temporary)} (FORMAT parquet)`);
        rows = Number(await db.scalar(sql`SELECT count(*) FROM read_parquet(${str(temporary)})`) ?? 0);
    } finally {
        db.close();
    }
    try {
        // A hard link fails if the name is taken: the exclusive create a plain write ('wx') gives text files.
        await fs.promises.link(temporary, file);
    } finally {
        await fs.promises.rm(temporary, { force: true });
    }
    return rows;
}
