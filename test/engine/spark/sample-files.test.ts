// Containment of sample reads (engine/src/spark/sample-files.ts): real paths under the read roots only.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { checkContained, readFilesLocation, sampleDirs } from '../../../engine/src/spark/sample-files.js';

const made: string[] = [];
afterEach(() => made.splice(0).forEach(d => fs.rmSync(d, { recursive: true, force: true })));

function tmp(): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'contain-')));
    made.push(dir);
    return dir;
}

describe('read roots', () => {
    test('a sibling folder whose name starts like the root is outside it', () => {
        const base = tmp();
        fs.mkdirSync(path.join(base, 'shop'));
        fs.mkdirSync(path.join(base, 'shop-secrets'));
        fs.writeFileSync(path.join(base, 'shop-secrets', 'x.csv'), 'a\n');
        const dirs = sampleDirs(path.join(base, 'shop'));
        const result = checkContained(dirs, path.join(base, 'shop', '..', 'shop-secrets', 'x.csv'));
        expect(result.ok ? 'read' : result.problem.kind).toBe('outside');
    });

    test('a chain of symlinks is followed to its end: inside stays readable, a hop outside is refused', () => {
        const root = tmp();
        const away = tmp();
        fs.writeFileSync(path.join(root, 'real.csv'), 'a\n');
        fs.writeFileSync(path.join(away, 'secret.csv'), 'a\n');
        fs.symlinkSync(path.join(root, 'real.csv'), path.join(root, 'one.csv'));
        fs.symlinkSync(path.join(root, 'one.csv'), path.join(root, 'two.csv'));
        fs.symlinkSync(path.join(away, 'secret.csv'), path.join(root, 'hop.csv'));
        fs.symlinkSync(path.join(root, 'hop.csv'), path.join(root, 'via.csv'));
        const dirs = sampleDirs(root);
        expect(checkContained(dirs, path.join(root, 'two.csv'))).toEqual({ ok: true, value: path.join(root, 'real.csv') });
        const via = checkContained(dirs, path.join(root, 'via.csv'));
        expect(via.ok ? 'read' : via.problem.message).toContain(`(it resolves to '${path.join(away, 'secret.csv')}')`);
    });

    test('a path that does not exist is missing wherever it points, and names the path as written', () => {
        const dirs = sampleDirs(tmp());
        const result = checkContained(dirs, '/no/such/place.csv');
        expect(result).toEqual({ ok: false, problem: { kind: 'missing', message: "'/no/such/place.csv' does not exist.", file: '/no/such/place.csv' } });
    });

    test('read_files paths: relative to the root, file: URLs, /Volumes under samples, cloud storage has no local copy', () => {
        const root = tmp();
        const dirs = sampleDirs(root);
        expect(readFilesLocation(dirs, 'data/x.csv')).toEqual({ ok: true, value: path.join(root, 'data', 'x.csv') });
        expect(readFilesLocation(dirs, 'file:///tmp/a%20b.csv')).toEqual({ ok: true, value: '/tmp/a b.csv' });
        expect(readFilesLocation(dirs, '/Volumes/main/raw/events')).toEqual({ ok: true, value: path.join(root, 'samples', 'Volumes', 'main', 'raw', 'events') });
        for (const cloud of ['s3://bucket/x', 'abfss://c@a.dfs.core.windows.net/x', 'dbfs:/mnt/x']) {
            const result = readFilesLocation(dirs, cloud);
            expect(result.ok ? 'local' : result.problem.kind).toBe('cloud');
        }
    });
});
