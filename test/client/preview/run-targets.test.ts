import { describe, expect, test } from 'vitest';
import { lensesAtLine, pipelineChoices, progressIncrement, runChoices, runLabel, runParams, statementFromArgument, targetFromArgument } from '../../../client/src/preview/run-targets.js';
import { isWebviewMessage } from '../../../common/preview-messages.js';

describe('targetFromArgument', () => {
    test('a code lens passes the document and dataset', () => {
        expect(targetFromArgument({ uri: 'file:///p/a.sql', dataset: 'users' }, 'file:///other.sql')).toEqual({ uri: 'file:///p/a.sql', dataset: 'users' });
    });

    test('the editor title passes the document URI', () => {
        const uri = { scheme: 'file', path: '/p/a.sql', toString: () => 'file:///p/a.sql' };
        expect(targetFromArgument(uri, undefined)).toEqual({ uri: 'file:///p/a.sql' });
    });

    test('the palette passes nothing: the active pipeline document, if any', () => {
        expect(targetFromArgument(undefined, 'file:///p/b.sql')).toEqual({ uri: 'file:///p/b.sql' });
        expect(targetFromArgument(undefined, undefined)).toBeUndefined();
        expect(targetFromArgument({ uri: 5 }, undefined)).toBeUndefined();
    });
});

test('lensesAtLine picks the nearest lens at or above the cursor', () => {
    const uri = 'file:///p/a.sql';
    const lenses = [{ line: 3, dataset: 'a', uri }, { line: 10, dataset: 'b', uri }, { line: 20, dataset: 'c', uri }];
    expect(lensesAtLine(lenses, 0)).toEqual([]);
    expect(lensesAtLine(lenses, 3).map(l => l.dataset)).toEqual(['a']);
    expect(lensesAtLine(lenses, 15).map(l => l.dataset)).toEqual(['b']);
    expect(lensesAtLine(lenses, 99).map(l => l.dataset)).toEqual(['c']);
});

test('in a file two pipelines list, the palette\'s Run Flow offers the dataset in each pipeline, each in its document', () => {
    const file = 'file:///b/report.sql';
    const other = 'file:///b/report.sql?pipeline=%2Fb%23us';
    const lenses = [
        { line: 1, dataset: 'report', uri: file, pipeline: 'eu' }, { line: 1, dataset: 'report', uri: other, pipeline: 'us' },
        { line: 5, dataset: 'summary', uri: file, pipeline: 'eu' }, { line: 5, dataset: 'summary', uri: other, pipeline: 'us' },
    ];
    expect(runChoices(lensesAtLine(lenses, 2))).toEqual([
        { label: 'report · eu', target: { uri: file, dataset: 'report' } },
        { label: 'report · us', target: { uri: other, dataset: 'report' } },
    ]);
    // A file of one pipeline: one choice per dataset, as before.
    expect(runChoices([{ line: 1, dataset: 'a', uri: file }, { line: 4, dataset: 'a', uri: file }, { line: 6, dataset: 'b', uri: file }]).map(c => c.label)).toEqual(['a', 'b']);
});

test('pipelineChoices: a whole-pipeline run of a file several pipelines list offers each pipeline once, a file of one pipeline nothing to pick', () => {
    const file = 'file:///b/shared/report.sql';
    const other = 'file:///b/shared/report.sql?pipeline=us';
    const lenses = [
        { line: 1, dataset: 'report', uri: file, pipeline: 'eu' }, { line: 1, dataset: 'report', uri: other, pipeline: 'us' },
        { line: 5, dataset: 'summary', uri: file, pipeline: 'eu' }, { line: 5, dataset: 'summary', uri: other, pipeline: 'us' },
    ];
    expect(pipelineChoices(lenses)).toEqual([
        { label: 'eu', target: { uri: file } },
        { label: 'us', target: { uri: other } },
    ]);
    expect(pipelineChoices([{ line: 1, dataset: 'a', uri: file }, { line: 4, dataset: 'b', uri: file }])).toEqual([]);
    expect(pipelineChoices(lenses.filter(l => l.pipeline === 'eu'))).toEqual([]);
});

test('runParams maps each command to a scope and full-refresh flag', () => {
    const target = { uri: 'file:///p/a.sql', dataset: 'users' };
    expect(runParams('runFlow', target, 10)).toEqual({ uri: target.uri, scope: 'upstream', dataset: 'users', fullRefresh: false, maxRows: 10 });
    expect(runParams('runFrom', target, 10)).toMatchObject({ scope: 'downstream', dataset: 'users', fullRefresh: false });
    expect(runParams('fullRefresh', target, 10)).toMatchObject({ scope: 'upstream', dataset: 'users', fullRefresh: true });
    expect(runParams('fullRefresh', { uri: target.uri }, 10)).toEqual({ uri: target.uri, scope: 'pipeline', fullRefresh: true, maxRows: 10 });
    expect(runParams('runPipeline', target, 10)).toEqual({ uri: target.uri, scope: 'pipeline', fullRefresh: false, maxRows: 10 });
    expect(runLabel('runFlow', 'users')).toBe('Run flow users');
    expect(runLabel('fullRefresh', undefined)).toBe('Full refresh of the pipeline');
});

test('progressIncrement turns percentages into the increments VS Code wants, never backwards', () => {
    expect(progressIncrement(0, 25)).toEqual({ increment: 25, last: 25 });
    expect(progressIncrement(25, 20)).toEqual({ increment: 0, last: 25 });
    expect(progressIncrement(25, 150)).toEqual({ increment: 75, last: 100 });
    expect(progressIncrement(25, undefined)).toEqual({ increment: 0, last: 25 });
});

test('isWebviewMessage accepts the declared messages and nothing else', () => {
    expect(isWebviewMessage({ type: 'ready' })).toBe(true);
    expect(isWebviewMessage({ type: 'openLocation', uri: 'file:///a.sql' })).toBe(true);
    expect(isWebviewMessage({ type: 'requestRows', runId: 'r', dataset: 'd', offset: 0, limit: 10 })).toBe(true);
    expect(isWebviewMessage({ type: 'requestRows', runId: 'r', dataset: 'd', offset: -1, limit: 10 })).toBe(false);
    expect(isWebviewMessage({ type: 'requestChangeEvents', requestId: 1, dataset: 'd', key: { id: 1 } })).toBe(true);
    expect(isWebviewMessage({ type: 'requestChangeEvents', requestId: 1, dataset: 'd', key: { id: { nested: 1 } } })).toBe(false);
    expect(isWebviewMessage({ type: 'runFrom' })).toBe(false);
    expect(isWebviewMessage({ type: 'eval', code: 'x' })).toBe(false);
    expect(isWebviewMessage(null)).toBe(false);
});

describe('statementFromArgument ("Run on local state")', () => {
    test('the code lens argument is taken as it is', () => {
        const argument = { uri: 'file:///p/scratch.sql', text: 'DELETE FROM t', start: { line: 3, character: 0 } };
        expect(statementFromArgument(argument, undefined)).toEqual(argument);
    });

    test('else the selection, its leading blank lines skipped so that errors land on the statement', () => {
        expect(statementFromArgument(undefined, { uri: 'file:///s.sql', text: '\n  \nSELECT 1', start: { line: 4, character: 2 } }))
            .toEqual({ uri: 'file:///s.sql', text: 'SELECT 1', start: { line: 6, character: 0 } });
        expect(statementFromArgument(undefined, { uri: 'file:///s.sql', text: 'SELECT 1', start: { line: 4, character: 2 } })?.start).toEqual({ line: 4, character: 2 });
    });

    test('nothing for an empty or blank selection, or a malformed argument', () => {
        expect(statementFromArgument(undefined, undefined)).toBeUndefined();
        expect(statementFromArgument({ uri: 'file:///s.sql' }, { uri: 'file:///s.sql', text: ' \n ', start: { line: 0, character: 0 } })).toBeUndefined();
    });
});

test('isWebviewMessage accepts a version request only with a dataset and a whole version', () => {
    expect(isWebviewMessage({ type: 'requestVersionChanges', dataset: 'users' })).toBe(true);
    expect(isWebviewMessage({ type: 'requestVersionChanges', dataset: 'users', version: 3 })).toBe(true);
    expect(isWebviewMessage({ type: 'requestVersionChanges', dataset: 'users', version: -1 })).toBe(false);
    expect(isWebviewMessage({ type: 'requestVersionChanges', dataset: 'users', version: '1; DROP' })).toBe(false);
    expect(isWebviewMessage({ type: 'requestVersionChanges' })).toBe(false);
});
