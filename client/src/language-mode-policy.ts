/**
 * The rules around switching a document's language that do not need the VS Code API, kept apart so
 * that they are unit-tested: which `files.associations` pin a file to plain SQL, and whether an
 * "opened as sql" event is the user turning Pipeline SQL off for that document.
 */

/**
 * The `files.associations` globs that map files to `languageId`, as document-filter patterns.
 * VS Code matches a pattern without a `/` against the file name only, so those are prefixed with
 * "any folder" (a double star and a slash).
 */
export function associationPatterns(associations: Record<string, unknown>, languageId: string): string[] {
    return Object.entries(associations)
        .filter(([, language]) => language === languageId)
        .map(([glob]) => (glob.includes('/') ? glob : `**/${glob}`));
}

/**
 * Remembers documents that just stopped being Pipeline SQL. VS Code reports a language change as a
 * close immediately followed by an open of the same document, so an open as `sql` right after a close
 * as `pipeline-sql` is a deliberate switch (language picker or another extension) that we must not undo.
 */
export class LanguageSwitchMemory {
    private readonly closedAt = new Map<string, number>();

    // VS Code fires the close and the open of a language change in one go; the window is only slack.
    // It is short so that a real close and quick reopen ("Reopen Closed Editor") is detected again.
    constructor(private readonly windowMs = 500, private readonly now: () => number = Date.now) {}

    /** Notes that a document with this key was closed while in the Pipeline SQL mode. */
    closedAsPipelineSql(key: string): void {
        this.prune();
        this.closedAt.set(key, this.now());
    }

    /** Whether an open of this document as plain `sql` is a switch away from Pipeline SQL; forgets it. */
    isSwitchAway(key: string): boolean {
        const closed = this.closedAt.get(key);
        this.closedAt.delete(key);
        return closed !== undefined && this.now() - closed <= this.windowMs;
    }

    private prune(): void {
        const limit = this.now() - this.windowMs;
        for (const [key, time] of this.closedAt) {
            if (time < limit) {
                this.closedAt.delete(key);
            }
        }
    }
}
