/**
 * Every custom LSP request and notification between the Pipeline SQL client and server, and the
 * message types of the webview. Methods are named `pipelineSql/…`. The client, the server and the
 * webview import their types from here and from nowhere else.
 */
import { RequestType } from 'vscode-languageserver-protocol';
import type { Range } from 'vscode-languageserver-protocol';

//#region Client → Server

/** Parameters of {@link PipelineGraphRequest}: any document of the pipeline. */
export interface PipelineGraphParams {
    /** The URI of a file of the pipeline (a source file, or a `samples/*.sql` catalog file). */
    readonly uri: string;
}

/** What a node of the pipeline graph stands for. */
export type PipelineGraphNodeKind =
    | 'streaming-table' | 'materialized-view' | 'temporary-view' | 'view' | 'managed-table'
    /** A table or files the pipeline reads but does not define (catalog table, `read_files(...)`). */
    | 'source'
    /** A flow: reads its inputs, writes its target. */
    | 'flow';

/** The kind of a flow (spec section 1). */
export type PipelineFlowKind = 'append' | 'append-once' | 'auto-cdc' | 'auto-cdc-once' | 'snapshot' | 'snapshot-once'
    | 'replace-using' | 'replace-where' | 'materialized-view' | 'view';

/** A node of the pipeline graph. */
export interface PipelineGraphNode {
    /** Unique within the graph: `dataset:name`, `flow:name`, `source:name` (a `#2` suffix for repeats). */
    readonly id: string;
    readonly kind: PipelineGraphNodeKind;
    /** The name as declared or written. */
    readonly name: string;
    /** For flows: what kind of flow. */
    readonly flowKind?: PipelineFlowKind;
    /** For flows: the dataset's own query or inline FLOW clause rather than a CREATE FLOW / APPLY CHANGES. */
    readonly inline?: boolean;
    /** For AUTO CDC and snapshot flows: how the target stores the changes (`STORED AS`, SCD type 1 by default). */
    readonly scd?: 1 | 2 | 'bitemporal';
    /** For sources: declared in the sample catalog (`samples/*.sql`) or found as sample files. */
    readonly sampled?: boolean;
    /** Where it is defined: the document and the range of its name (absent for undeclared sources). */
    readonly uri?: string;
    readonly range?: Range;
}

/** An edge of the pipeline graph: a flow reads a dataset or source, or writes its target. */
export interface PipelineGraphEdge {
    readonly from: string;
    readonly to: string;
    readonly kind: 'read' | 'write';
    /** For reads: read as a stream (`STREAM(x)`). */
    readonly streaming?: boolean;
}

/** The dependency graph (DAG) of one pipeline. */
export interface PipelineGraph {
    /** The pipeline: its root folder (absent for a file that stands alone) and its name from spark-pipeline.yml. */
    readonly pipeline: { readonly id: string; readonly root?: string; readonly name?: string };
    readonly nodes: readonly PipelineGraphNode[];
    readonly edges: readonly PipelineGraphEdge[];
    /** Cycles, each the node ids of the datasets on it (a valid pipeline has none). */
    readonly cycles: ReadonlyArray<readonly string[]>;
}

/**
 * `pipelineSql/pipelineGraph` (client → server): the datasets, flows and sources of the pipeline a
 * document belongs to, with the edges between them. Sent by the DAG view when it opens and after
 * edits; answered once the pipeline's files are linked. Fails with `InvalidParams` for a document
 * the server does not know.
 */
export const PipelineGraphRequest = new RequestType<PipelineGraphParams, PipelineGraph, void>('pipelineSql/pipelineGraph');

//#endregion

//#region Server → Client

//#endregion
