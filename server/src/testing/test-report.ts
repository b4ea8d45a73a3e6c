/**
 * How test outcomes are shown: the terminal report (a diff read at a glance: the dataset, the
 * expected rows that are missing, the produced rows that were not expected, aligned, in colour on a
 * terminal), and JUnit XML for CI (one test case per test file, its updates as steps in the failure).
 */
import type { JsonValue } from '../../../engine/src/index.js';
import { formatCell } from '../cli/run-output.js';
import type { TestOutcome, UpdateOutcome, UpdateProblem } from './test-runner.js';
import type { TestValue } from './test-file.js';

/** Colours of the terminal report; all identity functions without colour. */
export interface Palette {
    readonly red: (s: string) => string;
    readonly green: (s: string) => string;
    readonly yellow: (s: string) => string;
    readonly dim: (s: string) => string;
    readonly bold: (s: string) => string;
}

const code = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;

/** The palette for a stream: colour on a terminal unless NO_COLOR is set (any value), or when FORCE_COLOR is. */
export function palette(isTTY: boolean, env: NodeJS.ProcessEnv = process.env): Palette {
    const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
    const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0';
    if (noColor || (!isTTY && !force)) {
        const plain = (s: string) => s;
        return { red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
    }
    return { red: code(31, 39), green: code(32, 39), yellow: code(33, 39), dim: code(2, 22), bold: code(1, 22) };
}

function seconds(ms: number): string {
    return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function valueText(value: TestValue | JsonValue | undefined, type?: string): string {
    return value === undefined ? '(absent)' : formatCell(value as JsonValue, type);
}

/** One problem of an update, as lines (without indentation). */
export function problemLines(problem: UpdateProblem, p: Palette): string[] {
    switch (problem.kind) {
        case 'rows': {
            const { diff } = problem;
            if (diff.unknownColumns.length > 0) {
                return [`${p.bold(problem.dataset)} (line ${problem.line}): no column ${diff.unknownColumns.map(c => `'${c}'`).join(', ')}; its columns: ${diff.columns.map(c => c.name).join(', ')}`];
            }
            const head = `${p.bold(problem.dataset)} (line ${problem.line}): ${[
                diff.missing.length > 0 ? `${plural(diff.missing.length, 'expected row')} missing` : '',
                diff.unexpected.length > 0 ? `${plural(diff.unexpected.length, 'unexpected row')}` : '',
                problem.truncated ? 'more rows than a test reads' : '',
            ].filter(Boolean).join(', ')}${problem.ordered ? ' (in order)' : ''}`;
            const names = diff.columns.map(c => c.name);
            const cells = (row: Record<string, TestValue | JsonValue>, typed: boolean) => {
                const lower = new Map(Object.entries(row).map(([k, v]) => [k.toLowerCase(), v]));
                // Produced values show as run shows them (DECIMAL(10,2) 55.1 as 55.10); expected ones as written.
                return diff.columns.map(c => valueText(lower.get(c.name.toLowerCase()) ?? null, typed ? c.type : undefined));
            };
            const table = [
                { mark: ' ', values: names, colour: p.dim },
                ...diff.missing.map(r => ({ mark: '-', values: cells(r, false), colour: p.red })),
                ...diff.unexpected.map(r => ({ mark: '+', values: cells(r, true), colour: p.green })),
            ];
            const widths = names.map((_, i) => Math.max(...table.map(r => r.values[i].length)));
            const lines = table.map(r => r.colour(`${r.mark} ${r.values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd()}`));
            return [head, ...lines, p.dim(`  (- expected, not produced; + produced, not expected; compared on ${names.join(', ') || 'no column'})`)];
        }
        case 'dataset':
            return [`line ${problem.line}: ${problem.message}`];
        case 'metrics':
            return [`${p.bold(problem.dataset)} (line ${problem.line}): metric ${problem.path}: expected ${p.red(valueText(problem.expected))}, got ${p.green(valueText(problem.actual))}`];
        case 'error': {
            const at = problem.error?.file ? ` at ${problem.error.file}${problem.error.line !== undefined ? `:${problem.error.line}` : ''}` : '';
            return [`line ${problem.line}: ${problem.message}${at}`];
        }
    }
}

/** The report of one test file (a header, then each update with its problems). */
export function formatTestOutcome(outcome: TestOutcome, shownFile: string, p: Palette): string {
    const mark = outcome.status === 'passed' ? p.green('PASS') : outcome.status === 'failed' ? p.red('FAIL') : p.red('ERROR');
    let out = `${mark} ${shownFile} — ${outcome.name}${outcome.pipeline ? p.dim(` (pipeline ${outcome.pipeline})`) : ''} ${p.dim(seconds(outcome.durationMs))}\n`;
    if (outcome.error) {
        const e = outcome.error;
        out += `  ${e.file ? `${e.file}${e.line !== undefined ? `:${e.line}${e.column !== undefined ? `:${e.column}` : ''}` : ''}: ` : ''}${p.red(`error ${e.class}`)} ${e.message}\n`;
        return out;
    }
    for (const update of outcome.updates) {
        out += formatUpdate(update, p);
    }
    return out;
}

function formatUpdate(update: UpdateOutcome, p: Palette): string {
    if (update.status === 'skipped') {
        return `  ${p.yellow('-')} ${update.label} ${p.dim('not run: an earlier update failed')}\n`;
    }
    const mark = update.status === 'passed' ? p.green('✓') : p.red('✗');
    let out = `  ${mark} ${update.label} ${p.dim(seconds(update.durationMs))}\n`;
    for (const problem of update.problems) {
        out += problemLines(problem, p).map(l => `      ${l}\n`).join('');
    }
    return out;
}

/** The last line: how many tests and updates passed. */
export function formatSummary(outcomes: readonly TestOutcome[], durationMs: number, p: Palette): string {
    const passed = outcomes.filter(o => o.status === 'passed').length;
    const failed = outcomes.filter(o => o.status === 'failed').length;
    const errors = outcomes.filter(o => o.status === 'error').length;
    const updates = outcomes.flatMap(o => o.updates);
    const parts = [
        p.green(`${passed} passed`),
        ...(failed > 0 ? [p.red(`${failed} failed`)] : []),
        ...(errors > 0 ? [p.red(`${plural(errors, 'error')}`)] : []),
    ];
    return `${plural(outcomes.length, 'test')}: ${parts.join(', ')} (${plural(updates.filter(u => u.status === 'passed').length, 'update')} passed of ${updates.length}) in ${seconds(durationMs)}\n`;
}

/** The failure text of a test, as plain lines (JUnit failure bodies, editor messages). */
export function plainFailureText(outcome: TestOutcome): string {
    const p = palette(false, {});
    if (outcome.error) {
        const e = outcome.error;
        return `${e.file ? `${e.file}${e.line !== undefined ? `:${e.line}` : ''}: ` : ''}${e.class}: ${e.message}\n`;
    }
    return outcome.updates.map(u => formatUpdate(u, p)).join('');
}

function xml(text: string): string {
    // Characters XML 1.0 cannot hold at all are dropped; the rest are escaped.
     
    return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
        .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * JUnit XML: a test suite per pipeline, a test case per test file (its updates are steps: a failure
 * lists each update and, for the failing ones, the diff).
 */
export function junitXml(outcomes: readonly TestOutcome[], shownFile: (file: string) => string, durationMs: number): string {
    const suites = new Map<string, TestOutcome[]>();
    for (const outcome of outcomes) {
        const key = outcome.pipeline ?? '(no pipeline)';
        suites.set(key, [...(suites.get(key) ?? []), outcome]);
    }
    const count = (list: readonly TestOutcome[], status: TestOutcome['status']) => list.filter(o => o.status === status).length;
    const time = (ms: number) => (ms / 1000).toFixed(3);
    let out = '<?xml version="1.0" encoding="UTF-8"?>\n';
    out += `<testsuites name="pipeline-sql test" tests="${outcomes.length}" failures="${count(outcomes, 'failed')}" errors="${count(outcomes, 'error')}" time="${time(durationMs)}">\n`;
    for (const [pipeline, list] of suites) {
        const suiteTime = list.reduce((s, o) => s + o.durationMs, 0);
        out += `  <testsuite name="${xml(pipeline)}" tests="${list.length}" failures="${count(list, 'failed')}" errors="${count(list, 'error')}" skipped="0" time="${time(suiteTime)}">\n`;
        for (const o of list) {
            const file = shownFile(o.file);
            out += `    <testcase classname="${xml(pipeline)}" name="${xml(o.name)}" file="${xml(file)}" time="${time(o.durationMs)}"`;
            if (o.status === 'passed') {
                out += ' />\n';
                continue;
            }
            const body = xml(plainFailureText(o));
            if (o.status === 'error') {
                out += `>\n      <error type="${xml(o.error?.class ?? 'ERROR')}" message="${xml(o.error?.message ?? 'error')}">${body}</error>\n    </testcase>\n`;
            } else {
                const failing = o.updates.filter(u => u.status === 'failed');
                const message = `${failing.map(u => u.label).join(', ')} failed: ${failing.flatMap(u => u.problems.map(summary)).join('; ')}`;
                out += `>\n      <failure type="PIPELINE_SQL_TEST_FAILED" message="${xml(message)}">${body}</failure>\n    </testcase>\n`;
            }
        }
        out += '  </testsuite>\n';
    }
    return out + '</testsuites>\n';
}

/** A problem in a few words (JUnit's failure message, the editor's test message title). */
export function summary(problem: UpdateProblem): string {
    switch (problem.kind) {
        case 'rows':
            return problem.diff.unknownColumns.length > 0
                ? `${problem.dataset}: no column ${problem.diff.unknownColumns.join(', ')}`
                : `${problem.dataset}: ${problem.diff.missing.length} missing, ${problem.diff.unexpected.length} unexpected`;
        case 'dataset':
            return problem.message;
        case 'metrics':
            return `${problem.dataset}: ${problem.path} expected ${valueText(problem.expected)}, got ${valueText(problem.actual)}`;
        case 'error':
            return problem.message;
    }
}
