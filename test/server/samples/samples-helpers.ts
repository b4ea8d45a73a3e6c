// Pipelines on disk for the sample scaffolding tests: a temporary folder, loaded as the CLI loads it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from 'langium/node';
import { buildFiles } from '../../../server/src/cli/check.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { sourceRequirements, type SourceRequirements } from '../../../server/src/samples/source-requirements.js';

/** Writes files (path → text) under a new temporary folder and returns it. */
export function pipelineFolder(files: Record<string, string>): string {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-sql-scaffold-')));
    for (const [relative, text] of Object.entries(files)) {
        const file = path.join(root, relative);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
    }
    return root;
}

/** A spark-pipeline.yml folder with these SQL files under transformations/. */
export function sqlPipeline(sql: Record<string, string>, extra: Record<string, string> = {}): string {
    return pipelineFolder({
        'spark-pipeline.yml': 'name: scaffold\nlibraries:\n  - glob:\n      include: transformations/**\n',
        ...Object.fromEntries(Object.entries(sql).map(([name, text]) => [`transformations/${name}`, text])),
        ...extra,
    });
}

/** The source requirements of the (only) pipeline in a folder. */
export async function requirementsOf(root: string): Promise<SourceRequirements> {
    const { shared, PipelineSql } = createPipelineSqlServices(NodeFileSystem);
    const set = await shared.pipeline.Project.loadFolder(root);
    const pipeline = set.pipelines[0];
    const catalog = shared.pipeline.Project.catalogFilesOf(pipeline);
    const documents = await buildFiles(shared, [...pipeline.sources, ...catalog]);
    const sources = new Set(pipeline.sources);
    return sourceRequirements(PipelineSql, PipelineSql.pipeline.Registry.infoOf(pipeline), documents.filter(d => sources.has(d.uri.fsPath)));
}
