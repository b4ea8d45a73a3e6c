/**
 * The pipeline project model (a shared service, `pipeline.Project`): the only code that knows what a
 * pipeline is. It holds the pipelines of the folders it was given (the editor's workspace folders,
 * the CLI's arguments), found by {@link discoverProjects}, and answers which pipelines a file belongs
 * to, as a source or as a sample catalog declaration. Everything it reads goes through a
 * {@link ProjectFileHost} (Langium's file-system provider), asynchronously: lookups are synchronous
 * and in memory, loading and reloading are asynchronous and happen before a build.
 */
import * as path from 'node:path';
import { catalogFiles, discoverEnclosing, discoverProjects } from './discovery.js';
import type { ProjectFileHost } from './file-host.js';
import { libraryKind } from './library-files.js';
import {
    isProjectFileName, type LibraryContribution, type LibraryReader, type PipelineProject, type ProjectOptions, type ProjectProblem, type ProjectSet,
} from './project-types.js';

/** A folder whose pipelines the model holds. */
interface LoadedFolder {
    readonly folder: string;
    /** `workspace`: its files are loaded and checked; `file`: found for one file opened from outside, only that file is. */
    readonly origin: 'workspace' | 'file';
    set: ProjectSet;
    /** Sample catalog declarations per pipeline id. */
    catalogs: Map<string, string[]>;
}

/** How the pipelines changed in a reload: the files whose membership may have changed. */
export interface ProjectChange {
    /** Every source and catalog file before and after (absolute paths). */
    readonly before: ReadonlySet<string>;
    readonly after: ReadonlySet<string>;
}

export class ProjectModel {

    private readonly folders = new Map<string, LoadedFolder>();
    private options: ProjectOptions = {};
    private readonly listeners: Array<() => void> = [];
    private readonly readers: LibraryReader[] = [];
    /** What the readers made of each library file, by pipeline id then file. */
    private contributed = new Map<string, Map<string, LibraryContribution & { readonly reader: LibraryReader }>>();
    // File → pipelines (as a source), and sample catalog file → pipeline; rebuilt on each change.
    private sourceIndex = new Map<string, PipelineProject[]>();
    private catalogIndex = new Map<string, PipelineProject>();

    constructor(private readonly host: ProjectFileHost) {}

    /** The file access the model uses (for callers that list what the model found). */
    get files(): ProjectFileHost {
        return this.host;
    }

    /** The user's options (bundle target, allowed read folders). Call {@link reload} after changing them. */
    get currentOptions(): ProjectOptions {
        return this.options;
    }

    setOptions(options: ProjectOptions): void {
        this.options = options;
    }

    /** Called after the pipelines changed. */
    onDidChange(listener: () => void): void {
        this.listeners.push(listener);
    }

    /**
     * Adds a reader of non-SQL library files (the Python reader): it reads every library file of
     * the pipelines with one of its extensions on each load.
     */
    registerLibraryReader(reader: LibraryReader): void {
        this.readers.push(reader);
    }

    /** What a reader made of each of a pipeline's library files with its extensions, in file order. */
    contributionsOf<T>(pipelineId: string, reader: LibraryReader<T>): ReadonlyArray<LibraryContribution<T>> {
        const files = this.contributed.get(pipelineId);
        return files ? [...files.values()].filter(c => c.reader === reader) as unknown as ReadonlyArray<LibraryContribution<T>> : [];
    }

    /**
     * Reads one library file again (it changed, appeared or went away) for every pipeline that lists
     * it; returns the ids of those pipelines. A file no pipeline lists changes nothing here.
     */
    async refreshLibraryFile(filePath: string): Promise<string[]> {
        const file = path.resolve(filePath);
        const owners = this.allPipelines().filter(p => p.pythonFiles.includes(file));
        const reader = this.readers.find(r => r.extensions.includes(path.extname(file).toLowerCase()));
        if (!reader || owners.length === 0) {
            return [];
        }
        const contribution = await this.readContribution(reader, file);
        for (const pipeline of owners) {
            const files = this.contributed.get(pipeline.id) ?? new Map();
            if (contribution) {
                files.set(file, contribution);
            } else {
                files.delete(file);
            }
            this.contributed.set(pipeline.id, files);
        }
        return owners.map(p => p.id);
    }

    /** Loads the pipelines under a folder (a workspace folder, a CLI argument) and returns them. */
    async loadFolder(folder: string): Promise<ProjectSet> {
        const loaded = await this.read(path.resolve(folder), 'workspace');
        this.folders.set(loaded.folder, loaded);
        await this.afterChange();
        return loaded.set;
    }

    /** Forgets a folder's pipelines. */
    async removeFolder(folder: string): Promise<void> {
        if (this.folders.delete(path.resolve(folder))) {
            await this.afterChange();
        }
    }

    /**
     * Makes sure a file outside every loaded folder is known: the pipeline root enclosing it (if any)
     * is read, so the file sees its pipeline's catalog and settings. Returns whether anything changed.
     */
    async ensureFile(filePath: string): Promise<boolean> {
        const file = path.resolve(filePath);
        if (this.folderOf(file)) {
            return false;
        }
        const set = await discoverEnclosing(file, this.host, this.options);
        if (!set || set.pipelines.length === 0) {
            return false;
        }
        const folder = set.pipelines[0].bundle?.root ?? set.pipelines[0].root;
        if (this.folders.has(folder)) {
            return false;
        }
        const loaded: LoadedFolder = { folder, origin: 'file', set, catalogs: await this.catalogsOf(set) };
        this.folders.set(folder, loaded);
        await this.afterChange();
        return true;
    }

    /** Reads every loaded folder again (a project file, a library or a setting changed). */
    async reload(): Promise<ProjectChange> {
        const before = this.memberFiles();
        for (const loaded of [...this.folders.values()]) {
            const fresh = await this.read(loaded.folder, loaded.origin);
            this.folders.set(loaded.folder, fresh);
        }
        await this.afterChange();
        return { before, after: this.memberFiles() };
    }

    /** Every pipeline the model holds, workspace ones first. */
    allPipelines(): PipelineProject[] {
        return [...this.folders.values()].flatMap(f => f.set.pipelines);
    }

    /** The pipelines of the workspace folders (not those found for a file opened from outside). */
    workspacePipelines(): PipelineProject[] {
        return [...this.folders.values()].filter(f => f.origin === 'workspace').flatMap(f => f.set.pipelines);
    }

    /** A pipeline by id. */
    pipeline(id: string): PipelineProject | undefined {
        return this.allPipelines().find(p => p.id === id);
    }

    /** The pipelines that list a file among their sources (several when two pipelines share it). */
    pipelinesOfSource(filePath: string): readonly PipelineProject[] {
        return this.sourceIndex.get(path.resolve(filePath)) ?? [];
    }

    /** The source files listed by more than one pipeline (each is checked in every pipeline that lists it). */
    sharedSources(): string[] {
        return [...this.sourceIndex].filter(([, owners]) => owners.length > 1).map(([file]) => file);
    }

    /** The pipeline whose sample catalog declares tables in this file (`samples/*.sql`). */
    pipelineOfCatalogFile(filePath: string): PipelineProject | undefined {
        return this.catalogIndex.get(path.resolve(filePath));
    }

    /** The sample catalog declarations of a pipeline (`samples/*.sql`), as last read. */
    catalogFilesOf(pipeline: PipelineProject): readonly string[] {
        for (const folder of this.folders.values()) {
            const files = folder.catalogs.get(pipeline.id);
            if (files) {
                return files;
            }
        }
        return [];
    }

    /** Whether a file belongs to a workspace folder's pipeline (its text is loaded and checked even when closed). */
    isWorkspaceMember(filePath: string): boolean {
        const file = path.resolve(filePath);
        const owners = [...this.pipelinesOfSource(file), ...(this.pipelineOfCatalogFile(file) ? [this.pipelineOfCatalogFile(file)!] : [])];
        return owners.some(p => this.originOf(p) === 'workspace');
    }

    /** The deepest loaded pipeline whose root (bundle root) contains a path (any file: sample data, project files). */
    pipelinesContaining(filePath: string): PipelineProject[] {
        const file = path.resolve(filePath);
        return this.allPipelines().filter(p => file.startsWith((p.bundle?.root ?? p.root) + path.sep));
    }

    /** Problems of every project file the model read (per pipeline and not tied to one). */
    problems(): ProjectProblem[] {
        const all = [...this.folders.values()].flatMap(f => [...f.set.problems, ...f.set.pipelines.flatMap(p => p.problems)]);
        const seen = new Set<string>();
        return all.filter(p => {
            const key = `${p.file}:${p.line}:${p.column}:${p.code}:${p.message}`;
            return seen.has(key) ? false : (seen.add(key), true);
        });
    }

    /** The project files read (spark-pipeline.yml, databricks.yml and its includes). */
    projectFiles(): Set<string> {
        return new Set([...this.folders.values()].flatMap(f => f.set.projectFiles));
    }

    /**
     * Whether a change to this file (created, changed, deleted) can change the pipelines: a project
     * file, a YAML file a bundle may include, a library file that is not yet a member, or a `.sql`
     * file of a plain folder (its statements decide membership).
     */
    affectsPipelines(filePath: string, kind: 'created' | 'changed' | 'deleted'): boolean {
        const file = path.resolve(filePath);
        const name = path.basename(file);
        if (isProjectFileName(name) || this.projectFiles().has(file)) {
            return true;
        }
        if (!this.folderOf(file)) {
            return false;
        }
        if (/\.ya?ml$/i.test(name)) {
            // A new resource file may be included by a bundle's glob.
            return kind !== 'changed' && this.pipelinesContaining(file).some(p => p.layout === 'bundle');
        }
        if (libraryKind(name) === undefined) {
            return false;
        }
        const member = this.pipelinesOfSource(file).length > 0 || this.pipelineOfCatalogFile(file) !== undefined
            || this.allPipelines().some(p => p.pythonFiles.includes(file));
        if (kind !== 'changed') {
            return true;
        }
        // A saved .sql file in a plain folder may have gained or lost its pipeline statement.
        return !member ? this.isUnderPlainFolder(file) : this.pipelinesOfSource(file).some(p => p.layout === 'folder');
    }

    private isUnderPlainFolder(file: string): boolean {
        return [...this.folders.values()].some(f => f.set.pipelines.length === 0 || f.set.pipelines.some(p => p.layout === 'folder' && file.startsWith(p.root + path.sep)))
            && this.folderOf(file) !== undefined;
    }

    private originOf(pipeline: PipelineProject): LoadedFolder['origin'] | undefined {
        return [...this.folders.values()].find(f => f.set.pipelines.includes(pipeline))?.origin;
    }

    private folderOf(file: string): LoadedFolder | undefined {
        let best: LoadedFolder | undefined;
        for (const folder of this.folders.values()) {
            if ((file.startsWith(folder.folder + path.sep) || file === folder.folder) && (!best || folder.folder.length > best.folder.length)) {
                best = folder;
            }
        }
        return best;
    }

    private memberFiles(): Set<string> {
        return new Set([...this.sourceIndex.keys(), ...this.catalogIndex.keys()]);
    }

    private async read(folder: string, origin: LoadedFolder['origin']): Promise<LoadedFolder> {
        const set = await discoverProjects(folder, this.host, this.options);
        return { folder, origin, set, catalogs: await this.catalogsOf(set) };
    }

    private async catalogsOf(set: ProjectSet): Promise<Map<string, string[]>> {
        const catalogs = new Map<string, string[]>();
        for (const pipeline of set.pipelines) {
            catalogs.set(pipeline.id, await catalogFiles(pipeline, this.host));
        }
        return catalogs;
    }

    private async afterChange(): Promise<void> {
        const sources = new Map<string, PipelineProject[]>();
        const catalogs = new Map<string, PipelineProject>();
        // Workspace folders first, so that a file in one is never taken for an outside one's.
        const ordered = [...this.folders.values()].sort((a, b) => Number(a.origin === 'file') - Number(b.origin === 'file'));
        for (const folder of ordered) {
            for (const pipeline of folder.set.pipelines) {
                for (const file of pipeline.sources) {
                    const list = sources.get(file) ?? [];
                    if (!list.some(p => p.id === pipeline.id)) {
                        list.push(pipeline);
                    }
                    sources.set(file, list);
                }
                for (const file of folder.catalogs.get(pipeline.id) ?? []) {
                    if (!catalogs.has(file)) {
                        catalogs.set(file, pipeline);
                    }
                }
            }
        }
        this.sourceIndex = sources;
        this.catalogIndex = catalogs;
        await this.readContributions();
        this.listeners.forEach(listener => listener());
    }

    private async readContributions(): Promise<void> {
        const contributed = new Map<string, Map<string, LibraryContribution & { readonly reader: LibraryReader }>>();
        if (this.readers.length > 0) {
            // A file listed by several pipelines is read once.
            const read = new Map<string, Promise<(LibraryContribution & { readonly reader: LibraryReader }) | undefined>>();
            for (const pipeline of this.allPipelines()) {
                const files = new Map<string, LibraryContribution & { readonly reader: LibraryReader }>();
                for (const file of pipeline.pythonFiles) {
                    const reader = this.readers.find(r => r.extensions.includes(path.extname(file).toLowerCase()));
                    if (!reader) {
                        continue;
                    }
                    if (!read.has(file)) {
                        read.set(file, this.readContribution(reader, file));
                    }
                    const contribution = await read.get(file);
                    if (contribution) {
                        files.set(file, contribution);
                    }
                }
                contributed.set(pipeline.id, files);
            }
        }
        this.contributed = contributed;
    }

    private async readContribution(reader: LibraryReader, file: string): Promise<(LibraryContribution & { readonly reader: LibraryReader }) | undefined> {
        const text = await this.host.readFile(file);
        if (text === undefined) {
            return undefined;
        }
        try {
            return { file, reader, result: reader.read(file, text) };
        } catch (error) {
            // A reader's failure on one file loses that file's contribution, nothing else.
            console.error(`Reading ${file} failed:`, error);
            return undefined;
        }
    }
}
