import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** File names that mark the root folder of a pipeline (Spark Declarative Pipelines' project file). */
export const PipelineSpecFileNames = ['spark-pipeline.yml', 'spark-pipeline.yaml'] as const;

/** Folders under a pipeline root that never hold pipeline source: the sample catalog and the engine state. */
export const NonSourceFolders = ['samples', '.pipeline-sql', 'node_modules', '.git'] as const;

/** What the project file of a pipeline says about its sources. */
export interface PipelineSpec {
    name?: string;
    /** Include globs relative to the root, from `libraries: [{glob: {include}}, {file: {path}}, ...]`. */
    includes: string[];
}

/** A pipeline: its root folder, its project file (if any) and the SQL files that belong to it. */
export interface PipelineRoot {
    root: string;
    specFile?: string;
    spec?: PipelineSpec;
    files: string[];
}

/**
 * Reads the `libraries` of a `spark-pipeline.yml`. Accepts Spark's `glob: {include: ...}` entries and the
 * Databricks bundle forms `file: {path}` and `notebook: {path}`. Unknown entries are ignored.
 */
export function parsePipelineSpec(text: string): PipelineSpec {
    const doc: unknown = parseYaml(text);
    const spec: PipelineSpec = { includes: [] };
    if (!isRecord(doc)) {
        return spec;
    }
    if (typeof doc.name === 'string') {
        spec.name = doc.name;
    }
    const libraries = doc.libraries ?? doc.definitions;
    if (Array.isArray(libraries)) {
        for (const lib of libraries) {
            if (!isRecord(lib)) {
                continue;
            }
            for (const key of ['glob', 'file', 'notebook'] as const) {
                const entry = lib[key];
                const pattern = isRecord(entry) ? (entry.include ?? entry.path) : entry;
                if (typeof pattern === 'string') {
                    spec.includes.push(pattern);
                } else if (Array.isArray(pattern)) {
                    spec.includes.push(...pattern.filter((p): p is string => typeof p === 'string'));
                }
            }
        }
    }
    return spec;
}

/**
 * Turns a library glob into a regular expression over `/`-separated relative paths.
 * `**` matches any number of folders, `*` anything but `/`, `?` one character; a pattern naming a
 * folder (`transformations/`, `transformations/**`) matches every file below it.
 */
export function globToRegExp(glob: string): RegExp {
    let g = glob.replace(/\\/g, '/').replace(/^\.\//, '');
    if (g.endsWith('/')) {
        g += '**';
    }
    let re = '';
    for (let i = 0; i < g.length; i++) {
        const c = g[i];
        if (c === '*') {
            if (g[i + 1] === '*') {
                // `**/` matches zero or more folders; a trailing `**` matches everything below.
                if (g[i + 2] === '/') {
                    re += '(?:.*/)?';
                    i += 2;
                } else {
                    re += '.*';
                    i += 1;
                }
            } else {
                re += '[^/]*';
            }
        } else if (c === '?') {
            re += '[^/]';
        } else {
            re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
        }
    }
    return new RegExp(`^${re}(?:/.*)?$`);
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
    const all = walkSqlFiles(root);
    if (!spec || spec.includes.length === 0) {
        return all;
    }
    const patterns = spec.includes.map(globToRegExp);
    return all.filter(file => {
        const rel = path.relative(root, file).split(path.sep).join('/');
        return patterns.some(p => p.test(rel));
    });
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

function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
