import type { AstNode } from 'langium';
import { parseSparkType, type DataType, type StructField, ErrorClass } from '../../../engine/src/index.js';
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

/** Lowers a data type of the AST (`DECIMAL(10,2)`, `ARRAY<STRUCT<a: INT>>`, `INTERVAL DAY TO SECOND`) to the IR. */
export function lowerDataType(node: ast.DataType): DataType {
    switch (node.$type) {
        case ast.ArrayType.$type:
            return { kind: 'array', element: lowerDataType(node.elementType) };
        case ast.MapType.$type:
            return { kind: 'map', key: lowerDataType(node.keyType), value: lowerDataType(node.valueType) };
        case ast.StructType.$type:
            return {
                kind: 'struct',
                fields: node.fields.map(field => {
                    const out: StructField = { name: field.name, type: lowerDataType(field.type) };
                    if (field.notNull) {
                        out.notNull = true;
                    }
                    if (field.comment !== undefined) {
                        out.comment = field.comment;
                    }
                    return out;
                }),
            };
        case ast.IntervalType.$type: {
            const unit = (node.to ?? node.from ?? 'SECOND').toUpperCase().replace(/S$/, '');
            return { kind: 'interval', range: unit === 'YEAR' || unit === 'MONTH' ? 'year_month' : 'day_time' };
        }
        case ast.PrimitiveType.$type: {
            checkCollation(node, node.collation);
            const name = node.name.toUpperCase();
            if (name === 'TIME') {
                throw new LoweringError(ErrorClass.unsupportedFeature, 'The TIME type cannot run locally; use TIMESTAMP or STRING.', spanOf(node));
            }
            const text = node.args.length > 0 ? `${name}(${node.args.join(', ')})` : name;
            try {
                return parseSparkType(text);
            } catch {
                // The engine's type parser names the offending text; ours names the place as well.
                throw new LoweringError(ErrorClass.unsupportedFeature, `Unknown data type '${text}'.`, spanOf(node));
            }
        }
    }
}
