// Lowering of validated pipeline SQL (the Langium AST) to the engine IR (engine/src/ir.ts): the only
// code that knows both. The CLI's `run` and the language server's run requests go through it.
export { lowerPipeline, lowerStatement, type LoweringResult, type PipelineSources } from './pipeline-lowering.js';
export { LoweringError, type LoweringProblem } from './lowering-error.js';
export type { PipelineSettings } from './pipeline-configuration.js';
export { resolveTableName, resolveTableSource, tableNameParts, type PipelineNames, type DatasetName } from './table-resolution.js';
