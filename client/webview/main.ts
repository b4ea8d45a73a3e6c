/**
 * The preview webview's script (bundled as `out/webview/preview.js`, an IIFE for the browser). It
 * keeps the preview state, applies the extension's messages and the user's actions to it through
 * the pure reducer, and renders the header, the dataset list, the view tabs and the four views.
 * All data is rendered as text through the DOM API; the page's CSP allows only this script.
 */
import { PreviewViews, type HostMessage, type PersistedPreviewState, type PreviewView, type WebviewMessage } from '../../common/preview-messages.js';
import type { DatasetPreview, RunOutcome } from '../../common/result-model.js';
import { count, h, onActivate, replaceChildren } from './dom.js';
import {
    currentDataset, datasetsOf, fromPreviousRun, initialState, persistedPart, reduce, runChangesOf, viewsFor, type PreviewAction, type PreviewState,
} from './model/state.js';
import { BitemporalView } from './views/bitemporal-view.js';
import { ChangesView, StatementView } from './views/changes-view.js';
import type { View, ViewContext } from './views/context.js';
import { GraphView } from './views/graph-view.js';
import { HistoryView } from './views/history-view.js';
import { ResultsView } from './views/results-view.js';

interface VsCodeApi {
    postMessage(message: WebviewMessage): void;
    getState(): unknown;
    setState(state: PersistedPreviewState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

const viewTitles: Record<PreviewView, string> = {
    results: 'Results', changes: 'Changes', history: 'SCD2 history', bitemporal: 'Bitemporal', statement: 'Statement', graph: 'Pipeline graph',
};

function readInitial(): Partial<PersistedPreviewState> & { trusted?: boolean } {
    // The extension passes the initial state as an escaped data attribute, never as script.
    const raw = document.body.dataset.initial;
    const fromAttribute = raw ? JSON.parse(raw) as Partial<PersistedPreviewState> & { trusted?: boolean } : {};
    const saved = vscode.getState() as Partial<PersistedPreviewState> | undefined;
    return { ...fromAttribute, ...(saved ?? {}) };
}

function isHostMessage(value: unknown): value is HostMessage {
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

const initial = readInitial();
let state: PreviewState = { ...initialState(initial), trusted: initial.trusted ?? true };

const header = h('header', { class: 'run-header', 'aria-live': 'polite' });
const datasetList = h('nav', { class: 'datasets', 'aria-label': 'Datasets of the run' });
const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Views' });
const main = h('main', { class: 'main' });

const context: ViewContext = {
    dispatch,
    post: message => vscode.postMessage(message),
    state: () => state,
};
const views: Record<PreviewView, View> = {
    results: new ResultsView(context),
    changes: new ChangesView(context),
    history: new HistoryView(context),
    bitemporal: new BitemporalView(context),
    statement: new StatementView(context),
    graph: new GraphView(context),
};
main.append(tabs, ...PreviewViews.map(v => views[v].element));
document.body.append(header, h('div', { class: 'layout' }, datasetList, main));

function dispatch(action: PreviewAction): void {
    state = reduce(state, action);
    vscode.setState(persistedPart(state, initial.documentUri));
    render();
}

function describeOutcome(outcome: RunOutcome): string {
    const s = outcome.summary;
    const what = s.scope === 'pipeline' ? 'pipeline' : `${s.dataset ?? ''}${s.scope === 'downstream' ? ' and downstream' : ' and upstream'}`;
    const refresh = s.fullRefresh ? 'Full refresh of' : 'Run of';
    return `${refresh} ${what}${s.pipeline.name ? ` (pipeline ${s.pipeline.name})` : ''}`;
}

function renderHeader(): void {
    const outcome = state.outcome;
    const parts: Array<HTMLElement | string | undefined> = [];
    if (state.running) {
        parts.push(h('span', { class: 'status running' }, `Running: ${state.running}…`));
    }
    if (!outcome) {
        parts.push(h('span', { class: 'status' }, 'No run yet. Use "Run flow" above a dataset or flow.'));
    } else if ('restored' in outcome && outcome.restored) {
        const n = datasetsOf(state).length;
        parts.push(h('span', { class: 'status ok' }, 'State of the last run'), h('span', { class: 'detail' }, ` · ${n} dataset${n === 1 ? '' : 's'}`));
    } else if (outcome.ok) {
        const updated = outcome.datasets.filter(d => d.updated).length;
        parts.push(h('span', { class: 'status ok' }, '✓ Succeeded'),
            h('span', { class: 'detail' }, ` ${describeOutcome(outcome)} · ${updated} dataset${updated === 1 ? '' : 's'} updated · `),
            h('span', { class: 'duration', 'data-duration-ms': outcome.summary.durationMs }, `${count(outcome.summary.durationMs)} ms`));
    } else {
        const error = outcome.error;
        const place = error.location ? h('button', { type: 'button', class: 'link' }, 'Show in source') : undefined;
        if (place && error.location) {
            const location = error.location;
            onActivate(place, () => vscode.postMessage({ type: 'openLocation', uri: location.uri, range: location.range }));
        }
        parts.push(h('span', { class: 'status failed' }, '✗ Failed'),
            h('span', { class: 'detail' }, ` ${describeOutcome(outcome)} after ${count(outcome.summary.durationMs)} ms: `),
            h('code', { class: 'error-class' }, error.class), ' ', h('span', { class: 'error-message' }, error.message),
            error.dataFile ? h('span', { class: 'detail' }, ` (data file ${error.dataFile}${error.dataLine ? `:${error.dataLine}` : ''})`) : undefined,
            place ? ' ' : undefined, place);
        if (fromPreviousRun(state)) {
            // The failed run changed nothing: what is shown below is what the run before it left.
            parts.push(h('span', { class: 'status previous' }, ' · Showing the results of the previous run.'));
        }
    }
    replaceChildren(header, ...parts.filter((p): p is HTMLElement | string => p !== undefined));
}

function datasetBadges(dataset: DatasetPreview): string {
    const c = runChangesOf(state, dataset);
    if (!c) {
        return '';
    }
    return [c.inserted ? `+${count(c.inserted)}` : '', c.updated ? `~${count(c.updated)}` : '', c.deleted ? `−${count(c.deleted)}` : ''].filter(Boolean).join(' ');
}

function renderDatasets(): void {
    const datasets = datasetsOf(state);
    if (datasets.length === 0) {
        replaceChildren(datasetList);
        return;
    }
    const buttons = datasets.map((d, i) => {
        const selected = d.name === state.dataset;
        const history = d.cdc?.storedAs === 'scd2' ? ' · SCD2' : d.cdc?.storedAs === 'bitemporal' ? ' · bitemporal' : '';
        const button = h('button', { type: 'button', class: `dataset${selected ? ' selected' : ''}${d.updated ? ' updated' : ''}${d.error ? ' failed' : ''}`, 'aria-current': selected ? 'true' : undefined, 'data-dataset': d.name, id: `dataset-${i}` },
            h('span', { class: 'name' }, d.name),
            h('span', { class: 'meta' }, `${d.kind.replace(/_/g, ' ')}${history} · ${count(d.rowCount)} rows`),
            h('span', { class: 'badges' }, datasetBadges(d)));
        onActivate(button, () => dispatch({ type: 'ui/dataset', dataset: d.name }));
        return button;
    });
    replaceChildren(datasetList, h('h2', {}, 'Datasets'), ...buttons);
}

function renderTabs(): void {
    const available = viewsFor(currentDataset(state), state.statement);
    const buttons = PreviewViews.filter(v => available.includes(v) || v === state.view).map(view => {
        const selected = view === state.view;
        const button = h('button', { type: 'button', role: 'tab', id: `tab-${view}`, 'aria-selected': String(selected), tabindex: selected ? 0 : -1, 'data-view': view }, viewTitles[view]);
        onActivate(button, () => dispatch({ type: 'ui/view', view }));
        button.addEventListener('keydown', event => {
            const i = available.indexOf(view);
            const next = event.key === 'ArrowRight' ? available[(i + 1) % available.length] : event.key === 'ArrowLeft' ? available[(i - 1 + available.length) % available.length] : undefined;
            if (next) {
                event.preventDefault();
                dispatch({ type: 'ui/view', view: next });
                document.getElementById(`tab-${next}`)?.focus();
            }
        });
        return button;
    });
    replaceChildren(tabs, ...buttons);
}

function render(): void {
    // Rebuilt controls (tabs, dataset buttons) get the focus back when they had it.
    const focusedId = document.activeElement?.id;
    renderHeader();
    renderDatasets();
    renderTabs();
    for (const view of PreviewViews) {
        views[view].update(state);
    }
    if (focusedId && document.activeElement?.id !== focusedId) {
        document.getElementById(focusedId)?.focus();
    }
}

window.addEventListener('message', event => {
    if (isHostMessage(event.data)) {
        dispatch(event.data);
    }
});
window.addEventListener('resize', () => render());
render();
vscode.postMessage({ type: 'ready' });
