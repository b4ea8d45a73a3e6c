/**
 * The one glob matcher of the project: `libraries` globs of spark-pipeline.yml and bundle resource
 * files, and a bundle's `include` globs. It never builds a regular expression from the pattern, so
 * no pattern can make it backtrack exponentially (a `libraries` glob with many `*` was a ReDoS with
 * the regular expression this replaces, and is one with picomatch too: `*a*a*a*a*a*a*a*a*a*a*b`
 * against 40 letters took 63 s there). Matching is the classic wildcard walk that only ever goes back
 * to the last star, on characters within a path segment and on segments for `**`: at most
 * (pattern length × path length) steps.
 *
 * Syntax: `*` any run of characters but `/`, `?` one character, `[abc]` / `[a-z]` / `[!x]` a class,
 * `**` as a whole segment any number of folders, `{a,b}` alternatives (nested; at most
 * {@link MaxAlternatives}), `\` escapes the next character. A pattern naming a folder
 * (`transformations/`, or a path that matches a folder of the file) matches every file below it.
 */

/** More alternatives than this from `{...}` make the glob invalid (a bound on work per file). */
export const MaxAlternatives = 256;

/** A compiled glob: whether a `/`-separated path relative to the glob's base matches. */
export interface Glob {
    readonly pattern: string;
    matches(relativePath: string): boolean;
    /** The leading folders without wildcards (`src/pipelines` for `src/pipelines/**`): where a walk can start. */
    readonly base: string;
    /** True when the pattern has no wildcard at all (a plain path). */
    readonly literal: boolean;
}

/** Why a glob cannot be used. */
export class GlobError extends Error {
    override readonly name = 'GlobError';
}

/** Normalises a pattern: `\` on Windows-style paths to `/`, a leading `./` dropped, a trailing `/` means everything below. */
export function normalizeGlob(pattern: string): string {
    let g = pattern.trim().replace(/^(\.\/)+/, '');
    if (g.endsWith('/')) {
        g += '**';
    }
    return g;
}

/** Compiles a glob; throws {@link GlobError} for an unbalanced `{` or too many alternatives. */
export function compileGlob(pattern: string): Glob {
    const normalized = normalizeGlob(pattern);
    const segmentsOf = expandBraces(normalized).map(alt => alt.split('/').filter(s => s !== '' && s !== '.'));
    const literal = !/[*?[{]/.test(normalized.replace(/\\./g, ''));
    const firstWild = normalized.split('/').findIndex(s => /[*?[{]/.test(s));
    const base = (firstWild < 0 ? normalized.split('/') : normalized.split('/').slice(0, firstWild)).join('/');
    return {
        pattern,
        base: literal ? normalized : base,
        literal,
        matches(relativePath: string): boolean {
            const path = relativePath.replace(/\\/g, '/').replace(/^(\.\/)+/, '').split('/').filter(s => s !== '');
            return segmentsOf.some(segments => matchPath(segments, path));
        },
    };
}

/**
 * Whether path segments match pattern segments, where a pattern that matches a leading part of the
 * path (a folder) matches too. Star-over-segments walk, going back only to the last `**`.
 */
function matchPath(pattern: readonly string[], path: readonly string[]): boolean {
    let p = 0;
    let s = 0;
    let starP = -1;
    let starS = 0;
    for (;;) {
        if (p === pattern.length) {
            // The whole pattern matched a prefix of the path: a folder and everything below it.
            if (s > 0 || path.length === 0) {
                return true;
            }
        } else if (pattern[p] === '**') {
            starP = p++;
            starS = s;
            continue;
        } else if (s < path.length && matchSegment(pattern[p], path[s])) {
            p++;
            s++;
            continue;
        }
        if (starP < 0 || starS >= path.length) {
            return false;
        }
        // Let the last `**` take one more segment and try again from there.
        p = starP + 1;
        s = ++starS;
    }
}

/** Whether one path segment matches one pattern segment (`*`, `?`, classes, escapes). */
export function matchSegment(pattern: string, text: string): boolean {
    let p = 0;
    let t = 0;
    let starP = -1;
    let starT = 0;
    while (t < text.length) {
        if (p < pattern.length && pattern[p] === '*') {
            while (pattern[p] === '*') {
                p++;
            }
            starP = p;
            starT = t;
            continue;
        }
        const step = p < pattern.length ? matchOne(pattern, p, text[t]) : -1;
        if (step > 0) {
            p += step;
            t++;
            continue;
        }
        if (starP < 0) {
            return false;
        }
        p = starP;
        t = ++starT;
    }
    while (pattern[p] === '*') {
        p++;
    }
    return p === pattern.length;
}

/** How many pattern characters match the character `c` at `p` (0: no match). */
function matchOne(pattern: string, p: number, c: string): number {
    const ch = pattern[p];
    if (ch === '?') {
        return 1;
    }
    if (ch === '\\' && p + 1 < pattern.length) {
        return pattern[p + 1] === c ? 2 : 0;
    }
    if (ch === '[') {
        const end = classEnd(pattern, p);
        if (end > 0) {
            return matchClass(pattern.slice(p + 1, end), c) ? end - p + 1 : 0;
        }
    }
    return ch === c ? 1 : 0;
}

/** The index of the `]` closing a class that opens at `p`, or -1 when the `[` is a plain character. */
function classEnd(pattern: string, p: number): number {
    let i = p + 1;
    if (pattern[i] === '!' || pattern[i] === '^') {
        i++;
    }
    if (pattern[i] === ']') {
        i++;
    }
    while (i < pattern.length && pattern[i] !== ']') {
        i++;
    }
    return i < pattern.length ? i : -1;
}

function matchClass(body: string, c: string): boolean {
    const negated = body[0] === '!' || body[0] === '^';
    const items = negated ? body.slice(1) : body;
    let found = false;
    for (let i = 0; i < items.length; i++) {
        if (items[i + 1] === '-' && i + 2 < items.length) {
            if (c >= items[i] && c <= items[i + 2]) {
                found = true;
            }
            i += 2;
        } else if (items[i] === c) {
            found = true;
        }
    }
    return found !== negated;
}

/** Expands `{a,b}` alternatives (nested); `\{` is literal. */
export function expandBraces(pattern: string): string[] {
    const open = findBrace(pattern);
    if (open < 0) {
        return [pattern];
    }
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < pattern.length; i++) {
        const c = pattern[i];
        if (c === '\\') {
            i++;
        } else if (c === '{') {
            depth++;
        } else if (c === '}') {
            depth--;
            if (depth === 0) {
                close = i;
                break;
            }
        } else if (c === ',' && depth === 1) {
            commas.push(i);
        }
    }
    if (close < 0) {
        throw new GlobError(`The glob '${pattern}' has a '{' without its '}'.`);
    }
    const head = pattern.slice(0, open);
    const tail = pattern.slice(close + 1);
    const bounds = [open, ...commas, close];
    const parts = bounds.slice(0, -1).map((b, i) => pattern.slice(b + 1, bounds[i + 1]));
    if (parts.length === 1) {
        // `{a}` is not an alternative: keep the braces as written.
        return expandBraces(tail).map(t => `${head}{${parts[0]}}${t}`);
    }
    const tails = expandBraces(tail);
    const result: string[] = [];
    for (const part of parts) {
        for (const inner of expandBraces(part)) {
            for (const t of tails) {
                result.push(head + inner + t);
                if (result.length > MaxAlternatives) {
                    throw new GlobError(`The glob '${pattern}' stands for more than ${MaxAlternatives} alternatives.`);
                }
            }
        }
    }
    return result;
}

function findBrace(pattern: string): number {
    for (let i = 0; i < pattern.length; i++) {
        if (pattern[i] === '\\') {
            i++;
        } else if (pattern[i] === '{') {
            return i;
        }
    }
    return -1;
}
