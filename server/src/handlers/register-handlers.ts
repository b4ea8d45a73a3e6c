import { DocumentState, URI } from 'langium';
import type { LangiumSharedServices } from 'langium/lsp';
import type { Connection } from 'vscode-languageserver';
import {
    ChangeEventsRequest, CreateSampleDataRequest, DatasetRowsRequest, DescribeTestFileRequest, PipelineStateRequest, RecordTestRequest, RunFinishedNotification,
    RunPipelineRequest, RunStatementRequest, RunTestFileRequest, VersionChangesRequest, UseFileAsSampleRequest, WorkspaceTrustNotification,
} from '../../../common/protocol.js';
import type { PipelineSqlServices } from '../language/pipeline-sql-module.js';
import { PipelineRunHandler } from './pipeline-run-handler.js';
import { PipelineTestHandler } from './pipeline-test-handler.js';
import { RuntimeDiagnostics } from './runtime-diagnostics.js';
import { SampleDataHandler } from './sample-data-handler.js';
import { trustOfInitializationOptions, WorkspaceTrust } from './workspace-trust.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** Turns an exception of a handler into a typed failure (the handler's callers never see a crash). */
async function safely<T>(method: string, work: () => Promise<T>): Promise<T | { ok: false; error: { class: string; message: string } }> {
    try {
        return await work();
    } catch (error) {
        console.error(`${method} failed:`, error);
        return { ok: false, error: { class: ErrorClass.internal, message: error instanceof Error ? error.message : String(error) } };
    }
}

/**
 * The workspace's trust as the client states it: `initializationOptions.workspaceTrusted` of
 * `initialize` (absent: trusted, see {@link WorkspaceTrust}), then `pipelineSql/workspaceTrust`.
 */
export function registerWorkspaceTrust(connection: Connection, shared: LangiumSharedServices): WorkspaceTrust {
    const trust = new WorkspaceTrust();
    shared.lsp.LanguageServer.onInitialize(params => trust.set(trustOfInitializationOptions(params.initializationOptions)));
    connection.onNotification(WorkspaceTrustNotification, params => {
        if (typeof params?.trusted === 'boolean') {
            trust.set(params.trusted);
        }
    });
    return trust;
}

/**
 * Registers the preview's requests (`pipelineSql/runPipeline`, `pipelineState`, `datasetRows`,
 * `changeEvents`) on the connection, sends `pipelineSql/runFinished` after each run, and keeps the
 * run diagnostics published with each document's validation diagnostics (Langium publishes the
 * latter when a document is validated; this listener, registered after Langium's, adds the former).
 * Each of these requests evaluates workspace SQL or opens the pipeline's state database: in an
 * untrusted workspace (`trust`) the handler refuses it.
 */
export function registerPreviewHandlers(connection: Connection, shared: LangiumSharedServices, services: PipelineSqlServices,
    trust: { readonly trusted: boolean } = new WorkspaceTrust()): PipelineRunHandler {
    const documents = shared.workspace.LangiumDocuments;
    const diagnostics = new RuntimeDiagnostics({
        publish: (uri, list) => void connection.sendDiagnostics({ uri, diagnostics: list }),
        validation: uri => documents.getDocument(URI.parse(uri))?.diagnostics ?? [],
    });
    const handler = new PipelineRunHandler(shared, services, diagnostics, params => void connection.sendNotification(RunFinishedNotification, params), trust);
    connection.onRequest(RunPipelineRequest, (params, token) => handler.run(params, token, connection.window.attachWorkDoneProgress(params.workDoneToken)));
    connection.onRequest(PipelineStateRequest, (params, token) => handler.state(params, token));
    connection.onRequest(DatasetRowsRequest, params => safely('pipelineSql/datasetRows', () => handler.rows(params)));
    connection.onRequest(ChangeEventsRequest, (params, token) => safely('pipelineSql/changeEvents', () => handler.changeEvents(params, token)));
    connection.onRequest(VersionChangesRequest, (params, token) => safely('pipelineSql/versionChanges', () => handler.versionChanges(params, token)));
    connection.onRequest(RunStatementRequest, (params, token) => safely('pipelineSql/runStatement', () => handler.statement(params, token))
        .then(outcome => (outcome.ok || 'statement' in outcome ? outcome : { ...outcome, statement: params.text, documentUri: params.uri })));
    // The state files the runs keep open are closed (unlocked) when the client shuts the server down.
    connection.onShutdown(() => handler.dispose());
    // The Test Explorer's requests (issue 15): describe a test file, run it in this process.
    const tests = new PipelineTestHandler(shared, services, trust);
    connection.onRequest(DescribeTestFileRequest, params => tests.describe(params));
    connection.onRequest(RunTestFileRequest, async (params, token) => {
        try {
            return await tests.run(params, token);
        } catch (error) {
            console.error('pipelineSql/runTestFile failed:', error);
            const message = error instanceof Error ? error.message : String(error);
            return { uri: params.uri, name: params.uri, status: 'error' as const, durationMs: 0, updates: [], error: { class: ErrorClass.internal, message }, report: message };
        }
    });
    connection.onRequest(RecordTestRequest, (params, token) => safely('pipelineSql/recordTest', () => tests.record(params, handler, token)));
    // Sample data scaffolding (issue 16): writes files, so refused in an untrusted workspace like a run.
    const samples = new SampleDataHandler(shared, services, trust);
    connection.onRequest(CreateSampleDataRequest, (params, token) => safely('pipelineSql/createSampleData', () => samples.create(params, token)));
    connection.onRequest(UseFileAsSampleRequest, params => safely('pipelineSql/useFileAsSample', () => samples.useFile(params)));
    shared.workspace.DocumentBuilder.onDocumentPhase(DocumentState.Validated, document => {
        const uri = document.uri.toString();
        if (diagnostics.has(uri)) {
            diagnostics.republish(uri);
        }
    });
    return handler;
}
