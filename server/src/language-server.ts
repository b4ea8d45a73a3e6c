import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { registerPreviewHandlers } from './handlers/register-handlers.js';
import { createPipelineSqlServices } from './language/pipeline-sql-module.js';

/**
 * Starts the Pipeline SQL language server on the transport named on the command line
 * (`--node-ipc` from VS Code, `--stdio` from other editors).
 */
export function startServer(): void {
    const connection = createConnection(ProposedFeatures.all);
    const { shared, PipelineSql } = createPipelineSqlServices({ connection, ...NodeFileSystem });
    startLanguageServer(shared);
    registerPreviewHandlers(connection, shared, PipelineSql);
}
