import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { LangiumDocument } from 'langium';
import {
    readState, runUpdate, type DatasetResult, type PipelineIR, type ProgressEvent, type UpdateErrorInfo, type UpdateSuccess,
} from '../../../engine/src/index.js';
import { findEnclosingRoot } from '../project/discovery.js';
import type { PipelineProject } from '../project/project-types.js';
import { engineIdentity, prepareRun, realReadRoots } from '../project/run-preparation.js';
import { buildFiles, CliUsageError, displayPath, toCliDiagnostic, type CliDiagnostic } from './check.js';
import { formatFailure, formatSuccess } from './run-output.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import { cliServices, type CliServices } from './cli-services.js';
import type { PipelineSqlSharedServices } from '../language/pipeline-sql-module.js';

export { displayPath } from './check.js';

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
    /** The bundle pipeline to run (`--pipeline KEY`); required when the root holds several. */
    pipeline?: string;
    /** The bundle target (`--bundle-target NAME`); else the bundle's default target. */
    bundleTarget?: string;
    /** Folders outside the pipeline the engine may read (`--allow-read DIR`, repeatable). */
    allowRead?: string[];
}

/** The usage of `run`, shown by `pipeline-sql --help` and `pipeline-sql run --help`. */
export const runUsage = `pipeline-sql run <root> [--pipeline key] [--bundle-target name] [--json] [--full-refresh] [--refresh a,b]
                 [--now 'yyyy-MM-dd HH:mm:ss'] [--state dir] [--samples dir] [--limit n] [--allow-read dir]...
      run one update of the pipeline in <root> on its sample data (samples in <root>/samples, state in
      <root>/.pipeline-sql; for a bundle, beside databricks.yml in samples/ and .pipeline-sql/<key>/);
      --pipeline: which pipeline of a bundle (required when it has several); --limit: rows shown per
      dataset, 20, or 1000 with --json; --allow-read: a folder outside the pipeline that reads may use`;

const NOW_PATTERN = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$/;

/** Node's argument parser with our usage errors: unknown options and missing values are CliUsageErrors. */
export function parseCommandArguments<T extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(command: string, args: string[], options: T) {
    // `--limit -1`: a value that starts with a dash is still the option's value (parseArgs calls it ambiguous).
    const joined: string[] = [];
    for (let i = 0; i < args.length; i++) {
        const name = args[i].startsWith('--') ? args[i].slice(2) : undefined;
        const option = name !== undefined && options && Object.hasOwn(options, name) ? options[name] : undefined;
        if (option?.type === 'string' && i + 1 < args.length && args[i + 1].startsWith('-') && !args[i + 1].startsWith('--')) {
            joined.push(`${args[i]}=${args[++i]}`);
        } else {
            joined.push(args[i]);
        }
    }
    try {
        return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
        if (unknown) {
            throw new CliUsageError(`unknown option '${unknown}' for ${command}`);
        }
        const missing = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(message)?.[1];
        throw new CliUsageError(missing ? `${missing} needs a value` : message.split('\n')[0]);
    }
}

/** Parses the arguments of `run`; a mistake is a CliUsageError (exit code 2). */
export function parseRunArguments(args: string[], command: 'run' | 'sql' = 'run'): RunArguments & { statement?: string; file?: string } {
    const { values, positionals } = parseCommandArguments(command, args, {
        ...(command === 'sql' ? { file: { type: 'string' as const, short: 'f' } } : {}),
        json: { type: 'boolean' },
        'full-refresh': { type: 'boolean' },
        refresh: { type: 'string' },
        now: { type: 'string' },
        state: { type: 'string' },
        samples: { type: 'string' },
        limit: { type: 'string' },
        pipeline: { type: 'string' },
        'bundle-target': { type: 'string' },
        'allow-read': { type: 'string', multiple: true },
    });
    // `sql` takes the statement after the folder (or from --file).
    const statement = command === 'sql' && positionals.length === 2 && values.file === undefined ? positionals.pop() : undefined;
    if (positionals.length !== 1) {
        throw new CliUsageError(positionals.length === 0 ? `${command} needs the folder of a pipeline` : `${command} takes one pipeline folder${command === 'sql' ? ' and one statement' : ''}, not ${positionals.length} arguments`);
    }
    const result: RunArguments & { statement?: string; file?: string } = { root: positionals[0], json: values.json === true, fullRefresh: values['full-refresh'] === true };
    if (statement !== undefined) {
        result.statement = statement;
    }
    if (typeof values.file === 'string') {
        result.file = values.file;
    }
    if (values.refresh !== undefined) {
        result.refresh = values.refresh.split(',').map(s => s.trim()).filter(s => s.length > 0);
    }
    if (values.now !== undefined) {
        if (!NOW_PATTERN.test(values.now)) {
            throw new CliUsageError(`--now takes 'yyyy-MM-dd HH:mm:ss' (or 'yyyy-MM-dd'), not '${values.now}'`);
        }
        result.now = values.now;
    }
    if (values.state !== undefined) {
        result.state = values.state;
    }
    if (values.samples !== undefined) {
        result.samples = values.samples;
    }
    if (values.limit !== undefined) {
        if (!/^\d+$/.test(values.limit)) {
            throw new CliUsageError(`--limit takes a number of rows, not '${values.limit}'`);
        }
        result.limit = Number(values.limit);
    }
    if (values.pipeline !== undefined) {
        result.pipeline = values.pipeline;
    }
    if (values['bundle-target'] !== undefined) {
        result.bundleTarget = values['bundle-target'];
    }
    if (values['allow-read'] !== undefined) {
        result.allowRead = values['allow-read'];
    }
    return result;
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

/**
 * The pipeline a `run` argument names, from the project model: the pipelines under the folder (or
 * the pipeline root enclosing a file), the one `--pipeline` names when there are several.
 */
export async function resolveRunPipeline(shared: PipelineSqlSharedServices, options: RunArguments): Promise<PipelineProject> {
    const abs = path.resolve(options.root);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) {
        throw new CliUsageError(`No such file or folder: ${options.root}`);
    }
    const project = shared.pipeline.Project;
    project.setOptions({ bundleTarget: options.bundleTarget, allowedReadPaths: (options.allowRead ?? []).map(d => path.resolve(d)) });
    const folder = stat.isDirectory() ? abs : await findEnclosingRoot(abs, project.files) ?? path.dirname(abs);
    const set = await project.loadFolder(folder);
    const pipelines = set.pipelines;
    const describe = (p: PipelineProject): string => (p.key ? `${p.key}${p.name !== p.key ? ` (${p.name})` : ''}` : `${p.name} (${displayPath(p.root) || '.'})`);
    if (options.pipeline !== undefined) {
        const wanted = options.pipeline;
        const found = pipelines.find(p => p.key === wanted) ?? pipelines.find(p => p.name === wanted);
        if (!found) {
            throw new CliUsageError(`${options.root} has no pipeline '${wanted}'; its pipelines: ${pipelines.map(describe).join(', ') || 'none'}`);
        }
        return found;
    }
    if (pipelines.length === 0) {
        const problem = set.problems.find(p => p.severity === 'error');
        if (problem) {
            throw new ProjectFileError(problem.code, problem.message, problem.file, problem.line, problem.column);
        }
        throw new ProjectFileError(ErrorClass.noSources, `No pipeline SQL files in ${displayPath(folder) || '.'}: looked for ${set.searched}.`);
    }
    if (pipelines.length > 1) {
        throw new CliUsageError(`${options.root} holds ${pipelines.length} pipelines; choose one with --pipeline: ${pipelines.map(describe).join(', ')}`);
    }
    return pipelines[0];
}

/** A project file that stops a run (a YAML error in databricks.yml, an unknown target). */
class ProjectFileError extends Error {
    constructor(readonly code: string, message: string, readonly file?: string, readonly line?: number, readonly column?: number) {
        super(message);
    }
}

/**
 * `pipeline-sql run`: finds the pipeline with the project model, loads its files with the language
 * services (as \`check\` does), stops with the errors if there are any, lowers the pipeline to the
 * engine IR, runs one update on the sample data with the pipeline's state folder, and prints the
 * datasets, the changes and the metrics (as tables, or as the JSON document of the CLI contract with
 * \`--json\`). Returns the exit code.
 */
export async function runCommand(args: string[], io: RunIO = defaultIO, services?: CliServices): Promise<number> {
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

    const { shared, PipelineSql } = services ?? cliServices();
    let pipeline: PipelineProject;
    try {
        pipeline = await resolveRunPipeline(shared, options);
    } catch (error) {
        if (error instanceof ProjectFileError) {
            return fail({ class: error.code, message: error.message, ...(error.file ? { file: error.file, line: error.line, column: error.column } : {}) });
        }
        throw error;
    }
    const samplesDir = path.resolve(options.samples ?? pipeline.samplesDir);
    const stateDir = path.resolve(options.state ?? pipeline.stateDir);
    let documents: Awaited<ReturnType<typeof buildFiles>> = [];
    // Another samples folder (--samples) brings its own catalog declarations.
    const catalog = options.samples === undefined ? undefined : !fs.existsSync(samplesDir) ? [] : fs.readdirSync(samplesDir, { withFileTypes: true })
        .filter(e => e.isFile() && e.name.toLowerCase().endsWith('.sql')).map(e => path.join(samplesDir, e.name)).sort();
    // Sample reads stay inside the pipeline's read roots (and a --samples folder given on the command line).
    const readRoots = [...await realReadRoots(pipeline), ...(options.samples !== undefined ? [samplesDir] : [])];
    const prepared = await prepareRun(PipelineSql, pipeline, async files => (documents = await buildFiles(shared, files)), catalog,
        { rootDir: pipeline.root, samplesDir, readRoots });
    if (!options.json) {
        const sources = new Set(pipeline.sources);
        for (const warning of cliDiagnostics(documents.filter(d => sources.has(d.uri.fsPath))).filter(d => d.severity === 'warning')) {
            io.err(`${warning.file}:${warning.line}:${warning.column}: ${warning.severity} ${warning.code} ${warning.message}\n`);
        }
    }
    if (!prepared.ok) {
        const { error } = prepared;
        const place = error.place;
        const errors = prepared.problems.length > 0
            ? prepared.problems.map(p => placeDiagnostic(p.code, p.message, p.place))
            : cliDiagnostics(documents).filter(d => d.severity === 'error' && (pipeline.sources.includes(path.resolve(d.file)) || d.code === 'PARSE_SYNTAX_ERROR'));
        return fail({
            class: error.class, message: error.message,
            ...(place ? { file: place.file, line: place.range.start.line + 1, column: place.range.start.character + 1 } : {}),
        }, errors.length > 0 ? { diagnostics: errors } : {});
    }

    const progress = io.progress ? new ProgressLine(io.err) : undefined;
    const identity = engineIdentity(pipeline);
    const result = await runUpdate(prepared.ir, {
        stateDir, samplesDir, rootDir: pipeline.root, readRoots, limit, pipeline: identity,
        now: options.now,
        fullRefresh: options.fullRefresh,
        refresh: options.refresh,
        onProgress: progress ? event => progress.update(event) : undefined,
    });
    progress?.clear();
    if (!result.ok) {
        // What the last successful update left, so that the failure can be read against it.
        const state = await readStateQuietly(prepared.ir, stateDir, samplesDir, pipeline.root, readRoots, options.now, limit, identity);
        return fail(result.error, state ? { datasets: state } : {});
    }
    if (options.json) {
        io.out(JSON.stringify(successDocument(result), null, 2) + '\n');
    } else {
        io.out(formatSuccess(result, { name: pipeline.name, root: displayPath(pipeline.root), limit }));
    }
    return 0;
}

function placeDiagnostic(code: string, message: string, place: { file: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }): CliDiagnostic {
    return {
        file: displayPath(place.file), line: place.range.start.line + 1, column: place.range.start.character + 1,
        endLine: place.range.end.line + 1, endColumn: place.range.end.character + 1, severity: 'error', code, message,
    };
}

/** The `--json` success document of the CLI contract (issue 5 item 6). */
export function successDocument(result: UpdateSuccess): object {
    const datasets = Object.fromEntries(Object.entries(result.datasets).map(([name, dataset]) => [name, {
        kind: dataset.kind,
        columns: dataset.columns,
        rows: dataset.rows,
        rowCount: dataset.rowCount,
        truncated: dataset.truncated,
        ...(dataset.error ? { error: dataset.error } : {}),
    }]));
    return { ok: true, datasets, metrics: result.metrics };
}

async function readStateQuietly(pipeline: PipelineIR, stateDir: string, samplesDir: string, rootDir: string, readRoots: string[], now: string | undefined, limit: number,
    identity: { id: string; name: string }): Promise<Record<string, DatasetResult> | undefined> {
    if (!fs.existsSync(stateDir)) {
        return undefined;
    }
    const state = await readState(pipeline, { stateDir, samplesDir, rootDir, readRoots, now, limit, pipeline: identity });
    return state.ok ? state.datasets : undefined;
}

function cliDiagnostics(documents: readonly LangiumDocument[]): CliDiagnostic[] {
    return documents.flatMap(doc => (doc.diagnostics ?? []).map(d => toCliDiagnostic(displayPath(doc.uri.fsPath), d)))
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
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
