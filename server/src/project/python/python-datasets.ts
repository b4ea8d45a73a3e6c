/**
 * The Python-defined datasets of every pipeline (a shared service, `pipeline.PythonDatasets`). It is
 * the project model's reader of `.py` library files: the model reads them asynchronously through
 * Langium's file-system provider when it loads pipelines (and again when one changes), hands the
 * text to {@link readPythonDefinitions}, and keeps the result per pipeline and file. Lookups are
 * synchronous and in memory, so validation, hover and the graph never touch the disk.
 */
import type { ProjectModel } from '../project-model.js';
import type { LibraryReader } from '../project-types.js';
import { readPythonDefinitions, type PythonFileDefinitions } from './python-definitions.js';
import { PythonPipelineDatasets, type PythonPipelineOptions } from './python-pipeline.js';

export class PythonDatasets {

    /** The reader the project model calls for each `.py` library file. */
    readonly reader: LibraryReader<PythonFileDefinitions> = {
        extensions: ['.py'],
        read: (_file, text) => readPythonDefinitions(text),
    };

    /** The datasets of each pipeline under a target profile, built on first use after a change. */
    private readonly pipelines = new Map<string, PythonPipelineDatasets>();

    constructor(private readonly project: ProjectModel) {
        project.registerLibraryReader(this.reader);
        project.onDidChange(() => this.pipelines.clear());
    }

    /** The Python datasets of a pipeline (none for a pipeline the model does not hold). */
    of(pipelineId: string, options: PythonPipelineOptions): PythonPipelineDatasets {
        const key = `${options.target ?? ''}\u0000${pipelineId}`;
        let datasets = this.pipelines.get(key);
        if (!datasets) {
            datasets = new PythonPipelineDatasets(
                this.project.contributionsOf(pipelineId, this.reader).map(c => ({ file: c.file, definitions: c.result })), options);
            this.pipelines.set(key, datasets);
        }
        return datasets;
    }

    /**
     * A Python file changed, appeared or went away: reads it again for the pipelines that list it.
     * Returns the ids of those pipelines (their SQL documents need revalidation).
     */
    async refresh(file: string): Promise<string[]> {
        const pipelines = await this.project.refreshLibraryFile(file);
        if (pipelines.length > 0) {
            this.pipelines.clear();
        }
        return pipelines;
    }
}
