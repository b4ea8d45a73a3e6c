import { parseArgs } from 'node:util';
import { isTargetProfile, TargetProfiles, type TargetProfile } from '../language/pipeline/pipeline-sql-settings.js';
import { CheckFormats, githubAnnotations, sarifLog, type CheckFormat } from './ci-formats.js';
import { CliUsageError, formatCliDiagnostic, planCheck, runCheck, type CliDiagnostic, type DiagnosticGroup } from './check.js';
import { cliServices } from './cli-services.js';

/** The version printed by `--version` (the package's, set at build time). */
declare const PIPELINE_SQL_VERSION: string | undefined;
export const version = typeof PIPELINE_SQL_VERSION === 'string' ? PIPELINE_SQL_VERSION : '0.0.0-dev';

const checkUsage = `pipeline-sql check [--format text|json|sarif|github] [--json] [--target databricks|spark-4.1|spark-4.2] [--bundle-target name] [paths...]
      parse and validate the pipelines under folders (bundles, spark-pipeline.yml folders, folders of
      pipeline SQL) or single .sql files (default: the current folder); exit 1 on an error, 2 when
      nothing was found to check; --format sarif: SARIF 2.1.0 (GitHub code scanning), github: GitHub
      Actions annotations; --json is --format json`;

const lspUsage = `pipeline-sql lsp --stdio
      start the language server (any LSP editor)`;

/** The usage text of every command, or of one. */
async function usage(command?: string): Promise<string> {
    if (command === 'check') {
        return `Usage:\n  ${checkUsage}`;
    }
    if (command === 'run') {
        return `Usage:\n  ${(await import('./run.js')).runUsage}`;
    }
    if (command === 'test') {
        return `Usage:\n  ${(await import('./test.js')).testUsage}`;
    }
    if (command === 'sql') {
        return `Usage:\n  ${(await import('./sql.js')).sqlUsage}`;
    }
    if (command === 'samples') {
        return `Usage:\n  ${(await import('./samples.js')).samplesUsage}`;
    }
    if (command === 'lsp') {
        return `Usage:\n  ${lspUsage}`;
    }
    return `Usage:\n  ${checkUsage}\n  ${(await import('./run.js')).runUsage}\n  ${(await import('./sql.js')).sqlUsage}\n  ${(await import('./test.js')).testUsage}\n  ${(await import('./samples.js')).samplesUsage}\n  ${lspUsage}\n  pipeline-sql --version                   print the version\n  pipeline-sql <command> --help            show a command's options`;
}

/** Runs the CLI with the given arguments and returns the process exit code. */
export async function runCli(args: string[], out: (text: string) => void = t => process.stdout.write(t), err: (text: string) => void = t => process.stderr.write(t)): Promise<number> {
    const [command, ...rest] = args;
    if (command === '--version' || command === '-v' || command === 'version') {
        out(`pipeline-sql ${version}\n`);
        return 0;
    }
    if ((command === 'check' || command === 'run' || command === 'sql' || command === 'test' || command === 'samples' || command === 'lsp') && (rest.includes('--help') || rest.includes('-h'))) {
        out(await usage(command) + '\n');
        return 0;
    }
    switch (command) {
        case 'check':
            return check(rest, out, err);
        case 'run': {
            // The engine (and DuckDB's native library) load only for a run: check and lsp start without them.
            const { runCommand } = await import('./run.js');
            return runCommand(rest);
        }
        case 'sql': {
            // As run: the engine loads only when a statement runs.
            const { sqlCommand } = await import('./sql.js');
            return sqlCommand(rest);
        }
        case 'test': {
            // As run: the engine loads only when tests run.
            const { testCommand } = await import('./test.js');
            return testCommand(rest);
        }
        case 'samples': {
            const { samplesCommand } = await import('./samples.js');
            return samplesCommand(rest, { out, err });
        }
        case 'lsp': {
            const { startServer } = await import('../language-server.js');
            startServer();
            return -1;
        }
        case undefined:
        case '-h':
        case '--help':
        case 'help':
            out(await usage() + '\n');
            return command === undefined ? 2 : 0;
        default:
            err(`pipeline-sql: unknown command '${command}'\n${await usage()}\n`);
            return 2;
    }
}

function parseCheckArguments(args: string[]): { format: CheckFormat; target?: TargetProfile; bundleTarget?: string; paths: string[] } {
    let parsed;
    try {
        parsed = parseArgs({
            args, allowPositionals: true, strict: true,
            options: { json: { type: 'boolean' }, format: { type: 'string' }, target: { type: 'string' }, 'bundle-target': { type: 'string' } },
        });
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
        if (/'--format/.test(message) && /argument missing/.test(message)) {
            throw new CliUsageError(`--format takes one of ${CheckFormats.join(', ')}`);
        }
        if (/'--target/.test(message) && /argument missing/.test(message)) {
            throw new CliUsageError(`--target takes one of ${TargetProfiles.join(', ')}`);
        }
        throw new CliUsageError(unknown ? `unknown option '${unknown}' for check` : message.split('\n')[0]);
    }
    const { values, positionals } = parsed;
    if (values.target !== undefined && !isTargetProfile(values.target)) {
        throw new CliUsageError(`--target takes one of ${TargetProfiles.join(', ')}, not '${values.target}'`);
    }
    const format = values.format ?? (values.json === true ? 'json' : 'text');
    if (!(CheckFormats as readonly string[]).includes(format)) {
        throw new CliUsageError(`--format takes one of ${CheckFormats.join(', ')}, not '${format}'`);
    }
    if (values.json === true && format !== 'json') {
        throw new CliUsageError(`--json is --format json; it cannot be combined with --format ${format}`);
    }
    return { format: format as CheckFormat, target: values.target as TargetProfile | undefined, bundleTarget: values['bundle-target'], paths: positionals.length > 0 ? positionals : ['.'] };
}

/** The header of a pipeline's group in the plain output. */
function groupHeader(group: DiagnosticGroup): string {
    const p = group.pipeline;
    if (!p) {
        return group.files > 0 ? 'files outside any pipeline:' : 'project files:';
    }
    const where = p.bundle ? `bundle ${p.bundle.name ?? p.bundle.root}${p.bundle.target ? `, target ${p.bundle.target}` : ''}` : p.layout === 'spark-pipeline' ? 'spark-pipeline.yml' : 'folder';
    return `pipeline ${p.key ?? p.name}${p.key && p.name !== p.key ? ` '${p.name}'` : ''} (${where}):`;
}

async function check(args: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
    const options = parseCheckArguments(args);
    const services = cliServices();
    const plan = await planCheck(options.paths, services, { bundleTarget: options.bundleTarget });
    for (const note of plan.skipped) {
        err(`pipeline-sql: ${note}\n`);
    }
    const groups = await runCheck(plan, services, { target: options.target });
    const diagnostics: CliDiagnostic[] = groups.flatMap(g => g.diagnostics);
    if (options.format === 'json') {
        out(JSON.stringify(diagnostics, null, 2) + '\n');
    } else if (options.format === 'sarif') {
        out(JSON.stringify(sarifLog(diagnostics, version), null, 2) + '\n');
    } else if (options.format === 'github') {
        out(githubAnnotations(diagnostics));
    } else {
        const headers = groups.length > 1 || groups.some(g => g.pipeline?.layout === 'bundle');
        for (const group of groups) {
            if (headers && (group.diagnostics.length > 0 || group.pipeline)) {
                out(`${groupHeader(group)} ${group.diagnostics.length === 0 ? 'no diagnostics' : ''}\n`.replace(/ \n$/, '\n'));
            }
            for (const d of group.diagnostics) {
                out((headers ? '  ' : '') + formatCliDiagnostic(d) + '\n');
            }
        }
        const errors = diagnostics.filter(d => d.severity === 'error').length;
        const count = groups.reduce((n, g) => n + g.files, 0);
        const pipelines = groups.filter(g => g.pipeline).length;
        out(`${count} file${count === 1 ? '' : 's'} checked${pipelines > 1 ? ` in ${pipelines} pipelines` : ''}: ${errors} error${errors === 1 ? '' : 's'}, ${diagnostics.length - errors} other diagnostic${diagnostics.length - errors === 1 ? '' : 's'}\n`);
    }
    return diagnostics.some(d => d.severity === 'error') ? 1 : 0;
}
