/**
 * The engine's answers in the shapes of the protocol (`common/result-model.ts`): a run's datasets
 * with their kind of history (from the IR's AUTO CDC flows) and definition, its metrics and flow
 * reports; and an engine error with its clause as a source location (1-based engine spans become
 * 0-based LSP ranges).
 */
import { URI } from 'langium';
import type { DatasetResult, PipelineIR, SourceSpan, UpdateErrorInfo, UpdateSuccess } from '../../../engine/src/index.js';
import type {
    CdcTargetInfo, DatasetPreview, FlowReportModel, RunErrorModel, RunSummary, SourceLocation, SourceRange,
} from '../../../common/result-model.js';
import { datasetKey, displayName } from './run-scope.js';

/** The URI of a file the engine names (a path, or already a URI for documents that are not files). */
export function fileUri(file: string): string {
    return /^[a-z][a-z0-9+.-]*:/i.test(file) && !/^[a-z]:[\\/]/i.test(file) ? file : URI.file(file).toString();
}

/** An engine span (1-based lines and columns, end exclusive) as an LSP range (0-based). */
export function spanRange(span: Pick<SourceSpan, 'line' | 'column' | 'endLine' | 'endColumn'>): SourceRange {
    return {
        start: { line: Math.max(0, span.line - 1), character: Math.max(0, span.column - 1) },
        end: { line: Math.max(0, span.endLine - 1), character: Math.max(0, span.endColumn - 1) },
    };
}

/** The location of an engine span. */
export function spanLocation(span: SourceSpan): SourceLocation {
    return { uri: fileUri(span.file), range: spanRange(span) };
}

/** How each AUTO CDC / snapshot target of the IR stores history, by dataset key. */
export function cdcTargets(pipeline: PipelineIR): Map<string, CdcTargetInfo> {
    const targets = new Map<string, CdcTargetInfo>();
    for (const flow of pipeline.flows) {
        if (flow.kind === 'auto_cdc' || flow.kind === 'snapshot') {
            targets.set(datasetKey(flow.target), { storedAs: flow.storedAs.type, keys: flow.keys.columns, flow: flow.name, snapshot: flow.kind === 'snapshot' });
        }
    }
    return targets;
}

/**
 * An engine error as the protocol's error: the clause that caused it when the error carries a span
 * in one of the pipeline's source files (`isSource`), else the sample data file and line to blame.
 */
export function toRunError(error: UpdateErrorInfo, isSource: (uri: string) => boolean): RunErrorModel {
    const base = { class: error.class, message: error.message, dataset: error.dataset, flow: error.flow };
    if (!error.file) {
        return base;
    }
    const uri = fileUri(error.file);
    if (isSource(uri) && error.line !== undefined) {
        const line = error.line;
        const column = error.column ?? 1;
        return { ...base, location: { uri, range: spanRange({ line, column, endLine: error.endLine ?? line, endColumn: error.endColumn ?? column }) } };
    }
    return { ...base, dataFile: error.file, dataLine: error.line };
}

/** The datasets of a successful update (or of the stored state), in declaration order. */
export function toDatasetPreviews(pipeline: PipelineIR, datasets: Record<string, DatasetResult>, metrics: UpdateSuccess['metrics'] | undefined,
    updated: ReadonlySet<string>): DatasetPreview[] {
    const cdc = cdcTargets(pipeline);
    const results = new Map(Object.entries(datasets).map(([name, result]) => [name.toLowerCase(), { name, result }]));
    const metricsByKey = new Map(Object.entries(metrics ?? {}).map(([name, m]) => [name.toLowerCase(), m]));
    const previews: DatasetPreview[] = [];
    for (const dataset of pipeline.datasets) {
        const key = datasetKey(dataset.name);
        const found = results.get(key);
        if (!found) {
            continue;
        }
        const { result } = found;
        previews.push({
            name: displayName(dataset),
            kind: result.kind,
            columns: result.columns,
            rows: result.rows,
            rowCount: result.rowCount,
            truncated: result.truncated,
            updated: updated.has(key),
            ...(result.changes ? { changes: { inserted: result.changes.inserted, updated: result.changes.updated, deleted: result.changes.deleted, rows: result.changes.rows, feed: result.changes.feed } } : {}),
            ...(metricsByKey.has(key) ? { metrics: metricsByKey.get(key) } : {}),
            ...(cdc.has(key) ? { cdc: cdc.get(key) } : {}),
            ...(result.error ? { error: result.error } : {}),
            location: spanLocation(dataset.span),
        });
    }
    return previews;
}

/** The flow reports of an update. */
export function toFlowReports(flows: UpdateSuccess['flows']): FlowReportModel[] {
    return Object.entries(flows).map(([name, report]) => ({ name, ...report }));
}

/** The keys of the datasets an update ran flows into. */
export function updatedDatasets(flows: UpdateSuccess['flows']): Set<string> {
    return new Set(Object.values(flows).filter(f => f.status !== 'not_selected').map(f => f.dataset.toLowerCase()));
}

/** A summary for a run that never reached the engine (or failed before it). */
export function emptySummary(base: Omit<RunSummary, 'durationMs'>, durationMs = 0): RunSummary {
    return { ...base, durationMs };
}
