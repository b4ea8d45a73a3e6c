/**
 * What the language server does when building one document fails with an exception (a defect, or
 * input that exhausts a limit, such as a stack overflow on deeply nested text): the failure is kept
 * with the document and reported on it as a `PIPELINE_SQL_INTERNAL_ERROR` diagnostic naming the
 * step and the cause, and the build goes on with the other documents. One document never stops the
 * server from serving the others.
 */
import type { AstNode, ParseResult } from 'langium';
import { DocumentState, RootCstNodeImpl } from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import * as ast from '../generated/ast.js';
import { Issues } from '../validation/issue-codes.js';

/** What the build was doing in each phase, for the message. */
const phaseNames: ReadonlyMap<DocumentState, string> = new Map([
    [DocumentState.Parsed, 'reading and parsing'],
    [DocumentState.IndexedContent, 'indexing the datasets of'],
    [DocumentState.ComputedScopes, 'collecting the names of'],
    [DocumentState.Linked, 'resolving the names in'],
    [DocumentState.IndexedReferences, 'indexing the references of'],
    [DocumentState.Validated, 'validating'],
]);

/** The cause of a failure in a few words: the error's class and message, and what it usually means. */
export function describeCause(error: unknown): string {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const short = text.length > 300 ? `${text.slice(0, 300)}…` : text;
    return error instanceof RangeError && /call stack/i.test(error.message)
        ? `${short}; the text is probably nested too deeply`
        : short;
}

/** The diagnostic of a failed build step, at the start of the document. */
export function internalErrorDiagnostic(step: string, error: unknown): Diagnostic {
    const issue = Issues.InternalError;
    return {
        severity: DiagnosticSeverity.Error,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        message: issue.message({ step, cause: describeCause(error) }),
        code: issue.code,
        data: { code: issue.code },
        source: 'pipeline-sql',
    };
}

/** The parse result of a text whose parsing failed: a file without statements, over the whole text. */
export function emptyParseResult(text: string): ParseResult<AstNode> {
    const cst = new RootCstNodeImpl(text);
    cst.root = cst;
    const root: AstNode & { statements: AstNode[]; $cstNode?: RootCstNodeImpl } = { $type: ast.PipelineFile.$type, statements: [] };
    cst.astNode = root;
    root.$cstNode = cst;
    return { value: root, lexerErrors: [], parserErrors: [] };
}

/**
 * The failures of the last build of each document, by URI and build phase (a shared service,
 * `pipeline.DocumentFailures`): the document factory records failed parses, the document builder
 * the other phases, and the builder's validation reports them.
 */
export class DocumentFailures {

    private readonly failures = new Map<string, Map<DocumentState, unknown>>();

    /** A build phase of a document failed. */
    record(uri: string, phase: DocumentState, error: unknown): void {
        let phases = this.failures.get(uri);
        if (!phases) {
            phases = new Map();
            this.failures.set(uri, phases);
        }
        phases.set(phase, error);
    }

    /** A phase of a document starts again (it may succeed this time); no phase: the document is gone. */
    clear(uri: string, phase?: DocumentState): void {
        if (phase === undefined) {
            this.failures.delete(uri);
            return;
        }
        const phases = this.failures.get(uri);
        phases?.delete(phase);
        if (phases?.size === 0) {
            this.failures.delete(uri);
        }
    }

    /** Whether a phase of a document failed in its last run. */
    has(uri: string, phase?: DocumentState): boolean {
        const phases = this.failures.get(uri);
        return phase === undefined ? phases !== undefined : phases?.has(phase) === true;
    }

    /** The diagnostics of a document's failed phases, in build order. */
    diagnostics(uri: string): Diagnostic[] {
        const phases = this.failures.get(uri);
        if (!phases) {
            return [];
        }
        return [...phases].sort(([a], [b]) => a - b).map(([phase, error]) => internalErrorDiagnostic(phaseNames.get(phase) ?? 'building', error));
    }
}
