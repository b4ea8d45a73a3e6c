import type { AstNode, Cancellation, ParseResult, ParserOptions, URI } from 'langium';
import { DefaultLangiumDocumentFactory, DocumentState, isOperationCancelled } from 'langium';
import type { PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import { emptyParseResult, type DocumentFailures } from './document-failures.js';

/**
 * Document factory (Langium's `LangiumDocumentFactory` service) whose parse never throws: every
 * document is parsed here (when the workspace is loaded, when a file is opened or changed), and a
 * parse that fails with an exception gives an empty file over the document's text instead, with the
 * failure recorded for the document's validation to report (see {@link DocumentFailures}).
 */
export class PipelineSqlDocumentFactory extends DefaultLangiumDocumentFactory {

    private readonly failures: DocumentFailures;

    constructor(shared: PipelineSqlSharedServices) {
        super(shared);
        this.failures = shared.pipeline.DocumentFailures;
    }

    protected override parse<T extends AstNode>(uri: URI, text: string, options?: ParserOptions): ParseResult<T> {
        try {
            const result = super.parse<T>(uri, text, options);
            this.failures.clear(uri.toString(), DocumentState.Parsed);
            return result;
        } catch (error) {
            return this.failed(uri, text, error) as ParseResult<T>;
        }
    }

    protected override async parseAsync<T extends AstNode>(uri: URI, text: string, cancellationToken: Cancellation.CancellationToken): Promise<ParseResult<T>> {
        try {
            const result = await super.parseAsync<T>(uri, text, cancellationToken);
            this.failures.clear(uri.toString(), DocumentState.Parsed);
            return result;
        } catch (error) {
            if (isOperationCancelled(error)) {
                throw error;
            }
            return this.failed(uri, text, error) as ParseResult<T>;
        }
    }

    private failed(uri: URI, text: string, error: unknown): ParseResult<AstNode> {
        console.error(`Parsing ${uri.toString()} failed:`, error);
        this.failures.record(uri.toString(), DocumentState.Parsed, error);
        return emptyParseResult(text);
    }
}
