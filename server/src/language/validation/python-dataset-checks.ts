/**
 * Checks of the datasets a pipeline's Python files define, reported on the Python lines (a Python
 * file has no document of its own; `check` prints these and the language server publishes them on
 * the `.py` file). A dataset defined twice is the same error whatever the languages of its two
 * definitions: two Python files, one Python file twice, or a Python file and a SQL file (the SQL
 * definition gets it too, from dataset-checks.ts).
 */
import * as path from 'node:path';
import { AstUtils } from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { lspRange } from '../../project/python/python-lookup.js';
import type { PythonDatasetEntry } from '../../project/python/python-pipeline.js';
import type { PipelineModel } from '../pipeline/pipeline-model.js';
import { lastKey, referenceMatchesDataset } from '../references/dataset-names.js';
import { namespaceDefaultsAt } from '../references/pipeline-namespaces.js';
import { Issues } from './issue-codes.js';

/** A diagnostic on a line of one of the pipeline's Python files. */
export interface PythonFileDiagnostic {
    /** The Python file, absolute. */
    readonly file: string;
    readonly diagnostic: Diagnostic;
}

/**
 * The diagnostics of a pipeline's Python files: each Python dataset that another definition of the
 * pipeline (Python or SQL) also defines is a duplicate naming the others (`also ingest.py:12,
 * gold.sql:3`), as a SQL dataset defined twice is.
 */
export function pythonFileDiagnostics(model: PipelineModel): PythonFileDiagnostic[] {
    const python = model.python;
    if (!python) {
        return [];
    }
    const defaults = python.defaults;
    const place = (entry: PythonDatasetEntry): string => `${path.basename(entry.file)}:${entry.dataset.range.start.line + 1}`;
    const result: PythonFileDiagnostic[] = [];
    for (const entry of python.datasets) {
        const others = python.find(entry.name, defaults).filter(other => other !== entry && referenceMatchesDataset(other.name, entry.name, defaults));
        const sql = model.datasetsNamed(lastKey(entry.name)).filter(dataset => referenceMatchesDataset(dataset.name, entry.name, defaults)
            && referenceMatchesDataset(entry.name, dataset.name, namespaceDefaultsAt(dataset.node, model.pipeline.spec)));
        if (others.length === 0 && sql.length === 0) {
            continue;
        }
        const sqlPlaces = sql.map(dataset => {
            const file = AstUtils.getDocument(dataset.node).uri.path;
            return `${file.slice(file.lastIndexOf('/') + 1)}:${(dataset.node.$cstNode?.range.start.line ?? 0) + 1}`;
        });
        const message = Issues.DuplicateDataset.message({ name: entry.displayName, other: [...others.map(place), ...sqlPlaces].join(', ') });
        result.push({
            file: entry.file,
            diagnostic: { range: lspRange(entry.dataset.range), severity: DiagnosticSeverity.Error, code: Issues.DuplicateDataset.code, source: 'pipeline-sql', message },
        });
    }
    return result;
}
