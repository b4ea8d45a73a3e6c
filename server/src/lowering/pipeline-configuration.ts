/**
 * What the project file (`spark-pipeline.yml`, read by `common/pipeline-files.ts`) says that changes
 * how the pipeline's SQL runs.
 */
export interface PipelineSettings {
    /** `configuration:` — pipeline parameters (`${key}` in SQL) and Spark settings, values as strings. */
    configuration: Record<string, string>;
    /** `catalog:` — the default catalog of the pipeline's datasets. */
    catalog?: string;
    /** `schema:` (Databricks), `database:` (Spark) or the legacy `target:` — the default schema. */
    schema?: string;
}
