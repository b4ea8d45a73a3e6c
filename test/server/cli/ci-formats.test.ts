// CI outputs of `pipeline-sql check`: SARIF 2.1.0 (validated against the OASIS schema vendored in
// test/fixtures/sarif) with rules from the diagnostics table, and GitHub Actions annotations with the
// runner's escaping; `--json` stays an alias of `--format json`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validator, type Schema } from '@cfworker/json-schema';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { escapeData, escapeProperty, githubAnnotations } from '../../../server/src/cli/ci-formats.js';
import { runCli } from '../../../server/src/cli/main.js';
import { repoRoot } from '../../helpers/parse.js';

let root: string;
let cwd: string;

beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-ci-'));
    fs.mkdirSync(path.join(root, 'transformations'));
    fs.writeFileSync(path.join(root, 'transformations', 'users.sql'), [
        'CREATE OR REFRESH STREAMING TABLE users;',
        'CREATE FLOW users_cdc AS AUTO CDC INTO users FROM STREAM(cdc.events) KEYS (id) SEQUENCE BY seq',
        '  STORED AS SCD TYPE 1 TRACK HISTORY ON *;',
        '',
    ].join('\n'));
    cwd = process.cwd();
    process.chdir(root);
});

afterEach(() => {
    process.chdir(cwd);
    fs.rmSync(root, { recursive: true, force: true });
});

async function check(...args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await runCli(['check', ...args], t => { out += t; }, t => { out += t; });
    return { code, out };
}

const schema = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json'), 'utf8')) as Schema;

interface SarifLog {
    runs: Array<{
        tool: { driver: { name: string; rules: Array<{ id: string; name: string; shortDescription: { text: string }; help: { text: string }; defaultConfiguration: { level: string }; properties: { rule?: string } }> } };
        results: Array<{ ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }> }>;
    }>;
}

describe('check --format sarif', () => {
    test('is a SARIF 2.1.0 log that the OASIS schema accepts, with one rule per error class and each diagnostic as a result at its place', async () => {
        const { code, out } = await check('--format', 'sarif', '.');
        expect(code).toBe(1);
        const log = JSON.parse(out) as SarifLog;
        const validation = new Validator(schema, '4', false).validate(log);
        expect(validation.errors).toEqual([]);
        expect(validation.valid).toBe(true);
        const { json } = { json: JSON.parse((await check('--json', '.')).out) as Array<{ file: string; line: number; column: number; code: string; message: string; severity: string }> };
        const run = log.runs[0];
        expect(run.tool.driver.name).toBe('pipeline-sql');
        expect(run.results).toHaveLength(json.length);
        const trackHistory = run.results.find(r => r.ruleId === 'PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2')!;
        const expected = json.find(d => d.code === 'PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2')!;
        expect(trackHistory.level).toBe('error');
        expect(trackHistory.message.text).toBe(expected.message);
        expect(trackHistory.locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'transformations/users.sql', uriBaseId: '%SRCROOT%' });
        expect(trackHistory.locations[0].physicalLocation.region).toMatchObject({ startLine: 3, startColumn: expected.column });
        const rule = run.tool.driver.rules[trackHistory.ruleIndex];
        expect(rule.id).toBe('PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2');
        expect(rule.name).toBe('TrackHistoryRequiresScd2');
        expect(rule.help.text).toContain('TRACK HISTORY ON is only allowed with STORED AS SCD TYPE 2');
        expect(rule.help.text).toContain('rule V5');
        expect(rule.defaultConfiguration.level).toBe('error');
        // A rule whose message has arguments shows them as placeholders.
        const notFound = run.tool.driver.rules.find(r => r.id === 'TABLE_OR_VIEW_NOT_FOUND');
        expect(notFound?.help.text).toMatch(/'\{name\}' is not a dataset of this pipeline/);
        expect(new Set(run.tool.driver.rules.map(r => r.id)).size).toBe(run.tool.driver.rules.length);
    }, 60_000);

    test('every rule has a title and help text from the tables (project-file classes too), and no rule or result carries a placeholder URI', async () => {
        const spec = 'name: shop\nlibraries:\n  - glob: {include: transformations/**}\n  - glob: {include: nothing/**}\n';
        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), spec);
        const { out } = await check('--format', 'sarif', '.');
        fs.writeFileSync(path.join(root, 'spark-pipeline.yml'), `${spec}configuration: [unclosed\n`);
        const broken = (await check('--format', 'sarif', '.')).out;
        const logs = [JSON.parse(out), JSON.parse(broken)] as SarifLog[];
        logs.forEach(log => expect(new Validator(schema, '4', false).validate(log).valid).toBe(true));
        const rules = new Map(logs.flatMap(log => log.runs[0].tool.driver.rules).map(r => [r.id, r]));
        // A class the project model reports: described by the error-class table, not by one instance's message.
        const invalid = rules.get('PIPELINE_SQL_INVALID_PROJECT_FILE');
        expect(invalid?.shortDescription.text).toBe('Invalid project file');
        expect(invalid?.help.text).toMatch(/^A project file \(databricks\.yml, a file it includes, spark-pipeline\.yml\) is not valid YAML/);
        const nothing = rules.get('PIPELINE_SQL_LIBRARY_MATCHES_NOTHING');
        expect(nothing?.help.text).toBe('A `glob:` library of a pipeline matches no .sql or .py file, so it adds nothing to the pipeline.');
        for (const rule of rules.values()) {
            expect(rule.shortDescription.text, rule.id).not.toMatch(/^[a-z]+ sql /);
            expect(rule.help.text.length, rule.id).toBeGreaterThan(20);
        }
        // The only URIs: the schema's, the source root's file URL, and relative paths of the results.
        const uris = [...(out + broken).matchAll(/"(?:uri|helpUri|\$schema)":\s*"([^"]*)"/g)].map(m => m[1]);
        expect(uris.filter(u => /example\.(com|org)|localhost|TODO|placeholder/i.test(u))).toEqual([]);
        expect(uris).toContain('https://json.schemastore.org/sarif-2.1.0.json');
        expect([...new Set(uris.filter(u => u.startsWith('file:')))]).toEqual([pathToFileURL(root + path.sep).href]);
    }, 60_000);

    test('a clean pipeline is a valid log with no results, exit 0', async () => {
        fs.writeFileSync(path.join(root, 'transformations', 'users.sql'), 'CREATE MATERIALIZED VIEW one AS SELECT 1 AS x;\n');
        const { code, out } = await check('--format', 'sarif');
        expect(code).toBe(0);
        const log = JSON.parse(out) as SarifLog;
        expect(new Validator(schema, '4', false).validate(log).valid).toBe(true);
        expect(log.runs[0].results).toEqual([]);
    }, 60_000);

    test('the validator rejects a log that breaks the schema (so the test above can fail)', () => {
        const broken = { version: '2.1.0', runs: [{ tool: { driver: {} }, results: [{ message: {}, level: 'fatal' }] }] };
        expect(new Validator(schema, '4', false).validate(broken).valid).toBe(false);
    });
});

describe('check --format github', () => {
    test('prints one workflow command per diagnostic with file, line, column and the error class as title', async () => {
        const { code, out } = await check('--format', 'github', '.');
        expect(code).toBe(1);
        const lines = out.trimEnd().split('\n');
        const error = lines.find(l => l.includes('PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2'));
        expect(error).toMatch(/^::error file=transformations\/users\.sql,line=3,endLine=3,col=\d+,endColumn=\d+,title=PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2::TRACK HISTORY ON is only allowed/);
        expect(lines.find(l => l.includes('TABLE_OR_VIEW_NOT_FOUND'))).toMatch(/^::warning file=transformations\/users\.sql,line=2,/);
        expect(lines.every(l => l.startsWith('::'))).toBe(true);
    }, 60_000);

    test('escapes %, CR and LF in messages, and also : and , in properties, as the Actions runner reads them', () => {
        expect(escapeData('100% sure\r\nnext: a, b')).toBe('100%25 sure%0D%0Anext: a, b');
        expect(escapeProperty('dir,x/a:b.sql')).toBe('dir%2Cx/a%3Ab.sql');
        const text = githubAnnotations([{ file: 'we,ird:name.sql', line: 2, column: 3, endLine: 4, endColumn: 1, severity: 'info', code: 'X', message: 'two\nlines 50%' }], '/');
        expect(text).toBe('::notice file=we%2Cird%3Aname.sql,line=2,endLine=4,col=3,title=X::two%0Alines 50%25\n');
    });
});

describe('check --format', () => {
    test('--format text is the default; --json is --format json; an unknown format or --json with another format is a usage error', async () => {
        const text = await check('--format', 'text', '.');
        expect(text).toEqual(await check('.'));
        expect(text.out).toMatch(/transformations\/users\.sql:3:\d+: error PIPELINE_SQL_TRACK_HISTORY_REQUIRES_SCD2 /);
        const a = await check('--json', '.');
        const b = await check('--format', 'json', '.');
        expect(a.out).toBe(b.out);
        expect(JSON.parse(a.out)).toBeInstanceOf(Array);
        await expect(check('--format', 'xml', '.')).rejects.toThrow(/--format takes one of text, json, sarif, github, not 'xml'/);
        await expect(check('--json', '--format', 'sarif', '.')).rejects.toThrow(/--json is --format json/);
    }, 60_000);
});
