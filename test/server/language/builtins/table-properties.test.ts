import { describe, expect, test } from 'vitest';
import {
    checkTablePropertyValue, getTableProperty, TABLE_PROPERTIES, tablePropertyHoverMarkdown,
} from '../../../../server/src/language/builtins/table-properties.js';

describe('table properties', () => {
    test('the pipeline and Delta properties of the brief are known', () => {
        for (const name of ['pipelines.reset.allowed', 'pipelines.autoOptimize.zOrderCols', 'pipelines.cdc.tombstoneGCThresholdInSeconds', 'pipelines.channel',
            'pipelines.trigger.interval', 'pipelines.autoOptimize.managed', 'delta.enableChangeDataFeed', 'delta.appendOnly',
            'delta.autoOptimize.optimizeWrite', 'delta.enableDeletionVectors']) {
            expect(getTableProperty(name)?.name, name).toBe(name);
        }
    });

    test('names are unique, documented, and carry a usable example', () => {
        const names = TABLE_PROPERTIES.map(p => p.name.toLowerCase());
        expect(new Set(names).size).toBe(names.length);
        for (const p of TABLE_PROPERTIES) {
            expect(p.name, p.name).toMatch(/^(pipelines|delta)\./);
            expect(p.description, p.name).toMatch(/^[A-Z].*\.$/);
            expect(p.example, p.name).toContain(p.name);
            if (p.defaultValue !== undefined) {
                expect(checkTablePropertyValue(p.name, p.defaultValue), p.name).toBeUndefined();
            }
        }
    });

    test('lookups ignore case and quotes', () => {
        expect(getTableProperty('\'PIPELINES.RESET.ALLOWED\'')?.name).toBe('pipelines.reset.allowed');
        expect(getTableProperty('`delta.appendonly`')?.name).toBe('delta.appendOnly');
        expect(getTableProperty('pipelines.nonsense')).toBeUndefined();
    });

    test.each([
        ['pipelines.reset.allowed', '\'false\'', undefined],
        ['pipelines.reset.allowed', 'TRUE', undefined],
        ['pipelines.reset.allowed', '\'no\'', 'Table property \'pipelines.reset.allowed\' takes true or false, not \'no\'.'],
        ['pipelines.cdc.tombstoneGCThresholdInSeconds', '\'86400\'', undefined],
        ['pipelines.cdc.tombstoneGCThresholdInSeconds', '\'1 day\'', 'Table property \'pipelines.cdc.tombstoneGCThresholdInSeconds\' takes a whole number, not \'1 day\'.'],
        ['pipelines.channel', '\'preview\'', undefined],
        ['pipelines.channel', '\'beta\'', 'Table property \'pipelines.channel\' takes one of \'CURRENT\', \'PREVIEW\', not \'beta\'.'],
        ['pipelines.autoOptimize.zOrderCols', '\'customer_id, order_date\'', undefined],
        ['pipelines.autoOptimize.zOrderCols', '\'a;b\'', 'Table property \'pipelines.autoOptimize.zOrderCols\' takes a comma-separated list of column names, not \'a;b\'.'],
        ['delta.logRetentionDuration', '\'interval 30 days\'', undefined],
        ['pipelines.trigger.interval', '\'1 hour\'', undefined],
        ['delta.deletedFileRetentionDuration', '\'a week\'', 'Table property \'delta.deletedFileRetentionDuration\' takes an interval such as \'interval 7 days\', not \'a week\'.'],
        ['delta.feature.deletionVectors', '\'supported\'', undefined],
        ['delta.feature.deletionVectors', '\'on\'', 'Table property \'delta.feature.deletionVectors\' takes \'supported\', not \'on\'.'],
        ['my.own.property', '\'anything\'', undefined],
    ])('%s = %s', (name, value, problem) => {
        expect(checkTablePropertyValue(name, value)).toBe(problem);
    });

    test('the hover names the kind, default and where it is set', () => {
        const md = tablePropertyHoverMarkdown('pipelines.reset.allowed')!;
        expect(md).toContain('**pipelines.reset.allowed** (boolean)');
        expect(md).toContain('Whether a full refresh may clear this table');
        expect(md).toContain('set in TBLPROPERTIES · default: true');
        expect(tablePropertyHoverMarkdown('pipelines.applyChanges.tombstoneGCThresholdInSeconds')).toContain('pipeline setting');
        expect(tablePropertyHoverMarkdown('delta.feature.variantType')).toContain('Enables the Delta table feature `variantType`');
        expect(tablePropertyHoverMarkdown('unknown.key')).toBeUndefined();
    });
});
