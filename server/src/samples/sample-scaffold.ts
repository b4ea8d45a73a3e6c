/**
 * Scaffolding sample data (issue 16 item 2): from a pipeline's source requirements to the files to
 * create — a data file (or two, for a change feed) per source without sample data, and the
 * `CREATE TABLE ... USING ... LOCATION` declarations appended to `samples/catalog.sql`. Nothing that
 * exists is ever overwritten: a source whose location exists is skipped and reported. The plan is
 * plain data, so the CLI writes it with `writeScaffold` and the editor can turn it into a workspace
 * edit. Planning reads through the sample layer's disk (`SampleDirs.disk`), writing with `fs.promises`:
 * no synchronous disk access, so the language server can run both.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { writeParquetFile } from '../../../engine/src/db/parquet-writer.js';
import type { Column } from '../../../engine/src/sql/duckdb-types.js';
import type { SampleDisk } from '../../../engine/src/spark/sample-disk.js';
import { sampleDirs, type SampleDirs } from '../../../engine/src/spark/sample-files.js';
import { readSettled } from '../language/pipeline/sample-disk-snapshot.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import type { PipelineProject } from '../project/project-types.js';
import { declarationText, fileRows, fileText, generateSource, type GeneratedSource, type GeneratorOptions, type SampleValue } from './sample-generator.js';
import { sourceRequirements, type SkippedSource, type SourceRequirements } from './source-requirements.js';

/** One file to create: a text file, or a Parquet file of typed rows. */
export type PlannedFile = {
    /** Absolute path. */
    readonly path: string;
    readonly text: string;
} | {
    readonly path: string;
    /** The columns and rows of a Parquet file (written by the engine's DuckDB). */
    readonly parquet: { readonly columns: readonly Column[]; readonly rows: readonly (readonly SampleValue[])[] };
};

/** What scaffolding will do. */
export interface ScaffoldPlan {
    /** New files (data files; `samples/catalog.sql` when it does not exist yet). */
    readonly files: PlannedFile[];
    /** Text appended to an existing `samples/catalog.sql`. */
    readonly append?: { readonly path: string; readonly text: string };
    /** What each source gets, for the report. */
    readonly generated: GeneratedSource[];
    /** Sources left alone, and why. */
    readonly skipped: SkippedSource[];
    /** Sources that have sample data already. */
    readonly kept: readonly string[];
}

/** The name of the declarations file in the samples folder. */
export const CatalogFileName = 'catalog.sql';

/**
 * Plans the files for these requirements; `dirs` gives the samples folder, the folders writes must stay
 * in, and the disk that tells what exists.
 */
export function planScaffold(requirements: SourceRequirements, dirs: SampleDirs, options: GeneratorOptions = {}): ScaffoldPlan {
    const files: PlannedFile[] = [];
    const generated: GeneratedSource[] = [];
    const skipped: SkippedSource[] = [...requirements.skipped];
    const declarations: string[] = [];
    for (const source of requirements.sources) {
        if (!insideRoot(dirs.disk, dirs.rootDir, source.location)) {
            skipped.push({ displayName: source.displayName, reason: `'${source.location}' is outside the pipeline folder '${dirs.rootDir}'; samples are written inside it only` });
            continue;
        }
        const existing = dirs.disk.stat(source.location);
        if (existing && (source.isFile || existing.kind !== 'directory' || dirs.disk.readdir(source.location).length > 0)) {
            skipped.push({ displayName: source.displayName, reason: `'${path.relative(dirs.rootDir, source.location)}' exists; it is never overwritten` });
            continue;
        }
        const result = generateSource(source, options);
        generated.push(result);
        for (const file of result.files) {
            const target = file.name === '' ? source.location : path.join(source.location, file.name);
            files.push(result.format === 'parquet'
                ? { path: target, parquet: { columns: result.columns.map(c => ({ name: c.name, type: c.type })), rows: fileRows(result, file) } }
                : { path: target, text: fileText(result, file) });
        }
        if (source.kind === 'table' && !source.declaration) {
            declarations.push(declarationText(result, path.relative(dirs.samplesDir, source.location)));
        }
    }
    let append: ScaffoldPlan['append'];
    if (declarations.length > 0) {
        const catalog = path.join(dirs.samplesDir, CatalogFileName);
        const header = '-- Sample tables created by `pipeline-sql samples` (Pipeline SQL: Create Sample Data); edit freely.\n';
        const current = readText(dirs.disk, catalog);
        if (current !== undefined) {
            append = { path: catalog, text: `${current.endsWith('\n') || current === '' ? '' : '\n'}\n${header}${declarations.join('\n')}` };
        } else {
            files.push({ path: catalog, text: `${header}${declarations.join('\n')}` });
        }
    }
    return { files, ...(append ? { append } : {}), generated, skipped, kept: requirements.present };
}

/**
 * Whether a path (which may not exist yet) lies inside the root once symlinks are resolved: its
 * nearest existing ancestor, resolved, is under the resolved root.
 */
export function insideRoot(disk: SampleDisk, root: string, location: string): boolean {
    let realRoot: string;
    try {
        realRoot = disk.realpath(root);
    } catch {
        return false;
    }
    let existing = path.resolve(location);
    const rest: string[] = [];
    while (disk.stat(existing) === undefined) {
        const parent = path.dirname(existing);
        if (parent === existing) {
            return false;
        }
        rest.unshift(path.basename(existing));
        existing = parent;
    }
    let real: string;
    try {
        real = path.join(disk.realpath(existing), ...rest);
    } catch {
        return false;
    }
    return real === realRoot || real.startsWith(realRoot + path.sep);
}

/** The text of a file through the sample layer's disk; undefined when there is no such file. */
export function readText(disk: SampleDisk, file: string): string | undefined {
    const stat = disk.stat(file);
    if (stat?.kind !== 'file') {
        return undefined;
    }
    const real = disk.realpath(file);
    return disk.read(real, 0, stat.size).toString('utf8');
}

/**
 * Writes a plan: new files are created exclusively (an existing file is never replaced), the catalog is
 * appended to. Parquet files are written by DuckDB, sandboxed to the file's folder.
 */
export async function writeScaffold(plan: ScaffoldPlan): Promise<{ written: string[]; skipped: SkippedSource[] }> {
    const written: string[] = [];
    const skipped: SkippedSource[] = [];
    for (const file of plan.files) {
        await fs.promises.mkdir(path.dirname(file.path), { recursive: true });
        try {
            if ('parquet' in file) {
                await writeParquetFile(file.path, file.parquet.columns, file.parquet.rows);
            } else {
                await fs.promises.writeFile(file.path, file.text, { flag: 'wx' });
            }
            written.push(file.path);
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
                throw error;
            }
            skipped.push({ displayName: file.path, reason: 'it appeared while scaffolding; it is never overwritten' });
        }
    }
    if (plan.append) {
        await fs.promises.appendFile(plan.append.path, plan.append.text);
        written.push(plan.append.path);
    }
    return { written, skipped };
}

/**
 * The scaffold plan of one pipeline of the project model: its SQL documents (built by `documentsFor`,
 * as the run preparation gets them) give the requirements; reads stay in its read roots, writes in its
 * root. What exists on disk is read asynchronously (the sample catalog's reads, settled afresh).
 */
export async function planPipelineSamples(services: PipelineSqlServices, pipeline: PipelineProject,
    documentsFor: (files: readonly string[]) => Promise<LangiumDocument[]>, options: GeneratorOptions = {}): Promise<ScaffoldPlan> {
    const catalog = services.shared.pipeline.Project.catalogFilesOf(pipeline);
    const documents = await documentsFor([...pipeline.sources, ...catalog]);
    const sources = new Set(pipeline.sources);
    const info = services.pipeline.Registry.infoOf(pipeline);
    const own = documents.filter(d => sources.has(d.uri.fsPath));
    return readSettled(services.pipeline.SampleCatalog.reads, disk => {
        const requirements = sourceRequirements(services, info, own, disk);
        const dirs = sampleDirs(pipeline.root, { samplesDir: pipeline.samplesDir, readRoots: [...pipeline.readRoots], disk });
        return planScaffold(requirements, dirs, options);
    });
}
