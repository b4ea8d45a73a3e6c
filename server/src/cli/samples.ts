import * as fs from 'node:fs';
import * as path from 'node:path';
import { typeToString } from '../../../engine/src/spark/spark-types.js';
import type { PipelineProject } from '../project/project-types.js';
import { DefaultSampleRows } from '../samples/sample-generator.js';
import { planPipelineSamples, writeScaffold } from '../samples/sample-scaffold.js';
import { copySampleFromFile } from '../samples/sample-from-file.js';
import { nodeAsyncSampleReads } from '../../../engine/src/spark/sample-disk.js';
import { buildFiles, CliUsageError, displayPath } from './check.js';
import { parseCommandArguments, resolveRunPipeline } from './run.js';
import { cliServices, type CliServices } from './cli-services.js';

/** The usage of `samples`. */
export const samplesUsage = `pipeline-sql samples <root> [--pipeline key] [--rows n] [--seed s] [--bundle-target name]
      create sample data for every source the pipeline reads that has none (catalog tables,
      read_files paths, Python datasets): a CSV / JSON Lines / Parquet file per source with n
      generated rows (default ${DefaultSampleRows}) fitting the columns and predicates the pipeline uses (a change
      feed over two files for an AUTO CDC source), and CREATE TABLE declarations appended to
      samples/catalog.sql; existing files are never overwritten; --seed: another deterministic draw;
      --pipeline: one pipeline of a bundle (default: all)
  pipeline-sql samples <root> --from <file> --table <name> [--rows n] [--pipeline key]
      use a real CSV / JSON / Parquet file inside the pipeline as the sample data of table <name>
      (raw.orders): copied to samples/raw/orders/ (only its first n rows with --rows, for CSV,
      JSON Lines and Parquet) and declared in samples/catalog.sql with the columns inferred from it (as the
      editor's Use this File as Sample Data); refused when the table has sample data`;

/** The options of `pipeline-sql samples`. */
export interface SamplesArguments {
    root: string;
    /** `--from`: copy this file as a table's sample data (with `--table`). */
    from?: string;
    table?: string;
    /** Whether `--rows` was given (a copy is whole without it). */
    rowsGiven: boolean;
    pipeline?: string;
    rows: number;
    seed: number;
    bundleTarget?: string;
}

/** Parses the arguments of `samples`; a mistake is a CliUsageError (exit code 2). */
export function parseSamplesArguments(args: string[]): SamplesArguments {
    const { values, positionals } = parseCommandArguments('samples', args, {
        pipeline: { type: 'string' },
        rows: { type: 'string' },
        seed: { type: 'string' },
        'bundle-target': { type: 'string' },
        from: { type: 'string' },
        table: { type: 'string' },
    });
    if (positionals.length !== 1) {
        throw new CliUsageError(positionals.length === 0 ? 'samples needs the folder of a pipeline' : `samples takes one pipeline folder, not ${positionals.length} arguments`);
    }
    const number = (name: string, text: string | undefined, fallback: number, min: number): number => {
        if (text === undefined) {
            return fallback;
        }
        if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > 100_000) {
            throw new CliUsageError(`--${name} takes a whole number from ${min} to 100000, not '${text}'`);
        }
        return Number(text);
    };
    if ((values.from === undefined) !== (values.table === undefined)) {
        throw new CliUsageError(values.from === undefined ? '--table goes with --from <file>: the file to use as its sample data' : '--from needs --table <name>: the table the file is the data of (raw.orders)');
    }
    if (values.from !== undefined && values.seed !== undefined) {
        throw new CliUsageError('--seed is for generated data; --from copies a file');
    }
    return {
        root: positionals[0],
        rowsGiven: values.rows !== undefined,
        ...(values.from !== undefined ? { from: values.from, table: values.table } : {}),
        rows: number('rows', values.rows, DefaultSampleRows, 1),
        seed: number('seed', values.seed, 1, 0),
        ...(values.pipeline !== undefined ? { pipeline: values.pipeline } : {}),
        ...(values['bundle-target'] !== undefined ? { bundleTarget: values['bundle-target'] } : {}),
    };
}

/** Where the output goes. */
export interface SamplesIO {
    out: (text: string) => void;
    err: (text: string) => void;
}

const defaultIO: SamplesIO = { out: text => process.stdout.write(text), err: text => process.stderr.write(text) };

/**
 * `pipeline-sql samples`: for each pipeline under the root (or the one `--pipeline` names), plans the
 * sample data its sources lack and writes it, never over an existing file; prints what was created
 * and what was skipped, with why. Exit 0, or 2 for a usage error.
 */
export async function samplesCommand(args: string[], io: SamplesIO = defaultIO, services?: CliServices): Promise<number> {
    const options = parseSamplesArguments(args);
    const { shared, PipelineSql } = services ?? cliServices();
    const abs = path.resolve(options.root);
    if (!fs.existsSync(abs)) {
        throw new CliUsageError(`No such file or folder: ${options.root}`);
    }
    let pipelines: readonly PipelineProject[];
    if (options.pipeline !== undefined) {
        pipelines = [await resolveRunPipeline(shared, { root: options.root, json: false, fullRefresh: false, pipeline: options.pipeline, bundleTarget: options.bundleTarget })];
    } else {
        shared.pipeline.Project.setOptions({ bundleTarget: options.bundleTarget });
        const set = await shared.pipeline.Project.loadFolder(fs.statSync(abs).isDirectory() ? abs : path.dirname(abs));
        pipelines = set.pipelines;
        if (pipelines.length === 0) {
            throw new CliUsageError(`No pipeline under ${displayPath(abs) || '.'}: looked for ${set.searched}`);
        }
    }
    if (options.from !== undefined) {
        return copyFromFile(shared, options, pipelines, io);
    }
    let created = 0;
    for (const pipeline of pipelines) {
        const plan = await planPipelineSamples(PipelineSql, pipeline, files => buildFiles(shared, files), { rows: options.rows, seed: options.seed });
        const result = await writeScaffold(plan);
        const label = pipeline.key ?? pipeline.name;
        io.out(`pipeline ${label}:${plan.generated.length === 0 && plan.skipped.length === 0 ? ' every source has sample data' : ''}\n`);
        for (const generated of plan.generated) {
            const files = plan.files.filter(f => f.path === generated.source.location || f.path.startsWith(generated.source.location + path.sep));
            const rows = generated.files.reduce((n, f) => n + f.rows.length, 0);
            io.out(`  created ${files.map(f => displayPath(f.path)).join(', ')} for ${generated.source.displayName}: ${rows} rows${generated.notes.length > 0 ? ` (${generated.notes.join(', ')})` : ''}\n`);
            io.out(`    columns: ${generated.columns.map(c => `${c.name} ${typeToString(c.type)}`).join(', ')}\n`);
            created++;
        }
        const catalog = plan.append ?? plan.files.find(f => path.basename(f.path) === 'catalog.sql' && path.dirname(f.path) === pipeline.samplesDir);
        if (catalog && result.written.includes(catalog.path)) {
            io.out(`  declared the tables in ${displayPath(catalog.path)}\n`);
        }
        for (const kept of plan.kept) {
            io.out(`  kept ${kept}: it has sample data (never overwritten)\n`);
        }
        for (const skipped of [...plan.skipped, ...result.skipped]) {
            io.out(`  skipped ${skipped.displayName}: ${skipped.reason}\n`);
        }
    }
    if (created > 0) {
        io.out(`Created sample data for ${created} source${created === 1 ? '' : 's'}; run the pipeline with: pipeline-sql run ${options.root}${options.pipeline ? ` --pipeline ${options.pipeline}` : ''}\n`);
    }
    return 0;
}

/** `samples <root> --from <file> --table <name>`: the file copied as the table's sample data (`copySampleFromFile`, as the editor's command). */
async function copyFromFile(shared: CliServices['shared'], options: SamplesArguments, pipelines: readonly PipelineProject[], io: SamplesIO): Promise<number> {
    const file = path.resolve(options.from!);
    if (!fs.existsSync(file)) {
        throw new CliUsageError(`No such file: ${options.from}`);
    }
    const copied = await copySampleFromFile(shared.pipeline.Project, nodeAsyncSampleReads, {
        file, table: options.table!, ...(options.rowsGiven ? { rows: options.rows } : {}),
        ...(options.pipeline !== undefined ? { pipeline: pipelines[0] } : {}),
    });
    if (!copied.ok) {
        io.err(`${displayPath(file)}: error ${copied.error.class}\n  ${copied.error.message}\n`);
        return 1;
    }
    const { pipeline, written, rows, table } = copied.value;
    io.out(`pipeline ${pipeline.key ?? pipeline.name}:\n  copied ${displayPath(file)} to ${displayPath(written[0])} as ${table}${rows > 0 ? `: ${rows} rows` : ''}\n`);
    if (written.length > 1) {
        io.out(`  declared ${table} in ${displayPath(written[1])}\n`);
    }
    return 0;
}
