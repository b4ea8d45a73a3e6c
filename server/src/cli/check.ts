import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import type { Diagnostic } from 'vscode-languageserver';
import { createPipelineSqlServices, type PipelineSqlServices } from '../language/pipeline-sql-module.js';
import type { LangiumSharedServices } from 'langium/lsp';
import { findEnclosingRoot, findPipelineRoots, listCatalogFiles, loadPipelineRoot } from '../workspace/pipeline-roots.js';
import type { TargetProfile } from '../language/pipeline/pipeline-sql-settings.js';

/** One diagnostic as `pipeline-sql check` prints it: 1-based lines and columns, end exclusive. */
export interface CliDiagnostic {
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    severity: 'error' | 'warning' | 'info' | 'hint';
    code: string;
    message: string;
}

const severityNames = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' } as const;

/** Converts an LSP diagnostic of `file` to the CLI's shape. */
export function toCliDiagnostic(file: string, d: Diagnostic): CliDiagnostic {
    return {
        file,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
        severity: severityNames[d.severity ?? 1],
        code: d.code === undefined ? 'PIPELINE_SQL' : String(d.code),
        message: d.message,
    };
}

/** Formats a diagnostic as `file:line:col: severity CODE message`. */
export function formatCliDiagnostic(d: CliDiagnostic): string {
    return `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}`;
}

/** The files `check` loads, the ones it reports on, and the pipeline roots they belong to. */
export interface CheckFiles {
    load: string[];
    report: Set<string>;
    /** Pipeline root folders to register, so that each file sees its own pipeline's datasets only. */
    roots?: string[];
}

/**
 * The files to load for a set of command-line paths, and which of them to report on. A folder
 * means every pipeline under it, with its sample catalog (`samples/*.sql`); a file is checked in the
 * context of its pipeline (the nearest folder with a `spark-pipeline.yml`), but only its own
 * diagnostics are reported.
 */
export function collectFiles(paths: string[]): CheckFiles {
    const load = new Set<string>();
    const report = new Set<string>();
    const roots = new Set<string>();
    for (const p of paths) {
        const abs = path.resolve(p);
        const stat = fs.statSync(abs, { throwIfNoEntry: false });
        if (!stat) {
            throw new CliUsageError(`No such file or folder: ${p}`);
        }
        if (stat.isDirectory()) {
            for (const root of findPipelineRoots(abs)) {
                roots.add(root.root);
                root.files.forEach(f => { load.add(f); report.add(f); });
                listCatalogFiles(root.root).forEach(f => { load.add(f); report.add(f); });
            }
        } else {
            const root = findEnclosingRoot(abs);
            if (root) {
                roots.add(root);
                loadPipelineRoot(root).files.forEach(f => load.add(f));
                listCatalogFiles(root).forEach(f => load.add(f));
            }
            load.add(abs);
            report.add(abs);
        }
    }
    return { load: [...load], report, roots: [...roots] };
}

/** A mistake on the command line (exit code 2). */
export class CliUsageError extends Error {
    override readonly name = 'CliUsageError';
}

/**
 * Parses and validates the given files with the language server's own services (the same pipeline
 * model, schema inference and checks) and returns the diagnostics of the files in `report`, ordered
 * by file and position.
 */
export async function checkFiles(
    files: CheckFiles,
    services: { shared: LangiumSharedServices; PipelineSql: PipelineSqlServices } = createPipelineSqlServices(NodeFileSystem),
    options: { target?: TargetProfile } = {},
): Promise<CliDiagnostic[]> {
    for (const root of files.roots ?? []) {
        services.PipelineSql.pipeline.Registry.addRoot(root);
    }
    if (options.target) {
        services.PipelineSql.pipeline.Settings.setTarget(options.target);
    }
    const documents: LangiumDocument[] = [];
    for (const file of files.load) {
        documents.push(await services.shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(file)));
    }
    await services.shared.workspace.DocumentBuilder.build(documents, { validation: true });
    const result: CliDiagnostic[] = [];
    const cwd = process.cwd();
    for (const doc of documents) {
        const file = doc.uri.fsPath;
        if (!files.report.has(file)) {
            continue;
        }
        const shown = path.relative(cwd, file) || file;
        for (const d of doc.diagnostics ?? []) {
            result.push(toCliDiagnostic(shown.startsWith('..') ? file : shown, d));
        }
    }
    return result.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}
