/**
 * Text helpers shared by the editor features: how names are written back into SQL, how dataset kinds
 * and relations are shown, and offset/range conversions for CST nodes. No Langium services here.
 */
import type { LangiumDocument } from 'langium';
import type { Range } from 'vscode-languageserver';
import { typeToString } from '../../../../engine/src/spark/spark-types.js';
import type { DatasetKind } from '../pipeline/pipeline-model.js';
import type { RelationType } from '../types/relation-type.js';

/** Words that are names only when back-quoted (the grammar's `ReservedKeyword` rule). */
export const ReservedWords: ReadonlySet<string> = new Set([
    'ALL', 'AND', 'AS', 'BETWEEN', 'BOTH', 'BY', 'CASE', 'CAST', 'CONSTRAINT', 'CREATE', 'DISTINCT', 'ELSE', 'END', 'EXCEPT', 'FALSE', 'FOR',
    'FROM', 'IN', 'INTERSECT', 'INTERVAL', 'INTO', 'IS', 'LATERAL', 'LEADING', 'NOT', 'NULL', 'ON', 'OR', 'SELECT', 'THEN', 'TRAILING',
    'TRUE', 'TRY_CAST', 'UNBOUNDED', 'UNION', 'VALUES', 'WHEN', 'WHERE', 'WITH',
]);

/** A name as it must be written in SQL: back-quoted unless it is a plain identifier that is not reserved. */
export function quoteName(name: string): string {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !ReservedWords.has(name.toUpperCase())) {
        return name;
    }
    if (/^\$\{[^}]*\}$/.test(name)) {
        return name;
    }
    return '`' + name.replaceAll('`', '``') + '`';
}

/** How a dataset kind reads in hovers, outlines and completion details. */
export function datasetKindLabel(kind: DatasetKind): string {
    switch (kind) {
        case 'streaming-table': return 'streaming table';
        case 'materialized-view': return 'materialized view';
        case 'temporary-view': return 'temporary view';
        case 'view': return 'view';
        case 'managed-table': return 'managed table';
    }
}

/** A relation as a Markdown table of columns and types (`…` when more columns may exist). */
export function relationTable(relation: RelationType, limit = 40): string {
    if (relation.columns.length === 0) {
        return relation.complete ? '_No columns._' : '_Columns unknown (the source is outside the pipeline and its sample catalog)._';
    }
    const rows = relation.columns.slice(0, limit).map(c => `| ${escapeMarkdown(c.name)} | ${tableCell(codeSpan(typeToString(c.type)))} |`);
    if (relation.columns.length > limit) {
        rows.push(`| … ${relation.columns.length - limit} more | |`);
    }
    if (!relation.complete) {
        rows.push('| … | (more columns may exist) |');
    }
    return ['| column | type |', '|---|---|', ...rows].join('\n');
}

/** Line breaks of every kind (a name or a comment may hold them; Markdown would start a new block). */
const lineBreaks = /\r\n|[\n\r\u2028\u2029]/g;

/**
 * Text as Markdown that renders as exactly that text, on one line: every ASCII punctuation character
 * is backslash-escaped (CommonMark allows it for all of them), so that no name, comment or message
 * from the workspace can open a link, an image, HTML, emphasis, a table cell or an autolink.
 */
export function escapeMarkdown(text: string): string {
    return text.replace(lineBreaks, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * Text as a Markdown code span that shows it literally, whatever it holds: the fence is longer than
 * any run of backticks inside, padded with a space when the text starts or ends with a backtick or
 * a space, and line breaks (which could end the span's paragraph) become spaces.
 */
export function codeSpan(text: string): string {
    const flat = text.replace(lineBreaks, ' ');
    if (flat === '') {
        return '` `';
    }
    let longest = 0;
    for (const run of flat.match(/`+/g) ?? []) {
        longest = Math.max(longest, run.length);
    }
    const fence = '`'.repeat(longest + 1);
    const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
    return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Inline Markdown made safe inside a table cell, where a `|` ends the cell even in a code span. */
function tableCell(markdown: string): string {
    return markdown.replaceAll('|', '\\|');
}

/** A link destination that Markdown reads to its end: the characters that could end or break it are percent-encoded. */
export function linkTarget(uri: string): string {
    return uri.replace(/[\s()<>\\`[\]]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The LSP range of offsets in a document. */
export function rangeOf(document: LangiumDocument, start: number, end: number): Range {
    return { start: document.textDocument.positionAt(start), end: document.textDocument.positionAt(end) };
}

/**
 * The offsets of the last part of a dotted name written at `offset` (`orders` in `LIVE.orders` or
 * `sch.orders`); dots inside back quotes and `${...}` parameters do not split.
 */
export function lastPartOffsets(text: string, offset: number): { start: number; end: number } {
    let depth = 0;
    let quoted = false;
    let last = -1;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '`') {
            quoted = !quoted;
        } else if (!quoted && c === '{' && text[i - 1] === '$') {
            depth++;
        } else if (!quoted && c === '}' && depth > 0) {
            depth--;
        } else if (!quoted && depth === 0 && c === '.') {
            last = i;
        }
    }
    const tail = text.substring(last + 1);
    const trimmed = tail.trim();
    const start = offset + last + 1 + (tail.length - tail.trimStart().length);
    return { start, end: start + trimmed.length };
}
