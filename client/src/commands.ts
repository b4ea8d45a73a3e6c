import * as vscode from 'vscode';
import { CommandIds } from './config.js';
import type { PipelineSqlClient } from './language-client.js';

/** Registers the palette commands (ids and titles declared in package.json under the "Pipeline SQL" category). */
export function registerCommands(client: PipelineSqlClient): vscode.Disposable {
    return vscode.Disposable.from(
        vscode.commands.registerCommand(CommandIds.restartServer, () => client.restart()),
        vscode.commands.registerCommand(CommandIds.showOutput, () => client.outputChannel.show(true)),
    );
}
