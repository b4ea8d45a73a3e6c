import { runCli } from './main.js';
import { CliUsageError } from './check.js';

// Entry of the `pipeline-sql` command (`out/cli.cjs`).
runCli(process.argv.slice(2)).then(code => {
    // -1: a long-running command (the language server) owns the process from here.
    if (code >= 0) {
        process.exitCode = code;
    }
}, (error: unknown) => {
    if (error instanceof CliUsageError) {
        process.stderr.write(`pipeline-sql: ${error.message}\n`);
        process.exitCode = 2;
    } else {
        process.stderr.write(`pipeline-sql: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
        process.exitCode = 3;
    }
});
