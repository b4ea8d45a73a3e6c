// Spark's DECIMAL arithmetic rules, once, for the editor (type inference, hover) and the engine
// (the type each result is cast to), so that what the editor shows is what a run produces.
// Representation-free: a decimal type is its precision and scale. The rules are Spark's
// `DecimalPrecision` with `spark.sql.decimalOperations.allowPrecisionLoss` on (the default).

/** The precision and scale of a DECIMAL type. */
export interface DecimalShape {
    readonly precision: number;
    readonly scale: number;
}

/** The widest DECIMAL precision. */
export const MAX_DECIMAL_PRECISION = 38;

/** Spark keeps at least this many fractional digits when a result must lose precision. */
export const MIN_ADJUSTED_SCALE = 6;

/** The exact decimal of an integral type (INT → DECIMAL(10,0)); an integer literal: `operandType` in spark-types.ts. */
export function integralDecimal(kind: string): DecimalShape | undefined {
    switch (kind) {
        case 'tinyint': return { precision: 3, scale: 0 };
        case 'smallint': return { precision: 5, scale: 0 };
        case 'int': return { precision: 10, scale: 0 };
        case 'bigint': return { precision: 20, scale: 0 };
        default: return undefined;
    }
}

/** DECIMAL(p, s) with both capped at 38 (Spark's `DecimalType.bounded`). */
export function boundedDecimal(precision: number, scale: number): DecimalShape {
    return { precision: Math.min(precision, MAX_DECIMAL_PRECISION), scale: Math.min(scale, MAX_DECIMAL_PRECISION) };
}

/**
 * The result decimal of an operation whose exact precision exceeds 38: Spark keeps the integral
 * digits and gives up fractional ones, but keeps at least six (`adjustPrecisionScale`).
 */
export function adjustedDecimal(precision: number, scale: number): DecimalShape {
    if (precision <= MAX_DECIMAL_PRECISION) {
        return { precision, scale };
    }
    const intDigits = precision - scale;
    const minScale = Math.min(scale, MIN_ADJUSTED_SCALE);
    return { precision: MAX_DECIMAL_PRECISION, scale: Math.max(MAX_DECIMAL_PRECISION - intDigits, minScale) };
}

/** The least decimal holding every value of both (COALESCE, CASE, UNION, comparisons). */
export function widerDecimal(a: DecimalShape, b: DecimalShape): DecimalShape {
    const scale = Math.max(a.scale, b.scale);
    const range = Math.max(a.precision - a.scale, b.precision - b.scale);
    return boundedDecimal(range + scale, scale);
}

/** The result decimal of `a op b` for two decimal operands. */
export function decimalArithmetic(op: '+' | '-' | '*' | '/' | '%', a: DecimalShape, b: DecimalShape): DecimalShape {
    const { precision: p1, scale: s1 } = a;
    const { precision: p2, scale: s2 } = b;
    switch (op) {
        case '+':
        case '-': {
            const scale = Math.max(s1, s2);
            return adjustedDecimal(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
        }
        case '*': return adjustedDecimal(p1 + p2 + 1, s1 + s2);
        case '/': {
            const scale = Math.max(MIN_ADJUSTED_SCALE, s1 + p2 + 1);
            return adjustedDecimal(p1 - s1 + s2 + scale, scale);
        }
        case '%': return adjustedDecimal(Math.min(p1 - s1, p2 - s2) + Math.max(s1, s2), Math.max(s1, s2));
    }
}

/** `sum` of a DECIMAL(p, s): DECIMAL(p + 10, s), bounded. */
export function decimalSum(a: DecimalShape): DecimalShape {
    return boundedDecimal(a.precision + 10, a.scale);
}

/** `avg` of a DECIMAL(p, s): DECIMAL(p + 4, s + 4), bounded. */
export function decimalAvg(a: DecimalShape): DecimalShape {
    return boundedDecimal(a.precision + 4, a.scale + 4);
}

/**
 * `round` / `bround` of a DECIMAL(p, s) to `scale` digits (Spark's `RoundBase.dataType`): one more
 * integral digit for the carry, at most `scale` fractional ones; a negative scale rounds left of the
 * point into a DECIMAL(_, 0). Also `ceil` / `floor` of a DECIMAL with a scale (0 without one).
 */
export function decimalRound(a: DecimalShape, scale: number): DecimalShape {
    const integralDigits = a.precision - a.scale + 1;
    if (scale < 0) {
        return boundedDecimal(Math.max(integralDigits, -scale + 1), 0);
    }
    const newScale = Math.min(a.scale, scale);
    return boundedDecimal(integralDigits + newScale, newScale);
}
