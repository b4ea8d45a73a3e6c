/**
 * Checks of the dialect: legacy syntax that still works but has a modern form (hints), and the
 * features the chosen target runtime lacks (docs/semantics.md §17, the `pipelineSql.target` setting).
 */
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import { CstUtils, isLeafCstNode } from 'langium';
import { getFunction } from '../../../../engine/src/spark/functions/catalog.js';
import { getKeywordDoc } from '../builtins/keyword-docs.js';
import * as ast from '../generated/ast.js';
import { functionName } from '../pipeline/pipeline-model.js';
import { describeTarget } from '../pipeline/pipeline-sql-settings.js';
import { Issues } from './issue-codes.js';
import { keywordSpan, report, type IssueLocation, type ValidationContext } from './validation-context.js';

/** Legacy syntax (hints with the modern form) and features missing from the target runtime. */
export class SyntaxChecks {

    constructor(private readonly context: ValidationContext) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            CreateStreamingTable: [this.checkLegacyDataset, this.checkDatasetFeatures, this.checkQueryWithoutAs],
            CreateMaterializedView: [this.checkLegacyDataset, this.checkDatasetFeatures, this.checkQueryWithoutAs],
            CreateView: [this.checkLegacyDataset, this.checkDatasetFeatures],
            CreateTable: this.checkDatasetFeatures,
            CreateFlow: this.checkFlowFeatures,
            ApplyChanges: this.checkLegacyApplyChanges,
            ApplyChangesFlow: this.checkLegacyApplyChanges,
            AutoCdcFlow: this.checkFlowFeatures,
            InsertFlow: this.checkFlowFeatures,
            AutoCdcSpec: this.checkClauseFeatures,
            SnapshotSpec: this.checkClauseFeatures,
            Expectation: this.checkExpectationFeature,
            DatasetRef: this.checkLiveFeature,
            TableFunctionCall: this.checkFunctionFeature,
            FunctionCall: this.checkFunctionFeature,
            RowFilterClause: (node, accept) => this.unsupported('WITH ROW FILTER', { node }, accept),
            MaskProperty: (node, accept) => this.unsupported('MASK', { node }, accept),
            GeneratedAsProperty: (node, accept) => this.unsupported('GENERATED ALWAYS AS', { node }, accept),
        };
    }

    /** Reports a feature the target profile lacks (its Spark availability in the keyword docs says so). */
    private unsupported(featureId: string, location: IssueLocation, accept: ValidationAcceptor, note?: string): void {
        const target = this.context.target;
        if (target === 'databricks') {
            return;
        }
        const spark = getKeywordDoc(featureId)?.spark ?? 'no';
        if (spark === 'yes' || (spark === '4.2' && target === 'spark-4.2')) {
            return;
        }
        const feature = /^[A-Z_]+$/.test(featureId) && featureId.includes('_') ? `${featureId.toLowerCase()}()` : featureId;
        report(accept, Issues.UnsupportedInTarget, { feature, target: describeTarget(target), note }, location, { feature: featureId });
    }

    /** `CREATE LIVE TABLE`, `STREAMING LIVE TABLE`, `INCREMENTAL LIVE TABLE`, `LIVE VIEW`: legacy spellings with a modern form. */
    checkLegacyDataset = (node: ast.CreateStreamingTable | ast.CreateMaterializedView | ast.CreateView, accept: ValidationAcceptor): void => {
        if (ast.isCreateMaterializedView(node) && node.legacyLiveTable) {
            report(accept, Issues.DeprecatedLiveTable, { legacy: 'CREATE LIVE TABLE', modern: 'CREATE MATERIALIZED VIEW' },
                { node, property: 'legacyLiveTable' }, { legacy: 'live-table' });
            this.unsupported('CREATE LIVE TABLE', { node, property: 'legacyLiveTable' }, accept);
        } else if (ast.isCreateStreamingTable(node) && node.incremental) {
            report(accept, Issues.DeprecatedLiveTable, { legacy: 'CREATE INCREMENTAL LIVE TABLE', modern: 'CREATE STREAMING TABLE' },
                { node, property: 'incremental' }, { legacy: 'incremental-live-table' });
            this.unsupported('LIVE', { node, property: 'live' }, accept);
        } else if (ast.isCreateStreamingTable(node) && node.live) {
            report(accept, Issues.DeprecatedLiveTable, { legacy: 'CREATE STREAMING LIVE TABLE', modern: 'CREATE STREAMING TABLE' },
                { node, property: 'live' }, { legacy: 'streaming-live-table' });
            this.unsupported('LIVE', { node, property: 'live' }, accept);
        } else if (ast.isCreateView(node) && node.live) {
            report(accept, Issues.DeprecatedLiveTable, { legacy: `CREATE ${node.temporary ? 'TEMPORARY ' : ''}${node.streaming ? 'STREAMING ' : ''}LIVE VIEW`, modern: 'CREATE TEMPORARY VIEW' },
                { node, property: 'live' }, { legacy: 'live-view' });
            this.unsupported('LIVE', { node, property: 'live' }, accept);
        }
    };

    /** `CREATE STREAMING TABLE t SELECT ...` without AS: valid (Spark's CTAS rule makes AS optional); a hint adds it for Apache Spark. */
    checkQueryWithoutAs = (node: ast.CreateStreamingTable | ast.CreateMaterializedView, accept: ValidationAcceptor): void => {
        const query = node.query?.$cstNode;
        if (!query || !node.$cstNode) {
            return;
        }
        const leaves = CstUtils.streamCst(node.$cstNode).filter(n => isLeafCstNode(n) && !n.hidden).toArray();
        const first = leaves.findIndex(leaf => leaf.offset >= query.offset);
        if (first > 0 && leaves[first - 1].text.toUpperCase() !== 'AS') {
            report(accept, Issues.QueryWithoutAs, undefined, { node: node.query!, range: leaves[first].range });
        }
    };

    /** `APPLY CHANGES INTO` (standalone or in CREATE FLOW): the legacy name of AUTO CDC. */
    checkLegacyApplyChanges = (node: ast.ApplyChanges | ast.ApplyChangesFlow, accept: ValidationAcceptor): void => {
        report(accept, Issues.DeprecatedApplyChanges, undefined, { node, keyword: 'CHANGES', range: keywordSpan(node, 'APPLY', 'INTO') },
            { statement: ast.isApplyChanges(node) });
        this.unsupported('APPLY CHANGES', { node, keyword: 'CHANGES' }, accept);
    };

    /** Dataset modifiers and clauses the target may lack: OR REFRESH, PRIVATE, managed tables, inline FLOW. */
    checkDatasetFeatures = (node: ast.Dataset, accept: ValidationAcceptor): void => {
        if (this.context.target === 'databricks') {
            return;
        }
        if (node.orRefresh) {
            this.unsupported('OR REFRESH', { node, keyword: 'REFRESH' }, accept);
        }
        if (node.private) {
            this.unsupported('PRIVATE', { node, keyword: 'PRIVATE' }, accept);
        }
        if (ast.isCreateTable(node)) {
            this.unsupported('CREATE TABLE FLOW', { node, property: 'name' }, accept, 'managed tables are a Databricks feature');
        }
        const flow = (node as { flow?: ast.InlineFlow }).flow;
        if (flow) {
            this.unsupported('FLOW', { node: flow, keyword: 'FLOW' }, accept);
        }
    };

    /** ONCE, REPLACE USING / WHERE, AUTO CDC itself, and FROM SNAPSHOT per target. */
    checkFlowFeatures = (node: ast.CreateFlow | ast.AutoCdcFlow | ast.InsertFlow, accept: ValidationAcceptor): void => {
        if (this.context.target === 'databricks') {
            return;
        }
        if (ast.isCreateFlow(node)) {
            if (node.orRefresh) {
                this.unsupported('OR REFRESH', { node, keyword: 'REFRESH' }, accept);
            }
            return;
        }
        if (ast.isAutoCdcFlow(node)) {
            this.unsupported(node.once ? 'AUTO CDC ONCE' : 'AUTO CDC', { node, keyword: 'CDC', range: keywordSpan(node, 'AUTO', node.once ? 'ONCE' : 'CDC') }, accept);
            return;
        }
        if (node.once) {
            this.unsupported('ONCE', { node, property: 'once' }, accept);
        }
        if (node.replaceUsing) {
            this.unsupported('REPLACE USING', { node, property: 'replaceUsing' }, accept);
        }
        if (node.replaceWhere) {
            this.unsupported('REPLACE WHERE', { node, property: 'replaceWhere' }, accept);
        }
    };

    /** The AUTO CDC clauses Spark does not have (TRUNCATE, SYSTEM SEQUENCE BY, BITEMPORAL, COLUMNS TO UPDATE, snapshots). */
    checkClauseFeatures = (spec: ast.AutoCdcSpec | ast.SnapshotSpec, accept: ValidationAcceptor): void => {
        if (this.context.target === 'databricks') {
            return;
        }
        if (ast.isSnapshotSpec(spec)) {
            this.unsupported('FROM SNAPSHOT', { node: spec, keyword: 'SNAPSHOT' }, accept);
            return;
        }
        for (const clause of spec.clauses) {
            const id = ast.isApplyAsTruncateClause(clause) ? 'APPLY AS TRUNCATE WHEN'
                : ast.isSystemSequenceByClause(clause) ? 'SYSTEM SEQUENCE BY'
                    : ast.isColumnsToUpdateClause(clause) ? 'COLUMNS TO UPDATE'
                        : ast.isStoredAsClause(clause) && clause.bitemporal ? 'BITEMPORAL'
                            : ast.isFlowWhereClause(clause) ? 'APPLY CHANGES' : undefined;
            if (id) {
                this.unsupported(id, { node: clause }, accept, id === 'APPLY CHANGES' ? 'the WHERE filter of APPLY CHANGES' : undefined);
            }
        }
    };

    /** Expectations are a Databricks feature. */
    checkExpectationFeature = (node: ast.Expectation, accept: ValidationAcceptor): void => {
        this.unsupported('CONSTRAINT', { node, keyword: 'EXPECT' }, accept, 'expectations are a Databricks feature');
    };

    /** The `LIVE.` prefix. */
    checkLiveFeature = (node: ast.DatasetRef, accept: ValidationAcceptor): void => {
        if (/^live\s*\./i.test(node.ref.$refText)) {
            this.unsupported('LIVE', { node }, accept);
        }
    };

    /** Databricks-only functions (`read_files`, `cloud_files`, the snapshot version functions …). */
    checkFunctionFeature = (node: ast.TableFunctionCall | ast.FunctionCall, accept: ValidationAcceptor): void => {
        if (this.context.target === 'databricks') {
            return;
        }
        const name = functionName(node);
        const location = { node, property: ast.isTableFunctionCall(node) ? 'name' : 'parts' };
        if (name === 'read_files' || name === 'current_snapshot_version' || name === 'last_snapshot_version') {
            this.unsupported(name.toUpperCase(), location, accept);
        } else if (name === 'cloud_files' || getFunction(name)?.databricksOnly) {
            report(accept, Issues.UnsupportedInTarget, { feature: `${name}()`, target: describeTarget(this.context.target), note: 'a Databricks function' },
                location, { feature: name });
        }
    };
}

