import { describe, expect, test } from 'vitest';
import {
    binaryOperatorType, canImplicitlyCast, commonSupertype, commonSupertypeOf, DATA_TYPES, isComparable, isNumeric, isOrderable, literalType,
    parseSchema, parseType, typesEqual, typeToSql, typeToString, Types, type BinaryOperator, type TypeDescriptor,
} from '../../../engine/src/spark/spark-types.js';

/** Parses a type string that the test expects to be valid. */
function t(text: string): TypeDescriptor {
    const result = parseType(text);
    if (!result.ok) {
        throw new Error(`'${text}' did not parse: ${result.error}`);
    }
    return result.value;
}

/** Prints a possibly-absent type for compact assertions. */
function show(type: TypeDescriptor | undefined): string {
    return type === undefined ? 'invalid' : typeToString(type);
}

describe('type strings', () => {
    test.each([
        ['INT', 'int', 'INT'],
        ['integer', 'int', 'INT'],
        ['LONG', 'bigint', 'BIGINT'],
        ['short', 'smallint', 'SMALLINT'],
        ['Byte', 'tinyint', 'TINYINT'],
        ['REAL', 'float', 'FLOAT'],
        ['double', 'double', 'DOUBLE'],
        ['BOOLEAN', 'boolean', 'BOOLEAN'],
        ['DECIMAL', 'decimal(10,0)', 'DECIMAL(10,0)'],
        ['DEC(5)', 'decimal(5,0)', 'DECIMAL(5,0)'],
        ['NUMERIC(12, 4)', 'decimal(12,4)', 'DECIMAL(12,4)'],
        ['string', 'string', 'STRING'],
        ['STRING COLLATE UTF8_LCASE', 'string collate UTF8_LCASE', 'STRING COLLATE UTF8_LCASE'],
        ['varchar(20)', 'varchar(20)', 'VARCHAR(20)'],
        ['CHAR(3)', 'char(3)', 'CHAR(3)'],
        ['BINARY', 'binary', 'BINARY'],
        ['DATE', 'date', 'DATE'],
        ['TIMESTAMP', 'timestamp', 'TIMESTAMP'],
        ['TIMESTAMP_LTZ', 'timestamp', 'TIMESTAMP'],
        ['timestamp_ntz', 'timestamp_ntz', 'TIMESTAMP_NTZ'],
        ['TIME', 'time(6)', 'TIME(6)'],
        ['TIME(3)', 'time(3)', 'TIME(3)'],
        ['INTERVAL YEAR TO MONTH', 'interval year to month', 'INTERVAL YEAR TO MONTH'],
        ['interval month', 'interval month', 'INTERVAL MONTH'],
        ['INTERVAL DAY', 'interval day', 'INTERVAL DAY'],
        ['INTERVAL HOUR TO SECOND', 'interval hour to second', 'INTERVAL HOUR TO SECOND'],
        ['VARIANT', 'variant', 'VARIANT'],
        ['VOID', 'void', 'VOID'],
        ['NULL', 'void', 'VOID'],
        ['ARRAY<STRING>', 'array<string>', 'ARRAY<STRING>'],
        ['ARRAY<STRUCT<a: INT, b: STRING>>', 'array<struct<a:int,b:string>>', 'ARRAY<STRUCT<a: INT, b: STRING>>'],
        ['map<string,array<map<int,double>>>', 'map<string,array<map<int,double>>>', 'MAP<STRING, ARRAY<MAP<INT, DOUBLE>>>'],
        ['STRUCT<a INT, b: DECIMAL(10,2)>', 'struct<a:int,b:decimal(10,2)>', 'STRUCT<a: INT, b: DECIMAL(10,2)>'],
        ['struct<`order id`: bigint NOT NULL COMMENT \'primary\'>', 'struct<order id:bigint>', 'STRUCT<`order id`: BIGINT NOT NULL COMMENT \'primary\'>'],
        ['struct<>', 'struct<>', 'STRUCT<>'],
        ['array<struct<0:int,1:string>>', 'array<struct<0:int,1:string>>', 'ARRAY<STRUCT<`0`: INT, `1`: STRING>>'],
        ['GEOGRAPHY(4326)', 'geography(4326)', 'GEOGRAPHY(4326)'],
    ])('%s prints as %s and %s', (text, display, sql) => {
        const type = t(text);
        expect(typeToString(type)).toBe(display);
        expect(typeToSql(type)).toBe(sql);
    });

    test.each([
        'ARRAY<STRUCT<a: INT, b: ARRAY<MAP<STRING, DECIMAL(38,18)>>>>',
        'MAP<STRUCT<k: BIGINT>, ARRAY<TIMESTAMP_NTZ>>',
        'STRUCT<`we``ird`: INT NOT NULL COMMENT \'it\\\'s\', inner: STRUCT<x: INTERVAL DAY TO SECOND>>',
        'ARRAY<ARRAY<ARRAY<BINARY>>>',
    ])('%s survives printing and parsing again', text => {
        const type = t(text);
        expect(typesEqual(t(typeToSql(type)), type)).toBe(true);
        expect(t(typeToSql(type))).toEqual(type);
        // The display form does not quote names, so it only reads back when the names are plain words.
        if (!/[`'\s]/.test(typeToString(type))) {
            expect(typesEqual(t(typeToString(type)), type)).toBe(true);
        }
    });

    test.each([
        ['ARRAY<INT', 'Expected \'>\' after the element type of ARRAY but found the end of the text.', 9],
        ['FOO', 'Unknown data type \'FOO\'.', 0],
        ['MAP<INT>', 'Expected \',\' between the key and value types of MAP but found \'>\'.', 7],
        ['DECIMAL(40, 2)', 'Decimal precision 40 is out of range; it must be between 1 and 38.', 7],
        ['DECIMAL(5, 6)', 'Decimal scale 6 must be between 0 and the precision 5.', 7],
        ['STRUCT<a INT,>', 'Expected a field name but found \'>\'.', 13],
        ['INTERVAL MONTH TO DAY', 'INTERVAL MONTH TO DAY is not a valid interval type.', 9],
        ['VARCHAR', 'VARCHAR needs exactly one length parameter, as in VARCHAR(10).', 0],
        ['', 'Expected a data type but found the end of the text.', 0],
        ['int extra', 'Unexpected \'extra\' after the type.', 4],
        ['STRUCT<a: INT COMMENT 7>', 'Expected a quoted comment after COMMENT but found \'7\'.', 22],
        ['ARRAY<`unterminated>', 'Unterminated back-quoted name.', 6],
        ['ARRAY<INT> ;', 'Unexpected character \';\'.', 11],
    ])('%s is rejected with a clear message', (text, message, offset) => {
        expect(parseType(text)).toEqual({ ok: false, error: message, offset });
    });

    test('every documented type name parses', () => {
        for (const info of DATA_TYPES) {
            for (const name of [info.name, ...info.aliases]) {
                const sample = { DECIMAL: 'DECIMAL(5,2)', VARCHAR: 'VARCHAR(5)', CHAR: 'CHAR(5)', CHARACTER: 'CHARACTER(5)', INTERVAL: 'INTERVAL DAY',
                    ARRAY: 'ARRAY<INT>', MAP: 'MAP<INT, INT>', STRUCT: 'STRUCT<a: INT>' }[name] ?? name;
                expect(parseType(sample).ok, sample).toBe(true);
            }
        }
    });
});

describe('schema strings', () => {
    test('a DDL column list with NOT NULL and comments gives the columns in order', () => {
        const result = parseSchema('id BIGINT NOT NULL, name STRING COMMENT \'full name\', tags ARRAY<STRING>');
        expect(result).toEqual({
            ok: true, value: [
                { name: 'id', type: Types.bigint, nullable: false },
                { name: 'name', type: Types.string, nullable: true, comment: 'full name' },
                { name: 'tags', type: Types.array(Types.string), nullable: true },
            ],
        });
    });

    test('colon form, STRUCT form and an empty schema are accepted', () => {
        const colon = parseSchema('a: INT, b: DOUBLE');
        const struct = parseSchema('struct<a:int,b:double>');
        expect(colon.ok && colon.value.map(f => `${f.name} ${typeToString(f.type)}`)).toEqual(['a int', 'b double']);
        expect(struct).toEqual(colon);
        expect(parseSchema('  ')).toEqual({ ok: true, value: [] });
    });

    test('a broken column list reports where', () => {
        expect(parseSchema('a INT, b')).toEqual({ ok: false, error: 'Expected a data type but found the end of the text.', offset: 8 });
    });
});

describe('predicates', () => {
    test.each([
        ['INT', true, true],
        ['STRING', true, true],
        ['STRUCT<a: INT, b: ARRAY<STRING>>', true, true],
        ['MAP<STRING, INT>', false, false],
        ['STRUCT<a: MAP<STRING, INT>>', false, false],
        ['ARRAY<MAP<INT, INT>>', false, false],
        ['VARIANT', false, false],
        ['INTERVAL DAY TO SECOND', true, true],
        ['TIMESTAMP_NTZ', true, true],
    ])('%s: orderable %s, comparable %s', (text, orderable, comparable) => {
        expect(isOrderable(t(text))).toBe(orderable);
        expect(isComparable(t(text))).toBe(comparable);
    });

    test('numeric types are the integral, floating point and decimal ones', () => {
        expect(['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE', 'DECIMAL(5,2)'].every(n => isNumeric(t(n)))).toBe(true);
        expect(['STRING', 'DATE', 'BOOLEAN', 'INTERVAL DAY'].some(n => isNumeric(t(n)))).toBe(false);
    });
});

describe('common supertypes (least common type)', () => {
    test.each([
        ['INT', 'BIGINT', 'bigint'],
        ['TINYINT', 'SMALLINT', 'smallint'],
        ['BIGINT', 'FLOAT', 'float'],
        ['INT', 'DOUBLE', 'double'],
        ['INT', 'DECIMAL(5,2)', 'decimal(12,2)'],
        ['BIGINT', 'DECIMAL(38,0)', 'decimal(38,0)'],
        ['DECIMAL(10,2)', 'DECIMAL(5,4)', 'decimal(12,4)'],
        ['DECIMAL(10,2)', 'DOUBLE', 'double'],
        ['STRING', 'INT', 'bigint'],
        ['STRING', 'DECIMAL(10,2)', 'double'],
        ['STRING', 'DATE', 'date'],
        ['STRING', 'TIMESTAMP', 'timestamp'],
        ['STRING', 'BOOLEAN', 'boolean'],
        ['VARCHAR(3)', 'STRING', 'string'],
        ['CHAR(2)', 'VARCHAR(9)', 'string'],
        ['DATE', 'TIMESTAMP', 'timestamp'],
        ['DATE', 'TIMESTAMP_NTZ', 'timestamp_ntz'],
        ['TIMESTAMP', 'TIMESTAMP_NTZ', 'timestamp'],
        ['VOID', 'INT', 'int'],
        ['ARRAY<INT>', 'ARRAY<BIGINT>', 'array<bigint>'],
        ['MAP<STRING, INT>', 'MAP<STRING, DOUBLE>', 'map<string,double>'],
        ['STRUCT<a: INT>', 'STRUCT<a: BIGINT>', 'struct<a:bigint>'],
        ['INTERVAL YEAR', 'INTERVAL MONTH', 'interval year to month'],
        ['INTERVAL DAY', 'INTERVAL HOUR TO SECOND', 'interval day to second'],
        ['BOOLEAN', 'DATE', 'invalid'],
        ['BOOLEAN', 'INT', 'invalid'],
        ['STRUCT<a: INT>', 'STRUCT<b: INT>', 'invalid'],
        ['ARRAY<INT>', 'MAP<INT, INT>', 'invalid'],
        ['STRING', 'ARRAY<STRING>', 'invalid'],
        ['INTERVAL DAY', 'INTERVAL YEAR', 'invalid'],
    ])('%s and %s widen to %s', (a, b, expected) => {
        expect(show(commonSupertype(t(a), t(b)))).toBe(expected);
        expect(show(commonSupertype(t(b), t(a)))).toBe(expected);
    });

    test('struct fields match by name ignoring case and keep the first side\'s spelling', () => {
        expect(show(commonSupertype(t('STRUCT<Id: INT>'), t('STRUCT<ID: BIGINT>')))).toBe('struct<Id:bigint>');
    });

    test('a list widens step by step, NULLs and unknowns included', () => {
        expect(show(commonSupertypeOf([Types.void, Types.int, t('DECIMAL(4,1)'), Types.tinyint]))).toBe('decimal(11,1)');
        expect(show(commonSupertypeOf([Types.int, Types.unknown]))).toBe('unknown');
        expect(show(commonSupertypeOf([]))).toBe('void');
    });

    test('implicit casts follow the widening rules', () => {
        expect(canImplicitlyCast(Types.int, Types.bigint)).toBe(true);
        expect(canImplicitlyCast(Types.int, t('DECIMAL(5,2)'))).toBe(true);
        expect(canImplicitlyCast(Types.bigint, Types.int)).toBe(false);
        expect(canImplicitlyCast(Types.date, Types.timestamp)).toBe(true);
        expect(canImplicitlyCast(Types.timestamp, Types.date)).toBe(false);
        expect(canImplicitlyCast(Types.boolean, Types.int)).toBe(false);
        expect(canImplicitlyCast(Types.void, Types.date)).toBe(true);
    });
});

describe('binary operators', () => {
    test.each([
        ['INT', '+', 'INT', 'int'],
        ['INT', '+', 'BIGINT', 'bigint'],
        ['TINYINT', '*', 'TINYINT', 'tinyint'],
        ['INT', '/', 'INT', 'double'],
        ['BIGINT', '/', 'DECIMAL(10,2)', 'decimal(33,11)'],
        ['DECIMAL(10,2)', '+', 'DECIMAL(10,2)', 'decimal(11,2)'],
        ['DECIMAL(10,2)', '-', 'DECIMAL(5,4)', 'decimal(13,4)'],
        ['DECIMAL(10,2)', '*', 'DECIMAL(10,2)', 'decimal(21,4)'],
        ['DECIMAL(10,2)', '/', 'DECIMAL(10,2)', 'decimal(23,13)'],
        ['DECIMAL(10,2)', '/', 'INT', 'decimal(21,13)'],
        ['DECIMAL(38,10)', '*', 'DECIMAL(38,10)', 'decimal(38,6)'],
        ['INT', '%', 'DECIMAL(2,1)', 'decimal(2,1)'],
        ['INT', '+', 'DECIMAL(10,2)', 'decimal(13,2)'],
        ['DOUBLE', '+', 'DECIMAL(10,2)', 'double'],
        ['FLOAT', '*', 'INT', 'float'],
        ['STRING', '+', 'INT', 'bigint'],
        ['STRING', '*', 'DOUBLE', 'double'],
        ['INT', 'div', 'INT', 'bigint'],
        ['DATE', '+', 'INT', 'date'],
        ['DATE', '-', 'INT', 'date'],
        ['DATE', '-', 'DATE', 'interval day'],
        ['TIMESTAMP', '-', 'TIMESTAMP', 'interval day to second'],
        ['TIMESTAMP_NTZ', '+', 'INTERVAL DAY TO SECOND', 'timestamp_ntz'],
        ['DATE', '+', 'INTERVAL YEAR TO MONTH', 'date'],
        ['DATE', '+', 'INTERVAL DAY', 'date'],
        ['DATE', '+', 'INTERVAL HOUR', 'timestamp'],
        ['INTERVAL DAY', '+', 'INTERVAL HOUR', 'interval day to hour'],
        ['INTERVAL DAY TO SECOND', '*', 'INT', 'interval day to second'],
        ['STRING', '||', 'INT', 'string'],
        ['BINARY', '||', 'BINARY', 'binary'],
        ['ARRAY<INT>', '||', 'ARRAY<BIGINT>', 'array<bigint>'],
        ['INT', '&', 'BIGINT', 'bigint'],
        ['INT', '=', 'STRING', 'boolean'],
        ['DATE', '<', 'TIMESTAMP', 'boolean'],
        ['BOOLEAN', 'and', 'BOOLEAN', 'boolean'],
        ['VOID', '+', 'INT', 'int'],
        ['BOOLEAN', '+', 'INT', 'invalid'],
        ['MAP<INT, INT>', '=', 'MAP<INT, INT>', 'invalid'],
        ['INT', '<', 'BOOLEAN', 'invalid'],
        ['DOUBLE', '&', 'INT', 'invalid'],
        ['INT', 'and', 'BOOLEAN', 'invalid'],
    ])('%s %s %s is %s', (a, op, b, expected) => {
        expect(show(binaryOperatorType(op as BinaryOperator, t(a), t(b)))).toBe(expected);
    });

    test('an unknown operand keeps arithmetic unknown but a comparison boolean', () => {
        expect(show(binaryOperatorType('+', Types.unknown, Types.int))).toBe('unknown');
        expect(show(binaryOperatorType('>=', Types.unknown, Types.int))).toBe('boolean');
    });
});

describe('literal types', () => {
    test.each([
        ['42', 'int'],
        ['-7', 'int'],
        ['2147483648', 'bigint'],
        ['99999999999999999999', 'decimal(20,0)'],
        ['7L', 'bigint'],
        ['7S', 'smallint'],
        ['7Y', 'tinyint'],
        ['1.50', 'decimal(3,2)'],
        ['0.05', 'decimal(2,2)'],
        ['01.001001', 'decimal(7,6)'],
        ['.5', 'decimal(1,1)'],
        ['12.', 'decimal(2,0)'],
        ['1.5BD', 'decimal(2,1)'],
        ['1.5D', 'double'],
        ['2F', 'float'],
        ['1E3', 'double'],
        ['\'x\'', 'string'],
        ['"it\\"s"', 'string'],
        ['X\'0A1B\'', 'binary'],
        ['TRUE', 'boolean'],
        ['null', 'void'],
        ['DATE\'2024-07-04\'', 'date'],
        ['TIMESTAMP \'2024-07-04 10:00:00\'', 'timestamp'],
        ['timestamp_ntz\'2024-07-04 10:00:00\'', 'timestamp_ntz'],
        ['INTERVAL \'1-2\' YEAR TO MONTH', 'interval year to month'],
        ['INTERVAL 3 HOURS 20 MINUTES', 'interval hour to minute'],
        ['INTERVAL \'2\' DAY', 'interval day'],
        ['INTERVAL 1 YEAR 2 DAYS', 'interval'],
    ])('%s is %s', (text, expected) => {
        expect(show(literalType(text))).toBe(expected);
    });

    test('non-literals are not typed', () => {
        expect(literalType('amount')).toBeUndefined();
        expect(literalType('1 + 2')).toBeUndefined();
        expect(literalType('INTERVAL')).toBeUndefined();
        expect(literalType('.')).toBeUndefined();
    });
});
