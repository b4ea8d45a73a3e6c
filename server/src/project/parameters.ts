/**
 * Pipeline parameters, the one substitution of `${name}` in pipeline SQL: the values are the
 * pipeline's `configuration` (spark-pipeline.yml or the bundle resource), then the `SET key = value`
 * statements of its files in file order, a later one winning, as the runtime applies them. A name
 * matches its key exactly first, then a key that differs only in case (Spark's configuration keys
 * are looked up that way by the pipeline runtime); `hiveconf:` / `hivevar:` / `spark:` prefixes are
 * Spark's variable namespaces and are ignored.
 *
 * The editor (dataset names in the symbol index), `check` and the lowering for `run` all go through
 * this class, so they agree on what `${env}_orders` is called.
 */

const parameterPattern = /\$\{([^}\r\n]*)\}/g;

/** The values of a pipeline's parameters and the substitution of `${name}`. */
export class PipelineParameters {

    private readonly values: ReadonlyMap<string, string>;
    private readonly lowerCase: ReadonlyMap<string, string>;

    constructor(values: Readonly<Record<string, string>> | ReadonlyMap<string, string> = {}) {
        this.values = values instanceof Map ? new Map(values) : new Map(Object.entries(values));
        const lower = new Map<string, string>();
        for (const [key, value] of this.values) {
            if (!lower.has(key.toLowerCase())) {
                lower.set(key.toLowerCase(), value);
            }
        }
        this.lowerCase = lower;
    }

    /** These parameters with `SET` values applied on top (later entries win). */
    with(overrides: Iterable<readonly [string, string]>): PipelineParameters {
        const merged = new Map(this.values);
        for (const [key, value] of overrides) {
            // A later SET of the same key in another case replaces the earlier one.
            for (const existing of [...merged.keys()]) {
                if (existing.toLowerCase() === key.toLowerCase()) {
                    merged.delete(existing);
                }
            }
            merged.set(key, value);
        }
        return new PipelineParameters(merged);
    }

    /** The parameters as a plain record (for the engine IR and messages). */
    toRecord(): Record<string, string> {
        return Object.fromEntries(this.values);
    }

    /** A stable text of the values, for caches keyed by the parameters. */
    fingerprint(): string {
        return JSON.stringify([...this.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }

    /** The value of a parameter: an exact key first, then a key that differs only in case. */
    lookup(name: string): string | undefined {
        const key = name.trim().replace(/^(hiveconf|hivevar|spark):/i, '');
        return this.values.get(key) ?? this.lowerCase.get(key.toLowerCase());
    }

    /**
     * Replaces every `${name}` of a text. A parameter without a value is handed to `missing`, whose
     * answer replaces it (by default it stays as written, as Spark leaves unknown variables in strings).
     * The replacement is computed by a function, so `$&` or `$'` in a value are plain text.
     */
    substitute(text: string, missing: (name: string, whole: string) => string = (_name, whole) => whole): string {
        if (!text.includes('${')) {
            return text;
        }
        return text.replace(parameterPattern, (whole: string, name: string) => this.lookup(name) ?? missing(name, whole));
    }
}

/** True when a text holds a `${...}` parameter. */
export function hasParameter(text: string): boolean {
    return text.includes('${');
}
