/**
 * Checks of dataset definitions and of what a pipeline file may contain: duplicate datasets and
 * flows across the pipeline's files (V14), cycles, streaming tables nothing writes, expectations
 * (V19), table layout (V20), and statements a pipeline does not run.
 */
import * as path from 'node:path';
import type { AstNode, ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils } from 'langium';
import { getFunction, isDeterministic } from '../../../../engine/src/spark/functions/catalog.js';
import * as ast from '../generated/ast.js';
import { referenceMatchesDataset } from '../references/dataset-names.js';
import { namespaceDefaultsAt } from '../references/pipeline-namespaces.js';
import { functionName, type DatasetInfo, type PipelineModel } from '../pipeline/pipeline-model.js';
import { ambiguousScratchNote } from '../pipeline/scratch-files.js';
import { isPythonCdcFlow, pythonPlace } from '../../project/python/python-pipeline.js';
import { kindNames } from './flow-checks.js';
import { Issues } from './issue-codes.js';
import { report, type ValidationContext } from './validation-context.js';

/** The dataset and file-level checks. */
export class DatasetChecks {

    constructor(private readonly context: ValidationContext) {}

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            CreateStreamingTable: [this.checkDataset],
            CreateMaterializedView: [this.checkDataset],
            CreateView: [this.checkDataset],
            CreateTable: [this.checkDataset],
            CreateFlow: this.checkFlowName,
            TableSpec: this.checkExpectations,
            PipelineFile: this.checkStatements,
        };
    }

    /** Duplicates (V14), cycles, streaming tables without flows, PARTITIONED BY with CLUSTER BY (V20). */
    checkDataset = (node: ast.Dataset, accept: ValidationAcceptor): void => {
        const model = this.context.model(node);
        const dataset = model.datasetOf(node);
        if (!dataset) {
            return;
        }
        const duplicated = this.checkDuplicates(dataset, accept);
        const cycle = model.cycleOf(dataset);
        if (cycle) {
            report(accept, Issues.CircularDependency, { cycle: cycle.map(d => d.displayName) }, { node, property: 'name' },
                { cycle: cycle.map(d => d.displayName) });
        }
        if ((dataset.kind === 'streaming-table' || dataset.kind === 'managed-table') && dataset.flows.length === 0 && !node.query && !duplicated
            && model.pythonFlowsInto(dataset).length === 0) {
            const certain = this.context.certain(node);
            report(accept, Issues.DatasetWithoutFlow, { name: dataset.displayName, kind: dataset.kind === 'managed-table' ? 'managed table' : 'streaming table', certain },
                { node, property: 'name' }, {}, certain ? 'error' : 'warning');
        }
        this.checkPythonFlowsInto(dataset, model, accept);
        const partitioned = node.clauses.find(ast.isPartitionedByClause);
        const clustered = node.clauses.find(ast.isClusterByClause);
        if (partitioned && clustered) {
            const second = node.clauses.indexOf(partitioned) > node.clauses.indexOf(clustered) ? partitioned : clustered;
            report(accept, Issues.PartitionAndCluster, undefined, { node: second });
        }
    };

    /** Two definitions of one dataset; a managed table reusing a streaming table's name is V14. Returns whether there are others. */
    private checkDuplicates(dataset: DatasetInfo, accept: ValidationAcceptor): boolean {
        const model = this.context.model(dataset.node);
        const defaults = namespaceDefaultsAt(dataset.node, model.pipeline.spec);
        const others = model.datasetsNamed(dataset.name.keys.at(-1) ?? '').filter(other => other !== dataset
            && referenceMatchesDataset(other.name, dataset.name, defaults) && referenceMatchesDataset(dataset.name, other.name, namespaceDefaultsAt(other.node, model.pipeline.spec)));
        const python = model.pythonNamesakes(dataset).filter(entry => referenceMatchesDataset(entry.name, dataset.name, defaults));
        if (others.length === 0 && python.length === 0) {
            return false;
        }
        const inPython = python.map(entry => `${path.basename(entry.file)}:${entry.dataset.range.start.line + 1}`);
        if (others.length === 0) {
            report(accept, Issues.DuplicateDataset, { name: dataset.displayName, other: inPython.join(', ') }, { node: dataset.node, property: 'name' });
            return true;
        }
        if (dataset.kind === 'managed-table' && others.some(o => o.kind === 'streaming-table')) {
            report(accept, Issues.StreamingTableToManagedTable, { name: dataset.displayName }, { node: dataset.node, property: 'name' });
            return true;
        }
        if (dataset.kind === 'streaming-table' && others.every(o => o.kind === 'managed-table')) {
            // The managed table carries the V14 error.
            return true;
        }
        report(accept, Issues.DuplicateDataset, { name: dataset.displayName, other: [...others.map(o => this.context.where(o.node, dataset.node)), ...inPython].join(', ') },
            { node: dataset.node, property: 'name' });
        return true;
    }

    /**
     * The flows of the pipeline's Python files into this dataset follow the rules of SQL flows (V12,
     * V25): a Python file shows no diagnostics, so the dataset names the flow and its line.
     */
    private checkPythonFlowsInto(dataset: DatasetInfo, model: PipelineModel, accept: ValidationAcceptor): void {
        for (const flow of model.pythonFlowsInto(dataset)) {
            const named = `'${flow.flow.name}' (${pythonPlace(flow.file, flow.flow.range)})`;
            const args = { target: dataset.displayName, kind: kindNames[dataset.kind], flow: named };
            if (isPythonCdcFlow(flow)) {
                if (dataset.kind !== 'streaming-table') {
                    report(accept, Issues.AutoCdcTargetNotStreamingTable, args, { node: dataset.node, property: 'name' });
                }
            } else if (dataset.kind === 'materialized-view' || dataset.kind === 'view' || dataset.kind === 'temporary-view') {
                report(accept, Issues.FlowIntoNonTable, args, { node: dataset.node, property: 'name' });
            }
        }
    }

    /** Explicit flow names (CREATE FLOW name) are unique in a pipeline, the flows of its Python files included. */
    checkFlowName = (node: ast.CreateFlow, accept: ValidationAcceptor): void => {
        if (!node.name) {
            return;
        }
        const model = this.context.model(node);
        const others = model.flowsNamed(node.name).filter(f => ast.isCreateFlow(f.statement) && f.statement !== node);
        const key = node.name.toLowerCase();
        const python = (model.python?.flows ?? []).filter(f => !f.flow.inline && f.flow.name.toLowerCase() === key);
        if (others.length > 0 || python.length > 0) {
            const other = [...others.map(o => this.context.where(o.statement, node)), ...python.map(f => pythonPlace(f.file, f.flow.range))];
            report(accept, Issues.DuplicateFlow, { name: node.name, other: other.join(', ') }, { node, property: 'name' });
        }
    };

    /** V19: unique expectation names; deterministic expressions without subqueries. Temporary views take none. */
    checkExpectations = (spec: ast.TableSpec, accept: ValidationAcceptor): void => {
        const dataset = spec.$container;
        const expectations = spec.elements.filter(ast.isExpectation);
        if (expectations.length === 0 || !ast.isDataset(dataset)) {
            return;
        }
        if (ast.isCreateView(dataset) && !dataset.live) {
            for (const expectation of expectations) {
                report(accept, Issues.ExpectationOnTemporaryView, undefined, { node: expectation });
            }
            return;
        }
        const seen = new Set<string>();
        for (const expectation of expectations) {
            const key = (expectation.name ?? '').toLowerCase();
            if (seen.has(key)) {
                report(accept, Issues.DuplicateExpectation, { name: expectation.name, dataset: dataset.name }, { node: expectation, property: 'name' });
            }
            seen.add(key);
            if (expectation.condition) {
                this.checkExpectationExpression(expectation.condition, accept);
            }
        }
    };

    private checkExpectationExpression(condition: ast.Expression, accept: ValidationAcceptor): void {
        for (const node of AstUtils.streamAst(condition)) {
            if (ast.isSubqueryExpression(node) || ast.isExistsExpression(node) || (ast.isInExpression(node) && node.query)) {
                report(accept, Issues.InvalidExpectation, { problem: 'it cannot contain a subquery.' }, { node });
            } else if (ast.isFunctionCall(node)) {
                const name = functionName(node);
                if (getFunction(name) && !isDeterministic(name)) {
                    report(accept, Issues.InvalidExpectation, { problem: `${name}() is not deterministic.` }, { node });
                }
            }
        }
    }

    /**
     * Statements a pipeline does not run: queries, DML, ALTER, CREATE SCHEMA, a stray CONSTRAINT. A
     * scratch file is made of queries and DML run on the pipeline's local state: nothing to say there.
     */
    checkStatements = (file: ast.PipelineFile, accept: ValidationAcceptor): void => {
        if (this.context.role(file) === 'scratch') {
            // Under a bundle root several pipelines share, its text did not tell which pipeline it is for.
            const membership = this.context.membership(file);
            if (membership.alsoIn && file.statements.length > 0) {
                const note = ambiguousScratchNote(membership.pipeline, membership.alsoIn);
                report(accept, Issues.AmbiguousScratchFile, { note }, { node: file.statements[0] as AstNode });
            }
            return;
        }
        for (const statement of file.statements) {
            const name = ignoredStatementName(statement);
            if (name) {
                report(accept, Issues.StatementNotInPipeline, { statement: name }, { node: statement as AstNode });
            }
        }
    };
}

function ignoredStatementName(statement: ast.Statement): string | undefined {
    switch (statement.$type) {
        case ast.Query.$type: return 'A query (SELECT)';
        case ast.InsertStatement.$type: return 'INSERT (outside CREATE FLOW)';
        case ast.UpdateStatement.$type: return 'UPDATE';
        case ast.DeleteStatement.$type: return 'DELETE';
        case ast.MergeStatement.$type: return 'MERGE';
        case ast.DescribeHistoryStatement.$type: return 'DESCRIBE HISTORY';
        case ast.AlterOwner.$type: return 'ALTER ... OWNER';
        case ast.CreateNamespace.$type: return `CREATE ${(statement as ast.CreateNamespace).kind ?? 'SCHEMA'}`;
        case ast.Expectation.$type: return 'A CONSTRAINT outside a dataset definition';
        default: return undefined;
    }
}
