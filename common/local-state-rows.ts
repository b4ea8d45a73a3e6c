/**
 * The rows a preview shows after a statement changed the local state ("Run on local state" wrote a
 * version): the datasets as the state holds them now, the last run's other facts (its feed, metrics)
 * kept, and the versions written since the run recorded on the dataset they changed. The webview's
 * state and the panel (which hands the outcome again to a reloaded page) apply the same merge.
 */
import type { DatasetVersionModel, RunSuccessModel } from './result-model.js';

/** A version a statement wrote: which dataset, and the version as `DESCRIBE HISTORY` lists it. */
export interface WrittenVersion {
    readonly dataset: string;
    readonly version: DatasetVersionModel;
}

/** The run shown, with each dataset's rows as the fresh read of the state has them. */
export function withStateRows(shown: RunSuccessModel, fresh: RunSuccessModel, written?: WrittenVersion): RunSuccessModel {
    const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
    const datasets = shown.datasets.map(d => {
        const now = fresh.datasets.find(f => same(f.name, d.name));
        const changedSince = written && same(written.dataset, d.name)
            ? [...(d.changedSince ?? []).filter(v => v.version !== written.version.version), written.version] : d.changedSince;
        return now ? { ...d, columns: now.columns, rows: now.rows, rowCount: now.rowCount, truncated: now.truncated, ...(changedSince ? { changedSince } : {}) } : d;
    });
    // Pages of rows come from the state read now.
    return { ...shown, summary: { ...shown.summary, runId: fresh.summary.runId }, datasets };
}
