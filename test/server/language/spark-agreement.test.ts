import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { lookaheadAmbiguities } from '../../../server/src/language/parser/pipeline-sql-parser-config.js';
import { createTestServices, parseText, sharedRoot } from '../../helpers/parse.js';

/**
 * Spark agreement: Apache Spark's own SQL test statements, each with Spark's parse verdict
 * (`corpus/spark-sql-tests/statements.jsonl`, see its README). Every statement of kind `query` is parsed
 * on its own as a pipeline file (a file may hold a plain query). At least 95% of the queries Spark
 * accepts must parse without a syntax error; the output lists the ones that do not, and how many of the
 * queries Spark rejects are rejected here too (many of those are literal-value checks, not syntax).
 */

const statementsFile = path.join(sharedRoot, 'corpus', 'spark-sql-tests', 'statements.jsonl');
const available = fs.existsSync(statementsFile);
if (!available) {
    console.log(`Spark agreement skipped: ${statementsFile} does not exist (the shared folder is not in a clone of the repository).`);
}

/** The required share of Spark-accepted queries that must parse. */
const requiredAgreement = 0.95;

interface SparkStatement {
    file: string;
    index: number;
    sql: string;
    spark_parse: 'ok' | 'error';
    error_class: string | null;
    kind: 'query' | 'ddl' | 'dml' | 'other';
}

const { services } = createTestServices();

/** The first syntax error for a statement, or `undefined` when it parses. */
function firstError(sql: string): string | undefined {
    const result = parseText(services, sql);
    const error = result.lexerErrors[0]?.message ?? result.parserErrors[0]?.message;
    return error?.replace(/\s+/g, ' ');
}

function describeStatement(statement: SparkStatement): string {
    return `${statement.file}#${statement.index}: ${JSON.stringify(statement.sql.length > 110 ? `${statement.sql.slice(0, 110)}...` : statement.sql)}`;
}

describe.skipIf(!available)('agreement with Spark\'s parser on its own test queries', () => {
    test(`at least ${requiredAgreement * 100}% of the queries Spark accepts parse without syntax errors`, () => {
        const statements = fs.readFileSync(statementsFile, 'utf8').trim().split('\n')
            .map(line => JSON.parse(line) as SparkStatement)
            .filter(statement => statement.kind === 'query');
        const ambiguitiesBefore = lookaheadAmbiguities.length;

        const accepted = statements.filter(s => s.spark_parse === 'ok');
        const rejected = statements.filter(s => s.spark_parse === 'error');
        const disagreements = accepted
            .map(statement => ({ statement, error: firstError(statement.sql) }))
            .filter(result => result.error !== undefined);
        const alsoRejected = rejected.filter(statement => firstError(statement.sql) !== undefined);

        const agreement = (accepted.length - disagreements.length) / accepted.length;
        console.log([
            `Spark agreement: ${accepted.length - disagreements.length} of ${accepted.length} queries Spark accepts parse `
                + `(${(agreement * 100).toFixed(2)}%; required ${requiredAgreement * 100}%).`,
            `Of the ${rejected.length} queries Spark rejects, ${alsoRejected.length} are rejected here too `
                + '(the rest fail Spark\'s literal, interval and pipe-operator checks, which are not syntax here).',
            `Queries Spark accepts that do not parse here (${disagreements.length}):`,
            ...disagreements.map(({ statement, error }) => `  ${describeStatement(statement)}\n      ${error}`),
        ].join('\n'));

        expect(accepted.length).toBe(3024);
        expect(agreement).toBeGreaterThanOrEqual(requiredAgreement);
        // The grammar never had to guess between two readings of a Spark test query.
        expect(lookaheadAmbiguities.slice(ambiguitiesBefore)).toEqual([]);
    });
});
