import * as fs from 'node:fs';
import * as path from 'node:path';
import { URI } from 'langium';
import { ErrorClass, runStatement, type StatementSuccess, type UpdateErrorInfo } from '../../../engine/src/index.js';
import type * as ast from '../language/generated/ast.js';
import { lowerStatement } from '../lowering/index.js';
import { engineIdentity, prepareRun, realReadRoots } from '../project/run-preparation.js';
import { buildFiles, CliUsageError, displayPath } from './check.js';
import { formatTable } from './run-output.js';
import { parseRunArguments, resolveRunPipeline, type RunIO } from './run.js';
import { cliServices, type CliServices } from './cli-services.js';

/** The usage of `sql`, shown by `pipeline-sql --help` and `pipeline-sql sql --help`. */
export const sqlUsage = `pipeline-sql sql <root> "<statement>" | -f file.sql [--pipeline key] [--bundle-target name] [--json]
                 [--now 'yyyy-MM-dd HH:mm:ss'] [--state dir] [--samples dir] [--limit n] [--allow-read dir]...
      run one Spark SQL statement on the local state of the pipeline in <root>: a query over its datasets
      and sample tables (table_changes('t', 0) included), DESCRIBE HISTORY t, or INSERT / UPDATE / DELETE / MERGE
      on a streaming table, managed table or AUTO CDC target (one new version of it; its next update and streaming readers
      see the change); --now: the commit time of the version`;

const defaultIO: RunIO = {
    out: text => process.stdout.write(text),
    err: text => process.stderr.write(text),
    progress: false,
};

/**
 * `pipeline-sql sql`: resolves the pipeline as \`run\` does, lowers it and the statement (parsed with the
 * pipeline grammar, names resolved as the pipeline's), and runs the statement on the pipeline's state
 * with the engine. Prints the rows (a query, DESCRIBE HISTORY) or the feed of the change (DML).
 */
export async function sqlCommand(args: string[], io: RunIO = defaultIO, services?: CliServices): Promise<number> {
    const options = parseRunArguments(args, 'sql');
    const file = options.file;
    const statementText = file !== undefined ? readStatementFile(file) : options.statement;
    if (statementText === undefined) {
        throw new CliUsageError('sql needs a statement: pipeline-sql sql <root> "SELECT ..." or -f file.sql');
    }
    const limit = options.limit ?? (options.json ? 1000 : 20);
    const fail = (error: UpdateErrorInfo): number => {
        const shown = { ...error, ...(error.file ? { file: displayPath(error.file) } : {}) };
        if (options.json) {
            io.out(JSON.stringify({ ok: false, error: shown }, null, 2) + '\n');
        } else {
            const where = shown.file ? `${shown.file}${shown.line ? `:${shown.line}${shown.column ? `:${shown.column}` : ''}` : ''}: ` : '';
            io.err(`${where}error ${shown.class} ${shown.message}\n`);
        }
        return 1;
    };
    const { shared, PipelineSql } = services ?? cliServices();
    const pipeline = await resolveRunPipeline(shared, options);
    const samplesDir = path.resolve(options.samples ?? pipeline.samplesDir);
    const stateDir = path.resolve(options.state ?? pipeline.stateDir);
    const readRoots = [...await realReadRoots(pipeline), ...(options.samples !== undefined ? [samplesDir] : [])];
    const prepared = await prepareRun(PipelineSql, pipeline, files => buildFiles(shared, files), undefined, { rootDir: pipeline.root, samplesDir, readRoots });
    if (!prepared.ok) {
        const place = prepared.error.place;
        return fail({ class: prepared.error.class, message: `The pipeline cannot be read: ${prepared.error.message}`, ...(place ? { file: place.file, line: place.range.start.line + 1, column: place.range.start.character + 1 } : {}) });
    }
    // The statement is parsed with the pipeline's grammar, as a document of its own outside the pipeline's files.
    const where = file !== undefined ? path.resolve(file) : path.join(stateDir, 'statement.sql');
    const document = shared.workspace.LangiumDocumentFactory.fromString(statementText, URI.file(where));
    const errors = [...document.parseResult.lexerErrors.map(e => ({ line: e.line ?? 1, column: e.column ?? 1, message: e.message })),
        ...document.parseResult.parserErrors.map(e => ({ line: e.token.startLine ?? 1, column: e.token.startColumn ?? 1, message: e.message }))];
    if (errors.length > 0) {
        return fail({ class: 'PARSE_SYNTAX_ERROR', message: errors[0].message, ...(file !== undefined ? { file: where } : {}), line: errors[0].line, column: errors[0].column });
    }
    // Linked like any document (its names resolve by the lowering's fallback, as it belongs to no pipeline's files).
    shared.workspace.LangiumDocuments.addDocument(document);
    await shared.workspace.DocumentBuilder.build([document], { validation: false });
    const statements = (document.parseResult.value as ast.PipelineFile).statements;
    if (statements.length !== 1) {
        return fail({ class: ErrorClass.invalidStatement, message: `sql runs one statement, not ${statements.length}.` });
    }
    const settings = { configuration: { ...pipeline.configuration }, catalog: pipeline.catalog, schema: pipeline.schema };
    const lowered = lowerStatement(PipelineSql, { documents: prepared.sourceDocuments, catalogDocuments: prepared.catalogDocuments, settings, samples: { rootDir: pipeline.root, samplesDir, readRoots } }, statements[0]);
    if (!lowered.ok) {
        const problem = lowered.problems[0];
        return fail({ class: problem.code, message: problem.message, ...(file !== undefined ? { file: problem.span.file, line: problem.span.line, column: problem.span.column } : {}) });
    }
    const result = await runStatement(lowered.pipeline, lowered.statement, {
        stateDir, samplesDir, rootDir: pipeline.root, readRoots, limit, pipeline: engineIdentity(pipeline), now: options.now,
    });
    if (!result.ok) {
        return fail(file === undefined ? { ...result.error, file: undefined, line: undefined, column: undefined, endLine: undefined, endColumn: undefined } : result.error);
    }
    if (options.json) {
        const { ok, kind, columns, rows, rowCount, truncated, dataset, version } = result;
        io.out(JSON.stringify({ ok, kind, columns, rows, rowCount, truncated, ...(dataset ? { dataset } : {}), ...(version ? { version } : {}) }, null, 2) + '\n');
    } else {
        io.out(formatStatement(result, limit));
    }
    return 0;
}

function readStatementFile(file: string): string {
    try {
        return fs.readFileSync(file, 'utf8');
    } catch {
        throw new CliUsageError(`Cannot read the statement file ${file}`);
    }
}

/** The text output: the rows, and for DML the version written and the change's feed. */
function formatStatement(result: StatementSuccess, limit: number): string {
    let out = '';
    if (result.kind === 'query' || result.kind === 'describe_history') {
        out += result.rows.length > 0 ? formatTable(result.columns, result.rows) : `  (no rows; columns ${result.columns.map(c => `${c.name} ${c.type}`).join(', ')})\n`;
        out += `${result.rowCount} row${result.rowCount === 1 ? '' : 's'}${result.truncated ? ` (showing ${limit}; use --limit to see more)` : ''}\n`;
        return out;
    }
    if (!result.version) {
        return `${result.kind.toUpperCase()} changed no rows of ${result.dataset}; no new version.\n`;
    }
    const m = result.version.metrics;
    out += `${result.version.operation} on ${result.dataset}: version ${result.version.version} at ${result.version.timestamp} `
        + `(${m.numInsertedRows ?? 0} inserted, ${m.numUpdatedRows ?? 0} updated, ${m.numDeletedRows ?? 0} deleted)\n`;
    if (result.rows.length > 0) {
        out += formatTable(result.columns, result.rows);
    }
    return out;
}
