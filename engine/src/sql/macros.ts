// DuckDB macros that give Spark semantics where no DuckDB built-in matches exactly. They are
// created as TEMP macros on every connection the engine opens (never stored in the state file).
// Errors use DuckDB's error() with a `[CLASS]` prefix that the engine maps back to Spark's class.
import { ErrorClass } from '../errors.js';
import { sql, str, type Sql } from './sql.js';

/** The `[CLASS] ` prefix of a macro's error message (the engine maps it back to the class). */
const tag = (code: string): Sql => str(`[${code}] `);

/** The `CREATE TEMP MACRO` statement of each macro. */
export const sparkMacros: readonly Sql[] = [
    // Spark (ANSI) raises DIVIDE_BY_ZERO where DuckDB returns Infinity or NULL.
    sql`__psql_div(a, b) AS CASE WHEN b = 0 THEN error(${tag(ErrorClass.divideByZero)} || 'Division by zero. Use \`try_divide\` to tolerate divisor being 0 and return NULL instead.') ELSE a / b END`,
    sql`__psql_mod(a, b) AS CASE WHEN b = 0 THEN error(${tag(ErrorClass.divideByZero)} || 'Division by zero. Use \`try_mod\` to tolerate divisor being 0 and return NULL instead.') ELSE a % b END`,
    sql`__psql_intdiv(a, b) AS CASE WHEN b = 0 THEN error(${tag(ErrorClass.divideByZero)} || 'Division by zero.') ELSE CAST(trunc(a / b) AS BIGINT) END`,
    sql`__psql_pmod(a, b) AS CASE WHEN b = 0 THEN error(${tag(ErrorClass.divideByZero)} || 'Division by zero.') ELSE ((a % b) + b) % b END`,
    // Spark substring: position 0 behaves like 1, negative positions count from the end.
    sql`__psql_substr(s, p, l) AS CASE WHEN l < 1 THEN '' WHEN p > 0 THEN substring(s, p, l) WHEN p = 0 THEN substring(s, 1, l) ELSE substring(s, greatest(length(s) + p + 1, 1), least(l, l + length(s) + p)) END`,
    sql`__psql_substr2(s, p) AS CASE WHEN p > 0 THEN substring(s, p) WHEN p = 0 THEN s ELSE substring(s, greatest(length(s) + p + 1, 1)) END`,
    // Spark arrays are 0-based under \`[]\`; ANSI mode raises on an index out of range.
    sql`__psql_at0(a, i) AS CASE WHEN i < 0 OR i >= len(a) THEN error(${tag(ErrorClass.invalidArrayIndex)} || 'The index ' || i || ' is out of bounds. The array has ' || len(a) || ' elements.') ELSE a[i + 1] END`,
    // element_at: 1-based, negative from the end, 0 is an error, out of range is an error (ANSI).
    sql`__psql_element_at(a, i) AS CASE WHEN i = 0 THEN error(${tag(ErrorClass.invalidIndexOfZero)} || 'The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).') WHEN abs(i) > len(a) THEN error(${tag(ErrorClass.invalidArrayIndexInElementAt)} || 'The index ' || i || ' is out of bounds. The array has ' || len(a) || ' elements.') WHEN i > 0 THEN a[i] ELSE a[len(a) + i + 1] END`,
    // get(array, i): 0-based, NULL when out of range.
    sql`__psql_get(a, i) AS CASE WHEN i < 0 OR i >= len(a) THEN NULL ELSE a[i + 1] END`,
    // array_distinct keeps the first occurrence of each value (NULL included) in order.
    sql`__psql_array_distinct(a) AS list_filter(a, lambda __x, __i: list_position(a, __x) = __i)`,
    // locate(substr, str, pos): 1-based, 0 when absent or pos < 1.
    sql`__psql_locate(sub, s, p) AS CASE WHEN p < 1 THEN 0 WHEN instr(substring(s, p), sub) = 0 THEN 0 ELSE instr(substring(s, p), sub) + p - 1 END`,
    // Spark's strict string → integral cast (ANSI): only an optionally signed integer is accepted.
    sql`__psql_str_to_bigint(s) AS CASE WHEN s IS NULL THEN NULL WHEN regexp_matches(trim(s), '^[+-]?[0-9]+$') THEN CAST(trim(s) AS BIGINT) ELSE error(${tag(ErrorClass.castInvalidInput)} || 'The value ''' || s || ''' of the type "STRING" cannot be cast to an integral type because it is malformed.') END`,
    // initcap: first letter of each space-separated word upper case, the rest lower case.
    sql`__psql_initcap(s) AS array_to_string(list_transform(string_split(lower(s), ' '), lambda __w: upper(left(__w, 1)) || substring(__w, 2)), ' ')`,
    // slice(array, start, length): 1-based start, negative from the end.
    sql`__psql_slice(a, s, l) AS CASE WHEN s = 0 THEN error(${tag(ErrorClass.invalidStartParameter)} || 'Expects a positive or a negative value for \`start\`, but got 0.') WHEN l < 0 THEN error(${tag(ErrorClass.invalidLengthParameter)} || 'Expects \`length\` greater than or equal to 0.') WHEN s > 0 THEN list_slice(a, s, s + l - 1) ELSE list_slice(a, len(a) + s + 1, len(a) + s + l) END`,
    // JSON extraction that yields NULL (as Spark does) instead of failing on malformed JSON.
    sql`__psql_json_get(j, p) AS CASE WHEN json_valid(j) THEN json_extract_string(j, p) END`,
].map(macro => sql`CREATE OR REPLACE TEMP MACRO ${macro}`);
