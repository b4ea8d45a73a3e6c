/**
 * Which `.sql` files belong to a pipeline. Shared by the language server (to load a pipeline's
 * files) and the VS Code client (to open pipeline files in the `pipeline-sql` mode instead of
 * plain `sql`). Pure: file access goes through a small host interface, paths are `/`-separated.
 */
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
    /** The default catalog of the pipeline's datasets (`catalog`). */
    catalog?: string;
    /** The default schema of the pipeline's datasets (`schema`, Spark's `database`, or the legacy `target`). */
    schema?: string;
    /** Pipeline parameters (`configuration`), the values of `${name}` in the SQL sources. */
    configuration?: Record<string, string>;
    /** Runs continuously instead of triggered (`continuous: true`). */
    continuous?: boolean;
}

/**
 * Reads the `libraries` of a `spark-pipeline.yml`. Accepts Spark's `glob: {include: ...}` entries and the
 * Databricks bundle forms `file: {path}` and `notebook: {path}`. Unknown entries are ignored. Also reads
 * the default `catalog` and `schema` (`database`, `target`), the `configuration` parameters and `continuous`.
 * Throws the YAML parser's error (which names line and column) when the text is not YAML.
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
    if (typeof doc.catalog === 'string') {
        spec.catalog = doc.catalog;
    }
    const schema = doc.schema ?? doc.database ?? doc.target;
    if (typeof schema === 'string') {
        spec.schema = schema;
    }
    if (isRecord(doc.configuration)) {
        spec.configuration = Object.fromEntries(Object.entries(doc.configuration)
            .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
            .map(([k, v]) => [k, String(v)]));
    }
    if (doc.continuous === true) {
        spec.continuous = true;
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

/**
 * Whether a file, given by its `/`-separated path relative to the pipeline root, is one of the
 * pipeline's sources: it matches one of the spec's include globs, or, when the spec names none,
 * it is any `.sql` file outside the non-source folders (`samples/`, `.pipeline-sql/`, ...).
 */
export function isPipelineLibrary(spec: PipelineSpec | undefined, relativePath: string): boolean {
    const rel = relativePath.replace(/\\/g, '/').replace(/^\.\//, '');
    if (rel.startsWith('../') || rel === '..' || path.posix.isAbsolute(rel)) {
        return false;
    }
    if (!spec || spec.includes.length === 0) {
        const folders = rel.split('/').slice(0, -1);
        return rel.toLowerCase().endsWith('.sql') && !folders.some(f => (NonSourceFolders as readonly string[]).includes(f));
    }
    return spec.includes.some(glob => globToRegExp(glob).test(rel));
}

/**
 * The statements that only pipeline SQL has, as patterns over text whose comments, strings and
 * quoted names are blanked out. Each entry names the statement for messages.
 */
const PipelineStatementPatterns: ReadonlyArray<{ name: string; pattern: RegExp }> = [
    { name: 'CREATE STREAMING TABLE', pattern: /\bCREATE\s+(?:OR\s+REFRESH\s+)?(?:(?:PRIVATE|TEMPORARY)\s+)?STREAMING\s+(?:LIVE\s+)?TABLE\b/i },
    { name: 'CREATE MATERIALIZED VIEW', pattern: /\bMATERIALIZED\s+VIEW\b/i },
    { name: 'CREATE FLOW', pattern: /\bCREATE\s+(?:OR\s+REFRESH\s+)?FLOW\b/i },
    { name: 'AUTO CDC', pattern: /\bAUTO\s+CDC\b/i },
    { name: 'APPLY CHANGES INTO', pattern: /\bAPPLY\s+CHANGES\s+INTO\b/i },
    { name: 'CREATE LIVE TABLE', pattern: /\bCREATE\s+(?:OR\s+REFRESH\s+)?(?:(?:TEMPORARY|INCREMENTAL|STREAMING)\s+)?LIVE\s+(?:TABLE|VIEW)\b/i },
];

/**
 * Names the first pipeline-only statement in a SQL text (`CREATE STREAMING TABLE`, `CREATE FLOW`,
 * `MATERIALIZED VIEW`, `AUTO CDC`, `APPLY CHANGES INTO`, `CREATE LIVE TABLE/VIEW`), or returns
 * undefined when there is none. Words inside comments, strings and back-quoted names do not count.
 */
export function findPipelineStatement(text: string): string | undefined {
    const code = blankCommentsAndStrings(text);
    let first: { name: string; index: number } | undefined;
    for (const { name, pattern } of PipelineStatementPatterns) {
        const match = pattern.exec(code);
        if (match && (!first || match.index < first.index)) {
            first = { name, index: match.index };
        }
    }
    return first?.name;
}

/**
 * Replaces comments (`--`, `/* *\/`), string literals ('…', "…", with backslash escapes) and
 * back-quoted identifiers by spaces, keeping the text's length, so that keyword patterns only see code.
 */
export function blankCommentsAndStrings(text: string): string {
    const out: string[] = [];
    let i = 0;
    const n = text.length;
    while (i < n) {
        const c = text[i];
        const next = text[i + 1];
        let end = -1;
        if (c === '-' && next === '-') {
            end = text.indexOf('\n', i);
            end = end < 0 ? n : end;
        } else if (c === '/' && next === '*') {
            end = text.indexOf('*/', i + 2);
            end = end < 0 ? n : end + 2;
        } else if (c === '\'' || c === '"' || c === '`') {
            end = i + 1;
            while (end < n && text[end] !== c) {
                // Spark strings take backslash escapes; back-quoted names double the quote instead.
                end += c !== '`' && text[end] === '\\' ? 2 : 1;
            }
            end = Math.min(end + 1, n);
        }
        if (end < 0) {
            out.push(c);
            i++;
        } else {
            out.push(' '.repeat(end - i));
            i = end;
        }
    }
    return out.join('');
}

/** Read access to the file system the decision needs; the client backs it with `vscode.workspace.fs`. */
export interface PipelineFileHost {
    /** The text of a file, or undefined when it does not exist or cannot be read. */
    readFile(filePath: string): Promise<string | undefined>;
}

/** The pipeline folder nearest to a file: where its project file is and what it says. */
export interface EnclosingPipeline {
    root: string;
    specFile: string;
    /** Undefined when the project file is not valid YAML; `specError` then says why. */
    spec?: PipelineSpec;
    specError?: string;
}

/** Why a `.sql` file is, or is not, pipeline SQL. */
export type PipelineFileDecision =
    | { isPipeline: true; reason: 'library'; pipeline: EnclosingPipeline }
    | { isPipeline: true; reason: 'statement'; statement: string; pipeline?: EnclosingPipeline }
    | { isPipeline: false; pipeline?: EnclosingPipeline };

/**
 * Finds the nearest folder at or above a file's folder that holds a `spark-pipeline.yml` or
 * `spark-pipeline.yaml`, and reads it. Paths are `/`-separated (a URI path on the client).
 */
export async function findEnclosingPipeline(filePath: string, host: PipelineFileHost): Promise<EnclosingPipeline | undefined> {
    let dir = path.posix.dirname(filePath);
    for (;;) {
        for (const name of PipelineSpecFileNames) {
            const specFile = path.posix.join(dir, name);
            const text = await host.readFile(specFile);
            if (text !== undefined) {
                try {
                    return { root: dir, specFile, spec: parsePipelineSpec(text) };
                } catch (error) {
                    return { root: dir, specFile, specError: error instanceof Error ? error.message : String(error) };
                }
            }
        }
        const parent = path.posix.dirname(dir);
        if (parent === dir) {
            return undefined;
        }
        dir = parent;
    }
}

/**
 * Decides whether a `.sql` file is pipeline SQL: it belongs to the pipeline whose project file is
 * nearest above it (matching its `libraries` globs; an unreadable project file counts as "every
 * `.sql` file"), or its text contains a pipeline-only statement.
 */
export async function decidePipelineFile(filePath: string, text: string, host: PipelineFileHost): Promise<PipelineFileDecision> {
    const pipeline = await findEnclosingPipeline(filePath, host);
    if (pipeline && isPipelineLibrary(pipeline.spec, path.posix.relative(pipeline.root, filePath))) {
        return { isPipeline: true, reason: 'library', pipeline };
    }
    const statement = findPipelineStatement(text);
    if (statement) {
        return { isPipeline: true, reason: 'statement', statement, pipeline };
    }
    return { isPipeline: false, pipeline };
}

/** A one-line explanation of a decision, for the language status item. */
export function describePipelineDecision(decision: PipelineFileDecision): string {
    const specName = (p: EnclosingPipeline): string => path.posix.basename(p.specFile);
    if (decision.isPipeline && decision.reason === 'library') {
        const p = decision.pipeline;
        if (p.specError) {
            return `In the folder of ${specName(p)}, which could not be read (${firstLine(p.specError)}).`;
        }
        return `Listed in the libraries of ${specName(p)}${p.spec?.name ? ` (pipeline '${p.spec.name}')` : ''}.`;
    }
    if (decision.isPipeline) {
        return `Contains a pipeline statement (${decision.statement}).`;
    }
    return decision.pipeline
        ? `Not listed in the libraries of ${specName(decision.pipeline)} and has no pipeline statement.`
        : 'Not in a pipeline folder and has no pipeline statement.';
}

function firstLine(text: string): string {
    // YAML errors end their first line with ':' before a code excerpt.
    return text.split(/\r?\n/, 1)[0].replace(/:\s*$/, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
