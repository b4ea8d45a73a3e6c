import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers/parse.js';

/**
 * The language server does no synchronous disk reads of its own: the project model reads through
 * Langium's file-system provider, the sample-data layer through its SampleDisk (which the server
 * fills asynchronously; one-off work such as writing sample data reads through its asynchronous reads).
 * Only the CLI and the SampleDisk's own Node implementation read synchronously.
 */
const syncRead = /\b(readFileSync|statSync|lstatSync|existsSync|readdirSync|realpathSync|openSync|readSync|fstatSync|accessSync|opendirSync|readlinkSync)\b/;
const allowed = (file: string): boolean => file.startsWith('server/src/cli/') || file === 'engine/src/spark/sample-disk.ts';

function sources(dir: string, accept: (file: string) => boolean): string[] {
    return fs.readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
        .map(f => `${dir}/${f.split(path.sep).join('/')}`)
        .filter(f => f.endsWith('.ts') && !f.includes('/generated/') && accept(f));
}

describe('no synchronous disk reads in the language server', () => {
    test('no source file of the server or of the sample-data layer names a synchronous read', () => {
        const files = [
            ...sources('server/src', () => true),
            ...sources('engine/src/spark', f => /\/sample-[^/]+\.ts$/.test(f)),
            ...sources('engine/src/catalog', () => true),
        ].filter(f => !allowed(f));
        expect(files.length).toBeGreaterThan(50);
        const offending = files.flatMap(file => fs.readFileSync(path.join(repoRoot, file), 'utf8').split('\n')
            .flatMap((line, i) => (syncRead.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
        expect(offending).toEqual([]);
    });

    test('the lint configuration refuses fs.*Sync there, and allows it in the CLI', async () => {
        const eslint = new ESLint({ cwd: repoRoot });
        const text = 'import * as fs from \'node:fs\';\nexport const text = fs.readFileSync(\'x\', \'utf8\');\n';
        const ruleIds = async (file: string): Promise<Array<string | null>> =>
            (await eslint.lintText(text, { filePath: path.join(repoRoot, file) }))[0].messages.map(m => m.ruleId);
        expect(await ruleIds('server/src/language-server.ts')).toContain('no-restricted-properties');
        expect(await ruleIds('engine/src/spark/sample-files.ts')).toContain('no-restricted-properties');
        // The sample scaffolding and the sample-data requests run in the language server too.
        expect(await ruleIds('server/src/samples/sample-scaffold.ts')).toContain('no-restricted-properties');
        expect(await ruleIds('server/src/samples/source-requirements.ts')).toContain('no-restricted-properties');
        expect(await ruleIds('server/src/handlers/sample-data-handler.ts')).toContain('no-restricted-properties');
        expect(await ruleIds('server/src/cli/check.ts')).not.toContain('no-restricted-properties');
        expect(await ruleIds('engine/src/spark/sample-disk.ts')).not.toContain('no-restricted-properties');
    }, 120_000);
});
