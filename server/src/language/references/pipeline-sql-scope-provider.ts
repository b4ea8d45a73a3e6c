import type { AstNode, AstNodeDescription, ReferenceInfo, Scope, Stream } from 'langium';
import { AstUtils, DefaultScopeProvider, EMPTY_SCOPE, stream } from 'langium';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import type { PipelineInfo, PipelineRegistry } from '../pipeline/pipeline-registry.js';
import type { NamespaceDefaults, TableName } from './dataset-names.js';
import { namespaceDefaultsAt, statementOf } from './pipeline-namespaces.js';
import type { PipelineSymbolIndex } from './pipeline-symbol-index.js';

/**
 * Scope provider (Langium's `ScopeProvider` service). The grammar's only cross-reference is the
 * dataset reference (`DatasetRef.ref`): in a query it names a CTE of an enclosing query, a dataset of
 * the same pipeline (`x`, `LIVE.x`, `sch.x` when the pipeline's schema is `sch`) or a table of the
 * pipeline's sample catalog; as a flow target or AUTO CDC source it never names a CTE. A name found
 * nowhere stays unresolved: it may be a table of the real catalog, which the validator reports as a
 * warning.
 */
export class PipelineSqlScopeProvider extends DefaultScopeProvider {

    private readonly registry: PipelineRegistry;
    private readonly symbolIndex: PipelineSymbolIndex;

    constructor(services: PipelineSqlServices) {
        super(services);
        this.registry = services.pipeline.Registry;
        this.symbolIndex = services.references.SymbolIndex;
    }

    override getScope(context: ReferenceInfo): Scope {
        const container = context.container;
        if (!ast.isDatasetRef(container)) {
            return EMPTY_SCOPE;
        }
        switch (context.property) {
            case 'ref':
                return new DatasetScope(container, this.registry, this.symbolIndex, allowsCommonTableExpressions(container));
            default:
                return EMPTY_SCOPE;
        }
    }
}

/**
 * Whether a dataset reference may name a CTE: only where it reads a relation inside a query. Flow
 * targets, AUTO CDC sources, the legacy `FROM SNAPSHOT table` and DML targets name datasets.
 */
function allowsCommonTableExpressions(reference: ast.DatasetRef): boolean {
    const owner = reference.$container;
    switch (owner?.$type) {
        case ast.TableReference.$type:
        case ast.TableQuery.$type:
        case ast.TableArgument.$type:
            return true;
        default:
            return false;
    }
}

/**
 * The scope of one dataset reference. Lookup is by Spark's rules, not by exact text: case-insensitive,
 * `LIVE.` dropped, qualified names compared with the pipeline's default catalog and schema.
 */
export class DatasetScope implements Scope {

    private readonly pipeline: PipelineInfo;
    private readonly defaults: NamespaceDefaults;

    constructor(
        private readonly reference: ast.DatasetRef,
        registry: PipelineRegistry,
        private readonly symbolIndex: PipelineSymbolIndex,
        private readonly ctes: boolean,
    ) {
        const document = AstUtils.getDocument(reference);
        this.pipeline = registry.pipelineOf(document.uri);
        this.defaults = namespaceDefaultsAt(reference, this.pipeline.spec);
    }

    getElement(text: string): AstNodeDescription | undefined {
        const name = this.symbolIndex.parseName(this.pipeline, text);
        if (name.parts.length === 0) {
            return undefined;
        }
        if (this.ctes && name.parts.length === 1 && !name.live) {
            const cte = this.visibleCommonTableExpressions().find(d => d.name.toLowerCase() === name.keys[0]);
            if (cte) {
                return cte;
            }
        }
        const datasets = this.symbolIndex.findDatasets(this.pipeline, name, this.defaults);
        if (datasets.length > 0 && !this.isUncertainSelfReference(name, datasets[0].node)) {
            return datasets[0].description;
        }
        return this.symbolIndex.findCatalogTable(this.pipeline, name)?.description;
    }

    getElements(text: string): Stream<AstNodeDescription> {
        const element = this.getElement(text);
        return stream(element ? [element] : []);
    }

    getAllElements(): Stream<AstNodeDescription> {
        const symbols = this.symbolIndex.symbolsOf(this.pipeline.id);
        const ctes = this.ctes ? this.visibleCommonTableExpressions() : [];
        return stream(ctes)
            .concat(stream(symbols.datasets.values()).map(s => s.description))
            .concat(stream(symbols.catalogTables.values()).map(s => s.description));
    }

    /**
     * A qualified reference inside the definition of the dataset it would name (`CREATE MATERIALIZED
     * VIEW sales AS SELECT * FROM ${src}.raw.sales`), or inside a flow into it, most likely reads a
     * source table of the same name; only an unqualified or `LIVE.` reference to itself is taken as
     * a (cyclic) self-reference.
     */
    private isUncertainSelfReference(name: TableName, target: ast.Dataset): boolean {
        if (name.keys.length < 2 || name.live || this.reference.$containerProperty === 'target') {
            return false;
        }
        const statement = statementOf(this.reference);
        if (statement === target) {
            return true;
        }
        const flowTarget = ast.isCreateFlow(statement) ? statement.body?.target : ast.isApplyChanges(statement) ? statement.target : undefined;
        return flowTarget !== undefined && flowTarget !== this.reference
            && this.symbolIndex.parseName(this.pipeline, flowTarget.ref?.$refText ?? '').keys.at(-1) === name.keys.at(-1);
    }

    /**
     * The CTEs visible at the reference, innermost query first. Inside a CTE's own query, only the CTEs
     * declared before it are visible (and itself, in a `WITH RECURSIVE`): a non-recursive CTE named like
     * a table reads the table.
     */
    private visibleCommonTableExpressions(): AstNodeDescription[] {
        const localSymbols = AstUtils.getDocument(this.reference).localSymbols;
        if (!localSymbols) {
            return [];
        }
        const result: AstNodeDescription[] = [];
        let child: AstNode = this.reference;
        let current: AstNode | undefined = this.reference.$container;
        while (current) {
            if (ast.isQuery(current) && localSymbols.has(current)) {
                const query = current;
                const own = ast.isCommonTableExpression(child) ? query.ctes.indexOf(child) : -1;
                result.push(...localSymbols.getStream(query).filter(d => {
                    if (own < 0) {
                        return true;
                    }
                    const position = query.ctes.indexOf(d.node as ast.CommonTableExpression);
                    return position < own || (position === own && query.recursive);
                }));
            }
            child = current;
            current = current.$container;
        }
        return result;
    }
}
