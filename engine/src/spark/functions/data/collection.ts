/** Array, map and struct functions, including the higher-order (lambda) ones. */
import type { FunctionGroup } from '../function-model.js';
import { native, scalar, unlessArguments, any, sql, join, ident, isIntegral, toDuckType, type Sql } from '../local.js';

/** Functions on arrays (and size/element_at, which also take maps). */
export const ARRAY_FUNCTIONS: FunctionGroup = {
    category: 'array',
    defs: [
        [['aggregate(expr: array, start: any, merge: lambda($1, elem($0))) -> $1',
            'aggregate(expr: array, start: any, merge: lambda($1, elem($0)), finish: lambda($1)) -> $3'],
        'Folds the array into one value: starts from start, combines it with each element through merge, then optionally applies finish.',
        'aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x) → 6', { aliases: ['reduce'],
            local: {
                kind: 'scalar', min: 3, max: 4,
                sql: c => (c.args.length === 3
                    ? sql`list_reduce(${c.a[0]}, ${c.a[2]}, ${c.a[1]})`
                    : sql`list_transform([list_reduce(${c.a[0]}, ${c.a[2]}, ${c.a[1]})], ${c.a[3]})[1]`),
            },
        }],
        ['array(elements*: any) -> array($*)', 'Builds an array from its arguments, converted to their common type.', 'array(1, 2, 3) → [1, 2, 3]',
            { local: scalar(0, any, c => sql`[${c.all}]`) }],
        ['array_append(array: array, element: any) -> array(common(elem($0), $1))', 'Adds an element at the end of the array.',
            'array_append(array(\'a\', \'b\'), \'c\') → [\'a\', \'b\', \'c\']',
            { local: scalar(2, 2, c => sql`list_append(${c.a[0]}, ${c.a[1]})`) }],
        ['array_compact(array: array) -> $0', 'Drops the NULL elements of the array.', 'array_compact(array(1, NULL, 3)) → [1, 3]',
            { local: scalar(1, 1, c => sql`list_filter(${c.a[0]}, lambda __x: __x IS NOT NULL)`) }],
        ['array_contains(array: array, value: any) -> boolean', 'Tells whether the array holds the value.', 'array_contains(array(\'x\', \'y\'), \'y\') → true',
            { local: scalar(2, 2, c => sql`list_contains(${c.a[0]}, ${c.a[1]})`) }],
        ['array_distinct(array: array) -> $0', 'Removes repeated elements, keeping the first occurrence of each.', 'array_distinct(array(3, 1, 3)) → [3, 1]',
            { local: scalar(1, 1, c => sql`__psql_array_distinct(${c.a[0]})`) }],
        ['array_except(array1: array, array2: array) -> common($0, $1)', 'Elements of the first array that are not in the second, without repeats.',
            'array_except(array(1, 2, 3), array(2)) → [1, 3]',
            { local: scalar(2, 2, c => sql`__psql_array_distinct(list_filter(${c.a[0]}, lambda __x: NOT coalesce(list_contains(${c.a[1]}, __x), false)))`) }],
        ['array_insert(x: array, pos: int, val: any) -> array(common(elem($0), $2))',
            'Inserts a value at a 1-based position (negative counts from the end), padding with NULLs when beyond the end.',
            'array_insert(array(\'a\', \'c\'), 2, \'b\') → [\'a\', \'b\', \'c\']'],
        ['array_intersect(array1: array, array2: array) -> common($0, $1)', 'Elements present in both arrays, without repeats.',
            'array_intersect(array(1, 2, 3), array(3, 2, 9)) → [2, 3]',
            { local: scalar(2, 2, c => sql`__psql_array_distinct(list_filter(${c.a[0]}, lambda __x: list_contains(${c.a[1]}, __x)))`) }],
        ['array_join(array: array, delimiter: string, nullReplacement?: string) -> string',
            'Joins the elements into one string with a delimiter; NULL elements are skipped unless a replacement is given.',
            'array_join(array(\'a\', NULL, \'c\'), \'-\', \'?\') → \'a-?-c\'',
            {
                local: scalar(2, 3, c => (c.args.length === 2
                    ? sql`array_to_string(${c.a[0]}, ${c.a[1]})`
                    : sql`array_to_string(list_transform(${c.a[0]}, lambda __x: coalesce(CAST(__x AS VARCHAR), ${c.a[2]})), ${c.a[1]})`)),
            }],
        ['array_max(array: array) -> elem($0)', 'Largest non-NULL element of the array.', 'array_max(array(4, 11, 2)) → 11',
            { local: scalar(1, 1, c => sql`list_max(${c.a[0]})`) }],
        ['array_min(array: array) -> elem($0)', 'Smallest non-NULL element of the array.', 'array_min(array(4, 11, 2)) → 2',
            { local: scalar(1, 1, c => sql`list_min(${c.a[0]})`) }],
        ['array_position(array: array, element: any) -> bigint', '1-based position of the first occurrence of the element, or 0 when absent.',
            'array_position(array(\'a\', \'b\', \'b\'), \'b\') → 2',
            { local: scalar(2, 2, c => sql`CAST(coalesce(list_position(${c.a[0]}, ${c.a[1]}), 0) AS BIGINT)`) }],
        ['array_prepend(array: array, element: any) -> array(common(elem($0), $1))', 'Adds an element at the start of the array.',
            'array_prepend(array(2, 3), 1) → [1, 2, 3]',
            { local: scalar(2, 2, c => sql`list_prepend(${c.a[1]}, ${c.a[0]})`) }],
        ['array_remove(array: array, element: any) -> $0', 'Removes every element equal to the value.', 'array_remove(array(1, 2, 1), 1) → [2]',
            { local: scalar(2, 2, c => sql`list_filter(${c.a[0]}, lambda __x: __x IS DISTINCT FROM ${c.a[1]})`) }],
        ['array_repeat(element: any, count: int) -> array($0)', 'Array holding the element the given number of times.', 'array_repeat(\'ab\', 3) → [\'ab\', \'ab\', \'ab\']',
            { local: scalar(2, 2, c => sql`list_transform(range(CAST(${c.a[1]} AS BIGINT)), lambda __x: ${c.a[0]})`) }],
        ['array_size(expr: array) -> int', 'Number of elements of the array (NULL for a NULL array).', 'array_size(array(7, 8)) → 2',
            { local: scalar(1, 1, c => sql`CAST(len(${c.a[0]}) AS INTEGER)`) }],
        ['array_sort(expr: array, func?: lambda(elem($0), elem($0))) -> $0',
            'Sorts the array ascending with NULLs last, or with a comparator returning a negative, zero or positive number.',
            'array_sort(array(3, NULL, 1)) → [1, 3, NULL]',
            { local: scalar(1, 1, c => sql`list_sort(${c.a[0]}, 'ASC', 'NULLS LAST')`) }],
        ['array_union(array1: array, array2: array) -> common($0, $1)', 'Elements of either array, without repeats.',
            'array_union(array(1, 2), array(2, 5)) → [1, 2, 5]',
            { local: scalar(2, 2, c => sql`__psql_array_distinct(${c.a[0]} || ${c.a[1]})`) }],
        ['arrays_overlap(a1: array, a2: array) -> boolean', 'True when the two arrays share at least one non-NULL element.',
            'arrays_overlap(array(1, 2), array(2, 9)) → true',
            { local: scalar(2, 2, c => sql`len(list_filter(${c.a[0]}, lambda __x: list_contains(${c.a[1]}, __x))) > 0`) }],
        ['arrays_zip(arrays+: array) -> @arraysZip', 'Pairs up the arrays position by position into an array of structs.',
            'arrays_zip(array(1, 2), array(\'a\', \'b\')) → [{0: 1, 1: \'a\'}, {0: 2, 1: \'b\'}]'],
        ['element_at(array: array|map, index: any) -> elem($0)',
            'Element at a 1-based index (negative counts from the end) of an array, or the value stored under a key of a map.',
            'element_at(array(\'a\', \'b\', \'c\'), -1) → \'c\'',
            {
                local: scalar(2, 2, c => (c.args[0].type?.kind === 'map'
                    ? sql`map_extract_value(${c.a[0]}, ${c.a[1]})`
                    : sql`__psql_element_at(${c.a[0]}, ${c.a[1]})`)),
            }],
        ['exists(expr: array, pred: lambda(elem($0))) -> boolean', 'True when the predicate holds for at least one element.',
            'exists(array(1, 4, 7), x -> x > 5) → true',
            { local: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_bool_or(list_transform(${c.a[0]}, ${c.a[1]}))` } }],
        ['filter(expr: array, func: lambda(elem($0), int)) -> $0', 'Keeps the elements for which the predicate holds (the lambda may also take the index).',
            'filter(array(1, 4, 7), x -> x % 2 = 1) → [1, 7]',
            { local: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_filter(${c.a[0]}, ${c.a[1]})`, indexParam: true } }],
        ['flatten(arrayOfArrays: array) -> elem($0)', 'Concatenates an array of arrays into one array.', 'flatten(array(array(1), array(2, 3))) → [1, 2, 3]',
            { local: scalar(1, 1, c => sql`flatten(${c.a[0]})`) }],
        ['forall(expr: array, pred: lambda(elem($0))) -> boolean', 'True when the predicate holds for every element.',
            'forall(array(2, 4), x -> x % 2 = 0) → true',
            { local: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_bool_and(list_transform(${c.a[0]}, ${c.a[1]}))` } }],
        ['get(array: array, index: int) -> elem($0)', 'Element at a 0-based index, or NULL when out of range.', 'get(array(\'a\', \'b\'), 1) → \'b\'',
            { local: scalar(2, 2, c => sql`__psql_get(${c.a[0]}, ${c.a[1]})`) }],
        ['sequence(start: integral|datetime, stop: integral|datetime, step?: integral|interval) -> array(common($0, $1))',
            'Array of values from start to stop inclusive, by step (1, -1, or one day by default).',
            'sequence(1, 9, 4) → [1, 5, 9]',
            {
                local: scalar(2, 3, c => {
                    const start = c.args[0].type;
                    if (start && (start.kind === 'date' || start.kind === 'timestamp')) {
                        const step = c.args.length === 3 ? c.args[2].sql : sql`INTERVAL 1 DAY`;
                        const cast = start.kind === 'date' ? sql`DATE[]` : sql`TIMESTAMP[]`;
                        return sql`CAST(generate_series(CAST(${c.args[0].sql} AS TIMESTAMP), CAST(${c.args[1].sql} AS TIMESTAMP), ${step}) AS ${cast})`;
                    }
                    const step = c.args.length === 3 ? c.args[2].sql : sql`CASE WHEN ${c.a[0]} <= ${c.a[1]} THEN 1 ELSE -1 END`;
                    const series = sql`generate_series(${c.args[0].sql}, ${c.args[1].sql}, ${step})`;
                    return start && isIntegral(start) ? sql`CAST(${series} AS ${toDuckType(start)}[])` : series;
                }),
            }],
        ['shuffle(array: array, seed?: const bigint) -> $0', 'Returns the elements in a random order.', 'shuffle(array(1, 2, 3)) → [3, 1, 2] (varies)',
            { nondeterministic: true }],
        ['size(expr: array|map) -> int', 'Number of elements of an array or entries of a map (-1 or NULL for NULL input, depending on settings).',
            'size(map(\'a\', 1, \'b\', 2)) → 2', { aliases: ['cardinality'],
                local: scalar(1, 1, c => (c.args[0].type?.kind === 'map' ? sql`CAST(cardinality(${c.a[0]}) AS INTEGER)` : sql`CAST(len(${c.a[0]}) AS INTEGER)`)),
            }],
        ['slice(x: array, start: int, length: int) -> $0', 'Sub-array starting at a 1-based position (negative counts from the end) with at most length elements.',
            'slice(array(1, 2, 3, 4), 2, 2) → [2, 3]',
            { local: scalar(3, 3, c => sql`__psql_slice(${c.a[0]}, ${c.a[1]}, ${c.a[2]})`) }],
        ['sort_array(array: array, ascendingOrder?: const boolean) -> $0', 'Sorts the array ascending (NULLs first) or descending (NULLs last).',
            'sort_array(array(\'b\', \'a\'), false) → [\'b\', \'a\']',
            {
                local: unlessArguments(
                    args => (args.length === 2 && typeof args[1].literal !== 'boolean' ? 'the sort direction must be TRUE or FALSE as written' : undefined),
                    scalar(1, 2, c => (c.args.length === 1 || c.literalArg(1) === true
                        ? sql`list_sort(${c.a[0]}, 'ASC', 'NULLS FIRST')` : sql`list_sort(${c.a[0]}, 'DESC', 'NULLS LAST')`))),
            }],
        ['transform(expr: array, func: lambda(elem($0), int)) -> array($1)', 'Applies the lambda to every element (and optionally its index).',
            'transform(array(1, 2), x -> x * 10) → [10, 20]',
            { local: { kind: 'scalar', min: 2, max: 2, sql: c => sql`list_transform(${c.a[0]}, ${c.a[1]})`, indexParam: true } }],
        ['try_element_at(array: array|map, index: any) -> elem($0)', 'Like element_at, but gives NULL instead of an error for an index out of range.',
            'try_element_at(array(1, 2), 5) → NULL',
            {
                local: scalar(2, 2, c => (c.args[0].type?.kind === 'map'
                    ? sql`map_extract_value(${c.a[0]}, ${c.a[1]})`
                    : sql`CASE WHEN ${c.a[1]} = 0 OR abs(${c.a[1]}) > len(${c.a[0]}) THEN NULL WHEN ${c.a[1]} > 0 THEN ${c.a[0]}[${c.a[1]}] ELSE ${c.a[0]}[len(${c.a[0]}) + ${c.a[1]} + 1] END`)),
            }],
        ['zip_with(left: array, right: array, func: lambda(elem($0), elem($1))) -> array($2)',
            'Combines two arrays element by element with a lambda, padding the shorter one with NULLs.',
            'zip_with(array(1, 2), array(10, 20), (a, b) -> a + b) → [11, 22]'],
    ],
};

/** Functions that build or take apart maps. */
export const MAP_FUNCTIONS: FunctionGroup = {
    category: 'map',
    defs: [
        ['map(keysAndValues*: any) -> @map', 'Builds a map from alternating key and value arguments.', 'map(\'a\', 1, \'b\', 2) → {a -> 1, b -> 2}',
            {
                local: scalar(0, any, c => {
                    if (c.args.length % 2 !== 0) {
                        c.unsupported('map() needs an even number of arguments');
                    }
                    if (c.args.length === 0) {
                        return sql`MAP {}`;
                    }
                    const keys = c.args.filter((_, i) => i % 2 === 0).map(a => a.sql);
                    const values = c.args.filter((_, i) => i % 2 === 1).map(a => a.sql);
                    return sql`map([${join(keys)}], [${join(values)}])`;
                }),
            }],
        ['map_concat(maps*: map) -> $*', 'Merges several maps into one.', 'map_concat(map(1, \'a\'), map(2, \'b\')) → {1 -> a, 2 -> b}',
            { local: scalar(1, any, c => sql`map_concat(${c.all})`) }],
        ['map_contains_key(map: map, key: any) -> boolean', 'Tells whether the map has an entry for the key.', 'map_contains_key(map(\'k\', 0), \'k\') → true',
            { local: scalar(2, 2, c => sql`map_contains(${c.a[0]}, ${c.a[1]})`) }],
        ['map_entries(map: map) -> @mapEntries', 'Turns a map into an array of (key, value) structs.', 'map_entries(map(\'a\', 1)) → [{key: \'a\', value: 1}]',
            { local: scalar(1, 1, c => sql`map_entries(${c.a[0]})`) }],
        ['map_filter(expr: map, func: lambda(key($0), value($0))) -> $0', 'Keeps the entries for which the predicate on key and value holds.',
            'map_filter(map(\'a\', 1, \'b\', 5), (k, v) -> v > 2) → {b -> 5}'],
        ['map_from_arrays(keys: array, values: array) -> map(elem($0), elem($1))', 'Builds a map from an array of keys and an array of values of the same length.',
            'map_from_arrays(array(\'x\', \'y\'), array(1, 2)) → {x -> 1, y -> 2}',
            { local: scalar(2, 2, c => sql`map(${c.a[0]}, ${c.a[1]})`) }],
        ['map_from_entries(arrayOfEntries: array) -> @mapFromEntries', 'Builds a map from an array of two-field (key, value) structs.',
            'map_from_entries(array(struct(\'k\', 9))) → {k -> 9}',
            { local: scalar(1, 1, c => sql`map_from_entries(${c.a[0]})`) }],
        ['map_keys(map: map) -> array(key($0))', 'The keys of the map as an array, in no particular order.', 'map_keys(map(\'a\', 1, \'b\', 2)) → [\'a\', \'b\']',
            { local: scalar(1, 1, c => sql`map_keys(${c.a[0]})`) }],
        ['map_values(map: map) -> array(value($0))', 'The values of the map as an array, in no particular order.', 'map_values(map(\'a\', 1, \'b\', 2)) → [1, 2]',
            { local: scalar(1, 1, c => sql`map_values(${c.a[0]})`) }],
        ['map_zip_with(map1: map, map2: map, func: lambda(key($0), value($0), value($1))) -> map(key($0), $2)',
            'Merges two maps key by key with a lambda over the key and both values (NULL where a map lacks the key).',
            'map_zip_with(map(1, \'a\'), map(1, \'b\'), (k, v1, v2) -> concat(v1, v2)) → {1 -> ab}'],
        ['str_to_map(text: string, pairDelim?: const string, keyValueDelim?: const string) -> map<string,string>',
            'Splits a string into key-value pairs (by default "," between pairs and ":" between key and value).',
            'str_to_map(\'a:1,b:2\') → {a -> \'1\', b -> \'2\'}',
            {
                local: scalar(1, 3, c => {
                    const pairDelim = c.args[1]?.sql ?? sql`','`;
                    const kvDelim = c.args[2]?.sql ?? sql`':'`;
                    const entry = sql`struct_pack(key := string_split_regex(__kv, ${kvDelim})[1], value := string_split_regex(__kv, ${kvDelim})[2])`;
                    return sql`map_from_entries(list_transform(string_split_regex(${c.args[0].sql}, ${pairDelim}), lambda __kv: ${entry}))`;
                }),
            }],
        ['transform_keys(expr: map, func: lambda(key($0), value($0))) -> map($1, value($0))', 'Computes a new key for every entry of the map.',
            'transform_keys(map(\'a\', 1), (k, v) -> upper(k)) → {A -> 1}'],
        ['transform_values(expr: map, func: lambda(key($0), value($0))) -> map(key($0), $1)', 'Computes a new value for every entry of the map.',
            'transform_values(map(\'a\', 1), (k, v) -> v * 100) → {a -> 100}'],
    ],
};

/** Functions that build structs. */
export const STRUCT_FUNCTIONS: FunctionGroup = {
    category: 'struct',
    defs: [
        ['named_struct(namesAndValues+: any) -> @namedStruct', 'Builds a struct from alternating field-name literals and values.',
            'named_struct(\'id\', 7, \'tag\', \'x\') → {id: 7, tag: \'x\'}',
            {
                local: scalar(0, any, c => {
                    if (c.args.length % 2 !== 0) {
                        c.unsupported('named_struct() needs name/value pairs');
                    }
                    const fields: Sql[] = [];
                    for (let i = 0; i < c.args.length; i += 2) {
                        const name = c.stringArg(i) ?? c.unsupported('field names must be string literals');
                        fields.push(sql`${ident(name)} := ${c.args[i + 1].sql}`);
                    }
                    return sql`struct_pack(${join(fields)})`;
                }),
            }],
        ['struct(cols*: any) -> @struct', 'Builds a struct from its arguments, naming fields after the columns (col1, col2, … otherwise).',
            'struct(id, name) → {id: 7, name: \'Ann\'}',
            { local: native('translated by name: a struct named after its arguments') }],
    ],
};
