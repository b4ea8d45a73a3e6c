// The engine's input: a plain-data, JSON-serialisable intermediate representation of a pipeline.
//
// The language server lowers its validated Langium AST into these types
// (`server/src/lowering/`); tests build them by hand. Nothing here is SQL text to pass through:
// queries and expressions are a relational AST that mirrors Spark SQL, and the engine's translator
// (`engine/src/sql/`) builds DuckDB SQL with Spark semantics from it.
//
// Conventions for producers of the IR:
// - Names of datasets, flows and catalog tables are lists of identifier parts, unquoted, with the
//   legacy `LIVE.` prefix removed. The engine compares them case-insensitively; the output keys
//   datasets by `parts.join('.')` as given in the dataset declaration.
// - Column names are single unquoted identifiers, compared case-insensitively.
// - Every node that can fail at run time may carry a `span`; the engine copies the innermost span
//   it knows into its errors. Lines and columns are 1-based; `endColumn` is exclusive.
// - Special Spark syntax is lowered to ordinary nodes: `a::t` → `cast`; `EXTRACT(f FROM e)` →
//   call `extract('f', e)`; `POSITION(a IN b)` → call `position(a, b)`; `TRIM(BOTH c FROM s)` →
//   call `trim(s, c)` (`LEADING` → `ltrim`, `TRAILING` → `rtrim`); `SUBSTRING(s FROM p FOR l)` →
//   call `substring(s, p, l)`; `a == b` → `=`; `a != b` → `<>`; `x NOT IN (...)` → `in` with `not`;
//   `MINUS` → `except`; double-quoted strings are string literals; string escapes are processed.

import type { StructField, TypeDescriptor } from './spark/spark-types.js';

/** A region of a pipeline source file (1-based line and column; `endColumn` exclusive). */
export interface SourceSpan {
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/**
 * Spark SQL data types: the one representation, `TypeDescriptor` of the Spark module
 * (`spark/spark-types.ts`), which the editor's inference, the function catalog and the engine share.
 * Lowering writes the declared types; the engine stores and translates them. A type the local engine
 * cannot store (TIME, the spatial types, `unknown`) is refused by lowering, never carried in the IR.
 */
export type DataType = TypeDescriptor;
export type { StructField };

// ---------------------------------------------------------------------------------------------
// Pipeline
// ---------------------------------------------------------------------------------------------

/** A whole pipeline: every definition of every source file, resolved and validated. */
export interface PipelineIR {
    /** IR format version; this file describes version 1. */
    irVersion: 1;
    datasets: DatasetIR[];
    flows: FlowIR[];
    /** Sample catalog tables declared in `samples/*.sql` (`CREATE TABLE a.b (...) USING fmt LOCATION 'rel'`). */
    catalog: CatalogTableIR[];
    /** Pipeline configuration: `SET key = value` statements and pipeline parameters. */
    conf: Record<string, string>;
    /**
     * Datasets the pipeline defines in Python files. The engine cannot run Python: a read of one
     * (a `catalog` source of the same name) takes its rows from the sample catalog, and an update
     * whose selected flows read one that has no sample data stops before it starts.
     */
    pythonDatasets?: PythonDatasetIR[];
}

/** A dataset defined in a Python file of the pipeline (`@dp.table`, `dlt.create_streaming_table`, ...). */
export interface PythonDatasetIR {
    name: string[];
    /** How it is defined, as written (`@dlt.table`), for messages. */
    definedBy: string;
    /** Where: the Python file and the range of the name. */
    span: SourceSpan;
}

/** Dataset kinds (docs/semantics.md §1). */
export type DatasetKind = 'streaming_table' | 'materialized_view' | 'temporary_view' | 'view' | 'managed_table';

/** A dataset defined by the pipeline. */
export interface DatasetIR {
    name: string[];
    kind: DatasetKind;
    /** Declared columns (table specification); absent when the schema is inferred from the flows. */
    columns?: ColumnIR[];
    expectations: ExpectationIR[];
    /** TBLPROPERTIES, values as strings. */
    properties: Record<string, string>;
    private?: boolean;
    comment?: string;
    /** The defining query of a temporary view or view (other kinds are written by flows). */
    query?: QueryIR;
    span: SourceSpan;
}

/** A declared column. */
export interface ColumnIR {
    name: string;
    type: DataType;
    notNull?: boolean;
    comment?: string;
    /** `GENERATED ALWAYS AS (expr)`: computed from the other columns when rows are written. */
    generated?: ExprIR;
    /** `DEFAULT expr`: used when a written row does not provide the column. */
    default?: ExprIR;
    span?: SourceSpan;
}

/** `CONSTRAINT name EXPECT (condition) [ON VIOLATION DROP ROW | FAIL UPDATE]`. */
export interface ExpectationIR {
    name: string;
    condition: ExprIR;
    /** `warn` when there is no ON VIOLATION clause. */
    action: 'warn' | 'drop' | 'fail';
    span: SourceSpan;
}

/** A sample catalog table declared in `samples/*.sql`. */
export interface CatalogTableIR {
    name: string[];
    /** Declared columns; absent = inferred from the files. */
    columns?: ColumnIR[];
    format: 'csv' | 'json' | 'parquet';
    /** Path relative to the samples folder (file or folder); absent = derived from the name. */
    location?: string;
    /** `OPTIONS (...)` such as `header`, `delimiter`; values as strings. */
    options: Record<string, string>;
    span: SourceSpan;
}

// ---------------------------------------------------------------------------------------------
// Flows
// ---------------------------------------------------------------------------------------------

/** Fields shared by every flow. */
export interface FlowBaseIR {
    /** Flow name; the target's name for inline flows (`AS query`, `FLOW ...`, legacy APPLY CHANGES). */
    name: string;
    /** The dataset written (a `DatasetIR.name`). */
    target: string[];
    comment?: string;
    /** The whole flow definition. */
    span: SourceSpan;
}

/** Every flow kind. */
export type FlowIR = AppendFlowIR | AutoCdcFlowIR | SnapshotFlowIR | ReplaceUsingFlowIR | ReplaceWhereFlowIR | MaterializedViewFlowIR;

/** `INSERT [ONCE] INTO t [BY NAME] query`, a streaming table's `AS query`, `FLOW INSERT [ONCE] BY NAME query`. */
export interface AppendFlowIR extends FlowBaseIR {
    kind: 'append';
    once: boolean;
    /** Columns matched by name (`BY NAME`, and the `AS query` of a table); otherwise by position. */
    byName: boolean;
    query: QueryIR;
}

/** Which columns a COLUMNS / TRACK HISTORY ON / IGNORE NULL UPDATES ON clause selects. */
export type ColumnSelectionIR =
    | { kind: 'all' }
    | { kind: 'list'; columns: string[] }
    | { kind: 'except'; columns: string[] };

/** `AUTO CDC [ONCE] INTO t FROM src ...` (docs/semantics.md §3.7), one field per clause, each with its span. */
export interface AutoCdcFlowIR extends FlowBaseIR {
    kind: 'auto_cdc';
    once: boolean;
    /**
     * `FROM [STREAM] src`: a table or view reference (read as a stream unless `once`), or a subquery
     * `FROM (SELECT ... FROM STREAM(src) ...)` read like a temporary view inlined (its relations are read
     * as written: STREAM(...) incrementally).
     */
    source: TableRelationIR | SubqueryRelationIR;
    keys: { columns: string[]; span?: SourceSpan };
    /** `IGNORE NULL UPDATES [ON (list) | ON * EXCEPT (list)]`; bare clause = `{ kind: 'all' }`. */
    ignoreNullUpdates?: { columns: ColumnSelectionIR; span?: SourceSpan };
    applyAsDeleteWhen?: { condition: ExprIR; span?: SourceSpan };
    applyAsTruncateWhen?: { condition: ExprIR; span?: SourceSpan };
    sequenceBy: { expr: ExprIR; span?: SourceSpan };
    systemSequenceBy?: { expr: ExprIR; span?: SourceSpan };
    columns?: { selection: ColumnSelectionIR; span?: SourceSpan };
    /** `STORED AS ...`; absent clause = SCD TYPE 1. */
    storedAs: { type: 'scd1' | 'scd2' | 'bitemporal'; span?: SourceSpan };
    trackHistory?: { selection: ColumnSelectionIR; span?: SourceSpan };
    /** `COLUMNS TO UPDATE c`: name of an ARRAY<STRING> source column. */
    columnsToUpdate?: { column: string; span?: SourceSpan };
}

/** `AUTO CDC [ONCE] INTO t FROM SNAPSHOT (q) [WITH VERSION (v)] KEYS (...) ...` (docs/semantics.md §3.8). */
export interface SnapshotFlowIR extends FlowBaseIR {
    kind: 'snapshot';
    once: boolean;
    /** The snapshot query (the legacy `FROM SNAPSHOT name` form is lowered to `SELECT * FROM name`). */
    snapshot: { query: QueryIR; span?: SourceSpan };
    version?: { query: QueryIR; span?: SourceSpan };
    keys: { columns: string[]; span?: SourceSpan };
    storedAs: { type: 'scd1' | 'scd2'; span?: SourceSpan };
    trackHistory?: { selection: ColumnSelectionIR; span?: SourceSpan };
}

/** `INSERT INTO t BY NAME REPLACE USING (k) SEQUENCE BY s query` (docs/semantics.md §12). */
export interface ReplaceUsingFlowIR extends FlowBaseIR {
    kind: 'replace_using';
    keys: { columns: string[]; span?: SourceSpan };
    sequenceBy: { column: string; span?: SourceSpan };
    query: QueryIR;
}

/** `INSERT INTO t BY NAME REPLACE WHERE cond query` (docs/semantics.md §13). */
export interface ReplaceWhereFlowIR extends FlowBaseIR {
    kind: 'replace_where';
    predicate: { condition: ExprIR; span?: SourceSpan };
    query: QueryIR;
}

/** The query of a materialized view (recomputed on every update). */
export interface MaterializedViewFlowIR extends FlowBaseIR {
    kind: 'materialized_view';
    query: QueryIR;
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/** A query: optional WITH, a body, optional ORDER BY / LIMIT / OFFSET. */
export interface QueryIR {
    kind: 'query';
    with?: { recursive: boolean; ctes: CteIR[] };
    body: QueryBodyIR;
    orderBy?: SortItemIR[];
    limit?: ExprIR;
    offset?: ExprIR;
    span?: SourceSpan;
}

/** `name [(columns)] AS (query)`. */
export interface CteIR {
    name: string;
    columns?: string[];
    query: QueryIR;
    span?: SourceSpan;
}

/** The body of a query. A nested `QueryIR` is a parenthesised query. */
export type QueryBodyIR = SelectIR | SetOperationIR | ValuesIR | QueryIR;

/** `SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... WINDOW ... QUALIFY ...`. */
export interface SelectIR {
    kind: 'select';
    distinct: boolean;
    items: SelectItemIR[];
    /** Comma-separated FROM items (an implicit cross join); empty = no FROM clause. */
    from: RelationIR[];
    where?: ExprIR;
    groupBy?: GroupByIR;
    having?: ExprIR;
    windows?: { name: string; spec: WindowSpecIR }[];
    qualify?: ExprIR;
    span?: SourceSpan;
}

/** One item of a SELECT list. */
export type SelectItemIR =
    /** `expr [AS alias]`; generators with several outputs use `aliases` (`posexplode(a) AS (p, v)`). */
    | { kind: 'expr'; expr: ExprIR; alias?: string; aliases?: string[]; span?: SourceSpan }
    /** `*`, `t.*`, `* EXCEPT (a, b)`. */
    | { kind: 'star'; qualifier?: string[]; except?: string[]; span?: SourceSpan };

/** GROUP BY: `ALL`, or a list of items (plain expressions, ROLLUP, CUBE, GROUPING SETS). */
export interface GroupByIR {
    all?: boolean;
    items: GroupingItemIR[];
}

/** One GROUP BY item. `GROUP BY a, b WITH ROLLUP` is lowered to `rollup(a, b)`. */
export type GroupingItemIR =
    | { kind: 'expr'; expr: ExprIR }
    | { kind: 'rollup' | 'cube'; exprs: ExprIR[] }
    | { kind: 'grouping_sets'; sets: ExprIR[][] };

/** UNION / INTERSECT / EXCEPT; `all: false` is the distinct form (Spark's default). */
export interface SetOperationIR {
    kind: 'set_operation';
    op: 'union' | 'intersect' | 'except';
    all: boolean;
    /** `UNION [ALL] BY NAME`. */
    byName?: boolean;
    left: QueryBodyIR;
    right: QueryBodyIR;
    span?: SourceSpan;
}

/** `VALUES (..), (..)` as a query body; columns are named col1, col2, ... */
export interface ValuesIR {
    kind: 'values';
    rows: ExprIR[][];
    span?: SourceSpan;
}

/** `ORDER BY` / `SORT BY` item; Spark's default null order is NULLS FIRST for ASC, LAST for DESC. */
export interface SortItemIR {
    expr: ExprIR;
    direction?: 'asc' | 'desc';
    nulls?: 'first' | 'last';
}

// ---------------------------------------------------------------------------------------------
// Relations (FROM items)
// ---------------------------------------------------------------------------------------------

/** One FROM item. */
export type RelationIR =
    | TableRelationIR
    | SubqueryRelationIR
    | JoinRelationIR
    | ValuesRelationIR
    | TableFunctionRelationIR
    | LateralViewRelationIR
    | PivotRelationIR
    | UnpivotRelationIR;

/** What a table reference resolves to. */
export type TableSourceIR =
    /** A dataset of this pipeline (`DatasetIR.name`); views are expanded in place. */
    | { kind: 'dataset'; name: string[] }
    /**
     * A table outside the pipeline: resolved in the local sample catalog. `inferredColumns`: the
     * columns of its files as the editor inferred them (`engine/src/spark/sample-schema.ts`), set by
     * the lowering when the table declares none; the engine reads the files with these types.
     */
    | { kind: 'catalog'; name: string[]; inferredColumns?: StructField[] }
    /**
     * `read_files(path, option => value, ...)`; a relative path is relative to the pipeline root.
     * `inferredColumns` as for `catalog` (absent with a `schema` option).
     */
    | { kind: 'read_files'; path: string; options: Record<string, string | number | boolean>; inferredColumns?: StructField[] }
    /** A common table expression in scope. */
    | { kind: 'cte'; name: string }
    /** `current_snapshot_version()` / `last_snapshot_version()` (valid only in snapshot flows). */
    | { kind: 'snapshot_version'; which: 'current' | 'last' }
    /**
     * `table_changes('t', start [, end])` (docs/semantics.md §15.3): the change data feed of the dataset `name`
     * between two versions or commit timestamps (inclusive), with `_change_type`, `_commit_version`
     * and `_commit_timestamp`.
     */
    | { kind: 'table_changes'; name: string[]; start: ChangeFeedBoundIR; end?: ChangeFeedBoundIR };

/** A bound of a change data feed read: a version, or a commit time `yyyy-MM-dd HH:mm:ss[.ffffff]` (UTC). */
export type ChangeFeedBoundIR = { version: number } | { timestamp: string };

/**
 * Reader options written after a table reference (`STREAM t WITH (readChangeFeed = true, ...)`,
 * docs/semantics.md §15.3 and §5.1), with Delta's meaning.
 */
export interface TableReadOptionsIR {
    /** Read the table's change data feed (its columns plus `_change_type`, `_commit_version`, `_commit_timestamp`). */
    readChangeFeed?: boolean;
    /** The first version of the feed to read (the first read of a stream; default: the whole feed). */
    startingVersion?: number;
    /** The first commit time of the feed to read, instead of `startingVersion`. */
    startingTimestamp?: string;
    /** A plain streaming read ignores commits that updated or deleted rows instead of failing. */
    skipChangeCommits?: boolean;
}

/** A table, view, CTE or table-valued source; `streaming` marks `STREAM(x)` / `STREAM x`. */
export interface TableRelationIR {
    kind: 'table';
    source: TableSourceIR;
    streaming: boolean;
    /** `WITH (option = value, ...)` after the reference. */
    options?: TableReadOptionsIR;
    alias?: string;
    columnAliases?: string[];
    span?: SourceSpan;
}

/** `[LATERAL] (query) [AS] alias [(cols)]`. */
export interface SubqueryRelationIR {
    kind: 'subquery';
    query: QueryIR;
    lateral?: boolean;
    alias?: string;
    columnAliases?: string[];
    span?: SourceSpan;
}

/** Every Spark join; `semi` / `anti` are LEFT SEMI / LEFT ANTI. */
export interface JoinRelationIR {
    kind: 'join';
    joinType: 'inner' | 'left' | 'right' | 'full' | 'cross' | 'semi' | 'anti';
    natural?: boolean;
    left: RelationIR;
    right: RelationIR;
    on?: ExprIR;
    using?: string[];
    span?: SourceSpan;
}

/** `VALUES (...), (...) [AS] t(cols)` in FROM. */
export interface ValuesRelationIR {
    kind: 'values';
    rows: ExprIR[][];
    alias?: string;
    columnAliases?: string[];
    span?: SourceSpan;
}

/** A table-valued function in FROM: `range(...)`, `explode(...)`, `posexplode(...)`, `inline(...)`, `stack(...)`. */
export interface TableFunctionRelationIR {
    kind: 'table_function';
    name: string;
    args: ExprIR[];
    alias?: string;
    columnAliases?: string[];
    span?: SourceSpan;
}

/** `input LATERAL VIEW [OUTER] generator(args) alias AS col1, col2`. */
export interface LateralViewRelationIR {
    kind: 'lateral_view';
    input: RelationIR;
    generator: CallExprIR;
    outer: boolean;
    alias?: string;
    columnAliases: string[];
    span?: SourceSpan;
}

/** `input PIVOT (agg [AS a], ... FOR col IN (v [AS name], ...))`. */
export interface PivotRelationIR {
    kind: 'pivot';
    input: RelationIR;
    aggregates: { expr: ExprIR; alias?: string }[];
    /** The FOR column(s); several columns pivot on tuples. */
    columns: ExprIR[];
    values: { values: ExprIR[]; alias?: string }[];
    alias?: string;
    span?: SourceSpan;
}

/** `input UNPIVOT [INCLUDE NULLS] (value FOR name IN (a [AS x], ...))`. */
export interface UnpivotRelationIR {
    kind: 'unpivot';
    input: RelationIR;
    includeNulls: boolean;
    valueColumn: string;
    nameColumn: string;
    columns: { column: string; alias?: string }[];
    alias?: string;
    span?: SourceSpan;
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

/** Every expression node. */
export type ExprIR =
    | LiteralExprIR
    | IntervalExprIR
    | ColumnExprIR
    | CallExprIR
    | CastExprIR
    | CaseExprIR
    | UnaryExprIR
    | BinaryExprIR
    | InExprIR
    | InSubqueryExprIR
    | BetweenExprIR
    | LikeExprIR
    | IsNullExprIR
    | IsBoolExprIR
    | IsDistinctFromExprIR
    | LambdaExprIR
    | StructExprIR
    | ArrayExprIR
    | MapExprIR
    | FieldExprIR
    | SubscriptExprIR
    | JsonPathExprIR
    | SubqueryExprIR
    | ExistsExprIR
    | SnapshotVersionExprIR
    | ParameterExprIR;

/**
 * A typed literal. `value` by type: `null` for NULL (any type, `void` when untyped); boolean;
 * integral, decimal, float and double as their decimal text (`'42'`, `'-1.50'`, `'1e3'`,
 * `'NaN'`) or a JSON number; string as the processed string; date `'yyyy-MM-dd'`; timestamp
 * `'yyyy-MM-dd HH:mm:ss[.ffffff]'`; binary as hexadecimal digits. Spark's literal rules decide the
 * type: `1` int, `1L` bigint, `1S` smallint, `1Y` tinyint, `1.5` decimal(2,1), `1.5D` / `1e3`
 * double, `1.5F` float, `1.5BD` decimal.
 */
export interface LiteralExprIR {
    kind: 'literal';
    type: DataType;
    value: string | number | boolean | null;
    span?: SourceSpan;
}

/** An interval literal, normalised: `INTERVAL '1-2' YEAR TO MONTH` → months 14. */
export interface IntervalExprIR {
    kind: 'interval';
    months: number;
    days: number;
    microseconds: number;
    /**
     * Spark's type of the literal, from the units written (`INTERVAL 1 MONTH`: interval month,
     * `INTERVAL '1' DAY`: interval day, units of both kinds: the calendar interval); DuckDB keeps
     * one INTERVAL type for all of them, and the type decides Spark's result (a DATE plus an
     * interval of months or days is a DATE, plus hours a TIMESTAMP).
     */
    type: DataType;
    span?: SourceSpan;
}

/** A column reference, possibly qualified (`t.c`, `s.t.c`) or a struct path (`c.field`). */
export interface ColumnExprIR {
    kind: 'column';
    parts: string[];
    span?: SourceSpan;
}

/** A function call; aggregates and window functions included. */
export interface CallExprIR {
    kind: 'call';
    /** Function name, lower-case, unqualified. */
    name: string;
    args: ExprIR[];
    /** Named arguments (`name => value`). */
    namedArgs?: { name: string; value: ExprIR }[];
    /** `count(*)`. */
    star?: boolean;
    distinct?: boolean;
    /** `FILTER (WHERE ...)` of an aggregate. */
    filter?: ExprIR;
    /** `IGNORE NULLS` (`RESPECT NULLS` is the default). */
    ignoreNulls?: boolean;
    /** `WITHIN GROUP (ORDER BY ...)` of percentile_cont / percentile_disc / listagg. */
    withinGroup?: SortItemIR[];
    /** `OVER (...)` or `OVER w`. */
    over?: WindowSpecIR;
    span?: SourceSpan;
}

/** A window: a named window reference, optionally refined, or an inline specification. */
export interface WindowSpecIR {
    /** `OVER w` / `OVER (w ORDER BY ...)`: a window defined in the SELECT's WINDOW clause. */
    ref?: string;
    partitionBy: ExprIR[];
    orderBy: SortItemIR[];
    frame?: WindowFrameIR;
}

/** `ROWS|RANGE BETWEEN start AND end` (`end` absent = CURRENT ROW). */
export interface WindowFrameIR {
    unit: 'rows' | 'range';
    start: FrameBoundIR;
    end?: FrameBoundIR;
}

/** A window frame bound. */
export type FrameBoundIR =
    | { kind: 'unbounded_preceding' | 'current_row' | 'unbounded_following' }
    | { kind: 'preceding' | 'following'; offset: ExprIR };

/** `CAST(e AS t)`, `e::t`, `TRY_CAST(e AS t)`. */
export interface CastExprIR {
    kind: 'cast';
    expr: ExprIR;
    type: DataType;
    try?: boolean;
    span?: SourceSpan;
}

/** `CASE [operand] WHEN .. THEN .. [ELSE ..] END`. */
export interface CaseExprIR {
    kind: 'case';
    operand?: ExprIR;
    branches: { when: ExprIR; then: ExprIR }[];
    else?: ExprIR;
    span?: SourceSpan;
}

/** `-e`, `+e`, `NOT e`, `~e`. */
export interface UnaryExprIR {
    kind: 'unary';
    op: '-' | '+' | 'not' | '~';
    expr: ExprIR;
    span?: SourceSpan;
}

/** Binary operators (after normalising `==` to `=` and `!=` to `<>`). */
export interface BinaryExprIR {
    kind: 'binary';
    op: '+' | '-' | '*' | '/' | '%' | 'div' | '||' | '=' | '<>' | '<' | '<=' | '>' | '>=' | '<=>' | 'and' | 'or' | '&' | '|' | '^';
    left: ExprIR;
    right: ExprIR;
    span?: SourceSpan;
}

/** `e [NOT] IN (v1, v2, ...)`. */
export interface InExprIR {
    kind: 'in';
    expr: ExprIR;
    list: ExprIR[];
    not: boolean;
    span?: SourceSpan;
}

/** `e [NOT] IN (subquery)`; a tuple `(a, b) IN (SELECT x, y ...)` lists several `exprs`. */
export interface InSubqueryExprIR {
    kind: 'in_subquery';
    exprs: ExprIR[];
    query: QueryIR;
    not: boolean;
    span?: SourceSpan;
}

/** `e [NOT] BETWEEN low AND high`. */
export interface BetweenExprIR {
    kind: 'between';
    expr: ExprIR;
    low: ExprIR;
    high: ExprIR;
    not: boolean;
    span?: SourceSpan;
}

/** `e [NOT] LIKE|ILIKE|RLIKE|REGEXP p [ESCAPE c]`, and `LIKE ANY|ALL (p1, p2)` with `quantifier`. */
export interface LikeExprIR {
    kind: 'like';
    op: 'like' | 'ilike' | 'rlike';
    expr: ExprIR;
    patterns: ExprIR[];
    quantifier?: 'any' | 'all';
    escape?: string;
    not: boolean;
    span?: SourceSpan;
}

/** `e IS [NOT] NULL`. */
export interface IsNullExprIR {
    kind: 'is_null';
    expr: ExprIR;
    not: boolean;
    span?: SourceSpan;
}

/** `e IS [NOT] TRUE|FALSE|UNKNOWN` (`value: null` = UNKNOWN). */
export interface IsBoolExprIR {
    kind: 'is_bool';
    expr: ExprIR;
    value: boolean | null;
    not: boolean;
    span?: SourceSpan;
}

/** `a IS [NOT] DISTINCT FROM b`. */
export interface IsDistinctFromExprIR {
    kind: 'is_distinct_from';
    left: ExprIR;
    right: ExprIR;
    not: boolean;
    span?: SourceSpan;
}

/** `x -> body`, `(acc, x) -> body`; parameters are referenced as single-part column nodes. */
export interface LambdaExprIR {
    kind: 'lambda';
    params: string[];
    body: ExprIR;
    span?: SourceSpan;
}

/** `struct(a, b AS x)`, `named_struct('a', 1)`: fields with their names resolved by the lowering. */
export interface StructExprIR {
    kind: 'struct';
    fields: { name: string; value: ExprIR }[];
    span?: SourceSpan;
}

/** `array(e1, e2, ...)`. */
export interface ArrayExprIR {
    kind: 'array';
    elements: ExprIR[];
    span?: SourceSpan;
}

/** `map(k1, v1, k2, v2, ...)`. */
export interface MapExprIR {
    kind: 'map';
    entries: { key: ExprIR; value: ExprIR }[];
    span?: SourceSpan;
}

/** `e.field` on a computed struct (a column path uses `ColumnExprIR.parts`). */
export interface FieldExprIR {
    kind: 'field';
    expr: ExprIR;
    field: string;
    span?: SourceSpan;
}

/** `e[i]`: 0-based for arrays, key lookup for maps, field for structs (string literal). */
export interface SubscriptExprIR {
    kind: 'subscript';
    expr: ExprIR;
    index: ExprIR;
    span?: SourceSpan;
}

/** Databricks JSON path `e:a.b[0]` / `e:['a b']` / `e:a[*]`; the result is a STRING. */
export interface JsonPathExprIR {
    kind: 'json_path';
    expr: ExprIR;
    path: ({ kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' })[];
    span?: SourceSpan;
}

/** A scalar subquery `(SELECT ...)`. */
export interface SubqueryExprIR {
    kind: 'subquery';
    query: QueryIR;
    span?: SourceSpan;
}

/** `[NOT] EXISTS (query)`. */
export interface ExistsExprIR {
    kind: 'exists';
    query: QueryIR;
    not: boolean;
    span?: SourceSpan;
}

/** `current_snapshot_version()` / `last_snapshot_version()` used as a scalar (its single value, or NULL). */
export interface SnapshotVersionExprIR {
    kind: 'snapshot_version';
    which: 'current' | 'last';
    span?: SourceSpan;
}

/**
 * A pipeline parameter (`${name}` or `:name`): the value of `name` in `PipelineIR.conf`, a string
 * literal cast to `type` when given. An unknown name is an UNBOUND_SQL_PARAMETER error.
 */
export interface ParameterExprIR {
    kind: 'parameter';
    name: string;
    type?: DataType;
    span?: SourceSpan;
}

// ---------------------------------------------------------------------------------------------
// Statements run against the local state (`pipeline-sql sql`, docs/semantics.md §8.6 and §15.3)
// ---------------------------------------------------------------------------------------------

/**
 * A statement run on the local state outside any update, as a user runs it in a notebook: a query
 * over the datasets and sample tables, `DESCRIBE HISTORY`, or DML on a streaming table or managed
 * table (each DML statement is one version of its target).
 */
export type StatementIR =
    | { kind: 'query'; query: QueryIR; span?: SourceSpan }
    | { kind: 'describe_history'; dataset: string[]; span?: SourceSpan }
    | InsertStatementIR
    | DeleteStatementIR
    | UpdateStatementIR
    | MergeStatementIR;

/** `MERGE INTO t [alias] USING source ON cond WHEN ...` (Delta's MERGE; clauses apply in order, the first whose condition holds wins). */
export interface MergeStatementIR {
    kind: 'merge';
    target: string[];
    alias?: string;
    /** The source relation (its alias names it in the conditions and values). */
    source: RelationIR;
    on: ExprIR;
    clauses: MergeClauseIR[];
    span?: SourceSpan;
}

/** One `WHEN [NOT] MATCHED [BY SOURCE] [AND cond] THEN action` clause of MERGE. */
export interface MergeClauseIR {
    /** `matched`: a target row with a source row; `not_matched`: a source row without one (BY TARGET); `not_matched_by_source`: a target row without one. */
    when: 'matched' | 'not_matched' | 'not_matched_by_source';
    condition?: ExprIR;
    action:
        | { kind: 'update'; all: boolean; assignments: { column: string; value: ExprIR; span?: SourceSpan }[] }
        | { kind: 'delete' }
        | { kind: 'insert'; all: boolean; columns?: string[]; values: ExprIR[] };
    span?: SourceSpan;
}

/** `INSERT INTO t [(cols)] query` (positional; BY NAME matches names). */
export interface InsertStatementIR {
    kind: 'insert';
    target: string[];
    columns?: string[];
    byName: boolean;
    query: QueryIR;
    span?: SourceSpan;
}

/** `DELETE FROM t [alias] [WHERE cond]`. */
export interface DeleteStatementIR {
    kind: 'delete';
    target: string[];
    alias?: string;
    where?: ExprIR;
    span?: SourceSpan;
}

/** `UPDATE t [alias] SET c = v, ... [WHERE cond]`. */
export interface UpdateStatementIR {
    kind: 'update';
    target: string[];
    alias?: string;
    assignments: { column: string; value: ExprIR; span?: SourceSpan }[];
    where?: ExprIR;
    span?: SourceSpan;
}
