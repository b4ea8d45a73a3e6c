// The README's GitHub Actions workflow: at most ten lines of valid YAML, and every pipeline-sql command
// of its `run:` steps works as written through the built CLI on a copy of the samples (the SARIF file
// is a SARIF 2.1.0 log, the annotations step and the tests pass, the JUnit report is written).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../helpers/parse.js';

const run = promisify(execFile);
let dir: string;

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const workflow = /```yaml\n(on: [\s\S]*?)```/.exec(readme)?.[1] ?? '';

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-workflow-'));
    fs.cpSync(path.join(repoRoot, 'samples'), dir, { recursive: true, filter: f => path.basename(f) !== '.pipeline-sql' });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the README shows a workflow of at most ten lines that runs check and test', () => {
    expect(workflow.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
    const parsed = parse(workflow) as { jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: Record<string, string> }> }> };
    const steps = Object.values(parsed.jobs)[0].steps;
    const commands = steps.flatMap(s => s.run ?? []).join('\n');
    expect(commands).toMatch(/pipeline-sql check --format sarif/);
    expect(commands).toMatch(/pipeline-sql check --format github/);
    expect(commands).toMatch(/pipeline-sql test --junit/);
    expect(steps.find(s => s.uses?.startsWith('github/codeql-action/upload-sarif'))?.with?.sarif_file).toBe('check.sarif');
});

test('each pipeline-sql command of the workflow works as written on the samples', async () => {
    const parsed = parse(workflow) as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
    const invocations = Object.values(parsed.jobs)[0].steps.flatMap(s => [...(s.run ?? '').matchAll(/npx pipeline-sql ([^&|;)]+?)(?:\s*>\s*(\S+))?(?=\s*(?:&&|\|\||;|\)|$))/g)])
        .map(m => ({ args: m[1].trim().split(/\s+/), redirect: m[2] }));
    expect(invocations.map(i => i.args.slice(0, 3).join(' '))).toEqual(['check --format sarif', 'check --format github', 'test --junit test-results/pipeline-tests.xml']);
    for (const { args, redirect } of invocations) {
        const { stdout } = await run(process.execPath, [path.join(repoRoot, 'out/cli.cjs'), ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
        if (redirect) {
            fs.writeFileSync(path.join(dir, redirect), stdout);
        }
    }
    const sarif = JSON.parse(fs.readFileSync(path.join(dir, 'check.sarif'), 'utf8')) as { version: string; runs: Array<{ tool: { driver: { name: string } } }> };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].tool.driver.name).toBe('pipeline-sql');
    const junit = fs.readFileSync(path.join(dir, 'test-results/pipeline-tests.xml'), 'utf8');
    expect(junit).toMatch(/^<\?xml/);
    expect(junit).toMatch(/<testsuites[^>]* failures="0"/);
}, 300_000);
