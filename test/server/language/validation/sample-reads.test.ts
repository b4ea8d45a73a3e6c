// The editor's side of sample reads, on real files: a read outside the pipeline is a diagnostic on
// the path (or the table reference) and nothing is read (a FIFO outside would block a read); files
// that cannot be read become a warning with the file and line instead of a thrown error (ENOTDIR,
// FIFOs, deep JSON, a huge Parquet footer length); gzip CSV and TSV are typed like any CSV.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { LangiumDocument } from 'langium';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterEach, describe, expect, test } from 'vitest';
import { createPipelineSqlServices } from '../../../../server/src/language/pipeline-sql-module.js';
import { printRelation } from '../../../../server/src/language/types/relation-type.js';
import { printDiagnostic } from '../../../helpers/pipeline.js';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach(dir => fs.rmSync(dir, { recursive: true, force: true })));

function folder(prefix: string): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    folders.push(dir);
    return dir;
}

/** Writes a pipeline on disk, validates it with the language server's services, and prints what a user sees. */
async function check(filesOf: Record<string, string | Buffer> | ((root: string) => Record<string, string | Buffer>), setup?: (root: string) => void, allowed: string[] = []) {
    const root = folder('sample-reads-');
    const files = typeof filesOf === 'function' ? filesOf(root) : filesOf;
    for (const [file, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), content);
    }
    setup?.(root);
    const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
    // The folders a user allows (`--allow-read`, `pipelineSql.run.allowedPaths`) are an option of the project model.
    shared.pipeline.Project.setOptions({ allowedReadPaths: allowed });
    await shared.pipeline.Project.loadFolder(root);
    const documents: LangiumDocument[] = [];
    for (const file of Object.keys(files).filter(f => f.endsWith('.sql'))) {
        documents.push(await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(path.join(root, file))));
    }
    await shared.workspace.DocumentBuilder.build(documents, { validation: true });
    const diagnostics = (file: string): string[] => (documents.find(d => d.uri.fsPath === path.join(root, file))?.diagnostics ?? [])
        .filter(d => d.severity !== 4).map(printDiagnostic);
    const schema = (name: string): string => {
        const model = PipelineSql.pipeline.Model.modelFor(URI.file(path.join(root, 'p.sql')));
        return printRelation(PipelineSql.types.TypeComputer.datasetSchema(model.datasetsNamed(name)[0].node));
    };
    return { root, diagnostics, schema };
}

/** A FIFO outside every pipeline: reading it would block the test (and the server) forever. */
function outsideFifo(): string {
    const fifo = path.join(folder('outside-'), 'leak.csv');
    execFileSync('mkfifo', [fifo]);
    return fifo;
}

describe('reads outside the pipeline are diagnostics, and nothing is read', () => {
    test('read_files(\'/abs\') outside the root: a warning on the path literal naming the way to allow it', async () => {
        const fifo = outsideFifo();
        const p = await check({ 'p.sql': `CREATE MATERIALIZED VIEW m AS SELECT * FROM read_files('${fifo}', format => 'csv');\n` });
        const start = 'CREATE MATERIALIZED VIEW m AS SELECT * FROM read_files('.length + 1;
        expect(p.diagnostics('p.sql')).toEqual([
            `[1:${start}..1:${start + fifo.length + 2}] warning PIPELINE_SQL_READ_OUTSIDE_PIPELINE Not read: '${fifo}' is outside the pipeline folder '${p.root}': `
                + 'reads stay inside the pipeline folder; to allow this folder, pass --allow-read DIR to pipeline-sql, or add it to the '
                + 'pipelineSql.run.allowedPaths setting (honoured in a trusted workspace only).',
        ]);
        expect(p.schema('m')).toBe('…');
    });

    test('read_files(\'file:///...\') and read_files(\'../x\') are the same read', async () => {
        const fifo = outsideFifo();
        const p = await check(root => ({
            'p.sql': `CREATE MATERIALIZED VIEW a AS SELECT * FROM read_files('file://${fifo}', format => 'csv');\n`
                + `CREATE MATERIALIZED VIEW b AS SELECT * FROM read_files('${path.relative(root, fifo)}', format => 'csv');\n`,
        }));
        const diagnostics = p.diagnostics('p.sql');
        expect(diagnostics).toHaveLength(2);
        expect(diagnostics[0]).toContain(`[1:56..1:${56 + fifo.length + 9}] warning PIPELINE_SQL_READ_OUTSIDE_PIPELINE Not read: '${fifo}' is outside the pipeline folder`);
        expect(diagnostics[1]).toContain(`warning PIPELINE_SQL_READ_OUTSIDE_PIPELINE Not read: '${fifo}' is outside the pipeline folder`);
    });

    test('LOCATION \'../../x.csv\' in samples/*.sql: an error on the LOCATION path', async () => {
        const fifo = outsideFifo();
        const p = await check(root => ({
            'samples/catalog.sql': `CREATE TABLE raw.leak USING CSV LOCATION '${path.relative(path.join(root, 'samples'), fifo)}';\n`,
            'p.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.leak;\n',
        }));
        const diagnostics = p.diagnostics('samples/catalog.sql');
        expect(diagnostics).toHaveLength(1);
        expect(diagnostics[0]).toMatch(/^\[1:42\.\.1:\d+\] error PIPELINE_SQL_READ_OUTSIDE_PIPELINE Not read: '.*leak\.csv' is outside the pipeline folder '.*': reads stay inside/);
    });

    test('a symlinked sample file (to /etc/passwd): an error on the table reference', async () => {
        const p = await check({ 'p.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM sys.users;\n' }, root => {
            fs.mkdirSync(path.join(root, 'samples', 'sys'), { recursive: true });
            fs.symlinkSync('/etc/passwd', path.join(root, 'samples', 'sys', 'users.csv'));
        });
        expect(p.diagnostics('p.sql')).toEqual([
            `[1:45..1:54] error PIPELINE_SQL_READ_OUTSIDE_PIPELINE Not read: 'samples/sys/users.csv' (it resolves to '/etc/passwd') is outside the pipeline folder '${p.root}': `
                + 'reads stay inside the pipeline folder; to allow this folder, pass --allow-read DIR to pipeline-sql, or add it to the '
                + 'pipelineSql.run.allowedPaths setting (honoured in a trusted workspace only).',
        ]);
    });

    test('a folder in the allowed paths is read', async () => {
        const dir = folder('allowed-');
        fs.writeFileSync(path.join(dir, 'users.csv'), 'id,name\n1,a\n');
        const p = await check({ 'p.sql': `CREATE MATERIALIZED VIEW m AS SELECT * FROM read_files('${dir}/users.csv');\n` }, undefined, [dir]);
        expect(p.diagnostics('p.sql')).toEqual([]);
        expect(p.schema('m')).toBe('id bigint, name string, _rescued_data string');
    });
});

describe('sample files that cannot be read never throw or block validation', () => {
    test('read_files of users.csv.gz, a .tsv and a .txt: gzip and TSV are typed, .txt asks for a format (no ENOTDIR)', async () => {
        const p = await check({
            'data/users.csv.gz': zlib.gzipSync('id,name\n1,Ann\n'),
            'data/visits.tsv': 'id\tpage\n1\t/x\n',
            'data/notes.txt': 'id\n1\n',
            'p.sql': "CREATE MATERIALIZED VIEW a AS SELECT * FROM read_files('data/users.csv.gz');\n"
                + "CREATE MATERIALIZED VIEW b AS SELECT * FROM read_files('data/visits.tsv');\n"
                + "CREATE MATERIALIZED VIEW c AS SELECT * FROM read_files('data/notes.txt');\n"
                + "CREATE MATERIALIZED VIEW d AS SELECT * FROM read_files('data/notes.txt', format => 'csv');\n",
        });
        expect(p.schema('a')).toBe('id bigint, name string, _rescued_data string');
        expect(p.schema('b')).toBe('id bigint, page string, _rescued_data string');
        expect(p.schema('d')).toBe('id bigint, _rescued_data string');
        expect(p.diagnostics('p.sql')).toEqual([
            "[3:56..3:72] warning PIPELINE_SQL_SAMPLE_DATA_UNREADABLE The sample data of 'read_files(...)' cannot be read (Cannot tell the format of 'data/notes.txt' "
                + "from its name (.csv.gz, .tsv.gz, .json.gz, .jsonl.gz, .ndjson.gz, .csv, .tsv, .json, .jsonl, .ndjson, .parquet); say it with format => 'csv' | 'json' | 'parquet' (or USING in samples/*.sql)), so its columns are unknown.",
        ]);
    });

    test('a FIFO as a sample file is a warning, not a hang', async () => {
        const p = await check({ 'p.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.events;\n' }, root => {
            fs.mkdirSync(path.join(root, 'samples', 'raw'), { recursive: true });
            execFileSync('mkfifo', [path.join(root, 'samples', 'raw', 'events.csv')]);
        });
        expect(p.diagnostics('p.sql')).toEqual([
            "[1:45..1:55] warning PIPELINE_SQL_SAMPLE_DATA_UNREADABLE The sample data of 'raw.events' cannot be read (samples/raw/events.csv: "
                + 'a named pipe (FIFO), not a regular file: only regular files are read as sample data), so its columns are unknown.',
        ]);
    });

    test('deeply nested JSON is a warning naming the file and line, not a stack overflow', async () => {
        const p = await check({
            'samples/raw/docs.json': '{"a": 1}\n{"a": ' + '['.repeat(200_000) + ']'.repeat(200_000) + '}\n',
            'p.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM raw.docs;\n',
        });
        expect(p.diagnostics('p.sql')).toEqual([
            "[1:45..1:53] warning PIPELINE_SQL_SAMPLE_DATA_UNREADABLE The sample data of 'raw.docs' cannot be read (samples/raw/docs.json:2: "
                + 'The JSON is nested more than 64 levels deep; the local sample catalog reads at most 64 levels (column 70)), so its columns are unknown.',
        ]);
    });

    test('a Parquet footer length of 1.7 GB in a sparse file is a warning, and nothing that size is allocated', async () => {
        const p = await check({ 'p.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM lake.facts;\n' }, root => {
            fs.mkdirSync(path.join(root, 'samples', 'lake'), { recursive: true });
            const fd = fs.openSync(path.join(root, 'samples', 'lake', 'facts.parquet'), 'w');
            const tail = Buffer.alloc(8);
            tail.writeUInt32LE(1_700_000_000, 0);
            tail.write('PAR1', 4, 'latin1');
            fs.writeSync(fd, Buffer.from('PAR1'), 0, 4, 0);
            fs.writeSync(fd, tail, 0, 8, 1_800_000_000);
            fs.closeSync(fd);
        });
        expect(p.diagnostics('p.sql')).toEqual([
            "[1:45..1:55] warning PIPELINE_SQL_SAMPLE_DATA_UNREADABLE The sample data of 'lake.facts' cannot be read (samples/lake/facts.parquet: "
                + 'declares a Parquet footer of 1700000000 bytes; footers over 16 MB are not read (the file is likely corrupt)), so its columns are unknown.',
        ]);
    });

    test('a stray quote in a JSON Lines sample: the file and line in the warning', async () => {
        const p = await check({
            'samples/feed/part-1.jsonl': '{"id": 1, "name": "a"}\n{"id": 2, "name": "b""}\n',
            'p.sql': 'CREATE MATERIALIZED VIEW m AS SELECT * FROM feed;\n',
        });
        expect(p.diagnostics('p.sql')).toEqual([
            "[1:45..1:49] warning PIPELINE_SQL_SAMPLE_DATA_UNREADABLE The sample data of 'feed' cannot be read (samples/feed/part-1.jsonl:2: "
                + "Expected ',' or '}', found a quote (\") (column 22)), so its columns are unknown.",
        ]);
    });
});
