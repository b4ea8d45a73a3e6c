import type { AstNode, AstNodeDescription, LangiumDocument, ReferenceInfo } from 'langium';
import { AstUtils, Cancellation, GrammarAST } from 'langium';
import type { CompletionProviderOptions } from 'langium/lsp';
import { DefaultCompletionProvider } from 'langium/lsp';
import type { CompletionItem, CompletionParams, TextEdit } from 'vscode-languageserver';
import { CompletionItemKind, CompletionList, InsertTextFormat } from 'vscode-languageserver';
import {
    allFunctions, callSnippet, CLOUD_FILES_OPTIONS, DATA_TYPES, getFunction, isTableValued, signatureLabel, TABLE_PROPERTIES,
    typeToString, type BuiltinFunction, type FunctionOption, type TypeDescriptor,
} from '../../builtins/index.js';
import * as ast from '../../generated/ast.js';
import type { PipelineSqlServices } from '../../pipeline-sql-module.js';
import { datasetKind } from '../../pipeline/pipeline-model.js';
import { lower, splitName } from '../../references/dataset-names.js';
import { statementOf } from '../../references/pipeline-namespaces.js';
import { selectColumns } from '../../types/pipeline-sql-type-computer.js';
import type { ColumnScope, ScopeEntry } from '../../types/pipeline-sql-type-computer.js';
import { UnknownRelation, type Column, type RelationType } from '../../types/relation-type.js';
import { clauseRank } from '../../validation/auto-cdc-checks.js';
import { datasetKindLabel, quoteName } from '../lsp-text.js';
import { mergeSharedCompletions } from '../pipeline-sql-shared-files.js';
import {
    cdcClauseAllowed, cdcClauseOf, keywordProposals, OperatorRules, storageAllowed, type CdcSpecContext, type KeywordProposal,
} from './completion-keywords.js';
import {
    completionSiteAt, isNameFeature, PlaceholderName, ruleOf, siteDocument, statementAround, tokenEnd, unquote, type CompletionSite, type SiteDocument,
} from './completion-site.js';
import { StatementSnippets } from './completion-snippets.js';

/** Sort groups: what the context asks for first, then keywords, functions and snippets. */
const Sort = { first: '0', name: '1', keyword: '2', function: '3', snippet: '4', other: '5' } as const;

/**
 * Completion (Langium's `CompletionProvider` service). Langium's default proposes the grammar's next
 * keywords and cross-reference targets one token at a time; pipeline SQL needs more context than a
 * token: a clause is several words (`APPLY AS DELETE WHEN`), a column name is not a cross-reference
 * (it depends on the sources in scope, known from schema inference), and an AUTO CDC clause the
 * grammar accepts may still be wrong at the cursor (repeated, out of order, not for this SCD type).
 * So `getCompletion` is replaced: the grammar context still comes from Langium's completion parser
 * (see `completion-site.ts`), and each kind of thing expected there is proposed from the model, the
 * type computer and the built-in catalogs.
 */
export class PipelineSqlCompletionProvider extends DefaultCompletionProvider {

    override readonly completionOptions: CompletionProviderOptions = { triggerCharacters: ['.', '(', ','] };

    private readonly services: PipelineSqlServices;
    private functionItems?: CompletionItem[];

    constructor(services: PipelineSqlServices) {
        super(services);
        this.services = services;
    }

    /** In a file several pipelines list: the union of each pipeline's items (see `mergeSharedCompletions`). */
    override async getCompletion(document: LangiumDocument, params: CompletionParams, cancelToken = Cancellation.CancellationToken.None): Promise<CompletionList> {
        const list = await this.services.shared.pipeline.SharedFiles.askEachPipeline(document,
            each => this.completionIn(each, params, cancelToken), mergeSharedCompletions, cancelToken);
        return list ?? CompletionList.create([], false);
    }

    private async completionIn(document: LangiumDocument, params: CompletionParams, cancelToken: Cancellation.CancellationToken): Promise<CompletionList> {
        const offset = document.textDocument.offsetAt(params.position);
        const site = completionSiteAt(this.services, document, offset);
        if (!site) {
            return CompletionList.create([], false);
        }
        const items = await this.collect(site, cancelToken);
        return CompletionList.create(this.dedupe(items), false);
    }

    private async collect(site: CompletionSite, cancelToken: Cancellation.CancellationToken): Promise<CompletionItem[]> {
        if (site.inString) {
            return this.stringItems(site);
        }
        const argument = this.optionArgumentItems(site);
        if (argument) {
            return argument;
        }
        const features = site.grammar.features;
        // Without features the completion parser could not decide (`FROM STREAM(` at the end of the text):
        // the node the placeholder becomes decides instead.
        // After COLUMNS the completion parser follows only `COLUMNS TO UPDATE` (one token of look-ahead
        // decides for it), though `COLUMNS a, b` may follow as well: the placeholder copy tells which.
        const afterColumns = site.tokensBefore.at(-1)?.image.toUpperCase() === 'COLUMNS';
        const expectsName = afterColumns || features.length === 0 || insertColumnList(site.tokensBefore)
            || features.some(f => isNameFeature(f.feature) || GrammarAST.isCrossReference(f.feature));
        const items: CompletionItem[] = [];
        let placeholder: SiteDocument | undefined;
        if (expectsName) {
            placeholder = await siteDocument(this.services, site, true);
            if (cancelToken.isCancellationRequested) {
                return [];
            }
            items.push(...this.nameItems(site, placeholder));
        }
        if (site.qualifier.length === 0 && this.allColumnsBut(site)) {
            items.push(this.item(site, {
                label: '* EXCEPT (…)', kind: CompletionItemKind.Keyword, detail: 'every source column but the ones listed',
                insertText: '* EXCEPT ($0)', insertTextFormat: InsertTextFormat.Snippet, sortText: Sort.keyword + '0',
            }));
        }
        if (site.qualifier.length === 0) {
            items.push(...await this.keywordItems(site));
            if (features.some(f => ruleOf(f.feature) === 'TypeName')) {
                items.push(...this.typeItems(site));
            }
            if (this.atPropertyKey(site)) {
                items.push(...this.propertyItems(site));
            }
            if (site.tokensBefore.length === 0) {
                items.push(...this.snippetItems(site));
            }
        }
        return items;
    }

    /** Whether `* EXCEPT (…)` may start at the cursor: right after AUTO CDC's `COLUMNS` or `TRACK HISTORY ON`. */
    private allColumnsBut(site: CompletionSite): boolean {
        const words = site.tokensBefore.slice(-3).map(t => t.image.toUpperCase()).join(' ');
        return words === 'TRACK HISTORY ON' || site.tokensBefore.at(-1)?.image.toUpperCase() === 'COLUMNS';
    }

    //#region Names

    /** Names expected at the cursor, told by the node the placeholder became in the parsed copy. */
    private nameItems(site: CompletionSite, placeholder: SiteDocument): CompletionItem[] {
        const leaf = placeholder.placeholder;
        const node = leaf?.astNode;
        if (!node) {
            return [];
        }
        const types = this.services.types.TypeComputer;
        switch (node.$type) {
            case ast.DatasetRef.$type:
                return this.datasetItems(site, node as ast.DatasetRef);
            case ast.TableFunctionCall.$type:
                return site.qualifier.length === 0 ? this.tableFunctionItems(site) : [];
            case ast.ColumnReference.$type: {
                const reference = node as ast.ColumnReference;
                const qualifier = reference.parts.slice(0, -1);
                return qualifier.length === 0 ? this.expressionItems(site, reference) : this.memberItems(site, reference, qualifier);
            }
            case ast.StructFieldAccess.$type: {
                const receiver = (node as ast.StructFieldAccess).receiver;
                return receiver ? this.fieldItems(site, types.typeOf(receiver)) : [];
            }
            case ast.Assignment.$type:
            case ast.MergeInsert.$type:
            case ast.InsertStatement.$type:
                return this.assignedColumnItems(site, node);
            case ast.ColumnNameList.$type:
            case ast.ColumnSelection.$type:
            case ast.ColumnsToUpdateClause.$type:
            case ast.Star.$type:
            case ast.PartitionColumn.$type:
            case ast.ClusterByClause.$type:
            case ast.JoinRelation.$type:
                return this.columnListItems(site, node);
            default:
                return [];
        }
    }

    /**
     * Datasets of the pipeline, CTEs in scope and sample catalog tables, under the qualifier typed so
     * far. A flow target is a dataset of the pipeline (never a catalog table), and a query does not read
     * the dataset it defines (that would be a cycle).
     */
    private datasetItems(site: CompletionSite, reference: ast.DatasetRef): CompletionItem[] {
        const info: ReferenceInfo = { reference: reference.ref, container: reference, property: 'ref' };
        const scope = this.services.references.ScopeProvider.getScope(info);
        const qualifier = site.qualifier.map(lower);
        const live = qualifier.length === 1 && qualifier[0] === 'live';
        const isTarget = reference.$containerProperty === 'target';
        const targetFilter = isTarget ? flowTargetFilter(reference.$container) : undefined;
        const ownName = isTarget ? undefined : writtenDatasetName(reference);
        const items: CompletionItem[] = [];
        /** What to insert for a name with these parts after the qualifier typed so far; undefined when it does not fit. */
        const insertedName = (parts: readonly string[]): string | undefined => {
            let insert = [...parts];
            if (live) {
                insert = parts.slice(-1);
            } else if (qualifier.length > 0) {
                const lowered = parts.map(lower);
                const at = lowered.findIndex((_, i) => qualifier.every((q, k) => lowered[i + k] === q));
                if (at < 0 || at + qualifier.length >= parts.length) {
                    return undefined;
                }
                insert = parts.slice(at + qualifier.length);
            }
            return insert.map(quoteName).join('.');
        };
        for (const description of scope.getAllElements()) {
            const node = description.node;
            const isCte = ast.isCommonTableExpression(node);
            const isCatalog = !isCte && this.isCatalogTable(description);
            if ((qualifier.length > 0 && (isCte || (live && isCatalog))) || (isTarget && isCatalog)) {
                continue;
            }
            const parts = splitName(description.name);
            if (!isCte && !isCatalog && ownName !== undefined && lower(parts.at(-1)) === ownName) {
                continue;
            }
            if (targetFilter && ast.isDataset(node) && !targetFilter(node)) {
                continue;
            }
            const label = insertedName(parts);
            if (label === undefined) {
                continue;
            }
            items.push(this.item(site, {
                label,
                kind: isCte ? CompletionItemKind.Struct : isCatalog ? CompletionItemKind.Module : CompletionItemKind.Class,
                detail: isCte ? 'common table expression' : isCatalog ? 'sample catalog table' : this.datasetDetail(description),
                sortText: Sort.name + (isCte ? '0' : isCatalog ? '2' : '1'),
            }));
        }
        // The datasets of the pipeline's Python files (a flow target only among their streaming tables and sinks).
        const pipeline = this.services.pipeline.Registry.pipelineOf(AstUtils.getDocument(reference).uri);
        for (const entry of this.services.pipeline.Python.of(pipeline).datasets) {
            const label = insertedName(entry.name.parts);
            const writable = entry.kind === 'streaming-table' || entry.kind === 'sink';
            if (label === undefined || (isTarget && !writable) || (ownName !== undefined && lower(entry.name.parts.at(-1)) === ownName)
                || items.some(i => lower(i.label) === lower(label))) {
                continue;
            }
            items.push(this.item(site, {
                label, kind: CompletionItemKind.Class, sortText: Sort.name + '1',
                detail: `${entry.kind.replace('-', ' ')} · ${entry.file.split(/[\\/]/).pop() ?? ''} (Python)`,
            }));
        }
        // In FROM, a table-valued function may stand where a table does (not as a flow target or CDC source).
        if (qualifier.length === 0 && ast.isTableReference(reference.$container)) {
            items.push(...this.tableFunctionItems(site));
        }
        return items;
    }

    private isCatalogTable(description: AstNodeDescription): boolean {
        return this.services.pipeline.Registry.membershipOf(description.documentUri).role === 'catalog';
    }

    private datasetDetail(description: AstNodeDescription): string {
        const node = description.node;
        const file = description.documentUri.path.split('/').pop() ?? '';
        return ast.isDataset(node) ? `${datasetKindLabel(datasetKind(node))} · ${file}` : file;
    }

    /** Table-valued functions usable in FROM (`read_files`, `range`, `explode` …). */
    private tableFunctionItems(site: CompletionSite): CompletionItem[] {
        return allFunctions().filter(f => isTableValued(f) && !f.operator).map(f => this.functionItem(site, f, Sort.function));
    }

    /** An expression position: columns in scope, table aliases, functions. */
    private expressionItems(site: CompletionSite, reference: ast.ColumnReference): CompletionItem[] {
        const items: CompletionItem[] = [];
        const scope = this.services.types.TypeComputer.scopeAt(reference);
        if (scope) {
            items.push(...this.scopeItems(site, scope));
        }
        items.push(...this.namedArgumentItems(site, reference));
        items.push(...this.allFunctionItems(site));
        return items;
    }

    /** The columns, aliases, lambda variables and relation qualifiers visible in a scope, innermost first. */
    private scopeItems(site: CompletionSite, scope: ColumnScope): CompletionItem[] {
        const items: CompletionItem[] = [];
        let depth = 0;
        for (let current: ColumnScope | undefined = scope; current; current = current.parent, depth++) {
            for (const [name, type] of current.lambdas) {
                items.push(this.item(site, { label: name, kind: CompletionItemKind.Variable, detail: `${shortType(type)} · lambda variable`, sortText: `${Sort.name}${depth}0` }));
            }
            for (const entry of current.entries) {
                const source = describeEntry(entry);
                for (const column of entry.relation.columns) {
                    items.push(this.columnItem(site, column, source, `${Sort.name}${depth}1`));
                }
                for (const column of entry.relation.hidden ?? []) {
                    items.push(this.columnItem(site, column, source, `${Sort.name}${depth}4`));
                }
                const alias = entry.qualifiers[0];
                if (alias && alias.length === 1 && current.entries.length > 1) {
                    items.push(this.item(site, { label: alias[0], kind: CompletionItemKind.Module, detail: `relation ${source}`, sortText: `${Sort.name}${depth}3` }));
                }
            }
            for (const alias of current.aliases) {
                items.push(this.columnItem(site, alias, 'select list alias', `${Sort.name}${depth}2`));
            }
        }
        return items;
    }

    /** After `q.`: the columns of the relation `q` names, or the fields of the struct column `q`. */
    private memberItems(site: CompletionSite, reference: ast.ColumnReference, qualifier: readonly string[]): CompletionItem[] {
        const types = this.services.types.TypeComputer;
        const scope = types.scopeAt(reference);
        const keys = qualifier.map(lower);
        for (let current = scope; current; current = current.parent) {
            const entry = current.entries.find(e => e.qualifiers.some(q => q.length === keys.length && q.every((p, i) => p === keys[i])));
            if (entry) {
                const source = describeEntry(entry);
                return [
                    ...entry.relation.columns.map(c => this.columnItem(site, c, source, Sort.name + '1')),
                    ...(entry.relation.hidden ?? []).map(c => this.columnItem(site, c, source, Sort.name + '4')),
                ];
            }
        }
        // A struct column (or a field of one): resolve the qualifier as a column reference at the same place.
        const synthetic = {
            $type: ast.ColumnReference.$type, parts: [...qualifier], $container: reference.$container,
            $containerProperty: reference.$containerProperty, $containerIndex: reference.$containerIndex,
        } as unknown as ast.ColumnReference;
        const resolution = types.resolveColumn(synthetic);
        return 'type' in resolution ? this.fieldItems(site, resolution.type) : [];
    }

    /** The fields of a struct type (of each element of an array of structs). */
    private fieldItems(site: CompletionSite, type: TypeDescriptor): CompletionItem[] {
        const struct = type.kind === 'array' ? type.element : type;
        if (struct.kind !== 'struct') {
            return [];
        }
        return struct.fields.map(f => this.item(site, {
            label: quoteName(f.name), kind: CompletionItemKind.Field, detail: `${shortType(f.type)} · field of ${shortType(struct)}`, sortText: Sort.name,
        }));
    }

    /** Column names in a column list: KEYS, COLUMNS, TRACK HISTORY ON, `* EXCEPT (…)`, PARTITIONED BY … */
    private columnListItems(site: CompletionSite, node: AstNode): CompletionItem[] {
        const types = this.services.types.TypeComputer;
        let relation: RelationType = UnknownRelation;
        let source = '';
        let written: readonly string[] = [];
        const container = node.$container;
        const cdcSpec = AstUtils.getContainerOfType(node, (n): n is ast.AutoCdcSpec | ast.SnapshotSpec => ast.isAutoCdcSpec(n) || ast.isSnapshotSpec(n));
        if (ast.isStar(node)) {
            const scope = types.scopeAt(node);
            const qualifier = node.qualifier.map(lower);
            const entries = scope?.entries.filter(e => (qualifier.length === 0 ? e.inStar
                : e.qualifiers.some(q => q.length === qualifier.length && q.every((p, i) => p === qualifier[i])))) ?? [];
            written = node.except;
            return this.columnNameItems(site, entries.flatMap(e => e.relation.columns.map(c => ({ column: c, source: describeEntry(e) }))), written);
        }
        if (cdcSpec && (ast.isColumnNameList(node) || ast.isColumnSelection(node) || ast.isColumnsToUpdateClause(node))) {
            const sourceSchema = types.cdcSourceSchema(cdcSpec);
            source = ast.isAutoCdcSpec(cdcSpec) ? cdcSpec.source?.table?.ref.$refText ?? 'the source' : 'the snapshot';
            relation = sourceSchema;
            if (ast.isTrackHistoryClause(container) && ast.isAutoCdcSpec(cdcSpec)) {
                // TRACK HISTORY ON names columns the flow writes: the source after COLUMNS / EXCEPT.
                relation = selectColumns(sourceSchema, cdcSpec.clauses.find(ast.isColumnsClause)?.columns);
                source = 'the columns the flow writes';
            }
            written = ast.isColumnsToUpdateClause(node) ? [] : (node as ast.ColumnNameList | ast.ColumnSelection).names;
        } else if (ast.isColumnNameList(node) && ast.isReplaceUsingSpec(container)) {
            const flow = container.$container;
            relation = ast.isInsertFlow(flow) && flow.query ? types.querySchema(flow.query) : UnknownRelation;
            source = 'the flow query';
            written = node.names;
        } else if (ast.isJoinRelation(node)) {
            relation = node.left ? types.relationSchema(node.left) : UnknownRelation;
            source = 'the left side of the join';
            written = node.using;
        } else {
            const dataset = AstUtils.getContainerOfType(node, ast.isDataset);
            if (dataset) {
                relation = types.datasetSchema(dataset);
                source = dataset.name;
                written = ast.isColumnNameList(node) ? node.names : ast.isClusterByClause(node) ? node.columns : [];
            }
        }
        return this.columnNameItems(site, relation.columns.map(c => ({ column: c, source })), written);
    }

    /**
     * The columns a DML statement assigns (`UPDATE t SET |`, `INSERT INTO t (|`, MERGE's `UPDATE SET |`
     * and `INSERT (|`): the target's, less those already listed. Nothing for a pipe operator's `SET`.
     */
    private assignedColumnItems(site: CompletionSite, node: AstNode): CompletionItem[] {
        const owner = ast.isAssignment(node) ? node.$container : node;
        const statement = ast.isMergeUpdate(owner) || ast.isMergeInsert(owner) ? AstUtils.getContainerOfType(owner, ast.isMergeStatement) : owner;
        if (!statement || !(ast.isUpdateStatement(statement) || ast.isInsertStatement(statement) || ast.isMergeStatement(statement))) {
            return [];
        }
        const target = this.services.types.TypeComputer.dmlTarget(statement);
        const keys = site.qualifier.map(lower);
        if (keys.length > 0 && !target.qualifiers.some(q => q.length === keys.length && q.every((p, i) => p === keys[i]))) {
            // `SET t.|` names the target's columns under its alias or name; any other qualifier nothing.
            return [];
        }
        const written = ast.isUpdateStatement(owner) || ast.isMergeUpdate(owner) ? owner.assignments.map(a => a.column.split('.').at(-1) ?? '')
            : ast.isInsertStatement(owner) || ast.isMergeInsert(owner) ? owner.columns : [];
        return this.columnNameItems(site, target.relation.columns.map(c => ({ column: c, source: describeEntry(target) })), written);
    }

    private columnNameItems(site: CompletionSite, columns: ReadonlyArray<{ column: Column; source: string }>, written: readonly string[]): CompletionItem[] {
        const taken = new Set(written.filter(w => w !== PlaceholderName).map(lower));
        return columns.filter(c => !taken.has(lower(c.column.name))).map(c => this.columnItem(site, c.column, c.source, Sort.name));
    }

    private columnItem(site: CompletionSite, column: Column, source: string, sortText: string): CompletionItem {
        return this.item(site, {
            label: quoteName(column.name), kind: CompletionItemKind.Field,
            detail: `${shortType(column.type)}${source ? ` · ${source}` : ''}`, sortText,
        });
    }

    //#endregion

    //#region Functions and arguments

    private allFunctionItems(site: CompletionSite): CompletionItem[] {
        this.functionItems ??= allFunctions()
            .filter(f => !f.operator && f.kind !== 'table-valued')
            .flatMap(f => [f.name, ...f.aliases].map(name => functionTemplate(f, name)));
        return this.functionItems.map(template => this.item(site, { ...template }));
    }

    private functionItem(site: CompletionSite, f: BuiltinFunction, sortText: string): CompletionItem {
        return this.item(site, { ...functionTemplate(f, f.name), sortText });
    }

    /** `name => ` items for the parameters of a function that takes named arguments, when the cursor starts an argument. */
    private namedArgumentItems(site: CompletionSite, reference: ast.ColumnReference): CompletionItem[] {
        const argument = reference.$container;
        const call = argument?.$container;
        if (!ast.isFunctionArgument(argument) || argument.value !== reference || !ast.isFunctionCall(call)) {
            return [];
        }
        const f = getFunction(call.parts.join('.'));
        if (!f?.namedArguments) {
            return [];
        }
        const given = new Set(call.args.map(a => lower(a.name)));
        const widest = f.signatures.reduce((a, b) => (b.parameters.length > a.parameters.length ? b : a));
        return widest.parameters.filter(p => !p.variadic && !given.has(lower(p.name))).map(p => this.item(site, {
            label: `${p.name} =>`, kind: CompletionItemKind.Property, detail: `named argument of ${f.name}`,
            insertText: `${p.name} => `, sortText: Sort.name,
        }));
    }

    /**
     * Inside the parentheses of `read_files(...)` / `cloud_files(...)`: option names where an argument
     * starts (after the path), option values after `name =>`. Undefined elsewhere.
     */
    private optionArgumentItems(site: CompletionSite): CompletionItem[] | undefined {
        const call = enclosingCall(site.tokensBefore);
        if (!call || site.qualifier.length > 0) {
            return undefined;
        }
        const f = getFunction(call.name);
        if (!f?.options || !f.namedArguments) {
            return undefined;
        }
        const last = site.tokensBefore.at(-1);
        if (last?.image === '=>') {
            const optionName = site.tokensBefore.at(-2)?.image ?? '';
            const option = f.options.find(o => lower(o.name) === lower(unquote(optionName)));
            return option ? this.optionValueItems(site, option) : [];
        }
        if (call.argumentIndex === 0 || (last?.image !== '(' && last?.image !== ',')) {
            return undefined;
        }
        const given = new Set(call.namedArguments.map(lower));
        return f.options.filter(o => !given.has(lower(o.name))).map(o => this.item(site, {
            label: o.name, kind: CompletionItemKind.Property,
            detail: `${f.name} option${o.defaultValue !== undefined ? ` (default ${o.defaultValue})` : ''}`,
            documentation: o.description,
            insertText: optionSnippet(o), insertTextFormat: InsertTextFormat.Snippet, sortText: Sort.name,
        }));
    }

    private optionValueItems(site: CompletionSite, option: FunctionOption): CompletionItem[] {
        const values = option.valueKind === 'enum' ? option.values ?? [] : option.valueKind === 'boolean' ? ['true', 'false'] : [];
        return values.map(v => this.item(site, {
            label: `'${v}'`, kind: CompletionItemKind.Value, detail: `${option.name} value`, sortText: Sort.name,
        }));
    }

    //#endregion

    //#region Keywords, types, properties, snippets

    private async keywordItems(site: CompletionSite): Promise<CompletionItem[]> {
        const proposals = keywordProposals(site.grammar.features);
        if (proposals.length === 0) {
            return [];
        }
        let cdc: CdcSpecContext | undefined;
        if (proposals.some(p => cdcClauseOf(p) !== undefined || p.rule === 'StoredAsClause')) {
            cdc = await this.cdcContext(site);
        }
        const items: CompletionItem[] = [];
        // AUTO CDC clauses in their documented order, other keywords in the grammar's.
        const rank = (p: KeywordProposal): number => clauseRank(p.rule) ?? 0;
        proposals.sort((a, b) => rank(a) - rank(b));
        const words = new Set(proposals.filter(p => !p.phrase.includes(' ')).map(p => p.phrase));
        for (const proposal of proposals) {
            if (!this.keywordAllowed(proposal, cdc)) {
                continue;
            }
            if (proposal.phrase === 'STREAM') {
                items.push(this.streamItem(site, proposal.rule === 'SourceRef'));
                continue;
            }
            // Clauses first; operators that would continue the expression before the cursor after them.
            const sortText = Sort.keyword + (OperatorRules.has(proposal.rule) ? '1' : '0');
            // A phrase whose first word may come alone too (`FROM SNAPSHOT` beside `FROM`, `COLUMNS TO UPDATE`
            // beside `COLUMNS`) is filtered without its spaces: the editor filters an open list by the text
            // from an item's start, so after the space the phrase would keep the list of the word open and
            // hide what may follow the word alone (the sources after FROM). Without a match the list
            // closes, and the next word asks again, the phrase's next word among its proposals.
            const ambiguous = proposal.phrase.includes(' ') && words.has(proposal.phrase.split(' ', 1)[0]);
            items.push(this.item(site, {
                label: proposal.phrase, kind: CompletionItemKind.Keyword, detail: 'keyword', sortText,
                ...(ambiguous ? { filterText: proposal.phrase.replaceAll(' ', '') } : {}),
            }));
        }
        return items;
    }

    /**
     * `STREAM(…)`: a streaming read, inserted with its parentheses and the cursor inside them, where the
     * table list opens again. First where a flow's change feed is named (AUTO CDC reads a stream).
     */
    private streamItem(site: CompletionSite, first: boolean): CompletionItem {
        return this.item(site, {
            label: 'STREAM(…)', kind: CompletionItemKind.Keyword, detail: 'streaming read of a table', filterText: 'STREAM',
            insertText: 'STREAM($1)$0', insertTextFormat: InsertTextFormat.Snippet, sortText: first ? Sort.first : Sort.keyword + '0',
            command: { title: 'Suggest tables', command: 'editor.action.triggerSuggest' },
        });
    }

    private keywordAllowed(proposal: KeywordProposal, cdc: CdcSpecContext | undefined): boolean {
        if (!cdc) {
            return true;
        }
        if (proposal.rule === 'StoredAsClause' && (proposal.phrase.startsWith('SCD') || proposal.phrase === 'BITEMPORAL')) {
            return storageAllowed(proposal.phrase, cdc);
        }
        const clause = cdcClauseOf(proposal);
        return clause ? cdcClauseAllowed(clause, cdc) : true;
    }

    /** The AUTO CDC spec of the statement at the cursor, parsed from the text without the word being typed. */
    private async cdcContext(site: CompletionSite): Promise<CdcSpecContext | undefined> {
        const copy = await siteDocument(this.services, site, false);
        const statement = statementAround(copy.document, site.statementStart, site.wordStart);
        if (!statement) {
            return undefined;
        }
        const spec = AstUtils.streamAst(statement).find((n): n is ast.AutoCdcSpec | ast.SnapshotSpec => ast.isAutoCdcSpec(n) || ast.isSnapshotSpec(n));
        return spec ? { spec, offset: site.wordStart, target: this.services.pipeline.Settings.target } : undefined;
    }

    private typeItems(site: CompletionSite): CompletionItem[] {
        return DATA_TYPES.map(t => this.item(site, {
            label: t.name.toUpperCase(), kind: CompletionItemKind.TypeParameter, detail: 'data type', documentation: t.description, sortText: Sort.name,
        }));
    }

    /** Whether the cursor starts a property of `TBLPROPERTIES (…)`. */
    private atPropertyKey(site: CompletionSite): boolean {
        const call = enclosingCall(site.tokensBefore);
        const last = site.tokensBefore.at(-1)?.image;
        return call?.name.toUpperCase() === 'TBLPROPERTIES' && (last === '(' || last === ',');
    }

    private propertyItems(site: CompletionSite): CompletionItem[] {
        return TABLE_PROPERTIES.filter(p => p.level === 'table').map(p => this.item(site, {
            label: `'${p.name}'`, kind: CompletionItemKind.Property, detail: `table property (${p.valueKind})`, documentation: p.description,
            insertText: p.example, sortText: Sort.name, filterText: p.name,
        }));
    }

    /** Inside a string: the property key of TBLPROPERTIES, or the value of a `read_files` option. */
    private stringItems(site: CompletionSite): CompletionItem[] {
        const token = site.inString!;
        const before = site.tokensBefore.filter(t => t.startOffset < token.startOffset);
        const call = enclosingCall(before);
        const range = { start: token.startOffset, end: tokenEnd(token) };
        const last = before.at(-1)?.image;
        if (call?.name.toUpperCase() === 'TBLPROPERTIES' && (last === '(' || last === ',')) {
            return TABLE_PROPERTIES.filter(p => p.level === 'table').map(p => this.item(site, {
                label: `'${p.name}'`, kind: CompletionItemKind.Property, detail: `table property (${p.valueKind})`, documentation: p.description,
                sortText: Sort.name,
            }, range));
        }
        if (call && last === '=>') {
            const f = getFunction(call.name);
            const options = f?.name === 'cloud_files' ? CLOUD_FILES_OPTIONS : f?.options ?? [];
            const option = options.find(o => lower(o.name) === lower(unquote(before.at(-2)?.image ?? '')));
            return option ? this.optionValueItems(site, option).map(i => ({ ...i, textEdit: this.edit(site, String(i.label), range) })) : [];
        }
        return [];
    }

    private snippetItems(site: CompletionSite): CompletionItem[] {
        const target = this.services.pipeline.Settings.target;
        return StatementSnippets.filter(s => s.targets.includes(target)).map(s => this.item(site, {
            label: s.label, kind: CompletionItemKind.Snippet, detail: s.detail, insertText: s.body, insertTextFormat: InsertTextFormat.Snippet,
            sortText: Sort.snippet, filterText: 'CREATE ' + s.label,
        }));
    }

    //#endregion

    //#region Items

    /** Completes an item: a text edit that replaces the word at the cursor (or `range`). */
    private item(site: CompletionSite, item: CompletionItem, range?: { start: number; end: number }): CompletionItem {
        const newText = item.insertText ?? item.label;
        const { insertText: _ignored, ...rest } = item;
        return { ...rest, textEdit: this.edit(site, newText, range) };
    }

    private edit(site: CompletionSite, newText: string, range?: { start: number; end: number }): TextEdit {
        const textDocument = site.document.textDocument;
        const start = range?.start ?? site.wordStart;
        const end = range?.end ?? Math.max(site.offset, site.wordEnd);
        return { newText, range: { start: textDocument.positionAt(start), end: textDocument.positionAt(end) } };
    }

    /** Drops repeated items and makes the sort text keep the order items were collected in within each group. */
    private dedupe(items: CompletionItem[]): CompletionItem[] {
        const seen = new Set<string>();
        return items.filter(item => {
            const key = `${item.kind}|${item.label}|${item.detail}`;
            if (seen.has(key)) {
                return false;
            }
            seen.add(key);
            return true;
        // Group texts get the same width, so that the editor's plain string order and a locale order agree.
        }).map((item, i) => ({ ...item, sortText: `${(item.sortText ?? Sort.other).padEnd(3, '0')}_${String(i).padStart(4, '0')}` }));
    }

    //#endregion
}

/** A type as a completion detail shows it: Spark's display form, cut short when long. */
function shortType(type: TypeDescriptor): string {
    const text = typeToString(type);
    return text.length > 48 ? `${text.slice(0, 47)}…` : text;
}

/** A function's completion item without its text edit. */
function functionTemplate(f: BuiltinFunction, name: string): CompletionItem {
    const signature = signatureLabel(f, 0);
    const snippet = callSnippet(f);
    return {
        label: name,
        kind: CompletionItemKind.Function,
        detail: signature ? signature.label.replace(new RegExp(`^${f.name}`), name) : `${f.kind} function`,
        documentation: name === f.name ? f.description : `${f.description} (another name for ${f.name})`,
        insertText: snippet ? snippet.replace(new RegExp(`^${f.name}`), name) : name,
        insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        sortText: Sort.function,
    };
}

/** `format => '${1|json,csv|}'` for an option, with a choice of its values where it has a fixed set. */
function optionSnippet(option: FunctionOption): string {
    if (option.valueKind === 'enum' && option.values) {
        return `${option.name} => '\${1|${option.values.join(',')}|}'`;
    }
    if (option.valueKind === 'boolean') {
        return `${option.name} => \${1|true,false|}`;
    }
    return `${option.name} => '\${1}'`;
}

/** How a relation in scope is named for the user: its alias, else its table name. */
function describeEntry(entry: ScopeEntry): string {
    const node = entry.node;
    if (ast.isTableReference(node)) {
        return node.alias ? `${node.table?.ref.$refText ?? ''} AS ${node.alias}` : node.table?.ref.$refText ?? '';
    }
    if (ast.isTableFunctionCall(node)) {
        return `${node.name}(…)`;
    }
    if (ast.isSubqueryRelation(node)) {
        return node.alias ? `subquery ${node.alias}` : 'subquery';
    }
    if (ast.isUpdateStatement(node) || ast.isDeleteStatement(node) || ast.isMergeStatement(node)) {
        // The table a DML statement changes.
        const name = node.target?.ref.$refText ?? '';
        return node.alias ? `${name} AS ${node.alias}` : name;
    }
    const qualifier = entry.qualifiers[0];
    return qualifier ? qualifier.join('.') : 'the source';
}

/**
 * Whether the cursor is in the column list of `INSERT INTO t (a, |`: the completion parser follows only
 * the query a `(` may also start, so the placeholder copy tells which it is.
 */
function insertColumnList(tokens: ReadonlyArray<{ image: string }>): boolean {
    const open = tokens.map(t => t.image).lastIndexOf('(');
    const words = tokens.slice(0, open).map(t => t.image.toUpperCase());
    return open > 0 && words[0] === 'INSERT' && !words.includes('(') && tokens.slice(open + 1).every(t => t.image !== ')' && t.image !== '(');
}

/** The innermost unclosed parenthesis before the cursor, when a name precedes it: the call it opens. */
function enclosingCall(tokens: ReadonlyArray<{ image: string }>): { name: string; argumentIndex: number; namedArguments: string[] } | undefined {
    let depth = 0;
    let commas = 0;
    const named: string[] = [];
    for (let i = tokens.length - 1; i >= 0; i--) {
        const image = tokens[i].image;
        if (image === ')') {
            depth++;
        } else if (image === '(') {
            if (depth === 0) {
                const name = tokens[i - 1]?.image;
                return name && /^[A-Za-z_`]/.test(name) ? { name: unquote(name), argumentIndex: commas, namedArguments: named } : undefined;
            }
            depth--;
        } else if (depth === 0 && image === ',') {
            commas++;
        } else if (depth === 0 && image === '=>' && i > 0) {
            named.push(unquote(tokens[i - 1].image));
        }
    }
    return undefined;
}

/**
 * The dataset the statement around a reference writes (its own name, or the target of the flow it is
 * in), lower case: a query or a flow source never reads it (that would be a cycle).
 */
function writtenDatasetName(reference: ast.DatasetRef): string | undefined {
    const statement = statementOf(reference);
    if (ast.isDataset(statement)) {
        return lower(splitName(statement.name ?? '').at(-1));
    }
    const flow = AstUtils.getContainerOfType(reference, (n): n is ast.AutoCdcFlow | ast.InsertFlow | ast.ApplyChangesFlow | ast.ApplyChanges =>
        ast.isAutoCdcFlow(n) || ast.isInsertFlow(n) || ast.isApplyChangesFlow(n) || ast.isApplyChanges(n));
    const target = flow?.target?.ref.$refText;
    return target ? lower(splitName(target).at(-1)) : undefined;
}

/**
 * Which datasets a flow may write (docs/semantics.md V12, V18, V25 and the append-flow rule of the flow checks): an
 * AUTO CDC or APPLY CHANGES flow a streaming table that no query or inline flow of its own writes, an
 * append flow a streaming or managed table. Undefined when the reference is no flow target.
 */
function flowTargetFilter(flow: AstNode | undefined): ((dataset: ast.Dataset) => boolean) | undefined {
    if (ast.isAutoCdcFlow(flow) || ast.isApplyChangesFlow(flow) || ast.isApplyChanges(flow)) {
        return dataset => ast.isCreateStreamingTable(dataset) && !dataset.query && !dataset.flow;
    }
    if (ast.isInsertFlow(flow)) {
        return dataset => ['streaming-table', 'managed-table'].includes(datasetKind(dataset));
    }
    return undefined;
}
