// A throwaway pipeline folder (ROOT/samples, ROOT/.pipeline-sql) for engine tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'vitest';
import { readState, runUpdate, type RunOptions, type UpdateFailure, type UpdateResult, type UpdateSuccess } from '../../../engine/src/index.js';
import type { PipelineIR } from '../../../engine/src/ir.js';

type Row = Record<string, unknown>;

/** A pipeline folder with sample data and state. */
export class Workspace {
    readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-test-'));
    readonly samples = path.join(this.root, 'samples');
    readonly state = path.join(this.root, '.pipeline-sql');
    private fileCounter = 0;

    constructor() {
        fs.mkdirSync(this.samples, { recursive: true });
    }

    /** Appends rows to a sample table folder as a new JSON Lines file (returns its path). */
    append(table: string, rows: Row[]): string {
        const folder = path.join(this.samples, ...table.split('.'));
        fs.mkdirSync(folder, { recursive: true });
        const file = path.join(folder, `part-${String(++this.fileCounter).padStart(5, '0')}.jsonl`);
        fs.writeFileSync(file, rows.map(r => JSON.stringify(r)).join('\n') + '\n');
        return file;
    }

    /** Writes a file under the samples folder (or the root when `relative` starts with `../`). */
    write(relative: string, content: string | Buffer): string {
        const file = path.resolve(this.samples, relative);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
        return file;
    }

    /** Runs one update. */
    run(pipeline: PipelineIR, options: Partial<RunOptions> = {}): Promise<UpdateResult> {
        return runUpdate(pipeline, { stateDir: this.state, samplesDir: this.samples, now: '2025-01-01 00:00:00', ...options });
    }

    /** Runs one update that must succeed. */
    async ok(pipeline: PipelineIR, options: Partial<RunOptions> = {}): Promise<UpdateSuccess> {
        const result = await this.run(pipeline, options);
        expect(result.ok ? 'ok' : result.error).toBe('ok');
        return result as UpdateSuccess;
    }

    /** Runs one update that must fail; returns the error. */
    async fails(pipeline: PipelineIR, options: Partial<RunOptions> = {}): Promise<UpdateFailure['error']> {
        const result = await this.run(pipeline, options);
        expect(result.ok, 'the update should fail').toBe(false);
        return (result as UpdateFailure).error;
    }

    /** The rows of every dataset as the state holds them now. */
    async tables(pipeline: PipelineIR): Promise<Record<string, Row[]>> {
        const result = await readState(pipeline, { stateDir: this.state, samplesDir: this.samples });
        if (!result.ok) {
            throw new Error(JSON.stringify(result.error));
        }
        return Object.fromEntries(Object.entries(result.datasets).map(([k, v]) => [k, v.rows]));
    }

    dispose(): void {
        fs.rmSync(this.root, { recursive: true, force: true });
    }
}

/** Rows as sorted JSON strings of the given columns (multiset comparison). */
export function rowsOf(rows: Row[] | undefined, ...columns: string[]): string[] {
    return (rows ?? []).map(r => JSON.stringify(columns.length ? columns.map(c => r[c] ?? null) : r)).sort();
}

/** Expected rows in the same form as `rowsOf`. */
export function expected(...rows: unknown[][]): string[] {
    return rows.map(r => JSON.stringify(r)).sort();
}
