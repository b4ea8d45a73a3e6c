// Quoting for generated DuckDB SQL. Every identifier the engine emits is double-quoted and
// every string is a single-quoted literal, so no user text is ever spliced in unquoted.

/** A DuckDB identifier: `"name"` with embedded quotes doubled. */
export function quoteIdent(name: string): string {
    return `"${name.replace(/"/g, '""')}"`;
}

/** A qualified DuckDB name: `"schema"."table"`. */
export function quoteQualified(...parts: string[]): string {
    return parts.map(quoteIdent).join('.');
}

/** A DuckDB string literal: `'text'` with embedded quotes doubled (DuckDB does not process backslashes). */
export function quoteString(value: string): string {
    return `'${value.replace(/'/g, '\'\'')}'`;
}
