// The Spark function table: Spark function name → DuckDB translation, as data.
//
// Each entry gives the accepted arity and either a SQL template (`$1`..`$9` are the translated
// arguments, `$*` all of them, comma-separated) or, where the translation depends on literal
// arguments or types, a small function of the call. Aggregates name the DuckDB aggregate plus an
// implicit FILTER and a wrapper, so user FILTER / DISTINCT / OVER clauses compose with them.
// A function that is not in this table is an error naming it: the engine never guesses.
import { UnsupportedFeatureError, ErrorClass } from '../errors.js';
import type { CallExprIR, DataType, ExprIR } from '../ir.js';
import { javaPatternToStrftime } from './java-datetime.js';
import { quoteIdent, quoteString } from './quote.js';
import { T, isIntegral, isString, parseSparkSchema, parseSparkType, timestampFromText, toDuckType } from './types.js';

/** A translated expression: DuckDB SQL plus its Spark type when the translator could infer it. */
export interface Translated {
    sql: string;
    type?: DataType;
}

/** What a translation function gets to see of a call. */
export interface CallContext {
    call: CallExprIR;
    /** Translated positional arguments, lambdas included. */
    args: Translated[];
    /** The fixed clock of the update (`current_date()` and friends). */
    now: { date: string; timestamp: string };
    /** The value of argument `i` when it is a string literal. */
    stringArg(i: number): string | undefined;
    /** The value of argument `i` when it is a numeric or boolean literal. */
    literalArg(i: number): string | number | boolean | null | undefined;
    /** Throws an UnsupportedFeatureError about this call. */
    unsupported(reason: string): never;
}

/** How the result type of a function is derived. */
type TypeRule = DataType | 'arg1' | 'arg2' | 'element1' | ((args: (DataType | undefined)[]) => DataType | undefined);

/** One row of the function table. */
export interface FunctionSpec {
    kind: 'scalar' | 'aggregate' | 'window' | 'generator';
    min: number;
    max: number;
    /** Template or function producing the DuckDB expression (scalars and window-only functions). */
    sql?: string | ((c: CallContext) => string);
    /** Aggregate translation: `fn(args)` with an implicit filter and a wrapper around the result. */
    agg?: { fn: string; args?: string; filter?: string; wrap?: string; distinct?: boolean };
    type?: TypeRule;
    /** For lambda arguments: the types of the lambda parameters, given the argument types. */
    lambdaParams?: (args: (DataType | undefined)[]) => (DataType | undefined)[];
    /** The second lambda parameter is a 0-based index in Spark and a 1-based one in DuckDB. */
    indexParam?: boolean;
}

const any = Number.POSITIVE_INFINITY;

function scalar(min: number, max: number, sql: FunctionSpec['sql'], type?: TypeRule): FunctionSpec {
    return { kind: 'scalar', min, max, sql, type };
}

function aggregate(min: number, max: number, agg: FunctionSpec['agg'], type?: TypeRule): FunctionSpec {
    return { kind: 'aggregate', min, max, agg, type };
}

function window(min: number, max: number, sql: FunctionSpec['sql'], type?: TypeRule): FunctionSpec {
    return { kind: 'window', min, max, sql, type };
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

/** Fills `$1`..`$9` and `$*` in a template with parenthesised argument SQL. */
export function fillTemplate(template: string, args: Translated[]): string {
    return template.replace(/\$(\*|\d)/g, (_, which: string) => {
        if (which === '*') {
            return args.map(a => a.sql).join(', ');
        }
        const arg = args[Number(which) - 1];
        return arg ? `(${arg.sql})` : 'NULL';
    });
}

/** Unit names accepted by Spark's date_trunc / trunc / timestampadd, mapped to DuckDB part names. */
const dateUnits: Record<string, string> = {
    year: 'year', yyyy: 'year', yy: 'year',
    quarter: 'quarter',
    month: 'month', mon: 'month', mm: 'month',
    week: 'week',
    day: 'day', dd: 'day', d: 'day', dayofmonth: 'day',
    hour: 'hour', minute: 'minute', second: 'second',
    millisecond: 'millisecond', microsecond: 'microsecond',
};

function dateUnit(c: CallContext, i: number): string {
    const raw = c.stringArg(i) ?? literalWord(c.call.args[i]);
    const unit = raw ? dateUnits[raw.toLowerCase()] : undefined;
    if (!unit) {
        c.unsupported(`the unit must be a literal such as 'YEAR', 'MONTH', 'DAY' or 'HOUR' (got ${raw === undefined ? 'an expression' : `'${raw}'`})`);
    }
    return unit;
}

/** A bare word argument (`timestampadd(HOUR, ...)` lowered as a column reference). */
function literalWord(e: ExprIR | undefined): string | undefined {
    return e?.kind === 'column' && e.parts.length === 1 ? e.parts[0] : undefined;
}

function pattern(c: CallContext, i: number): string {
    const text = c.stringArg(i);
    if (text === undefined) {
        c.unsupported('the datetime pattern must be a string literal');
    }
    try {
        return quoteString(javaPatternToStrftime(text));
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
function textToTimestamp(arg: { sql: string; type?: DataType }, tryCast: boolean): string {
    return isString(arg.type) || arg.type === undefined ? timestampFromText(arg.sql, T.timestamp, tryCast) : `${tryCast ? 'TRY_CAST' : 'CAST'}(${arg.sql} AS TIMESTAMP)`;
}

function castTo(type: string): FunctionSpec {
    return scalar(1, 1, `CAST($1 AS ${type})`);
}

/** Spark's integral cast truncates toward zero where DuckDB rounds. */
function integralCast(duckType: string, sparkType: DataType): FunctionSpec {
    return scalar(1, 1, c => {
        const t = c.args[0].type;
        if (t && ['float', 'double', 'decimal'].includes(t.kind)) {
            return `CAST(trunc(${c.args[0].sql}) AS ${duckType})`;
        }
        if (isString(t)) {
            return `CAST(__psql_str_to_bigint(${c.args[0].sql}) AS ${duckType})`;
        }
        return `CAST(${c.args[0].sql} AS ${duckType})`;
    }, sparkType);
}

const collectionLambda = (args: (DataType | undefined)[]): (DataType | undefined)[] => [elementOf(args[0]), T.int];

/** The function table. Keys are lower-case Spark names. */
export const sparkFunctions: Record<string, FunctionSpec> = {
    // ---- strings
    lower: scalar(1, 1, 'lower($1)', T.string),
    lcase: scalar(1, 1, 'lower($1)', T.string),
    upper: scalar(1, 1, 'upper($1)', T.string),
    ucase: scalar(1, 1, 'upper($1)', T.string),
    length: scalar(1, 1, c => (c.args[0].type?.kind === 'binary' ? `octet_length(${c.args[0].sql})` : `length(${c.args[0].sql})`), T.int),
    char_length: scalar(1, 1, 'length($1)', T.int),
    character_length: scalar(1, 1, 'length($1)', T.int),
    octet_length: scalar(1, 1, 'octet_length(CAST($1 AS BLOB))', T.int),
    trim: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('trim($1)', c.args) : fillTemplate('trim($1, $2)', c.args)), T.string),
    btrim: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('trim($1)', c.args) : fillTemplate('trim($1, $2)', c.args)), T.string),
    ltrim: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('ltrim($1)', c.args) : fillTemplate('ltrim($1, $2)', c.args)), T.string),
    rtrim: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('rtrim($1)', c.args) : fillTemplate('rtrim($1, $2)', c.args)), T.string),
    // Spark concat: NULL if any argument is NULL; arrays concatenate.
    concat: scalar(0, any, c => (c.args.length === 0 ? '\'\'' : `(${c.args.map(a => `(${a.sql})`).join(' || ')})`),
        args => (args[0]?.kind === 'array' ? args[0] : T.string)),
    concat_ws: scalar(1, any, c => `concat_ws(${c.args.map(a => (a.type?.kind === 'array' ? `array_to_string(${a.sql}, ${c.args[0].sql})` : a.sql)).join(', ')})`, T.string),
    substring: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('__psql_substr2($1, $2)', c.args) : fillTemplate('__psql_substr($1, $2, $3)', c.args)), T.string),
    substr: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('__psql_substr2($1, $2)', c.args) : fillTemplate('__psql_substr($1, $2, $3)', c.args)), T.string),
    left: scalar(2, 2, 'left($1, $2)', T.string),
    right: scalar(2, 2, 'right($1, $2)', T.string),
    replace: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('replace($1, $2, \'\')', c.args) : fillTemplate('replace($1, $2, $3)', c.args)), T.string),
    // Spark replacement strings use $n for groups, DuckDB uses \n; all matches are replaced.
    regexp_replace: scalar(3, 3, c => {
        const replacement = c.stringArg(2);
        const converted = replacement !== undefined
            ? quoteString(replacement.replace(/\\/g, '\\\\').replace(/\$(\d)/g, '\\$1'))
            : `regexp_replace(${c.args[2].sql}, '\\$(\\d)', '\\\\\\1', 'g')`;
        return `regexp_replace(${c.args[0].sql}, ${c.args[1].sql}, ${converted}, 'g')`;
    }, T.string),
    regexp_extract: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('regexp_extract($1, $2, 1)', c.args) : fillTemplate('regexp_extract($1, $2, $3)', c.args)), T.string),
    regexp_extract_all: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('regexp_extract_all($1, $2, 1)', c.args) : fillTemplate('regexp_extract_all($1, $2, $3)', c.args)), T.array(T.string)),
    regexp_like: scalar(2, 2, 'regexp_matches($1, $2)', T.boolean),
    regexp: scalar(2, 2, 'regexp_matches($1, $2)', T.boolean),
    rlike: scalar(2, 2, 'regexp_matches($1, $2)', T.boolean),
    regexp_count: scalar(2, 2, 'len(regexp_extract_all($1, $2))', T.int),
    split: scalar(2, 3, c => {
        const limit = c.literalArg(2);
        if (c.args.length === 3 && !(typeof limit === 'number' || typeof limit === 'string') ) {
            c.unsupported('the limit must be a numeric literal');
        }
        if (c.args.length === 3 && Number(limit) > 0) {
            c.unsupported('a positive limit is not supported; omit it or pass -1');
        }
        return fillTemplate('string_split_regex($1, $2)', c.args);
    }, T.array(T.string)),
    split_part: scalar(3, 3, 'split_part($1, $2, $3)', T.string),
    instr: scalar(2, 2, 'instr($1, $2)', T.int),
    locate: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('instr($2, $1)', c.args) : fillTemplate('__psql_locate($1, $2, $3)', c.args)), T.int),
    position: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('instr($2, $1)', c.args) : fillTemplate('__psql_locate($1, $2, $3)', c.args)), T.int),
    lpad: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('lpad($1, $2, \' \')', c.args) : fillTemplate('lpad($1, $2, $3)', c.args)), T.string),
    rpad: scalar(2, 3, c => (c.args.length === 2 ? fillTemplate('rpad($1, $2, \' \')', c.args) : fillTemplate('rpad($1, $2, $3)', c.args)), T.string),
    repeat: scalar(2, 2, 'repeat($1, $2)', T.string),
    reverse: scalar(1, 1, c => (c.args[0].type?.kind === 'array' ? fillTemplate('list_reverse($1)', c.args) : fillTemplate('reverse($1)', c.args)), 'arg1'),
    initcap: scalar(1, 1, '__psql_initcap($1)', T.string),
    ascii: scalar(1, 1, 'ascii($1)', T.int),
    chr: scalar(1, 1, 'chr(CAST($1 AS INTEGER))', T.string),
    char: scalar(1, 1, 'chr(CAST($1 AS INTEGER))', T.string),
    base64: scalar(1, 1, 'to_base64(CAST($1 AS BLOB))', T.string),
    unbase64: scalar(1, 1, 'from_base64($1)', T.binary),
    hex: scalar(1, 1, 'upper(hex($1))', T.string),
    unhex: scalar(1, 1, 'unhex($1)', T.binary),
    format_string: scalar(1, any, 'printf($*)', T.string),
    printf: scalar(1, any, 'printf($*)', T.string),
    startswith: scalar(2, 2, 'starts_with($1, $2)', T.boolean),
    endswith: scalar(2, 2, 'ends_with($1, $2)', T.boolean),
    contains: scalar(2, 2, 'contains($1, $2)', T.boolean),
    levenshtein: scalar(2, 2, 'levenshtein($1, $2)', T.int),
    translate: scalar(3, 3, 'translate($1, $2, $3)', T.string),
    md5: scalar(1, 1, 'md5($1)', T.string),
    sha1: scalar(1, 1, 'sha1($1)', T.string),
    sha: scalar(1, 1, 'sha1($1)', T.string),
    sha2: scalar(2, 2, c => {
        const bits = c.literalArg(1);
        if (Number(bits) === 256 || Number(bits) === 0) {
            return fillTemplate('sha256($1)', c.args);
        }
        return c.unsupported('only sha2(x, 256) (or 0) has a DuckDB equivalent');
    }, T.string),
    uuid: scalar(0, 0, 'CAST(uuid() AS VARCHAR)', T.string),

    // ---- numbers
    abs: scalar(1, 1, 'abs($1)', 'arg1'),
    ceil: scalar(1, 2, c => (c.args.length === 2 ? c.unsupported('ceil with a scale is not supported') : fillTemplate('CAST(ceil($1) AS BIGINT)', c.args)), T.bigint),
    ceiling: scalar(1, 1, 'CAST(ceil($1) AS BIGINT)', T.bigint),
    floor: scalar(1, 2, c => (c.args.length === 2 ? c.unsupported('floor with a scale is not supported') : fillTemplate('CAST(floor($1) AS BIGINT)', c.args)), T.bigint),
    // HALF_UP in Spark; DuckDB's round rounds half away from zero, which is the same rule.
    round: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('round($1)', c.args) : fillTemplate('round($1, CAST($2 AS INTEGER))', c.args)), 'arg1'),
    bround: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('round_even($1, 0)', c.args) : fillTemplate('round_even($1, CAST($2 AS INTEGER))', c.args)), 'arg1'),
    sqrt: scalar(1, 1, 'sqrt($1)', T.double),
    cbrt: scalar(1, 1, 'cbrt($1)', T.double),
    exp: scalar(1, 1, 'exp($1)', T.double),
    ln: scalar(1, 1, 'ln($1)', T.double),
    log: scalar(1, 2, c => (c.args.length === 1 ? fillTemplate('ln($1)', c.args) : fillTemplate('(ln($2) / ln($1))', c.args)), T.double),
    log10: scalar(1, 1, 'log10($1)', T.double),
    log2: scalar(1, 1, 'log2($1)', T.double),
    pow: scalar(2, 2, 'pow(CAST($1 AS DOUBLE), $2)', T.double),
    power: scalar(2, 2, 'pow(CAST($1 AS DOUBLE), $2)', T.double),
    mod: scalar(2, 2, '__psql_mod($1, $2)', 'arg1'),
    pmod: scalar(2, 2, '__psql_pmod($1, $2)', 'arg1'),
    sign: scalar(1, 1, 'CAST(sign($1) AS DOUBLE)', T.double),
    signum: scalar(1, 1, 'CAST(sign($1) AS DOUBLE)', T.double),
    greatest: scalar(1, any, 'greatest($*)', 'arg1'),
    least: scalar(1, any, 'least($*)', 'arg1'),
    rand: scalar(0, 1, 'random()', T.double),
    random: scalar(0, 1, 'random()', T.double),
    try_divide: scalar(2, 2, 'CASE WHEN $2 = 0 THEN NULL ELSE $1 / $2 END', T.double),
    try_add: scalar(2, 2, '($1 + $2)', 'arg1'),
    try_subtract: scalar(2, 2, '($1 - $2)', 'arg1'),
    try_multiply: scalar(2, 2, '($1 * $2)', 'arg1'),
    negative: scalar(1, 1, '(-$1)', 'arg1'),
    positive: scalar(1, 1, '(+$1)', 'arg1'),
    isnan: scalar(1, 1, 'isnan(CAST($1 AS DOUBLE))', T.boolean),
    nanvl: scalar(2, 2, 'CASE WHEN isnan(CAST($1 AS DOUBLE)) THEN $2 ELSE $1 END', T.double),
    pi: scalar(0, 0, 'pi()', T.double),
    e: scalar(0, 0, 'exp(1)', T.double),
    degrees: scalar(1, 1, 'degrees($1)', T.double),
    radians: scalar(1, 1, 'radians($1)', T.double),
    sin: scalar(1, 1, 'sin($1)', T.double),
    cos: scalar(1, 1, 'cos($1)', T.double),
    tan: scalar(1, 1, 'tan($1)', T.double),
    asin: scalar(1, 1, 'asin($1)', T.double),
    acos: scalar(1, 1, 'acos($1)', T.double),
    atan: scalar(1, 1, 'atan($1)', T.double),
    atan2: scalar(2, 2, 'atan2($1, $2)', T.double),

    // ---- conditional and null handling
    coalesce: scalar(1, any, 'coalesce($*)', 'arg1'),
    nvl: scalar(2, 2, 'coalesce($1, $2)', 'arg1'),
    ifnull: scalar(2, 2, 'coalesce($1, $2)', 'arg1'),
    nvl2: scalar(3, 3, 'CASE WHEN $1 IS NOT NULL THEN $2 ELSE $3 END', 'arg2'),
    nullif: scalar(2, 2, 'nullif($1, $2)', 'arg1'),
    if: scalar(3, 3, 'CASE WHEN $1 THEN $2 ELSE $3 END', 'arg2'),
    iff: scalar(3, 3, 'CASE WHEN $1 THEN $2 ELSE $3 END', 'arg2'),
    isnull: scalar(1, 1, '($1 IS NULL)', T.boolean),
    isnotnull: scalar(1, 1, '($1 IS NOT NULL)', T.boolean),
    equal_null: scalar(2, 2, '($1 IS NOT DISTINCT FROM $2)', T.boolean),
    zeroifnull: scalar(1, 1, 'coalesce($1, 0)', 'arg1'),
    nullifzero: scalar(1, 1, 'nullif($1, 0)', 'arg1'),
    raise_error: scalar(1, 1, 'error($1)', T.void),
    decode: scalar(3, any, c => {
        const pairs: string[] = [];
        for (let i = 1; i + 1 < c.args.length; i += 2) {
            pairs.push(`WHEN ${c.args[0].sql} IS NOT DISTINCT FROM ${c.args[i].sql} THEN ${c.args[i + 1].sql}`);
        }
        const otherwise = c.args.length % 2 === 0 ? ` ELSE ${c.args[c.args.length - 1].sql}` : '';
        return `CASE ${pairs.join(' ')}${otherwise} END`;
    }, args => args[2]),
    elt: scalar(2, any, c => `list_extract([${c.args.slice(1).map(a => a.sql).join(', ')}], ${c.args[0].sql})`, 'arg2'),

    // ---- casts by function name
    string: castTo('VARCHAR'),
    boolean: castTo('BOOLEAN'),
    tinyint: integralCast('TINYINT', T.tinyint),
    smallint: integralCast('SMALLINT', T.smallint),
    int: integralCast('INTEGER', T.int),
    bigint: integralCast('BIGINT', T.bigint),
    float: castTo('FLOAT'),
    double: castTo('DOUBLE'),
    decimal: castTo('DECIMAL(10,0)'),
    date: castTo('DATE'),
    timestamp: scalar(1, 1, c => textToTimestamp(c.args[0], false), T.timestamp),
    binary: castTo('BLOB'),

    // ---- dates and times (the clock is the update's fixed `now`)
    current_date: scalar(0, 0, c => `DATE ${quoteString(c.now.date)}`, T.date),
    curdate: scalar(0, 0, c => `DATE ${quoteString(c.now.date)}`, T.date),
    current_timestamp: scalar(0, 0, c => `TIMESTAMP ${quoteString(c.now.timestamp)}`, T.timestamp),
    now: scalar(0, 0, c => `TIMESTAMP ${quoteString(c.now.timestamp)}`, T.timestamp),
    localtimestamp: scalar(0, 0, c => `TIMESTAMP ${quoteString(c.now.timestamp)}`, T.timestamp),
    current_timezone: scalar(0, 0, '\'UTC\'', T.string),
    date_add: scalar(2, 3, c => (c.args.length === 3
        ? `(CAST(${c.args[2].sql} AS TIMESTAMP) + ${c.args[1].sql} * INTERVAL 1 ${dateUnit(c, 0)})`
        : fillTemplate('CAST(CAST($1 AS DATE) + CAST($2 AS INTEGER) AS DATE)', c.args)),
    args => (args.length === 3 ? T.timestamp : T.date)),
    dateadd: scalar(2, 3, c => (c.args.length === 3
        ? `(CAST(${c.args[2].sql} AS TIMESTAMP) + ${c.args[1].sql} * INTERVAL 1 ${dateUnit(c, 0)})`
        : fillTemplate('CAST(CAST($1 AS DATE) + CAST($2 AS INTEGER) AS DATE)', c.args)),
    args => (args.length === 3 ? T.timestamp : T.date)),
    date_sub: scalar(2, 2, 'CAST(CAST($1 AS DATE) - CAST($2 AS INTEGER) AS DATE)', T.date),
    timestampadd: scalar(3, 3, c => `(CAST(${c.args[2].sql} AS TIMESTAMP) + ${c.args[1].sql} * INTERVAL 1 ${dateUnit(c, 0)})`, T.timestamp),
    datediff: scalar(2, 3, c => (c.args.length === 3
        ? `date_sub('${dateUnit(c, 0)}', CAST(${c.args[1].sql} AS TIMESTAMP), CAST(${c.args[2].sql} AS TIMESTAMP))`
        : fillTemplate('CAST(date_diff(\'day\', CAST($2 AS DATE), CAST($1 AS DATE)) AS INTEGER)', c.args)), T.int),
    date_diff: scalar(2, 3, c => (c.args.length === 3
        ? `date_sub('${dateUnit(c, 0)}', CAST(${c.args[1].sql} AS TIMESTAMP), CAST(${c.args[2].sql} AS TIMESTAMP))`
        : fillTemplate('CAST(date_diff(\'day\', CAST($2 AS DATE), CAST($1 AS DATE)) AS INTEGER)', c.args)), T.int),
    timestampdiff: scalar(3, 3, c => `date_sub('${dateUnit(c, 0)}', CAST(${c.args[1].sql} AS TIMESTAMP), CAST(${c.args[2].sql} AS TIMESTAMP))`, T.bigint),
    add_months: scalar(2, 2, 'CAST(CAST($1 AS DATE) + to_months(CAST($2 AS INTEGER)) AS DATE)', T.date),
    last_day: scalar(1, 1, 'last_day(CAST($1 AS DATE))', T.date),
    trunc: scalar(2, 2, c => {
        const unit = dateUnit(c, 1);
        if (!['year', 'quarter', 'month', 'week'].includes(unit)) {
            return 'CAST(NULL AS DATE)';
        }
        return `CAST(date_trunc('${unit}', CAST(${c.args[0].sql} AS DATE)) AS DATE)`;
    }, T.date),
    date_trunc: scalar(2, 2, c => `date_trunc('${dateUnit(c, 0)}', CAST(${c.args[1].sql} AS TIMESTAMP))`, T.timestamp),
    date_format: scalar(2, 2, c => `strftime(CAST(${c.args[0].sql} AS TIMESTAMP), ${pattern(c, 1)})`, T.string),
    to_date: scalar(1, 2, c => (c.args.length === 1
        ? `CAST(${c.args[0].sql} AS DATE)`
        : `CAST(strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS DATE)`), T.date),
    try_to_date: scalar(1, 2, c => (c.args.length === 1
        ? `TRY_CAST(${c.args[0].sql} AS DATE)`
        : `CAST(try_strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS DATE)`), T.date),
    // strptime with a zone letter (XXX, Z) gives DuckDB's TIMESTAMPTZ; cast in the UTC session, that is the instant in UTC.
    to_timestamp: scalar(1, 2, c => (c.args.length === 1
        ? textToTimestamp(c.args[0], false)
        : `CAST(strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS TIMESTAMP)`), T.timestamp),
    try_to_timestamp: scalar(1, 2, c => (c.args.length === 1
        ? textToTimestamp(c.args[0], true)
        : `CAST(try_strptime(${c.args[0].sql}, ${pattern(c, 1)}) AS TIMESTAMP)`), T.timestamp),
    unix_timestamp: scalar(0, 2, c => {
        if (c.args.length === 0) {
            return `CAST(epoch(TIMESTAMP ${quoteString(c.now.timestamp)}) AS BIGINT)`;
        }
        if (c.args.length === 2) {
            return `CAST(epoch(strptime(${c.args[0].sql}, ${pattern(c, 1)})) AS BIGINT)`;
        }
        return `CAST(epoch(CAST(${c.args[0].sql} AS TIMESTAMP)) AS BIGINT)`;
    }, T.bigint),
    to_unix_timestamp: scalar(1, 2, c => (c.args.length === 2
        ? `CAST(epoch(strptime(${c.args[0].sql}, ${pattern(c, 1)})) AS BIGINT)`
        : `CAST(epoch(CAST(${c.args[0].sql} AS TIMESTAMP)) AS BIGINT)`), T.bigint),
    from_unixtime: scalar(1, 2, c => `strftime(CAST(to_timestamp(${c.args[0].sql}) AS TIMESTAMP), ${c.args.length === 2 ? pattern(c, 1) : '\'%Y-%m-%d %H:%M:%S\''})`, T.string),
    timestamp_seconds: scalar(1, 1, 'CAST(to_timestamp($1) AS TIMESTAMP)', T.timestamp),
    timestamp_millis: scalar(1, 1, 'epoch_ms(CAST($1 AS BIGINT))', T.timestamp),
    timestamp_micros: scalar(1, 1, 'make_timestamp(CAST($1 AS BIGINT))', T.timestamp),
    unix_seconds: scalar(1, 1, 'CAST(epoch(CAST($1 AS TIMESTAMP)) AS BIGINT)', T.bigint),
    unix_millis: scalar(1, 1, 'epoch_ms(CAST($1 AS TIMESTAMP))', T.bigint),
    unix_micros: scalar(1, 1, 'epoch_us(CAST($1 AS TIMESTAMP))', T.bigint),
    unix_date: scalar(1, 1, 'CAST(date_diff(\'day\', DATE \'1970-01-01\', CAST($1 AS DATE)) AS INTEGER)', T.int),
    date_from_unix_date: scalar(1, 1, 'CAST(DATE \'1970-01-01\' + CAST($1 AS INTEGER) AS DATE)', T.date),
    year: scalar(1, 1, 'CAST(year(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    quarter: scalar(1, 1, 'CAST(quarter(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    month: scalar(1, 1, 'CAST(month(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    day: scalar(1, 1, 'CAST(day(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    dayofmonth: scalar(1, 1, 'CAST(day(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    dayofyear: scalar(1, 1, 'CAST(dayofyear(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    // Spark: 1 = Sunday ... 7 = Saturday; DuckDB dayofweek: 0 = Sunday.
    dayofweek: scalar(1, 1, 'CAST(dayofweek(CAST($1 AS TIMESTAMP)) + 1 AS INTEGER)', T.int),
    weekday: scalar(1, 1, 'CAST(isodow(CAST($1 AS TIMESTAMP)) - 1 AS INTEGER)', T.int),
    weekofyear: scalar(1, 1, 'CAST(week(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    hour: scalar(1, 1, 'CAST(hour(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    minute: scalar(1, 1, 'CAST(minute(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    second: scalar(1, 1, 'CAST(second(CAST($1 AS TIMESTAMP)) AS INTEGER)', T.int),
    extract: scalar(2, 2, c => `date_part('${dateUnit(c, 0)}', CAST(${c.args[1].sql} AS TIMESTAMP))`, T.int),
    date_part: scalar(2, 2, c => `date_part('${dateUnit(c, 0)}', CAST(${c.args[1].sql} AS TIMESTAMP))`, T.int),
    make_date: scalar(3, 3, 'make_date(CAST($1 AS BIGINT), CAST($2 AS BIGINT), CAST($3 AS BIGINT))', T.date),
    make_timestamp: scalar(6, 6, 'make_timestamp(CAST($1 AS BIGINT), CAST($2 AS BIGINT), CAST($3 AS BIGINT), CAST($4 AS BIGINT), CAST($5 AS BIGINT), CAST($6 AS DOUBLE))', T.timestamp),
    from_utc_timestamp: scalar(2, 2, 'timezone($2, timezone(\'UTC\', CAST($1 AS TIMESTAMP)))', T.timestamp),
    to_utc_timestamp: scalar(2, 2, 'timezone(\'UTC\', timezone($2, CAST($1 AS TIMESTAMP)))', T.timestamp),

    // ---- arrays, maps, structs
    array: scalar(0, any, c => `[${c.args.map(a => a.sql).join(', ')}]`, args => T.array(args[0] ?? T.void)),
    size: scalar(1, 1, c => (c.args[0].type?.kind === 'map' ? fillTemplate('CAST(cardinality($1) AS INTEGER)', c.args) : fillTemplate('CAST(len($1) AS INTEGER)', c.args)), T.int),
    cardinality: scalar(1, 1, c => (c.args[0].type?.kind === 'map' ? fillTemplate('CAST(cardinality($1) AS INTEGER)', c.args) : fillTemplate('CAST(len($1) AS INTEGER)', c.args)), T.int),
    array_size: scalar(1, 1, 'CAST(len($1) AS INTEGER)', T.int),
    array_contains: scalar(2, 2, 'list_contains($1, $2)', T.boolean),
    array_distinct: scalar(1, 1, '__psql_array_distinct($1)', 'arg1'),
    array_join: scalar(2, 3, c => (c.args.length === 2
        ? fillTemplate('array_to_string($1, $2)', c.args)
        : fillTemplate('array_to_string(list_transform($1, lambda __x: coalesce(CAST(__x AS VARCHAR), $3)), $2)', c.args)), T.string),
    array_max: scalar(1, 1, 'list_max($1)', 'element1'),
    array_min: scalar(1, 1, 'list_min($1)', 'element1'),
    array_position: scalar(2, 2, 'CAST(coalesce(list_position($1, $2), 0) AS BIGINT)', T.bigint),
    array_remove: scalar(2, 2, 'list_filter($1, lambda __x: __x IS DISTINCT FROM $2)', 'arg1'),
    array_sort: scalar(1, 1, 'list_sort($1, \'ASC\', \'NULLS LAST\')', 'arg1'),
    sort_array: scalar(1, 2, c => {
        const asc = c.args.length === 1 ? true : c.literalArg(1);
        if (asc !== true && asc !== false) {
            c.unsupported('the sort direction must be a boolean literal');
        }
        return asc ? fillTemplate('list_sort($1, \'ASC\', \'NULLS FIRST\')', c.args) : fillTemplate('list_sort($1, \'DESC\', \'NULLS LAST\')', c.args);
    }, 'arg1'),
    array_union: scalar(2, 2, '__psql_array_distinct($1 || $2)', 'arg1'),
    array_intersect: scalar(2, 2, '__psql_array_distinct(list_filter($1, lambda __x: list_contains($2, __x)))', 'arg1'),
    array_except: scalar(2, 2, '__psql_array_distinct(list_filter($1, lambda __x: NOT coalesce(list_contains($2, __x), false)))', 'arg1'),
    arrays_overlap: scalar(2, 2, 'len(list_filter($1, lambda __x: list_contains($2, __x))) > 0', T.boolean),
    array_append: scalar(2, 2, 'list_append($1, $2)', 'arg1'),
    array_prepend: scalar(2, 2, 'list_prepend($2, $1)', 'arg1'),
    array_compact: scalar(1, 1, 'list_filter($1, lambda __x: __x IS NOT NULL)', 'arg1'),
    array_repeat: scalar(2, 2, 'list_transform(range(CAST($2 AS BIGINT)), lambda __x: $1)', args => T.array(args[0] ?? T.void)),
    flatten: scalar(1, 1, 'flatten($1)', args => elementOf(args[0])),
    slice: scalar(3, 3, '__psql_slice($1, $2, $3)', 'arg1'),
    sequence: scalar(2, 3, c => {
        const start = c.args[0].type;
        if (start && (start.kind === 'date' || start.kind === 'timestamp')) {
            const step = c.args.length === 3 ? c.args[2].sql : 'INTERVAL 1 DAY';
            const cast = start.kind === 'date' ? 'DATE[]' : 'TIMESTAMP[]';
            return `CAST(generate_series(CAST(${c.args[0].sql} AS TIMESTAMP), CAST(${c.args[1].sql} AS TIMESTAMP), ${step}) AS ${cast})`;
        }
        const step = c.args.length === 3 ? c.args[2].sql : `CASE WHEN ${c.args[0].sql} <= ${c.args[1].sql} THEN 1 ELSE -1 END`;
        const series = `generate_series(${c.args[0].sql}, ${c.args[1].sql}, ${step})`;
        return start && isIntegral(start) ? `CAST(${series} AS ${toDuckType(start)}[])` : series;
    }, args => T.array(args[0] ?? T.bigint)),
    element_at: scalar(2, 2, c => (c.args[0].type?.kind === 'map'
        ? fillTemplate('map_extract_value($1, $2)', c.args)
        : fillTemplate('__psql_element_at($1, $2)', c.args)),
    args => (args[0]?.kind === 'map' ? args[0].value : elementOf(args[0]))),
    try_element_at: scalar(2, 2, c => (c.args[0].type?.kind === 'map'
        ? fillTemplate('map_extract_value($1, $2)', c.args)
        : fillTemplate('CASE WHEN $2 = 0 OR abs($2) > len($1) THEN NULL WHEN $2 > 0 THEN $1[$2] ELSE $1[len($1) + $2 + 1] END', c.args)),
    args => (args[0]?.kind === 'map' ? args[0].value : elementOf(args[0]))),
    get: scalar(2, 2, '__psql_get($1, $2)', 'element1'),
    transform: { kind: 'scalar', min: 2, max: 2, sql: 'list_transform($1, $2)', lambdaParams: collectionLambda, indexParam: true, type: args => T.array(args[1] ?? T.void) },
    filter: { kind: 'scalar', min: 2, max: 2, sql: 'list_filter($1, $2)', lambdaParams: collectionLambda, indexParam: true, type: 'arg1' },
    exists: { kind: 'scalar', min: 2, max: 2, sql: 'list_bool_or(list_transform($1, $2))', lambdaParams: collectionLambda, type: T.boolean },
    forall: { kind: 'scalar', min: 2, max: 2, sql: 'list_bool_and(list_transform($1, $2))', lambdaParams: collectionLambda, type: T.boolean },
    aggregate: {
        kind: 'scalar', min: 3, max: 4,
        sql: c => (c.args.length === 3
            ? fillTemplate('list_reduce($1, $3, $2)', c.args)
            : fillTemplate('list_transform([list_reduce($1, $3, $2)], $4)[1]', c.args)),
        lambdaParams: args => [args[1], elementOf(args[0])],
        type: 'arg2',
    },
    map: scalar(0, any, c => {
        if (c.args.length % 2 !== 0) {
            c.unsupported('map() needs an even number of arguments');
        }
        if (c.args.length === 0) {
            return 'MAP {}';
        }
        const keys = c.args.filter((_, i) => i % 2 === 0).map(a => a.sql);
        const values = c.args.filter((_, i) => i % 2 === 1).map(a => a.sql);
        return `map([${keys.join(', ')}], [${values.join(', ')}])`;
    }, args => T.map(args[0] ?? T.string, args[1] ?? T.void)),
    map_keys: scalar(1, 1, 'map_keys($1)', args => (args[0]?.kind === 'map' ? T.array(args[0].key) : undefined)),
    map_values: scalar(1, 1, 'map_values($1)', args => (args[0]?.kind === 'map' ? T.array(args[0].value) : undefined)),
    map_entries: scalar(1, 1, 'map_entries($1)'),
    map_from_arrays: scalar(2, 2, 'map($1, $2)'),
    map_from_entries: scalar(1, 1, 'map_from_entries($1)'),
    map_concat: scalar(1, any, 'map_concat($*)', 'arg1'),
    map_contains_key: scalar(2, 2, 'map_contains($1, $2)', T.boolean),
    str_to_map: scalar(1, 3, c => {
        const pairDelim = c.args[1]?.sql ?? '\',\'';
        const kvDelim = c.args[2]?.sql ?? '\':\'';
        return `map_from_entries(list_transform(string_split_regex(${c.args[0].sql}, ${pairDelim}), `
            + `lambda __kv: struct_pack(key := string_split_regex(__kv, ${kvDelim})[1], value := string_split_regex(__kv, ${kvDelim})[2])))`;
    }, T.map(T.string, T.string)),
    named_struct: scalar(0, any, c => {
        if (c.args.length % 2 !== 0) {
            c.unsupported('named_struct() needs name/value pairs');
        }
        const fields: string[] = [];
        for (let i = 0; i < c.args.length; i += 2) {
            const name = c.stringArg(i) ?? c.unsupported('field names must be string literals');
            fields.push(`${quoteIdent(name)} := ${c.args[i + 1].sql}`);
        }
        return `struct_pack(${fields.join(', ')})`;
    }, args => T.struct(args.filter((_, i) => i % 2 === 1).map((t, i) => ({ name: `col${i + 1}`, type: t ?? T.void })))),

    // ---- JSON
    get_json_object: scalar(2, 2, '__psql_json_get($1, $2)', T.string),
    json_array_length: scalar(1, 1, 'CASE WHEN json_valid($1) THEN CAST(json_array_length($1) AS INTEGER) END', T.int),
    json_object_keys: scalar(1, 1, 'CASE WHEN json_valid($1) THEN json_keys($1) END', T.array(T.string)),
    from_json: scalar(2, 3, c => {
        const type = schemaArg(c, 1);
        return `CASE WHEN json_valid(${c.args[0].sql}) THEN json_transform(${c.args[0].sql}, ${quoteString(JSON.stringify(jsonStructure(type)))}) END`;
    }, undefined),
    // DuckDB writes timestamps as `yyyy-MM-dd HH:mm:ss`, Spark as ISO 8601 with a zone: refuse rather than differ.
    to_json: scalar(1, 2, c => (hasTimestamp(c.args[0].type)
        ? c.unsupported('a TIMESTAMP inside the value would be formatted differently from Spark; format it with date_format first')
        : fillTemplate('CAST(to_json($1) AS VARCHAR)', c.args)), T.string),

    // ---- aggregates
    count: aggregate(0, any, { fn: 'count' }, T.bigint),
    sum: { kind: 'aggregate', min: 1, max: 1, agg: { fn: 'sum' }, type: args => (isIntegral(args[0]) ? T.bigint : args[0]?.kind === 'decimal' ? T.decimal(Math.min(38, args[0].precision + 10), args[0].scale) : args[0] ? T.double : undefined) },
    avg: aggregate(1, 1, { fn: 'avg' }, T.double),
    mean: aggregate(1, 1, { fn: 'avg' }, T.double),
    min: aggregate(1, 1, { fn: 'min' }, 'arg1'),
    max: aggregate(1, 1, { fn: 'max' }, 'arg1'),
    count_if: aggregate(1, 1, { fn: 'count_if' }, T.bigint),
    first: aggregate(1, 2, { fn: 'first', args: '$1' }, 'arg1'),
    first_value: aggregate(1, 2, { fn: 'first', args: '$1' }, 'arg1'),
    last: aggregate(1, 2, { fn: 'last', args: '$1' }, 'arg1'),
    last_value: aggregate(1, 2, { fn: 'last', args: '$1' }, 'arg1'),
    any_value: aggregate(1, 2, { fn: 'any_value', args: '$1' }, 'arg1'),
    collect_list: aggregate(1, 1, { fn: 'list', filter: '$1 IS NOT NULL', wrap: 'coalesce($agg, [])' }, args => T.array(args[0] ?? T.void)),
    array_agg: aggregate(1, 1, { fn: 'list', filter: '$1 IS NOT NULL', wrap: 'coalesce($agg, [])' }, args => T.array(args[0] ?? T.void)),
    collect_set: aggregate(1, 1, { fn: 'list', distinct: true, filter: '$1 IS NOT NULL', wrap: 'coalesce($agg, [])' }, args => T.array(args[0] ?? T.void)),
    bool_and: aggregate(1, 1, { fn: 'bool_and' }, T.boolean),
    every: aggregate(1, 1, { fn: 'bool_and' }, T.boolean),
    bool_or: aggregate(1, 1, { fn: 'bool_or' }, T.boolean),
    some: aggregate(1, 1, { fn: 'bool_or' }, T.boolean),
    any: aggregate(1, 1, { fn: 'bool_or' }, T.boolean),
    stddev: aggregate(1, 1, { fn: 'stddev_samp' }, T.double),
    std: aggregate(1, 1, { fn: 'stddev_samp' }, T.double),
    stddev_samp: aggregate(1, 1, { fn: 'stddev_samp' }, T.double),
    stddev_pop: aggregate(1, 1, { fn: 'stddev_pop' }, T.double),
    variance: aggregate(1, 1, { fn: 'var_samp' }, T.double),
    var_samp: aggregate(1, 1, { fn: 'var_samp' }, T.double),
    var_pop: aggregate(1, 1, { fn: 'var_pop' }, T.double),
    corr: aggregate(2, 2, { fn: 'corr' }, T.double),
    covar_pop: aggregate(2, 2, { fn: 'covar_pop' }, T.double),
    covar_samp: aggregate(2, 2, { fn: 'covar_samp' }, T.double),
    percentile: aggregate(2, 3, { fn: 'quantile_cont', args: '$1, $2' }, T.double),
    percentile_approx: aggregate(2, 3, { fn: 'quantile_disc', args: '$1, $2' }, 'arg1'),
    approx_percentile: aggregate(2, 3, { fn: 'quantile_disc', args: '$1, $2' }, 'arg1'),
    median: aggregate(1, 1, { fn: 'median' }, T.double),
    mode: aggregate(1, 1, { fn: 'mode' }, 'arg1'),
    // Exact counting is within Spark's error bound for approx_count_distinct (and exact on small data, as Spark's is).
    approx_count_distinct: aggregate(1, 2, { fn: 'count', args: '$1', distinct: true }, T.bigint),
    max_by: aggregate(2, 2, { fn: 'arg_max' }, 'arg1'),
    min_by: aggregate(2, 2, { fn: 'arg_min' }, 'arg1'),
    string_agg: aggregate(1, 2, { fn: 'string_agg' }, T.string),
    listagg: aggregate(1, 2, { fn: 'string_agg' }, T.string),
    grouping: scalar(1, any, 'grouping($*)', T.int),
    percentile_cont: aggregate(1, 1, { fn: 'quantile_cont' }, T.double),
    percentile_disc: aggregate(1, 1, { fn: 'quantile_disc' }, 'arg1'),

    // ---- window-only functions
    row_number: window(0, 0, 'row_number()', T.int),
    rank: window(0, 0, 'rank()', T.int),
    dense_rank: window(0, 0, 'dense_rank()', T.int),
    percent_rank: window(0, 0, 'percent_rank()', T.double),
    cume_dist: window(0, 0, 'cume_dist()', T.double),
    ntile: window(1, 1, 'ntile($1)', T.int),
    lag: window(1, 3, 'lag($*)', 'arg1'),
    lead: window(1, 3, 'lead($*)', 'arg1'),
    nth_value: window(2, 2, 'nth_value($*)', 'arg1'),

    // ---- generators (SELECT list, LATERAL VIEW, FROM)
    explode: { kind: 'generator', min: 1, max: 1 },
    explode_outer: { kind: 'generator', min: 1, max: 1 },
    posexplode: { kind: 'generator', min: 1, max: 1 },
    posexplode_outer: { kind: 'generator', min: 1, max: 1 },
    inline: { kind: 'generator', min: 1, max: 1 },
    inline_outer: { kind: 'generator', min: 1, max: 1 },

    // ---- session information (fixed values for a local run)
    current_user: scalar(0, 0, '\'local\'', T.string),
    user: scalar(0, 0, '\'local\'', T.string),
    session_user: scalar(0, 0, '\'local\'', T.string),
    current_catalog: scalar(0, 0, '\'main\'', T.string),
    current_database: scalar(0, 0, '\'default\'', T.string),
    current_schema: scalar(0, 0, '\'default\'', T.string),
    spark_partition_id: scalar(0, 0, '0', T.int),
};
// Spark's other name for aggregate (the same function).
sparkFunctions.reduce = sparkFunctions.aggregate;

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
