/**
 * What each document's diagnostics depend on in other documents, so that an edit revalidates exactly
 * the documents whose diagnostics may change. Langium relinks the documents that reference a changed
 * document; it does not know that a dataset's columns flow on to the readers of its readers, that a
 * second definition makes both definitions duplicates, or that a new flow into a table changes the
 * rules for the other flows into it. Each validated document records the table names it mentions
 * and a digest of what the pipeline model says about those names; after an update, documents whose
 * digest changed are revalidated, and their names propagate further, until nothing changes.
 */
import type { AstNode, LangiumDocument, URI } from 'langium';
import { AstUtils } from 'langium';
import { typeToString } from '../../../../engine/src/spark/spark-types.js';
import * as ast from '../generated/ast.js';
import { closestNamesIn, lastKey, type TableName } from '../references/dataset-names.js';
import type { PipelineSymbolIndex } from '../references/pipeline-symbol-index.js';
import type { TypeComputer } from '../types/pipeline-sql-type-computer.js';
import { printRelation } from '../types/relation-type.js';
import type { FlowInfo, PipelineModel, PipelineModelService } from './pipeline-model.js';
import type { PipelineRegistry } from './pipeline-registry.js';
import type { SampleCatalog } from './sample-catalog.js';

/** What one validated document depends on. */
export interface DependencyRecord {
    readonly pipelineId: string;
    /** Lower-case table names the document defines, writes or reads. */
    readonly names: ReadonlySet<string>;
    /** A digest of what the model said about those names when the document was validated. */
    readonly digest: string;
    /**
     * Whether a name the document reads or writes is defined nowhere: its "did you mean" suggestions
     * depend on every dataset name of the pipeline, not only on the names the document mentions.
     */
    readonly unresolved: boolean;
}

/**
 * Records and compares the model facts each document's validation used (a Pipeline SQL service,
 * `pipeline.Dependencies`). The document builder asks it which documents need revalidation.
 */
export class PipelineDependencies {

    // The state of the last validation of each document (not a memo: it must survive the document
    // changes a DocumentCache would clear it on, to be compared with the state after them).
    private readonly records = new Map<string, DependencyRecord>();

    constructor(
        private readonly registry: PipelineRegistry,
        private readonly model: PipelineModelService,
        private readonly types: () => TypeComputer,
        private readonly symbols: PipelineSymbolIndex,
        private readonly samples: SampleCatalog,
    ) {}

    /** Called when a document has been validated: records its names and digest. */
    record(document: LangiumDocument): void {
        this.records.set(document.uri.toString(), this.compute(document));
    }

    /** The record of a document's last validation. */
    get(uri: URI | string): DependencyRecord | undefined {
        return this.records.get(uri.toString());
    }

    /** Forgets a deleted document. */
    forget(uri: URI | string): void {
        this.records.delete(uri.toString());
    }

    /** Every recorded document. */
    entries(): IterableIterator<[string, DependencyRecord]> {
        return this.records.entries();
    }

    /** Whether a document's digest differs from the one recorded at its last validation. */
    changed(document: LangiumDocument): boolean {
        const previous = this.records.get(document.uri.toString());
        return !previous || previous.digest !== this.compute(document).digest;
    }

    /** The names and digest of a document under the current model. */
    compute(document: LangiumDocument): DependencyRecord {
        const pipeline = this.registry.pipelineOf(document.uri);
        const model = this.model.model(pipeline);
        const names = this.namesOf(document, model);
        const parts: string[] = [];
        let unresolved = false;
        for (const name of [...names].sort()) {
            const description = this.describeName(name, model);
            unresolved ||= description.undefined;
            parts.push(description.text);
        }
        return { pipelineId: pipeline.id, names, digest: parts.join('\n'), unresolved };
    }

    private namesOf(document: LangiumDocument, model: PipelineModel): Set<string> {
        const names = new Set<string>();
        const root = document.parseResult.value;
        if (!ast.isPipelineFile(root)) {
            return names;
        }
        for (const statement of root.statements) {
            if (ast.isDataset(statement) && statement.name) {
                names.add(lastKey(this.symbols.parseName(model.pipeline, statement.name)));
            } else if (ast.isCreateFlow(statement) && statement.name) {
                names.add(`flow:${statement.name.toLowerCase()}`);
            }
        }
        for (const reference of document.references) {
            if (!('ref' in reference) || ast.isCommonTableExpression(reference.ref)) {
                continue;
            }
            names.add(lastKey(this.symbols.parseName(model.pipeline, reference.$refText)));
            if (!reference.ref) {
                // A table outside the pipeline: its sample data may change its columns.
                names.add(`source:${reference.$refText.toLowerCase()}`);
            }
        }
        return names;
    }

    /**
     * Everything the model knows about one table name that a document's diagnostics may depend on;
     * `undefined` when the name is defined neither in the pipeline nor in its catalog.
     */
    private describeName(name: string, model: PipelineModel): { text: string; undefined: boolean } {
        const text = this.describeDefinedName(name, model);
        if (text !== undefined) {
            return { text, undefined: false };
        }
        // The suggestions of the "not found" messages and quick fixes.
        return { text: `${name}: undefined, closest ${closestNamesIn(name, model.datasetNames()).join(',')}`, undefined: true };
    }

    private describeDefinedName(name: string, model: PipelineModel): string | undefined {
        if (name.startsWith('source:')) {
            const table = this.symbols.parseName(model.pipeline, name.slice('source:'.length));
            const source = this.samples.conventionTable(model.pipeline, table);
            return `${name}: ${source ? `${printRelation(source.relation)} ${source.problem ?? ''}` : 'not sampled'}${this.describePython(table, model)}`;
        }
        if (name.startsWith('flow:')) {
            // Explicit flow names must be unique: who else uses this one, and where.
            const flows = model.flowsNamed(name.slice('flow:'.length)).filter(f => ast.isCreateFlow(f.statement));
            return `${name}: ${flows.map(f => `${f.documentUri.toString()}:${f.statement.$cstNode?.range.start.line ?? -1}`).join(' ')}`;
        }
        const datasets = model.datasetsNamed(name);
        const python = this.describePython(this.symbols.parseName(model.pipeline, name), model);
        if (datasets.length === 0 && python !== '') {
            return `${name}:${python}`;
        }
        // Positions matter only to the messages about duplicates, which name the other definition's line.
        const position = (node: AstNode): string => (datasets.length > 1 ? `:${node.$cstNode?.range.start.line ?? -1}` : '');
        if (datasets.length === 0) {
            const catalog = this.symbols.symbolsOf(model.pipeline.id).catalogTables.get(name);
            return catalog.length > 0 ? `${name}: catalog ${catalog.map(c => printRelation(this.types().datasetSchema(c.node))).join(' | ')}` : undefined;
        }
        const types = this.types();
        return python + datasets.map(d => [
            `${name}: ${d.kind} ${d.documentUri.toString()}${position(d.node)} ${d.private ? 'private' : ''}`,
            `  schema ${printRelation(types.datasetSchema(d.node))}`,
            `  expectations ${(d.node.spec?.elements ?? []).filter(ast.isExpectation).map(e => e.name).join(',')}`,
            `  cycle ${model.cycleOf(d)?.map(c => c.displayName).join(',') ?? ''}`,
            ...d.flows.map(f => `  flow ${this.describeFlow(f, model)}`),
        ].join('\n')).join('\n');
    }

    /** The Python datasets of this name: kind, where (duplicate messages name the line) and declared columns. */
    private describePython(name: TableName, model: PipelineModel): string {
        return (model.python?.find(name, {}) ?? []).map(entry => ` python ${entry.kind} ${entry.file}:${entry.dataset.range.start.line}`
            + ` ${(entry.dataset.schema?.columns ?? []).map(c => `${c.name} ${typeToString(c.type)}`).join(',')}`).join('');
    }

    private describeFlow(flow: FlowInfo, model: PipelineModel): string {
        const spec = flow.cdc ?? flow.snapshot;
        const types = this.types();
        const cdc = spec ? [
            `keys ${(spec.keys?.names ?? []).join(',').toLowerCase()}`,
            `scd ${types.scdKind(spec)}`,
            `ignore-nulls ${spec.clauses.some(ast.isIgnoreNullUpdatesClause)}`,
            `sequence ${flow.cdc ? flow.cdc.clauses.filter(ast.isSequenceByClause).map(c => (c.expression ? typeToString(types.typeOf(c.expression)) : '')).join(',') : ''}`,
        ].join(' ') : '';
        const mode = flow.query ? model.queryMode(flow) : '';
        const statement = AstUtils.getDocument(flow.statement).uri.toString();
        return `${flow.name} ${flow.kind} ${statement} ${mode} ${cdc}`;
    }
}
