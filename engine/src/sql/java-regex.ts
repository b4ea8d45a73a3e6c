// Spark's regexp_replace replacement strings (java.util.regex.Matcher#appendReplacement) → DuckDB's
// (RE2 rewrite strings). Java: `$n` is group n, `\c` is the character c, any other `$` is an error.
// RE2: `\n` is group n, `\\` is a backslash, every other character stands for itself.

/** A replacement parsed into what it writes: literal text and group references. */
export type ReplacementPart = { kind: 'text'; text: string } | { kind: 'group'; index: number };

/** A Java replacement string that Java would reject, with Java's message. */
export interface ReplacementError {
    error: string;
}

/**
 * Parses a Java replacement string. `groupCount` (when known) decides how many digits a group
 * reference takes, as Java does: the first digit always, each further one while the number stays a
 * group of the pattern.
 */
export function parseJavaReplacement(text: string, groupCount?: number): ReplacementPart[] | ReplacementError {
    const parts: ReplacementPart[] = [];
    let literal = '';
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '\\') {
            if (i + 1 >= text.length) {
                return { error: 'character to be escaped is missing' };
            }
            literal += text[++i];
        } else if (c === '$') {
            if (i + 1 >= text.length) {
                return { error: 'Illegal group reference: group index is missing' };
            }
            if (text[i + 1] === '{') {
                return { error: 'named-group references (${name}) are not supported by the local engine' };
            }
            if (!/[0-9]/.test(text[i + 1])) {
                return { error: 'Illegal group reference' };
            }
            let index = Number(text[++i]);
            while (groupCount !== undefined && i + 1 < text.length && /[0-9]/.test(text[i + 1]) && index * 10 + Number(text[i + 1]) <= groupCount) {
                index = index * 10 + Number(text[++i]);
            }
            if (groupCount !== undefined && index > groupCount) {
                return { error: `No group ${index}` };
            }
            if (literal) {
                parts.push({ kind: 'text', text: literal });
                literal = '';
            }
            parts.push({ kind: 'group', index });
        } else {
            literal += c;
        }
    }
    if (literal) {
        parts.push({ kind: 'text', text: literal });
    }
    return parts;
}

/** The RE2 rewrite string of parsed parts; undefined when a group number has no RE2 form (10 and above). */
export function re2Rewrite(parts: readonly ReplacementPart[]): string | undefined {
    let out = '';
    for (const part of parts) {
        if (part.kind === 'group') {
            if (part.index > 9) {
                return undefined;
            }
            out += `\\${part.index}`;
        } else {
            out += part.text.split('\\').join('\\\\');
        }
    }
    return out;
}

/**
 * The number of capturing groups of a regular expression (Java / RE2 syntax): `(` not escaped, not
 * in a character class, and not `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?>`, flags; named groups count.
 */
export function captureGroupCount(pattern: string): number {
    let count = 0;
    let inClass = false;
    for (let i = 0; i < pattern.length; i++) {
        const c = pattern[i];
        if (c === '\\') {
            if (pattern[i + 1] === 'Q') {
                const end = pattern.indexOf('\\E', i + 2);
                i = end < 0 ? pattern.length : end + 1;
            } else {
                i++;
            }
        } else if (inClass) {
            if (c === ']') {
                inClass = false;
            }
        } else if (c === '[') {
            inClass = true;
            if (pattern[i + 1] === ']' || (pattern[i + 1] === '^' && pattern[i + 2] === ']')) {
                i += pattern[i + 1] === '^' ? 2 : 1;
            }
        } else if (c === '(') {
            if (pattern[i + 1] !== '?') {
                count++;
            } else if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
                count++;
            } else if (pattern[i + 2] === 'P' && pattern[i + 3] === '<') {
                count++;
            }
        }
    }
    return count;
}
