// The round trip of issue 16 item 4: every sample pipeline, every fixture bundle and every golden
// case, with its sample data deleted (in a temporary copy) and scaffolded again by `pipeline-sql
// samples`, runs without error; the first file of each change feed is one update, the second an
// incremental one; then every SCD2 target holds a closed version, and every SCD1 target took an
// update and a delete.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from 'langium/node';
import { afterAll, describe, expect, test } from 'vitest';
import { buildFiles } from '../../../server/src/cli/check.js';
import { runCommand } from '../../../server/src/cli/run.js';
import { samplesCommand } from '../../../server/src/cli/samples.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';

const repo = path.resolve(__dirname, '../../..');
const temporary: string[] = [];
afterAll(() => {
    for (const dir of temporary) {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

/** A copy of a pipeline folder without its samples, tests and state. */
function strippedCopy(folder: string): string {
    const copy = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-round-trip-')));
    temporary.push(copy);
    fs.cpSync(folder, copy, { recursive: true });
    for (const name of ['samples', 'tests', '.pipeline-sql']) {
        fs.rmSync(path.join(copy, name), { recursive: true, force: true });
    }
    return copy;
}

interface CdcTarget { pipeline?: string; target: string; scd: 1 | 2 | 'bitemporal'; snapshot: boolean; deletes: boolean }

/** The AUTO CDC targets of every pipeline in a folder, from the project model. */
async function cdcTargets(root: string): Promise<{ pipelines: (string | undefined)[]; targets: CdcTarget[] }> {
    const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
    const set = await shared.pipeline.Project.loadFolder(root);
    const targets: CdcTarget[] = [];
    for (const pipeline of set.pipelines) {
        await buildFiles(shared, [...pipeline.sources, ...shared.pipeline.Project.catalogFilesOf(pipeline)]);
        const model = PipelineSql.pipeline.Model.model(PipelineSql.pipeline.Registry.infoOf(pipeline));
        for (const flow of model.flows) {
            const spec = flow.cdc ?? flow.snapshot;
            if (spec) {
                targets.push({ pipeline: pipeline.layout === 'bundle' ? pipeline.key : undefined, target: flow.targetName, scd: PipelineSql.types.TypeComputer.scdKind(spec), snapshot: flow.snapshot !== undefined,
                    deletes: flow.cdc?.clauses.some(c => c.$type === 'ApplyAsDeleteClause') === true,
                });
            }
        }
    }
    return { pipelines: set.pipelines.map(p => (p.layout === 'bundle' ? p.key : undefined)), targets };
}

interface RunDocument {
    ok: boolean;
    error?: { class: string; message: string; file?: string; line?: number };
    datasets?: Record<string, { columns: { name: string }[]; rows: unknown[][] }>;
    metrics?: Record<string, Record<string, unknown>>;
}

async function run(root: string, pipeline: string | undefined): Promise<RunDocument> {
    let out = '';
    let err = '';
    const args = [root, '--json', ...(pipeline ? ['--pipeline', pipeline] : [])];
    await runCommand(args, { out: t => { out += t; }, err: t => { err += t; }, progress: false });
    try {
        return JSON.parse(out) as RunDocument;
    } catch {
        return { ok: false, error: { class: 'NO_JSON', message: err || out } };
    }
}

/** Moves the second file of every change feed away (and back): the first run sees the first half. */
function secondFiles(root: string): string[] {
    const found: string[] = [];
    const walk = (dir: string): void => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                walk(full);
            } else if (/^part-00002\./.test(entry.name)) {
                found.push(full);
            }
        }
    };
    walk(path.join(root, 'samples'));
    return found;
}

const caseOf = (value: unknown): string => JSON.stringify(value);

/** Scaffolds, runs twice (the second file added before the second run) and checks the CDC targets. */
async function roundTrip(root: string): Promise<void> {
    let out = '';
    expect(await samplesCommand([root], { out: t => { out += t; }, err: t => { out += t; } })).toBe(0);
    expect(out).toContain('created');
    const { pipelines, targets } = await cdcTargets(root);
    const later = secondFiles(root);
    for (const file of later) {
        fs.renameSync(file, `${file}.later`);
    }
    const first = await Promise.all(pipelines.map(p => run(root, p)));
    for (const file of later) {
        fs.renameSync(`${file}.later`, file);
    }
    const second: RunDocument[] = [];
    for (const pipeline of pipelines) {
        second.push(await run(root, pipeline));
    }
    for (const document of [...first, ...second]) {
        expect(document.error ? caseOf(document.error) : '').toBe('');
        expect(document.ok).toBe(true);
    }
    for (const target of targets) {
        const document = second[pipelines.indexOf(target.pipeline)];
        const dataset = document.datasets?.[target.target] ?? Object.entries(document.datasets ?? {}).find(([name]) => name.endsWith(`.${target.target}`))?.[1];
        expect(dataset, `${target.target} in ${Object.keys(document.datasets ?? {}).join(', ')}`).toBeDefined();
        if (target.scd === 1 && target.snapshot) {
            // The second run's snapshot changed the table (a changed and a dropped key).
            const before = first[pipelines.indexOf(target.pipeline)].datasets?.[target.target];
            expect(caseOf(dataset!.rows)).not.toBe(caseOf(before?.rows));
        } else if (target.scd === 1) {
            const metrics = document.metrics?.[target.target] ?? {};
            expect(caseOf(metrics)).toMatch(/"num_upserted_rows":[1-9]/);
            if (target.deletes) {
                expect(caseOf(metrics)).toMatch(/"num_deleted_rows":[1-9]/);
            }
        } else {
            const end = dataset!.columns.findIndex(c => c.name === '__END_AT');
            expect(end).toBeGreaterThanOrEqual(0);
            expect(dataset!.rows.some(r => r[end] !== null), `a closed version of ${target.target}`).toBe(true);
        }
    }
}

const folders = (parent: string): string[] => (fs.existsSync(parent) ? fs.readdirSync(parent).filter(n => fs.statSync(path.join(parent, n)).isDirectory()).sort() : []);

describe('sample pipelines, samples deleted and scaffolded again', () => {
    for (const name of folders(path.join(repo, 'samples'))) {
        test(name, async () => roundTrip(strippedCopy(path.join(repo, 'samples', name))), 120_000);
    }
});

describe('fixture bundles, samples deleted and scaffolded again', () => {
    for (const name of folders(path.join(repo, 'test/fixtures/bundles'))) {
        test(name, async () => roundTrip(strippedCopy(path.join(repo, 'test/fixtures/bundles', name))), 120_000);
    }
});

const golden = '/work/shared/golden';

describe('golden cases, their SQL with scaffolded samples', () => {
    const cases = fs.existsSync(golden) ? fs.readdirSync(golden).filter(n => n.endsWith('.json')).sort() : [];
    if (cases.length === 0) {
        test.skip(`no golden cases at ${golden}`, () => undefined);
    }
    for (const name of cases) {
        const data = JSON.parse(fs.readFileSync(path.join(golden, name), 'utf8')) as { sql: string; expected_error?: unknown; updates?: { expected_error?: unknown }[] };
        const failing = data.expected_error !== undefined || (data.updates ?? []).some(u => u.expected_error !== undefined);
        test.skipIf(failing)(name, async () => {
            const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-golden-')));
            temporary.push(root);
            fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), 'name: golden\nlibraries:\n  - glob:\n      include: transformations/**\n');
            fs.mkdirSync(path.join(root, 'transformations'));
            fs.writeFileSync(path.join(root, 'transformations', 'case.sql'), data.sql);
            await roundTrip(root);
        }, 120_000);
    }
});
