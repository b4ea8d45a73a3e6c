import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import { URI } from 'langium';
import { YAMLParseError } from 'yaml';
import { NodeFileSystem } from 'langium/node';
import {
    readState, runUpdate, type DatasetResult, type PipelineIR, type ProgressEvent, type UpdateErrorInfo, type UpdateSuccess,
} from '../../../engine/src/index.js';
import { createPipelineSqlServices, type PipelineSqlServices, type PipelineSqlSharedServices } from '../language/pipeline-sql-module.js';
import { IssueCodes } from '../language/validation/issue-codes.js';
import { lowerPipeline, type LoweringProblem, type PipelineSettings } from '../lowering/index.js';
import { findEnclosingRoot, findPipelineRoots, findSpecFile, loadPipelineRoot, type PipelineRoot } from '../workspace/pipeline-roots.js';
import { CliUsageError, toCliDiagnostic, type CliDiagnostic } from './check.js';
import { formatFailure, formatSuccess } from './run-output.js';

/** The options of `pipeline-sql run`. */
export interface RunArguments {
    root: string;
    json: boolean;
    fullRefresh: boolean;
    refresh?: string[];
    now?: string;
    state?: string;
    samples?: string;
    limit?: number;
}

/** The usage line of `run`, shown by `pipeline-sql --help`. */
export const runUsage = `pipeline-sql run <root> [--json] [--full-refresh] [--refresh a,b] [--now 'yyyy-MM-dd HH:mm:ss']
                   [--state dir] [--samples dir] [--limit n]
                                         run one update of the pipeline in <root> on its sample data
                                         (state in <root>/.pipeline-sql, samples in <root>/samples;
                                         --limit: rows shown per dataset, 20, or 1000 with --json)`;

const NOW_PATTERN = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$/;

/** Parses the arguments of `run`; a mistake is a CliUsageError (exit code 2). */
export function parseRunArguments(args: string[]): RunArguments {
    const parsed: Partial<RunArguments> & { json: boolean; fullRefresh: boolean } = { json: false, fullRefresh: false };
    const roots: string[] = [];
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
        const value = (): string => {
            const v = inline ?? args[++i];
            if (v === undefined || (inline === undefined && v.startsWith('--'))) {
                throw new CliUsageError(`${flag} needs a value`);
            }
            return v;
        };
        switch (flag) {
            case '--json': parsed.json = true; break;
            case '--full-refresh': parsed.fullRefresh = true; break;
            case '--refresh': parsed.refresh = value().split(',').map(s => s.trim()).filter(s => s.length > 0); break;
            case '--now': {
                const now = value();
                if (!NOW_PATTERN.test(now)) {
                    throw new CliUsageError(`--now takes 'yyyy-MM-dd HH:mm:ss' (or 'yyyy-MM-dd'), not '${now}'`);
                }
                parsed.now = now;
                break;
            }
            case '--state': parsed.state = value(); break;
            case '--samples': parsed.samples = value(); break;
            case '--limit': {
                const text = value();
                if (!/^\d+$/.test(text)) {
                    throw new CliUsageError(`--limit takes a number of rows, not '${text}'`);
                }
                parsed.limit = Number(text);
                break;
            }
            default:
                if (arg.startsWith('--')) {
                    throw new CliUsageError(`unknown option '${arg}' for run`);
                }
                roots.push(arg);
        }
    }
    if (roots.length !== 1) {
        throw new CliUsageError(roots.length === 0 ? 'run needs the folder of a pipeline' : `run takes one pipeline folder, not ${roots.length}`);
    }
    return { ...parsed, root: roots[0] };
}

/** Where the output goes (stdout text, stderr text, whether stderr is a terminal for progress). */
export interface RunIO {
    out: (text: string) => void;
    err: (text: string) => void;
    progress: boolean;
}

const defaultIO: RunIO = {
    out: text => process.stdout.write(text),
    err: text => process.stderr.write(text),
    progress: process.stderr.isTTY === true,
};

/** The pipeline a `run` argument names: the folder with the project file, or the folder itself. */
export function resolvePipelineRoot(arg: string): PipelineRoot {
    const abs = path.resolve(arg);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) {
        throw new CliUsageError(`No such file or folder: ${arg}`);
    }
    if (!stat.isDirectory()) {
        return loadPipelineRoot(findEnclosingRoot(abs) ?? path.dirname(abs));
    }
    if (findSpecFile(abs)) {
        return loadPipelineRoot(abs);
    }
    const roots = findPipelineRoots(abs);
    if (roots.length > 1) {
        throw new CliUsageError(`${arg} holds ${roots.length} pipelines; run one of them: ${roots.map(r => path.relative(process.cwd(), r.root) || '.').join(', ')}`);
    }
    return roots[0];
}

/** The sample catalog declarations of a samples folder: its `.sql` files (not those in sub-folders). */
export function catalogFiles(samplesDir: string): string[] {
    if (!fs.existsSync(samplesDir)) {
        return [];
    }
    return fs.readdirSync(samplesDir, { withFileTypes: true })
        .filter(entry => entry.isFile() && entry.name.toLowerCase().endsWith('.sql'))
        .map(entry => path.join(samplesDir, entry.name))
        .sort();
}

/** A path for messages: relative to the working folder when inside it. */
export function displayPath(file: string): string {
    const relative = path.relative(process.cwd(), file);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/**
 * `pipeline-sql run`: loads the pipeline's files with the language services (as `check` does), stops
 * with the errors if there are any, lowers the pipeline to the engine IR, runs one update on the sample
 * data with the state in ROOT/.pipeline-sql, and prints the datasets, the changes and the metrics
 * (as tables, or as the JSON document of the CLI contract with `--json`). Returns the exit code.
 */
export async function runCommand(args: string[], io: RunIO = defaultIO, services?: { shared: PipelineSqlSharedServices; PipelineSql: PipelineSqlServices }): Promise<number> {
    const options = parseRunArguments(args);
    const limit = options.limit ?? (options.json ? 1000 : 20);
    const fail = (error: UpdateErrorInfo, extra: { diagnostics?: CliDiagnostic[]; datasets?: Record<string, DatasetResult> } = {}): number => {
        const shown = { ...error, ...(error.file ? { file: displayPath(error.file) } : {}) };
        if (options.json) {
            io.out(JSON.stringify({ ok: false, error: shown, ...extra }, null, 2) + '\n');
        } else {
            io.err(formatFailure(shown, extra.diagnostics ?? [], extra.datasets, limit));
        }
        return 1;
    };

    let root: PipelineRoot;
    try {
        root = resolvePipelineRoot(options.root);
    } catch (error) {
        if (error instanceof YAMLParseError) {
            const file = findSpecFile(path.resolve(options.root)) ?? path.resolve(options.root);
            const pos = error.linePos?.[0];
            return fail({ class: 'PIPELINE_SQL_INVALID_PROJECT_FILE', message: `${displayPath(file)} is not valid YAML: ${error.message.split('\n')[0]}`, file, ...(pos ? { line: pos.line, column: pos.col } : {}) });
        }
        throw error;
    }
    const samplesDir = path.resolve(options.samples ?? path.join(root.root, 'samples'));
    const stateDir = path.resolve(options.state ?? path.join(root.root, '.pipeline-sql'));
    if (root.files.length === 0) {
        return fail({ class: 'PIPELINE_SQL_NO_SOURCES', message: `No pipeline SQL files in ${displayPath(root.root)}${root.specFile ? ` (the libraries of ${path.basename(root.specFile)} match none)` : ''}.` });
    }
    const settings: PipelineSettings = { configuration: root.spec?.configuration ?? {}, catalog: root.spec?.catalog, schema: root.spec?.schema };

    const { shared, PipelineSql } = services ?? createPipelineSqlServices(NodeFileSystem);
    // The pipeline model resolves names within the registered root (its sources and samples/*.sql).
    PipelineSql.pipeline.Registry.addRoot(root.root);
    const catalog = catalogFiles(samplesDir);
    const documents = await loadDocuments(shared, [...root.files, ...catalog]);
    const sourceDocuments = documents.slice(0, root.files.length);
    const catalogDocuments = documents.slice(root.files.length);
    const errors = [
        ...errorDiagnostics(sourceDocuments, () => true),
        // Catalog files are declarations, not pipeline sources: only their syntax is checked here.
        ...errorDiagnostics(catalogDocuments, d => d.code === IssueCodes.ParseSyntaxError),
    ];
    if (!options.json) {
        for (const warning of warningDiagnostics(sourceDocuments)) {
            io.err(`${warning.file}:${warning.line}:${warning.column}: ${warning.severity} ${warning.code} ${warning.message}\n`);
        }
    }
    if (errors.length > 0) {
        const first = errors[0];
        return fail({ class: first.code, message: first.message, file: first.file, line: first.line, column: first.column }, { diagnostics: errors });
    }

    // Sample reads stay inside the pipeline folder (and a --samples folder given on the command line).
    const readRoots = [root.root, ...(options.samples !== undefined ? [samplesDir] : [])];
    const lowered = lowerPipeline(PipelineSql, { documents: sourceDocuments, catalogDocuments, settings, samples: { rootDir: root.root, samplesDir, readRoots } });
    if (!lowered.ok) {
        const problems = lowered.problems.map(problemDiagnostic);
        const first = problems[0];
        return fail({ class: first.code, message: first.message, file: first.file, line: first.line, column: first.column }, { diagnostics: problems });
    }

    const progress = io.progress ? new ProgressLine(io.err) : undefined;
    const result = await runUpdate(lowered.pipeline, {
        stateDir, samplesDir, rootDir: root.root, readRoots, limit,
        now: options.now,
        fullRefresh: options.fullRefresh,
        refresh: options.refresh,
        onProgress: progress ? event => progress.update(event) : undefined,
    });
    progress?.clear();
    if (!result.ok) {
        // What the last successful update left, so that the failure can be read against it.
        const state = await readStateQuietly(lowered.pipeline, stateDir, samplesDir, root.root, readRoots, options.now, limit);
        return fail(result.error, state ? { datasets: state } : {});
    }
    if (options.json) {
        io.out(JSON.stringify(successDocument(result), null, 2) + '\n');
    } else {
        io.out(formatSuccess(result, { name: root.spec?.name ?? path.basename(root.root), root: displayPath(root.root), limit }));
    }
    return 0;
}

/** The `--json` success document of the CLI contract (issue 5 item 6). */
export function successDocument(result: UpdateSuccess): object {
    const datasets: Record<string, object> = {};
    for (const [name, dataset] of Object.entries(result.datasets)) {
        datasets[name] = {
            kind: dataset.kind,
            columns: dataset.columns,
            rows: dataset.rows,
            rowCount: dataset.rowCount,
            truncated: dataset.truncated,
            ...(dataset.error ? { error: dataset.error } : {}),
        };
    }
    return { ok: true, datasets, metrics: result.metrics };
}

async function readStateQuietly(pipeline: PipelineIR, stateDir: string, samplesDir: string, rootDir: string, readRoots: string[], now: string | undefined, limit: number): Promise<Record<string, DatasetResult> | undefined> {
    if (!fs.existsSync(stateDir)) {
        return undefined;
    }
    const state = await readState(pipeline, { stateDir, samplesDir, rootDir, readRoots, now, limit });
    return state.ok ? state.datasets : undefined;
}

async function loadDocuments(shared: PipelineSqlServices['shared'], files: string[]): Promise<LangiumDocument[]> {
    const documents: LangiumDocument[] = [];
    for (const file of files) {
        documents.push(await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(file)));
    }
    await shared.workspace.DocumentBuilder.build(documents, { validation: true });
    return documents;
}

function cliDiagnostics(documents: LangiumDocument[]): CliDiagnostic[] {
    return documents.flatMap(doc => (doc.diagnostics ?? []).map(d => toCliDiagnostic(displayPath(doc.uri.fsPath), d)))
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

function errorDiagnostics(documents: LangiumDocument[], keep: (d: CliDiagnostic) => boolean): CliDiagnostic[] {
    return cliDiagnostics(documents).filter(d => d.severity === 'error' && keep(d));
}

function warningDiagnostics(documents: LangiumDocument[]): CliDiagnostic[] {
    return cliDiagnostics(documents).filter(d => d.severity === 'warning');
}

function problemDiagnostic(problem: LoweringProblem): CliDiagnostic {
    const { span } = problem;
    return {
        file: displayPath(span.file), line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn,
        severity: 'error', code: problem.code, message: problem.message,
    };
}

/**
 * A one-line progress display on stderr (a terminal only): shown once an update has taken longer than
 * half a second, so that quick runs print nothing extra, and redrawn with the elapsed time.
 */
export class ProgressLine {
    private readonly started = Date.now();
    private message = 'Starting update';
    private shown = false;
    private readonly timer: NodeJS.Timeout;

    constructor(private readonly write: (text: string) => void) {
        this.timer = setInterval(() => this.draw(), 250);
        // The display never keeps the process alive.
        this.timer.unref();
    }

    update(event: ProgressEvent): void {
        const step = event.index !== undefined && event.total !== undefined ? `[${event.index}/${event.total}] ` : '';
        this.message = `${step}${event.message}`;
        this.draw();
    }

    clear(): void {
        clearInterval(this.timer);
        if (this.shown) {
            this.write('\r\x1b[K');
        }
    }

    private draw(): void {
        const elapsed = Date.now() - this.started;
        if (elapsed < 500) {
            return;
        }
        this.write(`\r\x1b[K${this.message} (${(elapsed / 1000).toFixed(1)} s)`);
        this.shown = true;
    }
}
