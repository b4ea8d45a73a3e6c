/**
 * The outline of pipeline files (Langium's `DocumentSymbolProvider`, `WorkspaceSymbolProvider` and
 * `FoldingRangeProvider` services): datasets with their columns, expectations, CTEs and inline flow;
 * flows with what they write; symbols of every pipeline for "Go to Symbol in Workspace"; and folding
 * of statements, CTEs, subqueries, column lists, notebook cells and comment blocks. Everything here is
 * read from the syntax tree alone: outlines are asked for before a file is linked.
 */
import type { AstNode, CstNode, LangiumDocument, LangiumDocuments, LeafCstNode } from 'langium';
import { Cancellation, CstUtils, GrammarUtils, interruptAndCheck } from 'langium';
import type { FuzzyMatcher, LangiumSharedServices } from 'langium/lsp';
import { DefaultDocumentSymbolProvider, DefaultFoldingRangeProvider, DefaultWorkspaceSymbolProvider } from 'langium/lsp';
import type { DocumentSymbol, DocumentSymbolParams, FoldingRange, FoldingRangeParams, WorkspaceSymbol, WorkspaceSymbolParams } from 'vscode-languageserver';
import { FoldingRangeKind, SymbolKind } from 'vscode-languageserver';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices, PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import { datasetKind, scdKindOf } from '../pipeline/pipeline-model.js';
import { derivedName } from '../types/pipeline-sql-type-computer.js';
import { datasetKindLabel, rangeOf } from './lsp-text.js';

/** The symbol kind that stands for each dataset kind in outlines. */
function datasetSymbolKind(node: ast.Dataset): SymbolKind {
    switch (datasetKind(node)) {
        case 'streaming-table': return SymbolKind.Class;
        case 'materialized-view': return SymbolKind.Struct;
        case 'managed-table': return SymbolKind.Class;
        default: return SymbolKind.Interface;
    }
}

/** What a flow body does, in a few words: `AUTO CDC (SCD type 2)`, `append (once)`. */
export function flowSummary(body: ast.AutoCdcFlow | ast.InsertFlow | ast.ApplyChangesFlow | ast.ApplyChanges | undefined): string {
    if (!body) {
        return 'flow';
    }
    if (ast.isInsertFlow(body)) {
        return body.replaceUsing ? 'REPLACE USING' : body.replaceWhere ? 'REPLACE WHERE' : body.once ? 'append once' : 'append';
    }
    const spec = body.cdc;
    const scd = spec ? scdKindOf(spec) : 1;
    const storage = scd === 'bitemporal' ? 'bitemporal' : `SCD type ${scd}`;
    const kind = ast.isSnapshotSpec(spec) ? 'AUTO CDC FROM SNAPSHOT' : ast.isAutoCdcFlow(body) ? 'AUTO CDC' : 'APPLY CHANGES';
    return `${kind}${ast.isAutoCdcFlow(body) && body.once ? ' ONCE' : ''} (${storage})`;
}

/** Document symbols: one per dataset and flow, with their columns, expectations, CTEs and inline flows. */
export class PipelineSqlDocumentSymbolProvider extends DefaultDocumentSymbolProvider {

    private readonly registry: PipelineSqlServices['pipeline']['Registry'];

    constructor(services: PipelineSqlServices) {
        super(services);
        this.registry = services.pipeline.Registry;
    }

    override getSymbols(document: LangiumDocument, _params: DocumentSymbolParams): DocumentSymbol[] {
        const root = document.parseResult.value;
        if (!ast.isPipelineFile(root)) {
            return [];
        }
        const catalog = this.registry.membershipOf(document.uri).role === 'catalog';
        return root.statements.flatMap(statement => this.statementSymbols(document, statement, catalog));
    }

    private statementSymbols(document: LangiumDocument, statement: ast.Statement, catalog: boolean): DocumentSymbol[] {
        if (ast.isDataset(statement) && statement.name) {
            const detail = catalog ? 'sample catalog table' : datasetKindLabel(datasetKind(statement));
            const children = [...this.columnSymbols(document, statement), ...this.expectationSymbols(document, statement)];
            const flow = (statement as { flow?: ast.InlineFlow }).flow;
            if (flow?.body) {
                children.push(this.symbol(document, flow, 'FLOW', SymbolKind.Function, flowSummary(flow.body), []));
            }
            children.push(...this.cteSymbols(document, statement.query ?? (flow?.body && ast.isInsertFlow(flow.body) ? flow.body.query : undefined)));
            return [this.symbol(document, statement, statement.name, datasetSymbolKind(statement), detail, children, 'name')];
        }
        if (ast.isCreateFlow(statement) && statement.name) {
            const target = statement.body?.target?.ref.$refText;
            const detail = `${flowSummary(statement.body)}${target ? ` into ${target}` : ''}`;
            const query = ast.isInsertFlow(statement.body) ? statement.body.query : undefined;
            return [this.symbol(document, statement, statement.name, SymbolKind.Function, detail, this.cteSymbols(document, query), 'name')];
        }
        if (ast.isApplyChanges(statement) && statement.target) {
            return [this.symbol(document, statement, statement.target.ref.$refText, SymbolKind.Function, `${flowSummary(statement)} into ${statement.target.ref.$refText}`, [], 'target')];
        }
        if (ast.isSetStatement(statement) && (statement.key || statement.target)) {
            const name = statement.key ?? `${statement.scope} ${statement.target}`;
            return [this.symbol(document, statement, name, SymbolKind.Property, statement.value ?? 'pipeline setting', [])];
        }
        if (ast.isUseStatement(statement) && statement.name) {
            return [this.symbol(document, statement, statement.name, SymbolKind.Namespace, `USE ${statement.scope ?? 'SCHEMA'}`.trim(), [], 'name')];
        }
        return [];
    }

    /** Declared columns, else the named items of the dataset's own SELECT list. */
    private columnSymbols(document: LangiumDocument, dataset: ast.Dataset): DocumentSymbol[] {
        const declared = (dataset.spec?.elements ?? []).filter(ast.isColumnDef);
        if (declared.length > 0) {
            return declared.filter(c => c.name).map(c => this.symbol(document, c, c.name, SymbolKind.Field, c.type?.$cstNode?.text ?? '', [], 'name'));
        }
        const body = dataset.query?.body;
        if (!ast.isSelectQuery(body)) {
            return [];
        }
        return body.items.filter(i => i.expression && !ast.isStar(i.expression)).map(item => {
            const name = item.alias ?? item.aliases[0] ?? derivedName(item.expression!);
            return this.symbol(document, item, name, SymbolKind.Field, '', []);
        });
    }

    private expectationSymbols(document: LangiumDocument, dataset: ast.Dataset): DocumentSymbol[] {
        return (dataset.spec?.elements ?? []).filter(ast.isExpectation).filter(e => e.name).map(e => {
            const action = e.dropRow ? 'drop row' : e.failUpdate ? 'fail update' : 'warn';
            return this.symbol(document, e, e.name, SymbolKind.Event, `expectation (${action})`, [], 'name');
        });
    }

    private cteSymbols(document: LangiumDocument, query: ast.Query | undefined): DocumentSymbol[] {
        return (query?.ctes ?? []).filter(c => c.name).map(c => this.symbol(document, c, c.name, SymbolKind.Module, 'common table expression', [], 'name'));
    }

    private symbol(document: LangiumDocument, node: AstNode, name: string, kind: SymbolKind, detail: string, children: DocumentSymbol[], nameProperty?: string): DocumentSymbol {
        const cst = node.$cstNode!;
        const nameNode = nameProperty ? GrammarUtils.findNodeForProperty(cst, nameProperty) ?? cst : cst;
        return {
            name, kind, detail,
            range: rangeOf(document, cst.offset, cst.end),
            selectionRange: rangeOf(document, nameNode.offset, nameNode.end),
            children: children.length > 0 ? children : undefined,
        };
    }
}

/** Workspace symbols: the datasets and flows of every pipeline file the server knows. */
export class PipelineSqlWorkspaceSymbolProvider extends DefaultWorkspaceSymbolProvider {

    private readonly documents: LangiumDocuments;
    private readonly matcher: FuzzyMatcher;
    private readonly shared: PipelineSqlSharedServices;

    constructor(shared: LangiumSharedServices) {
        super(shared);
        this.shared = shared as PipelineSqlSharedServices;
        this.documents = shared.workspace.LangiumDocuments;
        this.matcher = shared.lsp.FuzzyMatcher;
    }

    override async getSymbols(params: WorkspaceSymbolParams, cancelToken = Cancellation.CancellationToken.None): Promise<WorkspaceSymbol[]> {
        const result: WorkspaceSymbol[] = [];
        const registry = this.shared.pipeline.Registry;
        for (const document of this.documents.all) {
            await interruptAndCheck(cancelToken);
            const root = document.parseResult.value;
            if (!ast.isPipelineFile(root)) {
                continue;
            }
            const membership = registry.membershipOf(document.uri);
            const container = membership.pipeline.spec?.name ?? document.uri.path.split('/').slice(-2, -1)[0];
            for (const statement of root.statements) {
                const entry = this.entry(statement, membership.role === 'catalog');
                if (entry && this.matcher.match(params.query, entry.name)) {
                    const cst = GrammarUtils.findNodeForProperty(statement.$cstNode, entry.property) ?? statement.$cstNode;
                    if (cst) {
                        result.push({
                            name: entry.name, kind: entry.kind, containerName: container,
                            location: { uri: document.uri.toString(), range: rangeOf(document, cst.offset, cst.end) },
                        });
                    }
                }
            }
        }
        return result;
    }

    private entry(statement: ast.Statement, catalog: boolean): { name: string; kind: SymbolKind; property: string } | undefined {
        if (ast.isDataset(statement) && statement.name) {
            return { name: statement.name, kind: catalog ? SymbolKind.Module : datasetSymbolKind(statement), property: 'name' };
        }
        if (ast.isCreateFlow(statement) && statement.name) {
            return { name: statement.name, kind: SymbolKind.Function, property: 'name' };
        }
        return undefined;
    }
}

/** Parts written in parentheses that fold: CTE bodies, subqueries and column lists. */
function isBracketed(node: AstNode): boolean {
    return ast.isCommonTableExpression(node) || ast.isSubqueryRelation(node) || ast.isSubqueryExpression(node) || ast.isExistsExpression(node)
        || ast.isTableSpec(node) || ast.isParenthesizedQuery(node);
}

/** Folding: statements, CTEs, subqueries, column lists, notebook cells and runs of comment lines. */
export class PipelineSqlFoldingRangeProvider extends DefaultFoldingRangeProvider {

    override getFoldingRanges(document: LangiumDocument, params: FoldingRangeParams): FoldingRange[] {
        const ranges = super.getFoldingRanges(document, params) as FoldingRange[];
        ranges.push(...this.cellRanges(document), ...this.lineCommentRanges(document));
        const seen = new Set<string>();
        return ranges.filter(r => {
            const key = `${r.startLine}:${r.endLine}:${r.kind ?? ''}`;
            return !seen.has(key) && seen.add(key) !== undefined;
        }).sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine || (a.kind ?? '').localeCompare(b.kind ?? ''));
    }

    /** A statement folds to its first line whatever it ends with; brackets keep their closing line visible. */
    protected override includeLastFoldingLine(node: CstNode, kind?: FoldingRangeKind): boolean {
        return ast.isPipelineFile(node.astNode.$container) && node.astNode.$cstNode === node ? true : super.includeLastFoldingLine(node, kind);
    }

    protected override shouldProcess(node: AstNode): boolean {
        return ast.isPipelineFile(node.$container) || ast.isCaseExpression(node) || isBracketed(node);
    }

    /** A bracketed part folds from its `(` to the line before its `)`, which stays visible with what follows it. */
    protected override collectObjectFolding(document: LangiumDocument, node: AstNode, acceptor: (range: FoldingRange) => void): void {
        if (!isBracketed(node) || !node.$cstNode) {
            super.collectObjectFolding(document, node, acceptor);
            return;
        }
        const own = CstUtils.flattenCst(node.$cstNode).filter(l => !l.hidden).toArray();
        const open = own.find(l => l.text === '(');
        const close = [...own].reverse().find(l => l.text === ')');
        if (open && close) {
            const start = open.range.start.line;
            const end = close.range.start.line - 1;
            if (end > start) {
                acceptor({ startLine: start, endLine: end });
            }
        }
    }

    /** Notebook cells: from a `-- COMMAND ----------` line to the line before the next one. */
    private cellRanges(document: LangiumDocument): FoldingRange[] {
        const root = document.parseResult.value.$cstNode;
        if (!root) {
            return [];
        }
        const breaks = CstUtils.flattenCst(root).filter(l => l.tokenType.name === 'CELL_BREAK').map(l => l.range.start.line).toArray();
        if (breaks.length === 0) {
            return [];
        }
        const lastLine = document.textDocument.lineCount - 1;
        const starts = [0, ...breaks];
        const result: FoldingRange[] = [];
        const blank = (line: number): boolean => document.textDocument.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).trim() === '';
        starts.forEach((start, i) => {
            let end = (starts[i + 1] ?? lastLine + 1) - 1;
            // Blank lines before the next cell stay visible.
            while (end > start && blank(end)) {
                end--;
            }
            if (end > start) {
                result.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Region });
            }
        });
        return result;
    }

    /** Two or more consecutive `--` comment lines fold as one comment. */
    private lineCommentRanges(document: LangiumDocument): FoldingRange[] {
        const root = document.parseResult.value.$cstNode;
        if (!root) {
            return [];
        }
        const lines = CstUtils.flattenCst(root).filter((l: LeafCstNode) => l.hidden && l.tokenType.name === 'SL_COMMENT').map(l => l.range.start.line).toArray();
        const result: FoldingRange[] = [];
        let start = 0;
        for (let i = 1; i <= lines.length; i++) {
            if (i === lines.length || lines[i] !== lines[i - 1] + 1) {
                if (i - start >= 2) {
                    result.push({ startLine: lines[start], endLine: lines[i - 1], kind: FoldingRangeKind.Comment });
                }
                start = i;
            }
        }
        return result;
    }
}
