import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { clearDocuments } from 'langium/test';
import { lookaheadAmbiguities } from '../../../server/src/language/parser/pipeline-sql-parser-config.js';
import { createParser, createTestServices, sharedRoot } from '../../helpers/parse.js';

/**
 * Corpus conformance: every real-world pipeline file of the shared corpus parses without a syntax
 * error, as do the pipelines of the engine's golden cases. The corpus lives beside the repository
 * (`../shared`), not in it; without it these tests are skipped.
 */

const pipelinesRoot = path.join(sharedRoot, 'corpus', 'pipelines');
const goldenRoot = path.join(sharedRoot, 'golden');
const available = fs.existsSync(pipelinesRoot);
if (!available) {
    console.log(`Corpus conformance skipped: ${pipelinesRoot} does not exist (the shared folder is not in a clone of the repository).`);
}

/**
 * Files whose upstream text is not valid SQL, with the one error they must produce. Lakehouse Plumber's
 * `executive_dashboard_customer_metrics.sql` has a piece of its YAML configuration pasted into the
 * query (`target: v_customer_metrics_sql - name: top_products_sql type: load ...`).
 */
const knownInvalid: Record<string, string[]> = {
    'Mmodarre__Lakehouse_Plumber/Example_Projects__acmi__SQL__gld__executive_dashboard_customer_metrics.sql': [
        '[19:58..19:59]: Unexpected \':\': expected \';\' or the end of the file.',
    ],
};

function corpusFiles(): string[] {
    if (!available) {
        return [];
    }
    return fs.readdirSync(pipelinesRoot).flatMap(folder => {
        const dir = path.join(pipelinesRoot, folder);
        return fs.statSync(dir).isDirectory()
            ? fs.readdirSync(dir).filter(file => file.endsWith('.sql')).map(file => `${folder}/${file}`).sort()
            : [];
    });
}

function goldenCases(): string[] {
    return available && fs.existsSync(goldenRoot) ? fs.readdirSync(goldenRoot).filter(file => file.endsWith('.json')).sort() : [];
}

/** Lakehouse Plumber templates hold bare `{name}` holes (not `${name}` parameters); a name fills them. */
function fillTemplateHoles(text: string): string {
    return text.replace(/(?<!\$)\{(\w+)\}/g, (_hole, name: string) => name);
}

const { shared, services } = createTestServices();
const parse = createParser(services);

afterEach(() => clearDocuments(shared));

describe.skipIf(!available)('corpus conformance', () => {
    const ambiguitiesBefore = lookaheadAmbiguities.length;

    test('the corpus is where the tests expect it', () => {
        expect(corpusFiles().length).toBeGreaterThanOrEqual(40);
    });

    test.each(corpusFiles())('%s parses without syntax errors', async file => {
        const text = fillTemplateHoles(fs.readFileSync(path.join(pipelinesRoot, file), 'utf8'));
        const { diagnostics, statements } = await parse(text);
        expect(diagnostics).toEqual(knownInvalid[file] ?? []);
        expect(statements.length).toBeGreaterThan(0);
    });

    test.each(goldenCases())('the pipeline of golden case %s parses without syntax errors', async file => {
        const sql = (JSON.parse(fs.readFileSync(path.join(goldenRoot, file), 'utf8')) as { sql: string }).sql;
        const { diagnostics, statements } = await parse(sql);
        expect(diagnostics).toEqual([]);
        expect(statements.length).toBeGreaterThan(0);
    });

    afterAll(() => {
        // No input of the corpus is ambiguous for the grammar: the parser never had to guess.
        expect(lookaheadAmbiguities.slice(ambiguitiesBefore)).toEqual([]);
    });
});
