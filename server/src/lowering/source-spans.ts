import type { AstNode, CstNode } from 'langium';
import { AstUtils, GrammarUtils } from 'langium';
import type { SourceSpan } from '../../../engine/src/index.js';

/** A span covering nothing in particular: used when a node has no text (recovered parse trees). */
function unknownSpan(file: string): SourceSpan {
    return { file, line: 1, column: 1, endLine: 1, endColumn: 1 };
}

/** The file system path of the document holding a node (the URI's path for non-file URIs). */
export function fileOf(node: AstNode): string {
    const uri = AstUtils.getDocument(node).uri;
    return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

/** The 1-based, end-exclusive span of a CST node in `file`. */
export function spanOfCst(file: string, cst: CstNode): SourceSpan {
    const { start, end } = cst.range;
    return { file, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

/**
 * The source span of a node (or of one of its properties, or of a keyword inside it), as the engine
 * IR carries it so that runtime errors point at the clause that caused them.
 */
export function spanOf(node: AstNode, property?: string): SourceSpan {
    const file = fileOf(node);
    const cst = property ? GrammarUtils.findNodeForProperty(node.$cstNode, property) ?? node.$cstNode : node.$cstNode;
    return cst ? spanOfCst(file, cst) : unknownSpan(file);
}

/** The span from the start of `first` to the end of `last` (both in one file). */
export function spanBetween(first: SourceSpan, last: SourceSpan): SourceSpan {
    return { file: first.file, line: first.line, column: first.column, endLine: last.endLine, endColumn: last.endColumn };
}
