/**
 * "Run on local state" (`pipelineSql/runStatement`): one statement of a scratch `.sql` file (or a
 * selection) run on the state of the pipeline whose folder holds the file, as `pipeline-sql sql` runs
 * it: parsed with the pipeline grammar as a document of its own, lowered with the pipeline's names
 * (`lowerStatement`) and run by the engine (`runStatement`). Errors are placed in the document, at
 * the statement.
 */
import type { LangiumSharedServices } from 'langium/lsp';
import { URI } from 'langium';
import type { CancellationToken } from 'vscode-languageserver';
import { runStatement, type DatabaseKeeper } from '../../../engine/src/index.js';
import type { RunStatementParams } from '../../../common/protocol.js';
import type { RunErrorModel, SourceRange, StatementOutcome } from '../../../common/result-model.js';
import type * as ast from '../language/generated/ast.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { IssueCodes } from '../language/validation/issue-codes.js';
import { lowerStatement } from '../lowering/index.js';
import { engineIdentity } from '../project/run-preparation.js';
import { preparePipeline } from './pipeline-sources.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** The scheme of the documents statements are parsed as (never a file, never part of a pipeline). */
const statementScheme = 'pipeline-sql-statement';
let parsed = 0;

/** A range of the statement's own text (1-based line and column) moved to where the text starts in its document. */
function shifted(start: RunStatementParams['start'], line: number, column: number, endLine = line, endColumn = column + 1): SourceRange {
    const at = (l: number, c: number) => ({ line: start.line + l - 1, character: (l === 1 ? start.character : 0) + c - 1 });
    return { start: at(line, column), end: at(endLine, endColumn) };
}

/** Runs one statement on the local state of the document's pipeline. */
export async function runStatementOnState(shared: LangiumSharedServices, services: PipelineSqlServices, keeper: DatabaseKeeper,
    params: RunStatementParams, maxRows: number, token: CancellationToken): Promise<StatementOutcome> {
    const started = Date.now();
    const fail = (error: RunErrorModel): StatementOutcome => ({ ok: false, error, statement: params.text, documentUri: params.uri });
    const at = (line: number, column: number, endLine?: number, endColumn?: number) => ({ uri: params.uri, range: shifted(params.start, line, column, endLine, endColumn) });
    const prepared = await preparePipeline(shared, services, params.uri, token, { enclosing: true });
    if (!prepared.ok) {
        return fail(prepared.error);
    }
    const pipeline = prepared.pipeline;
    const document = shared.workspace.LangiumDocumentFactory.fromString(params.text, URI.from({ scheme: statementScheme, path: `/statement-${++parsed}.sql` }));
    const { lexerErrors, parserErrors } = document.parseResult;
    const lexer = lexerErrors[0];
    const parser = parserErrors[0];
    if (lexer || parser) {
        const line = (lexer ? lexer.line : parser!.token.startLine) ?? 1;
        const column = (lexer ? lexer.column : parser!.token.startColumn) ?? 1;
        return fail({ class: IssueCodes.ParseSyntaxError, message: (lexer ?? parser)!.message, location: at(Number.isNaN(line) ? 1 : line, Number.isNaN(column) ? 1 : column) });
    }
    const statements = (document.parseResult.value as ast.PipelineFile).statements;
    if (statements.length !== 1) {
        return fail({ class: ErrorClass.invalidStatement, message: `Run on local state runs one statement, not ${statements.length}; select one.` });
    }
    const project = pipeline.project;
    const settings = { configuration: { ...project.configuration }, catalog: project.catalog, schema: project.schema };
    const lowered = lowerStatement(services, {
        documents: pipeline.documents.sources, catalogDocuments: pipeline.documents.catalog, settings,
        samples: { rootDir: pipeline.root, samplesDir: pipeline.samplesDir, readRoots: pipeline.readRoots },
    }, statements[0]);
    if (!lowered.ok) {
        const problem = lowered.problems[0];
        const mine = problem.span.file.startsWith(`${statementScheme}:`);
        return fail({ class: problem.code, message: problem.message, ...(mine ? { location: at(problem.span.line, problem.span.column, problem.span.endLine, problem.span.endColumn) } : {}) });
    }
    const result = await runStatement(lowered.pipeline, lowered.statement, {
        stateDir: pipeline.stateDir, samplesDir: pipeline.samplesDir, rootDir: pipeline.root, readRoots: pipeline.readRoots,
        pipeline: engineIdentity(project), keeper, limit: maxRows,
    });
    if (!result.ok) {
        const error = result.error;
        const mine = error.file?.startsWith(`${statementScheme}:`) && error.line !== undefined;
        return fail({ class: error.class, message: error.message, dataset: error.dataset, ...(mine ? { location: at(error.line!, error.column ?? 1, error.endLine, error.endColumn) } : {}) });
    }
    return {
        ok: true, kind: result.kind, statement: params.text, documentUri: params.uri, pipeline: { rootUri: pipeline.rootUri, name: pipeline.name },
        columns: result.columns, rows: result.rows, rowCount: result.rowCount, truncated: result.truncated,
        ...(result.dataset ? { dataset: result.dataset } : {}),
        ...(result.version ? { version: { version: result.version.version, timestamp: result.version.timestamp, operation: result.version.operation, metrics: { ...result.version.metrics } } } : {}),
        durationMs: Date.now() - started,
    };
}
