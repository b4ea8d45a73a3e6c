// The one way the engine builds DuckDB SQL.
//
// Generated SQL is a branded string type, `Sql`, that only this module makes: the `sql` tagged
// template (whose literal parts are program text and whose holes accept only `Sql` and numbers),
// `ident` for identifiers, `str` for string literals, `join` for lists. A raw `string` — a name, a
// value or any other text that came from a pipeline — cannot be spliced into SQL by accident: the
// compiler rejects it, and the database layer (`db/database.ts`) runs nothing but `Sql`.
//
// Nothing here fills a template by `String.prototype.replace`: a replacement string treats `$&`,
// `` $` ``, `$'` and `$$` as patterns, which once let a string literal ending in `$` close the
// DuckDB literal early and turn the next literal into DuckDB code (issue 9).
import { ErrorClass, UnsupportedFeatureError } from '../errors.js';

declare const sqlBrand: unique symbol;

/** A piece of DuckDB SQL text made by this module (never raw pipeline text). */
export type Sql = string & { readonly [sqlBrand]: true };

/** What a `sql` template may splice: SQL pieces, numbers and booleans. */
export type SqlPart = Sql | number | bigint | boolean;

function brand(text: string): Sql {
    return text as Sql;
}

function renderNumber(value: number | bigint): string {
    if (typeof value === 'bigint') {
        return value < 0n ? `(${value})` : String(value);
    }
    if (!Number.isFinite(value)) {
        throw new UnsupportedFeatureError(ErrorClass.internal, `A non-finite number (${value}) cannot be written into SQL.`);
    }
    // A negative number is parenthesised: `a - ${-1}` must not become the comment `a --1`.
    return value < 0 || Object.is(value, -0) ? `(${value})` : String(value);
}

/**
 * The SQL template tag: `` sql`lower(${arg})` ``. The literal parts are the program's own text; every
 * hole must be `Sql` (or a number). The strings array is checked to be a real template's (frozen,
 * with `raw`), so a plain array of user text cannot pose as one.
 */
export function sql(strings: TemplateStringsArray, ...parts: readonly SqlPart[]): Sql {
    if (!Object.isFrozen(strings) || !Array.isArray(strings.raw)) {
        throw new UnsupportedFeatureError(ErrorClass.internal, 'sql`...` must be used as a template tag.');
    }
    let out = strings[0];
    for (let i = 0; i < parts.length; i++) {
        const part = parts[i];
        out += (typeof part === 'string' ? part : typeof part === 'boolean' ? (part ? 'TRUE' : 'FALSE') : renderNumber(part)) + strings[i + 1];
    }
    return brand(out);
}

/** The empty piece of SQL (for optional clauses). */
export const empty: Sql = brand('');

/** Joins pieces with a separator (`, ` by default). */
export function join(parts: readonly Sql[], separator: Sql = brand(', ')): Sql {
    return brand(parts.join(separator));
}

/** `(piece)`. */
export function paren(piece: Sql): Sql {
    return brand(`(${piece})`);
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as DuckDB receives it: UTF-8, as Spark stores strings. An unpaired UTF-16 surrogate (only an
 * escape such as `'\uD800'` can make one) has no UTF-8 form; Java's encoder, and so Spark, writes `?`.
 */
export function utf8Text(text: string): string {
    return text.replace(loneSurrogate, () => '?');
}

/** A DuckDB identifier: `"name"`, embedded double quotes doubled. */
export function ident(name: string): Sql {
    const text = utf8Text(name);
    if (text === '') {
        throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, 'An empty name cannot be used in the local engine (DuckDB has no empty identifier).');
    }
    if (text.includes('\0')) {
        throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature,
            `The name '${text.split('\0').join('\\0')}' holds a NUL character, which the local engine cannot use in a name.`);
    }
    return brand(`"${text.split('"').join('""')}"`);
}

/** A qualified DuckDB name: `"schema"."table"`. */
export function qualified(...parts: readonly string[]): Sql {
    return join(parts.map(ident), brand('.'));
}

/**
 * A DuckDB string literal: `'text'`, embedded single quotes doubled. DuckDB does not process
 * backslashes in such a literal. SQL text reaches DuckDB as a C string, so a NUL character cannot
 * appear in it: a value holding NUL is written as pieces joined with `chr(0)`.
 */
export function str(value: string): Sql {
    const text = utf8Text(value);
    const quote = (piece: string): string => `'${piece.split('\'').join('\'\'')}'`;
    if (!text.includes('\0')) {
        return brand(quote(text));
    }
    return brand(`(${text.split('\0').map(quote).join(' || chr(0) || ')})`);
}

/** An integer literal given as decimal text (`42`, `-7`, of any size); anything else is refused. */
export function integer(text: string): Sql {
    if (!/^[+-]?\d+$/.test(text)) {
        throw new UnsupportedFeatureError(ErrorClass.invalidPipeline, `Invalid integer literal '${text}'.`);
    }
    const digits = text.startsWith('+') ? text.slice(1) : text;
    return brand(digits.startsWith('-') ? `(${digits})` : digits);
}

/** Pieces written one after the other. */
export function concat(...parts: readonly Sql[]): Sql {
    return brand(parts.join(''));
}
