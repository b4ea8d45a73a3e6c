import * as path from 'node:path';
import type { AstNode, BuildOptions, FileSystemProvider, LangiumDocument, URI } from 'langium';
import { AstUtils, Cancellation, DefaultDocumentBuilder, DocumentState, interruptAndCheck, isOperationCancelled, OperationCancelled, URI as Uri } from 'langium';
import * as ast from '../generated/ast.js';
import { functionName } from './pipeline-model.js';
import { LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import { findPipelineStatement } from '../../../../common/pipeline-files.js';
import type { ProjectModel } from '../../project/project-model.js';
import type { PythonDatasets } from '../../project/python/python-datasets.js';
import type { PipelineSqlServices, PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import { emptyParseResult, type DocumentFailures } from './document-failures.js';
import type { DependencyRecord, PipelineDependencies } from './pipeline-dependencies.js';
import { editorUri, type PipelineRegistry } from './pipeline-registry.js';
import { formatOfFile } from '../../../../engine/src/spark/sample-files.js';
import { isTestFileName } from '../../testing/test-file.js';

/**
 * Document builder (Langium's `DocumentBuilder` service) that keeps the diagnostics of every file of
 * a pipeline current after an edit in any of them, without rebuilding the workspace:
 *
 * - Langium relinks and revalidates the documents that reference a changed document. Documents with
 *   unresolved references are not relinked on every update (Langium's default), because a pipeline
 *   reading tables of the real catalog would then revalidate on every keystroke; instead,
 * - after Langium's update, the documents whose recorded dependency digest changed (see
 *   {@link PipelineDependencies}) are relinked and revalidated, round after round, following the
 *   names the revalidated documents mention, until no digest changes;
 * - a change that can change the pipelines (a project file, a library file created or deleted, a
 *   plain folder's file gaining or losing its pipeline statement) reloads the project model first,
 *   then loads the files that became members and unloads those that no longer are; a document
 *   opened from outside the workspace gets its enclosing pipeline read first;
 * - a changed sample data file, or a changed Python library file (read again, never run), revalidates
 *   the documents of its pipeline whose digest changed;
 * - in the language server, sample files are read asynchronously into a snapshot: before validation
 *   the sample lookups of the documents being built are made, and what they missed is read, so the
 *   diagnostics published first are complete; what validation still misses is read after the
 *   build, and the documents of the pipelines that asked are rebuilt, until nothing is missing.
 *
 * One document never stops the build of the others: an exception while building a document (in
 * any phase, or in a listener of a phase) is kept as that document's failure, the document goes on
 * with what could be built (an empty tree when parsing failed), and its validation reports the
 * failure as a `PIPELINE_SQL_INTERNAL_ERROR` diagnostic naming the step and the cause.
 */
export class PipelineSqlDocumentBuilder extends DefaultDocumentBuilder {

    private readonly registry: PipelineRegistry;
    private readonly project: ProjectModel;
    private readonly python: PythonDatasets;
    /** Set by {@link reloadProject}: the next update reloads the project model. */
    private forceReload = false;
    /** Whether each plain-folder document had a pipeline statement when last edited. */
    private readonly statements = new Map<string, boolean>();
    private readonly failures: DocumentFailures;
    /** Requests waiting for the document of a file the editor has just opened (see {@link waitUntil}). */
    private readonly opening = new Set<OpeningWaiter>();
    private readonly fileSystem: FileSystemProvider;

    constructor(shared: PipelineSqlSharedServices) {
        super(shared);
        this.registry = shared.pipeline.Registry;
        this.project = shared.pipeline.Project;
        this.failures = shared.pipeline.DocumentFailures;
        this.python = shared.pipeline.PythonDatasets;
        this.fileSystem = shared.workspace.FileSystemProvider;
        this.onUpdate(() => this.settleOpening());
        this.onBuildPhase(DocumentState.IndexedReferences, (documents, cancelToken) => this.prefetchSamples(documents, cancelToken));
        // Whether a file is a scratch file depends on its text: asked again once it is parsed, before its exports.
        this.onBuildPhase(DocumentState.Parsed, documents => documents.forEach(document => this.registry.textChanged(document.uri)));
        // A scratch file's pipeline chosen among several by the datasets it names: chosen again with every dataset indexed.
        this.onBuildPhase(DocumentState.IndexedContent, documents => this.registry.chooseAgain(documents.map(document => document.uri)));
    }

    private dependencies(uri: URI): PipelineDependencies | undefined {
        // Watched-file events also bring project files and sample data, which have no language.
        return this.serviceRegistry.hasServices(uri) ? (this.serviceRegistry.getServices(uri) as PipelineSqlServices).pipeline?.Dependencies : undefined;
    }

    /** Only references into changed documents force a relink here; unresolved names are handled after the update. */
    protected override shouldRelink(document: LangiumDocument, changedUris: Set<string>): boolean {
        return this.indexManager.isAffected(document, changedUris);
    }

    override async build<T extends AstNode>(documents: Array<LangiumDocument<T>>, options: BuildOptions = {}, cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        await super.build(documents, options, cancelToken);
        await this.settleSamples(cancelToken);
    }

    override async update(changed: URI[], deleted: URI[], cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        // A file that is gone from disk and not open in the editor (deleted or renamed, then closed) is deleted.
        const gone = await Promise.all(changed.map(uri => this.isGone(uri)));
        const vanished = changed.filter((_, i) => gone[i]);
        if (vanished.length > 0) {
            changed = changed.filter(uri => !vanished.includes(uri));
            deleted = [...deleted, ...vanished];
        }
        // A file outside the libraries is a scratch file only while it defines nothing: asked again after an edit.
        changed.forEach(uri => this.registry.textChanged(uri));
        const dirtyPipelines = new Set<string>();
        const extraChanged: URI[] = [];
        const extraDeleted: URI[] = [];
        await this.refreshProject(changed, deleted, extraChanged, extraDeleted);
        // A file shared by several pipelines changes (or goes) in each of them.
        for (const uri of changed) {
            if (uri.scheme === 'file' && !uri.query) {
                extraChanged.push(...this.registry.sharedDocumentUris(uri.fsPath).filter(u => this.langiumDocuments.hasDocument(u)));
            }
        }
        for (const uri of deleted) {
            if (uri.scheme === 'file' && !uri.query) {
                extraDeleted.push(...this.registry.sharedDocumentUris(uri.fsPath).filter(u => this.langiumDocuments.hasDocument(u)));
            }
        }
        for (const uri of [...changed, ...deleted]) {
            const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
            if (uri.scheme === 'file' && name.toLowerCase().endsWith('.py')) {
                // A Python library file: read its definitions again and recheck the SQL of its pipelines
                // (those that list it now, and those around it, which may have listed it before).
                for (const id of await this.python.refresh(uri.fsPath)) {
                    dirtyPipelines.add(id);
                }
                this.registry.pipelinesContaining(uri.fsPath).forEach(p => dirtyPipelines.add(p.id));
            }
            if (formatOfFile(name) && uri.scheme === 'file') {
                // A sample data file: forget its cached schema and recheck its pipeline.
                for (const pipeline of this.registry.pipelinesContaining(uri.fsPath)) {
                    if (pipeline.samplesPath && uri.fsPath.startsWith(pipeline.samplesPath + path.sep)) {
                        this.invalidateSamples(uri);
                        dirtyPipelines.add(pipeline.id);
                    }
                }
            }
        }
        const allDeleted = [...deleted, ...extraDeleted];
        const previous = new Map<string, DependencyRecord>();
        for (const uri of [...changed, ...extraChanged, ...allDeleted]) {
            const record = this.dependencies(uri)?.get(uri);
            if (record) {
                previous.set(uri.toString(), record);
            }
        }
        const validated = new Set<string>();
        const listener = this.onDocumentPhase(DocumentState.Validated, document => {
            validated.add(document.uri.toString());
        });
        try {
            await super.update([...changed, ...extraChanged], allDeleted, cancelToken);
        } finally {
            listener.dispose();
        }
        for (const uri of allDeleted) {
            this.dependencies(uri)?.forget(uri);
        }
        await this.propagate(validated, previous, dirtyPipelines, cancelToken);
        await this.settleSamples(cancelToken);
    }

    /**
     * Before validation: makes the sample lookups the documents' validation will make (tables read
     * from outside the pipeline, `read_files` calls, sample catalog declarations) and reads what they
     * missed in the snapshot, round after round (a folder's listing leads to its files). Without a
     * snapshot nothing is missed and this costs a walk of the documents.
     */
    private async prefetchSamples(documents: LangiumDocument[], cancelToken: Cancellation.CancellationToken): Promise<void> {
        for (let round = 0; round < 16; round++) {
            let missed = false;
            for (const document of documents) {
                const services = this.serviceRegistry.hasServices(document.uri) ? this.serviceRegistry.getServices(document.uri) as PipelineSqlServices : undefined;
                const samples = services?.pipeline?.SampleCatalog;
                const before = samples?.snapshotMisses();
                if (!services || !samples || before === undefined) {
                    continue;
                }
                const { pipeline, role } = this.registry.membershipOf(document.uri);
                for (const node of AstUtils.streamAst(document.parseResult.value)) {
                    if (ast.isDatasetRef(node) && !node.ref?.ref) {
                        services.types.TypeComputer.externalSource(node);
                    } else if (ast.isTableFunctionCall(node) && /^(read_files|cloud_files)$/.test(functionName(node))) {
                        samples.readFiles(pipeline, node, functionName(node));
                    } else if (role === 'catalog' && ast.isCreateTable(node) && node.name) {
                        samples.catalogTable(pipeline, node, services.references.SymbolIndex.parseName(pipeline, node.name));
                    }
                }
                missed ||= samples.snapshotMisses() !== before;
            }
            if (!missed) {
                return;
            }
            await interruptAndCheck(cancelToken);
            for (const services of this.serviceRegistry.all as PipelineSqlServices[]) {
                await services.pipeline?.SampleCatalog.settle(cancelToken);
            }
        }
    }

    /**
     * Reads the sample files the last lookups missed (the language server's snapshot), then rebuilds
     * the documents of the pipelines that asked; again while lookups miss (a folder's listing leads to
     * its files). Without a snapshot nothing is ever missing.
     */
    private async settleSamples(cancelToken: Cancellation.CancellationToken): Promise<void> {
        for (let round = 0; round < 16; round++) {
            const pipelines = new Set<string>();
            for (const services of this.serviceRegistry.all as PipelineSqlServices[]) {
                for (const id of await services.pipeline?.SampleCatalog.settle(cancelToken) ?? []) {
                    pipelines.add(id);
                }
            }
            if (pipelines.size === 0) {
                return;
            }
            // Relinked too: the type caches are cleared at linking (read_files columns are in no digest).
            const documents = this.langiumDocuments.all
                .filter(d => d.state >= DocumentState.Validated && pipelines.has(this.registry.pipelineOf(d.uri).id)).toArray();
            for (const document of documents) {
                this.resetToState(document, DocumentState.ComputedScopes);
            }
            await this.buildDocuments(documents, this.updateBuildOptions, cancelToken);
        }
    }

    /**
     * Revalidates (and relinks) the documents whose dependency digest changed, following the names of
     * what was revalidated, until nothing changes.
     */
    private async propagate(validated: Set<string>, previous: Map<string, DependencyRecord>, dirtyPipelines: Set<string>,
        cancelToken: Cancellation.CancellationToken): Promise<void> {
        const dirty = new Map<string, Set<string>>();
        const addNames = (record: DependencyRecord | undefined): void => {
            if (record) {
                let names = dirty.get(record.pipelineId);
                if (!names) {
                    names = new Set();
                    dirty.set(record.pipelineId, names);
                }
                record.names.forEach(n => names!.add(n));
            }
        };
        previous.forEach(addNames);
        for (const key of validated) {
            addNames(this.dependencies(Uri.parse(key))?.get(key));
        }
        // Where a changed document's names changed (a dataset renamed, added or dropped), the
        // suggestions for names defined nowhere may change in every document of the pipeline.
        const renamedIn = new Set<string>();
        previous.forEach((record, key) => {
            const now = this.dependencies(Uri.parse(key))?.get(key);
            if (!now || now.names.size !== record.names.size || [...now.names].some(n => !record.names.has(n))) {
                renamedIn.add(record.pipelineId);
            }
        });
        const done = new Set(validated);
        previous.forEach((_, key) => done.add(key));
        for (;;) {
            await interruptAndCheck(cancelToken);
            const toBuild: LangiumDocument[] = [];
            for (const document of this.langiumDocuments.all) {
                const key = document.uri.toString();
                if (done.has(key) || document.state < DocumentState.Validated) {
                    continue;
                }
                const dependencies = this.dependencies(document.uri);
                const record = dependencies?.get(key);
                if (!record) {
                    continue;
                }
                const names = dirty.get(record.pipelineId);
                const candidate = dirtyPipelines.has(record.pipelineId) || (record.unresolved && renamedIn.has(record.pipelineId))
                    || (names !== undefined && [...record.names].some(n => names.has(n)));
                if (candidate) {
                    done.add(key);
                    if (dependencies!.changed(document)) {
                        toBuild.push(document);
                    }
                }
            }
            dirtyPipelines.clear();
            renamedIn.clear();
            if (toBuild.length === 0) {
                return;
            }
            const before = toBuild.map(d => this.dependencies(d.uri)?.get(d.uri));
            dirty.clear();
            before.forEach(addNames);
            for (const document of toBuild) {
                // Relink too: a name may now resolve, or resolve elsewhere.
                this.resetToState(document, DocumentState.ComputedScopes);
            }
            await this.buildDocuments(toBuild, this.updateBuildOptions, cancelToken);
            toBuild.forEach(d => addNames(this.dependencies(d.uri)?.get(d.uri)));
        }
    }

    override waitUntil(state: DocumentState, cancelToken?: Cancellation.CancellationToken): Promise<void>;
    override waitUntil(state: DocumentState, uri?: URI, cancelToken?: Cancellation.CancellationToken): Promise<URI>;
    /**
     * Langium's wait for a document state, which fails at once ("No document found") when the
     * document does not exist yet. A document the editor has just opened gets its document only when
     * the queued update has read its pipeline (the project model reads asynchronously), so a request
     * right after `didOpen` waits for that update instead of failing.
     */
    override waitUntil(state: DocumentState, uriOrToken?: URI | Cancellation.CancellationToken, cancelToken?: Cancellation.CancellationToken): Promise<URI | void> {
        if (uriOrToken && 'path' in uriOrToken) {
            const uri = uriOrToken;
            if (isTestFileName(uri.path.slice(uri.path.lastIndexOf('/') + 1))) {
                // A test file is YAML, never a document here: requests the SQL services serve get no answer.
                return Promise.reject(new ResponseError(LSPErrorCodes.RequestCancelled, 'A pipeline test file is not a Pipeline SQL document.'));
            }
            if (!this.langiumDocuments.hasDocument(uri) && this.textDocuments?.get(uri)) {
                return this.documentCreated(uri, cancelToken ?? Cancellation.CancellationToken.None).then(() => super.waitUntil(state, uri, cancelToken));
            }
            const document = this.langiumDocuments.getDocument(uri);
            if (document && this.isStale(document)) {
                // An edit not applied yet (an update still holds the lock): wait for the text the editor has.
                return this.freshState(document.uri, state, cancelToken ?? Cancellation.CancellationToken.None);
            }
            return super.waitUntil(state, uri, cancelToken);
        }
        return super.waitUntil(state, uriOrToken);
    }

    /** Whether a document was parsed from another text than its open editor buffer has now. */
    private isStale(document: LangiumDocument): boolean {
        const open = this.textDocuments?.get(document.uri);
        const parsed = document.parseResult.value.$cstNode?.root.fullText;
        return open !== undefined && parsed !== undefined && parsed !== open.getText();
    }

    /** Resolves once the document reaches `state` with the text of its editor buffer (rejects on cancellation). */
    private freshState(uri: URI, state: DocumentState, cancelToken: Cancellation.CancellationToken): Promise<URI> {
        return new Promise((resolve, reject) => {
            const key = uri.toString();
            const reached = this.onDocumentPhase(state, document => {
                if (document.uri.toString() === key && !this.isStale(document)) {
                    reached.dispose();
                    cancelled.dispose();
                    resolve(uri);
                }
            });
            const cancelled = cancelToken.onCancellationRequested(() => {
                reached.dispose();
                cancelled.dispose();
                reject(OperationCancelled);
            });
        });
    }

    /** Resolves once an update has made the document of an open file (rejects when the file is closed first, or on cancellation). */
    private documentCreated(uri: URI, cancelToken: Cancellation.CancellationToken): Promise<void> {
        return new Promise((resolve, reject) => {
            const waiter: OpeningWaiter = {
                uri,
                settle: error => {
                    cancelled.dispose();
                    if (error) {
                        reject(error);
                    } else {
                        resolve();
                    }
                },
            };
            const cancelled = cancelToken.onCancellationRequested(() => {
                this.opening.delete(waiter);
                waiter.settle(OperationCancelled);
            });
            this.opening.add(waiter);
        });
    }

    /** After an update made its documents: the waiters whose document exists go on; those whose file was closed fail. */
    private settleOpening(): void {
        for (const waiter of [...this.opening]) {
            if (this.langiumDocuments.hasDocument(waiter.uri)) {
                this.opening.delete(waiter);
                waiter.settle();
            } else if (!this.textDocuments?.get(waiter.uri)) {
                this.opening.delete(waiter);
                waiter.settle(new ResponseError(LSPErrorCodes.ServerCancelled, `No document found for URI: ${waiter.uri.toString()}`));
            }
        }
    }

    /**
     * Reloads the project model (a setting it depends on changed: the bundle target, the allowed
     * folders) and rebuilds the documents whose pipeline changed. Call under the workspace lock.
     */
    async reloadProject(cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        this.forceReload = true;
        await this.update([], [], cancelToken);
    }

    /** Whether a loaded file document has no editor buffer and no file on disk any more. */
    private async isGone(uri: URI): Promise<boolean> {
        return uri.scheme === 'file' && this.langiumDocuments.hasDocument(uri) && !this.textDocuments?.get(editorUri(uri))
            && !await this.fileSystem.exists(editorUri(uri));
    }

    /**
     * Runs one build phase over documents (Langium's loop); an exception of one document is kept as
     * its failure, the document is brought to the phase's state with what could be done, and the
     * other documents are built as usual.
     */
    protected override async runCancelable(documents: LangiumDocument[], targetState: DocumentState, cancelToken: Cancellation.CancellationToken,
        callback: (document: LangiumDocument) => unknown): Promise<void> {
        await super.runCancelable(documents, targetState, cancelToken, async document => {
            const key = document.uri.toString();
            this.failures.clear(key, targetState);
            try {
                await callback(document);
            } catch (error) {
                if (isOperationCancelled(error)) {
                    throw error;
                }
                console.error(`Building ${key} failed (phase ${DocumentState[targetState]}):`, error);
                this.failures.record(key, targetState, error);
                this.recover(document, targetState);
            }
        });
    }

    /** Leaves a document whose build phase failed in a state the next phases and the editor features can use. */
    private recover(document: LangiumDocument, failed: DocumentState): void {
        if (failed === DocumentState.Parsed) {
            // The file could not be read (a parse failure is handled by the document factory): an empty tree.
            const result = emptyParseResult(textOf(document));
            (result.value as { $document?: LangiumDocument }).$document = document;
            document.parseResult = result;
        } else if (failed === DocumentState.ComputedScopes) {
            document.localSymbols = undefined;
        } else if (failed === DocumentState.Validated) {
            document.diagnostics = this.failures.diagnostics(document.uri.toString());
            this.markAsCompleted(document);
        }
    }

    /** Validates a document (Langium's validation) and reports the failures of its earlier build phases. */
    protected override async validate(document: LangiumDocument, cancelToken: Cancellation.CancellationToken): Promise<void> {
        await super.validate(document, cancelToken);
        const failures = this.failures.diagnostics(document.uri.toString());
        if (failures.length > 0) {
            document.diagnostics = [...failures, ...(document.diagnostics ?? [])];
        }
    }

    /** Langium's document-phase notification, each listener on its own: one that throws is logged and the others still run. */
    protected override async notifyDocumentPhase(document: LangiumDocument, state: DocumentState, cancelToken: Cancellation.CancellationToken): Promise<void> {
        for (const listener of this.documentPhaseListeners.get(state).slice()) {
            await interruptAndCheck(cancelToken);
            try {
                await listener(document, cancelToken);
            } catch (error) {
                if (isOperationCancelled(error)) {
                    throw error;
                }
                console.error(`A listener of phase ${DocumentState[state]} failed on ${document.uri.toString()}:`, error);
            }
        }
    }

    /** Langium's build-phase notification, each listener on its own (see {@link notifyDocumentPhase}). */
    protected override async notifyBuildPhase(documents: LangiumDocument[], state: DocumentState, cancelToken: Cancellation.CancellationToken): Promise<void> {
        if (documents.length === 0) {
            return;
        }
        for (const listener of this.buildPhaseListeners.get(state).slice()) {
            await interruptAndCheck(cancelToken);
            try {
                await listener(documents, cancelToken);
            } catch (error) {
                if (isOperationCancelled(error)) {
                    throw error;
                }
                console.error(`A listener of build phase ${DocumentState[state]} failed:`, error);
            }
        }
    }

    protected override cleanUpDeleted<T extends AstNode>(document: LangiumDocument<T>): void {
        super.cleanUpDeleted(document);
        this.failures.clear(document.uri.toString());
    }

    /** Revalidates the given documents (all loaded documents by default), e.g. after a settings change. */
    async revalidate(documents: LangiumDocument[] = this.langiumDocuments.all.toArray(), cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        for (const document of documents) {
            if (document.state >= DocumentState.IndexedReferences) {
                this.resetToState(document, DocumentState.IndexedReferences);
            }
        }
        await this.buildDocuments(documents, this.updateBuildOptions, cancelToken);
    }

    private invalidateSamples(uri: URI): void {
        // A data file has no language; every language's sample catalog forgets it.
        for (const services of this.serviceRegistry.all as PipelineSqlServices[]) {
            services.pipeline?.SampleCatalog.invalidate(uri.fsPath);
        }
    }

    /**
     * Brings the project model up to date before a build: reads the pipeline enclosing a document
     * opened from outside the workspace, and reloads the pipelines when a change can change them.
     * After a reload, the files that became members are loaded, those that no longer are unloaded
     * (files open in the editor stay, as standalone documents), and every loaded document is rebuilt
     * (its role or pipeline may have changed).
     */
    private async refreshProject(changed: readonly URI[], deleted: readonly URI[], extraChanged: URI[], extraDeleted: URI[]): Promise<void> {
        let outside = false;
        let reload = this.forceReload;
        this.forceReload = false;
        for (const uri of changed) {
            if (uri.scheme !== 'file') {
                continue;
            }
            const known = this.langiumDocuments.hasDocument(uri);
            if (!known && this.textDocuments?.get(uri) && await this.project.ensureFile(uri.fsPath)) {
                outside = true;
            }
            reload ||= known ? this.statementChanged(uri) : this.project.affectsPipelines(uri.fsPath, 'created');
        }
        for (const uri of deleted) {
            reload ||= uri.scheme === 'file' && this.project.affectsPipelines(uri.fsPath, 'deleted');
        }
        if (!reload) {
            if (outside) {
                // The document opened from outside now has a pipeline: rebuild it with its settings.
                changed.forEach(u => extraChanged.push(u));
            }
            return;
        }
        const roles = new Map(this.langiumDocuments.all.map(d => [d.uri.toString(), this.membershipKey(d.uri)] as const).toArray());
        const sharedBefore = new Set(this.registry.allSharedDocumentUris().map(u => u.toString()));
        const { before, after } = await this.project.reload();
        // The documents of files shared by several pipelines come and go with the sharing.
        const sharedAfter = this.registry.allSharedDocumentUris();
        extraChanged.push(...sharedAfter.filter(u => !sharedBefore.has(u.toString())));
        const sharedNow = new Set(sharedAfter.map(u => u.toString()));
        for (const key of sharedBefore) {
            const uri = Uri.parse(key);
            if (!sharedNow.has(key) && this.langiumDocuments.hasDocument(uri)) {
                extraDeleted.push(uri);
            }
        }
        for (const file of after) {
            if (!before.has(file)) {
                extraChanged.push(Uri.file(file));
            }
        }
        const gone = new Set<string>();
        for (const file of before) {
            const uri = Uri.file(file);
            if (!after.has(file) && this.langiumDocuments.hasDocument(uri) && !this.textDocuments?.get(uri)) {
                extraDeleted.push(uri);
                gone.add(uri.toString());
            }
        }
        // Documents whose pipeline, role or pipeline settings changed are rebuilt; the others keep their state.
        for (const document of this.langiumDocuments.all) {
            const key = document.uri.toString();
            if (!gone.has(key) && !extraDeleted.some(u => u.toString() === key) && roles.get(key) !== this.membershipKey(document.uri)) {
                extraChanged.push(document.uri);
            }
        }
    }

    /** What a document's diagnostics depend on in the project model: its pipeline, role and the pipeline's settings. */
    private membershipKey(uri: URI): string {
        const { pipeline, role } = this.registry.membershipOf(uri);
        return JSON.stringify([pipeline.id, role, pipeline.spec, pipeline.samplesPath]);
    }

    /**
     * Whether an edit of a loaded document can change the pipelines: a file of a plain folder gained
     * its first pipeline statement or lost its last one (its membership depends on them).
     */
    private statementChanged(uri: URI): boolean {
        const text = this.textDocuments?.get(uri)?.getText();
        if (text === undefined || !this.project.affectsPipelines(uri.fsPath, 'changed')) {
            return false;
        }
        const member = this.project.pipelinesOfSource(uri.fsPath).length > 0;
        const hasStatement = findPipelineStatement(text) !== undefined;
        const key = uri.toString();
        // What the file said the last time we looked (a member without one of its own belongs beside another).
        const had = this.statements.get(key) ?? (member ? hasStatement : false);
        this.statements.set(key, hasStatement);
        return had !== hasStatement;
    }
}

/** A request waiting for the document of a file just opened. */
interface OpeningWaiter {
    readonly uri: URI;
    settle(error?: unknown): void;
}

/** A document's text, or nothing when even that cannot be had. */
function textOf(document: LangiumDocument): string {
    try {
        return document.textDocument.getText();
    } catch {
        return '';
    }
}
