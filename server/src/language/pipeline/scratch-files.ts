/**
 * Scratch files: `.sql` files in a pipeline's folder, none of its libraries, made of queries and DML
 * on the pipeline's datasets (a GDPR `DELETE`, a manual correction, a look at a target), run on its
 * local state with "Run on local state" as a notebook or SQL warehouse would run them on Databricks.
 *
 * - The registry ({@link PipelineRegistry}) makes such a file a `scratch` member of the innermost
 *   pipeline whose folder holds it (among several sharing a bundle root, the one whose datasets it
 *   names: {@link chooseScratchPipeline}), outside its samples and state folders, while its text defines
 *   nothing (no `CREATE`, no pipeline statement): its names resolve against that pipeline's datasets,
 *   it adds nothing to the pipeline, and its queries and DML are no "statement not in pipeline".
 * - The client switches a plain `sql` document to the Pipeline SQL mode when {@link chooseScratchPipeline}
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

/** Which pipeline a scratch file belongs to, and the datasets of it that the file names. */
export interface ScratchChoice {
    readonly pipeline: PipelineInfo;
    /** The datasets of that pipeline the text names; undefined when it names none. */
    readonly named?: string[];
    /** The other pipelines the text names as many datasets of (none included): the choice is arbitrary. */
    readonly alsoIn?: readonly PipelineInfo[];
}

/**
 * Of the pipelines whose folders hold a scratch file equally closely (a file directly under a bundle
 * root with several pipelines), the one whose datasets its text names most; the first listed when
 * several name as many (or none), the others then in `alsoIn`. Strict (the client's detection): a
 * text that does not parse or has a statement that does not run on the local state is no scratch file
 * (undefined), and neither is one naming no dataset (`named` undefined). Otherwise (the registry,
 * while a user types) whatever parses counts. Undefined for a text that defines something.
 */
export function chooseScratchPipeline(services: PipelineSqlServices, candidates: readonly PipelineInfo[], text: string,
    options: { strict: boolean }): ScratchChoice | undefined {
    if (definesObjects(text) || candidates.length === 0) {
        return undefined;
    }
    const parsed = services.parser.LangiumParser.parse(text);
    const root = parsed.value;
    const clean = parsed.lexerErrors.length === 0 && parsed.parserErrors.length === 0 && ast.isPipelineFile(root) && root.statements.length > 0
        && root.statements.every(s => runsOnState(s) || ast.isSetStatement(s) || ast.isUseStatement(s));
    if (options.strict && !clean) {
        return undefined;
    }
    const written: string[] = [];
    for (const node of AstUtils.streamAst(root)) {
        // A table read or changed, or the table whose change data feed `table_changes('t', …)` reads.
        const name = ast.isDatasetRef(node) ? node.ref.$refText : ast.isTableFunctionCall(node) ? changeFeedTable(node)?.value : undefined;
        if (name !== undefined) {
            written.push(name);
        }
    }
    const named = candidates.map(pipeline => datasetsNamed(services, pipeline, written));
    const most = Math.max(...named.map(n => n.length));
    const tied = candidates.filter((_, i) => named[i].length === most);
    const chosen = candidates.indexOf(tied[0]);
    return {
        pipeline: tied[0],
        ...(most > 0 ? { named: named[chosen] } : {}),
        ...(tied.length > 1 ? { alsoIn: tied.slice(1) } : {}),
    };
}

/** The datasets of a pipeline among names written in a scratch file, as declared, each once. */
function datasetsNamed(services: PipelineSqlServices, pipeline: PipelineInfo, written: readonly string[]): string[] {
    const index = services.references.SymbolIndex;
    const datasets = index.symbolsOf(pipeline.id).datasets;
    const named: string[] = [];
    for (const text of written) {
        const declared = datasets.get(lastKey(index.parseName(pipeline, text)))[0];
        const name = declared && displayName(declared.name);
        if (name && !named.includes(name)) {
            named.push(name);
        }
    }
    return named;
}

/**
 * What to tell the user of a scratch file whose pipeline was chosen among several (the diagnostic on
 * the file and the Pipeline SQL status item say the same).
 */
export function ambiguousScratchNote(chosen: PipelineInfo, others: readonly PipelineInfo[]): string {
    const names = [chosen, ...others].map(p => `'${pipelineName(p)}'`).join(', ');
    return `This scratch file is in the folder of several pipelines (${names}) and its statements do not tell which one it is for `
        + `(they name as many datasets of each), so its names resolve against '${pipelineName(chosen)}' and Run on local state runs on that `
        + 'pipeline\'s state; to choose, name a dataset only one pipeline has, or move the file into that pipeline\'s own folder (its root_path).';
}

function pipelineName(pipeline: PipelineInfo): string {
    return pipeline.project?.name ?? pipeline.spec?.name ?? pipeline.id;
}
