/**
 * Evaluates the return-type rules of the function catalog against the types (and, where they
 * matter, the constant values and column names) of a call's arguments. Rules that a formula cannot
 * express — `sum` over decimals, `round` with a scale, `named_struct`, `from_json` with a schema
 * string, generators and their output columns — are implemented here as named special rules.
 */
import { decimalAvg, decimalRound, decimalSum } from '../decimal.js';
import type { ReturnRule, SpecialRuleName } from './function-model.js';
import {
    binaryOperatorType, boundedDecimal, commonSupertypeOf, decimalForIntegral, field, isFloating, isIntegral,
    isNumeric, isStringLike, parseSchema, parseType, typeToString, Types, type StructField, type TypeDescriptor,
} from '../spark-types.js';

/** What the language services know about one argument of a call. */
export interface CallArgument {
    /** The argument's type; for a lambda argument the type of the lambda's body (or `unknown`). */
    readonly type: TypeDescriptor;
    /**
     * The name the argument would have as an output column when it is a plain column reference or
     * an aliased expression; `struct(a, b)` and `arrays_zip` name their fields after it.
     */
    readonly name?: string;
    /** The constant value when the argument is a literal (schema strings, type names, scales, field names). */
    readonly literal?: string | number | boolean | null;
}

/** Normalises a type-or-argument list into call arguments. */
export function toCallArguments(args: readonly (TypeDescriptor | CallArgument)[]): CallArgument[] {
    return args.map(a => (isCallArgument(a) ? a : { type: a }));
}

function isCallArgument(a: TypeDescriptor | CallArgument): a is CallArgument {
    return 'type' in a && !('kind' in a);
}

interface SpecialRule {
    /** How the rule reads in a hover or signature help. */
    readonly describe: string;
    readonly infer: (args: readonly CallArgument[], parameter: number | undefined) => TypeDescriptor;
}

const unknown = Types.unknown;

function typeAt(args: readonly CallArgument[], i: number): TypeDescriptor {
    return args[i]?.type ?? unknown;
}

function literalString(args: readonly CallArgument[], i: number): string | undefined {
    const v = args[i]?.literal;
    return typeof v === 'string' ? v : undefined;
}

function literalNumber(args: readonly CallArgument[], i: number): number | undefined {
    const v = args[i]?.literal;
    if (typeof v === 'number') {
        return v;
    }
    return typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : undefined;
}

/** Spark's rounding result type for a decimal input rounded to `scale` digits (`RoundBase.dataType`). */
function roundedDecimal(p: number, s: number, scale: number): TypeDescriptor {
    const rounded = decimalRound({ precision: p, scale: s }, scale);
    return Types.decimal(rounded.precision, rounded.scale);
}

function arithmetic(op: '+' | '-' | '*' | '/' | '%'): SpecialRule['infer'] {
    return args => binaryOperatorType(op, typeAt(args, 0), typeAt(args, 1)) ?? unknown;
}

/** The struct of generator output columns, named as Spark names them by default. */
function columns(...fields: Array<readonly [string, TypeDescriptor]>): TypeDescriptor {
    return Types.struct(fields);
}

const SPECIAL_RULES: Record<SpecialRuleName, SpecialRule> = {
    sum: {
        describe: 'bigint for integers, decimal(p+10,s) for decimal(p,s), double otherwise, or the interval type',
        infer: args => {
            const t = typeAt(args, 0);
            if (isIntegral(t)) {
                return Types.bigint;
            }
            if (t.kind === 'decimal') {
                const sum = decimalSum(t);
                return Types.decimal(sum.precision, sum.scale);
            }
            if (isFloating(t) || isStringLike(t) || t.kind === 'void') {
                return Types.double;
            }
            return t.kind === 'interval_ym' || t.kind === 'interval_dt' ? t : unknown;
        },
    },
    avg: {
        describe: 'double, decimal(p+4,s+4) for decimal(p,s), or the interval type',
        infer: args => {
            const t = typeAt(args, 0);
            if (t.kind === 'decimal') {
                const avg = decimalAvg(t);
                return Types.decimal(avg.precision, avg.scale);
            }
            if (isNumeric(t) || isStringLike(t) || t.kind === 'void') {
                return Types.double;
            }
            return t.kind === 'interval_ym' || t.kind === 'interval_dt' ? t : unknown;
        },
    },
    round: {
        describe: 'the input type; a decimal keeps at most the requested number of fractional digits',
        infer: args => {
            const t = typeAt(args, 0);
            if (t.kind === 'decimal') {
                const scale = args.length > 1 ? literalNumber(args, 1) : 0;
                return scale === undefined ? unknown : roundedDecimal(t.precision, t.scale, scale);
            }
            return isStringLike(t) ? Types.double : t;
        },
    },
    ceilFloor: {
        describe: 'bigint, or a decimal when the input is a decimal or a scale is given',
        infer: args => {
            const t = typeAt(args, 0);
            if (t.kind === 'unknown') {
                return unknown;
            }
            if (args.length < 2) {
                if (t.kind === 'decimal') {
                    return t.scale === 0 ? t : boundedDecimal(t.precision - t.scale + 1, 0);
                }
                return Types.bigint;
            }
            const scale = literalNumber(args, 1);
            const asDecimal = decimalForIntegral(t) ?? { kind: 'decimal', precision: 30, scale: 15 } as const;
            return scale === undefined ? unknown : roundedDecimal(asDecimal.precision, asDecimal.scale, scale);
        },
    },
    add: { describe: 'the result type of `a + b`', infer: arithmetic('+') },
    subtract: { describe: 'the result type of `a - b`', infer: arithmetic('-') },
    multiply: { describe: 'the result type of `a * b`', infer: arithmetic('*') },
    divide: { describe: 'the result type of `a / b` (double, or a decimal for decimal inputs)', infer: arithmetic('/') },
    remainder: { describe: 'the result type of `a % b`', infer: arithmetic('%') },
    struct: {
        describe: 'struct<…> with one field per argument, named after the column (col1, col2, … otherwise)',
        infer: args => Types.struct(args.map((a, i) => [a.name ?? `col${i + 1}`, a.type] as const)),
    },
    namedStruct: {
        describe: 'struct<…> with the given field names and the types of their values',
        infer: args => {
            const fields: StructField[] = [];
            for (let i = 0; i + 1 < args.length; i += 2) {
                const name = literalString(args, i);
                if (name === undefined) {
                    return unknown;
                }
                fields.push(field(name, args[i + 1].type));
            }
            return args.length % 2 === 0 ? { kind: 'struct', fields } : unknown;
        },
    },
    map: {
        describe: 'map<common type of the keys, common type of the values>',
        infer: args => {
            if (args.length % 2 !== 0) {
                return unknown;
            }
            const key = commonSupertypeOf(args.filter((_, i) => i % 2 === 0).map(a => a.type));
            const value = commonSupertypeOf(args.filter((_, i) => i % 2 === 1).map(a => a.type));
            return key && value ? Types.map(key, value) : unknown;
        },
    },
    mapEntries: {
        describe: 'array<struct<key, value>> of the map\'s key and value types',
        infer: args => {
            const t = typeAt(args, 0);
            return t.kind === 'map' ? Types.array(Types.struct([['key', t.key], ['value', t.value]])) : unknown;
        },
    },
    mapFromEntries: {
        describe: 'map<first field type, second field type> of the array\'s structs',
        infer: args => {
            const t = typeAt(args, 0);
            if (t.kind === 'array' && t.element.kind === 'struct' && t.element.fields.length === 2) {
                return Types.map(t.element.fields[0].type, t.element.fields[1].type);
            }
            return unknown;
        },
    },
    concat: {
        describe: 'string; binary when every argument is binary; an array when every argument is an array',
        infer: args => {
            const types = args.map(a => a.type).filter(t => t.kind !== 'void');
            if (types.some(t => t.kind === 'unknown')) {
                return unknown;
            }
            if (types.length > 0 && types.every(t => t.kind === 'array')) {
                return commonSupertypeOf(types) ?? unknown;
            }
            return types.length > 0 && types.every(t => t.kind === 'binary') ? Types.binary : Types.string;
        },
    },
    binaryOrString: {
        describe: 'binary when the text arguments are all binary, string otherwise',
        infer: args => {
            // Spark picks the binary variant only when every string-or-binary argument is binary
            // (`lpad(x'57', 5, 'abc')` is a string); numbers such as lengths do not count.
            const texts = args.map(a => a.type).filter(t => t.kind === 'binary' || isStringLike(t) || t.kind === 'unknown');
            if (texts.some(t => t.kind === 'unknown')) {
                return unknown;
            }
            return texts.length > 0 && texts.every(t => t.kind === 'binary') ? Types.binary : Types.string;
        },
    },
    schemaArg: {
        describe: 'the type described by the schema string',
        infer: (args, i = 1) => {
            const text = literalString(args, i);
            if (text === undefined) {
                return unknown;
            }
            const single = parseType(text);
            if (single.ok) {
                return single.value;
            }
            const schema = parseSchema(text);
            return schema.ok ? { kind: 'struct', fields: schema.value } : unknown;
        },
    },
    typeArg: {
        describe: 'the type named by the type argument',
        infer: (args, i = 1) => {
            const text = literalString(args, i);
            const parsed = text === undefined ? undefined : parseType(text);
            return parsed?.ok ? parsed.value : unknown;
        },
    },
    datePart: {
        describe: 'int, or decimal(8,6) for seconds with their fraction',
        infer: (args, i = 0) => {
            const unit = literalString(args, i)?.trim().toUpperCase();
            return unit !== undefined && ['SECOND', 'SECONDS', 'S', 'SEC', 'SECS'].includes(unit) ? Types.decimal(8, 6) : Types.int;
        },
    },
    timestampArg: {
        describe: 'timestamp_ntz for a timestamp_ntz input, timestamp otherwise',
        infer: (args, i = 0) => {
            const t = typeAt(args, i);
            return t.kind === 'unknown' ? unknown : t.kind === 'timestamp_ntz' ? Types.timestampNtz : Types.timestamp;
        },
    },
    window: {
        describe: 'struct<start, end> of timestamp (timestamp_ntz for a timestamp_ntz input)',
        infer: args => {
            const t = typeAt(args, 0).kind === 'timestamp_ntz' ? Types.timestampNtz : Types.timestamp;
            return Types.struct([['start', t], ['end', t]]);
        },
    },
    toNumber: {
        describe: 'decimal(p,s) with the digits of the format string',
        infer: (args, i = 1) => {
            const format = literalString(args, i)?.toUpperCase();
            if (format === undefined) {
                return unknown;
            }
            const point = format.search(/[.D]/);
            const whole = point < 0 ? format : format.slice(0, point);
            const fraction = point < 0 ? '' : format.slice(point + 1);
            const digits = (s: string): number => (s.match(/[09]/g) ?? []).length;
            const scale = digits(fraction);
            return boundedDecimal(Math.max(1, digits(whole) + scale), scale);
        },
    },
    collate: {
        describe: 'string with the given collation',
        infer: (args, i = 1) => {
            const name = literalString(args, i);
            return name === undefined ? Types.string : { kind: 'string', collation: name.toUpperCase() };
        },
    },
    decodeCase: {
        describe: 'common type of the results and the default',
        infer: args => {
            const results: TypeDescriptor[] = [];
            for (let i = 2; i < args.length; i += 2) {
                results.push(args[i].type);
            }
            if (args.length > 2 && (args.length - 1) % 2 === 1) {
                results.push(args[args.length - 1].type);
            }
            return commonSupertypeOf(results) ?? unknown;
        },
    },
    caseWhen: {
        describe: 'common type of the THEN and ELSE values',
        infer: args => {
            // Arguments come as condition, value pairs, then an optional ELSE value.
            const values: TypeDescriptor[] = [];
            for (let i = 1; i < args.length; i += 2) {
                values.push(args[i].type);
            }
            if (args.length % 2 === 1) {
                values.push(args[args.length - 1].type);
            }
            return commonSupertypeOf(values) ?? unknown;
        },
    },
    voidAsInt: {
        describe: 'same type as expr (int for a NULL literal)',
        infer: args => (typeAt(args, 0).kind === 'void' ? Types.int : typeAt(args, 0)),
    },
    arraysZip: {
        describe: 'array<struct<…>> with one field per input array, named after the column (0, 1, … otherwise)',
        infer: args => {
            const fields: StructField[] = [];
            for (let i = 0; i < args.length; i++) {
                const t = args[i].type;
                const element = t.kind === 'array' ? t.element : t.kind === 'void' ? Types.void : unknown;
                fields.push(field(args[i].name ?? String(i), element));
            }
            return Types.array({ kind: 'struct', fields });
        },
    },
    approxTopK: {
        describe: 'array<struct<item, count: bigint>> with the input type as item',
        infer: args => Types.array(Types.struct([['item', typeAt(args, 0)], ['count', Types.bigint]])),
    },
    histogram: {
        describe: 'array<struct<x, y: double>> with the input type as x',
        infer: args => Types.array(Types.struct([['x', typeAt(args, 0)], ['y', Types.double]])),
    },
    explode: {
        describe: 'column col (array elements), or columns key and value (map entries)',
        infer: args => {
            const t = typeAt(args, 0);
            if (t.kind === 'array') {
                return columns(['col', t.element]);
            }
            return t.kind === 'map' ? columns(['key', t.key], ['value', t.value]) : unknown;
        },
    },
    posexplode: {
        describe: 'columns pos: int and col (array), or pos, key and value (map)',
        infer: args => {
            const t = typeAt(args, 0);
            if (t.kind === 'array') {
                return columns(['pos', Types.int], ['col', t.element]);
            }
            return t.kind === 'map' ? columns(['pos', Types.int], ['key', t.key], ['value', t.value]) : unknown;
        },
    },
    inline: {
        describe: 'one column per field of the array\'s structs',
        infer: args => {
            const t = typeAt(args, 0);
            return t.kind === 'array' && t.element.kind === 'struct' ? t.element : unknown;
        },
    },
    stack: {
        describe: 'columns col0, col1, … holding the values spread over n rows',
        infer: args => {
            const n = literalNumber(args, 0);
            const values = args.slice(1);
            if (n === undefined || n < 1 || values.length === 0) {
                return unknown;
            }
            const width = Math.ceil(values.length / n);
            const cols: Array<readonly [string, TypeDescriptor]> = [];
            for (let c = 0; c < width; c++) {
                const cell: TypeDescriptor[] = [];
                for (let r = 0; r < n; r++) {
                    const v = values[r * width + c];
                    if (v) {
                        cell.push(v.type);
                    }
                }
                cols.push([`col${c}`, commonSupertypeOf(cell) ?? unknown]);
            }
            return columns(...cols);
        },
    },
    jsonTuple: {
        describe: 'string columns c0, c1, … one per requested field',
        infer: args => columns(...args.slice(1).map((_, i) => [`c${i}`, Types.string] as const)),
    },
};

/** A description of a special rule, for hovers and signature help. */
export function describeSpecialRule(name: SpecialRuleName): string {
    return SPECIAL_RULES[name].describe;
}

/**
 * Evaluates a return rule. `undefined` means "refers to an argument the call does not have", which
 * lets `common(…)` skip absent optional arguments; callers turn it into `unknown`.
 */
export function evaluateRule(rule: ReturnRule, args: readonly CallArgument[]): TypeDescriptor | undefined {
    switch (rule.kind) {
        case 'fixed': return rule.type;
        case 'argument': return args[rule.index]?.type;
        case 'element': {
            const t = evaluateRule(rule.of, args);
            if (t === undefined) {
                return undefined;
            }
            return t.kind === 'array' ? t.element : t.kind === 'map' ? t.value : t.kind === 'void' ? Types.void : unknown;
        }
        case 'key':
        case 'value': {
            const t = evaluateRule(rule.of, args);
            if (t === undefined) {
                return undefined;
            }
            if (t.kind === 'map') {
                return rule.kind === 'key' ? t.key : t.value;
            }
            return t.kind === 'void' ? Types.void : unknown;
        }
        case 'arrayOf': return Types.array(evaluateRule(rule.element, args) ?? unknown);
        case 'mapOf': return Types.map(evaluateRule(rule.key, args) ?? unknown, evaluateRule(rule.value, args) ?? unknown);
        case 'common': {
            const types = rule.operands.map(o => evaluateRule(o, args)).filter((t): t is TypeDescriptor => t !== undefined);
            return commonSupertypeOf(types) ?? unknown;
        }
        case 'commonOfArguments': {
            const types: TypeDescriptor[] = [];
            for (let i = rule.from; i < args.length; i += rule.step) {
                types.push(args[i].type);
            }
            return commonSupertypeOf(types) ?? unknown;
        }
        case 'special': return SPECIAL_RULES[rule.name].infer(args, rule.parameter);
    }
}

/** A printable form of a rule for a given list of parameter names (`same type as expr`, `array<int>` …). */
export function describeRule(rule: ReturnRule, parameterName: (index: number) => string, topLevel = true): string {
    switch (rule.kind) {
        case 'fixed': return typeToString(rule.type);
        case 'argument': return topLevel ? `same type as ${parameterName(rule.index)}` : `type of ${parameterName(rule.index)}`;
        case 'element': return `element type of ${describeOperand(rule.of, parameterName)}`;
        case 'key': return `key type of ${describeOperand(rule.of, parameterName)}`;
        case 'value': return `value type of ${describeOperand(rule.of, parameterName)}`;
        case 'arrayOf': return `array<${describeRule(rule.element, parameterName, false)}>`;
        case 'mapOf': return `map<${describeRule(rule.key, parameterName, false)}, ${describeRule(rule.value, parameterName, false)}>`;
        case 'common': return `common type of ${rule.operands.map(o => describeOperand(o, parameterName)).join(', ')}`;
        case 'commonOfArguments':
            return `common type of ${parameterName(rule.from)}${rule.step > 1 ? ` (every ${ordinal(rule.step)} argument)` : ''}…`;
        case 'special': return SPECIAL_RULES[rule.name].describe;
    }
}

function describeOperand(rule: ReturnRule, parameterName: (index: number) => string): string {
    return rule.kind === 'argument' ? parameterName(rule.index) : `(${describeRule(rule, parameterName, false)})`;
}

function ordinal(n: number): string {
    return n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}
