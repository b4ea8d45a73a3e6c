import type { Diagnostic } from 'vscode-languageserver';
import type { LangiumCoreServices, LangiumDocument, Lexer, ParseResult, ValidationOptions } from 'langium';
import { DefaultDocumentValidator } from 'langium';
import { IssueCodes } from './issue-codes.js';

type ParserError = ParseResult['parserErrors'][number];

/** How the parser error messages end when a complete statement is followed by more input. */
const endOfStatementExpected = 'expected \';\' or the end of the file.';

/** What to say instead when that input is at the start of a statement: no statement starts with it. */
const statementExpected = 'expected a statement (CREATE, SELECT, SET, USE, APPLY CHANGES, INSERT, ...).';

/**
 * Document validator (Langium's `DocumentValidator` service): Langium's, with three changes.
 *
 * - Lexing and parsing errors carry Spark's error class `PARSE_SYNTAX_ERROR`, so that the editor, the
 *   CLI and CI name them alike.
 * - One syntax error per statement: after the first error the parser recovers and often reports
 *   follow-on errors that only restate the first one. Statements are delimited lexically (by `;` and
 *   notebook cell breaks), so an error in one statement never hides or adds errors in another.
 *   A word that starts no statement (`CRATE TABLE ...`) is reported as such.
 * - No diagnostics for unresolved dataset references (see {@link processLinkingErrors}).
 */
export class PipelineSqlDocumentValidator extends DefaultDocumentValidator {

    private readonly lexer: Lexer;

    constructor(services: LangiumCoreServices) {
        super(services);
        this.lexer = services.parser.Lexer;
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
        for (const error of [...parseResult.parserErrors].sort((a, b) => errorOffset(a) - errorOffset(b))) {
            const statement = statementIndex(ends, errorOffset(error));
            if (!reported.has(statement)) {
                reported.add(statement);
                firstPerStatement.push(starts.has(errorOffset(error)) ? asNoStatementError(error) : error);
            }
        }
        const start = diagnostics.length;
        super.processParsingErrors({ ...parseResult, parserErrors: firstPerStatement }, diagnostics, options);
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
        diagnostic.data = { ...(diagnostic.data as object | undefined), code: IssueCodes.ParseSyntaxError };
    }
}
