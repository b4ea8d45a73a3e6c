import type { FileSystemNode, URI as LangiumUri } from 'langium';
import { DefaultWorkspaceManager, URI } from 'langium';
import type { PipelineSqlSharedServices } from '../pipeline-sql-module.js';

/**
 * Workspace manager (Langium's `WorkspaceManager` service): loads the pipelines of the workspace
 * folders, not every `.sql` file. For each workspace folder the project model finds its pipelines
 * (bundles, spark-pipeline.yml folders, or the folder itself as a plain pipeline) and this loads
 * their source files and sample catalog files (`samples/*.sql`). Other `.sql` files are validated
 * only when the client opens them as Pipeline SQL. A file listed by several pipelines gets a
 * document in each of them.
 */
export class PipelineSqlWorkspaceManager extends DefaultWorkspaceManager {

    private readonly shared: PipelineSqlSharedServices;

    constructor(services: PipelineSqlSharedServices) {
        super(services);
        this.shared = services;
        // Validate every pipeline file at start-up, not only the open ones: the Problems view shows
        // the diagnostics of the whole pipeline.
        this.initialBuildOptions = { validation: true };
    }

    /** Loads the pipelines of a workspace folder and collects their source and catalog files. */
    protected override async traverseFolder(folder: LangiumUri, uris: LangiumUri[]): Promise<void> {
        if (folder.scheme !== 'file') {
            return;
        }
        const project = this.shared.pipeline.Project;
        const set = await project.loadFolder(folder.fsPath);
        const files = new Set<string>();
        for (const pipeline of set.pipelines) {
            pipeline.sources.forEach(f => files.add(f));
            project.catalogFilesOf(pipeline).forEach(f => files.add(f));
        }
        // A file several pipelines list has a document in each (see `sharedDocumentUri`).
        const registry = this.shared.pipeline.Registry;
        uris.push(...[...files].sort().flatMap(f => [URI.file(f), ...registry.sharedDocumentUris(f)]));
    }

    /** The pipeline files below a changed folder (a folder created, copied or moved into a pipeline). */
    override async searchFolder(folder: LangiumUri): Promise<LangiumUri[]> {
        if (folder.scheme !== 'file') {
            return [];
        }
        const prefix = folder.fsPath.endsWith('/') ? folder.fsPath : `${folder.fsPath}/`;
        const project = this.shared.pipeline.Project;
        const files = new Set<string>();
        for (const pipeline of project.workspacePipelines()) {
            [...pipeline.sources, ...project.catalogFilesOf(pipeline)].filter(f => f.startsWith(prefix)).forEach(f => files.add(f));
        }
        const registry = this.shared.pipeline.Registry;
        return [...files].sort().flatMap(f => [URI.file(f), ...registry.sharedDocumentUris(f)]);
    }

    /** Whether a new or changed file should be loaded: a source or catalog file of a workspace pipeline. */
    override shouldIncludeEntry(entry: FileSystemNode): boolean {
        if (entry.isDirectory) {
            return super.shouldIncludeEntry(entry);
        }
        return entry.isFile && entry.uri.path.toLowerCase().endsWith('.sql') && this.shared.pipeline.Registry.isRootMember(entry.uri);
    }
}
