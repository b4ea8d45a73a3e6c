import type { LexerResult } from 'langium';

type Token = LexerResult['tokens'][number];

/**
 * How deeply expressions and queries may nest: levels of parentheses (calls and subqueries included),
 * brackets, CASE and type arguments, a subquery counting twice as it costs the parser about twice as
 * much. The parser is recursive descent; each level costs it 100 to 175 stack frames, and with Node's
 * default stack it takes 55 to 80 levels depending on the form. The limit leaves room for the callers'
 * frames and for the checks that walk the tree after it.
 */
export const maxNestingLevels = 40;

/** The cost units of one level; in a run of unary operators (`- - x`, `NOT NOT x`) each operator after the first costs one. */
const unitsPerLevel = 8;
const maxUnits = maxNestingLevels * unitsPerLevel;

/** Keywords that open a `<...>` type argument list. */
const typeKeywords = new Set(['ARRAY', 'MAP', 'STRUCT']);

/** Tokens that start a query right after `(`. */
const queryStarts = new Set(['SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE']);

/** Tokens that can be a prefix operator. */
const unaryOperators = new Set(['-', '+', '~', '!', 'NOT']);

/**
 * The message of the nesting diagnostic: with the levels counted, or (`counted` false) when the parser
 * ran out of stack on an expression the count let through.
 */
export function nestedTooDeeplyMessage(counted = true): string {
    const detail = counted
        ? `this expression has more than ${maxNestingLevels} levels of parentheses, calls, subqueries, CASE or brackets, more than the parser can take`
        : 'this expression nests more deeply than the parser can take';
    return `Nested too deeply: ${detail}. Move inner parts into a CTE or a view.`;
}

/** A statement cut out of the token stream because it nests too deeply. */
export interface TooDeepStatement {
    /** The first token of the expression that nests too deeply (its outermost open bracket). */
    start: Token;
    /** Whether the statement was cut by the count (not because the parser ran out of stack in it). */
    counted: boolean;
}

interface Open {
    /** `(`, `[`, `CASE`, `<`, or the statement itself. */
    kind: string;
    token: Token;
    /** The cost of the level itself. */
    base: number;
    /** The cost of the runs of unary operators directly inside it. */
    unary: number;
    /** The first operator of those runs. */
    firstUnary?: Token;
}

/**
 * Removes from `tokens` the statements (delimited by `;` and notebook cell breaks) that nest more than
 * {@link maxNestingLevels} levels, so that the parser, which would overflow its stack on them, sees an
 * empty statement instead, and the statements that hold a token at one of the `forced` offsets (where
 * the parser ran out of stack before). Returns the remaining tokens and, per removed statement, where
 * its too deep expression starts. One linear scan; the statements around a removed one parse as usual.
 */
export function cutTooDeepStatements(tokens: Token[], forced: ReadonlySet<number> = new Set()): { tokens: Token[]; cut: TooDeepStatement[] } {
    const cut: TooDeepStatement[] = [];
    let output: Token[] | undefined;
    let statementStart = 0;
    // The open levels; the first is the statement itself.
    const stack: Open[] = [];
    let units = 0;
    let unaryRun = 0;
    let tooDeep: Token | undefined;
    let counted = true;
    const startStatement = (index: number): void => {
        stack.length = 0;
        stack.push({ kind: 'statement', token: tokens[Math.min(index, tokens.length - 1)], base: 0, unary: 0 });
        units = 0;
        unaryRun = 0;
        tooDeep = undefined;
        counted = true;
        statementStart = index;
    };
    const endStatement = (end: number): void => {
        if (tooDeep) {
            output ??= tokens.slice(0, statementStart);
            cut.push({ start: tooDeep, counted });
        } else if (output) {
            for (let k = statementStart; k < end; k++) {
                output.push(tokens[k]);
            }
        }
    };
    startStatement(0);
    for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i];
        const name = token.tokenType.name;
        if (name === ';' || name === 'CELL_BREAK') {
            endStatement(i);
            output?.push(token);
            startStatement(i + 1);
            continue;
        }
        if (tooDeep) {
            continue;
        }
        const innermost = stack[stack.length - 1];
        // After a dot a keyword is a name (`t.end`, `s.case`).
        const afterDot = i > 0 && tokens[i - 1].tokenType.name === '.';
        unaryRun = unaryOperators.has(name) ? unaryRun + 1 : 0;
        if (unaryRun > 1) {
            innermost.unary++;
            innermost.firstUnary ??= tokens[i - 1];
            units++;
        }
        let opened: Open | undefined;
        if (name === '(' || name === '[') {
            const query = name === '(' && queryStarts.has(tokens[i + 1]?.tokenType.name ?? '');
            opened = { kind: name, token, base: query ? 2 * unitsPerLevel : unitsPerLevel, unary: 0 };
        } else if ((name === 'CASE' && !afterDot) || (name === '<' && i > 0 && typeKeywords.has(tokens[i - 1].tokenType.name))) {
            opened = { kind: name, token, base: unitsPerLevel, unary: 0 };
        } else if (name === ',') {
            // A comma ends an operand, and the unary operators in front of it.
            units -= innermost.unary;
            innermost.unary = 0;
            innermost.firstUnary = undefined;
        } else if (name === ')' || name === ']' || (name === 'END' && !afterDot) || (name === '>' && innermost.kind === '<')) {
            const expected = name === ')' ? '(' : name === ']' ? '[' : name === 'END' ? 'CASE' : '<';
            let at = stack.length - 1;
            while (at > 0 && stack[at].kind !== expected) {
                at--;
            }
            if (at > 0) {
                for (const open of stack.splice(at)) {
                    units -= open.base + open.unary;
                }
            }
        }
        if (opened) {
            stack.push(opened);
            units += opened.base;
        }
        if (units > maxUnits || forced.has(token.startOffset)) {
            tooDeep = stack[1]?.token ?? stack[0].firstUnary ?? token;
            counted = units > maxUnits;
        }
    }
    endStatement(tokens.length);
    return { tokens: output ?? tokens, cut };
}
