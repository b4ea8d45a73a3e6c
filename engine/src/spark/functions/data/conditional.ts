/** Conditional functions and predicates (including the word operators listed in the function reference). */
import type { FunctionGroup } from '../function-model.js';
import { native, scalar, any, join, sql, str, unlessArguments, type FunctionSpec } from '../local.js';

/**
 * The function-call form of LIKE / ILIKE (`like(str, pattern[, escape])`): the operator with Spark's
 * default escape character, the backslash (DuckDB has none unless told). An escape given must be one
 * character written as a string literal (Spark refuses any other).
 */
function likeCall(operator: 'LIKE' | 'ILIKE'): FunctionSpec {
    return unlessArguments(
        args => (args.length === 3 && (typeof args[2].literal !== 'string' || [...args[2].literal].length !== 1)
            ? 'the escape must be one character written as a string literal' : undefined),
        scalar(2, 3, c => sql`(${c.a[0]} ${operator === 'LIKE' ? sql`LIKE` : sql`ILIKE`} ${c.a[1]} ESCAPE ${str(c.stringArg(2) ?? '\\')})`));
}

/** Conditional functions. */
export const CONDITIONAL_FUNCTIONS: FunctionGroup = {
    category: 'conditional',
    defs: [
        ['case(conditionsAndValues+: any) -> @caseWhen', 'Picks the value of the first WHEN branch whose condition is true, else the ELSE value (NULL without ELSE).',
            'CASE WHEN 7 > 5 THEN \'big\' ELSE \'small\' END → \'big\'',
            { aliases: ['when'], operator: true, syntax: 'CASE WHEN cond THEN value [WHEN …] [ELSE value] END | CASE expr WHEN match THEN value […] [ELSE value] END', local: native('the CASE expression') }],
        ['coalesce(expr+: any) -> $*', 'The first argument that is not NULL.', 'coalesce(NULL, \'fallback\') → \'fallback\'',
            { local: scalar(1, any, c => sql`coalesce(${join(c.args.map((_, i) => c.asResult(i)))})`) }],
        ['greatest(exprs+: orderable) -> $*', 'The largest argument, ignoring NULLs.', 'greatest(3, 9, 4) → 9',
            { local: scalar(1, any, c => sql`greatest(${join(c.args.map((_, i) => c.asResult(i)))})`) }],
        ['if(cond: boolean, expr1: any, expr2: any) -> common($1, $2)', 'Gives expr1 when the condition is true, expr2 otherwise (also when it is NULL).',
            'if(2 > 1, \'yes\', \'no\') → \'yes\'', { aliases: ['iff'],
                local: scalar(3, 3, c => sql`CASE WHEN ${c.a[0]} THEN ${c.asResult(1)} ELSE ${c.asResult(2)} END`),
            }],
        ['ifnull(expr1: any, expr2: any) -> common($0, $1)', 'Gives expr2 when expr1 is NULL, expr1 otherwise.', 'ifnull(NULL, 0) → 0', { aliases: ['nvl'],
            local: scalar(2, 2, c => sql`coalesce(${c.asResult(0)}, ${c.asResult(1)})`),
        }],
        ['least(exprs+: orderable) -> $*', 'The smallest argument, ignoring NULLs.', 'least(3, 9, 4) → 3',
            { local: scalar(1, any, c => sql`least(${join(c.args.map((_, i) => c.asResult(i)))})`) }],
        ['nanvl(expr1: floating, expr2: floating) -> common($0, $1)', 'Gives expr2 when expr1 is NaN, expr1 otherwise.', 'nanvl(cast(\'NaN\' AS DOUBLE), 0) → 0.0',
            { local: scalar(2, 2, c => sql`CASE WHEN isnan(CAST(${c.a[0]} AS DOUBLE)) THEN ${c.a[1]} ELSE ${c.a[0]} END`) }],
        ['nullif(expr1: any, expr2: any) -> $0', 'NULL when the two arguments are equal, expr1 otherwise.', 'nullif(\'n/a\', \'n/a\') → NULL',
            { local: scalar(2, 2, c => sql`nullif(${c.a[0]}, ${c.a[1]})`) }],
        ['nullifzero(expr: numeric) -> $0', 'NULL when the value is 0, the value otherwise.', 'nullifzero(0) → NULL',
            { local: scalar(1, 1, c => sql`nullif(${c.a[0]}, 0)`) }],
        ['nvl2(expr1: any, expr2: any, expr3: any) -> common($1, $2)', 'Gives expr2 when expr1 is not NULL, expr3 when it is.', 'nvl2(NULL, \'set\', \'unset\') → \'unset\'',
            { local: scalar(3, 3, c => sql`CASE WHEN ${c.a[0]} IS NOT NULL THEN ${c.asResult(1)} ELSE ${c.asResult(2)} END`) }],
        ['zeroifnull(expr: numeric) -> @voidAsInt', '0 when the value is NULL, the value otherwise.', 'zeroifnull(NULL) → 0',
            { local: scalar(1, 1, c => sql`coalesce(${c.a[0]}, 0)`) }],
    ],
};

/** Predicates: boolean tests, pattern matching and the word operators AND, OR, NOT, IN, BETWEEN. */
export const PREDICATE_FUNCTIONS: FunctionGroup = {
    category: 'predicate',
    defs: [
        ['and(left: boolean, right: boolean) -> boolean', 'Logical AND with three-valued logic (false wins over NULL).', 'true AND NULL → NULL',
            { operator: true, syntax: 'left AND right', local: native('the AND operator') }],
        ['between(expr: orderable, lower: orderable, upper: orderable) -> boolean', 'True when the value lies between the bounds, both included.',
            '5 BETWEEN 1 AND 10 → true', { operator: true, syntax: 'expr [NOT] BETWEEN lower AND upper', local: native('the BETWEEN predicate') }],
        ['equal_null(expr1: any, expr2: any) -> boolean', 'Equality that treats two NULLs as equal and never returns NULL (like <=>).',
            'equal_null(NULL, NULL) → true',
            { local: scalar(2, 2, c => sql`(${c.a[0]} IS NOT DISTINCT FROM ${c.a[1]})`) }],
        ['ilike(str: string, pattern: string, escape?: const string) -> boolean', 'Case-insensitive LIKE: % matches any text, _ one character.',
            '\'Delta\' ILIKE \'del%\' → true', { syntax: 'str [NOT] ILIKE pattern [ESCAPE c] | str ILIKE ANY|ALL (pattern, …)', local: likeCall('ILIKE') }],
        ['in(expr: any, values+: any) -> boolean', 'True when the value equals one of the listed values (or a subquery row).',
            '3 IN (1, 2, 3) → true', { operator: true, syntax: 'expr [NOT] IN (value, … | subquery)', local: native('the IN predicate') }],
        ['isnan(expr: numeric) -> boolean', 'True when the value is NaN.', 'isnan(cast(\'NaN\' AS DOUBLE)) → true',
            { local: scalar(1, 1, c => sql`isnan(CAST(${c.a[0]} AS DOUBLE))`) }],
        ['isnotnull(expr: any) -> boolean', 'True when the value is not NULL (same as IS NOT NULL).', 'isnotnull(0) → true',
            { local: scalar(1, 1, c => sql`(${c.a[0]} IS NOT NULL)`) }],
        ['isnull(expr: any) -> boolean', 'True when the value is NULL (same as IS NULL).', 'isnull(NULL) → true',
            { local: scalar(1, 1, c => sql`(${c.a[0]} IS NULL)`) }],
        ['like(str: string, pattern: string, escape?: const string) -> boolean', 'Case-sensitive pattern match: % matches any text, _ one character.',
            '\'bronze_orders\' LIKE \'bronze\\\\_%\' → true', { syntax: 'str [NOT] LIKE pattern [ESCAPE c] | str LIKE ANY|ALL (pattern, …)', local: likeCall('LIKE') }],
        ['not(expr: boolean) -> boolean', 'Logical negation (NOT NULL is NULL).', 'NOT false → true', { operator: true, syntax: 'NOT expr | ! expr', local: native('the NOT operator') }],
        ['or(left: boolean, right: boolean) -> boolean', 'Logical OR with three-valued logic (true wins over NULL).', 'false OR NULL → NULL',
            { operator: true, syntax: 'left OR right', local: native('the OR operator') }],
        ['rlike(str: string, regexp: string) -> boolean', 'True when the string contains a match of the Java regular expression.',
            '\'order-42\' RLIKE \'[0-9]+$\' → true', { aliases: ['regexp', 'regexp_like'], syntax: 'str [NOT] RLIKE regexp | str REGEXP regexp',
                local: scalar(2, 2, c => sql`regexp_matches(${c.a[0]}, ${c.a[1]})`),
            }],
    ],
};
