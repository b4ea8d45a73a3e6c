import * as path from 'node:path';
import { URI } from 'langium';
import { definesObjects } from '../../../../common/pipeline-files.js';
import { compileGlob } from '../../project/glob.js';
import type { ProjectModel } from '../../project/project-model.js';
import type { PipelineProject } from '../../project/project-types.js';
import { ErrorClass } from '../../../../engine/src/spark/error-classes.js';

/** What a document is to its pipeline. */
export type DocumentRole =
    /** A source file of the pipeline: its datasets and flows form the pipeline. */
    | 'pipeline'
    /** A `samples/*.sql` file of a pipeline root: its `CREATE TABLE`s declare sample catalog tables. */
    | 'catalog'
    /**
     * A scratch file: a `.sql` file in a pipeline's folder (outside its samples and state folders) that is
     * none of its libraries and defines nothing ({@link definesObjects}): its queries and DML see the
     * pipeline's datasets and run on its local state; it adds nothing to the pipeline.
     */
    | 'scratch';

/** What the language services need of a pipeline's settings. */
export interface PipelineSpec {
    name?: string;
    /** Include globs of an in-memory pipeline ({@link PipelineRegistry.addRoot}); empty: every `.sql` file below the root. */
    includes: string[];
    catalog?: string;
    schema?: string;
    /** Pipeline parameters (`configuration`), the values of `${name}` in the SQL sources. */
    configuration?: Record<string, string>;
    /** Runs continuously instead of triggered (`continuous: true`). */
    continuous?: boolean;
}

/** A pipeline: the set of documents that see each other's datasets. */
export interface PipelineInfo {
    /**
     * Stable identity: the pipeline's id in the project model (its root folder, or
     * `<bundle root>#<key>`), or `file:<uri>` for a document that belongs to no pipeline and forms
     * one of its own.
     */
    readonly id: string;
    /** The root folder (absolute file-system path); undefined for a standalone document. */
    readonly rootPath?: string;
    /** The file that defines the pipeline, when there is one. */
    readonly specFile?: string;
    /** Its name, default catalog and schema, and parameters. */
    readonly spec?: PipelineSpec;
    /** Why a project file of the pipeline could not be read, if it could not. */
    readonly specError?: string;
    /** The sample catalog folder; undefined for a standalone document. */
    readonly samplesPath?: string;
    /** The model's pipeline (undefined for standalone documents and in-memory roots). */
    readonly project?: PipelineProject;
}

/** The pipeline a document belongs to, and its role there. */
export interface PipelineMembership {
    readonly pipeline: PipelineInfo;
    readonly role: DocumentRole;
    /**
     * A scratch file in the folder of several pipelines (directly under a bundle root) whose text names
     * as many datasets of these others as of `pipeline` (or none): the choice was arbitrary.
     */
    readonly alsoIn?: readonly PipelineInfo[];
}

/**
 * Picks the pipeline of a scratch file among those whose folders hold it equally closely, from its
 * text (scratch-files.ts `chooseScratchPipeline`; the registry cannot parse).
 */
export type ScratchChooser = (candidates: readonly PipelineInfo[], text: string) => { readonly pipeline: PipelineInfo; readonly alsoIn?: readonly PipelineInfo[] } | undefined;

/**
 * The documents of a file listed by several pipelines: the file's own URI is its document in the
 * first pipeline that lists it; for each other pipeline it has a document of its own, whose URI is the
 * file's with the query `pipeline=<id>` (same path, same text), so that each pipeline checks the file
 * against its own datasets and parameters. Diagnostics and locations of these documents are shown on
 * the file itself ({@link editorUri}).
 */
const pipelineQuery = 'pipeline=';

/** The URI of a file's document in a pipeline that is not the first to list it. */
export function sharedDocumentUri(filePath: string, pipelineId: string): URI {
    return URI.file(filePath).with({ query: pipelineQuery + pipelineId });
}

/** The file and pipeline of a {@link sharedDocumentUri}; undefined for any other URI. */
export function parseSharedDocumentUri(uri: URI): { readonly file: string; readonly pipelineId: string } | undefined {
    return uri.scheme === 'file' && uri.query.startsWith(pipelineQuery)
        ? { file: path.resolve(uri.fsPath), pipelineId: uri.query.slice(pipelineQuery.length) }
        : undefined;
}

/** The URI an editor knows a document by: a shared file's other documents are shown on the file. */
export function editorUri(uri: URI): URI {
    return parseSharedDocumentUri(uri) ? uri.with({ query: '' }) : uri;
}

/** An in-memory pipeline root registered by {@link PipelineRegistry.addRoot}. */
interface VirtualRoot {
    readonly info: PipelineInfo;
    readonly includes: ReturnType<typeof compileGlob>[];
}

/**
 * Which pipeline each document belongs to (a Pipeline SQL service, `pipeline.Registry`): a thin,
 * synchronous view of the project model ({@link ProjectModel}, the only code that knows what a
 * pipeline is). A document listed as a source by a pipeline belongs to it; a `samples/*.sql` file of
 * a pipeline is its catalog; any other document forms a pipeline of its own, so that two pipelines,
 * or two unrelated files, never see each other's datasets. Tests and embedders may also register
 * in-memory roots ({@link addRoot}).
 */
export class PipelineRegistry {

    private readonly virtualRoots = new Map<string, VirtualRoot>();
    // Memoises URI → membership; cleared when the pipelines change.
    private readonly memberships = new Map<string, PipelineMembership>();
    private readonly infos = new Map<string, PipelineInfo>();
    private readonly listeners: Array<() => void> = [];
    private scratchChooser?: ScratchChooser;
    // Scratch files whose pipeline was chosen among several: chosen again once every document is indexed.
    private readonly chosenAmongSeveral = new Set<string>();
    private readonly choosing = new Set<string>();

    /**
     * @param textOf the text of a document as the editor (else the workspace) has it, undefined when
     * not loaded: whether a file outside a pipeline's libraries is a scratch file depends on it.
     */
    constructor(readonly project: ProjectModel, private readonly textOf: (uri: URI) => string | undefined = () => undefined) {
        project.onDidChange(() => this.changed());
    }

    /**
     * Registers (or replaces) an in-memory pipeline root: every `.sql` file below it is a source (or
     * those the spec's `includes` globs match), `samples/*.sql` its catalog. For tests and for
     * embedders whose files are not on disk; folders on disk are loaded with the project model.
     */
    addRoot(rootPath: string, spec: PipelineSpec = { includes: [] }, specFile?: string): PipelineInfo {
        const root = path.resolve(rootPath);
        const info: PipelineInfo = { id: root, rootPath: root, specFile, spec, samplesPath: path.join(root, 'samples') };
        this.virtualRoots.set(root, { info, includes: spec.includes.map(g => compileGlob(g)) });
        this.changed();
        return info;
    }

    /** Forgets an in-memory root. */
    removeRoot(rootPath: string): void {
        if (this.virtualRoots.delete(path.resolve(rootPath))) {
            this.changed();
        }
    }

    /** Every pipeline: the project model's and the in-memory roots. */
    allRoots(): PipelineInfo[] {
        return [...this.project.allPipelines().map(p => this.infoOf(p)), ...[...this.virtualRoots.values()].map(v => v.info)];
    }

    /** A pipeline by id. */
    getPipeline(id: string): PipelineInfo | undefined {
        return this.allRoots().find(p => p.id === id);
    }

    /** Called whenever the pipelines (and so the membership of documents) change. */
    onDidChangeRoots(listener: () => void): void {
        this.listeners.push(listener);
    }

    /** The pipeline of a document and its role there. */
    membershipOf(uri: URI): PipelineMembership {
        const key = uri.toString();
        let membership = this.memberships.get(key);
        if (!membership) {
            const computed = this.computeMembership(uri);
            membership = computed.membership;
            if (computed.final) {
                this.memberships.set(key, membership);
            }
        }
        return membership;
    }

    /** Sets how a scratch file's pipeline is chosen among several whose folders hold it equally closely. */
    setScratchChooser(chooser: ScratchChooser): void {
        this.scratchChooser = chooser;
        this.changed();
    }

    /**
     * Forgets the pipeline chosen for these documents among several (they are scratch files directly
     * under a bundle root): the choice reads the pipelines' datasets, complete only once every document
     * of a build is indexed (the document builder calls this then, before linking).
     */
    chooseAgain(uris: readonly URI[]): void {
        for (const uri of uris) {
            if (this.chosenAmongSeveral.delete(uri.toString())) {
                this.memberships.delete(uri.toString());
            }
        }
    }

    /**
     * Forgets what a document was (its text changed): a file outside a pipeline's libraries is a scratch
     * file only while it defines nothing, so its membership is worked out again from its new text.
     */
    textChanged(uri: URI): void {
        this.memberships.delete(uri.toString());
    }

    /**
     * The model's pipeline whose root folder holds a file that is none of its sources (a scratch `.sql`
     * file beside its libraries, run with "Run on local state"): the innermost such root, if any.
     */
    enclosingPipeline(uri: URI): PipelineInfo | undefined {
        return this.enclosingPipelines(uri)[0];
    }

    /**
     * The model's pipelines whose folders hold a file most closely: one, or several when the file is
     * directly under a bundle root that several pipelines share (in the model's order).
     */
    enclosingPipelines(uri: URI): PipelineInfo[] {
        return uri.scheme === 'file' ? this.innermostProjects(path.resolve(uri.fsPath)).map(p => this.infoOf(p)) : [];
    }

    /**
     * The model's pipelines whose folder holds a file most closely: its own root (a bundle pipeline's
     * `root_path`) when that holds the file, else its bundle root; several on a tie.
     */
    private innermostProjects(filePath: string): PipelineProject[] {
        const depth = (p: PipelineProject): number => (filePath.startsWith(p.root + path.sep) ? p.root.length : (p.bundle?.root ?? p.root).length);
        const containing = this.project.pipelinesContaining(filePath);
        const deepest = Math.max(...containing.map(depth));
        // A folder loaded twice (a workspace folder and a folder inside it) lists its pipelines twice.
        return containing.filter((p, i) => depth(p) === deepest && containing.findIndex(q => q.id === p.id) === i);
    }

    /** The pipeline of a document. */
    pipelineOf(uri: URI): PipelineInfo {
        return this.membershipOf(uri).pipeline;
    }

    /**
     * Whether a file belongs to a pipeline of the workspace (or an in-memory root), as a source or as
     * a catalog file: such files are loaded and checked even when closed. Others stand alone and are
     * validated only while open.
     */
    isRootMember(uri: URI): boolean {
        if (uri.scheme !== 'file') {
            return false;
        }
        const membership = this.membershipOf(uri);
        if (membership.pipeline.project) {
            return this.project.isWorkspaceMember(uri.fsPath);
        }
        return membership.pipeline.rootPath !== undefined && this.virtualRoots.has(membership.pipeline.rootPath);
    }

    /**
     * The URI of a file's document in a pipeline: the file's own URI in the first pipeline that lists
     * it (and for a file no pipeline lists), a {@link sharedDocumentUri} in the others.
     */
    documentUriOf(filePath: string, pipelineId: string): URI {
        const file = path.resolve(filePath);
        const owners = this.project.pipelinesOfSource(file);
        return owners.length > 1 && owners[0].id !== pipelineId && owners.some(p => p.id === pipelineId)
            ? sharedDocumentUri(file, pipelineId)
            : URI.file(file);
    }

    /** The documents of a source file listed by several pipelines beyond its own URI (one per other pipeline). */
    sharedDocumentUris(filePath: string): URI[] {
        const file = path.resolve(filePath);
        return this.project.pipelinesOfSource(file).slice(1).map(p => sharedDocumentUri(file, p.id));
    }

    /** Every extra document of the files the pipelines share ({@link sharedDocumentUris} of each source). */
    allSharedDocumentUris(): URI[] {
        return this.project.sharedSources().flatMap(file => this.sharedDocumentUris(file));
    }

    /** The pipelines whose root folder contains a file (any file: sources, sample data, project files). */
    pipelinesContaining(filePath: string): PipelineInfo[] {
        const file = path.resolve(filePath);
        return [
            ...this.project.pipelinesContaining(file).map(p => this.infoOf(p)),
            ...[...this.virtualRoots.values()].filter(v => file.startsWith(v.info.rootPath! + path.sep)).map(v => v.info),
        ];
    }

    /** The registry's view of a model pipeline (one object per pipeline and change). */
    infoOf(project: PipelineProject): PipelineInfo {
        let info = this.infos.get(project.id);
        if (!info || info.project !== project) {
            const errors = project.problems.filter(p => p.code === ErrorClass.invalidProjectFile);
            info = {
                id: project.id,
                rootPath: project.root,
                specFile: project.specFile,
                spec: { name: project.name, includes: [], catalog: project.catalog, schema: project.schema, configuration: { ...project.configuration }, continuous: project.continuous },
                specError: errors.length > 0 ? errors.map(e => e.message).join('\n') : undefined,
                samplesPath: project.samplesDir,
                project,
            };
            this.infos.set(project.id, info);
        }
        return info;
    }

    /** A document's membership, and whether it is final (false while a candidate scratch file's text is unknown). */
    private computeMembership(uri: URI): { membership: PipelineMembership; final: boolean } {
        const standalone: PipelineMembership = { pipeline: { id: `file:${uri.toString()}` }, role: 'pipeline' };
        const final = (membership: PipelineMembership): { membership: PipelineMembership; final: boolean } => ({ membership, final: true });
        if (uri.scheme !== 'file') {
            return final(standalone);
        }
        const filePath = path.resolve(uri.fsPath);
        const shared = parseSharedDocumentUri(uri);
        if (shared) {
            // A shared file's document in one of its other pipelines (none when that pipeline no longer lists it).
            const owner = this.project.pipelinesOfSource(filePath).find(p => p.id === shared.pipelineId);
            return final(owner ? { pipeline: this.infoOf(owner), role: 'pipeline' } : standalone);
        }
        const catalogOwner = this.project.pipelineOfCatalogFile(filePath);
        if (catalogOwner) {
            return final({ pipeline: this.infoOf(catalogOwner), role: 'catalog' });
        }
        const owner = this.project.pipelinesOfSource(filePath)[0];
        if (owner) {
            return final({ pipeline: this.infoOf(owner), role: 'pipeline' });
        }
        const virtual = this.virtualRootOf(filePath);
        if (virtual) {
            const relative = path.relative(virtual.info.rootPath!, filePath).split(path.sep).join('/');
            if (/^samples\/[^/]+\.sql$/i.test(relative)) {
                return final({ pipeline: virtual.info, role: 'catalog' });
            }
            const member = virtual.includes.length === 0
                ? !relative.split('/').slice(0, -1).includes('samples')
                : virtual.includes.some(glob => glob.matches(relative));
            if (member) {
                return final({ pipeline: virtual.info, role: 'pipeline' });
            }
        }
        return this.scratchMembership(uri, filePath, virtual?.info) ?? final(standalone);
    }

    /**
     * A scratch file's membership: a `.sql` file in the folder of a pipeline (the innermost root; a
     * model pipeline, else an in-memory root), outside its samples and state folders, none of its
     * libraries, whose text defines nothing. Undefined for any other file.
     */
    private scratchMembership(uri: URI, filePath: string, virtual: PipelineInfo | undefined): { membership: PipelineMembership; final: boolean } | undefined {
        if (!filePath.toLowerCase().endsWith('.sql')) {
            return undefined;
        }
        const enclosing = this.innermostProjects(filePath);
        const inVirtual = virtual !== undefined && (enclosing.length === 0 || virtual.rootPath!.length > enclosing[0].root.length);
        const pipeline = inVirtual ? virtual : enclosing[0] && this.infoOf(enclosing[0]);
        if (!pipeline) {
            return undefined;
        }
        const inside = (folder: string | undefined): boolean => folder !== undefined && filePath.startsWith(path.resolve(folder) + path.sep);
        if (inside(pipeline.samplesPath) || inside(pipeline.project?.stateDir)) {
            return undefined;
        }
        const text = this.textOf(uri);
        if (text === undefined) {
            // Not loaded yet: decided when its text is known.
            return { membership: { pipeline: { id: `file:${uri.toString()}` }, role: 'pipeline' }, final: false };
        }
        if (definesObjects(text)) {
            return undefined;
        }
        const key = uri.toString();
        if (!inVirtual && enclosing.length > 1 && this.choosing.has(key)) {
            // Asked again while choosing (the chooser reads the pipelines' datasets, which ask every document's role).
            return { membership: { pipeline, role: 'scratch' }, final: false };
        }
        let choice: ReturnType<ScratchChooser>;
        if (!inVirtual && enclosing.length > 1) {
            this.choosing.add(key);
            try {
                choice = this.scratchChooser?.(enclosing.map(p => this.infoOf(p)), text);
            } finally {
                this.choosing.delete(key);
            }
        }
        if (choice) {
            this.chosenAmongSeveral.add(key);
            return { membership: { pipeline: choice.pipeline, role: 'scratch', ...(choice.alsoIn ? { alsoIn: choice.alsoIn } : {}) }, final: true };
        }
        return { membership: { pipeline, role: 'scratch' }, final: true };
    }

    /** The deepest in-memory root containing a file. */
    private virtualRootOf(filePath: string): VirtualRoot | undefined {
        let best: VirtualRoot | undefined;
        for (const root of this.virtualRoots.values()) {
            const dir = root.info.rootPath!;
            if ((filePath.startsWith(dir + path.sep) || filePath === dir) && (!best || dir.length > best.info.rootPath!.length)) {
                best = root;
            }
        }
        return best;
    }

    private changed(): void {
        this.memberships.clear();
        this.listeners.forEach(listener => listener());
    }
}
