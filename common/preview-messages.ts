/**
 * The messages between the extension and the preview webview (`postMessage` in both directions).
 * Result data reaches the webview only through these typed messages and is rendered as text there.
 * Plain types only (no runtime imports), so the webview bundle stays small.
 */
import type { Outcome, RowsModel, RunErrorModel, RunOutcome, SourceRange, StatementOutcome, VersionChangesModel } from './result-model.js';
import type { WrittenVersion } from './local-state-rows.js';

/** The views of the preview panel. */
export type PreviewView = 'results' | 'changes' | 'history' | 'bitemporal' | 'statement' | 'graph';

/** The preview views, in tab order. */
export const PreviewViews: readonly PreviewView[] = ['results', 'changes', 'history', 'bitemporal', 'statement', 'graph'];

/** What a node of the pipeline graph stands for (the language server's pipeline model). */
export type GraphNodeKind = 'streaming-table' | 'materialized-view' | 'temporary-view' | 'view' | 'managed-table' | 'source' | 'sink' | 'flow';

/** A node of the pipeline graph as the preview draws it. */
export interface GraphNodeModel {
    /** Unique within the graph (`dataset:orders`, `flow:orders_cdc`, `source:cdc.users`). */
    readonly id: string;
    readonly kind: GraphNodeKind;
    readonly name: string;
    /** For flows: `append`, `auto-cdc`, `snapshot`, ... */
    readonly flowKind?: string;
    /** For AUTO CDC and snapshot flows: how the target stores history (`STORED AS`; SCD type 1 by default). */
    readonly scd?: 1 | 2 | 'bitemporal';
    /** Where it is defined (absent for undeclared sources). */
    readonly uri?: string;
    readonly range?: SourceRange;
    /** Defined in a Python file of the pipeline. */
    readonly language?: 'python';
}

/** An edge of the pipeline graph: a flow reads a dataset or source, or writes its target. */
export interface GraphEdgeModel {
    readonly from: string;
    readonly to: string;
    readonly kind: 'read' | 'write';
    readonly streaming?: boolean;
}

/** The pipeline graph (DAG) from the language server's model (the shape `pipelineSql/pipelineGraph` answers with). */
export interface GraphModel {
    readonly pipeline: { readonly id: string; readonly root?: string; readonly name?: string };
    readonly nodes: readonly GraphNodeModel[];
    readonly edges: readonly GraphEdgeModel[];
    /** Cycles, each the node ids of the datasets on it. */
    readonly cycles: ReadonlyArray<readonly string[]>;
}

//#region Extension → webview

/** A run was started for the pipeline shown; the webview shows it as busy. */
export interface RunStartedMessage {
    readonly type: 'runStarted';
    /** What runs, for the busy text ("Run flow users_history"). */
    readonly label: string;
}

/** The outcome of a run, or the state restored after a reload. */
export interface RunResultMessage {
    readonly type: 'runResult';
    readonly outcome: RunOutcome;
}

/** A run was cancelled before it finished; the previous results stay. */
export interface RunCancelledMessage {
    readonly type: 'runCancelled';
}

/** More rows of a dataset of a run (answer to {@link RequestRowsMessage}). */
export interface RowsPageMessage {
    readonly type: 'rowsPage';
    readonly runId: string;
    readonly dataset: string;
    readonly offset: number;
    readonly page: Outcome<RowsModel>;
}

/** The change events behind one key of a CDC target (answer to {@link RequestChangeEventsMessage}). */
export interface ChangeEventsMessage {
    readonly type: 'changeEvents';
    readonly requestId: number;
    readonly dataset: string;
    readonly events: Outcome<RowsModel>;
}

/** The pipeline graph, or why it could not be had. */
export interface GraphMessage {
    readonly type: 'graph';
    readonly graph: GraphModel | undefined;
    readonly error?: string;
}

/** Switch to a view (and dataset), e.g. when "Show Pipeline Graph" runs. */
export interface ShowViewMessage {
    readonly type: 'showView';
    readonly view: PreviewView;
    readonly dataset?: string;
}

/** Whether the workspace is trusted: runs are offered only then. */
export interface TrustMessage {
    readonly type: 'trust';
    readonly trusted: boolean;
}

/** The outcome of a statement run on the local state ("Run on local state"). */
export interface StatementResultMessage {
    readonly type: 'statementResult';
    readonly outcome: StatementOutcome;
}

/**
 * The datasets as the local state holds them now, after a statement changed it ("Run on local state"
 * wrote a version): the grid shows the new rows without a run (the last update's feed stays).
 */
export interface StateRefreshedMessage {
    readonly type: 'stateRefreshed';
    readonly outcome: RunOutcome;
    /** The version the statement wrote (the results view says the run's metrics no longer describe its rows). */
    readonly written?: WrittenVersion;
}

/** A dataset's versions and one version's feed (answer to {@link RequestVersionChangesMessage}). */
export interface VersionChangesMessage {
    readonly type: 'versionChanges';
    readonly dataset: string;
    readonly changes: Outcome<VersionChangesModel>;
}

/** Every message the extension posts to the webview. */
export type HostMessage =
    | RunStartedMessage | RunResultMessage | RunCancelledMessage | RowsPageMessage | ChangeEventsMessage
    | GraphMessage | ShowViewMessage | TrustMessage | StatementResultMessage | StateRefreshedMessage | VersionChangesMessage;

//#endregion

//#region Webview → extension

/** The webview script is loaded and listens; the extension sends what it has. */
export interface ReadyMessage {
    readonly type: 'ready';
}

/** Open a definition in the editor (a graph node was activated). */
export interface OpenLocationMessage {
    readonly type: 'openLocation';
    readonly uri: string;
    readonly range?: SourceRange;
}

/** Run a dataset and everything downstream of it ("Run from here" on a graph node). */
export interface RunFromMessage {
    readonly type: 'runFrom';
    readonly dataset: string;
}

/** Page in more rows of a dataset of a run. */
export interface RequestRowsMessage {
    readonly type: 'requestRows';
    readonly runId: string;
    readonly dataset: string;
    readonly offset: number;
    readonly limit: number;
}

/** The change events of one key of a CDC target (a version was selected in the history picture). */
export interface RequestChangeEventsMessage {
    readonly type: 'requestChangeEvents';
    readonly requestId: number;
    readonly dataset: string;
    /** Key column → value of the selected key. */
    readonly key: Readonly<Record<string, string | number | boolean | null>>;
}

/** Ask for the pipeline graph again. */
export interface RequestGraphMessage {
    readonly type: 'requestGraph';
}

/** Every message the webview posts to the extension. */
/** The versions of a dataset and the feed of one of them (default: the latest), for the Changes view. */
export interface RequestVersionChangesMessage {
    readonly type: 'requestVersionChanges';
    readonly dataset: string;
    readonly version?: number;
}

export type WebviewMessage = ReadyMessage | OpenLocationMessage | RunFromMessage | RequestRowsMessage | RequestChangeEventsMessage | RequestGraphMessage
    | RequestVersionChangesMessage;

//#endregion

/** The part of the webview's state that survives a reload (`vscode.setState`, and the serializer's `revive`). */
export interface PersistedPreviewState {
    /** URI of a document of the pipeline shown (the key to restore its results and graph). */
    readonly documentUri?: string;
    readonly view: PreviewView;
    readonly dataset?: string;
}

/** Narrows an unknown `postMessage` payload to a {@link WebviewMessage} (the extension trusts nothing it receives). */
export function isWebviewMessage(value: unknown): value is WebviewMessage {
    if (typeof value !== 'object' || value === null) {
        return false;
    }
    const message = value as Record<string, unknown>;
    const isString = (v: unknown): v is string => typeof v === 'string';
    const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    switch (message.type) {
        case 'ready':
        case 'requestGraph':
            return true;
        case 'openLocation':
            return isString(message.uri);
        case 'runFrom':
            return isString(message.dataset);
        case 'requestRows':
            return isString(message.runId) && isString(message.dataset) && isCount(message.offset) && isCount(message.limit);
        case 'requestVersionChanges':
            return isString(message.dataset) && (message.version === undefined || isCount(message.version));
        case 'requestChangeEvents':
            return isCount(message.requestId) && isString(message.dataset) && typeof message.key === 'object' && message.key !== null
                && Object.values(message.key).every(v => v === null || ['string', 'number', 'boolean'].includes(typeof v));
        default:
            return false;
    }
}

/** The message shown for an error of a request (class and text). */
export function describeRunError(error: RunErrorModel): string {
    return `${error.class}: ${error.message}`;
}
