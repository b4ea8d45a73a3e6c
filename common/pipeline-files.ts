/**
 * Which SQL texts are pipeline SQL by their statements: the pure sniff that the VS Code client (to
 * switch a `.sql` file to the Pipeline SQL mode as soon as it has one) and the server's project
 * model (which `.sql` files of a folder without project file form a pipeline) share. Everything else
 * about what a pipeline is lives in the server's project model (`server/src/project/`).
 */

/**
 * The statements that only pipeline SQL has, as patterns over text whose comments, strings and
 * quoted names are blanked out. Each entry names the statement for messages.
 */
const PipelineStatementPatterns: ReadonlyArray<{ name: string; pattern: RegExp }> = [
    { name: 'CREATE STREAMING TABLE', pattern: /\bCREATE\s+(?:OR\s+REFRESH\s+)?(?:(?:PRIVATE|TEMPORARY)\s+)?STREAMING\s+(?:LIVE\s+)?TABLE\b/i },
    { name: 'CREATE MATERIALIZED VIEW', pattern: /\bMATERIALIZED\s+VIEW\b/i },
    { name: 'CREATE FLOW', pattern: /\bCREATE\s+(?:OR\s+REFRESH\s+)?FLOW\b/i },
    { name: 'AUTO CDC', pattern: /\bAUTO\s+CDC\b/i },
    { name: 'APPLY CHANGES INTO', pattern: /\bAPPLY\s+CHANGES\s+INTO\b/i },
    { name: 'CREATE LIVE TABLE', pattern: /\bCREATE\s+(?:OR\s+REFRESH\s+)?(?:(?:TEMPORARY|INCREMENTAL|STREAMING)\s+)?LIVE\s+(?:TABLE|VIEW)\b/i },
];

/**
 * Names the first pipeline-only statement in a SQL text (`CREATE STREAMING TABLE`, `CREATE FLOW`,
 * `MATERIALIZED VIEW`, `AUTO CDC`, `APPLY CHANGES INTO`, `CREATE LIVE TABLE/VIEW`), or returns
 * undefined when there is none. Words inside comments, strings and back-quoted names do not count.
 */
export function findPipelineStatement(text: string): string | undefined {
    const code = blankCommentsAndStrings(text);
    let first: { name: string; index: number } | undefined;
    for (const { name, pattern } of PipelineStatementPatterns) {
        const match = pattern.exec(code);
        if (match && (!first || match.index < first.index)) {
            first = { name, index: match.index };
        }
    }
    return first?.name;
}

/**
 * Replaces comments (`--`, `/* *\/`), string literals ('…', "…", with backslash escapes) and
 * back-quoted identifiers by spaces, keeping the text's length, so that keyword patterns only see code.
 */
export function blankCommentsAndStrings(text: string): string {
    const out: string[] = [];
    let i = 0;
    const n = text.length;
    while (i < n) {
        const c = text[i];
        const next = text[i + 1];
        let end = -1;
        if (c === '-' && next === '-') {
            end = text.indexOf('\n', i);
            end = end < 0 ? n : end;
        } else if (c === '/' && next === '*') {
            end = text.indexOf('*/', i + 2);
            end = end < 0 ? n : end + 2;
        } else if (c === '\'' || c === '"' || c === '`') {
            end = i + 1;
            while (end < n && text[end] !== c) {
                // Spark strings take backslash escapes; back-quoted names double the quote instead.
                end += c !== '`' && text[end] === '\\' ? 2 : 1;
            }
            end = Math.min(end + 1, n);
        }
        if (end < 0) {
            out.push(c);
            i++;
        } else {
            out.push(' '.repeat(end - i));
            i = end;
        }
    }
    return out.join('');
}

/**
 * Whether a SQL text defines something: a pipeline-only statement ({@link findPipelineStatement}) or
 * any other `CREATE` (a table, a view, a function). A `.sql` file in a pipeline's folder that is none
 * of its libraries and defines nothing is a scratch file: its queries and DML read and change the
 * pipeline's datasets. Words inside comments, strings and back-quoted names do not count.
 */
export function definesObjects(text: string): boolean {
    return findPipelineStatement(text) !== undefined || /\bCREATE\b/i.test(blankCommentsAndStrings(text));
}
