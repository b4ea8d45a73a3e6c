/**
 * The shape of the built-in function catalog: what each function entry, signature, parameter,
 * parameter type constraint and return-type rule looks like. The entries themselves live in
 * `data/`, written in a compact signature notation that `catalog.ts` turns into these
 * structures when the catalog is first used.
 */
import type { TypeDescriptor } from '../spark-types.js';
import type { FunctionSpec } from './local.js';

/** How a function is evaluated. */
export type FunctionKind =
    /** One value per row. */
    | 'scalar'
    /** One value per group (GROUP BY) or per window frame with OVER. */
    | 'aggregate'
    /** Needs an OVER clause (ranking and offset functions). */
    | 'window'
    /** Turns one row into several: allowed in SELECT, LATERAL VIEW and (Spark 3.4+) FROM. */
    | 'generator'
    /** Returns a relation and is used in FROM (`range`, `read_files`). */
    | 'table-valued';

/** Where a function is listed in the Spark / Databricks function reference. */
export type FunctionCategory =
    | 'aggregate' | 'window' | 'array' | 'map' | 'struct' | 'collection' | 'lambda'
    | 'datetime' | 'string' | 'regex' | 'math' | 'bitwise' | 'conditional' | 'predicate'
    | 'conversion' | 'hash' | 'json' | 'csv' | 'xml' | 'variant' | 'avro' | 'protobuf' | 'url'
    | 'sketch' | 'vector' | 'spatial' | 'misc' | 'generator' | 'table' | 'pipeline' | 'ai';

/** A named family of types a parameter accepts. */
export type TypeFamily =
    | 'any' | 'numeric' | 'integral' | 'floating' | 'decimal' | 'string' | 'binary' | 'boolean'
    | 'date' | 'datetime' | 'timestamp' | 'time' | 'interval' | 'array' | 'map' | 'struct'
    | 'orderable' | 'comparable' | 'variant';

/** What a parameter accepts. A concrete type accepts everything implicitly castable to it. */
export type TypeConstraint =
    | { readonly kind: 'family'; readonly family: TypeFamily }
    | { readonly kind: 'type'; readonly type: TypeDescriptor }
    | { readonly kind: 'union'; readonly options: readonly TypeConstraint[] }
    /** A lambda `(x, y) -> body`; `parameters` give the types of its variables as rules over the call's arguments. */
    | { readonly kind: 'lambda'; readonly parameters: readonly ReturnRule[] };

/** One parameter of a signature. */
export interface FunctionParameter {
    /** The documented name, also the key for named-argument calls (`name => value`) where supported. */
    readonly name: string;
    readonly type: TypeConstraint;
    /** May be left out (only trailing parameters). */
    readonly optional: boolean;
    /** Repeats: `'*'` zero or more times, `'+'` at least once (only the last parameter). */
    readonly variadic?: '*' | '+';
    /** Must be a constant expression (format strings, accuracies, type names). */
    readonly constant: boolean;
}

/** Names of the return-type rules that need code rather than a simple formula (see `return-types.ts`). */
export type SpecialRuleName =
    | 'sum' | 'avg' | 'round' | 'ceilFloor' | 'add' | 'subtract' | 'multiply' | 'divide' | 'remainder'
    | 'struct' | 'namedStruct' | 'map' | 'mapEntries' | 'mapFromEntries' | 'concat' | 'binaryOrString'
    | 'schemaArg' | 'typeArg' | 'datePart' | 'timestampArg' | 'window' | 'toNumber' | 'collate'
    | 'decodeCase' | 'arraysZip' | 'approxTopK' | 'histogram' | 'explode' | 'posexplode' | 'inline'
    | 'stack' | 'jsonTuple' | 'caseWhen' | 'voidAsInt';

/**
 * How the result type follows from the argument types.
 * `argument` and friends count arguments from 0 as they appear in the call.
 */
export type ReturnRule =
    | { readonly kind: 'fixed'; readonly type: TypeDescriptor }
    /** The type of argument `index`. */
    | { readonly kind: 'argument'; readonly index: number }
    /** The element type of an ARRAY (the value type of a MAP) computed by `of`. */
    | { readonly kind: 'element'; readonly of: ReturnRule }
    /** The key type of a MAP computed by `of`. */
    | { readonly kind: 'key'; readonly of: ReturnRule }
    /** The value type of a MAP computed by `of`. */
    | { readonly kind: 'value'; readonly of: ReturnRule }
    | { readonly kind: 'arrayOf'; readonly element: ReturnRule }
    | { readonly kind: 'mapOf'; readonly key: ReturnRule; readonly value: ReturnRule }
    /** The least common type of the listed rules. */
    | { readonly kind: 'common'; readonly operands: readonly ReturnRule[] }
    /** The least common type of arguments `from`, `from + step`, … to the last one. */
    | { readonly kind: 'commonOfArguments'; readonly from: number; readonly step: number }
    /** A rule implemented in code; `parameter` is its optional numeric argument (an argument index). */
    | { readonly kind: 'special'; readonly name: SpecialRuleName; readonly parameter?: number };

/** One way of calling a function. */
export interface FunctionSignature {
    readonly parameters: readonly FunctionParameter[];
    readonly returns: ReturnRule;
    /** The notation the signature was written in, e.g. `upper(str: string) -> string`. */
    readonly source: string;
}

/** A `read_files` / `cloud_files` option (or any other option-taking function). */
export interface FunctionOption {
    readonly name: string;
    /** What kind of value the option takes, for completion of values and hovers. */
    readonly valueKind: 'string' | 'boolean' | 'integer' | 'schema' | 'enum' | 'path' | 'timestamp' | 'map';
    /** Allowed values when `valueKind` is `'enum'`. */
    readonly values?: readonly string[];
    readonly defaultValue?: string;
    /** File formats the option applies to; absent means every format. */
    readonly formats?: readonly string[];
    readonly description: string;
}

/** One built-in function as the language services see it. */
export interface BuiltinFunction {
    /** Canonical name, lower case. */
    readonly name: string;
    /** Other names that call the same function, lower case. */
    readonly aliases: readonly string[];
    readonly kind: FunctionKind;
    readonly category: FunctionCategory;
    readonly signatures: readonly FunctionSignature[];
    /** False when two calls with the same arguments may give different results (rand, uuid, current_timestamp, first …). */
    readonly deterministic: boolean;
    /** One line in our own words. */
    readonly description: string;
    /** A tiny example call and its result, e.g. `upper('abc') → 'ABC'`. */
    readonly example: string;
    /** Accepts `name => value` arguments. */
    readonly namedArguments: boolean;
    /** Special call syntax the generic `name(args)` form does not show, e.g. `extract(field FROM source)`. */
    readonly syntax?: string;
    /** A word operator listed among the functions (`and`, `in`, `between`, `case`); not called with parentheses. */
    readonly operator: boolean;
    /** Only in Databricks (not in Apache Spark). */
    readonly databricksOnly: boolean;
    /** Set when the function is legacy; says what to use instead. */
    readonly deprecated?: string;
    /** Options passed as named arguments (read_files) or in a map (cloud_files). */
    readonly options?: readonly FunctionOption[];
    /**
     * How the local engine runs the function: its DuckDB translation (see `local.ts`). Absent when
     * the function is not available locally: the editor warns on a call and a run that would call it
     * stops before it starts.
     */
    readonly local?: FunctionSpec;
}

/** Optional facts of a catalog entry, in the compact data notation. */
export interface FunctionExtra {
    readonly aliases?: readonly string[];
    readonly kind?: FunctionKind;
    readonly nondeterministic?: true;
    readonly namedArguments?: true;
    readonly syntax?: string;
    readonly operator?: true;
    readonly databricksOnly?: true;
    readonly deprecated?: string;
    readonly options?: readonly FunctionOption[];
    readonly local?: FunctionSpec;
}

/**
 * A catalog entry in compact notation: one or more signatures such as
 * `'substring(str: string|binary, pos: int, len?: int) -> $0'`, a one-line description, an
 * example, and optional facts. The notation is documented in `functions.ts`.
 */
export type FunctionDef = readonly [signatures: string | readonly string[], description: string, example: string, extra?: FunctionExtra];

/** A group of entries sharing a category. */
export interface FunctionGroup {
    readonly category: FunctionCategory;
    readonly defs: readonly FunctionDef[];
}
