/**
 * A tokenizer for Python source, enough to read pipeline definitions without running Python:
 * names, numbers, operators, strings (every quote style and prefix, escapes, f-strings with nested
 * replacement fields and quotes), comments, backslash continuations, bracket nesting and logical
 * lines with their indentation. It never throws: malformed input (an unterminated string, an
 * unclosed bracket) yields tokens marked as such, and the reader skips what it cannot read.
 *
 * Hostile input: one pass over the text, an explicit stack for f-string nesting and brackets (no
 * recursion), and no lookups keyed by user text on plain objects.
 */

/** What a token is. `newline` ends a logical line; `end` is the last token. */
export type PythonTokenKind = 'name' | 'number' | 'string' | 'op' | 'newline' | 'end';

/** A position in the file: 0-based line, 0-based column in UTF-16 code units (as LSP counts). */
export interface PythonPosition {
    readonly line: number;
    readonly column: number;
}

export interface PythonToken {
    readonly kind: PythonTokenKind;
    /** The source text (a string token: the whole literal, prefix and quotes included). */
    readonly text: string;
    /** Offsets into the file, end exclusive. */
    readonly start: number;
    readonly end: number;
    /** Where the token starts. */
    readonly line: number;
    readonly column: number;
    /** A string literal's details; undefined for other tokens. */
    readonly string?: PythonStringInfo;
    /**
     * A bracket: the index of its partner (an opening bracket's closing one and the reverse), or -1
     * for an opening bracket that is never closed. Undefined for other tokens and stray closers.
     */
    match?: number;
}

export interface PythonStringInfo {
    /** The prefix letters in lower case (`rb`, `f`, '' for none). */
    readonly prefix: string;
    readonly raw: boolean;
    readonly bytes: boolean;
    /** An f-string (or a t-string): it may hold replacement fields. */
    readonly formatted: boolean;
    readonly triple: boolean;
    /** False when the file ends (or, for a one-quote string, the line ends) before the closing quote. */
    readonly terminated: boolean;
    /** The value with escapes decoded, when it is static: undefined for an f-string with replacement fields. */
    readonly value?: string;
}

/** A logical line: its tokens `[first, last]` (the `newline` token excluded) and its indentation width. */
export interface PythonLine {
    readonly first: number;
    readonly last: number;
    readonly indent: number;
}

export interface PythonTokens {
    readonly tokens: readonly PythonToken[];
    readonly lines: readonly PythonLine[];
}

const OPERATORS_3 = new Set(['**=', '//=', '>>=', '<<=', '...']);
const OPERATORS_2 = new Set(['!=', '%=', '&=', '**', '*=', '+=', '-=', '->', '//', '/=', ':=', '<<', '<=', '==', '>=', '>>', '@=', '^=', '|=']);
const OPEN = '([{';
const CLOSE = ')]}';
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u00B7\u0387\u1369-\u1371\u19DA]*/uy;
const NUMBER = /(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)[jJlL]?/y;
/** Words that begin a top-level statement; seen at column 0 inside an unclosed bracket, they end it. */
const RECOVERY_WORDS = /(?:(?:def|class|import|from|async)\s|@[\p{L}_])/uy;

/** The end of the identifier starting at `i` (`i` itself when none starts there); ASCII fast, Unicode by the regex. */
function nameEnd(text: string, i: number): number {
    let j = i;
    for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
        if (!(letter || (j > i && c >= 48 && c <= 57))) {
            if (c < 128) {
                return j;
            }
            break;
        }
    }
    if (j >= text.length) {
        return j;
    }
    // A non-ASCII character: let the Unicode-aware pattern read the whole identifier.
    NAME.lastIndex = i;
    const match = NAME.exec(text);
    return match ? i + match[0].length : j;
}

/** `r`, `b`, `f`, `t` and `u` in the combinations Python accepts (case-insensitive). */
function stringPrefix(word: string): string | undefined {
    const p = word.toLowerCase();
    if (p.length === 1 && 'rbuft'.includes(p)) {
        return p;
    }
    if (p.length === 2 && p.includes('r') && /^[rbft]{2}$/.test(p) && p[0] !== p[1]) {
        return p;
    }
    return undefined;
}

/** The offset of each line's first character (`\n`, `\r\n` and `\r` end lines). */
function lineStartsOf(text: string): number[] {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) {
            starts.push(i + 1);
        } else if (c === 13) {
            if (text.charCodeAt(i + 1) === 10) {
                i++;
            }
            starts.push(i + 1);
        }
    }
    return starts;
}

const SIMPLE_ESCAPES = new Map([['n', '\n'], ['t', '\t'], ['r', '\r'], ['a', '\x07'], ['b', '\b'], ['f', '\f'], ['v', '\v'],
    ['\\', '\\'], ['\'', '\''], ['"', '"']]);

/**
 * Decodes the escape at `text[i]` (a backslash) in a non-raw string; returns the decoded text and the
 * offset after the escape.
 */
function decodeEscape(text: string, i: number, bytes: boolean): [string, number] {
    const c = text[i + 1];
    const simple = SIMPLE_ESCAPES.get(c);
    if (simple !== undefined) {
        return [simple, i + 2];
    }
    if (c === '\n') {
        return ['', i + 2];
    }
    if (c === '\r') {
        return ['', text[i + 2] === '\n' ? i + 3 : i + 2];
    }
    if (c >= '0' && c <= '7') {
        const m = /[0-7]{1,3}/y;
        m.lastIndex = i + 1;
        const digits = m.exec(text)![0];
        return [String.fromCharCode(parseInt(digits, 8)), i + 1 + digits.length];
    }
    const width = c === 'x' ? 2 : !bytes && c === 'u' ? 4 : !bytes && c === 'U' ? 8 : 0;
    if (width > 0) {
        const hex = text.slice(i + 2, i + 2 + width);
        if (hex.length === width && /^[0-9a-fA-F]+$/.test(hex)) {
            const code = parseInt(hex, 16);
            if (code <= 0x10FFFF) {
                return [String.fromCodePoint(code), i + 2 + width];
            }
        }
    }
    // Unknown escapes (and \N{...}) keep their backslash, as Python does for unknown ones.
    return c === undefined ? ['\\', i + 1] : ['\\' + c, i + 2];
}

/** One string literal being scanned, or one replacement field / format spec of an f-string. */
type Frame =
    | { readonly type: 'string'; readonly quote: string; readonly triple: boolean; readonly raw: boolean; readonly formatted: boolean }
    | { type: 'field'; depth: number }
    | { readonly type: 'spec' };

interface ScannedString {
    readonly end: number;
    readonly info: PythonStringInfo;
}

/**
 * Scans a string literal whose prefix starts at `start` and whose opening quote is at `quoteAt`.
 * F-strings may nest replacement fields holding further strings (Python 3.12 lets them reuse the
 * same quote); an explicit stack of frames follows them, so the cost is one pass over the literal.
 */
function scanString(text: string, start: number, quoteAt: number, prefix: string): ScannedString {
    const quote = text[quoteAt];
    const triple = text.startsWith(quote.repeat(3), quoteAt);
    const raw = prefix.includes('r');
    const bytes = prefix.includes('b');
    const formatted = prefix.includes('f') || prefix.includes('t');
    const outer: Frame = { type: 'string', quote, triple, raw, formatted };
    const stack: Frame[] = [outer];
    /** The string frames on the stack, innermost last. */
    const strings: Array<Extract<Frame, { type: 'string' }>> = [outer];
    let singleLine = triple ? 0 : 1;
    let value: string | undefined = '';
    let fields = false;
    let i = quoteAt + (triple ? 3 : 1);
    const n = text.length;
    const finish = (terminated: boolean): ScannedString => ({
        end: i,
        info: { prefix, raw, bytes, formatted, triple, terminated, value: fields ? undefined : value },
    });
    while (i < n) {
        const top = stack[stack.length - 1];
        const c = text[i];
        const outermost = stack.length === 1;
        if ((c === '\n' || c === '\r') && singleLine > 0) {
            // A one-quote string cannot span lines: it is unterminated, whatever was nested in it.
            return finish(false);
        }
        if (top.type === 'field') {
            if (c === '\'' || c === '"') {
                const nested = /[rRbBfFtTuU]{0,2}$/.exec(text.slice(Math.max(i - 2, 0), i))?.[0] ?? '';
                const p = stringPrefix(nested) ?? '';
                const nestedTriple = text.startsWith(c.repeat(3), i);
                const frame: Frame = { type: 'string', quote: c, triple: nestedTriple, raw: p.includes('r'), formatted: p.includes('f') || p.includes('t') };
                stack.push(frame);
                strings.push(frame);
                singleLine += nestedTriple ? 0 : 1;
                i += nestedTriple ? 3 : 1;
            } else if (OPEN.includes(c)) {
                top.depth++;
                i++;
            } else if (c === ')' || c === ']') {
                top.depth = Math.max(0, top.depth - 1);
                i++;
            } else if (c === '}') {
                if (top.depth > 0) {
                    top.depth--;
                } else {
                    stack.pop();
                }
                i++;
            } else if (c === ':' && top.depth === 0 && text[i + 1] !== '=') {
                stack.push({ type: 'spec' });
                i++;
            } else {
                i++;
            }
            continue;
        }
        const str = strings[strings.length - 1];
        if (c === '\\') {
            if (str.formatted && (text[i + 1] === '{' || text[i + 1] === '}')) {
                // A backslash does not escape braces: the brace is read next.
                if (outermost) {
                    value += '\\';
                }
                i++;
            } else if (outermost && !raw) {
                const [decoded, next] = decodeEscape(text, i, bytes);
                value += decoded;
                i = next;
            } else {
                // Raw strings keep the backslash, but it still stops the next quote from closing them.
                if (outermost) {
                    value += text.slice(i, i + 2);
                }
                i += text[i + 1] === '\r' && text[i + 2] === '\n' ? 3 : 2;
            }
            continue;
        }
        if (c === str.quote && (!str.triple || text.startsWith(str.quote.repeat(3), i))) {
            // The closing quote; an unclosed format spec or field inside ends with it.
            while (stack[stack.length - 1] !== str) {
                stack.pop();
            }
            stack.pop();
            strings.pop();
            singleLine -= str.triple ? 0 : 1;
            i += str.triple ? 3 : 1;
            if (stack.length === 0) {
                return finish(true);
            }
            continue;
        }
        if (str.formatted && c === '{') {
            if (top.type === 'string' && text[i + 1] === '{') {
                if (outermost) {
                    value += '{';
                }
                i += 2;
            } else {
                if (stack.length === 1) {
                    fields = true;
                }
                stack.push({ type: 'field', depth: 0 });
                i++;
            }
            continue;
        }
        if (str.formatted && c === '}') {
            if (top.type === 'spec') {
                stack.pop();
                stack.pop();
                i++;
            } else {
                if (outermost) {
                    value += '}';
                }
                i += text[i + 1] === '}' ? 2 : 1;
            }
            continue;
        }
        if (outermost) {
            value += c;
        }
        i++;
    }
    return finish(false);
}

/** The width of an indentation, tabs to the next multiple of 8 as Python counts them. */
function indentWidth(text: string, from: number, to: number): number {
    let width = 0;
    for (let i = from; i < to; i++) {
        width = text[i] === '\t' ? (Math.floor(width / 8) + 1) * 8 : width + 1;
    }
    return width;
}

/** Tokenizes Python source. Linear in the length of the text. */
export function tokenizePython(text: string): PythonTokens {
    const tokens: PythonToken[] = [];
    const lines: PythonLine[] = [];
    const starts = lineStartsOf(text);
    let lineIndex = 0;
    const positionOf = (offset: number): PythonPosition => {
        while (lineIndex + 1 < starts.length && starts[lineIndex + 1] <= offset) {
            lineIndex++;
        }
        return { line: lineIndex, column: offset - starts[lineIndex] };
    };
    /** The open brackets, innermost last, and how many of each kind are open. */
    const brackets: number[] = [];
    const openCount = new Map<string, number>([['(', 0], ['[', 0], ['{', 0]]);
    let lineFirst = -1;
    let lineIndent = 0;
    let atLineStart = true;
    const push = (kind: PythonTokenKind, start: number, end: number, string?: PythonStringInfo): void => {
        if (lineFirst < 0) {
            lineFirst = tokens.length;
        }
        const { line, column } = positionOf(start);
        // Every token has the same shape (one hidden class), brackets' `match` set later included.
        tokens.push({ kind, text: text.slice(start, end), start, end, line, column, string, match: undefined });
    };
    const endLine = (at: number): void => {
        if (lineFirst >= 0) {
            lines.push({ first: lineFirst, last: tokens.length - 1, indent: lineIndent });
            const { line, column } = positionOf(at);
            tokens.push({ kind: 'newline', text: '', start: at, end: at, line, column, string: undefined, match: undefined });
            lineFirst = -1;
        }
    };
    const closeAll = (): void => {
        for (const open of brackets) {
            tokens[open].match = -1;
        }
        brackets.length = 0;
        for (const kind of OPEN) {
            openCount.set(kind, 0);
        }
    };
    const n = text.length;
    let i = 0;
    while (i < n) {
        if (atLineStart && brackets.length === 0) {
            let j = i;
            while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\f')) {
                j++;
            }
            lineIndent = indentWidth(text, i, j);
            i = j;
            atLineStart = false;
            continue;
        }
        const c = text[i];
        if (c === '\n' || c === '\r') {
            const at = i;
            i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
            if (brackets.length > 0) {
                // Inside brackets a newline does not end the logical line, unless the next line is
                // plainly a new top-level statement (the bracket was left open while typing).
                RECOVERY_WORDS.lastIndex = i;
                if (!RECOVERY_WORDS.test(text)) {
                    continue;
                }
                closeAll();
            }
            endLine(at);
            atLineStart = true;
            continue;
        }
        if (c === ' ' || c === '\t' || c === '\f') {
            i++;
            continue;
        }
        if (c === '#') {
            while (i < n && text[i] !== '\n' && text[i] !== '\r') {
                i++;
            }
            continue;
        }
        if (c === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) {
            // A backslash continuation joins the next physical line to this logical line.
            i += text[i + 1] === '\r' && text[i + 2] === '\n' ? 3 : 2;
            continue;
        }
        if (c === '\'' || c === '"') {
            const scanned = scanString(text, i, i, '');
            push('string', i, scanned.end, scanned.info);
            i = scanned.end;
            continue;
        }
        const after = nameEnd(text, i);
        if (after > i) {
            const word = text.slice(i, after);
            const prefix = word.length <= 2 && (text[after] === '\'' || text[after] === '"') ? stringPrefix(word) : undefined;
            if (prefix !== undefined) {
                const scanned = scanString(text, i, after, prefix);
                push('string', i, scanned.end, scanned.info);
                i = scanned.end;
            } else {
                push('name', i, after);
                i = after;
            }
            continue;
        }
        if ((c >= '0' && c <= '9') || (c === '.' && text[i + 1] >= '0' && text[i + 1] <= '9')) {
            NUMBER.lastIndex = i;
            const number = NUMBER.exec(text)![0];
            push('number', i, i + number.length);
            i += number.length;
            continue;
        }
        const op = OPERATORS_3.has(text.slice(i, i + 3)) ? text.slice(i, i + 3) : OPERATORS_2.has(text.slice(i, i + 2)) ? text.slice(i, i + 2) : c;
        push('op', i, i + op.length);
        const index = tokens.length - 1;
        if (op.length === 1 && OPEN.includes(op)) {
            brackets.push(index);
            openCount.set(op, openCount.get(op)! + 1);
        } else if (op.length === 1 && CLOSE.includes(op)) {
            const wanted = OPEN[CLOSE.indexOf(op)];
            // A closing bracket with no opening one of its kind is ignored; otherwise the brackets
            // opened after the matching one were never closed (each is removed once: linear).
            if (openCount.get(wanted)! > 0) {
                let open = brackets.pop()!;
                while (tokens[open].text !== wanted) {
                    tokens[open].match = -1;
                    openCount.set(tokens[open].text, openCount.get(tokens[open].text)! - 1);
                    open = brackets.pop()!;
                }
                openCount.set(wanted, openCount.get(wanted)! - 1);
                tokens[open].match = index;
                tokens[index].match = open;
            }
        }
        i += op.length;
    }
    closeAll();
    endLine(n);
    const { line, column } = positionOf(n);
    tokens.push({ kind: 'end', text: '', start: n, end: n, line, column, string: undefined, match: undefined });
    return { tokens, lines };
}
