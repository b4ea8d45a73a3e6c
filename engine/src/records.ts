/**
 * Plain-object records keyed by names from the workspace (dataset, column, flow and expectation
 * names, options, configuration keys). A plain object answers `constructor`, `toString` or
 * `__proto__` with what `Object.prototype` holds, and an assignment to `record['__proto__']` sets
 * the record's prototype instead of a field: a dataset or column with that name vanished from the
 * results. Reads and writes by such names go through these two functions (or a `Map`); the lint
 * rule `local/no-string-keyed-object-lookup` finds any that do not.
 */

/** The value a record holds under `key` itself (undefined for a key it lacks, inherited ones included). */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
    return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `record[key]` as an own field, whatever the key (`__proto__` included). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
