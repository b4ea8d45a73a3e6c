/**
 * A small users pipeline with an SCD1 and an SCD2 AUTO CDC target fed from one change table, for tests
 * of what a scratch file beside it sees (DML columns and completion). `usersCatalog` declares its
 * source, with any extra columns a test needs.
 */
const sourceColumns = 'user_id INT, name STRING, city STRING, operation STRING, seq BIGINT';

/** The source's declaration, with extra columns after `city` (e.g. a struct column). */
export function usersCatalog(extraColumns?: string): string {
    const columns = extraColumns ? sourceColumns.replace('city STRING', `city STRING, ${extraColumns}`) : sourceColumns;
    return `CREATE TABLE cdc_data.users (${columns});`;
}

/** users_changes → users_current (SCD1, deletes on operation = 'DELETE') and users_history (SCD2). */
export const usersCdcPipeline: Readonly<Record<string, string>> = {
    'transformations/users.sql': [
        'CREATE OR REFRESH STREAMING TABLE users_changes AS SELECT * FROM STREAM(cdc_data.users);',
        'CREATE OR REFRESH STREAMING TABLE users_current;',
        'CREATE FLOW users_scd1 AS AUTO CDC INTO users_current FROM STREAM(users_changes) KEYS (user_id)',
        "  APPLY AS DELETE WHEN operation = 'DELETE' SEQUENCE BY seq COLUMNS * EXCEPT (operation, seq);",
        'CREATE OR REFRESH STREAMING TABLE users_history;',
        'CREATE FLOW users_scd2 AS AUTO CDC INTO users_history FROM STREAM(users_changes) KEYS (user_id)',
        '  SEQUENCE BY seq COLUMNS * EXCEPT (operation, seq) STORED AS SCD TYPE 2;',
    ].join('\n'),
};
