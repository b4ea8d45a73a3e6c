import { afterEach, describe, expect, test } from 'vitest';
import { allFunctions } from '../../../../engine/src/spark/functions/catalog.js';
import type { BuiltinFunction } from '../../../../engine/src/spark/functions/function-model.js';
import { translatesCall, translatesTableFunction } from '../../../../engine/src/sql/translate.js';
import { createPipelineTester } from '../../../helpers/pipeline.js';

/**
 * Functions the local engine cannot run (issue 11 item 3): a warning on each call before any run,
 * naming the function, and never an error; and the coverage rule that every function of the catalog
 * either translates or is reported.
 */

const tester = createPipelineTester();

afterEach(() => tester.clear());

const catalog = 'CREATE TABLE raw.events (id INT, y DOUBLE, x DOUBLE, tags ARRAY<INT>, ts TIMESTAMP);';

async function check(sql: string): Promise<string[]> {
    const p = await tester.load({ 'a.sql': sql }, { catalog, spec: {} });
    return p.diagnostics('a.sql');
}

const warning = (range: string, name: string): string =>
    `[${range}] warning PIPELINE_SQL_UNSUPPORTED_FUNCTION \`${name}\` is not available in the local engine: a local run that calls it stops before it starts (docs/functions.md lists what runs locally).`;

describe('a call of a function the local engine cannot run gets a warning naming it', () => {
    test('regr_slope(y, x) and a lambda function are warned about, as written; upper, cast and CASE are not', async () => {
        expect(await check(`CREATE MATERIALIZED VIEW fit AS
SELECT REGR_SLOPE(y, x) AS slope, upper('a') AS u, CAST(id AS STRING) AS s, CASE WHEN id > 0 THEN 1 END AS c,
  zip_with(tags, tags, (a, b) -> a + b) AS z
FROM raw.events GROUP BY tags;`)).toEqual([
            warning('2:8..2:18', 'REGR_SLOPE'),
            warning('3:3..3:11', 'zip_with'),
        ]);
    });

    test('like() and ilike() written as calls run locally (no warning), as the LIKE and ILIKE operators do', async () => {
        expect(await check('CREATE MATERIALIZED VIEW m AS SELECT like(CAST(id AS STRING), \'1%\') AS l, ilike(\'A\', \'a\') AS i, like(\'a%\', \'a/%\', \'/\') AS e FROM raw.events;'))
            .toEqual([]);
    });

    test('a call whose arguments the local engine cannot run is warned about with the reason: sha2 with 384 bits, to_json of a TIMESTAMP, ceil with a scale', async () => {
        const reason = (range: string, name: string, why: string): string =>
            `[${range}] warning PIPELINE_SQL_UNSUPPORTED_FUNCTION \`${name}\` is not available in the local engine with these arguments: ${why}; a local run refuses this call (docs/functions.md lists what runs locally).`;
        expect(await check(`CREATE MATERIALIZED VIEW m AS
SELECT sha2(CAST(id AS STRING), 384) AS h384, sha2(CAST(id AS STRING), 256) AS h256,
  to_json(named_struct('at', ts)) AS j1, to_json(named_struct('id', id)) AS j2, ceil(y, 1) AS c1, ceil(y) AS c0
FROM raw.events;`)).toEqual([
            reason('2:8..2:12', 'sha2', 'only sha2(x, 256) (or 0) has a DuckDB equivalent'),
            reason('3:3..3:10', 'to_json', 'a TIMESTAMP inside the value would be formatted differently from Spark; format it with date_format first'),
            reason('3:81..3:85', 'ceil', 'ceil and floor with a scale are not supported'),
        ]);
    });

    test('a table-valued function the engine cannot read is warned about in FROM (read_kafka); range is not', async () => {
        expect(await check(`CREATE STREAMING TABLE k AS SELECT * FROM STREAM read_kafka(bootstrapServers => 'h:9092', subscribe => 't');
CREATE MATERIALIZED VIEW r AS SELECT id FROM range(3);`)).toEqual([
            warning('1:50..1:60', 'read_kafka'),
        ]);
    });
});

/** A call of `fn` with its required parameters filled (NULLs, and `x -> x` for lambdas), in a query that can hold it. */
function statementCalling(fn: BuiltinFunction, index: number): string {
    const signature = fn.signatures[0];
    const args = (signature?.parameters ?? []).filter(p => !p.optional).map(p => (p.type.kind === 'lambda' ? 'x -> x' : 'NULL'));
    const call = `${fn.name}(${args.join(', ')})`;
    const name = `f${index}`;
    switch (fn.kind) {
        case 'table-valued':
        case 'generator':
            return `CREATE MATERIALIZED VIEW ${name} AS SELECT * FROM ${call};`;
        case 'window':
            return `CREATE MATERIALIZED VIEW ${name} AS SELECT ${call} OVER (ORDER BY id) AS c FROM raw.events;`;
        default:
            return `CREATE MATERIALIZED VIEW ${name} AS SELECT ${call} AS c FROM raw.events;`;
    }
}

describe('function coverage: every catalog function either runs locally or is reported before a run', () => {
    test('each function with a translation is one the engine translates; each without one gets the warning on a call', async () => {
        const functions = allFunctions();
        const unavailable = functions.filter(f => !f.local);
        const untranslated = functions.filter(f => f.local && f.local.kind !== 'native'
            && !(f.kind === 'generator' ? translatesTableFunction(f.name) : translatesCall(f.name)));
        expect(untranslated.map(f => f.name)).toEqual([]);

        const statements = unavailable.map(statementCalling);
        const p = await tester.load({ 'a.sql': statements.join('\n') }, { catalog, spec: {} });
        const warned = new Set(p.diagnostics('a.sql')
            .map(d => /warning PIPELINE_SQL_UNSUPPORTED_FUNCTION `([^`]+)` is not available in the local engine/.exec(d)?.[1])
            .filter((n): n is string => n !== undefined));
        const silent = unavailable.filter(f => !warned.has(f.name)).map(f => f.name);
        expect(silent, 'functions that neither run locally nor are reported').toEqual([]);
        console.log(`function coverage: ${functions.length - unavailable.length} of ${functions.length} catalog functions run locally; the other ${unavailable.length} are warned about`);
    });
});
