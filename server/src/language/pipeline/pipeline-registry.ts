import * as fs from 'node:fs';
import * as path from 'node:path';
import type { URI } from 'langium';
import { isPipelineLibrary, parsePipelineSpec, type PipelineSpec } from '../../../../common/pipeline-files.js';
import { findSpecFile } from '../../workspace/pipeline-roots.js';

/** What a document is to its pipeline. */
export type DocumentRole =
    /** A source file of the pipeline: its datasets and flows form the pipeline. */
    | 'pipeline'
    /** A `samples/*.sql` file of a pipeline root: its `CREATE TABLE`s declare sample catalog tables. */
    | 'catalog';

/** A pipeline: the set of documents that see each other's datasets. */
export interface PipelineInfo {
    /**
     * Stable identity: the root folder's path for a pipeline root, or `file:<uri>` for a document
     * that belongs to no root and forms a pipeline of its own.
     */
    readonly id: string;
    /** The root folder (absolute file-system path); undefined for a standalone document. */
    readonly rootPath?: string;
    /** The project file, when the root has one. */
    readonly specFile?: string;
    /** What the project file says (libraries, default catalog and schema, parameters). */
    readonly spec?: PipelineSpec;
    /** Why the project file could not be read, if it could not. */
    readonly specError?: string;
    /** The sample catalog folder (`<root>/samples`); undefined for a standalone document. */
    readonly samplesPath?: string;
}

/** The pipeline a document belongs to, and its role there. */
export interface PipelineMembership {
    readonly pipeline: PipelineInfo;
    readonly role: DocumentRole;
}

/**
 * Which pipeline each document belongs to (a Pipeline SQL service, `pipeline.Registry`). Pipeline
 * roots are registered by whoever loads them (the language server's workspace manager, the CLI,
 * tests); a document under no registered root is looked up on disk (the nearest folder with a
 * `spark-pipeline.yml`), and otherwise forms a pipeline of its own, so that two pipelines, or two
 * unrelated files, never see each other's datasets.
 */
export class PipelineRegistry {

    private readonly roots = new Map<string, PipelineInfo>();
    // Memoises URI → membership. It depends only on the registered roots (not on document contents),
    // so it is cleared when a root is added or removed rather than on document changes.
    private readonly memberships = new Map<string, PipelineMembership>();
    private readonly listeners: Array<() => void> = [];

    /**
     * Registers (or refreshes) a pipeline root folder; reads its project file when `spec` is not given.
     * `specFile` names the project file when it is not on disk (tests with an in-memory file system).
     */
    addRoot(rootPath: string, spec?: PipelineSpec, specFile?: string): PipelineInfo {
        const root = path.resolve(rootPath);
        const info = spec ? this.makeInfo(root, specFile ?? findSpecFile(root), spec) : this.readRoot(root);
        this.roots.set(root, info);
        this.changed();
        return info;
    }

    /** Forgets a pipeline root. */
    removeRoot(rootPath: string): void {
        if (this.roots.delete(path.resolve(rootPath))) {
            this.changed();
        }
    }

    /** Every registered pipeline root. */
    allRoots(): PipelineInfo[] {
        return [...this.roots.values()];
    }

    /** The registered root folder with this path, if any. */
    getRoot(rootPath: string): PipelineInfo | undefined {
        return this.roots.get(path.resolve(rootPath));
    }

    /** Called whenever the set of roots (and so the membership of documents) changes. */
    onDidChangeRoots(listener: () => void): void {
        this.listeners.push(listener);
    }

    /** The pipeline of a document and its role there. */
    membershipOf(uri: URI): PipelineMembership {
        const key = uri.toString();
        let membership = this.memberships.get(key);
        if (!membership) {
            membership = this.computeMembership(uri);
            this.memberships.set(key, membership);
        }
        return membership;
    }

    /** The pipeline of a document. */
    pipelineOf(uri: URI): PipelineInfo {
        return this.membershipOf(uri).pipeline;
    }

    /**
     * Whether a file belongs to a registered root, as a source or as a catalog file. Files that are
     * not members stand alone: they are validated only while open.
     */
    isRootMember(uri: URI): boolean {
        return this.membershipOf(uri).pipeline.rootPath !== undefined && this.roots.has(this.membershipOf(uri).pipeline.rootPath!);
    }

    private computeMembership(uri: URI): PipelineMembership {
        const standalone: PipelineMembership = { pipeline: { id: `file:${uri.toString()}` }, role: 'pipeline' };
        if (uri.scheme !== 'file') {
            return standalone;
        }
        const filePath = path.resolve(uri.fsPath);
        const root = this.registeredRootOf(filePath) ?? this.discoverRoot(filePath);
        if (!root?.rootPath) {
            return standalone;
        }
        const relative = path.relative(root.rootPath, filePath).split(path.sep).join('/');
        if (/^samples\/[^/]+\.sql$/i.test(relative)) {
            return { pipeline: root, role: 'catalog' };
        }
        return isPipelineLibrary(root.spec, relative) ? { pipeline: root, role: 'pipeline' } : standalone;
    }

    /** The deepest registered root whose folder contains a file (any file: sources, sample data, project files). */
    rootContaining(filePath: string): PipelineInfo | undefined {
        return this.registeredRootOf(path.resolve(filePath));
    }

    /** The deepest registered root whose folder contains the file. */
    private registeredRootOf(filePath: string): PipelineInfo | undefined {
        let best: PipelineInfo | undefined;
        for (const info of this.roots.values()) {
            const root = info.rootPath!;
            if ((filePath.startsWith(root + path.sep) || filePath === root) && (!best || root.length > best.rootPath!.length)) {
                best = info;
            }
        }
        return best;
    }

    /**
     * A document outside every registered root may still sit in a pipeline folder on disk (a file
     * opened from outside the workspace): the nearest folder above it with a project file. The root
     * is not registered, so its other files are not loaded; the document sees its catalog only.
     */
    private discoverRoot(filePath: string): PipelineInfo | undefined {
        let dir = path.dirname(filePath);
        for (;;) {
            const specFile = findSpecFile(dir);
            if (specFile) {
                return this.readRoot(dir);
            }
            const parent = path.dirname(dir);
            if (parent === dir) {
                return undefined;
            }
            dir = parent;
        }
    }

    private readRoot(root: string): PipelineInfo {
        const specFile = findSpecFile(root);
        if (!specFile) {
            return this.makeInfo(root, undefined, undefined);
        }
        try {
            return this.makeInfo(root, specFile, parsePipelineSpec(fs.readFileSync(specFile, 'utf8')));
        } catch (error) {
            // An unreadable project file: every .sql file of the folder counts (as the client decides).
            return { ...this.makeInfo(root, specFile, undefined), specError: error instanceof Error ? error.message : String(error) };
        }
    }

    private makeInfo(root: string, specFile: string | undefined, spec: PipelineSpec | undefined): PipelineInfo {
        return { id: root, rootPath: root, specFile, spec, samplesPath: path.join(root, 'samples') };
    }

    private changed(): void {
        this.memberships.clear();
        this.listeners.forEach(listener => listener());
    }
}
