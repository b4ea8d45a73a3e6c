/** Functions for JSON, CSV, XML, VARIANT, Avro, Protobuf and URLs. */
import type { FunctionGroup } from '../function-model.js';
import { scalar, unlessArguments, schemaArg, jsonStructure, hasTimestamp, sql, str } from '../local.js';

/** JSON functions (json_tuple is a generator, in generators.ts). */
export const JSON_FUNCTIONS: FunctionGroup = {
    category: 'json',
    defs: [
        ['from_json(jsonStr: string, schema: const string, options?: map) -> @schemaArg(1)', 'Parses JSON text into a struct (or array or map) of the given DDL schema; bad records give NULL fields.',
            'from_json(\'{"id": 7}\', \'id INT\') → {id: 7}',
            {
                local: scalar(2, 3, c => {
                    const type = schemaArg(c, 1);
                    return sql`CASE WHEN json_valid(${c.args[0].sql}) THEN json_transform(${c.args[0].sql}, ${str(JSON.stringify(jsonStructure(type)))}) END`;
                }),
            }],
        ['get_json_object(json_txt: string, path: string) -> string', 'Extracts the value at a JSON path (\'$.a.b[0]\') as text, or NULL.',
            'get_json_object(\'{"a": {"b": 5}}\', \'$.a.b\') → \'5\'',
            { local: scalar(2, 2, c => sql`__psql_json_get(${c.a[0]}, ${c.a[1]})`) }],
        ['json_array_length(jsonArray: string) -> int', 'Number of elements of the outermost JSON array, or NULL.', 'json_array_length(\'[1, [2, 3], 4]\') → 3',
            { local: scalar(1, 1, c => sql`CASE WHEN json_valid(${c.a[0]}) THEN CAST(json_array_length(${c.a[0]}) AS INTEGER) END`) }],
        ['json_object_keys(json_object: string) -> array<string>', 'Keys of the outermost JSON object.', 'json_object_keys(\'{"a": 1, "b": 2}\') → [\'a\', \'b\']',
            { local: scalar(1, 1, c => sql`CASE WHEN json_valid(${c.a[0]}) THEN json_keys(${c.a[0]}) END`) }],
        ['schema_of_json(json: const string, options?: map) -> string', 'DDL schema inferred from a JSON example.',
            'schema_of_json(\'{"a": 1, "b": [true]}\') → \'STRUCT<a: BIGINT, b: ARRAY<BOOLEAN>>\''],
        ['to_json(expr: any, options?: map) -> string', 'Serialises a struct, array, map or variant to JSON text.', 'to_json(named_struct(\'a\', 1)) → \'{"a":1}\'',
            {
                // DuckDB writes timestamps as `yyyy-MM-dd HH:mm:ss`, Spark as ISO 8601 with a zone: refuse rather than differ.
                local: unlessArguments(
                    args => (hasTimestamp(args[0]?.type)
                        ? 'a TIMESTAMP inside the value would be formatted differently from Spark; format it with date_format first' : undefined),
                    scalar(1, 2, c => sql`CAST(to_json(${c.a[0]}) AS VARCHAR)`)),
            }],
    ],
};

/** CSV functions. */
export const CSV_FUNCTIONS: FunctionGroup = {
    category: 'csv',
    defs: [
        ['from_csv(csvStr: string, schema: const string, options?: map) -> @schemaArg(1)', 'Parses one CSV line into a struct of the given DDL schema.',
            'from_csv(\'7,ok\', \'id INT, status STRING\') → {id: 7, status: \'ok\'}'],
        ['schema_of_csv(csv: const string, options?: map) -> string', 'DDL schema inferred from a CSV example line.',
            'schema_of_csv(\'1,abc\') → \'STRUCT<_c0: INT, _c1: STRING>\''],
        ['to_csv(expr: struct, options?: map) -> string', 'Serialises a struct to one CSV line.', 'to_csv(named_struct(\'a\', 1, \'b\', \'x\')) → \'1,x\''],
    ],
};

/** XML and XPath functions. */
export const XML_FUNCTIONS: FunctionGroup = {
    category: 'xml',
    defs: [
        ['from_xml(xmlStr: string, schema: const string, options?: map) -> @schemaArg(1)', 'Parses an XML record into a struct of the given DDL schema.',
            'from_xml(\'<r><id>7</id></r>\', \'id INT\') → {id: 7}'],
        ['schema_of_xml(xml: const string, options?: map) -> string', 'DDL schema inferred from an XML example.',
            'schema_of_xml(\'<r><id>7</id></r>\') → \'STRUCT<id: BIGINT>\''],
        ['to_xml(expr: struct, options?: map) -> string', 'Serialises a struct to an XML record.', 'to_xml(named_struct(\'id\', 7)) → \'<ROW><id>7</id></ROW>\''],
        ['xpath(xml: string, xpath: string) -> array<string>', 'Text of every node matching the XPath expression.', 'xpath(\'<r><i>x</i><i>y</i></r>\', \'r/i/text()\') → [\'x\', \'y\']'],
        ['xpath_boolean(xml: string, xpath: string) -> boolean', 'True when the XPath expression matches or evaluates to true.', 'xpath_boolean(\'<a><b/></a>\', \'a/b\') → true'],
        ['xpath_double(xml: string, xpath: string) -> double', 'Result of an XPath expression as a double.', 'xpath_double(\'<r><i>2</i><i>5</i></r>\', \'sum(r/i)\') → 7.0',
            { aliases: ['xpath_number'] }],
        ['xpath_float(xml: string, xpath: string) -> float', 'Result of an XPath expression as a float.', 'xpath_float(\'<a>2.5</a>\', \'a\') → 2.5'],
        ['xpath_int(xml: string, xpath: string) -> int', 'Result of an XPath expression as an int.', 'xpath_int(\'<r><i>2</i><i>5</i></r>\', \'sum(r/i)\') → 7'],
        ['xpath_long(xml: string, xpath: string) -> bigint', 'Result of an XPath expression as a bigint.', 'xpath_long(\'<a>9</a>\', \'a\') → 9'],
        ['xpath_short(xml: string, xpath: string) -> smallint', 'Result of an XPath expression as a smallint.', 'xpath_short(\'<a>9</a>\', \'a\') → 9'],
        ['xpath_string(xml: string, xpath: string) -> string', 'Text of the first node matching the XPath expression.', 'xpath_string(\'<a><b>x</b></a>\', \'a/b\') → \'x\''],
    ],
};

/** VARIANT functions. */
export const VARIANT_FUNCTIONS: FunctionGroup = {
    category: 'variant',
    defs: [
        ['is_valid_variant(expr: variant) -> boolean', 'Tells whether a VARIANT value is well formed.', 'is_valid_variant(parse_json(\'[1]\')) → true'],
        ['is_variant_null(expr: variant) -> boolean', 'True when the VARIANT holds a JSON null (not when it is SQL NULL).', 'is_variant_null(parse_json(\'null\')) → true'],
        ['parse_json(jsonStr: string) -> variant', 'Parses JSON text into a VARIANT; invalid JSON is an error.', 'parse_json(\'{"a": [1, 2]}\') → {"a":[1,2]}'],
        ['schema_of_variant(v: variant) -> string', 'DDL schema describing the shape of a VARIANT value.', 'schema_of_variant(parse_json(\'{"a": 1}\')) → \'OBJECT<a: BIGINT>\''],
        ['schema_of_variant_agg(v: variant) -> string', 'Merged DDL schema describing the VARIANT values of a group.',
            'schema_of_variant_agg(parse_json(j)) over \'1\', \'"x"\' → \'VARIANT\'', { kind: 'aggregate' }],
        ['to_variant_object(expr: any) -> variant', 'Converts a struct (or array or map of structs) into VARIANT objects.',
            'to_variant_object(named_struct(\'a\', 1)) → {"a":1}'],
        ['try_parse_json(jsonStr: string) -> variant', 'Like parse_json, but gives NULL for invalid JSON.', 'try_parse_json(\'{oops\') → NULL'],
        [['try_variant_get(v: variant, path: const string) -> variant', 'try_variant_get(v: variant, path: const string, type: const string) -> @typeArg(2)'],
            'Like variant_get, but gives NULL when the value cannot be cast to the type.', 'try_variant_get(parse_json(\'{"a": "x"}\'), \'$.a\', \'int\') → NULL'],
        ['try_variant_insert(v: variant, path: const string, value: any) -> variant', 'Like variant_insert, but gives NULL instead of an error.',
            'try_variant_insert(parse_json(\'{"a": 1}\'), \'$.b\', 2) → {"a":1,"b":2}'],
        ['variant_array_append(v: variant, path: const string, value: any) -> variant', 'Appends a value to the array found at a path of a VARIANT.',
            'variant_array_append(parse_json(\'[1]\'), \'$\', 2) → [1,2]'],
        ['variant_delete(v: variant, paths+: any) -> variant', 'Removes the values at the given paths from a VARIANT.',
            'variant_delete(parse_json(\'{"a": 1, "b": 2}\'), NULL, \'$.a\') → {"b":2}'],
        [['variant_get(v: variant, path: const string) -> variant', 'variant_get(v: variant, path: const string, type: const string) -> @typeArg(2)'],
            'Extracts the value at a JSON path of a VARIANT, optionally cast to a type.', 'variant_get(parse_json(\'{"a": 7}\'), \'$.a\', \'int\') → 7'],
        ['variant_insert(v: variant, path: const string, value: any) -> variant', 'Adds a value at a path of a VARIANT where none exists yet.',
            'variant_insert(parse_json(\'{"a": 1}\'), \'$.b\', 2) → {"a":1,"b":2}'],
        ['variant_set(v: variant, path: const string, value: any, createIfMissing?: const boolean) -> variant', 'Sets the value at a path of a VARIANT.',
            'variant_set(parse_json(\'{"a": 1}\'), \'$.a\', 5) → {"a":5}'],
        ['variant_strip_nulls(v: variant, recursive?: const boolean) -> variant', 'Removes object fields whose value is a JSON null.',
            'variant_strip_nulls(parse_json(\'{"a": 1, "b": null}\')) → {"a":1}'],
    ],
};

/** Avro functions. */
export const AVRO_FUNCTIONS: FunctionGroup = {
    category: 'avro',
    defs: [
        ['from_avro(child: binary, jsonFormatSchema: const string, options?: map) -> ?', 'Decodes Avro-encoded bytes with an Avro schema given as JSON.',
            'from_avro(payload, \'{"type": "int"}\', map()) → 7'],
        ['schema_of_avro(jsonFormatSchema: const string, options?: map) -> string', 'DDL schema that an Avro schema (as JSON) maps to.',
            'schema_of_avro(\'{"type": "int"}\', map()) → \'INT\''],
        ['to_avro(child: any, jsonFormatSchema?: const string) -> binary', 'Encodes a value as Avro bytes, optionally with an explicit Avro schema.',
            'to_avro(named_struct(\'id\', 7)) → Avro bytes'],
    ],
};

/** Protobuf functions. */
export const PROTOBUF_FUNCTIONS: FunctionGroup = {
    category: 'protobuf',
    defs: [
        ['from_protobuf(data: binary, messageName: const string, descFilePath?: const string|binary, options?: map) -> ?',
            'Decodes Protobuf bytes as the named message, using a descriptor file.', 'from_protobuf(payload, \'Order\', \'/schemas/order.desc\') → {id: 7, …}'],
        ['to_protobuf(child: any, messageName: const string, descFilePath?: const string|binary, options?: map) -> binary',
            'Encodes a struct as the named Protobuf message, using a descriptor file.', 'to_protobuf(order, \'Order\', \'/schemas/order.desc\') → Protobuf bytes'],
    ],
};

/** URL functions. */
export const URL_FUNCTIONS: FunctionGroup = {
    category: 'url',
    defs: [
        ['parse_url(url: string, partToExtract: string, key?: string) -> string',
            'Extracts a part of a URL: HOST, PATH, QUERY (or one query parameter by key), REF, PROTOCOL, FILE, AUTHORITY, USERINFO.',
            'parse_url(\'https://x.io/p?id=7\', \'QUERY\', \'id\') → \'7\''],
        ['try_parse_url(url: string, partToExtract: string, key?: string) -> string', 'Like parse_url, but gives NULL for a malformed URL.',
            'try_parse_url(\'ht tp://bad\', \'HOST\') → NULL'],
        ['try_url_decode(str: string) -> string', 'Like url_decode, but gives NULL for malformed input.', 'try_url_decode(\'%zz\') → NULL'],
        ['url_decode(str: string) -> string', 'Decodes application/x-www-form-urlencoded text.', 'url_decode(\'a%20b%2Bc\') → \'a b+c\''],
        ['url_encode(str: string) -> string', 'Encodes text as application/x-www-form-urlencoded.', 'url_encode(\'a b&c\') → \'a+b%26c\''],
    ],
};
