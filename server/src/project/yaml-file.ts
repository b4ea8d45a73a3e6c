/**
 * A project file read as YAML with positions: its value, its syntax errors as problems on their line,
 * and the place of any key or value for the problems the model finds later. A file that is not YAML
 * never throws: it is a problem, and the value is what could be read.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { ProjectProblem } from './project-types.js';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';

/** A path into a YAML document: map keys and sequence indexes. */
export type YamlPath = ReadonlyArray<string | number>;

/** The error class of a project file that is not valid YAML. */
export const InvalidProjectFileCode = ErrorClass.invalidProjectFile;

export class YamlFile {
    readonly value: unknown;
    readonly problems: ProjectProblem[] = [];
    private readonly document: Document.Parsed;
    private readonly lines = new LineCounter();

    constructor(readonly file: string, readonly text: string) {
        this.document = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: false });
        for (const error of this.document.errors) {
            const [start, end] = error.pos;
            const message = error.message.split('\n')[0].replace(/\s*at line \d+, column \d+:?\s*$/, '');
            this.problems.push(this.problemAtOffsets(start, Math.max(end, start + 1), InvalidProjectFileCode, 'error',
                `${baseName(file)} is not valid YAML: ${message}`));
        }
        let value: unknown;
        try {
            value = this.document.errors.length > 0 ? safeToJs(this.document) : this.document.toJS({ maxAliasCount: 100 });
        } catch (error) {
            // An alias bomb or a value yaml cannot build: the file is unusable, and says why.
            this.problems.push(this.problemAtOffsets(0, 1, InvalidProjectFileCode, 'error',
                `${baseName(file)} cannot be read: ${error instanceof Error ? error.message : String(error)}`));
            value = undefined;
        }
        this.value = value;
    }

    /** Whether the file has a syntax error (its value may then be partial). */
    get invalid(): boolean {
        return this.problems.some(p => p.code === InvalidProjectFileCode);
    }

    /** A problem on the key (`key: true`) or the value at a path; the file's first line when the path is not there. */
    problem(path: YamlPath, code: string, message: string, options: { key?: boolean; severity?: ProjectProblem['severity'] } = {}): ProjectProblem {
        const range = this.rangeOf(path, options.key === true) ?? [0, 1];
        return this.problemAtOffsets(range[0], Math.max(range[1], range[0] + 1), code, options.severity ?? 'error', message);
    }

    /** The 1-based line of the value at a path (of its key with `key`). */
    lineOf(path: YamlPath, key = false): number {
        const range = this.rangeOf(path, key);
        return range ? this.lines.linePos(range[0]).line : 1;
    }

    private rangeOf(path: YamlPath, key: boolean): [number, number] | undefined {
        let node: unknown = this.document.contents;
        let keyNode: YamlNode | undefined;
        for (const segment of path) {
            keyNode = undefined;
            if (isMap(node)) {
                const pair = node.items.find(item => isPair(item) && (isScalar(item.key) ? String(item.key.value) : String(item.key)) === String(segment));
                if (!pair) {
                    return undefined;
                }
                keyNode = isScalar(pair.key) ? pair.key : undefined;
                node = pair.value ?? pair.key;
            } else if (isSeq(node) && typeof segment === 'number') {
                node = node.items[segment];
            } else {
                return undefined;
            }
        }
        const target = key && keyNode ? keyNode : node;
        const range = (target as { range?: [number, number, number] } | undefined)?.range;
        return range ? [range[0], range[1]] : undefined;
    }

    private problemAtOffsets(start: number, end: number, code: string, severity: ProjectProblem['severity'], message: string): ProjectProblem {
        const from = this.lines.linePos(Math.min(start, this.text.length));
        const to = this.lines.linePos(Math.min(end, this.text.length));
        // A range that runs onto the next line ends at the end of the first one.
        const sameLine = to.line === from.line;
        return {
            file: this.file, line: from.line, column: from.col,
            endLine: from.line, endColumn: sameLine ? Math.max(to.col, from.col + 1) : from.col + lineLength(this.text, start),
            severity, code, message,
        };
    }
}

function lineLength(text: string, offset: number): number {
    const end = text.indexOf('\n', offset);
    return Math.max(1, (end < 0 ? text.length : end) - offset);
}

/** Whatever part of a broken document can be read. */
function safeToJs(document: Document.Parsed): unknown {
    try {
        return document.toJS({ maxAliasCount: 100 });
    } catch {
        // A document broken beyond reading has no value; its syntax errors are already problems.
        return undefined;
    }
}

function baseName(file: string): string {
    return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

/** Whether a value is a plain object (a YAML mapping). */
export function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
