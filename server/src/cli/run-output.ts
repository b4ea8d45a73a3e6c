import { ownValue, type DatasetResult, type JsonValue, type UpdateErrorInfo, type UpdateSuccess } from '../../../engine/src/index.js';
import { formatCliDiagnostic, type CliDiagnostic } from './check.js';

/** Longest cell shown in a table; longer values are cut with an ellipsis. */
const MAX_CELL = 40;

const kindNames: Record<DatasetResult['kind'], string> = {
    streaming_table: 'streaming table',
    materialized_view: 'materialized view',
    temporary_view: 'temporary view',
    view: 'view',
    managed_table: 'managed table',
};

/** A value as a table cell: NULL for null, JSON for structs, arrays and maps, decimals with their scale. */
export function formatCell(value: JsonValue | undefined, type?: string): string {
    let text: string;
    const scale = type ? /^DECIMAL\(\d+,\s*(\d+)\)$/i.exec(type)?.[1] : undefined;
    if (value === null || value === undefined) {
        text = 'NULL';
    } else if (typeof value === 'number' && scale !== undefined) {
        // DECIMAL(10,2) 101.5 shows as 101.50, as Spark prints it.
        text = value.toFixed(Number(scale));
    } else if (typeof value === 'object') {
        text = JSON.stringify(value);
    } else {
        text = String(value);
    }
    text = text.replace(/\r?\n/g, '\\n').replace(/\t/g, ' ');
    return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** Rows as an aligned text table with a header; numbers are right-aligned. */
export function formatTable(columns: ReadonlyArray<{ name: string; type?: string }>, rows: Record<string, JsonValue>[], indent = '  '): string {
    const cells = rows.map(row => columns.map(c => formatCell(ownValue(row, c.name), c.type)));
    const numeric = columns.map(c => rows.length > 0 && rows.every(r => ownValue(r, c.name) === null || typeof ownValue(r, c.name) === 'number'));
    const widths = columns.map((c, i) => Math.max(c.name.length, ...cells.map(r => r[i].length)));
    const line = (values: string[]) => indent + values.map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
    return [line(columns.map(c => c.name)), line(widths.map(w => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What one dataset shows after an update: its rows, what changed, its metrics. */
function formatDataset(name: string, dataset: DatasetResult, metrics: UpdateSuccess['metrics'][string] | undefined, limit: number): string {
    let out = `${name} — ${kindNames[dataset.kind]}, ${plural(dataset.rowCount, 'row')}\n`;
    if (dataset.error) {
        return `${out}  could not be read: ${dataset.error.class}: ${dataset.error.message}\n`;
    }
    if (dataset.columns.length > 0 && dataset.rows.length > 0) {
        out += formatTable(dataset.columns, dataset.rows);
    } else if (dataset.columns.length > 0) {
        out += `  (no rows; columns ${dataset.columns.map(c => `${c.name} ${c.type}`).join(', ')})\n`;
    }
    if (dataset.truncated) {
        out += `  … ${plural(dataset.rowCount - dataset.rows.length, 'more row')} (showing ${limit}; use --limit to see more)\n`;
    }
    if (dataset.changes) {
        const { inserted, updated, deleted } = dataset.changes;
        out += inserted + updated + deleted === 0
            ? '  rows changed: none\n'
            : `  rows changed: ${inserted} inserted, ${updated} updated, ${deleted} deleted\n`;
    } else if (dataset.kind !== 'view' && dataset.kind !== 'temporary_view') {
        out += '  not updated by this run\n';
    }
    if (metrics) {
        const counts: string[] = [];
        if (metrics.num_upserted_rows !== undefined) {
            counts.push(`num_upserted_rows ${metrics.num_upserted_rows}`);
        }
        if (metrics.num_deleted_rows !== undefined) {
            counts.push(`num_deleted_rows ${metrics.num_deleted_rows}`);
        }
        if (metrics.num_output_rows !== undefined) {
            counts.push(`num_output_rows ${metrics.num_output_rows}`);
        }
        if (counts.length > 0) {
            out += `  metrics: ${counts.join(', ')}\n`;
        }
        for (const [expectation, e] of Object.entries(metrics.expectations ?? {})) {
            const dropped = e.dropped_records !== undefined ? `, ${e.dropped_records} dropped` : '';
            out += `  expectation ${expectation}: ${e.passed_records} passed, ${e.failed_records} failed${dropped}\n`;
        }
    }
    return out;
}

/** The human output of a successful update: a table per dataset, its changes and metrics, and a summary line. */
export function formatSuccess(result: UpdateSuccess, pipeline: { name: string; root: string; limit: number }): string {
    const sections = Object.entries(result.datasets).map(([name, dataset]) => formatDataset(name, dataset, ownValue(result.metrics, name), pipeline.limit));
    const flows = Object.values(result.flows);
    const ran = flows.filter(f => f.status === 'completed').length;
    const idle = flows.filter(f => f.status === 'skipped').length;
    const updated = Object.values(result.datasets).filter(d => d.changes).length;
    const failed = Object.values(result.metrics).reduce((sum, m) => sum + Object.values(m.expectations ?? {}).reduce((s, e) => s + e.failed_records, 0), 0);
    const parts = [
        `${plural(updated, 'dataset')} updated`,
        `${plural(ran, 'flow')} run${idle > 0 ? `, ${idle} idle` : ''}`,
        ...(failed > 0 ? [`${plural(failed, 'expectation failure')}`] : []),
    ];
    const seconds = (result.durationMs / 1000).toFixed(1);
    return `${sections.join('\n')}\nUpdate of ${pipeline.name} (${pipeline.root}) completed in ${seconds} s: ${parts.join(', ')}.\n`;
}

/** The human output of a failed run: the diagnostics (if the pipeline did not load) or the runtime error and where it happened. */
export function formatFailure(error: UpdateErrorInfo, diagnostics: CliDiagnostic[], state: Record<string, DatasetResult> | undefined, _limit: number): string {
    if (diagnostics.length > 0) {
        return diagnostics.map(d => formatCliDiagnostic(d) + '\n').join('')
            + `${plural(diagnostics.length, 'error')}: the pipeline was not run.\n`;
    }
    const where = [
        error.flow ? `flow '${error.flow}'` : undefined,
        error.dataset ? `dataset '${error.dataset}'` : undefined,
    ].filter(Boolean).join(', ');
    const at = error.file ? `${error.file}${error.line !== undefined ? `:${error.line}${error.column !== undefined ? `:${error.column}` : ''}` : ''}: ` : '';
    let out = `${at}error ${error.class}${where ? ` (${where})` : ''}\n  ${error.message}\n`;
    if (state) {
        out += `The update was rolled back: the ${plural(Object.keys(state).length, 'dataset')} are as the last successful update left them.\n`;
    }
    return out;
}
