import { describe, expect, test } from 'vitest';
import { tokenizePython, type PythonToken } from '../../../../server/src/project/python/python-tokenizer.js';

const significant = (text: string): PythonToken[] => tokenizePython(text).tokens.filter(t => t.kind !== 'newline' && t.kind !== 'end');
const strings = (text: string) => significant(text).filter(t => t.kind === 'string').map(t => t.string!);

describe('Python strings', () => {
    test('every quote style reads as one string token with its value', () => {
        const values = strings(`a = 'one' "two" '''three
lines''' """four"""`).map(s => s.value);
        expect(values).toEqual(['one', 'two', 'three\nlines', 'four']);
    });

    test('escapes are decoded in plain strings and kept in raw strings, where a backslash still protects the quote', () => {
        const [plain, raw, rawQuote] = strings(String.raw`x = ("a\tb\n\x41\u00e9\101\\\'", r"a\tb", r'it\'s')`);
        expect(plain.value).toBe('a\tb\nAé' + 'A' + '\\\'');
        expect(raw).toMatchObject({ raw: true, value: 'a\\tb' });
        expect(rawQuote).toMatchObject({ raw: true, terminated: true, value: 'it\\\'s' });
    });

    test('prefixes in any case and order are read (r, b, f, u, rb, Rb, fr, rF)', () => {
        const infos = strings('x = [r"a", b"b", f"c", u"d", rb"e", Rb"f", fr"g", rF"h"]');
        expect(infos.map(s => s.prefix)).toEqual(['r', 'b', 'f', 'u', 'rb', 'rb', 'fr', 'rf']);
        expect(infos.map(s => [s.raw, s.bytes, s.formatted])).toEqual([
            [true, false, false], [false, true, false], [false, false, true], [false, false, false],
            [true, true, false], [true, true, false], [true, false, true], [true, false, true],
        ]);
    });

    test('an f-string with replacement fields has no static value; one without fields has, with {{ }} unescaped', () => {
        const [field, plain] = strings('x = (f"orders_{region}", f"{{literal}}")');
        expect(field).toMatchObject({ formatted: true, value: undefined });
        expect(plain).toMatchObject({ formatted: true, value: '{literal}' });
    });

    test('an f-string whose field holds the same quote (Python 3.12) and nested f-strings stays one token', () => {
        const tokens = significant('x = f"{d["key"]}_{f"{y:>{w}}"}" + "after"');
        expect(tokens.filter(t => t.kind === 'string').map(t => t.text)).toEqual(['f"{d["key"]}_{f"{y:>{w}}"}"', '"after"']);
    });

    test('a one-quote string ends at the end of its line when unterminated; the next line is read as code', () => {
        const tokens = significant('x = "open\ny = 2');
        expect(tokens[2]).toMatchObject({ kind: 'string', string: { terminated: false } });
        expect(tokens.slice(3).map(t => t.text)).toEqual(['y', '=', '2']);
    });

    test('an unterminated triple-quoted string runs to the end of the file', () => {
        const tokens = significant('x = """open\n@dlt.table\ndef f(): pass');
        expect(tokens.map(t => t.kind)).toEqual(['name', 'op', 'string']);
        expect(tokens[2].string!.terminated).toBe(false);
    });
});

describe('Python lines, comments and positions', () => {
    test('comments produce no tokens, whatever they contain', () => {
        const tokens = significant('# @dlt.table(name="x")\nx = 1  # "not a string\n');
        expect(tokens.map(t => t.text)).toEqual(['x', '=', '1']);
    });

    test('brackets and backslash continuations join physical lines into one logical line', () => {
        const { lines, tokens } = tokenizePython('a = f(\n    1,\n    [2,\n 3])\nb = 1 + \\\n    2\nc = 3\n');
        expect(lines).toHaveLength(3);
        expect(tokens[lines[1].first].text).toBe('b');
        expect(tokens[lines[1].last].text).toBe('2');
    });

    test('a logical line records its indentation, tabs counted to the next multiple of 8', () => {
        const { lines } = tokenizePython('def f():\n    x = 1\n\tif x:\n\t    y = 2\n');
        expect(lines.map(l => l.indent)).toEqual([0, 4, 8, 12]);
    });

    test('blank and comment-only lines are not logical lines', () => {
        expect(tokenizePython('\n   \n  # c\nx = 1\n').lines).toHaveLength(1);
    });

    test('brackets record their partners', () => {
        const tokens = significant('f(a[1], {b: (c)})');
        const open = tokens.findIndex(t => t.text === '(');
        expect(tokens[tokens[open].match!].text).toBe(')');
        expect(tokens[open].match).toBe(tokens.length - 1);
        expect(tokens[tokens.length - 1].match).toBe(open);
    });

    test('a bracket left open while typing ends at the next top-level def or decorator', () => {
        const { lines, tokens } = tokenizePython('x = f(1,\n\n@dlt.table\ndef g():\n    pass\n');
        expect(tokens[lines[0].first + 3].match).toBe(-1);
        expect(tokens[lines[1].first].text).toBe('@');
        expect(tokens[lines[2].first].text).toBe('def');
    });

    test('positions are 0-based lines and UTF-16 columns, after multi-line strings and CRLF line ends', () => {
        const tokens = significant('s = """a\r\nb"""\r\n\u00e9\u{1F600} = x\r\n');
        const x = tokens.find(t => t.text === 'x')!;
        expect({ line: x.line, column: x.column }).toEqual({ line: 2, column: 6 });
    });
});

describe('Python tokenizer on hostile input', () => {
    test('deeply nested brackets and f-strings neither throw nor overflow the stack', () => {
        const brackets = '('.repeat(20_000) + ')'.repeat(20_000);
        expect(tokenizePython(`x = ${brackets}\n`).lines).toHaveLength(1);
        let fstring = 'x';
        for (let i = 0; i < 2_000; i++) {
            fstring = `f"{${fstring}}"`;
        }
        const tokens = significant(`y = ${fstring}\nz = 1`);
        expect(tokens.map(t => t.kind)).toEqual(['name', 'op', 'string', 'name', 'op', 'number']);
    });

    test('stray closing brackets and unmatched openers are tolerated', () => {
        const { tokens, lines } = tokenizePython(']]]' + '(['.repeat(20_000) + ')'.repeat(20_000) + '\nx = 1\n');
        expect(lines.length).toBeGreaterThan(0);
        expect(tokens.at(-1)!.kind).toBe('end');
    });
});
