// The project model's seam for readers of non-SQL library files: each library file with the
// reader's extension is handed to it once per load (also when two pipelines list it), its result is
// kept per pipeline and file as the reader returned it, a reader that throws loses only that file,
// and one changed file is read again alone.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from 'langium/node';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { langiumFileHost } from '../../../../server/src/project/file-host.js';
import { ProjectModel } from '../../../../server/src/project/project-model.js';
import type { LibraryReader } from '../../../../server/src/project/project-types.js';

let tmp: string;

function write(relative: string, text: string): string {
    const file = path.join(tmp, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
}

beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-readers-')));
    write('databricks.yml', [
        'bundle:', '  name: two', 'targets:', '  dev:', '    default: true',
        'resources:', '  pipelines:',
        '    first:', '      name: first', '      libraries:', '        - file:', '            path: src/shared.py', '        - file:', '            path: src/first.py',
        '        - file:', '            path: src/first.sql',
        '    second:', '      name: second', '      libraries:', '        - file:', '            path: src/shared.py',
        '',
    ].join('\n'));
    write('src/shared.py', 'shared v1');
    write('src/first.py', 'first v1');
    write('src/first.sql', 'CREATE MATERIALIZED VIEW m AS SELECT 1 AS x;');
});

afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A reader that records the files it was given and returns the text it read, upper-cased. */
function recordingReader(fail?: string): LibraryReader<string> & { calls: string[] } {
    const calls: string[] = [];
    return {
        calls,
        extensions: ['.py'],
        read(file, text) {
            calls.push(path.relative(tmp, file));
            if (fail && text.includes(fail)) {
                throw new Error(`cannot read ${file}`);
            }
            return text.toUpperCase();
        },
    };
}

const contributions = (model: ProjectModel, key: string, reader: LibraryReader<string>) =>
    model.contributionsOf(`${tmp}#${key}`, reader).map(c => [path.relative(tmp, c.file), c.result]);

test('each .py library file is read once, also when two pipelines list it; results are kept per pipeline and file', async () => {
    const model = new ProjectModel(langiumFileHost(NodeFileSystem.fileSystemProvider()));
    const reader = recordingReader();
    model.registerLibraryReader(reader);
    await model.loadFolder(tmp);
    expect(reader.calls.sort()).toEqual(['src/first.py', 'src/shared.py']);
    expect(contributions(model, 'first', reader)).toEqual([['src/first.py', 'FIRST V1'], ['src/shared.py', 'SHARED V1']]);
    expect(contributions(model, 'second', reader)).toEqual([['src/shared.py', 'SHARED V1']]);
    // Another reader's view holds nothing of this one's.
    expect(model.contributionsOf(`${tmp}#first`, recordingReader())).toEqual([]);
});

test('a reader that throws on one file loses that file only', async () => {
    const model = new ProjectModel(langiumFileHost(NodeFileSystem.fileSystemProvider()));
    const reader = recordingReader('shared');
    model.registerLibraryReader(reader);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
        await model.loadFolder(tmp);
    } finally {
        console.error = original;
    }
    expect(contributions(model, 'first', reader)).toEqual([['src/first.py', 'FIRST V1']]);
    expect(contributions(model, 'second', reader)).toEqual([]);
    expect(errors).toHaveLength(1);
});

test('a changed library file is read again alone, for the pipelines that list it; a deleted one drops out', async () => {
    const model = new ProjectModel(langiumFileHost(NodeFileSystem.fileSystemProvider()));
    const reader = recordingReader();
    model.registerLibraryReader(reader);
    await model.loadFolder(tmp);
    reader.calls.length = 0;
    const shared = write('src/shared.py', 'shared v2');
    expect((await model.refreshLibraryFile(shared)).sort()).toEqual([`${tmp}#first`, `${tmp}#second`]);
    expect(reader.calls).toEqual(['src/shared.py']);
    expect(contributions(model, 'second', reader)).toEqual([['src/shared.py', 'SHARED V2']]);
    expect(contributions(model, 'first', reader)).toContainEqual(['src/shared.py', 'SHARED V2']);
    // A file no pipeline lists changes nothing.
    expect(await model.refreshLibraryFile(write('src/other.py', 'x'))).toEqual([]);
    fs.rmSync(path.join(tmp, 'src/first.py'));
    expect(await model.refreshLibraryFile(path.join(tmp, 'src/first.py'))).toEqual([`${tmp}#first`]);
    expect(contributions(model, 'first', reader)).toEqual([['src/shared.py', 'SHARED V2']]);
});
