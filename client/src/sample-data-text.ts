/**
 * The texts the sample data commands show (pure, no `vscode`: unit-tested): a one-line summary of
 * what `pipelineSql/createSampleData` / `useFileAsSample` did, and the check of a table name typed
 * for "Use this File as Sample Data".
 */
import { copiesFirstRows, MaxSampleRows, SampleTableNamePattern, type SampleDataReport } from '../../common/protocol.js';

/** A file name's stem as a default table name (`orders_2025.csv` → `orders_2025`), or '' when it is not a plain name. */
export function defaultTableName(fileName: string): string {
    const stem = fileName.replace(/\.(csv|tsv|json|jsonl|ndjson|parquet)(\.gz)?$/i, '').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
    return /^[A-Za-z_]/.test(stem) ? stem : stem === '' ? '' : `t_${stem}`;
}

/** Why a typed table name cannot be used, or undefined when it can (the server checks the same). */
export function tableNameProblem(text: string): string | undefined {
    return SampleTableNamePattern.test(text.trim())
        ? undefined
        : 'One to three plain names separated by dots, such as raw.orders.';
}

export { copiesFirstRows };

/**
 * The number of rows typed for "Use this File as Sample Data": a positive whole number, or undefined for
 * the whole file (an empty answer); `problem` when the text is neither.
 */
export function parseRowLimit(text: string): { rows?: number; problem?: string } {
    const trimmed = text.trim();
    if (trimmed === '') {
        return {};
    }
    return /^[1-9][0-9]{0,5}$/.test(trimmed) && Number(trimmed) <= MaxSampleRows
        ? { rows: Number(trimmed) }
        : { problem: `A whole number of rows from 1 to ${MaxSampleRows.toLocaleString('en-US')}, or nothing to copy the whole file.` };
}

/** The summary shown after sample data was created. */
export function sampleReportText(report: SampleDataReport): string {
    const parts: string[] = [];
    if (report.sources.length > 0) {
        const sources = report.sources.map(s => `${s.name} (${s.rows} rows${s.notes.length > 0 ? `: ${s.notes.join(', ')}` : ''})`);
        parts.push(`Created sample data for ${sources.join('; ')}.`);
    } else {
        parts.push(`Every source of ${report.pipeline} has sample data; nothing was created.`);
    }
    if (report.kept.length > 0 && report.sources.length > 0) {
        parts.push(`Kept ${report.kept.join(', ')} (existing samples are never overwritten).`);
    }
    for (const skipped of report.skipped) {
        parts.push(`Skipped ${skipped.name}: ${skipped.reason}`);
    }
    return parts.join(' ');
}
