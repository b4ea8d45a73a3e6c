// The run settings of a project file (spark-pipeline.yml): `configuration:` parameters, the default
// catalog and schema, and YAML errors with their position.
import { describe, expect, test } from 'vitest';
import { parsePipelineSettings, PipelineSettingsError } from '../../../server/src/lowering/index.js';

describe('spark-pipeline.yml settings', () => {
    test('configuration values become strings; nested mappings become dotted keys; catalog and schema (or database) are read', () => {
        expect(parsePipelineSettings([
            'name: sales',
            'catalog: main',
            'schema: bronze',
            'configuration:',
            '  start_date: 2025-01-01',
            '  threshold: 10',
            '  enabled: true',
            '  mypipeline:',
            '    env: dev',
            'libraries:',
            '  - glob:',
            '      include: transformations/**',
        ].join('\n'), 'spark-pipeline.yml')).toEqual({
            configuration: { start_date: '2025-01-01', threshold: '10', enabled: 'true', 'mypipeline.env': 'dev' },
            catalog: 'main',
            schema: 'bronze',
        });
        expect(parsePipelineSettings('name: x\ndatabase: silver\n', 'p.yml')).toEqual({ configuration: {}, schema: 'silver' });
        expect(parsePipelineSettings('', 'p.yml')).toEqual({ configuration: {} });
    });

    test('a file that is not YAML is an error naming the file, line and column', () => {
        let error: unknown;
        try {
            parsePipelineSettings('name: x\nconfiguration: {a: 1\n', '/p/spark-pipeline.yml');
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(PipelineSettingsError);
        expect(error).toMatchObject({ file: '/p/spark-pipeline.yml', line: 3 });
        expect((error as Error).message).toMatch(/^\/p\/spark-pipeline\.yml is not valid YAML: /);
    });
});
