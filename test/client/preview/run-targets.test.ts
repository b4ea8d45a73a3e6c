import { describe, expect, test } from 'vitest';
import { datasetAtLine, progressIncrement, runLabel, runParams, statementFromArgument, targetFromArgument } from '../../../client/src/preview/run-targets.js';
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

test('datasetAtLine picks the nearest lens at or above the cursor', () => {
    const lenses = [{ line: 3, dataset: 'a' }, { line: 10, dataset: 'b' }, { line: 20, dataset: 'c' }];
    expect(datasetAtLine(lenses, 0)).toBeUndefined();
    expect(datasetAtLine(lenses, 3)).toBe('a');
    expect(datasetAtLine(lenses, 15)).toBe('b');
    expect(datasetAtLine(lenses, 99)).toBe('c');
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
