import type { AstNode } from 'langium';
import { type DataType, ErrorClass } from '../../../engine/src/index.js';
import { isLocallyStorable, Types } from '../../../engine/src/spark/spark-types.js';
import { dataTypeOf, intervalTypeOf, primitiveTypeOf } from '../language/types/data-types.js';
import * as ast from '../language/generated/ast.js';
import { LoweringError } from './lowering-error.js';
import { spanOf } from './source-spans.js';

/** Collations that compare as the engine does (byte-wise); any other collation changes results. */
const binaryCollations = new Set(['UTF8_BINARY', 'BINARY']);

/** Checks that a COLLATE clause keeps Spark's default comparison, which is all the engine implements. */
export function checkCollation(node: AstNode, collation: string | undefined, property = 'collation'): void {
    if (collation !== undefined && !binaryCollations.has(collation.toUpperCase())) {
        throw new LoweringError(ErrorClass.unsupportedFeature,
            `The collation '${collation}' cannot run locally: the local engine compares strings byte by byte (UTF8_BINARY).`, spanOf(node, property));
    }
}

/**
 * Lowers a data type of the AST (`DECIMAL(10,2)`, `ARRAY<STRUCT<a: INT>>`, `INTERVAL DAY TO SECOND`)
 * to the IR: the editor's reading of it (`dataTypeOf`), after the checks of what the local engine runs
 * (a byte-wise collation, no TIME), each reported at its place. The engine compares strings byte by
 * byte only, so a binary collation is dropped.
 */
export function lowerDataType(node: ast.DataType): DataType {
    checkRunnable(node);
    const type = dataTypeOf(node);
    if (!type) {
        // checkRunnable names the part that is no Spark type; this is a safety net.
        throw new LoweringError(ErrorClass.unsupportedFeature, `Unknown data type '${node.$cstNode?.text ?? ''}'.`, spanOf(node));
    }
    return withoutCollations(type);
}

/** Refuses, at its place, the first part of a type that the local engine cannot run. */
function checkRunnable(node: ast.DataType): void {
    switch (node.$type) {
        case ast.ArrayType.$type:
            return checkRunnable(node.elementType);
        case ast.MapType.$type:
            checkRunnable(node.keyType);
            return checkRunnable(node.valueType);
        case ast.StructType.$type:
            return node.fields.forEach(f => checkRunnable(f.type));
        case ast.IntervalType.$type:
            if (!intervalTypeOf(node)) {
                throw new LoweringError(ErrorClass.unsupportedFeature, `Unknown data type '${node.$cstNode?.text ?? 'INTERVAL'}'.`, spanOf(node));
            }
            return;
        case ast.PrimitiveType.$type: {
            checkCollation(node, node.collation);
            const name = node.name.toUpperCase();
            if (name === 'TIME') {
                throw new LoweringError(ErrorClass.unsupportedFeature, 'The TIME type cannot run locally; use TIMESTAMP or STRING.', spanOf(node));
            }
            const type = primitiveTypeOf(node);
            if (!type || !isLocallyStorable(type)) {
                const text = node.args.length > 0 ? `${name}(${node.args.join(', ')})` : name;
                throw new LoweringError(ErrorClass.unsupportedFeature, `Unknown data type '${text}'.`, spanOf(node));
            }
        }
    }
}

/** The type with binary collations dropped from its strings (the only collation the engine runs). */
function withoutCollations(type: DataType): DataType {
    switch (type.kind) {
        case 'string': return type.collation === undefined ? type : Types.string;
        case 'array': return Types.array(withoutCollations(type.element));
        case 'map': return Types.map(withoutCollations(type.key), withoutCollations(type.value));
        case 'struct': return Types.struct(type.fields.map(f => ({ ...f, type: withoutCollations(f.type) })));
        default: return type;
    }
}
