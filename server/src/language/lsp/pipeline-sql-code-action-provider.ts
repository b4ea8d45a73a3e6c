import type { AstNode, LangiumDocument, MaybePromise } from 'langium';
import { GrammarUtils } from 'langium';
import type { CodeActionProvider } from 'langium/lsp';
import type { CodeAction, CodeActionParams, Command, Diagnostic } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import { isDatetime, isIntegral } from '../../../../engine/src/spark/spark-types.js';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { lower } from '../references/dataset-names.js';
import type { PipelineModelService } from '../pipeline/pipeline-model.js';
import type { RelationType } from '../types/relation-type.js';
import type { TypeComputer } from '../types/pipeline-sql-type-computer.js';
import { AutoCdcClauseRank } from '../validation/auto-cdc-checks.js';
import { IssueCodes, type IssueData } from '../validation/issue-codes.js';
import type { PipelineRegistry } from '../pipeline/pipeline-registry.js';
import { sampleDataActions } from './sample-data-actions.js';
import { mergeSharedCodeActions, type SharedFiles } from './pipeline-sql-shared-files.js';
import { clauseSeparator, EditCollector, findDocument, nodeAt, nodeAtRange } from './code-action-edits.js';

type Fix = (diagnostic: Diagnostic, document: LangiumDocument, data: IssueData) => CodeAction[];

/** Names that usually hold an event's sequence or time, for SEQUENCE BY skeletons. */
const sequenceNames = /(^|_)(seq|sequence|sequencenum|sequence_num|version|ts|timestamp|updated_at|event_ts|event_time|commit_ts|lsn)$/i;

/**
 * Quick fixes (Langium's `CodeActionProvider` service), dispatched on the code a diagnostic carries
 * in `diagnostic.data.code`: migrations of legacy syntax, "did you mean" for unknown names, skeletons
 * of missing AUTO CDC clauses, dropping or switching a conflicting clause, reordering clauses, turning
 * a managed table into a streaming table, and making a flow's read streaming or its flow ONCE. A fix
 * is offered only where the edit is unambiguous.
 */
export class PipelineSqlCodeActionProvider implements CodeActionProvider {

    private readonly model: PipelineModelService;
    private readonly types: TypeComputer;
    private readonly registry: PipelineRegistry;
    private readonly sharedFiles: SharedFiles;
    private readonly fixes: ReadonlyMap<string, Fix>;

    constructor(services: PipelineSqlServices) {
        this.model = services.pipeline.Model;
        this.types = services.types.TypeComputer;
        this.registry = services.pipeline.Registry;
        this.sharedFiles = services.shared.pipeline.SharedFiles;
        this.fixes = new Map<string, Fix>([
            [IssueCodes.DeprecatedApplyChanges, this.migrateApplyChanges],
            [IssueCodes.DeprecatedLiveTable, this.migrateLiveDataset],
            [IssueCodes.DeprecatedLivePrefix, this.dropLivePrefix],
            [IssueCodes.QueryWithoutAs, (diagnostic, document) => [
                this.action('Add AS before the query', diagnostic, new EditCollector().insert(document, diagnostic.range.start, 'AS '), true)]],
            [IssueCodes.TableNotFound, this.renameTo('Change to')],
            [IssueCodes.FlowTargetNotFound, this.renameTo('Change the target to')],
            [IssueCodes.UnresolvedFunction, this.renameTo('Change to')],
            [IssueCodes.UnresolvedColumn, this.renameColumn],
            [IssueCodes.AutoCdcColumnNotFound, this.renameColumn],
            [IssueCodes.AutoCdcEmptyKeys, this.addKeys],
            [IssueCodes.AutoCdcMissingSequenceBy, this.addSequenceBy],
            [IssueCodes.BitemporalRequiresSystemSequence, this.addSystemSequenceBy],
            [IssueCodes.TruncateRequiresScd1, this.dropOrSwitch('APPLY AS TRUNCATE WHEN', 'STORED AS SCD TYPE 1')],
            [IssueCodes.TrackHistoryRequiresScd2, this.dropOrSwitch('TRACK HISTORY ON', 'STORED AS SCD TYPE 2')],
            [IssueCodes.TrackHistoryWithBitemporal, this.dropOrSwitch('TRACK HISTORY ON')],
            [IssueCodes.SystemSequenceRequiresBitemporal, this.dropOrSwitch('SYSTEM SEQUENCE BY', 'STORED AS BITEMPORAL')],
            [IssueCodes.ColumnsToUpdateConflict, this.fixColumnsToUpdate],
            [IssueCodes.SnapshotClauseNotAllowed, this.dropOrSwitch('the clause')],
            [IssueCodes.DuplicateClause, this.dropOrSwitch('the repeated clause')],
            [IssueCodes.PartitionAndCluster, this.dropTableClause],
            [IssueCodes.AutoCdcClauseOrder, this.reorderClauses],
            [IssueCodes.ManagedTableCdc, this.makeStreamingTable],
            [IssueCodes.BatchQueryForStreamingTable, this.makeQueryStreaming],
            [IssueCodes.AutoCdcBatchSource, this.makeCdcSourceStreaming],
            [IssueCodes.StreamingQueryForOnceFlow, this.dropOnce],
            [IssueCodes.OnceWithReplace, this.dropOnce],
            [IssueCodes.ByNameRequired, this.addByName],
            [IssueCodes.StreamingReadOfMaterializedView, this.dropStream],
            [IssueCodes.AutoCdcKeyNotSelected, this.selectKey],
            [IssueCodes.AutoCdcReservedColumn, this.excludeReservedColumns],
        ]);
    }

    /** In a file several pipelines list: each pipeline's fixes, once each (see `mergeSharedCodeActions`). */
    getCodeActions(document: LangiumDocument, params: CodeActionParams): MaybePromise<Array<Command | CodeAction>> {
        return this.sharedFiles.askEachPipeline(document, each => this.actionsIn(each, params), mergeSharedCodeActions);
    }

    private actionsIn(document: LangiumDocument, params: CodeActionParams): Array<Command | CodeAction> {
        const actions: CodeAction[] = [];
        for (const diagnostic of params.context.diagnostics) {
            const data = diagnostic.data as IssueData | undefined;
            const fix = typeof data?.code === 'string' ? this.fixes.get(data.code) : undefined;
            if (fix) {
                try {
                    actions.push(...fix(diagnostic, document, data!));
                } catch (error) {
                    // A fix that cannot work out its edit is not offered; the diagnostic stays.
                    console.error(`Quick fix for ${data!.code} failed:`, error);
                }
            }
        }
        actions.push(...sampleDataActions(document.uri, params.context.diagnostics, this.registry.pipelineOf(document.uri).rootPath !== undefined));
        return actions;
    }

    private action(title: string, diagnostic: Diagnostic, edit: EditCollector, preferred = false): CodeAction {
        return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: edit.build(), ...(preferred ? { isPreferred: true } : {}) };
    }

    //#region Legacy syntax

    private migrateApplyChanges: Fix = (diagnostic, document) => {
        const node = nodeAtRange(document, diagnostic.range, (n): n is ast.ApplyChanges | ast.ApplyChangesFlow => ast.isApplyChanges(n) || ast.isApplyChangesFlow(n));
        if (!node) {
            return [];
        }
        const apply = GrammarUtils.findNodeForKeyword(node.$cstNode, 'APPLY');
        const last = GrammarUtils.findNodeForKeyword(node.$cstNode, ast.isApplyChanges(node) ? 'INTO' : 'CHANGES');
        if (!apply || !last) {
            return [];
        }
        const range = { start: apply.range.start, end: last.range.end };
        if (ast.isApplyChanges(node)) {
            // The legacy statement is a flow named after its target (docs/semantics.md §3.9).
            const name = (node.target?.ref.$refText ?? 'target').replace(/^live\s*\.\s*/i, '').split('.').at(-1)!;
            return [this.action('Migrate to CREATE FLOW ... AS AUTO CDC INTO', diagnostic,
                new EditCollector().replace(document, range, `CREATE FLOW ${name} AS AUTO CDC INTO`), true)];
        }
        return [this.action('Migrate to AUTO CDC INTO', diagnostic, new EditCollector().replace(document, range, 'AUTO CDC'), true)];
    };

    private migrateLiveDataset: Fix = (diagnostic, document, data) => {
        const node = nodeAtRange(document, diagnostic.range, ast.isDataset);
        if (!node?.$cstNode) {
            return [];
        }
        const keyword = (k: string): ReturnType<typeof GrammarUtils.findNodeForKeyword> => GrammarUtils.findNodeForKeyword(node.$cstNode, k);
        const edit = new EditCollector();
        switch (data.legacy) {
            case 'live-table': {
                const live = keyword('LIVE');
                const table = keyword('TABLE');
                if (!live || !table) {
                    return [];
                }
                edit.replace(document, { start: live.range.start, end: table.range.end }, 'MATERIALIZED VIEW');
                return [this.action('Change CREATE LIVE TABLE to CREATE MATERIALIZED VIEW', diagnostic, edit, true)];
            }
            case 'streaming-live-table': {
                const live = keyword('LIVE');
                const table = keyword('TABLE');
                if (!live || !table) {
                    return [];
                }
                edit.replace(document, { start: live.range.start, end: table.range.start }, '');
                return [this.action('Change to CREATE STREAMING TABLE', diagnostic, edit, true)];
            }
            case 'incremental-live-table': {
                const incremental = keyword('INCREMENTAL');
                const table = keyword('TABLE');
                if (!incremental || !table) {
                    return [];
                }
                edit.replace(document, { start: incremental.range.start, end: table.range.start }, 'STREAMING ');
                return [this.action('Change to CREATE STREAMING TABLE', diagnostic, edit, true)];
            }
            case 'live-view': {
                const first = ['TEMPORARY', 'TEMP', 'STREAMING', 'LIVE'].map(keyword).filter(k => k !== undefined).sort((a, b) => a!.offset - b!.offset)[0];
                const view = keyword('VIEW');
                if (!first || !view) {
                    return [];
                }
                edit.replace(document, { start: first.range.start, end: view.range.end }, 'TEMPORARY VIEW');
                return [this.action('Change to CREATE TEMPORARY VIEW', diagnostic, edit, true)];
            }
            default:
                return [];
        }
    };

    private dropLivePrefix: Fix = (diagnostic, document) => {
        const text = document.textDocument.getText(diagnostic.range);
        const stripped = text.replace(/^live\s*\.\s*/i, '');
        if (stripped === text) {
            return [];
        }
        return [this.action(`Drop the LIVE. prefix (${stripped})`, diagnostic, new EditCollector().replace(document, diagnostic.range, stripped), true)];
    };

    //#endregion

    //#region Did you mean

    private renameTo(verb: string): Fix {
        return (diagnostic, document, data) => {
            const candidates = (data.candidates as string[] | undefined) ?? [];
            return candidates.map((candidate, i) => this.action(`${verb} '${candidate}'`, diagnostic,
                new EditCollector().replace(document, diagnostic.range, candidate), i === 0 && candidates.length === 1));
        };
    }

    private renameColumn: Fix = (diagnostic, document, data) => {
        const name = data.name as string | undefined;
        const candidates = (data.candidates as string[] | undefined) ?? [];
        const text = document.textDocument.getText(diagnostic.range);
        const at = name ? text.toLowerCase().lastIndexOf(name.toLowerCase()) : -1;
        if (!name || at < 0) {
            return [];
        }
        const start = document.textDocument.offsetAt(diagnostic.range.start) + at;
        const range = { start: document.textDocument.positionAt(start), end: document.textDocument.positionAt(start + name.length) };
        return candidates.map((candidate, i) => this.action(`Change to '${candidate}'`, diagnostic,
            new EditCollector().replace(document, range, candidate), i === 0 && candidates.length === 1));
    };

    //#endregion

    //#region Missing clauses

    /** A plausible column for a skeleton: the first of the source whose name or type suits `want`. */
    private pickColumn(relation: RelationType, want: 'key' | 'sequence' | 'system', fallback: string): string {
        const columns = relation.columns;
        if (want === 'key') {
            return (columns.find(c => /(^|_)id$/i.test(c.name)) ?? columns[0])?.name ?? fallback;
        }
        if (want === 'system') {
            return (columns.filter(c => isDatetime(c.type)).at(-1) ?? columns.find(c => /system|recorded|ingest/i.test(c.name)))?.name ?? fallback;
        }
        return (columns.find(c => sequenceNames.test(c.name)) ?? columns.find(c => isDatetime(c.type)) ?? columns.find(c => isIntegral(c.type) && !/(^|_)id$/i.test(c.name)))?.name
            ?? fallback;
    }

    private addKeys: Fix = (diagnostic, document, data) => {
        const offset = document.textDocument.offsetAt(diagnostic.range.start);
        const spec = nodeAt(document, Math.max(0, offset - 1), ast.isAutoCdcSpec) ?? nodeAt(document, Math.max(0, offset - 1), ast.isSnapshotSpec);
        const key = spec ? this.pickColumn(this.types.cdcSourceSchema(spec), 'key', 'id') : 'id';
        const text = document.textDocument.getText();
        if (data.missing) {
            const atEnd = text[offset] === ';' || offset >= text.length;
            return [this.action(`Add KEYS (${key})`, diagnostic, new EditCollector().insert(document, diagnostic.range.start, atEnd ? ` KEYS (${key})` : `KEYS (${key}) `), true)];
        }
        return [this.action(`Add the key column ${key}`, diagnostic, new EditCollector().insert(document, diagnostic.range.start, key), true)];
    };

    /** Inserts a clause at its documented place: after the last clause that comes before it, else after KEYS. */
    private insertClause(spec: ast.AutoCdcSpec, rank: number, clauseText: string): EditCollector {
        const document = findDocument(spec);
        const before = spec.clauses.filter(c => AutoCdcClauseRank[c.$type] < rank).at(-1);
        const anchor: AstNode = before ?? spec.keys;
        const separator = spec.clauses[0] ? clauseSeparator(document, spec.clauses[0]) : ' ';
        return new EditCollector().insert(document, anchor.$cstNode!.range.end, `${separator}${clauseText}`);
    }

    private addSequenceBy: Fix = (diagnostic, document) => {
        const spec = nodeAtRange(document, diagnostic.range, ast.isAutoCdcSpec);
        if (!spec?.keys) {
            return [];
        }
        const column = this.pickColumn(this.types.cdcSourceSchema(spec), 'sequence', 'sequence_column');
        return [this.action(`Add SEQUENCE BY ${column}`, diagnostic, this.insertClause(spec, AutoCdcClauseRank[ast.SequenceByClause.$type], `SEQUENCE BY ${column}`), true)];
    };

    private addSystemSequenceBy: Fix = (diagnostic, document) => {
        const spec = nodeAtRange(document, diagnostic.range, ast.isAutoCdcSpec);
        if (!spec?.keys) {
            return [];
        }
        const column = this.pickColumn(this.types.cdcSourceSchema(spec), 'system', 'system_time');
        return [this.action(`Add SYSTEM SEQUENCE BY ${column}`, diagnostic,
            this.insertClause(spec, AutoCdcClauseRank[ast.SystemSequenceByClause.$type], `SYSTEM SEQUENCE BY ${column}`), true)];
    };

    //#endregion

    //#region Conflicting clauses

    /** Drops the reported clause; or switches the STORED AS clause to `switchTo`. */
    private dropOrSwitch(what: string, switchTo?: string): Fix {
        return (diagnostic, document) => {
            const clause = nodeAtRange(document, diagnostic.range, ast.isAutoCdcClause);
            const spec = clause?.$container;
            if (!clause || !(ast.isAutoCdcSpec(spec) || ast.isSnapshotSpec(spec))) {
                return [];
            }
            const actions = [this.action(`Remove ${what === 'the clause' || what === 'the repeated clause' ? documentText(clause) : what}`, diagnostic,
                new EditCollector().removeNode(clause), true)];
            if (switchTo) {
                const stored = spec.clauses.filter(ast.isStoredAsClause).at(-1);
                const edit = stored ? new EditCollector().replaceNode(stored, switchTo)
                    : ast.isAutoCdcSpec(spec) ? this.insertClause(spec, AutoCdcClauseRank[ast.StoredAsClause.$type], switchTo) : undefined;
                if (edit) {
                    actions.push(this.action(`Change to ${switchTo}`, diagnostic, edit));
                }
            }
            return actions;
        };
    }

    private fixColumnsToUpdate: Fix = (diagnostic, document, data) => {
        const clause = nodeAtRange(document, diagnostic.range, ast.isColumnsToUpdateClause);
        const spec = clause?.$container;
        if (!clause || !ast.isAutoCdcSpec(spec)) {
            return [];
        }
        const actions = [this.action('Remove COLUMNS TO UPDATE', diagnostic, new EditCollector().removeNode(clause), true)];
        const ignore = spec.clauses.find(ast.isIgnoreNullUpdatesClause);
        if (data.conflict === 'ignore-nulls' && ignore) {
            actions.push(this.action('Remove IGNORE NULL UPDATES', diagnostic, new EditCollector().removeNode(ignore)));
        }
        return actions;
    };

    private dropTableClause: Fix = (diagnostic, document) => {
        const clause = nodeAtRange(document, diagnostic.range, (n): n is ast.PartitionedByClause | ast.ClusterByClause => ast.isPartitionedByClause(n) || ast.isClusterByClause(n));
        return clause ? [this.action(`Remove ${ast.isClusterByClause(clause) ? 'CLUSTER BY' : 'PARTITIONED BY'}`, diagnostic, new EditCollector().removeNode(clause), true)] : [];
    };

    private reorderClauses: Fix = (diagnostic, document) => {
        const spec = nodeAtRange(document, diagnostic.range, ast.isAutoCdcSpec);
        if (!spec || spec.clauses.length < 2) {
            return [];
        }
        const text = document.textDocument.getText();
        const clauses = spec.clauses;
        // Comments between clauses would have no clause to travel with: no fix then.
        for (let i = 1; i < clauses.length; i++) {
            if (text.slice(clauses[i - 1].$cstNode!.end, clauses[i].$cstNode!.offset).trim() !== '') {
                return [];
            }
        }
        const sorted = [...clauses].sort((a, b) => AutoCdcClauseRank[a.$type] - AutoCdcClauseRank[b.$type]);
        const separator = clauseSeparator(document, clauses[1]);
        const range = { start: clauses[0].$cstNode!.range.start, end: clauses[clauses.length - 1].$cstNode!.range.end };
        return [this.action('Put the AUTO CDC clauses in the documented order', diagnostic,
            new EditCollector().replace(document, range, sorted.map(c => c.$cstNode!.text).join(separator)), true)];
    };

    //#endregion

    //#region Targets and streaming

    private makeStreamingTable: Fix = (diagnostic, document) => {
        const reference = nodeAtRange(document, diagnostic.range, ast.isDatasetRef);
        const statement = reference ? reference.$container : nodeAtRange(document, diagnostic.range, ast.isCreateTable);
        const flow = statement ? this.model.flowOf(statement.$container && ast.isCreateFlow(statement.$container) ? statement.$container : statement) : undefined;
        const target = flow?.target?.node ?? (ast.isCreateTable(statement) ? statement : undefined);
        const table = target ? GrammarUtils.findNodeForKeyword(target.$cstNode, 'TABLE') : undefined;
        if (!target || !table || !ast.isCreateTable(target)) {
            return [];
        }
        return [this.action(`Make '${target.name}' a streaming table`, diagnostic,
            new EditCollector().insert(findDocument(target), table.range.start, 'STREAMING '), true)];
    };

    private makeQueryStreaming: Fix = (diagnostic, document, data) => {
        const query = nodeAtRange(document, diagnostic.range, ast.isQuery);
        const statement = query?.$container;
        const flowNode = ast.isInsertFlow(statement) ? statement.$container?.$type === ast.InlineFlow.$type ? statement.$container.$container : statement.$container : statement;
        const flow = flowNode ? this.model.flowOf(flowNode) : undefined;
        if (!flow) {
            return [];
        }
        const actions: CodeAction[] = [];
        const batch = flow.inputs.filter(i => i.role === 'query' && !i.streaming);
        if (batch.length === 1) {
            const input = batch[0];
            const edit = new EditCollector();
            if (ast.isTableFunctionCall(input.node)) {
                edit.insert(document, input.node.$cstNode!.range.start, 'STREAM ');
            } else {
                edit.replaceNode(input.node, `STREAM(${input.node.$cstNode!.text})`);
            }
            actions.push(this.action(`Read ${input.name} as a stream`, diagnostic, edit, true));
        }
        const insert = ast.isInsertFlow(flow.body) ? flow.body : undefined;
        const insertKeyword = insert && data.canAddOnce ? GrammarUtils.findNodeForKeyword(insert.$cstNode, 'INSERT') : undefined;
        if (insertKeyword) {
            actions.push(this.action('Make it a one-time flow (INSERT ONCE)', diagnostic, new EditCollector().insert(document, insertKeyword.range.end, ' ONCE')));
        }
        return actions;
    };

    private makeCdcSourceStreaming: Fix = (diagnostic, document) => {
        const source = nodeAtRange(document, diagnostic.range, ast.isSourceRef);
        if (!source?.table) {
            return [];
        }
        const actions = [this.action(`Read ${source.table.ref.$refText} as a stream`, diagnostic,
            new EditCollector().replaceNode(source.table, `STREAM(${source.table.$cstNode!.text})`), true)];
        const flow = source.$container?.$container;
        const cdc = ast.isAutoCdcFlow(flow) ? GrammarUtils.findNodeForKeyword(flow.$cstNode, 'CDC') : undefined;
        if (cdc) {
            actions.push(this.action('Make it a one-time load (AUTO CDC ONCE)', diagnostic, new EditCollector().insert(document, cdc.range.end, ' ONCE')));
        }
        return actions;
    };

    private dropOnce: Fix = (diagnostic, document) => {
        const offset = document.textDocument.offsetAt(diagnostic.range.start);
        const flow = nodeAt(document, offset, (n): n is ast.InsertFlow => ast.isInsertFlow(n))
            ?? nodeAtRange(document, diagnostic.range, ast.isCreateFlow)?.body;
        const once = flow ? GrammarUtils.findNodeForKeyword(flow.$cstNode, 'ONCE') : undefined;
        if (!once) {
            return [];
        }
        const text = document.textDocument.getText();
        let end = once.end;
        while (end < text.length && /[ \t]/.test(text[end])) {
            end++;
        }
        return [this.action('Remove ONCE', diagnostic, new EditCollector().replace(document,
            { start: once.range.start, end: document.textDocument.positionAt(end) }, ''), true)];
    };

    private addByName: Fix = (diagnostic, document) => {
        const flow = nodeAtRange(document, diagnostic.range, ast.isInsertFlow);
        const replace = flow ? GrammarUtils.findNodeForKeyword(flow.$cstNode, 'REPLACE') : undefined;
        return replace ? [this.action('Add BY NAME', diagnostic, new EditCollector().insert(document, replace.range.start, 'BY NAME '), true)] : [];
    };

    private dropStream: Fix = (diagnostic, document) => {
        const reference = nodeAtRange(document, diagnostic.range, ast.isDatasetRef);
        const owner = reference?.$container;
        if (!reference || !(ast.isTableReference(owner) || ast.isSourceRef(owner)) || !owner.$cstNode) {
            return [];
        }
        const text = document.textDocument.getText();
        const start = owner.$cstNode.offset;
        let end = reference.$cstNode!.end;
        // `STREAM(x)`: the closing parenthesis goes too.
        const after = text.slice(end).match(/^\s*\)/);
        if (after && /^STREAM\s*\(/i.test(text.slice(start))) {
            end += after[0].length;
        }
        return [this.action('Read it as a batch (remove STREAM)', diagnostic, new EditCollector().replace(document,
            { start: document.textDocument.positionAt(start), end: document.textDocument.positionAt(end) }, reference.$cstNode!.text), true)];
    };

    private selectKey: Fix = (diagnostic, document, data) => {
        const spec = nodeAtRange(document, diagnostic.range, ast.isAutoCdcSpec);
        const columns = spec?.clauses.find(ast.isColumnsClause);
        const selection = columns?.columns;
        const key = data.key as string | undefined;
        if (!selection || !key || !columns) {
            return [];
        }
        if (!selection.star) {
            const last = selection.$cstNode!;
            const lastName = GrammarUtils.findNodesForProperty(last, 'names').at(-1);
            return lastName ? [this.action(`Add ${key} to COLUMNS`, diagnostic, new EditCollector().insert(document, lastName.range.end, `, ${key}`), true)] : [];
        }
        const remaining = selection.names.filter(n => lower(n) !== key.toLowerCase());
        const edit = remaining.length === 0 ? new EditCollector().removeNode(columns) : new EditCollector().replaceNode(columns, `COLUMNS * EXCEPT (${remaining.join(', ')})`);
        return [this.action(`Keep ${key} (remove it from EXCEPT)`, diagnostic, edit, true)];
    };

    private excludeReservedColumns: Fix = (diagnostic, document, data) => {
        const names = (data.columns as string[] | undefined) ?? [];
        const spec = nodeAt(document, document.textDocument.offsetAt(diagnostic.range.start), ast.isAutoCdcSpec);
        if (!spec || names.length === 0) {
            return [];
        }
        const columns = spec.clauses.find(ast.isColumnsClause);
        if (!columns) {
            return [this.action(`Leave out ${names.join(', ')}`, diagnostic,
                this.insertClause(spec, AutoCdcClauseRank[ast.ColumnsClause.$type], `COLUMNS * EXCEPT (${names.join(', ')})`), true)];
        }
        if (columns.columns?.star) {
            const all = [...columns.columns.names, ...names];
            return [this.action(`Leave out ${names.join(', ')}`, diagnostic, new EditCollector().replaceNode(columns, `COLUMNS * EXCEPT (${all.join(', ')})`), true)];
        }
        return [];
    };

    //#endregion
}

function documentText(node: AstNode): string {
    const text = node.$cstNode?.text ?? '';
    return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
