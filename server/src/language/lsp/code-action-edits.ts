/**
 * Small helpers for quick fixes: finding the AST node a diagnostic points at, and collecting text
 * edits (possibly in several documents) into one workspace edit.
 */
import type { AstNode, LangiumDocument } from 'langium';
import { CstUtils } from 'langium';
import type { Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';

/** The innermost node of type `T` at an offset of a document (walking up from the leaf there). */
export function nodeAt<T extends AstNode>(document: LangiumDocument, offset: number, guard: (node: AstNode) => node is T): T | undefined {
    const root = document.parseResult.value.$cstNode;
    const leaf = root ? CstUtils.findLeafNodeAtOffset(root, offset) : undefined;
    for (let node: AstNode | undefined = leaf?.astNode; node; node = node.$container) {
        if (guard(node)) {
            return node;
        }
    }
    return undefined;
}

/** The innermost node of type `T` that contains a whole range. */
export function nodeAtRange<T extends AstNode>(document: LangiumDocument, range: Range, guard: (node: AstNode) => node is T): T | undefined {
    const start = document.textDocument.offsetAt(range.start);
    const end = document.textDocument.offsetAt(range.end);
    let node = nodeAt(document, start, guard);
    while (node && node.$cstNode && node.$cstNode.end < end) {
        let parent: AstNode | undefined = node.$container;
        while (parent && !guard(parent)) {
            parent = parent.$container;
        }
        node = parent as T | undefined;
    }
    return node;
}

/** Collects text edits per document. */
export class EditCollector {

    private readonly changes = new Map<string, TextEdit[]>();

    /** Replaces a range of a document. */
    replace(document: LangiumDocument, range: Range, newText: string): this {
        const uri = document.uri.toString();
        const edits = this.changes.get(uri) ?? [];
        this.changes.set(uri, edits);
        edits.push({ range, newText });
        return this;
    }

    /** Inserts text at a position. */
    insert(document: LangiumDocument, position: Position, text: string): this {
        return this.replace(document, { start: position, end: position }, text);
    }

    /** Replaces a node's text. */
    replaceNode(node: AstNode, newText: string): this {
        return this.replace(node.$document ?? findDocument(node), node.$cstNode!.range, newText);
    }

    /** Removes a node's text together with the whitespace before it, so that no double blank is left. */
    removeNode(node: AstNode): this {
        const document = findDocument(node);
        const text = document.textDocument.getText();
        let start = node.$cstNode!.offset;
        while (start > 0 && /\s/.test(text[start - 1])) {
            start--;
        }
        return this.replace(document, { start: document.textDocument.positionAt(start), end: node.$cstNode!.range.end }, '');
    }

    /** Whether anything was collected. */
    get empty(): boolean {
        return this.changes.size === 0;
    }

    /** The workspace edit. */
    build(): WorkspaceEdit {
        return { changes: Object.fromEntries(this.changes) };
    }
}

/** The document of a node (its root's). */
export function findDocument(node: AstNode): LangiumDocument {
    let root: AstNode = node;
    while (root.$container) {
        root = root.$container;
    }
    const document = root.$document;
    if (!document) {
        throw new Error('The node belongs to no document.');
    }
    return document;
}

/** The whitespace a clause is preceded by in its list (`\n  ` on multi-line specs, else one space). */
export function clauseSeparator(document: LangiumDocument, node: AstNode): string {
    const text = document.textDocument.getText();
    let start = node.$cstNode!.offset;
    let separator = '';
    while (start > 0 && /\s/.test(text[start - 1])) {
        separator = text[start - 1] + separator;
        start--;
    }
    return separator.includes('\n') ? separator.slice(separator.lastIndexOf('\n')) : ' ';
}
