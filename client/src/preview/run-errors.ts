import * as vscode from 'vscode';

/** Why a run could not be done or did not succeed. */
export type RunProblem =
    /** Restricted mode: running reads workspace files and runs the engine. */
    | { readonly kind: 'untrusted' }
    /** No Pipeline SQL document to run. */
    | { readonly kind: 'noDocument' }
    /** The document defines no dataset to run. */
    | { readonly kind: 'noDataset' }
    /** The language server is not available or the request failed. */
    | { readonly kind: 'server'; readonly message: string; readonly showOutput: () => void };

/** The explanation shown when a run command is used in an untrusted workspace. */
export const UntrustedExplanation = 'Running a pipeline reads the workspace\'s sample data and runs the bundled engine, so it is disabled until you trust this workspace. Language features keep working.';

/**
 * Tells the user about a run that could not be done, one handler per kind, each with the action that
 * helps: managing workspace trust, or showing the server output. A run that ran and failed is shown
 * by the preview, the diagnostic on its clause and the status item instead (see `RunController`).
 */
export async function showRunProblem(problem: RunProblem): Promise<void> {
    switch (problem.kind) {
        case 'untrusted': {
            const choice = await vscode.window.showWarningMessage(`Pipeline SQL: ${UntrustedExplanation}`, 'Manage Workspace Trust');
            if (choice) {
                await vscode.commands.executeCommand('workbench.trust.manage');
            }
            return;
        }
        case 'noDocument':
            await vscode.window.showInformationMessage('Pipeline SQL: open a pipeline SQL file to run it.');
            return;
        case 'noDataset':
            await vscode.window.showInformationMessage('Pipeline SQL: this file defines no dataset or flow to run.');
            return;
        case 'server': {
            const choice = await vscode.window.showErrorMessage(`Pipeline SQL: the run could not be done: ${problem.message}`, 'Show Output');
            if (choice) {
                problem.showOutput();
            }
            return;
        }
    }
}
