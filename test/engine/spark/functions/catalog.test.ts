import { describe, expect, test } from 'vitest';
import {
    allFunctionNames, allFunctions, arrangeArguments, callSnippet, catalogProblems, formatSignature, functionHoverMarkdown, getFunction,
    inferOutputColumns,
    inferReturnType, isAggregate, isDeterministic, isGenerator, isTableValued, isWindow, lambdaParameterTypes, selectSignature,
    signatureArity, signatureLabel, type CallArgument,
} from '../../../../engine/src/spark/functions/catalog.js';
import { getReadFilesOption, READ_FILES_OPTIONS } from '../../../../engine/src/spark/functions/read-files-options.js';
import { parseType, typeToString, Types, type TypeDescriptor } from '../../../../engine/src/spark/spark-types.js';
import { SPARK_FUNCTION_NAMES } from './fixtures/spark-function-names.js';

/** Parses a type string that the test expects to be valid. */
function t(text: string): TypeDescriptor {
    const result = parseType(text);
    if (!result.ok) {
        throw new Error(`'${text}' did not parse: ${result.error}`);
    }
    return result.value;
}

/** A call argument from a type string, with an optional column name or literal. */
function arg(type: string, extra: Omit<CallArgument, 'type'> = {}): CallArgument {
    return { type: t(type), ...extra };
}

/** A string literal argument. */
function lit(value: string | number): CallArgument {
    return { type: typeof value === 'string' ? Types.string : Types.int, literal: value };
}

describe('catalog contents', () => {
    test('the catalog data reads without problems', () => {
        expect(catalogProblems()).toEqual([]);
    });

    test('every Spark SQL function name of the reference is in the catalog', () => {
        const missing = SPARK_FUNCTION_NAMES.filter(name => getFunction(name) === undefined);
        expect(missing).toEqual([]);
        expect(SPARK_FUNCTION_NAMES.length).toBeGreaterThan(550);
    });

    test('the Databricks pipeline functions are in the catalog', () => {
        for (const name of ['read_files', 'current_snapshot_version', 'last_snapshot_version', 'cloud_files', 'try_to_timestamp', 'ai_query']) {
            expect(getFunction(name), name).toBeDefined();
        }
        expect(getFunction('read_files')!.databricksOnly).toBe(true);
        expect(getFunction('upper')!.databricksOnly).toBe(false);
    });

    test('every entry has a one-line description, an example, a kind and at least one signature with a return rule', () => {
        const kinds = new Set(['scalar', 'aggregate', 'window', 'generator', 'table-valued']);
        for (const f of allFunctions()) {
            expect(f.description, f.name).toMatch(/^[A-Z0-9].*\.$/);
            expect(f.description, f.name).not.toContain('\n');
            expect(f.description.length, f.name).toBeLessThanOrEqual(200);
            expect(f.example.trim(), f.name).not.toBe('');
            expect(kinds.has(f.kind), f.name).toBe(true);
            expect(f.signatures.length, f.name).toBeGreaterThan(0);
            for (const s of f.signatures) {
                expect(s.returns, s.source).toBeDefined();
            }
        }
    });

    test('no name or alias is used twice', () => {
        const seen = new Map<string, string>();
        const clashes: string[] = [];
        for (const f of allFunctions()) {
            for (const name of [f.name, ...f.aliases]) {
                if (seen.has(name)) {
                    clashes.push(`${name}: ${seen.get(name)} and ${f.name}`);
                }
                seen.set(name, f.name);
            }
        }
        expect(clashes).toEqual([]);
        expect(allFunctionNames().length).toBe(seen.size);
    });

    test('descriptions are not copies of each other', () => {
        const byText = new Map<string, string[]>();
        for (const f of allFunctions()) {
            byText.set(f.description, [...(byText.get(f.description) ?? []), f.name]);
        }
        expect([...byText.values()].filter(names => names.length > 1)).toEqual([]);
    });

    test('every signature gives a type for any argument count it accepts', () => {
        for (const f of allFunctions()) {
            for (const s of f.signatures) {
                const { min, max } = signatureArity(s);
                for (let n = min; n <= Math.min(max, min + 2); n++) {
                    const type = inferReturnType(f, Array.from({ length: n }, () => Types.unknown));
                    expect(typeof typeToString(type), s.source).toBe('string');
                }
            }
        }
    });
});

describe('lookup', () => {
    test('names are case-insensitive and aliases lead to their function', () => {
        expect(getFunction('UPPER')?.name).toBe('upper');
        expect(getFunction('ucase')?.name).toBe('upper');
        expect(getFunction('Array_Agg')?.name).toBe('collect_list');
        expect(getFunction('`lower`')?.name).toBe('lower');
        expect(getFunction('system.builtin.coalesce')?.name).toBe('coalesce');
        expect(getFunction('no_such_function')).toBeUndefined();
    });

    test('kinds and determinism', () => {
        expect(isAggregate('sum')).toBe(true);
        expect(isAggregate('COUNT')).toBe(true);
        expect(isAggregate('hll_sketch_agg')).toBe(true);
        expect(isAggregate('upper')).toBe(false);
        expect(isWindow('row_number')).toBe(true);
        expect(isWindow('lag')).toBe(true);
        expect(isWindow('sum')).toBe(false);
        expect(isGenerator('explode')).toBe(true);
        expect(isGenerator('posexplode_outer')).toBe(true);
        expect(isGenerator('range')).toBe(false);
        expect(isTableValued('range')).toBe(true);
        expect(isTableValued('read_files')).toBe(true);
        expect(isTableValued('explode')).toBe(true);
        expect(isTableValued('upper')).toBe(false);
        for (const name of ['rand', 'random', 'uuid', 'current_timestamp', 'now', 'current_date', 'shuffle', 'first', 'collect_list']) {
            expect(isDeterministic(name), name).toBe(false);
        }
        for (const name of ['upper', 'sum', 'coalesce', 'date_add', 'sha2']) {
            expect(isDeterministic(name), name).toBe(true);
        }
        expect(isDeterministic('no_such_function')).toBe(false);
    });
});

describe('return types', () => {
    // Cases marked (listing) match the result types in Spark's generated function listing.
    test.each<[string, Array<string | CallArgument>, string]>([
        ['upper', ['STRING'], 'string'],
        ['sum', ['INT'], 'bigint'],
        ['sum', ['DECIMAL(10,2)'], 'decimal(20,2)'],
        ['sum', ['DECIMAL(35,2)'], 'decimal(38,2)'],
        ['sum', ['DOUBLE'], 'double'],
        ['sum', ['INTERVAL DAY'], 'interval day'],
        ['try_sum', ['TINYINT'], 'bigint'],
        ['avg', ['INT'], 'double'],
        ['avg', ['DECIMAL(10,2)'], 'decimal(14,6)'],
        ['mean', ['BIGINT'], 'double'],
        ['count', ['STRING'], 'bigint'],
        ['count', ['INT', 'STRING'], 'bigint'],
        ['count_if', ['BOOLEAN'], 'bigint'],
        ['min', ['DATE'], 'date'],
        ['max_by', ['STRING', 'INT'], 'string'],
        ['median', ['INT'], 'double'],
        ['mode', ['INT'], 'int'],
        ['collect_list', ['DECIMAL(5,2)'], 'array<decimal(5,2)>'],
        ['array_agg', ['STRING'], 'array<string>'],
        ['collect_set', ['DATE'], 'array<date>'],
        ['listagg', ['STRING'], 'string'],
        ['listagg', ['BINARY'], 'binary'],
        ['percentile', ['INT', 'DECIMAL(1,1)'], 'double'],
        ['percentile', ['INT', 'ARRAY<DOUBLE>'], 'array<double>'],
        ['approx_percentile', ['INT', 'ARRAY<DECIMAL(1,1)>', 'INT'], 'array<int>'],
        ['approx_percentile', ['BIGINT', 'DOUBLE'], 'bigint'],
        ['histogram_numeric', ['INT', 'INT'], 'array<struct<x:int,y:double>>'],
        ['approx_top_k', ['INT'], 'array<struct<item:int,count:bigint>>'],
        ['row_number', [], 'int'],
        ['percent_rank', [], 'double'],
        ['lag', ['DECIMAL(9,3)', 'INT'], 'decimal(9,3)'],
        ['array', ['INT', 'INT'], 'array<int>'],
        ['array', ['INT', 'BIGINT', 'VOID'], 'array<bigint>'],
        ['array', [], 'array<void>'],
        ['array_append', ['ARRAY<STRING>', 'STRING'], 'array<string>'],
        ['array_max', ['ARRAY<DATE>'], 'date'],
        ['array_position', ['ARRAY<INT>', 'INT'], 'bigint'],
        ['array_size', ['ARRAY<INT>'], 'int'],
        ['flatten', ['ARRAY<ARRAY<INT>>'], 'array<int>'],
        ['element_at', ['ARRAY<STRING>', 'INT'], 'string'],
        ['element_at', ['MAP<STRING, BIGINT>', 'STRING'], 'bigint'],
        ['get', ['ARRAY<BOOLEAN>', 'INT'], 'boolean'],
        ['sequence', ['INT', 'INT'], 'array<int>'],
        ['sequence', ['DATE', 'DATE', 'INTERVAL MONTH'], 'array<date>'],
        ['arrays_zip', ['ARRAY<INT>', 'ARRAY<INT>'], 'array<struct<0:int,1:int>>'],
        ['explode', ['ARRAY<STRING>'], 'string'],
        ['explode', ['MAP<STRING, INT>'], 'struct<key:string,value:int>'],
        ['explode_outer', ['ARRAY<INT>'], 'int'],
        ['posexplode', ['ARRAY<DATE>'], 'struct<pos:int,col:date>'],
        ['inline', ['ARRAY<STRUCT<a: INT, b: STRING>>'], 'struct<a:int,b:string>'],
        ['map_keys', ['MAP<STRING, INT>'], 'array<string>'],
        ['map_values', ['MAP<STRING, INT>'], 'array<int>'],
        ['map_entries', ['MAP<INT, STRING>'], 'array<struct<key:int,value:string>>'],
        ['map_from_arrays', ['ARRAY<DECIMAL(2,1)>', 'ARRAY<STRING>'], 'map<decimal(2,1),string>'],
        ['map_from_entries', ['ARRAY<STRUCT<col1: INT, col2: STRING>>'], 'map<int,string>'],
        ['map', ['DECIMAL(2,1)', 'STRING', 'DECIMAL(2,1)', 'STRING'], 'map<decimal(2,1),string>'],
        ['map_concat', ['MAP<INT, STRING>', 'MAP<BIGINT, STRING>'], 'map<bigint,string>'],
        ['str_to_map', ['STRING'], 'map<string,string>'],
        ['struct', ['INT', 'STRING'], 'struct<col1:int,col2:string>'],
        ['coalesce', ['INT', 'BIGINT'], 'bigint'],
        ['coalesce', ['VOID', 'INT', 'VOID'], 'int'],
        ['coalesce', ['VOID', 'STRING'], 'string'],
        ['ifnull', ['VOID', 'ARRAY<STRING>'], 'array<string>'],
        ['nvl2', ['VOID', 'INT', 'INT'], 'int'],
        ['if', ['BOOLEAN', 'INT', 'DOUBLE'], 'double'],
        ['greatest', ['INT', 'BIGINT', 'TINYINT'], 'bigint'],
        ['nanvl', ['DOUBLE', 'INT'], 'double'],
        ['zeroifnull', ['VOID'], 'int'],
        ['nullifzero', ['BIGINT'], 'bigint'],
        ['case', ['BOOLEAN', 'INT', 'BOOLEAN', 'DECIMAL(2,1)', 'DECIMAL(2,1)'], 'decimal(11,1)'],
        ['date_add', ['DATE', 'INT'], 'date'],
        ['date_sub', ['DATE', 'INT'], 'date'],
        ['datediff', ['DATE', 'DATE'], 'int'],
        ['add_months', ['STRING', 'INT'], 'date'],
        ['to_timestamp', ['STRING'], 'timestamp'],
        ['to_timestamp_ntz', ['STRING'], 'timestamp_ntz'],
        ['to_date', ['STRING', 'STRING'], 'date'],
        ['date_trunc', ['STRING', 'TIMESTAMP'], 'timestamp'],
        ['current_timestamp', [], 'timestamp'],
        ['localtimestamp', [], 'timestamp_ntz'],
        ['current_time', [], 'time(6)'],
        ['convert_timezone', ['STRING', 'STRING', 'TIMESTAMP_NTZ'], 'timestamp_ntz'],
        ['make_dt_interval', ['INT', 'INT', 'INT', 'DECIMAL(8,6)'], 'interval day to second'],
        ['make_ym_interval', ['INT', 'INT'], 'interval year to month'],
        ['make_interval', ['INT', 'INT'], 'interval'],
        ['months_between', ['TIMESTAMP', 'TIMESTAMP'], 'double'],
        ['unix_timestamp', [], 'bigint'],
        ['unix_nanos', ['TIMESTAMP_NTZ'], 'decimal(21,0)'],
        ['time_to_seconds', ['TIME(6)'], 'decimal(14,6)'],
        ['window', ['TIMESTAMP', 'STRING'], 'struct<start:timestamp,end:timestamp>'],
        ['window', ['TIMESTAMP_NTZ', 'STRING'], 'struct<start:timestamp_ntz,end:timestamp_ntz>'],
        ['timestampdiff', ['STRING', 'DATE', 'DATE'], 'bigint'],
        ['split', ['STRING', 'STRING'], 'array<string>'],
        ['sentences', ['STRING'], 'array<array<string>>'],
        ['substring', ['STRING', 'INT', 'INT'], 'string'],
        ['substring', ['BINARY', 'INT'], 'binary'],
        ['concat', ['STRING', 'INT'], 'string'],
        ['concat', ['BINARY', 'BINARY'], 'binary'],
        ['concat', ['ARRAY<INT>', 'ARRAY<BIGINT>'], 'array<bigint>'],
        ['reverse', ['ARRAY<STRING>'], 'array<string>'],
        ['length', ['STRING'], 'int'],
        ['abs', ['INT'], 'int'],
        ['sign', ['INT'], 'double'],
        ['round', ['DOUBLE'], 'double'],
        ['round', ['INT'], 'int'],
        ['ceil', ['DOUBLE'], 'bigint'],
        ['ceil', ['DECIMAL(1,1)'], 'decimal(1,0)'],
        ['floor', ['DECIMAL(12,0)'], 'decimal(12,0)'],
        ['try_divide', ['INT', 'INT'], 'double'],
        ['try_add', ['INT', 'INT'], 'int'],
        ['try_add', ['DATE', 'INTERVAL YEAR'], 'date'],
        ['try_multiply', ['DECIMAL(10,2)', 'DECIMAL(10,2)'], 'decimal(21,4)'],
        ['mod', ['INT', 'DECIMAL(2,1)'], 'decimal(2,1)'],
        ['pmod', ['INT', 'INT'], 'int'],
        ['uniform', ['INT', 'INT'], 'int'],
        ['bit_get', ['INT', 'INT'], 'tinyint'],
        ['width_bucket', ['DOUBLE', 'DOUBLE', 'DOUBLE', 'INT'], 'bigint'],
        ['hash', ['STRING', 'ARRAY<INT>', 'INT'], 'int'],
        ['xxhash64', ['STRING'], 'bigint'],
        ['decode', ['BINARY', 'STRING'], 'string'],
        ['decode', ['INT', 'INT', 'STRING', 'INT', 'STRING', 'STRING'], 'string'],
        ['grouping', ['STRING'], 'tinyint'],
        ['grouping_id', [], 'bigint'],
        ['typeof', ['INT'], 'string'],
        ['parse_json', ['STRING'], 'variant'],
        ['get_json_object', ['STRING', 'STRING'], 'string'],
        ['json_object_keys', ['STRING'], 'array<string>'],
        ['aggregate', ['ARRAY<INT>', 'INT', 'INT'], 'int'],
        ['transform', ['ARRAY<INT>', 'STRING'], 'array<string>'],
        ['filter', ['ARRAY<INT>', 'BOOLEAN'], 'array<int>'],
        ['zip_with', ['ARRAY<INT>', 'ARRAY<STRING>', 'STRUCT<y: STRING, x: INT>'], 'array<struct<y:string,x:int>>'],
        ['transform_values', ['MAP<STRING, INT>', 'DOUBLE'], 'map<string,double>'],
        ['map_zip_with', ['MAP<INT, STRING>', 'MAP<INT, STRING>', 'STRING'], 'map<int,string>'],
        ['int', ['STRING'], 'int'],
        ['decimal', ['STRING'], 'decimal(10,0)'],
        ['read_files', ['STRING'], 'unknown'],
        ['range', ['BIGINT'], 'bigint'],
        ['no_such_function', ['INT'], 'unknown'],
    ])('%s(%j) returns %s', (name, args, expected) => {
        const call = args.map(a => (typeof a === 'string' ? t(a) : a));
        expect(typeToString(inferReturnType(name, call))).toBe(expected);
    });

    test('struct(a, b) names its fields after the columns', () => {
        expect(typeToString(inferReturnType('struct', [arg('INT', { name: 'a' }), arg('STRING', { name: 'b' })]))).toBe('struct<a:int,b:string>');
        expect(typeToString(inferReturnType('arrays_zip', [arg('ARRAY<INT>', { name: 'ids' }), arg('ARRAY<STRING>', { name: 'names' })])))
            .toBe('array<struct<ids:int,names:string>>');
    });

    test('constant arguments decide the type where Spark reads them', () => {
        const infer = (name: string, ...args: CallArgument[]): string => typeToString(inferReturnType(name, args));
        expect(infer('named_struct', lit('x'), arg('INT'), lit('y'), arg('DOUBLE'))).toBe('struct<x:int,y:double>');
        expect(infer('named_struct', arg('STRING'), arg('INT'))).toBe('unknown');
        expect(infer('from_json', arg('STRING'), lit('a INT, b DOUBLE'))).toBe('struct<a:int,b:double>');
        expect(infer('from_json', arg('STRING'), lit('ARRAY<STRING>'))).toBe('array<string>');
        expect(infer('from_json', arg('STRING'), lit('a INT,'))).toBe('unknown');
        expect(infer('from_csv', arg('STRING'), lit('id INT, status STRING'))).toBe('struct<id:int,status:string>');
        expect(infer('variant_get', arg('VARIANT'), lit('$.a'), lit('int'))).toBe('int');
        expect(infer('variant_get', arg('VARIANT'), lit('$.a'))).toBe('variant');
        expect(infer('cast', arg('STRING'), lit('DECIMAL(10,2)'))).toBe('decimal(10,2)');
        expect(infer('try_cast', arg('STRING'), lit('ARRAY<INT>'))).toBe('array<int>');
        expect(infer('round', arg('DECIMAL(2,1)'), lit(0))).toBe('decimal(2,0)');
        expect(infer('round', arg('DECIMAL(5,3)'), lit(1))).toBe('decimal(4,1)');
        expect(infer('round', arg('DECIMAL(5,3)'), lit(-2))).toBe('decimal(3,0)');
        expect(infer('bround', arg('DECIMAL(2,1)'), lit(0))).toBe('decimal(2,0)');
        expect(infer('date_part', lit('SECOND'), arg('TIMESTAMP'))).toBe('decimal(8,6)');
        expect(infer('extract', lit('year'), arg('TIMESTAMP'))).toBe('int');
        expect(infer('date_add', lit('HOUR'), arg('INT'), arg('TIMESTAMP_NTZ'))).toBe('timestamp_ntz');
        expect(infer('timestampadd', lit('DAY'), arg('INT'), arg('DATE'))).toBe('timestamp');
        expect(infer('to_number', arg('STRING'), lit('999'))).toBe('decimal(3,0)');
        expect(infer('try_to_number', arg('STRING'), lit('$9,999.99'))).toBe('decimal(6,2)');
        expect(infer('collate', arg('STRING'), lit('utf8_lcase'))).toBe('string collate UTF8_LCASE');
        expect(infer('stack', lit(2), arg('INT'), arg('INT'), arg('INT'))).toBe('struct<col0:int,col1:int>');
        expect(infer('json_tuple', arg('STRING'), lit('a'), lit('b'))).toBe('struct<c0:string,c1:string>');
    });

    test('generators and table-valued functions list their output columns', () => {
        const columns = (name: string, ...args: CallArgument[]): string[] | undefined =>
            inferOutputColumns(name, args)?.map(c => `${c.name} ${typeToString(c.type)}`);
        expect(columns('explode', arg('ARRAY<STRING>'))).toEqual(['col string']);
        expect(columns('explode', arg('MAP<STRING, INT>'))).toEqual(['key string', 'value int']);
        expect(columns('posexplode_outer', arg('ARRAY<INT>'))).toEqual(['pos int', 'col int']);
        expect(columns('inline', arg('ARRAY<STRUCT<id: BIGINT, tag: STRING>>'))).toEqual(['id bigint', 'tag string']);
        expect(columns('range', arg('BIGINT'), arg('BIGINT'))).toEqual(['id bigint']);
        expect(columns('variant_explode', arg('VARIANT'))).toEqual(['pos int', 'key string', 'value variant']);
        expect(columns('read_files', lit('/Volumes/raw/orders'))).toBeUndefined();
        expect(columns('upper', arg('STRING'))).toBeUndefined();
    });

    test('lambda variables get the element, key and value types', () => {
        const show = (types: TypeDescriptor[]): string[] => types.map(typeToString);
        expect(show(lambdaParameterTypes('transform', [t('ARRAY<DATE>'), Types.unknown], 1))).toEqual(['date', 'int']);
        expect(show(lambdaParameterTypes('aggregate', [t('ARRAY<INT>'), t('BIGINT'), Types.unknown], 2))).toEqual(['bigint', 'int']);
        expect(show(lambdaParameterTypes('map_filter', [t('MAP<STRING, DOUBLE>'), Types.unknown], 1))).toEqual(['string', 'double']);
        expect(show(lambdaParameterTypes('zip_with', [t('ARRAY<INT>'), t('ARRAY<STRING>'), Types.unknown], 2))).toEqual(['int', 'string']);
        expect(lambdaParameterTypes('transform', [t('ARRAY<DATE>'), Types.unknown], 0)).toEqual([]);
        expect(lambdaParameterTypes('upper', [Types.string], 0)).toEqual([]);
    });

    test('overloads are chosen by argument count and type', () => {
        expect(selectSignature('kll_sketch_get_quantile_bigint', [Types.binary, t('ARRAY<DOUBLE>')])?.index).toBe(0);
        expect(selectSignature('kll_sketch_get_quantile_bigint', [Types.binary, Types.double])?.index).toBe(1);
        expect(typeToString(inferReturnType('kll_sketch_get_quantile_bigint', [Types.binary, t('ARRAY<DOUBLE>')]))).toBe('array<bigint>');
        expect(selectSignature('log', [Types.double])?.signature.parameters.map(p => p.name)).toEqual(['expr']);
        expect(selectSignature('upper', [])).toBeUndefined();
        expect(selectSignature('upper', [Types.string, Types.string])).toBeUndefined();
        // A wrong argument count still gives the type every signature agrees on.
        expect(typeToString(inferReturnType('upper', []))).toBe('string');
    });
});

describe('signatures for completion, hover and signature help', () => {
    test.each([
        ['upper', 0, 'upper(str: string) → string'],
        ['substring', 0, 'substring(str: string | binary, pos: int[, len: int]) → binary when the text arguments are all binary, string otherwise'],
        ['coalesce', 0, 'coalesce(expr: any, …) → common type of expr…'],
        ['sum', 0, 'sum(expr: numeric | interval) → bigint for integers, decimal(p+10,s) for decimal(p,s), double otherwise, or the interval type'],
        ['date_format', 0, 'date_format(timestamp: datetime, fmt: string) → string'],
        ['collect_list', 0, 'collect_list(expr: any) → array<type of expr>'],
        ['array_max', 0, 'array_max(array: array) → element type of array'],
        ['nvl2', 0, 'nvl2(expr1: any, expr2: any, expr3: any) → common type of expr2, expr3'],
        ['transform', 0, 'transform(expr: array, func: lambda (x, y) -> …) → array<type of func\'s result>'],
        ['rand', 0, 'rand([seed: const bigint]) → double'],
        ['range', 1, 'range(start: bigint, end: bigint[, step: bigint][, numPartitions: int]) → TABLE(id bigint)'],
        ['read_files', 0, 'read_files(path: string[, option => value, …]) → TABLE(columns depend on the input)'],
        ['explode', 0, 'explode(collection: array | map) → column col (array elements), or columns key and value (map entries)'],
    ])('%s signature %i reads %s', (name, index, expected) => {
        expect(formatSignature(name, index)).toBe(expected);
    });

    test('parameter positions point at the parameters inside the label', () => {
        const label = signatureLabel('substring', 0)!;
        expect(label.parameters.map(p => label.label.slice(p.start, p.end))).toEqual(['str: string | binary', 'pos: int', 'len: int']);
        expect(signatureLabel('substring', 5)).toBeUndefined();
        expect(formatSignature('no_such_function', 0)).toBeUndefined();
    });

    test('the hover shows signatures, description, example and facts', () => {
        const md = functionHoverMarkdown('array_agg')!;
        expect(md).toContain('collect_list(expr: any) → array<type of expr>');
        expect(md).toContain('Gathers the non-NULL values of the group into an array');
        expect(md).toContain('Example: `collect_list(tag) over');
        expect(md).toContain('aggregate function · non-deterministic · also called array_agg');
        expect(functionHoverMarkdown('read_files')).toContain('Databricks only');
        expect(functionHoverMarkdown('cloud_files')).toContain('Deprecated: Use STREAM read_files');
    });
});

describe('read_files options', () => {
    test('the common options are known, with one-line docs', () => {
        for (const name of ['format', 'header', 'inferSchema', 'schema', 'multiLine', 'delimiter', 'sep', 'schemaHints', 'rescuedDataColumn',
            'inferColumnTypes', 'schemaEvolutionMode', 'pathGlobFilter', 'rowTag', 'mergeSchema']) {
            expect(getReadFilesOption(name)?.name, name).toBe(name);
        }
        expect(getReadFilesOption('MULTILINE')?.name).toBe('multiLine');
        expect(getReadFilesOption('no_such_option')).toBeUndefined();
        expect(getFunction('read_files')?.options).toBe(READ_FILES_OPTIONS);
        expect(getFunction('read_files')?.namedArguments).toBe(true);
    });

    test('option names are unique, documented, and enums list their values', () => {
        const names = READ_FILES_OPTIONS.map(o => o.name.toLowerCase());
        expect(new Set(names).size).toBe(names.length);
        for (const o of READ_FILES_OPTIONS) {
            expect(o.description, o.name).toMatch(/^[A-Z].*\.$/);
            if (o.valueKind === 'enum') {
                expect(o.values?.length, o.name).toBeGreaterThan(1);
            }
        }
        expect(getReadFilesOption('format')?.values).toContain('json');
    });
});

describe('named arguments', () => {
    const named = (argName: string, type: string, literal?: string): CallArgument & { argName: string } =>
        ({ type: t(type), argName, ...(literal === undefined ? {} : { literal }) });

    test('named arguments are put in parameter order, skipped ones as unknown', () => {
        const { args, problems } = arrangeArguments('mask', [arg('STRING'), named('digitChar', 'STRING', 'd'), named('upperChar', 'STRING', 'U')]);
        expect(problems).toEqual([]);
        expect(args.map(a => `${typeToString(a.type)}${a.literal === undefined ? '' : `=${a.literal}`}`))
            .toEqual(['string', 'string=U', 'unknown', 'string=d']);
        const explode = arrangeArguments('explode', [named('collection', 'ARRAY<DATE>')]);
        expect(typeToString(inferReturnType('explode', explode.args))).toBe('date');
    });

    test('read_files options that are not parameters follow the path', () => {
        const misplaced = arrangeArguments('read_files', [named('format', 'STRING', 'json'), lit('/data'), named('header', 'BOOLEAN')]);
        expect(misplaced.problems.map(p => p.code)).toEqual(['UNEXPECTED_POSITIONAL_ARGUMENT', 'REQUIRED_PARAMETER_NOT_FOUND']);
        const ok = arrangeArguments('read_files', [lit('/data'), named('format', 'STRING', 'json'), named('header', 'BOOLEAN')]);
        expect(ok.problems).toEqual([]);
        expect(ok.args.map(a => a.literal)).toEqual(['/data', 'json', undefined]);
    });

    test('misuse is reported with Spark\'s error classes', () => {
        const codes = (name: string, ...args: Array<CallArgument & { argName?: string }>): string[] => arrangeArguments(name, args).problems.map(p => p.code);
        expect(codes('encode', named('str', 'STRING'), named('charset', 'STRING'))).toEqual(['NAMED_PARAMETERS_NOT_SUPPORTED']);
        expect(codes('mask', named('lowerChar', 'STRING'), arg('STRING'))).toEqual(['UNEXPECTED_POSITIONAL_ARGUMENT', 'REQUIRED_PARAMETER_NOT_FOUND']);
        expect(codes('mask', arg('STRING'), named('cellular', 'STRING'))).toEqual(['UNRECOGNIZED_PARAMETER_NAME']);
        expect(codes('mask', arg('STRING'), named('digitChar', 'STRING'), named('digitChar', 'STRING')))
            .toEqual(['DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.DOUBLE_NAMED_ARGUMENT_REFERENCE']);
        expect(codes('mask', arg('STRING'), named('str', 'STRING'))).toEqual(['DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT.BOTH_POSITIONAL_AND_NAMED']);
        expect(codes('mask', named('digitChar', 'STRING'))).toEqual(['REQUIRED_PARAMETER_NOT_FOUND']);
        expect(codes('count_min_sketch', named('seed', 'INT'), named('epsilon', 'DOUBLE'), named('confidence', 'DOUBLE'), named('column', 'INT'))).toEqual([]);
        expect(arrangeArguments('mask', [arg('STRING'), named('cellular', 'STRING')]).problems[0].message)
            .toBe('Function \'mask\' has no parameter named \'cellular\'; its parameters are str, upperChar, lowerChar, digitChar, otherChar.');
    });

    test('positional calls pass through untouched', () => {
        const call = [arg('STRING'), arg('INT')];
        expect(arrangeArguments('left', call)).toEqual({ args: call, problems: [] });
    });
});

describe('completion snippets', () => {
    test.each([
        ['upper', 'upper(${1:str})'],
        ['substring', 'substring(${1:str}, ${2:pos})'],
        ['current_date', 'current_date()'],
        ['coalesce', 'coalesce(${1:expr})'],
        ['row_number', 'row_number() OVER (${1:ORDER BY …})'],
        ['lag', 'lag(${1:input}) OVER (${2:ORDER BY …})'],
        ['cast', 'cast(${1:expr} AS ${2:type})'],
        ['extract', 'extract(${1:YEAR} FROM ${2:source})'],
        ['read_files', 'read_files(${1:path})'],
    ])('%s inserts %s', (name, snippet) => {
        expect(callSnippet(name)).toBe(snippet);
    });

    test('word operators and unknown names have no snippet', () => {
        expect(callSnippet('and')).toBeUndefined();
        expect(callSnippet('between')).toBeUndefined();
        expect(callSnippet('no_such_function')).toBeUndefined();
    });
});

describe('the hover of a function says whether the local engine runs it', () => {
    test('regr_slope is not available in the local engine; upper and cast are', () => {
        expect(functionHoverMarkdown('regr_slope')).toContain('aggregate function · not available in the local engine');
        expect(functionHoverMarkdown('upper')).not.toContain('local engine');
        expect(functionHoverMarkdown('cast')).not.toContain('local engine');
    });
});
