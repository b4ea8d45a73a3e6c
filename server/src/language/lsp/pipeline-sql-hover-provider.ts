import * as path from 'node:path';
import type { AstNode, LangiumDocument, MaybePromise } from 'langium';
import { AstUtils, GrammarUtils } from 'langium';
import { AstNodeHoverProvider } from 'langium/lsp';
import type { Hover, HoverParams } from 'vscode-languageserver';
import { changeFeedColumn } from '../builtins/table-read-options.js';
import {
    CLOUD_FILES_OPTIONS, DATA_TYPES, functionHoverMarkdown, getFunction, getKeywordDoc, keywordHoverMarkdown, READ_FILES_OPTIONS,
    tablePropertyHoverMarkdown, typeToString,
} from '../builtins/index.js';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { datasetKind, type DatasetInfo, type FlowInfo } from '../pipeline/pipeline-model.js';
import { lower } from '../references/dataset-names.js';
import { pythonDatasetCard } from '../../project/python/python-hover.js';
import type { RelationType } from '../types/relation-type.js';
import { codeSpan, datasetKindLabel, escapeMarkdown, linkTarget, rangeOf, relationTable } from './lsp-text.js';
import { PipelineSqlSymbols, SystemColumns, type SymbolTarget } from './pipeline-sql-symbols.js';
import { mergeSharedHovers } from './pipeline-sql-shared-files.js';

/**
 * Hover (Langium's `HoverProvider` service). Langium's default shows the documentation comment of
 * the declaration a cross-reference points to; pipeline SQL hovers explain much more than
 * declarations: the pipeline keywords and clauses (from the keyword docs), datasets (kind, columns,
 * where defined, which flows write them), columns (type and the relation they come from), functions
 * (signatures), read_files options, table properties and data types. So `getHoverContent` asks the
 * symbol finder what is under the cursor and builds the card for it.
 */
export class PipelineSqlHoverProvider extends AstNodeHoverProvider {

    private readonly services: PipelineSqlServices;
    private readonly symbols: PipelineSqlSymbols;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.services = services;
        this.symbols = new PipelineSqlSymbols(services);
    }

    /** In a file several pipelines list: each pipeline's card where they differ (see `mergeSharedHovers`). */
    override async getHoverContent(document: LangiumDocument, params: HoverParams): Promise<Hover | undefined> {
        const hover = await this.services.shared.pipeline.SharedFiles.askEachPipeline(document, each => this.hoverIn(each, params), mergeSharedHovers);
        return hover ?? undefined;
    }

    private hoverIn(document: LangiumDocument, params: HoverParams): Hover | undefined {
        const symbol = this.symbols.symbolAt(document, document.textDocument.offsetAt(params.position));
        if (!symbol) {
            return undefined;
        }
        const value = this.markdown(symbol.target);
        return value ? { contents: { kind: 'markdown', value }, range: rangeOf(document, symbol.start, symbol.end) } : undefined;
    }

    /** The card of a dataset or CTE declaration (the hook Langium's base class calls for declarations). */
    protected getAstNodeHoverContent(node: AstNode): MaybePromise<string | undefined> {
        if (ast.isDataset(node)) {
            return this.datasetCard(node);
        }
        return ast.isCommonTableExpression(node) ? this.cteCard(node) : undefined;
    }

    /** The Markdown for a symbol. */
    markdown(target: SymbolTarget): string | undefined {
        switch (target.kind) {
            case 'dataset': return this.datasetCard(target.node);
            case 'cte': return this.cteCard(target.node);
            case 'external': return this.externalCard(target.reference);
            case 'alias': return this.aliasCard(target.relation, target.name);
            case 'column': return this.columnCard(target);
            case 'function': return this.functionCard(target.name);
            case 'option': return this.optionCard(target.functionName, target.name);
            case 'property': return tablePropertyHoverMarkdown(target.key);
            case 'keyword': return keywordHoverMarkdown(target.id);
            case 'type': return this.typeCard(target.name);
        }
    }

    //#region Cards

    private datasetCard(node: ast.Dataset): string {
        const document = AstUtils.getDocument(node);
        const membership = this.services.pipeline.Registry.membershipOf(document.uri);
        const types = this.services.types.TypeComputer;
        const schema = types.datasetSchema(node);
        if (membership.role === 'catalog') {
            return [
                `**sample catalog table** ${codeSpan(node.name)}`,
                `Declared in ${this.link(node)}: a source table the pipeline reads; its rows come from the sample data under \`samples/\`.`,
                relationTable(schema),
            ].join('\n\n');
        }
        const info = this.services.pipeline.Model.datasetOf(node);
        const kind = datasetKindLabel(datasetKind(node));
        const lines = [`**${kind}** ${codeSpan(node.name)}${info?.private ? ' · private to the pipeline' : ''}`];
        const comment = node.clauses.find(ast.isCommentClause)?.comment;
        if (comment) {
            lines.push(escapeMarkdown(comment));
        }
        lines.push(`Defined in ${this.link(node)}.${info ? this.flowsSentence(info) : ''}`);
        lines.push(relationTable(schema));
        return lines.join('\n\n');
    }

    /** Which flows write a dataset, in a sentence (its own query is not listed). */
    private flowsSentence(info: DatasetInfo): string {
        const flows = info.flows.filter(f => !(f.inline && f.statement === info.node && f.query));
        if (flows.length === 0) {
            return '';
        }
        return ` Written by ${flows.map(f => this.flowText(f)).join(', ')}.`;
    }

    private flowText(flow: FlowInfo): string {
        const spec = flow.cdc ?? flow.snapshot;
        const scd = spec ? this.services.types.TypeComputer.scdKind(spec) : undefined;
        const storage = scd === undefined ? '' : scd === 'bitemporal' ? ', bitemporal' : `, SCD type ${scd}`;
        const kind = flow.kind.replace(/-/g, ' ').replace('auto cdc', 'AUTO CDC');
        const where = flow.inline ? 'inline' : this.link(flow.statement);
        return `flow ${codeSpan(flow.name)} (${kind}${storage}, ${where})`;
    }

    private cteCard(node: ast.CommonTableExpression): string {
        const types = this.services.types.TypeComputer;
        const schema = node.query ? types.querySchema(node.query) : undefined;
        const renamed: RelationType | undefined = schema && node.columns.length > 0
            ? { ...schema, columns: schema.columns.map((c, i) => ({ ...c, name: node.columns[i] ?? c.name })) } : schema;
        return [`**common table expression** ${codeSpan(node.name)}`, `Defined in ${this.link(node)}.`, renamed ? relationTable(renamed) : ''].filter(Boolean).join('\n\n');
    }

    private externalCard(reference: ast.DatasetRef): string {
        const source = this.services.types.TypeComputer.externalSource(reference);
        if (source.python) {
            const root = this.services.pipeline.Registry.pipelineOf(AstUtils.getDocument(reference).uri).rootPath;
            const sample = source.location && root ? path.relative(root, source.location).split(path.sep).join('/') : source.location;
            return pythonDatasetCard(source.python, source.relation, sample);
        }
        const lines = [`**table outside the pipeline** ${codeSpan(reference.ref.$refText)}`];
        if (source.location) {
            lines.push(`Sample data: ${codeSpan(source.location)}`);
        } else {
            lines.push('Not defined by the pipeline and not found in its sample catalog (`samples/`).');
        }
        if (source.problem) {
            lines.push(`⚠ ${escapeMarkdown(source.problem)}`);
        }
        lines.push(relationTable(source.relation));
        return lines.join('\n\n');
    }

    private aliasCard(relation: AstNode, name: string): string {
        const types = this.services.types.TypeComputer;
        let what = 'relation';
        if (ast.isTableReference(relation) && relation.table) {
            const target = relation.table.ref.ref;
            const name = codeSpan(relation.table.ref.$refText);
            what = ast.isDataset(target) ? `${datasetKindLabel(datasetKind(target))} ${name}`
                : ast.isCommonTableExpression(target) ? `common table expression ${name}` : `table ${name}`;
        } else if (ast.isSubqueryRelation(relation)) {
            what = 'subquery';
        } else if (ast.isTableFunctionCall(relation)) {
            what = codeSpan(`${relation.name}(…)`);
        }
        const schema = ast.isRelation(relation) ? types.relationSchema(relation) : undefined;
        return [`**alias** ${codeSpan(name)} for ${what}`, schema ? relationTable(schema) : ''].filter(Boolean).join('\n\n');
    }

    private columnCard(target: Extract<SymbolTarget, { kind: 'column' }>): string {
        const { column, type, field } = target;
        const name = field ?? column.name;
        const typeText = codeSpan(typeToString(type));
        const lines = [field ? `**field** ${codeSpan(name)} of ${codeSpan(column.name)}: ${typeText}` : `**column** ${codeSpan(name)}: ${typeText}`];
        const from = target.entry ? this.entryText(target.entry.node) : target.relationName ? codeSpan(target.relationName) : undefined;
        const origin = this.columnOrigin(column.node);
        const facts = [from ? `From ${from}` : undefined, origin].filter(Boolean);
        if (facts.length > 0) {
            lines.push(facts.join(' · ') + '.');
        }
        if (!field && SystemColumns.has(lower(name))) {
            lines.push('---', keywordHoverMarkdown(name.toUpperCase()) ?? '');
        }
        const feed = field ? undefined : changeFeedColumn(name);
        if (feed) {
            lines.push('---', `**${feed.name}** (change data feed column, never NULL)\n\n${feed.description}`);
        }
        return lines.join('\n\n');
    }

    /** What a FROM item is, for a column's hover: the dataset (with kind) or the table it reads. */
    private entryText(node: AstNode | undefined): string | undefined {
        if (ast.isTableReference(node) && node.table) {
            const target = node.table.ref.ref;
            const name = codeSpan(node.table.ref.$refText);
            if (ast.isDataset(target)) {
                const role = this.services.pipeline.Registry.membershipOf(AstUtils.getDocument(target).uri).role;
                return role === 'catalog' ? `${name} (sample catalog table)` : `${name} (${datasetKindLabel(datasetKind(target))})`;
            }
            return ast.isCommonTableExpression(target) ? `${name} (common table expression)` : name;
        }
        if (ast.isTableFunctionCall(node)) {
            return codeSpan(`${node.name}(…)`);
        }
        if (ast.isSubqueryRelation(node)) {
            return node.alias ? `subquery ${codeSpan(node.alias)}` : 'a subquery';
        }
        return undefined;
    }

    /** Where a column is declared or computed: a column definition, or a select item of a dataset or CTE. */
    private columnOrigin(node: AstNode | undefined): string | undefined {
        if (!node?.$cstNode) {
            return undefined;
        }
        const owner = AstUtils.getContainerOfType(node, (n): n is ast.Dataset | ast.CommonTableExpression => ast.isDataset(n) || ast.isCommonTableExpression(n));
        // A dataset recovered from a syntax error may have no name yet.
        const ownerName = owner?.name ? codeSpan(owner.name) : 'the query';
        if (ast.isColumnDef(node)) {
            return `declared in ${ownerName} (${this.link(node)})`;
        }
        if (ast.isSelectItem(node) && node.expression) {
            const expression = node.expression.$cstNode?.text.replace(/\s+/g, ' ') ?? '';
            const computed = ast.isColumnReference(node.expression) ? '' : ` as ${codeSpan(expression.length > 60 ? expression.slice(0, 59) + '…' : expression)}`;
            return `defined${computed} in ${ownerName} (${this.link(node)})`;
        }
        return undefined;
    }

    private functionCard(name: string): string | undefined {
        const f = getFunction(name);
        if (!f) {
            return undefined;
        }
        const doc = getKeywordDoc(f.name.toUpperCase());
        const parts = [functionHoverMarkdown(f) ?? ''];
        if (doc) {
            parts.push('---', keywordHoverMarkdown(doc.id) ?? '');
        }
        return parts.join('\n\n');
    }

    private optionCard(functionName: string, name: string): string | undefined {
        const f = getFunction(functionName);
        const options = f?.name === 'cloud_files' ? CLOUD_FILES_OPTIONS : f?.options ?? (f?.name === 'read_files' ? READ_FILES_OPTIONS : []);
        const option = options.find(o => lower(o.name) === lower(name));
        if (!option || !f) {
            return undefined;
        }
        const facts = [`${option.valueKind} value`];
        if (option.values) {
            facts.push(`one of ${option.values.map(v => `\`${v}\``).join(', ')}`);
        }
        if (option.defaultValue !== undefined) {
            facts.push(`default \`${option.defaultValue}\``);
        }
        if (option.formats) {
            facts.push(`for ${option.formats.join(', ')} files`);
        }
        return `**${option.name}** (option of \`${f.name}\`)\n\n${option.description}\n\n${facts.join(' · ')}`;
    }

    private typeCard(name: string): string | undefined {
        const info = DATA_TYPES.find(t => t.name === name.toUpperCase() || t.aliases.includes(name.toUpperCase()));
        return info ? `**${info.name}** (data type)\n\n\`\`\`sql\n${info.syntax}\n\`\`\`\n\n${info.description}` : undefined;
    }

    //#endregion

    /** A Markdown link to where a node is: `file.sql:12`. */
    private link(node: AstNode): string {
        const document = AstUtils.getDocument(node);
        const cst = GrammarUtils.findNodeForProperty(node.$cstNode, 'name') ?? node.$cstNode;
        const line = cst ? document.textDocument.positionAt(cst.offset).line + 1 : 1;
        const file = document.uri.path.split('/').pop() ?? document.uri.toString();
        return `[${escapeMarkdown(file)}:${line}](${linkTarget(document.uri.toString())}#L${line})`;
    }
}
