import { describe, expect, test } from 'vitest';
import { getKeywordDoc, KEYWORD_DOC_IDS, KEYWORD_DOCS, keywordHoverMarkdown, normalizeClauseId } from '../../../../server/src/language/builtins/keyword-docs.js';

/** Every clause the brief of the hover feature names; each must have documentation. */
const REQUIRED_CLAUSES = [
    'CREATE STREAMING TABLE', 'CREATE MATERIALIZED VIEW', 'CREATE TEMPORARY VIEW', 'PRIVATE', 'CREATE FLOW', 'AUTO CDC', 'AUTO CDC ONCE',
    'APPLY CHANGES', 'FROM SNAPSHOT', 'WITH VERSION', 'KEYS', 'SEQUENCE BY', 'SYSTEM SEQUENCE BY', 'IGNORE NULL UPDATES',
    'APPLY AS DELETE WHEN', 'APPLY AS TRUNCATE WHEN', 'COLUMNS', 'COLUMNS TO UPDATE', 'STORED AS', 'SCD TYPE 1', 'SCD TYPE 2', 'BITEMPORAL',
    'TRACK HISTORY ON', 'INSERT INTO', 'INSERT ONCE INTO', 'BY NAME', 'REPLACE USING', 'REPLACE WHERE', 'CONSTRAINT', 'EXPECT',
    'ON VIOLATION', 'DROP ROW', 'FAIL UPDATE', 'STREAM', 'LIVE', 'READ_FILES', 'CURRENT_SNAPSHOT_VERSION', 'LAST_SNAPSHOT_VERSION',
    'PARTITIONED BY', 'CLUSTER BY', 'TBLPROPERTIES', 'WITH ROW FILTER', '__START_AT', '__END_AT', '__SYSTEM_START_AT', '__SYSTEM_END_AT',
];

describe('keyword documentation', () => {
    test('every required clause id is documented', () => {
        expect(REQUIRED_CLAUSES.filter(id => getKeywordDoc(id) === undefined)).toEqual([]);
    });

    test('ids are canonical and unique, and every entry is filled in', () => {
        expect(new Set(KEYWORD_DOC_IDS).size).toBe(KEYWORD_DOC_IDS.length);
        for (const doc of KEYWORD_DOCS) {
            expect(normalizeClauseId(doc.id), doc.id).toBe(doc.id);
            expect(doc.syntax.trim(), doc.id).not.toBe('');
            expect(doc.summary, doc.id).toMatch(/^[A-Z_].*[.)]$/s);
            expect(doc.example.trim(), doc.id).not.toBe('');
            expect(['yes', '4.2', 'no']).toContain(doc.spark);
            for (const other of doc.seeAlso ?? []) {
                expect(getKeywordDoc(other), `${doc.id} → ${other}`).toBeDefined();
            }
        }
    });

    test('lookups ignore case, spacing and other spellings', () => {
        expect(getKeywordDoc('sequence   by')?.id).toBe('SEQUENCE BY');
        expect(getKeywordDoc('Stored As SCD Type 2')?.id).toBe('SCD TYPE 2');
        expect(getKeywordDoc('APPLY CHANGES INTO')?.id).toBe('APPLY CHANGES');
        expect(getKeywordDoc('current_snapshot_version()')?.id).toBe('CURRENT_SNAPSHOT_VERSION');
        expect(getKeywordDoc('CREATE OR REFRESH STREAMING TABLE')?.id).toBe('CREATE STREAMING TABLE');
        expect(getKeywordDoc('SELECT')).toBeUndefined();
    });

    test('the defaults of the AUTO CDC clauses follow the specification', () => {
        expect(getKeywordDoc('STORED AS')?.whenOmitted).toBe('SCD TYPE 1.');
        expect(getKeywordDoc('IGNORE NULL UPDATES')?.whenOmitted).toContain('a NULL in an update overwrites the stored value');
        expect(getKeywordDoc('TRACK HISTORY ON')?.whenOmitted).toContain('TRACK HISTORY ON *');
        expect(getKeywordDoc('COLUMNS')?.whenOmitted).toContain('Every source column');
        expect(getKeywordDoc('KEYS')?.whenOmitted).toContain('Required');
        expect(getKeywordDoc('SEQUENCE BY')?.whenOmitted).toContain('Required in the change-feed form');
        expect(getKeywordDoc('AUTO CDC ONCE')?.whenOmitted).toContain('read as a stream on every update');
    });

    test('availability follows the open-source status of the specification', () => {
        expect(getKeywordDoc('CREATE MATERIALIZED VIEW')?.spark).toBe('yes');
        expect(getKeywordDoc('SEQUENCE BY')?.spark).toBe('4.2');
        for (const id of ['APPLY AS TRUNCATE WHEN', 'COLUMNS TO UPDATE', 'BITEMPORAL', 'FROM SNAPSHOT', 'REPLACE USING', 'REPLACE WHERE', 'CONSTRAINT', 'PRIVATE', 'LIVE']) {
            expect(getKeywordDoc(id)?.spark, id).toBe('no');
        }
    });

    test('the hover for SEQUENCE BY explains, shows an example and availability', () => {
        const md = keywordHoverMarkdown('sequence by')!;
        expect(md).toContain('**SEQUENCE BY**');
        expect(md).toContain('```sql\nSEQUENCE BY column | STRUCT(column, column, …)\n```');
        expect(md).toContain('Orders the change events of each key');
        expect(md).toContain('**When omitted:** Required in the change-feed form; not allowed in FROM SNAPSHOT.');
        expect(md).toContain('SEQUENCE BY STRUCT(event_ts, event_seq)');
        expect(md).toContain('**Availability:** (in Apache Spark from the 4.2 line).');
        expect(keywordHoverMarkdown('NOT A CLAUSE')).toBeUndefined();
    });
});
