/**
 * The preview's state and its reducer: every message from the extension and every user action
 * becomes a new state, and the view renders the state. Pure, so the rules (which dataset is shown
 * after a run, which answers are stale, how paged rows join the first ones) are unit-tested.
 */
import type { GraphModel, HostMessage, PersistedPreviewState, PreviewView } from '../../../common/preview-messages.js';
import type { DatasetPreview, Outcome, ResultRow, RowsModel, RunOutcome, RunSuccessModel, StatementOutcome, VersionChangesModel } from '../../../common/result-model.js';
import { withStateRows } from '../../../common/local-state-rows.js';
import type { SortSpec } from './grid.js';
import type { ScaleMode } from './scale.js';

/** A version selected in the SCD2 picture, and the events behind its key once they arrive. */
export interface VersionSelection {
    readonly dataset: string;
    readonly keyId: string;
    readonly rowIndex: number;
    readonly requestId: number;
    readonly events?: Outcome<RowsModel>;
}

/** Everything the preview shows. */
export interface PreviewState {
    readonly view: PreviewView;
    readonly dataset?: string;
    /** The last run's outcome (or the state restored after a reload). */
    readonly outcome?: RunOutcome;
    /**
     * The Changes view's history of the dataset shown: its versions, and the version picked (undefined:
     * the last update's feed from the run), with that version's feed once it arrives.
     */
    readonly versions?: { readonly dataset: string; readonly picked?: number; readonly changes?: Outcome<VersionChangesModel> };
    /** The last statement run on the local state ("Run on local state"), shown in its own view. */
    readonly statement?: StatementOutcome;
    /** When the last run failed: the last successful one before it, whose results stay shown (marked as previous). */
    readonly previous?: RunSuccessModel;
    /** Rows paged in after the first ones, per dataset of the current run. */
    readonly moreRows: Readonly<Record<string, readonly ResultRow[]>>;
    readonly pageError?: string;
    readonly pageLoading?: string;
    /** A run in progress (its label). */
    readonly running?: string;
    readonly sort: Readonly<Record<string, SortSpec | undefined>>;
    readonly filter: Readonly<Record<string, string>>;
    /** Column widths the user set by dragging, per dataset and column (the others fit their content). */
    readonly columnWidths: ReadonlyMap<string, ReadonlyMap<string, number>>;
    readonly changedOnly: boolean;
    readonly scale: { readonly history: ScaleMode; readonly bitemporal: ScaleMode };
    readonly selection?: VersionSelection;
    /** Index of the "as of system time" step per bitemporal dataset (undefined: the latest). */
    readonly asOf: Readonly<Record<string, number | undefined>>;
    readonly graph?: GraphModel;
    readonly graphError?: string;
    readonly selectedNode?: string;
    readonly trusted: boolean;
    readonly nextRequestId: number;
}

/** User actions (from the webview's own controls). */
export type UiAction =
    | { readonly type: 'ui/view'; readonly view: PreviewView }
    | { readonly type: 'ui/dataset'; readonly dataset: string }
    | { readonly type: 'ui/sort'; readonly dataset: string; readonly sort: SortSpec | undefined }
    | { readonly type: 'ui/filter'; readonly dataset: string; readonly filter: string }
    /** A column resized by the user; `width` undefined: back to fitting its content. */
    | { readonly type: 'ui/columnWidth'; readonly dataset: string; readonly column: string; readonly width: number | undefined }
    | { readonly type: 'ui/changedOnly'; readonly value: boolean }
    | { readonly type: 'ui/scale'; readonly picture: 'history' | 'bitemporal'; readonly mode: ScaleMode }
    | { readonly type: 'ui/selectVersion'; readonly dataset: string; readonly keyId: string; readonly rowIndex: number }
    | { readonly type: 'ui/asOf'; readonly dataset: string; readonly step: number | undefined }
    | { readonly type: 'ui/selectNode'; readonly id: string | undefined }
    | { readonly type: 'ui/pageRequested'; readonly dataset: string }
    /** A version picked in the Changes view (undefined: back to the last update's feed). */
    | { readonly type: 'ui/version'; readonly dataset: string; readonly version: number | undefined };

/** Every input of the reducer. */
export type PreviewAction = HostMessage | UiAction;

/** The state of a fresh panel, or of one revived from its persisted part. */
export function initialState(persisted?: Partial<PersistedPreviewState>): PreviewState {
    return {
        view: persisted?.view ?? 'results',
        dataset: persisted?.dataset,
        moreRows: {},
        sort: {},
        filter: {},
        columnWidths: new Map(),
        changedOnly: false,
        scale: { history: 'proportional', bitemporal: 'even' },
        asOf: {},
        trusted: true,
        nextRequestId: 1,
    };
}

/** The successful outcome whose datasets are shown: the last run's, or after a failed run the one before it. */
export function shownRun(state: PreviewState): RunSuccessModel | undefined {
    return state.outcome?.ok ? state.outcome : state.previous;
}

/**
 * The changes of the run shown that still describe a dataset's rows: none for the state restored
 * after a reload (no run to compare with), nor once a statement run on the local state changed the
 * dataset after the run (its rows are the state's now; the header names the statement's version).
 */
export function runChangesOf(state: PreviewState, dataset: DatasetPreview): DatasetPreview['changes'] {
    const shown = shownRun(state);
    return shown && !shown.restored && (dataset.changedSince ?? []).length === 0 ? dataset.changes : undefined;
}

/** Whether the datasets shown are from the run before the last one (which failed). */
export function fromPreviousRun(state: PreviewState): boolean {
    return state.outcome?.ok === false && state.previous !== undefined;
}

/** The datasets shown: the last run's, or after a failed run those of the last successful one (none if there was none). */
export function datasetsOf(state: PreviewState): readonly DatasetPreview[] {
    return shownRun(state)?.datasets ?? [];
}

/** The dataset shown, if the current outcome has it. */
export function currentDataset(state: PreviewState): DatasetPreview | undefined {
    return datasetsOf(state).find(d => d.name === state.dataset);
}

/** The rows of a dataset: the first ones and those paged in. */
export function rowsOf(state: PreviewState, dataset: DatasetPreview): readonly ResultRow[] {
    const more = state.moreRows[dataset.name];
    return more && more.length > 0 ? [...dataset.rows, ...more] : dataset.rows;
}

/** The dataset and version a statement run on the local state wrote, if it wrote one. */
export function writtenVersion(statement: StatementOutcome | undefined): { readonly dataset: string; readonly version: number } | undefined {
    return statement?.ok && statement.dataset && statement.version ? { dataset: statement.dataset, version: statement.version.version } : undefined;
}

/** Whether two dataset names are the same (names are case-insensitive). */
function sameName(a: string | undefined, b: string | undefined): boolean {
    return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

/**
 * The views that make sense for a dataset: its changes when the last update changed it or a statement
 * wrote a version of it, history only for SCD2 targets, bitemporal only for bitemporal ones; the
 * statement when one was run.
 */
export function viewsFor(dataset: DatasetPreview | undefined, statement?: StatementOutcome): PreviewView[] {
    const views: PreviewView[] = ['results'];
    if ((dataset?.changes?.feed?.length ?? 0) > 0 || (dataset && sameName(writtenVersion(statement)?.dataset, dataset.name))) {
        views.push('changes');
    }
    if (dataset?.cdc?.storedAs === 'scd2') {
        views.push('history');
    }
    if (dataset?.cdc?.storedAs === 'bitemporal') {
        views.push('bitemporal');
    }
    if (statement) {
        views.push('statement');
    }
    views.push('graph');
    return views;
}

/**
 * The dataset to show after a run: the one the run was for, else the one shown before if the run
 * still has it, else the first the run updated, else the first.
 */
function pickDataset(outcome: RunOutcome | undefined, previous: string | undefined): string | undefined {
    if (!outcome?.ok) {
        return previous;
    }
    const names = outcome.datasets.map(d => d.name);
    const wanted = outcome.summary.dataset;
    const byName = (name: string | undefined) => (name ? names.find(n => n.toLowerCase() === name.toLowerCase()) : undefined);
    return byName(wanted) ?? byName(previous) ?? outcome.datasets.find(d => d.updated)?.name ?? names[0];
}

/** The next state. */
export function reduce(state: PreviewState, action: PreviewAction): PreviewState {
    switch (action.type) {
        case 'runStarted':
            return { ...state, running: action.label };
        case 'runCancelled':
            return { ...state, running: undefined };
        case 'runResult': {
            if (!action.outcome.ok) {
                // The failed run changed nothing: the results shown so far stay, marked as from the previous run.
                const previous = state.outcome?.ok ? state.outcome : state.previous;
                return { ...state, outcome: action.outcome, previous, running: undefined, pageLoading: undefined };
            }
            const dataset = pickDataset(action.outcome, state.dataset);
            const shown = action.outcome.datasets.find(d => d.name === dataset);
            // A picture view of a dataset that has no such picture falls back to the results.
            const view = state.view === 'graph' || viewsFor(shown, state.statement).includes(state.view) ? state.view : 'results';
            return {
                ...state, outcome: action.outcome, previous: undefined, running: undefined, dataset, view, moreRows: {}, pageError: undefined,
                pageLoading: undefined, selection: undefined, versions: undefined,
            };
        }
        case 'rowsPage': {
            if (shownRun(state)?.summary.runId !== action.runId) {
                return state;
            }
            if (!action.page.ok) {
                return { ...state, pageLoading: undefined, pageError: `${action.page.error.class}: ${action.page.error.message}` };
            }
            const dataset = datasetsOf(state).find(d => d.name === action.dataset);
            const have = dataset ? rowsOf(state, dataset).length : -1;
            // Only a page that continues the rows we have joins them (a repeated answer is ignored).
            if (!dataset || action.offset !== have) {
                return { ...state, pageLoading: undefined };
            }
            return {
                ...state, pageLoading: undefined, pageError: undefined,
                moreRows: { ...state.moreRows, [dataset.name]: [...(state.moreRows[dataset.name] ?? []), ...action.page.rows] },
            };
        }
        case 'changeEvents':
            if (!state.selection || state.selection.requestId !== action.requestId) {
                return state;
            }
            return { ...state, selection: { ...state.selection, events: action.events } };
        case 'graph':
            return { ...state, graph: action.graph ?? state.graph, graphError: action.error };
        case 'showView':
            return { ...state, view: action.view, dataset: action.dataset ?? state.dataset };
        case 'trust':
            return { ...state, trusted: action.trusted };
        case 'statementResult': {
            // A statement that wrote a version shows its dataset, and the Changes view that version.
            const written = writtenVersion(action.outcome);
            const changed = written && datasetsOf(state).find(d => sameName(d.name, written.dataset))?.name;
            if (!written || !changed) {
                return { ...state, statement: action.outcome, view: 'statement' };
            }
            return {
                ...state, statement: action.outcome, view: 'statement', dataset: changed, selection: changed === state.dataset ? state.selection : undefined,
                versions: { dataset: changed, picked: written.version },
            };
        }
        case 'stateRefreshed': {
            // The rows as the state holds them now; the run's other facts (its feed, metrics) stay.
            const shown = shownRun(state);
            if (!action.outcome.ok || !shown) {
                return state;
            }
            const refreshed = withStateRows(shown, action.outcome, action.written);
            const run = state.outcome?.ok ? { outcome: refreshed } : { previous: refreshed };
            return { ...state, ...run, moreRows: {}, pageError: undefined, pageLoading: undefined };
        }
        case 'versionChanges':
            // Only the answer for the dataset shown, and for the version picked last, is kept.
            if (action.dataset !== state.dataset || (action.changes.ok && state.versions?.dataset === action.dataset && state.versions.picked !== undefined
                && action.changes.version !== state.versions.picked)) {
                return state;
            }
            return { ...state, versions: { dataset: action.dataset, picked: state.versions?.dataset === action.dataset ? state.versions.picked : undefined, changes: action.changes } };
        case 'ui/version':
            return { ...state, versions: { dataset: action.dataset, picked: action.version, changes: state.versions?.dataset === action.dataset ? state.versions.changes : undefined } };
        case 'ui/view':
            return { ...state, view: action.view };
        case 'ui/dataset': {
            const shown = datasetsOf(state).find(d => d.name === action.dataset);
            const view = state.view === 'graph' || viewsFor(shown, state.statement).includes(state.view) ? state.view : 'results';
            return { ...state, dataset: action.dataset, view, selection: undefined, versions: undefined };
        }
        case 'ui/sort':
            return { ...state, sort: { ...state.sort, [action.dataset]: action.sort } };
        case 'ui/filter':
            return { ...state, filter: { ...state.filter, [action.dataset]: action.filter } };
        case 'ui/columnWidth': {
            const widths = new Map(state.columnWidths.get(action.dataset) ?? []);
            if (action.width === undefined) {
                widths.delete(action.column);
            } else {
                widths.set(action.column, action.width);
            }
            return { ...state, columnWidths: new Map(state.columnWidths).set(action.dataset, widths) };
        }
        case 'ui/changedOnly':
            return { ...state, changedOnly: action.value };
        case 'ui/scale':
            return { ...state, scale: { ...state.scale, [action.picture]: action.mode } };
        case 'ui/selectVersion':
            return {
                ...state, nextRequestId: state.nextRequestId + 1,
                selection: { dataset: action.dataset, keyId: action.keyId, rowIndex: action.rowIndex, requestId: state.nextRequestId },
            };
        case 'ui/asOf':
            return { ...state, asOf: { ...state.asOf, [action.dataset]: action.step } };
        case 'ui/selectNode':
            return { ...state, selectedNode: action.id };
        case 'ui/pageRequested':
            return { ...state, pageLoading: action.dataset, pageError: undefined };
    }
}

/** The part of the state kept across reloads. */
export function persistedPart(state: PreviewState, fallbackUri?: string): PersistedPreviewState {
    return { documentUri: state.outcome?.summary.documentUri ?? fallbackUri, view: state.view, dataset: state.dataset };
}
