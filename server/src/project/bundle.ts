/**
 * Databricks Asset Bundles: `databricks.yml` and the files its `include` globs name, read as the
 * Databricks CLI reads them for the pipelines they define:
 *
 * - `resources.pipelines.<key>` with `name`, `catalog`, `schema` (legacy `target`), `configuration`,
 *   `libraries` (`file: {path}`, `glob: {include}`, `notebook: {path}`), `root_path`, `continuous`;
 *   library paths are relative to the file that declares them and stay inside the bundle;
 * - `variables.<name>.default`, overridden by `targets.<t>.variables.<name>`; `${var.name}`,
 *   `${bundle.name}`, `${bundle.target}` substituted in the values the model uses;
 * - the target: the one the user picks (`--bundle-target`, `pipelineSql.bundle.target`), else the
 *   one with `default: true`, else the first; `targets.<t>.resources.pipelines.<key>` overrides the
 *   pipeline's fields (`configuration` key by key, `libraries` appended).
 *
 * Every pipeline is its own namespace (`<bundle root>#<key>`); samples and state live beside
 * databricks.yml (`samples/`, `.pipeline-sql/<key>/`).
 */
import * as path from 'node:path';
import { ownValue } from '../../../engine/src/records.js';
import type { ProjectFileHost } from './file-host.js';
import { compileGlob, GlobError } from './glob.js';
import { listFiles, resolveLibraries } from './library-files.js';
import type { BundleInfo, PipelineProject, ProjectOptions, ProjectProblem } from './project-types.js';
import { configurationOf, libraryEntries } from './spark-pipeline-spec.js';
import { isRecord, YamlFile, type YamlPath } from './yaml-file.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** What reading a bundle gives. */
export interface LoadedBundle {
    readonly bundle: BundleInfo;
    readonly pipelines: PipelineProject[];
    /** Problems not tied to one pipeline (YAML errors, unknown target or variable, include globs). */
    readonly problems: ProjectProblem[];
    /** databricks.yml and every included file. */
    readonly projectFiles: string[];
    /** The files under the bundle root (listed once). */
    readonly files: string[];
}

interface PipelineDefinition {
    readonly key: string;
    readonly yaml: YamlFile;
    readonly at: YamlPath;
    readonly value: Record<string, unknown>;
}

const variablePattern = /\$\{([^}\r\n]*)\}/g;

/** Reads a bundle rooted at the folder of `bundleFile`. */
export async function loadBundle(root: string, bundleFile: string, host: ProjectFileHost, options: ProjectOptions): Promise<LoadedBundle> {
    const main = new YamlFile(bundleFile, await host.readFile(bundleFile) ?? '');
    const problems: ProjectProblem[] = [...main.problems];
    const doc = isRecord(main.value) ? main.value : {};
    const files = await listFiles(root, host);

    // The included resource files, in the order of the include list (each glob's files sorted).
    const yamls: YamlFile[] = [main];
    const includes = Array.isArray(doc.include) ? doc.include : typeof doc.include === 'string' ? [doc.include] : [];
    const seen = new Set<string>([path.relative(root, bundleFile).split(path.sep).join('/')]);
    for (const [index, include] of includes.entries()) {
        if (typeof include !== 'string') {
            continue;
        }
        let matched: string[];
        try {
            const glob = compileGlob(include);
            matched = files.filter(f => /\.ya?ml$/i.test(f) && glob.matches(f) && !seen.has(f));
        } catch (error) {
            if (!(error instanceof GlobError)) {
                throw error;
            }
            problems.push(main.problem(['include', index], ErrorClass.invalidGlobPattern, error.message));
            continue;
        }
        if (matched.length === 0 && !/[*?[{]/.test(include)) {
            problems.push(main.problem(['include', index], ErrorClass.libraryNotFound, `The included file '${include}' does not exist.`));
        }
        for (const file of matched) {
            seen.add(file);
            const absolute = path.join(root, ...file.split('/'));
            const yaml = new YamlFile(absolute, await host.readFile(absolute) ?? '');
            problems.push(...yaml.problems);
            yamls.push(yaml);
        }
    }

    // Variables, targets and pipeline definitions from every file (the first definition of a name wins).
    const variables = new Map<string, { value: unknown; yaml: YamlFile; at: YamlPath }>();
    const targets = new Map<string, { value: Record<string, unknown>; yaml: YamlFile; at: YamlPath }[]>();
    const definitions = new Map<string, PipelineDefinition>();
    for (const yaml of yamls) {
        const value = isRecord(yaml.value) ? yaml.value : {};
        if (isRecord(value.variables)) {
            for (const [name, variable] of Object.entries(value.variables)) {
                if (!variables.has(name)) {
                    variables.set(name, { value: isRecord(variable) ? variable.default : variable, yaml, at: ['variables', name] });
                }
            }
        }
        if (isRecord(value.targets)) {
            for (const [name, target] of Object.entries(value.targets)) {
                const list = targets.get(name) ?? [];
                list.push({ value: isRecord(target) ? target : {}, yaml, at: ['targets', name] });
                targets.set(name, list);
            }
        }
        const pipelines = isRecord(value.resources) ? value.resources.pipelines : undefined;
        if (isRecord(pipelines)) {
            for (const [key, definition] of Object.entries(pipelines)) {
                if (definitions.has(key)) {
                    problems.push(yaml.problem(['resources', 'pipelines', key], ErrorClass.duplicatePipeline,
                        `The pipeline '${key}' is also defined in ${path.relative(root, definitions.get(key)!.yaml.file)}; a key names one pipeline.`, { key: true }));
                } else if (isRecord(definition)) {
                    definitions.set(key, { key, yaml, at: ['resources', 'pipelines', key], value: definition });
                }
            }
        }
    }

    // The target.
    const targetNames = [...targets.keys()];
    let target: string | undefined;
    if (options.bundleTarget !== undefined) {
        if (targets.has(options.bundleTarget)) {
            target = options.bundleTarget;
        } else {
            problems.push(main.problem(targetNames.length > 0 ? ['targets'] : [], ErrorClass.unknownBundleTarget,
                `The bundle has no target '${options.bundleTarget}'${targetNames.length > 0 ? `; its targets are ${targetNames.join(', ')}` : ''}.`, { key: true }));
        }
    }
    target ??= targetNames.find(name => targets.get(name)!.some(t => t.value.default === true)) ?? targetNames[0];
    const bundleName = isRecord(doc.bundle) && typeof doc.bundle.name === 'string' ? doc.bundle.name : undefined;
    const bundle: BundleInfo = { root, file: bundleFile, name: bundleName, target, targets: targetNames };

    // Variable values for the target, then substitution.
    const overrides = new Map<string, { value: unknown; yaml: YamlFile; at: YamlPath }>();
    for (const t of target ? targets.get(target) ?? [] : []) {
        if (isRecord(t.value.variables)) {
            for (const [name, v] of Object.entries(t.value.variables)) {
                overrides.set(name, { value: isRecord(v) ? v.default : v, yaml: t.yaml, at: [...t.at, 'variables', name] });
            }
        }
    }
    const reported = new Set<string>();
    const substitute = (text: string, yaml: YamlFile, at: YamlPath, depth = 0): string => text.replace(variablePattern, (whole: string, reference: string) => {
        const ref = reference.trim();
        if (ref === 'bundle.name') {
            return bundleName ?? whole;
        }
        if (ref === 'bundle.target' || ref === 'bundle.environment') {
            return target ?? 'default';
        }
        const variable = /^var\.([\w-]+)$/.exec(ref)?.[1];
        if (variable === undefined) {
            // ${workspace.*}, ${resources.*}: known only at deployment; the text stays as written.
            return whole;
        }
        const source = overrides.get(variable) ?? variables.get(variable);
        const problemKey = `${yaml.file}:${at.join('.')}:${variable}`;
        if (!variables.has(variable) || source?.value === undefined || source.value === null) {
            if (!reported.has(problemKey)) {
                reported.add(problemKey);
                problems.push(yaml.problem(at, ErrorClass.unknownBundleVariable, !variables.has(variable)
                    ? `Reference does not exist: \${var.${variable}} (the bundle declares no variable '${variable}').`
                    : `No value assigned to required variable '${variable}': give it a default or a value in the target '${target ?? 'default'}'.`));
            }
            return whole;
        }
        const value = typeof source.value === 'string' ? source.value : JSON.stringify(source.value);
        return depth < 10 ? substitute(value, source.yaml, source.at, depth + 1) : value;
    });

    const pipelines: PipelineProject[] = [];
    for (const definition of definitions.values()) {
        // Problems found while reading a pipeline's own fields are that pipeline's (they stop its run).
        const before = problems.length;
        const pipeline = pipelineOf(definition, { root, bundle, files, target, targets, options, substitute });
        pipelines.push({ ...pipeline, problems: [...problems.splice(before), ...pipeline.problems] });
    }
    return { bundle, pipelines, problems, projectFiles: yamls.map(y => y.file), files };
}

interface PipelineContext {
    readonly root: string;
    readonly bundle: BundleInfo;
    readonly files: readonly string[];
    readonly target: string | undefined;
    readonly targets: ReadonlyMap<string, ReadonlyArray<{ value: Record<string, unknown>; yaml: YamlFile; at: YamlPath }>>;
    readonly options: ProjectOptions;
    readonly substitute: (text: string, yaml: YamlFile, at: YamlPath) => string;
}

function pipelineOf(definition: PipelineDefinition, ctx: PipelineContext): PipelineProject {
    const { key, yaml, at, value } = definition;
    const problems: ProjectProblem[] = [];
    const baseDir = path.dirname(yaml.file);
    const textOf = (v: unknown, where: YamlFile, whereAt: YamlPath): string | undefined =>
        typeof v === 'string' ? ctx.substitute(v, where, whereAt) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    const text = (field: string): string | undefined => textOf(ownValue(value, field), yaml, [...at, field]);
    let name = text('name');
    let catalog = text('catalog');
    let schema = text('schema') ?? text('target');
    let rootPath = text('root_path');
    let continuous = value.continuous === true;
    const configuration = configurationOf(value.configuration, (v, k) => ctx.substitute(v, yaml, [...at, 'configuration', k]));
    const entries = libraryEntries(value.libraries, baseDir, [...at, 'libraries'], (v, where) => ctx.substitute(v, yaml, where))
        .map(e => ({ ...e, yaml }));
    let rootPathDir = baseDir;
    // The target's overrides of this pipeline, in the files that declare them.
    for (const t of ctx.target ? ctx.targets.get(ctx.target) ?? [] : []) {
        const resources = isRecord(t.value.resources) ? t.value.resources.pipelines : undefined;
        const override = isRecord(resources) ? ownValue(resources, key) : undefined;
        if (!isRecord(override)) {
            continue;
        }
        const oat: YamlPath = [...t.at, 'resources', 'pipelines', key];
        name = textOf(override.name, t.yaml, [...oat, 'name']) ?? name;
        catalog = textOf(override.catalog, t.yaml, [...oat, 'catalog']) ?? catalog;
        schema = textOf(override.schema, t.yaml, [...oat, 'schema']) ?? textOf(override.target, t.yaml, [...oat, 'target']) ?? schema;
        const overriddenRoot = textOf(override.root_path, t.yaml, [...oat, 'root_path']);
        if (overriddenRoot !== undefined) {
            rootPath = overriddenRoot;
            rootPathDir = path.dirname(t.yaml.file);
        }
        if (typeof override.continuous === 'boolean') {
            continuous = override.continuous;
        }
        Object.assign(configuration, configurationOf(override.configuration, (v, k) => ctx.substitute(v, t.yaml, [...oat, 'configuration', k])));
        entries.push(...libraryEntries(override.libraries, path.dirname(t.yaml.file), [...oat, 'libraries'], (v, where) => ctx.substitute(v, t.yaml, where))
            .map(e => ({ ...e, yaml: t.yaml })));
    }
    const resolved = resolveLibraries(entries, ctx.root, ctx.files);
    resolved.forEach((r, i) => {
        if (r.problem) {
            problems.push(entries[i].yaml.problem(entries[i].at, r.problem.code, r.problem.message, { severity: r.problem.severity }));
        }
    });
    const matched = [...new Set(resolved.flatMap(r => r.declaration.matched))];
    const samplesDir = path.join(ctx.root, 'samples');
    return {
        id: `${ctx.root}#${key}`,
        layout: 'bundle',
        key,
        name: name ?? key,
        root: ctx.root,
        sourceRoot: rootPath !== undefined && !rootPath.startsWith('/') ? path.resolve(rootPathDir, rootPath) : undefined,
        specFile: yaml.file,
        specLine: yaml.lineOf(at, true),
        bundle: ctx.bundle,
        sources: matched.filter(f => f.toLowerCase().endsWith('.sql') && path.dirname(f) !== samplesDir).sort(),
        pythonFiles: matched.filter(f => f.toLowerCase().endsWith('.py')).sort(),
        libraries: resolved.map(r => r.declaration),
        configuration,
        catalog,
        schema,
        continuous: continuous ? true : undefined,
        samplesDir,
        stateDir: path.join(ctx.root, '.pipeline-sql', key),
        readRoots: [ctx.root, ...(ctx.options.allowedReadPaths ?? [])],
        problems,
    };
}
