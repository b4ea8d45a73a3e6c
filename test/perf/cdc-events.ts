/**
 * The change events of the engine benchmarks: key, payload, a sequence of which 10% move back in time
 * (out of order), a system time equal to the arrival order, and 5% deletes (`op = 'D'`). One SQL
 * definition, so that every benchmark reads the same data.
 */

/** The schema of the events, as a Spark DDL column list. */
export const eventsSchema = 'id BIGINT, name STRING, city STRING, amount DOUBLE, seq BIGINT, sys BIGINT, op STRING';

/** DuckDB SQL producing `count` events starting at arrival number `from`, over `keys` keys. */
export function cdcEventsSql(from: number, count: number, keys: number): string {
    return `SELECT CAST(hash(i, 1) % ${keys} AS BIGINT) AS id, 'name_' || CAST(hash(i, 2) % 1000 AS VARCHAR) AS name, `
        + '\'city_\' || CAST(hash(i, 3) % 100 AS VARCHAR) AS city, CAST(hash(i, 4) % 100000 AS DOUBLE) / 100 AS amount, '
        + 'CAST(CASE WHEN hash(i, 5) % 10 = 0 THEN i - 1 - hash(i, 6) % 50000 ELSE i END AS BIGINT) AS seq, CAST(i AS BIGINT) AS sys, '
        + `CASE WHEN hash(i, 7) % 20 = 0 THEN 'D' ELSE 'U' END AS op FROM range(${from}, ${from + count}) t(i) ORDER BY i`;
}
