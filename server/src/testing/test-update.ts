/**
 * `pipeline-sql test --update`: rewrites the `expect` rows of failing updates from what the run
 * produced, through the YAML Document API so that the file's comments, key order and layout stay as
 * they were; only the rewritten lists change (one flow mapping per row).
 */
import { Document, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Node as YamlNode } from 'yaml';
import { ownValue, type JsonValue } from '../../../engine/src/index.js';
import type { TestOutcome } from './test-runner.js';

/** What an update of the file rewrote. */
export interface ExpectRewrite {
    readonly text: string;
    /** `update 2: users_history` for each list rewritten. */
    readonly rewritten: readonly string[];
}

/**
 * The test file's text with the failing `expect` lists replaced by the produced rows (on the columns
 * the test lists; every column when it lists none). Failures that rows cannot fix (an unknown
 * column, an error, a metric) are left as they are.
 */
export function rewriteExpectations(text: string, outcome: TestOutcome): ExpectRewrite {
    const document = parseDocument(text);
    const lines = new LineCounter();
    parseDocument(text, { lineCounter: lines });
    const edits: Array<{ start: number; end: number; text: string }> = [];
    const rewritten: string[] = [];
    // The rows written break lines as the file does (a CRLF file stays CRLF).
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    for (const update of outcome.updates) {
        for (const problem of update.problems) {
            if (problem.kind !== 'rows' || problem.diff.unknownColumns.length > 0 || problem.truncated) {
                continue;
            }
            const expect = document.getIn(['updates', update.index, 'expect'], true);
            if (!isMap(expect)) {
                continue;
            }
            const pair = expect.items.find(item => isScalar(item.key) && String(item.key.value) === problem.written);
            const key = pair?.key as YamlNode | undefined;
            const value = pair?.value as YamlNode | null | undefined;
            if (!key?.range) {
                continue;
            }
            const columns = problem.diff.columns.map(c => c.name);
            const rows = problem.diff.actual.map(row => rowText(row, columns));
            const keyColumn = lines.linePos(key.range[0]).col - 1;
            // A block list keeps its indentation; an empty or flow list becomes a block list under the key.
            const blockList = isSeq(value) && !value.flow && value.range;
            const indent = blockList ? lines.linePos(value.range![0]).col - 1 : keyColumn + 2;
            const body = rows.map((r, i) => `${i === 0 && blockList ? '' : ' '.repeat(indent)}- ${r}`).join(eol);
            if (blockList) {
                edits.push({ start: value.range![0], end: trimEnd(text, value.range![1]), text: rows.length > 0 ? body : '[]' });
            } else {
                // After the key's colon: everything up to the end of the old value (or of the key).
                // A comment after the old value stays on the key's line.
                const colon = text.indexOf(':', key.range[1]);
                const end = trimEnd(text, value?.range ? value.range[1] : colon + 1);
                const newline = text.indexOf('\n', end);
                const lineEnd = newline < 0 ? text.length : text[newline - 1] === '\r' ? newline - 1 : newline;
                const rest = text.slice(end, lineEnd).trimEnd();
                edits.push({ start: colon + 1, end: lineEnd, text: rows.length > 0 ? `${rest}${eol}${body}` : ` []${rest}` });
            }
            rewritten.push(`${update.label}: ${problem.written}`);
        }
    }
    let out = text;
    for (const edit of edits.sort((a, b) => b.start - a.start)) {
        out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    }
    return { text: out, rewritten };
}

/** The offset after a node without the line breaks and spaces that follow it. */
function trimEnd(text: string, end: number): number {
    let e = end;
    while (e > 0 && /\s/.test(text[e - 1])) {
        e--;
    }
    return e;
}

/** One row as a one-line flow mapping; text that YAML 1.1 readers would take for a date or number is quoted. */
export function rowText(row: Readonly<Record<string, JsonValue>>, columns: readonly string[]): string {
    const document = new Document(Object.fromEntries(columns.map(c => [c, ownValue(row, c) ?? null])));
    visit(document, {
        Scalar(_key, node) {
            if (typeof node.value === 'string' && (/^[\d.+-]/.test(node.value) || /[:#]/.test(node.value))) {
                node.type = 'QUOTE_DOUBLE';
            }
        },
    });
    if (isMap(document.contents)) {
        document.contents.flow = true;
    }
    return document.toString({ flowCollectionPadding: false, lineWidth: 0 }).trimEnd();
}
