/**
 * The one folder walk of the model and the resolution of `libraries` entries to files: which files
 * a glob, a file path or a notebook path names, relative to the file that declares it, never outside
 * the pipeline's (or bundle's) root.
 */
import * as path from 'node:path';
import type { ProjectFileHost } from './file-host.js';
import { compileGlob, GlobError } from './glob.js';
import type { LibraryDeclaration } from './project-types.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** Folders a walk never enters: dependencies, caches, and hidden folders (`.git`, `.pipeline-sql`, `.venv`, `.databricks`). */
export function isSkippedFolder(name: string): boolean {
    return name.startsWith('.') || name === 'node_modules' || name === '__pycache__';
}

/** At most this many files are listed under one root (a bound on work in huge repositories). */
export const MaxListedFiles = 200_000;

/**
 * Every file under a folder, as `/`-separated paths relative to it, sorted; skipped folders and
 * symbolic links are not followed.
 */
export async function listFiles(root: string, host: ProjectFileHost, skip: (relativeDir: string, name: string) => boolean = (_d, name) => isSkippedFolder(name)): Promise<string[]> {
    const out: string[] = [];
    const stack: string[] = [''];
    while (stack.length > 0 && out.length < MaxListedFiles) {
        const relative = stack.pop()!;
        const entries = await host.readDirectory(relative ? path.join(root, ...relative.split('/')) : root);
        for (const entry of entries) {
            const child = relative ? `${relative}/${entry.name}` : entry.name;
            if (entry.isDirectory) {
                if (!skip(relative, entry.name)) {
                    stack.push(child);
                }
            } else if (entry.isFile) {
                out.push(child);
            }
        }
    }
    return out.sort();
}

/** The kind of a library file by its extension. */
export function libraryKind(file: string): 'sql' | 'python' | undefined {
    const lower = file.toLowerCase();
    if (lower.endsWith('.sql')) {
        return 'sql';
    }
    if (lower.endsWith('.py')) {
        return 'python';
    }
    return undefined;
}

/** One `libraries` entry to resolve. */
export interface LibraryEntry {
    readonly kind: LibraryDeclaration['kind'];
    readonly pattern: string;
    /** Folder of the declaring file, absolute. */
    readonly baseDir: string;
}

/** The outcome of resolving one entry. */
export interface ResolvedLibrary {
    readonly declaration: LibraryDeclaration;
    /** Why it names no file, if it does not. */
    readonly problem?: { readonly code: string; readonly message: string; readonly severity: 'error' | 'warning' };
}

/**
 * Resolves library entries against the files under `root` (listed once by the caller):
 * - `glob`: every file the pattern matches (a folder matches everything below it);
 * - `file`: that file;
 * - `notebook`: that file, or, for a path without an extension, the `.sql` or `.py` file Databricks
 *   would take for the notebook.
 * A path that leaves `root` (`../../x`) names nothing and says so.
 */
export function resolveLibraries(entries: readonly LibraryEntry[], root: string, files: readonly string[]): ResolvedLibrary[] {
    const fileSet = new Set(files);
    return entries.map(entry => {
        const relBase = path.relative(root, entry.baseDir).split(path.sep).join('/');
        const raw = entry.pattern.replace(/\\/g, '/');
        const joined = path.posix.normalize(raw.startsWith('/') ? raw : path.posix.join(relBase || '.', raw));
        const declaration = (matched: string[]): LibraryDeclaration => ({ kind: entry.kind, pattern: entry.pattern, baseDir: entry.baseDir, matched: matched.map(f => path.join(root, ...f.split('/'))) });
        if (raw.startsWith('/') || joined === '..' || joined.startsWith('../')) {
            return {
                declaration: declaration([]),
                problem: { code: ErrorClass.libraryOutsideRoot, severity: 'error', message: `The library '${entry.pattern}' is outside ${path.basename(root)}; only files inside the ${path.basename(root)} folder can be read.` },
            };
        }
        if (entry.kind === 'glob') {
            let matched: string[];
            try {
                const glob = compileGlob(joined);
                matched = files.filter(f => glob.matches(f) && libraryKind(f) !== undefined);
            } catch (error) {
                if (error instanceof GlobError) {
                    return { declaration: declaration([]), problem: { code: ErrorClass.invalidGlobPattern, severity: 'error', message: error.message } };
                }
                throw error;
            }
            return matched.length > 0 ? { declaration: declaration(matched) }
                : { declaration: declaration([]), problem: { code: ErrorClass.libraryMatchesNothing, severity: 'warning', message: `The library glob '${entry.pattern}' matches no .sql or .py file.` } };
        }
        const candidates = entry.kind === 'notebook' && !/\.[a-z]+$/i.test(joined) ? [joined, `${joined}.sql`, `${joined}.py`] : [joined];
        const found = candidates.find(c => fileSet.has(c));
        if (found) {
            return { declaration: declaration([found]) };
        }
        // A path naming a folder takes what is below it (Databricks accepts a folder as a glob would).
        const below = files.filter(f => f.startsWith(`${joined}/`) && libraryKind(f) !== undefined);
        if (below.length > 0) {
            return { declaration: declaration(below) };
        }
        return {
            declaration: declaration([]),
            problem: { code: ErrorClass.libraryNotFound, severity: 'error', message: `The ${entry.kind} '${entry.pattern}' does not exist${entry.kind === 'notebook' ? ' (looked for it with .sql and .py too)' : ''}.` },
        };
    });
}
