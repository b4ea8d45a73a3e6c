/**
 * What a run command runs, worked out without the VS Code API so that it is unit-tested: the
 * document and dataset from the command's argument (a code lens passes `{ uri, dataset }`, the
 * editor title passes the file's URI, the palette nothing), the dataset under the cursor from the
 * code lenses of the document, the request parameters, and the progress title.
 */
import type { RunPipelineParams } from '../../../common/protocol.js';

/** The run commands. */
export type RunKind = 'runFlow' | 'runPipeline' | 'fullRefresh' | 'runFrom';

/** A document of a pipeline, and a dataset of it. */
export interface RunTarget {
    readonly uri: string;
    readonly dataset?: string;
}

/**
 * A "Run flow" code lens of a document: its line, the dataset it runs and the document it runs it
 * in (in a file several pipelines list, each pipeline's lens names that pipeline's document and label).
 */
export interface LensInfo {
    readonly line: number;
    readonly dataset: string;
    readonly uri: string;
    readonly pipeline?: string;
}

/** What a run command may run in a document, as the palette offers it. */
export interface RunChoice {
    /** The dataset, with the pipeline when the file is several pipelines' (`gold · eu`). */
    readonly label: string;
    readonly target: RunTarget;
}

/** Whether a value is the `{ uri, dataset }` argument of our code lenses. */
function isLensArgument(value: unknown): value is RunTarget {
    if (typeof value !== 'object' || value === null) {
        return false;
    }
    const v = value as Record<string, unknown>;
    return typeof v.uri === 'string' && (v.dataset === undefined || typeof v.dataset === 'string');
}

/** Whether a value looks like a `vscode.Uri` (what the editor title passes). */
function isUriLike(value: unknown): value is { scheme: string; toString(): string } {
    return typeof value === 'object' && value !== null && typeof (value as { scheme?: unknown }).scheme === 'string'
        && typeof (value as { path?: unknown }).path === 'string';
}

/** The target of a command from its argument, or the active editor's document. */
export function targetFromArgument(argument: unknown, activeUri: string | undefined): RunTarget | undefined {
    if (isLensArgument(argument)) {
        return { uri: argument.uri, dataset: argument.dataset };
    }
    if (isUriLike(argument)) {
        return { uri: argument.toString() };
    }
    return activeUri ? { uri: activeUri } : undefined;
}

/** The lenses of the nearest lens line at or above `line` (the statement the cursor is in; one per pipeline of a shared file). */
export function lensesAtLine(lenses: readonly LensInfo[], line: number): LensInfo[] {
    const best = lenses.reduce<number | undefined>((found, lens) => lens.line <= line && (found === undefined || lens.line > found) ? lens.line : found, undefined);
    return best === undefined ? [] : lenses.filter(lens => lens.line === best);
}

/** The runs some lenses offer, each once: a dataset, and in a file several pipelines list, each pipeline's. */
export function runChoices(lenses: readonly LensInfo[]): RunChoice[] {
    const choices = new Map<string, RunChoice>();
    for (const lens of lenses) {
        const label = lens.pipeline ? `${lens.dataset} · ${lens.pipeline}` : lens.dataset;
        if (!choices.has(label)) {
            choices.set(label, { label, target: { uri: lens.uri, dataset: lens.dataset } });
        }
    }
    return [...choices.values()];
}

/**
 * The pipelines a whole-pipeline run of a document may run, each once, when the document is several
 * pipelines' (their lenses name them): empty for a file of one pipeline, which needs no pick.
 */
export function pipelineChoices(lenses: readonly LensInfo[]): RunChoice[] {
    const choices = new Map<string, RunChoice>();
    for (const lens of lenses) {
        if (lens.pipeline !== undefined && !choices.has(lens.pipeline)) {
            choices.set(lens.pipeline, { label: lens.pipeline, target: { uri: lens.uri } });
        }
    }
    return choices.size > 1 ? [...choices.values()] : [];
}

/** Whether a command needs a dataset. */
export function needsDataset(kind: RunKind): boolean {
    return kind === 'runFlow' || kind === 'runFrom';
}

/** The request parameters of a run (without the progress token). */
export function runParams(kind: RunKind, target: RunTarget, maxRows: number): Omit<RunPipelineParams, 'workDoneToken'> {
    switch (kind) {
        case 'runFlow':
            return { uri: target.uri, scope: 'upstream', dataset: target.dataset, fullRefresh: false, maxRows };
        case 'runFrom':
            return { uri: target.uri, scope: 'downstream', dataset: target.dataset, fullRefresh: false, maxRows };
        case 'fullRefresh':
            return target.dataset
                ? { uri: target.uri, scope: 'upstream', dataset: target.dataset, fullRefresh: true, maxRows }
                : { uri: target.uri, scope: 'pipeline', fullRefresh: true, maxRows };
        case 'runPipeline':
            return { uri: target.uri, scope: 'pipeline', fullRefresh: false, maxRows };
    }
}

/** The title of a run's progress notification. */
export function runLabel(kind: RunKind, dataset: string | undefined): string {
    switch (kind) {
        case 'runFlow': return `Run flow ${dataset}`;
        case 'runFrom': return `Run from ${dataset}`;
        case 'fullRefresh': return dataset ? `Full refresh of ${dataset}` : 'Full refresh of the pipeline';
        case 'runPipeline': return 'Run pipeline';
    }
}

/** The growth of a progress bar from the last reported percentage to the next (VS Code wants increments). */
export function progressIncrement(last: number, next: number | undefined): { increment: number; last: number } {
    if (next === undefined || !Number.isFinite(next)) {
        return { increment: 0, last };
    }
    const clamped = Math.max(last, Math.min(100, next));
    return { increment: clamped - last, last: clamped };
}

/** A statement to run on the local state: its document, its text and where it starts. */
export interface StatementTarget {
    readonly uri: string;
    readonly text: string;
    readonly start: { readonly line: number; readonly character: number };
}

/** The editor's selection as far as "Run on local state" needs it. */
export interface SelectionInfo {
    readonly uri: string;
    readonly text: string;
    readonly start: { readonly line: number; readonly character: number };
}

/**
 * The statement of "Run on local state": the code lens's `{ uri, text, start }`, else the editor's
 * selection (leading blank lines skipped, so errors land on the statement); nothing for an empty selection.
 */
export function statementFromArgument(argument: unknown, selection: SelectionInfo | undefined): StatementTarget | undefined {
    if (typeof argument === 'object' && argument !== null) {
        const v = argument as Record<string, unknown>;
        const start = v.start as Record<string, unknown> | undefined;
        if (typeof v.uri === 'string' && typeof v.text === 'string' && typeof start?.line === 'number' && typeof start.character === 'number') {
            return { uri: v.uri, text: v.text, start: { line: start.line, character: start.character } };
        }
    }
    if (!selection || selection.text.trim() === '') {
        return undefined;
    }
    const skipped = /^(?:[ \t]*\r?\n)*/.exec(selection.text)![0];
    const lines = skipped.split('\n').length - 1;
    return { uri: selection.uri, text: selection.text.slice(skipped.length), start: lines > 0 ? { line: selection.start.line + lines, character: 0 } : selection.start };
}
