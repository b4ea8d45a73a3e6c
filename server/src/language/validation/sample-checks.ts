/**
 * Checks of sample data reads (the local sample catalog): a sample table, a `CREATE TABLE ...
 * LOCATION` of `samples/*.sql` or a `read_files` path that reads outside the pipeline is reported
 * without reading anything (reads stay inside the pipeline root and the folders the user allowed);
 * sample data that cannot be read (a malformed file, a FIFO, an unknown format) is reported where the
 * read is written, with the file and line of the problem.
 */
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import { AstUtils } from 'langium';
import * as ast from '../generated/ast.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { functionName } from '../pipeline/pipeline-model.js';
import { pathArgument, type SampleCatalog, type SourceSchema } from '../pipeline/sample-catalog.js';
import { displayName } from '../references/dataset-names.js';
import { Issues } from './issue-codes.js';
import { report, type IssueLocation, type ValidationContext } from './validation-context.js';

/** The sample data checks. */
export class SampleChecks {

    private readonly samples: SampleCatalog;

    constructor(private readonly context: ValidationContext, private readonly services: PipelineSqlServices) {
        this.samples = services.pipeline.SampleCatalog;
    }

    /** The checks of this class, by node type. */
    checks(): ValidationChecks<ast.PipelineSqlAstType> {
        return {
            DatasetRef: this.checkSampleTableRead,
            TableFunctionCall: this.checkReadFilesPath,
            CreateTable: this.checkCatalogTableLocation,
        };
    }

    /** A table read by the sample naming convention (`a.b` → `samples/a/b.*`) whose data cannot be read. */
    checkSampleTableRead = (reference: ast.DatasetRef, accept: ValidationAcceptor): void => {
        if (reference.$containerProperty === 'target' || reference.ref.ref) {
            return;
        }
        const source = this.context.types.externalSource(reference);
        if (source.name.parameterized || !source.problem) {
            return;
        }
        this.reportProblem(accept, displayName(source.name), source, { node: reference }, 'error');
    };

    /**
     * `read_files(path)` / `cloud_files(path, ...)`: a local path outside the pipeline, or files there
     * that cannot be read, on the path literal. A path that does not exist locally (a Databricks
     * volume, DBFS) is not reported: it may well exist where the pipeline runs. Outside reads are
     * warnings here, since such paths are fine on Databricks; the local run refuses them.
     */
    checkReadFilesPath = (call: ast.TableFunctionCall, accept: ValidationAcceptor): void => {
        const name = functionName(call);
        if (name !== 'read_files' && name !== 'cloud_files') {
            return;
        }
        const pipeline = this.context.pipeline(call);
        const source = this.samples.readFiles(pipeline, call, name);
        const argument = pathArgument(call);
        if (!source.problem || !argument || source.problemKind === 'missing' || source.problemKind === 'cloud') {
            return;
        }
        this.reportProblem(accept, `${name}(...)`, source, { node: argument, property: 'value' }, 'warning');
    };

    /** A sample table declared in `samples/*.sql` without columns: its LOCATION (or conventional data) must be readable and inside the pipeline. */
    checkCatalogTableLocation = (table: ast.CreateTable, accept: ValidationAcceptor): void => {
        const document = AstUtils.getDocument(table);
        const membership = this.services.pipeline.Registry.membershipOf(document.uri);
        if (membership.role !== 'catalog' || (table.spec?.elements ?? []).some(ast.isColumnDef)) {
            return;
        }
        const name = this.services.references.SymbolIndex.parseName(membership.pipeline, table.name);
        const source = this.samples.catalogTable(membership.pipeline, table, name);
        if (!source.problem) {
            return;
        }
        const location = table.clauses.find(ast.isLocationClause);
        this.reportProblem(accept, name.text, source, location ? { node: location, property: 'path' } : { node: table, property: 'name' }, 'error');
    };

    private reportProblem(accept: ValidationAcceptor, name: string, source: Pick<SourceSchema, 'problem'> & { readonly problemKind?: string }, location: IssueLocation, outsideSeverity: 'error' | 'warning'): void {
        if (source.problemKind === 'outside') {
            report(accept, Issues.SampleReadOutsidePipeline, { problem: source.problem! }, location, {}, outsideSeverity);
        } else {
            report(accept, Issues.SampleDataUnreadable, { name, problem: source.problem!.replace(/\.$/, '') }, location);
        }
    }
}
