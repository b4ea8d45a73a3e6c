/**
 * Schema inference: the columns and Spark types of every dataset, query, FROM item and expression of
 * a pipeline, and the resolution of column names. Declared column lists win; a dataset without one
 * takes its query's columns, or, when flows feed it, the columns its flows write (AUTO CDC targets:
 * the source columns after COLUMNS / EXCEPT plus `__START_AT` / `__END_AT` for SCD type 2 and the
 * system-time columns for BITEMPORAL, typed like the sequencing expressions). Sources outside the
 * pipeline are typed by the sample catalog. Function results come from the built-in catalog.
 *
 * Where something is unknown (a table of the real catalog, a PIVOT, an unknown function) the result
 * says so (`complete: false`, type `unknown`), and name resolution answers `unknown` instead of
 * `missing`: the validator reports a missing column only when every relation in scope is fully known.
 */
import type { AstNode } from 'langium';
import { AstUtils, DocumentState, WorkspaceCache } from 'langium';
import {
    binaryOperatorType, commonSupertype, commonSupertypeOf, getFunction, inferOutputColumns, inferReturnType, isGenerator,
    lambdaParameterTypes, literalType, operandType, Types, type BinaryOperator, type CallArgument, type TypeDescriptor,
} from '../builtins/index.js';
import { CHANGE_FEED_COLUMNS } from '../builtins/table-read-options.js';
import { namespaceDefaultsAt } from '../references/pipeline-namespaces.js';
import * as ast from '../generated/ast.js';
import { closestNames, directFileRead, displayName, lower, splitName, type TableName } from '../references/dataset-names.js';
import type { PipelineSymbolIndex } from '../references/pipeline-symbol-index.js';
import { depthFirst } from '../pipeline/graph-walks.js';
import { changeFeedTable, functionName, scdKindOf, type FlowInfo, type PipelineModelService } from '../pipeline/pipeline-model.js';
import type { PipelineRegistry } from '../pipeline/pipeline-registry.js';
import type { SampleCatalog } from '../pipeline/sample-catalog.js';
import { dataTypeOf } from './data-types.js';
import { operatorChainTop } from '../parser/operator-chains.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import type { PipelinePython } from '../../project/python/python-lookup.js';
import type { PythonDatasetEntry } from '../../project/python/python-pipeline.js';
import { column, columnsOf, findColumn, MetadataColumn, relationOf, UnknownRelation, type Column, type RelationType } from './relation-type.js';

//#region Public types

/** A relation visible in a query scope: a FROM item with the qualifiers that name it. */
export interface ScopeEntry {
    /** Lower-case qualifiers that name it (`o` for `orders o`; `orders`, `sch.orders` … without alias). */
    readonly qualifiers: ReadonlyArray<readonly string[]>;
    readonly relation: RelationType;
    /** The FROM item. */
    readonly node?: AstNode;
    /** False for the right side of a semi / anti join, whose columns `*` does not list. */
    readonly inStar: boolean;
    /** Columns `*` skips because a USING / NATURAL join lists them once, from the left side. */
    readonly excludedFromStar?: ReadonlySet<string>;
    /** Only qualifies columns another entry lists too (an expectation's `f.col`): not named in messages. */
    readonly qualifiesOnly?: boolean;
}

/** The names visible at some point of a query. */
export interface ColumnScope {
    readonly entries: readonly ScopeEntry[];
    /** Select-list aliases visible here (lateral aliases, GROUP BY / ORDER BY / HAVING). */
    readonly aliases: readonly Column[];
    /** Lambda parameters visible here. */
    readonly lambdas: ReadonlyMap<string, TypeDescriptor>;
    /** The scope of the enclosing query (correlated references). */
    readonly parent?: ColumnScope;
    /** False when the scope cannot be listed completely (a source of unknown shape, a pipe operator). */
    readonly known: boolean;
}

/** What a column reference names. */
export type ColumnResolution =
    /** `rest`: the struct fields named after the column (`payload.amount` → ['amount']); `type` is the last one's. */
    | { readonly kind: 'column'; readonly column: Column; readonly type: TypeDescriptor; readonly entry?: ScopeEntry; readonly rest?: readonly string[] }
    | { readonly kind: 'alias'; readonly column: Column; readonly type: TypeDescriptor }
    | { readonly kind: 'lambda'; readonly type: TypeDescriptor }
    | { readonly kind: 'function'; readonly type: TypeDescriptor }
    /** Cannot tell: some relation in scope has columns nobody knows. */
    | { readonly kind: 'unknown' }
    /** Certainly not a column here: every relation in scope is fully known. */
    | { readonly kind: 'missing'; readonly name: string; readonly qualifier?: string; readonly candidates: readonly string[] };

/** A table outside the pipeline, as the sample catalog knows it. */
export interface ExternalSource {
    readonly name: TableName;
    readonly relation: RelationType;
    /** Where its sample data is, if found. */
    readonly location?: string;
    /** The data files of its sample data (a folder's in reading order). */
    readonly files?: readonly string[];
    /** Why its sample data cannot be read, if it cannot. */
    readonly problem?: string;
    /** The kind of that problem (`outside`: a read outside the pipeline, refused). */
    readonly problemKind?: string;
    /** Its sample data is still being read (language server): not known yet, and no problem. */
    readonly pending?: boolean;
    /** The dataset a Python file of the pipeline defines under this name, if one does. */
    readonly python?: PythonDatasetEntry;
}

/** SCD storage of an AUTO CDC flow. */
export type ScdKind = 1 | 2 | 'bitemporal';

/** The TypeComputer service (a Pipeline SQL service, `types.TypeComputer`). */
export interface TypeComputer {
    /** The output columns of a dataset (declared columns win), or of a sample catalog table. */
    datasetSchema(dataset: ast.Dataset): RelationType;
    /** The columns of what a dataset reference reads: a dataset, a CTE, a catalog table, sample files. */
    tableSchema(reference: ast.DatasetRef): RelationType;
    /** What the sample catalog knows about a table read by a name the pipeline does not define. */
    externalSource(reference: ast.DatasetRef): ExternalSource;
    /** The output columns of a query or query term. */
    querySchema(query: ast.Query | ast.QueryExpression): RelationType;
    /** The output columns of a FROM item (a table, a subquery, a join, a table function). */
    relationSchema(relation: ast.Relation): RelationType;
    /** The columns a flow writes into its target. */
    flowSchema(flow: FlowInfo): RelationType;
    /** The columns of an AUTO CDC flow's source (before COLUMNS / EXCEPT), or of a snapshot query. */
    cdcSourceSchema(spec: ast.AutoCdcSpec | ast.SnapshotSpec): RelationType;
    /** The SCD storage an AUTO CDC spec asks for (`STORED AS`, default SCD type 1). */
    scdKind(spec: ast.AutoCdcSpec | ast.SnapshotSpec): ScdKind;
    /** The Spark type of an expression; `unknown` when it cannot be inferred. */
    typeOf(expression: ast.Expression): TypeDescriptor;
    /** The type a DDL data type node stands for. */
    typeOfDataType(node: ast.DataType | undefined): TypeDescriptor;
    /** What a column reference names. */
    resolveColumn(reference: ast.ColumnReference): ColumnResolution;
    /** Resolves a column name written in a clause (`KEYS (a)`, `TRACK HISTORY ON b`) against a relation. */
    resolveName(name: string, relation: RelationType): ColumnResolution;
    /** The names visible at a node inside a query or clause (for completion), or undefined outside any. */
    scopeAt(node: AstNode): ColumnScope | undefined;
    /** The table a DML statement changes, as a scope entry under its alias or its name (its columns are those a statement assigns). */
    dmlTarget(statement: DmlStatement): ScopeEntry;
    /** A call's arguments as the function catalog's rules read them: their types, names and literal values. */
    callArguments(call: ast.FunctionCall): CallArgument[];
}

/** INSERT, UPDATE, DELETE and MERGE run on the local state (`pipeline-sql sql`, scratch files). */
export type DmlStatement = ast.InsertStatement | ast.UpdateStatement | ast.DeleteStatement | ast.MergeStatement;

//#endregion

/** Names Spark reads as function calls when written without parentheses. */
const niladicFunctions = new Set([
    'current_date', 'current_timestamp', 'current_time', 'current_user', 'session_user', 'user', 'current_catalog',
    'current_schema', 'current_database', 'localtimestamp', 'current_timezone',
]);

const comparisonOperators = new Set(['=', '==', '<>', '!=', '<', '<=', '>', '>=', '<=>']);

/** The default implementation of {@link TypeComputer}. */
export class PipelineSqlTypeComputer implements TypeComputer {

    private readonly registry: PipelineRegistry;
    private readonly symbols: PipelineSymbolIndex;
    private readonly model: PipelineModelService;
    private readonly samples: SampleCatalog;
    private readonly python: PipelinePython;
    private readonly relations: WorkspaceCache<AstNode, RelationType>;
    private readonly types: WorkspaceCache<AstNode, TypeDescriptor>;
    private readonly entries: WorkspaceCache<AstNode, readonly ScopeEntry[]>;
    private readonly inProgress = new Set<AstNode>();

    constructor(services: PipelineSqlServices) {
        const shared = services.shared;
        this.registry = services.pipeline.Registry;
        this.symbols = services.references.SymbolIndex;
        this.model = services.pipeline.Model;
        this.samples = services.pipeline.SampleCatalog;
        this.python = services.pipeline.Python;
        // Schemas follow references into other files, so they are valid for one linked workspace:
        // cleared on every update and whenever a (re)linking pass completes.
        this.relations = new WorkspaceCache(shared, DocumentState.Linked);
        this.types = new WorkspaceCache(shared, DocumentState.Linked);
        this.entries = new WorkspaceCache(shared, DocumentState.Linked);
        shared.workspace.DocumentBuilder.onUpdate(() => {
            this.relations.clear();
            this.types.clear();
            this.entries.clear();
        });
        this.registry.onDidChangeRoots(() => {
            this.relations.clear();
            this.types.clear();
            this.entries.clear();
        });
    }

    //#region Memoisation with cycle guard

    private memoRelation(node: AstNode, compute: () => RelationType): RelationType {
        const cached = this.relations.get(node);
        if (cached) {
            return cached;
        }
        if (this.inProgress.has(node)) {
            // A dataset that reads itself (a cycle the validator reports) or a query that needs its own
            // columns: unknown, and not cached, so that the outer computation decides.
            return UnknownRelation;
        }
        this.inProgress.add(node);
        try {
            const result = compute();
            this.relations.set(node, result);
            return result;
        } finally {
            this.inProgress.delete(node);
        }
    }

    //#endregion

    //#region Datasets and tables

    datasetSchema(dataset: ast.Dataset): RelationType {
        if (!this.relations.has(dataset) && !this.inProgress.has(dataset)) {
            this.computeUpstreamFirst(dataset);
        }
        return this.memoRelation(dataset, () => this.computeDatasetSchema(dataset));
    }

    /**
     * Computes the schemas of the datasets a dataset reads before its own, deepest first, by an
     * explicit walk: each then finds its inputs computed, so that a chain of thousands of datasets
     * needs no deep recursion. The datasets on the walk's path count as in progress, as they would
     * in a recursive computation (a cycle reads as unknown columns).
     */
    private computeUpstreamFirst(dataset: ast.Dataset): void {
        const start = this.model.datasetOf(dataset);
        if (!start) {
            return;
        }
        const model = this.model.modelFor(start.documentUri);
        depthFirst([start], d => model.upstreamOf(d), {
            skip: d => this.relations.has(d.node) || this.inProgress.has(d.node),
            enter: d => this.inProgress.add(d.node),
            leave: d => {
                this.inProgress.delete(d.node);
                if (d !== start) {
                    this.datasetSchema(d.node);
                }
            },
        });
    }

    private computeDatasetSchema(dataset: ast.Dataset): RelationType {
        const document = AstUtils.getDocument(dataset);
        const membership = this.registry.membershipOf(document.uri);
        if (membership.role === 'catalog' && ast.isCreateTable(dataset)) {
            return this.samples.catalogTable(membership.pipeline, dataset, this.symbols.parseName(membership.pipeline, dataset.name)).relation;
        }
        const columnDefs = (dataset.spec?.elements ?? []).filter(ast.isColumnDef);
        if (columnDefs.length > 0 && columnDefs.every(c => c.type)) {
            return relationOf(columnDefs.map(c => column(c.name, dataTypeOf(c.type) ?? Types.unknown, c, !c.properties.some(ast.isNotNullProperty))));
        }
        const info = this.model.datasetOf(dataset);
        const flows = info?.flows ?? [];
        let result: RelationType;
        if (flows.length > 0) {
            result = mergeFlowSchemas(flows.map(f => this.flowSchema(f)));
            if (flows.some(f => f.cdc || f.snapshot)) {
                result = systemColumnsLast(result);
            }
        } else if (dataset.query) {
            result = this.querySchema(dataset.query);
        } else {
            result = UnknownRelation;
        }
        // `CREATE VIEW v (a, b) AS ...` names the query's columns.
        if (columnDefs.length > 0) {
            result = renameColumns(result, columnDefs.map(c => c.name), columnDefs);
        }
        return result;
    }

    tableSchema(reference: ast.DatasetRef): RelationType {
        return this.memoRelation(reference, () => {
            const target = reference.ref.ref;
            if (ast.isCommonTableExpression(target)) {
                return this.cteSchema(target);
            }
            if (target && ast.isDataset(target)) {
                const schema = this.datasetSchema(target);
                return relationOf(schema.columns, schema.complete, [MetadataColumn]);
            }
            return this.externalSource(reference).relation;
        });
    }

    /**
     * What is known about a table the pipeline's SQL reads by a name no SQL file defines: a dataset
     * of its Python files (its `schema=` columns, else those of its sample data), or a source table
     * of the sample catalog.
     */
    externalSource(reference: ast.DatasetRef): ExternalSource {
        const pipeline = this.registry.pipelineOf(AstUtils.getDocument(reference).uri);
        const name = this.symbols.parseName(pipeline, writtenName(reference));
        if (directFileRead(writtenName(reference))) {
            // `` delta.`/path` `` reads files, not a table: nothing to find in the catalog.
            return { name, relation: UnknownRelation };
        }
        const found = this.samples.conventionTable(pipeline, name);
        const python = this.python.datasetFor(reference);
        const declared = python?.dataset.schema?.columns;
        const relation = declared ? relationOf(columnsOf(declared), true, [MetadataColumn]) : found?.relation ?? UnknownRelation;
        return { name, relation, location: found?.location, files: found?.files, problem: found?.problem, problemKind: found?.problemKind, pending: found?.pending, python };
    }

    private cteSchema(cte: ast.CommonTableExpression): RelationType {
        return this.memoRelation(cte, () => {
            const schema = cte.query ? this.querySchema(cte.query) : UnknownRelation;
            return cte.columns.length > 0 ? renameColumns(schema, cte.columns) : schema;
        });
    }

    flowSchema(flow: FlowInfo): RelationType {
        if (flow.cdc) {
            return this.cdcOutputSchema(flow.cdc);
        }
        if (flow.snapshot) {
            return this.snapshotOutputSchema(flow.snapshot);
        }
        return flow.query ? this.querySchema(flow.query) : UnknownRelation;
    }

    cdcSourceSchema(spec: ast.AutoCdcSpec | ast.SnapshotSpec): RelationType {
        if (ast.isSnapshotSpec(spec)) {
            if (spec.snapshotQuery) {
                return this.querySchema(spec.snapshotQuery);
            }
            return spec.snapshotTable ? this.tableSchema(spec.snapshotTable) : UnknownRelation;
        }
        const source = spec.source;
        if (source?.query) {
            return this.querySchema(source.query);
        }
        return source?.table ? this.tableSchema(source.table) : UnknownRelation;
    }

    scdKind(spec: ast.AutoCdcSpec | ast.SnapshotSpec): ScdKind {
        return scdKindOf(spec);
    }

    private cdcOutputSchema(spec: ast.AutoCdcSpec): RelationType {
        return this.memoRelation(spec, () => {
            const source = this.cdcSourceSchema(spec);
            const selection = spec.clauses.find(ast.isColumnsClause)?.columns;
            let result = selectColumns(source, selection);
            const scd = this.scdKind(spec);
            if (scd !== 1) {
                const sequence = spec.clauses.find(ast.isSequenceByClause)?.expression;
                const sequenceType = sequence ? this.typeOf(sequence) : Types.unknown;
                const extra = [column('__START_AT', sequenceType), column('__END_AT', sequenceType)];
                if (scd === 'bitemporal') {
                    const system = spec.clauses.find(ast.isSystemSequenceByClause)?.expression;
                    const systemType = system ? this.typeOf(system) : Types.unknown;
                    extra.push(column('__SYSTEM_START_AT', systemType), column('__SYSTEM_END_AT', systemType));
                }
                result = relationOf([...result.columns.filter(c => !extra.some(e => sameName(e.name, c.name))), ...extra], result.complete);
            }
            return result;
        });
    }

    private snapshotOutputSchema(spec: ast.SnapshotSpec): RelationType {
        return this.memoRelation(spec, () => {
            const source = this.cdcSourceSchema(spec);
            if (this.scdKind(spec) !== 2) {
                return source;
            }
            const versionType = spec.versionQuery ? (this.querySchema(spec.versionQuery).columns[0]?.type ?? Types.unknown) : Types.timestamp;
            return relationOf([...source.columns, column('__START_AT', versionType), column('__END_AT', versionType)], source.complete);
        });
    }

    //#endregion

    //#region Queries

    querySchema(query: ast.Query | ast.QueryExpression): RelationType {
        return this.memoRelation(query, () => {
            if (ast.isQuery(query)) {
                return query.body ? this.querySchema(query.body) : UnknownRelation;
            }
            switch (query.$type) {
                case ast.SelectQuery.$type: return this.selectSchema(query as ast.SelectQuery);
                case ast.ParenthesizedQuery.$type: {
                    const inner = (query as ast.ParenthesizedQuery).query;
                    return inner ? this.querySchema(inner) : UnknownRelation;
                }
                case ast.TableQuery.$type: {
                    const table = (query as ast.TableQuery).table;
                    return table ? stripHidden(this.tableSchema(table)) : UnknownRelation;
                }
                case ast.ValuesRelation.$type: return this.valuesSchema(query as ast.ValuesRelation);
                case ast.SetOperation.$type: return this.setOperationSchema(query as ast.SetOperation);
                case ast.PipeQuery.$type: return this.pipeSchema(query as ast.PipeQuery);
                default: return UnknownRelation;
            }
        });
    }

    private setOperationSchema(operation: ast.SetOperation): RelationType {
        const left = operation.left ? this.querySchema(operation.left) : UnknownRelation;
        const right = operation.right ? this.querySchema(operation.right) : UnknownRelation;
        if (!left.complete || !right.complete || left.columns.length !== right.columns.length) {
            return relationOf(left.columns, false);
        }
        return relationOf(left.columns.map((c, i) => column(c.name, commonSupertype(c.type, right.columns[i].type) ?? c.type, c.node)));
    }

    private valuesSchema(values: ast.ValuesRelation): RelationType {
        const rows = values.rows.map(r => (ast.isTupleExpression(r) ? r.elements : [r]));
        const width = Math.max(0, ...rows.map(r => r.length));
        const columns: Column[] = [];
        for (let i = 0; i < width; i++) {
            const type = commonSupertypeOf(rows.map(r => (r[i] ? this.typeOf(r[i]) : Types.void))) ?? Types.unknown;
            columns.push(column(values.columnAliases[i] ?? `col${i + 1}`, type.kind === 'void' ? Types.void : type));
        }
        return relationOf(columns);
    }

    private pipeSchema(pipe: ast.PipeQuery): RelationType {
        const input = pipe.input ? this.querySchema(pipe.input) : UnknownRelation;
        const operation = pipe.operation;
        switch (operation?.$type) {
            case ast.PipeWhere.$type:
            case ast.PipeOrganization.$type:
            case ast.PipeSample.$type:
            case ast.PipeAs.$type:
            case ast.PipeSet.$type:
                return input;
            case ast.PipeDrop.$type: {
                const dropped = new Set((operation as ast.PipeDrop).columns.map(lower));
                return relationOf(input.columns.filter(c => !dropped.has(c.name.toLowerCase())), input.complete);
            }
            case ast.PipeSelect.$type:
                return this.itemsSchema((operation as ast.PipeSelect).items, this.pipeEntries(pipe));
            case ast.PipeExtend.$type: {
                const extra = this.itemsSchema((operation as ast.PipeExtend).items, this.pipeEntries(pipe));
                return relationOf([...input.columns, ...extra.columns], input.complete && extra.complete);
            }
            default:
                return UnknownRelation;
        }
    }

    private pipeEntries(pipe: ast.PipeQuery): ScopeEntry[] {
        const input = pipe.input ? this.querySchema(pipe.input) : UnknownRelation;
        return [{ qualifiers: [], relation: input, inStar: true, node: pipe.input }];
    }

    private selectSchema(select: ast.SelectQuery): RelationType {
        const entries = this.fromEntries(select);
        if (select.items.length === 0) {
            // A bare `FROM t` (the start of a pipe query) is `SELECT *`.
            return this.starColumns(undefined, entries);
        }
        return this.itemsSchema(select.items, entries);
    }

    private itemsSchema(items: readonly ast.SelectItem[], entries: readonly ScopeEntry[]): RelationType {
        const columns: Column[] = [];
        let complete = true;
        for (const item of items) {
            const expression = item.expression;
            if (ast.isStar(expression)) {
                const expanded = this.starColumns(expression, entries);
                columns.push(...expanded.columns);
                complete &&= expanded.complete;
                continue;
            }
            if (ast.isFunctionCall(expression) && isGenerator(functionName(expression))) {
                const outputs = inferOutputColumns(functionName(expression), this.callArguments(expression));
                if (!outputs) {
                    complete = false;
                    continue;
                }
                const names = item.aliases.length > 0 ? item.aliases : item.alias ? [item.alias] : outputs.map(o => o.name);
                outputs.forEach((o, i) => columns.push(column(names[i] ?? o.name, o.type, item)));
                continue;
            }
            if (!expression) {
                complete = false;
                continue;
            }
            columns.push(column(item.alias ?? item.aliases[0] ?? derivedName(expression, reference => this.qualifierLength(reference)), this.typeOf(expression), item));
        }
        return relationOf(columns, complete);
    }

    private starColumns(star: ast.Star | undefined, entries: readonly ScopeEntry[]): RelationType {
        const qualifier = star?.qualifier.map(lower) ?? [];
        const chosen = qualifier.length > 0
            ? entries.filter(e => e.qualifiers.some(q => sameParts(q, qualifier)))
            : entries.filter(e => e.inStar);
        const excluded = new Set((star?.except ?? []).map(lower));
        if (qualifier.length > 0 && chosen.length === 0) {
            // `info.*` / `t.info.*` over a STRUCT column: its fields, as Spark expands them.
            const resolved = star ? this.resolveParts(star.qualifier, makeScope(entries, [], new Map(), undefined)) : undefined;
            if ((resolved?.kind === 'column' || resolved?.kind === 'alias') && resolved.type.kind === 'struct') {
                return relationOf(resolved.type.fields.filter(f => !excluded.has(f.name.toLowerCase())).map(f => column(f.name, f.type, star)));
            }
            return UnknownRelation;
        }
        const columns: Column[] = [];
        let complete = true;
        for (const entry of chosen) {
            complete &&= entry.relation.complete;
            for (const c of entry.relation.columns) {
                const key = c.name.toLowerCase();
                if (!excluded.has(key) && !(qualifier.length === 0 && entry.excludedFromStar?.has(key))) {
                    columns.push(c);
                }
            }
        }
        return relationOf(columns, complete);
    }

    //#endregion

    //#region FROM items

    relationSchema(relation: ast.Relation): RelationType {
        return this.memoRelation(relation, () => {
            const entries = this.relationEntries(relation);
            if (entries.length === 1) {
                return entries[0].relation;
            }
            return this.starColumns(undefined, entries);
        });
    }

    /** The FROM items of a SELECT as scope entries (joins flattened, lateral views appended). */
    private fromEntries(select: ast.SelectQuery): readonly ScopeEntry[] {
        return this.entries.get(select, () => {
            const entries: ScopeEntry[] = [];
            for (const relation of select.from?.relations ?? []) {
                entries.push(...this.relationEntries(relation));
            }
            for (const lateral of select.from?.lateralViews ?? []) {
                entries.push(this.lateralViewEntry(lateral));
            }
            return entries;
        });
    }

    private relationEntries(relation: ast.Relation): ScopeEntry[] {
        switch (relation.$type) {
            case ast.TableReference.$type: {
                const table = relation as ast.TableReference;
                if (!table.table) {
                    return [opaqueEntry(relation)];
                }
                const read = this.tableSchema(table.table);
                const schema = renameColumns(readsChangeFeed(table) ? withChangeFeedColumns(read) : read, table.columnAliases);
                return [{ qualifiers: table.alias ? [[table.alias.toLowerCase()]] : tableQualifiers(table.table), relation: schema, node: relation, inStar: true }];
            }
            case ast.TableFunctionCall.$type: {
                const call = relation as ast.TableFunctionCall;
                const schema = renameColumns(this.tableFunctionSchema(call), call.columnAliases);
                return [{ qualifiers: call.alias ? [[call.alias.toLowerCase()]] : [[functionName(call)]], relation: schema, node: relation, inStar: true }];
            }
            case ast.SubqueryRelation.$type: {
                const subquery = relation as ast.SubqueryRelation;
                const schema = renameColumns(subquery.query ? this.querySchema(subquery.query) : UnknownRelation, subquery.columnAliases);
                return [{ qualifiers: subquery.alias ? [[subquery.alias.toLowerCase()]] : [], relation: schema, node: relation, inStar: true }];
            }
            case ast.ValuesRelation.$type: {
                const values = relation as ast.ValuesRelation;
                return [{ qualifiers: values.alias ? [[values.alias.toLowerCase()]] : [], relation: this.valuesSchema(values), node: relation, inStar: true }];
            }
            case ast.ParenthesizedRelation.$type: {
                const parenthesized = relation as ast.ParenthesizedRelation;
                const inner = parenthesized.relation ? this.relationEntries(parenthesized.relation) : [opaqueEntry(relation)];
                if (!parenthesized.alias) {
                    return inner;
                }
                const merged = renameColumns(this.starColumns(undefined, inner), parenthesized.columnAliases);
                return [{ qualifiers: [[parenthesized.alias.toLowerCase()]], relation: merged, node: relation, inStar: true }];
            }
            case ast.JoinRelation.$type: {
                const join = relation as ast.JoinRelation;
                const left = join.left ? this.relationEntries(join.left) : [];
                let right = join.right ? this.relationEntries(join.right) : [];
                const semi = join.joinType === 'LEFT SEMI' || join.joinType === 'LEFT ANTI';
                let shared: string[] = join.using.map(lower);
                if (join.natural) {
                    const leftNames = new Set(left.flatMap(e => e.relation.columns.map(c => c.name.toLowerCase())));
                    shared = right.flatMap(e => e.relation.columns.map(c => c.name.toLowerCase())).filter(n => leftNames.has(n));
                }
                if (semi || shared.length > 0) {
                    const excluded = new Set(shared);
                    right = right.map(e => ({ ...e, inStar: e.inStar && !semi, excludedFromStar: excluded }));
                }
                return [...left, ...right];
            }
            case ast.UnpivotRelation.$type: {
                const unpivot = relation as ast.UnpivotRelation;
                const schema = unpivot.columnAliases.length === 0 ? this.unpivotSchema(unpivot) : UnknownRelation;
                return [{ qualifiers: unpivot.alias ? [[unpivot.alias.toLowerCase()]] : [], relation: schema, node: relation, inStar: true }];
            }
            default: {
                const alias = (relation as { alias?: string }).alias;
                return [{ qualifiers: alias ? [[alias.toLowerCase()]] : [], relation: UnknownRelation, node: relation, inStar: true }];
            }
        }
    }

    /**
     * `input UNPIVOT (value FOR name IN (a, b, ...))`: the input's other columns, then the name column
     * (STRING) and the value column, typed to hold every unpivoted column (Spark's order and types).
     * Unknown for column groups (several value columns), as they do not run locally either.
     */
    private unpivotSchema(unpivot: ast.UnpivotRelation): RelationType {
        const clause = unpivot.unpivot;
        const input = this.starColumns(undefined, this.relationEntries(unpivot.input));
        if (clause.valueColumns.length !== 1 || clause.columns.some(c => c.columns.length !== 1)) {
            return UnknownRelation;
        }
        const unpivoted = clause.columns.map(c => findColumn(input, c.columns[0]));
        const names = new Set(clause.columns.map(c => lower(c.columns[0])));
        const valueType = unpivoted.every(c => c !== undefined) ? commonSupertypeOf(unpivoted.map(c => c!.type)) ?? Types.unknown : Types.unknown;
        return relationOf([
            ...input.columns.filter(c => !names.has(c.name.toLowerCase())),
            column(clause.nameColumn, Types.string, clause),
            column(clause.valueColumns[0], valueType, clause),
        ], input.complete);
    }

    private lateralViewEntry(lateral: ast.LateralView): ScopeEntry {
        const generator = lateral.generator;
        const outputs = generator ? inferOutputColumns(functionName(generator), this.callArguments(generator)) : undefined;
        const relation = outputs
            ? relationOf(outputs.map((o, i) => column(lateral.columns[i] ?? o.name, o.type, lateral)))
            : lateral.columns.length > 0 ? relationOf(lateral.columns.map(c => column(c, Types.unknown, lateral))) : UnknownRelation;
        return { qualifiers: lateral.alias ? [[lateral.alias.toLowerCase()]] : [], relation, node: lateral, inStar: true };
    }

    private tableFunctionSchema(call: ast.TableFunctionCall): RelationType {
        return this.memoRelation(call, () => {
            const name = functionName(call);
            const pipeline = this.registry.pipelineOf(AstUtils.getDocument(call).uri);
            switch (name) {
                case 'read_files':
                case 'cloud_files':
                case 'read_kafka':
                case 'read_kinesis':
                case 'read_pubsub':
                case 'read_pulsar':
                    return this.samples.readFiles(pipeline, call, name).relation;
                case 'current_snapshot_version':
                case 'last_snapshot_version':
                    return this.snapshotVersionRelation(call);
                case 'table_changes':
                    return this.tableChangesRelation(call);
                default: {
                    if (!getFunction(name)) {
                        return UnknownRelation;
                    }
                    const args = call.args.map(a => (ast.isTableArgument(a.value) ? { type: Types.unknown } : this.argument(a.value, a.alias)));
                    const outputs = inferOutputColumns(name, args);
                    return outputs ? relationOf(outputs.map(o => column(o.name, o.type, call))) : UnknownRelation;
                }
            }
        });
    }

    /** `table_changes('t', ...)`: the columns of the dataset `t` plus the change data feed's three. */
    private tableChangesRelation(call: ast.TableFunctionCall): RelationType {
        const first = changeFeedTable(call);
        if (!first) {
            return UnknownRelation;
        }
        const pipeline = this.registry.pipelineOf(AstUtils.getDocument(call).uri);
        const name = this.symbols.parseName(pipeline, first.value);
        const dataset = name.parts.length > 0 ? this.symbols.findDatasets(pipeline, name, namespaceDefaultsAt(call, pipeline.spec))[0] : undefined;
        return dataset ? withChangeFeedColumns(this.datasetSchema(dataset.node)) : UnknownRelation;
    }

    /** `current_snapshot_version()` / `last_snapshot_version()`: one column named and typed like the version query's. */
    private snapshotVersionRelation(call: ast.TableFunctionCall): RelationType {
        const spec = AstUtils.getContainerOfType(call, ast.isSnapshotSpec);
        if (!spec?.versionQuery) {
            return UnknownRelation;
        }
        const version = this.querySchema(spec.versionQuery);
        return version.columns.length > 0 ? relationOf([version.columns[0]]) : UnknownRelation;
    }

    //#endregion

    //#region Scopes and name resolution

    scopeAt(node: AstNode): ColumnScope | undefined {
        const lambdas = new Map<string, TypeDescriptor>();
        // Inside `a + b + ...` every operand sees what the whole chain sees.
        let child: AstNode = operatorChainTop(node);
        let current = child.$container;
        while (current && !ast.isPipelineFile(current)) {
            if (ast.isLambda(current) && child === current.body) {
                const types = this.lambdaTypes(current);
                current.parameters.forEach((p, i) => lambdas.set(lower(p), types[i] ?? Types.unknown));
            } else if (ast.isSelectQuery(current)) {
                const entries = child === current.from || child === current.where || child === current.groupBy
                    ? this.fromEntries(current) : this.aggregateEntries(current);
                const aliases = child === current.from ? [] : this.selectAliases(current, child);
                return makeScope(entries, aliases, lambdas, this.scopeAt(current));
            } else if (ast.isQuery(current) && child !== current.body && !ast.isCommonTableExpression(child)) {
                // ORDER BY, CLUSTER BY, LIMIT … of a query: its output columns and, for a plain SELECT,
                // the FROM columns too.
                const body = current.body;
                const output = body ? this.querySchema(body) : UnknownRelation;
                const entries = ast.isSelectQuery(body) ? this.aggregateEntries(body) : [{ qualifiers: [], relation: output, inStar: true }];
                return makeScope(entries, output.columns, lambdas, this.scopeAt(current));
            } else if (ast.isPipeQuery(current) && child === current.operation) {
                return makeScope(this.pipeEntries(current), [], lambdas, this.scopeAt(current), true);
            } else if (ast.isAutoCdcSpec(current) && child !== current.source && child !== current.keys) {
                return makeScope([{ qualifiers: [], relation: this.cdcSourceSchema(current), inStar: true }], [], lambdas, undefined);
            } else if (ast.isExpectation(current) || (ast.isColumnProperty(current) && ast.isColumnDef(current.$container))) {
                const dataset = AstUtils.getContainerOfType(current, ast.isDataset);
                if (!dataset) {
                    return undefined;
                }
                return makeScope([
                    { qualifiers: [[lower(dataset.name)]], relation: this.expectationRelation(dataset), inStar: true },
                    ...this.qualifiedOutputEntries(dataset),
                ], [], lambdas, undefined);
            } else if ((ast.isUpdateStatement(current) || ast.isDeleteStatement(current)) && child !== current.target) {
                // `UPDATE t SET … WHERE …`, `DELETE FROM t WHERE …`: the target's columns.
                return makeScope([this.dmlTarget(current)], [], lambdas, undefined);
            } else if (ast.isMergeStatement(current) && child !== current.target && child !== current.source) {
                // As Spark resolves them: ON and WHEN MATCHED see the target and the source, WHEN NOT
                // MATCHED [BY TARGET] (a source row without target row) only the source, WHEN NOT MATCHED
                // BY SOURCE (a target row without source row) only the target.
                const source = current.source ? this.relationEntries(current.source) : [];
                const clause = ast.isMergeClause(child) ? child : undefined;
                const entries = clause?.bySource ? [this.dmlTarget(current)] : clause?.not ? source : [this.dmlTarget(current), ...source];
                return makeScope(entries, [], lambdas, undefined);
            } else if (ast.isSnapshotSpec(current)) {
                // Only its queries have scopes (found above); its clauses do not belong there.
                return undefined;
            }
            child = current;
            current = current.$container;
        }
        return undefined;
    }

    dmlTarget(statement: DmlStatement): ScopeEntry {
        const relation = statement.target ? this.tableSchema(statement.target) : UnknownRelation;
        const alias = ast.isInsertStatement(statement) ? undefined : statement.alias;
        const qualifiers = alias ? [[alias.toLowerCase()]] : statement.target ? tableQualifiers(statement.target) : [];
        return { qualifiers, relation, node: statement, inStar: true };
    }

    /**
     * Expectations check the rows a dataset's flows write: its query's columns (which may include
     * columns the declared list leaves out), else its schema.
     */
    private expectationRelation(dataset: ast.Dataset): RelationType {
        const schema = this.datasetSchema(dataset);
        const query = dataset.query ? this.querySchema(dataset.query) : undefined;
        if (!query) {
            return schema;
        }
        const extra = query.columns.filter(c => !findColumn(schema, c.name));
        return relationOf([...schema.columns, ...extra], schema.complete && query.complete);
    }

    /**
     * Expectations run over the rows of the dataset's query, and Spark keeps the qualifier of a column
     * that the select list passes through (`f.user_id`, `f.*` over `FROM raw f`), so an expectation may
     * write `f.user_id`. One entry per FROM item of the query, with the columns that keep its qualifiers.
     */
    private qualifiedOutputEntries(dataset: ast.Dataset): ScopeEntry[] {
        const select = dataset.query?.body;
        if (!ast.isSelectQuery(select)) {
            return [];
        }
        const entries = this.fromEntries(select);
        const passed = new Map<ScopeEntry, Column[]>();
        // A `f.*` over a source of unknown shape passes columns nobody can list.
        const unlisted = new Set<ScopeEntry>();
        const add = (entry: ScopeEntry, columns: readonly Column[]): void => {
            passed.set(entry, [...(passed.get(entry) ?? []), ...columns]);
        };
        for (const item of select.items) {
            const expression = item.expression;
            if (ast.isStar(expression)) {
                const qualifier = expression.qualifier.map(lower);
                const excluded = new Set(expression.except.map(lower));
                for (const entry of entries.filter(e => (qualifier.length > 0 ? e.qualifiers.some(q => sameParts(q, qualifier)) : e.inStar))) {
                    add(entry, entry.relation.columns.filter(c => !excluded.has(c.name.toLowerCase())));
                    if (!entry.relation.complete) {
                        unlisted.add(entry);
                    }
                }
            } else if (ast.isColumnReference(expression) && !item.alias && item.aliases.length === 0) {
                const resolution = this.resolveColumn(expression);
                const name = expression.parts.at(-1);
                if (resolution.kind === 'column' && resolution.entry && sameName(resolution.column.name, name)) {
                    add(resolution.entry, [resolution.column]);
                } else if (resolution.kind === 'unknown' && name !== undefined && expression.parts.length > 1) {
                    // `f.id` over a table of unknown shape: the qualifier still names its FROM item.
                    const qualifier = expression.parts.slice(0, -1).map(lower);
                    const entry = entries.find(e => e.qualifiers.some(q => sameParts(q, qualifier)));
                    if (entry) {
                        add(entry, [column(name, Types.unknown, item)]);
                    }
                }
            }
        }
        return [...passed].filter(([entry]) => entry.qualifiers.length > 0)
            .map(([entry, columns]) => ({
                qualifiers: entry.qualifiers, relation: relationOf(columns, !unlisted.has(entry)), node: entry.node, inStar: false, qualifiesOnly: true,
            }));
    }

    /**
     * The FROM items of a SELECT as its select list, HAVING and ORDER BY see them: with the column a
     * `GROUP BY window(...)` / `session_window(...)` adds (`window` / `session_window`, a struct of
     * `start` and `end`), as Spark's time-window rules put it under the aggregate.
     */
    private aggregateEntries(select: ast.SelectQuery): readonly ScopeEntry[] {
        const entries = this.fromEntries(select);
        const windows = (select.groupBy?.items ?? []).filter((i): i is ast.FunctionCall => ast.isFunctionCall(i) && timeWindowColumn(i) !== undefined);
        if (windows.length === 0) {
            return entries;
        }
        return [...entries, ...windows.map(call => ({
            qualifiers: [], relation: relationOf([column(timeWindowColumn(call)!, this.typeOf(call), call)]), node: call, inStar: false,
        }))];
    }

    private selectAliases(select: ast.SelectQuery, child: AstNode): Column[] {
        const aliases: Column[] = [];
        for (const item of select.items) {
            if (item === child) {
                // A select item sees the aliases before it (lateral column aliases), not its own.
                break;
            }
            const name = item.alias ?? item.aliases[0];
            if (name && item.expression && !this.inProgress.has(item.expression)) {
                aliases.push(column(name, this.typeOf(item.expression), item));
            }
        }
        return aliases;
    }

    private lambdaTypes(lambda: ast.Lambda): TypeDescriptor[] {
        const argument = lambda.$container;
        const call = argument?.$container;
        if (!ast.isFunctionArgument(argument) || !ast.isFunctionCall(call)) {
            return [];
        }
        const index = call.args.indexOf(argument);
        // The parameters' types come from the other, non-lambda arguments (a lambda's body may read them).
        const args = call.args.map(a => (a === argument || ast.isTableArgument(a.value) || ast.isLambda(a.value) ? { type: Types.unknown } : this.argument(a.value, a.alias)));
        return lambdaParameterTypes(functionName(call), args, index);
    }

    /** How many leading parts of a column reference name its relation (`e.user.name`: 1), not a struct path. */
    private qualifierLength(reference: ast.ColumnReference): number {
        const scope = this.scopeAt(reference);
        const found = scope ? lookup(reference.parts, scope) : undefined;
        if (found?.kind === 'column' || found?.kind === 'alias') {
            return reference.parts.length - 1 - found.rest.length;
        }
        // A relation of unknown columns: its qualifier, when one names it.
        const keys = reference.parts.map(lower);
        for (let q = Math.min(keys.length - 1, 3); q >= 1 && scope; q--) {
            if (scope.entries.some(e => e.qualifiers.some(x => sameParts(x, keys.slice(0, q))))) {
                return q;
            }
        }
        return 0;
    }

    resolveColumn(reference: ast.ColumnReference): ColumnResolution {
        const scope = this.scopeAt(reference);
        if (!scope || reference.parts.length === 0 || isDatetimeUnitArgument(reference)) {
            return { kind: 'unknown' };
        }
        return this.resolveParts(reference.parts, scope);
    }

    resolveName(name: string, relation: RelationType): ColumnResolution {
        return this.resolveParts([name], makeScope([{ qualifiers: [], relation, inStar: true }], [], new Map(), undefined));
    }

    private resolveParts(parts: readonly string[], scope: ColumnScope): ColumnResolution {
        const found = lookup(parts, scope);
        if (found) {
            if (found.kind === 'column' || found.kind === 'alias') {
                return { ...found, type: fieldPathType(found.column.type, found.rest) };
            }
            return found;
        }
        const first = lower(parts[0]);
        if (parts.length === 1 && niladicFunctions.has(first)) {
            return { kind: 'function', type: inferReturnType(first, []) };
        }
        if (!scope.known || parts.some(p => p.includes('${'))) {
            return { kind: 'unknown' };
        }
        const qualified = qualifiedMiss(parts, scope);
        const name = qualified?.name ?? parts[0];
        // Suggestions are computed only when asked for (type inference resolves names too).
        let candidates: string[] | undefined;
        return {
            kind: 'missing', name, ...(qualified ? { qualifier: qualified.qualifier } : {}),
            get candidates(): string[] {
                candidates ??= closestNames(name, visibleNames(scope, qualified?.entry));
                return candidates;
            },
        };
    }

    //#endregion

    //#region Expressions

    typeOfDataType(node: ast.DataType | undefined): TypeDescriptor {
        return dataTypeOf(node) ?? Types.unknown;
    }

    typeOf(expression: ast.Expression): TypeDescriptor {
        const cached = this.types.get(expression);
        if (cached) {
            return cached;
        }
        if (this.inProgress.has(expression)) {
            return Types.unknown;
        }
        if (ast.isBinaryExpression(expression)) {
            // A long left-associative chain (`a + b + ... + z`) is a tree as deep as it is long: type its
            // left spine bottom-up first, so that each step below finds its left operand typed.
            const spine: ast.BinaryExpression[] = [];
            for (let left = expression.left; ast.isBinaryExpression(left) && !this.types.has(left) && !this.inProgress.has(left); left = left.left) {
                spine.push(left);
            }
            for (let i = spine.length - 1; i >= 0; i--) {
                this.typeOf(spine[i]);
            }
        }
        this.inProgress.add(expression);
        try {
            const type = this.computeType(expression);
            this.types.set(expression, type);
            return type;
        } finally {
            this.inProgress.delete(expression);
        }
    }

    private computeType(e: ast.Expression): TypeDescriptor {
        switch (e.$type) {
            case ast.NumberLiteral.$type:
                return literalType((e as ast.NumberLiteral).value) ?? Types.unknown;
            case ast.StringLiteral.$type:
                return Types.string;
            case ast.BooleanLiteral.$type:
                return Types.boolean;
            case ast.NullLiteral.$type:
                return Types.void;
            case ast.BinaryLiteral.$type:
                return Types.binary;
            case ast.TypedLiteral.$type:
                return literalType(`${(e as ast.TypedLiteral).type} ''`) ?? Types.unknown;
            case ast.IntervalLiteral.$type:
                // The first element of a tuple shares its CST node with the opening parenthesis.
                return literalType((e.$cstNode?.text ?? '').replace(/^\(\s*/, '')) ?? Types.unknown;
            case ast.ColumnReference.$type: {
                const resolution = this.resolveColumn(e as ast.ColumnReference);
                return 'type' in resolution ? resolution.type : Types.unknown;
            }
            case ast.FunctionCall.$type: {
                const call = e as ast.FunctionCall;
                const name = functionName(call);
                if (!getFunction(name)) {
                    return Types.unknown;
                }
                return inferReturnType(name, this.callArguments(call));
            }
            case ast.BinaryExpression.$type: {
                const binary = e as ast.BinaryExpression;
                const op = String(binary.operator).toLowerCase();
                if (op === 'and' || op === 'or' || comparisonOperators.has(op)) {
                    return Types.boolean;
                }
                const left = binary.left ? this.typeOf(binary.left) : Types.unknown;
                const right = binary.right ? this.typeOf(binary.right) : Types.unknown;
                // An integer literal next to a decimal is typed by its digits (`amount * 2`).
                const literalText = (x: ast.Expression | undefined): string | undefined => (ast.isNumberLiteral(x) ? x.value : undefined);
                return binaryOperatorType(op as BinaryOperator, operandType(left, right, literalText(binary.left)), operandType(right, left, literalText(binary.right)))
                    ?? Types.unknown;
            }
            case ast.UnaryExpression.$type: {
                const unary = e as ast.UnaryExpression;
                if (unary.operator === 'NOT' || unary.operator === '!') {
                    return Types.boolean;
                }
                return unary.operand ? this.typeOf(unary.operand) : Types.unknown;
            }
            case ast.BetweenExpression.$type:
            case ast.InExpression.$type:
            case ast.LikeExpression.$type:
            case ast.IsExpression.$type:
            case ast.ExistsExpression.$type:
                return Types.boolean;
            case ast.CaseExpression.$type: {
                const c = e as ast.CaseExpression;
                const results = [...c.whens.map(w => w.result), ...(c.otherwise ? [c.otherwise] : [])].filter(r => r !== undefined);
                const types = results.map(r => this.typeOf(r));
                if (types.some(t => t.kind === 'unknown')) {
                    return Types.unknown;
                }
                return commonSupertypeOf(types) ?? Types.unknown;
            }
            case ast.CastExpression.$type:
                return this.typeOfDataType((e as ast.CastExpression).type);
            case ast.ExtractExpression.$type:
                return (e as ast.ExtractExpression).field?.toLowerCase().startsWith('sec') ? Types.decimal(8, 6) : Types.int;
            case ast.PositionExpression.$type:
                return Types.int;
            case ast.TrimExpression.$type:
            case ast.OverlayExpression.$type:
                return Types.string;
            case ast.SubstringExpression.$type: {
                const s = (e as ast.SubstringExpression).string;
                return s && this.typeOf(s).kind === 'binary' ? Types.binary : Types.string;
            }
            case ast.SubqueryExpression.$type: {
                const q = (e as ast.SubqueryExpression).query;
                return (q ? this.querySchema(q).columns[0]?.type : undefined) ?? Types.unknown;
            }
            case ast.TupleExpression.$type:
                return Types.struct((e as ast.TupleExpression).elements.map((x, i) => [`col${i + 1}`, this.typeOf(x)] as const));
            case ast.StructFieldAccess.$type: {
                const access = e as ast.StructFieldAccess;
                return access.receiver ? fieldPathType(this.typeOf(access.receiver), [access.field]) : Types.unknown;
            }
            case ast.Subscript.$type: {
                const receiver = (e as ast.Subscript).receiver;
                const type = receiver ? this.typeOf(receiver) : Types.unknown;
                return type.kind === 'array' ? type.element : type.kind === 'map' ? type.value : type.kind === 'variant' ? Types.variant : Types.unknown;
            }
            case ast.JsonPath.$type: {
                const base = (e as ast.JsonPath).base;
                const type = base ? this.typeOf(base) : Types.unknown;
                return type.kind === 'variant' ? Types.variant : type.kind === 'string' ? Types.string : Types.unknown;
            }
            default:
                return Types.unknown;
        }
    }

    /** The arguments of a call as the function catalog sees them: types, output names, constant values. */
    callArguments(call: ast.FunctionCall): CallArgument[] {
        return call.args.map(a => (ast.isTableArgument(a.value) ? { type: Types.unknown } : this.argument(a.value, a.alias)));
    }

    private argument(value: ast.Expression | undefined, alias: string | undefined): CallArgument {
        if (!value) {
            return { type: Types.unknown };
        }
        if (ast.isStar(value)) {
            return { type: Types.unknown };
        }
        if (ast.isLambda(value)) {
            // The catalog types a lambda argument by its body (`transform(tags, x -> upper(x))` is array<string>).
            return { type: this.typeOf(value.body) };
        }
        const type = this.typeOf(value);
        const name = alias ?? (ast.isColumnReference(value) ? value.parts.at(-1) : ast.isStructFieldAccess(value) ? value.field : undefined);
        const literal = ast.isStringLiteral(value) ? value.value
            : ast.isNumberLiteral(value) ? Number(value.value.replace(/[a-z]+$/i, ''))
                : ast.isBooleanLiteral(value) ? value.value
                    : ast.isNullLiteral(value) ? null : undefined;
        const argument: CallArgument = { type, ...(name !== undefined ? { name } : {}), ...(literal !== undefined ? { literal } : {}) };
        return argument;
    }

    //#endregion
}

//#region Helpers

/** The column a time-window call gives (Spark's `window` / `session_window`), or undefined for other calls. */
function timeWindowColumn(call: ast.FunctionCall): string | undefined {
    if (call.parts.length !== 1) {
        return undefined;
    }
    const name = functionName(call);
    return name === 'window' || name === 'session_window' ? name : undefined;
}

/**
 * The functions whose first argument is a datetime unit word, not a column, when they take three
 * arguments (Spark's `timestampadd` / `timestampdiff` grammar rules): `datediff(MINUTE, a, b)`.
 */
const unitFunctions = new Set(['timestampadd', 'dateadd', 'date_add', 'timestampdiff', 'datediff', 'date_diff', 'timediff']);

/** Spark's `datetimeUnit` words. */
const datetimeUnits = new Set(['year', 'quarter', 'month', 'week', 'day', 'dayofyear', 'hour', 'minute', 'second', 'millisecond', 'microsecond']);

/** A unit word in the first of three arguments of a unit function. */
function isDatetimeUnitArgument(reference: ast.ColumnReference): boolean {
    const argument = reference.$container;
    const call = argument?.$container;
    return reference.parts.length === 1 && datetimeUnits.has(lower(reference.parts[0])) && ast.isFunctionArgument(argument)
        && !argument.name && ast.isFunctionCall(call) && call.args.length === 3 && call.args[0] === argument
        && call.parts.length === 1 && unitFunctions.has(lower(call.parts[0]));
}

/** A table reference's name as written (back quotes kept, so that a quoted part may hold dots). */
export function writtenName(reference: ast.DatasetRef): string {
    return reference.ref.$refNode?.text ?? reference.ref.$refText;
}

function sameName(a: string | undefined, b: string | undefined): boolean {
    return lower(a) === lower(b);
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
    return a.length === b.length && a.every((p, i) => p === b[i]);
}

function opaqueEntry(node: AstNode): ScopeEntry {
    return { qualifiers: [], relation: UnknownRelation, node, inStar: true };
}

function stripHidden(relation: RelationType): RelationType {
    return relation.hidden ? relationOf(relation.columns, relation.complete) : relation;
}

/** The qualifiers that name a table read without an alias: every suffix of its name (`t`, `sch.t`, `cat.sch.t`). */
function tableQualifiers(reference: ast.DatasetRef): string[][] {
    const parts = splitName(writtenName(reference)).map(p => p.toLowerCase());
    const result: string[][] = [];
    for (let n = 1; n <= parts.length; n++) {
        result.push(parts.slice(-n));
    }
    if (parts[0] === 'live' && parts.length > 1) {
        for (let n = 1; n < parts.length; n++) {
            result.push(parts.slice(-n));
        }
    }
    return result;
}

/** Renames a relation's columns positionally (`AS t(a, b)`, `CREATE VIEW v (a, b)`). */
function renameColumns(relation: RelationType, names: readonly string[], nodes?: readonly AstNode[]): RelationType {
    if (names.length === 0) {
        return relation;
    }
    const columns = names.map((name, i) => column(name, relation.columns[i]?.type ?? Types.unknown, nodes?.[i] ?? relation.columns[i]?.node));
    return relationOf(columns, true, relation.hidden);
}

/** The columns an AUTO CDC flow keeps: all, `COLUMNS (list)` (in source order) or `COLUMNS * EXCEPT (list)`. */
export function selectColumns(source: RelationType, selection: ast.ColumnSelection | undefined): RelationType {
    if (!selection) {
        return stripHidden(source);
    }
    const names = selection.names.map(lower);
    if (selection.star) {
        const excluded = new Set(names);
        return relationOf(source.columns.filter(c => !excluded.has(c.name.toLowerCase())), source.complete);
    }
    if (source.complete) {
        return relationOf(source.columns.filter(c => names.includes(c.name.toLowerCase())));
    }
    return relationOf(selection.names.map(n => findColumn(source, n) ?? column(n, Types.unknown)));
}

/** Merges the schemas of several flows into one target by column name. */
function mergeFlowSchemas(schemas: readonly RelationType[]): RelationType {
    if (schemas.length === 1) {
        return schemas[0];
    }
    const columns: Column[] = [];
    for (const schema of schemas) {
        for (const c of schema.columns) {
            const index = columns.findIndex(x => sameName(x.name, c.name));
            if (index < 0) {
                columns.push(c);
            } else {
                columns[index] = column(columns[index].name, commonSupertype(columns[index].type, c.type) ?? columns[index].type, columns[index].node);
            }
        }
    }
    return relationOf(columns, schemas.every(s => s.complete));
}

/**
 * The columns of a target written by several AUTO CDC flows, as the engine makes them (docs/semantics.md A27, A11):
 * the union of the flows' columns in first-seen order, then the system columns in doc order.
 */
function systemColumnsLast(schema: RelationType): RelationType {
    const system = ['__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT'];
    const isSystem = (c: Column) => system.some(s => sameName(s, c.name));
    const columns = [...schema.columns.filter(c => !isSystem(c)), ...system.flatMap(s => schema.columns.filter(c => sameName(s, c.name)))];
    return relationOf(columns, schema.complete);
}

/** The type reached by following struct fields / map keys from a column's type. */
function fieldPathType(type: TypeDescriptor, rest: readonly string[]): TypeDescriptor {
    let current = type;
    for (const part of rest) {
        switch (current.kind) {
            case 'struct': {
                const found = current.fields.find(f => sameName(f.name, part));
                current = found ? found.type : Types.unknown;
                break;
            }
            case 'map':
                current = current.value;
                break;
            case 'array':
                // `arr.field` extracts the field from every element.
                current = current.element.kind === 'struct' ? Types.array(fieldPathType(current.element, [part])) : Types.unknown;
                break;
            case 'variant':
                return Types.variant;
            default:
                return Types.unknown;
        }
    }
    return current;
}

/** The name Spark gives an unaliased select item: a column's own name, a field's name, else the expression text. */
export function derivedName(expression: ast.Expression, qualifierLength: (reference: ast.ColumnReference) => number = () => 0): string {
    if (ast.isColumnReference(expression)) {
        return expression.parts.at(-1) ?? '';
    }
    // Spark names a cast of a named expression after it: `CAST(id AS STRING)`, `id::string`, `v:price::int`.
    if (ast.isCastExpression(expression) && (ast.isColumnReference(expression.expression) || ast.isStructFieldAccess(expression.expression)
        || ast.isJsonPath(expression.expression))) {
        return derivedName(expression.expression, qualifierLength);
    }
    if (ast.isFunctionCall(expression) && timeWindowColumn(expression)) {
        return timeWindowColumn(expression)!;
    }
    if (ast.isStructFieldAccess(expression)) {
        return expression.field;
    }
    if (ast.isJsonPath(expression)) {
        const last = /([A-Za-z_]\w*)\W*$/.exec(expression.path ?? '');
        return last ? last[1] : expression.path;
    }
    return prettyName(expression, qualifierLength);
}

/**
 * Spark's name of an expression inside an unaliased select item (`toPrettySQL`), as the engine
 * writes it: operators in parentheses (`(id + 1)`), calls by their lower-case name with their
 * arguments' names (`upper(user.name)`, `count(1)` for `count(*)`), columns without their table
 * qualifier but with their struct path, literals by their value.
 */
function prettyName(e: ast.Expression, qualifierLength: (reference: ast.ColumnReference) => number): string {
    const inner = (x: ast.Expression | undefined): string => (x ? prettyName(x, qualifierLength) : '');
    if (ast.isColumnReference(e)) {
        return e.parts.slice(Math.min(qualifierLength(e), e.parts.length - 1)).join('.');
    }
    if (ast.isStructFieldAccess(e)) {
        return `${inner(e.receiver)}.${e.field}`;
    }
    if (ast.isSubscript(e)) {
        return `${inner(e.receiver)}[${inner(e.index)}]`;
    }
    if (ast.isBinaryExpression(e)) {
        const operator = e.operator.toUpperCase() === 'AND' || e.operator.toUpperCase() === 'OR' ? e.operator.toUpperCase() : e.operator.toLowerCase();
        return `(${inner(e.left)} ${operator} ${inner(e.right)})`;
    }
    if (ast.isUnaryExpression(e)) {
        return e.operator === '+' ? inner(e.operand) : `(${e.operator === 'NOT' ? 'NOT' : e.operator} ${inner(e.operand)})`;
    }
    if (ast.isIsExpression(e) && e.test === 'NULL') {
        return `(${inner(e.value)} IS ${e.not ? 'NOT ' : ''}NULL)`;
    }
    // A window's OVER clause is left out of the name, as the engine does (Spark writes the whole frame).
    if (ast.isFunctionCall(e) && !e.filter && e.withinGroup.length === 0) {
        const name = e.parts.join('.').toLowerCase();
        if (e.args.length === 1 && ast.isStar(e.args[0].value) && e.args[0].value.qualifier.length === 0) {
            return `${name}(1)`;
        }
        if (e.args.every(a => !a.name && !a.alias && a.value && !ast.isLambda(a.value) && !ast.isStar(a.value) && !ast.isTableArgument(a.value))) {
            return `${name}(${e.distinct ? 'DISTINCT ' : ''}${e.args.map(a => (ast.isTableArgument(a.value) ? '' : inner(a.value))).join(', ')})`;
        }
    }
    if (ast.isNumberLiteral(e)) {
        // The engine names a number by its value (`1L` is 1, `1.50` is 1.5).
        const value = Number(e.value.replace(/[a-z]+$/i, ''));
        return Number.isFinite(value) && Number.isSafeInteger(Math.trunc(value)) ? String(value) : e.value;
    }
    if (ast.isStringLiteral(e)) {
        return e.value;
    }
    if (ast.isBooleanLiteral(e)) {
        return String(e.value);
    }
    if (ast.isNullLiteral(e)) {
        return 'NULL';
    }
    return (e.$cstNode?.text ?? '').replace(/\s+/g, ' ').trim();
}

function makeScope(entries: readonly ScopeEntry[], aliases: readonly Column[], lambdas: ReadonlyMap<string, TypeDescriptor>, parent: ColumnScope | undefined, opaque = false): ColumnScope {
    const known = !opaque && entries.every(e => e.relation.complete) && (parent?.known ?? true);
    return { entries, aliases, lambdas, parent, known };
}

type LookupResult =
    | { kind: 'column'; column: Column; entry: ScopeEntry; rest: readonly string[] }
    | { kind: 'alias'; column: Column; rest: readonly string[] }
    | { kind: 'lambda'; type: TypeDescriptor };

function lookup(parts: readonly string[], scope: ColumnScope): LookupResult | undefined {
    const keys = parts.map(lower);
    for (let q = Math.min(parts.length - 1, 3); q >= 1; q--) {
        const qualifier = keys.slice(0, q);
        for (const entry of scope.entries) {
            if (entry.qualifiers.some(x => sameParts(x, qualifier))) {
                const found = findColumn(entry.relation, parts[q]);
                if (found) {
                    return { kind: 'column', column: found, entry, rest: parts.slice(q + 1) };
                }
            }
        }
    }
    const lambda = scope.lambdas.get(keys[0]);
    if (lambda) {
        return { kind: 'lambda', type: fieldPathType(lambda, parts.slice(1)) };
    }
    for (const entry of scope.entries) {
        const found = findColumn(entry.relation, parts[0]);
        if (found) {
            return { kind: 'column', column: found, entry, rest: parts.slice(1) };
        }
    }
    const alias = scope.aliases.find(a => sameName(a.name, parts[0]));
    if (alias) {
        return { kind: 'alias', column: alias, rest: parts.slice(1) };
    }
    return scope.parent ? lookup(parts, scope.parent) : undefined;
}

/** For `t.c` where `t` names a relation of the scope but `c` is not one of its columns: that relation and name. */
function qualifiedMiss(parts: readonly string[], scope: ColumnScope): { entry: ScopeEntry; name: string; qualifier: string } | undefined {
    const keys = parts.map(lower);
    for (let current: ColumnScope | undefined = scope; current; current = current.parent) {
        for (let q = Math.min(parts.length - 1, 3); q >= 1; q--) {
            const entry = current.entries.find(e => e.qualifiers.some(x => sameParts(x, keys.slice(0, q))));
            if (entry) {
                return { entry, name: parts[q], qualifier: displayName(parts.slice(0, q)) };
            }
        }
    }
    return undefined;
}

/** Every column name visible in a scope (or in one relation of it), for suggestions. */
function visibleNames(scope: ColumnScope, only?: ScopeEntry): string[] {
    if (only) {
        return only.relation.columns.map(c => c.name);
    }
    const names: string[] = [];
    for (let current: ColumnScope | undefined = scope; current; current = current.parent) {
        names.push(...current.entries.flatMap(e => e.relation.columns.map(c => c.name)), ...current.aliases.map(a => a.name), ...current.lambdas.keys());
    }
    return names;
}

//#endregion

/** True for `t WITH (readChangeFeed = true)`. */
export function readsChangeFeed(table: ast.TableReference): boolean {
    return table.options?.options.some(o => o.key.toLowerCase() === 'readchangefeed' && (o.value ?? 'true').toLowerCase() === 'true') ?? false;
}

const changeFeedTypes: Record<string, TypeDescriptor> = { STRING: Types.string, BIGINT: Types.bigint, TIMESTAMP: Types.timestamp };

/** A relation with the change data feed's columns after its own (`_change_type`, `_commit_version`, `_commit_timestamp`; never NULL). */
function withChangeFeedColumns(relation: RelationType): RelationType {
    const feed = CHANGE_FEED_COLUMNS.map(c => column(c.name, changeFeedTypes[c.type], undefined, false));
    return relationOf([...relation.columns.filter(c => !feed.some(f => f.name === c.name.toLowerCase())), ...feed], relation.complete, relation.hidden);
}
