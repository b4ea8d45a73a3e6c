/**
 * The Python-defined datasets as the SQL language services see them (a Pipeline SQL service,
 * `pipeline.Python`): the datasets of a document's pipeline, and the one a table reference names.
 * Names follow the pipeline's parameters and the namespace defaults in effect at the reference,
 * exactly as for SQL datasets.
 */
import { AstUtils } from 'langium';
import type * as ast from '../../language/generated/ast.js';
import type { PipelineSqlServices } from '../../language/pipeline-sql-module.js';
import type { PipelineInfo } from '../../language/pipeline/pipeline-registry.js';
import { namespaceDefaultsAt } from '../../language/references/pipeline-namespaces.js';
import { writtenName } from '../../language/types/pipeline-sql-type-computer.js';
import type { Range } from 'vscode-languageserver';
import type { PythonDatasets } from './python-datasets.js';
import type { PythonRange } from './python-definitions.js';
import type { PythonDatasetEntry, PythonPipelineDatasets } from './python-pipeline.js';

export class PipelinePython {

    private readonly files: PythonDatasets;

    constructor(private readonly services: PipelineSqlServices) {
        this.files = services.shared.pipeline.PythonDatasets;
    }

    /** The Python datasets and flows of a pipeline, under the current target profile. */
    of(pipeline: PipelineInfo): PythonPipelineDatasets {
        const symbols = this.services.references.SymbolIndex;
        return this.files.of(pipeline.id, {
            target: this.services.pipeline.Settings.target,
            parseName: text => symbols.parseName(pipeline, text),
            defaults: { catalog: pipeline.spec?.catalog, schema: pipeline.spec?.schema },
        });
    }

    /** The Python dataset a table reference names, if one of its pipeline's Python files defines it. */
    datasetFor(reference: ast.DatasetRef): PythonDatasetEntry | undefined {
        const pipeline = this.services.pipeline.Registry.pipelineOf(AstUtils.getDocument(reference).uri);
        const name = this.services.references.SymbolIndex.parseName(pipeline, writtenName(reference));
        if (name.parts.length === 0 || name.parameterized) {
            return undefined;
        }
        return this.of(pipeline).find(name, namespaceDefaultsAt(reference, pipeline.spec))[0];
    }
}

/** A range of a Python file as LSP writes it (`character` for the column). */
export function lspRange(range: PythonRange): Range {
    return { start: { line: range.start.line, character: range.start.column }, end: { line: range.end.line, character: range.end.column } };
}
