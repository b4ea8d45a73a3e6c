// A function the local engine cannot run (its catalog row has no translation), or a call whose
// arguments it cannot run (sha2(x, 384)), stops an update before it starts, with the function's name, file and line: never an error halfway through the
// update. The editor reports the same calls as warnings (docs/functions.md lists what runs locally).
import { ErrorClass, UnsupportedFeatureError } from '../errors.js';
import type { CallExprIR, DatasetIR, FlowIR, SourceSpan } from '../ir.js';
import { getFunction, localFunction } from '../spark/functions/catalog.js';
import { argumentsNotAvailableLocally, notAvailableLocally } from '../spark/functions/local.js';
import { catalogArguments, translatesCall, translatesTableFunction } from '../sql/translate.js';
import { isView, type PipelinePlan } from './plan.js';

/**
 * Checks every function the datasets to be updated (`run`, dataset keys) call, in their flows, their
 * expectations and the views they read. Throws for the first one the engine cannot translate.
 */
export function checkLocalFunctions(plan: PipelinePlan, run: ReadonlySet<string>): void {
    const visited = new Set<string>();
    const pending = [...run];
    while (pending.length > 0) {
        const key = pending.pop()!;
        if (visited.has(key)) {
            continue;
        }
        visited.add(key);
        const dataset = plan.datasets.get(key);
        if (!dataset) {
            continue;
        }
        findUnavailable(dataset);
        for (const flow of plan.flowsByTarget.get(key) ?? []) {
            findUnavailable(flow);
        }
        // A view is computed when read: what it calls runs in this update too.
        for (const read of plan.upstream.get(key) ?? []) {
            const readDataset = plan.datasets.get(read);
            if (readDataset && isView(readDataset)) {
                pending.push(read);
            }
        }
    }
}

/**
 * Throws for the first call (`kind: 'call'`) or table-valued function in FROM (`kind:
 * 'table_function'`) under a dataset or flow that the engine cannot translate. The IR is plain data,
 * so a walk over all of its values reaches queries, expectations, AUTO CDC clauses and generated
 * columns alike, and cannot miss a place a new IR field adds.
 */
function findUnavailable(node: DatasetIR | FlowIR | unknown): void {
    if (Array.isArray(node)) {
        node.forEach(findUnavailable);
        return;
    }
    if (typeof node !== 'object' || node === null) {
        return;
    }
    const record = node as Record<string, unknown>;
    const name = typeof record.name === 'string' ? record.name : undefined;
    if (name !== undefined && ((record.kind === 'call' && !translatesCall(name)) || (record.kind === 'table_function' && !translatesTableFunction(name)))) {
        const why = getFunction(name) ? 'it has no exact DuckDB translation' : 'it is not a built-in function (a user-defined function of the real catalog cannot run here)';
        throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction,
            `${notAvailableLocally(name)}: ${why}, so the update did not start.`, { span: record.span as SourceSpan | undefined });
    }
    if (name !== undefined && record.kind === 'call') {
        // Arguments that make the call unavailable (sha2(x, 384)): the types of literals are known here,
        // the others count as unknown (the translator checks again with every type it infers).
        const call = node as CallExprIR;
        const reason = localFunction(name)?.unavailable?.(catalogArguments(call, call.args.map(a => (a.kind === 'literal' ? a.type : undefined))));
        if (reason !== undefined) {
            throw new UnsupportedFeatureError(ErrorClass.unsupportedFunction,
                `${argumentsNotAvailableLocally(name, reason)}, so the update did not start.`, { span: call.span });
        }
    }
    for (const value of Object.values(record)) {
        findUnavailable(value);
    }
}
