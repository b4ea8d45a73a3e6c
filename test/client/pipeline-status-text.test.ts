import { describe, expect, test } from 'vitest';
import { definitionChoices, pipelineStatusText } from '../../client/src/pipeline-status-text.js';

describe('the Pipeline status item', () => {
    test('names the pipeline and the bundle target, and says why the file belongs to it', () => {
        expect(pipelineStatusText({
            isPipeline: true, role: 'source', reason: 'Listed in the libraries of the pipeline \'shop_orders_dev\' (orders) of the bundle \'shop\', target dev.',
            pipelines: [{ id: '/b#orders', key: 'orders', name: 'shop_orders_dev', layout: 'bundle', bundle: { name: 'shop', target: 'dev' } }],
        })).toEqual({
            text: '$(type-hierarchy) shop_orders_dev · dev',
            detail: 'Bundle shop, target dev',
        });
    });

    test('a spark-pipeline.yml pipeline has no target; a file in no pipeline says so', () => {
        expect(pipelineStatusText({ isPipeline: true, reason: 'r', pipelines: [{ id: '/p', name: 'orders', layout: 'spark-pipeline' }] }))
            .toEqual({ text: '$(type-hierarchy) orders', detail: 'Defined by spark-pipeline.yml' });
        expect(pipelineStatusText({ isPipeline: false, reason: 'Not in a pipeline folder.', pipelines: [] })).toEqual({ text: 'No pipeline', detail: 'Not in a pipeline folder.' });
    });

    test('its click opens the definition of each pipeline of the file, at the pipeline\'s line; none without a project file', () => {
        const pipelines = [
            { id: '/b#eu', key: 'eu', name: 'twins_eu', layout: 'bundle' as const, specUri: 'file:///b/resources/twins.pipeline.yml', specLine: 3 },
            { id: '/b#us', key: 'us', name: 'twins_us', layout: 'bundle' as const, specUri: 'file:///b/resources/twins.pipeline.yml', specLine: 13 },
        ];
        expect(definitionChoices({ isPipeline: true, reason: 'r', pipelines })).toEqual([
            { label: 'twins_eu', description: 'eu · twins.pipeline.yml:3', uri: 'file:///b/resources/twins.pipeline.yml', line: 2 },
            { label: 'twins_us', description: 'us · twins.pipeline.yml:13', uri: 'file:///b/resources/twins.pipeline.yml', line: 12 },
        ]);
        expect(definitionChoices({ isPipeline: true, reason: 'r', pipelines: [{ id: '/p', name: 'p', layout: 'folder' }] })).toEqual([]);
    });
});
