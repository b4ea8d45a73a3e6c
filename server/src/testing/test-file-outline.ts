/**
 * Where things are in a pipeline test file (`*.test.yml`), for the editor: the key under the cursor
 * (hover), the mapping whose keys the cursor is typing (completion), and what the keys of a mapping
 * name there (a source table, a dataset, a column of one, an expectation). Pure: YAML text in,
 * positions and roles out; the language server adds what the pipeline knows.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { YamlPath } from '../project/yaml-file.js';

/** A key of the file with its full path (the path of its value) and its place (0-based offsets, end exclusive). */
export interface KeySite {
    readonly path: YamlPath;
    readonly start: number;
    readonly end: number;
    /** Written inside a flow mapping (`{a: 1, b: 2}`). */
    readonly flow: boolean;
    /** 0-based column of the key. */
    readonly column: number;
    /** Start offsets of the items when the key's value is a block list. */
    readonly items?: readonly number[];
}

/** The mapping whose keys the cursor is on or typing, and the text the key replaces. */
export interface KeyContext {
    /** The path of the mapping. */
    readonly container: YamlPath;
    /** What the completed key replaces (0-based offsets, end exclusive). */
    readonly start: number;
    readonly end: number;
    /** What is typed of the key so far. */
    readonly prefix: string;
}

/** What the keys of a mapping of a test file name. */
export type KeyRole =
    | { readonly kind: 'test' }
    | { readonly kind: 'update' }
    /** A source table the pipeline reads (under `inputs:` or `schemas:`). */
    | { readonly kind: 'source'; readonly under: 'inputs' | 'schemas' }
    /** A dataset of the pipeline (under `expect:` or `expect_metrics:`). */
    | { readonly kind: 'dataset'; readonly under: 'expect' | 'expect_metrics' }
    /** A column of a row of an input or of an expected dataset. */
    | { readonly kind: 'column'; readonly of: 'source' | 'dataset'; readonly table: string }
    /** The metrics of a dataset (`expectations`, `num_output_rows`, ...). */
    | { readonly kind: 'metrics'; readonly dataset: string }
    | { readonly kind: 'expectation'; readonly dataset: string };

/** The role of the keys of the mapping at a path, if they name anything. */
export function roleOfContainer(container: YamlPath): KeyRole | undefined {
    const [first, index, section, table, row, sub] = container;
    if (container.length === 0) {
        return { kind: 'test' };
    }
    if (first === 'schemas' && container.length === 1) {
        return { kind: 'source', under: 'schemas' };
    }
    if (first !== 'updates' || typeof index !== 'number') {
        return undefined;
    }
    switch (container.length) {
        case 2: return { kind: 'update' };
        case 3: return section === 'inputs' ? { kind: 'source', under: 'inputs' }
            : section === 'expect' || section === 'expect_metrics' ? { kind: 'dataset', under: section } : undefined;
        case 4: return section === 'expect_metrics' ? { kind: 'metrics', dataset: String(table) } : undefined;
        case 5:
            if (typeof row === 'number' && (section === 'inputs' || section === 'expect')) {
                return { kind: 'column', of: section === 'inputs' ? 'source' : 'dataset', table: String(table) };
            }
            return section === 'expect_metrics' && row === 'expectations' && sub === undefined ? { kind: 'expectation', dataset: String(table) } : undefined;
        default: return undefined;
    }
}

/** The keys of a test file and its flow mappings, read once per text. */
export class TestFileOutline {
    readonly keys: KeySite[] = [];
    private readonly flowMaps: Array<{ readonly path: YamlPath; readonly start: number; readonly end: number }> = [];
    private readonly lines = new LineCounter();

    constructor(readonly text: string) {
        const document = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: false });
        this.visit(document.contents, [], false);
    }

    /** The key under an offset (its last character counts: the cursor right after a name is on it). */
    keyAt(offset: number): KeySite | undefined {
        return this.keys.find(k => k.start <= offset && offset <= k.end);
    }

    /** The mapping whose key the cursor is on or is typing at an offset, if it is at a key's place. */
    contextAt(offset: number): KeyContext | undefined {
        const key = this.keyAt(offset);
        if (key) {
            return { container: key.path.slice(0, -1), start: key.start, end: key.end, prefix: this.text.slice(key.start, offset) };
        }
        const word = this.wordBefore(offset);
        const flow = this.flowMaps.filter(m => m.start < offset && offset < m.end).sort((a, b) => (a.end - a.start) - (b.end - b.start))[0];
        if (flow) {
            // In `{a: 1, b|}` a key follows `{` or `,`; after `:` it is a value.
            const before = this.text.slice(flow.start, word.start).trimEnd();
            return before.endsWith('{') || before.endsWith(',') ? { container: flow.path, start: word.start, end: word.end, prefix: word.text } : undefined;
        }
        const lineStart = this.text.lastIndexOf('\n', offset - 1) + 1;
        const typed = /^(\s*)((?:-\s+)*)([^\s:{}[\],#'"]*)$/.exec(this.text.slice(lineStart, offset));
        if (!typed) {
            return undefined;
        }
        const column = typed[1].length + typed[2].length;
        const newItem = typed[2].length > 0;
        // The enclosing key: the last block key before this line that is indented less.
        const parent = this.keys.filter(k => !k.flow && k.start < lineStart && k.column < column).at(-1);
        let container: YamlPath = parent ? parent.path : [];
        if (parent?.items) {
            const index = newItem ? parent.items.length : Math.max(0, parent.items.filter(start => start < offset).length - 1);
            container = [...container, index];
        }
        return { container, start: offset - typed[3].length, end: word.end, prefix: typed[3] };
    }

    /** 1-based line and column of an offset. */
    position(offset: number): { line: number; column: number } {
        const { line, col } = this.lines.linePos(offset);
        return { line, column: col };
    }

    private wordBefore(offset: number): { start: number; end: number; text: string } {
        let start = offset;
        while (start > 0 && /[\w.$`-]/.test(this.text[start - 1])) {
            start--;
        }
        let end = offset;
        while (end < this.text.length && /[\w.$`-]/.test(this.text[end])) {
            end++;
        }
        return { start, end, text: this.text.slice(start, offset) };
    }

    private visit(node: unknown, path: YamlPath, inFlow: boolean): void {
        if (isMap(node)) {
            const flow = inFlow || node.flow === true;
            const range = (node as YamlNode).range;
            if (node.flow && range) {
                this.flowMaps.push({ path, start: range[0], end: range[1] });
            }
            for (const pair of node.items) {
                if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) {
                    continue;
                }
                const name = String(pair.key.value);
                const [start, end] = pair.key.range;
                const value = pair.value;
                const items = isSeq(value) && !value.flow ? value.items.map(item => (item as YamlNode | null)?.range?.[0] ?? start) : undefined;
                this.keys.push({ path: [...path, name], start, end, flow, column: this.lines.linePos(start).col - 1, ...(items ? { items } : {}) });
                this.visit(value, [...path, name], flow);
            }
        } else if (isSeq(node)) {
            node.items.forEach((item, index) => this.visit(item, [...path, index], inFlow || node.flow === true));
        }
    }
}
