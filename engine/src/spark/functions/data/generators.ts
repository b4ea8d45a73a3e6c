/** Generators (one row in, several rows out) and the table-valued functions of Apache Spark. */
import type { FunctionGroup } from '../function-model.js';
import { native } from '../local.js';

/** Generators: usable in SELECT, LATERAL VIEW and, since Spark 3.4, FROM. */
export const GENERATOR_FUNCTIONS: FunctionGroup = {
    category: 'generator',
    defs: [
        ['explode(collection: array|map) -> @explode', 'One row per array element (column col) or per map entry (columns key and value); empty or NULL input gives no row.',
            'SELECT explode(array(\'x\', \'y\')) → rows \'x\', \'y\'', { namedArguments: true,
                local: { kind: 'generator', min: 1, max: 1 },
            }],
        ['explode_outer(collection: array|map) -> @explode', 'Like explode, but an empty or NULL input gives one row of NULLs.',
            'SELECT explode_outer(array()) → one row NULL', { namedArguments: true,
                local: { kind: 'generator', min: 1, max: 1 },
            }],
        ['inline(input: array) -> @inline', 'One row per struct of the array, one column per struct field.',
            'SELECT inline(array(struct(7, \'x\'), struct(8, \'y\'))) → (7, x), (8, y)', { namedArguments: true,
                local: { kind: 'generator', min: 1, max: 1 },
            }],
        ['inline_outer(input: array) -> @inline', 'Like inline, but an empty or NULL array gives one row of NULLs.',
            'SELECT inline_outer(array()) → one row of NULLs', { namedArguments: true,
                local: { kind: 'generator', min: 1, max: 1 },
            }],
        ['json_tuple(jsonStr: string, fields+: const string) -> @jsonTuple', 'Extracts several top-level fields of a JSON object at once, as string columns c0, c1, ….',
            'SELECT json_tuple(\'{"a": 1, "b": "x"}\', \'a\', \'b\') → (\'1\', \'x\')'],
        ['posexplode(collection: array|map) -> @posexplode', 'Like explode, with an extra column pos holding the 0-based position.',
            'SELECT posexplode(array(\'x\', \'y\')) → (0, x), (1, y)', { namedArguments: true,
                local: { kind: 'generator', min: 1, max: 1 },
            }],
        ['posexplode_outer(collection: array|map) -> @posexplode', 'Like posexplode, but an empty or NULL input gives one row of NULLs.',
            'SELECT posexplode_outer(NULL) → one row (NULL, NULL)', { namedArguments: true,
                local: { kind: 'generator', min: 1, max: 1 },
            }],
        ['stack(n: const int, fields+: any) -> @stack', 'Spreads the values over n rows, filling columns col0, col1, … in order.',
            'SELECT stack(2, \'a\', 1, \'b\', 2) → (a, 1), (b, 2)'],
    ],
};

/** Table-valued functions of Apache Spark, used in FROM. */
export const TABLE_FUNCTIONS: FunctionGroup = {
    category: 'table',
    defs: [
        ['collations() -> struct<CATALOG:string,SCHEMA:string,NAME:string,LANGUAGE:string,COUNTRY:string,ACCENT_SENSITIVITY:string,CASE_SENSITIVITY:string,PAD_ATTRIBUTE:string,ICU_VERSION:string>',
            'Lists the string collations the engine supports.', 'SELECT name FROM collations() → UTF8_BINARY, UTF8_LCASE, UNICODE, …'],
        [['range(end: bigint) -> struct<id:bigint>', 'range(start: bigint, end: bigint, step?: bigint, numPartitions?: int) -> struct<id:bigint>'],
            'Rows with a single BIGINT column id counting from start (0 by default) up to end, exclusive, by step.',
            'SELECT id FROM range(1, 7, 2) → 1, 3, 5',
            { local: native('a relation in FROM') }],
        ['sql_keywords() -> struct<keyword:string,reserved:boolean>', 'Lists the SQL keywords and whether each is reserved.',
            'SELECT * FROM sql_keywords() WHERE keyword = \'SELECT\' → (SELECT, false)'],
        ['variant_explode(input: variant) -> struct<pos:int,key:string,value:variant>',
            'One row per element of a VARIANT array or field of a VARIANT object, with its position, key (objects only) and value.',
            'SELECT * FROM variant_explode(parse_json(\'{"a": 1}\')) → (0, a, 1)', { namedArguments: true }],
        ['variant_explode_outer(input: variant) -> struct<pos:int,key:string,value:variant>',
            'Like variant_explode, but a NULL or non-container input gives one row of NULLs.',
            'SELECT * FROM variant_explode_outer(parse_json(\'1\')) → (NULL, NULL, NULL)', { namedArguments: true }],
    ],
};
