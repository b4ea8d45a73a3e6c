import type { ValidationCheck, ValidationChecks } from 'langium';
import type * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { AutoCdcChecks } from './auto-cdc-checks.js';
import { DatasetChecks } from './dataset-checks.js';
import { FlowChecks } from './flow-checks.js';
import { NameChecks } from './name-checks.js';
import { ParameterChecks } from './parameter-checks.js';
import { SampleChecks } from './sample-checks.js';
import { SyntaxChecks } from './syntax-checks.js';
import { TableReadChecks } from './table-read-checks.js';
import { ValidationContext } from './validation-context.js';

type Checks = ValidationChecks<ast.PipelineSqlAstType>;

/** Merges several check tables; a node type checked by several groups gets all their checks. */
function mergeChecks(tables: readonly Checks[]): Checks {
    const merged = new Map<string, ValidationCheck[]>();
    for (const table of tables) {
        for (const [type, checks] of Object.entries(table)) {
            if (checks) {
                merged.set(type, [...(merged.get(type) ?? []), ...(Array.isArray(checks) ? checks : [checks]) as ValidationCheck[]]);
            }
        }
    }
    return Object.fromEntries(merged) as Checks;
}

/**
 * Registers every semantic check of Pipeline SQL with Langium's `ValidationRegistry`: the AUTO CDC
 * rules, flow and target rules, dataset rules, name resolution, sample data reads, legacy syntax and the
 * target profile.
 * Each group is a class whose `checks()` maps node types to `checkXxx` methods.
 */
export function registerValidationChecks(services: PipelineSqlServices): void {
    const context = new ValidationContext(services);
    const checks = mergeChecks([
        new AutoCdcChecks(context).checks(),
        new FlowChecks(context).checks(),
        new DatasetChecks(context).checks(),
        new NameChecks(context).checks(),
        new ParameterChecks(services).checks(),
        new SampleChecks(context, services).checks(),
        new SyntaxChecks(context).checks(),
        new TableReadChecks(services).checks(),
    ]);
    const registry = services.validation.ValidationRegistry;
    registry.register(checks);
    // Records what the document's diagnostics depended on, for cross-file revalidation.
    registry.registerAfterDocument(root => {
        const document = root.$document;
        if (document) {
            services.pipeline.Dependencies.record(document);
        }
    });
}
