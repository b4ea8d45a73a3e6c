import type { AstNode, DiagnosticInfo, ValidationAcceptor } from 'langium';
import { AstUtils, GrammarUtils } from 'langium';
import type { Range } from 'vscode-languageserver';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import type { PipelineModel } from '../pipeline/pipeline-model.js';
import type { DocumentRole, PipelineInfo, PipelineMembership } from '../pipeline/pipeline-registry.js';
import type { PipelineSqlSettings, TargetProfile } from '../pipeline/pipeline-sql-settings.js';
import type { TypeComputer } from '../types/pipeline-sql-type-computer.js';
import type { IssueDefinition, IssueSeverity } from './issue-codes.js';

/** Where a diagnostic goes: a node and optionally one of its properties, keywords or an explicit range. */
export type IssueLocation = Omit<DiagnosticInfo<AstNode>, 'code' | 'data'> & { range?: Range };

/**
 * Reports one issue of the issue table: its severity (unless overridden), its message built from
 * `args`, its code, and `data` (the code plus facts the quick fixes need).
 */
export function report<A>(
    accept: ValidationAcceptor, issue: IssueDefinition<A>, args: A, location: IssueLocation,
    data: Record<string, unknown> = {}, severity: IssueSeverity = issue.severity,
): void {
    accept(severity, issue.message(args), { ...location, code: issue.code, data: { ...data, code: issue.code } } as DiagnosticInfo<AstNode>);
}

/**
 * What the checks need to know beyond the node they check: the pipeline model, schema inference,
 * the pipeline's project settings and the target profile.
 */
export class ValidationContext {

    readonly types: TypeComputer;
    private readonly services: PipelineSqlServices;
    private readonly settings: PipelineSqlSettings;

    constructor(services: PipelineSqlServices) {
        this.services = services;
        this.types = services.types.TypeComputer;
        this.settings = services.pipeline.Settings;
    }

    /** The model of the pipeline a node's document belongs to. */
    model(node: AstNode): PipelineModel {
        return this.services.pipeline.Model.modelFor(AstUtils.getDocument(node).uri);
    }

    /** The sample catalog tables of a node's pipeline (declared in `samples/*.sql`), each name by its parts as declared. */
    catalogTables(node: AstNode): Array<readonly string[]> {
        const symbols = this.services.references.SymbolIndex.symbolsOf(this.pipeline(node).id);
        return [...symbols.catalogTables.values()].map(symbol => symbol.name.parts);
    }

    /** The pipeline a node's document belongs to. */
    pipeline(node: AstNode): PipelineInfo {
        return this.services.pipeline.Registry.pipelineOf(AstUtils.getDocument(node).uri);
    }

    /** What a node's document is to its pipeline: a source, a sample catalog file or a scratch file. */
    role(node: AstNode): DocumentRole {
        return this.membership(node).role;
    }

    /** The pipeline of a node's document and the document's role there. */
    membership(node: AstNode): PipelineMembership {
        return this.services.pipeline.Registry.membershipOf(AstUtils.getDocument(node).uri);
    }

    /**
     * Whether the pipeline's set of files is known for certain (a root with a project file that
     * lists its libraries). Then a name missing from the pipeline is an error; for a lone file or a
     * folder without project file, a warning (the definition may live in a file not loaded).
     */
    certain(node: AstNode): boolean {
        return this.pipeline(node).specFile !== undefined;
    }

    /** The runtime the pipeline targets (`pipelineSql.target`). */
    get target(): TargetProfile {
        return this.settings.target;
    }

    /** `file.sql:line` of a node, for messages that point at another definition. */
    where(node: AstNode, from: AstNode): string {
        const document = AstUtils.getDocument(node);
        const line = (node.$cstNode?.range.start.line ?? 0) + 1;
        if (document === AstUtils.getDocument(from)) {
            return `line ${line}`;
        }
        const path = document.uri.path;
        return `${path.slice(path.lastIndexOf('/') + 1)}:${line}`;
    }
}

/** The range from the first keyword to the last (`APPLY` … `INTO`) of a node, if both are there. */
export function keywordSpan(node: AstNode, first: string, last: string): Range | undefined {
    const start = GrammarUtils.findNodeForKeyword(node.$cstNode, first);
    const end = GrammarUtils.findNodeForKeyword(node.$cstNode, last);
    return start && end ? { start: start.range.start, end: end.range.end } : undefined;
}
