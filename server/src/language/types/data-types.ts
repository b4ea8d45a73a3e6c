/**
 * The Spark type of a data type written in pipeline SQL (`DECIMAL(10,2)`, `ARRAY<STRUCT<a: INT>>`,
 * `INTERVAL DAY TO SECOND`, `STRING COLLATE UTF8_BINARY`): the one reading of type syntax, shared by
 * the editor (inference, hover, validation) and lowering (the types the IR carries). Names and
 * parameters are read by the Spark module's type parser, so a type means the same everywhere.
 */
import { parseType, Types, type StructField, type TypeDescriptor } from '../../../../engine/src/spark/spark-types.js';
import * as ast from '../generated/ast.js';

/** The type of a primitive type node (`DECIMAL(10,2)`, `STRING COLLATE UNICODE`), undefined when Spark has no such type. */
export function primitiveTypeOf(node: ast.PrimitiveType): TypeDescriptor | undefined {
    const args = node.args.length > 0 ? `(${node.args.join(', ')})` : '';
    const collation = node.collation !== undefined ? ` COLLATE \`${node.collation.replaceAll('`', '``')}\`` : '';
    const parsed = parseType(`${node.name}${args}${collation}`);
    return parsed.ok ? parsed.value : undefined;
}

/** The type of an INTERVAL type node (`INTERVAL`, `INTERVAL DAY`, `INTERVAL YEAR TO MONTH`), undefined for an invalid range. */
export function intervalTypeOf(node: ast.IntervalType): TypeDescriptor | undefined {
    const text = node.from === undefined ? 'INTERVAL' : node.to === undefined ? `INTERVAL ${node.from}` : `INTERVAL ${node.from} TO ${node.to}`;
    const parsed = parseType(text);
    return parsed.ok ? parsed.value : undefined;
}

/** The Spark type of a data type node; undefined when any part of it names no Spark type. */
export function dataTypeOf(node: ast.DataType | undefined): TypeDescriptor | undefined {
    if (!node) {
        return undefined;
    }
    switch (node.$type) {
        case ast.ArrayType.$type: {
            const element = dataTypeOf(node.elementType);
            return element && Types.array(element);
        }
        case ast.MapType.$type: {
            const key = dataTypeOf(node.keyType);
            const value = dataTypeOf(node.valueType);
            return key && value && Types.map(key, value);
        }
        case ast.StructType.$type: {
            const fields: StructField[] = [];
            for (const f of node.fields) {
                const type = dataTypeOf(f.type);
                if (!type) {
                    return undefined;
                }
                fields.push({ name: f.name, type, nullable: !f.notNull, ...(f.comment !== undefined ? { comment: f.comment } : {}) });
            }
            return Types.struct(fields);
        }
        case ast.IntervalType.$type:
            return intervalTypeOf(node);
        case ast.PrimitiveType.$type:
            return primitiveTypeOf(node);
    }
}
