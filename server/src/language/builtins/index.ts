/**
 * Built-in knowledge of Spark SQL and Databricks pipelines, as data: data types and their widening
 * rules, the function catalog with return-type inference, read_files options, table properties and
 * hover documentation of the pipeline clauses. Nothing here depends on the Langium AST.
 */
export * from './spark-types.js';
export * from './function-model.js';
export * from './functions.js';
export { describeSpecialRule, toCallArguments } from './return-types.js';
export * from './read-files-options.js';
export * from './table-properties.js';
export * from './keyword-docs.js';
export * from './table-read-options.js';
