// How a catalog function runs in the local engine: the shape of a function's DuckDB translation
// (the `local` field of its catalog row, in ./data/) and the helpers the rows are written with.
//
// Each translation gives the accepted arity and a template: a function of the call (its translated
// arguments, their types, its literal arguments) that returns the DuckDB expression, written with
// the `sql` tag of engine/src/sql/sql.ts so that only translated SQL pieces are spliced in.
// Aggregates name the DuckDB aggregate plus an implicit FILTER and a wrapper, each a function of SQL
// pieces too, so that user FILTER / DISTINCT / OVER clauses compose with them.
// A function whose row has no translation is not available locally: the editor warns on the call
// and a run that would call it stops before it starts. The engine never guesses.
import { UnsupportedFeatureError, ErrorClass } from '../../errors.js';
import type { CallExprIR, DataType, ExprIR } from '../../ir.js';
import { javaPatternToStrftime } from '../../sql/java-datetime.js';
import { captureGroupCount, parseJavaReplacement, re2Rewrite } from '../../sql/java-regex.js';
import { empty, join, sql, type Sql, str } from '../../sql/sql.js';
import { parseSparkSchema, parseSparkType, timestampFromText, toDuckType } from '../../sql/duckdb-types.js';
import { isStringLike, Types as T } from '../spark-types.js';
import type { CallArgument } from './return-types.js';

// What the rows are written with, besides the helpers below.
export { empty, ident, join, sql, str, type Sql } from '../../sql/sql.js';
export { toDuckType } from '../../sql/duckdb-types.js';
export { isIntegral } from '../spark-types.js';
export { decimalSum } from '../decimal.js';

/** A translated expression: DuckDB SQL plus its Spark type when the translator could infer it. */
export interface Translated {
    sql: Sql;
    type?: DataType;
}

/** What a template gets to see of a call. */
export interface CallContext {
    call: CallExprIR;
    /** Translated positional arguments, lambdas included. */
    args: Translated[];
    /** The SQL of each argument, parenthesised (so that operators in a template bind as written). */
    a: Sql[];
    /** The SQL of all arguments, comma-separated. */
    all: Sql;
    /** `IGNORE NULLS` was written (window functions that take it). */
    ignoreNulls: boolean;
    /** The fixed clock of the update (`current_date()` and friends). */
    now: { date: string; timestamp: string };
    /** The call's result type by the catalog's rule (what the editor shows), when it is known. */
    type?: DataType;
    /**
     * The SQL of argument `i` cast to the call's result type when its own type differs: the values
     * of IF, COALESCE, NVL, greatest … are widened to their common type, as Spark does for every
     * type (STRING and INT as BIGINT, DATE and TIMESTAMP as TIMESTAMP), not as DuckDB would.
     */
    asResult(i: number): Sql;
    /** The value of argument `i` when it is a string literal. */
    stringArg(i: number): string | undefined;
    /** The value of argument `i` when it is a numeric or boolean literal. */
    literalArg(i: number): string | number | boolean | null | undefined;
    /** Throws an UnsupportedFeatureError about this call. */
    unsupported(reason: string): never;
}

/** A DuckDB translation of a call. */
export type Template = (c: CallContext) => Sql;

/** The DuckDB side of an aggregate: `fn(args)` with an implicit filter and a wrapper around the result. */
export interface AggregateTemplate {
    fn: Sql;
    /** The aggregate's arguments from the call's (parenthesised) ones; default: all of them. */
    args?: (a: Sql[]) => Sql;
    /** A FILTER condition added to the user's. */
    filter?: (a: Sql[]) => Sql;
    /** An expression around the aggregate's result (`coalesce(agg, [])`). */
    wrap?: (aggregate: Sql) => Sql;
    distinct?: boolean;
}

/** How the local engine runs one catalog function (the `local` field of its row). */
export interface FunctionSpec {
    /**
     * `native`: the engine runs it in its own code rather than from a template — a syntax form
     * (`cast`, `CASE`, `IN`), a relation in FROM (`range`, `read_files`) or a call the translator
     * handles by name (`struct`, `typeof`); `note` says which, for the generated docs.
     */
    kind: 'scalar' | 'aggregate' | 'window' | 'generator' | 'native';
    /** For `native` functions: how the engine runs it. */
    note?: string;
    min: number;
    max: number;
    /** The DuckDB expression (scalars and window-only functions). */
    sql?: Template;
    /** Aggregate translation. */
    /** Aggregate translation, or one chosen by the call (its argument types). */
    agg?: AggregateTemplate | ((c: CallContext) => AggregateTemplate);
    /** The second lambda parameter is a 0-based index in Spark and a 1-based one in DuckDB. */
    indexParam?: boolean;
    /**
     * Why a call with these arguments cannot run locally (`sha2(x, 384)`, `to_json` of a TIMESTAMP),
     * undefined when it can. One rule for the editor's warning on the call, the engine's check
     * before an update starts (argument types it cannot know count as unknown) and the translator.
     */
    unavailable?: (args: readonly CallArgument[]) => string | undefined;
}

/** A translation that some arguments make unavailable locally (see `FunctionSpec.unavailable`). */
export function unlessArguments(unavailable: (args: readonly CallArgument[]) => string | undefined, spec: FunctionSpec): FunctionSpec {
    return { ...spec, unavailable };
}

export const any = Number.POSITIVE_INFINITY;

/** A function the engine runs in its own code (see `FunctionSpec.kind`). */
export function native(note: string): FunctionSpec {
    return { kind: 'native', note, min: 0, max: any };
}

export function scalar(min: number, max: number, template: Template): FunctionSpec {
    return { kind: 'scalar', min, max, sql: template };
}

export function aggregate(min: number, max: number, agg: AggregateTemplate | ((c: CallContext) => AggregateTemplate)): FunctionSpec {
    return { kind: 'aggregate', min, max, agg };
}

export function window(min: number, max: number, template: Template): FunctionSpec {
    return { kind: 'window', min, max, sql: template };
}

/** A window function that takes Spark's `IGNORE NULLS` (lag, lead, nth_value). */
export function windowIgnoringNulls(min: number, max: number, fn: Sql): FunctionSpec {
    return window(min, max, c => sql`${fn}(${c.all}${c.ignoreNulls ? sql` IGNORE NULLS` : empty})`);
}

/** True when a type is or contains a TIMESTAMP. */
export function hasTimestamp(t: DataType | undefined): boolean {
    switch (t?.kind) {
        case 'timestamp':
        case 'timestamp_ntz':
            return true;
        case 'array':
            return hasTimestamp(t.element);
        case 'map':
            return hasTimestamp(t.key) || hasTimestamp(t.value);
        case 'struct':
            return t.fields.some(f => hasTimestamp(f.type));
        default:
            return false;
    }
}

/** Unit names accepted by Spark's date_trunc / trunc / timestampadd, mapped to DuckDB part names. */
const dateUnits = new Map<string, Sql>([
    ['year', sql`year`], ['yyyy', sql`year`], ['yy', sql`year`],
    ['quarter', sql`quarter`],
    ['month', sql`month`], ['mon', sql`month`], ['mm', sql`month`],
    ['week', sql`week`],
    ['day', sql`day`], ['dd', sql`day`], ['d', sql`day`], ['dayofmonth', sql`day`],
    ['hour', sql`hour`], ['minute', sql`minute`], ['second', sql`second`],
    ['millisecond', sql`millisecond`], ['microsecond', sql`microsecond`],
]);

/** The DuckDB part name (a keyword: `month`) of the unit given by argument `i` (a string literal or a bare word). */
export function dateUnit(c: CallContext, i: number): Sql {
    const raw = c.stringArg(i) ?? literalWord(c.call.args[i]);
    const unit = raw ? dateUnits.get(raw.toLowerCase()) : undefined;
    if (!unit) {
        c.unsupported(`the unit must be a literal such as 'YEAR', 'MONTH', 'DAY' or 'HOUR' (got ${raw === undefined ? 'an expression' : `'${raw}'`})`);
    }
    return unit;
}

/** A bare word argument (`timestampadd(HOUR, ...)` lowered as a column reference). */
export function literalWord(e: ExprIR | undefined): string | undefined {
    return e?.kind === 'column' && e.parts.length === 1 ? e.parts[0] : undefined;
}

export function pattern(c: CallContext, i: number): Sql {
    const text = c.stringArg(i);
    if (text === undefined) {
        c.unsupported('the datetime pattern must be a string literal');
    }
    try {
        return str(javaPatternToStrftime(text));
    } catch (error) {
        if (error instanceof UnsupportedFeatureError) {
            c.unsupported(error.message);
        }
        throw error;
    }
}

/** DuckDB json_transform structure for a Spark type. */
export function jsonStructure(type: DataType): unknown {
    switch (type.kind) {
        case 'struct': return Object.fromEntries(type.fields.map(f => [f.name, jsonStructure(f.type)]));
        case 'array': return [jsonStructure(type.element)];
        case 'map': return { key: 'VARCHAR' };
        default: return toDuckType(type);
    }
}

export function schemaArg(c: CallContext, i: number): DataType {
    const text = c.stringArg(i);
    if (text === undefined) {
        c.unsupported('the schema must be a string literal');
    }
    try {
        return /^\s*(struct|array|map)\s*</i.test(text) ? parseSparkType(text) : T.struct(parseSparkSchema(text));
    } catch (error) {
        c.unsupported(error instanceof Error ? error.message : String(error));
    }
}

/** A value as a Spark TIMESTAMP: text by Spark's zone rule (`timestampFromText`), anything else cast. */
export function textToTimestamp(arg: Translated, tryCast: boolean): Sql {
    return isStringLike(arg.type) || arg.type === undefined ? timestampFromText(arg.sql, T.timestamp, tryCast) : sql`${tryCast ? sql`TRY_CAST` : sql`CAST`}(${arg.sql} AS TIMESTAMP)`;
}

export function castTo(type: Sql): FunctionSpec {
    return scalar(1, 1, c => sql`CAST(${c.a[0]} AS ${type})`);
}

/** Spark's integral cast truncates toward zero where DuckDB rounds. */
export function integralCast(duckType: Sql): FunctionSpec {
    return scalar(1, 1, c => {
        const t = c.args[0].type;
        if (t && ['float', 'double', 'decimal'].includes(t.kind)) {
            return sql`CAST(trunc(${c.args[0].sql}) AS ${duckType})`;
        }
        if (isStringLike(t)) {
            return sql`CAST(__psql_str_to_bigint(${c.args[0].sql}) AS ${duckType})`;
        }
        return sql`CAST(${c.args[0].sql} AS ${duckType})`;
    });
}

/**
 * avg of a DECIMAL as Spark computes it: exact, rounded half up to the result's scale (the catalog's
 * `decimal(p + 4, s + 4)`), where DuckDB's avg of a decimal is a DOUBLE. One aggregate (the group's
 * non-NULL values as a list) so that the call's FILTER, DISTINCT and OVER apply to it as written; the
 * sum of the values' unscaled digits is a HUGEINT, so nothing is lost before the one rounding.
 */
export function exactDecimalAvg(c: CallContext): AggregateTemplate {
    const input = c.args[0]?.type;
    const result = c.type;
    if (input?.kind !== 'decimal' || result?.kind !== 'decimal' || result.scale < input.scale) {
        return { fn: sql`avg` };
    }
    const unit = str(`1${'0'.repeat(result.scale)}`);
    const rescale = str(`1${'0'.repeat(result.scale - input.scale)}`);
    return {
        fn: sql`list`,
        filter: a => sql`${a[0]} IS NOT NULL`,
        wrap: values => {
            // DuckDB writes a DECIMAL with all its fractional digits: without the point they are the unscaled value.
            const unscaled = sql`list_sum(list_transform(__l, lambda __v: CAST(replace(CAST(__v AS VARCHAR), '.', '') AS HUGEINT)))`;
            const quotient = sql`sign(__n) * ((2 * abs(__n) + len(__l)) // (2 * len(__l)))`;
            const digits = sql`(CASE WHEN __q < 0 THEN '-' ELSE '' END) || CAST(abs(__q) // CAST(${unit} AS HUGEINT) AS VARCHAR)${result.scale > 0
                ? sql` || '.' || lpad(CAST(abs(__q) % CAST(${unit} AS HUGEINT) AS VARCHAR), ${str(String(result.scale))}::INTEGER, '0')`
                : empty}`;
            const perGroup = sql`list_transform([${unscaled} * CAST(${rescale} AS HUGEINT)], lambda __n: list_transform([${quotient}], lambda __q: ${digits})[1])[1]`;
            return sql`CAST(list_transform([${values}], lambda __l: CASE WHEN len(__l) > 0 THEN ${perGroup} END)[1] AS ${toDuckType(result)})`;
        },
    };
}

/**
 * regexp_replace(str, regexp, rep): every match replaced, the replacement read as Java reads it
 * (`$n` a group, `\c` the character c). A literal replacement is converted here; another is
 * converted by DuckDB for each row. Java rejects a bad replacement only when the pattern matches.
 */
export function regexpReplace(c: CallContext): Sql {
    const [s, p, r] = c.a;
    const replacement = c.stringArg(2);
    const patternText = c.stringArg(1);
    // With a pattern given by an expression its groups are unknown here: a reference to a group it
    // lacks then leaves the match unreplaced (RE2) where Java fails.
    const groups = patternText === undefined ? undefined : captureGroupCount(patternText);
    if (replacement === undefined) {
        if (groups !== undefined && groups > 9) {
            c.unsupported('a replacement given by an expression needs a pattern with at most 9 groups');
        }
        // Tokens: `\c` (c any character, a newline too), a lone `\`, `$` with its digits, runs of other characters.
        const tokens = sql`regexp_extract_all(${r}, '\\\\[\\s\\S]?|\\$0*[0-9]?|[^\\\\$]+')`;
        // Java takes `$`'s first digit, then each next digit while the number stays a group of the
        // pattern: with at most 9 groups, zeros after `$0` and then one digit up to the group count.
        const last = sql`CAST(__t[len(__t)] AS INTEGER)`;
        const group = groups === undefined
            ? sql`'\\' || __t[2] || __t[3:]`
            : sql`CASE WHEN ${last} <= ${groups} THEN '\\' || __t[len(__t)] WHEN len(__t) > 2 THEN '\\0' || __t[len(__t)] ELSE error(${str(`[${ErrorClass.queryError}] regexp_replace: No group `)} || __t[2]) END`;
        const token = join([
            sql`WHEN __t = '\\' THEN error(${str(`[${ErrorClass.queryError}] regexp_replace: character to be escaped is missing`)})`,
            sql`WHEN __t = '$' THEN error(${str(`[${ErrorClass.queryError}] regexp_replace: Illegal group reference`)})`,
            sql`WHEN __t[1] = '\\' THEN replace(__t[2], '\\', '\\\\')`,
            sql`WHEN __t[1] = '$' THEN ${group}`,
            sql`ELSE replace(__t, '\\', '\\\\')`,
        ], sql` `);
        const rewrite = sql`array_to_string(list_transform(${tokens}, lambda __t: CASE ${token} END), '')`;
        return sql`CASE WHEN regexp_matches(${s}, ${p}) THEN regexp_replace(${s}, ${p}, ${rewrite}, 'g') ELSE ${s} END`;
    }
    const parsed = parseJavaReplacement(replacement, groups);
    if ('error' in parsed) {
        const message = `regexp_replace: ${parsed.error} in the replacement '${replacement}'`;
        return sql`CASE WHEN regexp_matches(${s}, ${p}) THEN error(${str(`[${ErrorClass.queryError}] ${message}`)}) ELSE ${s} END`;
    }
    const rewrite = re2Rewrite(parsed);
    if (rewrite === undefined) {
        c.unsupported('group references above $9 have no DuckDB equivalent');
    }
    return sql`regexp_replace(${s}, ${p}, ${str(rewrite)}, 'g')`;
}

/**
 * The words the editor's warning and the run's error both start with, for a catalog function that
 * has no local translation (`FunctionSpec` absent from its row).
 */
export function notAvailableLocally(name: string): string {
    return `\`${name}\` is not available in the local engine`;
}

/** The words the editor's warning and the run's error both start with, for a call whose arguments the local engine cannot run. */
export function argumentsNotAvailableLocally(name: string, reason: string): string {
    return `${notAvailableLocally(name)} with these arguments: ${reason}`;
}

/** The unsupported-function error for a call (names the function, as Spark would). */
export function unknownFunctionError(call: CallExprIR): UnsupportedFeatureError {
    return new UnsupportedFeatureError(ErrorClass.unsupportedFunction,
        `The Spark function '${call.name}' is not supported by the local engine (no exact DuckDB translation).`, { span: call.span });
}
