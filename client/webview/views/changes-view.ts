/**
 * The "Changes" view (the change data feed of a dataset's last update) and the "Statement" view (the
 * outcome of a statement run on the local state, with the feed of a DML statement): each change is a
 * row marked insert, delete or update, an update showing each changed value before → after.
 */
import type { ResultColumn, ResultRow, StatementOutcome } from '../../../common/result-model.js';
import { count, h, onActivate, replaceChildren } from '../dom.js';
import { dataColumns, isFeed, pairFeed } from '../model/feed.js';
import { currentDataset, shownRun, writtenVersion, type PreviewState } from '../model/state.js';
import { formatValue } from '../model/values.js';
import type { View, ViewContext } from './context.js';

/** At most this many rows are drawn (the statement's and the feed's rows are capped by the run anyway). */
const MAX_DRAWN = 2000;

/** A table of feed rows: one row per change, updates side by side. */
export function feedTable(columns: readonly ResultColumn[], rows: readonly ResultRow[]): HTMLElement {
    const data = dataColumns(columns);
    const names = data.map(c => c.name);
    const types = new Map(data.map(c => [c.name, c.type]));
    const body = pairFeed(rows.slice(0, MAX_DRAWN), names).map(change => {
        const cells = names.map(name => {
            const before = change.before?.[name];
            const after = change.after?.[name];
            if (change.kind === 'update' && change.changed.has(name)) {
                return h('td', { class: 'changed' }, h('span', { class: 'before' }, formatValue(before, types.get(name))), ' → ', h('span', { class: 'after' }, formatValue(after, types.get(name))));
            }
            return h('td', {}, formatValue(change.kind === 'delete' ? before : after, types.get(name)));
        });
        return h('tr', { class: `change-${change.kind}`, 'data-change': change.kind }, h('td', { class: 'change-kind' }, change.kind), ...cells);
    });
    return h('table', { class: 'feed-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'change'), ...names.map(n => h('th', { scope: 'col' }, n)))),
        h('tbody', {}, ...body));
}

/** A plain table of rows (a query's result). */
export function rowsTable(columns: readonly ResultColumn[], rows: readonly ResultRow[]): HTMLElement {
    return h('table', { class: 'feed-table' },
        h('thead', {}, h('tr', {}, ...columns.map(c => h('th', { scope: 'col' }, c.name)))),
        h('tbody', {}, ...rows.slice(0, MAX_DRAWN).map(row => h('tr', {}, ...columns.map(c => h('td', {}, formatValue(row[c.name], c.type)))))));
}

/** The feed of the dataset's last update, or of a version picked from its history. */
export class ChangesView implements View {
    readonly element = h('section', { class: 'view changes-view', role: 'tabpanel', 'aria-label': 'Changes' });
    /** The run, dataset and last version a statement wrote, whose versions were asked for (asked once for each). */
    private asked = '';

    constructor(private readonly ctx: ViewContext) {}

    update(state: PreviewState): void {
        this.element.hidden = state.view !== 'changes';
        if (this.element.hidden) {
            return;
        }
        const dataset = currentDataset(state);
        const changes = dataset?.changes;
        const history = dataset && state.versions?.dataset === dataset.name ? state.versions : undefined;
        const lastUpdateChanged = (changes?.feed?.length ?? 0) > 0;
        if (!dataset || (!lastUpdateChanged && history?.picked === undefined)) {
            replaceChildren(this.element, h('p', { class: 'empty' }, 'The last update did not change this dataset.'));
            return;
        }
        // Asked again after a statement wrote a new version ("Run on local state").
        const version = writtenVersion(state.statement);
        const written = version ? `${version.dataset}@${version.version}` : '';
        const asking = `${shownRun(state)?.summary.runId ?? ''}\u0000${dataset.name}\u0000${written}`;
        if (this.asked !== asking) {
            this.asked = asking;
            // The version picked (a statement's), else the latest with the list of versions.
            this.ctx.post({ type: 'requestVersionChanges', dataset: dataset.name, ...(history?.picked !== undefined ? { version: history.picked } : {}) });
        }
        const picked = history?.picked;
        const picker = h('select', { class: 'version-picker', id: 'version-picker', 'aria-label': 'Version' }, h('option', { value: '' }, 'Last update (this run)'),
            ...(history?.changes?.ok ? [...history.changes.versions].reverse().map(v => h('option', { value: v.version }, `Version ${v.version} · ${v.timestamp} · ${v.operation}`)) : []));
        picker.value = picked === undefined ? '' : String(picked);
        picker.addEventListener('change', () => {
            const version = picker.value === '' ? undefined : Number(picker.value);
            this.ctx.dispatch({ type: 'ui/version', dataset: dataset.name, version });
            if (version !== undefined) {
                this.ctx.post({ type: 'requestVersionChanges', dataset: dataset.name, version });
            }
        });
        const toolbar = h('div', { class: 'toolbar' }, picker);
        if (picked !== undefined) {
            const answer = history?.changes;
            const body = !answer || (answer.ok && answer.version !== picked) ? [h('p', { class: 'empty' }, `Reading version ${picked}…`)]
                : !answer.ok ? [h('p', { class: 'error-message' }, `${answer.error.class}: ${answer.error.message}`)]
                    : [h('p', { class: 'feed-summary' }, `Change data feed of version ${picked} of ${dataset.name}: ${count(answer.rowCount)} row${answer.rowCount === 1 ? '' : 's'}`),
                        answer.rows.length > 0 ? feedTable(answer.columns, answer.rows) : h('p', { class: 'empty' }, 'This version changed no rows (the creation of the dataset is version 0).')];
            replaceChildren(this.element, toolbar, ...body);
            return;
        }
        if (!changes?.feed || !lastUpdateChanged) {
            replaceChildren(this.element, toolbar, h('p', { class: 'empty' }, 'The last update did not change this dataset.'));
            return;
        }
        const shown = changes.feed.length;
        const total = changes.inserted + changes.updated * 2 + changes.deleted;
        replaceChildren(this.element, toolbar,
            h('p', { class: 'feed-summary' }, `Change data feed of the last update of ${dataset.name}: +${count(changes.inserted)} ~${count(changes.updated)} −${count(changes.deleted)}`
                + (shown < total ? ` (first ${count(shown)} feed rows)` : '')),
            feedTable([...dataset.columns, { name: '_change_type', type: 'STRING' }], changes.feed));
    }
}

/** The statement run on the local state and what it did. */
export class StatementView implements View {
    readonly element = h('section', { class: 'view statement-view', role: 'tabpanel', 'aria-label': 'Statement' });

    constructor(private readonly ctx: ViewContext) {}

    update(state: PreviewState): void {
        this.element.hidden = state.view !== 'statement';
        if (this.element.hidden) {
            return;
        }
        const outcome = state.statement;
        if (!outcome) {
            replaceChildren(this.element, h('p', { class: 'empty' }, 'Use "Run on local state" above a statement of a scratch .sql file in a pipeline\'s folder.'));
            return;
        }
        replaceChildren(this.element, h('pre', { class: 'statement-text' }, outcome.statement), ...this.body(outcome));
    }

    private body(outcome: StatementOutcome): HTMLElement[] {
        if (!outcome.ok) {
            const error = outcome.error;
            const place = error.location ? h('button', { type: 'button', class: 'link' }, 'Show in source') : undefined;
            if (place && error.location) {
                const location = error.location;
                onActivate(place, () => this.ctx.post({ type: 'openLocation', uri: location.uri, range: location.range }));
            }
            return [h('p', { class: 'statement-status' }, h('span', { class: 'status failed' }, '✗ Failed '), h('code', { class: 'error-class' }, error.class), ' ',
                h('span', { class: 'error-message' }, error.message), ...(place ? [' ', place] : []))];
        }
        const shown = `${count(outcome.rowCount)} row${outcome.rowCount === 1 ? '' : 's'}${outcome.truncated ? ` (first ${count(outcome.rows.length)})` : ''}`;
        if (outcome.kind === 'query' || outcome.kind === 'describe_history') {
            return [h('p', { class: 'statement-status' }, h('span', { class: 'status ok' }, '✓ '), `${shown} · ${count(outcome.durationMs)} ms`), rowsTable(outcome.columns, outcome.rows)];
        }
        const version = outcome.version;
        if (!version) {
            return [h('p', { class: 'statement-status' }, h('span', { class: 'status ok' }, '✓ '), `${outcome.kind.toUpperCase()} changed no rows of ${outcome.dataset ?? 'the dataset'}; no new version.`)];
        }
        const m = version.metrics;
        const status = h('p', { class: 'statement-status' }, h('span', { class: 'status ok' }, '✓ '),
            `${version.operation} on ${outcome.dataset ?? ''}: version ${version.version} at ${version.timestamp} (${m.numInsertedRows ?? 0} inserted, ${m.numUpdatedRows ?? 0} updated, ${m.numDeletedRows ?? 0} deleted). `
            + 'The next update applies its events on top; a plain streaming reader of it now needs skipChangeCommits.');
        return isFeed(outcome.columns) ? [status, feedTable(outcome.columns, outcome.rows)] : [status];
    }
}
