// Runs a golden case of ../shared/golden against the engine, as that folder's README describes:
// every input table becomes a folder `samples/a/b/` of JSON Lines files (one new file per update,
// or replaced files for `set_inputs`), typed by a catalog declaration; each update is one
// triggered run; tables are compared on the expected columns, as multisets of rows.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runUpdate, readState, type UpdateResult } from '../../../engine/src/index.js';
import type { CatalogTableIR, PipelineIR } from '../../../engine/src/ir.js';
import { catalogTable } from './ir-builder.js';

type Row = Record<string, unknown>;

/** One update of a golden case. */
export interface GoldenUpdate {
    inputs?: Record<string, Row[]>;
    set_inputs?: Record<string, Row[]>;
    context?: { current_date?: string; current_timestamp?: string };
    full_refresh?: boolean;
    expected?: Record<string, Row[]>;
    expected_error?: { error_class: string };
}

/** A golden case file. */
export interface GoldenCase {
    name: string;
    sql: string;
    schemas: Record<string, string>;
    inputs: Record<string, Row[]>;
    expected: Record<string, Row[]>;
    updates?: GoldenUpdate[];
    expected_error?: { at_update: number; error_class: string; phase?: string };
    expected_metrics?: Record<string, Record<string, { passed_records: number; failed_records: number }>>;
    order_insensitive?: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The shared golden folder beside the repository (absent in a user's clone). */
export const goldenDir = path.resolve(here, '..', '..', '..', '..', 'shared', 'golden');

/** Loads a golden case, or undefined (with a printed note) when the shared folder is absent. */
export function loadGoldenCase(name: string): GoldenCase | undefined {
    const file = path.join(goldenDir, `${name}.json`);
    if (!fs.existsSync(file)) {
        console.log(`golden case ${name} skipped: ${file} not found (the shared folder exists only beside the repository)`);
        return undefined;
    }
    return JSON.parse(fs.readFileSync(file, 'utf8')) as GoldenCase;
}

/** Catalog declarations for a case's input tables: JSON folders typed by the case's schemas. */
export function goldenCatalog(c: GoldenCase): CatalogTableIR[] {
    return Object.entries(c.schemas).map(([name, schema]) => catalogTable(name, schema, 'json', name.split('.').join('/')));
}

/** The outcome of one update of a case. */
export interface GoldenStep {
    update: GoldenUpdate;
    result: UpdateResult;
    /** Dataset rows after the update (read from the state when the update failed). */
    tables: Record<string, Row[]>;
}

function writeRows(folder: string, file: string, rows: Row[]): void {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, file), rows.map(r => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
}

/** Runs every update of a case on the given pipeline IR in a fresh pipeline folder. */
export async function runGoldenCase(c: GoldenCase, pipeline: PipelineIR): Promise<GoldenStep[]> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `golden-${c.name}-`));
    const samples = path.join(root, 'samples');
    const state = path.join(root, '.pipeline-sql');
    const updates: GoldenUpdate[] = c.updates ?? [{ inputs: c.inputs, expected: c.expected }];
    for (const name of Object.keys(c.schemas)) {
        fs.mkdirSync(path.join(samples, ...name.split('.')), { recursive: true });
    }
    const steps: GoldenStep[] = [];
    try {
        for (let i = 0; i < updates.length; i++) {
            const update = updates[i];
            const file = `part-${String(i + 1).padStart(5, '0')}.jsonl`;
            for (const [name, rows] of Object.entries(update.inputs ?? {})) {
                writeRows(path.join(samples, ...name.split('.')), file, rows);
            }
            for (const [name, rows] of Object.entries(update.set_inputs ?? {})) {
                const folder = path.join(samples, ...name.split('.'));
                fs.rmSync(folder, { recursive: true, force: true });
                writeRows(folder, file, rows);
            }
            const now = update.context?.current_timestamp ?? (update.context?.current_date ? `${update.context.current_date} 00:00:00` : '2025-01-01 00:00:00');
            const result = await runUpdate(pipeline, { stateDir: state, samplesDir: samples, now, fullRefresh: update.full_refresh });
            let tables: Record<string, Row[]> = {};
            if (result.ok) {
                tables = Object.fromEntries(Object.entries(result.datasets).map(([k, v]) => [k, v.rows]));
            } else {
                const read = await readState(pipeline, { stateDir: state, samplesDir: samples, now });
                if (read.ok) {
                    tables = Object.fromEntries(Object.entries(read.datasets).map(([k, v]) => [k, v.rows]));
                }
            }
            steps.push({ update, result, tables });
        }
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
    return steps;
}

/** Rows projected onto the columns of the expected rows, sorted, for multiset comparison. */
export function comparable(rows: Row[], columns: string[]): string[] {
    return rows.map(r => JSON.stringify(columns.map(c => r[c] ?? null))).sort();
}

/** The expected and actual tables of a step, projected and sorted (for `expect(...).toEqual`). */
export function compareStep(step: GoldenStep, expected: Record<string, Row[]>): { actual: Record<string, string[]>; wanted: Record<string, string[]> } {
    const actual: Record<string, string[]> = {};
    const wanted: Record<string, string[]> = {};
    for (const [table, rows] of Object.entries(expected)) {
        const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
        wanted[table] = comparable(rows, columns);
        actual[table] = comparable(step.tables[table] ?? [], columns);
    }
    return { actual, wanted };
}
