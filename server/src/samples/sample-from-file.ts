/**
 * Real data as sample data (issue 16 item 3): a CSV / JSON / Parquet file inside a pipeline folder is
 * copied under `samples/<a>/<b>/` as the data of table `a.b` (the first rows only, when asked), and
 * declared in `samples/catalog.sql` with the columns the engine infers from the copy. One
 * implementation for the explorer's **Use this File as Sample Data** (`../handlers/sample-data-handler.ts`)
 * and `pipeline-sql samples <root> --from <file> --table <name>` (`../cli/samples.ts`). Reads go through
 * the sample layer's asynchronous reads and writes through `fs.promises` (no synchronous disk access,
 * so the language server can run it); nothing that exists is overwritten.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copiesFirstRows, SampleTableNamePattern } from '../../../common/protocol.js';
import type { RunErrorModel } from '../../../common/result-model.js';
import { copyParquetRows } from '../../../engine/src/db/parquet-writer.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import { formatOfFile, listSource, sampleDirs } from '../../../engine/src/spark/sample-files.js';
import type { AsyncSampleReads } from '../../../engine/src/spark/sample-disk.js';
import { sampleSchemas } from '../../../engine/src/spark/sample-schema.js';
import { quoteIdentifier, typeToSql } from '../../../engine/src/spark/spark-types.js';
import { readSettled } from '../language/pipeline/sample-disk-snapshot.js';
import type { ProjectModel } from '../project/project-model.js';
import type { PipelineProject } from '../project/project-types.js';
import { CatalogFileName, insideRoot, readText } from './sample-scaffold.js';

/** What to copy. */
export interface SampleFromFile {
    /** The data file (absolute path). */
    readonly file: string;
    /** The table it stands for (`raw.orders`). */
    readonly table: string;
    /** Copy only the first rows (of a file `copiesFirstRows` accepts; others are copied whole); undefined: the whole file. */
    readonly rows?: number;
    /** The pipeline whose samples folder gets it; default: the pipeline whose folder holds the file. */
    readonly pipeline?: PipelineProject;
}

/** What was copied. */
export interface CopiedSample {
    readonly pipeline: PipelineProject;
    /** The copy, then the catalog file when a declaration was appended (absolute paths). */
    readonly written: string[];
    /** Data rows copied (0 for a Parquet or compressed file copied whole: not counted). */
    readonly rows: number;
    /** The table as given, trimmed. */
    readonly table: string;
}

/** The pipeline whose folder holds a file (the first, for a file in several bundle pipelines). */
export function pipelineAround(project: ProjectModel, file: string): PipelineProject | undefined {
    return project.pipelinesContaining(file)[0] ?? project.allPipelines().find(p => file.startsWith(p.root + path.sep));
}

/**
 * Copies a data file under the samples folder of its pipeline as table `table`, and declares it.
 * Refused with an error naming the cause (Databricks-style class): a name that is not a table name,
 * a file that is no CSV / JSON / Parquet, a file outside every pipeline, a copy that would leave the
 * pipeline folder, a table that has sample data already.
 */
export async function copySampleFromFile(project: ProjectModel, reads: AsyncSampleReads, request: SampleFromFile): Promise<{ ok: true; value: CopiedSample } | { ok: false; error: RunErrorModel }> {
    const fail = (error: RunErrorModel): { ok: false; error: RunErrorModel } => ({ ok: false, error });
    const file = path.resolve(request.file);
    const table = request.table.trim();
    if (!SampleTableNamePattern.test(table)) {
        return fail({ class: ErrorClass.invalidSampleCatalog, message: `'${request.table}' is not a table name for sample data: use one to three plain names separated by dots (raw.orders).` });
    }
    const format = formatOfFile(file);
    const stat = await reads.stat(file);
    if (!format || stat?.kind !== 'file') {
        return fail({ class: ErrorClass.sampleDataUnreadable, message: `${path.basename(file)} is not a CSV, JSON or Parquet file.` });
    }
    const pipeline = request.pipeline ?? pipelineAround(project, file);
    if (!pipeline) {
        return fail({ class: ErrorClass.noSources, message: `${path.basename(file)} is in no pipeline folder: put it inside the pipeline (the folder of spark-pipeline.yml, databricks.yml or its SQL).` });
    }
    const parts = table.split('.');
    const folder = path.join(pipeline.samplesDir, ...parts);
    if (!await readSettled(reads, disk => insideRoot(disk, pipeline.root, folder) && insideRoot(disk, pipeline.root, file))) {
        return fail({ class: ErrorClass.readOutsidePipeline, message: `The sample data of '${table}' would be outside the pipeline folder '${pipeline.root}'.` });
    }
    const existing = await reads.stat(folder);
    if (existing && (existing.kind !== 'directory' || (await reads.readdir(folder)).length > 0)) {
        return fail({ class: ErrorClass.sampleData, message: `'${path.relative(pipeline.root, folder)}' exists already; it is never overwritten.` });
    }
    await fs.promises.mkdir(folder, { recursive: true });
    const target = path.join(folder, path.basename(file));
    const textual = !format.gzip && format.format !== 'parquet';
    const cut = request.rows !== undefined && copiesFirstRows(file);
    let rows = 0;
    if (cut && format.format === 'parquet') {
        // The first rows of a Parquet file, through DuckDB (it reads the file's folder, writes the copy's).
        rows = await copyParquetRows(await reads.realpath(file), target, request.rows!);
    } else if (cut) {
        // The first rows only (and the CSV header).
        const lines = await firstLines(reads, await reads.realpath(file), stat.size, format.format === 'csv' ? request.rows! + 1 : request.rows!);
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
    return { ok: true, value: { pipeline, written, rows, table } };
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
