// What the editor shows is what the run produces, for sample files (issue 11 item 2, the sample
// part): for the data of every sample pipeline, every test fixture and every golden case's inputs
// (as JSON Lines, and as CSV where the rows are flat), the schema the language server infers for
// `SELECT * FROM <table>` (names and types, as hover and validation show them) equals the schema of
// the engine's result — once with the inferred columns the lowering hands over in the IR, once with
// the engine inferring them itself — and the engine reads every file with those types.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LangiumDocument } from 'langium';
import { URI } from 'langium';
import { NodeFileSystem } from 'langium/node';
import { afterAll, describe, expect, test } from 'vitest';
import { runUpdate, type PipelineIR } from '../../../../engine/src/index.js';
import { forEachTableRelation } from '../../../../engine/src/ir-walk.js';
import { createPipelineSqlServices } from '../../../../server/src/language/pipeline-sql-module.js';
import { printRelation } from '../../../../server/src/language/types/relation-type.js';
import { lowerPipeline } from '../../../../server/src/lowering/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..', '..');
const goldenDir = path.resolve(repo, '..', 'shared', 'golden');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sample-agreement-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

type Row = Record<string, unknown>;

/** A pipeline folder to probe: data files by path under `samples/`, and the tables to read. */
interface Probe {
    name: string;
    files: Record<string, string | Buffer>;
    tables: string[];
}

/** The data files under a folder's `samples/` (no `.sql` declarations: their columns are inferred). */
function dataFilesOf(samplesDir: string): Record<string, Buffer> {
    const out: Record<string, Buffer> = {};
    const walk = (dir: string): void => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                walk(full);
            } else if (!entry.name.endsWith('.sql')) {
                out[path.relative(samplesDir, full)] = fs.readFileSync(full);
            }
        }
    };
    walk(samplesDir);
    return out;
}

/** The tables of a samples folder: each folder holding data files directly, as `a.b`. */
function tablesOf(files: Record<string, unknown>): string[] {
    return [...new Set(Object.keys(files).map(f => path.dirname(f).split(path.sep).join('.')))].filter(t => t !== '.').sort();
}

function probesOfFolders(): Probe[] {
    const roots = [
        ...fs.readdirSync(path.join(repo, 'samples')).map(d => path.join(repo, 'samples', d)),
        ...fs.readdirSync(path.join(repo, 'test', 'fixtures', 'preview')).map(d => path.join(repo, 'test', 'fixtures', 'preview', d)),
    ].filter(root => fs.existsSync(path.join(root, 'samples')));
    return roots.map(root => {
        const files = dataFilesOf(path.join(root, 'samples'));
        return { name: path.relative(repo, root), files, tables: tablesOf(files) };
    });
}

const csvValue = (value: unknown): string => {
    if (value === null || value === undefined) {
        return '';
    }
    const text = String(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The inputs of every golden case in two pipelines (JSON Lines, and CSV where flat), each case under a folder of its own. */
function probesOfGolden(): Probe[] {
    if (!fs.existsSync(goldenDir)) {
        console.log(`golden inputs skipped: ${goldenDir} not found (the shared folder exists only beside the repository)`);
        return [];
    }
    const json: Record<string, string> = {};
    const csv: Record<string, string> = {};
    for (const file of fs.readdirSync(goldenDir).filter(f => f.endsWith('.json')).sort()) {
        const c = JSON.parse(fs.readFileSync(path.join(goldenDir, file), 'utf8')) as {
            inputs?: Record<string, Row[]>; updates?: Array<{ inputs?: Record<string, Row[]>; set_inputs?: Record<string, Row[]> }>;
        };
        const prefix = `g${file.slice(0, file.indexOf('_'))}`;
        const updates = c.updates ?? [{ inputs: c.inputs }];
        updates.forEach((update, i) => {
            for (const [table, rows] of [...Object.entries(update.inputs ?? {}), ...Object.entries(update.set_inputs ?? {})]) {
                if (rows.length === 0) {
                    continue;
                }
                const folder = [prefix, ...table.split('.')].join('/');
                json[`${folder}/part-${i + 1}-${Object.keys(json).length}.jsonl`] = rows.map(r => JSON.stringify(r)).join('\n') + '\n';
                const columns = Object.keys(rows[0]);
                if (rows.every(r => Object.values(r).every(v => v === null || typeof v !== 'object'))) {
                    csv[`${folder}/part-${i + 1}-${Object.keys(csv).length}.csv`] = [columns.join(','), ...rows.map(r => columns.map(k => csvValue(r[k])).join(','))].join('\n') + '\n';
                }
            }
        });
    }
    return [
        { name: 'the golden cases\' inputs as JSON Lines', files: json, tables: tablesOf(json) },
        { name: 'the golden cases\' flat inputs as CSV', files: csv, tables: tablesOf(csv) },
    ];
}

/** Values that the two sides could read differently, written by hand. */
const tricky: Probe = {
    name: 'hand-written edge cases',
    files: {
        'edge/codes.csv': 'code,zip,big,at,flag,day\n007,01234,12345678901234567890,2025-01-04T10:00:00+02:00,true,2024-02-29\n010,,1,2025-01-04 10:00:00,FALSE,\n',
        'edge/nested.jsonl': '{"id": 1, "tags": [], "user": {"name": "a", "seen": "2025-01-04T10:00:00Z"}, "score": 1.0, "empty": {}}\n{"id": 2, "tags": ["x"], "user": null, "score": 2}\n',
        'edge/tabs.tsv': 'id\tname\n1\ta b\n',
        'edge/mixed/part-1.csv': 'id,name\n1,a\n',
        'edge/mixed/part-2.csv': 'name,id,extra\nb,2,3.5\n',
    },
    tables: ['edge.codes', 'edge.nested', 'edge.tabs', 'edge.mixed'],
};

const normalise = (schema: string): string => schema.toLowerCase().replace(/\s+/g, '');

/** The editor's schemas of `SELECT * FROM t` for each table, and the lowered IR. */
async function editorSide(root: string, tables: string[]): Promise<{ schemas: Record<string, string>; ir: PipelineIR }> {
    const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
    PipelineSql.pipeline.Registry.addRoot(root);
    const file = path.join(root, 'probe.sql');
    const documents: LangiumDocument[] = [await shared.workspace.LangiumDocuments.getOrCreateDocument(URI.file(file))];
    await shared.workspace.DocumentBuilder.build(documents, { validation: true });
    const errors = (documents[0].diagnostics ?? []).filter(d => d.severity === 1 || d.code === 'PIPELINE_SQL_SAMPLE_DATA_UNREADABLE');
    expect(errors.map(d => d.message)).toEqual([]);
    const model = PipelineSql.pipeline.Model.modelFor(URI.file(file));
    const schemas: Record<string, string> = {};
    tables.forEach((_, i) => {
        const dataset = model.datasetsNamed(`probe_${i}`)[0];
        schemas[`probe_${i}`] = printRelation(PipelineSql.types.TypeComputer.datasetSchema(dataset.node));
    });
    const lowered = lowerPipeline(PipelineSql, { documents });
    if (!lowered.ok) {
        throw new Error(JSON.stringify(lowered.problems));
    }
    return { schemas, ir: lowered.pipeline };
}

/** The engine's result schemas after one update. */
async function engineSide(root: string, ir: PipelineIR, state: string): Promise<Record<string, string>> {
    const result = await runUpdate(ir, { stateDir: path.join(root, state), samplesDir: path.join(root, 'samples'), rootDir: root, limit: 5 });
    if (!result.ok) {
        throw new Error(`${result.error.class}: ${result.error.message} (${result.error.file}:${result.error.line})`);
    }
    return Object.fromEntries(Object.entries(result.datasets).map(([name, d]) => [name, d.columns.map(c => `${c.name} ${c.type}`).join(', ')]));
}

const probes = [...probesOfFolders(), tricky, ...probesOfGolden()];

describe('editor and engine agree on the schema of every sample', () => {
    test('there is something to compare (samples, fixtures, edge cases)', () => {
        expect(probes.length).toBeGreaterThanOrEqual(6);
        expect(probes.every(p => p.tables.length > 0)).toBe(true);
    });

    test.each(probes.map(p => [p.name, p] as const))('%s', async (_name, probe) => {
        const root = fs.mkdtempSync(path.join(work, 'p-'));
        for (const [file, content] of Object.entries(probe.files)) {
            fs.mkdirSync(path.dirname(path.join(root, 'samples', file)), { recursive: true });
            fs.writeFileSync(path.join(root, 'samples', file), content);
        }
        fs.writeFileSync(path.join(root, 'probe.sql'), probe.tables.map((t, i) => `CREATE MATERIALIZED VIEW probe_${i} AS SELECT * FROM ${t};`).join('\n') + '\n');
        const editor = await editorSide(root, probe.tables);
        expect(Object.values(editor.schemas).some(s => s.includes('…'))).toBe(false);

        // With the columns the lowering put into the IR.
        const handedOver: string[] = [];
        for (const dataset of editor.ir.datasets) {
            editor.ir.flows.filter(f => f.target.join('.') === dataset.name.join('.')).forEach(flow => 'query' in flow && forEachTableRelation(flow.query, r => {
                if (r.source.kind === 'catalog' && r.source.inferredColumns) {
                    handedOver.push(dataset.name.join('.'));
                }
            }));
        }
        expect(handedOver.length).toBe(probe.tables.length);
        const withIr = await engineSide(root, editor.ir, 'state-ir');
        // And with the engine inferring them itself.
        const bare = JSON.parse(JSON.stringify(editor.ir), (key, value: unknown) => (key === 'inferredColumns' ? undefined : value)) as PipelineIR;
        const inferred = await engineSide(root, bare, 'state-bare');

        probe.tables.forEach((table, i) => {
            const name = `probe_${i}`;
            expect(normalise(withIr[name]), `${table} with the IR's columns`).toBe(normalise(editor.schemas[name]));
            expect(normalise(inferred[name]), `${table} inferred by the engine`).toBe(normalise(editor.schemas[name]));
        });
        console.log(`${probe.name}: ${probe.tables.length} tables agree`);
    });
});
