import type { Module, PartialLangiumCoreServices } from 'langium';
import { inject } from 'langium';
import type {
    DefaultSharedModuleContext, LangiumServices, LangiumSharedServices, PartialLangiumServices, PartialLangiumSharedServices,
} from 'langium/lsp';
import { createDefaultModule, createDefaultSharedModule } from 'langium/lsp';
import { PipelineSqlDocumentValidator } from './validation/pipeline-sql-document-validator.js';
import { registerValidationChecks } from './validation/pipeline-sql-validator.js';
import { PipelineSqlValidationRegistry } from './validation/pipeline-sql-validation-registry.js';
import { PipelineSqlCodeActionProvider } from './lsp/pipeline-sql-code-action-provider.js';
import { PipelineSqlCompletionProvider } from './lsp/completion/pipeline-sql-completion-provider.js';
import { PipelineSqlHoverProvider } from './lsp/pipeline-sql-hover-provider.js';
import { PipelineSqlSignatureHelpProvider } from './lsp/pipeline-sql-signature-help-provider.js';
import { PipelineSqlFormatter } from './lsp/format/pipeline-sql-formatter.js';
import { PipelineSqlInlayHintProvider } from './lsp/pipeline-sql-inlay-hint-provider.js';
import { PipelineSqlDocumentSymbolProvider, PipelineSqlFoldingRangeProvider, PipelineSqlWorkspaceSymbolProvider } from './lsp/pipeline-sql-outline.js';
import {
    PipelineSqlDefinitionProvider, PipelineSqlDocumentHighlightProvider, PipelineSqlReferencesProvider, PipelineSqlRenameProvider,
} from './lsp/pipeline-sql-navigation.js';
import { PipelineSqlLexer } from './parser/pipeline-sql-lexer.js';
import { PipelineSqlValueConverter } from './parser/pipeline-sql-value-converter.js';
import { createPipelineSqlParserConfig } from './parser/pipeline-sql-parser-config.js';
import { createPipelineSqlCompletionParser, createPipelineSqlParser } from './parser/pipeline-sql-parser.js';
import { PipelineSqlTokenBuilder } from './parser/pipeline-sql-token-builder.js';
import { PipelineSqlParserErrorMessageProvider } from './parser/pipeline-sql-parser-error-message-provider.js';
import { PipelineSqlLexerErrorMessageProvider } from './parser/pipeline-sql-lexer-error-message-provider.js';
import { PipelineSqlSemanticTokenProvider } from './lsp/pipeline-sql-semantic-token-provider.js';
import { PipelineSqlCodeLensProvider } from './lsp/pipeline-sql-code-lens-provider.js';
import { SharedFiles } from './lsp/pipeline-sql-shared-files.js';
import { PipelineSqlGeneratedModule, PipelineSqlGeneratedSharedModule, PipelineSqlLanguageMetaData } from './generated/module.js';
import { PipelineSqlScopeComputation } from './references/pipeline-sql-scope-computation.js';
import { PipelineSqlScopeProvider } from './references/pipeline-sql-scope-provider.js';
import { PipelineSymbolIndex } from './references/pipeline-symbol-index.js';
import { PipelineRegistry } from './pipeline/pipeline-registry.js';
import { ProjectModel } from '../project/project-model.js';
import { PythonDatasets } from '../project/python/python-datasets.js';
import { PipelinePython } from '../project/python/python-lookup.js';
import { langiumFileHost } from '../project/file-host.js';
import { PipelineSqlWorkspaceManager } from './pipeline/pipeline-sql-workspace-manager.js';
import { PipelineModelService } from './pipeline/pipeline-model.js';
import { SampleCatalog } from './pipeline/sample-catalog.js';
import { PipelineSqlSettings } from './pipeline/pipeline-sql-settings.js';
import { PipelineDependencies } from './pipeline/pipeline-dependencies.js';
import { PipelineSqlDocumentBuilder } from './pipeline/pipeline-sql-document-builder.js';
import { chooseScratchPipeline } from './pipeline/scratch-files.js';
import { PipelineSqlDocumentFactory } from './pipeline/pipeline-sql-document-factory.js';
import { DocumentFailures } from './pipeline/document-failures.js';
import { PipelineSqlTypeComputer, type TypeComputer } from './types/pipeline-sql-type-computer.js';

/** Workspace-wide services this project adds to Langium's shared services. */
export type PipelineSqlAddedSharedServices = {
    pipeline: {
        /** The pipeline project model: which pipelines there are, their files, parameters and folders. */
        Project: ProjectModel;
        /** Which pipeline each document belongs to (a synchronous view of the project model). */
        Registry: PipelineRegistry;
        /** The exceptions of the last build of each document, reported as diagnostics on it. */
        DocumentFailures: DocumentFailures;
        /** The datasets the pipelines' Python files define (read by the project model, never run). */
        PythonDatasets: PythonDatasets;
        /** The documents of a file several pipelines list, and asking each of them (the providers' answers there). */
        SharedFiles: SharedFiles;
    };
};

/** Langium's shared services plus ours. */
export type PipelineSqlSharedServices = LangiumSharedServices & PipelineSqlAddedSharedServices;

/** Services this language adds to Langium's defaults, grouped by concern. */
export type PipelineSqlAddedServices = {
    references: {
        /** The exported datasets grouped by pipeline, and reference lookup by Spark's naming rules. */
        SymbolIndex: PipelineSymbolIndex;
    };
    pipeline: {
        /** The shared pipeline registry, also reachable from the language services. */
        Registry: PipelineRegistry;
        /** Datasets, flows and the dependency graph of each pipeline. */
        Model: PipelineModelService;
        /** Schemas of source tables and files outside the pipeline (the `samples/` catalog). */
        SampleCatalog: SampleCatalog;
        /** The target runtime profile the validation follows. */
        Settings: PipelineSqlSettings;
        /** What each document's diagnostics depend on in other documents (for revalidation). */
        Dependencies: PipelineDependencies;
        /** The Python-defined datasets of a document's pipeline, and the one a reference names. */
        Python: PipelinePython;
    };
    types: {
        /** Schema inference: columns and types of datasets, queries and expressions. */
        TypeComputer: TypeComputer;
    };
};

/** Every service of the Pipeline SQL language: Langium's LSP services plus ours. */
export type PipelineSqlServices = LangiumServices & PipelineSqlAddedServices & { shared: PipelineSqlSharedServices };

/** The dependency-injection module that binds our service implementations. */
export const PipelineSqlModule: Module<PipelineSqlServices, PartialLangiumServices & PipelineSqlAddedServices> = {
    // Production mode: Chevrotain skips its self-checks of the grammar and the tokens when the lexer and
    // the parser are built (a third of their start-up). A unit test builds them in development mode,
    // which runs the checks (test/server/language/parsing/grammar-checks.test.ts).
    LanguageMetaData: () => ({ ...PipelineSqlLanguageMetaData, mode: 'production' }),
    parser: {
        Lexer: (services) => new PipelineSqlLexer(services),
        LangiumParser: (services) => createPipelineSqlParser(services),
        CompletionParser: (services) => createPipelineSqlCompletionParser(services),
        TokenBuilder: () => new PipelineSqlTokenBuilder(),
        ValueConverter: () => new PipelineSqlValueConverter(),
        ParserConfig: () => createPipelineSqlParserConfig(),
        ParserErrorMessageProvider: (services) => new PipelineSqlParserErrorMessageProvider(services),
        LexerErrorMessageProvider: () => new PipelineSqlLexerErrorMessageProvider(),
    },
    references: {
        ScopeComputation: (services) => new PipelineSqlScopeComputation(services),
        ScopeProvider: (services) => new PipelineSqlScopeProvider(services),
        SymbolIndex: (services) => new PipelineSymbolIndex(services.shared, services.pipeline.Registry),
    },
    pipeline: {
        Registry: (services) => services.shared.pipeline.Registry,
        Model: (services) => new PipelineModelService(services.shared, services.pipeline.Registry, services.references.SymbolIndex, () => services.pipeline.Python),
        SampleCatalog: (services) => new SampleCatalog(services.shared),
        Settings: () => new PipelineSqlSettings(),
        Python: (services) => new PipelinePython(services),
        Dependencies: (services) => new PipelineDependencies(services.pipeline.Registry, services.pipeline.Model,
            () => services.types.TypeComputer, services.references.SymbolIndex, services.pipeline.SampleCatalog),
    },
    types: {
        TypeComputer: (services) => new PipelineSqlTypeComputer(services),
    },
    validation: {
        DocumentValidator: (services) => new PipelineSqlDocumentValidator(services),
        ValidationRegistry: (services) => new PipelineSqlValidationRegistry(services),
    },
    lsp: {
        CompletionProvider: (services) => new PipelineSqlCompletionProvider(services),
        HoverProvider: (services) => new PipelineSqlHoverProvider(services),
        DefinitionProvider: (services) => new PipelineSqlDefinitionProvider(services),
        ReferencesProvider: (services) => new PipelineSqlReferencesProvider(services),
        DocumentHighlightProvider: (services) => new PipelineSqlDocumentHighlightProvider(services),
        RenameProvider: (services) => new PipelineSqlRenameProvider(services),
        SignatureHelp: (services) => new PipelineSqlSignatureHelpProvider(services),
        DocumentSymbolProvider: (services) => new PipelineSqlDocumentSymbolProvider(services),
        FoldingRangeProvider: (services) => new PipelineSqlFoldingRangeProvider(services),
        Formatter: (services) => new PipelineSqlFormatter(services),
        InlayHintProvider: (services) => new PipelineSqlInlayHintProvider(services),
        CodeActionProvider: (services) => new PipelineSqlCodeActionProvider(services),
        SemanticTokenProvider: (services) => new PipelineSqlSemanticTokenProvider(services),
        CodeLensProvider: (services) => new PipelineSqlCodeLensProvider(services),
    },
};

/** The dependency-injection module of the shared (workspace-wide) services we add or replace. */
export const PipelineSqlSharedModule: Module<PipelineSqlSharedServices, PartialLangiumSharedServices & PipelineSqlAddedSharedServices> = {
    pipeline: {
        Project: (shared) => new ProjectModel(langiumFileHost(shared.workspace.FileSystemProvider)),
        Registry: (shared) => new PipelineRegistry(shared.pipeline.Project, uri => {
            // The editor's buffer first (the newest text), else the loaded document's.
            const documents = shared.workspace.LangiumDocuments;
            return shared.workspace.TextDocuments?.get(uri.toString())?.getText()
                ?? (documents.hasDocument(uri) ? documents.getDocument(uri)!.textDocument.getText() : undefined);
        }),
        DocumentFailures: () => new DocumentFailures(),
        PythonDatasets: (shared) => new PythonDatasets(shared.pipeline.Project),
        SharedFiles: (shared) => new SharedFiles(shared),
    },
    workspace: {
        WorkspaceManager: (shared) => new PipelineSqlWorkspaceManager(shared),
        DocumentBuilder: (shared) => new PipelineSqlDocumentBuilder(shared),
        LangiumDocumentFactory: (shared) => new PipelineSqlDocumentFactory(shared),
    },
    lsp: {
        WorkspaceSymbolProvider: (shared) => new PipelineSqlWorkspaceSymbolProvider(shared),
    },
};

/** Context for creating the services: Langium's file system plus optional overrides for tests. */
export interface PipelineSqlModuleContext extends DefaultSharedModuleContext {
    /** Replaces or adds language services (tests swap catalogs or profiles here). */
    module?: Module<PipelineSqlServices, PartialLangiumServices & Partial<PipelineSqlAddedServices>>;
    /** Replaces or adds shared (workspace-wide) services. */
    sharedModule?: Module<PipelineSqlSharedServices, PartialLangiumSharedServices & Partial<PipelineSqlAddedSharedServices>>;
}

/**
 * Creates the shared and the language-specific services. The language server, the CLI and the
 * tests all go through this one factory, so they see the same parser, scoping and validation.
 */
export function createPipelineSqlServices(context: PipelineSqlModuleContext): {
    shared: PipelineSqlSharedServices;
    PipelineSql: PipelineSqlServices;
} {
    // Each module is typed as a module of the full shared services, so that `inject` need not
    // compute the intersection of the partial module types (which exceeds TypeScript's depth limit).
    type SharedModule = Module<PipelineSqlSharedServices, Partial<PipelineSqlSharedServices>>;
    const shared: PipelineSqlSharedServices = inject(
        createDefaultSharedModule(context) as unknown as SharedModule,
        PipelineSqlGeneratedSharedModule as unknown as SharedModule,
        PipelineSqlSharedModule as unknown as SharedModule,
        (context.sharedModule ?? {}) as unknown as SharedModule,
    );
    const PipelineSql = inject(
        createDefaultModule({ shared }),
        PipelineSqlGeneratedModule as Module<PipelineSqlServices, PartialLangiumCoreServices>,
        PipelineSqlModule,
        (context.module ?? {}) as Module<PipelineSqlServices, PartialLangiumServices>,
    );
    // The Python reader registers with the project model before any pipeline is loaded.
    void shared.pipeline.PythonDatasets;
    shared.ServiceRegistry.register(PipelineSql);
    // A scratch file under a bundle root several pipelines share belongs to the one whose datasets it names.
    shared.pipeline.Registry.setScratchChooser((candidates, text) => chooseScratchPipeline(PipelineSql, candidates, text, { strict: false }));
    registerValidationChecks(PipelineSql);
    return { shared, PipelineSql };
}

