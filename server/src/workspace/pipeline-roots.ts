import * as fs from 'node:fs';
import * as path from 'node:path';
import {
    isPipelineLibrary, NonSourceFolders, parsePipelineSpec, PipelineSpecFileNames, type PipelineSpec,
} from '../../../common/pipeline-files.js';

// The spec parsing and glob matching are shared with the VS Code client (language detection).
export { globToRegExp, NonSourceFolders, parsePipelineSpec, PipelineSpecFileNames, type PipelineSpec } from '../../../common/pipeline-files.js';

/** A pipeline: its root folder, its project file (if any) and the SQL files that belong to it. */
export interface PipelineRoot {
    root: string;
    specFile?: string;
    spec?: PipelineSpec;
    files: string[];
}

/** Whether a folder holds a pipeline project file; returns its path. */
export function findSpecFile(dir: string): string | undefined {
    for (const name of PipelineSpecFileNames) {
        const candidate = path.join(dir, name);
        if (fs.existsSync(candidate)) {
            return candidate;
        }
    }
    return undefined;
}

/** Lists the pipeline's SQL files: those matching the project file's globs, or every `.sql` outside `samples/`. */
export function listPipelineFiles(root: string, spec?: PipelineSpec): string[] {
    return walkSqlFiles(root).filter(file => isPipelineLibrary(spec, path.relative(root, file).split(path.sep).join('/')));
}

/** Loads one pipeline root: the folder, its project file if present, and its files. */
export function loadPipelineRoot(root: string): PipelineRoot {
    const specFile = findSpecFile(root);
    const spec = specFile ? parsePipelineSpec(fs.readFileSync(specFile, 'utf8')) : undefined;
    return { root, specFile, spec, files: listPipelineFiles(root, spec) };
}

/**
 * The pipelines found under a folder: every folder below it holding a project file, or, when there
 * is none, the folder itself taken as one pipeline of all its `.sql` files.
 */
export function findPipelineRoots(dir: string): PipelineRoot[] {
    const roots: string[] = [];
    const visit = (d: string): void => {
        if (findSpecFile(d)) {
            roots.push(d);
            return;
        }
        for (const entry of safeReaddir(d)) {
            if (entry.isDirectory() && !(NonSourceFolders as readonly string[]).includes(entry.name)) {
                visit(path.join(d, entry.name));
            }
        }
    };
    visit(dir);
    if (roots.length === 0) {
        roots.push(dir);
    }
    return roots.map(loadPipelineRoot);
}

/** The nearest folder at or above `file`'s folder that holds a project file. */
export function findEnclosingRoot(file: string): string | undefined {
    let dir = path.dirname(path.resolve(file));
    for (;;) {
        if (findSpecFile(dir)) {
            return dir;
        }
        const parent = path.dirname(dir);
        if (parent === dir) {
            return undefined;
        }
        dir = parent;
    }
}

function walkSqlFiles(root: string): string[] {
    const out: string[] = [];
    const visit = (d: string): void => {
        for (const entry of safeReaddir(d)) {
            const full = path.join(d, entry.name);
            if (entry.isDirectory()) {
                if (!(NonSourceFolders as readonly string[]).includes(entry.name)) {
                    visit(full);
                }
            } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.sql')) {
                out.push(full);
            }
        }
    };
    visit(root);
    return out.sort();
}

function safeReaddir(dir: string): fs.Dirent[] {
    try {
        return fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
        // A folder we cannot read holds no pipeline files we could check.
        if ((error as NodeJS.ErrnoException).code === 'EACCES' || (error as NodeJS.ErrnoException).code === 'ENOENT') {
            return [];
        }
        throw error;
    }
}

/** The sample catalog files of a pipeline root: the `.sql` files directly in its `samples/` folder, sorted. */
export function listCatalogFiles(root: string): string[] {
    const samples = path.join(root, 'samples');
    return safeReaddir(samples)
        .filter(entry => entry.isFile() && entry.name.toLowerCase().endsWith('.sql'))
        .map(entry => path.join(samples, entry.name))
        .sort();
}

/** Folders never searched for pipelines in an editor workspace. */
const skippedWorkspaceFolders = new Set(['node_modules', '.git', '.pipeline-sql', 'out']);

/**
 * The pipeline roots of an editor workspace folder: every folder holding a project file (searched
 * everywhere but inside another root, dependency and build folders, and hidden folders, so that a
 * repository's `samples/` or `examples/` of pipelines are found too). A workspace without any
 * project file is one pipeline root with no project file; `specless` then tells the caller to load
 * only the `.sql` files that contain a pipeline statement, so that plain SQL files get no Pipeline
 * SQL diagnostics.
 */
export function discoverWorkspaceRoots(dir: string): { roots: PipelineRoot[]; specless: boolean } {
    const roots: string[] = [];
    const visit = (d: string): void => {
        if (findSpecFile(d)) {
            roots.push(d);
            return;
        }
        for (const entry of safeReaddir(d)) {
            if (entry.isDirectory() && !entry.name.startsWith('.') && !skippedWorkspaceFolders.has(entry.name)) {
                visit(path.join(d, entry.name));
            }
        }
    };
    visit(dir);
    if (roots.length === 0) {
        return { roots: [loadPipelineRoot(dir)], specless: true };
    }
    return { roots: roots.map(loadPipelineRoot), specless: false };
}
