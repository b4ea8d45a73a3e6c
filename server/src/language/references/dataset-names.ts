/**
 * Table names as the pipeline model compares them. Spark identifiers are case-insensitive, a
 * reference may carry the legacy `LIVE.` prefix, a pipeline parameter `${name}` may stand for any
 * part, and a qualified reference (`cat.sch.t`) names a dataset of the pipeline only when its
 * qualifiers are the pipeline's own catalog and schema. Pure functions, no Langium.
 */

/** A table name split into its parts. */
export interface TableName {
    /** The parts as written, without back quotes and without a legacy `LIVE.` prefix. */
    readonly parts: readonly string[];
    /** The same parts in lower case (Spark compares identifiers case-insensitively). */
    readonly keys: readonly string[];
    /** Written with the legacy `LIVE.` prefix. */
    readonly live: boolean;
    /** Some part contains a pipeline parameter `${...}`, whose value is unknown here. */
    readonly parameterized: boolean;
    /** The name as written (back quotes removed by the parser). */
    readonly text: string;
}

/** The pipeline's default catalog and schema (from spark-pipeline.yml, SET CATALOG / USE SCHEMA). */
export interface NamespaceDefaults {
    readonly catalog?: string;
    readonly schema?: string;
}

/** The parts of a name as written (back quotes kept), split as {@link splitName} says. */
function splitWritten(text: string): string[] {
    const clause = /^IDENTIFIER\s*\(\s*(.*?)\s*\)$/i.exec(text.trim());
    const body = clause ? clause[1].replace(/^['"]|['"]$/g, '') : text;
    const parts: string[] = [];
    let current = '';
    let depth = 0;
    // A doubled back quote inside a quoted part toggles twice, so it stays inside.
    let quoted = false;
    for (const c of body) {
        if (c === '`') {
            quoted = !quoted;
        } else if (c === '{' && current.endsWith('$')) {
            depth++;
        } else if (c === '}' && depth > 0) {
            depth--;
        }
        if (c === '.' && depth === 0 && !quoted) {
            parts.push(current.trim());
            current = '';
        } else {
            current += c;
        }
    }
    parts.push(current.trim());
    return parts.filter(p => p.length > 0);
}

/**
 * Splits a name on the dots that are not inside a `${...}` parameter or a back-quoted part
 * (`` delta.`/data/events.v1` `` has two parts), and removes the back quotes. An
 * `IDENTIFIER('a.b')` clause stands for the name it spells.
 */
export function splitName(text: string): string[] {
    return splitWritten(text).map(p => (isQuoted(p) ? p.slice(1, -1).replaceAll('``', '`') : p));
}

function isQuoted(part: string): boolean {
    return part.length > 1 && part.startsWith('`') && part.endsWith('`');
}

/** The formats Spark reads directly as `` format.`path` `` (SQL on files), in lower case. */
const directReadFormats = new Set(['delta', 'parquet', 'json', 'csv', 'orc', 'text', 'avro', 'binaryfile', 'xml']);

/**
 * A direct read of files written as a table name, `` delta.`/Volumes/main/raw/events` ``: Spark reads
 * the path with that format instead of looking a table up in the catalog. Undefined for a table name.
 */
export function directFileRead(text: string): { readonly format: string; readonly path: string } | undefined {
    const parts = splitWritten(text);
    if (parts.length !== 2 || !directReadFormats.has(parts[0].toLowerCase()) || !isQuoted(parts[1])) {
        return undefined;
    }
    return { format: parts[0].toLowerCase(), path: parts[1].slice(1, -1).replaceAll('``', '`') };
}

/** Parses a table name as written in a reference or a definition. */
export function parseTableName(text: string): TableName {
    let parts = splitName(text);
    const live = parts.length > 1 && parts[0].toLowerCase() === 'live';
    if (live) {
        parts = parts.slice(1);
    }
    return {
        parts,
        keys: parts.map(p => p.toLowerCase()),
        live,
        parameterized: parts.some(p => p.includes('${')),
        text,
    };
}

/** The lower-case last part of a name: the key under which datasets are indexed. */
export function lastKey(name: TableName): string {
    return name.keys[name.keys.length - 1] ?? '';
}

/** A name as shown in messages: its parts joined by dots, each back-quoted when needed. */
export function displayName(name: TableName | readonly string[]): string {
    const parts = Array.isArray(name) ? name as readonly string[] : (name as TableName).parts;
    return parts.map(p => (/^[A-Za-z_][\w]*$/.test(p) || p.includes('${') ? p : `\`${p.replaceAll('`', '``')}\``)).join('.');
}

/** Pads a name to `[catalog, schema, table]` with the defaults; unknown parts stay undefined. */
function fullName(keys: readonly string[], defaults: NamespaceDefaults): Array<string | undefined> {
    const catalog = defaults.catalog?.toLowerCase();
    const schema = defaults.schema?.toLowerCase();
    switch (keys.length) {
        case 1: return [catalog, schema, keys[0]];
        case 2: return [catalog, keys[0], keys[1]];
        default: return keys.slice(-3);
    }
}

/**
 * Whether a reference names a dataset declared with the name `declared` in a pipeline with these
 * namespace defaults. An unqualified reference matches any declaration with the same table name.
 * A qualified reference matches only when every qualifier it writes is known for the declaration
 * (written there, or the pipeline's default) and equal; otherwise it names a table outside the
 * pipeline. A parameterised qualifier (`${catalog}.sch.t`) is unknown, so it does not match unless
 * the declaration writes the same text.
 */
export function referenceMatchesDataset(reference: TableName, declared: TableName, defaults: NamespaceDefaults): boolean {
    if (lastKey(reference) !== lastKey(declared)) {
        return false;
    }
    if (reference.keys.length === 1) {
        return true;
    }
    if (reference.parameterized) {
        const n = Math.min(reference.keys.length, declared.keys.length);
        return reference.keys.length <= declared.keys.length
            && reference.keys.slice(-n).join('.') === declared.keys.slice(-n).join('.');
    }
    const ref = fullName(reference.keys, defaults);
    const decl = fullName(declared.keys, defaults);
    for (let i = 0; i < 2; i++) {
        const r = ref[i];
        const d = decl[i];
        if (r === undefined) {
            continue;
        }
        if (d === undefined || d !== r) {
            return false;
        }
    }
    return true;
}

/**
 * Whether a reference names a table declared in the sample catalog (`samples/*.sql`): the shorter
 * name must equal the tail of the longer one (`a.b` declared, `cat.a.b` read, or the reverse), the
 * same rule the engine's sample catalog uses.
 */
export function referenceMatchesCatalogTable(reference: TableName, declared: TableName): boolean {
    const n = Math.min(reference.keys.length, declared.keys.length);
    if (n === 0) {
        return false;
    }
    return reference.keys.slice(-n).join('.') === declared.keys.slice(-n).join('.');
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
    const m = a.length;
    const n = b.length;
    let previous = Array.from({ length: n + 1 }, (_, j) => j);
    for (let i = 1; i <= m; i++) {
        const current = [i];
        for (let j = 1; j <= n; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
        }
        previous = current;
    }
    return previous[n];
}

/** The two rows of {@link editDistanceWithin}, reused across calls (suggestions compare thousands of pairs). */
let rowsA = new Uint32Array(64);
let rowsB = new Uint32Array(64);

/**
 * The edit distance of `a` and `b` when it is at most `max`, else some number above `max`: the
 * computation stops at the first row whose every entry exceeds `max` (a row's minimum never decreases),
 * which for unrelated names is after a few letters. Suggestions compare a name with every dataset.
 */
function editDistanceWithin(a: string, b: string, max: number): number {
    const n = b.length;
    if (rowsA.length <= n) {
        rowsA = new Uint32Array(2 * (n + 1));
        rowsB = new Uint32Array(2 * (n + 1));
    }
    let previous = rowsA;
    let current = rowsB;
    for (let j = 0; j <= n; j++) {
        previous[j] = j;
    }
    for (let i = 1; i <= a.length; i++) {
        current[0] = i;
        let rowMin = i;
        for (let j = 1; j <= n; j++) {
            const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
            const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
            current[j] = value;
            if (value < rowMin) {
                rowMin = value;
            }
        }
        if (rowMin > max) {
            return max + 1;
        }
        const done = previous;
        previous = current;
        current = done;
    }
    return previous[n];
}

/**
 * The candidates closest to `name` (case-insensitive edit distance at most a third of its length rounded up,
 * at least 1, at most 3; for names under three characters only one letter more or less), best first;
 * used for "did you mean" messages and quick fixes.
 */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
    const key = name.toLowerCase();
    if (key.length < 3) {
        return closestToShortName(key, candidates, limit);
    }
    const max = maxDistance(key);
    const scored: ScoredName[] = [];
    const seen = new Set<string>();
    for (const candidate of candidates) {
        scoreCandidate(key, max, candidate, seen, scored);
    }
    return best(scored, limit);
}

/**
 * {@link closestNames} of `name` among the candidates of `index` followed by `more` (those whose name in
 * lower case the index holds are left out, as `closestNames` keeps the first of a name): the same
 * suggestions, without comparing `name` with every candidate of the index.
 */
export function closestNamesIn(name: string, index: NameIndex, more: Iterable<string> = [], limit = 3): string[] {
    const key = name.toLowerCase();
    if (key.length < 3) {
        return closestToShortName(key, [...index.candidates, ...more], limit);
    }
    const max = maxDistance(key);
    const scored = index.within(key, max);
    const seen = new Set<string>();
    for (const candidate of more) {
        if (!index.has(candidate.toLowerCase())) {
            scoreCandidate(key, max, candidate, seen, scored);
        }
    }
    return best(scored, limit);
}

interface ScoredName {
    candidate: string;
    distance: number;
}

/** How far a suggestion for a name of three letters or more may be: a third of its length rounded up, 1 to 3. */
function maxDistance(key: string): number {
    return Math.min(3, Math.ceil(key.length / 3));
}

/**
 * A short name is one substitution away from many others; only a missing or an extra letter (`sq` for
 * `seq`) is a useful suggestion.
 */
function closestToShortName(key: string, candidates: Iterable<string>, limit: number): string[] {
    return [...new Set([...candidates].filter(c => Math.abs(c.length - key.length) === 1 && isSubsequence(
        c.length < key.length ? c.toLowerCase() : key, c.length < key.length ? key : c.toLowerCase())))].slice(0, limit);
}

/** Adds `candidate` to `scored` when it is within `max` edits of `key` (and neither `key` nor seen before). */
function scoreCandidate(key: string, max: number, candidate: string, seen: Set<string>, scored: ScoredName[]): void {
    const lower = candidate.toLowerCase();
    if (lower === key || seen.has(lower)) {
        return;
    }
    seen.add(lower);
    if (Math.abs(lower.length - key.length) > max) {
        return;
    }
    const distance = editDistanceWithin(key, lower, max);
    if (distance <= max) {
        scored.push({ candidate, distance });
    }
}

function best(scored: ScoredName[], limit: number): string[] {
    return scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate)).slice(0, limit).map(s => s.candidate);
}

/**
 * The candidates of {@link closestNames} (a pipeline's dataset names), indexed so that the names within
 * a few edits of a name are found without comparing it with all of them: each unresolved table of a
 * file was compared with every dataset, quadratic in the size of a pipeline.
 *
 * The index is a partition filter (PassJoin): a candidate of length `n`, cut into `k + 1` segments,
 * is within `k` edits of a name only if one of its segments, untouched by the edits, occurs in the
 * name within `k` characters of its place in the candidate. Each segment is indexed by the candidate's
 * length, its number and its text; a name looks up its substrings at those places, and only the
 * candidates found are compared. Candidates with `k` letters or fewer are compared with every name.
 */
export class NameIndex {

    /** The candidates, the first of each name in lower case (which `closestNames` keeps). */
    readonly candidates: readonly string[];
    private readonly lowers: string[] = [];
    private readonly ids = new Map<string, number>();
    /** Per edit bound: the candidates of each segment (`length/segment/text`), and those too short to cut. */
    private readonly filters = new Map<number, { segments: Map<string, number[]>; short: number[] }>();

    constructor(candidates: Iterable<string>) {
        const kept: string[] = [];
        for (const candidate of candidates) {
            const lower = candidate.toLowerCase();
            if (!this.ids.has(lower)) {
                this.ids.set(lower, kept.length);
                kept.push(candidate);
                this.lowers.push(lower);
            }
        }
        this.candidates = kept;
    }

    /** Whether a candidate has this name in lower case. */
    has(lower: string): boolean {
        return this.ids.has(lower);
    }

    /** The candidates other than `key` (in lower case) within `max` edits of it, in the order given. */
    within(key: string, max: number): ScoredName[] {
        const filter = this.filter(max);
        const found = new Set<number>(filter.short);
        for (let length = Math.max(max + 1, key.length - max); length <= key.length + max; length++) {
            for (let segment = 0; segment <= max; segment++) {
                const start = segmentStart(length, max, segment);
                const size = segmentStart(length, max, segment + 1) - start;
                for (let at = Math.max(0, start - max); at <= Math.min(key.length - size, start + max); at++) {
                    const ids = filter.segments.get(`${length}/${segment}/${key.substring(at, at + size)}`);
                    ids?.forEach(id => found.add(id));
                }
            }
        }
        const scored: ScoredName[] = [];
        for (const id of [...found].sort((a, b) => a - b)) {
            const lower = this.lowers[id];
            if (lower === key || Math.abs(lower.length - key.length) > max) {
                continue;
            }
            const distance = editDistanceWithin(key, lower, max);
            if (distance <= max) {
                scored.push({ candidate: this.candidates[id], distance });
            }
        }
        return scored;
    }

    private filter(max: number): { segments: Map<string, number[]>; short: number[] } {
        let filter = this.filters.get(max);
        if (filter === undefined) {
            filter = { segments: new Map(), short: [] };
            this.lowers.forEach((lower, id) => {
                if (lower.length <= max) {
                    filter!.short.push(id);
                    return;
                }
                for (let segment = 0; segment <= max; segment++) {
                    const start = segmentStart(lower.length, max, segment);
                    const key = `${lower.length}/${segment}/${lower.substring(start, segmentStart(lower.length, max, segment + 1))}`;
                    const ids = filter!.segments.get(key);
                    if (ids) {
                        ids.push(id);
                    } else {
                        filter!.segments.set(key, [id]);
                    }
                }
            });
            this.filters.set(max, filter);
        }
        return filter;
    }
}

/** Where segment `segment` of `max + 1` even segments of a text of `length` characters starts. */
function segmentStart(length: number, max: number, segment: number): number {
    return Math.floor(segment * length / (max + 1));
}

function isSubsequence(short: string, long: string): boolean {
    let i = 0;
    for (const c of long) {
        if (c === short[i]) {
            i++;
        }
    }
    return i === short.length;
}

/** A name in lower case; a name missing from a partial tree (after a syntax error) is empty. */
export function lower(name: string | undefined): string {
    return (name ?? '').toLowerCase();
}
