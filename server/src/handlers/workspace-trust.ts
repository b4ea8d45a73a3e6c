/**
 * The workspace's trust as the client reports it: in `initialize` (`initializationOptions.
 * workspaceTrusted`) and by `pipelineSql/workspaceTrust` when it changes. The server enforces it
 * itself: in an untrusted workspace (VS Code's Restricted Mode) no request evaluates workspace SQL
 * or opens a workspace DuckDB file (runs, the state behind the results panel, rows, change events),
 * whatever the client asks; and folders the workspace's settings allow beyond the pipeline root are
 * not honoured. Diagnostics, the other editor features and the static pipeline graph keep working.
 */
import type { RunErrorModel } from '../../../common/result-model.js';
import { UntrustedWorkspaceClass, type PipelineSqlInitializationOptions } from '../../../common/protocol.js';

/** The trust of the workspace the server serves. */
export class WorkspaceTrust {

    private value: boolean;
    private readonly listeners = new Set<(trusted: boolean) => void>();

    /** A client that says nothing (another editor over stdio) has no Restricted Mode: trusted. */
    constructor(trusted = true) {
        this.value = trusted;
    }

    get trusted(): boolean {
        return this.value;
    }

    /** Records what the client reported; listeners hear of a change. */
    set(trusted: boolean): void {
        if (trusted !== this.value) {
            this.value = trusted;
            this.listeners.forEach(listener => listener(trusted));
        }
    }

    /** Calls `listener` on every change. */
    onDidChange(listener: (trusted: boolean) => void): { dispose(): void } {
        this.listeners.add(listener);
        return { dispose: () => this.listeners.delete(listener) };
    }
}

/** The trust an `initialize` request's options state (absent or malformed: trusted, see {@link WorkspaceTrust}). */
export function trustOfInitializationOptions(options: unknown): boolean {
    const value = typeof options === 'object' && options !== null ? (options as PipelineSqlInitializationOptions).workspaceTrusted : undefined;
    return typeof value === 'boolean' ? value : true;
}

/** The failure of a request refused in an untrusted workspace. */
export function untrustedWorkspaceError(what: string): RunErrorModel {
    return {
        class: UntrustedWorkspaceClass,
        message: `This workspace is not trusted (Restricted Mode), so Pipeline SQL does not ${what}: that would evaluate the workspace's SQL `
            + 'or open its state database. Trust the workspace to run pipelines; diagnostics and the pipeline graph work without it.',
    };
}
