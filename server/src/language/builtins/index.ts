/**
 * Built-in knowledge of Spark SQL and Databricks pipelines for the language services. The Spark
 * core (data types and their rules, the function catalog with return-type inference and each
 * function's local translation, read_files options) is the engine's `engine/src/spark/`, shared
 * with the run; what only the editor needs (table properties, hover documentation of the pipeline
 * clauses, table read options) is here. Nothing here depends on the Langium AST.
 */
export * from '../../../../engine/src/spark/spark-types.js';
export * from '../../../../engine/src/spark/functions/function-model.js';
export * from '../../../../engine/src/spark/functions/catalog.js';
export { describeSpecialRule, toCallArguments } from '../../../../engine/src/spark/functions/return-types.js';
export * from '../../../../engine/src/spark/functions/read-files-options.js';
export * from './table-properties.js';
export * from './keyword-docs.js';
export * from './table-read-options.js';
