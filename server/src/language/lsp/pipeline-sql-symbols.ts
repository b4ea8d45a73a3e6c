/**
 * What a name under the cursor stands for, and where else it occurs: the one place the editor
 * features (hover, definition, references, highlights, rename) ask. Datasets and CTEs are Langium
 * cross-references; columns and table aliases are plain names, resolved through the type computer's
 * scopes, so their occurrences are found by resolving every candidate name the same way.
 */
import type { AstNode, CstNode, LangiumDocument } from 'langium';
import { AstUtils, CstUtils, GrammarAST, GrammarUtils, interruptAndCheck, type Cancellation } from 'langium';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { lower } from '../references/dataset-names.js';
import { selectColumns, type ColumnScope, type ScopeEntry } from '../types/pipeline-sql-type-computer.js';
import { findColumn, UnknownRelation, type Column, type RelationType } from '../types/relation-type.js';
import { Types, type TypeDescriptor } from '../../../../engine/src/spark/spark-types.js';
import { lastPartOffsets } from './lsp-text.js';

/** What a name stands for. */
export type SymbolTarget =
    /** A dataset of the pipeline, or a table of the sample catalog (a `CREATE TABLE` in `samples/*.sql`). */
    | { readonly kind: 'dataset'; readonly node: ast.Dataset }
    | { readonly kind: 'cte'; readonly node: ast.CommonTableExpression }
    /** A table the pipeline reads but does not declare. */
    | { readonly kind: 'external'; readonly reference: ast.DatasetRef }
    /** A relation of a FROM clause named by an alias (`o` in `FROM orders o`). */
    | { readonly kind: 'alias'; readonly relation: AstNode; readonly name: string }
    /** A column (or a field path into one); `column.node` is where it is declared or computed. */
    | {
        readonly kind: 'column'; readonly column: Column; readonly type: TypeDescriptor; readonly entry?: ScopeEntry; readonly relationName?: string;
        /** For a struct field (`zip` of `address.zip`): its name; `column` is then the struct column. */
        readonly field?: string;
    }
    | { readonly kind: 'function'; readonly name: string }
    /** A named option of a table function (`format` in `read_files(..., format => 'json')`). */
    | { readonly kind: 'option'; readonly functionName: string; readonly name: string }
    | { readonly kind: 'property'; readonly key: string }
    | { readonly kind: 'keyword'; readonly id: string }
    | { readonly kind: 'type'; readonly name: string };

/** A name under the cursor: what it stands for and the source range it covers. */
export interface SymbolAtCursor {
    readonly target: SymbolTarget;
    readonly start: number;
    readonly end: number;
    /** True when the cursor is on the declaration itself (a dataset's name, a CTE's name, an alias). */
    readonly declaration: boolean;
    /**
     * A column the name also declares: a select item that is just a column (`SELECT user_id FROM t`)
     * reads `t.user_id` and declares the query's own `user_id`.
     */
    readonly declares?: Column;
}

/** One occurrence of a symbol. */
export interface Occurrence {
    readonly document: LangiumDocument;
    readonly start: number;
    readonly end: number;
    readonly declaration: boolean;
}

/** The system columns AUTO CDC targets add (documented in the keyword docs). */
export const SystemColumns: ReadonlySet<string> = new Set(['__start_at', '__end_at', '__system_start_at', '__system_end_at']);

/** Grammar rules whose keywords are names (see the semantic token provider). */
const nameRules = new Set([
    'SoftKeyword', 'ClauseKeyword', 'ReservedKeyword', 'StreamWord', 'GroupingWord', 'IdentifierWord', 'TableWord', 'AsAlias', 'TypeName',
]);

/**
 * Finds symbols under the cursor and their occurrences (a helper of the Pipeline SQL LSP providers,
 * built on the scope provider's links, the pipeline model and the type computer).
 */
export class PipelineSqlSymbols {

    constructor(readonly services: PipelineSqlServices) {}

    //#region What is under the cursor

    /** The symbol at an offset of a document, if the cursor is on a name, keyword, function or property. */
    symbolAt(document: LangiumDocument, offset: number): SymbolAtCursor | undefined {
        const root = document.parseResult.value.$cstNode;
        if (!root) {
            return undefined;
        }
        let leaf = CstUtils.findLeafNodeAtOffset(root, offset);
        // A cursor right after a name (`name|`) is on that name.
        if ((!leaf || leaf.hidden || !/\w/.test(leaf.text)) && offset > 0) {
            const before = CstUtils.findLeafNodeAtOffset(root, offset - 1);
            if (before && !before.hidden && /\w/.test(before.text)) {
                leaf = before;
            }
        }
        if (!leaf || leaf.hidden) {
            return undefined;
        }
        return this.symbolOfLeaf(leaf);
    }

    private symbolOfLeaf(leaf: CstNode): SymbolAtCursor | undefined {
        const node = leaf.astNode;
        const keyword = GrammarAST.isKeyword(leaf.grammarSource) && !nameRules.has(ruleName(leaf.grammarSource) ?? '') ? leaf.grammarSource.value : undefined;
        if (keyword) {
            const id = clauseIdOf(node, keyword);
            return id ? { target: { kind: 'keyword', id }, start: leaf.offset, end: leaf.end, declaration: false } : undefined;
        }
        const property = assignedProperty(leaf, node);
        switch (node.$type) {
            case ast.DatasetRef.$type:
                return this.datasetReference(node as ast.DatasetRef);
            case ast.ColumnReference.$type:
            case ast.FunctionCall.$type:
                return this.nameExpression(node as ast.ColumnReference | ast.FunctionCall, leaf);
            case ast.StructFieldAccess.$type: {
                const access = node as ast.StructFieldAccess;
                const type = this.services.types.TypeComputer.typeOf(access);
                const range = this.nodeRange(access, 'field') ?? { start: leaf.offset, end: leaf.end };
                return { target: { kind: 'column', column: { name: access.field, type, nullable: true, node: access }, type }, ...range, declaration: false };
            }
            case ast.TableFunctionCall.$type:
                return property === 'name' ? this.functionSymbol((node as ast.TableFunctionCall).name, node, 'name') : this.aliasDeclaration(node, property, leaf);
            case ast.FunctionArgument.$type:
                return property === 'name' ? this.optionSymbol(node as ast.FunctionArgument, leaf) : undefined;
            case ast.Property.$type:
                return property === 'key' && AstUtils.getContainerOfType(node, ast.isTblPropertiesClause)
                    ? { target: { kind: 'property', key: (node as ast.Property).key }, ...this.nodeRange(node, 'key')!, declaration: false } : undefined;
            case ast.CommonTableExpression.$type:
                return property === 'name' ? { target: { kind: 'cte', node: node as ast.CommonTableExpression }, ...this.nodeRange(node, 'name')!, declaration: true } : undefined;
            case ast.ColumnDef.$type:
                return property === 'name' ? this.declaredColumn(node as ast.ColumnDef, leaf) : undefined;
            case ast.SelectItem.$type:
                return property === 'alias' || property === 'aliases' ? this.selectItemColumn(node as ast.SelectItem, leaf) : undefined;
            case ast.TableReference.$type:
            case ast.SubqueryRelation.$type:
            case ast.ParenthesizedRelation.$type:
            case ast.ValuesRelation.$type:
            case ast.LateralView.$type:
                return this.aliasDeclaration(node, property, leaf);
            case ast.ColumnNameList.$type:
            case ast.ColumnSelection.$type:
            case ast.ColumnsToUpdateClause.$type:
                return this.listedColumn(node, leaf);
            case ast.PrimitiveType.$type:
                return { target: { kind: 'type', name: (node as ast.PrimitiveType).name }, start: leaf.offset, end: leaf.end, declaration: false };
            default:
                if (ast.isDataset(node) && property === 'name') {
                    const cst = GrammarUtils.findNodeForProperty(node.$cstNode, 'name');
                    return cst ? { target: { kind: 'dataset', node }, ...lastPartOffsets(cst.text, cst.offset), declaration: true } : undefined;
                }
                return undefined;
        }
    }

    private datasetReference(reference: ast.DatasetRef): SymbolAtCursor | undefined {
        const cst = reference.$cstNode;
        if (!cst) {
            return undefined;
        }
        const target = reference.ref.ref;
        const range = { start: cst.offset, end: cst.end };
        if (ast.isCommonTableExpression(target)) {
            return { target: { kind: 'cte', node: target }, ...range, declaration: false };
        }
        if (target && ast.isDataset(target)) {
            return { target: { kind: 'dataset', node: target }, ...range, declaration: false };
        }
        return { target: { kind: 'external', reference }, ...range, declaration: false };
    }

    /** A part of `a.b.c` or of a function name: a relation qualifier, a column, a field, or the function. */
    private nameExpression(expression: ast.ColumnReference | ast.FunctionCall, leaf: CstNode): SymbolAtCursor | undefined {
        const parts = this.partNodes(expression);
        const index = parts.findIndex(p => p.offset <= leaf.offset && leaf.end <= p.end);
        if (index < 0) {
            return undefined;
        }
        const range = { start: parts[index].offset, end: parts[index].end };
        if (ast.isFunctionCall(expression)) {
            return { target: { kind: 'function', name: expression.parts.join('.') }, start: parts[0].offset, end: parts[parts.length - 1].end, declaration: false };
        }
        const types = this.services.types.TypeComputer;
        const prefix = expression.parts.slice(0, index + 1);
        const scope = types.scopeAt(expression);
        if (index < expression.parts.length - 1 && scope) {
            const entry = findQualified(scope, prefix);
            if (entry?.node) {
                return { target: { kind: 'alias', relation: entry.node, name: prefix.join('.') }, ...range, declaration: false };
            }
        }
        const reference = index === expression.parts.length - 1 ? expression : syntheticReference(expression, prefix);
        const resolution = types.resolveColumn(reference);
        if (resolution.kind === 'column' || resolution.kind === 'alias') {
            const entry = resolution.kind === 'column' ? resolution.entry : undefined;
            const name = expression.parts[index];
            const field = lower(name) !== lower(resolution.column.name) ? name : undefined;
            const item = expression.$container;
            const passThrough = ast.isSelectItem(item) && !item.alias && item.aliases.length === 0 && index === expression.parts.length - 1;
            return {
                target: { kind: 'column', column: resolution.column, type: resolution.type, entry, relationName: entry ? relationName(entry) : undefined, field },
                ...range, declaration: false,
                ...(passThrough ? { declares: { name, type: resolution.type, nullable: true, node: item } } : {}),
            };
        }
        if (resolution.kind === 'function') {
            return { target: { kind: 'function', name: expression.parts[0] }, ...range, declaration: false };
        }
        // A system column of a table whose columns are unknown still gets its documentation.
        const name = expression.parts[index];
        if (index === expression.parts.length - 1 && SystemColumns.has(lower(name))) {
            return { target: { kind: 'keyword', id: name.toUpperCase() }, ...range, declaration: false };
        }
        return undefined;
    }

    /** The source ranges of the name parts of a column reference or function name (`a`, `b` of `a.b`). */
    private partNodes(expression: ast.ColumnReference | ast.FunctionCall): Array<{ offset: number; end: number }> {
        const parts: Array<{ offset: number; end: number }> = [];
        let current: { offset: number; end: number } | undefined;
        for (const leaf of expression.$cstNode ? CstUtils.flattenCst(expression.$cstNode) : []) {
            if (leaf.hidden) {
                continue;
            }
            if (leaf.text === '(') {
                break;
            }
            if (leaf.text === '.') {
                current = undefined;
                continue;
            }
            if (current) {
                current.end = leaf.end;
            } else {
                current = { offset: leaf.offset, end: leaf.end };
                parts.push(current);
            }
        }
        return parts;
    }

    private functionSymbol(name: string, node: AstNode, property: string): SymbolAtCursor | undefined {
        const range = this.nodeRange(node, property);
        return range ? { target: { kind: 'function', name }, ...range, declaration: false } : undefined;
    }

    private optionSymbol(argument: ast.FunctionArgument, leaf: CstNode): SymbolAtCursor | undefined {
        const call = argument.$container;
        const functionName = ast.isTableFunctionCall(call) ? call.name : ast.isFunctionCall(call) ? call.parts.join('.') : undefined;
        if (!functionName || !argument.name) {
            return undefined;
        }
        return { target: { kind: 'option', functionName, name: argument.name }, start: leaf.offset, end: leaf.end, declaration: false };
    }

    /** The alias of a FROM item (`o` in `orders AS o`) as a declaration. */
    private aliasDeclaration(node: AstNode, property: string | undefined, leaf: CstNode): SymbolAtCursor | undefined {
        const alias = (node as { alias?: string }).alias;
        if (property !== 'alias' || !alias) {
            return undefined;
        }
        return { target: { kind: 'alias', relation: node, name: alias }, start: leaf.offset, end: leaf.end, declaration: true };
    }

    private declaredColumn(definition: ast.ColumnDef, leaf: CstNode): SymbolAtCursor | undefined {
        const dataset = AstUtils.getContainerOfType(definition, ast.isDataset);
        const schema = dataset ? this.services.types.TypeComputer.datasetSchema(dataset) : UnknownRelation;
        const column = findColumn(schema, definition.name) ?? { name: definition.name, type: this.services.types.TypeComputer.typeOfDataType(definition.type), nullable: true, node: definition };
        return { target: { kind: 'column', column, type: column.type, relationName: dataset?.name }, start: leaf.offset, end: leaf.end, declaration: true };
    }

    private selectItemColumn(item: ast.SelectItem, leaf: CstNode): SymbolAtCursor | undefined {
        const type = item.expression ? this.services.types.TypeComputer.typeOf(item.expression) : Types.unknown;
        const name = leaf.text.replace(/^`|`$/g, '');
        return { target: { kind: 'column', column: { name, type, nullable: true, node: item }, type }, start: leaf.offset, end: leaf.end, declaration: true };
    }

    /** A column named in KEYS, COLUMNS, TRACK HISTORY ON, `* EXCEPT (...)` or COLUMNS TO UPDATE of an AUTO CDC flow. */
    private listedColumn(list: AstNode, leaf: CstNode): SymbolAtCursor | undefined {
        const spec = AstUtils.getContainerOfType(list, (n): n is ast.AutoCdcSpec | ast.SnapshotSpec => ast.isAutoCdcSpec(n) || ast.isSnapshotSpec(n));
        if (!spec) {
            return undefined;
        }
        const property = ast.isColumnsToUpdateClause(list) ? 'column' : 'names';
        const nodes = GrammarUtils.findNodesForProperty(list.$cstNode, property);
        const index = nodes.findIndex(n => n.offset <= leaf.offset && leaf.end <= n.end);
        if (index < 0) {
            return undefined;
        }
        const name = ast.isColumnsToUpdateClause(list) ? list.column : (list as ast.ColumnNameList | ast.ColumnSelection).names[index];
        const relation = this.listRelation(spec, list);
        const column = name ? findColumn(relation, name) : undefined;
        if (!column) {
            return undefined;
        }
        return {
            target: { kind: 'column', column, type: column.type, relationName: ast.isAutoCdcSpec(spec) ? spec.source?.table?.ref.$refText : undefined },
            start: nodes[index].offset, end: nodes[index].end, declaration: false,
        };
    }

    /** The columns a column list of an AUTO CDC spec names: the source's, or (TRACK HISTORY ON) the flow's output. */
    private listRelation(spec: ast.AutoCdcSpec | ast.SnapshotSpec, list: AstNode): RelationType {
        const types = this.services.types.TypeComputer;
        const source = types.cdcSourceSchema(spec);
        if (ast.isTrackHistoryClause(list.$container) && ast.isAutoCdcSpec(spec)) {
            return selectColumns(source, spec.clauses.find(ast.isColumnsClause)?.columns);
        }
        return source;
    }

    private nodeRange(node: AstNode, property: string): { start: number; end: number } | undefined {
        const cst = GrammarUtils.findNodeForProperty(node.$cstNode, property);
        return cst ? { start: cst.offset, end: cst.end } : undefined;
    }

    //#endregion

    //#region Declarations

    /** Where a symbol is declared: a node and the range of its name, when it has one in a document. */
    declarationOf(target: SymbolTarget): Occurrence | undefined {
        switch (target.kind) {
            case 'dataset': {
                const cst = GrammarUtils.findNodeForProperty(target.node.$cstNode, 'name');
                return cst ? this.occurrence(target.node, lastPartOffsets(cst.text, cst.offset), true) : undefined;
            }
            case 'cte': {
                const cst = GrammarUtils.findNodeForProperty(target.node.$cstNode, 'name');
                return cst ? this.occurrence(target.node, { start: cst.offset, end: cst.end }, true) : undefined;
            }
            case 'alias': {
                const cst = GrammarUtils.findNodeForProperty(target.relation.$cstNode, 'alias');
                return cst ? this.occurrence(target.relation, { start: cst.offset, end: cst.end }, true) : undefined;
            }
            case 'column':
                return this.columnDeclaration(target.column);
            default:
                return undefined;
        }
    }

    /** Where a column is declared: its column definition, the alias or expression of its select item, a CTE column name. */
    private columnDeclaration(column: Column): Occurrence | undefined {
        const node = column.node;
        if (!node?.$cstNode) {
            return undefined;
        }
        if (ast.isColumnDef(node)) {
            const cst = GrammarUtils.findNodeForProperty(node.$cstNode, 'name');
            return cst ? this.occurrence(node, { start: cst.offset, end: cst.end }, true) : undefined;
        }
        if (ast.isSelectItem(node)) {
            const aliases = [...GrammarUtils.findNodesForProperty(node.$cstNode, 'alias'), ...GrammarUtils.findNodesForProperty(node.$cstNode, 'aliases')];
            const named = aliases.find(a => lower(a.text.replace(/^`|`$/g, '')) === lower(column.name)) ?? aliases[0];
            if (named) {
                return this.occurrence(node, { start: named.offset, end: named.end }, true);
            }
            const expression = node.expression;
            if (ast.isColumnReference(expression)) {
                const parts = GrammarUtils.findNodesForProperty(expression.$cstNode, 'parts');
                const last = parts[parts.length - 1];
                if (last) {
                    return this.occurrence(node, { start: last.offset, end: last.end }, true);
                }
            }
            return this.occurrence(node, { start: node.$cstNode.offset, end: node.$cstNode.end }, true);
        }
        return this.occurrence(node, { start: node.$cstNode.offset, end: node.$cstNode.end }, true);
    }

    private occurrence(node: AstNode, range: { start: number; end: number }, declaration: boolean): Occurrence {
        return { document: document(node), ...range, declaration };
    }

    //#endregion

    //#region Occurrences

    /**
     * Every occurrence of a symbol: in `only` (a document), or in every document of its pipeline.
     * Datasets come from Langium's reference index; CTEs, aliases and columns are found by resolving the
     * names that could refer to them.
     */
    async occurrences(target: SymbolTarget, only: LangiumDocument | undefined, cancelToken?: Cancellation.CancellationToken): Promise<Occurrence[]> {
        const result: Occurrence[] = [];
        const declaration = this.declarationOf(target);
        if (declaration && (!only || declaration.document === only)) {
            result.push(declaration);
        }
        switch (target.kind) {
            case 'dataset':
                result.push(...this.datasetReferences(target.node, only));
                break;
            case 'cte': {
                const query = target.node.$container;
                for (const reference of query ? AstUtils.streamAst(query).filter(ast.isDatasetRef) : []) {
                    if (reference.ref.ref === target.node && reference.$cstNode) {
                        result.push(this.occurrence(reference, { start: reference.$cstNode.offset, end: reference.$cstNode.end }, false));
                    }
                }
                break;
            }
            case 'alias':
                result.push(...this.aliasReferences(target));
                break;
            case 'column':
                result.push(...await this.columnReferences(target.column, only, cancelToken));
                break;
            default:
                break;
        }
        return dedupe(result);
    }

    /** The occurrences of the symbol under the cursor and, for a pass-through select item, of the column it declares. */
    async occurrencesAt(symbol: SymbolAtCursor, only: LangiumDocument | undefined, cancelToken?: Cancellation.CancellationToken): Promise<Occurrence[]> {
        const result = await this.occurrences(symbol.target, only, cancelToken);
        if (symbol.declares) {
            result.push(...await this.occurrences({ kind: 'column', column: symbol.declares, type: symbol.declares.type }, only, cancelToken));
        }
        return dedupe(result);
    }

    private datasetReferences(node: ast.Dataset, only: LangiumDocument | undefined): Occurrence[] {
        const shared = this.services.shared;
        const path = this.services.workspace.AstNodeLocator.getAstNodePath(node);
        const documents = shared.workspace.LangiumDocuments;
        const result: Occurrence[] = [];
        for (const reference of shared.workspace.IndexManager.findAllReferences(node, path)) {
            const source = documents.getDocument(reference.sourceUri);
            if (!source || (only && source !== only)) {
                continue;
            }
            const { offset, end } = reference.segment;
            const text = source.textDocument.getText().substring(offset, end);
            result.push({ document: source, ...lastPartOffsets(text, offset), declaration: false });
        }
        return result;
    }

    /** `o.x` and `o.*` in the query whose FROM declares the alias `o`. */
    private aliasReferences(target: { relation: AstNode; name: string }): Occurrence[] {
        const select = AstUtils.getContainerOfType(target.relation, ast.isSelectQuery);
        const root = select?.$container ?? target.relation;
        const types = this.services.types.TypeComputer;
        const keys = target.name.split('.').map(lower);
        const result: Occurrence[] = [];
        for (const node of AstUtils.streamAst(root)) {
            if (ast.isColumnReference(node) && node.parts.length > keys.length) {
                const parts = this.partNodes(node);
                const scope = types.scopeAt(node);
                const entry = scope ? findQualified(scope, node.parts.slice(0, keys.length)) : undefined;
                if (entry?.node === target.relation && parts[keys.length - 1]) {
                    result.push(this.occurrence(node, { start: parts[keys.length - 1].offset, end: parts[keys.length - 1].end }, false));
                }
            } else if (ast.isStar(node) && node.qualifier.length === keys.length && node.qualifier.every((q, i) => lower(q) === keys[i])) {
                const scope = types.scopeAt(node);
                const entry = scope ? findQualified(scope, node.qualifier) : undefined;
                const qualifiers = GrammarUtils.findNodesForProperty(node.$cstNode, 'qualifier');
                const last = qualifiers[qualifiers.length - 1];
                if (entry?.node === target.relation && last) {
                    result.push(this.occurrence(node, { start: last.offset, end: last.end }, false));
                }
            }
        }
        return result;
    }

    /** Names that resolve to the same column (same declaring node, same name), in one document or in the pipeline. */
    private async columnReferences(column: Column, only: LangiumDocument | undefined, cancelToken?: Cancellation.CancellationToken): Promise<Occurrence[]> {
        if (!column.node) {
            return [];
        }
        const documents = only ? [only] : this.pipelineDocuments(document(column.node));
        const types = this.services.types.TypeComputer;
        const same = (other: Column | undefined): boolean => other !== undefined && other.node === column.node && lower(other.name) === lower(column.name);
        const result: Occurrence[] = [];
        for (const doc of documents) {
            if (cancelToken) {
                await interruptAndCheck(cancelToken);
            }
            for (const node of AstUtils.streamAst(doc.parseResult.value)) {
                if (ast.isColumnReference(node)) {
                    const resolution = types.resolveColumn(node);
                    if ((resolution.kind === 'column' || resolution.kind === 'alias') && same(resolution.column)) {
                        const part = this.partNodes(node)[this.columnPartIndex(node, resolution.column)];
                        if (part) {
                            result.push(this.occurrence(node, { start: part.offset, end: part.end }, false));
                        }
                    }
                } else if (ast.isColumnNameList(node) || ast.isColumnSelection(node)) {
                    const spec = AstUtils.getContainerOfType(node, (n): n is ast.AutoCdcSpec | ast.SnapshotSpec => ast.isAutoCdcSpec(n) || ast.isSnapshotSpec(n));
                    if (!spec) {
                        continue;
                    }
                    const relation = this.listRelation(spec, node);
                    const nodes = GrammarUtils.findNodesForProperty(node.$cstNode, 'names');
                    node.names.forEach((name, i) => {
                        if (nodes[i] && same(findColumn(relation, name))) {
                            result.push(this.occurrence(node, { start: nodes[i].offset, end: nodes[i].end }, false));
                        }
                    });
                }
            }
        }
        return result;
    }

    /** Which part of a reference names the column itself (`c` in `t.c`, `s` in `s.field`). */
    private columnPartIndex(reference: ast.ColumnReference, column: Column): number {
        const index = reference.parts.findIndex(p => lower(p) === lower(column.name));
        return index < 0 ? reference.parts.length - 1 : index;
    }

    /** The documents of the pipeline a document belongs to (sources and catalog files). */
    pipelineDocuments(of: LangiumDocument): LangiumDocument[] {
        const registry = this.services.pipeline.Registry;
        const id = registry.pipelineOf(of.uri).id;
        return this.services.shared.workspace.LangiumDocuments.all.filter(d => registry.pipelineOf(d.uri).id === id).toArray();
    }

    //#endregion
}

/** The document of a node. */
function document(node: AstNode): LangiumDocument {
    return AstUtils.getDocument(node);
}

function ruleName(element: AstNode): string | undefined {
    return AstUtils.getContainerOfType(element, GrammarAST.isAbstractParserRule)?.name;
}

/** The property a leaf is assigned to in its AST node (the first assignment above it). */
function assignedProperty(leaf: CstNode, node: AstNode): string | undefined {
    for (let current: CstNode | undefined = leaf; current && current.astNode === node; current = current.container) {
        const assignment = AstUtils.getContainerOfType(current.grammarSource, GrammarAST.isAssignment);
        if (assignment && (current === leaf || current.grammarSource === assignment.terminal || GrammarAST.isRuleCall(current.grammarSource))) {
            return assignment.feature;
        }
    }
    return undefined;
}

/** The relation of a scope that a qualifier (`o`, `sch.t`) names, looking outwards. */
export function findQualified(scope: ColumnScope, qualifier: readonly string[]): ScopeEntry | undefined {
    const keys = qualifier.map(lower);
    for (let current: ColumnScope | undefined = scope; current; current = current.parent) {
        const entry = current.entries.find(e => e.qualifiers.some(q => q.length === keys.length && q.every((p, i) => p === keys[i])));
        if (entry) {
            return entry;
        }
    }
    return undefined;
}

/** A column reference with the first parts of another, at the same place in the tree (for `a` of `a.b`). */
function syntheticReference(reference: ast.ColumnReference, parts: readonly string[]): ast.ColumnReference {
    return {
        $type: ast.ColumnReference.$type, parts: [...parts], $container: reference.$container,
        $containerProperty: reference.$containerProperty, $containerIndex: reference.$containerIndex,
    } as unknown as ast.ColumnReference;
}

/** The name of the relation a scope entry stands for: its alias, its table, a CTE. */
export function relationName(entry: ScopeEntry): string | undefined {
    const node = entry.node;
    if (ast.isTableReference(node)) {
        return node.alias ?? node.table?.ref.$refText;
    }
    if (ast.isTableFunctionCall(node)) {
        return node.alias ?? node.name;
    }
    return (node as { alias?: string } | undefined)?.alias ?? entry.qualifiers[0]?.join('.');
}

function dedupe(occurrences: Occurrence[]): Occurrence[] {
    const seen = new Set<string>();
    return occurrences.filter(o => {
        const key = `${o.document.uri.toString()}:${o.start}:${o.end}`;
        if (seen.has(key)) {
            return false;
        }
        seen.add(key);
        return true;
    });
}

//#region Clause documentation ids

/** The keyword-docs id for a keyword written in a node, if the pipeline docs explain it. */
export function clauseIdOf(node: AstNode, keyword: string): string | undefined {
    switch (node.$type) {
        case ast.CreateStreamingTable.$type:
        case ast.CreateMaterializedView.$type:
        case ast.CreateView.$type:
        case ast.CreateTable.$type:
        case ast.CreateFlow.$type:
            return createClauseId(node as ast.Dataset | ast.CreateFlow, keyword);
        case ast.InlineFlow.$type:
            return 'FLOW';
        case ast.AutoCdcFlow.$type:
            return keyword === 'ONCE' ? 'ONCE' : (node as ast.AutoCdcFlow).once ? 'AUTO CDC ONCE' : 'AUTO CDC';
        case ast.ApplyChanges.$type:
        case ast.ApplyChangesFlow.$type:
            return 'APPLY CHANGES';
        case ast.AutoCdcSpec.$type:
            return keyword === 'KEYS' ? 'KEYS' : ast.isAutoCdcFlow(node.$container) && node.$container.once ? 'AUTO CDC ONCE' : 'AUTO CDC';
        case ast.SnapshotSpec.$type:
            return keyword === 'KEYS' ? 'KEYS' : keyword === 'WITH' || keyword === 'VERSION' ? 'WITH VERSION' : 'FROM SNAPSHOT';
        case ast.SourceRef.$type:
        case ast.TableReference.$type:
            return keyword === 'STREAM' ? 'STREAM' : undefined;
        case ast.TableFunctionCall.$type:
            return keyword === 'STREAM' ? 'STREAM' : undefined;
        case ast.IgnoreNullUpdatesClause.$type: return 'IGNORE NULL UPDATES';
        case ast.ApplyAsDeleteClause.$type: return 'APPLY AS DELETE WHEN';
        case ast.ApplyAsTruncateClause.$type: return 'APPLY AS TRUNCATE WHEN';
        case ast.SequenceByClause.$type: return 'SEQUENCE BY';
        case ast.SystemSequenceByClause.$type: return 'SYSTEM SEQUENCE BY';
        case ast.ColumnsClause.$type: return 'COLUMNS';
        case ast.ColumnsToUpdateClause.$type: return 'COLUMNS TO UPDATE';
        case ast.TrackHistoryClause.$type: return 'TRACK HISTORY ON';
        case ast.ColumnSelection.$type: {
            const clause = node.$container;
            return clause && clause.$type !== ast.ColumnSelection.$type ? clauseIdOf(clause, keyword) : undefined;
        }
        case ast.StoredAsClause.$type: {
            const stored = node as ast.StoredAsClause;
            if (keyword === 'STORED' || keyword === 'AS') {
                return 'STORED AS';
            }
            return stored.bitemporal ? 'BITEMPORAL' : `SCD TYPE ${stored.scdType === 2 ? 2 : 1}`;
        }
        case ast.FlowWhereClause.$type: return 'APPLY CHANGES';
        case ast.InsertFlow.$type: {
            const flow = node as ast.InsertFlow;
            if (keyword === 'ONCE') {
                return 'ONCE';
            }
            if (keyword === 'BY' || keyword === 'NAME') {
                return 'BY NAME';
            }
            if (keyword === 'REPLACE' || keyword === 'WHERE') {
                return flow.replaceWhere ? 'REPLACE WHERE' : 'REPLACE USING';
            }
            return flow.once ? 'INSERT ONCE INTO' : 'INSERT INTO';
        }
        case ast.ReplaceUsingSpec.$type: return 'REPLACE USING';
        case ast.Expectation.$type: {
            switch (keyword) {
                case 'EXPECT': return 'EXPECT';
                case 'ON': case 'VIOLATION': return 'ON VIOLATION';
                case 'DROP': case 'ROW': return 'DROP ROW';
                case 'FAIL': case 'UPDATE': return 'FAIL UPDATE';
                default: return 'CONSTRAINT';
            }
        }
        case ast.PartitionedByClause.$type: return 'PARTITIONED BY';
        case ast.ClusterByClause.$type: return 'CLUSTER BY';
        case ast.TblPropertiesClause.$type: return 'TBLPROPERTIES';
        case ast.RowFilterClause.$type: return 'WITH ROW FILTER';
        case ast.MaskProperty.$type: return 'MASK';
        case ast.CommentClause.$type: return 'COMMENT';
        case ast.LocationClause.$type: return 'LOCATION';
        case ast.GeneratedAsProperty.$type: return 'GENERATED ALWAYS AS';
        case ast.SetStatement.$type: return 'SET';
        default: return undefined;
    }
}

function createClauseId(node: ast.Dataset | ast.CreateFlow, keyword: string): string {
    if (keyword === 'OR' || keyword === 'REFRESH') {
        return 'OR REFRESH';
    }
    if (keyword === 'PRIVATE') {
        return 'PRIVATE';
    }
    if (keyword === 'IF' || keyword === 'NOT' || keyword === 'EXISTS') {
        return 'IF NOT EXISTS';
    }
    switch (node.$type) {
        case ast.CreateStreamingTable.$type: return 'CREATE STREAMING TABLE';
        case ast.CreateMaterializedView.$type: return (node as ast.CreateMaterializedView).legacyLiveTable ? 'CREATE LIVE TABLE' : 'CREATE MATERIALIZED VIEW';
        case ast.CreateView.$type: {
            const view = node as ast.CreateView;
            return view.live ? 'CREATE LIVE TABLE' : view.temporary ? 'CREATE TEMPORARY VIEW' : 'CREATE VIEW';
        }
        case ast.CreateTable.$type: return 'CREATE TABLE FLOW';
        default: return 'CREATE FLOW';
    }
}

//#endregion
