// Evaluates IR queries and expressions with the translator on a scratch DuckDB database, for
// tests of the Spark → DuckDB translation.
import { Database } from '../../../engine/src/db/database.js';
import { toJsonValue, type JsonValue } from '../../../engine/src/db/values.js';
import { EngineError } from '../../../engine/src/errors.js';
import type { ExprIR, QueryIR } from '../../../engine/src/ir.js';
import type { Sql } from '../../../engine/src/sql/sql.js';
import { SparkTranslator } from '../../../engine/src/sql/translate.js';

/** The result of an evaluation: rows of JSON values, or the error class and message. */
export type Evaluation = { rows: JsonValue[][]; columns: string[]; sql: string } | { error: string; message: string; sql?: string };

/** A scratch database with the engine's session settings and macros. */
export class Evaluator {
    private constructor(private readonly db: Database) {}

    static async open(): Promise<Evaluator> {
        return new Evaluator(await Database.open(':memory:'));
    }

    /** Translates and runs a query. */
    async query(query: QueryIR): Promise<Evaluation> {
        let sql: Sql | undefined;
        try {
            const translator = new SparkTranslator({
                now: { date: '2024-05-06', timestamp: '2024-05-06 07:08:09' },
                resolveTable: relation => {
                    throw new Error(`no tables in function tests: ${JSON.stringify(relation.source)}`);
                },
            });
            sql = translator.query(query).sql;
            const result = await this.db.query(sql);
            return { rows: result.rows.map(row => row.map(toJsonValue)), columns: result.columns.map(c => c.name), sql };
        } catch (error) {
            if (error instanceof EngineError) {
                return { error: error.code, message: error.message, sql };
            }
            throw error;
        }
    }

    /** Evaluates `SELECT expr AS r` and returns the values of column r. */
    async expr(expr: ExprIR): Promise<Evaluation> {
        return this.query({ kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'expr', expr, alias: 'r' }], from: [] } });
    }

    close(): void {
        this.db.close();
    }
}
