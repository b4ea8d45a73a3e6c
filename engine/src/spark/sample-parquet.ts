// Reads the schema of a Parquet file from its footer (the Thrift-encoded `FileMetaData` at the end of
// the file) without reading any data, and maps it to Spark types the way Spark's Parquet reader does:
// logical and converted type annotations first (STRING, DATE, DECIMAL, TIMESTAMP, LIST, MAP), then
// the physical type. Only the compact Thrift protocol is needed, so the reader is self-contained.
// Nothing in a footer is trusted: its length is bounded (`MaxFooterBytes`) before anything is
// allocated, list sizes by the bytes left, and nesting by `MaxNesting` (no recursion runs deeper).
import type { DataType, StructField } from '../ir.js';
import { readAt, type SampleFile } from './sample-files.js';
import { field, Types } from './spark-types.js';

/** The largest Parquet footer read (real footers are kilobytes; a corrupt length must not allocate gigabytes). */
export const MaxFooterBytes = 16 * 1024 * 1024;
/** The deepest nesting of a footer's schema (and Thrift structs) that is followed. */
const MaxNesting = 64;


/** A Parquet footer that cannot be read: not a Parquet file, truncated, or an unexpected encoding. */
export class ParquetFormatError extends Error {
    override readonly name = 'ParquetFormatError';
}

/** Reads the column schema of a checked Parquet file. Throws `ParquetFormatError` (its message names no file) when the footer is unreadable. */
export function readParquetSchema(file: SampleFile): StructField[] {
    const size = file.size;
    if (size < 12) {
        throw new ParquetFormatError('too small to be a Parquet file');
    }
    const tail = readAt(file, size - 8, 8);
    if (tail.length < 8 || tail.toString('latin1', 4, 8) !== 'PAR1') {
        throw new ParquetFormatError('not a Parquet file (no PAR1 marker at its end)');
    }
    const footerLength = tail.readUInt32LE(0);
    if (footerLength <= 0 || footerLength > size - 12) {
        throw new ParquetFormatError(`a corrupt Parquet footer length (${footerLength} bytes in a file of ${size})`);
    }
    if (footerLength > MaxFooterBytes) {
        throw new ParquetFormatError(`declares a Parquet footer of ${footerLength} bytes; footers over ${MaxFooterBytes / (1024 * 1024)} MB are not read (the file is likely corrupt)`);
    }
    const footer = readAt(file, size - 8 - footerLength, footerLength);
    if (footer.length < footerLength) {
        throw new ParquetFormatError('ends inside its Parquet footer');
    }
    return parquetSchemaFromFooter(footer);
}

/** The column schema described by a Thrift-encoded `FileMetaData`. */
export function parquetSchemaFromFooter(footer: Uint8Array): StructField[] {
    const reader = new CompactReader(footer);
    const elements = readFileMetaDataSchema(reader);
    if (elements.length === 0) {
        throw new ParquetFormatError('The Parquet footer has no schema.');
    }
    const cursor = { index: 1 };
    const fields: StructField[] = [];
    for (let i = 0; i < (elements[0].numChildren ?? 0) && cursor.index < elements.length; i++) {
        fields.push(toField(elements, cursor));
    }
    return fields;
}

//#region Thrift compact protocol

const enum CType { Stop = 0, True = 1, False = 2, Byte = 3, I16 = 4, I32 = 5, I64 = 6, Double = 7, Binary = 8, List = 9, Set = 10, Map = 11, Struct = 12 }

class CompactReader {
    private offset = 0;
    private depth = 0;

    constructor(private readonly bytes: Uint8Array) {}

    byte(): number {
        if (this.offset >= this.bytes.length) {
            throw new ParquetFormatError('The Parquet footer ends early.');
        }
        return this.bytes[this.offset++];
    }

    varint(): number {
        let result = 0;
        let shift = 0;
        for (;;) {
            const b = this.byte();
            // Values above 2^53 lose precision; the schema only holds small numbers.
            result += (b & 0x7f) * 2 ** shift;
            if ((b & 0x80) === 0) {
                return result;
            }
            shift += 7;
            if (shift > 63) {
                throw new ParquetFormatError('A varint in the Parquet footer is too long.');
            }
        }
    }

    zigzag(): number {
        const n = this.varint();
        return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
    }

    binary(): Uint8Array {
        const length = this.varint();
        if (this.offset + length > this.bytes.length) {
            throw new ParquetFormatError('A string in the Parquet footer runs past its end.');
        }
        const value = this.bytes.subarray(this.offset, this.offset + length);
        this.offset += length;
        return value;
    }

    string(): string {
        return Buffer.from(this.binary()).toString('utf8');
    }

    /** Reads a field header; returns undefined at the end of a struct. */
    fieldHeader(lastId: number): { id: number; type: CType } | undefined {
        const header = this.byte();
        const type = (header & 0x0f) as CType;
        if (type === CType.Stop) {
            return undefined;
        }
        const delta = header >> 4;
        const id = delta === 0 ? this.zigzag() : lastId + delta;
        return { id, type };
    }

    listHeader(): { size: number; type: CType } {
        const header = this.byte();
        const size = header >> 4 === 15 ? this.varint() : header >> 4;
        return { size, type: (header & 0x0f) as CType };
    }

    /** Bytes not read yet (a bound on how many elements a list can really hold). */
    get remaining(): number {
        return this.bytes.length - this.offset;
    }

    /** Reads a struct field by field, handing each to `onField`, which returns false to skip it. */
    struct(onField: (id: number, type: CType) => boolean): void {
        if (++this.depth > MaxNesting) {
            throw new ParquetFormatError(`The Parquet footer nests structures more than ${MaxNesting} levels deep.`);
        }
        try {
            let lastId = 0;
            for (;;) {
                const header = this.fieldHeader(lastId);
                if (!header) {
                    return;
                }
                lastId = header.id;
                if (!onField(header.id, header.type)) {
                    this.skip(header.type);
                }
            }
        } finally {
            this.depth--;
        }
    }

    skip(type: CType): void {
        switch (type) {
            case CType.True:
            case CType.False:
                return;
            case CType.Byte:
                this.byte();
                return;
            case CType.I16:
            case CType.I32:
            case CType.I64:
                this.varint();
                return;
            case CType.Double:
                if (this.offset + 8 > this.bytes.length) {
                    throw new ParquetFormatError('The Parquet footer ends early.');
                }
                this.offset += 8;
                return;
            case CType.Binary:
                this.binary();
                return;
            case CType.List:
            case CType.Set: {
                const { size, type: element } = this.listHeader();
                for (let i = 0; i < size; i++) {
                    this.skipElement(element);
                }
                return;
            }
            case CType.Map: {
                const size = this.varint();
                if (size > 0) {
                    const types = this.byte();
                    for (let i = 0; i < size; i++) {
                        this.skipElement((types >> 4) as CType);
                        this.skipElement((types & 0x0f) as CType);
                    }
                }
                return;
            }
            case CType.Struct:
                this.struct(() => false);
                return;
            default:
                throw new ParquetFormatError(`Unknown Thrift type ${type as number} in the Parquet footer.`);
        }
    }

    /** In lists, booleans take a byte each (unlike struct fields, where the type carries the value). */
    private skipElement(type: CType): void {
        if (type === CType.True || type === CType.False) {
            this.byte();
        } else {
            this.skip(type);
        }
    }
}

//#endregion

//#region Schema elements

interface SchemaElement {
    type?: number;
    repetition?: number;
    name: string;
    numChildren?: number;
    convertedType?: number;
    scale?: number;
    precision?: number;
    logical?: LogicalType;
}

interface LogicalType {
    kind: 'string' | 'map' | 'list' | 'enum' | 'decimal' | 'date' | 'time' | 'timestamp' | 'integer' | 'json' | 'bson' | 'uuid' | 'float16' | 'variant' | 'other';
    scale?: number;
    precision?: number;
    adjustedToUtc?: boolean;
    bitWidth?: number;
    signed?: boolean;
}

function readFileMetaDataSchema(reader: CompactReader): SchemaElement[] {
    let schema: SchemaElement[] = [];
    reader.struct((id, type) => {
        if (id === 2 && type === CType.List) {
            const { size } = reader.listHeader();
            // Every schema element takes at least one byte: a larger count is a corrupt footer, not an allocation.
            if (size > reader.remaining) {
                throw new ParquetFormatError(`The Parquet footer claims ${size} schema elements in ${reader.remaining} bytes.`);
            }
            schema = Array.from({ length: size }, () => readSchemaElement(reader));
            return true;
        }
        return false;
    });
    return schema;
}

function readSchemaElement(reader: CompactReader): SchemaElement {
    const element: SchemaElement = { name: '' };
    reader.struct((id, type) => {
        switch (id) {
            case 1: element.type = reader.zigzag(); return true;
            case 3: element.repetition = reader.zigzag(); return true;
            case 4: element.name = reader.string(); return true;
            case 5: element.numChildren = reader.zigzag(); return true;
            case 6: element.convertedType = reader.zigzag(); return true;
            case 7: element.scale = reader.zigzag(); return true;
            case 8: element.precision = reader.zigzag(); return true;
            case 10:
                if (type === CType.Struct) {
                    element.logical = readLogicalType(reader);
                    return true;
                }
                return false;
            default: return false;
        }
    });
    return element;
}

const logicalKinds: Record<number, LogicalType['kind']> = {
    1: 'string', 2: 'map', 3: 'list', 4: 'enum', 5: 'decimal', 6: 'date', 7: 'time', 8: 'timestamp',
    10: 'integer', 12: 'json', 13: 'bson', 14: 'uuid', 15: 'float16', 16: 'variant',
};

function readLogicalType(reader: CompactReader): LogicalType {
    let logical: LogicalType = { kind: 'other' };
    reader.struct((id, type) => {
        const kind = logicalKinds[id] ?? 'other';
        logical = { kind };
        if (type !== CType.Struct) {
            return false;
        }
        reader.struct((inner, innerType) => {
            if (kind === 'decimal' && (inner === 1 || inner === 2) && innerType === CType.I32) {
                logical[inner === 1 ? 'scale' : 'precision'] = reader.zigzag();
                return true;
            }
            if ((kind === 'timestamp' || kind === 'time') && inner === 1 && (innerType === CType.True || innerType === CType.False)) {
                logical.adjustedToUtc = innerType === CType.True;
                return true;
            }
            if (kind === 'integer' && inner === 1 && innerType === CType.Byte) {
                logical.bitWidth = reader.byte();
                return true;
            }
            if (kind === 'integer' && inner === 2 && (innerType === CType.True || innerType === CType.False)) {
                logical.signed = innerType === CType.True;
                return true;
            }
            return false;
        });
        return true;
    });
    return logical;
}

const REPEATED = 2;
const REQUIRED = 0;

/** Converted-type codes of the Parquet format (the legacy annotations). */
const Converted = { UTF8: 0, MAP: 1, MAP_KEY_VALUE: 2, LIST: 3, ENUM: 4, DECIMAL: 5, DATE: 6, TIME_MILLIS: 7, TIME_MICROS: 8,
    TIMESTAMP_MILLIS: 9, TIMESTAMP_MICROS: 10, UINT_8: 11, UINT_16: 12, UINT_32: 13, UINT_64: 14, INT_8: 15, INT_16: 16, JSON: 19 } as const;

function toField(elements: SchemaElement[], cursor: { index: number }, depth = 1): StructField {
    const element = elements[cursor.index++];
    let type: DataType;
    if (element.numChildren !== undefined && element.numChildren > 0) {
        if (depth > MaxNesting) {
            throw new ParquetFormatError(`The Parquet schema nests columns more than ${MaxNesting} levels deep.`);
        }
        const children: StructField[] = [];
        for (let i = 0; i < element.numChildren && cursor.index < elements.length; i++) {
            children.push(toField(elements, cursor, depth + 1));
        }
        type = groupType(element, children);
    } else {
        type = primitiveType(element);
    }
    // A repeated field outside a LIST annotation is itself an array (the two-level legacy layout).
    if (element.repetition === REPEATED && !isListGroup(element)) {
        type = Types.array(type);
    }
    return field(element.name, type, element.repetition !== REQUIRED);
}

function isListGroup(element: SchemaElement): boolean {
    return element.logical?.kind === 'list' || element.convertedType === Converted.LIST;
}

function groupType(element: SchemaElement, children: StructField[]): DataType {
    if (isListGroup(element) && children.length === 1) {
        const repeated = children[0];
        // Three-level layout: LIST > repeated group (list) > element. The repeated group was already
        // turned into an array of its single-field struct; unwrap to the element type.
        const inner = repeated.type.kind === 'array' ? repeated.type.element : repeated.type;
        if (inner.kind === 'struct' && inner.fields.length === 1 && repeated.name !== 'array' && !repeated.name.endsWith('_tuple')) {
            return Types.array(inner.fields[0].type);
        }
        return Types.array(inner);
    }
    if ((element.logical?.kind === 'map' || element.convertedType === Converted.MAP || element.convertedType === Converted.MAP_KEY_VALUE)
        && children.length === 1) {
        const entries = children[0].type;
        const entry = entries.kind === 'array' ? entries.element : entries;
        if (entry.kind === 'struct' && entry.fields.length === 2) {
            return Types.map(entry.fields[0].type, entry.fields[1].type);
        }
    }
    return Types.struct(children);
}

function primitiveType(element: SchemaElement): DataType {
    const logical = element.logical;
    const converted = element.convertedType;
    if (logical?.kind === 'decimal' || converted === Converted.DECIMAL) {
        return Types.decimal(logical?.precision ?? element.precision ?? 10, logical?.scale ?? element.scale ?? 0);
    }
    switch (element.type) {
        case 0: return Types.boolean;
        case 1: // INT32
            if (logical?.kind === 'date' || converted === Converted.DATE) {
                return Types.date;
            }
            if (logical?.kind === 'integer') {
                if (logical.signed === false && (logical.bitWidth ?? 32) >= 32) {
                    return Types.bigint;
                }
                return logical.bitWidth === 8 ? (logical.signed === false ? Types.smallint : Types.tinyint)
                    : logical.bitWidth === 16 ? (logical.signed === false ? Types.int : Types.smallint) : Types.int;
            }
            if (converted === Converted.INT_8) {
                return Types.tinyint;
            }
            if (converted === Converted.INT_16 || converted === Converted.UINT_8) {
                return Types.smallint;
            }
            if (converted === Converted.UINT_16) {
                return Types.int;
            }
            if (converted === Converted.UINT_32) {
                return Types.bigint;
            }
            return Types.int;
        case 2: // INT64
            if (logical?.kind === 'timestamp') {
                return logical.adjustedToUtc === false ? Types.timestampNtz : Types.timestamp;
            }
            if (converted === Converted.TIMESTAMP_MILLIS || converted === Converted.TIMESTAMP_MICROS) {
                return Types.timestamp;
            }
            if ((logical?.kind === 'integer' && logical.signed === false) || converted === Converted.UINT_64) {
                return Types.decimal(20, 0);
            }
            return Types.bigint;
        case 3: return Types.timestamp; // INT96, the legacy Impala / Spark timestamp
        case 4: return Types.float;
        case 5: return Types.double;
        case 6: // BYTE_ARRAY
            if (logical?.kind === 'string' || logical?.kind === 'enum' || logical?.kind === 'json'
                || converted === Converted.UTF8 || converted === Converted.ENUM || converted === Converted.JSON) {
                return Types.string;
            }
            return Types.binary;
        case 7: // FIXED_LEN_BYTE_ARRAY
            return logical?.kind === 'uuid' ? Types.string : Types.binary;
        default:
            throw new ParquetFormatError(`The column '${element.name}' has an unknown Parquet type (${element.type ?? 'none'}).`);
    }
}

//#endregion
