/**
 * What a pipeline's Python file defines, read from its text without running Python: the datasets of
 * `@dp.table` / `@dlt.table`, `@dp.materialized_view`, `@dp.temporary_view` / `@dlt.view`,
 * `dp.create_streaming_table(...)` and `dp.create_sink(...)`; the flows of `@dp.append_flow`,
 * `dp.create_auto_cdc_flow(...)` (`dlt.apply_changes`) and `create_auto_cdc_from_snapshot_flow`;
 * their names, `comment=`, `schema=` DDL (parsed by the project's Spark type parser), and what each
 * query function reads (`spark.read.table("x")`, `spark.readStream.table("x")`, `dp.read("x")`,
 * `dlt.read_stream("x")`, `spark.table("x")`).
 *
 * Only what is written literally counts. A name built at run time (an f-string, a variable, a
 * definition inside a loop or a function that may run any number of times) is reported in `skipped`
 * as not statically known and never guessed.
 */
import { parseSchema, type StructField } from '../../../../engine/src/spark/spark-types.js';
import { tokenizePython, type PythonPosition, type PythonToken, type PythonTokens } from './python-tokenizer.js';

//#region Result types

/** A range of the file (0-based lines and UTF-16 columns, end exclusive). */
export interface PythonRange {
    readonly start: PythonPosition;
    readonly end: PythonPosition;
}

/** The dataset kinds a Python file can define (the names the SQL pipeline model uses). */
export type PythonDatasetKind = 'streaming-table' | 'materialized-view' | 'temporary-view' | 'sink';

/** The flow kinds a Python file can define (the names the SQL pipeline model uses). */
export type PythonFlowKind = 'append' | 'append-once' | 'materialized-view' | 'view' | 'auto-cdc' | 'auto-cdc-once'
    | 'snapshot' | 'snapshot-once' | 'replace-using';

/** A dataset a query function reads. */
export interface PythonRead {
    /** The table name as written (`"bronze"`, `"LIVE.bronze"`, `"main.raw.orders"`). */
    readonly name: string;
    /** Read as a stream (`spark.readStream.table`, `dlt.read_stream`, an AUTO CDC source). */
    readonly streaming: boolean;
    /** The call as written, for messages (`spark.readStream.table`). */
    readonly call: string;
    /** The range of the name's string literal. */
    readonly range: PythonRange;
}

/** A `schema=` argument. */
export interface PythonSchema {
    /** The DDL text (`"id BIGINT, name STRING"`). */
    readonly ddl: string;
    /** The columns, when the DDL parses. */
    readonly columns?: readonly StructField[];
    /** Why the DDL does not parse. */
    readonly error?: string;
}

export interface PythonDataset {
    /** The dataset name as written: `name=`, else the function's name (for calls, their name argument). */
    readonly name: string;
    readonly kind: PythonDatasetKind;
    /** The API call that defines it, as the file writes it (`@dp.table`, `dlt.create_streaming_table`). */
    readonly api: string;
    /** The name: the string literal of `name=` (or of the first argument of a call), else the function's name. */
    readonly range: PythonRange;
    /** The whole decorator or call, for selection. */
    readonly definitionRange: PythonRange;
    /** The decorated query function (undefined for `create_streaming_table` / `create_sink`). */
    readonly functionName?: string;
    readonly comment?: string;
    readonly schema?: PythonSchema;
    /** `private=True` / `temporary=True`: not published to the catalog. */
    readonly private: boolean;
    /** For `@table`: why it is a streaming table or a materialized view (Databricks decides by the query). */
    readonly kindReason?: string;
}

export interface PythonFlow {
    /** The flow name: `name=`, else the function's name (decorators) or the target's name (AUTO CDC calls). */
    readonly name: string;
    readonly kind: PythonFlowKind;
    readonly api: string;
    /** The dataset written, as written. */
    readonly target: string;
    /** True for the query function of a dataset decorator (the dataset's own flow). */
    readonly inline: boolean;
    readonly range: PythonRange;
    readonly definitionRange: PythonRange;
    /** What the flow reads, where it can be read statically. */
    readonly reads: readonly PythonRead[];
    /** AUTO CDC: `keys=`, `sequence_by=` (as written), `stored_as_scd_type=`. */
    readonly keys?: readonly string[];
    readonly sequenceBy?: string;
    readonly scdType?: 1 | 2 | 'bitemporal';
}

/** A definition whose name (or a read whose table) cannot be known without running Python. */
export interface PythonSkipped {
    readonly what: 'dataset' | 'flow' | 'read';
    readonly api: string;
    readonly range: PythonRange;
    /** A sentence saying why: `Its name is an f-string.` */
    readonly reason: string;
}

/** Everything the reader found in one file. */
export interface PythonFileDefinitions {
    readonly datasets: readonly PythonDataset[];
    readonly flows: readonly PythonFlow[];
    readonly skipped: readonly PythonSkipped[];
    /** The file imports a pipelines module (`dlt`, `pyspark.pipelines`). */
    readonly importsPipelines: boolean;
}

export interface PythonReadOptions {
    /**
     * How `@table` decides its kind: `databricks` (a streaming table when its query reads a stream,
     * else a materialized view, as Databricks does) or `spark` (always a streaming table, as Apache
     * Spark's `pyspark.pipelines` does). Default `databricks`.
     */
    readonly tableRule?: 'databricks' | 'spark';
}

//#endregion

//#region The pipelines API

type ApiRole =
    | { readonly role: 'dataset-decorator'; readonly kind: 'table' | 'materialized-view' | 'temporary-view' }
    | { readonly role: 'flow-decorator'; readonly kind: 'append' | 'replace-using' }
    | { readonly role: 'create-table' | 'create-sink' | 'auto-cdc' | 'snapshot' }
    | { readonly role: 'read'; readonly streaming: boolean }
    | { readonly role: 'other' };

/** The functions of `dlt` and `pyspark.pipelines` the reader knows (older `dlt` names included). */
const API = new Map<string, ApiRole>([
    ['table', { role: 'dataset-decorator', kind: 'table' }],
    ['create_table', { role: 'dataset-decorator', kind: 'table' }],
    ['materialized_view', { role: 'dataset-decorator', kind: 'materialized-view' }],
    ['temporary_view', { role: 'dataset-decorator', kind: 'temporary-view' }],
    ['view', { role: 'dataset-decorator', kind: 'temporary-view' }],
    ['create_view', { role: 'dataset-decorator', kind: 'temporary-view' }],
    ['append_flow', { role: 'flow-decorator', kind: 'append' }],
    ['replace_flow', { role: 'flow-decorator', kind: 'replace-using' }],
    ['create_streaming_table', { role: 'create-table' }],
    ['create_target_table', { role: 'create-table' }],
    ['create_streaming_live_table', { role: 'create-table' }],
    ['create_sink', { role: 'create-sink' }],
    ['create_auto_cdc_flow', { role: 'auto-cdc' }],
    ['apply_changes', { role: 'auto-cdc' }],
    ['create_auto_cdc_from_snapshot_flow', { role: 'snapshot' }],
    ['apply_changes_from_snapshot', { role: 'snapshot' }],
    ['read', { role: 'read', streaming: false }],
    ['read_stream', { role: 'read', streaming: true }],
    ...['expect', 'expect_or_drop', 'expect_or_fail', 'expect_all', 'expect_all_or_drop', 'expect_all_or_fail']
        .map(name => [name, { role: 'other' }] as [string, ApiRole]),
]);

/** The modules that hold the pipelines API, by their dotted path. */
const API_MODULES = new Map([['dlt', 'dlt'], ['pyspark.pipelines', 'dp']]);

//#endregion

//#region Reading

/** A parsed call's argument: its keyword (`name=`; `*` / `**` when unpacked) and its value's tokens. */
interface Argument {
    readonly keyword?: string;
    readonly first: number;
    readonly last: number;
}

/** A static value, where the tokens spell one. */
type StaticValue =
    | { readonly type: 'string'; readonly value: string; readonly range: PythonRange }
    | { readonly type: 'number'; readonly value: number }
    | { readonly type: 'bool'; readonly value: boolean }
    | { readonly type: 'none' }
    | { readonly type: 'list'; readonly items: readonly StaticValue[] }
    | { readonly type: 'other'; readonly reason: string };

/** A name argument: given as a plain string, absent, or not statically known (with why). */
type NameArgument =
    | { readonly kind: 'given'; readonly value: string; readonly range: PythonRange }
    | { readonly kind: 'absent' }
    | { readonly kind: 'unknown'; readonly reason: string };

/** Compound statements whose body may run any number of times: a definition in it has no static identity. */
const REPEATING = new Set(['def', 'async', 'class', 'for', 'while']);
const COMPOUND = new Set(['def', 'async', 'class', 'for', 'while', 'if', 'elif', 'else', 'try', 'except', 'finally', 'with', 'match', 'case']);

/** An open compound statement while walking the lines. */
interface Block {
    readonly indent: number;
    readonly keyword: string;
    /** A `def` / `class`: its name token. */
    readonly nameToken?: number;
    /** The body's tokens: from after the header's colon to the block's last line (set when it ends). */
    readonly bodyFirst: number;
    bodyLast: number;
    /** The API decorators standing on this `def`. */
    readonly decorators: readonly Decorator[];
    /** The repeating statement the block is in (`for t in tables`), if any. */
    readonly outer?: string;
    /** The repeating statement its body is in: its own when it repeats, else `outer`. */
    readonly inner?: string;
}

interface Decorator {
    /** The `@` token and the decorator line's last token. */
    readonly at: number;
    readonly last: number;
    readonly api: ResolvedApi;
    /** The `(` of `@dp.table(...)`, when it is called. */
    readonly open?: number;
}

interface ResolvedApi {
    /** The function (`table`) and how the file wrote the call (`dp.table`). */
    readonly name: string;
    readonly written: string;
}

/** A read call found in the file, at token `at`. */
interface FoundRead {
    readonly at: number;
    readonly read?: PythonRead;
    readonly skipped?: PythonSkipped;
}

/** Reader methods that may stand between `spark.read` / `spark.readStream` and `.table(...)`. */
const READER_OPTIONS = new Set(['option', 'options', 'format', 'schema']);
/** Method names that may end a read call. */
const READ_METHODS = new Set(['table', 'changes', 'read', 'read_stream']);

class DefinitionReader {
    private readonly tokens: readonly PythonToken[];
    private readonly lines: PythonTokens['lines'];
    /** For each token, the index of the last token of its logical line. */
    private readonly lineEnd: Int32Array;
    /** Module aliases (`dp`, `dlt`, `pyspark.pipelines`) and directly imported API functions (`table`). */
    private readonly modules = new Map<string, string>();
    private readonly functionsImported = new Map<string, string>();

    private readonly datasets: PythonDataset[] = [];
    private readonly flows: PythonFlow[] = [];
    private readonly skipped: PythonSkipped[] = [];
    /** Every read call of the file, in token order. */
    private readonly reads: FoundRead[] = [];
    private readonly reportedReads = new Set<FoundRead>();
    /** Tokens that mark a streaming read (`readStream`, `read_stream(`), in order. */
    private readonly streamMarks: number[] = [];
    /** Top-level `def`s by name with their body's tokens (a snapshot flow's source may name one). */
    private readonly functions = new Map<string, { readonly first: number; readonly last: number }>();
    /** AUTO CDC calls, read once every function is known. */
    private readonly cdcCalls: Array<() => void> = [];

    constructor(source: PythonTokens, private readonly text: string, private readonly options: PythonReadOptions) {
        this.tokens = source.tokens;
        this.lines = source.lines;
        this.lineEnd = new Int32Array(this.tokens.length);
        for (const line of this.lines) {
            this.lineEnd.fill(line.last, line.first, line.last + 2);
        }
    }

    run(): PythonFileDefinitions {
        const importsPipelines = this.readImports();
        if (importsPipelines) {
            this.findReads();
            this.walkLines();
            for (const call of this.cdcCalls) {
                call();
            }
            // Definitions are read when their block ends; report them in the order of the file.
            const byPosition = (a: { definitionRange: PythonRange }, b: { definitionRange: PythonRange }): number =>
                a.definitionRange.start.line - b.definitionRange.start.line || a.definitionRange.start.column - b.definitionRange.start.column;
            this.datasets.sort(byPosition);
            this.flows.sort(byPosition);
            this.skipped.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
        }
        return { datasets: this.datasets, flows: this.flows, skipped: this.skipped, importsPipelines };
    }

    //#region Tokens

    private isOp(i: number, text: string): boolean {
        const t = this.tokens[i];
        return t !== undefined && t.kind === 'op' && t.text === text;
    }

    private isWord(i: number, text: string): boolean {
        const t = this.tokens[i];
        return t !== undefined && t.kind === 'name' && t.text === text;
    }

    private isName(i: number): boolean {
        return this.tokens[i]?.kind === 'name';
    }

    /** The range from token `first`'s start to token `last`'s end. */
    private range(first: number, last: number): PythonRange {
        const a = this.tokens[first];
        const b = this.tokens[last];
        let line = b.line;
        let column = b.column + b.text.length;
        // A token spanning lines (a triple-quoted string) ends on a later line.
        const breaks = b.text.match(/\r\n|\r|\n/g);
        if (breaks) {
            line += breaks.length;
            column = b.text.length - Math.max(b.text.lastIndexOf('\n'), b.text.lastIndexOf('\r')) - 1;
        }
        return { start: { line: a.line, column: a.column }, end: { line, column } };
    }

    private textOf(first: number, last: number): string {
        return last < first ? '' : this.text.slice(this.tokens[first].start, this.tokens[last].end);
    }

    /** A dotted name `a.b.c` starting at token `i`: its parts and the index after it. */
    private dotted(i: number): { parts: string[]; next: number } | undefined {
        if (!this.isName(i)) {
            return undefined;
        }
        const parts = [this.tokens[i].text];
        let j = i + 1;
        while (this.isOp(j, '.') && this.isName(j + 1)) {
            parts.push(this.tokens[j + 1].text);
            j += 2;
        }
        return { parts, next: j };
    }

    /** The dotted name that ends at token `i` (`dlt.read` for `read`): its parts, first part first. */
    private dottedEndingAt(i: number): string[] {
        const parts = [this.tokens[i].text];
        let j = i;
        while (this.isOp(j - 1, '.') && this.isName(j - 2)) {
            parts.push(this.tokens[j - 2].text);
            j -= 2;
        }
        return parts.reverse();
    }

    /** Resolves a dotted name to a pipelines API function (`dp.table`, or `table` imported from one). */
    private resolve(parts: readonly string[]): ResolvedApi | undefined {
        const written = parts.join('.');
        if (parts.length === 1) {
            const name = this.functionsImported.get(parts[0]);
            return name !== undefined && API.has(name) ? { name, written } : undefined;
        }
        const name = parts[parts.length - 1];
        return this.modules.has(parts.slice(0, -1).join('.')) && API.has(name) ? { name, written } : undefined;
    }

    /** The arguments of the call whose `(` is token `open`, split on its top-level commas. */
    private argumentsOf(open: number): Argument[] {
        const match = this.tokens[open].match ?? -1;
        const end = match > open ? match : this.lineEnd[open] + 1;
        const args: Argument[] = [];
        let start = open + 1;
        const flush = (last: number): void => {
            if (last < start) {
                return;
            }
            if (this.isOp(start, '*') || this.isOp(start, '**')) {
                args.push({ keyword: this.tokens[start].text, first: start + 1, last });
            } else if (this.isName(start) && this.isOp(start + 1, '=')) {
                args.push({ keyword: this.tokens[start].text, first: start + 2, last });
            } else {
                args.push({ first: start, last });
            }
        };
        for (let j = open + 1; j < end; j++) {
            const partner = this.tokens[j].match;
            if (partner !== undefined && partner > j) {
                j = partner;
            } else if (this.isOp(j, ',')) {
                flush(j - 1);
                start = j + 1;
            }
        }
        flush(end - 1);
        return args;
    }

    /**
     * The static value tokens `[first, last]` spell: (implicitly concatenated) plain strings, an
     * integer, `True` / `False` / `None`, or a list or tuple of those (`col("x")` counts as `"x"`).
     * Lists nest one level only, so a hostile file cannot make this recurse.
     */
    private valueOf(first: number, last: number, list = true): StaticValue {
        // `("a" "b")` is a parenthesised string, not a tuple: unwrap parentheses without a comma.
        while (this.isOp(first, '(') && this.tokens[first].match === last && last - first > 1 && !this.isOp(last - 1, ',')
            && this.argumentsOf(first).length === 1) {
            first++;
            last--;
        }
        if (last < first) {
            return { type: 'other', reason: 'it is empty' };
        }
        const t = this.tokens[first];
        if (t.kind === 'string') {
            let value = '';
            for (let k = first; k <= last; k++) {
                const info = this.tokens[k].string;
                if (!info) {
                    return { type: 'other', reason: 'it is an expression, not a plain string' };
                }
                if (!info.terminated) {
                    return { type: 'other', reason: 'its string is not terminated' };
                }
                if (info.value === undefined) {
                    return { type: 'other', reason: 'it is an f-string' };
                }
                if (info.bytes) {
                    return { type: 'other', reason: 'it is a bytes literal' };
                }
                value += info.value;
            }
            return { type: 'string', value, range: this.range(first, last) };
        }
        if (first === last && t.kind === 'number' && /^\d+$/.test(t.text)) {
            return { type: 'number', value: Number(t.text) };
        }
        if (first === last && t.kind === 'name') {
            switch (t.text) {
                case 'True': return { type: 'bool', value: true };
                case 'False': return { type: 'bool', value: false };
                case 'None': return { type: 'none' };
                default: return { type: 'other', reason: `it is the variable \`${t.text}\`` };
            }
        }
        if (list && (this.isOp(first, '[') || this.isOp(first, '(')) && t.match === last) {
            const items: StaticValue[] = [];
            for (const arg of this.argumentsOf(first)) {
                items.push(arg.keyword === undefined ? this.columnValue(arg.first, arg.last) : { type: 'other', reason: 'it is an expression' });
            }
            return { type: 'list', items };
        }
        const callee = this.dotted(first);
        if (callee && callee.next < last && this.isOp(callee.next, '(') && this.tokens[callee.next].match === last) {
            return { type: 'other', reason: `it is computed by \`${callee.parts.join('.')}(...)\`` };
        }
        return { type: 'other', reason: 'it is an expression, not a plain string' };
    }

    /** A column: a string, or `col("x")` / `F.col("x")` holding one. */
    private columnValue(first: number, last: number): StaticValue {
        const callee = this.dotted(first);
        const fn = callee?.parts[callee.parts.length - 1];
        if (callee && (fn === 'col' || fn === 'column') && this.isOp(callee.next, '(') && this.tokens[callee.next].match === last) {
            const [arg] = this.argumentsOf(callee.next);
            return arg ? this.valueOf(arg.first, arg.last, false) : { type: 'other', reason: 'it is empty' };
        }
        return this.valueOf(first, last, false);
    }

    //#endregion

    //#region Imports

    /**
     * Reads the import statements (on any line: imports inside `try:` count too): `import dlt [as d]`,
     * `import pyspark.pipelines [as dp]`, `from pyspark import pipelines [as dp]`,
     * `from dlt import table [as t], *`. Returns whether a pipelines module is imported.
     */
    private readImports(): boolean {
        let found = false;
        for (const line of this.lines) {
            const i = line.first;
            if (this.isWord(i, 'import')) {
                for (const item of this.commaList(i + 1, line.last)) {
                    const path = this.dotted(item.first);
                    const full = path?.parts.join('.');
                    const module = full !== undefined ? API_MODULES.get(full) : undefined;
                    if (path && full !== undefined && module !== undefined) {
                        found = true;
                        this.modules.set(this.isWord(path.next, 'as') && this.isName(path.next + 1) ? this.tokens[path.next + 1].text : full, module);
                    }
                }
            } else if (this.isWord(i, 'from')) {
                const path = this.dotted(i + 1);
                if (!path || !this.isWord(path.next, 'import')) {
                    continue;
                }
                const from = path.parts.join('.');
                let first = path.next + 1;
                let last = line.last;
                const close = this.tokens[first]?.match ?? -1;
                if (this.isOp(first, '(') && close > first) {
                    last = close - 1;
                    first++;
                }
                const module = API_MODULES.get(from);
                for (const item of this.commaList(first, last)) {
                    const t = this.tokens[item.first];
                    const alias = this.isWord(item.first + 1, 'as') && this.isName(item.first + 2) ? this.tokens[item.first + 2].text : undefined;
                    if (module !== undefined && this.isOp(item.first, '*')) {
                        found = true;
                        for (const name of API.keys()) {
                            this.functionsImported.set(name, name);
                        }
                    } else if (module !== undefined && t.kind === 'name') {
                        found = true;
                        this.functionsImported.set(alias ?? t.text, t.text);
                    } else if (t.kind === 'name' && API_MODULES.has(`${from}.${t.text}`)) {
                        found = true;
                        this.modules.set(alias ?? t.text, API_MODULES.get(`${from}.${t.text}`)!);
                    }
                }
            }
        }
        return found;
    }

    /** Tokens `[first, last]` split on commas. */
    private commaList(first: number, last: number): Array<{ first: number; last: number }> {
        const items: Array<{ first: number; last: number }> = [];
        let start = first;
        for (let j = first; j <= last + 1; j++) {
            if (j > last || this.isOp(j, ',')) {
                if (j > start) {
                    items.push({ first: start, last: j - 1 });
                }
                start = j + 1;
            }
        }
        return items;
    }

    //#endregion

    //#region Reads

    /** Finds every read call of the file, in token order (one pass). */
    private findReads(): void {
        for (let i = 0; i < this.tokens.length; i++) {
            const t = this.tokens[i];
            if (t.kind !== 'name') {
                continue;
            }
            if (t.text === 'readStream' && this.isOp(i - 1, '.')) {
                this.streamMarks.push(i);
            }
            if (!this.isOp(i + 1, '(') || !READ_METHODS.has(this.functionsImported.get(t.text) ?? t.text)) {
                continue;
            }
            const found = this.readAt(i);
            if (found?.streaming && this.streamMarks[this.streamMarks.length - 1] !== i) {
                this.streamMarks.push(i);
            }
            if (found?.read || found?.skipped) {
                this.reads.push({ at: i, read: found.read, skipped: found.skipped });
            }
        }
    }

    /**
     * The read whose method name is token `i` (followed by `(`): `<reader>.table(...)` where the
     * reader is `X.read` / `X.readStream` with optional `.option(...)` / `.format(...)` calls between,
     * `spark.table(...)`, or the API's `dp.read(...)` / `dlt.read_stream(...)` / an imported `read(...)`.
     */
    private readAt(i: number): { read?: PythonRead; skipped?: PythonSkipped; streaming: boolean } | undefined {
        const method = this.tokens[i].text;
        let call: string;
        let streaming: boolean;
        if ((method === 'table' || method === 'changes') && this.isOp(i - 1, '.')) {
            // Walk back over `.option(...)` calls to the reader (each chain is walked once).
            let j = i - 2;
            while (this.isOp(j, ')')) {
                const open = this.tokens[j].match ?? -1;
                if (open < 0 || !this.isName(open - 1) || !READER_OPTIONS.has(this.tokens[open - 1].text) || !this.isOp(open - 2, '.')) {
                    return undefined;
                }
                j = open - 3;
            }
            const reader = this.isName(j) ? this.tokens[j].text : undefined;
            if ((reader === 'read' || reader === 'readStream') && this.isOp(j - 1, '.') && this.isName(j - 2)) {
                streaming = reader === 'readStream';
                call = `${this.tokens[j - 2].text}.${reader}.${method}`;
            } else if (method === 'table' && reader === 'spark' && j === i - 2) {
                streaming = false;
                call = 'spark.table';
            } else {
                return undefined;
            }
        } else {
            const parts = this.dottedEndingAt(i);
            const api = this.resolve(parts);
            const role = api ? API.get(api.name) : undefined;
            if (!api || role?.role !== 'read') {
                return undefined;
            }
            streaming = role.streaming;
            call = api.written;
        }
        const open = i + 1;
        const args = this.argumentsOf(open);
        const nameArg = args.find(a => a.keyword === undefined) ?? args.find(a => a.keyword === 'name' || a.keyword === 'tableName');
        if (!nameArg) {
            return { streaming };
        }
        const value = this.valueOf(nameArg.first, nameArg.last, false);
        if (value.type !== 'string') {
            const reason = value.type === 'other' ? value.reason : 'it is not a string';
            return { streaming, skipped: { what: 'read', api: call, range: this.range(nameArg.first, nameArg.last), reason: `The table name is not statically known: ${reason}.` } };
        }
        return { streaming, read: { name: value.value, streaming, call, range: value.range } };
    }

    /** The reads between tokens `[first, last]`, and whether the code there reads a stream. */
    private readsIn(first: number, last: number): { reads: PythonRead[]; streams: boolean } {
        const reads: PythonRead[] = [];
        for (let k = lowerBound(this.reads.length, k => this.reads[k].at, first); k < this.reads.length && this.reads[k].at <= last; k++) {
            const found = this.reads[k];
            if (found.read) {
                reads.push(found.read);
            } else if (found.skipped && !this.reportedReads.has(found)) {
                this.reportedReads.add(found);
                this.skipped.push(found.skipped);
            }
        }
        const mark = lowerBound(this.streamMarks.length, k => this.streamMarks[k], first);
        return { reads, streams: mark < this.streamMarks.length && this.streamMarks[mark] <= last };
    }

    //#endregion

    //#region Lines and blocks

    /**
     * Walks the logical lines with a stack of open compound statements (indentation decides where a
     * block ends), collecting decorators and the calls that define datasets and flows.
     */
    private walkLines(): void {
        const blocks: Block[] = [];
        let decorators: Decorator[] = [];
        let previousLast = -1;
        const closeBlocks = (indent: number): void => {
            while (blocks.length > 0 && blocks[blocks.length - 1].indent >= indent) {
                const block = blocks.pop()!;
                block.bodyLast = Math.max(block.bodyLast, previousLast);
                this.endBlock(block);
            }
        };
        for (const line of this.lines) {
            closeBlocks(line.indent);
            const context = blocks[blocks.length - 1]?.inner;
            const first = line.first;
            previousLast = line.last;
            if (this.isOp(first, '@')) {
                const decorator = this.decoratorAt(first, line.last);
                if (decorator) {
                    decorators.push(decorator);
                }
                continue;
            }
            const keyword = this.isName(first) && COMPOUND.has(this.tokens[first].text) ? this.tokens[first].text : undefined;
            const colon = keyword !== undefined ? this.headerColon(first, line.last) : -1;
            if (keyword === undefined || colon < 0) {
                decorators = [];
                this.scanCalls(first, line.last, context);
                continue;
            }
            const defAt = keyword === 'async' ? first + 1 : first;
            const isDef = this.isWord(defAt, 'def');
            const named = isDef || keyword === 'class';
            const own = REPEATING.has(keyword) ? this.headerText(first, colon) : undefined;
            blocks.push({
                indent: line.indent, keyword: isDef ? 'def' : keyword, nameToken: named && this.isName(defAt + 1) ? defAt + 1 : undefined,
                bodyFirst: colon + 1, bodyLast: line.last, decorators: isDef ? decorators : [], outer: context, inner: context ?? own,
            });
            decorators = [];
            if (!named) {
                // A compound header's own line may hold a statement after its colon (`for t in x: f(t)`).
                this.scanCalls(colon + 1, line.last, context ?? own);
            }
        }
        closeBlocks(-1);
    }

    /** A compound statement's header for messages (`for region in regions`), shortened when long. */
    private headerText(first: number, colon: number): string {
        const text = this.textOf(first, colon - 1).replace(/\s+/g, ' ');
        return text.length > 60 ? `${text.slice(0, 57)}...` : text;
    }

    /** The `:` that ends a compound statement's header on tokens `[first, last]` (outside brackets), or -1. */
    private headerColon(first: number, last: number): number {
        for (let j = first; j <= last; j++) {
            const partner = this.tokens[j].match;
            if (partner !== undefined && partner > j) {
                j = partner;
            } else if (this.isOp(j, ':')) {
                return j;
            }
        }
        return -1;
    }

    /** `@dotted.name` or `@dotted.name(...)`: a pipelines API decorator, if it is one. */
    private decoratorAt(at: number, last: number): Decorator | undefined {
        const callee = this.dotted(at + 1);
        const api = callee ? this.resolve(callee.parts) : undefined;
        if (!callee || !api) {
            return undefined;
        }
        return { at, last, api, open: this.isOp(callee.next, '(') ? callee.next : undefined };
    }

    /** A finished block: a top-level `def` is remembered by name, and its API decorators are read. */
    private endBlock(block: Block): void {
        if (block.keyword !== 'def' || block.nameToken === undefined) {
            return;
        }
        const name = this.tokens[block.nameToken].text;
        if (block.outer === undefined && !this.functions.has(name)) {
            this.functions.set(name, { first: block.bodyFirst, last: block.bodyLast });
        }
        for (const decorator of block.decorators) {
            this.readDecorator(decorator, block, name);
        }
    }

    //#endregion

    //#region Decorators

    private readDecorator(decorator: Decorator, block: Block, functionName: string): void {
        const role = API.get(decorator.api.name);
        if (role?.role !== 'dataset-decorator' && role?.role !== 'flow-decorator') {
            return;
        }
        const api = `@${decorator.api.written}`;
        const args = decorator.open !== undefined ? this.argumentsOf(decorator.open) : [];
        const definitionRange = this.range(decorator.at, decorator.last);
        const what = role.role === 'dataset-decorator' ? 'dataset' : 'flow';
        if (block.outer !== undefined) {
            this.skipped.push({
                what, api, range: definitionRange,
                reason: `It is defined inside \`${block.outer}\`, which may run any number of times, so its name is not statically known.`,
            });
            return;
        }
        const named = this.nameArgument(args, 'name');
        if (named.kind === 'unknown') {
            this.skipped.push({ what, api, range: definitionRange, reason: `Its name is not statically known: ${named.reason}.` });
            return;
        }
        const name = named.kind === 'given' ? named.value : functionName;
        const range = named.kind === 'given' ? named.range : this.range(block.nameToken!, block.nameToken!);
        const { reads, streams } = this.readsIn(block.bodyFirst, block.bodyLast);
        if (role.role === 'flow-decorator') {
            const target = this.nameArgument(args, 'target');
            if (target.kind !== 'given') {
                const reason = target.kind === 'unknown' ? `Its target is not statically known: ${target.reason}.` : 'It has no `target=`.';
                this.skipped.push({ what: 'flow', api, range: definitionRange, reason });
                return;
            }
            const kind: PythonFlowKind = role.kind === 'replace-using' ? 'replace-using' : this.boolArgument(args, 'once') ? 'append-once' : 'append';
            this.flows.push({ name, kind, api, target: target.value, inline: false, range, definitionRange, reads });
            return;
        }
        let kind: PythonDatasetKind;
        let kindReason: string | undefined;
        if (role.kind === 'table') {
            if (this.options.tableRule === 'spark') {
                kind = 'streaming-table';
                kindReason = 'Apache Spark\'s `@table` always defines a streaming table.';
            } else {
                kind = streams ? 'streaming-table' : 'materialized-view';
                kindReason = streams ? 'Its query reads a stream.' : 'Its query reads no stream, so Databricks makes it a materialized view.';
            }
        } else {
            kind = role.kind;
        }
        const comment = this.stringArgument(args, 'comment');
        this.datasets.push({
            name, kind, api, range, definitionRange, functionName,
            private: kind === 'temporary-view' || this.boolArgument(args, 'private') || this.boolArgument(args, 'temporary'),
            ...(comment !== undefined ? { comment } : {}),
            ...(kind !== 'temporary-view' ? this.schemaArgument(args) : {}),
            ...(kindReason !== undefined ? { kindReason } : {}),
        });
        const flowKind: PythonFlowKind = kind === 'streaming-table' ? 'append' : kind === 'materialized-view' ? 'materialized-view' : 'view';
        this.flows.push({ name, kind: flowKind, api, target: name, inline: true, range, definitionRange, reads });
    }

    //#endregion

    //#region Calls

    /**
     * Finds the definition calls on the tokens `[first, last]` of a statement: `create_streaming_table`,
     * `create_sink`, `create_auto_cdc_flow` / `apply_changes` and the snapshot flow.
     */
    private scanCalls(first: number, last: number, context: string | undefined): void {
        for (let j = first; j <= last; j++) {
            if (!this.isName(j) || this.isOp(j - 1, '.')) {
                continue;
            }
            const start = j;
            const callee = this.dotted(j)!;
            const api = this.isOp(callee.next, '(') ? this.resolve(callee.parts) : undefined;
            const role = api ? API.get(api.name)?.role : undefined;
            j = callee.next - 1;
            if (!api || (role !== 'create-table' && role !== 'create-sink' && role !== 'auto-cdc' && role !== 'snapshot')) {
                continue;
            }
            const open = callee.next;
            const close = this.tokens[open].match ?? -1;
            const definitionRange = this.range(start, close > open ? close : open);
            if (context !== undefined) {
                this.skipped.push({
                    what: role === 'create-table' || role === 'create-sink' ? 'dataset' : 'flow', api: api.written, range: definitionRange,
                    reason: `It is called inside \`${context}\`, which may run any number of times, so its name is not statically known.`,
                });
                continue;
            }
            const args = this.argumentsOf(open);
            if (role === 'create-table' || role === 'create-sink') {
                this.readCreate(role, api.written, args, definitionRange);
            } else {
                // A snapshot source function may be defined after the call: read it once all are known.
                this.cdcCalls.push(() => this.readCdc(role, api.written, args, definitionRange));
            }
        }
    }

    private readCreate(role: 'create-table' | 'create-sink', api: string, args: readonly Argument[], definitionRange: PythonRange): void {
        const named = this.nameArgument(args, 'name', 0);
        if (named.kind !== 'given') {
            const reason = named.kind === 'unknown' ? `Its name is not statically known: ${named.reason}.` : 'It has no name.';
            this.skipped.push({ what: 'dataset', api, range: definitionRange, reason });
            return;
        }
        const comment = this.stringArgument(args, 'comment');
        this.datasets.push({
            name: named.value, kind: role === 'create-sink' ? 'sink' : 'streaming-table', api, range: named.range, definitionRange,
            private: this.boolArgument(args, 'private') || this.boolArgument(args, 'temporary'),
            ...(comment !== undefined ? { comment } : {}),
            ...(role === 'create-table' ? this.schemaArgument(args) : {}),
        });
    }

    private readCdc(role: 'auto-cdc' | 'snapshot', api: string, args: readonly Argument[], definitionRange: PythonRange): void {
        const target = this.nameArgument(args, 'target', 0);
        const flowName = this.nameArgument(args, 'name');
        if (target.kind !== 'given' || flowName.kind === 'unknown') {
            const reason = target.kind === 'unknown' ? `Its target is not statically known: ${target.reason}.`
                : target.kind === 'absent' ? 'It has no `target=`.'
                    : `Its name is not statically known: ${(flowName as { reason: string }).reason}.`;
            this.skipped.push({ what: 'flow', api, range: definitionRange, reason });
            return;
        }
        const reads: PythonRead[] = [];
        const source = this.argument(args, 'source', 1);
        if (source) {
            const value = this.valueOf(source.first, source.last, false);
            const fn = source.first === source.last && this.isName(source.first) ? this.functions.get(this.tokens[source.first].text) : undefined;
            if (value.type === 'string') {
                reads.push({ name: value.value, streaming: role === 'auto-cdc', call: `${api}(source=…)`, range: value.range });
            } else if (role === 'snapshot' && (fn || this.isWord(source.first, 'lambda'))) {
                // A snapshot function (or lambda): what it reads is what the flow reads, as batches.
                const body = fn ?? { first: source.first, last: source.last };
                reads.push(...this.readsIn(body.first, body.last).reads.map(r => ({ ...r, streaming: false })));
            } else {
                const reason = value.type === 'other' ? value.reason : 'it is not a string';
                this.skipped.push({ what: 'read', api, range: this.range(source.first, source.last), reason: `The source is not statically known: ${reason}.` });
            }
        }
        const keysArg = this.argument(args, 'keys', 2);
        const keys = keysArg ? this.valueOf(keysArg.first, keysArg.last) : undefined;
        const sequenceArg = role === 'auto-cdc' ? this.argument(args, 'sequence_by', 3) : undefined;
        const sequence = sequenceArg ? this.columnValue(sequenceArg.first, sequenceArg.last) : undefined;
        const scdArg = this.argument(args, 'stored_as_scd_type');
        const scd = scdArg ? this.valueOf(scdArg.first, scdArg.last, false) : undefined;
        const scdText = scd?.type === 'number' || scd?.type === 'string' ? String(scd.value).toLowerCase() : undefined;
        const scdType = scd === undefined ? 1 : scdText === '1' ? 1 : scdText === '2' ? 2 : scdText === 'bitemporal' ? 'bitemporal' : undefined;
        const once = this.boolArgument(args, 'once');
        const kind: PythonFlowKind = role === 'auto-cdc' ? (once ? 'auto-cdc-once' : 'auto-cdc') : (once ? 'snapshot-once' : 'snapshot');
        this.flows.push({
            name: flowName.kind === 'given' ? flowName.value : target.value, kind, api, target: target.value, inline: false,
            range: flowName.kind === 'given' ? flowName.range : target.range, definitionRange, reads,
            ...(keys?.type === 'list' && keys.items.every(k => k.type === 'string')
                ? { keys: keys.items.map(k => (k as { value: string }).value) } : {}),
            ...(sequenceArg ? { sequenceBy: sequence?.type === 'string' ? sequence.value : this.textOf(sequenceArg.first, sequenceArg.last) } : {}),
            ...(scdType !== undefined ? { scdType } : {}),
        });
    }

    //#endregion

    //#region Arguments

    /** The argument `keyword=`, or the positional one at `position` (positional arguments come first). */
    private argument(args: readonly Argument[], keyword: string, position?: number): Argument | undefined {
        const byKeyword = args.find(a => a.keyword === keyword);
        if (byKeyword || position === undefined) {
            return byKeyword;
        }
        const firstNamed = args.findIndex(a => a.keyword !== undefined);
        return position < (firstNamed < 0 ? args.length : firstNamed) ? args[position] : undefined;
    }

    private nameArgument(args: readonly Argument[], keyword: string, position?: number): NameArgument {
        const arg = this.argument(args, keyword, position);
        if (!arg) {
            const unpacked = args.find(a => a.keyword === '**' || (position !== undefined && a.keyword === '*'));
            return unpacked
                ? { kind: 'unknown', reason: `\`${unpacked.keyword}${this.textOf(unpacked.first, unpacked.last)}\` may hold it` }
                : { kind: 'absent' };
        }
        const value = this.valueOf(arg.first, arg.last, false);
        switch (value.type) {
            case 'string': return value.value.trim() === '' ? { kind: 'unknown', reason: 'it is empty' } : { kind: 'given', value: value.value, range: value.range };
            case 'none': return { kind: 'absent' };
            case 'other': return { kind: 'unknown', reason: value.reason };
            default: return { kind: 'unknown', reason: 'it is not a string' };
        }
    }

    private stringArgument(args: readonly Argument[], keyword: string): string | undefined {
        const arg = this.argument(args, keyword);
        const value = arg ? this.valueOf(arg.first, arg.last, false) : undefined;
        return value?.type === 'string' ? value.value : undefined;
    }

    private boolArgument(args: readonly Argument[], keyword: string): boolean {
        const arg = this.argument(args, keyword);
        const value = arg ? this.valueOf(arg.first, arg.last, false) : undefined;
        return value?.type === 'bool' && value.value;
    }

    /** `schema="a INT, b STRING"`: the DDL and its columns, parsed by the project's Spark type parser. */
    private schemaArgument(args: readonly Argument[]): { schema?: PythonSchema } {
        const arg = this.argument(args, 'schema');
        if (!arg) {
            return {};
        }
        const value = this.valueOf(arg.first, arg.last, false);
        if (value.type !== 'string') {
            return { schema: { ddl: this.textOf(arg.first, arg.last), error: 'The schema is not a DDL string, so its columns are not read.' } };
        }
        const parsed = parseSchema(value.value);
        return { schema: parsed.ok ? { ddl: value.value, columns: parsed.value } : { ddl: value.value, error: parsed.error } };
    }

    //#endregion
}

/** The first index in `[0, length)` whose key is ≥ `at` (keys ascending). */
function lowerBound(length: number, key: (index: number) => number, at: number): number {
    let lo = 0;
    let hi = length;
    while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (key(mid) < at) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

//#endregion

/** Reads the datasets and flows a Python pipeline file defines. Never throws; linear in the file's size. */
export function readPythonDefinitions(text: string, options: PythonReadOptions = {}): PythonFileDefinitions {
    return new DefinitionReader(tokenizePython(text), text, options).run();
}
