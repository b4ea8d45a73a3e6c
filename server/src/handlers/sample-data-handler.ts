/**
 * The language server's side of sample data scaffolding (issue 16): `pipelineSql/createSampleData`
 * creates what a document's pipeline lacks (the plan of `pipeline-sql samples`, written by the
 * server), `pipelineSql/useFileAsSample` copies a data file under `samples/` with a declaration.
 * Both write files, so both are refused in an untrusted workspace; both then recheck the pipeline
 * (the "no sample data" warnings go away) and answer with a typed `{ ok }` outcome. They read through
 * the sample catalog's asynchronous reads (`SampleCatalog.reads`) and write with `fs.promises`: no
 * synchronous disk access in the language server.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { MaxSampleRows, type CreateSampleDataParams, type SampleDataReport, type UseFileAsSampleParams } from '../../../common/protocol.js';
import type { Outcome, RunErrorModel } from '../../../common/result-model.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import { formatOfFile, listSource, sampleDirs } from '../../../engine/src/spark/sample-files.js';
import type { AsyncSampleReads } from '../../../engine/src/spark/sample-disk.js';
import { sampleSchemas } from '../../../engine/src/spark/sample-schema.js';
import { quoteIdentifier, typeToSql } from '../../../engine/src/spark/spark-types.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { readSettled } from '../language/pipeline/sample-disk-snapshot.js';
import type { PipelineProject } from '../project/project-types.js';
import { DefaultSampleRows } from '../samples/sample-generator.js';
import { CatalogFileName, insideRoot, planPipelineSamples, readText, writeScaffold } from '../samples/sample-scaffold.js';
import { documentsFor, isRunError, locatePipeline } from './pipeline-sources.js';
import { untrustedWorkspaceError } from './workspace-trust.js';

const failure = (error: RunErrorModel): { ok: false; error: RunErrorModel } => ({ ok: false, error });

/** A table name the scaffold accepts: one to three plain identifiers (they become folder names). */
const tableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

/** Creates sample data for the server. */
export class SampleDataHandler {

    constructor(
        private readonly shared: LangiumSharedServices,
        private readonly services: PipelineSqlServices,
        private readonly trust: { readonly trusted: boolean },
    ) {}

    /** `pipelineSql/createSampleData`: every source of the document's pipeline without sample data gets some. */
    async create(params: CreateSampleDataParams, token: CancellationToken): Promise<Outcome<SampleDataReport>> {
        if (!this.trust.trusted) {
            return failure(untrustedWorkspaceError('create sample data'));
        }
        const location = locatePipeline(this.services, params.uri);
        if (isRunError(location)) {
            return failure(location);
        }
        const rows = clamp(params.rows, DefaultSampleRows);
        const seed = clamp(params.seed, 1, 0);
        const plan = await planPipelineSamples(this.services, location.project, files => documentsFor(this.shared, files, token), { rows, seed });
        const result = await writeScaffold(plan);
        await this.recheck(result.written);
        return {
            ok: true,
            pipeline: location.project.name,
            written: result.written,
            sources: plan.generated.map(g => ({ name: g.source.displayName, rows: g.files.reduce((n, f) => n + f.rows.length, 0), notes: g.notes })),
            kept: plan.kept,
            skipped: [...plan.skipped, ...result.skipped].map(s => ({ name: s.displayName, reason: s.reason })),
        };
    }

    /** `pipelineSql/useFileAsSample`: copies a data file under `samples/` as a table's data and declares it. */
    async useFile(params: UseFileAsSampleParams): Promise<Outcome<SampleDataReport>> {
        if (!this.trust.trusted) {
            return failure(untrustedWorkspaceError('copy sample data'));
        }
        const uri = URI.parse(params.uri);
        const table = params.table.trim();
        if (uri.scheme !== 'file') {
            return failure({ class: ErrorClass.notAFile, message: `Only files on disk can be sample data; ${params.uri} is not one.` });
        }
        if (!tableNamePattern.test(table)) {
            return failure({ class: ErrorClass.invalidSampleCatalog, message: `'${params.table}' is not a table name for sample data: use one to three plain names separated by dots (raw.orders).` });
        }
        const file = uri.fsPath;
        const format = formatOfFile(file);
        const reads = this.services.pipeline.SampleCatalog.reads;
        const stat = await reads.stat(file);
        if (!format || stat?.kind !== 'file') {
            return failure({ class: ErrorClass.sampleDataUnreadable, message: `${path.basename(file)} is not a CSV, JSON or Parquet file.` });
        }
        const pipeline = this.pipelineAround(file);
        if (!pipeline) {
            return failure({ class: ErrorClass.noSources, message: `${path.basename(file)} is in no pipeline folder: put it inside the pipeline (the folder of spark-pipeline.yml, databricks.yml or its SQL).` });
        }
        const parts = table.split('.');
        const folder = path.join(pipeline.samplesDir, ...parts);
        if (!await readSettled(reads, disk => insideRoot(disk, pipeline.root, folder) && insideRoot(disk, pipeline.root, file))) {
            return failure({ class: ErrorClass.readOutsidePipeline, message: `The sample data of '${table}' would be outside the pipeline folder '${pipeline.root}'.` });
        }
        const existing = await reads.stat(folder);
        if (existing && (existing.kind !== 'directory' || (await reads.readdir(folder)).length > 0)) {
            return failure({ class: ErrorClass.sampleData, message: `'${path.relative(pipeline.root, folder)}' exists already; it is never overwritten.` });
        }
        await fs.promises.mkdir(folder, { recursive: true });
        const target = path.join(folder, path.basename(file));
        const limit = params.rows !== undefined ? clamp(params.rows, DefaultSampleRows) : undefined;
        const textual = !format.gzip && format.format !== 'parquet';
        let rows = 0;
        if (limit !== undefined && textual) {
            // The first rows only (and the CSV header).
            const lines = await firstLines(reads, await reads.realpath(file), stat.size, format.format === 'csv' ? limit + 1 : limit);
            await fs.promises.writeFile(target, lines.join('\n') + '\n', { flag: 'wx' });
            rows = lines.length;
        } else {
            await fs.promises.copyFile(file, target, fs.constants.COPYFILE_EXCL);
            rows = textual ? await countLines(reads, await reads.realpath(target)) : 0;
        }
        if (textual && format.format === 'csv') {
            rows = Math.max(0, rows - 1);
        }
        // The columns as the engine infers them from the copy; declared, so the run reads them typed.
        const schema = await readSettled(reads, disk => {
            const dirs = sampleDirs(pipeline.root, { samplesDir: pipeline.samplesDir, readRoots: [...pipeline.readRoots], disk });
            const listed = listSource(dirs, folder, format.format);
            return listed.ok ? sampleSchemas.sourceSchema(dirs, listed.value, {}) : undefined;
        });
        const written = [target];
        if (schema?.ok) {
            const columns = schema.value.columns.map(c => `  ${quoteIdentifier(c.name)} ${typeToSql(c.type)}`).join(',\n');
            const declaration = `CREATE TABLE ${parts.map(quoteIdentifier).join('.')} (\n${columns}\n) USING ${format.format.toUpperCase()} LOCATION '${parts.join('/')}';\n`;
            const catalog = path.join(pipeline.samplesDir, CatalogFileName);
            const current = await readSettled(reads, disk => readText(disk, catalog));
            await fs.promises.writeFile(catalog, `${current === undefined ? '' : current.endsWith('\n') || current === '' ? '\n' : '\n\n'}-- Copied from ${path.relative(pipeline.root, file)}.\n${declaration}`, { flag: 'a' });
            written.push(catalog);
        }
        await this.recheck(written);
        return { ok: true, pipeline: pipeline.name, written, sources: [{ name: table, rows, notes: [`copied from ${path.basename(file)}`] }], kept: [], skipped: [] };
    }

    /** The pipeline whose folder holds a file (the first, for a file in several bundle pipelines). */
    private pipelineAround(file: string): PipelineProject | undefined {
        const project = this.services.shared.pipeline.Project;
        return project.pipelinesContaining(file)[0] ?? project.allPipelines().find(p => file.startsWith(p.root + path.sep));
    }

    /** The written files changed: the sample catalog forgets them, and the pipelines reading them are checked again. */
    private async recheck(written: readonly string[]): Promise<void> {
        if (written.length === 0) {
            return;
        }
        const uris = written.map(f => URI.file(f));
        await this.shared.workspace.WorkspaceLock.write(token => this.shared.workspace.DocumentBuilder.update(uris, [], token));
    }
}

/** Bytes read at a time when looking for lines. */
const ChunkBytes = 1024 * 1024;

/** The first `count` non-empty lines of a text file, read chunk by chunk (a large export is not read whole). */
async function firstLines(reads: AsyncSampleReads, realPath: string, size: number, count: number): Promise<string[]> {
    const chunks: Buffer[] = [];
    let position = 0;
    for (;;) {
        const chunk = await reads.read(realPath, position, ChunkBytes);
        chunks.push(chunk);
        position += chunk.length;
        const atEnd = chunk.length === 0 || position >= size;
        // Decoded as a whole (a character may span two chunks); the last line is whole only at the end.
        const lines = Buffer.concat(chunks).toString('utf8').split(/\r?\n/).filter(l => l.length > 0);
        if (lines.length > count || atEnd) {
            return lines.slice(0, count);
        }
    }
}

/** How many non-empty lines a text file has, read chunk by chunk. */
async function countLines(reads: AsyncSampleReads, realPath: string): Promise<number> {
    let lines = 0;
    let inLine = false;
    for (let position = 0; ;) {
        const chunk = await reads.read(realPath, position, ChunkBytes);
        if (chunk.length === 0) {
            return lines + (inLine ? 1 : 0);
        }
        position += chunk.length;
        for (const byte of chunk) {
            if (byte === 0x0a) {
                lines += inLine ? 1 : 0;
                inLine = false;
            } else if (byte !== 0x0d) {
                inLine = true;
            }
        }
    }
}

function clamp(value: number | undefined, fallback: number, min = 1): number {
    return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, Math.min(MaxSampleRows, Math.floor(value))) : fallback;
}
