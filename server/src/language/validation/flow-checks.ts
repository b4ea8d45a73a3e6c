/**
 * Checks of flows and their targets (docs/semantics.md §1, §3.5–§3.6, §12–§14): which kind of table each flow
 * kind may write (V12, V13, V25), whether its query must be streaming or batch (V9–V11), the REPLACE
 * flows (V8–V10), and the rules that involve several flows of one target (V16–V18).
 */
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import * as ast from '../generated/ast.js';
import { closestNames, lower, splitName } from '../references/dataset-names.js';
import type { DatasetInfo, FlowInfo, PipelineModel } from '../pipeline/pipeline-model.js';
import { isPythonCdcFlow, pythonPlace, type PythonDatasetEntry, type PythonFlowEntry } from '../../project/python/python-pipeline.js';
import { orderableKey } from './auto-cdc-checks.js';
import { Issues } from './issue-codes.js';
import { report, type IssueLocation, type ValidationContext } from './validation-context.js';

/** A dataset kind as messages name it. */
export const kindNames: Record<DatasetInfo['kind'], string> = {
    'streaming-table': 'streaming table',
    'materialized-view': 'materialized view',
    'temporary-view': 'temporary view',
    'view': 'view',
    'managed-table': 'managed table',
};

/** Whether a flow kind is a change-data-capture flow (AUTO CDC or snapshot). */
export function isCdcFlow(flow: FlowInfo): boolean {
    return flow.kind === 'auto-cdc' || flow.kind === 'auto-cdc-once' || flow.kind === 'snapshot' || flow.kind === 'snapshot-once';
}

/** The flow checks, registered for every statement that defines a flow and for REPLACE / INSERT flow bodies. */
export class FlowChecks {

    constructor(private readonly context: ValidationContext) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            CreateFlow: this.checkFlowStatement,
            ApplyChanges: this.checkFlowStatement,
            CreateStreamingTable: this.checkFlowStatement,
            CreateTable: this.checkFlowStatement,
            CreateMaterializedView: this.checkFlowStatement,
            InsertFlow: this.checkInsertFlow,
        };
    }

    /** Every check of the flow a statement defines. */
    checkFlowStatement = (statement: ast.Statement, accept: ValidationAcceptor): void => {
        const model = this.context.model(statement);
        const flow = model.flowOf(statement);
        if (!flow) {
            return;
        }
        if (!flow.inline) {
            if (!this.checkTargetExists(flow, model, accept)) {
                return;
            }
        }
        this.checkTargetKind(flow, accept);
        this.checkQueryMode(flow, model, accept);
        if (flow.target?.kind === 'streaming-table') {
            this.checkFlowsOfTarget(flow, flow.target, model, accept);
        }
    };

    /** A flow writes a dataset the pipeline defines; returns false when it does not. */
    private checkTargetExists(flow: FlowInfo, model: PipelineModel, accept: ValidationAcceptor): boolean {
        if (flow.target || !flow.targetRef) {
            return flow.target !== undefined;
        }
        const name = flow.targetName;
        const python = this.context.types.externalSource(flow.targetRef).python;
        if (python) {
            this.checkPythonTarget(flow, python, model, accept);
            return false;
        }
        const candidates = closestNames(name.split('.').at(-1) ?? name, model.datasets.map(d => d.displayName));
        const certain = this.context.certain(flow.statement);
        report(accept, Issues.FlowTargetNotFound, { target: name, certain, candidates }, { node: flow.targetRef },
            { name, candidates }, certain ? 'error' : 'warning');
        return false;
    }

    /**
     * A SQL flow into a dataset of the pipeline's Python files: the rules of a SQL target (V12, V13,
     * V25, and V16–V18 between its flows, SQL and Python alike).
     */
    private checkPythonTarget(flow: FlowInfo, target: PythonDatasetEntry, model: PipelineModel, accept: ValidationAcceptor): void {
        const location = { node: flow.targetRef ?? flow.body ?? flow.statement };
        const kind = target.kind.replace('-', ' ');
        if (isCdcFlow(flow)) {
            if (target.kind !== 'streaming-table') {
                report(accept, Issues.AutoCdcTargetNotStreamingTable, { target: target.displayName, kind }, location);
                return;
            }
        } else if (target.kind !== 'streaming-table' && target.kind !== 'sink') {
            report(accept, Issues.FlowIntoNonTable, { target: target.displayName, kind }, location);
            return;
        }
        if (target.kind !== 'streaming-table') {
            return;
        }
        const same = (other: PythonDatasetEntry | undefined): boolean => other?.file === target.file && other.dataset.range === target.dataset.range;
        const sqlFlows = model.flows.filter(f => f !== flow && !f.target && f.targetRef && same(this.context.types.externalSource(f.targetRef).python));
        this.checkMixedFlows(flow, target.displayName, [...sqlFlows], target.flows, location, accept);
    }

    /**
     * V18 across languages, and Apache Spark's one flow per AUTO CDC target: a SQL flow beside the
     * other flows of its target (`others`, SQL) and the Python flows into it.
     */
    private checkMixedFlows(flow: FlowInfo, target: string, others: readonly FlowInfo[], python: readonly PythonFlowEntry[],
        location: IssueLocation, accept: ValidationAcceptor): void {
        if (this.context.target !== 'databricks') {
            if (isCdcFlow(flow) && others.length + python.length > 0) {
                report(accept, Issues.MultipleFlowsToCdcTarget, { target }, location);
            }
            return;
        }
        if (!isCdcFlow(flow)) {
            const sqlCdc = others.find(isCdcFlow);
            const pythonCdc = python.find(isPythonCdcFlow);
            if (sqlCdc || pythonCdc) {
                report(accept, Issues.CdcTargetWithOtherFlows, { target, flow: flow.name }, flow.query ? { node: flow.query } : location,
                    { cdcFlow: sqlCdc?.name ?? pythonCdc!.flow.name });
            }
            return;
        }
        // The flow that appends is in a Python file, where no diagnostic can be shown: it is named here.
        const appender = python.find(f => !isPythonCdcFlow(f));
        if (appender) {
            report(accept, Issues.CdcTargetWithOtherFlows, { target, flow: appender.flow.name, where: pythonPlace(appender.file, appender.flow.range) }, location);
        }
    }

    /** V12, V13, V25: which kinds of tables each flow kind may write. */
    private checkTargetKind(flow: FlowInfo, accept: ValidationAcceptor): void {
        const target = flow.target;
        if (!target) {
            return;
        }
        const location = flow.targetRef ? { node: flow.targetRef } : { node: flow.body ?? flow.statement };
        if (isCdcFlow(flow)) {
            if (target.kind === 'managed-table') {
                report(accept, Issues.ManagedTableCdc, { target: target.displayName }, location, { target: target.displayName });
            } else if (target.kind !== 'streaming-table') {
                report(accept, Issues.AutoCdcTargetNotStreamingTable, { target: target.displayName, kind: kindNames[target.kind] }, location);
            }
            return;
        }
        if (flow.inline) {
            return;
        }
        if (target.kind === 'materialized-view' || target.kind === 'view' || target.kind === 'temporary-view') {
            report(accept, Issues.FlowIntoNonTable, { target: target.displayName, kind: kindNames[target.kind] }, location);
        } else if (target.kind === 'managed-table' && (flow.kind === 'replace-where' || flow.kind === 'replace-using')) {
            report(accept, Issues.ReplaceIntoManagedTable, { target: target.displayName, replace: flow.kind === 'replace-where' ? 'REPLACE WHERE' : 'REPLACE USING' }, location);
        }
    }

    /** V9–V11: streaming tables take streaming queries, ONCE flows and materialized views batch ones. */
    private checkQueryMode(flow: FlowInfo, model: PipelineModel, accept: ValidationAcceptor): void {
        if (!flow.query) {
            return;
        }
        const mode = model.queryMode(flow);
        const location = { node: flow.query };
        const targetName = flow.target?.displayName ?? flow.targetName;
        switch (flow.kind) {
            case 'append':
            case 'replace-using':
                if (mode === 'batch' && flow.target?.kind === 'streaming-table') {
                    // An unqualified name the files loaded do not define may be a temporary view, defined
                    // elsewhere, that reads a stream, unless the project file says which files the pipeline
                    // has. A qualified name is a table (or a persistent view, whose query is batch).
                    const unsure = this.context.certain(flow.statement) ? undefined
                        : flow.inputs.find(i => i.role === 'query' && !i.dataset && !i.catalogTable && ast.isDatasetRef(i.node)
                            && mayNameView(splitName(i.name)));
                    report(accept, Issues.BatchQueryForStreamingTable, { flow: flow.name, target: targetName, unsure: unsure?.name }, location,
                        { canAddOnce: flow.kind === 'append' && !flow.inline, sources: flow.inputs.filter(i => i.role === 'query').length },
                        unsure ? 'warning' : 'error');
                }
                break;
            case 'append-once':
                if (mode === 'streaming') {
                    report(accept, Issues.StreamingQueryForOnceFlow, { flow: flow.name }, location);
                }
                break;
            case 'materialized-view':
                if (mode === 'streaming') {
                    report(accept, Issues.StreamingQueryForMaterializedView, { target: targetName }, location);
                }
                break;
            default:
                break;
        }
    }

    /** V16–V18: snapshot flows, AUTO CDC flows and append flows sharing one target. */
    private checkFlowsOfTarget(flow: FlowInfo, target: DatasetInfo, model: PipelineModel, accept: ValidationAcceptor): void {
        const flows = target.flows;
        const snapshots = flows.filter(f => f.kind === 'snapshot' || f.kind === 'snapshot-once');
        const changeFeeds = flows.filter(f => f.kind === 'auto-cdc' || f.kind === 'auto-cdc-once');
        const location = { node: flow.targetRef ?? flow.body ?? flow.statement };
        // Flows of the pipeline's Python files into this SQL table follow the same rules.
        const python = model.pythonFlowsInto(target);
        if (this.context.target !== 'databricks') {
            if (isCdcFlow(flow) && flows.length + python.length > 1) {
                report(accept, Issues.MultipleFlowsToCdcTarget, { target: target.displayName }, location);
            }
            return;
        }
        if (python.length > 0 && snapshots.length === 0 && changeFeeds.length === 0) {
            this.checkMixedFlows(flow, target.displayName, flows.filter(f => f !== flow), python, location, accept);
        } else if (python.length > 0 && isCdcFlow(flow)) {
            this.checkMixedFlows(flow, target.displayName, [], python.filter(f => !isPythonCdcFlow(f)), location, accept);
        }
        if (snapshots.length > 1 && snapshots.includes(flow)) {
            report(accept, Issues.MultipleSnapshotFlows, { target: target.displayName, flows: snapshots.map(f => f.name) }, location);
        }
        if (snapshots.length > 0 && changeFeeds.length > 0 && isCdcFlow(flow)) {
            this.checkSnapshotInterop(flow, target, snapshots[0], changeFeeds, model, accept);
        }
        if (!isCdcFlow(flow) && (snapshots.length > 0 || changeFeeds.length > 0)) {
            const cdc = [...changeFeeds, ...snapshots][0];
            report(accept, Issues.CdcTargetWithOtherFlows, { target: target.displayName, flow: flow.name }, flow.query ? { node: flow.query } : location,
                { cdcFlow: cdc.name });
        }
        if (flow.kind === 'replace-where' && changeFeeds.length > 0) {
            report(accept, Issues.ReplaceWhereWithAutoCdc, { target: target.displayName }, location);
        }
    }

    /** V17: one snapshot flow plus AUTO CDC flows on one target (docs/semantics.md §11.5). */
    private checkSnapshotInterop(flow: FlowInfo, target: DatasetInfo, snapshot: FlowInfo, changeFeeds: readonly FlowInfo[],
        model: PipelineModel, accept: ValidationAcceptor): void {
        const location = { node: flow.targetRef ?? flow.body ?? flow.statement };
        const types = this.context.types;
        const specs = [snapshot, ...changeFeeds].map(f => f.snapshot ?? f.cdc).filter(s => s !== undefined);
        if (specs.some(s => types.scdKind(s) !== 1)) {
            report(accept, Issues.SnapshotInteropRequiresScd1, { target: target.displayName }, location);
            return;
        }
        const keysOf = (f: FlowInfo): string => ((f.snapshot ?? f.cdc)?.keys?.names ?? []).map(lower).sort().join(', ');
        if (flow !== snapshot && keysOf(flow) !== keysOf(snapshot)) {
            report(accept, Issues.SnapshotInteropKeysMismatch, { target: target.displayName, keys: `(${keysOf(flow)})`, other: `(${keysOf(snapshot)})` },
                { node: (flow.cdc ?? flow.snapshot)!, property: 'keys' });
        }
        const ignoreNulls = flow.cdc?.clauses.find(ast.isIgnoreNullUpdatesClause);
        if (ignoreNulls) {
            report(accept, Issues.SnapshotInteropIgnoreNulls, { target: target.displayName }, { node: ignoreNulls });
        }
        if (flow === snapshot) {
            if ((target.node.spec?.elements ?? []).some(ast.isExpectation)) {
                report(accept, Issues.SnapshotInteropExpectations, { target: target.displayName }, location);
            }
            if (model.pipeline.spec?.continuous) {
                report(accept, Issues.SnapshotInteropContinuous, { target: target.displayName }, location);
            }
        }
    }

    /** V8–V10: ONCE and the REPLACE clauses, BY NAME, the REPLACE USING keys and sequence column. */
    checkInsertFlow = (flow: ast.InsertFlow, accept: ValidationAcceptor): void => {
        const replace = flow.replaceUsing ? 'REPLACE USING' : flow.replaceWhere ? 'REPLACE WHERE' : undefined;
        if (!replace) {
            return;
        }
        if (flow.once) {
            report(accept, Issues.OnceWithReplace, { replace }, { node: flow, property: 'once' });
        }
        if (!flow.byName) {
            report(accept, Issues.ByNameRequired, { replace }, { node: flow, property: flow.replaceUsing ? 'replaceUsing' : 'replaceWhere' });
        }
        const using = flow.replaceUsing;
        if (!using) {
            return;
        }
        const seen = new Set<string>();
        const output = flow.query ? this.context.types.querySchema(flow.query) : undefined;
        (using.keys?.names ?? []).forEach((key, index) => {
            const keyLower = lower(key);
            if (seen.has(keyLower)) {
                report(accept, Issues.ReplaceUsingDuplicateKey, { key }, { node: using.keys, property: 'names', index });
            }
            seen.add(keyLower);
            const orderable = output ? orderableKey(output, key) : { ok: true };
            if (!orderable.ok) {
                report(accept, Issues.ReplaceUsingKeyNotOrderable, { key, type: orderable.type ?? 'unknown' }, { node: using.keys, property: 'names', index });
            }
        });
        if (!using.sequenceBy) {
            report(accept, Issues.ReplaceUsingMissingSequenceBy, undefined, { node: using }, { keys: using.keys?.names ?? [] });
        } else if (!ast.isColumnReference(using.sequenceBy) || using.sequenceBy.parts.length !== 1) {
            report(accept, Issues.ReplaceUsingSequenceNotColumn, undefined, { node: using, property: 'sequenceBy' });
        }
    };
}

/** Whether a table name as written may name a temporary view of the pipeline: `v` or the legacy `LIVE.v`. */
function mayNameView(parts: readonly string[]): boolean {
    return parts.length === 1 || (parts.length === 2 && parts[0].toLowerCase() === 'live');
}
