import * as AST from './generated/ast.js';

/** The Pipeline SQL AST types and guards (generated from the grammar), for tests and lowering. */
export { AST };
export { createPipelineSqlServices, PipelineSqlModule } from './pipeline-sql-module.js';
export type { PipelineSqlServices, PipelineSqlAddedServices, PipelineSqlModuleContext } from './pipeline-sql-module.js';
