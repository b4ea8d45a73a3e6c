import type { AstNode, LangiumDocument, ParseResult, ParserOptions } from 'langium';
import { Cancellation, DefaultLangiumDocumentFactory, DocumentState, isOperationCancelled, URI } from 'langium';
import type { PipelineSqlSharedServices } from '../pipeline-sql-module.js';
import { emptyParseResult, type DocumentFailures } from './document-failures.js';
import { parseSharedDocumentUri } from './pipeline-registry.js';

/**
 * Document factory (Langium's `LangiumDocumentFactory` service) whose parse never throws: every
 * document is parsed here (when the workspace is loaded, when a file is opened or changed), and a
 * parse that fails with an exception gives an empty file over the document's text instead, with the
 * failure recorded for the document's validation to report (see {@link DocumentFailures}).
 * The document of a shared file in another of its pipelines (see `sharedDocumentUri`) reads the
 * file's editor buffer when it is open, as the file's own document does.
 */
export class PipelineSqlDocumentFactory extends DefaultLangiumDocumentFactory {

    private readonly failures: DocumentFailures;

    constructor(shared: PipelineSqlSharedServices) {
        super(shared);
        this.failures = shared.pipeline.DocumentFailures;
    }

    override async fromUri<T extends AstNode = AstNode>(uri: URI, cancellationToken = Cancellation.CancellationToken.None): Promise<LangiumDocument<T>> {
        const open = this.openText(uri);
        return open === undefined ? super.fromUri<T>(uri, cancellationToken) : this.createAsync<T>(uri, open, cancellationToken);
    }

    override async update<T extends AstNode = AstNode>(document: LangiumDocument<T>, cancellationToken: Cancellation.CancellationToken): Promise<LangiumDocument<T>> {
        if (!parseSharedDocumentUri(document.uri)) {
            return super.update(document, cancellationToken);
        }
        // Langium's update, with the text of the file's buffer (the document's own URI has none).
        const oldText = document.parseResult.value.$cstNode?.root.fullText;
        const text = this.openText(document.uri) ?? await this.fileSystemProvider.readFile(document.uri);
        Object.defineProperty(document, 'textDocument', { get: this.createTextDocumentGetter(document.uri, text), configurable: true });
        if (oldText !== text) {
            document.parseResult = await this.parseAsync<T>(document.uri, text, cancellationToken);
            (document.parseResult.value as { $document?: LangiumDocument }).$document = document;
        }
        document.state = DocumentState.Parsed;
        return document;
    }

    /** The editor buffer of the file behind a shared file's other document, when open. */
    private openText(uri: URI): string | undefined {
        const shared = parseSharedDocumentUri(uri);
        return shared ? this.textDocuments?.get(URI.file(shared.file).toString())?.getText() : undefined;
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
