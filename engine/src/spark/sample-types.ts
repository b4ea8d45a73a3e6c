// Constructors of the Spark types (IR `DataType`s) that sample-file schemas are built from, with no
// dependency on DuckDB (the editor's `check` loads the sample-data layer without the engine's database).
// engine/src/sql/types.ts exports them as `T`.
import type { DataType, StructField } from '../ir.js';

/** Spark type values by name, and constructors of the parameterised ones. */
export const SparkTypes = {
    boolean: { kind: 'boolean' } as DataType,
    tinyint: { kind: 'tinyint' } as DataType,
    smallint: { kind: 'smallint' } as DataType,
    int: { kind: 'int' } as DataType,
    bigint: { kind: 'bigint' } as DataType,
    float: { kind: 'float' } as DataType,
    double: { kind: 'double' } as DataType,
    string: { kind: 'string' } as DataType,
    binary: { kind: 'binary' } as DataType,
    date: { kind: 'date' } as DataType,
    timestamp: { kind: 'timestamp' } as DataType,
    timestampNtz: { kind: 'timestamp_ntz' } as DataType,
    void: { kind: 'void' } as DataType,
    decimal: (precision: number, scale: number): DataType => ({ kind: 'decimal', precision, scale }),
    array: (element: DataType): DataType => ({ kind: 'array', element }),
    map: (key: DataType, value: DataType): DataType => ({ kind: 'map', key, value }),
    struct: (fields: StructField[]): DataType => ({ kind: 'struct', fields }),
};
