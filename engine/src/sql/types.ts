// Spark data types: mapping to DuckDB types, Spark-style display names, a parser for Spark DDL
// type strings (`a INT, b ARRAY<STRING>`), and the type predicates the translator needs.
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { PipelineDefinitionError, ErrorClass } from '../errors.js';
import type { DataType, StructField } from '../ir.js';
import { integralDecimal, widerDecimal, type DecimalShape } from '../spark/decimal.js';
import { SparkTypes } from '../spark/sample-types.js';
import { ident, join, sql, type Sql } from './sql.js';

/** A named, typed column of a relation. */
export interface Column {
    name: string;
    type: DataType;
}

/** Shorthand constructors for the simple types (shared with the sample-schema inference, which must not load DuckDB). */
export const T = SparkTypes;

/** The DuckDB type used to store a Spark type (Spark TIMESTAMP is stored as a UTC wall-clock TIMESTAMP). */
export function toDuckType(type: DataType): Sql {
    switch (type.kind) {
        case 'boolean': return sql`BOOLEAN`;
        case 'tinyint': return sql`TINYINT`;
        case 'smallint': return sql`SMALLINT`;
        case 'int': return sql`INTEGER`;
        case 'bigint': return sql`BIGINT`;
        case 'float': return sql`FLOAT`;
        case 'double': return sql`DOUBLE`;
        case 'decimal': return sql`DECIMAL(${type.precision},${type.scale})`;
        case 'string':
        case 'char':
        case 'varchar': return sql`VARCHAR`;
        case 'binary': return sql`BLOB`;
        case 'date': return sql`DATE`;
        case 'timestamp':
        case 'timestamp_ntz': return sql`TIMESTAMP`;
        case 'interval': return sql`INTERVAL`;
        case 'void': return sql`INTEGER`;
        case 'variant': return sql`JSON`;
        case 'array': return sql`${toDuckType(type.element)}[]`;
        case 'map': return sql`MAP(${toDuckType(type.key)}, ${toDuckType(type.value)})`;
        case 'struct': return sql`STRUCT(${join(type.fields.map(f => sql`${ident(f.name)} ${toDuckType(f.type)}`))})`;
    }
}

/**
 * DuckDB SQL turning text (`sql`, a VARCHAR expression) into a Spark TIMESTAMP, with Spark's rule
 * for zones: an offset or zone in the text (`2025-01-04T10:00:00+02:00`, `...Z`, `... Europe/Paris`)
 * is honoured and the instant kept as UTC, the session time zone (08:00 here); text without one is a
 * UTC time. TIMESTAMP_NTZ ignores a zone in the text, as Spark does. DuckDB's own TIMESTAMP cast
 * drops the offset (10:00), so every text-to-timestamp conversion (literals, casts, to_timestamp,
 * sample files) goes through here.
 */
export function timestampFromText(text: Sql, type: DataType = T.timestamp, tryCast = false): Sql {
    const cast = tryCast ? sql`TRY_CAST` : sql`CAST`;
    return type.kind === 'timestamp_ntz' ? sql`${cast}(${text} AS TIMESTAMP)` : sql`CAST(${cast}(${text} AS TIMESTAMPTZ) AS TIMESTAMP)`;
}

/** The Spark type of a DuckDB result column (DuckDB-only types map to their nearest Spark type). */
export function fromDuckType(type: DuckDBType): DataType {
    switch (type.typeId) {
        case DuckDBTypeId.BOOLEAN: return T.boolean;
        case DuckDBTypeId.TINYINT: return T.tinyint;
        case DuckDBTypeId.SMALLINT:
        case DuckDBTypeId.UTINYINT: return T.smallint;
        case DuckDBTypeId.INTEGER:
        case DuckDBTypeId.USMALLINT:
        case DuckDBTypeId.INTEGER_LITERAL: return T.int;
        case DuckDBTypeId.BIGINT:
        case DuckDBTypeId.UINTEGER: return T.bigint;
        case DuckDBTypeId.UBIGINT:
        case DuckDBTypeId.HUGEINT:
        case DuckDBTypeId.UHUGEINT:
        case DuckDBTypeId.BIGNUM: return T.decimal(38, 0);
        case DuckDBTypeId.FLOAT: return T.float;
        case DuckDBTypeId.DOUBLE: return T.double;
        case DuckDBTypeId.DECIMAL: return T.decimal(type.width, type.scale);
        case DuckDBTypeId.VARCHAR:
        case DuckDBTypeId.STRING_LITERAL:
        case DuckDBTypeId.ENUM:
        case DuckDBTypeId.UUID:
        case DuckDBTypeId.TIME:
        case DuckDBTypeId.TIME_NS:
        case DuckDBTypeId.TIME_TZ:
        case DuckDBTypeId.BIT: return T.string;
        case DuckDBTypeId.BLOB: return T.binary;
        case DuckDBTypeId.DATE: return T.date;
        case DuckDBTypeId.TIMESTAMP:
        case DuckDBTypeId.TIMESTAMP_S:
        case DuckDBTypeId.TIMESTAMP_MS:
        case DuckDBTypeId.TIMESTAMP_NS:
        case DuckDBTypeId.TIMESTAMP_TZ: return T.timestamp;
        case DuckDBTypeId.INTERVAL: return { kind: 'interval', range: 'day_time' };
        case DuckDBTypeId.LIST: return T.array(fromDuckType(type.valueType));
        case DuckDBTypeId.ARRAY: return T.array(fromDuckType(type.valueType));
        case DuckDBTypeId.MAP: return T.map(fromDuckType(type.keyType), fromDuckType(type.valueType));
        case DuckDBTypeId.STRUCT:
            return T.struct(type.entryNames.map((name, i) => ({ name, type: fromDuckType(type.entryTypes[i]) })));
        case DuckDBTypeId.SQLNULL: return T.void;
        default:
            // JSON is an aliased VARCHAR; union/variant/geometry have no Spark counterpart worth keeping.
            return T.string;
    }
}

/** Spark's SQL display name of a type (`INT`, `ARRAY<STRING>`, `STRUCT<a: INT>`), used in results. */
export function formatType(type: DataType): string {
    switch (type.kind) {
        case 'decimal': return `DECIMAL(${type.precision},${type.scale})`;
        case 'char': return `CHAR(${type.length})`;
        case 'varchar': return `VARCHAR(${type.length})`;
        case 'interval': return type.range === 'year_month' ? 'INTERVAL YEAR TO MONTH' : 'INTERVAL DAY TO SECOND';
        case 'array': return `ARRAY<${formatType(type.element)}>`;
        case 'map': return `MAP<${formatType(type.key)}, ${formatType(type.value)}>`;
        case 'struct': return `STRUCT<${type.fields.map(f => `${f.name}: ${formatType(f.type)}`).join(', ')}>`;
        case 'void': return 'VOID';
        default: return type.kind.toUpperCase();
    }
}

/** Structural type equality (names of struct fields compared case-insensitively). */
export function sameType(a: DataType, b: DataType): boolean {
    return formatType(a).toLowerCase() === formatType(b).toLowerCase();
}

/** True for TINYINT, SMALLINT, INT, BIGINT. */
export function isIntegral(type: DataType | undefined): boolean {
    return type !== undefined && ['tinyint', 'smallint', 'int', 'bigint'].includes(type.kind);
}

/** True for every numeric type. */
export function isNumeric(type: DataType | undefined): boolean {
    return type !== undefined && (isIntegral(type) || ['float', 'double', 'decimal'].includes(type.kind));
}

/** True for string-like types. */
export function isString(type: DataType | undefined): boolean {
    return type !== undefined && ['string', 'char', 'varchar'].includes(type.kind);
}

/** Types whose values can be ordered (needed for SEQUENCE BY and snapshot versions, docs/semantics.md §6.2). */
export function isOrderable(type: DataType): boolean {
    switch (type.kind) {
        case 'map':
        case 'variant':
            return false;
        case 'array':
            return isOrderable(type.element);
        case 'struct':
            return type.fields.every(f => isOrderable(f.type));
        default:
            return true;
    }
}

/** The DECIMAL type of a precision and scale. */
export function decimalType(shape: DecimalShape): DataType {
    return T.decimal(shape.precision, shape.scale);
}

/** Spark's implicit widening between two numeric types (for CASE / COALESCE / arithmetic results). */
export function widerNumeric(a: DataType, b: DataType): DataType {
    if (a.kind === 'decimal' || b.kind === 'decimal') {
        const l = a.kind === 'decimal' ? a : integralDecimal(a.kind);
        const r = b.kind === 'decimal' ? b : integralDecimal(b.kind);
        // A decimal meeting a FLOAT or DOUBLE widens to DOUBLE; an integral type to the decimal holding both.
        return l && r ? decimalType(widerDecimal(l, r)) : T.double;
    }
    const rank = ['tinyint', 'smallint', 'int', 'bigint', 'float', 'double'];
    return rank.indexOf(a.kind) >= rank.indexOf(b.kind) ? a : b;
}

// ---------------------------------------------------------------------------------------------
// Parsing Spark DDL type strings
// ---------------------------------------------------------------------------------------------

const simpleTypes: ReadonlyMap<string, DataType> = new Map(Object.entries({
    boolean: T.boolean, bool: T.boolean,
    tinyint: T.tinyint, byte: T.tinyint,
    smallint: T.smallint, short: T.smallint,
    int: T.int, integer: T.int,
    bigint: T.bigint, long: T.bigint,
    float: T.float, real: T.float,
    double: T.double,
    string: T.string, text: T.string,
    binary: T.binary,
    date: T.date,
    timestamp: T.timestamp, timestamp_ltz: T.timestamp,
    timestamp_ntz: { kind: 'timestamp_ntz' },
    void: T.void,
    variant: { kind: 'variant' },
}));

/** Parses one Spark type (`DECIMAL(10,2)`, `ARRAY<STRUCT<a: INT>>`); throws PipelineDefinitionError on bad text. */
export function parseSparkType(text: string): DataType {
    const parser = new TypeParser(text);
    const type = parser.type();
    parser.end();
    return type;
}

/** Parses a Spark DDL column list (`id INT, name STRING NOT NULL`), as used by schemas and `from_json`. */
export function parseSparkSchema(text: string): Column[] {
    const parser = new TypeParser(text);
    const columns = parser.fieldList(',', null).map(f => ({ name: f.name, type: f.type }));
    parser.end();
    return columns;
}

/** A tiny recursive-descent parser over Spark type syntax. */
class TypeParser {
    private pos = 0;

    constructor(private readonly text: string) {}

    type(): DataType {
        const name = this.word().toLowerCase();
        if (name === 'array') {
            this.expect('<');
            const element = this.type();
            this.expect('>');
            return T.array(element);
        }
        if (name === 'map') {
            this.expect('<');
            const key = this.type();
            this.expect(',');
            const value = this.type();
            this.expect('>');
            return T.map(key, value);
        }
        if (name === 'struct') {
            this.expect('<');
            const fields = this.peek() === '>' ? [] : this.fieldList(',', '>');
            this.expect('>');
            return T.struct(fields);
        }
        if (name === 'decimal' || name === 'dec' || name === 'numeric') {
            if (this.peek() === '(') {
                this.expect('(');
                const precision = Number(this.word());
                let scale = 0;
                if (this.peek() === ',') {
                    this.expect(',');
                    scale = Number(this.word());
                }
                this.expect(')');
                return T.decimal(precision, scale);
            }
            return T.decimal(10, 0);
        }
        if (name === 'char' || name === 'varchar' || name === 'character') {
            this.expect('(');
            const length = Number(this.word());
            this.expect(')');
            return { kind: name === 'varchar' ? 'varchar' : 'char', length };
        }
        if (name === 'interval') {
            const from = this.tryWord()?.toLowerCase();
            let to: string | undefined;
            if (this.tryKeyword('to')) {
                to = this.word().toLowerCase();
            }
            const unit = to ?? from ?? 'second';
            return { kind: 'interval', range: unit === 'year' || unit === 'month' ? 'year_month' : 'day_time' };
        }
        const simple = simpleTypes.get(name);
        if (!simple) {
            this.fail(`unknown data type '${name}'`);
        }
        return simple;
    }

    fieldList(separator: string, closing: string | null): StructField[] {
        const fields: StructField[] = [];
        for (;;) {
            const name = this.identifier();
            if (this.peek() === ':') {
                this.expect(':');
            }
            const type = this.type();
            const field: StructField = { name, type };
            if (this.tryKeyword('not')) {
                if (!this.tryKeyword('null')) {
                    this.fail('expected NULL after NOT');
                }
                field.notNull = true;
            }
            if (this.tryKeyword('comment')) {
                field.comment = this.stringLiteral();
            }
            fields.push(field);
            if (this.peek() !== separator || (closing !== null && this.peek() === closing)) {
                break;
            }
            this.expect(separator);
        }
        return fields;
    }

    end(): void {
        this.skipSpace();
        if (this.pos < this.text.length) {
            this.fail(`unexpected '${this.text.slice(this.pos, this.pos + 10)}'`);
        }
    }

    private identifier(): string {
        this.skipSpace();
        if (this.text[this.pos] === '`') {
            const end = this.text.indexOf('`', this.pos + 1);
            if (end < 0) {
                this.fail('unterminated back-quoted name');
            }
            const name = this.text.slice(this.pos + 1, end);
            this.pos = end + 1;
            return name;
        }
        return this.word();
    }

    private stringLiteral(): string {
        this.skipSpace();
        const quote = this.text[this.pos];
        if (quote !== '\'' && quote !== '"') {
            this.fail('expected a string');
        }
        const end = this.text.indexOf(quote, this.pos + 1);
        if (end < 0) {
            this.fail('unterminated string');
        }
        const value = this.text.slice(this.pos + 1, end);
        this.pos = end + 1;
        return value;
    }

    private word(): string {
        const word = this.tryWord();
        if (word === undefined) {
            this.fail('expected a name');
        }
        return word;
    }

    private tryWord(): string | undefined {
        this.skipSpace();
        const match = /^[A-Za-z_0-9]+/.exec(this.text.slice(this.pos));
        if (!match) {
            return undefined;
        }
        this.pos += match[0].length;
        return match[0];
    }

    private tryKeyword(keyword: string): boolean {
        this.skipSpace();
        const match = /^[A-Za-z_]+/.exec(this.text.slice(this.pos));
        if (match && match[0].toLowerCase() === keyword) {
            this.pos += match[0].length;
            return true;
        }
        return false;
    }

    private peek(): string {
        this.skipSpace();
        return this.text[this.pos] ?? '';
    }

    private expect(token: string): void {
        if (this.peek() !== token) {
            this.fail(`expected '${token}'`);
        }
        this.pos += token.length;
    }

    private skipSpace(): void {
        while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) {
            this.pos++;
        }
    }

    private fail(message: string): never {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `Invalid data type '${this.text}': ${message} at offset ${this.pos}.`);
    }
}
