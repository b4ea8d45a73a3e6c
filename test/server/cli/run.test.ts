// `pipeline-sql run`: argument parsing, the human and JSON outputs, incremental state, selective and
// full refresh, and failures (syntax errors, constructs that cannot run, runtime errors mapped onto
// the clause that caused them, bad sample data), in process and through the built CLI.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CliUsageError } from '../../../server/src/cli/check.js';
import { parseRunArguments, ProgressLine, runCommand } from '../../../server/src/cli/run.js';
import { repoRoot } from '../../helpers/parse.js';

let root: string;

/** Writes a file under the pipeline root. */
function write(relative: string, text: string): void {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
}

/** Runs `pipeline-sql run` in process; returns the exit code and what it printed. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCommand(args, { out: t => { out += t; }, err: t => { err += t; }, progress: false });
    return { code, out, err };
}

async function runJson(...args: string[]): Promise<{ code: number; doc: Record<string, unknown> & { ok: boolean } }> {
    const { code, out } = await run(...args, '--json');
    return { code, doc: JSON.parse(out) as Record<string, unknown> & { ok: boolean } };
}

const cdcPipeline = `CREATE OR REFRESH STREAMING TABLE users
COMMENT 'current users';

CREATE FLOW users_cdc AS AUTO CDC INTO users
FROM STREAM(cdc.events)
KEYS (id)
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (op, seq);

CREATE MATERIALIZED VIEW user_count AS SELECT count(*) AS n FROM users;
`;

function events(file: string, rows: object[]): void {
    write(`samples/cdc/events/${file}`, rows.map(r => JSON.stringify(r)).join('\n') + '\n');
}

beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-run-'));
    write('spark-pipeline.yml', 'name: users\nlibraries:\n  - glob:\n      include: transformations/**\n');
    write('transformations/users.sql', cdcPipeline);
    write('samples/catalog.sql', "CREATE TABLE cdc.events (id INT, name STRING, op STRING, seq INT) USING JSON LOCATION 'cdc/events';\n");
    events('part-00001.jsonl', [
        { id: 1, name: 'Ada', op: 'UPSERT', seq: 1 },
        { id: 2, name: 'Alan', op: 'UPSERT', seq: 2 },
        { id: 3, name: 'Grace', op: 'UPSERT', seq: 3 },
    ]);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('arguments', () => {
    test('options and their values are read; mistakes are usage errors', () => {
        expect(parseRunArguments(['p', '--json', '--full-refresh', '--refresh', 'a, b', '--now', '2025-01-03 10:00:00', '--state=s', '--samples', 'x', '--limit', '5'])).toEqual({
            root: 'p', json: true, fullRefresh: true, refresh: ['a', 'b'], now: '2025-01-03 10:00:00', state: 's', samples: 'x', limit: 5,
        });
        expect(() => parseRunArguments([])).toThrow(CliUsageError);
        expect(() => parseRunArguments(['a', 'b'])).toThrow('run takes one pipeline folder, not 2');
        expect(() => parseRunArguments(['p', '--now', 'yesterday'])).toThrow("--now takes 'yyyy-MM-dd HH:mm:ss' (or 'yyyy-MM-dd'), not 'yesterday'");
        expect(() => parseRunArguments(['p', '--limit', '-1'])).toThrow("--limit takes a number of rows, not '-1'");
        expect(() => parseRunArguments(['p', '--limit'])).toThrow('--limit needs a value');
        expect(() => parseRunArguments(['p', '--verbose'])).toThrow("unknown option '--verbose' for run");
    });
});

describe('a successful update', () => {
    test('--json prints the datasets (kind, columns, rows) and the CDC metrics of the contract', async () => {
        const { code, doc } = await runJson(root);
        expect(code).toBe(0);
        expect(doc).toMatchObject({
            ok: true,
            datasets: {
                users: {
                    kind: 'streaming_table',
                    columns: [{ name: 'id', type: 'INT' }, { name: 'name', type: 'STRING' }],
                    rows: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }, { id: 3, name: 'Grace' }],
                    rowCount: 3, truncated: false,
                },
                user_count: { kind: 'materialized_view', columns: [{ name: 'n', type: 'BIGINT' }], rows: [{ n: 3 }] },
            },
            metrics: { users: { num_upserted_rows: 3, num_deleted_rows: 0 } },
        });
    });

    test('the human output shows a table per dataset, the changes, the metrics and a summary line', async () => {
        const { code, out } = await run(root);
        expect(code).toBe(0);
        expect(out).toContain([
            'users — streaming table, 3 rows',
            '  id  name',
            '  --  -----',
            '   1  Ada',
            '   2  Alan',
            '   3  Grace',
            '  rows changed: 3 inserted, 0 updated, 0 deleted',
            '  metrics: num_upserted_rows 3, num_deleted_rows 0',
        ].join('\n'));
        expect(out).toMatch(/Update of users \(.*\) completed in \d+\.\d s: 2 datasets updated, 2 flows run\.\n$/);
    });

    test('state persists in ROOT/.pipeline-sql: the next update reads only the new file and applies its deletes', async () => {
        expect((await run(root)).code).toBe(0);
        expect(fs.existsSync(path.join(root, '.pipeline-sql'))).toBe(true);
        events('part-00002.jsonl', [{ id: 2, name: null, op: 'DELETE', seq: 5 }, { id: 1, name: 'Ada King', op: 'UPSERT', seq: 4 }]);
        const { doc } = await runJson(root);
        expect(doc).toMatchObject({
            datasets: { users: { rows: [{ id: 1, name: 'Ada King' }, { id: 3, name: 'Grace' }] }, user_count: { rows: [{ n: 2 }] } },
            metrics: { users: { num_upserted_rows: 1, num_deleted_rows: 1 } },
        });
    });

    test('--limit truncates the rows shown; --state and --samples move the state and the sample catalog', async () => {
        const state = path.join(root, 'elsewhere', 'state');
        fs.renameSync(path.join(root, 'samples'), path.join(root, 'data'));
        const { doc } = await runJson(root, '--limit', '1', '--state', state, '--samples', path.join(root, 'data'));
        expect(doc).toMatchObject({ ok: true, datasets: { users: { rows: [{ id: 1, name: 'Ada' }], rowCount: 3, truncated: true } } });
        expect(fs.existsSync(state)).toBe(true);
        expect(fs.existsSync(path.join(root, '.pipeline-sql'))).toBe(false);
        const human = await run(root, '--limit', '2', '--state', state, '--samples', path.join(root, 'data'));
        expect(human.out).toContain('  … 1 more row (showing 2; use --limit to see more)\n');
    });

    test('--refresh updates only the named datasets; --full-refresh recomputes from all input', async () => {
        expect((await run(root)).code).toBe(0);
        events('part-00002.jsonl', [{ id: 4, name: 'Edsger', op: 'UPSERT', seq: 6 }]);
        const partial = await runJson(root, '--refresh', 'users');
        // user_count was not refreshed: it still counts 3 although users has 4 rows.
        expect(partial.doc).toMatchObject({ datasets: { users: { rowCount: 4 }, user_count: { rows: [{ n: 3 }] } } });
        const full = await runJson(root, '--full-refresh');
        expect(full.doc).toMatchObject({ datasets: { users: { rowCount: 4 }, user_count: { rows: [{ n: 4 }] } }, metrics: { users: { num_upserted_rows: 4 } } });
    });

    test('--now fixes current_date() and current_timestamp()', async () => {
        write('transformations/clock.sql', 'CREATE MATERIALIZED VIEW clock AS SELECT current_date() AS d, current_timestamp AS ts;\n');
        const { doc } = await runJson(root, '--now', '2025-01-03 10:30:00');
        expect(doc).toMatchObject({ datasets: { clock: { rows: [{ d: '2025-01-03', ts: '2025-01-03 10:30:00' }] } } });
    });

    test('pipeline parameters come from the configuration of spark-pipeline.yml', async () => {
        write('spark-pipeline.yml', 'name: users\nconfiguration:\n  min_id: 2\n  source: cdc\nlibraries:\n  - glob:\n      include: transformations/**\n');
        write('transformations/filtered.sql', 'CREATE MATERIALIZED VIEW filtered AS SELECT id FROM users WHERE id >= ${min_id};\n'
            + 'CREATE MATERIALIZED VIEW raw_count AS SELECT count(*) AS n FROM ${source}.events;\n');
        const { doc } = await runJson(root);
        expect(doc).toMatchObject({ datasets: { filtered: { rows: [{ id: 2 }, { id: 3 }] }, raw_count: { rows: [{ n: 3 }] } } });
    });
});

describe('failures exit with 1 and say what and where', () => {
    test('syntax errors: the pipeline is not run; JSON names the class, file and line', async () => {
        write('transformations/broken.sql', 'CREATE MATERIALIZED VIEW v AS SELECT FROM;\n');
        const { code, doc } = await runJson(root);
        expect(code).toBe(1);
        expect(doc).toMatchObject({ ok: false, error: { class: 'PARSE_SYNTAX_ERROR', file: expect.stringMatching(/broken\.sql$/), line: 1 } });
        expect(fs.existsSync(path.join(root, '.pipeline-sql'))).toBe(false);
        const human = await run(root);
        expect(human.code).toBe(1);
        expect(human.err).toMatch(/broken\.sql:1:\d+: error PARSE_SYNTAX_ERROR .*\n1 error: the pipeline was not run\.\n$/);
    });

    test('a construct the engine cannot run is reported before anything runs', async () => {
        write('transformations/sampled.sql', 'CREATE MATERIALIZED VIEW sampled AS\nSELECT * FROM users TABLESAMPLE (10 PERCENT);\n');
        const { code, doc } = await runJson(root);
        expect(code).toBe(1);
        expect(doc).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_UNSUPPORTED_FEATURE', file: expect.stringMatching(/sampled\.sql$/), line: 2, column: 21 } });
    });

    test('a runtime error points at the clause that caused it, and the state is the last successful one', async () => {
        expect((await run(root)).code).toBe(0);
        events('part-00002.jsonl', [{ id: 5, name: 'Nobody', op: 'UPSERT', seq: null }]);
        const { code, doc } = await runJson(root);
        expect(code).toBe(1);
        expect(doc).toMatchObject({
            ok: false,
            error: { class: 'AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE', flow: 'users_cdc', dataset: 'users', file: expect.stringMatching(/users\.sql$/), line: 8, column: 1 },
            datasets: { users: { rowCount: 3 } },
        });
        const human = await run(root);
        expect(human.err).toMatch(/users\.sql:8:1: error AUTOCDC_MICROBATCH_VALIDATION\.NULL_SEQUENCE \(flow 'users_cdc', dataset 'users'\)\n {2}.+\nThe update was rolled back/);
    });

    test('bad sample data names the data file and line', async () => {
        events('part-00002.jsonl', [{ id: 'not a number', name: 'x', op: 'UPSERT', seq: 9 }]);
        const { code, doc } = await runJson(root);
        expect(code).toBe(1);
        expect(doc).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_BAD_SAMPLE_DATA', file: expect.stringMatching(/part-00002\.jsonl$/), line: 1 } });
    });

    test('a folder without pipeline files, a project file that is not YAML, several pipelines', async () => {
        const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-empty-'));
        try {
            expect((await runJson(empty)).doc).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_NO_SOURCES' } });
            fs.mkdirSync(path.join(empty, 'a'));
            fs.mkdirSync(path.join(empty, 'b'));
            fs.writeFileSync(path.join(empty, 'a', 'spark-pipeline.yml'), 'name: a\n');
            fs.writeFileSync(path.join(empty, 'b', 'spark-pipeline.yml'), 'name: b\n');
            await expect(run(empty)).rejects.toThrow(/holds 2 pipelines; choose one with --pipeline: a \(.*\), b \(/);
        } finally {
            fs.rmSync(empty, { recursive: true, force: true });
        }
        write('spark-pipeline.yml', 'name: [unclosed\n');
        expect((await runJson(root)).doc).toMatchObject({ ok: false, error: { class: 'PIPELINE_SQL_INVALID_PROJECT_FILE', file: expect.stringMatching(/spark-pipeline\.yml$/), line: 2 } });
    });
});

describe('the built CLI', () => {
    test('node out/cli.cjs run prints the JSON document and exits 0; a usage mistake exits 2', async () => {
        const cli = path.join(repoRoot, 'out', 'cli.cjs');
        const { stdout } = await promisify(execFile)(process.execPath, [cli, 'run', root, '--json']);
        expect(JSON.parse(stdout)).toMatchObject({ ok: true, datasets: { users: { rowCount: 3 } } });
        const usage = await promisify(execFile)(process.execPath, [cli, 'run', root, '--limit', 'x']).catch((e: { code: number; stderr: string }) => e);
        expect(usage).toMatchObject({ code: 2, stderr: "pipeline-sql: --limit takes a number of rows, not 'x'\n" });
    });
});

describe('the progress display', () => {
    test('stays silent for half a second, then shows the current step with the elapsed time, and is erased at the end', () => {
        vi.useFakeTimers();
        try {
            let written = '';
            const progress = new ProgressLine(text => { written += text; });
            progress.update({ phase: 'flow', index: 1, total: 2, flow: 'users_cdc', dataset: 'users', message: "Running flow 'users_cdc' into 'users'" });
            expect(written).toBe('');
            vi.advanceTimersByTime(750);
            // Redrawn every 250 ms once shown: at 0.5 s and at 0.75 s.
            expect(written).toBe("\r\x1b[K[1/2] Running flow 'users_cdc' into 'users' (0.5 s)\r\x1b[K[1/2] Running flow 'users_cdc' into 'users' (0.8 s)");
            progress.update({ phase: 'commit', message: 'Committing' });
            expect(written.endsWith('\r\x1b[KCommitting (0.8 s)')).toBe(true);
            progress.clear();
            expect(written.endsWith('\r\x1b[K')).toBe(true);
            const length = written.length;
            vi.advanceTimersByTime(1000);
            expect(written.length).toBe(length);
        } finally {
            vi.useRealTimers();
        }
    });
});
