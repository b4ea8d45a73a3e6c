import type { LangiumDocument } from 'langium';
import { EmptyFileSystem, URI } from 'langium';
import { clearDocuments } from 'langium/test';
import type { Diagnostic } from 'vscode-languageserver';
import type { PipelineSpec } from '../../server/src/language/pipeline/pipeline-registry.js';
import { createPipelineSqlServices, type PipelineSqlServices } from '../../server/src/language/index.js';
import type { PipelineSqlSharedServices } from '../../server/src/language/pipeline-sql-module.js';
import type { TargetProfile } from '../../server/src/language/pipeline/pipeline-sql-settings.js';

const severities = ['', 'error', 'warning', 'info', 'hint'];

/** Prints a diagnostic as `[line:col..line:col] severity CODE message` with 1-based positions. */
export function printDiagnostic(d: Diagnostic): string {
    const { start, end } = d.range;
    return `[${start.line + 1}:${start.character + 1}..${end.line + 1}:${end.character + 1}] ${severities[d.severity ?? 1]} ${String(d.code)} ${d.message}`;
}

/** Options of one in-memory pipeline. */
export interface PipelineOptions {
    /** The text of `samples/catalog.sql` (sample catalog declarations). */
    catalog?: string;
    /** The project file's content; a root without project file when absent (its file set is then uncertain). */
    spec?: Partial<PipelineSpec>;
    /** The target profile. */
    target?: TargetProfile;
}

/** A loaded in-memory pipeline. */
export interface LoadedPipeline {
    readonly root: string;
    readonly documents: ReadonlyMap<string, LangiumDocument>;
    /** Printed diagnostics of one file (path relative to the root). */
    diagnostics(file: string, options?: { hints?: boolean }): string[];
    /** Printed diagnostics of every file, prefixed with the file name, hints left out unless asked. */
    all(options?: { hints?: boolean }): string[];
    /** The raw diagnostics of one file. */
    raw(file: string): Diagnostic[];
}

/**
 * Creates services on an in-memory file system and a loader of pipelines: each `load` registers a
 * fresh root folder (`/virtual/pN`), adds the given files (paths relative to the root) and the
 * sample catalog, and builds them with full validation. Call `clear` after each test.
 */
export function createPipelineTester(): {
    services: PipelineSqlServices;
    shared: PipelineSqlSharedServices;
    load(files: Record<string, string>, options?: PipelineOptions): Promise<LoadedPipeline>;
    clear(): Promise<void>;
} {
    const { shared, PipelineSql: services } = createPipelineSqlServices(EmptyFileSystem);
    let counter = 0;
    return {
        services,
        shared,
        async load(files, options = {}) {
            const root = `/virtual/p${++counter}`;
            const spec: PipelineSpec | undefined = options.spec ? { includes: [], ...options.spec } : undefined;
            services.pipeline.Registry.addRoot(root, spec ?? { includes: [] }, spec ? `${root}/spark-pipeline.yml` : undefined);
            services.pipeline.Settings.setTarget(options.target ?? 'databricks');
            const all: Record<string, string> = { ...files };
            if (options.catalog !== undefined) {
                all['samples/catalog.sql'] = options.catalog;
            }
            const documents = new Map<string, LangiumDocument>();
            for (const [file, text] of Object.entries(all)) {
                const document = shared.workspace.LangiumDocumentFactory.fromString(text, URI.file(`${root}/${file}`));
                shared.workspace.LangiumDocuments.addDocument(document);
                documents.set(file, document);
            }
            await shared.workspace.DocumentBuilder.build([...documents.values()], { validation: true });
            const raw = (file: string): Diagnostic[] => {
                const document = documents.get(file);
                if (!document) {
                    throw new Error(`No file ${file} in this pipeline`);
                }
                return document.diagnostics ?? [];
            };
            const printed = (file: string, hints = false): string[] => raw(file).filter(d => hints || d.severity !== 4).map(printDiagnostic);
            return {
                root,
                documents,
                raw,
                diagnostics: (file, o) => printed(file, o?.hints),
                all: o => [...documents.keys()].flatMap(f => printed(f, o?.hints).map(d => `${f} ${d}`)),
            };
        },
        clear: () => clearDocuments(shared),
    };
}
