/** Conversion functions: CAST and its shorthand functions, and formatted conversions. */
import type { FunctionDef, FunctionGroup } from '../function-model.js';
import { native, castTo, integralCast, scalar, sql, textToTimestamp } from '../local.js';

/** `int(x)`, `date(x)` …: each type name is also a function that casts to it (with its local translation). */
const CAST_SHORTHANDS: readonly FunctionDef[] = ([
    ['bigint', 'bigint', '\'42\'', '42', integralCast(sql`BIGINT`)],
    ['binary', 'binary', '\'hi\'', 'X\'6869\'', castTo(sql`BLOB`)],
    ['boolean', 'boolean', '\'true\'', 'true', castTo(sql`BOOLEAN`)],
    ['date', 'date', '\'2024-07-04\'', '2024-07-04', castTo(sql`DATE`)],
    ['decimal', 'decimal(10,0)', '\'3.7\'', '4', castTo(sql`DECIMAL(10,0)`)],
    ['double', 'double', '\'2.5\'', '2.5', castTo(sql`DOUBLE`)],
    ['float', 'float', '\'2.5\'', '2.5', castTo(sql`FLOAT`)],
    ['int', 'int', '\'42\'', '42', integralCast(sql`INTEGER`)],
    ['smallint', 'smallint', '\'42\'', '42', integralCast(sql`SMALLINT`)],
    ['string', 'string', '42', '\'42\'', castTo(sql`VARCHAR`)],
    ['time', 'time(6)', '\'10:30:00\'', '10:30:00', undefined],
    ['timestamp', 'timestamp', '\'2024-07-04 10:30:00\'', '2024-07-04 10:30:00', scalar(1, 1, c => textToTimestamp(c.args[0], false))],
    ['tinyint', 'tinyint', '\'42\'', '42', integralCast(sql`TINYINT`)],
] as const).map(([name, type, input, output, local]): FunctionDef =>
    [`${name}(expr: any) -> ${type}`, `Casts the value to ${type.toUpperCase()}; shorthand for cast(expr AS ${type.toUpperCase()}).`, `${name}(${input}) → ${output}`,
        local ? { local } : undefined]);

/** Conversion functions. */
export const CONVERSION_FUNCTIONS: FunctionGroup = {
    category: 'conversion',
    defs: [
        ['cast(expr: any, type: const string) -> @typeArg(1)', 'Converts a value to another data type; under ANSI mode an impossible conversion is an error.',
            'cast(\'12\' AS INT) → 12', { syntax: 'cast(expr AS type) | expr::type', local: native('the CAST expression (cast(x AS t), x::t)') }],
        ...CAST_SHORTHANDS,
        ['to_binary(expr: string, fmt?: const string) -> binary', 'Converts text to bytes, reading it as \'hex\' (default), \'utf-8\' or \'base64\'.',
            'to_binary(\'4869\') → X\'4869\''],
        ['to_char(expr: numeric|datetime|binary, format: const string) -> string',
            'Formats a number with a pattern of 0, 9, ., ,, $, S, MI, PR (or a date with a datetime pattern, or bytes as hex/base64/utf-8).',
            'to_char(1234.5, \'9,999.99\') → \'1,234.50\'', { aliases: ['to_varchar'] }],
        ['to_number(expr: string, fmt: const string) -> @toNumber(1)', 'Parses text into a decimal using a number pattern of 0, 9, ., ,, $, S, MI, PR.',
            'to_number(\'$1,234.50\', \'$9,999.99\') → 1234.50'],
        ['try_cast(expr: any, type: const string) -> @typeArg(1)', 'Like cast, but gives NULL instead of an error when the value cannot be converted.',
            'try_cast(\'abc\' AS INT) → NULL', { syntax: 'try_cast(expr AS type) | expr?::type', local: native('the CAST expression with TRY (try_cast(x AS t), x?::t)') }],
        ['try_to_binary(expr: string, fmt?: const string) -> binary', 'Like to_binary, but gives NULL for text that does not convert.', 'try_to_binary(\'zz\', \'hex\') → NULL'],
        ['try_to_number(expr: string, fmt: const string) -> @toNumber(1)', 'Like to_number, but gives NULL for text that does not match the pattern.',
            'try_to_number(\'12a\', \'999\') → NULL'],
    ],
};
