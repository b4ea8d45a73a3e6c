/**
 * Every diagnostic code the language server reports. Spark / Databricks error class names where
 * the spec gives one, `PIPELINE_SQL_*` project names otherwise.
 */
export const IssueCodes = {
    /** The text does not match the grammar (Spark's parser error class). */
    ParseSyntaxError: 'PARSE_SYNTAX_ERROR',
} as const;

export type IssueCode = typeof IssueCodes[keyof typeof IssueCodes];
