/**
 * What each source of a pipeline must have for a local run (issue 16 item 1): for every source the
 * pipeline reads but that has no sample data (a catalog table, a `read_files` path, a Python
 * dataset), the columns the pipeline uses and the Spark type each use implies.
 *
 * Uses are found on the parsed pipeline with the type computer: a column reference that resolves
 * into a source of unknown shape (directly, or through datasets, CTEs and subqueries whose `*` or
 * select items pass it through) is a demand on that source. The context of the reference says its
 * type (compared with a typed value, summed, passed to a function parameter, cast, accessed by field)
 * and its role (KEYS, SEQUENCE BY, APPLY AS DELETE WHEN, GROUP BY), and predicates against literals
 * (WHERE, expectations, delete conditions) are kept so that the generator can produce values that
 * pass and fail them. `string` where nothing says more.
 */
import * as path from 'node:path';
import { AstUtils, type AstNode, type LangiumDocument } from 'langium';
import * as ast from '../language/generated/ast.js';
import { getFunction, parameterForArgument, selectSignature, type CallArgument } from '../../../engine/src/spark/functions/catalog.js';
import type { TypeConstraint } from '../../../engine/src/spark/functions/function-model.js';
import { isDatetime, isNumeric, literalType, Types, type StructField, type TypeDescriptor } from '../../../engine/src/spark/spark-types.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { functionName, type DatasetInfo } from '../language/pipeline/pipeline-model.js';
import type { PipelineInfo } from '../language/pipeline/pipeline-registry.js';
import { pathArgument, stringArgument } from '../language/pipeline/sample-catalog.js';
import { lower } from '../language/references/dataset-names.js';
import type { ScopeEntry, TypeComputer } from '../language/types/pipeline-sql-type-computer.js';
import type { SampleDisk } from '../../../engine/src/spark/sample-disk.js';
import { declaredTableLocation, readFilesLocation, locateSampleTable, formatFromName, type SampleFormat } from '../../../engine/src/spark/sample-files.js';

//#region Public types

/** What a column is used for, beyond its type. */
export type ColumnRole = 'key' | 'sequence' | 'systemSequence' | 'delete' | 'group' | 'snapshotVersion' | 'columnsToUpdate';

/** A literal a column is compared with, and how. */
export interface ColumnPredicate {
    readonly op: '=' | '<>' | '<' | '<=' | '>' | '>=' | 'in' | 'null' | 'notnull' | 'like';
    readonly values: readonly (string | number | boolean)[];
    /** From an expectation that fails the update (`ON VIOLATION FAIL UPDATE`): generated rows must pass it. */
    readonly mustHold: boolean;
    /** Where it comes from, for messages and the generator (`expectation`, `where`, `delete`, `join`). */
    readonly origin: 'expectation' | 'where' | 'delete' | 'truncate' | 'other';
}

/** A predicate on a field of a struct column (`payload.status = 'DONE'`: path `['status']`). */
export interface FieldPredicate {
    readonly path: readonly string[];
    readonly predicate: ColumnPredicate;
}

/** One column a source must have. */
export interface RequiredColumn {
    readonly name: string;
    /** The implied type (`string` when nothing says more). */
    type: TypeDescriptor;
    /** How sure the type is: 3 declared or compared with a typed value, 2 a function parameter or an operator, 1 a role or the name, 0 nothing. */
    typeStrength: number;
    readonly roles: Set<ColumnRole>;
    readonly predicates: ColumnPredicate[];
    /** Predicates on fields of this (struct) column, so that generated structs pass and fail them too. */
    readonly fieldPredicates: FieldPredicate[];
    /** Human-readable uses (`KEYS of flow 'users_cdc'`), in the order found. */
    readonly uses: string[];
}

/** An AUTO CDC flow (or snapshot flow) that reads this source, directly or through datasets. */
export interface CdcUse {
    readonly flow: string;
    readonly snapshot: boolean;
    readonly scd: 1 | 2 | 'bitemporal';
}

/** A source without sample data and what it must have. */
export interface SourceRequirement {
    /** `table:a.b`, `files:<abs path>` or `python:name`. */
    readonly key: string;
    readonly kind: 'table' | 'files' | 'python';
    /** The name as read (`cdc_data.users`) or the `read_files` path as written. */
    readonly displayName: string;
    /** Table name parts (tables and Python datasets). */
    readonly name?: readonly string[];
    /** Where the sample data goes (absolute): a folder, or a file for a `read_files` path with an extension. */
    readonly location: string;
    /** Whether `location` is one file rather than a folder. */
    readonly isFile: boolean;
    /** The format to write: from `read_files(format =>)` or the path's extension; undefined = the generator chooses. */
    readonly format?: SampleFormat;
    /** Columns declared for it (a `CREATE TABLE` with columns, `schema =>`, Python `schema=`): those are the columns. */
    readonly declared: boolean;
    /** Declared in `samples/*.sql` already (no declaration is written). */
    readonly declaration?: boolean;
    readonly columns: RequiredColumn[];
    readonly cdc: CdcUse[];
    /** Where the pipeline reads it (`file:line`). */
    readonly readAt: string[];
}

/** A source that needs sample data but cannot get any locally, and why. */
export interface SkippedSource {
    readonly displayName: string;
    readonly reason: string;
}

export interface SourceRequirements {
    readonly sources: SourceRequirement[];
    readonly skipped: SkippedSource[];
    /** Sources read that have sample data already (kept as they are). */
    readonly present: string[];
}

//#endregion

const comparisons = new Set(['=', '==', '<=>', '!=', '<>', '<', '<=', '>', '>=']);
/** AND / OR (the generated operator type lists only the comparison-level operators). */
const logical = new Set(['AND', 'OR']);
const arithmetic = new Set(['+', '-', '*', '/', '%', 'DIV']);
/** Functions whose result is their argument in another case or without blanks: a predicate on the result is one on the argument. */
const transparentFunctions = new Set(['trim', 'ltrim', 'rtrim', 'btrim', 'lower', 'upper', 'lcase', 'ucase', 'initcap']);

const flip: Record<string, ColumnPredicate['op']> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const negate: Partial<Record<ColumnPredicate['op'], ColumnPredicate['op']>> = { '=': '<>', '<>': '=', null: 'notnull', notnull: 'null' };

/** A use of a column, as it travels from the reference to the source. */
interface Use {
    type?: TypeDescriptor;
    strength: number;
    role?: ColumnRole;
    predicate?: ColumnPredicate;
    /** Struct fields accessed below the column (`payload.amount` → ['amount']). */
    fields: string[];
    label: string;
    /** The AUTO CDC flow whose source this use is about, if any. */
    cdc?: CdcUse;
}

/** A guess from a column's name alone, for roles that need an ordered or countable type. */
export function typeFromName(name: string, role?: ColumnRole): TypeDescriptor {
    const n = name.toLowerCase();
    if (/(^|_)(date|day|dt)$/.test(n)) {
        return Types.date;
    }
    if (/(^|_)(ts|time|timestamp|at)$|_time_|timestamp/.test(n)) {
        return Types.timestamp;
    }
    if (/(^|_)(id|key|seq|sequence|version|lsn|num|number|count|qty|quantity)$/.test(n) || /id$/.test(n)) {
        return Types.bigint;
    }
    if (role === 'sequence' || role === 'systemSequence') {
        return Types.timestamp;
    }
    if (role === 'snapshotVersion') {
        return Types.bigint;
    }
    return Types.string;
}

/** The type a parameter constraint asks for, as a concrete type to generate. */
function constraintType(constraint: TypeConstraint): TypeDescriptor | undefined {
    switch (constraint.kind) {
        case 'type':
            return constraint.type.kind === 'unknown' ? undefined : constraint.type;
        case 'union':
            return constraint.options.map(constraintType).find(t => t !== undefined);
        case 'lambda':
            return undefined;
        case 'family':
            switch (constraint.family) {
                case 'numeric': case 'floating': return Types.double;
                case 'decimal': return Types.decimal(10, 2);
                case 'integral': return Types.bigint;
                case 'string': return Types.string;
                case 'boolean': return Types.boolean;
                case 'date': return Types.date;
                case 'datetime': case 'timestamp': return Types.timestamp;
                case 'array': return Types.array(Types.string);
                default: return undefined;
            }
    }
}

function literalValue(expression: ast.Expression | undefined): string | number | boolean | undefined {
    if (ast.isStringLiteral(expression)) {
        return expression.value;
    }
    if (ast.isNumberLiteral(expression)) {
        const value = Number(String(expression.value).replace(/[lLsSyYdDfF]$|BD$/i, ''));
        return Number.isFinite(value) ? value : undefined;
    }
    if (ast.isBooleanLiteral(expression)) {
        return expression.value;
    }
    if (ast.isUnaryExpression(expression) && expression.operator === '-' && ast.isNumberLiteral(expression.operand)) {
        const inner = literalValue(expression.operand);
        return typeof inner === 'number' ? -inner : undefined;
    }
    if (ast.isTypedLiteral(expression)) {
        return expression.value;
    }
    return undefined;
}

/**
 * Collects the requirements of one pipeline's sources from its built documents (its SQL sources).
 */
export class SourceRequirementCollector {

    private readonly types: TypeComputer;
    private readonly sources = new Map<string, SourceRequirement>();
    private readonly skipped = new Map<string, SkippedSource>();
    /** Sources that have sample data (not required), by key. */
    private readonly sampled = new Map<string, string>();
    private readonly dirs;

    /** `disk`: what tells which sources have sample data (the sample catalog's, unless given). */
    constructor(private readonly services: PipelineSqlServices, private readonly pipeline: PipelineInfo, disk?: SampleDisk) {
        this.types = services.types.TypeComputer;
        this.dirs = services.pipeline.SampleCatalog.dirsOf(pipeline, disk);
    }

    /** The requirements of the pipeline whose SQL documents these are. */
    collect(documents: readonly LangiumDocument[]): SourceRequirements {
        const model = this.services.pipeline.Model.model(this.pipeline);
        // Every source read by a flow: a requirement even if no column of it is named.
        for (const flow of model.flows) {
            for (const input of flow.inputs) {
                if (ast.isTableFunctionCall(input.node)) {
                    this.filesSource(input.node);
                } else {
                    this.tableSource(input.node);
                }
            }
            if (flow.cdc || flow.snapshot) {
                this.cdcClauses(flow.cdc ?? flow.snapshot!, flow.name);
            }
        }
        for (const document of documents) {
            for (const node of AstUtils.streamAst(document.parseResult.value)) {
                if (ast.isColumnReference(node) && !ast.isFunctionCall(node)) {
                    this.reference(node);
                }
            }
        }
        const sources = [...this.sources.values()];
        for (const source of sources) {
            if (!source.declared && source.cdc.some(c => !c.snapshot) && source.columns.every(c => c.roles.size > 0 && !c.roles.has('group'))) {
                // Only keys and clause columns are named (`COLUMNS * EXCEPT (...)`): a column whose value
                // changes with each update, so that the target shows the updates.
                source.columns.push({ name: 'value', type: Types.string, typeStrength: 0, roles: new Set(), predicates: [], fieldPredicates: [], uses: ['changes with each update (nothing else is named)'] });
            }
            if (source.columns.length === 0) {
                // Nothing names a column: one so that the data has a shape.
                source.columns.push({ name: 'id', type: Types.bigint, typeStrength: 0, roles: new Set(), predicates: [], fieldPredicates: [], uses: ['no column is named by the pipeline'] });
            }
        }
        return { sources, skipped: [...this.skipped.values()], present: [...this.sampled.values()] };
    }

    //#region Sources

    private place(node: AstNode): string {
        const document = AstUtils.getDocument(node);
        const line = (node.$cstNode?.range.start.line ?? 0) + 1;
        return `${document.uri.fsPath}:${line}`;
    }

    /** The requirement of a table read by a name no SQL file defines, or undefined when it has sample data (or is a dataset). */
    private tableSource(reference: ast.DatasetRef): SourceRequirement | undefined {
        const target = reference.ref.ref;
        if (target && (ast.isCommonTableExpression(target) || !this.isCatalogDeclaration(target))) {
            return undefined;
        }
        const external = this.types.externalSource(reference);
        const name = external.name;
        if (name.parameterized || !this.dirs) {
            return undefined;
        }
        const python = external.python;
        const key = python ? `python:${name.keys.at(-1)}` : `table:${name.keys.join('.')}`;
        if (this.sampled.has(key)) {
            return undefined;
        }
        const existing = this.sources.get(key);
        if (existing) {
            existing.readAt.push(this.place(reference));
            return existing;
        }
        // Has data already: by convention (a file or folder under samples/), or where its declaration points.
        const declaration: ast.CreateTable | undefined = target && ast.isCreateTable(target) ? target : undefined;
        let location = python ? path.join(this.dirs.samplesDir, name.parts.at(-1)!) : path.join(this.dirs.samplesDir, ...name.parts);
        if (declaration) {
            const clause = declaration.clauses.find(ast.isLocationClause)?.path;
            location = declaredTableLocation(this.dirs, name.parts, clause);
            if (this.dirs.disk.stat(location) !== undefined || (clause === undefined && locateSampleTable(this.dirs, name.parts))) {
                this.sampled.set(key, name.parts.join('.'));
                return undefined;
            }
        } else if (external.location || external.problem || locateSampleTable(this.dirs, name.parts)) {
            this.sampled.set(key, name.parts.join('.'));
            return undefined;
        }
        const columns: RequiredColumn[] = [];
        let declared = false;
        const declaredColumns = declaration ? (declaration.spec?.elements ?? []).filter(ast.isColumnDef) : [];
        if (declaredColumns.length > 0) {
            declared = true;
            for (const c of declaredColumns) {
                columns.push(newColumn(c.name, this.types.typeOfDataType(c.type), 3, 'declared in samples/'));
            }
        } else if (python?.dataset.schema?.columns) {
            declared = true;
            for (const c of python.dataset.schema.columns) {
                columns.push(newColumn(c.name, c.type, 3, 'schema= of the Python dataset'));
            }
        }
        const parts = python ? [name.parts.at(-1)!] : [...name.parts];
        const format = declaration ? formatFromName(declaration.clauses.find(ast.isUsingClause)?.format) : undefined;
        const isFile = /\.(csv|json|jsonl|parquet)$/i.test(location);
        const source: SourceRequirement = {
            key, kind: python ? 'python' : 'table', displayName: name.parts.join('.'), name: parts, location, isFile,
            ...(format ? { format } : {}), declared, declaration: declaration !== undefined, columns, cdc: [], readAt: [this.place(reference)],
        };
        this.sources.set(key, source);
        return source;
    }

    private isCatalogDeclaration(node: AstNode): boolean {
        return ast.isCreateTable(node) && this.services.pipeline.Registry.membershipOf(AstUtils.getDocument(node).uri).role === 'catalog';
    }

    /** The requirement of a `read_files` / `cloud_files` call whose path has no files, or undefined. */
    private filesSource(call: ast.TableFunctionCall): SourceRequirement | undefined {
        const fn = functionName(call);
        if ((fn !== 'read_files' && fn !== 'cloud_files') || !this.dirs) {
            return undefined;
        }
        const filePath = stringArgument(pathArgument(call)?.value);
        if (filePath === undefined) {
            return undefined;
        }
        const location = readFilesLocation(this.dirs, filePath);
        if (!location.ok) {
            this.skipped.set(`files:${filePath}`, { displayName: `${fn}('${filePath}')`, reason: location.problem.message });
            return undefined;
        }
        const key = `files:${location.value}`;
        if (this.sampled.has(key)) {
            return undefined;
        }
        const existing = this.sources.get(key);
        if (existing) {
            existing.readAt.push(this.place(call));
            return existing;
        }
        const schema = this.services.pipeline.SampleCatalog.readFiles(this.pipeline, call, fn);
        if (schema.problemKind !== 'missing' && (schema.problem || schema.location || schema.relation.complete)) {
            if (schema.problemKind === 'outside' || schema.problemKind === 'format') {
                this.skipped.set(key, { displayName: `${fn}('${filePath}')`, reason: schema.problem! });
            }
            if (!schema.relation.complete || schema.location) {
                this.sampled.set(key, `${fn}('${filePath}')`);
                return undefined;
            }
        }
        const named = new Map(call.args.filter(a => a.name).map(a => [a.name!.toLowerCase(), stringArgument(a.value)]));
        const positional = call.args.filter(a => !a.name).map(a => stringArgument(a.value));
        const ext = /\.([a-z]+)(\.gz)?$/i.exec(location.value)?.[1];
        const format = formatFromName(named.get('format') ?? (fn === 'cloud_files' ? positional[1] : undefined) ?? ext);
        const columns: RequiredColumn[] = [];
        let declared = false;
        if (schema.relation.complete) {
            declared = true;
            for (const c of schema.relation.columns.filter(c => c.name.toLowerCase() !== '_rescued_data')) {
                columns.push(newColumn(c.name, c.type, 3, 'schema => of read_files'));
            }
        }
        const source: SourceRequirement = {
            key, kind: 'files', displayName: `${fn}('${filePath}')`, location: location.value, isFile: ext !== undefined && formatFromName(ext) !== undefined,
            format, declared, columns, cdc: [], readAt: [this.place(call)],
        };
        this.sources.set(key, source);
        return source;
    }

    //#endregion

    //#region AUTO CDC clauses

    private cdcClauses(spec: ast.AutoCdcSpec | ast.SnapshotSpec, flow: string): void {
        const scd = this.types.scdKind(spec);
        const cdc: CdcUse = { flow, snapshot: ast.isSnapshotSpec(spec), scd };
        const label = (clause: string): string => `${clause} of flow '${flow}'`;
        const demandSource = (name: string, use: Use): void => {
            if (ast.isSnapshotSpec(spec)) {
                if (spec.snapshotQuery) {
                    this.demandOnQuery(spec.snapshotQuery, name, { ...use, cdc }, new Set());
                } else if (spec.snapshotTable) {
                    this.demandOnRef(spec.snapshotTable, name, { ...use, cdc }, new Set());
                }
            } else if (spec.source?.query) {
                this.demandOnQuery(spec.source.query, name, { ...use, cdc }, new Set());
            } else if (spec.source?.table) {
                this.demandOnRef(spec.source.table, name, { ...use, cdc }, new Set());
            }
        };
        for (const key of spec.keys?.names ?? []) {
            demandSource(key.split('.')[0], { role: 'key', strength: 0, fields: [], label: label('KEYS') });
        }
        for (const clause of spec.clauses) {
            if (ast.isColumnsClause(clause) || ast.isTrackHistoryClause(clause)) {
                for (const name of clause.columns?.names ?? []) {
                    demandSource(name.split('.')[0], { strength: 0, fields: [], label: label(ast.isColumnsClause(clause) ? 'COLUMNS' : 'TRACK HISTORY ON') });
                }
            }
        }
        const toUpdate = spec.clauses.find(ast.isColumnsToUpdateClause)?.column;
        if (toUpdate) {
            // COLUMNS TO UPDATE c: each event lists the names of the columns it updates.
            demandSource(toUpdate, { role: 'columnsToUpdate', type: Types.array(Types.string), strength: 3, fields: [], label: label('COLUMNS TO UPDATE') });
        }
        // Column references inside the clauses (SEQUENCE BY, APPLY AS DELETE WHEN ...) are found by the walk.
    }

    //#endregion

    //#region Column references

    /** A column reference anywhere in the pipeline: if it reaches a source without samples, a use of one of its columns. */
    private reference(reference: ast.ColumnReference): void {
        const use = this.useOf(reference);
        if (!use) {
            return;
        }
        const cdcSpec = AstUtils.getContainerOfType(reference, (n): n is ast.AutoCdcSpec => ast.isAutoCdcSpec(n));
        if (cdcSpec && !AstUtils.getContainerOfType(reference, ast.isSourceRef)) {
            // SEQUENCE BY, APPLY AS DELETE WHEN, WHERE of an AUTO CDC flow: columns of its source.
            const flow = this.services.pipeline.Model.model(this.pipeline).flows.find(f => f.cdc === cdcSpec);
            const cdc: CdcUse = { flow: flow?.name ?? 'auto_cdc', snapshot: false, scd: this.types.scdKind(cdcSpec) };
            const [name, ...fields] = reference.parts;
            const routed = { ...use, fields: [...fields, ...use.fields], cdc };
            if (cdcSpec.source?.query) {
                this.demandOnQuery(cdcSpec.source.query, name, routed, new Set());
            } else if (cdcSpec.source?.table) {
                this.demandOnRef(cdcSpec.source.table, name, routed, new Set());
            }
            return;
        }
        this.demandOnReference(reference, use, new Set());
    }

    /** Resolves a reference in its scope and passes the use to what it names. */
    private demandOnReference(reference: ast.ColumnReference, use: Use, seen: Set<AstNode>): void {
        const resolution = this.types.resolveColumn(reference);
        if (resolution.kind === 'column') {
            // A column of a dataset or a query: follow it to what computes it (`payload.amount`: with the field path).
            const node = resolution.column.node;
            const rest = resolution.rest ?? [];
            if (rest.length > 0) {
                use = { ...use, fields: [...rest, ...use.fields] };
            }
            if (ast.isSelectItem(node)) {
                this.followSelectItem(node, use, seen);
            } else if (resolution.entry) {
                // A column of a source whose columns are declared (a catalog declaration, a Python schema=).
                this.demandOnEntry(resolution.entry, resolution.column.name, use, seen);
            }
            return;
        }
        if (resolution.kind !== 'unknown') {
            return;
        }
        const expectation = AstUtils.getContainerOfType(reference, ast.isExpectation);
        const owner = expectation && AstUtils.getContainerOfType(expectation, ast.isDataset);
        if (owner && reference.parts.length === 1) {
            // An expectation checks the rows the dataset's query writes.
            const dataset = this.services.pipeline.Model.datasetOf(owner);
            if (dataset) {
                this.demandOnDataset(dataset, reference.parts[0], use, seen);
            }
            return;
        }
        const scope = this.types.scopeAt(reference);
        if (!scope) {
            return;
        }
        const parts = reference.parts.map(lower);
        // `o.amount`: the entry named `o`; `amount` or `payload.amount` (a struct): an entry of unknown shape.
        let entry: ScopeEntry | undefined;
        let rest = parts;
        for (let q = Math.min(parts.length - 1, 3); q >= 1 && !entry; q--) {
            const qualifier = parts.slice(0, q);
            entry = scope.entries.find(e => e.qualifiers.some(x => x.length === q && x.every((p, i) => p === qualifier[i])));
            if (entry) {
                rest = parts.slice(q);
            }
        }
        entry ??= scope.entries.find(e => !e.relation.complete && e.inStar) ?? scope.entries.find(e => !e.relation.complete);
        if (!entry) {
            return;
        }
        const [name, ...fields] = reference.parts.slice(reference.parts.length - rest.length);
        this.demandOnEntry(entry, name, { ...use, fields: [...fields, ...use.fields] }, seen);
    }

    private followSelectItem(item: ast.SelectItem, use: Use, seen: Set<AstNode>): void {
        let expression: ast.Expression | undefined = item.expression;
        let passed = use;
        while (expression && !ast.isColumnReference(expression)) {
            if (ast.isFunctionCall(expression) && transparentFunctions.has(functionName(expression)) && expression.args.length === 1) {
                expression = expression.args[0].value as ast.Expression | undefined;
            } else if (ast.isCastExpression(expression)) {
                // A cast keeps the predicate but not the type: the source holds text that casts.
                passed = { ...passed, type: undefined, strength: 0 };
                expression = expression.expression;
            } else {
                return;
            }
        }
        if (expression && ast.isColumnReference(expression) && !ast.isFunctionCall(expression) && !seen.has(expression)) {
            seen.add(expression);
            this.demandOnReference(expression, passed, seen);
        }
    }

    /** A use of column `name` of a FROM item. */
    private demandOnEntry(entry: ScopeEntry, name: string, use: Use, seen: Set<AstNode>): void {
        const node = entry.node;
        if (ast.isTableReference(node) && node.table) {
            this.demandOnRef(node.table, name, use, seen);
        } else if (ast.isTableFunctionCall(node)) {
            const source = this.filesSource(node);
            if (source) {
                this.record(source, name, use);
            }
        } else if (ast.isSubqueryRelation(node) && node.query) {
            this.demandOnQuery(node.query, name, use, seen);
        }
    }

    /** A use of column `name` of what a table reference reads. */
    private demandOnRef(reference: ast.DatasetRef, name: string, use: Use, seen: Set<AstNode>): void {
        if (seen.has(reference)) {
            return;
        }
        seen.add(reference);
        const target = reference.ref.ref;
        if (target && ast.isCommonTableExpression(target)) {
            if (target.query) {
                this.demandOnQuery(target.query, name, use, seen);
            }
            return;
        }
        if (target && ast.isDataset(target) && !this.isCatalogDeclaration(target)) {
            const dataset = this.services.pipeline.Model.datasetOf(target);
            if (dataset) {
                this.demandOnDataset(dataset, name, use, seen);
            }
            return;
        }
        const source = this.tableSource(reference);
        if (source) {
            this.record(source, name, use);
        }
    }

    private demandOnDataset(dataset: DatasetInfo, name: string, use: Use, seen: Set<AstNode>): void {
        if (seen.has(dataset.node)) {
            return;
        }
        seen.add(dataset.node);
        if (dataset.node.query) {
            this.demandOnQuery(dataset.node.query, name, use, seen);
        }
        for (const flow of dataset.flows) {
            if (flow.query) {
                this.demandOnQuery(flow.query, name, use, seen);
            } else if (flow.cdc && !name.startsWith('__')) {
                // An AUTO CDC target has its source's columns (the CDC's own `__START_AT` ... excepted).
                const flowCdc: CdcUse = { flow: flow.name, snapshot: false, scd: this.types.scdKind(flow.cdc) };
                if (flow.cdc.source?.query) {
                    this.demandOnQuery(flow.cdc.source.query, name, { ...use, cdc: use.cdc ?? flowCdc }, seen);
                } else if (flow.cdc.source?.table) {
                    this.demandOnRef(flow.cdc.source.table, name, { ...use, cdc: use.cdc ?? flowCdc }, seen);
                }
            } else if (flow.snapshot?.snapshotQuery && !name.startsWith('__')) {
                this.demandOnQuery(flow.snapshot.snapshotQuery, name, use, seen);
            }
        }
    }

    /** A use of output column `name` of a query: the select item that computes it, or the `*` that passes it. */
    private demandOnQuery(query: ast.Query, name: string, use: Use, seen: Set<AstNode>): void {
        let body: ast.QueryExpression | undefined = query.body;
        while (ast.isSetOperation(body)) {
            body = body.left;
        }
        if (!ast.isSelectQuery(body)) {
            return;
        }
        const key = lower(name);
        for (const item of body.items) {
            const expression = item.expression;
            const alias = item.alias ?? item.aliases[0];
            if (alias !== undefined ? lower(alias) === key : ast.isColumnReference(expression) && lower(expression.parts.at(-1) ?? '') === key) {
                this.followSelectItem(item, use, seen);
                return;
            }
        }
        const stars = body.items.map(i => i.expression).filter(ast.isStar);
        if (stars.length === 0) {
            return;
        }
        const entries = this.types.scopeAt(body.items[0])?.entries ?? [];
        for (const star of stars) {
            if (star.except.some(e => lower(e) === key)) {
                continue;
            }
            const qualifier = star.qualifier.map(lower);
            const matching = entries.filter(e => (qualifier.length > 0 ? e.qualifiers.some(q => q.join('.') === qualifier.join('.')) : e.inStar));
            // The entry that lists the column, else the first of unknown shape.
            const target = matching.find(e => e.relation.columns.some(c => lower(c.name) === key)) ?? matching.find(e => !e.relation.complete);
            if (target) {
                this.demandOnEntry(target, name, use, seen);
                return;
            }
        }
    }

    /** Records a use on a source's column. */
    private record(source: SourceRequirement, name: string, use: Use): void {
        const cdc = use.cdc;
        if (cdc && !source.cdc.some(c => c.flow === cdc.flow)) {
            source.cdc.push(cdc);
        }
        if (name.toLowerCase() === '_rescued_data' || name.toLowerCase() === '_metadata') {
            return;
        }
        let column = source.columns.find(c => lower(c.name) === lower(name));
        if (!column) {
            if (source.declared) {
                return;
            }
            column = newColumn(name, Types.string, 0);
            source.columns.push(column);
        }
        if (!column.uses.includes(use.label)) {
            column.uses.push(use.label);
        }
        if (use.role && use.fields.length === 0) {
            column.roles.add(use.role);
        }
        // A predicate on `payload.amount` is about the field, not the struct column: kept with its path.
        const predicate = use.predicate;
        const same = (p: ColumnPredicate): boolean => predicate !== undefined && p.op === predicate.op && p.mustHold === predicate.mustHold
            && p.origin === predicate.origin && p.values.join('\0') === predicate.values.join('\0');
        if (predicate && use.fields.length === 0 && !column.predicates.some(same)) {
            column.predicates.push(predicate);
        } else if (predicate && use.fields.length > 0
            && !column.fieldPredicates.some(f => same(f.predicate) && f.path.map(lower).join('.') === use.fields.map(lower).join('.'))) {
            column.fieldPredicates.push({ path: [...use.fields], predicate });
        }
        if (source.declared && column.typeStrength >= 3) {
            return;
        }
        let type = use.type;
        let strength = use.strength;
        if (use.fields.length > 0) {
            // `payload.amount`: a struct with that field (nested for deeper paths), merged with what is known.
            type = structWith(column.type, use.fields, type);
            strength = Math.max(strength, 2);
        } else if (!type && use.role && column.typeStrength < 1) {
            type = typeFromName(name, use.role);
            strength = 1;
        }
        if (type?.kind === 'double' && strength === 2 && /(^|_)(qty|quantity|count|cnt|units|items)$/i.test(name)) {
            // Summed or multiplied, and named like a count: whole numbers.
            type = Types.int;
        }
        if (type && type.kind !== 'unknown' && type.kind !== 'void' && (strength > column.typeStrength || use.fields.length > 0)) {
            column.type = type;
            column.typeStrength = strength;
        }
    }

    //#endregion

    //#region What a use implies

    /** The type, role and predicate a column reference's context implies; undefined for a reference that is not a column. */
    private useOf(reference: ast.ColumnReference): Use {
        const use: Use = { strength: 0, fields: [], label: this.useLabel(reference) };
        let node: AstNode = reference;
        let parent = node.$container;
        // `payload.amount` parses as a column reference with two parts; `payload['a']`, `x::int` are postfix nodes.
        while (ast.isStructFieldAccess(parent) && parent.receiver === node) {
            use.fields.push(parent.field);
            node = parent;
            parent = node.$container;
        }
        let negated = false;
        const mustHold = AstUtils.getContainerOfType(reference, ast.isExpectation)?.failUpdate === true;
        const origin: ColumnPredicate['origin'] = AstUtils.getContainerOfType(reference, ast.isExpectation) ? 'expectation'
            : AstUtils.getContainerOfType(reference, ast.isApplyAsDeleteClause) ? 'delete'
                : AstUtils.getContainerOfType(reference, ast.isApplyAsTruncateClause) ? 'truncate'
                    : this.inWhere(reference) ? 'where' : 'other';
        const predicate = (op: ColumnPredicate['op'], values: (string | number | boolean)[]): void => {
            const finalOp = negated ? negate[op] : op;
            if (finalOp) {
                use.predicate = { op: finalOp, values, mustHold, origin };
            }
        };
        if (ast.isBinaryExpression(parent) && comparisons.has(parent.operator)) {
            const other = parent.left === node ? parent.right : parent.left;
            const op = parent.left === node ? parent.operator : flip[parent.operator] ?? parent.operator;
            negated = this.isNegated(parent);
            const otherType = other ? this.types.typeOf(other) : Types.unknown;
            const value = literalValue(other);
            if (value !== undefined) {
                const normalized = op === '==' || op === '<=>' ? '=' : op === '!=' ? '<>' : op;
                predicate(normalized as ColumnPredicate['op'], [value]);
                use.type = ast.isTypedLiteral(other) ? otherType : typeof value === 'string' ? Types.string : otherType;
                use.strength = 3;
            } else if (otherType.kind !== 'unknown' && otherType.kind !== 'void') {
                use.type = otherType;
                use.strength = 3;
            } else if (other && ast.isSubqueryExpression(other) && AstUtils.getContainerOfType(reference, ast.isSnapshotSpec)) {
                use.role = 'snapshotVersion';
            }
        } else if (ast.isBinaryExpression(parent) && arithmetic.has(parent.operator)) {
            const other = parent.left === node ? parent.right : parent.left;
            const otherType = other ? this.types.typeOf(other) : Types.unknown;
            use.type = isNumeric(otherType) ? otherType : otherType.kind === 'interval_dt' || otherType.kind === 'calendar_interval' ? Types.timestamp
                : isDatetime(otherType) && parent.operator === '-' ? otherType : Types.double;
            use.strength = 2;
        } else if (ast.isBinaryExpression(parent) && parent.operator === '||') {
            use.type = Types.string;
            use.strength = 2;
        } else if ((ast.isBinaryExpression(parent) && logical.has(parent.operator as string)) || (ast.isUnaryExpression(parent) && parent.operator === 'NOT') || ast.isCaseWhen(parent) && parent.condition === node) {
            // A bare column as a condition (`WHERE is_active`, `NOT deleted`).
            use.type = Types.boolean;
            use.strength = 2;
        } else if (ast.isInExpression(parent) && parent.value === node) {
            const values = parent.values.map(literalValue).filter((v): v is string | number | boolean => v !== undefined);
            negated = this.isNegated(parent) !== parent.not;
            if (values.length > 0) {
                if (!negated) {
                    use.predicate = { op: 'in', values, mustHold, origin };
                } else {
                    use.predicate = { op: '<>', values, mustHold, origin };
                }
                use.type = typeof values[0] === 'string' ? Types.string : literalType(String(values[0])) ?? Types.int;
                use.strength = 3;
            }
        } else if (ast.isBetweenExpression(parent) && parent.value === node) {
            const low = literalValue(parent.lower);
            const high = literalValue(parent.upper);
            const boundType = parent.lower ? this.types.typeOf(parent.lower) : Types.unknown;
            if (boundType.kind !== 'unknown') {
                use.type = boundType;
                use.strength = 3;
            }
            if (low !== undefined && high !== undefined && !(this.isNegated(parent) || parent.not)) {
                use.predicate = { op: '>=', values: [low], mustHold, origin };
            }
        } else if (ast.isLikeExpression(parent) && parent.value === node) {
            use.type = Types.string;
            use.strength = 2;
            const pattern = literalValue(parent.patterns[0]);
            if (typeof pattern === 'string' && parent.operator === 'LIKE') {
                negated = this.isNegated(parent) !== parent.not;
                predicate('like', [pattern]);
            }
        } else if (ast.isIsExpression(parent) && parent.value === node && parent.test === 'NULL') {
            negated = this.isNegated(parent);
            predicate(parent.not ? 'notnull' : 'null', []);
        } else if (ast.isCastExpression(parent) && parent.expression === node) {
            const type = this.types.typeOfDataType(parent.type);
            if (type.kind !== 'unknown') {
                use.type = type;
                use.strength = 2;
            }
        } else if (ast.isFunctionArgument(parent) && ast.isFunctionCall(parent.$container)) {
            const call = parent.$container;
            const fn = getFunction(functionName(call));
            const index = call.args.indexOf(parent);
            if (fn) {
                const args: CallArgument[] = call.args.map(a => ({ type: a === parent || !a.value || ast.isTableArgument(a.value) ? Types.unknown : this.types.typeOf(a.value as ast.Expression) }));
                const chosen = selectSignature(fn, args);
                const parameter = chosen ? parameterForArgument(chosen.signature, index) : undefined;
                const type = parameter ? constraintType(parameter.type) : undefined;
                if (type) {
                    use.type = type;
                    use.strength = 2;
                }
            }
        }
        if (AstUtils.getContainerOfType(reference, ast.isGroupByClause)) {
            use.role = 'group';
        }
        if (AstUtils.getContainerOfType(reference, ast.isApplyAsDeleteClause)) {
            use.role = 'delete';
        } else if (AstUtils.getContainerOfType(reference, ast.isSequenceByClause)) {
            use.role = 'sequence';
        } else if (AstUtils.getContainerOfType(reference, ast.isSystemSequenceByClause)) {
            use.role = 'systemSequence';
        }
        return use;
    }

    /** Whether a predicate stands under a NOT (directly, or through parentheses). */
    private isNegated(node: AstNode): boolean {
        let negated = false;
        for (let up = node.$container; up && !ast.isStatement(up); up = up.$container) {
            if (ast.isUnaryExpression(up) && up.operator === 'NOT') {
                negated = !negated;
            } else if (!ast.isBinaryExpression(up) || !logical.has(up.operator as string)) {
                break;
            }
        }
        return negated;
    }

    private inWhere(node: AstNode): boolean {
        for (let child: AstNode = node, up = node.$container; up; child = up, up = up.$container) {
            if ((ast.isSelectQuery(up) && up.where === child) || ast.isFlowWhereClause(up)) {
                return true;
            }
            if (ast.isStatement(up)) {
                return false;
            }
        }
        return false;
    }

    private useLabel(reference: ast.ColumnReference): string {
        const container = AstUtils.getContainerOfType(reference, (n): n is ast.Expectation | ast.SequenceByClause | ast.ApplyAsDeleteClause | ast.GroupByClause =>
            ast.isExpectation(n) || ast.isSequenceByClause(n) || ast.isApplyAsDeleteClause(n) || ast.isGroupByClause(n));
        const what = ast.isExpectation(container) ? `expectation '${container.name}'`
            : ast.isSequenceByClause(container) ? 'SEQUENCE BY'
                : ast.isApplyAsDeleteClause(container) ? 'APPLY AS DELETE WHEN'
                    : ast.isGroupByClause(container) ? 'GROUP BY'
                        : this.inWhere(reference) ? 'WHERE' : 'select';
        return `${what} at ${this.place(reference).split(/[\\/]/).pop()}`;
    }

    //#endregion
}

function newColumn(name: string, type: TypeDescriptor, strength: number, use?: string): RequiredColumn {
    return { name, type, typeStrength: strength, roles: new Set(), predicates: [], fieldPredicates: [], uses: use ? [use] : [] };
}

/** `base` with the struct field path set to `leaf` (a struct is made where base is not one; no leaf: the field keeps its type, else STRING). */
function structWith(base: TypeDescriptor, path: readonly string[], leaf: TypeDescriptor | undefined): TypeDescriptor {
    if (path.length === 0) {
        return leaf ?? (base.kind === 'unknown' ? Types.string : base);
    }
    const fields: StructField[] = base.kind === 'struct' ? [...base.fields] : [];
    const index = fields.findIndex(f => lower(f.name) === lower(path[0]));
    const inner = structWith(index >= 0 ? fields[index].type : Types.unknown, path.slice(1), leaf);
    const updated: StructField = { name: path[0], type: inner, nullable: true };
    if (index >= 0) {
        fields[index] = updated;
    } else {
        fields.push(updated);
    }
    return Types.struct(fields);
}

/**
 * The requirements of a pipeline's sources without sample data, from its built SQL documents; `disk`
 * tells which sources have data (the sample catalog's disk unless given).
 */
export function sourceRequirements(services: PipelineSqlServices, pipeline: PipelineInfo, documents: readonly LangiumDocument[],
    disk?: SampleDisk): SourceRequirements {
    return new SourceRequirementCollector(services, pipeline, disk).collect(documents);
}
