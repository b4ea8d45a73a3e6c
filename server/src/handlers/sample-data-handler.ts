/**
 * The language server's side of sample data scaffolding (issue 16): `pipelineSql/createSampleData`
 * creates what a document's pipeline lacks (the plan of `pipeline-sql samples`, written by the
 * server), `pipelineSql/useFileAsSample` copies a data file under `samples/` with a declaration.
 * Both write files, so both are refused in an untrusted workspace; both then recheck the pipeline
 * (the "no sample data" warnings go away) and answer with a typed `{ ok }` outcome. They read through
 * the sample catalog's asynchronous reads (`SampleCatalog.reads`) and write with `fs.promises`: no
 * synchronous disk access in the language server. What they do is shared with the CLI
 * (`../samples/`: `planPipelineSamples`, `copySampleFromFile`).
 */
import * as path from 'node:path';
import { URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { CancellationToken } from 'vscode-languageserver';
import { MaxSampleRows, type CreateSampleDataParams, type SampleDataReport, type UseFileAsSampleParams } from '../../../common/protocol.js';
import type { Outcome, RunErrorModel } from '../../../common/result-model.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { DefaultSampleRows } from '../samples/sample-generator.js';
import { copySampleFromFile } from '../samples/sample-from-file.js';
import { planPipelineSamples, writeScaffold } from '../samples/sample-scaffold.js';
import { documentsFor, isRunError, locatePipeline } from './pipeline-sources.js';
import { untrustedWorkspaceError } from './workspace-trust.js';

const failure = (error: RunErrorModel): { ok: false; error: RunErrorModel } => ({ ok: false, error });

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
        // A Python file (the fix on its run error) is no member document: the pipeline whose folder holds it.
        const location = locatePipeline(this.services, params.uri, { enclosing: true });
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

    /** `pipelineSql/useFileAsSample`: copies a data file under `samples/` as a table's data and declares it (`copySampleFromFile`, as the CLI's `samples --from`). */
    async useFile(params: UseFileAsSampleParams): Promise<Outcome<SampleDataReport>> {
        if (!this.trust.trusted) {
            return failure(untrustedWorkspaceError('copy sample data'));
        }
        const uri = URI.parse(params.uri);
        if (uri.scheme !== 'file') {
            return failure({ class: ErrorClass.notAFile, message: `Only files on disk can be sample data; ${params.uri} is not one.` });
        }
        const copied = await copySampleFromFile(this.services.shared.pipeline.Project, this.services.pipeline.SampleCatalog.reads, {
            file: uri.fsPath, table: params.table, ...(params.rows !== undefined ? { rows: clamp(params.rows, DefaultSampleRows) } : {}),
        });
        if (!copied.ok) {
            return copied;
        }
        const { pipeline, written, rows, table } = copied.value;
        await this.recheck(written);
        return { ok: true, pipeline: pipeline.name, written, sources: [{ name: table, rows, notes: [`copied from ${path.basename(uri.fsPath)}`] }], kept: [], skipped: [] };
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
