import { checkFiles, collectFiles, CliUsageError, formatCliDiagnostic } from './check.js';
import { startServer } from '../language-server.js';
import { isTargetProfile, TargetProfiles, type TargetProfile } from '../language/pipeline/pipeline-sql-settings.js';
import { runCommand, runUsage } from './run.js';

const usage = `Usage:
  pipeline-sql check [--json] [--target databricks|spark-4.1|spark-4.2] <paths...>
                                           parse and validate pipeline SQL files or folders
  ${runUsage}
  pipeline-sql lsp --stdio                 start the language server (any LSP editor)
  pipeline-sql --help                      show this help`;

/** Runs the CLI with the given arguments and returns the process exit code. */
export async function runCli(args: string[], out: (text: string) => void = t => process.stdout.write(t)): Promise<number> {
    const [command, ...rest] = args;
    switch (command) {
        case 'check':
            return check(rest, out);
        case 'run':
            return runCommand(rest);
        case 'lsp':
            startServer();
            return -1;
        case undefined:
        case '-h':
        case '--help':
        case 'help':
            out(usage + '\n');
            return command === undefined ? 2 : 0;
        default:
            process.stderr.write(`pipeline-sql: unknown command '${command}'\n${usage}\n`);
            return 2;
    }
}

async function check(args: string[], out: (text: string) => void): Promise<number> {
    let json = false;
    let target: TargetProfile | undefined;
    const paths: string[] = [];
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '--json') {
            json = true;
        } else if (arg === '--target' || arg.startsWith('--target=')) {
            const value = arg === '--target' ? args[++i] : arg.slice('--target='.length);
            if (!isTargetProfile(value)) {
                throw new CliUsageError(`--target takes one of ${TargetProfiles.join(', ')}${value ? `, not '${value}'` : ''}`);
            }
            target = value;
        } else {
            paths.push(arg);
        }
    }
    const unknown = paths.find(p => p.startsWith('--'));
    if (unknown) {
        throw new CliUsageError(`unknown option '${unknown}' for check`);
    }
    if (paths.length === 0) {
        throw new CliUsageError('check needs at least one file or folder');
    }
    const files = collectFiles(paths);
    const diagnostics = await checkFiles(files, undefined, { target });
    if (json) {
        out(JSON.stringify(diagnostics, null, 2) + '\n');
    } else {
        for (const d of diagnostics) {
            out(formatCliDiagnostic(d) + '\n');
        }
        const errors = diagnostics.filter(d => d.severity === 'error').length;
        const count = files.report.size;
        out(`${count} file${count === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${diagnostics.length - errors} other diagnostic${diagnostics.length - errors === 1 ? '' : 's'}\n`);
    }
    return diagnostics.some(d => d.severity === 'error') ? 1 : 0;
}
