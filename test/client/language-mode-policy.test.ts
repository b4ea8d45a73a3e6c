import { describe, expect, test } from 'vitest';
import { associationPatterns, LanguageSwitchMemory } from '../../client/src/language-mode-policy.js';

describe('associationPatterns', () => {
    test('keeps only the globs mapped to the language, anchoring bare file-name globs in any folder', () => {
        const associations = { '*.hql': 'sql', 'legacy/**/*.sql': 'sql', '*.sql': 'pipeline-sql', 'x.txt': 'plaintext' };
        expect(associationPatterns(associations, 'sql')).toEqual(['**/*.hql', 'legacy/**/*.sql']);
        expect(associationPatterns(associations, 'pipeline-sql')).toEqual(['**/*.sql']);
        expect(associationPatterns({}, 'sql')).toEqual([]);
    });
});

describe('LanguageSwitchMemory', () => {
    test('an open as sql right after a close as pipeline-sql is a switch away, answered once', () => {
        let now = 1000;
        const memory = new LanguageSwitchMemory(2000, () => now);
        memory.closedAsPipelineSql('file:///a.sql');
        now += 10;
        expect(memory.isSwitchAway('file:///a.sql')).toBe(true);
        // A later reopen of the same file is a fresh open, which detection may switch again.
        expect(memory.isSwitchAway('file:///a.sql')).toBe(false);
    });

    test('a close long before the open, or of another document, is not a switch', () => {
        let now = 0;
        const memory = new LanguageSwitchMemory(2000, () => now);
        memory.closedAsPipelineSql('file:///a.sql');
        now += 5000;
        expect(memory.isSwitchAway('file:///a.sql')).toBe(false);
        memory.closedAsPipelineSql('file:///b.sql');
        expect(memory.isSwitchAway('file:///c.sql')).toBe(false);
    });
});
