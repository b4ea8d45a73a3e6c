import { expect } from 'vitest';
import type { ParsedText } from './parse.js';
import { printAst } from './print-ast.js';

/**
 * Returns a function that parses a text holding exactly one statement, asserts that it has no
 * diagnostics, and returns the statement's printed tree.
 */
export function treeOf(parse: (text: string) => Promise<ParsedText>): (text: string) => Promise<string> {
    return async text => {
        const { statements, diagnostics } = await parse(text);
        expect(diagnostics).toEqual([]);
        expect(statements).toHaveLength(1);
        return printAst(statements[0]);
    };
}
