import type { Diagnostic } from 'vscode-languageserver';
import type { AstNode, LangiumDocument, Lexer, ParseResult, ValidationAcceptor, ValidationOptions } from 'langium';
import { Cancellation, DefaultDocumentValidator, AstUtils, isOperationCancelled } from 'langium';
import { internalErrorDiagnostic } from '../pipeline/document-failures.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import type { PipelineRegistry } from '../pipeline/pipeline-registry.js';
import * as ast from '../generated/ast.js';
import { IssueCodes, Issues } from './issue-codes.js';
import { SampleChecks } from './sample-checks.js';
import { ValidationContext } from './validation-context.js';

type ParserError = ParseResult['parserErrors'][number];

/** How the parser error messages end when a complete statement is followed by more input. */
const endOfStatementExpected = 'expected \';\' or the end of the file.';

/** What to say instead when that input is at the start of a statement: no statement starts with it. */
const statementExpected = 'expected a statement (CREATE, SELECT, SET, USE, APPLY CHANGES, INSERT, ...).';

/**
 * Document validator (Langium's `DocumentValidator` service): Langium's, with these changes.
 *
 * - Lexing and parsing errors carry Spark's error class `PARSE_SYNTAX_ERROR`, so that the editor, the
 *   CLI and CI name them alike.
 * - One syntax error per statement: after the first error the parser recovers and often reports
 *   follow-on errors that only restate the first one. Statements are delimited lexically (by `;` and
 *   notebook cell breaks), so an error in one statement never hides or adds errors in another.
 *   A word that starts no statement (`CRATE TABLE ...`) is reported as such.
 * - The statement being typed is reported at the cursor: when the parser ran out of input inside the
 *   last statement (it reported an error at the end of the file), that error is the statement's one
 *   syntax error, even if the parser reported an earlier one it recovered from. With the input cut
 *   short, the parser's choices before the end are guesses (`FROM stream(` reads `stream` as a
 *   table name and then misses KEYS at `(`); what is certain is that the statement is not finished.
 * - A syntax error where AUTO CDC expects its KEYS list is `AUTOCDC_EMPTY_KEYS` (rule V1), unless it
 *   is at the end of the file: a statement being typed is incomplete, not missing a clause.
 * - No diagnostics for unresolved dataset references (see {@link processLinkingErrors}).
 * - The sample catalog files (`samples/*.sql`) get syntax errors and the checks of their sample data
 *   (a LOCATION outside the pipeline, unreadable files) only: they declare source tables, not
 *   pipeline datasets.
 */
export class PipelineSqlDocumentValidator extends DefaultDocumentValidator {

    private readonly lexer: Lexer;
    private readonly registry: PipelineRegistry;
    private readonly services: PipelineSqlServices;
    private sampleChecks?: SampleChecks;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.lexer = services.parser.Lexer;
        this.registry = services.pipeline.Registry;
        this.services = services;
    }

    /**
     * Langium's validation, then: in a statement with a syntax error, only the syntax error is kept.
     * The parser's error recovery leaves a partial tree there, and checks of the missing parts (a
     * SEQUENCE BY that was not parsed) would only restate the syntax error.
     */
    override async validateDocument(document: LangiumDocument, options: ValidationOptions = {}, cancelToken = Cancellation.CancellationToken.None): Promise<Diagnostic[]> {
        const diagnostics = await super.validateDocument(document, options, cancelToken);
        const syntax = diagnostics.filter(d => (d.data as { syntax?: boolean } | undefined)?.syntax);
        if (syntax.length === 0 || syntax.length === diagnostics.length) {
            return diagnostics;
        }
        const ends = this.statementEnds(document.textDocument.getText());
        const broken = new Set(syntax.map(d => statementIndex(ends, document.textDocument.offsetAt(d.range.start))));
        return diagnostics.filter(d => syntax.includes(d) || !broken.has(statementIndex(ends, document.textDocument.offsetAt(d.range.start))));
    }

    protected override async validateAst(rootNode: AstNode, options: ValidationOptions, cancelToken = Cancellation.CancellationToken.None): Promise<Diagnostic[]> {
        if (this.registry.membershipOf(AstUtils.getDocument(rootNode).uri).role === 'catalog') {
            const diagnostics: Diagnostic[] = [];
            const accept: ValidationAcceptor = (severity, message, info) => diagnostics.push(this.toDiagnostic(severity, message, info));
            this.sampleChecks ??= new SampleChecks(new ValidationContext(this.services), this.services);
            for (const node of AstUtils.streamAst(rootNode)) {
                if (ast.isCreateTable(node)) {
                    this.sampleChecks.checkCatalogTableLocation(node, accept);
                }
            }
            return diagnostics;
        }
        try {
            return await super.validateAst(rootNode, options, cancelToken);
        } catch (error) {
            // Langium would log this and report nothing: the file would look clean.
            if (isOperationCancelled(error)) {
                throw error;
            }
            console.error('Validation failed:', error);
            return [internalErrorDiagnostic('validating', error)];
        }
    }

    protected override processLexingErrors(parseResult: ParseResult, diagnostics: Diagnostic[], options: ValidationOptions): void {
        const start = diagnostics.length;
        super.processLexingErrors(parseResult, diagnostics, options);
        markSyntaxErrors(diagnostics, start);
    }

    protected override processParsingErrors(parseResult: ParseResult, diagnostics: Diagnostic[], options: ValidationOptions): void {
        if (parseResult.parserErrors.length === 0) {
            return;
        }
        const text = parseResult.value.$cstNode?.root.fullText ?? '';
        const ends = this.statementEnds(text);
        const starts = this.statementStarts(text);
        const reported = new Set<number>(parseResult.lexerErrors.map(error => statementIndex(ends, error.offset)));
        const firstPerStatement: ParserError[] = [];
        const sorted = [...parseResult.parserErrors].sort((a, b) => errorOffset(a) - errorOffset(b));
        const atEnd = sorted.find(isAtEndOfInput);
        const unfinished = atEnd ? statementIndex(ends, errorOffset(atEnd)) : undefined;
        for (const error of sorted) {
            const statement = statementIndex(ends, errorOffset(error));
            if (statement === unfinished && error !== atEnd) {
                continue;
            }
            if (!reported.has(statement)) {
                reported.add(statement);
                firstPerStatement.push(starts.has(errorOffset(error)) ? asNoStatementError(error) : error);
            }
        }
        const start = diagnostics.length;
        super.processParsingErrors({ ...parseResult, parserErrors: firstPerStatement }, diagnostics, options);
        markSyntaxErrors(diagnostics, start);
        // The parser reports errors in the order given, one per statement, so indexes line up.
        firstPerStatement.forEach((error, i) => {
            const diagnostic = diagnostics[start + i];
            if (diagnostic && !isAtEndOfInput(error) && isMissingKeys(error)) {
                diagnostic.code = Issues.AutoCdcEmptyKeys.code;
                diagnostic.message = Issues.AutoCdcEmptyKeys.message({ detail: diagnostic.message });
                diagnostic.data = { code: Issues.AutoCdcEmptyKeys.code, syntax: true, missing: /expected KEYS/.test(error.message) };
            }
        });
    }

    /**
     * Reports no linking errors. The only cross-references of the grammar are dataset references
     * (`FROM x`, `INTO x`); a name that resolves to nothing in the pipeline is usually a catalog table,
     * so the pipeline model reports unknown datasets itself, as warnings, where it knows the catalog.
     */
    protected override processLinkingErrors(_document: LangiumDocument, _diagnostics: Diagnostic[], _options: ValidationOptions): void {
        // Intentionally empty: see above.
    }

    /** The offsets at which statements end: every `;` and notebook cell break, in order. */
    private statementEnds(text: string): number[] {
        return this.lexer.tokenize(text).tokens
            .filter(token => token.tokenType.name === ';' || token.tokenType.name === 'CELL_BREAK')
            .map(token => token.startOffset);
    }

    /** The offsets at which statements start: the first token of the file and the first after each end. */
    private statementStarts(text: string): Set<number> {
        const starts = new Set<number>();
        let atStart = true;
        for (const token of this.lexer.tokenize(text).tokens) {
            const isEnd = token.tokenType.name === ';' || token.tokenType.name === 'CELL_BREAK';
            if (atStart && !isEnd) {
                starts.add(token.startOffset);
            }
            atStart = isEnd;
        }
        return starts;
    }
}

/**
 * A parser error at the first token of a statement that says "expected ';'" means that no statement
 * starts with that token; it is worded so.
 */
function asNoStatementError(error: ParserError): ParserError {
    return error.message.endsWith(endOfStatementExpected)
        ? { ...error, message: error.message.replace(endOfStatementExpected, statementExpected) } : error;
}

/**
 * Whether a parser error is about the KEYS list of an AUTO CDC flow: the keyword is missing
 * (`expected KEYS`) or the list is empty (`KEYS ()`). Rule names in Chevrotain's rule stack may carry
 * invisible suffixes, hence the prefix match.
 */
function isMissingKeys(error: ParserError): boolean {
    const stack = ((error as ParserError & { context?: { ruleStack?: string[] } }).context?.ruleStack ?? []).map(r => r.replace(/[^\w]/g, ''));
    const inSpec = stack.some(r => r === 'AutoCdcSpec' || r === 'SnapshotSpec');
    if (!inSpec) {
        return false;
    }
    if (/expected KEYS\.?$/.test(error.message)) {
        return true;
    }
    const keys = stack.lastIndexOf('ColumnNameList');
    return keys >= 0 && (stack[keys - 1] === 'AutoCdcSpec' || stack[keys - 1] === 'SnapshotSpec') && error.token.image === ')';
}

/** Whether the parser reported an error because the input ended (its token is the end of the file). */
function isAtEndOfInput(error: ParserError): boolean {
    return error.token.tokenType.name === 'EOF';
}

/** Where a parser error is: its token, or for an error at the end of input, the token before it. */
function errorOffset(error: ParserError): number {
    if (!isNaN(error.token.startOffset)) {
        return error.token.startOffset;
    }
    const previous = (error as ParserError & { previousToken?: { endOffset?: number } }).previousToken;
    return previous?.endOffset !== undefined && !isNaN(previous.endOffset) ? previous.endOffset : Number.MAX_SAFE_INTEGER;
}

/** The index of the statement (between separators) that contains an offset; a separator belongs to the statement it ends. */
function statementIndex(ends: readonly number[], offset: number): number {
    let low = 0;
    let high = ends.length;
    while (low < high) {
        const middle = (low + high) >> 1;
        if (ends[middle] < offset) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

function markSyntaxErrors(diagnostics: Diagnostic[], from: number): void {
    for (let i = from; i < diagnostics.length; i++) {
        const diagnostic = diagnostics[i];
        diagnostic.code = IssueCodes.ParseSyntaxError;
        diagnostic.data = { ...(diagnostic.data as object | undefined), code: IssueCodes.ParseSyntaxError, syntax: true };
    }
}
