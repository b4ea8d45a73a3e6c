/**
 * Editor features of pipeline test files (`*.test.yml`, which stay YAML documents): diagnostics for
 * the file's own mistakes and for names its pipeline does not know (datasets, source tables,
 * columns, expectations), completion of those names at the YAML keys where they go, and hover on
 * them with the cards of the SQL hover. What the pipeline knows comes from its model (the datasets
 * and flows of its SQL, the schemas of their columns, the sample catalog); test files never become
 * Langium documents.
 */
import { DocumentState, URI, type LangiumDocuments } from 'langium';
import type { CancellationToken, CompletionItem, CompletionList, Connection, Diagnostic, Hover, HoverParams, CompletionParams } from 'vscode-languageserver';
import { CompletionItemKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ErrorClass } from '../../../engine/src/spark/error-classes.js';
import { typeToString } from '../language/builtins/index.js';
import * as ast from '../language/generated/ast.js';
import type { PipelineSqlHoverProvider } from '../language/lsp/pipeline-sql-hover-provider.js';
import { codeSpan, relationTable } from '../language/lsp/lsp-text.js';
import type { SymbolTarget } from '../language/lsp/pipeline-sql-symbols.js';
import type { PipelineSqlServices, PipelineSqlSharedServices } from '../language/pipeline-sql-module.js';
import { functionName } from '../language/pipeline/pipeline-model.js';
import { displayName } from '../language/references/dataset-names.js';
import type { RelationType } from '../language/types/relation-type.js';
import { problemToDiagnostic } from '../project/project-diagnostics.js';
import type { PipelineProject } from '../project/project-types.js';
import { YamlFile } from '../project/yaml-file.js';
import { isTestFileName, readTestFile, type TestFile } from '../testing/test-file.js';
import { checkTestNames, findSource, findTestDataset, type TestPipelineNames, type TestTableInfo } from '../testing/test-file-names.js';
import { roleOfContainer, TestFileOutline, type KeyRole } from '../testing/test-file-outline.js';
import { pipelineOfTest } from '../testing/test-runner.js';

/** Whether a document URI is a pipeline test file (by its name: `*.test.yml`). */
export function isTestFileUri(uri: string | URI): boolean {
    const path = typeof uri === 'string' ? URI.parse(uri).path : uri.path;
    return isTestFileName(path.slice(path.lastIndexOf('/') + 1));
}

/** What the pipeline of a test file knows, with the SQL behind each name (for hovers). */
interface TestFileScope {
    readonly pipeline?: PipelineProject;
    readonly names?: TestPipelineNames;
    /** Why the file has no pipeline. */
    readonly error?: string;
    readonly relations: Map<TestTableInfo, RelationType>;
    readonly cards: Map<TestTableInfo, () => string | undefined>;
}

const metricKeys = ['expectations', 'num_output_rows', 'num_upserted_rows', 'num_deleted_rows'];
const expectationMetrics = ['passed_records', 'failed_records', 'dropped_records'];

/**
 * The test-file features of the language server: diagnostics of the open test files (published
 * when they change and when the pipelines' documents are rebuilt), hover and completion.
 */
export class TestFileFeatures {
    private readonly documents: LangiumDocuments;
    private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();

    constructor(private readonly connection: Connection, private readonly shared: PipelineSqlSharedServices, private readonly services: PipelineSqlServices) {
        this.documents = shared.workspace.LangiumDocuments;
        // The pipelines' datasets and columns changed: recheck every open test file.
        shared.workspace.DocumentBuilder.onBuildPhase(DocumentState.Validated, () => this.openTestFiles().forEach(d => this.changed(d.uri)));
        shared.pipeline.Project.onDidChange(() => this.openTestFiles().forEach(d => this.changed(d.uri)));
    }

    /** A test file was opened or edited: its diagnostics are published shortly after. */
    changed(uri: string): void {
        clearTimeout(this.pending.get(uri));
        this.pending.set(uri, setTimeout(() => {
            this.pending.delete(uri);
            void this.publish(uri).catch((error: unknown) => console.error(`Checking the test file ${uri} failed:`, error));
        }, 150));
    }

    /** A test file was closed: its diagnostics go. */
    closed(uri: string): void {
        clearTimeout(this.pending.get(uri));
        this.pending.delete(uri);
        void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    }

    /** The diagnostics of a test file's text. */
    async diagnostics(uri: string, text: string): Promise<Diagnostic[]> {
        const file = URI.parse(uri).fsPath;
        const test = readTestFile(file, text);
        const problems = [...test.problems];
        const scope = await this.scope(test);
        if (scope.error) {
            const yaml = new YamlFile(file, text);
            problems.push(yaml.problem(test.pipeline !== undefined ? ['pipeline'] : [], ErrorClass.testNoPipeline, scope.error, { severity: 'warning' }));
        } else if (scope.names) {
            problems.push(...checkTestNames(test, text, scope.names));
        }
        return problems.map(problemToDiagnostic);
    }

    /** Hover on a dataset, source table, column or expectation name of a test file. */
    async hover(params: HoverParams): Promise<Hover | null> {
        const document = this.shared.workspace.TextDocuments.get(params.textDocument.uri);
        if (!document) {
            return null;
        }
        const outline = new TestFileOutline(document.getText());
        const key = outline.keyAt(document.offsetAt(params.position));
        const role = key ? roleOfContainer(key.path.slice(0, -1)) : undefined;
        if (!key || !role) {
            return null;
        }
        const name = String(key.path[key.path.length - 1]);
        const scope = await this.scope(readTestFile(URI.parse(params.textDocument.uri).fsPath, document.getText()));
        const value = scope.names ? this.card(scope, role, name) : undefined;
        return value ? { contents: { kind: 'markdown', value }, range: { start: document.positionAt(key.start), end: document.positionAt(key.end) } } : null;
    }

    /** Completion of the names that go at the YAML key under the cursor. */
    async completion(params: CompletionParams): Promise<CompletionList | null> {
        const document = this.shared.workspace.TextDocuments.get(params.textDocument.uri);
        if (!document) {
            return null;
        }
        const text = document.getText();
        const outline = new TestFileOutline(text);
        const context = outline.contextAt(document.offsetAt(params.position));
        const role = context ? roleOfContainer(context.container) : undefined;
        if (!context || !role) {
            return null;
        }
        const scope = await this.scope(readTestFile(URI.parse(params.textDocument.uri).fsPath, text));
        const taken = new Set(outline.keys
            .filter(k => k.path.length === context.container.length + 1 && context.container.every((p, i) => k.path[i] === p) && !(k.start === context.start))
            .map(k => String(k.path[k.path.length - 1]).toLowerCase()));
        const range = { start: document.positionAt(context.start), end: document.positionAt(context.end) };
        const items: CompletionItem[] = this.candidates(scope, role)
            .filter(c => !taken.has(c.label.toLowerCase()))
            .map((c, i) => ({ ...c, sortText: String(i).padStart(4, '0'), textEdit: { range, newText: yamlKey(c.label) } }));
        return { isIncomplete: false, items };
    }

    private candidates(scope: TestFileScope, role: KeyRole): Array<Omit<CompletionItem, 'textEdit'> & { label: string }> {
        const names = scope.names;
        switch (role.kind) {
            case 'test': return ['name', 'pipeline', 'schemas', 'updates', 'ordered'].map(label => ({ label, kind: CompletionItemKind.Property }));
            case 'update': return ['name', 'now', 'full_refresh', 'inputs', 'expect', 'expect_metrics', 'expect_error', 'ordered'].map(label => ({ label, kind: CompletionItemKind.Property }));
            case 'source': return (names?.sources ?? []).map(s => ({ label: s.name, kind: s.files ? CompletionItemKind.File : CompletionItemKind.Class, detail: s.files ? 'files read by read_files' : 'source table' }));
            case 'dataset': return (names?.datasets ?? []).map(d => ({ label: d.name, kind: CompletionItemKind.Class, detail: 'dataset' }));
            case 'metrics': return metricKeys.map(label => ({ label, kind: CompletionItemKind.Property }));
            case 'expectation': {
                const dataset = names ? findTestDataset(names.datasets, role.dataset) : undefined;
                return (dataset?.expectations ?? []).map(label => ({ label, kind: CompletionItemKind.Constant, detail: `expectation of ${dataset!.name}` }));
            }
            case 'column': {
                const table = !names ? undefined : role.of === 'source' ? findSource(names.sources, role.table) : findTestDataset(names.datasets, role.table);
                return (table?.columns ?? []).map(c => ({ label: c.name, kind: CompletionItemKind.Field, ...(c.type ? { detail: c.type } : {}) }));
            }
        }
    }

    private card(scope: TestFileScope, role: KeyRole, name: string): string | undefined {
        const names = scope.names!;
        switch (role.kind) {
            case 'source': {
                const source = findSource(names.sources, name);
                return source ? scope.cards.get(source)?.() : undefined;
            }
            case 'dataset': {
                const dataset = findTestDataset(names.datasets, name);
                return dataset ? scope.cards.get(dataset)?.() : undefined;
            }
            case 'column': {
                const table = role.of === 'source' ? findSource(names.sources, role.table) : findTestDataset(names.datasets, role.table);
                const relation = table ? scope.relations.get(table) : undefined;
                const column = relation?.columns.find(c => c.name.toLowerCase() === name.toLowerCase());
                return column ? this.hovers().markdown({ kind: 'column', column, type: column.type, relationName: table!.name }) : undefined;
            }
            case 'expectation': {
                const dataset = findTestDataset(names.datasets, role.dataset);
                return dataset?.expectations?.some(e => e.toLowerCase() === name.toLowerCase())
                    ? `**expectation** ${codeSpan(name)} of ${codeSpan(dataset.name)}\n\nIts metrics: ${expectationMetrics.map(m => codeSpan(m)).join(', ')}.` : undefined;
            }
            default: return undefined;
        }
    }

    /** What the pipeline of a test file knows (after the pending build of its documents). */
    private async scope(test: TestFile): Promise<TestFileScope> {
        const relations = new Map<TestTableInfo, RelationType>();
        const cards = new Map<TestTableInfo, () => string | undefined>();
        await this.shared.workspace.WorkspaceManager.ready;
        const project = this.shared.pipeline.Project;
        await project.ensureFile(test.file);
        const owner = pipelineOfTest(test, project.allPipelines());
        if ('error' in owner) {
            return { error: owner.error, relations, cards };
        }
        await this.shared.workspace.DocumentBuilder.waitUntil(DocumentState.Validated);
        const info = this.shared.pipeline.Registry.infoOf(owner.pipeline);
        const model = this.services.pipeline.Model.model(info);
        const types = this.services.types.TypeComputer;
        const hovers = this.hovers();
        const datasets: TestTableInfo[] = [];
        for (const dataset of model.datasets) {
            const relation = types.datasetSchema(dataset.node);
            const entry: TestTableInfo = {
                name: dataset.displayName, complete: relation.complete, columns: columnInfo(relation),
                expectations: (dataset.node.spec?.elements ?? []).filter(ast.isExpectation).filter(e => e.name).map(e => e.name),
            };
            datasets.push(entry);
            relations.set(entry, relation);
            cards.set(entry, () => hovers.markdown({ kind: 'dataset', node: dataset.node }));
        }
        for (const dataset of model.python?.datasets ?? []) {
            const entry: TestTableInfo = { name: dataset.displayName, complete: false };
            datasets.push(entry);
        }
        const sources: TestTableInfo[] = [];
        const seen = new Set<string>();
        for (const flow of model.flows) {
            for (const input of flow.inputs) {
                if (input.dataset || model.pythonInput(input)) {
                    continue;
                }
                let entry: TestTableInfo;
                let relation: RelationType;
                let card: () => string | undefined;
                if (ast.isTableFunctionCall(input.node)) {
                    const call = input.node;
                    const fn = functionName(call).toLowerCase();
                    const first = call.args.find(a => a.name === undefined)?.value;
                    if ((fn !== 'read_files' && fn !== 'cloud_files') || !ast.isStringLiteral(first)) {
                        continue;
                    }
                    relation = types.relationSchema(call);
                    entry = { name: first.value, files: true, complete: relation.complete && relation.columns.length > 0, columns: columnInfo(relation) };
                    card = () => [`**files read by** ${codeSpan(`${fn}('${first.value}')`)}`,
                        'In a test, the rows listed under this path are the files\' content.', relationTable(relation)].join('\n\n');
                } else {
                    const reference = input.node;
                    const target: SymbolTarget = input.catalogTable ? { kind: 'dataset', node: input.catalogTable } : { kind: 'external', reference };
                    relation = input.catalogTable ? types.datasetSchema(input.catalogTable) : types.externalSource(reference).relation;
                    const name = displayName(this.services.references.SymbolIndex.parseName(info, input.name));
                    entry = { name, complete: relation.columns.length > 0, columns: columnInfo(relation) };
                    card = () => hovers.markdown(target);
                }
                const key = `${entry.files ? 'files' : 'table'}:${entry.name.toLowerCase()}`;
                if (seen.has(key)) {
                    continue;
                }
                seen.add(key);
                sources.push(entry);
                relations.set(entry, relation);
                cards.set(entry, card);
            }
        }
        return { pipeline: owner.pipeline, names: { sources, datasets, complete: owner.pipeline.pythonFiles.length === 0 }, relations, cards };
    }

    private hovers(): PipelineSqlHoverProvider {
        return this.services.lsp.HoverProvider as PipelineSqlHoverProvider;
    }

    private openTestFiles(): TextDocument[] {
        return this.shared.workspace.TextDocuments.all().filter(d => isTestFileUri(d.uri) && !this.documents.hasDocument(URI.parse(d.uri)));
    }

    private async publish(uri: string): Promise<void> {
        const document = this.shared.workspace.TextDocuments.get(uri);
        if (!document) {
            return;
        }
        const version = document.version;
        const diagnostics = await this.diagnostics(uri, document.getText());
        // An edit while checking: its own check publishes.
        if (this.shared.workspace.TextDocuments.get(uri)?.version === version) {
            await this.connection.sendDiagnostics({ uri, diagnostics });
        }
    }
}

function columnInfo(relation: RelationType): TestTableInfo['columns'] {
    return relation.columns.map(c => ({ name: c.name, type: typeToString(c.type) }));
}

/** A name as a YAML key: plain when YAML reads it back unchanged, else double-quoted. */
function yamlKey(name: string): string {
    return /^[A-Za-z_][\w.$-]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * Routes hover and completion requests for test files to {@link TestFileFeatures}; Langium's
 * handlers serve every other document. Call before Langium registers its handlers.
 */
export function routeTestFileRequests(connection: Connection, features: TestFileFeatures): void {
    const onHover = connection.onHover.bind(connection);
    connection.onHover = handler => onHover((params, token: CancellationToken, progress, partial) =>
        isTestFileUri(params.textDocument.uri) ? orNull('hover', () => features.hover(params)) : handler(params, token, progress, partial));
    const onCompletion = connection.onCompletion.bind(connection);
    connection.onCompletion = handler => onCompletion((params, token: CancellationToken, progress, partial) =>
        isTestFileUri(params.textDocument.uri) ? orNull('completion', () => features.completion(params)) : handler(params, token, progress, partial));
}

/** A feature's answer, or none when it failed (logged: a broken test file never breaks the editor). */
async function orNull<T>(what: string, work: () => Promise<T | null>): Promise<T | null> {
    try {
        return await work();
    } catch (error) {
        console.error(`The ${what} of a test file failed:`, error);
        return null;
    }
}
