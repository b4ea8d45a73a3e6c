/**
 * The pipeline model: the datasets and flows that the files of one pipeline define, what each flow
 * reads and writes, and the dependency graph (DAG) between them. It is what the validator checks
 * pipeline-wide rules against (duplicates, cycles, flows into the wrong kind of table), what schema
 * inference follows from a dataset to the flows that feed it, and what the lowering to the engine and
 * the editor features (DAG view, hovers) read.
 */
import type { AstNode, LangiumDocument, LangiumDocuments, URI } from 'langium';
import { AstUtils, DocumentCache, DocumentState, MultiMap, WorkspaceCache } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import * as ast from '../generated/ast.js';
import { displayName, lastKey, NameIndex, referenceMatchesDataset, type TableName } from '../references/dataset-names.js';
import type { PipelineSymbolIndex } from '../references/pipeline-symbol-index.js';
import { depthFirst, stronglyConnectedComponents } from './graph-walks.js';
import type { PipelineInfo, PipelineRegistry } from './pipeline-registry.js';
import type { PipelinePython } from '../../project/python/python-lookup.js';
import type { PythonDatasetEntry, PythonFlowEntry, PythonPipelineDatasets } from '../../project/python/python-pipeline.js';

//#region Model types

/** The kind of a dataset. */
export type DatasetKind =
    /** `CREATE [OR REFRESH] [PRIVATE] STREAMING TABLE` (also the legacy `STREAMING LIVE TABLE`). */
    | 'streaming-table'
    /** `CREATE MATERIALIZED VIEW` (also the legacy `CREATE LIVE TABLE`). */
    | 'materialized-view'
    /** `CREATE TEMPORARY VIEW` (also the legacy `CREATE [TEMPORARY] [STREAMING] LIVE VIEW`). */
    | 'temporary-view'
    /** `CREATE VIEW`: a view published to the catalog. */
    | 'view'
    /** `CREATE TABLE` in a pipeline: a managed table fed by append flows (Beta). */
    | 'managed-table';

/** The kind of a flow (docs/semantics.md §1, flow kinds). */
export type FlowKind =
    /** `INSERT INTO t BY NAME query`, a streaming table's `AS query`, `FLOW INSERT BY NAME query`. */
    | 'append'
    /** `INSERT ONCE INTO t ...`: a one-time batch backfill. */
    | 'append-once'
    /** `AUTO CDC INTO t FROM src ...` (and the legacy `APPLY CHANGES INTO`). */
    | 'auto-cdc'
    /** `AUTO CDC ONCE INTO t FROM src ...`. */
    | 'auto-cdc-once'
    /** `AUTO CDC INTO t FROM SNAPSHOT (query) ...`. */
    | 'snapshot'
    /** `AUTO CDC ONCE INTO t FROM SNAPSHOT ...`. */
    | 'snapshot-once'
    /** `INSERT INTO t BY NAME REPLACE USING (k) SEQUENCE BY s query`. */
    | 'replace-using'
    /** `INSERT INTO t BY NAME REPLACE WHERE cond query`. */
    | 'replace-where'
    /** The batch query of a materialized view. */
    | 'materialized-view'
    /** The query of a view (evaluated when read). */
    | 'view';

/** A dataset of the pipeline. */
export interface DatasetInfo {
    /** The name as declared (parameters the project file defines substituted). */
    readonly name: TableName;
    /** The name for messages (`sales.orders`). */
    readonly displayName: string;
    readonly kind: DatasetKind;
    readonly node: ast.Dataset;
    readonly documentUri: URI;
    /** `PRIVATE` / `TEMPORARY`: not published to the catalog. */
    readonly private: boolean;
    /** The flows that write it, its own query or inline flow first. */
    readonly flows: FlowInfo[];
    /** Declared with a column list that has types (`CREATE ... t (a INT, ...)`): the declared schema wins. */
    readonly declaredSchema: boolean;
}

/** What a flow reads. */
export interface InputInfo {
    /** The reference (`FROM x`, `STREAM(x)`) or the table-valued function (`read_files(...)`). */
    readonly node: ast.DatasetRef | ast.TableFunctionCall;
    /** The name as written (for a table function, its call, `read_files('/p')`). */
    readonly name: string;
    /** Read as a stream (`STREAM(x)`, `STREAM x`, `STREAM read_files(...)`, `cloud_files(...)`). */
    readonly streaming: boolean;
    /** Which part of the flow reads it. */
    readonly role: 'query' | 'cdc-source' | 'snapshot' | 'version';
    /** The pipeline dataset read, if it is one. */
    readonly dataset?: DatasetInfo;
    /** The sample catalog table (a `CREATE TABLE` in `samples/*.sql`) read, if it is one. */
    readonly catalogTable?: ast.CreateTable;
}

/** A flow: reads a query or a change feed, writes one target. */
export interface FlowInfo {
    /** The flow name: `CREATE FLOW name`, else the target's name. */
    readonly name: string;
    readonly kind: FlowKind;
    /** The statement that defines the flow (a `CREATE FLOW`, `APPLY CHANGES`, or the dataset itself). */
    readonly statement: ast.Statement;
    /** The flow body: the inline `FLOW ...` clause, the `CREATE FLOW` body or the legacy statement. */
    readonly body?: ast.AutoCdcFlow | ast.InsertFlow | ast.ApplyChangesFlow | ast.ApplyChanges;
    /** True for the query of a dataset definition (`AS query`) and its inline `FLOW` clause. */
    readonly inline: boolean;
    /** The target as written (`INTO t`); undefined for inline flows. */
    readonly targetRef?: ast.DatasetRef;
    /** The target's name as written. */
    readonly targetName: string;
    /** The dataset written, when the pipeline defines it. */
    readonly target?: DatasetInfo;
    /** The query of an append / replace / materialized view / view flow. */
    readonly query?: ast.Query;
    /** The change-feed spec of an AUTO CDC flow. */
    readonly cdc?: ast.AutoCdcSpec;
    /** The snapshot spec of an AUTO CDC FROM SNAPSHOT flow. */
    readonly snapshot?: ast.SnapshotSpec;
    readonly inputs: readonly InputInfo[];
    readonly documentUri: URI;
}

/** How a flow's query reads its sources. */
export type QueryMode = 'streaming' | 'batch' | 'unknown';

//#endregion

//#region Per-document facts

interface FlowDraft {
    readonly name: string;
    readonly kind: FlowKind;
    readonly statement: ast.Statement;
    readonly body?: FlowInfo['body'];
    readonly inline: boolean;
    readonly targetRef?: ast.DatasetRef;
    readonly targetName: string;
    readonly ownDataset?: ast.Dataset;
    readonly query?: ast.Query;
    readonly cdc?: ast.AutoCdcSpec;
    readonly snapshot?: ast.SnapshotSpec;
    readonly inputs: ReadonlyArray<{ node: ast.DatasetRef | ast.TableFunctionCall; streaming: boolean; role: InputInfo['role'] }>;
}

interface DocumentFacts {
    readonly datasets: readonly ast.Dataset[];
    readonly flows: readonly FlowDraft[];
}

/** Table-valued functions that read data from outside the pipeline. */
const sourceFunctions = new Set(['read_files', 'cloud_files', 'read_kafka', 'read_kinesis', 'read_pubsub', 'read_pulsar', 'read_statestore']);
/** Table-valued functions that always read as a stream (the legacy Auto Loader call). */
const streamingFunctions = new Set(['cloud_files']);

/** How an AUTO CDC spec stores the changes: its last `STORED AS` clause, SCD type 1 by default. */
export function scdKindOf(spec: ast.AutoCdcSpec | ast.SnapshotSpec): 1 | 2 | 'bitemporal' {
    const stored = spec.clauses.filter(ast.isStoredAsClause).at(-1);
    if (stored?.bitemporal) {
        return 'bitemporal';
    }
    return stored?.scdType === 2 ? 2 : 1;
}

/** The `$type`s of dataset statements. */
const datasetTypes: ReadonlySet<string> = new Set([ast.CreateStreamingTable.$type, ast.CreateMaterializedView.$type, ast.CreateView.$type, ast.CreateTable.$type]);

/**
 * Whether a node declares a dataset. The model's loops run over every reference of the pipeline, so
 * they compare `$type`s directly instead of asking the reflection about subtypes on each call.
 */
function isDatasetNode(node: AstNode | undefined): node is ast.Dataset {
    return node !== undefined && datasetTypes.has(node.$type);
}

/** The kind of a dataset statement. */
export function datasetKind(node: ast.Dataset): DatasetKind {
    switch (node.$type) {
        case ast.CreateStreamingTable.$type: return 'streaming-table';
        case ast.CreateMaterializedView.$type: return 'materialized-view';
        case ast.CreateTable.$type: return 'managed-table';
        case ast.CreateView.$type:
            return (node as ast.CreateView).temporary || (node as ast.CreateView).live ? 'temporary-view' : 'view';
    }
}

/** The lower-case name of a table-valued function call (`read_files`). */
export function functionName(call: ast.TableFunctionCall | ast.FunctionCall): string {
    const text = ast.isTableFunctionCall(call) ? call.name : call.parts.join('.');
    return (text ?? '').toLowerCase().replace(/^(system\.)?builtin\./, '');
}

/** The table name `table_changes('t', …)` reads the change data feed of (its first argument), if the call is one with a string there. */
export function changeFeedTable(call: ast.TableFunctionCall): ast.StringLiteral | undefined {
    const first = call.args[0]?.value;
    return functionName(call) === 'table_changes' && ast.isStringLiteral(first) ? first : undefined;
}

function inputsOf(root: AstNode | undefined, role: InputInfo['role']): FlowDraft['inputs'] {
    if (!root) {
        return [];
    }
    const inputs: Array<FlowDraft['inputs'][number]> = [];
    for (const node of AstUtils.streamAst(root)) {
        if (ast.isDatasetRef(node)) {
            const owner = node.$container;
            const streaming = (ast.isTableReference(owner) && owner.stream) || (ast.isSourceRef(owner) && owner.streaming);
            inputs.push({ node, streaming, role });
        } else if (ast.isTableFunctionCall(node) && sourceFunctions.has(functionName(node))) {
            inputs.push({ node, streaming: node.stream || streamingFunctions.has(functionName(node)), role });
        }
    }
    return inputs;
}

function cdcFlowKind(body: ast.AutoCdcFlow | ast.ApplyChangesFlow | ast.ApplyChanges): FlowKind {
    const once = ast.isAutoCdcFlow(body) && body.once;
    if (ast.isSnapshotSpec(body.cdc)) {
        return once ? 'snapshot-once' : 'snapshot';
    }
    return once ? 'auto-cdc-once' : 'auto-cdc';
}

function insertFlowKind(body: ast.InsertFlow): FlowKind {
    if (body.replaceUsing) {
        return 'replace-using';
    }
    if (body.replaceWhere) {
        return 'replace-where';
    }
    return body.once ? 'append-once' : 'append';
}

function bodyDraft(
    body: ast.AutoCdcFlow | ast.InsertFlow | ast.ApplyChangesFlow | ast.ApplyChanges,
    base: Pick<FlowDraft, 'name' | 'statement' | 'inline' | 'targetRef' | 'targetName' | 'ownDataset'>,
): FlowDraft {
    if (ast.isInsertFlow(body)) {
        return { ...base, body, kind: insertFlowKind(body), query: body.query, inputs: inputsOf(body.query, 'query') };
    }
    const spec = body.cdc;
    if (ast.isSnapshotSpec(spec)) {
        return {
            ...base, body, kind: cdcFlowKind(body), snapshot: spec,
            inputs: [
                ...inputsOf(spec.snapshotQuery, 'snapshot'),
                ...(spec.snapshotTable ? [{ node: spec.snapshotTable, streaming: false, role: 'snapshot' as const }] : []),
                ...inputsOf(spec.versionQuery, 'version'),
            ],
        };
    }
    return { ...base, body, kind: cdcFlowKind(body), cdc: spec, inputs: spec ? inputsOf(spec.source, 'cdc-source') : [] };
}

function refText(ref: ast.DatasetRef | undefined): string {
    return ref?.ref.$refText ?? '';
}

/** The datasets and flows one file defines. */
function documentFacts(document: LangiumDocument): DocumentFacts {
    const root = document.parseResult.value;
    const datasets: ast.Dataset[] = [];
    const flows: FlowDraft[] = [];
    if (!ast.isPipelineFile(root)) {
        return { datasets, flows };
    }
    for (const statement of root.statements) {
        if (ast.isDataset(statement)) {
            if (!statement.name) {
                continue;
            }
            datasets.push(statement);
            const base = { name: statement.name, statement, inline: true, targetName: statement.name, ownDataset: statement };
            const flow = (statement as { flow?: ast.InlineFlow }).flow;
            if (flow?.body) {
                flows.push(bodyDraft(flow.body, base));
            } else if (statement.query) {
                const kind: FlowKind = ast.isCreateMaterializedView(statement) ? 'materialized-view'
                    : ast.isCreateView(statement) ? 'view' : 'append';
                flows.push({ ...base, kind, query: statement.query, inputs: inputsOf(statement.query, 'query') });
            }
        } else if (ast.isCreateFlow(statement) && statement.body) {
            const target = statement.body.target;
            flows.push(bodyDraft(statement.body, {
                name: statement.name ?? refText(target), statement, inline: false, targetRef: target, targetName: refText(target),
            }));
        } else if (ast.isApplyChanges(statement)) {
            flows.push(bodyDraft(statement, {
                name: refText(statement.target), statement, inline: false, targetRef: statement.target, targetName: refText(statement.target),
            }));
        }
    }
    return { datasets, flows };
}

//#endregion

//#region The model of one pipeline

/** The datasets, flows and dependency graph of one pipeline. */
export class PipelineModel {

    readonly datasets: DatasetInfo[] = [];
    readonly flows: FlowInfo[] = [];
    private readonly byKey = new MultiMap<string, DatasetInfo>();
    private readonly byNode = new Map<AstNode, DatasetInfo>();
    private readonly flowByNode = new Map<AstNode, FlowInfo>();
    private readonly flowsByName = new MultiMap<string, FlowInfo>();
    private cyclesValue?: DatasetInfo[][];
    private cycleByDataset?: Map<DatasetInfo, DatasetInfo[]>;
    private readonly modes = new Map<FlowInfo, QueryMode>();
    private datasetNameIndex?: NameIndex;

    /** The datasets of the pipeline's Python files that SQL flows read, by input. */
    private readonly pythonInputs = new Map<InputInfo, PythonDatasetEntry>();

    /**
     * Assembles a pipeline from what its documents contribute: their datasets (made once per change of
     * the document) and their flows (made once per linking of the document).
     */
    constructor(readonly pipeline: PipelineInfo, readonly documents: readonly LangiumDocument[],
        contributions: ReadonlyArray<{ datasets: readonly DatasetInfo[]; flows: readonly FlowInfo[] }>,
        /** The datasets and flows the pipeline's Python files define (read, never run). */
        readonly python?: PythonPipelineDatasets,
        pythonOf: (reference: ast.DatasetRef) => PythonDatasetEntry | undefined = () => undefined) {
        for (const { datasets } of contributions) {
            for (const info of datasets) {
                // Dataset objects live as long as their document; their flows are this build's.
                (info.flows as FlowInfo[]).length = 0;
                this.datasets.push(info);
                this.byKey.add(lastKey(info.name), info);
                this.byNode.set(info.node, info);
            }
        }
        for (const { flows } of contributions) {
            for (const flow of flows) {
                for (const input of flow.inputs) {
                    const python = !input.dataset && !input.catalogTable && ast.isDatasetRef(input.node) ? pythonOf(input.node) : undefined;
                    if (python) {
                        this.pythonInputs.set(input, python);
                    }
                }
                this.flows.push(flow);
                this.flowsByName.add(flow.name.toLowerCase(), flow);
                flow.target?.flows.push(flow);
                this.flowByNode.set(flow.statement, flow);
                if (flow.body) {
                    this.flowByNode.set(flow.body, flow);
                }
            }
        }
        // A dataset's own query or inline flow comes first among its flows.
        for (const dataset of this.datasets) {
            if (dataset.flows.length > 1) {
                dataset.flows.sort((a, b) => Number(b.inline && b.statement === dataset.node) - Number(a.inline && a.statement === dataset.node));
            }
        }
    }

    /** The datasets with this (lower-case) table name: more than one when declared twice. */
    datasetsNamed(key: string): DatasetInfo[] {
        return [...this.byKey.get(key.toLowerCase())];
    }

    /** The flows with this (lower-case) name: a CREATE FLOW's name, else the target's. */
    flowsNamed(name: string): FlowInfo[] {
        return [...this.flowsByName.get(name.toLowerCase())];
    }

    /** The dataset a statement declares. */
    datasetOf(node: AstNode | undefined): DatasetInfo | undefined {
        return node ? this.byNode.get(node) : undefined;
    }

    /** The flow a statement or flow body defines (a dataset's own query: the dataset statement). */
    flowOf(node: AstNode | undefined): FlowInfo | undefined {
        return node ? this.flowByNode.get(node) : undefined;
    }

    /** The flows of the pipeline's Python files that write a dataset of its SQL files (`@dp.append_flow(target=...)`). */
    pythonFlowsInto(dataset: DatasetInfo): PythonFlowEntry[] {
        const python = this.python;
        return python ? python.flows.filter(f => !f.target && referenceMatchesDataset(python.parseName(f.flow.target), dataset.name, python.defaults)) : [];
    }

    /**
     * The display names of the pipeline's datasets, those of its SQL files first, then those of its
     * Python files, indexed for "did you mean" suggestions (built on first use, once per model).
     */
    datasetNames(): NameIndex {
        this.datasetNameIndex ??= new NameIndex([
            ...this.datasets.map(d => d.displayName),
            ...(this.python?.datasets.map(d => d.displayName) ?? []),
        ]);
        return this.datasetNameIndex;
    }

    /** The datasets of the pipeline's Python files with the same name as a dataset of its SQL files. */
    pythonNamesakes(dataset: DatasetInfo): PythonDatasetEntry[] {
        return this.python?.find(dataset.name, this.python.defaults) ?? [];
    }

    /** The dataset of the pipeline's Python files a flow input reads, if it reads one. */
    pythonInput(input: InputInfo): PythonDatasetEntry | undefined {
        return this.pythonInputs.get(input);
    }

    /** The pipeline dataset a reference resolves to (not a CTE, not a catalog table). */
    resolveDataset(reference: ast.DatasetRef | undefined): DatasetInfo | undefined {
        const target = reference?.ref.ref;
        return isDatasetNode(target) ? this.byNode.get(target) : undefined;
    }

    /** The datasets whose flows read `dataset`. */
    readersOf(dataset: DatasetInfo): DatasetInfo[] {
        const result = new Set<DatasetInfo>();
        for (const flow of this.flows) {
            if (flow.target && flow.inputs.some(i => i.dataset === dataset)) {
                result.add(flow.target);
            }
        }
        return [...result];
    }

    /** The datasets `dataset`'s flows read. */
    upstreamOf(dataset: DatasetInfo): DatasetInfo[] {
        return [...new Set(dataset.flows.flatMap(f => f.inputs.map(i => i.dataset).filter((d): d is DatasetInfo => d !== undefined)))];
    }

    /**
     * The cycles of the dataset graph (a dataset reads, through its flows, a dataset that reads it):
     * each is the datasets of one strongly connected component, in declaration order.
     */
    get cycles(): DatasetInfo[][] {
        this.cyclesValue ??= findCycles(this.datasets, d => this.upstreamOf(d));
        return this.cyclesValue;
    }

    /** The cycle a dataset is on, if any. */
    cycleOf(dataset: DatasetInfo): DatasetInfo[] | undefined {
        this.cycleByDataset ??= new Map(this.cycles.flatMap(cycle => cycle.map(d => [d, cycle] as const)));
        return this.cycleByDataset.get(dataset);
    }

    /**
     * Whether a flow's query reads a stream: `streaming` with a `STREAM` read (or Auto Loader's
     * `cloud_files`), `batch` when every source is read as a batch, `unknown` when it reads a view
     * that may itself be streaming.
     */
    queryMode(flow: FlowInfo): QueryMode {
        const known = this.modes.get(flow);
        if (known !== undefined) {
            return known;
        }
        // Views read views: the flows of the views read are decided first, deepest first. A view on
        // the current path (views that read each other in a cycle) counts as `unknown`.
        const onPath = new Set<FlowInfo>();
        depthFirst([flow], f => viewFlowsRead(f), {
            skip: f => this.modes.has(f),
            enter: f => onPath.add(f),
            leave: f => {
                onPath.delete(f);
                this.modes.set(f, this.computeMode(f, onPath));
            },
        });
        return this.modes.get(flow)!;
    }

    private computeMode(flow: FlowInfo, onPath: ReadonlySet<FlowInfo>): QueryMode {
        const inputs = queryInputs(flow);
        if (inputs.some(i => i.streaming)) {
            return 'streaming';
        }
        let mode: QueryMode = 'batch';
        for (const input of inputs) {
            const python = this.pythonInputs.get(input);
            if (python?.kind === 'temporary-view' && !python.flows.every(f => f.flow.reads.length > 0 && f.flow.reads.every(r => !r.streaming))) {
                // A Python view whose query may read a stream.
                mode = 'unknown';
            }
            if (input.dataset && isViewKind(input.dataset.kind)) {
                const viewFlow = input.dataset.flows[0];
                const viewMode = viewFlow && !onPath.has(viewFlow) ? this.modes.get(viewFlow) ?? 'unknown' : 'unknown';
                if (viewMode !== 'batch') {
                    mode = 'unknown';
                }
            }
        }
        return mode;
    }
}

/** The inputs that decide how a flow's query reads: its query's and its change feed's. */
function queryInputs(flow: FlowInfo): InputInfo[] {
    return flow.inputs.filter(i => i.role === 'query' || i.role === 'cdc-source');
}

function isViewKind(kind: DatasetKind): boolean {
    return kind === 'temporary-view' || kind === 'view';
}

/** The flows of the views a flow's query reads (a view's first flow is its query). */
function viewFlowsRead(flow: FlowInfo): FlowInfo[] {
    return queryInputs(flow).flatMap(i => (i.dataset && isViewKind(i.dataset.kind) && i.dataset.flows[0] ? [i.dataset.flows[0]] : []));
}

/** The dataset cycles: strongly connected components of more than one dataset, or of one that reads itself. */
function findCycles(datasets: readonly DatasetInfo[], upstream: (d: DatasetInfo) => DatasetInfo[]): DatasetInfo[][] {
    const order = new Map(datasets.map((d, i) => [d, i]));
    return stronglyConnectedComponents(datasets, upstream)
        .filter(component => component.length > 1 || upstream(component[0]).includes(component[0]))
        .map(component => component.sort((a, b) => order.get(a)! - order.get(b)!));
}

//#endregion

/**
 * The pipeline model service (a Pipeline SQL service, `pipeline.Model`). Each file's datasets are
 * extracted once per change of that file (a `DocumentCache`), its flows resolved once per linking of
 * that file (a `DocumentCache` keyed on the `Linked` state); the model of a pipeline is assembled from
 * these on first use after a build's linking phase (a `WorkspaceCache` cleared when linking
 * completes). A keystroke re-reads one file and re-links the few files that reference it; assembling
 * the model is then a pass over ready-made objects.
 */
export class PipelineModelService {

    private readonly documents: LangiumDocuments;
    private readonly registry: PipelineRegistry;
    private readonly symbols: PipelineSymbolIndex;
    /**
     * Datasets and flow drafts of a document, by the root of the syntax tree they were read from: a
     * request served after a change notice but before the new parse must not keep the old tree's
     * datasets beyond it (a cache cleared on the change notice would).
     */
    private contents = new WeakMap<AstNode, DocumentContents>();
    /** Resolved flows of a document: valid until the document is linked again. */
    private readonly linkedFlows: DocumentCache<string, FlowInfo[]>;
    private readonly models: WorkspaceCache<string, PipelineModel>;

    constructor(shared: LangiumSharedServices, registry: PipelineRegistry, symbols: PipelineSymbolIndex, private readonly python?: () => PipelinePython) {
        this.documents = shared.workspace.LangiumDocuments;
        this.registry = registry;
        this.symbols = symbols;
        this.linkedFlows = new DocumentCache(shared, DocumentState.Linked);
        this.models = new WorkspaceCache(shared, DocumentState.Linked);
        // Deleted and changed documents change the model before linking starts again.
        shared.workspace.DocumentBuilder.onUpdate(() => this.models.clear());
        registry.onDidChangeRoots(() => {
            this.models.clear();
            this.contents = new WeakMap();
            this.linkedFlows.clear();
        });
    }

    /** The model of the pipeline a document belongs to (its catalog files belong to the pipeline too). */
    modelFor(uri: URI): PipelineModel {
        return this.model(this.registry.pipelineOf(uri));
    }

    /** The model of a pipeline. */
    model(pipeline: PipelineInfo): PipelineModel {
        return this.models.get(pipeline.id, () => {
            const documents = this.documents.all
                .filter(d => {
                    const membership = this.registry.membershipOf(d.uri);
                    return membership.pipeline.id === pipeline.id && membership.role === 'pipeline';
                })
                .toArray()
                .sort((a, b) => (a.uri.toString() < b.uri.toString() ? -1 : 1));
            const contributions = documents.map(document => ({
                datasets: this.contentsOf(document).datasets,
                flows: this.linkedFlows.get(document.uri, 'flows', () => this.resolveFlows(document)),
            }));
            const python = this.python?.();
            return new PipelineModel(pipeline, documents, contributions, python?.of(pipeline), reference => python?.datasetFor(reference));
        });
    }

    /** The datasets a document declares and its flow drafts, made once per change of the document. */
    private contentsOf(document: LangiumDocument): DocumentContents {
        const root = document.parseResult.value;
        let contents = this.contents.get(root);
        if (!contents) {
            const pipeline = this.registry.pipelineOf(document.uri);
            const facts = documentFacts(document);
            const byNode = new Map<AstNode, DatasetInfo>();
            const datasets = facts.datasets.map(node => {
                const name = this.symbols.parseName(pipeline, node.name);
                const info: DatasetInfo = {
                    name, displayName: displayName(name), kind: datasetKind(node), node, documentUri: document.uri,
                    private: node.private || (node.temporary && !ast.isCreateView(node)), flows: [],
                    declaredSchema: (node.spec?.elements ?? []).some(e => ast.isColumnDef(e) && e.type !== undefined),
                };
                byNode.set(node, info);
                return info;
            });
            contents = { datasets, byNode, drafts: facts.flows };
            this.contents.set(root, contents);
        }
        return contents;
    }

    /** The dataset object of a dataset node of a pipeline document (undefined for catalog tables). */
    private datasetInfo(node: AstNode | undefined): DatasetInfo | undefined {
        if (!isDatasetNode(node)) {
            return undefined;
        }
        const document = AstUtils.getDocument(node);
        if (this.registry.membershipOf(document.uri).role !== 'pipeline') {
            return undefined;
        }
        return this.contentsOf(document).byNode.get(node);
    }

    /** Resolves a document's flow drafts: targets and inputs as linked. */
    private resolveFlows(document: LangiumDocument): FlowInfo[] {
        const contents = this.contentsOf(document);
        return contents.drafts.map(draft => {
            const target = draft.ownDataset ? contents.byNode.get(draft.ownDataset) : this.datasetInfo(draft.targetRef?.ref.ref);
            const inputs: InputInfo[] = [];
            for (const input of draft.inputs) {
                if (input.node.$type === ast.TableFunctionCall.$type) {
                    const call = input.node as ast.TableFunctionCall;
                    inputs.push({ ...input, name: `${call.name}(${call.args.map(a => a.$cstNode?.text ?? '').join(', ')})` });
                    continue;
                }
                const resolved = (input.node as ast.DatasetRef).ref.ref;
                if (resolved?.$type === ast.CommonTableExpression.$type) {
                    continue;
                }
                const dataset = this.datasetInfo(resolved);
                const catalogTable = !dataset && resolved?.$type === ast.CreateTable.$type ? resolved as ast.CreateTable : undefined;
                inputs.push({ ...input, name: refText(input.node as ast.DatasetRef), dataset, catalogTable });
            }
            return {
                name: draft.name, kind: draft.kind, statement: draft.statement, body: draft.body, inline: draft.inline,
                targetRef: draft.targetRef, targetName: draft.targetName, target, query: draft.query, cdc: draft.cdc,
                snapshot: draft.snapshot, inputs, documentUri: document.uri,
            };
        });
    }

    /** The dataset a statement declares, in its pipeline's model. */
    datasetOf(node: ast.Dataset): DatasetInfo | undefined {
        return this.modelFor(AstUtils.getDocument(node).uri).datasetOf(node);
    }

    /** The flow a statement or flow body defines, in its pipeline's model. */
    flowOf(node: AstNode): FlowInfo | undefined {
        return this.modelFor(AstUtils.getDocument(node).uri).flowOf(node);
    }
}

/** What a document declares: its datasets (by node) and its flows before resolution. */
interface DocumentContents {
    readonly datasets: readonly DatasetInfo[];
    readonly byNode: ReadonlyMap<AstNode, DatasetInfo>;
    readonly drafts: readonly FlowDraft[];
}
