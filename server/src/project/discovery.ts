/**
 * Finding pipelines: the one walk that the editor's workspace, `check` and `run` share.
 *
 * Under a folder, every folder holding a `databricks.yml` (a bundle: one pipeline per
 * `resources.pipelines.<key>`) or a `spark-pipeline.yml` (one pipeline) is a pipeline root; the walk
 * does not look inside a root for more, and skips hidden folders, `node_modules` and `__pycache__`
 * (so a repository's `samples/` or `examples/` of pipelines are found). A folder without either file
 * is one pipeline of its pipeline SQL files: the `.sql` files (outside `samples/`) that contain a
 * pipeline statement, the `.py` files that import a pipelines module, and the `.sql` files beside them.
 */
import * as path from 'node:path';
import { findPipelineStatement } from '../../../common/pipeline-files.js';
import { loadBundle } from './bundle.js';
import type { ProjectFileHost } from './file-host.js';
import { readPythonDefinitions } from './python/python-definitions.js';
import { isSkippedFolder, libraryKind, listFiles } from './library-files.js';
import {
    BundleFileNames, PipelineSpecFileNames, type PipelineProject, type ProjectOptions, type ProjectProblem, type ProjectSet,
} from './project-types.js';
import { loadSparkPipeline } from './spark-pipeline-spec.js';

/** A folder that is a pipeline root, and its project file. */
interface RootFolder {
    readonly dir: string;
    readonly file: string;
    readonly kind: 'bundle' | 'spark-pipeline';
}

/** What the walk looks for, for messages when it finds nothing. */
export const SearchDescription = 'a databricks.yml with resources.pipelines, a spark-pipeline.yml, or .sql files with a pipeline statement (CREATE STREAMING TABLE, MATERIALIZED VIEW, CREATE FLOW, AUTO CDC, APPLY CHANGES INTO, CREATE LIVE TABLE/VIEW)';

/** The project file of a folder, if it is a pipeline root (a bundle wins over a spark-pipeline.yml). */
async function rootFileOf(dir: string, names: ReadonlySet<string>): Promise<RootFolder | undefined> {
    for (const name of BundleFileNames) {
        if (names.has(name)) {
            return { dir, file: path.join(dir, name), kind: 'bundle' };
        }
    }
    for (const name of PipelineSpecFileNames) {
        if (names.has(name)) {
            return { dir, file: path.join(dir, name), kind: 'spark-pipeline' };
        }
    }
    return undefined;
}

/** The pipeline roots at or below a folder (not inside another root). */
async function findRootFolders(folder: string, host: ProjectFileHost): Promise<RootFolder[]> {
    const roots: RootFolder[] = [];
    const stack = [folder];
    while (stack.length > 0) {
        const dir = stack.pop()!;
        const entries = await host.readDirectory(dir);
        const root = await rootFileOf(dir, new Set(entries.filter(e => e.isFile).map(e => e.name)));
        if (root) {
            roots.push(root);
            continue;
        }
        for (const entry of entries) {
            if (entry.isDirectory && !isSkippedFolder(entry.name)) {
                stack.push(path.join(dir, entry.name));
            }
        }
    }
    return roots.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** Reads one pipeline root (a bundle's pipelines, or a spark-pipeline.yml's one). */
async function loadRoot(root: RootFolder, host: ProjectFileHost, options: ProjectOptions): Promise<{ pipelines: PipelineProject[]; problems: ProjectProblem[]; projectFiles: string[] }> {
    if (root.kind === 'bundle') {
        const bundle = await loadBundle(root.dir, root.file, host, options);
        return { pipelines: bundle.pipelines, problems: bundle.problems, projectFiles: bundle.projectFiles };
    }
    const { pipeline } = await loadSparkPipeline(root.dir, root.file, host, options);
    return { pipelines: [withoutCatalogFiles(pipeline)], problems: [], projectFiles: [root.file] };
}

/**
 * The pipelines under a folder: its pipeline roots, or, when there is none, the folder as one plain
 * pipeline (when it holds pipeline SQL).
 */
export async function discoverProjects(folder: string, host: ProjectFileHost, options: ProjectOptions = {}): Promise<ProjectSet> {
    const roots = await findRootFolders(folder, host);
    if (roots.length === 0) {
        const plain = await loadPlainFolder(folder, host, options);
        return { pipelines: plain ? [plain] : [], problems: [], projectFiles: [], searched: SearchDescription };
    }
    const pipelines: PipelineProject[] = [];
    const problems: ProjectProblem[] = [];
    const projectFiles: string[] = [];
    for (const root of roots) {
        const loaded = await loadRoot(root, host, options);
        pipelines.push(...loaded.pipelines);
        problems.push(...loaded.problems);
        projectFiles.push(...loaded.projectFiles);
    }
    return { pipelines, problems, projectFiles, searched: SearchDescription };
}

/** The nearest pipeline root at or above a file's folder (its project file nearest to it). */
export async function findEnclosingRoot(filePath: string, host: ProjectFileHost): Promise<string | undefined> {
    let dir = path.dirname(filePath);
    for (;;) {
        const names = new Set((await host.readDirectory(dir)).filter(e => e.isFile).map(e => e.name));
        if (await rootFileOf(dir, names)) {
            return dir;
        }
        const parent = path.dirname(dir);
        if (parent === dir) {
            return undefined;
        }
        dir = parent;
    }
}

/** The pipelines of the root that encloses a file, if any. */
export async function discoverEnclosing(filePath: string, host: ProjectFileHost, options: ProjectOptions = {}): Promise<ProjectSet | undefined> {
    const root = await findEnclosingRoot(filePath, host);
    return root ? discoverProjects(root, host, options) : undefined;
}

/**
 * A folder without project file as a pipeline: its `.sql` files with a pipeline statement, its `.py`
 * files that import a pipelines module (`dlt`, `pyspark.pipelines`), and the `.sql` files beside
 * either (a file holding only `CREATE TEMPORARY VIEW` next to the pipeline's tables is part of it;
 * a folder of migrations elsewhere is not). Undefined when no `.sql` file has a pipeline statement.
 */
export async function loadPlainFolder(folder: string, host: ProjectFileHost, options: ProjectOptions = {}): Promise<PipelineProject | undefined> {
    const files = (await listFiles(folder, host, (_dir, name) => isSkippedFolder(name) || name === 'samples'))
        .filter(f => libraryKind(f) !== undefined);
    const pipelineFolders = new Set<string>();
    const python: string[] = [];
    let statements = false;
    for (const file of files) {
        const text = await host.readFile(path.join(folder, ...file.split('/')));
        if (text === undefined) {
            continue;
        }
        if (libraryKind(file) === 'sql' && findPipelineStatement(text) !== undefined) {
            statements = true;
            pipelineFolders.add(path.posix.dirname(file));
        } else if (libraryKind(file) === 'python' && isPipelinePython(text)) {
            python.push(file);
            pipelineFolders.add(path.posix.dirname(file));
        }
    }
    if (!statements) {
        return undefined;
    }
    const sources = files.filter(f => libraryKind(f) === 'sql' && pipelineFolders.has(path.posix.dirname(f))).map(f => path.join(folder, ...f.split('/')));
    return plainPipeline(folder, sources, options, python.map(f => path.join(folder, ...f.split('/'))));
}

/** Whether a Python file is pipeline code: it imports a pipelines module (`import dlt`, `from pyspark import pipelines`). */
function isPipelinePython(text: string): boolean {
    return /\b(?:dlt|pipelines)\b/.test(text) && readPythonDefinitions(text).importsPipelines;
}

/** A plain-folder pipeline with the given sources. */
export function plainPipeline(folder: string, sources: readonly string[], options: ProjectOptions = {}, pythonFiles: readonly string[] = []): PipelineProject {
    return {
        id: folder,
        layout: 'folder',
        name: path.basename(folder),
        root: folder,
        sources: [...sources].sort(),
        pythonFiles: [...pythonFiles].sort(),
        libraries: [],
        configuration: {},
        samplesDir: path.join(folder, 'samples'),
        stateDir: path.join(folder, '.pipeline-sql'),
        readRoots: [folder, ...(options.allowedReadPaths ?? [])],
        problems: [],
    };
}

/** `samples/*.sql` are the sample catalog's declarations, never sources (a glob like `**` would match them). */
function withoutCatalogFiles(pipeline: PipelineProject): PipelineProject {
    const sources = pipeline.sources.filter(f => path.dirname(f) !== pipeline.samplesDir);
    return sources.length === pipeline.sources.length ? pipeline : { ...pipeline, sources };
}

/** The sample catalog declarations of a pipeline: the `.sql` files directly in its samples folder, sorted. */
export async function catalogFiles(pipeline: Pick<PipelineProject, 'samplesDir'>, host: ProjectFileHost): Promise<string[]> {
    return (await host.readDirectory(pipeline.samplesDir))
        .filter(e => e.isFile && e.name.toLowerCase().endsWith('.sql'))
        .map(e => path.join(pipeline.samplesDir, e.name))
        .sort();
}
