import type { LangiumDocument } from 'langium';
import { DefaultConfigurationProvider, DocumentState, URI } from 'langium';
import { DefaultDocumentUpdateHandler, startLanguageServer } from 'langium/lsp';
import type { LangiumSharedServices } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import type { Connection, TextDocumentChangeEvent } from 'vscode-languageserver/node.js';
import { createConnection, ErrorCodes, ProposedFeatures, ResponseError } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { PipelineGraphRequest } from '../../common/protocol.js';
import { registerPreviewHandlers, registerWorkspaceTrust } from './handlers/register-handlers.js';
import { createPipelineSqlServices, type PipelineSqlServices, type PipelineSqlSharedServices } from './language/pipeline-sql-module.js';
import { toPipelineGraph } from './language/pipeline/pipeline-graph.js';
import type { PipelineSqlDocumentBuilder } from './language/pipeline/pipeline-sql-document-builder.js';
import { isTargetProfile } from './language/pipeline/pipeline-sql-settings.js';
import { registerProjectDiagnostics } from './project/project-diagnostics.js';
import { registerSharedFiles } from './language/lsp/pipeline-sql-shared-files.js';
import { isTestFileUri, routeTestFileRequests, TestFileFeatures } from './handlers/test-file-features.js';
import { SampleDiskSnapshot } from './language/pipeline/sample-disk-snapshot.js';
import { routePythonCodeActions } from './language/lsp/sample-data-actions.js';
import { nodeAsyncSampleReads } from '../../engine/src/spark/sample-disk.js';

/**
 * Configuration provider (Langium's `ConfigurationProvider` service) for the `pipelineSql.*` settings:
 * Langium would ask the client for a section named after the language id (`pipeline-sql`); our
 * settings live under `pipelineSql`.
 */
export class PipelineSqlConfigurationProvider extends DefaultConfigurationProvider {
    protected override toSectionName(_languageId: string): string {
        return 'pipelineSql';
    }
}

/**
 * Document update handler (Langium's `DocumentUpdateHandler` service): when the client closes a
 * document that belongs to no pipeline root, the server forgets it (and clears its diagnostics); a
 * closed pipeline file goes back to its content on disk, or is forgotten when it is no longer there
 * (deleted or renamed while open). An update that fails is logged; it never ends the server.
 * Pipeline test files (`*.test.yml`, YAML documents) never become Langium documents: their changes
 * go to the test-file features.
 */
export class PipelineSqlDocumentUpdateHandler extends DefaultDocumentUpdateHandler {

    private readonly shared: PipelineSqlSharedServices;

    constructor(shared: PipelineSqlSharedServices) {
        super(shared);
        this.shared = shared;
    }

    /** Set by the server: the features of open test files. */
    testFiles?: Pick<TestFileFeatures, 'changed' | 'closed'>;

    override didChangeContent(change: TextDocumentChangeEvent<TextDocument>): void {
        if (isTestFileUri(change.document.uri)) {
            this.testFiles?.changed(change.document.uri);
            return;
        }
        super.didChangeContent(change);
    }

    didCloseDocument(event: TextDocumentChangeEvent<TextDocument>): void {
        if (isTestFileUri(event.document.uri)) {
            this.testFiles?.closed(event.document.uri);
            return;
        }
        const uri = URI.parse(event.document.uri);
        const onDisk = uri.scheme !== 'file' ? Promise.resolve(true) : this.shared.workspace.FileSystemProvider.exists(uri);
        void onDisk.then(exists => {
            if (this.shared.pipeline.Registry.isRootMember(uri) && exists) {
                this.fireDocumentUpdate([uri], []);
            } else {
                this.fireDocumentUpdate([], [uri]);
            }
        }, (error: unknown) => console.error(`Closing ${uri.toString()} failed:`, error));
    }

    override fireDocumentUpdate(changed: URI[], deleted: URI[]): void {
        // Langium would make a document of an open test file that changed on disk; the test-file features check it.
        changed = changed.filter(uri => !(isTestFileUri(uri) && this.shared.workspace.TextDocuments?.get(uri.toString())));
        // Langium's version leaves the rejection of a failed update unhandled, which ends the process.
        void this.workspaceManager.ready
            .then(() => this.workspaceLock.write(token => this.documentBuilder.update(changed, deleted, token)))
            .catch((error: unknown) => console.error('A document update failed:', error));
    }
}

/**
 * Starts the Pipeline SQL language server on the transport named on the command line
 * (`--node-ipc` from VS Code, `--stdio` from other editors).
 */
export function startServer(): void {
    keepServingAfterUnexpectedErrors();
    const connection = createConnection(ProposedFeatures.all);
    const { shared, PipelineSql } = createPipelineSqlServices({
        connection, ...NodeFileSystem,
        sharedModule: {
            workspace: { ConfigurationProvider: (s: LangiumSharedServices) => new PipelineSqlConfigurationProvider(s) },
            lsp: { DocumentUpdateHandler: (s: LangiumSharedServices) => new PipelineSqlDocumentUpdateHandler(s as PipelineSqlSharedServices) },
        },
    });
    // Before Langium's handlers: a file several pipelines list is shown as one file.
    registerSharedFiles(connection, shared);
    const testFiles = new TestFileFeatures(connection, shared, PipelineSql);
    (shared.lsp.DocumentUpdateHandler as PipelineSqlDocumentUpdateHandler).testFiles = testFiles;
    routeTestFileRequests(connection, testFiles);
    // Python files of a pipeline get the "Create sample data" fix (they are no Langium documents).
    routePythonCodeActions(connection, shared.pipeline.Project);
    // Sample files are read asynchronously into a snapshot that the (synchronous) schema lookups read.
    PipelineSql.pipeline.SampleCatalog.useSnapshot(new SampleDiskSnapshot(nodeAsyncSampleReads));
    startLanguageServer(shared);
    addTargetProfileHandler(shared, PipelineSql);
    addPipelineGraphHandler(connection, shared, PipelineSql);
    const trust = registerWorkspaceTrust(connection, shared);
    registerPreviewHandlers(connection, shared, PipelineSql, trust);
    const project = registerProjectDiagnostics(connection, shared, PipelineSql);
    // Folders the workspace's settings allow beyond the pipeline root count only in a trusted workspace.
    shared.lsp.LanguageServer.onInitialized(() => project.setTrusted(trust.trusted));
    trust.onDidChange(trusted => project.setTrusted(trusted));
}

/**
 * The last line of defence: an error that escapes every handler (a rejected promise nobody awaited,
 * an exception in a timer) is logged, and the server goes on serving; Node's default would end the
 * process, and with it every editor feature for every document.
 */
function keepServingAfterUnexpectedErrors(): void {
    process.on('unhandledRejection', reason => console.error('Pipeline SQL: unhandled rejection (the server keeps running):', reason));
    process.on('uncaughtException', error => console.error('Pipeline SQL: uncaught exception (the server keeps running):', error));
}

/** Reads `pipelineSql.target` from the client and revalidates everything when it changes. */
function addTargetProfileHandler(shared: PipelineSqlSharedServices, services: PipelineSqlServices): void {
    const settings = services.pipeline.Settings;
    const configuration = shared.workspace.ConfigurationProvider;
    const apply = (value: unknown): void => {
        settings.setTarget(isTargetProfile(value) ? value : 'databricks');
    };
    void configuration.ready.then(async () => apply(await configuration.getConfiguration('pipeline-sql', 'target')));
    configuration.onConfigurationSectionUpdate(update => {
        if (update.section === 'pipelineSql') {
            apply((update.configuration as { target?: unknown } | undefined)?.target);
        }
    });
    settings.onDidChangeTarget(() => {
        const builder = shared.workspace.DocumentBuilder as PipelineSqlDocumentBuilder;
        void shared.workspace.WorkspaceLock.write(token => builder.revalidate(undefined, token)).catch((error: unknown) =>
            console.error('Revalidation after a target profile change failed:', error));
    });
}

/** `pipelineSql/pipelineGraph`: the DAG of the pipeline a document belongs to. */
function addPipelineGraphHandler(connection: Connection, shared: PipelineSqlSharedServices, services: PipelineSqlServices): void {
    connection.onRequest(PipelineGraphRequest, async (params, token) => {
        try {
            const uri = URI.parse(params.uri);
            await shared.workspace.WorkspaceManager.ready;
            // A file just opened gets its document once the project model has read its pipeline: wait for it.
            const document: LangiumDocument | undefined = await shared.workspace.DocumentBuilder.waitUntil(DocumentState.Linked, uri, token)
                .then(() => shared.workspace.LangiumDocuments.getDocument(uri), () => undefined);
            if (!document) {
                return new ResponseError(ErrorCodes.InvalidParams, `Not a Pipeline SQL document of this workspace: ${params.uri}`);
            }
            return toPipelineGraph(services.pipeline.Model.modelFor(uri));
        } catch (error) {
            console.error('pipelineSql/pipelineGraph failed:', error);
            return new ResponseError(ErrorCodes.InternalError, error instanceof Error ? error.message : String(error));
        }
    });
}
