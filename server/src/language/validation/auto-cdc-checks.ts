/**
 * Checks of AUTO CDC flows (docs/semantics.md §3.7, §3.8, §6 and §11): required and forbidden clauses, their
 * order, the combinations of SCD type and clauses (V2–V7, V26), the snapshot form (V3, V5, V15), the
 * column names the clauses use (V21–V23) and the declared schema of an SCD type 2 target (V24).
 */
import type { AstNode, ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils } from 'langium';
import { isOrderable, typesEqual, typeToString } from '../../../../engine/src/spark/spark-types.js';
import * as ast from '../generated/ast.js';
import { columnNames, findColumn, type RelationType } from '../types/relation-type.js';
import { lower } from '../references/dataset-names.js';
import { selectColumns } from '../types/pipeline-sql-type-computer.js';
import { Issues } from './issue-codes.js';
import { report, type ValidationContext } from './validation-context.js';

/** The documented order of the optional AUTO CDC clauses (docs/semantics.md §3.7); WHERE is the legacy filter. */
export const AutoCdcClauseRank: Readonly<Record<string, number>> = {
    [ast.FlowWhereClause.$type]: 1,
    [ast.IgnoreNullUpdatesClause.$type]: 1,
    [ast.ApplyAsDeleteClause.$type]: 2,
    [ast.ApplyAsTruncateClause.$type]: 3,
    [ast.SequenceByClause.$type]: 4,
    [ast.SystemSequenceByClause.$type]: 5,
    [ast.ColumnsClause.$type]: 6,
    [ast.StoredAsClause.$type]: 7,
    [ast.TrackHistoryClause.$type]: 8,
    [ast.ColumnsToUpdateClause.$type]: 9,
};

/** The rank of a clause type in {@link AutoCdcClauseRank}; undefined for a type that is no ranked clause. */
export function clauseRank(type: string): number | undefined {
    return Object.hasOwn(AutoCdcClauseRank, type) ? AutoCdcClauseRank[type] : undefined;
}

/** How a clause is written, for messages. */
export function clauseName(clause: ast.AutoCdcClause): string {
    switch (clause.$type) {
        case ast.IgnoreNullUpdatesClause.$type: return 'IGNORE NULL UPDATES';
        case ast.ApplyAsDeleteClause.$type: return 'APPLY AS DELETE WHEN';
        case ast.ApplyAsTruncateClause.$type: return 'APPLY AS TRUNCATE WHEN';
        case ast.SequenceByClause.$type: return 'SEQUENCE BY';
        case ast.SystemSequenceByClause.$type: return 'SYSTEM SEQUENCE BY';
        case ast.ColumnsClause.$type: return 'COLUMNS';
        case ast.StoredAsClause.$type:
            return (clause as ast.StoredAsClause).bitemporal ? 'STORED AS BITEMPORAL' : `STORED AS SCD TYPE ${(clause as ast.StoredAsClause).scdType}`;
        case ast.TrackHistoryClause.$type: return 'TRACK HISTORY ON';
        case ast.ColumnsToUpdateClause.$type: return 'COLUMNS TO UPDATE';
        case ast.FlowWhereClause.$type: return 'WHERE';
    }
}

/** The target name an AUTO CDC spec writes to, as written. */
export function cdcTargetName(spec: ast.AutoCdcSpec | ast.SnapshotSpec): string {
    const body = spec.$container;
    if ((ast.isAutoCdcFlow(body) || ast.isApplyChangesFlow(body) || ast.isApplyChanges(body)) && body.target) {
        return body.target.ref.$refText;
    }
    const dataset = AstUtils.getContainerOfType(spec, ast.isDataset);
    return dataset?.name ?? '';
}

/** Whether the flow of a spec is `AUTO CDC ONCE`. */
export function isOnce(spec: ast.AutoCdcSpec | ast.SnapshotSpec): boolean {
    return ast.isAutoCdcFlow(spec.$container) && spec.$container.once;
}

/** The AUTO CDC checks, registered for `AutoCdcSpec`, `SnapshotSpec` and the snapshot version functions. */
export class AutoCdcChecks {

    constructor(private readonly context: ValidationContext) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            AutoCdcSpec: [this.checkAutoCdcClauses, this.checkAutoCdcColumns, this.checkAutoCdcSource],
            SnapshotSpec: [this.checkSnapshotClauses, this.checkSnapshotColumns],
            TableFunctionCall: this.checkSnapshotVersionFunction,
        };
    }

    /** V2, V4–V7, V26: required clauses, combinations with the SCD type, duplicates and order. */
    checkAutoCdcClauses = (spec: ast.AutoCdcSpec, accept: ValidationAcceptor): void => {
        const clauses = spec.clauses;
        this.checkDuplicatesAndOrder(clauses, accept, this.context.target === 'databricks');
        if (!clauses.some(ast.isSequenceByClause)) {
            report(accept, Issues.AutoCdcMissingSequenceBy, { target: cdcTargetName(spec) }, { node: spec, property: 'keys' });
        }
        const stored = clauses.filter(ast.isStoredAsClause).at(-1);
        const scd = this.context.types.scdKind(spec);
        const storedText = stored ? clauseName(stored) : 'STORED AS SCD TYPE 1';
        for (const truncate of clauses.filter(ast.isApplyAsTruncateClause)) {
            if (scd !== 1) {
                report(accept, Issues.TruncateRequiresScd1, { stored: storedText }, { node: truncate }, { clause: 'truncate' });
            }
        }
        for (const track of clauses.filter(ast.isTrackHistoryClause)) {
            if (scd === 1) {
                report(accept, Issues.TrackHistoryRequiresScd2, undefined, { node: track }, { clause: 'track' });
            } else if (scd === 'bitemporal') {
                report(accept, Issues.TrackHistoryWithBitemporal, undefined, { node: track }, { clause: 'track' });
            }
        }
        const systemSequence = clauses.find(ast.isSystemSequenceByClause);
        if (scd === 'bitemporal' && !systemSequence && stored) {
            report(accept, Issues.BitemporalRequiresSystemSequence, undefined, { node: stored }, {});
        }
        if (systemSequence && scd !== 'bitemporal') {
            report(accept, Issues.SystemSequenceRequiresBitemporal, undefined, { node: systemSequence }, { clause: 'system' });
        }
        for (const update of clauses.filter(ast.isColumnsToUpdateClause)) {
            if (clauses.some(ast.isIgnoreNullUpdatesClause)) {
                report(accept, Issues.ColumnsToUpdateConflict, { with: 'IGNORE NULL UPDATES' }, { node: update }, { conflict: 'ignore-nulls' });
            } else if (scd === 'bitemporal') {
                report(accept, Issues.ColumnsToUpdateConflict, { with: 'STORED AS BITEMPORAL' }, { node: update }, { conflict: 'bitemporal' });
            }
        }
    };

    /** V26: a clause written twice, and clauses out of the documented order (Databricks only). */
    private checkDuplicatesAndOrder(clauses: readonly ast.AutoCdcClause[], accept: ValidationAcceptor, checkOrder: boolean): void {
        const seen = new Set<string>();
        let reportedOrder = false;
        clauses.forEach((clause, i) => {
            if (seen.has(clause.$type)) {
                report(accept, Issues.DuplicateClause, { clause: clauseName(clause).replace(/ SCD TYPE \d| BITEMPORAL/, '') }, { node: clause });
                return;
            }
            seen.add(clause.$type);
            if (!checkOrder || reportedOrder) {
                return;
            }
            const later = clauses.slice(0, i).find(previous => AutoCdcClauseRank[previous.$type] > AutoCdcClauseRank[clause.$type]);
            if (later) {
                reportedOrder = true;
                report(accept, Issues.AutoCdcClauseOrder, { clause: clauseName(clause), before: clauseName(later) }, { node: clause });
            }
        });
    }

    /** V21–V24: the columns named by KEYS, IGNORE NULL UPDATES ON, COLUMNS, TRACK HISTORY ON and COLUMNS TO UPDATE. */
    checkAutoCdcColumns = (spec: ast.AutoCdcSpec, accept: ValidationAcceptor): void => {
        const types = this.context.types;
        const source = types.cdcSourceSchema(spec);
        const sourceName = spec.source?.table ? `the source '${spec.source.table.ref.$refText}'` : 'the source';
        if (spec.keys) {
            this.checkNames(spec.keys, 'KEYS', source, sourceName, accept);
        }
        const selection = spec.clauses.find(ast.isColumnsClause);
        for (const clause of spec.clauses) {
            if (ast.isIgnoreNullUpdatesClause(clause) && clause.columns) {
                this.checkNames(clause.columns, 'IGNORE NULL UPDATES ON', source, sourceName, accept);
            } else if (ast.isColumnsClause(clause) && clause.columns) {
                this.checkNames(clause.columns, 'COLUMNS', source, sourceName, accept);
            } else if (ast.isColumnsToUpdateClause(clause) && clause.column) {
                this.checkName(clause.column, 'COLUMNS TO UPDATE', source, sourceName, { node: clause, property: 'column' }, accept);
            }
        }
        const output = selectColumns(source, selection?.columns);
        for (const clause of spec.clauses.filter(ast.isTrackHistoryClause)) {
            if (clause.columns) {
                this.checkNames(clause.columns, 'TRACK HISTORY ON', output, 'the columns the flow writes', accept);
            }
        }
        // V22: the keys must be among the selected columns (keys V21 already rejects are left alone).
        if (selection?.columns && spec.keys) {
            const listed = new Set(selection.columns.names.map(lower));
            spec.keys.names.forEach((key, index) => {
                if (!key || key.includes('.') || types.resolveName(key, source).kind === 'missing') {
                    return;
                }
                const selected = selection.columns.star ? !listed.has(lower(key)) : listed.has(lower(key));
                if (!selected) {
                    report(accept, Issues.AutoCdcKeyNotSelected, { key }, { node: spec.keys, property: 'names', index }, { key });
                }
            });
        }
        this.checkReservedColumns(spec, output, selection ?? spec.source, accept);
        this.checkDeclaredScd2Schema(spec, accept);
    };

    /** V23: columns the target gets from the source must not clash with the columns the SCD type adds. */
    private checkReservedColumns(spec: ast.AutoCdcSpec, output: RelationType, location: AstNode | undefined, accept: ValidationAcceptor): void {
        if (!location) {
            return;
        }
        const scd = this.context.types.scdKind(spec);
        const reserved = scd === 1 ? [] : scd === 2 ? ['__START_AT', '__END_AT']
            : ['__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT'];
        const clashing = output.columns.filter(c => reserved.some(r => r.toLowerCase() === c.name.toLowerCase())).map(c => c.name);
        if (clashing.length > 0) {
            report(accept, Issues.AutoCdcReservedColumn, { columns: clashing, stored: scd === 2 ? 'SCD TYPE 2' : 'BITEMPORAL' }, { node: location }, { columns: clashing });
        }
        for (const c of output.columns.filter(x => x.name.toLowerCase().startsWith('__spark_autocdc_'))) {
            report(accept, Issues.AutoCdcReservedPrefix, { column: c.name }, { node: location });
        }
    }

    /** V24: a declared schema of an SCD type 2 target must have the validity columns, typed like SEQUENCE BY. */
    private checkDeclaredScd2Schema(spec: ast.AutoCdcSpec, accept: ValidationAcceptor): void {
        const scd = this.context.types.scdKind(spec);
        const stored = spec.clauses.filter(ast.isStoredAsClause).at(-1);
        if (scd === 1 || !stored) {
            return;
        }
        const flow = this.context.model(spec).flowOf(spec.$container);
        const target = flow?.target;
        if (!target?.declaredSchema) {
            return;
        }
        const declared = this.context.types.datasetSchema(target.node);
        const wanted: Array<[string, ast.Expression | undefined]> = [
            ['__START_AT', spec.clauses.find(ast.isSequenceByClause)?.expression],
            ['__END_AT', spec.clauses.find(ast.isSequenceByClause)?.expression],
        ];
        if (scd === 'bitemporal') {
            const system = spec.clauses.find(ast.isSystemSequenceByClause)?.expression;
            wanted.push(['__SYSTEM_START_AT', system], ['__SYSTEM_END_AT', system]);
        }
        const problems: string[] = [];
        for (const [name, expression] of wanted) {
            const found = findColumn(declared, name);
            const type = expression ? this.context.types.typeOf(expression) : undefined;
            if (!found) {
                problems.push(`${name} is missing${type && type.kind !== 'unknown' ? ` (declare it as ${typeToString(type).toUpperCase()})` : ''}`);
            } else if (type && type.kind !== 'unknown' && found.type.kind !== 'unknown' && !typesEqual(found.type, type)) {
                problems.push(`${name} is declared ${typeToString(found.type).toUpperCase()} but the sequencing expression is ${typeToString(type).toUpperCase()}`);
            }
        }
        if (problems.length > 0) {
            report(accept, Issues.Scd2DeclaredSchema, { target: target.displayName, problem: problems.join('; ') + '.' }, { node: stored });
        }
    }

    /**
     * V11 for change feeds: AUTO CDC reads a stream, AUTO CDC ONCE a batch. A subquery source
     * (`FROM (SELECT ... FROM STREAM(x))`) is read like a temporary view inlined (A28): its own reads say how.
     */
    checkAutoCdcSource = (spec: ast.AutoCdcSpec, accept: ValidationAcceptor): void => {
        const source = spec.source;
        if (!source) {
            return;
        }
        const table = source.table;
        if (!table) {
            return;
        }
        const name = table.ref.$refText;
        if (isOnce(spec)) {
            if (source.streaming) {
                report(accept, Issues.AutoCdcOnceStreamingSource, { source: name }, { node: source }, { source: name });
            }
            return;
        }
        if (source.streaming) {
            return;
        }
        // A view whose own query reads a stream may be what makes the source streaming.
        const model = this.context.model(spec);
        const dataset = model.resolveDataset(table);
        if (dataset && (dataset.kind === 'temporary-view' || dataset.kind === 'view')) {
            const viewFlow = dataset.flows[0];
            if (!viewFlow || model.queryMode(viewFlow) !== 'batch') {
                return;
            }
        }
        report(accept, Issues.AutoCdcBatchSource, { source: name }, { node: source }, { source: name });
    };

    /** V3, V5, V26 for snapshots: only WITH VERSION, KEYS, STORED AS SCD TYPE 1|2 and TRACK HISTORY ON. */
    checkSnapshotClauses = (spec: ast.SnapshotSpec, accept: ValidationAcceptor): void => {
        const allowed = (c: ast.AutoCdcClause): boolean => (ast.isStoredAsClause(c) && !c.bitemporal) || ast.isTrackHistoryClause(c);
        for (const clause of spec.clauses) {
            if (!allowed(clause)) {
                report(accept, Issues.SnapshotClauseNotAllowed, { clause: clauseName(clause) }, { node: clause }, { clause: 'drop' });
            }
        }
        this.checkDuplicatesAndOrder(spec.clauses.filter(allowed), accept, this.context.target === 'databricks');
        const scd = this.context.types.scdKind(spec);
        for (const track of spec.clauses.filter(ast.isTrackHistoryClause)) {
            if (scd === 1) {
                report(accept, Issues.TrackHistoryRequiresScd2, undefined, { node: track }, { clause: 'track' });
            }
        }
        if (spec.snapshotTable) {
            report(accept, Issues.DeprecatedSnapshotTable, undefined, { node: spec, property: 'snapshotTable' });
        }
    };

    /** V21 for snapshots: KEYS and TRACK HISTORY ON name columns of the snapshot query. */
    checkSnapshotColumns = (spec: ast.SnapshotSpec, accept: ValidationAcceptor): void => {
        const source = this.context.types.cdcSourceSchema(spec);
        if (spec.keys) {
            this.checkNames(spec.keys, 'KEYS', source, 'the snapshot', accept);
        }
        for (const clause of spec.clauses.filter(ast.isTrackHistoryClause)) {
            if (clause.columns) {
                this.checkNames(clause.columns, 'TRACK HISTORY ON', source, 'the snapshot', accept);
            }
        }
    };

    /**
     * V15 (docs/semantics.md §11.3): `current_snapshot_version()` exists only in FROM SNAPSHOT (...), `last_snapshot_version()`
     * only in WITH VERSION (...); elsewhere Spark resolves the name as an ordinary table-valued function,
     * which is not defined (UNRESOLVABLE_TABLE_VALUED_FUNCTION). `current_snapshot_version()` in a flow
     * without WITH VERSION is INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION. The engine says the same at run time.
     */
    checkSnapshotVersionFunction = (call: ast.TableFunctionCall, accept: ValidationAcceptor): void => {
        const name = (call.name ?? '').toLowerCase();
        if (name !== 'current_snapshot_version' && name !== 'last_snapshot_version') {
            return;
        }
        const spec = AstUtils.getContainerOfType(call, ast.isSnapshotSpec);
        const inside = (query: ast.Query | undefined): boolean => query !== undefined && AstUtils.getContainerOfType(call, (n): n is ast.Query => n === query) !== undefined;
        const where = { node: call, property: 'name' } as const;
        if (name === 'current_snapshot_version') {
            if (!spec || !inside(spec.snapshotQuery)) {
                report(accept, Issues.UnresolvableSnapshotVersionFunction,
                    { fn: 'current_snapshot_version', allowed: 'inside the FROM SNAPSHOT (...) query of an AUTO CDC FROM SNAPSHOT flow with WITH VERSION (...)' }, where);
            } else if (!spec.versionQuery) {
                report(accept, Issues.InvalidSnapshotVersionFunction,
                    { fn: 'current_snapshot_version', allowed: 'inside the FROM SNAPSHOT (...) query of a flow that has WITH VERSION (...)' }, where);
            }
        } else if (!spec || !inside(spec.versionQuery)) {
            report(accept, Issues.UnresolvableSnapshotVersionFunction,
                { fn: 'last_snapshot_version', allowed: 'inside the WITH VERSION (...) query of an AUTO CDC FROM SNAPSHOT flow' }, where);
        }
    };

    private checkNames(list: ast.ColumnNameList | ast.ColumnSelection, clause: string, relation: RelationType, schemaName: string, accept: ValidationAcceptor): void {
        list.names.forEach((name, index) => this.checkName(name, clause, relation, schemaName, { node: list, property: 'names', index }, accept));
    }

    private checkName(name: string, clause: string, relation: RelationType, schemaName: string,
        location: { node: AstNode; property: string; index?: number }, accept: ValidationAcceptor): void {
        if (name.includes('.')) {
            report(accept, Issues.AutoCdcMultipartColumn, { column: name, clause }, location);
            return;
        }
        if (name.includes('${')) {
            return;
        }
        const resolution = this.context.types.resolveName(name, relation);
        if (resolution.kind === 'missing') {
            report(accept, Issues.AutoCdcColumnNotFound, { column: name, clause, schema: `${schemaName} (${columnNames(relation)})`, candidates: resolution.candidates },
                location, { name, candidates: resolution.candidates });
        }
    }
}

/** Whether a REPLACE USING key of this type can be ordered (V9). */
export function orderableKey(relation: RelationType, key: string): { ok: boolean; type?: string } {
    const found = findColumn(relation, key);
    if (!found || found.type.kind === 'unknown') {
        return { ok: true };
    }
    return { ok: isOrderable(found.type), type: typeToString(found.type) };
}
