import { ErrorClass } from '../../../engine/src/index.js';
import type { AstNode, LangiumDocument } from 'langium';
import { GrammarUtils, URI } from 'langium';
import type {
    AppendFlowIR, AutoCdcFlowIR, CatalogTableIR, ColumnIR, ColumnSelectionIR, DatasetIR, ExpectationIR, FlowBaseIR, FlowIR, MergeClauseIR, MergeStatementIR,
    ExprIR, PipelineIR, QueryIR, SampleDirs, SnapshotFlowIR, SourceSpan, StatementIR, SubqueryRelationIR, TableRelationIR,
} from '../../../engine/src/index.js';
import { attachInferredColumns, childExprs, sampleDirs, setOwn } from '../../../engine/src/index.js';
import { nodeSampleDisk } from '../../../engine/src/spark/sample-disk.js';
import * as ast from '../language/generated/ast.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { clauseName } from '../language/validation/auto-cdc-checks.js';
import { IssueCodes } from '../language/validation/issue-codes.js';
import { checkCollation, lowerDataType } from './data-types.js';
import { LoweringError, type LoweringProblem } from './lowering-error.js';
import { nameParts, PipelineParameters, withoutLive } from './names.js';
import { PipelineParameters as ProjectParameters } from '../project/parameters.js';
import type { PipelineSettings } from './pipeline-configuration.js';
import { QueryLowering } from './queries.js';
import { fileOf, spanBetween, spanOf, spanOfCst } from './source-spans.js';
import { resolveTableName, resolveTableSource, type DatasetName, type PipelineNames } from './table-resolution.js';

/** The validated documents of one pipeline and its settings: the input of the lowering. */
export interface PipelineSources {
    /** The pipeline's source files (those its project file includes), parsed, linked and validated. */
    documents: readonly LangiumDocument[];
    /** The sample catalog declarations (`samples/*.sql`), parsed. */
    catalogDocuments?: readonly LangiumDocument[];
    /** The project file's settings (configuration, default catalog and schema). */
    settings?: PipelineSettings;
    /**
     * Where the run reads sample data (as the engine's options say); default: the pipeline of the first
     * document, as the registry knows it. The columns inferred there go into the IR.
     */
    samples?: { rootDir: string; samplesDir: string; readRoots?: string[] };
}

/** The outcome of the lowering: the engine IR, or every statement's first problem. */
export type LoweringResult =
    | { ok: true; pipeline: PipelineIR }
    | { ok: false; problems: LoweringProblem[] };

/** Statements that only configure the pipeline (read before anything is lowered). */
type ConfigStatement = ast.SetStatement | ast.UseStatement;

/**
 * Lowers the validated AST of a pipeline (its source documents and sample catalog declarations) to the
 * engine IR (`engine/src/ir.ts`). Configuration comes first (spark-pipeline.yml `configuration:`, then
 * every `SET`), so that `${name}` parameters are substituted in names and strings wherever they are.
 * Each statement is lowered on its own; a statement the engine cannot run is reported with the
 * construct, file and line, and the other statements are still checked.
 */
export function lowerPipeline(services: PipelineSqlServices, sources: PipelineSources): LoweringResult {
    return new PipelineLowering(services, sources).lower();
}

/**
 * Lowers the pipeline and one statement to run on its local state (`pipeline-sql sql`): a query,
 * `DESCRIBE HISTORY`, or INSERT / UPDATE / DELETE, with names resolved as the pipeline's are.
 */
export function lowerStatement(services: PipelineSqlServices, sources: PipelineSources, statement: ast.Statement):
    { ok: true; pipeline: PipelineIR; statement: StatementIR } | { ok: false; problems: LoweringProblem[] } {
    const lowering = new PipelineLowering(services, sources);
    const pipeline = lowering.lower();
    if (!pipeline.ok) {
        return pipeline;
    }
    const lowered = lowering.runnable(statement);
    return lowered.ok ? { ok: true, pipeline: pipeline.pipeline, statement: lowered.statement } : lowered;
}

class PipelineLowering {
    private readonly problems: LoweringProblem[] = [];
    private readonly conf: Record<string, string>;
    /** SET values as written (a string keeps its quotes), for `${name}` standing alone as an expression. */
    private readonly rawConf: Record<string, string>;
    private readonly defaults: { catalog?: string; schema?: string };
    private readonly parameters: PipelineParameters;
    private readonly names: PipelineNames;
    private readonly queries: QueryLowering;
    /** The documents that parsed without errors (the others are reported and not lowered). */
    private readonly documents: readonly LangiumDocument[];
    private readonly catalogDocuments: readonly LangiumDocument[];
    private parameterDocuments = 0;
    private readonly samples: PipelineSources['samples'];

    constructor(private readonly services: PipelineSqlServices, sources: PipelineSources) {
        this.samples = sources.samples;
        this.documents = sources.documents.filter(d => this.parsed(d));
        this.catalogDocuments = (sources.catalogDocuments ?? []).filter(d => this.parsed(d));
        const settings = sources.settings ?? { configuration: {} };
        this.conf = { ...settings.configuration };
        this.rawConf = { ...settings.configuration };
        this.defaults = { catalog: settings.catalog, schema: settings.schema };
        for (const statement of this.statements(this.documents)) {
            if (ast.isSetStatement(statement) || ast.isUseStatement(statement)) {
                this.configure(statement);
            }
        }
        this.parameters = new PipelineParameters(new ProjectParameters(this.conf));
        const datasets: DatasetName[] = [];
        for (const statement of this.statements(this.documents)) {
            if (ast.isCreateStreamingTable(statement) || ast.isCreateMaterializedView(statement) || ast.isCreateView(statement) || ast.isCreateTable(statement)) {
                const name = this.attempt(() => withoutLive(nameParts(statement, 'name', this.parameters)), statement);
                if (name) {
                    datasets.push({ node: statement, name });
                }
            }
        }
        this.names = {
            datasets,
            documents: new Set(sources.documents.map(d => d.uri.toString())),
            catalogDocuments: new Set((sources.catalogDocuments ?? []).map(d => d.uri.toString())),
            defaults: this.defaults,
            parameters: this.parameters,
        };
        const rawParameters = new ProjectParameters(this.rawConf);
        this.queries = new QueryLowering({
            parameters: this.parameters,
            resolveTable: ref => resolveTableSource(ref, this.names),
            resolveTableName: parts => resolveTableName(parts, this.names),
            parseParameterValue: (name, value) => this.parseExpression(rawParameters.lookup(name) ?? value),
        });
    }

    lower(): LoweringResult {
        const pipeline: PipelineIR = { irVersion: 1, datasets: [], flows: [], catalog: [], conf: this.conf };
        for (const statement of this.statements(this.documents)) {
            this.attempt(() => this.statement(statement, pipeline), statement);
        }
        for (const statement of this.statements(this.catalogDocuments)) {
            this.attempt(() => pipeline.catalog.push(this.catalogTable(statement)), statement);
        }
        if (this.problems.length > 0) {
            return { ok: false, problems: this.problems };
        }
        // The sample files' columns as the editor infers them, so that the run reads them with these types.
        const dirs = this.sampleDirs();
        if (dirs) {
            attachInferredColumns(pipeline, dirs);
        }
        return { ok: true, pipeline };
    }

    /** A statement run on the local state, or its problem. */
    runnable(statement: ast.Statement): { ok: true; statement: StatementIR } | { ok: false; problems: LoweringProblem[] } {
        const problems = this.problems.length;
        const lowered = this.attempt(() => this.runnableStatement(statement), statement);
        return lowered && this.problems.length === problems ? { ok: true, statement: lowered } : { ok: false, problems: this.problems.slice(problems) };
    }

    private runnableStatement(statement: ast.Statement): StatementIR {
        const span = spanOf(statement);
        const target = (ref: ast.DatasetRef): string[] => {
            const source = resolveTableSource(ref, this.names);
            if (source.kind !== 'dataset') {
                throw new LoweringError(ErrorClass.unsupportedFeature, `'${ref.ref.$refText}' is not a dataset of this pipeline; statements on the local state change its streaming tables and managed tables.`, spanOf(ref));
            }
            return source.name;
        };
        switch (statement.$type) {
            case ast.Query.$type:
                return { kind: 'query', query: this.queries.query(statement), span };
            case ast.DescribeHistoryStatement.$type:
                return { kind: 'describe_history', dataset: target(statement.table), span };
            case ast.InsertStatement.$type:
                if (statement.overwrite || statement.replaceWhere) {
                    throw new LoweringError(ErrorClass.unsupportedFeature, `INSERT ${statement.overwrite ? 'OVERWRITE' : '... REPLACE WHERE'} cannot run on the local state; use DELETE and INSERT INTO.`, span);
                }
                return {
                    kind: 'insert', target: target(statement.target), byName: statement.byName, query: this.queries.query(statement.query), span,
                    ...(statement.columns.length > 0 ? { columns: [...statement.columns] } : {}),
                };
            case ast.DeleteStatement.$type:
                return {
                    kind: 'delete', target: target(statement.target), span,
                    ...(statement.alias !== undefined ? { alias: statement.alias } : {}),
                    ...(statement.where ? { where: this.queries.expressions.lower(statement.where) } : {}),
                };
            case ast.UpdateStatement.$type:
                return {
                    kind: 'update', target: target(statement.target), span,
                    ...(statement.alias !== undefined ? { alias: statement.alias } : {}),
                    assignments: statement.assignments.map(a => {
                        const parts = a.column.split('.');
                        return { column: parts[parts.length - 1], value: this.queries.expressions.lower(a.value), span: spanOf(a) };
                    }),
                    ...(statement.where ? { where: this.queries.expressions.lower(statement.where) } : {}),
                };
            case ast.MergeStatement.$type:
                return this.merge(statement, target(statement.target));
            default:
                throw new LoweringError(ErrorClass.unsupportedFeature,
                    `${describeStatement(statement)} cannot run on the local state; pipeline-sql sql runs a query, DESCRIBE HISTORY, INSERT, UPDATE, DELETE or MERGE.`, span);
        }
    }

    /** `MERGE INTO t USING s ON c WHEN ...`: each clause's action must fit its WHEN (as Delta checks). */
    private merge(statement: ast.MergeStatement, target: string[]): MergeStatementIR {
        if (statement.schemaEvolution) {
            throw new LoweringError(ErrorClass.unsupportedFeature, 'MERGE WITH SCHEMA EVOLUTION cannot run on the local state: DML does not change a table\'s schema here.', spanOf(statement));
        }
        const expr = (e: ast.Expression): ExprIR => this.queries.expressions.lower(e);
        const clauses = statement.clauses.map((clause): MergeClauseIR => {
            const when = !clause.not ? 'matched' : clause.bySource ? 'not_matched_by_source' : 'not_matched';
            const action = clause.action;
            const span = spanOf(clause);
            let lowered: MergeClauseIR['action'];
            if (ast.isMergeInsert(action)) {
                if (when !== 'not_matched') {
                    throw new LoweringError(ErrorClass.unsupportedFeature, `INSERT is the action of WHEN NOT MATCHED [BY TARGET] only; a WHEN ${when === 'matched' ? 'MATCHED' : 'NOT MATCHED BY SOURCE'} clause updates or deletes the target row.`, span);
                }
                if (!action.all && action.columns.length > 0 && action.columns.length !== action.values.length) {
                    throw new LoweringError(ErrorClass.schemaMismatch, `INSERT lists ${action.columns.length} columns but ${action.values.length} values.`, span);
                }
                lowered = { kind: 'insert', all: action.all, values: action.values.map(expr), ...(action.columns.length > 0 ? { columns: [...action.columns] } : {}) };
            } else if (when === 'not_matched') {
                throw new LoweringError(ErrorClass.unsupportedFeature, 'WHEN NOT MATCHED [BY TARGET] inserts a row: its action is INSERT (there is no target row to update or delete).', span);
            } else if (ast.isMergeUpdate(action)) {
                if (action.all && when === 'not_matched_by_source') {
                    throw new LoweringError(ErrorClass.unsupportedFeature, 'UPDATE SET * needs a source row: WHEN NOT MATCHED BY SOURCE sets columns one by one.', span);
                }
                lowered = {
                    kind: 'update', all: action.all, assignments: action.assignments.map(a => {
                        const parts = a.column.split('.');
                        return { column: parts[parts.length - 1], value: expr(a.value), span: spanOf(a) };
                    }),
                };
            } else {
                lowered = { kind: 'delete' };
            }
            return { when, action: lowered, span, ...(clause.condition ? { condition: expr(clause.condition) } : {}) };
        });
        return {
            kind: 'merge', target, source: this.queries.relation(statement.source), on: expr(statement.on), clauses, span: spanOf(statement),
            ...(statement.alias !== undefined ? { alias: statement.alias } : {}),
        };
    }

    private sampleDirs(): SampleDirs | undefined {
        if (this.samples) {
            return sampleDirs(this.samples.rootDir, { samplesDir: this.samples.samplesDir, readRoots: this.samples.readRoots });
        }
        const first = this.documents[0];
        // A run reads the disk itself (the editor's snapshot may not hold every file yet).
        return first ? this.services.pipeline.SampleCatalog.dirsOf(this.services.pipeline.Registry.pipelineOf(first.uri), nodeSampleDisk) : undefined;
    }

    /**
     * Whether a document parsed without errors. The parser recovers from syntax errors with partial
     * trees, which no one should run: such a document is reported at its first error and not lowered.
     */
    private parsed(document: LangiumDocument): boolean {
        const { lexerErrors, parserErrors } = document.parseResult;
        const file = document.uri.scheme === 'file' ? document.uri.fsPath : document.uri.toString();
        const lexer = lexerErrors[0];
        if (lexer) {
            const line = lexer.line ?? 1;
            const column = lexer.column ?? 1;
            this.problems.push({ code: IssueCodes.ParseSyntaxError, message: lexer.message, span: { file, line, column, endLine: line, endColumn: column + (lexer.length || 1) } });
            return false;
        }
        const parser = parserErrors[0];
        if (parser) {
            const token = parser.token;
            const line = Number.isNaN(token.startLine) || token.startLine === undefined ? 1 : token.startLine;
            const column = Number.isNaN(token.startColumn) || token.startColumn === undefined ? 1 : token.startColumn;
            this.problems.push({ code: IssueCodes.ParseSyntaxError, message: parser.message, span: { file, line, column, endLine: line, endColumn: column + Math.max(1, token.image.length) } });
            return false;
        }
        return true;
    }

    private *statements(documents: readonly LangiumDocument[]): Generator<ast.Statement> {
        for (const document of documents) {
            const root = document.parseResult.value;
            if (ast.isPipelineFile(root)) {
                yield* root.statements;
            }
        }
    }

    /**
     * Runs one step; a lowering error becomes a reported problem and the step yields nothing. Any
     * other error is a defect of the lowering: it is reported at the statement, never a crash.
     */
    private attempt<T>(step: () => T, statement?: ast.Statement): T | undefined {
        try {
            return step();
        } catch (error) {
            if (error instanceof LoweringError) {
                this.problems.push(error.toProblem());
                return undefined;
            }
            if (!statement) {
                throw error;
            }
            this.problems.push({
                code: ErrorClass.internal,
                message: `The local engine could not translate this statement (${error instanceof Error ? error.message : String(error)}); please report it.`,
                span: spanOf(statement),
            });
            return undefined;
        }
    }

    private configure(statement: ConfigStatement): void {
        if (ast.isUseStatement(statement)) {
            // USE CATALOG c; USE [SCHEMA|DATABASE|NAMESPACE] [c.]s.
            const parts = statement.name.split('.');
            if (statement.scope === 'CATALOG') {
                this.defaults.catalog = parts[0];
            } else if (parts.length >= 2) {
                this.defaults.catalog = parts[parts.length - 2];
                this.defaults.schema = parts[parts.length - 1];
            } else {
                this.defaults.schema = parts[0];
            }
            return;
        }
        if (statement.scope === 'CATALOG') {
            this.defaults.catalog = statement.target;
        } else if (statement.scope === 'SCHEMA') {
            this.defaults.schema = statement.target;
        } else if (statement.key !== undefined && statement.value !== undefined) {
            setOwn(this.conf, statement.key, statement.value);
            setOwn(this.rawConf, statement.key, GrammarUtils.findNodeForProperty(statement.$cstNode, 'value')?.text ?? statement.value);
        }
    }

    /** Parses a parameter value as an expression (`SELECT <value>`), in a document of its own. */
    private parseExpression(value: string): ast.Expression | undefined {
        const uri = URI.parse(`memory:/pipeline-parameter/${++this.parameterDocuments}.sql`);
        const document = this.services.shared.workspace.LangiumDocumentFactory.fromString<ast.PipelineFile>(`SELECT ${value}`, uri);
        const { parseResult } = document;
        const statement = parseResult.value.statements[0];
        if (parseResult.lexerErrors.length > 0 || parseResult.parserErrors.length > 0 || parseResult.value.statements.length !== 1
            || !ast.isQuery(statement) || !ast.isSelectQuery(statement.body) || statement.body.items.length !== 1 || statement.body.from
            || statement.body.items[0].alias !== undefined) {
            return undefined;
        }
        return statement.body.items[0].expression;
    }

    private statement(statement: ast.Statement, pipeline: PipelineIR): void {
        switch (statement.$type) {
            case ast.SetStatement.$type:
            case ast.UseStatement.$type:
                return;
            case ast.CreateStreamingTable.$type:
            case ast.CreateMaterializedView.$type:
            case ast.CreateView.$type:
            case ast.CreateTable.$type:
                this.dataset(statement, pipeline);
                return;
            case ast.CreateFlow.$type:
                pipeline.flows.push(this.createFlow(statement));
                return;
            case ast.ApplyChanges.$type: {
                const target = this.flowTarget(statement.target);
                pipeline.flows.push(this.autoCdc(statement.cdc, { name: target.join('.'), target, span: spanOf(statement) }, false));
                return;
            }
            default:
                throw new LoweringError(ErrorClass.invalidPipeline, `${describeStatement(statement)} cannot be part of a pipeline: `
                    + 'a pipeline file defines datasets (CREATE STREAMING TABLE / MATERIALIZED VIEW / VIEW), flows (CREATE FLOW) and settings (SET).', spanOf(statement));
        }
    }

    //#region Datasets

    private dataset(node: ast.Dataset, pipeline: PipelineIR): void {
        const span = spanOf(node);
        const name = withoutLive(nameParts(node, 'name', this.parameters));
        const kind = datasetKind(node);
        const elements = node.spec?.elements ?? [];
        const columnDefs = elements.filter(ast.isColumnDef);
        const typed = columnDefs.filter(c => c.type !== undefined);
        const dataset: DatasetIR = {
            name, kind,
            expectations: elements.filter(ast.isExpectation).map(e => this.expectation(e)),
            properties: {},
            span,
        };
        this.tableClauses(node, dataset);
        if ((ast.isCreateStreamingTable(node) || ast.isCreateMaterializedView(node) || ast.isCreateTable(node)) && (node.private || node.temporary)) {
            dataset.private = true;
        }
        // A column list with types is the declared schema; one of bare names renames the query's columns.
        let aliases: string[] | undefined;
        if (typed.length > 0 && typed.length === columnDefs.length && kind !== 'view' && kind !== 'temporary_view') {
            dataset.columns = columnDefs.map(c => this.column(c));
        } else if (columnDefs.length > 0) {
            if (typed.length > 0 && typed.length < columnDefs.length) {
                throw new LoweringError(ErrorClass.invalidPipeline,
                    `The column list of '${name.join('.')}' gives types for some columns only; give every column a type, or none.`, spanOf(node, 'spec'));
            }
            if (kind === 'streaming_table' || kind === 'managed_table') {
                throw new LoweringError(ErrorClass.invalidPipeline,
                    `The columns of the table '${name.join('.')}' need types (name TYPE, ...).`, spanOf(node, 'spec'));
            }
            columnDefs.forEach(c => this.checkColumnProperties(c, true));
            aliases = columnDefs.map(c => c.name);
        }
        const display = name.join('.');
        const query = node.query ? this.renamed(this.queries.query(node.query), aliases, node) : undefined;
        if (kind === 'view' || kind === 'temporary_view') {
            dataset.query = query;
            pipeline.datasets.push(dataset);
            return;
        }
        pipeline.datasets.push(dataset);
        if (kind === 'materialized_view') {
            pipeline.flows.push({ kind: 'materialized_view', name: display, target: name, query: query!, span });
            return;
        }
        if (query) {
            // The query of a streaming (or managed) table is an append flow named after it, by name.
            pipeline.flows.push({ kind: 'append', name: display, target: name, once: false, byName: true, query, span });
        }
        const inline = (node as ast.CreateStreamingTable | ast.CreateTable).flow;
        if (inline) {
            pipeline.flows.push(this.flowBody(inline.body, { name: display, target: name, span: spanOf(inline) }));
        }
    }

    /** `SELECT * FROM (query) AS t(a, b)`: a view's or materialized view's column list renames its query's columns. */
    private renamed(query: QueryIR, aliases: string[] | undefined, node: ast.Dataset): QueryIR {
        if (!aliases) {
            return query;
        }
        return {
            kind: 'query',
            body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [{ kind: 'subquery', query, alias: '__renamed', columnAliases: aliases, span: spanOf(node, 'spec') }] },
            span: query.span,
        };
    }

    private column(node: ast.ColumnDef): ColumnIR {
        const column: ColumnIR = { name: node.name, type: lowerDataType(node.type!), span: spanOf(node) };
        for (const property of node.properties) {
            switch (property.$type) {
                case ast.NotNullProperty.$type:
                    column.notNull = true;
                    break;
                case ast.CommentProperty.$type:
                    column.comment = property.comment;
                    break;
                case ast.GeneratedAsProperty.$type:
                    column.generated = this.queries.expressions.lower(property.expression);
                    break;
                case ast.DefaultProperty.$type:
                    column.default = this.queries.expressions.lower(property.value);
                    break;
                default:
                    this.checkColumnProperty(property);
            }
        }
        return column;
    }

    /** Column properties that change no result are accepted; the others cannot run locally. */
    private checkColumnProperty(property: ast.ColumnProperty): void {
        switch (property.$type) {
            case ast.PrimaryKeyProperty.$type:
            case ast.ForeignKeyProperty.$type:
                // Informational in Unity Catalog, never enforced.
                return;
            case ast.CollateProperty.$type:
                checkCollation(property, property.collation);
                return;
            case ast.IdentityProperty.$type:
                throw new LoweringError(ErrorClass.unsupportedFeature, 'Identity columns (GENERATED ... AS IDENTITY) cannot run locally.', spanOf(property));
            case ast.MaskProperty.$type:
                throw new LoweringError(ErrorClass.unsupportedFeature,
                    `The column mask ${property.function} cannot run locally; a local run would show the unmasked values.`, spanOf(property));
        }
    }

    private checkColumnProperties(node: ast.ColumnDef, aliasOnly: boolean): void {
        for (const property of node.properties) {
            if (aliasOnly && !ast.isCommentProperty(property)) {
                throw new LoweringError(ErrorClass.invalidPipeline, `The column '${node.name}' of a view's column list takes only a COMMENT.`, spanOf(property));
            }
        }
    }

    private expectation(node: ast.Expectation): ExpectationIR {
        const condition = this.queries.expressions.lower(node.condition);
        const dataset = node.$container?.$container;
        const qualifiers = ast.isDataset(dataset) ? passedQualifiers(dataset) : new Set<string>();
        // The batch the expectation runs on has the query's columns without their qualifiers.
        const unqualify = (expr: ExprIR): void => {
            if (expr.kind === 'column' && expr.parts.length > 1 && qualifiers.has(expr.parts[0].toLowerCase())) {
                expr.parts = expr.parts.slice(1);
            }
            childExprs(expr).forEach(unqualify);
        };
        unqualify(condition);
        return {
            name: node.name,
            condition,
            action: node.failUpdate ? 'fail' : node.dropRow ? 'drop' : 'warn',
            span: spanOf(node),
        };
    }

    /**
     * The clauses after the column list. COMMENT and TBLPROPERTIES are kept; USING, LOCATION,
     * PARTITIONED BY, CLUSTER BY, OPTIONS, REFRESH POLICY, SCHEDULE and TRIGGER ON UPDATE decide storage
     * and scheduling only, which a local triggered run does not have. Row filters and collations
     * change results, so they are errors.
     */
    private tableClauses(node: ast.Dataset, dataset: DatasetIR): void {
        for (const clause of node.clauses) {
            switch (clause.$type) {
                case ast.CommentClause.$type:
                    dataset.comment = clause.comment;
                    break;
                case ast.TblPropertiesClause.$type:
                    for (const property of clause.properties) {
                        setOwn(dataset.properties, property.key, property.value ?? 'true');
                    }
                    break;
                case ast.RowFilterClause.$type:
                    throw new LoweringError(ErrorClass.unsupportedFeature,
                        `The row filter ${clause.function} cannot run locally; a local run would show every row.`, spanOf(clause));
                case ast.DefaultCollationClause.$type:
                    checkCollation(clause, clause.collation);
                    break;
                default:
                    break;
            }
        }
    }

    //#endregion

    //#region Flows

    private createFlow(node: ast.CreateFlow): FlowIR {
        const body = node.body;
        if (!body.target) {
            throw new LoweringError(ErrorClass.invalidPipeline, `The flow '${node.name}' needs a target: ... INTO target ... .`, spanOf(node, 'body'));
        }
        const base: FlowBaseIR = { name: this.parameters.substituteName(node.name, spanOf(node, 'name')), target: this.flowTarget(body.target), span: spanOf(node) };
        if (node.comment !== undefined) {
            base.comment = node.comment;
        }
        return this.flowBody(body, base);
    }

    /** The dataset a flow writes: the declared name of the dataset it resolves to, else the name as written. */
    private flowTarget(ref: ast.DatasetRef): string[] {
        const source = resolveTableSource(ref, this.names);
        if (source.kind === 'dataset' || source.kind === 'catalog') {
            // A name the pipeline does not define is reported by the engine's analysis (PIPELINE_SQL_UNKNOWN_DATASET).
            return source.name;
        }
        throw new LoweringError(ErrorClass.invalidPipeline, `A flow writes a dataset of the pipeline, not the CTE '${ref.ref.$refText}'.`, spanOf(ref));
    }

    private flowBody(body: ast.FlowBody, base: FlowBaseIR): FlowIR {
        switch (body.$type) {
            case ast.AutoCdcFlow.$type:
                return ast.isSnapshotSpec(body.cdc) ? this.snapshot(body.cdc, base, body.once) : this.autoCdc(body.cdc, base, body.once);
            case ast.ApplyChangesFlow.$type:
                return this.autoCdc(body.cdc, base, false);
            case ast.InsertFlow.$type:
                return this.insertFlow(body, base);
        }
    }

    private insertFlow(body: ast.InsertFlow, base: FlowBaseIR): FlowIR {
        const query = this.queries.query(body.query);
        if (body.replaceUsing || body.replaceWhere) {
            const clause = body.replaceUsing ? 'REPLACE USING' : 'REPLACE WHERE';
            if (body.once) {
                throw new LoweringError(ErrorClass.invalidPipeline, `ONCE cannot be combined with ${clause}; a replace flow runs on every update.`, spanOf(body, 'once'));
            }
            if (!body.byName) {
                throw new LoweringError(ErrorClass.invalidPipeline, `${clause} requires BY NAME (INSERT INTO target BY NAME ${clause} ...).`, spanOf(body));
            }
        }
        if (body.replaceUsing) {
            const spec = body.replaceUsing;
            const sequence = spec.sequenceBy;
            if (!sequence) {
                throw new LoweringError(ErrorClass.replaceUsingMissingSequenceBy,
                    'REPLACE USING needs SEQUENCE BY with exactly one column (REPLACE USING (key) SEQUENCE BY column).', spanOf(spec));
            }
            if (!ast.isColumnReference(sequence) || sequence.parts.length !== 1) {
                throw new LoweringError(ErrorClass.replaceUsingSequenceNotColumn, 'The SEQUENCE BY of REPLACE USING must be exactly one column name, not an expression.', spanOf(sequence));
            }
            return {
                ...base, kind: 'replace_using', query,
                keys: { columns: this.columnList(spec.keys.names, spec.keys, 'REPLACE USING'), span: spanOf(spec, 'keys') },
                sequenceBy: { column: sequence.parts[0], span: this.clauseSpan(spec, 'SEQUENCE', sequence) },
            };
        }
        if (body.replaceWhere) {
            return {
                ...base, kind: 'replace_where', query,
                predicate: { condition: this.queries.expressions.lower(body.replaceWhere), span: this.clauseSpan(body, 'WHERE', body.replaceWhere) },
            };
        }
        const flow: AppendFlowIR = { ...base, kind: 'append', once: body.once, byName: body.byName, query };
        return flow;
    }

    private autoCdc(spec: ast.AutoCdcSpec, base: FlowBaseIR, once: boolean): AutoCdcFlowIR {
        const sourceRef = spec.source;
        // `FROM (SELECT ... FROM STREAM(x) ...)` / `FROM (WITH ...)`: read like a temporary view inlined (A28).
        const source: TableRelationIR | SubqueryRelationIR = sourceRef.table
            ? this.queries.tableRelation(sourceRef.table, sourceRef.streaming, spanOf(sourceRef))
            : { kind: 'subquery', query: this.queries.query(sourceRef.query!), span: spanOf(sourceRef) };
        const flow: Partial<AutoCdcFlowIR> & FlowBaseIR = {
            ...base, kind: 'auto_cdc', once, source,
            keys: { columns: this.columnList(spec.keys.names, spec.keys, 'KEYS'), span: this.clauseSpan(spec, 'KEYS', spec.keys) },
            storedAs: { type: 'scd1' },
        };
        const seen = new Set<string>();
        for (const clause of spec.clauses) {
            const label = clauseLabel(clause);
            if (seen.has(label)) {
                throw new LoweringError(ErrorClass.duplicateClause, `${label} appears more than once; write it once.`, spanOf(clause));
            }
            seen.add(label);
            const span = spanOf(clause);
            const expr = (e: ast.Expression) => this.queries.expressions.lower(e);
            switch (clause.$type) {
                case ast.IgnoreNullUpdatesClause.$type:
                    flow.ignoreNullUpdates = { columns: clause.columns ? this.selection(clause.columns, label) : { kind: 'all' }, span };
                    break;
                case ast.ApplyAsDeleteClause.$type:
                    flow.applyAsDeleteWhen = { condition: expr(clause.condition), span };
                    break;
                case ast.ApplyAsTruncateClause.$type:
                    flow.applyAsTruncateWhen = { condition: expr(clause.condition), span };
                    break;
                case ast.SequenceByClause.$type:
                    flow.sequenceBy = { expr: expr(clause.expression), span };
                    break;
                case ast.SystemSequenceByClause.$type:
                    flow.systemSequenceBy = { expr: expr(clause.expression), span };
                    break;
                case ast.ColumnsClause.$type:
                    flow.columns = { selection: this.selection(clause.columns, label), span };
                    break;
                case ast.StoredAsClause.$type:
                    flow.storedAs = { type: this.storedAs(clause, true) as AutoCdcFlowIR['storedAs']['type'], span };
                    break;
                case ast.TrackHistoryClause.$type:
                    flow.trackHistory = { selection: this.selection(clause.columns, label), span };
                    break;
                case ast.ColumnsToUpdateClause.$type:
                    flow.columnsToUpdate = { column: this.columnList([clause.column], clause, label)[0], span };
                    break;
                case ast.FlowWhereClause.$type:
                    throw new LoweringError(ErrorClass.unsupportedFeature,
                        'The legacy flow filter WHERE of APPLY CHANGES cannot run locally; filter the source in a temporary view and read the view.', span);
            }
        }
        if (!flow.sequenceBy) {
            throw new LoweringError(ErrorClass.autoCdcMissingSequenceBy,
                `The AUTO CDC flow into '${base.target.join('.')}' has no SEQUENCE BY clause; a change feed must say how to order its events.`, spanOf(spec));
        }
        return flow as AutoCdcFlowIR;
    }

    private snapshot(spec: ast.SnapshotSpec, base: FlowBaseIR, once: boolean): SnapshotFlowIR {
        let snapshot: SnapshotFlowIR['snapshot'];
        if (spec.snapshotQuery) {
            snapshot = { query: this.queries.query(spec.snapshotQuery), span: spanOf(spec, 'snapshotQuery') };
        } else if (spec.snapshotTable) {
            // The legacy `FROM SNAPSHOT name` is the snapshot query `SELECT * FROM name`.
            const span = spanOf(spec, 'snapshotTable');
            const from = this.queries.tableRelation(spec.snapshotTable, false, span);
            snapshot = { query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: [from], span }, span }, span };
        } else {
            throw new LoweringError(ErrorClass.invalidPipeline, 'AUTO CDC FROM SNAPSHOT needs a snapshot query.', spanOf(spec));
        }
        const flow: SnapshotFlowIR = {
            ...base, kind: 'snapshot', once, snapshot,
            keys: { columns: this.columnList(spec.keys.names, spec.keys, 'KEYS'), span: this.clauseSpan(spec, 'KEYS', spec.keys) },
            storedAs: { type: 'scd1' },
        };
        if (spec.versionQuery) {
            flow.version = { query: this.queries.query(spec.versionQuery), span: this.clauseSpan(spec, 'WITH', spec.versionQuery) };
        }
        const seen = new Set<string>();
        for (const clause of spec.clauses) {
            const label = clauseLabel(clause);
            if (seen.has(label)) {
                throw new LoweringError(ErrorClass.duplicateClause, `${label} appears more than once; write it once.`, spanOf(clause));
            }
            seen.add(label);
            if (ast.isStoredAsClause(clause)) {
                flow.storedAs = { type: this.storedAs(clause, false) as SnapshotFlowIR['storedAs']['type'], span: spanOf(clause) };
            } else if (ast.isTrackHistoryClause(clause)) {
                flow.trackHistory = { selection: this.selection(clause.columns, label), span: spanOf(clause) };
            } else {
                throw new LoweringError(ErrorClass.snapshotClauseNotAllowed,
                    `${label} is not allowed in AUTO CDC FROM SNAPSHOT; a snapshot flow takes only WITH VERSION, KEYS, STORED AS SCD TYPE 1|2 and TRACK HISTORY ON.`, spanOf(clause));
            }
        }
        return flow;
    }

    private storedAs(clause: ast.StoredAsClause, bitemporalAllowed: boolean): 'scd1' | 'scd2' | 'bitemporal' {
        if (clause.bitemporal) {
            if (!bitemporalAllowed) {
                throw new LoweringError(ErrorClass.snapshotClauseNotAllowed, 'STORED AS BITEMPORAL is not allowed in AUTO CDC FROM SNAPSHOT; use SCD TYPE 1 or 2.', spanOf(clause));
            }
            return 'bitemporal';
        }
        if (clause.scdType === 1 || clause.scdType === 2) {
            return clause.scdType === 1 ? 'scd1' : 'scd2';
        }
        throw new LoweringError(ErrorClass.invalidPipeline, `SCD TYPE ${clause.scdType ?? '?'} does not exist; use SCD TYPE 1 or SCD TYPE 2.`, spanOf(clause));
    }

    private selection(node: ast.ColumnSelection, clause: string): ColumnSelectionIR {
        if (node.star) {
            return node.except ? { kind: 'except', columns: this.columnList(node.names, node, clause) } : { kind: 'all' };
        }
        return { kind: 'list', columns: this.columnList(node.names, node, clause) };
    }

    /** Plain column names of a column list (`KEYS (a, b)`); a dotted path cannot name a top-level column. */
    private columnList(names: string[], node: AstNode, clause: string): string[] {
        for (const name of names) {
            if (name.includes('.')) {
                throw new LoweringError(ErrorClass.autoCdcMultipartColumn, `${clause} takes plain column names, not '${name}'.`, spanOf(node));
            }
        }
        return [...names];
    }

    /** The span from a clause's first keyword to the end of its value (`KEYS (a, b)`, `SEQUENCE BY x`). */
    private clauseSpan(container: AstNode, keyword: string, value: AstNode): SourceSpan {
        const keywordNode = GrammarUtils.findNodeForKeyword(container.$cstNode, keyword);
        const end = spanOf(value);
        return keywordNode ? spanBetween(spanOfCst(fileOf(container), keywordNode), end) : end;
    }

    //#endregion

    //#region Sample catalog

    /** `CREATE TABLE a.b (cols) USING CSV|JSON|PARQUET [LOCATION 'rel'] [OPTIONS (...)]` in `samples/*.sql`. */
    private catalogTable(statement: ast.Statement): CatalogTableIR {
        if (!ast.isCreateTable(statement)) {
            throw new LoweringError(ErrorClass.invalidSampleCatalog, `${describeStatement(statement)} cannot be in a sample catalog file; `
                + 'samples/*.sql declares sample tables: CREATE TABLE a.b (col TYPE, ...) USING CSV|JSON|PARQUET LOCATION \'a/b\'.', spanOf(statement));
        }
        const name = nameParts(statement, 'name', this.parameters);
        if (statement.query || statement.flow) {
            throw new LoweringError(ErrorClass.invalidSampleCatalog, `The sample table '${name.join('.')}' is declared, not computed: remove its query or flow.`, spanOf(statement));
        }
        const elements = statement.spec?.elements ?? [];
        const columnDefs = elements.filter(ast.isColumnDef);
        if (elements.some(e => !ast.isColumnDef(e) && !ast.isTableConstraint(e))) {
            throw new LoweringError(ErrorClass.invalidSampleCatalog, `Sample tables take no expectations; put them on the datasets that read '${name.join('.')}'.`, spanOf(statement, 'spec'));
        }
        const untyped = columnDefs.find(c => c.type === undefined);
        if (untyped) {
            throw new LoweringError(ErrorClass.invalidSampleCatalog, `The column '${untyped.name}' of the sample table '${name.join('.')}' needs a type.`, spanOf(untyped));
        }
        const using = statement.clauses.find(ast.isUsingClause);
        const location = statement.clauses.find(ast.isLocationClause);
        const table: CatalogTableIR = {
            name,
            format: catalogFormat(using?.format, location?.path, name, statement),
            options: {},
            span: spanOf(statement),
        };
        if (columnDefs.length > 0) {
            table.columns = columnDefs.map(c => this.column(c));
        }
        if (location) {
            table.location = this.parameters.substituteString(location.path);
        }
        for (const options of statement.clauses.filter(ast.isOptionsClause)) {
            for (const property of options.properties) {
                setOwn(table.options, property.key, property.value ?? 'true');
            }
        }
        return table;
    }

    //#endregion
}

function datasetKind(node: ast.Dataset): DatasetIR['kind'] {
    switch (node.$type) {
        case ast.CreateStreamingTable.$type:
            return 'streaming_table';
        case ast.CreateMaterializedView.$type:
            return 'materialized_view';
        case ast.CreateTable.$type:
            return 'managed_table';
        case ast.CreateView.$type:
            return node.temporary || node.live ? 'temporary_view' : 'view';
    }
}

const catalogFormats: ReadonlyMap<string, CatalogTableIR['format']> = new Map([['csv', 'csv'], ['json', 'json'], ['jsonl', 'json'], ['parquet', 'parquet']]);

function catalogFormat(using: string | undefined, location: string | undefined, name: string[], node: ast.CreateTable): CatalogTableIR['format'] {
    if (using !== undefined) {
        const format = catalogFormats.get(using.toLowerCase());
        if (!format) {
            throw new LoweringError(ErrorClass.invalidSampleCatalog,
                `Sample tables are read from CSV, JSON or PARQUET files, not ${using.toUpperCase()}.`, spanOf(node.clauses.find(ast.isUsingClause)!));
        }
        return format;
    }
    const extension = /\.([a-z]+)$/i.exec(location ?? '')?.[1]?.toLowerCase();
    const byExtension = extension ? catalogFormats.get(extension) : undefined;
    if (byExtension) {
        return byExtension;
    }
    throw new LoweringError(ErrorClass.invalidSampleCatalog, `Say how the sample table '${name.join('.')}' is stored: USING CSV, JSON or PARQUET.`, spanOf(node));
}

/** The words of an AUTO CDC clause, for messages; every STORED AS clause counts as the same clause. */
function clauseLabel(clause: ast.AutoCdcClause): string {
    return ast.isStoredAsClause(clause) ? 'STORED AS' : clauseName(clause);
}

/** A statement's kind in words, for messages (`UPDATE`, `CREATE SCHEMA`, `A query`). */
function describeStatement(statement: ast.Statement): string {
    switch (statement.$type) {
        case ast.InsertStatement.$type: return 'INSERT INTO outside CREATE FLOW';
        case ast.UpdateStatement.$type: return 'UPDATE';
        case ast.DeleteStatement.$type: return 'DELETE';
        case ast.MergeStatement.$type: return 'MERGE';
        case ast.DescribeHistoryStatement.$type: return 'DESCRIBE HISTORY';
        case ast.AlterOwner.$type: return `ALTER ${statement.kind}`;
        case ast.DropStatement.$type: return `DROP ${statement.kind}`;
        case ast.CreateNamespace.$type: return `CREATE ${statement.kind}`;
        case ast.Expectation.$type: return 'An expectation outside a dataset definition';
        case ast.Query.$type: return 'A query on its own';
        case ast.CreateStreamingTable.$type: return 'CREATE STREAMING TABLE';
        case ast.CreateMaterializedView.$type: return 'CREATE MATERIALIZED VIEW';
        case ast.CreateView.$type: return 'CREATE VIEW';
        case ast.CreateTable.$type: return 'CREATE TABLE';
        case ast.CreateFlow.$type: return 'CREATE FLOW';
        case ast.ApplyChanges.$type: return 'APPLY CHANGES';
        case ast.SetStatement.$type: return 'SET';
        case ast.UseStatement.$type: return 'USE';
    }
}

/**
 * The qualifiers an expectation of a dataset may write on a column (Spark keeps them through the
 * projection): the aliases and table names of the FROM items of its query's SELECT, and its own name.
 */
function passedQualifiers(dataset: ast.Dataset): Set<string> {
    const names = new Set<string>([dataset.name.split('.').at(-1)!.toLowerCase()]);
    const select = dataset.query?.body;
    const visit = (relation: ast.Relation | undefined): void => {
        if (ast.isJoinRelation(relation)) {
            visit(relation.left);
            visit(relation.right);
        } else if (ast.isTableReference(relation)) {
            names.add((relation.alias ?? relation.table?.ref.$refText.split('.').at(-1) ?? '').toLowerCase());
        } else if (relation && 'alias' in relation && typeof relation.alias === 'string') {
            names.add(relation.alias.toLowerCase());
        }
    };
    if (ast.isSelectQuery(select)) {
        select.from?.relations.forEach(visit);
    }
    names.delete('');
    return names;
}
