import type { AstNodeDescription, IndexManager } from 'langium';
import { DocumentCache, DocumentState, MultiMap, URI, WorkspaceCache } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import * as ast from '../generated/ast.js';
import type { DocumentRole, PipelineInfo, PipelineRegistry } from '../pipeline/pipeline-registry.js';
import { PipelineParameters } from '../../project/parameters.js';
import {
    lastKey, parseTableName, referenceMatchesCatalogTable, referenceMatchesDataset,
    type NamespaceDefaults, type TableName,
} from './dataset-names.js';
import { namespaceDefaultsAt } from './pipeline-namespaces.js';

/** A dataset (or sample catalog table) declared in some document of a pipeline. */
export interface DeclaredSymbol {
    readonly description: AstNodeDescription;
    readonly node: ast.Dataset;
    /** Its name, with the pipeline parameters the project file defines substituted. */
    readonly name: TableName;
    /** The default catalog and schema in effect at its statement. */
    readonly defaults: NamespaceDefaults;
    /** `pipeline` for a dataset, `catalog` for a table declared in `samples/*.sql`. */
    readonly role: DocumentRole;
    readonly documentUri: URI;
}

/** The symbols of one pipeline, by lower-case table name. */
export interface PipelineSymbols {
    readonly datasets: MultiMap<string, DeclaredSymbol>;
    readonly catalogTables: MultiMap<string, DeclaredSymbol>;
}

const emptySymbols: PipelineSymbols = { datasets: new MultiMap(), catalogTables: new MultiMap() };

/**
 * The exported symbols of the workspace grouped by pipeline (a Pipeline SQL service,
 * `references.SymbolIndex`): which datasets and sample catalog tables each pipeline declares, and
 * which of them a table reference names. Built once per build from Langium's index, after every
 * changed document has been indexed (cleared when the `IndexedContent` phase completes), so a
 * keystroke costs one pass over the index rather than one per reference.
 */
export class PipelineSymbolIndex {

    private readonly indexManager: IndexManager;
    private readonly registry: PipelineRegistry;
    private readonly cache: WorkspaceCache<string, Map<string, PipelineSymbols>>;
    private readonly parameters: WorkspaceCache<string, PipelineParameters>;
    private readonly documents: LangiumSharedServices['workspace']['LangiumDocuments'];
    /** The symbols each document declares, kept until it is indexed again. */
    private readonly documentSymbols: DocumentCache<string, DeclaredSymbol[]>;

    constructor(shared: LangiumSharedServices, registry: PipelineRegistry) {
        this.indexManager = shared.workspace.IndexManager;
        this.registry = registry;
        this.cache = new WorkspaceCache(shared, DocumentState.IndexedContent);
        this.parameters = new WorkspaceCache(shared, DocumentState.IndexedContent);
        this.documents = shared.workspace.LangiumDocuments;
        this.documentSymbols = new DocumentCache(shared, DocumentState.IndexedContent);
        registry.onDidChangeRoots(() => {
            this.cache.clear();
            this.parameters.clear();
            this.documentSymbols.clear();
        });
    }

    /** The symbols declared by the documents of a pipeline. */
    symbolsOf(pipelineId: string): PipelineSymbols {
        return this.all().get(pipelineId) ?? emptySymbols;
    }

    /** Every dataset of a pipeline (not the catalog tables), in document order. */
    datasetsOf(pipelineId: string): DeclaredSymbol[] {
        return [...this.symbolsOf(pipelineId).datasets.values()];
    }

    /** The datasets of the pipeline a reference (written at `defaults`) names; several when declared twice. */
    findDatasets(pipeline: PipelineInfo, reference: TableName, defaults: NamespaceDefaults): DeclaredSymbol[] {
        return this.symbolsOf(pipeline.id).datasets.get(lastKey(reference))
            .filter(symbol => referenceMatchesDataset(reference, symbol.name, mergeDefaults(symbol.defaults, defaults)));
    }

    /** The sample catalog table (declared in `samples/*.sql`) a reference names, if any. */
    findCatalogTable(pipeline: PipelineInfo, reference: TableName): DeclaredSymbol | undefined {
        return this.symbolsOf(pipeline.id).catalogTables.get(lastKey(reference)).find(symbol => referenceMatchesCatalogTable(reference, symbol.name));
    }

    /** Parses a name written in a document of this pipeline, substituting the parameters it knows. */
    parseName(pipeline: PipelineInfo, text: string): TableName {
        return parseTableName(this.parametersOf(pipeline).substitute(text));
    }

    /**
     * The parameters of a pipeline: its `configuration`, then the `SET key = value` statements of its
     * files in file order (a later one wins), as the lowering for a run applies them.
     */
    parametersOf(pipeline: PipelineInfo): PipelineParameters {
        return this.parameters.get(pipeline.id, () => {
            const sets: Array<[string, string]> = [];
            const documents = this.documents.all
                .filter(d => d.state >= DocumentState.Parsed && this.registry.membershipOf(d.uri).role === 'pipeline' && this.registry.pipelineOf(d.uri).id === pipeline.id)
                .toArray()
                .sort((a, b) => (a.uri.toString() < b.uri.toString() ? -1 : 1));
            for (const document of documents) {
                const root = document.parseResult.value;
                if (ast.isPipelineFile(root)) {
                    for (const statement of root.statements) {
                        if (ast.isSetStatement(statement) && !statement.scope && statement.key !== undefined && statement.value !== undefined) {
                            sets.push([statement.key, statement.value]);
                        }
                    }
                }
            }
            return new PipelineParameters(pipeline.spec?.configuration ?? {}).with(sets);
        });
    }

    private all(): Map<string, PipelineSymbols> {
        return this.cache.get('all', () => {
            const result = new Map<string, PipelineSymbols>();
            const byDocument = new MultiMap<string, AstNodeDescription>();
            for (const description of this.indexManager.allElements()) {
                byDocument.add(description.documentUri.toString(), description);
            }
            for (const key of [...byDocument.keys()].sort()) {
                // The names depend on the pipeline's parameters, which other files' SETs may change.
                const pipeline = this.registry.pipelineOf(URI.parse(key));
                const declared = this.documentSymbols.get(key, `symbols ${this.parametersOf(pipeline).fingerprint()}`, () => this.declare(byDocument.get(key)));
                for (const symbol of declared) {
                    const pipelineId = this.registry.pipelineOf(symbol.documentUri).id;
                    let symbols = result.get(pipelineId);
                    if (!symbols) {
                        symbols = { datasets: new MultiMap(), catalogTables: new MultiMap() };
                        result.set(pipelineId, symbols);
                    }
                    (symbol.role === 'catalog' ? symbols.catalogTables : symbols.datasets).add(lastKey(symbol.name), symbol);
                }
            }
            return result;
        });
    }

    /** The symbols of one document's exported descriptions, in declaration order. */
    private declare(descriptions: readonly AstNodeDescription[]): DeclaredSymbol[] {
        const symbols: DeclaredSymbol[] = [];
        for (const description of [...descriptions].sort((a, b) => (a.node?.$cstNode?.offset ?? 0) - (b.node?.$cstNode?.offset ?? 0))) {
            const node = description.node;
            if (!ast.isDataset(node)) {
                continue;
            }
            const { pipeline, role } = this.registry.membershipOf(description.documentUri);
            symbols.push({
                description, node, name: this.parseName(pipeline, description.name), role, documentUri: description.documentUri,
                defaults: namespaceDefaultsAt(node, pipeline.spec),
            });
        }
        return symbols;
    }
}

/**
 * A reference is compared with a declaration padded with the declaration's own defaults (what its
 * file says); the referencing file's defaults fill only what the declaring file leaves open.
 */
function mergeDefaults(declared: NamespaceDefaults, referencing: NamespaceDefaults): NamespaceDefaults {
    return { catalog: declared.catalog ?? referencing.catalog, schema: declared.schema ?? referencing.schema };
}
