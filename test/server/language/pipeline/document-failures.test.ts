import type { AstNode, CstNode, GrammarAST, LangiumDocument, ValueType } from 'langium';
import { EmptyFileSystem, URI } from 'langium';
import { clearDocuments } from 'langium/test';
import type { Diagnostic } from 'vscode-languageserver';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type AST, createPipelineSqlServices, type PipelineSqlServices } from '../../../../server/src/language/index.js';
import type { PipelineSqlModuleContext } from '../../../../server/src/language/pipeline-sql-module.js';
import { PipelineSqlScopeComputation } from '../../../../server/src/language/references/pipeline-sql-scope-computation.js';
import { PipelineSqlValueConverter } from '../../../../server/src/language/parser/pipeline-sql-value-converter.js';
import { TextDocument } from 'vscode-languageserver-textdocument';

/**
 * One document never stops the others: an exception anywhere in the build of one document (parsing,
 * scoping, a validation check) becomes a PIPELINE_SQL_INTERNAL_ERROR diagnostic on that document,
 * naming the step and the cause, and the other documents (and later builds) are served as usual.
 * The faults are injected where a defect or a pathological input would throw: inside a parse
 * (the value converter runs in the middle of the parser's rules), in the scope computation, in a check.
 */
class ThrowingValueConverter extends PipelineSqlValueConverter {
    protected override runConverter(rule: GrammarAST.AbstractRule, input: string, cstNode: CstNode): ValueType {
        if (input === 'explode_in_parser') {
            // Not a RangeError: the parser answers a stack overflow itself (a nesting error), see nesting-limit tests.
            throw new TypeError('a converter broke');
        }
        return super.runConverter(rule, input, cstNode);
    }
}

class ThrowingScopeComputation extends PipelineSqlScopeComputation {
    override collectLocalSymbols(document: LangiumDocument, ...rest: Parameters<PipelineSqlScopeComputation['collectLocalSymbols']> extends [unknown, ...infer R] ? R : never) {
        if (document.textDocument.getText().includes('explode_in_scopes')) {
            throw new TypeError('scope computation broke');
        }
        return super.collectLocalSymbols(document, ...rest);
    }
}

const { shared, PipelineSql: services } = createPipelineSqlServices({
    ...EmptyFileSystem,
    module: {
        parser: { ValueConverter: () => new ThrowingValueConverter() },
        references: { ScopeComputation: (s: PipelineSqlServices) => new ThrowingScopeComputation(s) },
    } as unknown as PipelineSqlModuleContext['module'],
});
const root = '/virtual/failures';
services.pipeline.Registry.addRoot(root, { includes: [] }, undefined);
services.validation.ValidationRegistry.register<AST.PipelineSqlAstType>({
    SelectQuery: node => {
        if (node.$cstNode?.text.includes('explode_in_check')) {
            throw new Error('a check broke');
        }
    },
});

let logged: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
    logged.mockRestore();
    await clearDocuments(shared);
});

async function load(files: Record<string, string>): Promise<Map<string, LangiumDocument>> {
    const documents = new Map<string, LangiumDocument>();
    for (const [file, text] of Object.entries(files)) {
        const document = shared.workspace.LangiumDocumentFactory.fromString(text, URI.file(`${root}/${file}`));
        shared.workspace.LangiumDocuments.addDocument(document);
        documents.set(file, document);
    }
    await shared.workspace.DocumentBuilder.build([...documents.values()], { validation: true });
    return documents;
}

const print = (d: Diagnostic): string => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)} ${d.message}`;
const good = 'CREATE MATERIALIZED VIEW good AS SELECT nope FROM VALUES (1) AS t(a);';
const goodDiagnostics = ['1:41 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'nope\' does not exist in \'t\' (a).'];

describe('a failure while building one document', () => {
    test('a parse that throws midway: an internal error on that file, the next parse of any text is right', async () => {
        const documents = await load({
            'broken.sql': 'CREATE MATERIALIZED VIEW x AS SELECT (((explode_in_parser))) AS a;',
            'good.sql': good,
        });
        const broken = documents.get('broken.sql')!;
        expect((broken.diagnostics ?? []).map(print)).toEqual([
            '1:1 PIPELINE_SQL_INTERNAL_ERROR Pipeline SQL failed while reading and parsing this file (TypeError: a converter broke). '
            + 'Its other diagnostics may be missing; the other files are checked as usual. Please report this with the file.',
        ]);
        expect(broken.parseResult.value.$cstNode?.root.fullText).toBe(broken.textDocument.getText());
        expect((documents.get('good.sql')!.diagnostics ?? []).map(print)).toEqual(goodDiagnostics);
        // The parser dropped what the failed parse left behind: a new text gets its own tree.
        const again = services.parser.LangiumParser.parse<AstNode & { statements: Array<{ name?: string }> }>('CREATE MATERIALIZED VIEW fresh AS SELECT 1 AS a;');
        expect(again.value.statements.map(s => s.name)).toEqual(['fresh']);
    });

    test('after an edit that removes the cause, the file is checked as usual again', async () => {
        const documents = await load({ 'broken.sql': 'CREATE MATERIALIZED VIEW x AS SELECT explode_in_parser AS a;' });
        const document = documents.get('broken.sql')!;
        expect((document.diagnostics ?? []).map(d => d.code)).toEqual(['PIPELINE_SQL_INTERNAL_ERROR']);
        // The editor sends the fixed text.
        shared.workspace.TextDocuments!.set(TextDocument.create(document.uri.toString(), 'pipeline-sql', 2, 'CREATE MATERIALIZED VIEW x AS SELECT nope FROM VALUES (1) AS t(a);'));
        await shared.workspace.DocumentBuilder.update([document.uri], []);
        const fixed = shared.workspace.LangiumDocuments.getDocument(document.uri)!;
        expect((fixed.diagnostics ?? []).map(print)).toEqual(['1:38 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'nope\' does not exist in \'t\' (a).']);
    });

    test('a scope computation that throws: an internal error naming the step, the file still validated', async () => {
        const documents = await load({
            'broken.sql': 'CREATE MATERIALIZED VIEW explode_in_scopes AS SELECT 1 AS a;\nCREATE MATERIALIZED VIEW y AS SELECT * FROM unknown_table;',
            'good.sql': good,
        });
        const printed = (documents.get('broken.sql')!.diagnostics ?? []).map(print);
        expect(printed[0]).toBe('1:1 PIPELINE_SQL_INTERNAL_ERROR Pipeline SQL failed while collecting the names of this file (TypeError: scope computation broke). '
            + 'Its other diagnostics may be missing; the other files are checked as usual. Please report this with the file.');
        // The checks after the failed step still ran on the file.
        expect(printed.slice(1).map(p => p.split(' ')[1])).toContain('TABLE_OR_VIEW_NOT_FOUND');
        expect((documents.get('good.sql')!.diagnostics ?? []).map(print)).toEqual(goodDiagnostics);
    });

    test('a validation check that throws: an internal error on the node it checked, the other checks still report', async () => {
        const documents = await load({ 'broken.sql': 'CREATE MATERIALIZED VIEW x AS SELECT nope, 1 AS explode_in_check FROM VALUES (1) AS t(a);' });
        const printed = (documents.get('broken.sql')!.diagnostics ?? []).map(print);
        expect(printed).toContain('1:31 PIPELINE_SQL_INTERNAL_ERROR Pipeline SQL failed while checking this file (Error: a check broke). '
            + 'Its other diagnostics may be missing; the other files are checked as usual. Please report this with the file.');
        expect(printed).toContain('1:38 UNRESOLVED_COLUMN.WITH_SUGGESTION Column \'nope\' does not exist in \'t\' (a).');
    });
});
