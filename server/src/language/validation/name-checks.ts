/**
 * Checks of names: tables a query reads that exist nowhere (a warning: the real catalog may have
 * them), columns that certainly do not exist where the schema is fully known (queries, expectations,
 * AUTO CDC clauses), unknown functions, streaming reads of materialized views.
 */
import type { AstNode, ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils, GrammarUtils } from 'langium';
import type { Range } from 'vscode-languageserver';
import { allFunctionNames, getFunction } from '../../../../engine/src/spark/functions/catalog.js';
import * as ast from '../generated/ast.js';
import { closestNames, closestNamesIn, directFileRead, displayName, lower } from '../references/dataset-names.js';
import { operatorChainTop } from '../parser/operator-chains.js';
import { functionName } from '../pipeline/pipeline-model.js';
import { readsChangeFeed, writtenName, type ScopeEntry } from '../types/pipeline-sql-type-computer.js';
import { clauseName } from './auto-cdc-checks.js';
import { Issues } from './issue-codes.js';
import { report, type ValidationContext } from './validation-context.js';

/** INSERT, UPDATE, DELETE and MERGE outside a flow. */
function isDmlStatement(node: AstNode): boolean {
    return ast.isInsertStatement(node) || ast.isUpdateStatement(node) || ast.isDeleteStatement(node) || ast.isMergeStatement(node);
}

/** The name checks. */
export class NameChecks {

    constructor(private readonly context: ValidationContext) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            DatasetRef: this.checkDatasetReference,
            ColumnReference: this.checkColumnReference,
            FunctionCall: this.checkFunctionCall,
            TableFunctionCall: this.checkTableFunction,
            Star: this.checkStarExcept,
            InsertStatement: this.checkAssignedColumns,
            UpdateStatement: this.checkAssignedColumns,
            MergeStatement: this.checkAssignedColumns,
        };
    }

    /**
     * The columns a DML statement assigns (`UPDATE t SET c = …`, `INSERT INTO t (c, …)`, MERGE's
     * `UPDATE SET c = …` and `INSERT (c, …)`) are the target's: one it does not have is reported where
     * the target's columns are fully known. A name may be qualified by the target (`SET t.c = …`) and
     * go on into a struct (`SET address.zip = …`, only its column is checked).
     */
    checkAssignedColumns = (statement: ast.InsertStatement | ast.UpdateStatement | ast.MergeStatement, accept: ValidationAcceptor): void => {
        const target = this.context.types.dmlTarget(statement);
        if (!target.relation.complete) {
            return;
        }
        const check = (written: string | undefined, place: { node: AstNode; property: string; index?: number }): void => {
            const parts = written?.split('.').map(p => p.replace(/^`|`$/g, '')) ?? [];
            if (parts.length === 0 || parts.some(p => p === '' || p.includes('${'))) {
                return;
            }
            const qualified = target.qualifiers.filter(x => x.length < parts.length && x.every((p, i) => p === parts[i].toLowerCase()));
            const name = parts[qualified.reduce((n, x) => Math.max(n, x.length), 0)];
            const resolution = this.context.types.resolveName(name, target.relation);
            if (resolution.kind !== 'missing') {
                return;
            }
            report(accept, Issues.UnresolvedColumn, { name, where: describeScope(undefined, [target]), candidates: resolution.candidates },
                place, { name, candidates: resolution.candidates });
        };
        const assignments = (list: readonly ast.Assignment[]): void => list.forEach(a => check(a.column, { node: a, property: 'column' }));
        if (ast.isUpdateStatement(statement)) {
            assignments(statement.assignments);
        } else if (ast.isInsertStatement(statement)) {
            statement.columns.forEach((c, index) => check(c, { node: statement, property: 'columns', index }));
        } else {
            for (const action of statement.clauses.map(c => c.action)) {
                if (ast.isMergeUpdate(action)) {
                    assignments(action.assignments);
                } else if (ast.isMergeInsert(action)) {
                    action.columns.forEach((c, index) => check(c, { node: action, property: 'columns', index }));
                }
            }
        }
    };

    /** `* EXCEPT (c)`: each excluded column exists where the relations expanded are fully known. */
    checkStarExcept = (star: ast.Star, accept: ValidationAcceptor): void => {
        if (star.except.length === 0) {
            return;
        }
        const scope = this.context.types.scopeAt(star);
        const qualifier = star.qualifier.map(lower);
        const entries = (scope?.entries ?? []).filter(e => (qualifier.length > 0
            ? e.qualifiers.some(x => x.length === qualifier.length && x.every((p, i) => p === qualifier[i])) : e.inStar));
        if (entries.length === 0 || entries.some(e => !e.relation.complete)) {
            return;
        }
        const names = entries.flatMap(e => e.relation.columns.map(c => c.name));
        star.except.forEach((name, index) => {
            if (!name || name.includes('.') || names.some(n => n.toLowerCase() === name.toLowerCase())) {
                return;
            }
            const candidates = closestNames(name, names);
            report(accept, Issues.UnresolvedColumn, { name, where: describeScope(undefined, entries), candidates },
                { node: star, property: 'except', index }, { name, candidates });
        });
    };

    /** A table read that resolves nowhere; a `LIVE.` prefix; a streaming read of a materialized view. */
    checkDatasetReference = (reference: ast.DatasetRef, accept: ValidationAcceptor): void => {
        const text = reference.ref.$refText;
        if (/^live\s*\./i.test(text)) {
            report(accept, Issues.DeprecatedLivePrefix, { name: text.replace(/^live\s*\.\s*/i, '') }, { node: reference }, { name: text });
        }
        const owner = reference.$container;
        // Flow targets are the flow checks' business; DML statements are not run by the pipeline, but
        // those of a scratch file run on its local state: their target must be one of its tables.
        if (reference.$containerProperty === 'target' && !(isDmlStatement(owner) && this.context.role(reference) === 'scratch')) {
            return;
        }
        const target = reference.ref.ref;
        // A materialized view's change data feed can be read as a stream (docs/semantics.md §15.1, Beta on Databricks).
        const streaming = (ast.isTableReference(owner) && owner.stream && !readsChangeFeed(owner)) || (ast.isSourceRef(owner) && owner.streaming);
        if (target && ast.isCreateMaterializedView(target) && streaming) {
            report(accept, Issues.StreamingReadOfMaterializedView, { name: target.name }, { node: reference }, { name: text });
        }
        if (target || directFileRead(writtenName(reference))) {
            // `` delta.`/Volumes/...` ``, `` parquet.`...` ``: a read of files, not a catalog table.
            return;
        }
        const source = this.context.types.externalSource(reference);
        if (source.name.parameterized) {
            return;
        }
        if (source.python) {
            // A dataset of the pipeline's Python files: it exists; a stream cannot read a materialized view.
            if (streaming && source.python.kind === 'materialized-view') {
                report(accept, Issues.StreamingReadOfMaterializedView, { name: source.python.displayName }, { node: reference }, { name: text });
            }
            return;
        }
        if (source.problem || source.pending) {
            // Sample data that cannot be read (or may not be) is reported by SampleChecks; data still
            // being read is checked again once read.
            return;
        }
        if (source.location) {
            return;
        }
        const pipeline = this.context.pipeline(reference);
        const model = this.context.model(reference);
        const candidates = closestNamesIn(source.name.parts.at(-1) ?? text, model.datasetNames(), cteNames(reference));
        candidates.push(...closestCatalogTables(source.name.parts, this.context.catalogTables(reference)).filter(c => !candidates.includes(c)));
        const where = pipeline.samplesPath ? `no ${source.name.parts.join('/')} under samples/` : 'this file belongs to no pipeline folder';
        report(accept, Issues.TableNotFound, { name: displayName(source.name), where, candidates }, { node: reference }, { name: text, candidates });
    };

    /** A column that does not exist where every relation in scope is fully known. */
    checkColumnReference = (reference: ast.ColumnReference, accept: ValidationAcceptor): void => {
        if (reference.parts.some(p => p.includes('(') || p.includes('${'))) {
            return;
        }
        const resolution = this.context.types.resolveColumn(reference);
        if (resolution.kind !== 'missing') {
            return;
        }
        const data = { name: resolution.name, candidates: resolution.candidates };
        const clause = AstUtils.getContainerOfType(operatorChainTop(reference), (n): n is ast.AutoCdcClause =>
            ast.isSequenceByClause(n) || ast.isSystemSequenceByClause(n) || ast.isApplyAsDeleteClause(n) || ast.isApplyAsTruncateClause(n) || ast.isFlowWhereClause(n));
        if (clause && ast.isAutoCdcSpec(clause.$container)) {
            const source = this.context.types.cdcSourceSchema(clause.$container);
            report(accept, Issues.AutoCdcColumnNotFound, {
                column: resolution.name, clause: clauseName(clause), schema: `the source (${source.columns.map(c => c.name).join(', ')})`, candidates: resolution.candidates,
            }, { node: reference }, data);
            return;
        }
        const scope = this.context.types.scopeAt(reference);
        const where = describeScope(resolution.qualifier, scope?.entries ?? []);
        const merge = AstUtils.getContainerOfType(reference, ast.isMergeClause);
        if (merge?.not) {
            // A MERGE clause that sees one side only: `t.name` in WHEN NOT MATCHED names no relation
            // there, so its message says which side the clause sees rather than "column 't'".
            const side = merge.bySource ? 'WHEN NOT MATCHED BY SOURCE sees only the target' : 'WHEN NOT MATCHED sees only the source';
            const name = resolution.qualifier ? resolution.name : reference.parts.join('.');
            const candidates = resolution.qualifier || reference.parts.length === 1 ? resolution.candidates : [];
            report(accept, Issues.UnresolvedColumn, { name, where: `${where}: ${side}`, candidates }, { node: reference }, { name: resolution.name, candidates });
            return;
        }
        report(accept, Issues.UnresolvedColumn, { name: resolution.name, where, candidates: resolution.candidates }, { node: reference }, data);
    };

    /**
     * A function that is not built in (it may be a UDF, so a warning; qualified names are UDFs), or a
     * built-in one the local engine cannot run (a warning: a run stops before it starts).
     */
    checkFunctionCall = (call: ast.FunctionCall, accept: ValidationAcceptor): void => {
        if (call.parts.length !== 1 || call.parts[0].includes('${') || call.parts[0].includes('(')) {
            return;
        }
        const name = functionName(call);
        const fn = getFunction(name);
        if (fn && !fn.local) {
            report(accept, Issues.FunctionNotAvailableLocally, { name: call.parts[0] }, { node: call, range: nameRange(call) }, { name: fn.name });
        }
        // The catalog's rule for arguments the local engine cannot run (sha2(x, 384), to_json of a TIMESTAMP), with the types shown on hover.
        const reason = fn?.local?.unavailable?.(this.context.types.callArguments(call));
        if (fn && reason !== undefined) {
            report(accept, Issues.FunctionArgumentsNotAvailableLocally, { name: call.parts[0], reason }, { node: call, range: nameRange(call) }, { name: fn.name });
        }
        if (fn) {
            return;
        }
        const candidates = closestNames(name, allFunctionNames());
        report(accept, Issues.UnresolvedFunction, { name: call.parts[0], candidates }, { node: call, range: nameRange(call) }, { name: call.parts[0], candidates });
    };

    /** A table-valued function that is neither built in nor a pipeline source function, or one the local engine cannot run. */
    checkTableFunction = (call: ast.TableFunctionCall, accept: ValidationAcceptor): void => {
        const name = functionName(call);
        if (!name || name.includes('.') || name.includes('${')) {
            return;
        }
        const fn = getFunction(name);
        if (fn && !fn.local) {
            report(accept, Issues.FunctionNotAvailableLocally, { name: call.name }, { node: call, range: nameRange(call) }, { name: fn.name });
        }
        if (fn) {
            return;
        }
        const candidates = closestNames(name, allFunctionNames());
        report(accept, Issues.UnresolvedFunction, { name: call.name, candidates }, { node: call, range: nameRange(call) }, { name: call.name, candidates });
    };
}

/** The range of a call's name: from its start (after `STREAM` / `LATERAL`) to the opening parenthesis. */
function nameRange(call: ast.FunctionCall | ast.TableFunctionCall): Range | undefined {
    const paren = GrammarUtils.findNodeForKeyword(call.$cstNode, '(');
    const cst = call.$cstNode;
    if (!paren || !cst) {
        return undefined;
    }
    const prefix = ast.isTableFunctionCall(call) ? (GrammarUtils.findNodeForKeyword(cst, 'STREAM') ?? GrammarUtils.findNodeForKeyword(cst, 'LATERAL')) : undefined;
    const start = prefix && prefix.offset < paren.offset ? GrammarUtils.findNodeForProperty(cst, 'name')?.range.start ?? cst.range.start : cst.range.start;
    return { start, end: paren.range.start };
}

/**
 * The sample catalog tables one edit away from a name read (`cdc_data.user` for `cdc_data.users`):
 * the name is compared with as many trailing parts of each table's name as it has, and a table is
 * proposed by its full name.
 */
function closestCatalogTables(written: readonly string[], tables: ReadonlyArray<readonly string[]>): string[] {
    const byTail = new Map<string, string>();
    for (const parts of tables) {
        if (parts.length >= written.length) {
            byTail.set(parts.slice(-written.length).join('.'), displayName(parts));
        }
    }
    return closestNames(written.join('.'), byTail.keys()).map(tail => byTail.get(tail)!);
}

function cteNames(reference: ast.DatasetRef): string[] {
    const names: string[] = [];
    for (let node: AstNode | undefined = reference.$container; node; node = node.$container) {
        if (ast.isQuery(node)) {
            names.push(...node.ctes.map(c => c.name).filter((n): n is string => n !== undefined));
        }
    }
    return names;
}

/** Where a column was looked for, for the message: `'o' (columns a, b)` or the tables of the FROM clause. */
function describeScope(qualifier: string | undefined, entries: readonly ScopeEntry[]): string {
    const name = (e: ScopeEntry): string => (e.qualifiers[0] ? e.qualifiers.reduce((a, b) => (b.length > a.length ? b : a)).join('.')
        : ast.isFunctionCall(e.node) ? `GROUP BY ${functionName(e.node)}(...)` : 'the subquery');
    if (qualifier) {
        const entry = entries.find(e => e.qualifiers.some(q => q.join('.') === qualifier.toLowerCase()));
        return entry ? `${q(qualifier)} (${entry.relation.columns.map(c => c.name).join(', ')})` : q(qualifier);
    }
    const listed = entries.filter(e => !e.qualifiesOnly);
    if (listed.length === 0) {
        return 'this query';
    }
    return listed.map(e => `${q(name(e))} (${e.relation.columns.map(c => c.name).join(', ')})`).join(', ');
}

function q(text: string): string {
    return `'${text}'`;
}
