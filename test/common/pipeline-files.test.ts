import { describe, expect, test } from 'vitest';
import {
    blankCommentsAndStrings, decidePipelineFile, describePipelineDecision, findPipelineStatement, globToRegExp,
    isPipelineLibrary, parsePipelineSpec, type PipelineFileHost,
} from '../../common/pipeline-files.js';

/** An in-memory file system: absolute `/`-paths to texts. */
function memoryHost(files: Record<string, string>): PipelineFileHost & { reads: string[] } {
    const reads: string[] = [];
    return {
        reads,
        readFile: async (p: string) => {
            reads.push(p);
            return files[p];
        },
    };
}

const spec = 'name: orders\nlibraries:\n  - glob:\n      include: transformations/**\n  - file:\n      path: ./extra/one.sql\n';

describe('parsePipelineSpec', () => {
    test('reads the name and every library form (glob include, file path, notebook path, lists)', () => {
        const text = [
            'name: demo',
            'libraries:',
            '  - glob:',
            '      include: transformations/**',
            '  - glob:',
            '      include: [a/*.sql, b/**]',
            '  - file:',
            '      path: ./x.sql',
            '  - notebook:',
            '      path: nb/n1',
            '  - something: else',
        ].join('\n');
        expect(parsePipelineSpec(text)).toEqual({ name: 'demo', includes: ['transformations/**', 'a/*.sql', 'b/**', './x.sql', 'nb/n1'] });
    });

    test('reads the default catalog and schema (schema, Spark\'s database or the legacy target), parameters and continuous', () => {
        expect(parsePipelineSpec('name: p\ncatalog: main\nschema: sales\nconfiguration:\n  env: dev\n  n: 3\ncontinuous: true\n')).toEqual({
            name: 'p', includes: [], catalog: 'main', schema: 'sales', configuration: { env: 'dev', n: '3' }, continuous: true,
        });
        expect(parsePipelineSpec('database: bronze\n')).toEqual({ includes: [], schema: 'bronze' });
        expect(parsePipelineSpec('target: legacy_schema\n')).toEqual({ includes: [], schema: 'legacy_schema' });
    });

    test('a spec without libraries includes nothing explicitly', () => {
        expect(parsePipelineSpec('name: only-a-name\n')).toEqual({ name: 'only-a-name', includes: [] });
        expect(parsePipelineSpec('')).toEqual({ includes: [] });
    });

    test('invalid YAML throws an error that names the line', () => {
        expect(() => parsePipelineSpec('name: [unclosed\nlibraries:\n')).toThrow(/line \d+/);
    });
});

describe('globToRegExp and isPipelineLibrary', () => {
    test.each([
        ['transformations/**', 'transformations/a.sql', true],
        ['transformations/**', 'transformations/deep/b.sql', true],
        ['transformations/**', 'other/a.sql', false],
        ['transformations/', 'transformations/x/y.sql', true],
        ['**/*.sql', 'a.sql', true],
        ['**/*.sql', 'a/b/c.sql', true],
        ['src/*.sql', 'src/a.sql', true],
        ['src/*.sql', 'src/sub/a.sql', false],
        ['./src/?.sql', 'src/a.sql', true],
        ['./src/?.sql', 'src/ab.sql', false],
        ['data.v1/*.sql', 'datasv1/x.sql', false],
    ])('%s against %s is %s', (glob, file, expected) => {
        expect(globToRegExp(glob).test(file)).toBe(expected);
    });

    test('without include globs, every .sql file outside samples/ and .pipeline-sql/ belongs', () => {
        expect(isPipelineLibrary(undefined, 'a.sql')).toBe(true);
        expect(isPipelineLibrary({ includes: [] }, 'x/y/z.SQL')).toBe(true);
        expect(isPipelineLibrary(undefined, 'samples/fixture.sql')).toBe(false);
        expect(isPipelineLibrary(undefined, '.pipeline-sql/state.sql')).toBe(false);
        expect(isPipelineLibrary(undefined, 'notes.md')).toBe(false);
    });

    test('a path outside the root never belongs', () => {
        expect(isPipelineLibrary({ includes: ['**'] }, '../elsewhere/a.sql')).toBe(false);
    });
});

describe('findPipelineStatement', () => {
    test.each([
        ['CREATE OR REFRESH STREAMING TABLE orders AS SELECT * FROM STREAM(raw)', 'CREATE STREAMING TABLE'],
        ['create streaming table t', 'CREATE STREAMING TABLE'],
        ['CREATE OR REFRESH PRIVATE STREAMING TABLE t', 'CREATE STREAMING TABLE'],
        ['CREATE STREAMING LIVE TABLE t', 'CREATE STREAMING TABLE'],
        ['CREATE OR REFRESH MATERIALIZED VIEW mv AS SELECT 1', 'CREATE MATERIALIZED VIEW'],
        ['CREATE FLOW f AS INSERT INTO t BY NAME SELECT 1', 'CREATE FLOW'],
        ['create or refresh flow f as auto cdc into t from s keys (id) sequence by ts', 'CREATE FLOW'],
        ['APPLY CHANGES INTO live.t FROM stream(live.s) KEYS (id) SEQUENCE BY ts', 'APPLY CHANGES INTO'],
        ['CREATE LIVE TABLE t AS SELECT 1', 'CREATE LIVE TABLE'],
        ['CREATE TEMPORARY LIVE VIEW v AS SELECT 1', 'CREATE LIVE TABLE'],
        ['CREATE OR REFRESH STREAMING TABLE t\n  FLOW AUTO CDC FROM s KEYS (id) SEQUENCE BY ts', 'CREATE STREAMING TABLE'],
        ['CREATE\n  OR   REFRESH\tSTREAMING\n TABLE t', 'CREATE STREAMING TABLE'],
    ])('finds it in %j', (sql, expected) => {
        expect(findPipelineStatement(sql)).toBe(expected);
    });

    test.each([
        'SELECT * FROM orders WHERE status = \'shipped\'',
        'CREATE TABLE t (id INT); INSERT INTO t VALUES (1)',
        'CREATE VIEW v AS SELECT 1',
        '-- CREATE STREAMING TABLE in a comment\nSELECT 1',
        '/* CREATE FLOW f\n AS AUTO CDC */ SELECT 1',
        'SELECT \'CREATE STREAMING TABLE t\' AS text',
        'SELECT "materialized view" AS text',
        'SELECT `auto cdc` FROM t',
        'SELECT auto, cdc FROM t',
        'SELECT flow FROM create_flow_log',
        '',
    ])('finds nothing in %j', sql => {
        expect(findPipelineStatement(sql)).toBeUndefined();
    });

    test('names the statement that comes first in the text', () => {
        expect(findPipelineStatement('CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (k) SEQUENCE BY v;\nCREATE STREAMING TABLE t;')).toBe('CREATE FLOW');
    });
});

describe('blankCommentsAndStrings', () => {
    test('keeps the length and the code, blanks comments, strings with escapes and quoted names', () => {
        const sql = "SELECT 'it\\'s -- no comment' AS a, `x``y` -- trailing\nFROM t /* b */";
        const blanked = blankCommentsAndStrings(sql);
        expect(blanked).toHaveLength(sql.length);
        expect(blanked.replace(/\s+/g, ' ').trim()).toBe('SELECT AS a, FROM t');
    });

    test('unterminated strings and comments run to the end without throwing', () => {
        expect(blankCommentsAndStrings("SELECT 'open").trim()).toBe('SELECT');
        expect(blankCommentsAndStrings('SELECT /* open').trim()).toBe('SELECT');
        expect(blankCommentsAndStrings('SELECT "a\\').trim()).toBe('SELECT');
    });
});

describe('decidePipelineFile', () => {
    const files = {
        '/ws/pipe/spark-pipeline.yml': spec,
        '/ws/pipe/transformations/orders.sql': 'SELECT 1',
        '/ws/yaml-pipe/spark-pipeline.yaml': 'name: y\n',
        '/ws/broken/spark-pipeline.yml': 'libraries: [oops\n',
    };

    test('a file matched by the libraries globs is pipeline SQL, whatever its text', async () => {
        const decision = await decidePipelineFile('/ws/pipe/transformations/orders.sql', 'SELECT 1', memoryHost(files));
        expect(decision).toMatchObject({ isPipeline: true, reason: 'library', pipeline: { root: '/ws/pipe', specFile: '/ws/pipe/spark-pipeline.yml' } });
        expect(describePipelineDecision(decision)).toBe("Listed in the libraries of spark-pipeline.yml (pipeline 'orders').");
        expect((await decidePipelineFile('/ws/pipe/extra/one.sql', '', memoryHost(files))).isPipeline).toBe(true);
        expect((await decidePipelineFile('/ws/pipe/transformations/deep/er/x.sql', '', memoryHost(files))).isPipeline).toBe(true);
    });

    test('a plain .sql file in the pipeline folder but outside its globs stays SQL', async () => {
        const decision = await decidePipelineFile('/ws/pipe/scratch/adhoc.sql', 'SELECT * FROM orders', memoryHost(files));
        expect(decision).toMatchObject({ isPipeline: false, pipeline: { root: '/ws/pipe' } });
        expect(describePipelineDecision(decision)).toBe('Not listed in the libraries of spark-pipeline.yml and has no pipeline statement.');
    });

    test('a file outside the globs with a pipeline statement is pipeline SQL', async () => {
        const decision = await decidePipelineFile('/ws/pipe/scratch/cdc.sql', 'CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (id) SEQUENCE BY ts', memoryHost(files));
        expect(decision).toMatchObject({ isPipeline: true, reason: 'statement', statement: 'CREATE FLOW' });
        expect(describePipelineDecision(decision)).toBe('Contains a pipeline statement (CREATE FLOW).');
    });

    test('outside any pipeline folder only the text decides', async () => {
        const plain = await decidePipelineFile('/elsewhere/q.sql', 'SELECT 1', memoryHost(files));
        expect(plain).toEqual({ isPipeline: false, pipeline: undefined });
        expect(describePipelineDecision(plain)).toBe('Not in a pipeline folder and has no pipeline statement.');
        const st = await decidePipelineFile('/elsewhere/st.sql', 'CREATE STREAMING TABLE s AS SELECT 1', memoryHost(files));
        expect(st).toMatchObject({ isPipeline: true, reason: 'statement' });
    });

    test('spark-pipeline.yaml counts too; without libraries every .sql outside samples/ belongs', async () => {
        expect((await decidePipelineFile('/ws/yaml-pipe/a/b.sql', 'SELECT 1', memoryHost(files))).isPipeline).toBe(true);
        expect((await decidePipelineFile('/ws/yaml-pipe/samples/data.sql', 'SELECT 1', memoryHost(files))).isPipeline).toBe(false);
    });

    test('an unreadable project file does not throw; its folder counts as a pipeline and the error is kept', async () => {
        const decision = await decidePipelineFile('/ws/broken/x.sql', 'SELECT 1', memoryHost(files));
        expect(decision).toMatchObject({ isPipeline: true, reason: 'library', pipeline: { root: '/ws/broken' } });
        expect(describePipelineDecision(decision)).toMatch(/^In the folder of spark-pipeline\.yml, which could not be read \(.* at line 2, column 1\)\.$/);
    });

    test('the nearest project file wins and the walk stops there', async () => {
        const host = memoryHost({ ...files, '/ws/pipe/transformations/spark-pipeline.yml': 'libraries:\n  - glob:\n      include: only/**\n' });
        const decision = await decidePipelineFile('/ws/pipe/transformations/orders.sql', 'SELECT 1', host);
        expect(decision).toMatchObject({ isPipeline: false, pipeline: { root: '/ws/pipe/transformations' } });
        expect(host.reads).toEqual(['/ws/pipe/transformations/spark-pipeline.yml']);
    });
});
