import { ErrorClass } from '../../../engine/src/index.js';
import type { AstNode, CstNode, LeafCstNode } from 'langium';
import { CstUtils, GrammarUtils, isLeafCstNode } from 'langium';
import type { SourceSpan } from '../../../engine/src/index.js';
import { unescapeSparkString } from '../language/parser/pipeline-sql-value-converter.js';
import { LoweringError } from './lowering-error.js';
import { Issues } from '../language/validation/issue-codes.js';
import { spanOf, spanOfCst, fileOf } from './source-spans.js';
import type { PipelineParameters as ProjectParameters } from '../project/parameters.js';

/**
 * Pipeline parameters for the lowering: the project's one substitution
 * ({@link ProjectParameters}, `server/src/project/parameters.ts`), where a name that holds a
 * parameter without a value is an error at its place.
 */
export class PipelineParameters {

    constructor(readonly values: ProjectParameters) {}

    /** The value of a parameter: an exact key first, then a key that differs only in case. */
    lookup(name: string): string | undefined {
        return this.values.lookup(name);
    }

    /** Replaces every `${name}` of a name; a parameter without a value is an error at `span`. */
    substituteName(text: string, span: SourceSpan): string {
        return this.values.substitute(text, name => {
            throw new LoweringError(ErrorClass.unboundParameter, Issues.UnboundParameter.message({ name, text }), span);
        });
    }

    /** Replaces the `${name}` of a string literal that have a value and keeps the others as written (Spark does the same). */
    substituteString(text: string): string {
        return this.values.substitute(text);
    }
}

export { hasParameter } from '../project/parameters.js';

/** The value of one name token: back quotes removed, keywords as written. */
function leafText(leaf: LeafCstNode): string {
    if (leaf.tokenType.name === 'BACKTICK_ID') {
        return leaf.text.slice(1, -1).replaceAll('``', '`');
    }
    return leaf.text;
}

function stringTokenValue(leaf: LeafCstNode): string | undefined {
    switch (leaf.tokenType.name) {
        case 'STRING': return unescapeSparkString(leaf.text.slice(1, -1));
        case 'RAW_STRING': return leaf.text.slice(2, -1);
        default: return undefined;
    }
}

/** Splits a text on the dots that are outside `${...}` (the name an `IDENTIFIER('a.b')` clause spells). */
function splitOnDots(text: string): string[] {
    const parts: string[] = [];
    let current = '';
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '$' && text[i + 1] === '{') {
            depth++;
        } else if (c === '}' && depth > 0) {
            depth--;
        }
        if (c === '.' && depth === 0) {
            parts.push(current);
            current = '';
        } else {
            current += c;
        }
    }
    parts.push(current);
    return parts;
}

/**
 * The parts of a (possibly qualified) name from its CST node, parameters substituted: `a.b` →
 * `['a', 'b']`, `` `x.y`.z `` → `['x.y', 'z']`, `IDENTIFIER('a.b')` → `['a', 'b']`,
 * `${schema}.t` → the schema's value and `t`.
 */
export function namePartsOfCst(cst: CstNode, file: string, parameters: PipelineParameters): string[] {
    const leaves = CstUtils.streamCst(cst).filter((n): n is LeafCstNode => isLeafCstNode(n) && !n.hidden).toArray();
    const span = spanOfCst(file, cst);
    const parts: string[] = [];
    let group: LeafCstNode[] = [];
    const flush = (): void => {
        if (group.length === 0) {
            return;
        }
        if (group.length > 1 && group[0].text.toUpperCase() === 'IDENTIFIER' && group[1].text === '(') {
            // IDENTIFIER('a' || 'b'), IDENTIFIER(${p}), IDENTIFIER(:p): a name given by a constant.
            const inner = group.slice(2, -1);
            const strings = inner.map(stringTokenValue);
            let text: string;
            if (inner.length > 0 && inner.every((leaf, i) => strings[i] !== undefined || leaf.text === '||')) {
                text = strings.filter((s): s is string => s !== undefined).join('');
            } else if (inner.length === 1 && inner[0].tokenType.name === 'ID') {
                text = inner[0].text;
            } else {
                throw new LoweringError(ErrorClass.unsupportedFeature,
                    `The name ${group.map(l => l.text).join('')} is given by a query parameter, which a pipeline run cannot bind; write the name or a \${parameter}.`, span);
            }
            parts.push(...splitOnDots(parameters.substituteName(text, span)));
        } else {
            parts.push(...group.map(leaf => {
                const text = leafText(leaf);
                // A back-quoted part is taken literally; a plain one may hold a `${parameter}` standing for several parts.
                return leaf.tokenType.name === 'BACKTICK_ID' ? [text] : splitOnDots(parameters.substituteName(text, span));
            }).flat());
        }
        group = [];
    };
    for (const leaf of leaves) {
        if (leaf.text === '.' && group.length > 0 && !(group[0].text.toUpperCase() === 'IDENTIFIER' && group[group.length - 1].text !== ')')) {
            flush();
        } else {
            group.push(leaf);
        }
    }
    flush();
    return parts.filter(p => p.length > 0);
}

/** The parts of the name held by `property` of `node` (a dataset's or a CTE's name). */
export function nameParts(node: AstNode, property: string, parameters: PipelineParameters): string[] {
    const cst = GrammarUtils.findNodeForProperty(node.$cstNode, property);
    if (!cst) {
        const record = node as unknown as Record<string, unknown>;
        const value = Object.hasOwn(record, property) ? record[property] : undefined;
        return typeof value === 'string' ? splitOnDots(parameters.substituteName(value, spanOf(node))) : [];
    }
    return namePartsOfCst(cst, fileOf(node), parameters);
}

/** A name without the legacy `LIVE.` prefix (`LIVE.x` refers to the pipeline's own dataset `x`). */
export function withoutLive(parts: string[]): string[] {
    return parts.length > 1 && parts[0].toLowerCase() === 'live' ? parts.slice(1) : parts;
}
