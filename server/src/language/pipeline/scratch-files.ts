/**
 * Scratch files: `.sql` files in a pipeline's folder, none of its libraries, made of queries and DML
 * on the pipeline's datasets (a GDPR `DELETE`, a manual correction, a look at a target), run on its
 * local state with "Run on local state" as a notebook or SQL warehouse would run them on Databricks.
 *
 * - The registry ({@link PipelineRegistry}) makes such a file a `scratch` member of the innermost
 *   pipeline whose folder holds it, outside its samples and state folders, while its text defines
 *   nothing (no `CREATE`, no pipeline statement): its names resolve against that pipeline's datasets,
 *   it adds nothing to the pipeline, and its queries and DML are no "statement not in pipeline".
 * - The client switches a plain `sql` document to the Pipeline SQL mode when {@link scratchDatasets}
 *   says so (`pipelineSql/documentPipeline`): besides, its statements parse without error, are all
 *   queries, DML, `DESCRIBE HISTORY`, `SET` or `USE`, and at least one names a dataset of the pipeline.
 *   A file of other SQL there (a report on the real catalog, another dialect) stays plain SQL.
 */
import { AstUtils } from 'langium';
import { definesObjects } from '../../../../common/pipeline-files.js';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { displayName, lastKey } from '../references/dataset-names.js';
import { changeFeedTable } from './pipeline-model.js';
import type { PipelineInfo } from './pipeline-registry.js';

/** Statements that run on a pipeline's local state (`pipeline-sql sql`, "Run on local state"). */
export function runsOnState(statement: ast.Statement): boolean {
    return ast.isQuery(statement) || ast.isInsertStatement(statement) || ast.isUpdateStatement(statement) || ast.isDeleteStatement(statement)
        || ast.isMergeStatement(statement) || ast.isDescribeHistoryStatement(statement);
}

/**
 * The datasets of a pipeline that a scratch file's text names (as declared, in the order first named),
 * or undefined when the text is no scratch file of that pipeline: it defines something, does not
 * parse, has a statement that does not run on the local state, or names none of its datasets.
 */
export function scratchDatasets(services: PipelineSqlServices, pipeline: PipelineInfo, text: string): string[] | undefined {
    if (definesObjects(text)) {
        return undefined;
    }
    const parsed = services.parser.LangiumParser.parse(text);
    const root = parsed.value;
    if (parsed.lexerErrors.length > 0 || parsed.parserErrors.length > 0 || !ast.isPipelineFile(root) || root.statements.length === 0
        || !root.statements.every(s => runsOnState(s) || ast.isSetStatement(s) || ast.isUseStatement(s))) {
        return undefined;
    }
    const index = services.references.SymbolIndex;
    const datasets = index.symbolsOf(pipeline.id).datasets;
    const named: string[] = [];
    for (const node of AstUtils.streamAst(root)) {
        // A table read or changed, or the table whose change data feed `table_changes('t', …)` reads.
        const written = ast.isDatasetRef(node) ? node.ref.$refText : ast.isTableFunctionCall(node) ? changeFeedTable(node)?.value : undefined;
        if (written !== undefined) {
            const declared = datasets.get(lastKey(index.parseName(pipeline, written)))[0];
            const name = declared && displayName(declared.name);
            if (name && !named.includes(name)) {
                named.push(name);
            }
        }
    }
    return named.length > 0 ? named : undefined;
}
