/**
 * The shape of a relation (a table, a query result, a FROM item) as schema inference sees it: its
 * columns with Spark types, and whether that list is complete. An incomplete relation (a table of
 * the real catalog, a `SELECT *` over one, a PIVOT) may have more columns than listed, so a name
 * missing from it is never reported as an error.
 */
import type { AstNode } from 'langium';
import { field, typeToSql, typeToString, Types, type StructField, type TypeDescriptor } from '../../../../engine/src/spark/spark-types.js';

/** One column of a relation. */
export interface Column {
    readonly name: string;
    readonly type: TypeDescriptor;
    readonly nullable: boolean;
    /** Where the column is declared or computed (a column definition, a select item), when known. */
    readonly node?: AstNode;
}

/** The columns of a relation. */
export interface RelationType {
    readonly columns: readonly Column[];
    /** False when the relation may have columns that are not listed (its source is unknown). */
    readonly complete: boolean;
    /** Columns a query may name but `*` does not list, such as the file metadata column `_metadata`. */
    readonly hidden?: readonly Column[];
}

/** A relation nothing is known about. */
export const UnknownRelation: RelationType = Object.freeze({ columns: [], complete: false });

/** A relation with these columns. */
export function relationOf(columns: readonly Column[], complete = true, hidden?: readonly Column[]): RelationType {
    return hidden && hidden.length > 0 ? { columns, complete, hidden } : { columns, complete };
}

/** A nullable column. */
export function column(name: string, type: TypeDescriptor, node?: AstNode, nullable = true): Column {
    // A partial tree (after a syntax error) may lack the name.
    name ??= '';
    return node ? { name, type, nullable, node } : { name, type, nullable };
}

/** Columns from struct fields (a parsed schema string, inferred file columns). */
export function columnsOf(fields: readonly StructField[], node?: AstNode): Column[] {
    return fields.map(f => column(f.name, f.type, node, f.nullable));
}

/** The relation as struct fields (for TypeDescriptor consumers). */
export function fieldsOf(relation: RelationType): StructField[] {
    return relation.columns.map(c => field(c.name, c.type, c.nullable));
}

/** The column of this name (case-insensitive), listed or hidden. */
export function findColumn(relation: RelationType, name: string): Column | undefined {
    const key = (name ?? '').toLowerCase();
    return relation.columns.find(c => c.name.toLowerCase() === key) ?? relation.hidden?.find(c => c.name.toLowerCase() === key);
}

/** `name type, …` in Spark's display form, with `, …` when incomplete: for hovers, tests and digests. */
export function printRelation(relation: RelationType): string {
    const columns = relation.columns.map(c => `${c.name} ${typeToString(c.type)}`);
    if (!relation.complete) {
        columns.push('…');
    }
    return columns.join(', ');
}

/** The relation as a DDL column list (`a INT, b STRING`), for quick fixes that declare a schema. */
export function relationToDdl(relation: RelationType): string {
    return relation.columns.map(c => `${c.name} ${typeToSql(c.type)}`).join(', ');
}

/** The hidden file metadata column Spark adds to file-based and Delta table scans. */
export const MetadataColumn: Column = column('_metadata', Types.struct([
    ['file_path', Types.string], ['file_name', Types.string], ['file_size', Types.bigint],
    ['file_block_start', Types.bigint], ['file_block_length', Types.bigint], ['file_modification_time', Types.timestamp],
]));

/** The column names of a relation for messages: `a, b, c` (at most 12, then `…`). */
export function columnNames(relation: RelationType, max = 12): string {
    const names = relation.columns.map(c => c.name);
    const shown = names.slice(0, max).join(', ');
    return names.length > max || !relation.complete ? `${shown}${shown ? ', ' : ''}…` : shown;
}
