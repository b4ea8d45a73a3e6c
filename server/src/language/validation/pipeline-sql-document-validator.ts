import type { Diagnostic } from 'vscode-languageserver';
import type { LangiumDocument, ParseResult, ValidationOptions } from 'langium';
import { DefaultDocumentValidator } from 'langium';
import { IssueCodes } from './issue-codes.js';

/**
 * Document validator (Langium's `DocumentValidator` service): Langium's, with lexing and parsing
 * errors reported under Spark's error class `PARSE_SYNTAX_ERROR` so that the editor, the CLI and CI
 * name them alike, and without diagnostics for unresolved dataset references.
 */
export class PipelineSqlDocumentValidator extends DefaultDocumentValidator {

    protected override processLexingErrors(parseResult: ParseResult, diagnostics: Diagnostic[], options: ValidationOptions): void {
        const start = diagnostics.length;
        super.processLexingErrors(parseResult, diagnostics, options);
        markSyntaxErrors(diagnostics, start);
    }

    protected override processParsingErrors(parseResult: ParseResult, diagnostics: Diagnostic[], options: ValidationOptions): void {
        const start = diagnostics.length;
        super.processParsingErrors(parseResult, diagnostics, options);
        markSyntaxErrors(diagnostics, start);
    }

    /**
     * Reports no linking errors. The only cross-references of the grammar are dataset references
     * (`FROM x`, `INTO x`); a name that resolves to nothing in the pipeline is usually a catalog table,
     * so the pipeline model reports unknown datasets itself, as warnings, where it knows the catalog.
     */
    protected override processLinkingErrors(_document: LangiumDocument, _diagnostics: Diagnostic[], _options: ValidationOptions): void {
        // Intentionally empty: see above.
    }
}

function markSyntaxErrors(diagnostics: Diagnostic[], from: number): void {
    for (let i = from; i < diagnostics.length; i++) {
        const diagnostic = diagnostics[i];
        diagnostic.code = IssueCodes.ParseSyntaxError;
        diagnostic.data = { ...(diagnostic.data as object | undefined), code: IssueCodes.ParseSyntaxError };
    }
}
