import type { AstNode } from 'langium';
import type { TableSourceIR } from '../../../engine/src/index.js';
import { AstUtils } from 'langium';
import * as ast from '../language/generated/ast.js';
import { namePartsOfCst, withoutLive, type PipelineParameters } from './names.js';
import { fileOf } from './source-spans.js';

/** A dataset of the pipeline: its definition and its name as declared. */
export interface DatasetName {
    readonly node: ast.Dataset;
    readonly name: readonly string[];
}

/** What table resolution knows about the pipeline. */
export interface PipelineNames {
    readonly datasets: readonly DatasetName[];
    /** URIs of the pipeline's source documents: a reference resolved into any other file is not trusted. */
    readonly documents: ReadonlySet<string>;
    /** URIs of the sample catalog documents (`samples/*.sql`). */
    readonly catalogDocuments: ReadonlySet<string>;
    /** The pipeline's default catalog and schema (spark-pipeline.yml, SET CATALOG / SCHEMA, USE). */
    readonly defaults: { readonly catalog?: string; readonly schema?: string };
    readonly parameters: PipelineParameters;
}

/**
 * What a table reference names (`TableSourceIR`): a dataset of the pipeline, a CTE in scope, or a
 * table of the sample catalog.
 *
 * When Langium's linker resolved the reference (`DatasetRef.ref.ref`, filled by the pipeline model's
 * scope provider) to a definition in this pipeline, that target decides. Otherwise this function is
 * the fallback, by name: a CTE of an enclosing query, else a dataset whose declared name equals the
 * reference (without `LIVE.`, and with the pipeline's default catalog / schema as optional qualifiers),
 * else the sample catalog. It is the only place where the lowering resolves names.
 */
export function resolveTableSource(ref: ast.DatasetRef, names: PipelineNames): TableSourceIR {
    const refNode = ref.ref.$refNode;
    const parts = withoutLive(refNode ? namePartsOfCst(refNode, fileOf(ref), names.parameters) : ref.ref.$refText.split('.'));
    const target = linkedTarget(ref, names);
    if (target) {
        if (ast.isCommonTableExpression(target)) {
            return { kind: 'cte', name: target.name };
        }
        if (names.catalogDocuments.has(AstUtils.getDocument(target).uri.toString())) {
            return { kind: 'catalog', name: parts };
        }
        const dataset = names.datasets.find(d => d.node === target);
        if (dataset) {
            return { kind: 'dataset', name: [...dataset.name] };
        }
    }
    if (parts.length === 1) {
        const cte = cteInScope(ref, parts[0]);
        if (cte) {
            return { kind: 'cte', name: cte.name };
        }
    }
    return resolveTableName(parts, names);
}

/**
 * What a table name given as text names (`table_changes('t', 0)`, `DESCRIBE HISTORY t` by name): a
 * dataset whose declared name equals it (as table references match), else the sample catalog.
 */
export function resolveTableName(parts: readonly string[], names: PipelineNames): { kind: 'dataset' | 'catalog'; name: string[] } {
    const bare = withoutLive([...parts]);
    const dataset = names.datasets.find(d => namesMatch(d.name, bare, names.defaults));
    if (dataset) {
        return { kind: 'dataset', name: [...dataset.name] };
    }
    return { kind: 'catalog', name: bare };
}

/**
 * The parts of a table name written in a string (`'cat.sch.t'`, `'`my table`'`): dots outside back
 * quotes separate parts; undefined when the text is no well-formed name.
 */
export function tableNameParts(text: string): string[] | undefined {
    const parts: string[] = [];
    let current = '';
    let quoted = false;
    let wasQuoted = false;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (quoted) {
            if (ch === '`' && text[i + 1] === '`') {
                current += '`';
                i++;
            } else if (ch === '`') {
                quoted = false;
            } else {
                current += ch;
            }
        } else if (ch === '`') {
            quoted = true;
            wasQuoted = true;
        } else if (ch === '.') {
            if (current === '' && !wasQuoted) {
                return undefined;
            }
            parts.push(current);
            current = '';
            wasQuoted = false;
        } else {
            current += ch;
        }
    }
    if (quoted || (current.trim() === '' && !wasQuoted)) {
        return undefined;
    }
    parts.push(wasQuoted ? current : current.trim());
    return parts.map(p => p.trim() === p ? p : p.trim());
}

/** The definition Langium linked the reference to, when it lies in this pipeline (or its sample catalog). */
function linkedTarget(ref: ast.DatasetRef, names: PipelineNames): ast.TableSource | undefined {
    let target: ast.TableSource | undefined;
    try {
        target = ref.ref.ref;
    } catch {
        // A linker that cannot resolve (no scope for this document) leaves the fallback to decide.
        return undefined;
    }
    if (!target) {
        return undefined;
    }
    const uri = AstUtils.getDocument(target).uri.toString();
    return names.documents.has(uri) || names.catalogDocuments.has(uri) ? target : undefined;
}

/** The CTE named `name` of the nearest enclosing query that defines one (Spark identifiers are case-insensitive). */
function cteInScope(node: AstNode, name: string): ast.CommonTableExpression | undefined {
    const key = name.toLowerCase();
    for (let n: AstNode | undefined = node.$container; n; n = n.$container) {
        if (ast.isQuery(n)) {
            const cte = n.ctes.find(c => c.name.toLowerCase() === key);
            if (cte) {
                return cte;
            }
        }
    }
    return undefined;
}

/**
 * Whether a reference names a declared dataset: the same parts, or the same table name where the extra
 * qualifiers on either side are the pipeline's default catalog and schema.
 */
function namesMatch(declared: readonly string[], reference: readonly string[], defaults: PipelineNames['defaults']): boolean {
    const lower = (parts: readonly string[]) => parts.map(p => p.toLowerCase());
    const d = lower(withoutLive([...declared]));
    const r = lower(reference);
    const qualifiers = lower([defaults.catalog, defaults.schema].filter((p): p is string => p !== undefined));
    const full = (parts: string[]): string[] => {
        // Complete a name with the defaults it leaves out: `t` → `cat.sch.t`, `sch.t` → `cat.sch.t`.
        const missing = Math.max(0, qualifiers.length + 1 - parts.length);
        return [...qualifiers.slice(0, missing), ...parts];
    };
    if (d.join('.') === r.join('.')) {
        return true;
    }
    return qualifiers.length > 0 && full(d).join('.') === full(r).join('.');
}

