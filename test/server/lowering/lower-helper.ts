// Parses, validates and lowers pipeline files given as text, the way `pipeline-sql run` does for
// files on disk, and returns the printed IR or the printed problems.
import type { LangiumDocument } from 'langium';
import { EmptyFileSystem, URI } from 'langium';
import { clearDocuments } from 'langium/test';
import type { PipelineIR } from '../../../engine/src/index.js';
import { createPipelineSqlServices } from '../../../server/src/language/index.js';
import { lowerPipeline, type LoweringProblem, type PipelineSettings } from '../../../server/src/lowering/index.js';
import { printPipeline, printSpan } from './print-ir.js';

const { shared, PipelineSql } = createPipelineSqlServices(EmptyFileSystem);

/** The outcome of lowering some files. */
export interface Lowered {
    /** The IR (throws when the lowering failed). */
    pipeline: PipelineIR;
    /** The printed IR, one line per dataset / flow / catalog table. */
    lines: string[];
    /** The printed problems (`file:line:col-endLine:endCol CODE message`), empty on success. */
    problems: string[];
    /** Syntax errors of the files (the lowering expects none). */
    diagnostics: string[];
}

function printProblem(p: LoweringProblem): string {
    return `${printSpan(p.span)} ${p.code} ${p.message}`;
}

/**
 * Lowers pipeline files (`{ 'a.sql': text }`; a single text is `pipeline.sql`) with optional sample
 * catalog files and project settings. Services are created once per test file; documents are
 * removed before each call.
 */
export async function lower(files: Record<string, string> | string, options: { catalog?: Record<string, string>; settings?: PipelineSettings; standalone?: boolean } = {}): Promise<Lowered> {
    await clearDocuments(shared);
    // One pipeline root (as `pipeline-sql run` registers it), so that the pipeline model links
    // references across its files and knows samples/*.sql as the sample catalog.
    // `standalone` leaves the files outside any root: each is a pipeline of its own for the model,
    // whose links then stay within a file, and the lowering's name fallback resolves the rest.
    const settings = options.settings ?? { configuration: {} };
    if (options.standalone) {
        PipelineSql.pipeline.Registry.removeRoot('/pipeline');
    } else {
        PipelineSql.pipeline.Registry.addRoot('/pipeline', {
            includes: [], configuration: settings.configuration, catalog: settings.catalog, schema: settings.schema,
        }, '/pipeline/spark-pipeline.yml');
    }
    const create = (name: string, text: string): LangiumDocument => {
        const document = shared.workspace.LangiumDocumentFactory.fromString(text, URI.file(`/pipeline/${name}`));
        shared.workspace.LangiumDocuments.addDocument(document);
        return document;
    };
    const sources = Object.entries(typeof files === 'string' ? { 'pipeline.sql': files } : files).map(([name, text]) => create(name, text));
    const catalog = Object.entries(options.catalog ?? {}).map(([name, text]) => create(`samples/${name}`, text));
    await shared.workspace.DocumentBuilder.build([...sources, ...catalog], { validation: true });
    // The lowering needs text that parses; the pipeline model's semantic checks (unknown columns of
    // tables this test does not declare, for example) are tested with the model, not here.
    const diagnostics = [...sources, ...catalog].flatMap(d => (d.diagnostics ?? []).filter(x => x.severity === 1 && x.code === 'PARSE_SYNTAX_ERROR')
        .map(x => `${d.uri.path}:${x.range.start.line + 1}:${x.range.start.character + 1} ${x.message}`));
    const result = lowerPipeline(PipelineSql, { documents: sources, catalogDocuments: catalog, settings: options.settings });
    if (!result.ok) {
        return {
            get pipeline(): PipelineIR {
                throw new Error(`lowering failed:\n${result.problems.map(printProblem).join('\n')}`);
            },
            lines: [], problems: result.problems.map(printProblem), diagnostics,
        };
    }
    return { pipeline: result.pipeline, lines: printPipeline(result.pipeline), problems: [], diagnostics };
}

/** Lowers one query and returns it printed (the query is the body of a materialized view `q`). */
export async function lowerQuery(sql: string, extra = ''): Promise<string> {
    const result = await lower(`CREATE MATERIALIZED VIEW q AS ${sql};\n${extra}`);
    if (result.problems.length > 0 || result.diagnostics.length > 0) {
        throw new Error([...result.diagnostics, ...result.problems].join('\n'));
    }
    const flow = result.lines.find(l => l.startsWith('materialized_view q -> q: '));
    return flow!.slice('materialized_view q -> q: '.length);
}

/** Lowers one expression (as `SELECT <expr>`) and returns it printed. */
export async function lowerExpr(sql: string, extra = ''): Promise<string> {
    return (await lowerQuery(`SELECT ${sql}`, extra)).replace(/^SELECT /, '');
}

/** The first problem of lowering a text (throws when there is none). */
export async function firstProblem(files: Record<string, string> | string, options: Parameters<typeof lower>[1] = {}): Promise<string> {
    const result = await lower(files, options);
    if (result.diagnostics.length > 0) {
        throw new Error(`unexpected syntax errors: ${result.diagnostics.join('\n')}`);
    }
    if (result.problems.length === 0) {
        throw new Error(`no problem reported; lowered to:\n${result.lines.join('\n')}`);
    }
    return result.problems[0];
}
