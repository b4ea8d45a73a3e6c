/**
 * The built-in function catalog of Spark SQL and Databricks SQL: lookup by name or alias, the kind
 * of each function (scalar, aggregate, window, generator, table-valued), its signatures, return-type
 * inference, and printable signatures for completion, hover and signature help.
 *
 * Entries are written in `data/` in a compact signature notation:
 *
 *     name(param: constraint, opt?: constraint, rest*: constraint, more+: constraint) -> rule
 *
 * - `?` marks an optional parameter, `*` zero or more repetitions, `+` one or more; `const` before a
 *   constraint marks a parameter that must be a constant (`fmt: const string`).
 * - A constraint is a type family (`any`, `numeric`, `integral`, `floating`, `decimal`, `string`,
 *   `binary`, `boolean`, `date`, `datetime`, `timestamp`, `time`, `interval`, `array`, `map`,
 *   `struct`, `orderable`, `comparable`, `variant`), a Spark type (`int`, `array<string>`), a union
 *   `a|b`, or `lambda(rule, …)` whose rules give the types of the lambda's variables.
 * - A rule is a Spark type (`bigint`, `array<string>`), `?` (not inferable), `$i` (type of argument
 *   i), `elem(r)`, `key(r)`, `value(r)`, `array(r)`, `map(r, r)`, `common(r, …)`, `$*` / `$i..` /
 *   `$i..:step` (common type of those arguments), or `@special` / `@special(i)` (see return-types.ts).
 */
import { ErrorClass, type ErrorClassName } from '../error-classes.js';
import { AGGREGATE_FUNCTIONS, WINDOW_FUNCTIONS } from './data/aggregate.js';
import { ARRAY_FUNCTIONS, MAP_FUNCTIONS, STRUCT_FUNCTIONS } from './data/collection.js';
import { CONDITIONAL_FUNCTIONS, PREDICATE_FUNCTIONS } from './data/conditional.js';
import { CONVERSION_FUNCTIONS } from './data/conversion.js';
import { DATABRICKS_GROUPS } from './data/databricks.js';
import { DATETIME_FUNCTIONS } from './data/datetime.js';
import { GENERATOR_FUNCTIONS, TABLE_FUNCTIONS } from './data/generators.js';
import { BITWISE_FUNCTIONS, MATH_FUNCTIONS } from './data/math.js';
import { HASH_FUNCTIONS, MISC_FUNCTIONS, SPATIAL_FUNCTIONS, VECTOR_FUNCTIONS } from './data/misc.js';
import {
    AVRO_FUNCTIONS, CSV_FUNCTIONS, JSON_FUNCTIONS, PROTOBUF_FUNCTIONS, URL_FUNCTIONS, VARIANT_FUNCTIONS, XML_FUNCTIONS,
} from './data/semi-structured.js';
import { SKETCH_FUNCTIONS } from './data/sketch.js';
import { REGEX_FUNCTIONS, STRING_FUNCTIONS } from './data/string.js';
import type {
    BuiltinFunction, FunctionCategory, FunctionGroup, FunctionKind, FunctionParameter, FunctionSignature, ReturnRule, SpecialRuleName,
    TypeConstraint, TypeFamily,
} from './function-model.js';
import type { FunctionSpec } from './local.js';
import { describeRule, evaluateRule, toCallArguments, type CallArgument } from './return-types.js';
import {
    isComparable, isDatetime, isIntegral, isInterval, isNumeric, isOrderable, isStringLike, parseType, typeToString, Types,
    type StructField, type TypeDescriptor,
} from '../spark-types.js';

export type { CallArgument } from './return-types.js';

/** Every group of catalog entries, in reference order. */
const GROUPS: readonly FunctionGroup[] = [
    AGGREGATE_FUNCTIONS, WINDOW_FUNCTIONS, ARRAY_FUNCTIONS, MAP_FUNCTIONS, STRUCT_FUNCTIONS, DATETIME_FUNCTIONS,
    STRING_FUNCTIONS, REGEX_FUNCTIONS, MATH_FUNCTIONS, BITWISE_FUNCTIONS, CONDITIONAL_FUNCTIONS, PREDICATE_FUNCTIONS,
    CONVERSION_FUNCTIONS, JSON_FUNCTIONS, CSV_FUNCTIONS, XML_FUNCTIONS, VARIANT_FUNCTIONS, AVRO_FUNCTIONS,
    PROTOBUF_FUNCTIONS, URL_FUNCTIONS, HASH_FUNCTIONS, SKETCH_FUNCTIONS, VECTOR_FUNCTIONS, SPATIAL_FUNCTIONS,
    MISC_FUNCTIONS, GENERATOR_FUNCTIONS, TABLE_FUNCTIONS, ...DATABRICKS_GROUPS,
];

//#region Signature notation

const FAMILIES: ReadonlySet<string> = new Set<TypeFamily>([
    'any', 'numeric', 'integral', 'floating', 'decimal', 'string', 'binary', 'boolean', 'date', 'datetime', 'timestamp',
    'time', 'interval', 'array', 'map', 'struct', 'orderable', 'comparable', 'variant',
]);

const SPECIAL_NAMES: ReadonlySet<string> = new Set<SpecialRuleName>([
    'sum', 'avg', 'round', 'ceilFloor', 'add', 'subtract', 'multiply', 'divide', 'remainder', 'struct', 'namedStruct', 'map',
    'mapEntries', 'mapFromEntries', 'concat', 'binaryOrString', 'schemaArg', 'typeArg', 'datePart', 'timestampArg', 'window',
    'toNumber', 'collate', 'decodeCase', 'arraysZip', 'approxTopK', 'histogram', 'explode', 'posexplode', 'inline', 'stack',
    'jsonTuple', 'caseWhen', 'voidAsInt',
]);

class NotationError extends Error { }

/** Splits on `separator` at nesting depth 0 of (), <> and []. */
function splitTopLevel(text: string, separator: string): string[] {
    const parts: string[] = [];
    let depth = 0;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '(' || c === '<' || c === '[') {
            depth++;
        } else if (c === ')' || c === '>' || c === ']') {
            depth--;
        } else if (c === separator && depth === 0) {
            parts.push(text.slice(start, i));
            start = i + 1;
        }
    }
    parts.push(text.slice(start));
    return parts.map(p => p.trim());
}

function parseRule(text: string): ReturnRule {
    const t = text.trim();
    if (t === '?') {
        return { kind: 'fixed', type: Types.unknown };
    }
    if (t === '$*') {
        return { kind: 'commonOfArguments', from: 0, step: 1 };
    }
    let m = /^\$(\d+)$/.exec(t);
    if (m) {
        return { kind: 'argument', index: Number(m[1]) };
    }
    m = /^\$(\d+)\.\.(?::(\d+))?$/.exec(t);
    if (m) {
        return { kind: 'commonOfArguments', from: Number(m[1]), step: m[2] ? Number(m[2]) : 1 };
    }
    m = /^@(\w+)(?:\((\d+)\))?$/.exec(t);
    if (m) {
        if (!SPECIAL_NAMES.has(m[1])) {
            throw new NotationError(`unknown special rule '@${m[1]}'`);
        }
        return { kind: 'special', name: m[1] as SpecialRuleName, parameter: m[2] === undefined ? undefined : Number(m[2]) };
    }
    m = /^(elem|key|value|array|map|common)\((.*)\)$/.exec(t);
    if (m) {
        const inner = splitTopLevel(m[2], ',').map(parseRule);
        const one = (): ReturnRule => {
            if (inner.length !== 1) {
                throw new NotationError(`${m![1]}(…) takes one rule in '${t}'`);
            }
            return inner[0];
        };
        switch (m[1]) {
            case 'elem': return { kind: 'element', of: one() };
            case 'key': return { kind: 'key', of: one() };
            case 'value': return { kind: 'value', of: one() };
            case 'array': return { kind: 'arrayOf', element: one() };
            case 'map':
                if (inner.length !== 2) {
                    throw new NotationError(`map(…) takes two rules in '${t}'`);
                }
                return { kind: 'mapOf', key: inner[0], value: inner[1] };
            default: return { kind: 'common', operands: inner };
        }
    }
    const parsed = parseType(t);
    if (!parsed.ok) {
        throw new NotationError(`cannot read the rule '${t}': ${parsed.error}`);
    }
    return { kind: 'fixed', type: parsed.value };
}

function parseConstraint(text: string): TypeConstraint {
    const options = splitTopLevel(text, '|').map((atom): TypeConstraint => {
        if (FAMILIES.has(atom)) {
            return { kind: 'family', family: atom as TypeFamily };
        }
        const lambda = /^lambda\((.*)\)$/.exec(atom);
        if (lambda) {
            return { kind: 'lambda', parameters: splitTopLevel(lambda[1], ',').map(parseRule) };
        }
        const parsed = parseType(atom);
        if (!parsed.ok) {
            throw new NotationError(`cannot read the parameter type '${atom}': ${parsed.error}`);
        }
        return { kind: 'type', type: parsed.value };
    });
    return options.length === 1 ? options[0] : { kind: 'union', options };
}

function parseParameter(text: string): FunctionParameter {
    const m = /^(\w+)([?*+]?)\s*:\s*(const\s+)?(.+)$/.exec(text);
    if (!m) {
        throw new NotationError(`cannot read the parameter '${text}'`);
    }
    const marker = m[2];
    return {
        name: m[1],
        type: parseConstraint(m[4].trim()),
        optional: marker === '?' || marker === '*',
        variadic: marker === '*' || marker === '+' ? marker : undefined,
        constant: m[3] !== undefined,
    };
}

/** Reads one signature in the compact notation; throws NotationError on malformed text. */
function parseSignature(source: string): { name: string; signature: FunctionSignature } {
    const open = source.indexOf('(');
    const arrow = source.lastIndexOf('->');
    const close = source.lastIndexOf(')', arrow);
    if (open < 1 || arrow < 0 || close < open) {
        throw new NotationError(`expected 'name(params) -> rule' in '${source}'`);
    }
    const name = source.slice(0, open).trim().toLowerCase();
    const paramText = source.slice(open + 1, close).trim();
    const parameters = paramText === '' ? [] : splitTopLevel(paramText, ',').map(parseParameter);
    parameters.forEach((p, i) => {
        if (p.variadic && i !== parameters.length - 1) {
            throw new NotationError(`only the last parameter may repeat in '${source}'`);
        }
        if (!p.optional && parameters.slice(0, i).some(q => q.optional && !q.variadic)) {
            throw new NotationError(`a required parameter follows an optional one in '${source}'`);
        }
    });
    return { name, signature: { parameters, returns: parseRule(source.slice(arrow + 2)), source } };
}

//#endregion

//#region Catalog

/** The kind of an entry that does not state one, by its category. */
const DEFAULT_KIND: Partial<Record<FunctionCategory, FunctionKind>> = {
    aggregate: 'aggregate', window: 'window', generator: 'generator', table: 'table-valued',
};

interface Catalog {
    readonly functions: readonly BuiltinFunction[];
    readonly byName: ReadonlyMap<string, BuiltinFunction>;
    readonly problems: readonly string[];
}

let catalog: Catalog | undefined;

function buildCatalog(): Catalog {
    const functions: BuiltinFunction[] = [];
    const byName = new Map<string, BuiltinFunction>();
    const problems: string[] = [];
    for (const group of GROUPS) {
        for (const [sigs, description, example, extra = {}] of group.defs) {
            const sources = typeof sigs === 'string' ? [sigs] : sigs;
            const signatures: FunctionSignature[] = [];
            let name: string | undefined;
            for (const source of sources) {
                try {
                    const parsed = parseSignature(source);
                    if (name !== undefined && parsed.name !== name) {
                        problems.push(`Signature '${source}' names '${parsed.name}' but belongs to '${name}'.`);
                        continue;
                    }
                    name = parsed.name;
                    signatures.push(parsed.signature);
                } catch (e) {
                    if (!(e instanceof NotationError)) {
                        throw e;
                    }
                    problems.push(`Bad signature notation: ${e.message}.`);
                }
            }
            if (name === undefined) {
                continue;
            }
            const fn: BuiltinFunction = {
                name,
                aliases: (extra.aliases ?? []).map(a => a.toLowerCase()),
                kind: extra.kind ?? DEFAULT_KIND[group.category] ?? 'scalar',
                category: group.category,
                signatures,
                deterministic: !extra.nondeterministic,
                description,
                example,
                namedArguments: extra.namedArguments === true,
                syntax: extra.syntax,
                operator: extra.operator === true,
                databricksOnly: extra.databricksOnly === true,
                deprecated: extra.deprecated,
                options: extra.options,
                local: extra.local,
            };
            functions.push(fn);
            for (const key of [fn.name, ...fn.aliases]) {
                const existing = byName.get(key);
                if (existing) {
                    problems.push(`The name '${key}' is used by both '${existing.name}' and '${fn.name}'.`);
                } else {
                    byName.set(key, fn);
                }
            }
        }
    }
    return { functions, byName, problems };
}

function theCatalog(): Catalog {
    catalog ??= buildCatalog();
    return catalog;
}

/**
 * Looks a function up by name or alias, case-insensitively. Back quotes and the Databricks
 * qualifiers `builtin.` / `system.builtin.` are ignored.
 */
export function getFunction(name: string): BuiltinFunction | undefined {
    const key = name.trim().replace(/`/g, '').toLowerCase().replace(/^(system\.)?builtin\./, '');
    return theCatalog().byName.get(key);
}

/**
 * How the local engine runs a function called by this name or alias (its DuckDB translation), or
 * undefined when it is not in the catalog or not available locally.
 */
export function localFunction(name: string): FunctionSpec | undefined {
    return getFunction(name)?.local;
}

/** Every name (canonical or alias, lower case) the local engine can call, with its translation. */
export function localFunctions(): ReadonlyMap<string, FunctionSpec> {
    const result = new Map<string, FunctionSpec>();
    for (const [name, fn] of theCatalog().byName) {
        if (fn.local) {
            result.set(name, fn.local);
        }
    }
    return result;
}

/** Every catalog entry (aliases are listed on their entry, not as entries of their own). */
export function allFunctions(): readonly BuiltinFunction[] {
    return theCatalog().functions;
}

/** Every callable name: canonical names and aliases, lower case, sorted. */
export function allFunctionNames(): string[] {
    return [...theCatalog().byName.keys()].sort();
}

/** Problems found while reading the catalog data (bad notation, clashing names); empty when healthy. */
export function catalogProblems(): readonly string[] {
    return theCatalog().problems;
}

function resolve(fn: BuiltinFunction | string): BuiltinFunction | undefined {
    return typeof fn === 'string' ? getFunction(fn) : fn;
}

/** True for aggregate functions (sum, count, collect_list …), which turn a query into a grouped one. */
export function isAggregate(fn: BuiltinFunction | string): boolean {
    return resolve(fn)?.kind === 'aggregate';
}

/** True for functions that require an OVER clause (row_number, rank, lag, lead …). */
export function isWindow(fn: BuiltinFunction | string): boolean {
    return resolve(fn)?.kind === 'window';
}

/** True for generators (explode, posexplode, inline, stack, json_tuple), which produce several rows per input row. */
export function isGenerator(fn: BuiltinFunction | string): boolean {
    return resolve(fn)?.kind === 'generator';
}

/** True for functions usable as a relation in FROM: table-valued functions and generators. */
export function isTableValued(fn: BuiltinFunction | string): boolean {
    const kind = resolve(fn)?.kind;
    return kind === 'table-valued' || kind === 'generator';
}

/** False for functions whose result may differ between calls with equal arguments; unknown names count as non-deterministic. */
export function isDeterministic(fn: BuiltinFunction | string): boolean {
    return resolve(fn)?.deterministic ?? false;
}

//#endregion

//#region Overloads and inference

/** The fewest and the most arguments a signature takes. */
export function signatureArity(signature: FunctionSignature): { min: number; max: number } {
    let min = 0;
    let max = 0;
    for (const p of signature.parameters) {
        if (p.variadic === '+') {
            min++;
        } else if (!p.optional) {
            min++;
        }
        max = p.variadic ? Number.POSITIVE_INFINITY : max + 1;
    }
    return { min, max };
}

/** The parameter that receives argument `index` (the last one when it repeats). */
export function parameterForArgument(signature: FunctionSignature, index: number): FunctionParameter | undefined {
    const params = signature.parameters;
    if (index < params.length) {
        return params[index];
    }
    const last = params[params.length - 1];
    return last?.variadic ? last : undefined;
}

function familyAccepts(family: TypeFamily, t: TypeDescriptor): boolean {
    // Strings convert implicitly to every atomic type under ANSI rules; complex types never do.
    const atomicString = isStringLike(t);
    switch (family) {
        case 'any': return true;
        case 'numeric': case 'floating': case 'decimal': return isNumeric(t) || atomicString;
        case 'integral': return isIntegral(t) || atomicString;
        case 'string': return t.kind !== 'array' && t.kind !== 'map' && t.kind !== 'struct' && t.kind !== 'variant';
        case 'binary': return t.kind === 'binary' || atomicString;
        case 'boolean': return t.kind === 'boolean' || atomicString;
        case 'date': case 'datetime': case 'timestamp': return isDatetime(t) || atomicString;
        case 'time': return t.kind === 'time' || atomicString;
        case 'interval': return isInterval(t) || atomicString;
        case 'array': case 'map': case 'struct': case 'variant': return t.kind === family;
        case 'orderable': return isOrderable(t);
        case 'comparable': return isComparable(t);
    }
}

/** Whether an argument of type `t` fits a parameter constraint (implicit casts allowed). */
export function constraintAccepts(constraint: TypeConstraint, t: TypeDescriptor): boolean {
    if (t.kind === 'unknown' || t.kind === 'void') {
        return true;
    }
    switch (constraint.kind) {
        case 'family': return familyAccepts(constraint.family, t);
        case 'union': return constraint.options.some(o => constraintAccepts(o, t));
        case 'lambda': return true;
        case 'type': {
            const target = constraint.type;
            if (isStringLike(t)) {
                return target.kind !== 'array' && target.kind !== 'map' && target.kind !== 'struct';
            }
            if (isNumeric(target)) {
                return isNumeric(t);
            }
            if (isStringLike(target)) {
                return familyAccepts('string', t);
            }
            if (isDatetime(target)) {
                return isDatetime(t);
            }
            return target.kind === t.kind;
        }
    }
}

/**
 * The overload a call with these arguments uses: the first whose arity fits and whose parameter
 * constraints accept the argument types, else the first whose arity fits. Undefined when no
 * signature takes that many arguments (an arity error the validator reports).
 */
export function selectSignature(fn: BuiltinFunction | string, args: readonly (TypeDescriptor | CallArgument)[]):
    { signature: FunctionSignature; index: number } | undefined {
    const f = resolve(fn);
    if (!f) {
        return undefined;
    }
    const call = toCallArguments(args);
    const fitting = f.signatures
        .map((signature, index) => ({ signature, index }))
        .filter(({ signature }) => {
            const { min, max } = signatureArity(signature);
            return call.length >= min && call.length <= max;
        });
    return fitting.find(({ signature }) =>
        call.every((a, i) => {
            const p = parameterForArgument(signature, i);
            return p !== undefined && constraintAccepts(p.type, a.type);
        })) ?? fitting[0];
}

function isTabular(f: BuiltinFunction): boolean {
    return f.kind === 'generator' || f.kind === 'table-valued';
}

/**
 * The result type of a call. Arguments are types, or `CallArgument`s when the column names or
 * constant values of the arguments matter (`struct(a, b)`, `named_struct('x', 1)`, `round(d, 2)`,
 * `from_json(s, 'a INT')`, `cast(x AS …)` passed as a type-name literal). Generators and
 * table-valued functions give the type of their single output column, or a struct of their
 * columns when there are several (see `inferOutputColumns`). Unknown functions give `unknown`.
 */
export function inferReturnType(fn: BuiltinFunction | string, args: readonly (TypeDescriptor | CallArgument)[]): TypeDescriptor {
    const f = resolve(fn);
    if (!f || f.signatures.length === 0) {
        return Types.unknown;
    }
    const call = toCallArguments(args);
    const signature = selectSignature(f, call)?.signature ?? f.signatures[0];
    const result = evaluateRule(signature.returns, call) ?? Types.unknown;
    if (isTabular(f) && result.kind === 'struct' && result.fields.length === 1) {
        return result.fields[0].type;
    }
    return result;
}

/**
 * The output columns of a generator or table-valued function call (`explode(array<string>)` gives
 * `col: string`; `range(10)` gives `id: bigint`), or undefined when they depend on data the
 * catalog cannot see (`read_files`) or the function is not tabular.
 */
export function inferOutputColumns(fn: BuiltinFunction | string, args: readonly (TypeDescriptor | CallArgument)[]): StructField[] | undefined {
    const f = resolve(fn);
    if (!f || !isTabular(f) || f.signatures.length === 0) {
        return undefined;
    }
    const call = toCallArguments(args);
    const signature = selectSignature(f, call)?.signature ?? f.signatures[0];
    const result = evaluateRule(signature.returns, call);
    if (!result || result.kind === 'unknown') {
        return undefined;
    }
    return result.kind === 'struct' ? [...result.fields] : [{ name: 'col', type: result, nullable: true }];
}

/**
 * The types of the variables of the lambda passed as argument `argumentIndex`
 * (`transform(array<int>, (x, i) -> …)` gives int, int). Empty when that argument takes no lambda.
 */
export function lambdaParameterTypes(
    fn: BuiltinFunction | string, args: readonly (TypeDescriptor | CallArgument)[], argumentIndex: number,
): TypeDescriptor[] {
    const f = resolve(fn);
    if (!f) {
        return [];
    }
    const call = toCallArguments(args);
    const signature = selectSignature(f, call)?.signature ?? f.signatures[0];
    const constraint = signature ? parameterForArgument(signature, argumentIndex)?.type : undefined;
    if (constraint?.kind !== 'lambda') {
        return [];
    }
    return constraint.parameters.map(rule => evaluateRule(rule, call) ?? Types.unknown);
}

//#endregion

/** A call argument that may have been passed by name (`name => value`). */
export interface NamedCallArgument extends CallArgument {
    /** The parameter name written before `=>`, when the argument was passed by name. */
    readonly argName?: string;
}

/** A problem with how arguments were passed, with Spark's error class as `code`. */
export interface ArgumentProblem {
    readonly code: ErrorClassName;
    readonly message: string;
    /** Index (in the call as written) of the argument the problem is about, when there is one. */
    readonly argumentIndex?: number;
}

/** The arguments of a call in parameter order, and what was wrong with how they were passed. */
export interface ArrangedArguments {
    readonly args: CallArgument[];
    readonly problems: ArgumentProblem[];
}

/**
 * Puts the arguments of a call into parameter order, so that `mask(s, digitChar => 'd')` or
 * `explode(collection => arr)` can be inferred like positional calls, and reports misuse of named
 * arguments with Spark's error classes. Parameters skipped before a named one are filled with
 * `unknown`; for functions taking options by name (`read_files`) names that are not parameters
 * are options and go last, in the order written.
 */
export function arrangeArguments(fn: BuiltinFunction | string, args: readonly NamedCallArgument[]): ArrangedArguments {
    const f = resolve(fn);
    const plain = (a: NamedCallArgument): CallArgument => ({ type: a.type, name: a.name, literal: a.literal });
    const firstNamed = args.findIndex(a => a.argName !== undefined);
    if (!f || firstNamed < 0) {
        return { args: args.map(plain), problems: [] };
    }
    const problems: ArgumentProblem[] = [];
    if (!f.namedArguments) {
        problems.push({
            code: ErrorClass.namedParametersNotSupported, argumentIndex: firstNamed,
            message: `Function '${f.name}' does not accept named arguments such as '${args[firstNamed].argName} => …'.`,
        });
        return { args: args.map(plain), problems };
    }
    // Named arguments fit the widest signature; the functions that take them have one or two.
    const signature = f.signatures.reduce((a, b) => (b.parameters.length > a.parameters.length ? b : a));
    const params = signature.parameters;
    const fixed = params.filter(p => !p.variadic);
    const slots: Array<CallArgument | undefined> = [];
    const extra: CallArgument[] = [];
    args.forEach((a, i) => {
        if (a.argName === undefined) {
            if (i > firstNamed) {
                problems.push({
                    code: ErrorClass.unexpectedPositionalArgument, argumentIndex: i,
                    message: `Function '${f.name}' takes no positional argument after the named argument '${args[firstNamed].argName}'.`,
                });
            }
            slots[i] = plain(a);
            return;
        }
        const index = fixed.findIndex(p => p.name.toLowerCase() === a.argName!.toLowerCase());
        if (index < 0) {
            if (params[params.length - 1]?.variadic && f.options) {
                extra.push(plain(a));
            } else {
                problems.push({
                    code: ErrorClass.unrecognizedParameterName, argumentIndex: i,
                    message: `Function '${f.name}' has no parameter named '${a.argName}'; its parameters are ${fixed.map(p => p.name).join(', ')}.`,
                });
            }
        } else if (index < firstNamed) {
            problems.push({
                code: ErrorClass.bothPositionalAndNamed, argumentIndex: i,
                message: `Parameter '${fixed[index].name}' of function '${f.name}' is given both by position and by name.`,
            });
        } else if (slots[index] !== undefined) {
            problems.push({
                code: ErrorClass.doubleNamedArgument, argumentIndex: i,
                message: `Parameter '${fixed[index].name}' of function '${f.name}' is named twice.`,
            });
        } else {
            slots[index] = plain(a);
        }
    });
    fixed.forEach((p, i) => {
        if (!p.optional && slots[i] === undefined) {
            problems.push({ code: ErrorClass.requiredParameterNotFound, message: `Function '${f.name}' needs a value for parameter '${p.name}'.` });
        }
    });
    const arranged = Array.from({ length: slots.length }, (_, i) => slots[i] ?? { type: Types.unknown });
    return { args: [...arranged, ...extra], problems };
}

/**
 * An LSP snippet that inserts a call with placeholders for the required parameters:
 * `substring(${1:str}, ${2:pos})`, `cast(${1:expr} AS ${2:type})`, and `OVER (…)` for window functions.
 */
export function callSnippet(fn: BuiltinFunction | string, signatureIndex = 0): string | undefined {
    const f = resolve(fn);
    const signature = f?.signatures[signatureIndex];
    if (!f || !signature || f.operator) {
        return undefined;
    }
    switch (f.name) {
        case 'cast':
        case 'try_cast':
            return `${f.name}(\${1:expr} AS \${2:type})`;
        case 'extract':
            return 'extract(${1:YEAR} FROM ${2:source})';
    }
    const required = signature.parameters.filter(p => !p.optional);
    const body = required.map((p, i) => `\${${i + 1}:${p.name}}`).join(', ');
    const over = f.kind === 'window' ? ` OVER (\${${required.length + 1}:ORDER BY …})` : '';
    return `${f.name}(${body})${over}`;
}

//#region Printing

/** A constraint as shown to users: `numeric`, `array<string>`, `string | binary`, `lambda`. */
export function formatConstraint(constraint: TypeConstraint): string {
    switch (constraint.kind) {
        case 'family': return constraint.family;
        case 'type': return typeToString(constraint.type);
        case 'union': return constraint.options.map(formatConstraint).join(' | ');
        case 'lambda': return constraint.parameters.length === 1 ? 'lambda x -> …' : `lambda (${constraint.parameters.map((_, i) => 'xyzw'[i] ?? `v${i}`).join(', ')}) -> …`;
    }
}

/** A signature's label with the position of each parameter in it, for LSP signature help. */
export interface SignatureLabel {
    readonly label: string;
    readonly parameters: ReadonlyArray<{ readonly name: string; readonly start: number; readonly end: number }>;
    /** The return rule in words, e.g. `same type as expr` or `bigint`. */
    readonly returns: string;
}

function parameterName(signature: FunctionSignature): (index: number) => string {
    return index => {
        const p = parameterForArgument(signature, index);
        if (!p) {
            return `argument ${index + 1}`;
        }
        // A lambda argument stands for the type of its body.
        return p.type.kind === 'lambda' ? `${p.name}'s result` : p.name;
    };
}

/** The return rule in words; a table-valued function's fixed row type reads as `TABLE(id bigint)`. */
function describeReturns(f: BuiltinFunction, signature: FunctionSignature): string {
    const rule = signature.returns;
    if (isTabular(f) && rule.kind === 'fixed') {
        if (rule.type.kind === 'struct') {
            return `TABLE(${rule.type.fields.map(c => `${c.name} ${typeToString(c.type)}`).join(', ')})`;
        }
        if (rule.type.kind === 'unknown') {
            return 'TABLE(columns depend on the input)';
        }
    }
    return rule.kind === 'fixed' && rule.type.kind === 'unknown' ? 'a type that depends on the input' : describeRule(rule, parameterName(signature));
}

/**
 * The label of signature `index` of a function: `substring(str: string | binary, pos: int[, len: int]) → same type as str`,
 * with the character range of each parameter inside it.
 */
export function signatureLabel(fn: BuiltinFunction | string, index: number): SignatureLabel | undefined {
    const f = resolve(fn);
    const signature = f?.signatures[index];
    if (!f || !signature) {
        return undefined;
    }
    let label = `${f.name}(`;
    const parameters: Array<{ name: string; start: number; end: number }> = [];
    signature.parameters.forEach((p, i) => {
        const separator = i === 0 ? '' : ', ';
        // Options passed as named arguments read better as `option => value` than as a typed parameter.
        const text = p.variadic && f.options && f.namedArguments ? 'option => value' : `${p.name}: ${p.constant ? 'const ' : ''}${formatConstraint(p.type)}`;
        const bracket = p.optional;
        label += bracket ? (i === 0 ? '[' : '[, ') : separator;
        parameters.push({ name: p.name, start: label.length, end: label.length + text.length });
        label += text;
        if (p.variadic) {
            label += ', …';
        }
        if (bracket) {
            label += ']';
        }
    });
    const returns = describeReturns(f, signature);
    label += `) → ${returns}`;
    return { label, parameters, returns };
}

/** The printable form of signature `index` (see `signatureLabel`), or undefined when there is none. */
export function formatSignature(fn: BuiltinFunction | string, index: number): string | undefined {
    return signatureLabel(fn, index)?.label;
}

/** Markdown for a hover on a function name: signatures, description, example and facts. */
export function functionHoverMarkdown(fn: BuiltinFunction | string): string | undefined {
    const f = resolve(fn);
    if (!f) {
        return undefined;
    }
    const lines: string[] = ['```sql'];
    f.signatures.forEach((_, i) => lines.push(formatSignature(f, i)!));
    if (f.syntax) {
        lines.push(f.syntax);
    }
    lines.push('```', '', f.description, '', `Example: \`${f.example}\``);
    const facts: string[] = [f.kind === 'table-valued' ? 'table-valued function' : `${f.kind} function`];
    if (!f.deterministic) {
        facts.push('non-deterministic');
    }
    if (f.databricksOnly) {
        facts.push('Databricks only');
    }
    if (!f.local) {
        facts.push('not available in the local engine');
    }
    if (f.aliases.length > 0) {
        facts.push(`also called ${f.aliases.join(', ')}`);
    }
    lines.push('', facts.join(' · '));
    if (f.deprecated) {
        lines.push('', `Deprecated: ${f.deprecated}`);
    }
    return lines.join('\n');
}

//#endregion
