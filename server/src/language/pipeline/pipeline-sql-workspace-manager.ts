import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileSystemNode, URI as LangiumUri } from 'langium';
import { DefaultWorkspaceManager, URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { findPipelineStatement, NonSourceFolders } from '../../../../common/pipeline-files.js';
import { discoverWorkspaceRoots, listCatalogFiles } from '../../workspace/pipeline-roots.js';
import type { PipelineRegistry } from './pipeline-registry.js';

/**
 * Workspace manager (Langium's `WorkspaceManager` service): loads the pipelines of the workspace
 * folders, not every `.sql` file. For each pipeline root it registers the root with the pipeline
 * registry and loads the root's source files (its `spark-pipeline.yml` libraries, or every `.sql`
 * file outside `samples/`) and its sample catalog files (`samples/*.sql`). A workspace folder without
 * any project file is one pipeline whose files are the `.sql` files containing a pipeline statement.
 * Other `.sql` files are validated only when the client opens them as Pipeline SQL.
 */
export class PipelineSqlWorkspaceManager extends DefaultWorkspaceManager {

    private readonly registry: () => PipelineRegistry;
    /** Roots without a project file: only files with a pipeline statement are loaded from them. */
    private readonly speclessRoots = new Set<string>();

    constructor(services: LangiumSharedServices, registry: () => PipelineRegistry) {
        super(services);
        this.registry = registry;
        // Validate every pipeline file at start-up, not only the open ones: the Problems view shows
        // the diagnostics of the whole pipeline.
        this.initialBuildOptions = { validation: true };
    }

    /** Registers the pipeline roots of a workspace folder and collects their source and catalog files. */
    protected override async traverseFolder(folder: LangiumUri, uris: LangiumUri[]): Promise<void> {
        if (folder.scheme !== 'file') {
            return;
        }
        const { roots, specless } = discoverWorkspaceRoots(folder.fsPath);
        for (const root of roots) {
            this.registry().addRoot(root.root, root.spec);
            if (specless) {
                this.speclessRoots.add(path.resolve(root.root));
            }
            const files = specless ? root.files.filter(hasPipelineStatement) : root.files;
            uris.push(...files.map(f => URI.file(f)), ...listCatalogFiles(root.root).map(f => URI.file(f)));
        }
    }

    /** The pipeline files below a changed folder (a folder created, copied or moved into a root). */
    override async searchFolder(folder: LangiumUri): Promise<LangiumUri[]> {
        const result: LangiumUri[] = [];
        const visit = (dir: string): void => {
            let entries: fs.Dirent[];
            try {
                entries = fs.readdirSync(dir, { withFileTypes: true });
            } catch (error) {
                // The folder went away again before we could read it: nothing to load.
                console.warn(`Cannot read ${dir}: ${error instanceof Error ? error.message : String(error)}`);
                return;
            }
            for (const entry of entries) {
                const full = path.join(dir, entry.name);
                if (entry.isDirectory() && !(NonSourceFolders as readonly string[]).includes(entry.name)) {
                    visit(full);
                } else if (entry.isFile() && this.includesFile(URI.file(full))) {
                    result.push(URI.file(full));
                }
            }
        };
        if (folder.scheme === 'file') {
            visit(folder.fsPath);
        }
        return result;
    }

    /** Whether a new or changed file should be loaded: a source or catalog file of a registered root. */
    override shouldIncludeEntry(entry: FileSystemNode): boolean {
        if (entry.isDirectory) {
            return super.shouldIncludeEntry(entry);
        }
        return entry.isFile && this.includesFile(entry.uri);
    }

    private includesFile(uri: LangiumUri): boolean {
        if (!uri.path.toLowerCase().endsWith('.sql') || !this.registry().isRootMember(uri)) {
            return false;
        }
        const { pipeline, role } = this.registry().membershipOf(uri);
        if (role === 'pipeline' && pipeline.rootPath && this.speclessRoots.has(pipeline.rootPath)) {
            return hasPipelineStatement(uri.fsPath);
        }
        return true;
    }
}

function hasPipelineStatement(file: string): boolean {
    try {
        return findPipelineStatement(fs.readFileSync(file, 'utf8')) !== undefined;
    } catch (error) {
        // An unreadable file cannot be validated either.
        console.warn(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
    }
}
