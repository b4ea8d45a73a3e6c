/**
 * What a pipeline is, as the pipeline project model knows it: the one description that the editor
 * (registry, workspace manager), `check`, `run`, the preview handlers and `test` share. Plain data;
 * the model (`project-model.ts`) finds and reads pipelines, `discovery.ts` walks folders.
 */

/** How a pipeline is laid out on disk. */
export type PipelineLayout =
    /** A resource `resources.pipelines.<key>` of a Databricks Asset Bundle (`databricks.yml`). */
    | 'bundle'
    /** A folder with Spark Declarative Pipelines' project file, `spark-pipeline.yml`. */
    | 'spark-pipeline'
    /** A folder of `.sql` files with neither file. */
    | 'folder';

/** A problem found in a project file, placed on its YAML line (1-based lines and columns, end exclusive). */
export interface ProjectProblem {
    readonly file: string;
    readonly line: number;
    readonly column: number;
    readonly endLine: number;
    readonly endColumn: number;
    readonly severity: 'error' | 'warning' | 'info';
    /** A Databricks / Spark error class where one exists (`PIPELINE_SPEC_UNEXPECTED_FIELD`), else ours. */
    readonly code: string;
    readonly message: string;
}

/** One `libraries` entry as declared, with where it is. */
export interface LibraryDeclaration {
    readonly kind: 'glob' | 'file' | 'notebook';
    /** The path or pattern as written (variables substituted). */
    readonly pattern: string;
    /** The folder the pattern is relative to (the folder of the file that declares it). */
    readonly baseDir: string;
    /** The files it matched. */
    readonly matched: readonly string[];
}

/** The bundle a bundle pipeline comes from. */
export interface BundleInfo {
    /** The folder of `databricks.yml`. */
    readonly root: string;
    readonly file: string;
    /** `bundle.name`. */
    readonly name?: string;
    /** The target whose settings apply (`--bundle-target`, the setting, or the target with `default: true`). */
    readonly target?: string;
    /** Every target the bundle declares. */
    readonly targets: readonly string[];
}

/** A pipeline: its files, parameters, namespace and folders. */
export interface PipelineProject {
    /**
     * Stable identity and namespace: the root folder for a spark-pipeline.yml or plain folder, or
     * `<bundle root>#<key>` for a bundle pipeline. Datasets, diagnostics, graphs and runs are per id.
     */
    readonly id: string;
    readonly layout: PipelineLayout;
    /** The resource key of a bundle pipeline (`resources.pipelines.<key>`). */
    readonly key?: string;
    /** The display name: `name:` of the pipeline, else its key, else its folder's name. */
    readonly name: string;
    /**
     * The pipeline's root folder: the bundle root for a bundle pipeline, the folder of
     * spark-pipeline.yml, or the plain folder. Relative `read_files` paths resolve against it.
     */
    readonly root: string;
    /** A bundle pipeline's `root_path` (its source folder, on Python's import path), resolved. */
    readonly sourceRoot?: string;
    /** The file that defines the pipeline (spark-pipeline.yml, or the bundle file with its resource). */
    readonly specFile?: string;
    /** The 1-based line of {@link specFile} where the pipeline is defined (a bundle pipeline's key). */
    readonly specLine?: number;
    readonly bundle?: BundleInfo;
    /** The SQL source files (`.sql`, SQL notebooks), absolute, sorted. */
    readonly sources: readonly string[];
    /**
     * The Python library files (`.py`, Python notebooks), absolute, sorted. Nothing in the SQL
     * services reads them; a Python reader (`server/src/project/python/`) contributes their datasets
     * through {@link LibraryReader}.
     */
    readonly pythonFiles: readonly string[];
    /** The `libraries` as declared (empty for a plain folder). */
    readonly libraries: readonly LibraryDeclaration[];
    /** `configuration:` after bundle variable substitution: the values of `${name}` in SQL. */
    readonly configuration: Readonly<Record<string, string>>;
    /** The default catalog of the pipeline's datasets. */
    readonly catalog?: string;
    /** The default schema (`schema`, Spark's `database`, or the legacy `target`). */
    readonly schema?: string;
    /** `continuous: true`. */
    readonly continuous?: boolean;
    /** The sample catalog folder (`<root>/samples`; beside databricks.yml for a bundle). */
    readonly samplesDir: string;
    /** The local engine's state folder (`<root>/.pipeline-sql`, or `.pipeline-sql/<key>` beside databricks.yml). */
    readonly stateDir: string;
    /**
     * The folders engine reads may touch (absolute, not yet symlink-resolved: the run preparation
     * resolves them): the pipeline root (the bundle root for a bundle) plus the folders the user
     * allowed (`--allow-read`, `pipelineSql.run.allowedPaths` in a trusted workspace).
     */
    readonly readRoots: readonly string[];
    /** Problems of the project files that concern this pipeline (YAML errors, unknown fields, missing libraries). */
    readonly problems: readonly ProjectProblem[];
}

/**
 * A reader of non-SQL library files (the seam for Python-defined datasets): the model gives it each
 * library file with one of its extensions and keeps what it returns per pipeline and file
 * ({@link ProjectModel.contributionsOf}); what the result means is the reader's business. It must not
 * run the file.
 */
export interface LibraryReader<T = unknown> {
    /** The extensions it reads, lower-case with the dot (`.py`). */
    readonly extensions: readonly string[];
    read(file: string, text: string): T;
}

/** What a reader made of one library file of a pipeline. */
export interface LibraryContribution<T = unknown> {
    readonly file: string;
    readonly result: T;
}

/** What a folder walk found: its pipelines and the problems of project files that belong to none. */
export interface ProjectSet {
    readonly pipelines: readonly PipelineProject[];
    /** Problems of project files not tied to one pipeline (a databricks.yml that is not YAML, an unknown target). */
    readonly problems: readonly ProjectProblem[];
    /** The project files read (spark-pipeline.yml, databricks.yml and its includes): a change to one re-reads the set. */
    readonly projectFiles: readonly string[];
    /** What was looked for, for messages when nothing was found. */
    readonly searched: string;
}

/** Options of a walk that the user sets (CLI flags, editor settings). */
export interface ProjectOptions {
    /** The bundle target to use (`--bundle-target`, `pipelineSql.bundle.target`); else each bundle's default. */
    readonly bundleTarget?: string;
    /** Extra folders engine reads may touch (already filtered by workspace trust). */
    readonly allowedReadPaths?: readonly string[];
}

/** File names of Spark Declarative Pipelines' project file. */
export const PipelineSpecFileNames = ['spark-pipeline.yml', 'spark-pipeline.yaml'] as const;

/** File names of a Databricks Asset Bundle's root file. */
export const BundleFileNames = ['databricks.yml', 'databricks.yaml'] as const;

/** Whether a file name (not a path) is a pipeline project file of either kind. */
export function isProjectFileName(name: string): boolean {
    return (PipelineSpecFileNames as readonly string[]).includes(name) || (BundleFileNames as readonly string[]).includes(name);
}
