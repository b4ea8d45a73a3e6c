/**
 * Spark SQL data types as data: a discriminated `TypeDescriptor` union, a parser for type strings as
 * written in DDL and schema strings (`ARRAY<STRUCT<a: INT, b: STRING>>`, `a INT, b STRING`), printers
 * for Spark's display names (`array<struct<a:int,b:string>>`) and DDL, and the implicit widening rules
 * that type inference of select lists needs (common supertypes, binary arithmetic, comparisons).
 *
 * This is the one representation of Spark types: the editor's inference, hover and validation, the
 * function catalog, sample-file schema inference, lowering and the engine all use it (the IR's
 * `DataType` is `TypeDescriptor`). The engine's DuckDB storage types are `sql/duckdb-types.ts`.
 *
 * The widening rules follow Spark 4 with ANSI mode on (the default since Spark 4.0 and Databricks
 * Runtime 17): a STRING meeting another type is promoted to BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN,
 * BINARY or an interval, never the other way round.
 */

import * as decimalRules from './decimal.js';

//#region Type descriptors

/** Fields of an ANSI year-month interval, in order from widest to narrowest. */
export type YearMonthField = 'year' | 'month';
/** Fields of an ANSI day-time interval, in order from widest to narrowest. */
export type DayTimeField = 'day' | 'hour' | 'minute' | 'second';

/** One field of a STRUCT type (or one column of a schema string). */
export interface StructField {
    readonly name: string;
    readonly type: TypeDescriptor;
    /** False when declared `NOT NULL`. */
    readonly nullable: boolean;
    readonly comment?: string;
}

/** A Spark SQL data type. `unknown` stands for "could not be inferred" and absorbs every rule. */
export type TypeDescriptor =
    | { readonly kind: 'boolean' }
    | { readonly kind: 'tinyint' }
    | { readonly kind: 'smallint' }
    | { readonly kind: 'int' }
    | { readonly kind: 'bigint' }
    | { readonly kind: 'float' }
    | { readonly kind: 'double' }
    | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
    | { readonly kind: 'string'; readonly collation?: string }
    | { readonly kind: 'varchar'; readonly length: number }
    | { readonly kind: 'char'; readonly length: number }
    | { readonly kind: 'binary' }
    | { readonly kind: 'date' }
    /** TIMESTAMP, also written TIMESTAMP_LTZ: an instant shown in the session time zone. */
    | { readonly kind: 'timestamp' }
    | { readonly kind: 'timestamp_ntz' }
    | { readonly kind: 'time'; readonly precision: number }
    | { readonly kind: 'interval_ym'; readonly start: YearMonthField; readonly end: YearMonthField }
    | { readonly kind: 'interval_dt'; readonly start: DayTimeField; readonly end: DayTimeField }
    /** The legacy calendar interval (`make_interval`), displayed as `interval`. */
    | { readonly kind: 'calendar_interval' }
    | { readonly kind: 'array'; readonly element: TypeDescriptor }
    | { readonly kind: 'map'; readonly key: TypeDescriptor; readonly value: TypeDescriptor }
    | { readonly kind: 'struct'; readonly fields: readonly StructField[] }
    | { readonly kind: 'variant' }
    | { readonly kind: 'geometry'; readonly srid?: number | 'any' }
    | { readonly kind: 'geography'; readonly srid?: number | 'any' }
    /** The type of an untyped NULL (`VOID`, also written `NULL`). */
    | { readonly kind: 'void' }
    | { readonly kind: 'unknown' };

/** The `kind` tags of `TypeDescriptor`. */
export type TypeKind = TypeDescriptor['kind'];

/** A type descriptor of one given kind. */
export type TypeOfKind<K extends TypeKind> = Extract<TypeDescriptor, { kind: K }>;


/** Constructors for type descriptors; the simple types are shared constants. */
export const Types = {
    boolean: { kind: 'boolean' } as TypeDescriptor,
    tinyint: { kind: 'tinyint' } as TypeDescriptor,
    smallint: { kind: 'smallint' } as TypeDescriptor,
    int: { kind: 'int' } as TypeDescriptor,
    bigint: { kind: 'bigint' } as TypeDescriptor,
    float: { kind: 'float' } as TypeDescriptor,
    double: { kind: 'double' } as TypeDescriptor,
    string: { kind: 'string' } as TypeDescriptor,
    binary: { kind: 'binary' } as TypeDescriptor,
    date: { kind: 'date' } as TypeDescriptor,
    timestamp: { kind: 'timestamp' } as TypeDescriptor,
    timestampNtz: { kind: 'timestamp_ntz' } as TypeDescriptor,
    variant: { kind: 'variant' } as TypeDescriptor,
    void: { kind: 'void' } as TypeDescriptor,
    unknown: { kind: 'unknown' } as TypeDescriptor,
    calendarInterval: { kind: 'calendar_interval' } as TypeDescriptor,
    /** DECIMAL(p, s); DECIMAL alone is DECIMAL(10, 0). */
    decimal(precision = 10, scale = 0): TypeDescriptor {
        return { kind: 'decimal', precision, scale };
    },
    varchar(length: number): TypeDescriptor {
        return { kind: 'varchar', length };
    },
    char(length: number): TypeDescriptor {
        return { kind: 'char', length };
    },
    time(precision = 6): TypeDescriptor {
        return { kind: 'time', precision };
    },
    intervalYearMonth(start: YearMonthField = 'year', end: YearMonthField = 'month'): TypeDescriptor {
        return { kind: 'interval_ym', start, end };
    },
    intervalDayTime(start: DayTimeField = 'day', end: DayTimeField = 'second'): TypeDescriptor {
        return { kind: 'interval_dt', start, end };
    },
    array(element: TypeDescriptor): TypeDescriptor {
        return { kind: 'array', element };
    },
    map(key: TypeDescriptor, value: TypeDescriptor): TypeDescriptor {
        return { kind: 'map', key, value };
    },
    /** A struct from `[name, type]` pairs or full fields; fields are nullable unless given otherwise. */
    struct(fields: ReadonlyArray<StructField | readonly [string, TypeDescriptor]>): TypeDescriptor {
        return { kind: 'struct', fields: fields.map(f => (isFieldTuple(f) ? field(f[0], f[1]) : f)) };
    },
} as const;

function isFieldTuple(f: StructField | readonly [string, TypeDescriptor]): f is readonly [string, TypeDescriptor] {
    return Array.isArray(f);
}

/** A nullable struct field. */
export function field(name: string, type: TypeDescriptor, nullable = true): StructField {
    return { name, type, nullable };
}

//#endregion

//#region Type names (data)

/** One data type name accepted in DDL, with its aliases and a one-line explanation for hovers. */
export interface DataTypeInfo {
    /** Canonical DDL name, upper case. */
    readonly name: string;
    readonly aliases: readonly string[];
    /** How the name is written with its parameters, e.g. `DECIMAL(p, s)`. */
    readonly syntax: string;
    readonly description: string;
}

/** Every Spark SQL data type name the parser accepts. */
export const DATA_TYPES: readonly DataTypeInfo[] = [
    { name: 'BOOLEAN', aliases: ['BOOL'], syntax: 'BOOLEAN', description: 'TRUE, FALSE or NULL.' },
    { name: 'TINYINT', aliases: ['BYTE'], syntax: 'TINYINT', description: '1-byte signed integer, -128 to 127.' },
    { name: 'SMALLINT', aliases: ['SHORT'], syntax: 'SMALLINT', description: '2-byte signed integer, -32,768 to 32,767.' },
    { name: 'INT', aliases: ['INTEGER'], syntax: 'INT', description: '4-byte signed integer, about ±2.1 billion.' },
    { name: 'BIGINT', aliases: ['LONG'], syntax: 'BIGINT', description: '8-byte signed integer, about ±9.2 × 10^18.' },
    { name: 'FLOAT', aliases: ['REAL'], syntax: 'FLOAT', description: '4-byte IEEE 754 binary floating point number.' },
    { name: 'DOUBLE', aliases: [], syntax: 'DOUBLE', description: '8-byte IEEE 754 binary floating point number.' },
    {
        name: 'DECIMAL', aliases: ['DEC', 'NUMERIC'], syntax: 'DECIMAL(p, s)',
        description: 'Exact number with p digits in total (1–38, default 10), s of them after the point (default 0).',
    },
    { name: 'STRING', aliases: [], syntax: 'STRING [COLLATE name]', description: 'Unicode text of any length, optionally with a collation.' },
    { name: 'VARCHAR', aliases: [], syntax: 'VARCHAR(n)', description: 'Text of at most n characters; behaves as STRING in expressions.' },
    { name: 'CHAR', aliases: ['CHARACTER'], syntax: 'CHAR(n)', description: 'Text padded to exactly n characters; behaves as STRING in expressions.' },
    { name: 'BINARY', aliases: [], syntax: 'BINARY', description: 'A sequence of bytes.' },
    { name: 'DATE', aliases: [], syntax: 'DATE', description: 'A calendar date (year, month, day) without a time zone.' },
    {
        name: 'TIMESTAMP', aliases: ['TIMESTAMP_LTZ'], syntax: 'TIMESTAMP',
        description: 'An instant in time, stored as UTC and shown in the session time zone.',
    },
    { name: 'TIMESTAMP_NTZ', aliases: [], syntax: 'TIMESTAMP_NTZ', description: 'A date and wall-clock time without any time zone.' },
    { name: 'TIME', aliases: [], syntax: 'TIME[(p)]', description: 'A time of day without a date, with p fractional second digits (default 6).' },
    {
        name: 'INTERVAL', aliases: [], syntax: 'INTERVAL YEAR [TO MONTH] | INTERVAL DAY [TO HOUR|MINUTE|SECOND] | …',
        description: 'A span of time: either years and months, or days to seconds.',
    },
    { name: 'ARRAY', aliases: [], syntax: 'ARRAY<T>', description: 'An ordered list of values of type T.' },
    { name: 'MAP', aliases: [], syntax: 'MAP<K, V>', description: 'Key-value pairs with unique keys of type K and values of type V.' },
    {
        name: 'STRUCT', aliases: [], syntax: 'STRUCT<name: T [NOT NULL] [COMMENT \'…\'], …>',
        description: 'A record of named fields, each with its own type.',
    },
    { name: 'VARIANT', aliases: [], syntax: 'VARIANT', description: 'Semi-structured value (like parsed JSON) whose shape may differ per row.' },
    { name: 'GEOMETRY', aliases: [], syntax: 'GEOMETRY[(srid)]', description: 'A planar spatial shape with a spatial reference id.' },
    { name: 'GEOGRAPHY', aliases: [], syntax: 'GEOGRAPHY[(srid)]', description: 'A spatial shape on the earth\'s surface with a spatial reference id.' },
    { name: 'VOID', aliases: ['NULL'], syntax: 'VOID', description: 'The type of an untyped NULL literal.' },
];

const SIMPLE_TYPE_NAMES: ReadonlyMap<string, TypeDescriptor> = new Map<string, TypeDescriptor>([
    ['BOOLEAN', Types.boolean], ['BOOL', Types.boolean],
    ['TINYINT', Types.tinyint], ['BYTE', Types.tinyint],
    ['SMALLINT', Types.smallint], ['SHORT', Types.smallint],
    ['INT', Types.int], ['INTEGER', Types.int],
    ['BIGINT', Types.bigint], ['LONG', Types.bigint],
    ['FLOAT', Types.float], ['REAL', Types.float],
    ['DOUBLE', Types.double],
    ['BINARY', Types.binary],
    ['DATE', Types.date],
    ['TIMESTAMP', Types.timestamp], ['TIMESTAMP_LTZ', Types.timestamp],
    ['TIMESTAMP_NTZ', Types.timestampNtz],
    ['VARIANT', Types.variant],
    ['VOID', Types.void], ['NULL', Types.void],
]);

//#endregion

//#region Printing

/** Spark's display name of a type (`DataType.simpleString`): `int`, `decimal(10,2)`, `struct<a:int>`. */
export function typeToString(type: TypeDescriptor): string {
    switch (type.kind) {
        case 'decimal': return `decimal(${type.precision},${type.scale})`;
        case 'string': return type.collation ? `string collate ${type.collation}` : 'string';
        case 'varchar': return `varchar(${type.length})`;
        case 'char': return `char(${type.length})`;
        case 'time': return `time(${type.precision})`;
        case 'interval_ym':
        case 'interval_dt':
            return type.start === type.end ? `interval ${type.start}` : `interval ${type.start} to ${type.end}`;
        case 'calendar_interval': return 'interval';
        case 'array': return `array<${typeToString(type.element)}>`;
        case 'map': return `map<${typeToString(type.key)},${typeToString(type.value)}>`;
        case 'struct': return `struct<${type.fields.map(f => `${f.name}:${typeToString(f.type)}`).join(',')}>`;
        case 'geometry':
        case 'geography':
            return type.srid === undefined ? type.kind : `${type.kind}(${type.srid})`;
        default: return type.kind;
    }
}

/**
 * The type as written in DDL (`DataType.sql`): `INT`, `DECIMAL(10,2)`, `STRUCT<a: INT NOT NULL>`.
 * Without `fieldConstraints`, struct fields leave out NOT NULL and COMMENT: the name a run's results
 * and the engine's messages give a type.
 */
export function typeToSql(type: TypeDescriptor, fieldConstraints = true): string {
    switch (type.kind) {
        case 'decimal': return `DECIMAL(${type.precision},${type.scale})`;
        case 'string': return type.collation ? `STRING COLLATE ${type.collation}` : 'STRING';
        case 'varchar': return `VARCHAR(${type.length})`;
        case 'char': return `CHAR(${type.length})`;
        case 'time': return `TIME(${type.precision})`;
        case 'interval_ym':
        case 'interval_dt':
            return (type.start === type.end ? `INTERVAL ${type.start}` : `INTERVAL ${type.start} TO ${type.end}`).toUpperCase();
        case 'calendar_interval': return 'INTERVAL';
        case 'array': return `ARRAY<${typeToSql(type.element, fieldConstraints)}>`;
        case 'map': return `MAP<${typeToSql(type.key, fieldConstraints)}, ${typeToSql(type.value, fieldConstraints)}>`;
        case 'struct':
            return `STRUCT<${type.fields.map(f => {
                const notNull = f.nullable || !fieldConstraints ? '' : ' NOT NULL';
                const comment = f.comment === undefined || !fieldConstraints ? '' : ` COMMENT '${f.comment.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`;
                return `${quoteIdentifier(f.name)}: ${typeToSql(f.type, fieldConstraints)}${notNull}${comment}`;
            }).join(', ')}>`;
        case 'geometry':
        case 'geography':
            return type.srid === undefined ? type.kind.toUpperCase() : `${type.kind.toUpperCase()}(${String(type.srid).toUpperCase()})`;
        default: return type.kind.toUpperCase();
    }
}

/**
 * The name a run's results, `typeof` and the engine's messages give a type: the DDL form without the
 * NOT NULL and COMMENT of struct fields (`DECIMAL(10,2)`, `ARRAY<STRUCT<a: INT>>`).
 */
export function formatType(type: TypeDescriptor): string {
    return typeToSql(type, false);
}

/** Back-quotes an identifier unless it is a plain word (letters, digits, underscores, not starting with a digit). */
export function quoteIdentifier(name: string): string {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '``')}\``;
}

//#endregion

//#region Parsing

/** Outcome of parsing a type or schema string. `offset` is the 0-based position of the problem. */
export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string; readonly offset: number };

interface Token {
    readonly kind: 'word' | 'quoted' | 'number' | 'string' | 'punct' | 'end';
    readonly text: string;
    readonly offset: number;
}

class TypeSyntaxError extends Error {
    constructor(message: string, readonly offset: number) {
        super(message);
    }
}

function tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    let i = 0;
    while (i < text.length) {
        const c = text[i];
        if (/\s/.test(c)) {
            i++;
        } else if (c === '`') {
            // Back-quoted identifier; a doubled back quote stands for one.
            let j = i + 1;
            let name = '';
            for (;;) {
                if (j >= text.length) {
                    throw new TypeSyntaxError('Unterminated back-quoted name.', i);
                }
                if (text[j] === '`') {
                    if (text[j + 1] === '`') {
                        name += '`';
                        j += 2;
                        continue;
                    }
                    break;
                }
                name += text[j++];
            }
            tokens.push({ kind: 'quoted', text: name, offset: i });
            i = j + 1;
        } else if (c === '\'' || c === '"') {
            let j = i + 1;
            let value = '';
            while (j < text.length && text[j] !== c) {
                if (text[j] === '\\' && j + 1 < text.length) {
                    value += text[j + 1];
                    j += 2;
                } else {
                    value += text[j++];
                }
            }
            if (j >= text.length) {
                throw new TypeSyntaxError('Unterminated string literal.', i);
            }
            tokens.push({ kind: 'string', text: value, offset: i });
            i = j + 1;
        } else if (/[A-Za-z_0-9]/.test(c)) {
            let j = i;
            while (j < text.length && /[A-Za-z_0-9]/.test(text[j])) {
                j++;
            }
            const word = text.slice(i, j);
            tokens.push({ kind: /^[0-9]+$/.test(word) ? 'number' : 'word', text: word, offset: i });
            i = j;
        } else if (c === '-' && /[0-9]/.test(text[i + 1] ?? '')) {
            // Negative numbers only occur as SRIDs or bad precisions; keep them whole for the message.
            let j = i + 1;
            while (j < text.length && /[0-9]/.test(text[j])) {
                j++;
            }
            tokens.push({ kind: 'number', text: text.slice(i, j), offset: i });
            i = j;
        } else if ('<>(),:'.includes(c)) {
            tokens.push({ kind: 'punct', text: c, offset: i });
            i++;
        } else {
            throw new TypeSyntaxError(`Unexpected character '${c}'.`, i);
        }
    }
    tokens.push({ kind: 'end', text: '', offset: text.length });
    return tokens;
}

class TypeParser {
    private pos = 0;

    constructor(private readonly tokens: Token[]) { }

    private peek(): Token {
        return this.tokens[this.pos];
    }

    private next(): Token {
        const t = this.tokens[this.pos];
        if (t.kind !== 'end') {
            this.pos++;
        }
        return t;
    }

    private isWord(word: string, ahead = 0): boolean {
        const t = this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)];
        return t.kind === 'word' && t.text.toUpperCase() === word;
    }

    private isPunct(p: string): boolean {
        const t = this.peek();
        return t.kind === 'punct' && t.text === p;
    }

    private expectPunct(p: string, context: string): void {
        const t = this.peek();
        if (t.kind !== 'punct' || t.text !== p) {
            throw new TypeSyntaxError(`Expected '${p}' ${context} but found ${describe(t)}.`, t.offset);
        }
        this.next();
    }

    atEnd(): boolean {
        return this.peek().kind === 'end';
    }

    expectEnd(): void {
        const t = this.peek();
        if (t.kind !== 'end') {
            throw new TypeSyntaxError(`Unexpected ${describe(t)} after the type.`, t.offset);
        }
    }

    private number(context: string): number {
        const t = this.peek();
        if (t.kind !== 'number') {
            throw new TypeSyntaxError(`Expected a number ${context} but found ${describe(t)}.`, t.offset);
        }
        this.next();
        return Number(t.text);
    }

    /** `( n )` after a type name, or undefined when there is no parenthesis. */
    private optionalParams(context: string): { values: number[]; offset: number } | undefined {
        if (!this.isPunct('(')) {
            return undefined;
        }
        const offset = this.peek().offset;
        this.next();
        const values = [this.number(context)];
        while (this.isPunct(',')) {
            this.next();
            values.push(this.number(context));
        }
        this.expectPunct(')', context);
        return { values, offset };
    }

    parseType(): TypeDescriptor {
        const t = this.peek();
        if (t.kind !== 'word') {
            throw new TypeSyntaxError(`Expected a data type but found ${describe(t)}.`, t.offset);
        }
        this.next();
        const name = t.text.toUpperCase();
        const simple = SIMPLE_TYPE_NAMES.get(name);
        if (simple) {
            return simple;
        }
        switch (name) {
            case 'DECIMAL':
            case 'DEC':
            case 'NUMERIC': {
                const params = this.optionalParams(`in ${name}(precision, scale)`);
                const precision = params?.values[0] ?? 10;
                const scale = params?.values[1] ?? 0;
                if (params && params.values.length > 2) {
                    throw new TypeSyntaxError(`${name} takes at most two parameters (precision, scale).`, params.offset);
                }
                if (precision < 1 || precision > decimalRules.MAX_DECIMAL_PRECISION) {
                    throw new TypeSyntaxError(`Decimal precision ${precision} is out of range; it must be between 1 and 38.`, params?.offset ?? t.offset);
                }
                if (scale < 0 || scale > precision) {
                    throw new TypeSyntaxError(`Decimal scale ${scale} must be between 0 and the precision ${precision}.`, params?.offset ?? t.offset);
                }
                return Types.decimal(precision, scale);
            }
            case 'STRING': {
                if (this.isWord('COLLATE')) {
                    this.next();
                    const c = this.peek();
                    if (c.kind !== 'word' && c.kind !== 'quoted') {
                        throw new TypeSyntaxError(`Expected a collation name after COLLATE but found ${describe(c)}.`, c.offset);
                    }
                    this.next();
                    return { kind: 'string', collation: c.text };
                }
                return Types.string;
            }
            case 'VARCHAR':
            case 'CHAR':
            case 'CHARACTER': {
                const params = this.optionalParams(`in ${name}(length)`);
                if (!params || params.values.length !== 1) {
                    throw new TypeSyntaxError(`${name} needs exactly one length parameter, as in ${name}(10).`, params?.offset ?? t.offset);
                }
                const length = params.values[0];
                return name === 'VARCHAR' ? Types.varchar(length) : Types.char(length);
            }
            case 'TIME': {
                const params = this.optionalParams('in TIME(precision)');
                const precision = params?.values[0] ?? 6;
                if (precision < 0 || precision > 6) {
                    throw new TypeSyntaxError(`TIME precision ${precision} must be between 0 and 6.`, params?.offset ?? t.offset);
                }
                return Types.time(precision);
            }
            case 'GEOMETRY':
            case 'GEOGRAPHY': {
                let srid: number | 'any' | undefined;
                if (this.isPunct('(')) {
                    this.next();
                    if (this.isWord('ANY')) {
                        this.next();
                        srid = 'any';
                    } else {
                        srid = this.number(`in ${name}(srid)`);
                    }
                    this.expectPunct(')', `after the ${name} spatial reference id`);
                }
                return name === 'GEOMETRY' ? { kind: 'geometry', srid } : { kind: 'geography', srid };
            }
            case 'INTERVAL':
                return this.parseInterval(t.offset);
            case 'ARRAY': {
                this.expectPunct('<', 'after ARRAY');
                const element = this.parseType();
                this.expectPunct('>', 'after the element type of ARRAY');
                return Types.array(element);
            }
            case 'MAP': {
                this.expectPunct('<', 'after MAP');
                const key = this.parseType();
                this.expectPunct(',', 'between the key and value types of MAP');
                const value = this.parseType();
                this.expectPunct('>', 'after the value type of MAP');
                return Types.map(key, value);
            }
            case 'STRUCT': {
                this.expectPunct('<', 'after STRUCT');
                const fields: StructField[] = [];
                if (!this.isPunct('>')) {
                    fields.push(this.parseField(true));
                    while (this.isPunct(',')) {
                        this.next();
                        fields.push(this.parseField(true));
                    }
                }
                this.expectPunct('>', 'at the end of STRUCT');
                return { kind: 'struct', fields };
            }
            default:
                throw new TypeSyntaxError(`Unknown data type '${t.text}'.`, t.offset);
        }
    }

    private parseInterval(offset: number): TypeDescriptor {
        const fieldAt = (): string | undefined => {
            const t = this.peek();
            return t.kind === 'word' ? t.text.toLowerCase() : undefined;
        };
        const start = fieldAt();
        if (start === undefined || !isIntervalField(start)) {
            // A bare INTERVAL is the legacy calendar interval (as `make_interval` returns).
            return Types.calendarInterval;
        }
        const startToken = this.next();
        let end: string = start;
        if (this.isWord('TO')) {
            this.next();
            const e = this.peek();
            const candidate = fieldAt();
            if (candidate === undefined || !isIntervalField(candidate)) {
                throw new TypeSyntaxError(`Expected an interval field (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND) after TO but found ${describe(e)}.`, e.offset);
            }
            this.next();
            end = candidate;
        }
        const ym: string[] = ['year', 'month'];
        const dt: string[] = ['day', 'hour', 'minute', 'second'];
        if (ym.includes(start) && ym.includes(end) && ym.indexOf(start) <= ym.indexOf(end)) {
            return Types.intervalYearMonth(start as YearMonthField, end as YearMonthField);
        }
        if (dt.includes(start) && dt.includes(end) && dt.indexOf(start) <= dt.indexOf(end)) {
            return Types.intervalDayTime(start as DayTimeField, end as DayTimeField);
        }
        throw new TypeSyntaxError(`INTERVAL ${start.toUpperCase()} TO ${end.toUpperCase()} is not a valid interval type.`, startToken.offset ?? offset);
    }

    /** `name [:] type [NOT NULL] [COMMENT 'text']` inside STRUCT<…> or a schema string. */
    parseField(inStruct: boolean): StructField {
        const t = this.peek();
        if (t.kind !== 'word' && t.kind !== 'quoted' && t.kind !== 'number') {
            throw new TypeSyntaxError(`Expected a ${inStruct ? 'field' : 'column'} name but found ${describe(t)}.`, t.offset);
        }
        this.next();
        if (this.isPunct(':')) {
            this.next();
        }
        const type = this.parseType();
        let nullable = true;
        let comment: string | undefined;
        for (;;) {
            if (this.isWord('NOT') && this.isWord('NULL', 1)) {
                this.next();
                this.next();
                nullable = false;
            } else if (this.isWord('COMMENT')) {
                this.next();
                const c = this.peek();
                if (c.kind !== 'string') {
                    throw new TypeSyntaxError(`Expected a quoted comment after COMMENT but found ${describe(c)}.`, c.offset);
                }
                this.next();
                comment = c.text;
            } else {
                break;
            }
        }
        return comment === undefined ? { name: t.text, type, nullable } : { name: t.text, type, nullable, comment };
    }

    parseFieldList(): StructField[] {
        const fields = [this.parseField(false)];
        while (this.isPunct(',')) {
            this.next();
            fields.push(this.parseField(false));
        }
        return fields;
    }
}

function isIntervalField(word: string): boolean {
    return ['year', 'month', 'day', 'hour', 'minute', 'second'].includes(word);
}

function describe(t: Token): string {
    switch (t.kind) {
        case 'end': return 'the end of the text';
        case 'string': return `the string '${t.text}'`;
        default: return `'${t.text}'`;
    }
}

function runParser<T>(text: string, body: (parser: TypeParser) => T): ParseResult<T> {
    try {
        const parser = new TypeParser(tokenize(text));
        const value = body(parser);
        parser.expectEnd();
        return { ok: true, value };
    } catch (e) {
        if (e instanceof TypeSyntaxError) {
            return { ok: false, error: e.message, offset: e.offset };
        }
        throw e;
    }
}

/**
 * Parses one data type as written in Spark DDL or schema strings, case-insensitively:
 * `INT`, `decimal(10,2)`, `ARRAY<STRUCT<a: INT, b STRING NOT NULL>>`, `INTERVAL DAY TO SECOND`.
 */
export function parseType(text: string): ParseResult<TypeDescriptor> {
    return runParser(text, p => p.parseType());
}

/**
 * Parses a schema string: a column list `a INT, b STRING` (colons optional, `NOT NULL` and `COMMENT`
 * allowed) as accepted by `from_json`, `read_files(schema => …)` and `schemaHints`, or a single
 * `STRUCT<…>` type whose fields become the columns.
 */
export function parseSchema(text: string): ParseResult<StructField[]> {
    if (/^\s*struct\s*</i.test(text)) {
        const single = parseType(text);
        if (single.ok && single.value.kind === 'struct') {
            return { ok: true, value: [...single.value.fields] };
        }
        if (!single.ok) {
            return single;
        }
    }
    if (text.trim() === '') {
        return { ok: true, value: [] };
    }
    return runParser(text, p => p.parseFieldList());
}

//#endregion

//#region Literals

const INT_MAX = 2147483647n;
const LONG_MAX = 9223372036854775807n;

/**
 * The type Spark gives a literal as written in SQL: `42` INT, `3000000000` BIGINT, `1.50`
 * DECIMAL(3,2), `1.5D` DOUBLE, `2F` FLOAT, `7L` BIGINT, `7S` SMALLINT, `7Y` TINYINT, `1.5BD`
 * DECIMAL, `1E3` DOUBLE, `'x'` STRING, `X'0A'` BINARY, `TRUE` BOOLEAN, `NULL` VOID,
 * `DATE'…'`, `TIMESTAMP'…'`, `TIMESTAMP_NTZ'…'`, `INTERVAL '1' DAY` … Undefined when the text is
 * not a literal.
 */
export function literalType(text: string): TypeDescriptor | undefined {
    const t = text.trim();
    if (/^null$/i.test(t)) {
        return Types.void;
    }
    if (/^(true|false)$/i.test(t)) {
        return Types.boolean;
    }
    if (/^('([^'\\]|\\.)*'|"([^"\\]|\\.)*")$/s.test(t)) {
        return Types.string;
    }
    if (/^X'[0-9A-Fa-f]*'$/i.test(t)) {
        return Types.binary;
    }
    const typed = /^(DATE|TIMESTAMP_NTZ|TIMESTAMP_LTZ|TIMESTAMP|TIME)\s*'[^']*'$/i.exec(t);
    if (typed) {
        return { DATE: Types.date, TIMESTAMP_NTZ: Types.timestampNtz, TIMESTAMP_LTZ: Types.timestamp, TIMESTAMP: Types.timestamp, TIME: Types.time(6) }[
            typed[1].toUpperCase() as 'DATE' | 'TIMESTAMP_NTZ' | 'TIMESTAMP_LTZ' | 'TIMESTAMP' | 'TIME'];
    }
    if (/^INTERVAL\b/i.test(t)) {
        return intervalLiteralType(t.slice('INTERVAL'.length));
    }
    const suffixed = /^[+-]?(\d+)([LSY])$/i.exec(t);
    if (suffixed) {
        return { L: Types.bigint, S: Types.smallint, Y: Types.tinyint }[suffixed[2].toUpperCase() as 'L' | 'S' | 'Y'];
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)(E[+-]?\d+)?D$/i.test(t)) {
        return Types.double;
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)(E[+-]?\d+)?F$/i.test(t)) {
        return Types.float;
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)E[+-]?\d+$/i.test(t)) {
        return Types.double;
    }
    const number = /^[+-]?(\d*)(?:\.(\d*))?(BD)?$/i.exec(t);
    if (number && (number[1] !== '' || (number[2] ?? '') !== '')) {
        const whole = number[1];
        const fraction = number[2];
        if (fraction === undefined && !number[3]) {
            const value = BigInt(whole);
            return value <= INT_MAX ? Types.int : value <= LONG_MAX ? Types.bigint : boundedDecimal(whole.replace(/^0+(?=\d)/, '').length, 0);
        }
        // An exact decimal: the precision counts the digits of the unscaled value, and is at least the scale.
        const scale = (fraction ?? '').length;
        const digits = String(BigInt(`${whole}${fraction ?? ''}` || '0')).length;
        return boundedDecimal(Math.max(digits, scale, 1), scale);
    }
    return undefined;
}

const YEAR_MONTH_UNITS: ReadonlyMap<string, YearMonthField> = new Map(Object.entries({ YEAR: 'year', YEARS: 'year', MONTH: 'month', MONTHS: 'month' } as const));
const DAY_TIME_UNITS: ReadonlyMap<string, DayTimeField> = new Map(Object.entries({
    WEEK: 'day', WEEKS: 'day', DAY: 'day', DAYS: 'day', HOUR: 'hour', HOURS: 'hour', MINUTE: 'minute', MINUTES: 'minute',
    SECOND: 'second', SECONDS: 'second', MILLISECOND: 'second', MILLISECONDS: 'second', MICROSECOND: 'second', MICROSECONDS: 'second',
} as const));

/**
 * `INTERVAL '1-2' YEAR TO MONTH`, `INTERVAL 3 HOURS 20 MINUTES` …: an ANSI interval type, or the
 * calendar interval when units mix. A bare string (`INTERVAL '1 day 2 hours'`) is a calendar
 * interval, as Spark's parser types it (its units are not part of the syntax).
 */
function intervalLiteralType(rest: string): TypeDescriptor | undefined {
    const units = (text: string): string[] => [...text.toUpperCase().matchAll(/\b(YEARS?|MONTHS?|WEEKS?|DAYS?|HOURS?|MINUTES?|SECONDS?|MILLISECONDS?|MICROSECONDS?)\b/g)]
        .map(m => m[1]);
    const written = units(rest.replace(/'([^'\\]|\\.)*'|"([^"\\]|\\.)*"/g, ' '));
    if (written.length === 0) {
        return units(rest).length > 0 ? Types.calendarInterval : undefined;
    }
    return intervalUnitsType(written);
}

/**
 * The type of an interval literal written with these units (`['DAY']`, `['YEAR', 'MONTH']`, in any
 * case, singular or plural): year-month units give a year-month interval, day-time units a
 * day-time interval from the largest to the smallest unit written, and a mix the calendar interval.
 */
export function intervalUnitsType(units: readonly string[]): TypeDescriptor {
    const upper = units.map(u => u.toUpperCase());
    if (upper.every(u => YEAR_MONTH_UNITS.has(u))) {
        const fields = upper.map(u => YEAR_MONTH_UNITS.get(u));
        return Types.intervalYearMonth(fields.includes('year') ? 'year' : 'month', fields.includes('month') ? 'month' : 'year');
    }
    if (upper.every(u => DAY_TIME_UNITS.has(u))) {
        const order: DayTimeField[] = ['day', 'hour', 'minute', 'second'];
        const indexes = upper.map(u => order.indexOf(DAY_TIME_UNITS.get(u)!));
        return Types.intervalDayTime(order[Math.min(...indexes)], order[Math.max(...indexes)]);
    }
    return Types.calendarInterval;
}

//#endregion

//#region Predicates

const INTEGRAL_KINDS: readonly TypeKind[] = ['tinyint', 'smallint', 'int', 'bigint'];
/** Spark's numeric precedence, narrowest first (decimals are placed by their own rules). */
const NUMERIC_PRECEDENCE: readonly TypeKind[] = ['tinyint', 'smallint', 'int', 'bigint', 'float', 'double'];

/** True for the integral types TINYINT, SMALLINT, INT and BIGINT. */
export function isIntegral(t: TypeDescriptor | undefined): boolean {
    return t !== undefined && INTEGRAL_KINDS.includes(t.kind);
}

/** True for FLOAT and DOUBLE. */
export function isFloating(t: TypeDescriptor | undefined): boolean {
    return t !== undefined && (t.kind === 'float' || t.kind === 'double');
}

/** True for every numeric type (integral, floating point, decimal). */
export function isNumeric(t: TypeDescriptor | undefined): boolean {
    return t !== undefined && (isIntegral(t) || isFloating(t) || t.kind === 'decimal');
}

/** True for STRING, VARCHAR(n) and CHAR(n). */
export function isStringLike(t: TypeDescriptor | undefined): boolean {
    return t !== undefined && (t.kind === 'string' || t.kind === 'varchar' || t.kind === 'char');
}

/** True for TIMESTAMP and TIMESTAMP_NTZ. */
export function isTimestamp(t: TypeDescriptor): boolean {
    return t.kind === 'timestamp' || t.kind === 'timestamp_ntz';
}

/** True for DATE, TIMESTAMP and TIMESTAMP_NTZ. */
export function isDatetime(t: TypeDescriptor): boolean {
    return t.kind === 'date' || isTimestamp(t);
}

/** True for ANSI intervals and the legacy calendar interval. */
export function isInterval(t: TypeDescriptor): boolean {
    return t.kind === 'interval_ym' || t.kind === 'interval_dt' || t.kind === 'calendar_interval';
}

/** True for ARRAY, MAP and STRUCT. */
export function isComplex(t: TypeDescriptor): boolean {
    return t.kind === 'array' || t.kind === 'map' || t.kind === 'struct';
}

/**
 * True when values of the type can be sorted (ORDER BY, min/max, SEQUENCE BY): every atomic type
 * except the calendar interval, VARIANT and spatial types, plus arrays and structs of orderable
 * types. Maps are never orderable. `unknown` is given the benefit of the doubt.
 */
export function isOrderable(t: TypeDescriptor): boolean {
    switch (t.kind) {
        case 'map':
        case 'variant':
        case 'calendar_interval':
        case 'geometry':
        case 'geography':
            return false;
        case 'array': return isOrderable(t.element);
        case 'struct': return t.fields.every(f => isOrderable(f.type));
        default: return true;
    }
}

/** True when values of the type can be compared for equality (GROUP BY, DISTINCT, `=`, join keys). */
export function isComparable(t: TypeDescriptor): boolean {
    switch (t.kind) {
        case 'map':
        case 'variant':
        case 'geometry':
        case 'geography':
            return false;
        case 'array': return isComparable(t.element);
        case 'struct': return t.fields.every(f => isComparable(f.type));
        default: return true;
    }
}

/** Structural equality of two types (field names compared case-insensitively, nullability ignored). */
export function typesEqual(a: TypeDescriptor, b: TypeDescriptor): boolean {
    if (a.kind !== b.kind) {
        return false;
    }
    switch (a.kind) {
        case 'decimal': {
            const o = b as TypeOfKind<'decimal'>;
            return a.precision === o.precision && a.scale === o.scale;
        }
        case 'string': return (a.collation ?? 'UTF8_BINARY').toUpperCase() === ((b as TypeOfKind<'string'>).collation ?? 'UTF8_BINARY').toUpperCase();
        case 'varchar':
        case 'char':
            return a.length === (b as TypeOfKind<'varchar'>).length;
        case 'time': return a.precision === (b as TypeOfKind<'time'>).precision;
        case 'interval_ym':
        case 'interval_dt': {
            const o = b as TypeOfKind<'interval_ym'>;
            return a.start === o.start && a.end === o.end;
        }
        case 'array': return typesEqual(a.element, (b as TypeOfKind<'array'>).element);
        case 'map': {
            const o = b as TypeOfKind<'map'>;
            return typesEqual(a.key, o.key) && typesEqual(a.value, o.value);
        }
        case 'struct': {
            const o = b as TypeOfKind<'struct'>;
            return a.fields.length === o.fields.length
                && a.fields.every((f, i) => f.name.toLowerCase() === o.fields[i].name.toLowerCase() && typesEqual(f.type, o.fields[i].type));
        }
        case 'geometry':
        case 'geography':
            return a.srid === (b as TypeOfKind<'geometry'>).srid;
        default: return true;
    }
}

//#endregion

//#region Widening

/** The exact decimal type that holds every value of an integral type (INT → DECIMAL(10,0)). */
export function decimalForIntegral(t: TypeDescriptor): TypeOfKind<'decimal'> | undefined {
    if (t.kind === 'decimal') {
        return t;
    }
    const shape = decimalRules.integralDecimal(t.kind);
    return shape && { kind: 'decimal', ...shape };
}

const asType = (shape: decimalRules.DecimalShape): TypeDescriptor => Types.decimal(shape.precision, shape.scale);

/** DECIMAL(p, s) with both capped at 38 (Spark's `DecimalType.bounded`). */
export function boundedDecimal(precision: number, scale: number): TypeDescriptor {
    return asType(decimalRules.boundedDecimal(precision, scale));
}

/**
 * The result decimal of an arithmetic operation whose exact precision exceeds 38: Spark keeps the
 * integral digits and gives up fractional ones, but keeps at least six (`adjustPrecisionScale`).
 */
export function adjustedDecimal(precision: number, scale: number): TypeDescriptor {
    return asType(decimalRules.adjustedDecimal(precision, scale));
}

function widerDecimal(a: TypeOfKind<'decimal'>, b: TypeOfKind<'decimal'>): TypeDescriptor {
    return asType(decimalRules.widerDecimal(a, b));
}

function numericRank(t: TypeDescriptor): number {
    return NUMERIC_PRECEDENCE.indexOf(t.kind);
}

/** What a STRING is promoted to when it meets `other` (ANSI least-common-type rules). */
function stringPromotion(other: TypeDescriptor): TypeDescriptor | undefined {
    if (isStringLike(other) || other.kind === 'void') {
        return Types.string;
    }
    if (isIntegral(other)) {
        return Types.bigint;
    }
    if (other.kind === 'decimal' || isFloating(other)) {
        return Types.double;
    }
    switch (other.kind) {
        case 'date':
        case 'timestamp':
        case 'timestamp_ntz':
        case 'boolean':
        case 'binary':
        case 'interval_ym':
        case 'interval_dt':
        case 'calendar_interval':
        case 'time':
            return other;
        default: return undefined;
    }
}

function fieldOrder<F extends string>(fields: readonly F[], a: F, b: F, pick: 'min' | 'max'): F {
    const ia = fields.indexOf(a);
    const ib = fields.indexOf(b);
    return (pick === 'min' ? (ia <= ib ? a : b) : (ia >= ib ? a : b));
}

/**
 * The least common type of two types, or undefined when Spark would reject the pair (e.g. BOOLEAN
 * and DATE). Used for COALESCE, CASE, IF, IN, greatest/least, array and map constructors and set
 * operations. A NULL literal (`void`) takes the other side's type; `unknown` makes the result unknown.
 */
export function commonSupertype(a: TypeDescriptor, b: TypeDescriptor): TypeDescriptor | undefined {
    if (a.kind === 'unknown' || b.kind === 'unknown') {
        return Types.unknown;
    }
    if (a.kind === 'void') {
        return b;
    }
    if (b.kind === 'void') {
        return a;
    }
    if (typesEqual(a, b)) {
        return a;
    }
    // CHAR and VARCHAR behave as STRING in expressions.
    if (isStringLike(a) && isStringLike(b)) {
        return a.kind === 'string' ? a : b.kind === 'string' ? b : Types.string;
    }
    if (isNumeric(a) && isNumeric(b)) {
        if (a.kind === 'decimal' || b.kind === 'decimal') {
            if (isFloating(a) || isFloating(b)) {
                return Types.double;
            }
            return widerDecimal(decimalForIntegral(a)!, decimalForIntegral(b)!);
        }
        return numericRank(a) >= numericRank(b) ? a : b;
    }
    if (isStringLike(a)) {
        return stringPromotion(b);
    }
    if (isStringLike(b)) {
        return stringPromotion(a);
    }
    if (isDatetime(a) && isDatetime(b)) {
        if (a.kind === 'timestamp' || b.kind === 'timestamp') {
            return Types.timestamp;
        }
        return Types.timestampNtz;
    }
    if (a.kind === 'time' && b.kind === 'time') {
        return Types.time(Math.max(a.precision, b.precision));
    }
    if (a.kind === 'interval_ym' && b.kind === 'interval_ym') {
        const f: YearMonthField[] = ['year', 'month'];
        return Types.intervalYearMonth(fieldOrder(f, a.start, b.start, 'min'), fieldOrder(f, a.end, b.end, 'max'));
    }
    if (a.kind === 'interval_dt' && b.kind === 'interval_dt') {
        const f: DayTimeField[] = ['day', 'hour', 'minute', 'second'];
        return Types.intervalDayTime(fieldOrder(f, a.start, b.start, 'min'), fieldOrder(f, a.end, b.end, 'max'));
    }
    if (a.kind === 'array' && b.kind === 'array') {
        const element = commonSupertype(a.element, b.element);
        return element && Types.array(element);
    }
    if (a.kind === 'map' && b.kind === 'map') {
        const key = commonSupertype(a.key, b.key);
        const value = commonSupertype(a.value, b.value);
        return key && value && Types.map(key, value);
    }
    if (a.kind === 'struct' && b.kind === 'struct') {
        if (a.fields.length !== b.fields.length) {
            return undefined;
        }
        const fields: StructField[] = [];
        for (let i = 0; i < a.fields.length; i++) {
            const fa = a.fields[i];
            const fb = b.fields[i];
            if (fa.name.toLowerCase() !== fb.name.toLowerCase()) {
                return undefined;
            }
            const t = commonSupertype(fa.type, fb.type);
            if (!t) {
                return undefined;
            }
            fields.push({ name: fa.name, type: t, nullable: fa.nullable || fb.nullable });
        }
        return { kind: 'struct', fields };
    }
    if ((a.kind === 'geometry' && b.kind === 'geometry') || (a.kind === 'geography' && b.kind === 'geography')) {
        return { kind: a.kind, srid: 'any' };
    }
    return undefined;
}

/** The least common type of several types (see `commonSupertype`); `void` for an empty list. */
export function commonSupertypeOf(types: readonly TypeDescriptor[]): TypeDescriptor | undefined {
    let result: TypeDescriptor = Types.void;
    for (const t of types) {
        const next = commonSupertype(result, t);
        if (!next) {
            return undefined;
        }
        result = next;
    }
    return result;
}

/** True when a value of type `from` may be passed where `to` is expected without an explicit CAST. */
export function canImplicitlyCast(from: TypeDescriptor, to: TypeDescriptor): boolean {
    if (from.kind === 'unknown' || to.kind === 'unknown' || from.kind === 'void') {
        return true;
    }
    const common = commonSupertype(from, to);
    if (!common) {
        return false;
    }
    // Widening the target means `from` does not fit into it; decimals and floating point absorb
    // integral types, so allow those even if the exact decimal bounds differ.
    if (typesEqual(common, to) || (isStringLike(to) && isStringLike(common))) {
        return true;
    }
    return isNumeric(from) && isNumeric(to) && (to.kind === 'decimal' || isFloating(to) || numericRank(from) <= numericRank(to));
}

/** Binary operators whose result type `binaryOperatorType` knows. */
export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | 'div' | '||' | '&' | '|' | '^'
    | '=' | '==' | '<>' | '!=' | '<' | '<=' | '>' | '>=' | '<=>' | 'and' | 'or';

function decimalArithmetic(op: '+' | '-' | '*' | '/' | '%', a: TypeOfKind<'decimal'>, b: TypeOfKind<'decimal'>): TypeDescriptor {
    return asType(decimalRules.decimalArithmetic(op, a, b));
}

/**
 * Operand type of numeric arithmetic after ANSI promotion of strings: a STRING next to an integral
 * type is a BIGINT (`'1' + 1` is BIGINT arithmetic), next to a DECIMAL, a floating type or another
 * STRING a DOUBLE (Spark's AnsiTypeCoercion `findWiderTypeForString`). Undefined when `t` cannot
 * take part in numeric arithmetic.
 */
export function arithmeticOperandType(t: TypeDescriptor, other: TypeDescriptor): TypeDescriptor | undefined {
    if (isNumeric(t)) {
        return t;
    }
    if (isStringLike(t)) {
        return isIntegral(other) ? Types.bigint : isNumeric(other) || isStringLike(other) ? Types.double : undefined;
    }
    return undefined;
}

function numericArithmetic(op: '+' | '-' | '*' | '/' | '%', a: TypeDescriptor, b: TypeDescriptor): TypeDescriptor | undefined {
    const l = arithmeticOperandType(a, b);
    const r = arithmeticOperandType(b, a);
    if (!l || !r) {
        return undefined;
    }
    if (isFloating(l) || isFloating(r)) {
        return op === '/' ? Types.double : commonSupertype(l, r);
    }
    if (l.kind === 'decimal' || r.kind === 'decimal') {
        return decimalArithmetic(op, decimalForIntegral(l)!, decimalForIntegral(r)!);
    }
    // Integral operands: `/` always divides as DOUBLE, the rest keep the wider integral type.
    return op === '/' ? Types.double : commonSupertype(l, r);
}

/**
 * An operand's type as a binary operator types it: an integer literal next to a DECIMAL is the
 * narrowest decimal holding its digits, so `amount * 2` is DECIMAL(p + 2, s) (Spark's
 * `DecimalType.fromLiteral`, spark.sql.legacy.literalPickMinimumPrecision on by default).
 * `integerLiteral` is the operand's text when it is an integer literal (`2`, `-15`).
 */
export function operandType(type: TypeDescriptor, other: TypeDescriptor, integerLiteral?: string): TypeDescriptor {
    const digits = integerLiteral === undefined ? undefined : /^[+-]?(\d+)$/.exec(integerLiteral);
    if (other.kind !== 'decimal' || !digits) {
        return type;
    }
    return Types.decimal(Math.max(1, digits[1].replace(/^0+(?=\d)/, '').length), 0);
}

function isDayOnly(t: TypeDescriptor): boolean {
    return t.kind === 'interval_dt' && t.start === 'day' && t.end === 'day';
}

/**
 * Result type of a binary operator as Spark computes it, or undefined when the operand types are
 * invalid for the operator. Covers numeric arithmetic with decimal precision rules (`int / int` is
 * DOUBLE, `decimal(10,2) * decimal(10,2)` is DECIMAL(21,4)), date/timestamp/interval arithmetic,
 * `||`, bitwise operators, comparisons and boolean connectives.
 */
export function binaryOperatorType(op: BinaryOperator, a: TypeDescriptor, b: TypeDescriptor): TypeDescriptor | undefined {
    if (a.kind === 'unknown' || b.kind === 'unknown') {
        return ['=', '==', '<>', '!=', '<', '<=', '>', '>=', '<=>', 'and', 'or'].includes(op) ? Types.boolean : Types.unknown;
    }
    switch (op) {
        case '=': case '==': case '<>': case '!=': case '<=>':
            return comparisonType(a, b) && isComparable(comparisonType(a, b)!) ? Types.boolean : undefined;
        case '<': case '<=': case '>': case '>=':
            return comparisonType(a, b) && isOrderable(comparisonType(a, b)!) ? Types.boolean : undefined;
        case 'and': case 'or':
            return (a.kind === 'boolean' || a.kind === 'void') && (b.kind === 'boolean' || b.kind === 'void') ? Types.boolean : undefined;
        case '||':
            if (a.kind === 'array' || b.kind === 'array') {
                return commonSupertype(a, b);
            }
            return a.kind === 'binary' && b.kind === 'binary' ? Types.binary : Types.string;
        case '&': case '|': case '^': {
            const l = a.kind === 'void' ? b : a;
            const r = b.kind === 'void' ? a : b;
            return isIntegral(l) && isIntegral(r) ? commonSupertype(l, r) : undefined;
        }
        case 'div':
            if ((isNumeric(a) || isStringLike(a)) && (isNumeric(b) || isStringLike(b))) {
                return Types.bigint;
            }
            return isInterval(a) && isInterval(b) && a.kind === b.kind ? Types.bigint : undefined;
        default:
            break;
    }
    // Arithmetic: a NULL literal takes the other side's type.
    const l = a.kind === 'void' ? (b.kind === 'void' ? Types.int : b) : a;
    const r = b.kind === 'void' ? l : b;
    if (op === '+' || op === '-') {
        const dateTime = dateTimeArithmetic(op, l, r);
        if (dateTime) {
            return dateTime;
        }
    }
    if ((op === '*' || op === '/') && (l.kind === 'interval_ym' || l.kind === 'interval_dt') && isNumeric(r)) {
        return l;
    }
    if (op === '*' && (r.kind === 'interval_ym' || r.kind === 'interval_dt') && isNumeric(l)) {
        return r;
    }
    return numericArithmetic(op, l, r);
}

function dateTimeArithmetic(op: '+' | '-', l: TypeDescriptor, r: TypeDescriptor): TypeDescriptor | undefined {
    // DATE ± integral days stays a DATE; `1 + date` too.
    if (l.kind === 'date' && isIntegral(r)) {
        return Types.date;
    }
    if (op === '+' && isIntegral(l) && r.kind === 'date') {
        return Types.date;
    }
    if (op === '-' && isDatetime(l) && isDatetime(r)) {
        // DATE - DATE counts days; anything involving a timestamp gives a day-to-second interval.
        return l.kind === 'date' && r.kind === 'date' ? Types.intervalDayTime('day', 'day') : Types.intervalDayTime('day', 'second');
    }
    const isPointInTime = (t: TypeDescriptor): boolean => isDatetime(t) || t.kind === 'time';
    // `interval + timestamp` is allowed too; `interval - timestamp` is not.
    const [dt, iv] = isPointInTime(l) ? [l, r] : op === '+' && isPointInTime(r) ? [r, l] : [undefined, undefined];
    if (dt && iv && isInterval(iv)) {
        if (dt.kind === 'date') {
            if (iv.kind === 'interval_ym' || isDayOnly(iv)) {
                return Types.date;
            }
            return iv.kind === 'calendar_interval' ? Types.date : Types.timestamp;
        }
        return dt;
    }
    if ((l.kind === 'interval_ym' && r.kind === 'interval_ym') || (l.kind === 'interval_dt' && r.kind === 'interval_dt')) {
        return commonSupertype(l, r);
    }
    if (l.kind === 'calendar_interval' && r.kind === 'calendar_interval') {
        return l;
    }
    return undefined;
}

/** The type both sides of a comparison are converted to, or undefined when they cannot be compared. */
export function comparisonType(a: TypeDescriptor, b: TypeDescriptor): TypeDescriptor | undefined {
    return commonSupertype(a, b);
}

//#endregion

//#region What the local engine stores

/**
 * Whether the local engine can store and compute with values of the type: every type but TIME, the
 * spatial types and `unknown` (which lowering refuses before a run).
 */
export function isLocallyStorable(type: TypeDescriptor): boolean {
    switch (type.kind) {
        case 'time': case 'geometry': case 'geography': case 'unknown': return false;
        case 'array': return isLocallyStorable(type.element);
        case 'map': return isLocallyStorable(type.key) && isLocallyStorable(type.value);
        case 'struct': return type.fields.every(f => isLocallyStorable(f.type));
        default: return true;
    }
}

//#endregion
