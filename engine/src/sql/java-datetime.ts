// Spark datetime patterns (java.time DateTimeFormatter letters) → DuckDB strftime/strptime formats.
// Only letters with an exact strftime counterpart are mapped; anything else is an error naming the
// letter, so a pattern never formats silently differently from Spark.
import { UnsupportedFeatureError, ErrorClass } from '../errors.js';

/** Letter runs with an exact strftime equivalent, keyed by `letter + count`. */
const runs: ReadonlyMap<string, string> = new Map(Object.entries({
    yyyy: '%Y', yyy: '%Y', y: '%Y', yy: '%y',
    uuuu: '%Y', u: '%Y', uu: '%y',
    MM: '%m', M: '%-m', MMM: '%b', MMMM: '%B',
    LL: '%m', L: '%-m', LLL: '%b', LLLL: '%B',
    dd: '%d', d: '%-d',
    DDD: '%j', D: '%-j',
    HH: '%H', H: '%-H',
    hh: '%I', h: '%-I',
    mm: '%M', m: '%-M',
    ss: '%S', s: '%-S',
    SSS: '%g', SSSSSS: '%f', SSSSSSSSS: '%n',
    a: '%p',
    E: '%a', EE: '%a', EEE: '%a', EEEE: '%A',
    XXX: '%z', XX: '%z', Z: '%z', ZZ: '%z', ZZZ: '%z',
    z: '%Z', zz: '%Z', zzz: '%Z',
}));

/**
 * Converts a Spark datetime pattern into a DuckDB format string.
 * Quoted text (`'T'`, `''` for a quote) is copied literally; `%` is escaped.
 */
export function javaPatternToStrftime(pattern: string): string {
    let out = '';
    let i = 0;
    while (i < pattern.length) {
        const ch = pattern[i];
        if (ch === '\'') {
            if (pattern[i + 1] === '\'') {
                out += '\'';
                i += 2;
                continue;
            }
            const end = pattern.indexOf('\'', i + 1);
            if (end < 0) {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature, `Unterminated quoted text in datetime pattern '${pattern}'.`);
            }
            out += pattern.slice(i + 1, end).replace(/%/g, '%%');
            i = end + 1;
            continue;
        }
        if (/[A-Za-z]/.test(ch)) {
            let j = i;
            while (j < pattern.length && pattern[j] === ch) {
                j++;
            }
            const run = pattern.slice(i, j);
            const mapped = runs.get(run);
            if (mapped === undefined) {
                throw new UnsupportedFeatureError(ErrorClass.unsupportedFeature,
                    `The datetime pattern letter run '${run}' in '${pattern}' has no exact DuckDB equivalent; use yyyy, MM, dd, HH, mm, ss, SSS or SSSSSS.`);
            }
            out += mapped;
            i = j;
            continue;
        }
        out += ch === '%' ? '%%' : ch;
        i++;
    }
    return out;
}
