/**
 * The language server's side of sample data scaffolding (issue 16): `pipelineSql/createSampleData`
 * creates what a document's pipeline lacks (the plan of `pipeline-sql samples`, written by the
 * server), `pipelineSql/useFileAsSample` copies a data file under `samples/` with a declaration.
 * Both write files, so both are refused in an untrusted workspace; both then recheck the pipeline
 * (the "no sample data" warnings go away) and answer with a typed `{ ok }` outcome.
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
import { sampleSchemas } from '../../../engine/src/spark/sample-schema.js';
import { quoteIdentifier, typeToSql } from '../../../engine/src/spark/spark-types.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { typeFromEngine } from '../language/pipeline/sample-catalog.js';
import type { PipelineProject } from '../project/project-types.js';
import { DefaultSampleRows } from '../samples/sample-generator.js';
import { CatalogFileName, insideRoot, planPipelineSamples, writeScaffold } from '../samples/sample-scaffold.js';
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
        const result = writeScaffold(plan);
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
        const stat = fs.statSync(file, { throwIfNoEntry: false });
        if (!format || !stat?.isFile()) {
            return failure({ class: ErrorClass.sampleDataUnreadable, message: `${path.basename(file)} is not a CSV, JSON or Parquet file.` });
        }
        const pipeline = this.pipelineAround(file);
        if (!pipeline) {
            return failure({ class: ErrorClass.noSources, message: `${path.basename(file)} is in no pipeline folder: put it inside the pipeline (the folder of spark-pipeline.yml, databricks.yml or its SQL).` });
        }
        const parts = table.split('.');
        const folder = path.join(pipeline.samplesDir, ...parts);
        if (!insideRoot(pipeline.root, folder) || !insideRoot(pipeline.root, file)) {
            return failure({ class: ErrorClass.readOutsidePipeline, message: `The sample data of '${table}' would be outside the pipeline folder '${pipeline.root}'.` });
        }
        if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
            return failure({ class: ErrorClass.sampleData, message: `'${path.relative(pipeline.root, folder)}' exists already; it is never overwritten.` });
        }
        fs.mkdirSync(folder, { recursive: true });
        const target = path.join(folder, path.basename(file));
        const limit = params.rows !== undefined ? clamp(params.rows, DefaultSampleRows) : undefined;
        if (limit !== undefined && !format.gzip && format.format !== 'parquet') {
            // The first rows only (and the CSV header).
            const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter(l => l.length > 0);
            const keep = format.format === 'csv' ? limit + 1 : limit;
            fs.writeFileSync(target, lines.slice(0, keep).join('\n') + '\n', { flag: 'wx' });
        } else {
            fs.copyFileSync(file, target, fs.constants.COPYFILE_EXCL);
        }
        // The columns as the engine infers them from the copy; declared, so the run reads them typed.
        const dirs = sampleDirs(pipeline.root, { samplesDir: pipeline.samplesDir, readRoots: [...pipeline.readRoots] });
        const listed = listSource(dirs, folder, format.format);
        const schema = listed.ok ? sampleSchemas.sourceSchema(dirs, listed.value, {}) : undefined;
        const written = [target];
        if (schema?.ok) {
            const columns = schema.value.columns.map(c => `  ${quoteIdentifier(c.name)} ${typeToSql(typeFromEngine(c.type))}`).join(',\n');
            const declaration = `CREATE TABLE ${parts.map(quoteIdentifier).join('.')} (\n${columns}\n) USING ${format.format.toUpperCase()} LOCATION '${parts.join('/')}';\n`;
            const catalog = path.join(pipeline.samplesDir, CatalogFileName);
            const current = fs.existsSync(catalog) ? fs.readFileSync(catalog, 'utf8') : undefined;
            fs.writeFileSync(catalog, `${current === undefined ? '' : current.endsWith('\n') || current === '' ? '\n' : '\n\n'}-- Copied from ${path.relative(pipeline.root, file)}.\n${declaration}`, { flag: 'a' });
            written.push(catalog);
        }
        await this.recheck(written);
        const rows = format.format === 'parquet' || format.gzip ? 0 : Math.max(0, fs.readFileSync(target, 'utf8').split(/\r?\n/).filter(l => l.length > 0).length - (format.format === 'csv' ? 1 : 0));
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

function clamp(value: number | undefined, fallback: number, min = 1): number {
    return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, Math.min(MaxSampleRows, Math.floor(value))) : fallback;
}
