// The Spark function table: Spark function name → DuckDB translation, as data.
//
// Each entry gives the accepted arity and a template: a function of the call (its translated
// arguments, their types, its literal arguments) that returns the DuckDB expression, written with
// the `sql` tag of ./sql.ts so that only translated SQL pieces are spliced in. Aggregates name the
// DuckDB aggregate plus an implicit FILTER and a wrapper, each a function of SQL pieces too, so that
// user FILTER / DISTINCT / OVER clauses compose with them.
// A function that is not in this table is an error naming it: the engine never guesses.
import { UnsupportedFeatureError, ErrorClass } from '../errors.js';
import type { CallExprIR, DataType, ExprIR } from '../ir.js';
import { javaPatternToStrftime } from './java-datetime.js';
import { captureGroupCount, parseJavaReplacement, re2Rewrite } from './java-regex.js';
import { empty, ident, join, sql, type Sql, str } from './sql.js';
import { decimalSum } from '../spark/decimal.js';
import { T, decimalType, isIntegral, isString, parseSparkSchema, parseSparkType, timestampFromText, toDuckType } from './types.js';

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
    /** The value of argument `i` when it is a string literal. */
    stringArg(i: number): string | undefined;
    /** The value of argument `i` when it is a numeric or boolean literal. */
    literalArg(i: number): string | number | boolean | null | undefined;
    /** Throws an UnsupportedFeatureError about this call. */
    unsupported(reason: string): never;
}

/** A DuckDB translation of a call. */
export type Template = (c: CallContext) => Sql;

/** How the result type of a function is derived. */
type TypeRule = DataType | 'arg1' | 'arg2' | 'element1' | ((args: (DataType | undefined)[]) => DataType | undefined);

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

/** One row of the function table. */
export interface FunctionSpec {
    kind: 'scalar' | 'aggregate' | 'window' | 'generator';
    min: number;
    max: number;
    /** The DuckDB expression (scalars and window-only functions). */
    sql?: Template;
    /** Aggregate translation. */
    agg?: AggregateTemplate;
    type?: TypeRule;
    /** For lambda arguments: the types of the lambda parameters, given the argument types. */
    lambdaParams?: (args: (DataType | undefined)[]) => (DataType | undefined)[];
    /** The second lambda parameter is a 0-based index in Spark and a 1-based one in DuckDB. */
    indexParam?: boolean;
}

const any = Number.POSITIVE_INFINITY;

function scalar(min: number, max: number, template: Template, type?: TypeRule): FunctionSpec {
    return { kind: 'scalar', min, max, sql: template, type };
}

function aggregate(min: number, max: number, agg: AggregateTemplate, type?: TypeRule): FunctionSpec {
    return { kind: 'aggregate', min, max, agg, type };
}

function window(min: number, max: number, template: Template, type?: TypeRule): FunctionSpec {
    return { kind: 'window', min, max, sql: template, type };
}

/** A window function that takes Spark's `IGNORE NULLS` (lag, lead, nth_value). */
function windowIgnoringNulls(min: number, max: number, fn: Sql, type?: TypeRule): FunctionSpec {
    return window(min, max, c => sql`${fn}(${c.all}${c.ignoreNulls ? sql` IGNORE NULLS` : empty})`, type);
}

const elementOf = (t: DataType | undefined): DataType | undefined => (t?.kind === 'array' ? t.element : undefined);

/** True when a type is or contains a TIMESTAMP. */
function hasTimestamp(t: DataType | undefined): boolean {
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
function dateUnit(c: CallContext, i: number): Sql {
    const raw = c.stringArg(i) ?? literalWord(c.call.args[i]);
    const unit = raw ? dateUnits.get(raw.toLowerCase()) : undefined;
    if (!unit) {
        c.unsupported(`the unit must be a literal such as 'YEAR', 'MONTH', 'DAY' or 'HOUR' (got ${raw === undefined ? 'an expression' : `'${raw}'`})`);
    }
    return unit;
}

/** A bare word argument (`timestampadd(HOUR, ...)` lowered as a column reference). */
function literalWord(e: ExprIR | undefined): string | undefined {
    return e?.kind === 'column' && e.parts.length === 1 ? e.parts[0] : undefined;
}

function pattern(c: CallContext, i: number): Sql {
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
function jsonStructure(type: DataType): unknown {
    switch (type.kind) {
        case 'struct': return Object.fromEntries(type.fields.map(f => [f.name, jsonStructure(f.type)]));
        case 'array': return [jsonStructure(type.element)];
        case 'map': return { key: 'VARCHAR' };
        default: return toDuckType(type);
    }
}

function schemaArg(c: CallContext, i: number): DataType {
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
function textToTimestamp(arg: Translated, tryCast: boolean): Sql {
    return isString(arg.type) || arg.type === undefined ? timestampFromText(arg.sql, T.timestamp, tryCast) : sql`${tryCast ? sql`TRY_CAST` : sql`CAST`}(${arg.sql} AS TIMESTAMP)`;
}

function castTo(type: Sql): FunctionSpec {
    return scalar(1, 1, c => sql`CAST(${c.a[0]} AS ${type})`);
}

/** Spark's integral cast truncates toward zero where DuckDB rounds. */
function integralCast(duckType: Sql, sparkType: DataType): FunctionSpec {
    return scalar(1, 1, c => {
        const t = c.args[0].type;
        if (t && ['float', 'double', 'decimal'].includes(t.kind)) {
            return sql`CAST(trunc(${c.args[0].sql}) AS ${duckType})`;
        }
        if (isString(t)) {
            return sql`CAST(__psql_str_to_bigint(${c.args[0].sql}) AS ${duckType})`;
        }
        return sql`CAST(${c.args[0].sql} AS ${duckType})`;
    }, sparkType);
}

/**
 * regexp_replace(str, regexp, rep): every match replaced, the replacement read as Java reads it
 * (`$n` a group, `\c` the character c). A literal replacement is converted here; another is
 * converted by DuckDB for each row. Java rejects a bad replacement only when the pattern matches.
 */
function regexpReplace(c: CallContext): Sql {
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

const collectionLambda = (args: (DataType | undefined)[]): (DataType | undefined)[] => [elementOf(args[0]), T.int];

/** The rows of the function table. Keys are lower-case Spark names. */
const functionRows: Record<string, FunctionSpec> = {
    // ---- strings
    lower: scalar(1, 1, c => sql`lower(${c.a[0]})`, T.string),
    lcase: scalar(1, 1, c => sql`lower(${c.a[0]})`, T.string),
    upper: scalar(1, 1, c => sql`upper(${c.a[0]})`, T.string),
    ucase: scalar(1, 1, c => sql`upper(${c.a[0]})`, T.string),
    length: scalar(1, 1, c => (c.args[0].type?.kind === 'binary' ? sql`octet_length(${c.a[0]})` : sql`length(${c.a[0]})`), T.int),
    char_length: scalar(1, 1, c => sql`length(${c.a[0]})`, T.int),
    character_length: scalar(1, 1, c => sql`length(${c.a[0]})`, T.int),
    octet_length: scalar(1, 1, c => sql`octet_length(CAST(${c.a[0]} AS BLOB))`, T.int),
    trim: scalar(1, 2, c => (c.args.length === 1 ? sql`trim(${c.a[0]})` : sql`trim(${c.a[0]}, ${c.a[1]})`), T.string),
    btrim: scalar(1, 2, c => (c.args.length === 1 ? sql`trim(${c.a[0]})` : sql`trim(${c.a[0]}, ${c.a[1]})`), T.string),
    ltrim: scalar(1, 2, c => (c.args.length === 1 ? sql`ltrim(${c.a[0]})` : sql`ltrim(${c.a[0]}, ${c.a[1]})`), T.string),
    rtrim: scalar(1, 2, c => (c.args.length === 1 ? sql`rtrim(${c.a[0]})` : sql`rtrim(${c.a[0]}, ${c.a[1]})`), T.string),
    // Spark concat: NULL if any argument is NULL; arrays concatenate.
    concat: scalar(0, any, c => (c.args.length === 0 ? sql`''` : sql`(${join(c.a, sql` || `)})`),
        args => (args[0]?.kind === 'array' ? args[0] : T.string)),
    concat_ws: scalar(1, any, c => sql`concat_ws(${join(c.args.map(a => (a.type?.kind === 'array' ? sql`array_to_string(${a.sql}, ${c.args[0].sql})` : a.sql)))})`, T.string),
    substring: scalar(2, 3, c => (c.args.length === 2 ? sql`__psql_substr2(${c.a[0]}, ${c.a[1]})` : sql`__psql_substr(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.string),
    substr: scalar(2, 3, c => (c.args.length === 2 ? sql`__psql_substr2(${c.a[0]}, ${c.a[1]})` : sql`__psql_substr(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.string),
    left: scalar(2, 2, c => sql`left(${c.a[0]}, ${c.a[1]})`, T.string),
    right: scalar(2, 2, c => sql`right(${c.a[0]}, ${c.a[1]})`, T.string),
    replace: scalar(2, 3, c => (c.args.length === 2 ? sql`replace(${c.a[0]}, ${c.a[1]}, '')` : sql`replace(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.string),
    // Spark replacement strings use $n for groups and \c for a character, DuckDB's \n; all matches are replaced.
    regexp_replace: scalar(3, 3, regexpReplace, T.string),
    regexp_extract: scalar(2, 3, c => (c.args.length === 2 ? sql`regexp_extract(${c.a[0]}, ${c.a[1]}, 1)` : sql`regexp_extract(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.string),
    regexp_extract_all: scalar(2, 3, c => (c.args.length === 2 ? sql`regexp_extract_all(${c.a[0]}, ${c.a[1]}, 1)` : sql`regexp_extract_all(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.array(T.string)),
    regexp_like: scalar(2, 2, c => sql`regexp_matches(${c.a[0]}, ${c.a[1]})`, T.boolean),
    regexp: scalar(2, 2, c => sql`regexp_matches(${c.a[0]}, ${c.a[1]})`, T.boolean),
    rlike: scalar(2, 2, c => sql`regexp_matches(${c.a[0]}, ${c.a[1]})`, T.boolean),
    regexp_count: scalar(2, 2, c => sql`len(regexp_extract_all(${c.a[0]}, ${c.a[1]}))`, T.int),
    split: scalar(2, 3, c => {
        const limit = c.literalArg(2);
        if (c.args.length === 3 && !(typeof limit === 'number' || typeof limit === 'string') ) {
            c.unsupported('the limit must be a numeric literal');
        }
        if (c.args.length === 3 && Number(limit) > 0) {
            c.unsupported('a positive limit is not supported; omit it or pass -1');
        }
        return sql`string_split_regex(${c.a[0]}, ${c.a[1]})`;
    }, T.array(T.string)),
    split_part: scalar(3, 3, c => sql`split_part(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`, T.string),
    instr: scalar(2, 2, c => sql`instr(${c.a[0]}, ${c.a[1]})`, T.int),
    locate: scalar(2, 3, c => (c.args.length === 2 ? sql`instr(${c.a[1]}, ${c.a[0]})` : sql`__psql_locate(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.int),
    position: scalar(2, 3, c => (c.args.length === 2 ? sql`instr(${c.a[1]}, ${c.a[0]})` : sql`__psql_locate(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.int),
    lpad: scalar(2, 3, c => (c.args.length === 2 ? sql`lpad(${c.a[0]}, ${c.a[1]}, ' ')` : sql`lpad(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.string),
    rpad: scalar(2, 3, c => (c.args.length === 2 ? sql`rpad(${c.a[0]}, ${c.a[1]}, ' ')` : sql`rpad(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`), T.string),
    repeat: scalar(2, 2, c => sql`repeat(${c.a[0]}, ${c.a[1]})`, T.string),
    reverse: scalar(1, 1, c => (c.args[0].type?.kind === 'array' ? sql`list_reverse(${c.a[0]})` : sql`reverse(${c.a[0]})`), 'arg1'),
    initcap: scalar(1, 1, c => sql`__psql_initcap(${c.a[0]})`, T.string),
    ascii: scalar(1, 1, c => sql`ascii(${c.a[0]})`, T.int),
    chr: scalar(1, 1, c => sql`chr(CAST(${c.a[0]} AS INTEGER))`, T.string),
    char: scalar(1, 1, c => sql`chr(CAST(${c.a[0]} AS INTEGER))`, T.string),
    base64: scalar(1, 1, c => sql`to_base64(CAST(${c.a[0]} AS BLOB))`, T.string),
    unbase64: scalar(1, 1, c => sql`from_base64(${c.a[0]})`, T.binary),
    hex: scalar(1, 1, c => sql`upper(hex(${c.a[0]}))`, T.string),
    unhex: scalar(1, 1, c => sql`unhex(${c.a[0]})`, T.binary),
    format_string: scalar(1, any, c => sql`printf(${c.all})`, T.string),
    printf: scalar(1, any, c => sql`printf(${c.all})`, T.string),
    startswith: scalar(2, 2, c => sql`starts_with(${c.a[0]}, ${c.a[1]})`, T.boolean),
    endswith: scalar(2, 2, c => sql`ends_with(${c.a[0]}, ${c.a[1]})`, T.boolean),
    contains: scalar(2, 2, c => sql`contains(${c.a[0]}, ${c.a[1]})`, T.boolean),
    levenshtein: scalar(2, 2, c => sql`levenshtein(${c.a[0]}, ${c.a[1]})`, T.int),
    translate: scalar(3, 3, c => sql`translate(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`, T.string),
    md5: scalar(1, 1, c => sql`md5(${c.a[0]})`, T.string),
    sha1: scalar(1, 1, c => sql`sha1(${c.a[0]})`, T.string),
    sha: scalar(1, 1, c => sql`sha1(${c.a[0]})`, T.string),
    sha2: scalar(2, 2, c => {
        const bits = c.literalArg(1);
        if (Number(bits) === 256 || Number(bits) === 0) {
            return sql`sha256(${c.a[0]})`;
        }
        return c.unsupported('only sha2(x, 256) (or 0) has a DuckDB equivalent');
    }, T.string),
    uuid: scalar(0, 0, () => sql`CAST(uuid() AS VARCHAR)`, T.string),

    // ---- numbers
    abs: scalar(1, 1, c => sql`abs(${c.a[0]})`, 'arg1'),
    ceil: scalar(1, 2, c => (c.args.length === 2 ? c.unsupported('ceil with a scale is not supported') : sql`CAST(ceil(${c.a[0]}) AS BIGINT)`), T.bigint),
    ceiling: scalar(1, 1, c => sql`CAST(ceil(${c.a[0]}) AS BIGINT)`, T.bigint),
    floor: scalar(1, 2, c => (c.args.length === 2 ? c.unsupported('floor with a scale is not supported') : sql`CAST(floor(${c.a[0]}) AS BIGINT)`), T.bigint),
    // HALF_UP in Spark; DuckDB's round rounds half away from zero, which is the same rule.
    round: scalar(1, 2, c => (c.args.length === 1 ? sql`round(${c.a[0]})` : sql`round(${c.a[0]}, CAST(${c.a[1]} AS INTEGER))`), 'arg1'),
    bround: scalar(1, 2, c => (c.args.length === 1 ? sql`round_even(${c.a[0]}, 0)` : sql`round_even(${c.a[0]}, CAST(${c.a[1]} AS INTEGER))`), 'arg1'),
    sqrt: scalar(1, 1, c => sql`sqrt(${c.a[0]})`, T.double),
    cbrt: scalar(1, 1, c => sql`cbrt(${c.a[0]})`, T.double),
    exp: scalar(1, 1, c => sql`exp(${c.a[0]})`, T.double),
    ln: scalar(1, 1, c => sql`ln(${c.a[0]})`, T.double),
    log: scalar(1, 2, c => (c.args.length === 1 ? sql`ln(${c.a[0]})` : sql`(ln(${c.a[1]}) / ln(${c.a[0]}))`), T.double),
    log10: scalar(1, 1, c => sql`log10(${c.a[0]})`, T.double),
    log2: scalar(1, 1, c => sql`log2(${c.a[0]})`, T.double),
    pow: scalar(2, 2, c => sql`pow(CAST(${c.a[0]} AS DOUBLE), ${c.a[1]})`, T.double),
    power: scalar(2, 2, c => sql`pow(CAST(${c.a[0]} AS DOUBLE), ${c.a[1]})`, T.double),
    mod: scalar(2, 2, c => sql`__psql_mod(${c.a[0]}, ${c.a[1]})`, 'arg1'),
    pmod: scalar(2, 2, c => sql`__psql_pmod(${c.a[0]}, ${c.a[1]})`, 'arg1'),
    sign: scalar(1, 1, c => sql`CAST(sign(${c.a[0]}) AS DOUBLE)`, T.double),
    signum: scalar(1, 1, c => sql`CAST(sign(${c.a[0]}) AS DOUBLE)`, T.double),
    greatest: scalar(1, any, c => sql`greatest(${c.all})`, 'arg1'),
    least: scalar(1, any, c => sql`least(${c.all})`, 'arg1'),
    rand: scalar(0, 1, () => sql`random()`, T.double),
    random: scalar(0, 1, () => sql`random()`, T.double),
    try_divide: scalar(2, 2, c => sql`CASE WHEN ${c.a[1]} = 0 THEN NULL ELSE ${c.a[0]} / ${c.a[1]} END`, T.double),
    try_add: scalar(2, 2, c => sql`(${c.a[0]} + ${c.a[1]})`, 'arg1'),
    try_subtract: scalar(2, 2, c => sql`(${c.a[0]} - ${c.a[1]})`, 'arg1'),
    try_multiply: scalar(2, 2, c => sql`(${c.a[0]} * ${c.a[1]})`, 'arg1'),
    negative: scalar(1, 1, c => sql`(-${c.a[0]})`, 'arg1'),
    positive: scalar(1, 1, c => sql`(+${c.a[0]})`, 'arg1'),
    isnan: scalar(1, 1, c => sql`isnan(CAST(${c.a[0]} AS DOUBLE))`, T.boolean),
    nanvl: scalar(2, 2, c => sql`CASE WHEN isnan(CAST(${c.a[0]} AS DOUBLE)) THEN ${c.a[1]} ELSE ${c.a[0]} END`, T.double),
    pi: scalar(0, 0, () => sql`pi()`, T.double),
    e: scalar(0, 0, () => sql`exp(1)`, T.double),
    degrees: scalar(1, 1, c => sql`degrees(${c.a[0]})`, T.double),
    radians: scalar(1, 1, c => sql`radians(${c.a[0]})`, T.double),
    sin: scalar(1, 1, c => sql`sin(${c.a[0]})`, T.double),
    cos: scalar(1, 1, c => sql`cos(${c.a[0]})`, T.double),
    tan: scalar(1, 1, c => sql`tan(${c.a[0]})`, T.double),
    asin: scalar(1, 1, c => sql`asin(${c.a[0]})`, T.double),
    acos: scalar(1, 1, c => sql`acos(${c.a[0]})`, T.double),
    atan: scalar(1, 1, c => sql`atan(${c.a[0]})`, T.double),
    atan2: scalar(2, 2, c => sql`atan2(${c.a[0]}, ${c.a[1]})`, T.double),

    // ---- conditional and null handling
    coalesce: scalar(1, any, c => sql`coalesce(${c.all})`, 'arg1'),
    nvl: scalar(2, 2, c => sql`coalesce(${c.a[0]}, ${c.a[1]})`, 'arg1'),
    ifnull: scalar(2, 2, c => sql`coalesce(${c.a[0]}, ${c.a[1]})`, 'arg1'),
    nvl2: scalar(3, 3, c => sql`CASE WHEN ${c.a[0]} IS NOT NULL THEN ${c.a[1]} ELSE ${c.a[2]} END`, 'arg2'),
    nullif: scalar(2, 2, c => sql`nullif(${c.a[0]}, ${c.a[1]})`, 'arg1'),
    if: scalar(3, 3, c => sql`CASE WHEN ${c.a[0]} THEN ${c.a[1]} ELSE ${c.a[2]} END`, 'arg2'),
    iff: scalar(3, 3, c => sql`CASE WHEN ${c.a[0]} THEN ${c.a[1]} ELSE ${c.a[2]} END`, 'arg2'),
    isnull: scalar(1, 1, c => sql`(${c.a[0]} IS NULL)`, T.boolean),
    isnotnull: scalar(1, 1, c => sql`(${c.a[0]} IS NOT NULL)`, T.boolean),
    equal_null: scalar(2, 2, c => sql`(${c.a[0]} IS NOT DISTINCT FROM ${c.a[1]})`, T.boolean),
    zeroifnull: scalar(1, 1, c => sql`coalesce(${c.a[0]}, 0)`, 'arg1'),
    nullifzero: scalar(1, 1, c => sql`nullif(${c.a[0]}, 0)`, 'arg1'),
    raise_error: scalar(1, 1, c => sql`error(${c.a[0]})`, T.void),
    decode: scalar(3, any, c => {
        const pairs: Sql[] = [];
        for (let i = 1; i + 1 < c.args.length; i += 2) {
            pairs.push(sql`WHEN ${c.args[0].sql} IS NOT DISTINCT FROM ${c.args[i].sql} THEN ${c.args[i + 1].sql}`);
        }
        const otherwise = c.args.length % 2 === 0 ? sql` ELSE ${c.args[c.args.length - 1].sql}` : empty;
        return sql`CASE ${join(pairs, sql` `)}${otherwise} END`;
    }, args => args[2]),
    elt: scalar(2, any, c => sql`list_extract([${join(c.args.slice(1).map(a => a.sql))}], ${c.args[0].sql})`, 'arg2'),

    // ---- casts by function name
    string: castTo(sql`VARCHAR`),
    boolean: castTo(sql`BOOLEAN`),
    tinyint: integralCast(sql`TINYINT`, T.tinyint),
    smallint: integralCast(sql`SMALLINT`, T.smallint),
    int: integralCast(sql`INTEGER`, T.int),
    bigint: integralCast(sql`BIGINT`, T.bigint),
    float: castTo(sql`FLOAT`),
    double: castTo(sql`DOUBLE`),
    decimal: castTo(sql`DECIMAL(10,0)`),
    date: castTo(sql`DATE`),
    timestamp: scalar(1, 1, c => textToTimestamp(c.args[0], false), T.timestamp),
    binary: castTo(sql`BLOB`),

    // ---- dates and times (the clock is the update's fixed `now`)
    current_date: scalar(0, 0, c => sql`DATE ${str(c.now.date)}`, T.date),
    curdate: scalar(0, 0, c => sql`DATE ${str(c.now.date)}`, T.date),
    current_timestamp: scalar(0, 0, c => sql`TIMESTAMP ${str(c.now.timestamp)}`, T.timestamp),
    now: scalar(0, 0, c => sql`TIMESTAMP ${str(c.now.timestamp)}`, T.timestamp),
    localtimestamp: scalar(0, 0, c => sql`TIMESTAMP ${str(c.now.timestamp)}`, T.timestamp),
    current_timezone: scalar(0, 0, () => sql`'UTC'`, T.string),
    date_add: scalar(2, 3, c => (c.args.length === 3
        ? sql`(CAST(${c.args[2].sql} AS TIMESTAMP) + ${c.a[1]} * INTERVAL 1 ${dateUnit(c, 0)})`
        : sql`CAST(CAST(${c.a[0]} AS DATE) + CAST(${c.a[1]} AS INTEGER) AS DATE)`),
    args => (args.length === 3 ? T.timestamp : T.date)),
    dateadd: scalar(2, 3, c => (c.args.length === 3
        ? sql`(CAST(${c.args[2].sql} AS TIMESTAMP) + ${c.a[1]} * INTERVAL 1 ${dateUnit(c, 0)})`
        : sql`CAST(CAST(${c.a[0]} AS DATE) + CAST(${c.a[1]} AS INTEGER) AS DATE)`),
    args => (args.length === 3 ? T.timestamp : T.date)),
    date_sub: scalar(2, 2, c => sql`CAST(CAST(${c.a[0]} AS DATE) - CAST(${c.a[1]} AS INTEGER) AS DATE)`, T.date),
    timestampadd: scalar(3, 3, c => sql`(CAST(${c.args[2].sql} AS TIMESTAMP) + ${c.a[1]} * INTERVAL 1 ${dateUnit(c, 0)})`, T.timestamp),
    datediff: scalar(2, 3, c => (c.args.length === 3
        ? sql`date_sub(${str(dateUnit(c, 0))}, CAST(${c.args[1].sql} AS TIMESTAMP), CAST(${c.args[2].sql} AS TIMESTAMP))`
        : sql`CAST(date_diff('day', CAST(${c.a[1]} AS DATE), CAST(${c.a[0]} AS DATE)) AS INTEGER)`), T.int),
    date_diff: scalar(2, 3, c => (c.args.length === 3
        ? sql`date_sub(${str(dateUnit(c, 0))}, CAST(${c.args[1].sql} AS TIMESTAMP), CAST(${c.args[2].sql} AS TIMESTAMP))`
        : sql`CAST(date_diff('day', CAST(${c.a[1]} AS DATE), CAST(${c.a[0]} AS DATE)) AS INTEGER)`), T.int),
    timestampdiff: scalar(3, 3, c => sql`date_sub(${str(dateUnit(c, 0))}, CAST(${c.args[1].sql} AS TIMESTAMP), CAST(${c.args[2].sql} AS TIMESTAMP))`, T.bigint),
    add_months: scalar(2, 2, c => sql`CAST(CAST(${c.a[0]} AS DATE) + to_months(CAST(${c.a[1]} AS INTEGER)) AS DATE)`, T.date),
    last_day: scalar(1, 1, c => sql`last_day(CAST(${c.a[0]} AS DATE))`, T.date),
    trunc: scalar(2, 2, c => {
        const unit = dateUnit(c, 1);
        if (!['year', 'quarter', 'month', 'week'].includes(unit)) {
            return sql`CAST(NULL AS DATE)`;
        }
        return sql`CAST(date_trunc(${str(unit)}, CAST(${c.args[0].sql} AS DATE)) AS DATE)`;
    }, T.date),
    date_trunc: scalar(2, 2, c => sql`date_trunc(${str(dateUnit(c, 0))}, CAST(${c.args[1].sql} AS TIMESTAMP))`, T.timestamp),
    date_format: scalar(2, 2, c => sql`strftime(CAST(${c.args[0].sql} AS TIMESTAMP), ${pattern(c, 1)})`, T.string),
    to_date: scalar(1, 2, c => (c.args.length === 1
        ? sql`CAST(${c.args[0].sql} AS DATE)`
        : sql`CAST(strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS DATE)`), T.date),
    try_to_date: scalar(1, 2, c => (c.args.length === 1
        ? sql`TRY_CAST(${c.args[0].sql} AS DATE)`
        : sql`CAST(try_strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS DATE)`), T.date),
    // strptime with a zone letter (XXX, Z) gives DuckDB's TIMESTAMPTZ; cast in the UTC session, that is the instant in UTC.
    to_timestamp: scalar(1, 2, c => (c.args.length === 1
        ? textToTimestamp(c.args[0], false)
        : sql`CAST(strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS TIMESTAMP)`), T.timestamp),
    try_to_timestamp: scalar(1, 2, c => (c.args.length === 1
        ? textToTimestamp(c.args[0], true)
        : sql`CAST(try_strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS TIMESTAMP)`), T.timestamp),
    unix_timestamp: scalar(0, 2, c => {
        if (c.args.length === 0) {
            return sql`CAST(epoch(TIMESTAMP ${str(c.now.timestamp)}) AS BIGINT)`;
        }
        if (c.args.length === 2) {
            return sql`CAST(epoch(strptime(${c.args[0].sql}, ${pattern(c, 1)})) AS BIGINT)`;
        }
        return sql`CAST(epoch(CAST(${c.args[0].sql} AS TIMESTAMP)) AS BIGINT)`;
    }, T.bigint),
    to_unix_timestamp: scalar(1, 2, c => (c.args.length === 2
        ? sql`CAST(epoch(strptime(${c.args[0].sql}, ${pattern(c, 1)})) AS BIGINT)`
        : sql`CAST(epoch(CAST(${c.args[0].sql} AS TIMESTAMP)) AS BIGINT)`), T.bigint),
    from_unixtime: scalar(1, 2, c => sql`strftime(CAST(to_timestamp(${c.args[0].sql}) AS TIMESTAMP), ${c.args.length === 2 ? pattern(c, 1) : sql`'%Y-%m-%d %H:%M:%S'`})`, T.string),
    timestamp_seconds: scalar(1, 1, c => sql`CAST(to_timestamp(${c.a[0]}) AS TIMESTAMP)`, T.timestamp),
    timestamp_millis: scalar(1, 1, c => sql`epoch_ms(CAST(${c.a[0]} AS BIGINT))`, T.timestamp),
    timestamp_micros: scalar(1, 1, c => sql`make_timestamp(CAST(${c.a[0]} AS BIGINT))`, T.timestamp),
    unix_seconds: scalar(1, 1, c => sql`CAST(epoch(CAST(${c.a[0]} AS TIMESTAMP)) AS BIGINT)`, T.bigint),
    unix_millis: scalar(1, 1, c => sql`epoch_ms(CAST(${c.a[0]} AS TIMESTAMP))`, T.bigint),
    unix_micros: scalar(1, 1, c => sql`epoch_us(CAST(${c.a[0]} AS TIMESTAMP))`, T.bigint),
    unix_date: scalar(1, 1, c => sql`CAST(date_diff('day', DATE '1970-01-01', CAST(${c.a[0]} AS DATE)) AS INTEGER)`, T.int),
    date_from_unix_date: scalar(1, 1, c => sql`CAST(DATE '1970-01-01' + CAST(${c.a[0]} AS INTEGER) AS DATE)`, T.date),
    year: scalar(1, 1, c => sql`CAST(year(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    quarter: scalar(1, 1, c => sql`CAST(quarter(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    month: scalar(1, 1, c => sql`CAST(month(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    day: scalar(1, 1, c => sql`CAST(day(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    dayofmonth: scalar(1, 1, c => sql`CAST(day(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    dayofyear: scalar(1, 1, c => sql`CAST(dayofyear(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    // Spark: 1 = Sunday ... 7 = Saturday; DuckDB dayofweek: 0 = Sunday.
    dayofweek: scalar(1, 1, c => sql`CAST(dayofweek(CAST(${c.a[0]} AS TIMESTAMP)) + 1 AS INTEGER)`, T.int),
    weekday: scalar(1, 1, c => sql`CAST(isodow(CAST(${c.a[0]} AS TIMESTAMP)) - 1 AS INTEGER)`, T.int),
    weekofyear: scalar(1, 1, c => sql`CAST(week(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    hour: scalar(1, 1, c => sql`CAST(hour(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    minute: scalar(1, 1, c => sql`CAST(minute(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    second: scalar(1, 1, c => sql`CAST(second(CAST(${c.a[0]} AS TIMESTAMP)) AS INTEGER)`, T.int),
    extract: scalar(2, 2, c => sql`date_part(${str(dateUnit(c, 0))}, CAST(${c.args[1].sql} AS TIMESTAMP))`, T.int),
    date_part: scalar(2, 2, c => sql`date_part(${str(dateUnit(c, 0))}, CAST(${c.args[1].sql} AS TIMESTAMP))`, T.int),
    make_date: scalar(3, 3, c => sql`make_date(CAST(${c.a[0]} AS BIGINT), CAST(${c.a[1]} AS BIGINT), CAST(${c.a[2]} AS BIGINT))`, T.date),
    make_timestamp: scalar(6, 6, c => sql`make_timestamp(CAST(${c.a[0]} AS BIGINT), CAST(${c.a[1]} AS BIGINT), CAST(${c.a[2]} AS BIGINT), CAST(${c.a[3]} AS BIGINT), CAST(${c.a[4]} AS BIGINT), CAST(${c.a[5]} AS DOUBLE))`, T.timestamp),
    from_utc_timestamp: scalar(2, 2, c => sql`timezone(${c.a[1]}, timezone('UTC', CAST(${c.a[0]} AS TIMESTAMP)))`, T.timestamp),
    to_utc_timestamp: scalar(2, 2, c => sql`timezone('UTC', timezone(${c.a[1]}, CAST(${c.a[0]} AS TIMESTAMP)))`, T.timestamp),

    // ---- arrays, maps, structs
    array: scalar(0, any, c => sql`[${c.all}]`, args => T.array(args[0] ?? T.void)),
    size: scalar(1, 1, c => (c.args[0].type?.kind === 'map' ? sql`CAST(cardinality(${c.a[0]}) AS INTEGER)` : sql`CAST(len(${c.a[0]}) AS INTEGER)`), T.int),
    cardinality: scalar(1, 1, c => (c.args[0].type?.kind === 'map' ? sql`CAST(cardinality(${c.a[0]}) AS INTEGER)` : sql`CAST(len(${c.a[0]}) AS INTEGER)`), T.int),
    array_size: scalar(1, 1, c => sql`CAST(len(${c.a[0]}) AS INTEGER)`, T.int),
    array_contains: scalar(2, 2, c => sql`list_contains(${c.a[0]}, ${c.a[1]})`, T.boolean),
    array_distinct: scalar(1, 1, c => sql`__psql_array_distinct(${c.a[0]})`, 'arg1'),
    array_join: scalar(2, 3, c => (c.args.length === 2
        ? sql`array_to_string(${c.a[0]}, ${c.a[1]})`
        : sql`array_to_string(list_transform(${c.a[0]}, lambda __x: coalesce(CAST(__x AS VARCHAR), ${c.a[2]})), ${c.a[1]})`), T.string),
    array_max: scalar(1, 1, c => sql`list_max(${c.a[0]})`, 'element1'),
    array_min: scalar(1, 1, c => sql`list_min(${c.a[0]})`, 'element1'),
    array_position: scalar(2, 2, c => sql`CAST(coalesce(list_position(${c.a[0]}, ${c.a[1]}), 0) AS BIGINT)`, T.bigint),
    array_remove: scalar(2, 2, c => sql`list_filter(${c.a[0]}, lambda __x: __x IS DISTINCT FROM ${c.a[1]})`, 'arg1'),
    array_sort: scalar(1, 1, c => sql`list_sort(${c.a[0]}, 'ASC', 'NULLS LAST')`, 'arg1'),
    sort_array: scalar(1, 2, c => {
        const asc = c.args.length === 1 ? true : c.literalArg(1);
        if (asc !== true && asc !== false) {
            c.unsupported('the sort direction must be a boolean literal');
        }
        return asc ? sql`list_sort(${c.a[0]}, 'ASC', 'NULLS FIRST')` : sql`list_sort(${c.a[0]}, 'DESC', 'NULLS LAST')`;
    }, 'arg1'),
    array_union: scalar(2, 2, c => sql`__psql_array_distinct(${c.a[0]} || ${c.a[1]})`, 'arg1'),
    array_intersect: scalar(2, 2, c => sql`__psql_array_distinct(list_filter(${c.a[0]}, lambda __x: list_contains(${c.a[1]}, __x)))`, 'arg1'),
    array_except: scalar(2, 2, c => sql`__psql_array_distinct(list_filter(${c.a[0]}, lambda __x: NOT coalesce(list_contains(${c.a[1]}, __x), false)))`, 'arg1'),
    arrays_overlap: scalar(2, 2, c => sql`len(list_filter(${c.a[0]}, lambda __x: list_contains(${c.a[1]}, __x))) > 0`, T.boolean),
    array_append: scalar(2, 2, c => sql`list_append(${c.a[0]}, ${c.a[1]})`, 'arg1'),
    array_prepend: scalar(2, 2, c => sql`list_prepend(${c.a[1]}, ${c.a[0]})`, 'arg1'),
    array_compact: scalar(1, 1, c => sql`list_filter(${c.a[0]}, lambda __x: __x IS NOT NULL)`, 'arg1'),
    array_repeat: scalar(2, 2, c => sql`list_transform(range(CAST(${c.a[1]} AS BIGINT)), lambda __x: ${c.a[0]})`, args => T.array(args[0] ?? T.void)),
    flatten: scalar(1, 1, c => sql`flatten(${c.a[0]})`, args => elementOf(args[0])),
    slice: scalar(3, 3, c => sql`__psql_slice(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`, 'arg1'),
    sequence: scalar(2, 3, c => {
        const start = c.args[0].type;
        if (start && (start.kind === 'date' || start.kind === 'timestamp')) {
            const step = c.args.length === 3 ? c.args[2].sql : sql`INTERVAL 1 DAY`;
            const cast = start.kind === 'date' ? sql`DATE[]` : sql`TIMESTAMP[]`;
            return sql`CAST(generate_series(CAST(${c.args[0].sql} AS TIMESTAMP), CAST(${c.args[1].sql} AS TIMESTAMP), ${step}) AS ${cast})`;
        }
        const step = c.args.length === 3 ? c.args[2].sql : sql`CASE WHEN ${c.a[0]} <= ${c.a[1]} THEN 1 ELSE -1 END`;
        const series = sql`generate_series(${c.args[0].sql}, ${c.args[1].sql}, ${step})`;
        return start && isIntegral(start) ? sql`CAST(${series} AS ${toDuckType(start)}[])` : series;
    }, args => T.array(args[0] ?? T.bigint)),
    element_at: scalar(2, 2, c => (c.args[0].type?.kind === 'map'
        ? sql`map_extract_value(${c.a[0]}, ${c.a[1]})`
        : sql`__psql_element_at(${c.a[0]}, ${c.a[1]})`),
    args => (args[0]?.kind === 'map' ? args[0].value : elementOf(args[0]))),
    try_element_at: scalar(2, 2, c => (c.args[0].type?.kind === 'map'
        ? sql`map_extract_value(${c.a[0]}, ${c.a[1]})`
        : sql`CASE WHEN ${c.a[1]} = 0 OR abs(${c.a[1]}) > len(${c.a[0]}) THEN NULL WHEN ${c.a[1]} > 0 THEN ${c.a[0]}[${c.a[1]}] ELSE ${c.a[0]}[len(${c.a[0]}) + ${c.a[1]} + 1] END`),
    args => (args[0]?.kind === 'map' ? args[0].value : elementOf(args[0]))),
    get: scalar(2, 2, c => sql`__psql_get(${c.a[0]}, ${c.a[1]})`, 'element1'),
    transform: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_transform(${c.a[0]}, ${c.a[1]})`, lambdaParams: collectionLambda, indexParam: true, type: args => T.array(args[1] ?? T.void) },
    filter: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_filter(${c.a[0]}, ${c.a[1]})`, lambdaParams: collectionLambda, indexParam: true, type: 'arg1' },
    exists: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_bool_or(list_transform(${c.a[0]}, ${c.a[1]}))`, lambdaParams: collectionLambda, type: T.boolean },
    forall: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_bool_and(list_transform(${c.a[0]}, ${c.a[1]}))`, lambdaParams: collectionLambda, type: T.boolean },
    aggregate: {
        kind: 'scalar', min: 3, max: 4,
        sql: c => (c.args.length === 3
            ? sql`list_reduce(${c.a[0]}, ${c.a[2]}, ${c.a[1]})`
            : sql`list_transform([list_reduce(${c.a[0]}, ${c.a[2]}, ${c.a[1]})], ${c.a[3]})[1]`),
        lambdaParams: args => [args[1], elementOf(args[0])],
        type: 'arg2',
    },
    map: scalar(0, any, c => {
        if (c.args.length % 2 !== 0) {
            c.unsupported('map() needs an even number of arguments');
        }
        if (c.args.length === 0) {
            return sql`MAP {}`;
        }
        const keys = c.args.filter((_, i) => i % 2 === 0).map(a => a.sql);
        const values = c.args.filter((_, i) => i % 2 === 1).map(a => a.sql);
        return sql`map([${join(keys)}], [${join(values)}])`;
    }, args => T.map(args[0] ?? T.string, args[1] ?? T.void)),
    map_keys: scalar(1, 1, c => sql`map_keys(${c.a[0]})`, args => (args[0]?.kind === 'map' ? T.array(args[0].key) : undefined)),
    map_values: scalar(1, 1, c => sql`map_values(${c.a[0]})`, args => (args[0]?.kind === 'map' ? T.array(args[0].value) : undefined)),
    map_entries: scalar(1, 1, c => sql`map_entries(${c.a[0]})`),
    map_from_arrays: scalar(2, 2, c => sql`map(${c.a[0]}, ${c.a[1]})`),
    map_from_entries: scalar(1, 1, c => sql`map_from_entries(${c.a[0]})`),
    map_concat: scalar(1, any, c => sql`map_concat(${c.all})`, 'arg1'),
    map_contains_key: scalar(2, 2, c => sql`map_contains(${c.a[0]}, ${c.a[1]})`, T.boolean),
    str_to_map: scalar(1, 3, c => {
        const pairDelim = c.args[1]?.sql ?? sql`','`;
        const kvDelim = c.args[2]?.sql ?? sql`':'`;
        const entry = sql`struct_pack(key := string_split_regex(__kv, ${kvDelim})[1], value := string_split_regex(__kv, ${kvDelim})[2])`;
        return sql`map_from_entries(list_transform(string_split_regex(${c.args[0].sql}, ${pairDelim}), lambda __kv: ${entry}))`;
    }, T.map(T.string, T.string)),
    named_struct: scalar(0, any, c => {
        if (c.args.length % 2 !== 0) {
            c.unsupported('named_struct() needs name/value pairs');
        }
        const fields: Sql[] = [];
        for (let i = 0; i < c.args.length; i += 2) {
            const name = c.stringArg(i) ?? c.unsupported('field names must be string literals');
            fields.push(sql`${ident(name)} := ${c.args[i + 1].sql}`);
        }
        return sql`struct_pack(${join(fields)})`;
    }, args => T.struct(args.filter((_, i) => i % 2 === 1).map((t, i) => ({ name: `col${i + 1}`, type: t ?? T.void })))),

    // ---- JSON
    get_json_object: scalar(2, 2, c => sql`__psql_json_get(${c.a[0]}, ${c.a[1]})`, T.string),
    json_array_length: scalar(1, 1, c => sql`CASE WHEN json_valid(${c.a[0]}) THEN CAST(json_array_length(${c.a[0]}) AS INTEGER) END`, T.int),
    json_object_keys: scalar(1, 1, c => sql`CASE WHEN json_valid(${c.a[0]}) THEN json_keys(${c.a[0]}) END`, T.array(T.string)),
    from_json: scalar(2, 3, c => {
        const type = schemaArg(c, 1);
        return sql`CASE WHEN json_valid(${c.args[0].sql}) THEN json_transform(${c.args[0].sql}, ${str(JSON.stringify(jsonStructure(type)))}) END`;
    }, undefined),
    // DuckDB writes timestamps as `yyyy-MM-dd HH:mm:ss`, Spark as ISO 8601 with a zone: refuse rather than differ.
    to_json: scalar(1, 2, c => (hasTimestamp(c.args[0].type)
        ? c.unsupported('a TIMESTAMP inside the value would be formatted differently from Spark; format it with date_format first')
        : sql`CAST(to_json(${c.a[0]}) AS VARCHAR)`), T.string),

    // ---- aggregates
    count: aggregate(0, any, { fn: sql`count` }, T.bigint),
    sum: { kind: 'aggregate', min: 1, max: 1, agg: { fn: sql`sum` }, type: args => (isIntegral(args[0]) ? T.bigint : args[0]?.kind === 'decimal' ? decimalType(decimalSum(args[0])) : args[0] ? T.double : undefined) },
    avg: aggregate(1, 1, { fn: sql`avg` }, T.double),
    mean: aggregate(1, 1, { fn: sql`avg` }, T.double),
    min: aggregate(1, 1, { fn: sql`min` }, 'arg1'),
    max: aggregate(1, 1, { fn: sql`max` }, 'arg1'),
    count_if: aggregate(1, 1, { fn: sql`count_if` }, T.bigint),
    first: aggregate(1, 2, { fn: sql`first`, args: a => sql`${a[0]}` }, 'arg1'),
    first_value: aggregate(1, 2, { fn: sql`first`, args: a => sql`${a[0]}` }, 'arg1'),
    last: aggregate(1, 2, { fn: sql`last`, args: a => sql`${a[0]}` }, 'arg1'),
    last_value: aggregate(1, 2, { fn: sql`last`, args: a => sql`${a[0]}` }, 'arg1'),
    any_value: aggregate(1, 2, { fn: sql`any_value`, args: a => sql`${a[0]}` }, 'arg1'),
    collect_list: aggregate(1, 1, { fn: sql`list`, filter: a => sql`${a[0]} IS NOT NULL`, wrap: x => sql`coalesce(${x}, [])` }, args => T.array(args[0] ?? T.void)),
    array_agg: aggregate(1, 1, { fn: sql`list`, filter: a => sql`${a[0]} IS NOT NULL`, wrap: x => sql`coalesce(${x}, [])` }, args => T.array(args[0] ?? T.void)),
    collect_set: aggregate(1, 1, { fn: sql`list`, distinct: true, filter: a => sql`${a[0]} IS NOT NULL`, wrap: x => sql`coalesce(${x}, [])` }, args => T.array(args[0] ?? T.void)),
    bool_and: aggregate(1, 1, { fn: sql`bool_and` }, T.boolean),
    every: aggregate(1, 1, { fn: sql`bool_and` }, T.boolean),
    bool_or: aggregate(1, 1, { fn: sql`bool_or` }, T.boolean),
    some: aggregate(1, 1, { fn: sql`bool_or` }, T.boolean),
    any: aggregate(1, 1, { fn: sql`bool_or` }, T.boolean),
    stddev: aggregate(1, 1, { fn: sql`stddev_samp` }, T.double),
    std: aggregate(1, 1, { fn: sql`stddev_samp` }, T.double),
    stddev_samp: aggregate(1, 1, { fn: sql`stddev_samp` }, T.double),
    stddev_pop: aggregate(1, 1, { fn: sql`stddev_pop` }, T.double),
    variance: aggregate(1, 1, { fn: sql`var_samp` }, T.double),
    var_samp: aggregate(1, 1, { fn: sql`var_samp` }, T.double),
    var_pop: aggregate(1, 1, { fn: sql`var_pop` }, T.double),
    corr: aggregate(2, 2, { fn: sql`corr` }, T.double),
    covar_pop: aggregate(2, 2, { fn: sql`covar_pop` }, T.double),
    covar_samp: aggregate(2, 2, { fn: sql`covar_samp` }, T.double),
    percentile: aggregate(2, 3, { fn: sql`quantile_cont`, args: a => sql`${a[0]}, ${a[1]}` }, T.double),
    percentile_approx: aggregate(2, 3, { fn: sql`quantile_disc`, args: a => sql`${a[0]}, ${a[1]}` }, 'arg1'),
    approx_percentile: aggregate(2, 3, { fn: sql`quantile_disc`, args: a => sql`${a[0]}, ${a[1]}` }, 'arg1'),
    median: aggregate(1, 1, { fn: sql`median` }, T.double),
    mode: aggregate(1, 1, { fn: sql`mode` }, 'arg1'),
    // Exact counting is within Spark's error bound for approx_count_distinct (and exact on small data, as Spark's is).
    approx_count_distinct: aggregate(1, 2, { fn: sql`count`, args: a => sql`${a[0]}`, distinct: true }, T.bigint),
    max_by: aggregate(2, 2, { fn: sql`arg_max` }, 'arg1'),
    min_by: aggregate(2, 2, { fn: sql`arg_min` }, 'arg1'),
    string_agg: aggregate(1, 2, { fn: sql`string_agg` }, T.string),
    listagg: aggregate(1, 2, { fn: sql`string_agg` }, T.string),
    grouping: scalar(1, any, c => sql`grouping(${c.all})`, T.int),
    percentile_cont: aggregate(1, 1, { fn: sql`quantile_cont` }, T.double),
    percentile_disc: aggregate(1, 1, { fn: sql`quantile_disc` }, 'arg1'),

    // ---- window-only functions
    row_number: window(0, 0, () => sql`row_number()`, T.int),
    rank: window(0, 0, () => sql`rank()`, T.int),
    dense_rank: window(0, 0, () => sql`dense_rank()`, T.int),
    percent_rank: window(0, 0, () => sql`percent_rank()`, T.double),
    cume_dist: window(0, 0, () => sql`cume_dist()`, T.double),
    ntile: window(1, 1, c => sql`ntile(${c.a[0]})`, T.int),
    lag: windowIgnoringNulls(1, 3, sql`lag`, 'arg1'),
    lead: windowIgnoringNulls(1, 3, sql`lead`, 'arg1'),
    nth_value: windowIgnoringNulls(2, 2, sql`nth_value`, 'arg1'),

    // ---- generators (SELECT list, LATERAL VIEW, FROM)
    explode: { kind: 'generator', min: 1, max: 1 },
    explode_outer: { kind: 'generator', min: 1, max: 1 },
    posexplode: { kind: 'generator', min: 1, max: 1 },
    posexplode_outer: { kind: 'generator', min: 1, max: 1 },
    inline: { kind: 'generator', min: 1, max: 1 },
    inline_outer: { kind: 'generator', min: 1, max: 1 },

    // ---- session information (fixed values for a local run)
    current_user: scalar(0, 0, () => sql`'local'`, T.string),
    user: scalar(0, 0, () => sql`'local'`, T.string),
    session_user: scalar(0, 0, () => sql`'local'`, T.string),
    current_catalog: scalar(0, 0, () => sql`'main'`, T.string),
    current_database: scalar(0, 0, () => sql`'default'`, T.string),
    current_schema: scalar(0, 0, () => sql`'default'`, T.string),
    spark_partition_id: scalar(0, 0, () => sql`0`, T.int),
};

/** The function table, keyed by lower-case Spark name (a Map: names come from pipeline text). */
export const sparkFunctions: ReadonlyMap<string, FunctionSpec> = new Map([
    ...Object.entries(functionRows),
    // Spark's other name for aggregate (the same function).
    ['reduce', functionRows.aggregate],
]);

/** The function of a (case-insensitive) name, if the local engine has it. */
export function lookupFunction(name: string): FunctionSpec | undefined {
    return sparkFunctions.get(name.toLowerCase());
}

/** Resolves the declared result type of a function given its argument types. */
export function resultType(spec: FunctionSpec, args: (DataType | undefined)[]): DataType | undefined {
    const rule = spec.type;
    if (rule === undefined) {
        return undefined;
    }
    if (typeof rule === 'function') {
        return rule(args);
    }
    if (rule === 'arg1') {
        return args[0];
    }
    if (rule === 'arg2') {
        return args[1];
    }
    if (rule === 'element1') {
        return elementOf(args[0]);
    }
    if (typeof rule === 'string') {
        return undefined;
    }
    return rule;
}

/** The unsupported-function error for a call (names the function, as Spark would). */
export function unknownFunctionError(call: CallExprIR): UnsupportedFeatureError {
    return new UnsupportedFeatureError(ErrorClass.unsupportedFunction,
        `The Spark function '${call.name}' is not supported by the local engine (no exact DuckDB translation).`, { span: call.span });
}
