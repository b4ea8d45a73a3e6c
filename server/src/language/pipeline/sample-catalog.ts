/**
 * The local sample catalog as the language server sees it: a source table a pipeline reads but does
 * not define is looked up under the pipeline's `samples/` folder, typed by its `CREATE TABLE` in
 * `samples/*.sql` or inferred from its files; `read_files(path, ...)` reads files under the pipeline
 * root the same way. Locating, containment (reads stay inside the pipeline root and the folders the
 * user allowed) and schema inference are the engine's sample-data layer (`engine/src/spark/sample-*`),
 * the same code the engine runs with, so the editor shows the columns a run produces. Results are
 * memoised per build, and file schemas by path, size and modification time. In the language server
 * the sample layer reads a {@link SampleDiskSnapshot} (no synchronous disk reads): a lookup that
 * needed something not read yet gives unknown columns and no problem, is not memoised, and its
 * pipeline is checked again once {@link settle} has read what was missing.
 */
import * as path from 'node:path';
import { WorkspaceCache, type Cancellation } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import {
    declaredTableLocation, describeProblem, displayPath, formatFromName, listSource, locateSampleTable, readFilesLocation, sampleDirs,
    type SampleDirs, type SampleFormat, type SampleProblem,
} from '../../../../engine/src/spark/sample-files.js';
import { sampleSchemas } from '../../../../engine/src/spark/sample-schema.js';
import { nodeAsyncSampleReads, nodeSampleDisk, type AsyncSampleReads, type SampleDisk } from '../../../../engine/src/spark/sample-disk.js';
import type { SampleDiskSnapshot } from './sample-disk-snapshot.js';
import { parseSchema, Types, type StructField } from '../../../../engine/src/spark/spark-types.js';
import * as ast from '../generated/ast.js';
import { dataTypeOf } from '../types/data-types.js';
import type { TableName } from '../references/dataset-names.js';
import { columnsOf, MetadataColumn, relationOf, UnknownRelation, column, type RelationType } from '../types/relation-type.js';
import type { PipelineInfo } from './pipeline-registry.js';

/** A source outside the pipeline and what is known about it. */
export interface SourceSchema {
    readonly relation: RelationType;
    /** Where its data is on disk, if found. */
    readonly location?: string;
    /** The data files read (a folder's files in reading order). */
    readonly files?: readonly string[];
    /** The files are being read (language server): the columns are not known yet, and that is no problem. */
    readonly pending?: boolean;
    /** Why the columns are unknown, if they are (an unreadable file, a read outside the pipeline). */
    readonly problem?: string;
    /** What kind of problem it is (`outside`: refused before reading anything). */
    readonly problemKind?: SampleProblem['kind'];
    /** The columns in the engine's types, for the lowering to hand over in the IR. */
    readonly engineColumns?: readonly StructField[];
}

/** The string value of a constant argument (`'json'`), if it is one. */
export function stringArgument(expression: ast.Expression | ast.TableArgument | undefined): string | undefined {
    if (ast.isStringLiteral(expression)) {
        return expression.value;
    }
    return undefined;
}

/** The path argument of a `read_files` / `cloud_files` call (the first positional argument, or `path =>`). */
export function pathArgument(call: ast.TableFunctionCall): ast.FunctionArgument | undefined {
    return call.args.find(a => !a.name) ?? call.args.find(a => a.name?.toLowerCase() === 'path');
}

/**
 * Sample catalog lookups (a Pipeline SQL service, `pipeline.SampleCatalog`): the schemas of sample
 * tables found by naming convention, of declared catalog tables without a column list, and of
 * `read_files` / `cloud_files` calls.
 */
export class SampleCatalog {

    /** The process's schema cache, shared with the engine. */
    readonly schemas = sampleSchemas;
    private readonly cache: WorkspaceCache<string, SourceSchema | undefined>;
    private snapshot?: SampleDiskSnapshot;
    /** The pipelines whose lookups missed in the snapshot since the last {@link settle}. */
    private readonly waiting = new Set<string>();

    constructor(shared: LangiumSharedServices) {
        this.cache = new WorkspaceCache(shared);
    }

    /** Reads through a snapshot filled asynchronously (the language server) instead of the disk itself. */
    useSnapshot(snapshot: SampleDiskSnapshot): void {
        this.snapshot = snapshot;
        this.cache.clear();
    }

    /** How many lookups have missed in the snapshot so far; undefined without a snapshot (nothing is ever missed). */
    snapshotMisses(): number | undefined {
        return this.snapshot?.missed;
    }

    /** What the editor's lookups read: the snapshot in the language server, else the disk. */
    get disk(): SampleDisk {
        return this.snapshot ?? nodeSampleDisk;
    }

    /** The asynchronous reads of sample files: the snapshot's in the language server, else the disk's. */
    get reads(): AsyncSampleReads {
        return this.snapshot?.reads ?? nodeAsyncSampleReads;
    }

    /**
     * Reads what lookups missed in the snapshot and returns the ids of the pipelines that asked (their
     * documents are checked again); nothing without a snapshot or a miss.
     */
    async settle(cancelToken?: Cancellation.CancellationToken): Promise<string[]> {
        if (!this.snapshot?.hasMisses) {
            return [];
        }
        await this.snapshot.fetch(cancelToken);
        this.cache.clear();
        const ids = [...this.waiting];
        this.waiting.clear();
        return ids;
    }

    /** Where a pipeline's sample reads start and the folders they must stay in; undefined for a file in no pipeline. */
    dirsOf(pipeline: PipelineInfo, disk: SampleDisk = this.disk): SampleDirs | undefined {
        if (!pipeline.rootPath) {
            return undefined;
        }
        // The project model's read roots: the pipeline (or bundle) root and the folders the user allowed
        // (`--allow-read`, `pipelineSql.run.allowedPaths` in a trusted workspace), as a run has them.
        const roots = pipeline.project?.readRoots ?? [pipeline.rootPath];
        return sampleDirs(pipeline.rootPath, { samplesDir: pipeline.samplesPath, readRoots: roots, disk });
    }

    /**
     * A memoised lookup; one that missed in the snapshot gives unknown columns (no problem), is not
     * memoised, and its pipeline waits for {@link settle}.
     */
    private lookup(pipeline: PipelineInfo, key: string, compute: () => SourceSchema | undefined): SourceSchema | undefined {
        if (this.cache.has(key)) {
            return this.cache.get(key);
        }
        const before = this.snapshot?.missed;
        const result = compute();
        if (this.snapshot && this.snapshot.missed !== before) {
            this.waiting.add(pipeline.id);
            return { relation: UnknownRelation, pending: true };
        }
        this.cache.set(key, result);
        return result;
    }

    /** The key part of a pipeline's sample folders (its samples folder and read roots, as configured). */
    private static folders(pipeline: PipelineInfo): string {
        return `${path.resolve(pipeline.samplesPath ?? '')}:${(pipeline.project?.readRoots ?? [pipeline.rootPath ?? '']).join('\0')}`;
    }

    /** A table the pipeline reads by a name it does not define: `samples/a/b.*` or `samples/a/b/` for `a.b` (or its trailing parts). */
    conventionTable(pipeline: PipelineInfo, name: TableName): SourceSchema | undefined {
        if (!pipeline.rootPath || !pipeline.samplesPath || name.parameterized) {
            return undefined;
        }
        return this.lookup(pipeline, `table:${SampleCatalog.folders(pipeline)}:${name.keys.join('.')}`, () => {
            const dirs = this.dirsOf(pipeline)!;
            const location = locateSampleTable(dirs, name.parts);
            return location ? this.readLocation(dirs, location.location, undefined, {}, false) : undefined;
        });
    }

    /**
     * A table declared in `samples/*.sql`: its declared columns, or, without a column list, the
     * columns of its files (`LOCATION 'rel'` under the samples folder, else the naming convention).
     */
    catalogTable(pipeline: PipelineInfo, table: ast.CreateTable, name: TableName): SourceSchema {
        const declared = (table.spec?.elements ?? []).filter(ast.isColumnDef);
        if (declared.length > 0) {
            return { relation: relationOf(declared.map(c => column(c.name, dataTypeOf(c.type) ?? Types.unknown, c)), true, [MetadataColumn]) };
        }
        if (!pipeline.rootPath || !pipeline.samplesPath) {
            return { relation: UnknownRelation };
        }
        const locationClause = table.clauses.find(ast.isLocationClause)?.path;
        const format = formatFromName(table.clauses.find(ast.isUsingClause)?.format);
        const options = Object.fromEntries(table.clauses.filter(ast.isOptionsClause).flatMap(c => c.properties).map(p => [p.key, p.value ?? 'true']));
        const key = `declared:${SampleCatalog.folders(pipeline)}:${name.keys.join('.')}:${locationClause ?? ''}:${format ?? ''}:${JSON.stringify(options)}`;
        return this.lookup(pipeline, key, () => {
            const dirs = this.dirsOf(pipeline)!;
            if (locationClause === undefined && !locateSampleTable(dirs, name.parts)) {
                return undefined;
            }
            return this.readLocation(dirs, declaredTableLocation(dirs, name.parts, locationClause), format, options, false);
        }) ?? { relation: UnknownRelation, problem: `no sample data found for '${name.text}' under '${pipeline.samplesPath}'` };
    }

    /**
     * `read_files(path, format => ..., schema => ...)` or `cloud_files(path, format[, map(...)])`: an
     * explicit schema wins; otherwise the columns of the files at the path (relative to the pipeline
     * root; `/Volumes/...` under the samples folder), plus Auto Loader's `_rescued_data` column.
     * Cloud storage paths are unknown.
     */
    readFiles(pipeline: PipelineInfo, call: ast.TableFunctionCall, functionName: string): SourceSchema {
        const positional = call.args.filter(a => !a.name).map(a => stringArgument(a.value));
        const named = new Map(call.args.filter(a => a.name).map(a => [a.name!.toLowerCase(), stringArgument(a.value)]));
        const filePath = positional[0] ?? named.get('path');
        const formatName = named.get('format') ?? (functionName === 'cloud_files' ? positional[1] : undefined);
        const schema = named.get('schema');
        if (schema !== undefined) {
            const parsed = parseSchema(schema);
            return parsed.ok
                ? { relation: relationOf([...columnsOf(parsed.value, call), column('_rescued_data', Types.string, call)], true, [MetadataColumn]) }
                : { relation: UnknownRelation };
        }
        if ((functionName !== 'read_files' && functionName !== 'cloud_files') || filePath === undefined || !pipeline.rootPath) {
            return { relation: UnknownRelation };
        }
        const format = formatFromName(formatName);
        if (formatName !== undefined && !format) {
            return { relation: UnknownRelation, problem: `the format '${formatName}' cannot be read locally (csv, json, parquet)`, problemKind: 'format' };
        }
        const options = Object.fromEntries([...named.entries()].filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'path'));
        const key = `files:${SampleCatalog.folders(pipeline)}:${pipeline.rootPath}:${filePath}:${format ?? ''}:${JSON.stringify(options)}`;
        return this.lookup(pipeline, key, () => {
            const dirs = this.dirsOf(pipeline)!;
            const location = readFilesLocation(dirs, filePath);
            if (!location.ok) {
                return { relation: UnknownRelation, problem: location.problem.message, problemKind: location.problem.kind };
            }
            return this.readLocation(dirs, location.value, format, options, true);
        }) ?? { relation: UnknownRelation };
    }

    /** Forgets what is cached about files under a path (a sample file changed on disk). */
    invalidate(changedPath: string): void {
        this.schemas.invalidate(changedPath);
        this.snapshot?.forget(changedPath);
        this.cache.clear();
    }

    private readLocation(dirs: SampleDirs, location: string, format: SampleFormat | undefined, options: Record<string, string>, autoLoader: boolean): SourceSchema {
        // Listing checks containment (symlinks resolved) and file kinds before a byte is read.
        const listed = listSource(dirs, location, format);
        if (!listed.ok) {
            return { relation: UnknownRelation, location, problem: describeProblem(dirs, listed.problem), problemKind: listed.problem.kind };
        }
        const files = listed.value.files.map(f => f.path);
        if (listed.value.files.length === 0) {
            return { relation: UnknownRelation, location, files, problem: `'${displayPath(dirs, location)}' holds no data files`, problemKind: 'missing' };
        }
        const result = this.schemas.sourceSchema(dirs, listed.value, options);
        if (!result.ok) {
            return { relation: UnknownRelation, location, files, problem: describeProblem(dirs, result.problem), problemKind: result.problem.kind };
        }
        const columns = columnsOf(result.value.columns);
        if (autoLoader && !columns.some(c => c.name.toLowerCase() === '_rescued_data')) {
            columns.push(column('_rescued_data', Types.string));
        }
        return { relation: relationOf(columns, true, [MetadataColumn]), location, files, engineColumns: result.value.columns };
    }
}
