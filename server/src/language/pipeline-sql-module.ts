import type { Module, PartialLangiumCoreServices } from 'langium';
import { inject } from 'langium';
import type {
    DefaultSharedModuleContext, LangiumServices, LangiumSharedServices, PartialLangiumServices, PartialLangiumSharedServices,
} from 'langium/lsp';
import { createDefaultModule, createDefaultSharedModule } from 'langium/lsp';
import { PipelineSqlDocumentValidator } from './validation/pipeline-sql-document-validator.js';
import { PipelineSqlLexer } from './parser/pipeline-sql-lexer.js';
import { PipelineSqlValueConverter } from './parser/pipeline-sql-value-converter.js';
import { createPipelineSqlParserConfig } from './parser/pipeline-sql-parser-config.js';
import { PipelineSqlTokenBuilder } from './parser/pipeline-sql-token-builder.js';
import { PipelineSqlParserErrorMessageProvider } from './parser/pipeline-sql-parser-error-message-provider.js';
import { PipelineSqlLexerErrorMessageProvider } from './parser/pipeline-sql-lexer-error-message-provider.js';
import { PipelineSqlSemanticTokenProvider } from './lsp/pipeline-sql-semantic-token-provider.js';
import { PipelineSqlCodeLensProvider } from './lsp/pipeline-sql-code-lens-provider.js';
import { PipelineSqlGeneratedModule, PipelineSqlGeneratedSharedModule } from './generated/module.js';

/** Services this language adds to Langium's defaults, grouped by concern. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- groups are added by the pipeline-model and engine services
export type PipelineSqlAddedServices = {};

/** Every service of the Pipeline SQL language: Langium's LSP services plus ours. */
export type PipelineSqlServices = LangiumServices & PipelineSqlAddedServices;

/** The dependency-injection module that binds our service implementations. */
export const PipelineSqlModule: Module<PipelineSqlServices, PartialLangiumServices & PipelineSqlAddedServices> = {
    parser: {
        Lexer: (services) => new PipelineSqlLexer(services),
        TokenBuilder: () => new PipelineSqlTokenBuilder(),
        ValueConverter: () => new PipelineSqlValueConverter(),
        ParserConfig: () => createPipelineSqlParserConfig(),
        ParserErrorMessageProvider: (services) => new PipelineSqlParserErrorMessageProvider(services),
        LexerErrorMessageProvider: () => new PipelineSqlLexerErrorMessageProvider(),
    },
    lsp: {
        SemanticTokenProvider: (services) => new PipelineSqlSemanticTokenProvider(services),
        CodeLensProvider: () => new PipelineSqlCodeLensProvider(),
    },
    validation: {
        DocumentValidator: (services) => new PipelineSqlDocumentValidator(services),
    },
};

/** Context for creating the services: Langium's file system plus optional overrides for tests. */
export interface PipelineSqlModuleContext extends DefaultSharedModuleContext {
    /** Replaces or adds language services (tests swap catalogs or profiles here). */
    module?: Module<PipelineSqlServices, PartialLangiumServices & Partial<PipelineSqlAddedServices>>;
    /** Replaces or adds shared (workspace-wide) services. */
    sharedModule?: Module<LangiumSharedServices, PartialLangiumSharedServices>;
}

/**
 * Creates the shared and the language-specific services. The language server, the CLI and the
 * tests all go through this one factory, so they see the same parser, scoping and validation.
 */
export function createPipelineSqlServices(context: PipelineSqlModuleContext): {
    shared: LangiumSharedServices;
    PipelineSql: PipelineSqlServices;
} {
    const shared = inject(
        createDefaultSharedModule(context),
        PipelineSqlGeneratedSharedModule,
        (context.sharedModule ?? {}) as Module<LangiumSharedServices, PartialLangiumSharedServices>,
    );
    const PipelineSql = inject(
        createDefaultModule({ shared }),
        PipelineSqlGeneratedModule as Module<PipelineSqlServices, PartialLangiumCoreServices>,
        PipelineSqlModule,
        (context.module ?? {}) as Module<PipelineSqlServices, PartialLangiumServices>,
    );
    shared.ServiceRegistry.register(PipelineSql);
    return { shared, PipelineSql };
}

