// A small builder for hand-written engine IR in tests: each helper mirrors one piece of Spark SQL
// so that a test reads close to the SQL it stands for.
import type {
    AppendFlowIR, AutoCdcFlowIR, CatalogTableIR, ColumnSelectionIR, DataType, DatasetIR, ExprIR, FlowIR, MaterializedViewFlowIR,
    PipelineIR, QueryIR, RelationIR, ReplaceUsingFlowIR, ReplaceWhereFlowIR, SelectIR, SelectItemIR, SnapshotFlowIR, SortItemIR,
    SourceSpan, TableRelationIR, ExpectationIR, BinaryExprIR, WindowFrameIR,
} from '../../../engine/src/ir.js';
import { parseSparkSchema, parseSparkType } from '../../../engine/src/sql/duckdb-types.js';

let line = 1;

/** A fake source span (each call gets the next line, so errors can be told apart). */
export function span(at?: number): SourceSpan {
    const l = at ?? line++;
    return { file: 'pipeline.sql', line: l, column: 1, endLine: l, endColumn: 10 };
}

/** `name` or `a.b.c` → identifier parts. */
const parts = (name: string): string[] => name.split('.');

// ---- expressions

export const col = (name: string): ExprIR => ({ kind: 'column', parts: parts(name) });
export const str = (value: string | null): ExprIR => ({ kind: 'literal', type: { kind: 'string' }, value });
export const int = (value: number): ExprIR => ({ kind: 'literal', type: { kind: 'int' }, value: String(value) });
export const bigint = (value: number | string): ExprIR => ({ kind: 'literal', type: { kind: 'bigint' }, value: String(value) });
export const dec = (text: string): ExprIR => {
    const [whole, frac = ''] = text.replace('-', '').split('.');
    return { kind: 'literal', type: { kind: 'decimal', precision: Math.max(whole.length + frac.length, 1), scale: frac.length }, value: text };
};
export const dbl = (text: string): ExprIR => ({ kind: 'literal', type: { kind: 'double' }, value: text });
export const bool = (value: boolean): ExprIR => ({ kind: 'literal', type: { kind: 'boolean' }, value });
export const nul = (type: DataType = { kind: 'void' }): ExprIR => ({ kind: 'literal', type, value: null });
export const date = (value: string): ExprIR => ({ kind: 'literal', type: { kind: 'date' }, value });
export const ts = (value: string): ExprIR => ({ kind: 'literal', type: { kind: 'timestamp' }, value });
export const lit = (type: string, value: string | number | boolean | null): ExprIR => ({ kind: 'literal', type: parseSparkType(type), value });
export const call = (name: string, ...args: ExprIR[]): ExprIR => ({ kind: 'call', name, args });
export const countStar = (): ExprIR => ({ kind: 'call', name: 'count', args: [], star: true });
export const bin = (op: BinaryExprIR['op'], left: ExprIR, right: ExprIR): ExprIR => ({ kind: 'binary', op, left, right });
export const eq = (left: ExprIR, right: ExprIR): ExprIR => bin('=', left, right);
export const and = (left: ExprIR, right: ExprIR): ExprIR => bin('and', left, right);
export const or = (left: ExprIR, right: ExprIR): ExprIR => bin('or', left, right);
export const gt = (left: ExprIR, right: ExprIR): ExprIR => bin('>', left, right);
export const not = (expr: ExprIR): ExprIR => ({ kind: 'unary', op: 'not', expr });
export const isNull = (expr: ExprIR, negate = false): ExprIR => ({ kind: 'is_null', expr, not: negate });
export const cast = (expr: ExprIR, type: string, tryCast = false): ExprIR => ({ kind: 'cast', expr, type: parseSparkType(type), try: tryCast });
export const struct = (...fields: [string, ExprIR][]): ExprIR => ({ kind: 'struct', fields: fields.map(([name, value]) => ({ name, value })) });
export const array = (...elements: ExprIR[]): ExprIR => ({ kind: 'array', elements });
export const lambda = (params: string[], body: ExprIR): ExprIR => ({ kind: 'lambda', params, body });
export const subquery = (query: QueryIR): ExprIR => ({ kind: 'subquery', query });
export const exists = (query: QueryIR, negate = false): ExprIR => ({ kind: 'exists', query, not: negate });

// ---- queries and relations

/** A table reference: a pipeline dataset (`ds:`), a catalog table (default) or a CTE (`cte:`). */
export function table(name: string, options: { streaming?: boolean; alias?: string } = {}): TableRelationIR {
    let source: TableRelationIR['source'];
    if (name.startsWith('ds:')) {
        source = { kind: 'dataset', name: parts(name.slice(3)) };
    } else if (name.startsWith('cte:')) {
        source = { kind: 'cte', name: name.slice(4) };
    } else {
        source = { kind: 'catalog', name: parts(name) };
    }
    return { kind: 'table', source, streaming: options.streaming ?? false, alias: options.alias, span: span() };
}

export const stream = (name: string, alias?: string): TableRelationIR => table(name, { streaming: true, alias });
export const snapshotVersion = (which: 'current' | 'last'): TableRelationIR => ({ kind: 'table', source: { kind: 'snapshot_version', which }, streaming: false });

export interface SelectOptions {
    from?: RelationIR[];
    where?: ExprIR;
    groupBy?: ExprIR[];
    having?: ExprIR;
    orderBy?: SortItemIR[];
    distinct?: boolean;
    limit?: number;
}

/** A select item: an expression, `[expr, alias]`, or `'*'`. */
export type Item = ExprIR | [ExprIR, string] | '*';

function item(i: Item): SelectItemIR {
    if (i === '*') {
        return { kind: 'star' };
    }
    if (Array.isArray(i)) {
        return { kind: 'expr', expr: i[0], alias: i[1] };
    }
    return { kind: 'expr', expr: i };
}

/** `SELECT items FROM ... WHERE ... GROUP BY ... HAVING ... ORDER BY ... LIMIT ...`. */
export function select(items: Item[], options: SelectOptions = {}): QueryIR {
    const body: SelectIR = {
        kind: 'select',
        distinct: options.distinct ?? false,
        items: items.map(item),
        from: options.from ?? [],
        where: options.where,
        groupBy: options.groupBy ? { items: options.groupBy.map(expr => ({ kind: 'expr' as const, expr })) } : undefined,
        having: options.having,
    };
    return {
        kind: 'query', body, orderBy: options.orderBy,
        limit: options.limit !== undefined ? int(options.limit) : undefined, span: span(),
    };
}

export const selectStar = (from: RelationIR, where?: ExprIR): QueryIR => select(['*'], { from: [from], where });

// ---- datasets and flows

export interface TableOptions {
    columns?: string;
    expectations?: ExpectationIR[];
    properties?: Record<string, string>;
}

function dataset(kind: DatasetIR['kind'], name: string, options: TableOptions = {}, query?: QueryIR): DatasetIR {
    return {
        name: parts(name), kind,
        columns: options.columns ? parseSparkSchema(options.columns).map(c => ({ name: c.name, type: c.type })) : undefined,
        expectations: options.expectations ?? [], properties: options.properties ?? {}, query, span: span(),
    };
}

export const streamingTable = (name: string, options?: TableOptions): DatasetIR => dataset('streaming_table', name, options);
export const managedTable = (name: string, options?: TableOptions): DatasetIR => dataset('managed_table', name, options);
export const materializedView = (name: string, options?: TableOptions): DatasetIR => dataset('materialized_view', name, options);
export const temporaryView = (name: string, query: QueryIR): DatasetIR => dataset('temporary_view', name, {}, query);

export const expect = (name: string, condition: ExprIR, action: ExpectationIR['action'] = 'warn'): ExpectationIR => ({ name, condition, action, span: span() });

export function appendFlow(name: string, target: string, query: QueryIR, options: { once?: boolean; byName?: boolean } = {}): AppendFlowIR {
    return { kind: 'append', name, target: parts(target), once: options.once ?? false, byName: options.byName ?? true, query, span: span() };
}

export function mvFlow(target: string, query: QueryIR): MaterializedViewFlowIR {
    return { kind: 'materialized_view', name: target, target: parts(target), query, span: span() };
}

export const sel = {
    all: (): ColumnSelectionIR => ({ kind: 'all' }),
    list: (...columns: string[]): ColumnSelectionIR => ({ kind: 'list', columns }),
    except: (...columns: string[]): ColumnSelectionIR => ({ kind: 'except', columns }),
};

export interface CdcOptions {
    once?: boolean;
    keys: string[];
    sequenceBy: ExprIR;
    systemSequenceBy?: ExprIR;
    deleteWhen?: ExprIR;
    truncateWhen?: ExprIR;
    columns?: ColumnSelectionIR;
    storedAs?: 'scd1' | 'scd2' | 'bitemporal';
    trackHistory?: ColumnSelectionIR;
    ignoreNullUpdates?: ColumnSelectionIR;
    columnsToUpdate?: string;
}

export function autoCdc(name: string, target: string, source: TableRelationIR, o: CdcOptions): AutoCdcFlowIR {
    return {
        kind: 'auto_cdc', name, target: parts(target), once: o.once ?? false, source, span: span(),
        keys: { columns: o.keys, span: span() },
        sequenceBy: { expr: o.sequenceBy, span: span() },
        systemSequenceBy: o.systemSequenceBy ? { expr: o.systemSequenceBy, span: span() } : undefined,
        applyAsDeleteWhen: o.deleteWhen ? { condition: o.deleteWhen, span: span() } : undefined,
        applyAsTruncateWhen: o.truncateWhen ? { condition: o.truncateWhen, span: span() } : undefined,
        columns: o.columns ? { selection: o.columns, span: span() } : undefined,
        storedAs: { type: o.storedAs ?? 'scd1', span: span() },
        trackHistory: o.trackHistory ? { selection: o.trackHistory, span: span() } : undefined,
        ignoreNullUpdates: o.ignoreNullUpdates ? { columns: o.ignoreNullUpdates, span: span() } : undefined,
        columnsToUpdate: o.columnsToUpdate ? { column: o.columnsToUpdate, span: span() } : undefined,
    };
}

export function snapshotFlow(name: string, target: string, o: { snapshot: QueryIR; version?: QueryIR; keys: string[]; storedAs?: 'scd1' | 'scd2'; trackHistory?: ColumnSelectionIR; once?: boolean }): SnapshotFlowIR {
    return {
        kind: 'snapshot', name, target: parts(target), once: o.once ?? false, span: span(),
        snapshot: { query: o.snapshot, span: span() },
        version: o.version ? { query: o.version, span: span() } : undefined,
        keys: { columns: o.keys, span: span() },
        storedAs: { type: o.storedAs ?? 'scd1', span: span() },
        trackHistory: o.trackHistory ? { selection: o.trackHistory, span: span() } : undefined,
    };
}

export function replaceUsing(name: string, target: string, keys: string[], sequenceBy: string, query: QueryIR): ReplaceUsingFlowIR {
    return { kind: 'replace_using', name, target: parts(target), keys: { columns: keys, span: span() }, sequenceBy: { column: sequenceBy, span: span() }, query, span: span() };
}

export function replaceWhere(name: string, target: string, condition: ExprIR, query: QueryIR): ReplaceWhereFlowIR {
    return { kind: 'replace_where', name, target: parts(target), predicate: { condition, span: span() }, query, span: span() };
}

/** A catalog declaration (`CREATE TABLE name (schema) USING format LOCATION 'location'`). */
export function catalogTable(name: string, schema: string | undefined, format: CatalogTableIR['format'], location?: string, options: Record<string, string> = {}): CatalogTableIR {
    return {
        name: parts(name), format, location, options, span: span(),
        columns: schema ? parseSparkSchema(schema).map(c => ({ name: c.name, type: c.type })) : undefined,
    };
}

export function pipeline(datasets: DatasetIR[], flows: FlowIR[], catalog: CatalogTableIR[] = [], conf: Record<string, string> = {}): PipelineIR {
    return { irVersion: 1, datasets, flows, catalog, conf };
}

/** `(query) AS alias` in FROM. */
export function sub(query: QueryIR, alias?: string, columnAliases?: string[]): RelationIR {
    return { kind: 'subquery', query, alias, columnAliases };
}

/** `VALUES (...), (...) AS alias(cols)` in FROM. */
export function values(rows: ExprIR[][], alias: string, columnAliases: string[]): RelationIR {
    return { kind: 'values', rows, alias, columnAliases };
}

/** A window function call: `name(args) OVER (PARTITION BY ... ORDER BY ...)`. */
export function over(expr: ExprIR, partitionBy: ExprIR[], orderBy: SortItemIR[], frame?: WindowFrameIR): ExprIR {
    if (expr.kind !== 'call') {
        throw new Error('over() needs a call');
    }
    return { ...expr, over: { partitionBy, orderBy, frame } };
}

/** An ORDER BY item. */
export const asc = (expr: ExprIR, nulls?: 'first' | 'last'): SortItemIR => ({ expr, direction: 'asc', nulls });
export const desc = (expr: ExprIR, nulls?: 'first' | 'last'): SortItemIR => ({ expr, direction: 'desc', nulls });
