import { createRequire } from 'node:module';
import { startupSnapshot } from 'node:v8';
import { runCli } from './main.js';
import { CliUsageError } from './check.js';
import { prepareCliServices } from './cli-services.js';

// The whole CLI (`out/cli-main.cjs`). `out/cli.cjs` (launcher.ts) starts it from the start-up snapshot
// built of this bundle when it can, and loads it in its own process otherwise.

function main(args: string[]): void {
    runCli(args).then(code => {
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
}

/**
 * Where the bundle's lazily loaded packages (DuckDB's binding, see esbuild.mjs) are required from
 * once the process runs from the snapshot: the builder's own `require` only loads Node's modules.
 */
const lazyRequire = Symbol.for('pipeline-sql.require');

if (startupSnapshot.isBuildingSnapshot()) {
    prepareCliServices();
    // Started as `node --snapshot-blob out/cli-snapshot.blob <this bundle's path> <arguments>`.
    startupSnapshot.setDeserializeMainFunction(() => {
        const [bundle, ...args] = process.argv.slice(1);
        (globalThis as Record<symbol, unknown>)[lazyRequire] = createRequire(bundle);
        main(args);
    });
} else {
    main(process.argv.slice(2));
}
