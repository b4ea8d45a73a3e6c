import { clearDocuments, parseHelper, replaceIndices } from 'langium/test';
import { afterEach, describe, expect, test } from 'vitest';
import type { SignatureHelp } from 'vscode-languageserver';
import { createTestServices } from '../../../helpers/parse.js';

const { shared, services } = createTestServices();
const parse = parseHelper(services);

afterEach(() => clearDocuments(shared));

/** The signature help at `<|>`, printed as `label` with the active parameter in [brackets] and its documentation. */
async function signatureAt(text: string): Promise<string | undefined> {
    const { output, indices } = replaceIndices({ text });
    const document = await parse(output);
    const help = await services.lsp.SignatureHelp!.provideSignatureHelp(document, {
        textDocument: { uri: document.uri.toString() }, position: document.textDocument.positionAt(indices[0]),
    }) as SignatureHelp | undefined;
    if (!help) {
        return undefined;
    }
    const signature = help.signatures[help.activeSignature ?? 0];
    const parameter = signature.parameters?.[help.activeParameter ?? 0];
    const label = signature.label;
    if (!parameter || !Array.isArray(parameter.label)) {
        return `${label} (no active parameter)`;
    }
    const [start, end] = parameter.label;
    const doc = parameter.documentation && typeof parameter.documentation !== 'string' ? ` — ${parameter.documentation.value}` : '';
    return `${label.slice(0, start)}«${label.slice(start, end)}»${label.slice(end)}${doc}`;
}

describe('signature help for built-in functions', () => {
    test('the parameter the cursor is in, by position', async () => {
        const returns = 'binary when the text arguments are all binary, string otherwise';
        expect(await signatureAt('SELECT substring(name, <|>) FROM t')).toBe(`substring(str: string | binary, «pos: int»[, len: int]) → ${returns}`);
        expect(await signatureAt('SELECT substring(name, 1, <|>) FROM t')).toBe(`substring(str: string | binary, pos: int[, «len: int»]) → ${returns}`);
    });

    test('nested calls: the innermost call; a subquery or tuple in between is looked through', async () => {
        expect(await signatureAt('SELECT coalesce(upper(<|>name), \'x\') FROM t')).toMatch(/^upper\(«str: string»\)/);
        expect(await signatureAt('SELECT coalesce(a, (b + <|>)) FROM t')).toMatch(/^coalesce\(«expr: any», …\)/);
    });

    test('read_files: the path, then named options with their documentation', async () => {
        expect(await signatureAt('SELECT * FROM read_files(<|>')).toMatch(/^read_files\(«path: string»\[, option => value, …\]\)/);
        expect(await signatureAt('SELECT * FROM STREAM read_files(\'/data\', format => <|>'))
            .toMatch(/^read_files\(path: string\[, «option => value», …\]\) → [^\n]+ — \*\*format\*\*: File format to read; guessed from the file extensions when left out\. \(one of csv, json, xml, text, binaryFile, parquet, avro, orc\)$/);
    });

    test('a function with named parameters selects the named one', async () => {
        const help = await signatureAt('SELECT mask(card, digitChar => <|>) FROM t');
        expect(help).toMatch(/«digitChar: [^»]+»/);
    });

    test('outside any call, and inside parentheses that are no call, there is no signature help', async () => {
        expect(await signatureAt('SELECT a, <|> FROM t')).toBeUndefined();
        expect(await signatureAt('CREATE FLOW f AS AUTO CDC INTO t FROM s KEYS (<|>')).toBeUndefined();
        expect(await signatureAt('SELECT upper(a); SELECT <|>')).toBeUndefined();
    });
});
