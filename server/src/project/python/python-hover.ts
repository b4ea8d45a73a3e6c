/**
 * The hover card of a dataset defined in a Python file of the pipeline, shown where SQL reads it:
 * its kind, where it is defined (`ingest.py:12`, a link that opens the line), how (`@dlt.table`), its
 * comment, what its query reads, whether a local run can read it (sample data), and its columns.
 */
import * as path from 'node:path';
import { URI } from 'langium';
import { codeSpan, escapeMarkdown, linkTarget, relationTable } from '../../language/lsp/lsp-text.js';
import type { RelationType } from '../../language/types/relation-type.js';
import type { PythonDatasetKind } from './python-definitions.js';
import type { PythonDatasetEntry } from './python-pipeline.js';

const kindLabels: ReadonlyMap<PythonDatasetKind, string> = new Map([
    ['streaming-table', 'streaming table'],
    ['materialized-view', 'materialized view'],
    ['temporary-view', 'temporary view'],
    ['sink', 'sink'],
]);

/** `[ingest.py:12](file:///…/ingest.py#L12)`: where a Python definition is, as a link that opens it. */
export function pythonLink(file: string, line: number): string {
    return `[${escapeMarkdown(path.basename(file))}:${line}](${linkTarget(URI.file(file).toString())}#L${line})`;
}

/**
 * The card: `relation` is what SQL reading it sees (the `schema=` columns, else its sample data's),
 * `sample` where its sample data is, if anywhere.
 */
export function pythonDatasetCard(entry: PythonDatasetEntry, relation: RelationType, sample: string | undefined): string {
    const { dataset } = entry;
    const line = dataset.range.start.line + 1;
    const lines = [`**${kindLabels.get(entry.kind) ?? entry.kind}** ${codeSpan(entry.displayName)} · defined in Python${entry.dataset.private ? ' · private to the pipeline' : ''}`];
    if (dataset.comment) {
        lines.push(escapeMarkdown(dataset.comment));
    }
    const why = entry.kind === dataset.kind && dataset.kindReason ? ` ${escapeMarkdown(dataset.kindReason)}` : '';
    lines.push(`Defined in ${pythonLink(entry.file, line)} by ${codeSpan(dataset.api)}.${why}`);
    const reads = [...new Set(entry.flows.flatMap(f => f.flow.reads.map(r => r.name)))];
    if (reads.length > 0) {
        lines.push(`Reads ${reads.map(codeSpan).join(', ')}.`);
    }
    lines.push(sample
        ? `A local run cannot run Python; it reads the sample data ${codeSpan(sample)} instead.`
        : `A local run cannot run Python and there is no sample data for it: add ${codeSpan(`samples/${entry.name.parts.at(-1) ?? entry.displayName}.csv`)} (or .json, .parquet) to run what reads it.`);
    if (dataset.schema?.error) {
        lines.push(`⚠ The ${codeSpan('schema=')} is not read: ${escapeMarkdown(dataset.schema.error)}`);
    }
    lines.push(relation.columns.length === 0 && !relation.complete
        ? `_Columns unknown: the definition has no ${codeSpan('schema=')} DDL string and there is no sample data._`
        : relationTable(relation));
    return lines.join('\n\n');
}
