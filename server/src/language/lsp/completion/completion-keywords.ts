/**
 * Keyword and clause proposals: the grammar says which keyword may come next; this module turns a
 * keyword into the phrase a user types (`SEQUENCE` → `SEQUENCE BY`, `IGNORE` → `IGNORE NULL UPDATES`)
 * and leaves out the AUTO CDC clauses the validator would reject at the cursor: a clause already
 * written, one out of the documented order, one that does not fit the SCD type or the snapshot form,
 * or one the target runtime lacks.
 */
import type { AstNode, GrammarAST as GrammarTypes } from 'langium';
import { GrammarAST } from 'langium';
import { getKeywordDoc } from '../../builtins/keyword-docs.js';
import * as ast from '../../generated/ast.js';
import type { TargetProfile } from '../../pipeline/pipeline-sql-settings.js';
import { AutoCdcClauseRank, clauseRank } from '../../validation/auto-cdc-checks.js';
import { isNameFeature, ruleOf } from './completion-site.js';

/** Keywords of the join types: proposed as whole joins (`LEFT JOIN`). */
const joinPhrases: Readonly<Record<string, readonly string[]>> = {
    INNER: ['INNER JOIN'],
    CROSS: ['CROSS JOIN'],
    LEFT: ['LEFT JOIN', 'LEFT OUTER JOIN', 'LEFT SEMI JOIN', 'LEFT ANTI JOIN'],
    RIGHT: ['RIGHT JOIN', 'RIGHT OUTER JOIN'],
    FULL: ['FULL OUTER JOIN', 'FULL JOIN'],
    SEMI: ['SEMI JOIN'],
    ANTI: ['ANTI JOIN'],
};

/** The statements `CREATE` starts, proposed whole where a statement begins. */
const createPhrases: readonly string[] = [
    'CREATE OR REFRESH STREAMING TABLE', 'CREATE OR REFRESH MATERIALIZED VIEW', 'CREATE TEMPORARY VIEW', 'CREATE FLOW', 'CREATE VIEW',
    'CREATE TABLE', 'CREATE',
];

/** Rules of the expression grammar: their keywords continue an expression (operators), proposed after clauses. */
export const OperatorRules: ReadonlySet<string> = new Set([
    'LogicalExpression', 'ComparisonExpression', 'PredicateExpression', 'NotOperator', 'NotExpression', 'LikeOperator', 'LikeQuantifier',
    'IsTest', 'PostfixExpression',
]);

/** The AUTO CDC clause each clause rule starts, as written. */
export const CdcClausePhrases: Readonly<Record<string, string>> = {
    [ast.IgnoreNullUpdatesClause.$type]: 'IGNORE NULL UPDATES',
    [ast.ApplyAsDeleteClause.$type]: 'APPLY AS DELETE WHEN',
    [ast.ApplyAsTruncateClause.$type]: 'APPLY AS TRUNCATE WHEN',
    [ast.SequenceByClause.$type]: 'SEQUENCE BY',
    [ast.SystemSequenceByClause.$type]: 'SYSTEM SEQUENCE BY',
    [ast.ColumnsClause.$type]: 'COLUMNS',
    [ast.StoredAsClause.$type]: 'STORED AS',
    [ast.TrackHistoryClause.$type]: 'TRACK HISTORY ON',
    [ast.ColumnsToUpdateClause.$type]: 'COLUMNS TO UPDATE',
    [ast.FlowWhereClause.$type]: 'WHERE',
};

/** A keyword proposal: the phrase and the grammar rule it starts. */
export interface KeywordProposal {
    readonly phrase: string;
    readonly rule: string;
}

/** The keyword of an element (a keyword, or an assignment of one such as `once?='ONCE'`). */
function keywordOf(element: GrammarTypes.AbstractElement): GrammarTypes.Keyword | undefined {
    if (GrammarAST.isKeyword(element)) {
        return element;
    }
    if (GrammarAST.isAssignment(element) && GrammarAST.isKeyword(element.terminal)) {
        return element.terminal;
    }
    return undefined;
}

/**
 * The phrase a keyword starts: the keyword and the mandatory keywords that follow it in the same
 * grammar group, skipping optional parts (`STREAMING [LIVE] TABLE` → `STREAMING TABLE`).
 */
export function phraseOf(keyword: GrammarTypes.Keyword): string {
    const words = [keyword.value];
    let element: AstNode = keyword;
    if (GrammarAST.isAssignment(element.$container) && !(element.$container as GrammarTypes.Assignment).cardinality) {
        element = element.$container;
    }
    const group = element.$container;
    if (GrammarAST.isGroup(group) && !(element as GrammarTypes.AbstractElement).cardinality) {
        const elements = group.elements;
        for (let i = elements.indexOf(element as GrammarTypes.AbstractElement) + 1; i < elements.length; i++) {
            const next = elements[i];
            if (next.cardinality === '?' || next.cardinality === '*') {
                continue;
            }
            const word = keywordOf(next);
            if (!word || !/^[A-Z_]+$/.test(word.value)) {
                break;
            }
            words.push(word.value);
        }
    }
    return words.join(' ');
}

/** The keyword proposals of a grammar context: word keywords that are not names there, as phrases. */
export function keywordProposals(features: ReadonlyArray<{ feature: GrammarTypes.AbstractElement }>): KeywordProposal[] {
    const result = new Map<string, KeywordProposal>();
    for (const { feature } of features) {
        if (!GrammarAST.isKeyword(feature) || !/^[A-Z_]+$/.test(feature.value) || isNameFeature(feature)) {
            continue;
        }
        const rule = ruleOf(feature) ?? '';
        const phrases = rule === 'JoinType' ? (Object.hasOwn(joinPhrases, feature.value) ? joinPhrases[feature.value] : [feature.value])
            : rule === 'StoredAsClause' && feature.value === 'SCD' ? ['SCD TYPE 1', 'SCD TYPE 2']
                : rule === 'CreateStatement' && feature.value === 'CREATE' ? createPhrases
                    : rule === 'InsertStatement' && feature.value === 'INSERT' ? ['INSERT INTO', 'INSERT OVERWRITE']
                        : [phraseOf(feature)];
        for (const phrase of phrases) {
            if (!result.has(phrase)) {
                result.set(phrase, { phrase, rule });
            }
        }
    }
    return [...result.values()];
}

/** What the clause filter knows about the AUTO CDC spec around the cursor. */
export interface CdcSpecContext {
    /** The change-feed or snapshot spec (from a parse of the text without the word being typed). */
    readonly spec: ast.AutoCdcSpec | ast.SnapshotSpec;
    /** Offset of the cursor (clauses before it and after it are told apart). */
    readonly offset: number;
    readonly target: TargetProfile;
}

/** Whether the target runtime has a clause (its Spark availability in the keyword docs). */
function availableIn(target: TargetProfile, phrase: string): boolean {
    if (target === 'databricks') {
        return true;
    }
    const spark = getKeywordDoc(phrase)?.spark ?? 'no';
    return spark === 'yes' || (spark === '4.2' && target === 'spark-4.2');
}

/** The SCD storage the spec states outside the clause being typed: 1, 2, 'bitemporal', or undefined when not stated. */
function statedStorage(context: CdcSpecContext): 1 | 2 | 'bitemporal' | undefined {
    const stored = context.spec.clauses.filter(ast.isStoredAsClause)
        .filter(c => !containsOffset(c, context.offset) && (c.bitemporal || c.scdType !== undefined)).at(-1);
    if (!stored) {
        return undefined;
    }
    return stored.bitemporal ? 'bitemporal' : stored.scdType === 2 ? 2 : 1;
}

function containsOffset(node: AstNode, offset: number): boolean {
    const cst = node.$cstNode;
    return cst !== undefined && cst.offset <= offset && offset <= cst.end;
}

/**
 * Whether an AUTO CDC clause may be proposed at the cursor: not written yet, in the documented order
 * relative to the clauses before and after the cursor (Databricks rejects other orders), allowed in
 * the snapshot form, consistent with the SCD type and the other clauses (V3–V7), and available in the
 * target runtime.
 */
export function cdcClauseAllowed(clauseType: string, context: CdcSpecContext): boolean {
    const { spec, offset, target } = context;
    // The clause the cursor is in is the one being written; the others are fixed. So is a bare
    // `COLUMNS` before the cursor: the parser may have taken it for either COLUMNS clause.
    const clauses = spec.clauses.filter(c => !containsOffset(c, offset) && c.$cstNode?.text.trim().toUpperCase() !== 'COLUMNS');
    const present = new Set<string>(clauses.map(c => c.$type));
    if (present.has(clauseType)) {
        return false;
    }
    const phrase = Object.hasOwn(CdcClausePhrases, clauseType) ? CdcClausePhrases[clauseType] : undefined;
    if (!phrase || !availableIn(target, phrase)) {
        return false;
    }
    if (ast.isSnapshotSpec(spec)) {
        if (clauseType !== ast.StoredAsClause.$type && clauseType !== ast.TrackHistoryClause.$type) {
            return false;
        }
    } else if (clauseType === ast.FlowWhereClause.$type && !ast.isApplyChanges(spec.$container) && !ast.isApplyChangesFlow(spec.$container)) {
        // The WHERE filter belongs to the legacy APPLY CHANGES statement.
        return false;
    }
    const rank = clauseRank(clauseType);
    if (target === 'databricks' && rank !== undefined) {
        // Databricks rejects clauses out of the documented order.
        // SEQUENCE BY is required in a change feed: a clause that must follow it cannot come first.
        if (ast.isAutoCdcSpec(spec) && !present.has(ast.SequenceByClause.$type) && rank > AutoCdcClauseRank[ast.SequenceByClause.$type]) {
            return false;
        }
        for (const clause of clauses) {
            const cst = clause.$cstNode;
            const otherRank = AutoCdcClauseRank[clause.$type];
            if (cst && ((cst.end <= offset && otherRank > rank) || (cst.offset >= offset && otherRank < rank))) {
                return false;
            }
        }
    }
    const storage = statedStorage(context);
    switch (clauseType) {
        case ast.ApplyAsTruncateClause.$type:
            return storage === undefined || storage === 1;
        case ast.TrackHistoryClause.$type:
            return storage === 2;
        case ast.SystemSequenceByClause.$type:
            return storage === undefined || storage === 'bitemporal';
        case ast.ColumnsToUpdateClause.$type:
            return storage !== 'bitemporal' && !present.has(ast.IgnoreNullUpdatesClause.$type);
        case ast.IgnoreNullUpdatesClause.$type:
            return !present.has(ast.ColumnsToUpdateClause.$type);
        default:
            return true;
    }
}

/**
 * The storage kinds that may follow `STORED AS` in this spec: `SCD TYPE 1`, `SCD TYPE 2` and (change
 * feeds on Databricks) `BITEMPORAL`, less those that contradict the other clauses.
 */
export function storageAllowed(phrase: string, context: CdcSpecContext): boolean {
    const { spec, offset, target } = context;
    const clauses = spec.clauses.filter(c => !containsOffset(c, offset));
    const has = (guard: (c: ast.AutoCdcClause) => boolean): boolean => clauses.some(guard);
    if (!availableIn(target, phrase)) {
        return false;
    }
    if (phrase === 'BITEMPORAL') {
        return !ast.isSnapshotSpec(spec) && !has(ast.isApplyAsTruncateClause) && !has(ast.isTrackHistoryClause) && !has(ast.isColumnsToUpdateClause);
    }
    if (has(ast.isSystemSequenceByClause)) {
        return false;
    }
    if (phrase === 'SCD TYPE 1') {
        return !has(ast.isTrackHistoryClause);
    }
    return !has(ast.isApplyAsTruncateClause);
}

/** The clause type a keyword proposal starts, when it is an AUTO CDC clause. */
export function cdcClauseOf(proposal: KeywordProposal): string | undefined {
    return Object.hasOwn(CdcClausePhrases, proposal.rule) ? proposal.rule : undefined;
}
