/**
 * A pipeline described by Spark Declarative Pipelines' project file, `spark-pipeline.yml`: its
 * libraries, parameters and namespace, and, for the `spark-4.x` targets, the checks `spark-pipelines`
 * makes when it loads the file (allowed fields, required `name` and `storage`, the library forms it
 * accepts), placed on the YAML lines. Databricks reads the same file more leniently (`file:` and
 * `notebook:` libraries, the legacy `target`, `continuous`).
 */
import * as path from 'node:path';
import { setOwn } from '../../../engine/src/records.js';
import type { ProjectFileHost } from './file-host.js';
import { libraryKind, listFiles, resolveLibraries, type LibraryEntry } from './library-files.js';
import type { PipelineProject, ProjectOptions, ProjectProblem } from './project-types.js';
import { isRecord, YamlFile, type YamlPath } from './yaml-file.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** The fields `spark-pipelines` accepts in spark-pipeline.yml. */
const SparkAllowedFields = ['name', 'storage', 'catalog', 'database', 'schema', 'configuration', 'libraries'];
/** The fields `spark-pipelines` requires. */
const SparkRequiredFields = ['name', 'storage'];

/** A problem reported only when checking against Apache Spark (the `spark-4.x` targets). */
export interface TargetedProblem extends ProjectProblem {
    readonly onlyFor?: 'spark';
}

/** The `libraries` entries of a pipeline definition (spark-pipeline.yml or a bundle resource), with their YAML paths. */
export function libraryEntries(libraries: unknown, baseDir: string, at: YamlPath,
    substitute: (text: string, where: YamlPath) => string = text => text): Array<LibraryEntry & { at: YamlPath }> {
    const entries: Array<LibraryEntry & { at: YamlPath }> = [];
    if (!Array.isArray(libraries)) {
        return entries;
    }
    libraries.forEach((library, index) => {
        if (!isRecord(library)) {
            return;
        }
        for (const kind of ['glob', 'file', 'notebook'] as const) {
            const entry = library[kind];
            const field = kind === 'glob' ? 'include' : 'path';
            const value = isRecord(entry) ? entry[field] : entry;
            const where: YamlPath = isRecord(entry) ? [...at, index, kind, field] : [...at, index, kind];
            const patterns = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
            for (const pattern of patterns) {
                entries.push({ kind, pattern: substitute(pattern, where), baseDir, at: where });
            }
        }
    });
    return entries;
}

/** Configuration values as strings (YAML numbers and booleans as written). */
export function configurationOf(value: unknown, substitute: (text: string, key: string) => string = text => text): Record<string, string> {
    const result: Record<string, string> = {};
    if (isRecord(value)) {
        for (const [key, v] of Object.entries(value)) {
            if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
                setOwn(result, key, substitute(String(v), key));
            }
        }
    }
    return result;
}

/** Reads the pipeline of a folder holding spark-pipeline.yml. */
export async function loadSparkPipeline(root: string, specFile: string, host: ProjectFileHost, options: ProjectOptions): Promise<{ pipeline: PipelineProject; files: string[] }> {
    const text = await host.readFile(specFile) ?? '';
    const yaml = new YamlFile(specFile, text);
    const problems: TargetedProblem[] = [...yaml.problems];
    const doc = isRecord(yaml.value) ? yaml.value : {};
    if (!yaml.invalid && !isRecord(yaml.value) && yaml.value !== undefined && yaml.value !== null) {
        problems.push(yaml.problem([], ErrorClass.invalidProjectFile, `${path.basename(specFile)} must be a mapping of fields (name, libraries, ...).`));
    }
    if (!yaml.invalid) {
        problems.push(...sparkChecks(yaml, doc));
    }
    // A file that is not YAML has no trustworthy libraries: its folder's .sql files count, as without libraries.
    const entries = yaml.invalid ? [] : libraryEntries(doc.libraries ?? doc.definitions, root, [doc.libraries !== undefined ? 'libraries' : 'definitions']);
    const files = await listFiles(root, host);
    const resolved = resolveLibraries(entries, root, files);
    resolved.forEach((r, i) => {
        if (r.problem) {
            problems.push(yaml.problem(entries[i].at, r.problem.code, r.problem.message, { severity: r.problem.severity }));
        }
    });
    // A file without libraries (or not readable as YAML) takes every .sql and .py file of its folder (outside samples/).
    const noLibraries = entries.length === 0;
    const matched = noLibraries
        ? files.filter(f => libraryKind(f) !== undefined && !f.split('/').slice(0, -1).includes('samples')).map(f => path.join(root, ...f.split('/')))
        : [...new Set(resolved.flatMap(r => r.declaration.matched))];
    const schema = [doc.schema, doc.database, doc.target].find((v): v is string => typeof v === 'string');
    const pipeline: PipelineProject = {
        id: root,
        layout: 'spark-pipeline',
        name: typeof doc.name === 'string' ? doc.name : path.basename(root),
        root,
        specFile,
        sources: matched.filter(f => libraryKind(f) === 'sql').sort(),
        pythonFiles: matched.filter(f => libraryKind(f) === 'python').sort(),
        libraries: resolved.map(r => r.declaration),
        configuration: configurationOf(doc.configuration),
        catalog: typeof doc.catalog === 'string' ? doc.catalog : undefined,
        schema,
        continuous: doc.continuous === true ? true : undefined,
        samplesDir: path.join(root, 'samples'),
        stateDir: path.join(root, '.pipeline-sql'),
        readRoots: [root, ...(options.allowedReadPaths ?? [])],
        problems,
    };
    return { pipeline, files };
}

/** What `spark-pipelines` refuses in the file (reported under the spark-4.x targets only). */
function sparkChecks(yaml: YamlFile, doc: Record<string, unknown>): TargetedProblem[] {
    const problems: TargetedProblem[] = [];
    const spark = (p: ProjectProblem): TargetedProblem => ({ ...p, onlyFor: 'spark' });
    for (const key of Object.keys(doc)) {
        if (!SparkAllowedFields.includes(key)) {
            problems.push(spark(yaml.problem([key], ErrorClass.specUnexpectedField,
                `Pipeline spec field '${key}' is unexpected: spark-pipelines accepts ${SparkAllowedFields.join(', ')}${key === 'target' ? ' (the schema is `schema:` or `database:`)' : ''}.`, { key: true })));
        }
    }
    for (const key of SparkRequiredFields) {
        if (!Object.hasOwn(doc, key)) {
            problems.push(spark(yaml.problem([], ErrorClass.specMissingRequiredField,
                `Pipeline spec missing required field '${key}'${key === 'storage' ? ' (the folder for checkpoints and metadata, e.g. storage: storage)' : ''}.`)));
        }
    }
    if (doc.configuration !== undefined) {
        if (!isRecord(doc.configuration)) {
            problems.push(spark(yaml.problem(['configuration'], ErrorClass.specFieldNotDict, 'Pipeline spec field \'configuration\' should be a mapping.')));
        } else {
            for (const [key, value] of Object.entries(doc.configuration)) {
                if (typeof value !== 'string') {
                    problems.push(spark(yaml.problem(['configuration', key], ErrorClass.specDictValueNotString,
                        `The value of '${key}' in 'configuration' must be a string for spark-pipelines; quote it ('${String(value)}').`)));
                }
            }
        }
    }
    if (Array.isArray(doc.libraries)) {
        doc.libraries.forEach((library, index) => {
            const include = isRecord(library) && isRecord(library.glob) ? library.glob.include : undefined;
            if (typeof include !== 'string') {
                problems.push(spark(yaml.problem(['libraries', index], ErrorClass.specUnexpectedField,
                    'spark-pipelines reads only libraries of the form `- glob: {include: <path or folder/**>}`.')));
            } else if (/[*?[{]/.test(include) && !(include.endsWith('/**') && !/[*?[{]/.test(include.slice(0, -3)))) {
                problems.push(spark(yaml.problem(['libraries', index, 'glob', 'include'], ErrorClass.invalidGlobPattern,
                    `spark-pipelines accepts only a file path or a folder ending in '/**' here, not '${include}' (write '${include.split('/').filter(s => !/[*?[{]/.test(s)).join('/') || '.'}/**').`)));
            }
        });
    }
    return problems;
}
