import * as AST from './generated/ast.js';

/** The Pipeline SQL AST types and guards (generated from the grammar), for tests and lowering. */
export { AST };
export { createPipelineSqlServices, PipelineSqlModule } from './pipeline-sql-module.js';
export type { PipelineSqlServices, PipelineSqlAddedServices, PipelineSqlModuleContext } from './pipeline-sql-module.js';
export type { PipelineSqlSharedServices, PipelineSqlAddedSharedServices } from './pipeline-sql-module.js';

/** The pipeline model (datasets, flows, DAG) and its service, for the lowering and the editor features. */
export { PipelineModel, PipelineModelService, datasetKind, scdKindOf } from './pipeline/pipeline-model.js';
export type { DatasetInfo, DatasetKind, FlowInfo, FlowKind, InputInfo, QueryMode } from './pipeline/pipeline-model.js';
export type { PipelineInfo, PipelineMembership, DocumentRole } from './pipeline/pipeline-registry.js';
export type { TargetProfile } from './pipeline/pipeline-sql-settings.js';

/** Schema inference. */
export type { TypeComputer, ColumnResolution, ColumnScope, ScopeEntry, ScdKind, ExternalSource } from './types/pipeline-sql-type-computer.js';
export type { Column, RelationType } from './types/relation-type.js';
export { printRelation, findColumn } from './types/relation-type.js';

/** The diagnostics table. */
export { Issues, IssueCodes } from './validation/issue-codes.js';
