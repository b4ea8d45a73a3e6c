import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LangiumDocument, URI } from 'langium';
import { Cancellation, DefaultDocumentBuilder, DocumentState, interruptAndCheck, URI as Uri } from 'langium';
import { PipelineSpecFileNames } from '../../../../common/pipeline-files.js';
import { listCatalogFiles, loadPipelineRoot } from '../../workspace/pipeline-roots.js';
import type { PipelineSqlServices, PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import type { DependencyRecord, PipelineDependencies } from './pipeline-dependencies.js';
import type { PipelineRegistry } from './pipeline-registry.js';
import { formatOfFile } from '../../../../engine/src/spark/sample-files.js';

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
 * - a changed `spark-pipeline.yml` re-reads the pipeline root (loading and unloading files), and a
 *   changed sample data file revalidates the documents of its pipeline whose digest changed.
 */
export class PipelineSqlDocumentBuilder extends DefaultDocumentBuilder {

    private readonly registry: PipelineRegistry;

    constructor(shared: PipelineSqlSharedServices) {
        super(shared);
        this.registry = shared.pipeline.Registry;
    }

    private dependencies(uri: URI): PipelineDependencies | undefined {
        // Watched-file events also bring project files and sample data, which have no language.
        return this.serviceRegistry.hasServices(uri) ? (this.serviceRegistry.getServices(uri) as PipelineSqlServices).pipeline?.Dependencies : undefined;
    }

    /** Only references into changed documents force a relink here; unresolved names are handled after the update. */
    protected override shouldRelink(document: LangiumDocument, changedUris: Set<string>): boolean {
        return this.indexManager.isAffected(document, changedUris);
    }

    override async update(changed: URI[], deleted: URI[], cancelToken = Cancellation.CancellationToken.None): Promise<void> {
        const dirtyPipelines = new Set<string>();
        const extraChanged: URI[] = [];
        const extraDeleted: URI[] = [];
        for (const uri of [...changed, ...deleted]) {
            const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
            if ((PipelineSpecFileNames as readonly string[]).includes(name)) {
                this.reloadRoot(path.dirname(uri.fsPath), extraChanged, extraDeleted);
            } else if (formatOfFile(name) && uri.scheme === 'file') {
                // A sample data file: forget its cached schema and recheck its pipeline.
                const pipeline = this.registry.rootContaining(uri.fsPath);
                if (pipeline?.samplesPath && uri.fsPath.startsWith(pipeline.samplesPath + path.sep)) {
                    this.invalidateSamples(uri);
                    dirtyPipelines.add(pipeline.id);
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
     * A project file changed, appeared or went away: re-read the root, load the files it now lists
     * and unload those it no longer does (files open in the editor stay, as standalone documents).
     */
    private reloadRoot(root: string, changed: URI[], deleted: URI[]): void {
        const before = this.langiumDocuments.all
            .filter(d => this.registry.isRootMember(d.uri) && this.registry.pipelineOf(d.uri).rootPath === path.resolve(root))
            .map(d => d.uri.toString()).toSet();
        const exists = fs.existsSync(root) && fs.statSync(root).isDirectory();
        if (!exists) {
            this.registry.removeRoot(root);
        } else {
            const loaded = loadPipelineRoot(root);
            this.registry.addRoot(root, loaded.spec);
            for (const file of [...loaded.files, ...listCatalogFiles(root)]) {
                const uri = Uri.file(file);
                if (!before.has(uri.toString())) {
                    changed.push(uri);
                }
                before.delete(uri.toString());
            }
        }
        for (const key of before) {
            const uri = Uri.parse(key);
            if (this.textDocuments?.get(uri)) {
                changed.push(uri);
            } else {
                deleted.push(uri);
            }
        }
        // Every document of the pipeline may have a new role (catalog, source, standalone).
        for (const document of this.langiumDocuments.all) {
            if (document.uri.scheme === 'file' && document.uri.fsPath.startsWith(path.resolve(root) + path.sep)) {
                changed.push(document.uri);
            }
        }
    }
}
