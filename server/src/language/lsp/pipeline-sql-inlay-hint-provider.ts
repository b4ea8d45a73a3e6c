import type { AstNode, LangiumDocument } from 'langium';
import { AstUtils, Cancellation, GrammarUtils } from 'langium';
import type { InlayHintAcceptor } from 'langium/lsp';
import { AbstractInlayHintProvider } from 'langium/lsp';
import type { InlayHint, InlayHintParams } from 'vscode-languageserver';
import { InlayHintKind } from 'vscode-languageserver';
import { typeToString } from '../../../../engine/src/spark/spark-types.js';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import type { RelationType } from '../types/relation-type.js';
import { escapeMarkdown } from './lsp-text.js';
import { mergeSharedInlayHints } from './pipeline-sql-shared-files.js';

/** The setting that turns the column type hints on (`pipelineSql.inlayHints.columnTypes`, off by default). */
export const ColumnTypeHintsSetting = 'pipelineSql.inlayHints.columnTypes';

/** Most characters a hint listing several columns shows before `…` (the tooltip has them all). */
const MaxListLength = 60;

/**
 * Inlay hints (Langium's `InlayHintProvider` service): the inferred types of the columns a dataset
 * outputs, after each item of the select list of its query (`: string`), after a `*` (the columns it
 * stands for) and after the name of a dataset that flows write (its inferred schema). Off unless
 * `pipelineSql.inlayHints.columnTypes` is on; the client's configuration is followed as it changes.
 */
export class PipelineSqlInlayHintProvider extends AbstractInlayHintProvider {

    private enabled = false;

    constructor(private readonly services: PipelineSqlServices) {
        super();
        const configuration = services.shared.workspace.ConfigurationProvider;
        configuration.onConfigurationSectionUpdate(update => {
            if (update.section === 'pipelineSql') {
                this.apply((update.configuration as { inlayHints?: unknown } | undefined)?.inlayHints);
            }
        });
        // The initial value arrives with the client's configuration once the server is initialised.
        void configuration.ready
            .then(() => configuration.getConfiguration(services.LanguageMetaData.languageId, 'inlayHints'))
            .then(value => this.apply(value, false))
            .catch((error: unknown) => console.error('Reading pipelineSql.inlayHints failed:', error));
    }

    private apply(value: unknown, refresh = true): void {
        const enabled = typeof value === 'object' && value !== null && (value as { columnTypes?: unknown }).columnTypes === true;
        if (enabled === this.enabled) {
            return;
        }
        this.enabled = enabled;
        // The editor asks again for the hints of the visible files.
        const connection = this.services.shared.lsp.Connection;
        if (refresh && connection) {
            connection.languages.inlayHint.refresh().catch((error: unknown) => console.warn('Inlay hint refresh was refused by the client:', error));
        }
    }

    override async getInlayHints(document: LangiumDocument, params: InlayHintParams, cancelToken = Cancellation.CancellationToken.None): Promise<InlayHint[] | undefined> {
        if (!this.enabled) {
            return [];
        }
        // In a file several pipelines list: one hint where they agree, else each pipeline's (see `mergeSharedInlayHints`).
        return this.services.shared.pipeline.SharedFiles.askEachPipeline(document,
            async each => await super.getInlayHints(each, params, cancelToken) ?? [], mergeSharedInlayHints, cancelToken);
    }

    computeInlayHint(node: AstNode, acceptor: InlayHintAcceptor): void {
        if (ast.isDataset(node)) {
            this.datasetHint(node, acceptor);
        } else if (ast.isSelectItem(node) && this.isDatasetOutput(node)) {
            this.itemHint(node, acceptor);
        }
    }

    /** A dataset written by flows (no query, no typed column list): its inferred schema after its name. */
    private datasetHint(dataset: ast.Dataset, acceptor: InlayHintAcceptor): void {
        const declared = (dataset.spec?.elements ?? []).some(e => ast.isColumnDef(e) && e.type);
        if (dataset.query || declared) {
            return;
        }
        const name = GrammarUtils.findNodeForProperty(dataset.$cstNode, 'name');
        const schema = this.services.types.TypeComputer.datasetSchema(dataset);
        if (!name || schema.columns.length === 0) {
            return;
        }
        acceptor(this.listHint(AstUtils.getDocument(dataset), name.end, schema));
    }

    /** An item of the select list that makes a column of a dataset (its own query, or a flow's query into it). */
    private isDatasetOutput(item: ast.SelectItem): boolean {
        const select = item.$container;
        const query = select?.$container;
        if (!ast.isSelectQuery(select) || !ast.isQuery(query)) {
            return false;
        }
        const owner = query.$container;
        return ast.isDataset(owner) || ast.isInsertFlow(owner);
    }

    private itemHint(item: ast.SelectItem, acceptor: InlayHintAcceptor): void {
        const cst = item.$cstNode;
        const expression = item.expression;
        if (!cst || !expression) {
            return;
        }
        const document = AstUtils.getDocument(item);
        const types = this.services.types.TypeComputer;
        if (ast.isStar(expression)) {
            const columns = starColumns(item, types.querySchema(item.$container as ast.SelectQuery));
            if (columns.columns.length > 0) {
                acceptor(this.listHint(document, cst.end, columns));
            }
            return;
        }
        const type = types.typeOf(expression);
        if (type.kind === 'unknown') {
            return;
        }
        acceptor({
            position: document.textDocument.positionAt(cst.end), label: `: ${typeToString(type)}`, kind: InlayHintKind.Type, paddingLeft: false,
        });
    }

    /** `: a int, b string, …` with every column in the tooltip. */
    private listHint(document: LangiumDocument, offset: number, relation: RelationType): InlayHint {
        const parts = relation.columns.map(c => `${c.name} ${typeToString(c.type)}`);
        let label = '';
        for (const part of parts) {
            const next = label ? `${label}, ${part}` : part;
            if (next.length > MaxListLength) {
                label = `${label}, …`;
                break;
            }
            label = next;
        }
        if (!relation.complete && !label.endsWith('…')) {
            label += ', …';
        }
        return {
            position: document.textDocument.positionAt(offset),
            label: `: ${label}`,
            kind: InlayHintKind.Type,
            paddingLeft: true,
            tooltip: { kind: 'markdown', value: parts.map(p => `- ${escapeMarkdown(p)}`).join('\n') },
        };
    }
}

/**
 * The output columns a `*` item stands for. Schema inference lists a query's columns in item order;
 * every other item's columns point to that item, so the columns of a star are the run of columns
 * between the columns of the items around it (two stars side by side share their run with the first).
 */
function starColumns(item: ast.SelectItem, output: RelationType): RelationType {
    const select = item.$container as ast.SelectQuery;
    const items = new Set<AstNode>(select.items);
    const index = select.items.indexOf(item);
    const before = new Set<AstNode>(select.items.slice(0, index).filter(i => !ast.isStar(i.expression)));
    let start = 0;
    output.columns.forEach((c, i) => {
        if (c.node && before.has(c.node)) {
            start = i + 1;
        }
    });
    let end = start;
    while (end < output.columns.length && !(output.columns[end].node && items.has(output.columns[end].node!))) {
        end++;
    }
    return { columns: output.columns.slice(start, end), complete: output.complete };
}
