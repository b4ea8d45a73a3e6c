import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LangiumDocument } from 'langium';
import { EmptyFileSystem } from 'langium';
import { parseHelper } from 'langium/test';
import type { Diagnostic } from 'vscode-languageserver';
import { type AST, createPipelineSqlServices } from '../../server/src/language/index.js';
import type { PipelineSqlServices } from '../../server/src/language/index.js';

/** The repository root (two levels above this file). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared data folder beside the repository (`../shared`); absent in a user's clone. */
export const sharedRoot = path.resolve(repoRoot, '../shared');

/** Creates the language services once per test file, as the language server does. */
export function createTestServices(): { shared: ReturnType<typeof createPipelineSqlServices>['shared']; services: PipelineSqlServices } {
    const { shared, PipelineSql } = createPipelineSqlServices(EmptyFileSystem);
    return { shared, services: PipelineSql };
}

/**
 * Returns a function that parses a text as a pipeline file, runs the syntax checks (lexer and parser
 * errors, Langium's `built-in` validation category; the semantic checks of the pipeline model are
 * tested under test/server/language/validation) and gives the document, its statements and its
 * diagnostics printed as `[line:col..line:col]: message` (1-based).
 */
export function createParser(services: PipelineSqlServices): (text: string) => Promise<ParsedText> {
    const parse = parseHelper<AST.PipelineFile>(services);
    return async text => {
        const document = await parse(text, { validation: { categories: ['built-in'] } });
        return {
            document,
            statements: document.parseResult.value.statements,
            diagnostics: (document.diagnostics ?? []).map(printDiagnostic),
        };
    };
}

/** A parsed and validated text. */
export interface ParsedText {
    document: LangiumDocument<AST.PipelineFile>;
    statements: AST.Statement[];
    diagnostics: string[];
}

/** Prints a diagnostic as `[line:col..line:col]: message` with 1-based lines and columns. */
export function printDiagnostic(diagnostic: Diagnostic): string {
    const { start, end } = diagnostic.range;
    return `[${start.line + 1}:${start.character + 1}..${end.line + 1}:${end.character + 1}]: ${diagnostic.message}`;
}

/** Parses one statement with the parser alone (no document, no validation), as the Spark agreement test does. */
export function parseText(services: PipelineSqlServices, text: string): ReturnType<PipelineSqlServices['parser']['LangiumParser']['parse']> {
    return services.parser.LangiumParser.parse(text);
}
