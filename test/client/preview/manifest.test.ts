import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../../helpers/parse.js';

interface Manifest {
    activationEvents: string[];
    capabilities: { untrustedWorkspaces: { supported: boolean | string; description?: string; restrictedConfigurations?: string[] } };
    contributes: {
        commands: Array<{ command: string; category?: string; icon?: string; enablement?: string }>;
        menus: Record<string, Array<{ command: string; when?: string }>>;
        configuration: { properties: Record<string, { type: string; default: unknown; minimum?: number; maximum?: number }> };
    };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const runCommands = ['pipelineSql.runFlow', 'pipelineSql.runPipeline', 'pipelineSql.fullRefresh'];

test('the run commands are declared with the Pipeline SQL category and an icon, and need a trusted workspace', () => {
    for (const id of [...runCommands, 'pipelineSql.showGraph']) {
        const command = manifest.contributes.commands.find(c => c.command === id);
        expect(command, id).toBeDefined();
        expect(command).toMatchObject({ category: 'Pipeline SQL', icon: expect.stringMatching(/^\$\([a-z-]+\)$/) });
        expect(command?.enablement).toBe(runCommands.includes(id) ? 'isWorkspaceTrusted' : undefined);
    }
});

test('in Restricted Mode the extension is limited (language features on, runs off), with an explanation', () => {
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect(manifest.capabilities.untrustedWorkspaces.description).toMatch(/Running a pipeline .* need a trusted workspace; the language server refuses them too/);
});

test('in Restricted Mode VS Code ignores the workspace value of pipelineSql.run.allowedPaths (a repository cannot widen its own reads)', () => {
    expect(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations).toEqual(['pipelineSql.run.allowedPaths']);
    expect(manifest.contributes.configuration.properties['pipelineSql.run.allowedPaths']).toBeDefined();
});

test('the commands are in the palette and the editor title of pipeline files; runs only when trusted', () => {
    const palette = manifest.contributes.menus.commandPalette.map(m => m.command);
    expect(palette).toEqual(expect.arrayContaining([...runCommands, 'pipelineSql.showGraph']));
    const title = manifest.contributes.menus['editor/title'];
    for (const id of [...runCommands, 'pipelineSql.showGraph']) {
        const entry = title.find(m => m.command === id);
        expect(entry?.when, id).toContain('editorLangId == pipeline-sql');
        expect(entry?.when?.includes('isWorkspaceTrusted'), id).toBe(runCommands.includes(id));
    }
});

test('the preview panel revives the extension, and the row cap is a bounded setting', () => {
    expect(manifest.activationEvents).toContain('onWebviewPanel:pipelineSql.preview');
    expect(manifest.contributes.configuration.properties['pipelineSql.preview.maxRows']).toMatchObject({ type: 'integer', default: 10000, minimum: 1, maximum: 1000000 });
});

test('in Pipeline SQL files Enter is not taken by word suggestions: none are offered, and Enter accepts only an item that changes the text', () => {
    const defaults = (manifest.contributes as { configurationDefaults?: Record<string, Record<string, unknown>> }).configurationDefaults;
    expect(defaults?.['[pipeline-sql]']).toMatchObject({ 'editor.wordBasedSuggestions': 'off', 'editor.acceptSuggestionOnEnter': 'smart' });
});

test('"Run on Local State" is a command of the palette and of the editor\'s context menu on a selection of SQL files, only when trusted', () => {
    const command = manifest.contributes.commands.find(c => c.command === 'pipelineSql.runOnLocalState');
    expect(command).toMatchObject({ category: 'Pipeline SQL', enablement: 'isWorkspaceTrusted' });
    expect(manifest.contributes.menus.commandPalette.find(m => m.command === 'pipelineSql.runOnLocalState')?.when).toBe('editorLangId == pipeline-sql || editorLangId == sql');
    expect(manifest.contributes.menus['editor/context'].find(m => m.command === 'pipelineSql.runOnLocalState')?.when).toMatch(/editorHasSelection && isWorkspaceTrusted/);
});
