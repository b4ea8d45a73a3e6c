// The editor and the CLI agree: every fixture, sample and corpus pipeline opened as a workspace in the
// language server (over stdio, as any editor does) gets exactly the diagnostics `check --json` reports
// on the same folder, diagnostic for diagnostic (project files included).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { NodeFileSystem } from 'langium/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node.js';
import { checkPaths, displayPath, NothingToCheckError, planCheck, toCliDiagnostic, type CliDiagnostic } from '../../../server/src/cli/check.js';
import { createPipelineSqlServices } from '../../../server/src/language/pipeline-sql-module.js';
import { repoRoot, startStdioServer, type StdioServer } from '../../helpers/lsp-client.js';

const corpusDir = path.resolve(repoRoot, '../shared/corpus/pipelines');
const haveCorpus = fs.existsSync(corpusDir);

const folders = [
    path.join(repoRoot, 'test/fixtures/bundles/shop'),
    // A file two pipelines list: check reports it in each, the editor once on the file.
    path.join(repoRoot, 'test/fixtures/bundles/twins'),
    ...fs.readdirSync(path.join(repoRoot, 'samples')).map(d => path.join(repoRoot, 'samples', d)),
    ...fs.readdirSync(path.join(repoRoot, 'test/fixtures/preview')).map(d => path.join(repoRoot, 'test/fixtures/preview', d)),
    ...(haveCorpus ? fs.readdirSync(corpusDir).map(d => path.join(corpusDir, d)) : []),
];

const key = (d: CliDiagnostic): string => `${d.file}:${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.severity} ${d.code} ${d.message}`;

let server: StdioServer | undefined;
afterAll(async () => server?.stop());

/** Waits until every expected file has diagnostics and nothing new was published for a moment. */
async function published(s: StdioServer, uris: readonly string[]): Promise<ReadonlyMap<string, PublishDiagnosticsParams>> {
    await Promise.all(uris.map(uri => s.settled(uri)));
    let count = -1;
    for (let quiet = 0; quiet < 3;) {
        await new Promise(resolve => setTimeout(resolve, 300));
        quiet = s.publications === count ? quiet + 1 : 0;
        count = s.publications;
    }
    return s.lastPublished;
}

describe('the language server publishes what check --json reports', () => {
    if (!haveCorpus) {
        test.skip('corpus pipelines (../shared/corpus missing: only the repository\'s pipelines are compared)', () => undefined);
    }
    test.each(folders.map(f => [path.relative(path.dirname(repoRoot), f), f]))('%s', async (_name, folder) => {
        // A folder where check finds nothing to check (exit 2) is one where the editor loads nothing either.
        const nothing = (error: unknown) => {
            if (error instanceof NothingToCheckError) {
                return undefined;
            }
            throw error;
        };
        const cli = await checkPaths([folder]).catch(nothing) ?? [];
        const plan = await planCheck([folder], createPipelineSqlServices(NodeFileSystem)).catch(nothing);
        const project = plan?.pipelines ?? [];
        const expectedFiles = new Set([
            ...project.flatMap(p => p.sources),
            ...cli.map(d => path.resolve(d.file)),
        ].map(f => `file://${f}`));
        await server?.stop();
        server = await startStdioServer(folder);
        const latest = await published(server, [...expectedFiles]);
        const lsp = [...latest.values()].flatMap(p => p.diagnostics.map(d => toCliDiagnostic(displayPath(fileURLToPath(p.uri)), d)));
        // A diagnostic two pipelines find in a file they share is in each pipeline's part of check's
        // output, and once on the file in the editor.
        expect(lsp.map(key).sort()).toEqual([...new Set(cli.map(key))].sort());
    }, 120_000);
});
