import type { ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils } from 'langium';
import { TABLE_READ_OPTIONS, tableReadOption } from '../builtins/table-read-options.js';
import type * as ast from '../generated/ast.js';
import { changeFeedTable } from '../pipeline/pipeline-model.js';
import { closestNames } from '../references/dataset-names.js';
import { namespaceDefaultsAt } from '../references/pipeline-namespaces.js';
import { Issues } from './issue-codes.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { report } from './validation-context.js';

/**
 * Reads of a change data feed and reader options (docs/semantics.md §15.3, §5.1): `WITH (...)` after a table
 * reference takes the known Delta reader options (others warn), and `table_changes('t', ...)` names a
 * dataset of the pipeline.
 */
export class TableReadChecks {

    constructor(private readonly services: PipelineSqlServices) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            TableReadOptions: this.checkOptions,
            TableFunctionCall: this.checkTableChanges,
        };
    }

    checkOptions = (node: ast.TableReadOptions, accept: ValidationAcceptor): void => {
        for (const property of node.options) {
            if (!property.key || tableReadOption(property.key)) {
                continue;
            }
            const candidates = closestNames(property.key, TABLE_READ_OPTIONS.map(o => o.name));
            report(accept, Issues.UnknownTableReadOption, { name: property.key, candidates }, { node: property, property: 'key' });
        }
    };

    checkTableChanges = (call: ast.TableFunctionCall, accept: ValidationAcceptor): void => {
        const first = changeFeedTable(call);
        if (!first || first.value.includes('${')) {
            return;
        }
        const services = this.services;
        const pipeline = services.pipeline.Registry.pipelineOf(AstUtils.getDocument(call).uri);
        const symbols = services.references.SymbolIndex;
        const name = symbols.parseName(pipeline, first.value);
        if (name.parts.length === 0 || symbols.findDatasets(pipeline, name, namespaceDefaultsAt(call, pipeline.spec)).length > 0) {
            return;
        }
        const candidates = closestNames(first.value, symbols.datasetsOf(pipeline.id).map(d => d.name.parts.join('.')));
        report(accept, Issues.TableChangesNotADataset, { name: first.value, candidates }, { node: first });
    };
}
