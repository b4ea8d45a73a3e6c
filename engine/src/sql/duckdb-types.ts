// The engine's side of the Spark types (`spark/spark-types.ts`, the one representation): the DuckDB
// type that stores each Spark type, the Spark type of a DuckDB result column, Spark's reading of text
// as a TIMESTAMP, and type strings read into types the engine can store (with the engine's errors).
// The rules themselves (widening, arithmetic, predicates, printing) are the Spark module's.
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { PipelineDefinitionError, UnsupportedFeatureError, ErrorClass } from '../errors.js';
import type { DataType } from '../ir.js';
import { isLocallyStorable, parseSchema, parseType, Types as T, typesEqual, typeToSql, type ParseResult, type StructField } from '../spark/spark-types.js';
import { ident, join, sql, type Sql } from './sql.js';

/** A named, typed column of a relation. */
export interface Column {
    name: string;
    type: DataType;
}

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
        case 'interval_ym':
        case 'interval_dt':
        case 'calendar_interval': return sql`INTERVAL`;
        case 'void': return sql`INTEGER`;
        case 'variant': return sql`JSON`;
        case 'array': return sql`${toDuckType(type.element)}[]`;
        case 'map': return sql`MAP(${toDuckType(type.key)}, ${toDuckType(type.value)})`;
        case 'struct': return sql`STRUCT(${join(type.fields.map(f => sql`${ident(f.name)} ${toDuckType(f.type)}`))})`;
        case 'time':
        case 'geometry':
        case 'geography':
        case 'unknown':
            throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, `The type ${typeToSql(type)} cannot be stored by the local engine.`);
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
        // DuckDB keeps months, days and microseconds in one INTERVAL; the unit range is not stored.
        case DuckDBTypeId.INTERVAL: return T.intervalDayTime();
        case DuckDBTypeId.LIST: return T.array(fromDuckType(type.valueType));
        case DuckDBTypeId.ARRAY: return T.array(fromDuckType(type.valueType));
        case DuckDBTypeId.MAP: return T.map(fromDuckType(type.keyType), fromDuckType(type.valueType));
        case DuckDBTypeId.STRUCT:
            return T.struct(type.entryNames.map((name, i) => [name, fromDuckType(type.entryTypes[i])] as const));
        case DuckDBTypeId.SQLNULL: return T.void;
        default:
            // JSON is an aliased VARCHAR; union/variant/geometry have no Spark counterpart worth keeping.
            return T.string;
    }
}

/**
 * The Spark type DuckDB gives back (`fromDuckType`) for a value stored as `type`: DuckDB has one
 * INTERVAL for Spark's interval types (read back as interval day to second) and no NULL type (a
 * column of NULLs is stored as INTEGER). Other types come back as themselves.
 */
export function storedType(type: DataType): DataType {
    switch (type.kind) {
        case 'void': return T.int;
        case 'interval_ym':
        case 'interval_dt':
        case 'calendar_interval': return T.intervalDayTime();
        case 'array': return T.array(storedType(type.element));
        case 'map': return T.map(storedType(type.key), storedType(type.value));
        case 'struct': return T.struct(type.fields.map(f => [f.name, storedType(f.type)] as const));
        default: return type;
    }
}

/** True when DuckDB cannot tell the Spark type from the stored column (see `storedType`): the engine records it. */
export function storageLosesType(type: DataType): boolean {
    return !typesEqual(storedType(type), type);
}

/**
 * Columns read back from DuckDB with the Spark types known for them (recorded with the table, or the
 * translator's types of a query): a known type replaces the DuckDB one only where DuckDB stores the
 * known type as exactly that one (an `interval day` read back as interval day to second, a void as
 * INTEGER), so a stale record never hides what the table holds. `known` is keyed by lower-case name.
 */
export function withSparkTypes(columns: readonly Column[], known: ReadonlyMap<string, DataType>): Column[] {
    return columns.map(c => {
        const type = known.get(c.name.toLowerCase());
        return type && storageLosesType(type) && typesEqual(storedType(type), c.type) ? { name: c.name, type } : c;
    });
}

/** Known column types by lower-case name, for `withSparkTypes` (columns of unknown type left out). */
export function typesByName(columns: readonly { name: string; type?: DataType }[] | undefined): Map<string, DataType> {
    return new Map((columns ?? []).filter((c): c is Column => c.type !== undefined).map(c => [c.name.toLowerCase(), c.type]));
}

function parsed<V>(text: string, result: ParseResult<V>, storable: (value: V) => boolean): V {
    if (!result.ok) {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `Invalid data type '${text}': ${result.error} (at offset ${result.offset})`);
    }
    if (!storable(result.value)) {
        throw new PipelineDefinitionError(ErrorClass.invalidPipeline, `Invalid data type '${text}': the local engine cannot store this type.`);
    }
    return result.value;
}

/** Parses one Spark type (`DECIMAL(10,2)`, `ARRAY<STRUCT<a: INT>>`); throws PipelineDefinitionError on bad text. */
export function parseSparkType(text: string): DataType {
    return parsed(text, parseType(text), isLocallyStorable);
}

/** Parses a Spark DDL column list (`id INT, name STRING NOT NULL`), as used by schemas and `from_json`. */
export function parseSparkSchema(text: string): StructField[] {
    return parsed(text, parseSchema(text), fields => fields.every(f => isLocallyStorable(f.type)));
}
