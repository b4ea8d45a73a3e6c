import { afterEach, describe, expect, test } from 'vitest';
import { createPipelineTester } from '../../../helpers/pipeline.js';

const tester = createPipelineTester();

afterEach(() => tester.clear());

const catalog = 'CREATE TABLE cdc.users (id INT, name STRING, op STRING, seq BIGINT);';
const head = 'CREATE STREAMING TABLE t;\nCREATE FLOW f AS AUTO CDC INTO t\nFROM ';

/** The printed diagnostics of one pipeline file. */
async function check(sql: string): Promise<string[]> {
    const p = await tester.load({ 'a.sql': sql }, { catalog, spec: {} });
    return p.diagnostics('a.sql');
}

describe('the statement being typed gets one syntax error, at the end where the typing is', () => {
    // Each text is one step of typing `FROM STREAM(cdc.users)` key by key.
    test.each([
        ['', '[3:5..3:5] error PARSE_SYNTAX_ERROR Unexpected end of file after FROM: expected a source: STREAM(table), a table, or SNAPSHOT (query).'],
        ['stream', '[3:12..3:12] error PARSE_SYNTAX_ERROR Unexpected end of file after STREAM: expected KEYS.'],
        ['stream(', '[3:13..3:13] error PARSE_SYNTAX_ERROR Unexpected end of file after \'(\': expected a name.'],
        ['stream(cdc.users', '[3:22..3:22] error PARSE_SYNTAX_ERROR Unexpected end of file after \'users\': expected \')\'.'],
        ['stream(cdc.users)', '[3:23..3:23] error PARSE_SYNTAX_ERROR Unexpected end of file after \')\': expected KEYS.'],
        ['stream(cdc.users) KEYS (id', '[3:32..3:32] error PARSE_SYNTAX_ERROR Unexpected end of file after \'id\': expected \')\'.'],
    ])('FROM %s', async (typed, message) => {
        expect(await check(head + typed)).toEqual([message]);
    });

    test('an earlier mistake the parser recovered from waits until the statement is finished', async () => {
        const typing = 'CREATE MATERIALIZED VIEW v AS SELECT upper( FROM cdc.users WHERE';
        expect(await check(typing)).toEqual(['[1:65..1:65] error PARSE_SYNTAX_ERROR Unexpected end of file after WHERE: expected an expression.']);
        expect(await check(`${typing} id > 1`)).toEqual(['[1:45..1:49] error PARSE_SYNTAX_ERROR Unexpected FROM after \'(\': expected \')\'.']);
    });

    test('a finished statement without KEYS is AUTOCDC_EMPTY_KEYS, with its quick fix data', async () => {
        const p = await tester.load({ 'a.sql': `${head}STREAM(cdc.users);` }, { catalog, spec: {} });
        expect(p.diagnostics('a.sql')).toEqual([
            '[3:23..3:24] error AUTOCDC_EMPTY_KEYS AUTO CDC needs a KEYS clause with at least one column right after the source (FROM source KEYS (key, ...)): '
            + 'Unexpected \';\' after \')\': expected KEYS.',
        ]);
        expect(p.raw('a.sql')[0].data).toMatchObject({ code: 'AUTOCDC_EMPTY_KEYS', missing: true });
    });

    test('an earlier statement keeps its own error', async () => {
        expect(await check(`CREATE MATERIALIZED VIEW v AS SELECT id FROM cdc.users WHERE;\n${head}stream(`)).toEqual([
            '[1:61..1:62] error PARSE_SYNTAX_ERROR Unexpected \';\' after WHERE: expected an expression.',
            '[4:13..4:13] error PARSE_SYNTAX_ERROR Unexpected end of file after \'(\': expected a name.',
        ]);
    });
});
