/**
 * The local sample catalog as the language server sees it: a source table a pipeline reads but does
 * not define is looked up under the pipeline's `samples/` folder, typed by its `CREATE TABLE` in
 * `samples/*.sql` or inferred from its files; `read_files(path, ...)` reads files under the pipeline
 * root the same way. Results are memoised per build, and file schemas by path and modification time.
 */
import * as path from 'node:path';
import { WorkspaceCache } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import { parseSchema, parseType, Types, type TypeDescriptor } from '../builtins/spark-types.js';
import * as ast from '../generated/ast.js';
import type { TableName } from '../references/dataset-names.js';
import { columnsOf, MetadataColumn, relationOf, UnknownRelation, column, type RelationType } from '../types/relation-type.js';
import type { PipelineInfo } from './pipeline-registry.js';
import { formatFromName, formatOfFile, locateSampleTable, SampleFileSchemas, type SampleLocation } from './sample-files.js';

/** A source outside the pipeline and what is known about it. */
export interface SourceSchema {
    readonly relation: RelationType;
    /** Where its data is on disk, if found. */
    readonly location?: string;
    /** Why the columns are unknown, if they are (an unreadable file); shown as a warning. */
    readonly problem?: string;
}

/** The string value of a constant argument (`'json'`), if it is one. */
export function stringArgument(expression: ast.Expression | ast.TableArgument | undefined): string | undefined {
    if (ast.isStringLiteral(expression)) {
        return expression.value;
    }
    return undefined;
}

/**
 * Sample catalog lookups (a Pipeline SQL service, `pipeline.SampleCatalog`): the schemas of sample
 * tables found by naming convention, of declared catalog tables without a column list, and of
 * `read_files` / `cloud_files` calls.
 */
export class SampleCatalog {

    readonly files = new SampleFileSchemas();
    private readonly cache: WorkspaceCache<string, SourceSchema | undefined>;

    constructor(shared: LangiumSharedServices) {
        this.cache = new WorkspaceCache(shared);
    }

    /** A table the pipeline reads by a name it does not define: `samples/a/b.*` or `samples/a/b/` for `a.b`. */
    conventionTable(pipeline: PipelineInfo, name: TableName): SourceSchema | undefined {
        const samples = pipeline.samplesPath;
        if (!samples || name.parameterized) {
            return undefined;
        }
        return this.cache.get(`table:${samples}:${name.keys.join('.')}`, () => {
            // `cat.sch.t` may be sampled as `samples/sch/t` or `samples/t` as well.
            for (let n = name.parts.length; n >= 1; n--) {
                const location = locateSampleTable(samples, name.parts.slice(-n));
                if (location) {
                    return this.readLocation(location, {}, false);
                }
            }
            return undefined;
        });
    }

    /**
     * A table declared in `samples/*.sql`: its declared columns, or, without a column list, the
     * columns of its files (`LOCATION 'rel'` under the samples folder, else the naming convention).
     */
    catalogTable(pipeline: PipelineInfo, table: ast.CreateTable, name: TableName): SourceSchema {
        const declared = (table.spec?.elements ?? []).filter(ast.isColumnDef);
        if (declared.length > 0) {
            return { relation: relationOf(declared.map(c => column(c.name, dataTypeOf(c.type), c)), true, [MetadataColumn]) };
        }
        const samples = pipeline.samplesPath;
        if (!samples) {
            return { relation: UnknownRelation };
        }
        const locationClause = table.clauses.find(ast.isLocationClause)?.path;
        const format = formatFromName(table.clauses.find(ast.isUsingClause)?.format);
        const options = Object.fromEntries(table.clauses.filter(ast.isOptionsClause).flatMap(c => c.properties).map(p => [p.key, p.value ?? '']));
        return this.cache.get(`declared:${samples}:${name.keys.join('.')}:${locationClause ?? ''}`, () => {
            if (locationClause !== undefined) {
                const location = path.resolve(samples, locationClause);
                return this.readLocation({ location, isFolder: !formatOfFile(location), format }, options, false);
            }
            const found = locateSampleTable(samples, name.parts);
            return found ? this.readLocation({ ...found, format: format ?? found.format }, options, false) : undefined;
        }) ?? { relation: UnknownRelation, problem: `no sample data found for '${name.text}' under '${samples}'` };
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
        const format = named.get('format') ?? (functionName === 'cloud_files' ? positional[1] : undefined);
        const schema = named.get('schema');
        if (schema !== undefined) {
            const parsed = parseSchema(schema);
            return parsed.ok
                ? { relation: relationOf([...columnsOf(parsed.value, call), column('_rescued_data', Types.string, call)], true, [MetadataColumn]) }
                : { relation: UnknownRelation };
        }
        if (functionName !== 'read_files' && functionName !== 'cloud_files') {
            return { relation: UnknownRelation };
        }
        if (filePath === undefined || !pipeline.rootPath || (/^[a-z][a-z0-9+.-]*:/i.test(filePath) && !filePath.startsWith('file:'))) {
            return { relation: UnknownRelation };
        }
        const local = filePath.startsWith('file:') ? new URL(filePath).pathname
            : filePath.startsWith('/Volumes/') ? path.join(pipeline.samplesPath ?? pipeline.rootPath, filePath)
                : path.resolve(pipeline.rootPath, filePath);
        const options = Object.fromEntries([...named.entries()].filter(([, v]) => v !== undefined) as Array<[string, string]>);
        return this.cache.get(`files:${local}:${format ?? ''}:${JSON.stringify(options)}`, () =>
            this.readLocation({ location: local, isFolder: !formatOfFile(local), format: formatFromName(format) }, options, true))
            ?? { relation: UnknownRelation };
    }

    /** Forgets what is cached about files under a path (a sample file changed on disk). */
    invalidate(changedPath: string): void {
        this.files.invalidate(changedPath);
        this.cache.clear();
    }

    private readLocation(location: SampleLocation, options: Record<string, string>, autoLoader: boolean): SourceSchema | undefined {
        const result = this.files.schemaOf(location, options);
        if (!result.ok) {
            return { relation: UnknownRelation, location: location.location, problem: result.error };
        }
        const columns = columnsOf(result.columns);
        if (autoLoader && !columns.some(c => c.name.toLowerCase() === '_rescued_data')) {
            columns.push(column('_rescued_data', Types.string));
        }
        return { relation: relationOf(columns, true, [MetadataColumn]), location: location.location };
    }
}

/** The type a DDL data type node stands for (its source text parsed as a Spark type); `unknown` if absent or unparsable. */
export function dataTypeOf(node: ast.DataType | undefined): TypeDescriptor {
    const text = node?.$cstNode?.text;
    if (!text) {
        return Types.unknown;
    }
    const parsed = parseType(text);
    return parsed.ok ? parsed.value : Types.unknown;
}
