/**
 * Navigation (Langium's `DefinitionProvider`, `ReferencesProvider`, `DocumentHighlightProvider` and
 * `RenameProvider` services). Langium's defaults follow cross-references only, and its rename replaces
 * a reference's whole text; in pipeline SQL the dataset references are qualified names
 * (`LIVE.orders`, `sales.orders`) whose last part alone is the dataset's name, and columns and table
 * aliases are plain names resolved through scopes. Each provider therefore asks the symbol finder
 * (`pipeline-sql-symbols.ts`) what is under the cursor and where else it occurs.
 */
import type { AstNode, LangiumDocument, MaybePromise } from 'langium';
import { AstUtils, Cancellation, GrammarUtils, URI } from 'langium';
import { DefaultDefinitionProvider, DefaultDocumentHighlightProvider, DefaultReferencesProvider, DefaultRenameProvider } from 'langium/lsp';
import type {
    DefinitionParams, DocumentHighlight, Location, LocationLink, PrepareRenameParams, Range, ReferenceParams, RenameParams, TextDocumentPositionParams,
    TextEdit, WorkspaceEdit,
} from 'vscode-languageserver';
import { DocumentHighlightKind, ErrorCodes, ResponseError } from 'vscode-languageserver';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { lspRange } from '../../project/python/python-lookup.js';
import { lower } from '../references/dataset-names.js';
import { lastPartOffsets, quoteName, rangeOf } from './lsp-text.js';
import { PipelineSqlSymbols, type Occurrence, type SymbolAtCursor, type SymbolTarget } from './pipeline-sql-symbols.js';
import { concatLocations, mergeWorkspaceEdits, type PipelineAnswer } from './pipeline-sql-shared-files.js';
import { editorUri } from '../pipeline/pipeline-registry.js';

function toLocation(occurrence: Occurrence): Location {
    return { uri: occurrence.document.uri.toString(), range: rangeOf(occurrence.document, occurrence.start, occurrence.end) };
}

/** Go to definition for datasets (across files), CTEs, table aliases, columns, and source tables with sample data. */
export class PipelineSqlDefinitionProvider extends DefaultDefinitionProvider {

    private readonly symbols: PipelineSqlSymbols;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.symbols = new PipelineSqlSymbols(services);
    }

    /** In a file several pipelines list: every pipeline's places (`orders` may be another dataset in each). */
    override getDefinition(document: LangiumDocument, params: DefinitionParams): MaybePromise<LocationLink[] | undefined> {
        return this.symbols.services.shared.pipeline.SharedFiles.askEachPipeline(document, each => this.definitionIn(each, params), allPlaces);
    }

    private definitionIn(document: LangiumDocument, params: DefinitionParams): LocationLink[] | undefined {
        const symbol = this.symbols.symbolAt(document, document.textDocument.offsetAt(params.position));
        if (!symbol) {
            return undefined;
        }
        const origin = rangeOf(document, symbol.start, symbol.end);
        if (symbol.target.kind === 'external') {
            return this.sampleData(symbol.target.reference, origin);
        }
        const declaration = this.symbols.declarationOf(symbol.target);
        if (!declaration) {
            return undefined;
        }
        const node = declarationNode(symbol.target);
        const cst = node?.$cstNode;
        const selection = rangeOf(declaration.document, declaration.start, declaration.end);
        const full = cst && AstUtils.getDocument(node) === declaration.document ? rangeOf(declaration.document, cst.offset, cst.end) : selection;
        return [{ targetUri: declaration.document.uri.toString(), targetRange: full, targetSelectionRange: selection, originSelectionRange: origin }];
    }

    /**
     * A dataset of the pipeline's Python files: its definition there (the name in `name=`, else the
     * function's name). A table outside the pipeline whose sample data is on disk: its data file
     * (the first one of a folder).
     */
    private sampleData(reference: ast.DatasetRef, origin: Range): LocationLink[] | undefined {
        const services = this.symbols.services;
        const source = services.types.TypeComputer.externalSource(reference);
        if (source.python) {
            const { dataset, file } = source.python;
            const selection = lspRange(dataset.range);
            const full = { start: lspRange(dataset.definitionRange).start, end: selection.end };
            return [{ targetUri: URI.file(file).toString(), targetRange: full, targetSelectionRange: selection, originSelectionRange: origin }];
        }
        // The files the sample catalog read (inside the pipeline): a folder goes to its first file.
        const file = source.files?.[0];
        if (!file) {
            return undefined;
        }
        const start = { line: 0, character: 0 };
        return [{ targetUri: URI.file(file).toString(), targetRange: { start, end: start }, targetSelectionRange: { start, end: start }, originSelectionRange: origin }];
    }
}

/** Find references: datasets across the pipeline's files, CTEs, aliases and columns where they resolve. */
export class PipelineSqlReferencesProvider extends DefaultReferencesProvider {

    private readonly symbols: PipelineSqlSymbols;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.symbols = new PipelineSqlSymbols(services);
    }

    /** In a file several pipelines list: every pipeline's references, each place once. */
    override async findReferences(document: LangiumDocument, params: ReferenceParams, cancelToken = Cancellation.CancellationToken.None): Promise<Location[]> {
        const places = await this.symbols.services.shared.pipeline.SharedFiles.askEachPipeline(document,
            each => this.referencesIn(each, params, cancelToken), allPlaces, cancelToken);
        return places ?? [];
    }

    private async referencesIn(document: LangiumDocument, params: ReferenceParams, cancelToken: Cancellation.CancellationToken): Promise<Location[]> {
        const symbol = this.symbols.symbolAt(document, document.textDocument.offsetAt(params.position));
        if (!symbol) {
            return [];
        }
        const occurrences = await this.symbols.occurrencesAt(symbol, undefined, cancelToken);
        return occurrences.filter(o => params.context.includeDeclaration || !o.declaration).map(toLocation);
    }
}

/** Document highlights: the occurrences of the symbol under the cursor in the same file (its declaration as a write). */
export class PipelineSqlDocumentHighlightProvider extends DefaultDocumentHighlightProvider {

    private readonly symbols: PipelineSqlSymbols;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.symbols = new PipelineSqlSymbols(services);
    }

    override async getDocumentHighlight(document: LangiumDocument, params: TextDocumentPositionParams, cancelToken = Cancellation.CancellationToken.None): Promise<DocumentHighlight[] | undefined> {
        const symbol = this.symbols.symbolAt(document, document.textDocument.offsetAt(params.position));
        if (!symbol || !isNavigable(symbol.target)) {
            return undefined;
        }
        const occurrences = await this.symbols.occurrencesAt(symbol, document, cancelToken);
        return occurrences.map(o => ({
            range: rangeOf(document, o.start, o.end), kind: o.declaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
        }));
    }
}

/**
 * Rename of datasets (in every file of the pipeline) and CTEs: the declaration's name and the last
 * part of every reference are replaced, so `LIVE.orders` becomes `LIVE.sales`.
 */
export class PipelineSqlRenameProvider extends DefaultRenameProvider {

    private readonly symbols: PipelineSqlSymbols;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.symbols = new PipelineSqlSymbols(services);
    }

    /** The name to rename under the cursor: a dataset's (the last part of a qualified reference) or a CTE's. */
    override async prepareRename(document: LangiumDocument, params: PrepareRenameParams): Promise<Range | undefined> {
        const symbol = this.renameable(document, params);
        const range = symbol.target.kind === 'dataset' && !symbol.declaration ? this.lastPart(document, symbol) : { start: symbol.start, end: symbol.end };
        return rangeOf(document, range.start, range.end);
    }

    /**
     * Renames in every pipeline that sees the name: started in a file several pipelines list, each
     * pipeline renames what the name is there; a dataset defined in such a file is renamed in every
     * pipeline that lists the file, wherever the rename started.
     */
    override async rename(document: LangiumDocument, params: RenameParams): Promise<WorkspaceEdit | undefined> {
        const newName = params.newName.trim();
        if (newName.length === 0 || /[\r\n]/.test(newName)) {
            throw new ResponseError(ErrorCodes.InvalidParams, 'A new name must be a non-empty name on one line.');
        }
        const written = /^`.*`$/.test(newName) || /^\$\{[^}]*\}$/.test(newName) ? newName : quoteName(newName);
        const sharedFiles = this.symbols.services.shared.pipeline.SharedFiles;
        const edit = await sharedFiles.askEachPipeline(document, async each => {
            const symbol = this.renameable(each, params);
            if (symbol.target.kind !== 'dataset') {
                return this.renameIn(symbol.target, newName, written);
            }
            // The dataset's definition in each pipeline that lists its file.
            const definition = AstUtils.getDocument(symbol.target.node);
            const name = GrammarUtils.findNodeForProperty(symbol.target.node.$cstNode, 'name');
            const definitions = name ? sharedFiles.documentsOf(this.fileDocument(definition)) : undefined;
            if (!name || !definitions) {
                return this.renameIn(symbol.target, newName, written);
            }
            const edits = await Promise.all(definitions.map(({ document: other }) => {
                const there = this.symbols.symbolAt(other, name.offset);
                return there?.target.kind === 'dataset' ? this.renameIn(there.target, newName, written) : undefined;
            }));
            return mergeWorkspaceEdits(edits) ?? undefined;
        }, parts => mergeWorkspaceEdits(parts.map(p => p.answer)));
        return edit ?? undefined;
    }

    /** The file's own document of a document (a shared file's document in another pipeline is one of its documents). */
    private fileDocument(document: LangiumDocument): LangiumDocument {
        const own = editorUri(document.uri);
        const documents = this.symbols.services.shared.workspace.LangiumDocuments;
        return own.toString() === document.uri.toString() ? document : documents.getDocument(own) ?? document;
    }

    private async renameIn(target: SymbolTarget, newName: string, written: string): Promise<WorkspaceEdit> {
        this.checkConflict(target, newName.replace(/^`|`$/g, ''));
        const occurrences = await this.symbols.occurrences(target, undefined);
        const changes = new Map<string, TextEdit[]>();
        for (const occurrence of occurrences) {
            const uri = occurrence.document.uri.toString();
            const edits = changes.get(uri) ?? [];
            changes.set(uri, edits);
            edits.push({ range: rangeOf(occurrence.document, occurrence.start, occurrence.end), newText: written });
        }
        return { changes: Object.fromEntries(changes) };
    }

    /** The dataset or CTE under the cursor; anything else cannot be renamed (the error says why). */
    private renameable(document: LangiumDocument, params: TextDocumentPositionParams): SymbolAtCursor {
        const symbol = this.symbols.symbolAt(document, document.textDocument.offsetAt(params.position));
        if (!symbol || (symbol.target.kind !== 'dataset' && symbol.target.kind !== 'cte')) {
            throw new ResponseError(ErrorCodes.InvalidRequest, 'Only datasets and common table expressions can be renamed; place the cursor on a dataset or CTE name.');
        }
        return symbol;
    }

    private lastPart(document: LangiumDocument, symbol: SymbolAtCursor): { start: number; end: number } {
        return lastPartOffsets(document.textDocument.getText().substring(symbol.start, symbol.end), symbol.start);
    }

    /** A dataset must not take the name of another dataset of its pipeline, nor a CTE of another CTE of its WITH. */
    private checkConflict(target: SymbolTarget, newName: string): void {
        const key = lower(newName);
        if (target.kind === 'dataset') {
            const services = this.symbols.services;
            const pipeline = services.pipeline.Registry.pipelineOf(AstUtils.getDocument(target.node).uri);
            const symbols = services.references.SymbolIndex.symbolsOf(pipeline.id);
            const clash = [...symbols.datasets.get(key), ...symbols.catalogTables.get(key)].find(s => s.node !== target.node);
            if (clash) {
                throw new ResponseError(ErrorCodes.InvalidParams, `A dataset named '${newName}' already exists in this pipeline (${clash.documentUri.path.split('/').pop()}).`);
            }
        } else if (target.kind === 'cte') {
            const query = target.node.$container;
            if (ast.isQuery(query) && query.ctes.some(c => c !== target.node && lower(c.name) === key)) {
                throw new ResponseError(ErrorCodes.InvalidParams, `This WITH clause already has a common table expression named '${newName}'.`);
            }
        }
    }
}

/** Every pipeline's places for a file several pipelines list, each once. */
function allPlaces<T>(parts: ReadonlyArray<PipelineAnswer<T[] | undefined>>): T[] | undefined {
    return (concatLocations(parts.map(p => p.answer)) ?? undefined) as T[] | undefined;
}

/** Only names with occurrences are highlighted (not keywords, functions or properties). */
function isNavigable(target: SymbolTarget): boolean {
    return target.kind === 'dataset' || target.kind === 'cte' || target.kind === 'alias' || target.kind === 'column';
}

/** The AST node a symbol is declared by, for the full range of a definition link. */
function declarationNode(target: SymbolTarget): AstNode | undefined {
    switch (target.kind) {
        case 'dataset': case 'cte': return target.node;
        case 'alias': return target.relation;
        case 'column': return target.column.node;
        default: return undefined;
    }
}
