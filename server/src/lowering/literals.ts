import { ErrorClass } from '../../../engine/src/index.js';
import type { DataType, ExprIR, IntervalExprIR, JsonPathExprIR, SourceSpan } from '../../../engine/src/index.js';
import { LoweringError } from './lowering-error.js';
import { intervalUnitsType, Types } from '../../../engine/src/spark/spark-types.js';

/**
 * A numeric literal typed by Spark's rules: `1` INT (BIGINT or DECIMAL when it does not fit), `1L`
 * BIGINT, `1S` SMALLINT, `1Y` TINYINT, `1.5` DECIMAL(2,1), `1.5D` / `1e3` DOUBLE, `1.5F` FLOAT,
 * `1.5BD` DECIMAL. The value stays the decimal text, so nothing is lost to JavaScript numbers.
 */
export function numberLiteral(text: string, span: SourceSpan): ExprIR {
    const match = /^(\d*\.?\d*)([eE][+-]?\d+)?(BD|[LSYDF])?$/i.exec(text);
    if (!match || match[1] === '' || match[1] === '.') {
        throw new LoweringError(ErrorClass.unsupportedFeature, `The number '${text}' is not a Spark numeric literal.`, span);
    }
    const [, digits, exponent, rawSuffix] = match;
    const suffix = rawSuffix?.toUpperCase();
    const value = digits + (exponent ?? '');
    const literal = (type: DataType, v: string = value): ExprIR => ({ kind: 'literal', type, value: v, span });
    const integral = !digits.includes('.') && !exponent;
    const checkRange = (bits: number, name: string): void => {
        const limit = 2n ** BigInt(bits - 1);
        // The sign is a separate unary minus, so the literal itself may reach the negative limit.
        if (!integral || BigInt(digits) > limit) {
            throw new LoweringError(ErrorClass.unsupportedFeature, `The ${name} literal '${text}' is out of range.`, span);
        }
    };
    switch (suffix) {
        case 'L': checkRange(64, 'BIGINT'); return literal({ kind: 'bigint' }, digits);
        case 'S': checkRange(16, 'SMALLINT'); return literal({ kind: 'smallint' }, digits);
        case 'Y': checkRange(8, 'TINYINT'); return literal({ kind: 'tinyint' }, digits);
        case 'D': return literal({ kind: 'double' });
        case 'F': return literal({ kind: 'float' });
        case 'BD': return decimalLiteral(digits, exponent, span);
    }
    if (exponent) {
        return literal({ kind: 'double' });
    }
    if (integral) {
        const n = BigInt(digits);
        if (n <= 2147483647n) {
            return literal({ kind: 'int' }, digits);
        }
        if (n <= 9223372036854775807n) {
            return literal({ kind: 'bigint' }, digits);
        }
    }
    return decimalLiteral(digits, undefined, span);
}

function decimalLiteral(digits: string, exponent: string | undefined, span: SourceSpan): ExprIR {
    let [whole, fraction = ''] = digits.split('.');
    if (exponent) {
        // 1.5e2BD: move the point so that the value is written out.
        const shift = Number(exponent.slice(1));
        const all = whole + fraction;
        const point = whole.length + shift;
        if (point <= 0) {
            whole = '0';
            fraction = '0'.repeat(-point) + all;
        } else if (point >= all.length) {
            whole = all + '0'.repeat(point - all.length);
            fraction = '';
        } else {
            whole = all.slice(0, point);
            fraction = all.slice(point);
        }
    }
    whole = whole.replace(/^0+(?=\d)/, '');
    const significant = (whole === '0' || whole === '' ? '' : whole) + fraction;
    const precision = Math.max(significant.replace(/^0+(?=\d)/, '').length, fraction.length, 1);
    if (precision > 38) {
        throw new LoweringError(ErrorClass.unsupportedFeature, `The decimal literal '${digits}' has more than 38 digits.`, span);
    }
    const value = fraction ? `${whole || '0'}.${fraction}` : (whole || '0');
    return { kind: 'literal', type: { kind: 'decimal', precision, scale: fraction.length }, value, span };
}

const microsPer = { second: 1_000_000, minute: 60_000_000, hour: 3_600_000_000, day: 86_400_000_000 };

/** The canonical singular unit of an interval unit keyword (`DAYS` → `day`). */
function unitName(unit: string): string {
    return unit.toLowerCase().replace(/s$/, '');
}

/** An interval being built from its parts. */
class IntervalBuilder {
    months = 0;
    days = 0;
    micros = 0;
    /** The units as written; none for a bare string (`INTERVAL '1 day 2 hours'`), a calendar interval. */
    readonly units: string[] = [];

    constructor(private readonly span: SourceSpan) {}

    /** Adds `value unit` (value may be fractional for seconds and below, as Spark allows). */
    add(value: number, unit: string): void {
        const u = unitName(unit);
        const whole = (name: string): number => {
            if (!Number.isInteger(value)) {
                throw new LoweringError(ErrorClass.unsupportedFeature, `An interval of ${name}s takes a whole number, not ${value}.`, this.span);
            }
            return value;
        };
        switch (u) {
            case 'year': this.months += 12 * whole('year'); break;
            case 'month': this.months += whole('month'); break;
            case 'week': this.days += 7 * whole('week'); break;
            case 'day': this.days += whole('day'); break;
            case 'hour': this.micros += whole('hour') * microsPer.hour; break;
            case 'minute': this.micros += whole('minute') * microsPer.minute; break;
            case 'second': this.micros += Math.round(value * microsPer.second); break;
            case 'millisecond': this.micros += Math.round(value * 1000); break;
            case 'microsecond': this.micros += Math.round(value); break;
            case 'nanosecond': this.micros += Math.round(value / 1000); break;
            default:
                throw new LoweringError(ErrorClass.unsupportedFeature, `Unknown interval unit '${unit}'.`, this.span);
        }
    }

    build(negative: boolean): IntervalExprIR {
        const sign = negative ? -1 : 1;
        // `-0` would print oddly; normalise it to 0.
        const n = (x: number): number => (x === 0 ? 0 : sign * x);
        const type = this.units.length > 0 ? intervalUnitsType(this.units) : Types.calendarInterval;
        return { kind: 'interval', months: n(this.months), days: n(this.days), microseconds: n(this.micros), type, span: this.span };
    }
}

function parseNumber(text: string, span: SourceSpan): number {
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(value)) {
        throw new LoweringError(ErrorClass.unsupportedFeature, `'${text}' is not a number in an interval literal.`, span);
    }
    return value;
}

/** One `value unit` part of an interval literal (`'1' DAY`, `2 HOURS`, `'1-2' YEAR TO MONTH`). */
export interface IntervalPartText {
    value: string;
    negative: boolean;
    unit: string;
    toUnit?: string;
}

/**
 * Normalises an interval literal to months, days and microseconds: `INTERVAL '1' DAY`,
 * `INTERVAL 1 YEAR 2 MONTHS`, `INTERVAL '1-2' YEAR TO MONTH`, `INTERVAL '1 10:30:00' DAY TO SECOND`,
 * `INTERVAL '1 day 2 hours'`.
 */
export function intervalLiteral(parts: IntervalPartText[], text: string | undefined, negative: boolean, span: SourceSpan): IntervalExprIR {
    const builder = new IntervalBuilder(span);
    if (text !== undefined) {
        addIntervalString(builder, text, span);
        return builder.build(negative);
    }
    for (const part of parts) {
        if (part.toUnit) {
            addUnitToUnit(builder, part, span);
            builder.units.push(part.unit, part.toUnit!);
        } else {
            builder.units.push(part.unit);
            let value = part.value.trim();
            let partNegative = part.negative;
            if (value.startsWith('-')) {
                partNegative = !partNegative;
                value = value.slice(1);
            } else if (value.startsWith('+')) {
                value = value.slice(1);
            }
            builder.add((partNegative ? -1 : 1) * parseNumber(value, span), part.unit);
        }
    }
    return builder.build(negative);
}

/** `'1 day 2 hours'`, `'-3 months'`: a multi-unit interval string. */
function addIntervalString(builder: IntervalBuilder, text: string, span: SourceSpan): void {
    const tokens = text.trim().replace(/^interval\s+/i, '').split(/\s+/);
    if (tokens.length === 0 || tokens.length % 2 !== 0) {
        throw new LoweringError(ErrorClass.unsupportedFeature, `The interval '${text}' is not of the form '<number> <unit> ...'.`, span);
    }
    for (let i = 0; i < tokens.length; i += 2) {
        builder.add(parseNumber(tokens[i], span), tokens[i + 1]);
    }
}

/** `'1-2' YEAR TO MONTH`, `'1 10:30:00.5' DAY TO SECOND`, `'10:30' HOUR TO MINUTE` and the like. */
function addUnitToUnit(builder: IntervalBuilder, part: IntervalPartText, span: SourceSpan): void {
    const from = unitName(part.unit);
    const to = unitName(part.toUnit!);
    let text = part.value.trim();
    let sign = part.negative ? -1 : 1;
    if (text.startsWith('-')) {
        sign = -sign;
        text = text.slice(1);
    } else if (text.startsWith('+')) {
        text = text.slice(1);
    }
    const bad = (): never => {
        throw new LoweringError(ErrorClass.unsupportedFeature, `The interval '${part.value}' does not match ${part.unit} TO ${part.toUnit}.`, span);
    };
    if (from === 'year' && to === 'month') {
        const m = /^(\d+)-(\d+)$/.exec(text) ?? bad();
        builder.add(sign * (Number(m[1]) * 12 + Number(m[2])), 'month');
        return;
    }
    const order = ['day', 'hour', 'minute', 'second'];
    const start = order.indexOf(from);
    const end = order.indexOf(to);
    if (start < 0 || end <= start) {
        bad();
    }
    // DAY TO ...: 'd h:m:s'; HOUR TO ...: 'h:m:s'; fields from `from` to `to`.
    const fields: string[] = [];
    let rest = text;
    if (from === 'day') {
        const m = /^(\d+)\s+(.*)$/.exec(rest) ?? bad();
        fields.push(m[1]);
        rest = m[2];
    }
    fields.push(...rest.split(':'));
    if (fields.length !== end - start + 1) {
        bad();
    }
    fields.forEach((field, i) => {
        const unit = order[start + i];
        if (!/^\d+(\.\d+)?$/.test(field) || (unit !== 'second' && field.includes('.'))) {
            bad();
        }
        builder.add(sign * Number(field), unit);
    });
}

/**
 * Parses the path of a Databricks JSON path expression as written after `:` (`a.b[0]`,
 * `['a b'].c`, `` `x`.y ``) into steps.
 */
export function jsonPath(text: string, span: SourceSpan): JsonPathExprIR['path'] {
    const steps: JsonPathExprIR['path'] = [];
    let i = 0;
    const bad = (): never => {
        throw new LoweringError(ErrorClass.unsupportedFeature, `The JSON path ':${text}' cannot be read.`, span);
    };
    let first = true;
    while (i < text.length) {
        const c = text[i];
        if (c === '[') {
            const close = findClose(text, i) ?? bad();
            const inner = text.slice(i + 1, close).trim();
            if (inner === '*') {
                steps.push({ kind: 'wildcard' });
            } else if (/^\d+$/.test(inner)) {
                steps.push({ kind: 'index', index: Number(inner) });
            } else if (/^(['"]).*\1$/s.test(inner)) {
                steps.push({ kind: 'field', name: inner.slice(1, -1) });
            } else {
                bad();
            }
            i = close + 1;
        } else {
            if (c === '.') {
                if (first) {
                    bad();
                }
                i++;
            }
            if (text[i] === '`') {
                const close = text.indexOf('`', i + 1);
                if (close < 0) {
                    bad();
                }
                steps.push({ kind: 'field', name: text.slice(i + 1, close) });
                i = close + 1;
            } else {
                const m = /^[^.[\]]+/.exec(text.slice(i)) ?? bad();
                steps.push({ kind: 'field', name: m[0] });
                i += m[0].length;
            }
        }
        first = false;
    }
    return steps;
}

function findClose(text: string, open: number): number | undefined {
    let quote: string | undefined;
    for (let i = open + 1; i < text.length; i++) {
        const c = text[i];
        if (quote) {
            if (c === quote) {
                quote = undefined;
            }
        } else if (c === '\'' || c === '"') {
            quote = c;
        } else if (c === ']') {
            return i;
        }
    }
    return undefined;
}
