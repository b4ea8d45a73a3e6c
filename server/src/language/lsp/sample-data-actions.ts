/**
 * The quick fix of the "no sample data" diagnostics (issue 16): a table the pipeline reads that is
 * neither a dataset nor in the sample catalog (`TABLE_OR_VIEW_NOT_FOUND`, as validation and runs
 * report it), missing sample files, a Python dataset without samples. It runs the client command
 * `Pipeline SQL: Create Sample Data` for the document's pipeline (the server writes the files on
 * the request that command sends), so the fix itself carries no edit.
 */
import type { LangiumDocument } from 'langium';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import { CreateSampleDataCommand } from '../../../../common/protocol.js';
import { ErrorClass } from '../../../../engine/src/spark/error-classes.js';

/** The codes the fix is offered on. */
const noSampleData: ReadonlySet<string> = new Set([ErrorClass.tableNotFound, ErrorClass.sampleMissing, ErrorClass.pythonDatasetNotSampled]);

function codeOf(diagnostic: Diagnostic): string | undefined {
    const data = diagnostic.data as { code?: unknown } | undefined;
    if (typeof data?.code === 'string') {
        return data.code;
    }
    return typeof diagnostic.code === 'string' ? diagnostic.code : undefined;
}

/** One "Create sample data" action for the diagnostics that say a source has no sample data (none for a file in no pipeline). */
export function sampleDataActions(document: LangiumDocument, diagnostics: readonly Diagnostic[], inPipeline: boolean): CodeAction[] {
    const matching = diagnostics.filter(d => noSampleData.has(codeOf(d) ?? ''));
    if (matching.length === 0 || !inPipeline || document.uri.scheme !== 'file') {
        return [];
    }
    const uri = document.uri.toString();
    return [{
        title: 'Create sample data for the sources of this pipeline that have none',
        kind: CodeActionKind.QuickFix,
        diagnostics: matching,
        command: { title: 'Create Sample Data', command: CreateSampleDataCommand, arguments: [uri] },
    }];
}
