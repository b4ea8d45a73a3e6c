/**
 * Diagnostics from runs (runtime errors on the responsible clause, lowering problems), kept per
 * pipeline until its next run, and published together with each document's validation diagnostics:
 * whenever Langium publishes a document's validation result, the run's diagnostics are added again.
 */
import type { Diagnostic } from 'vscode-languageserver';

/** How diagnostics reach the client, and what validation says about a document. */
export interface DiagnosticsSink {
    publish(uri: string, diagnostics: Diagnostic[]): void;
    validation(uri: string): Diagnostic[];
}

/** The run diagnostics of every pipeline, by root, then document. */
export class RuntimeDiagnostics {
    private readonly byRoot = new Map<string, Map<string, Diagnostic[]>>();

    constructor(private readonly sink: DiagnosticsSink) {}

    /**
     * Replaces the run diagnostics of a pipeline (an empty list clears them) and publishes every
     * document whose diagnostics changed. Returns those documents.
     */
    replace(root: string, entries: ReadonlyArray<{ uri: string; diagnostic: Diagnostic }>): string[] {
        const before = this.byRoot.get(root) ?? new Map<string, Diagnostic[]>();
        const after = new Map<string, Diagnostic[]>();
        for (const { uri, diagnostic } of entries) {
            after.set(uri, [...(after.get(uri) ?? []), diagnostic]);
        }
        if (after.size > 0) {
            this.byRoot.set(root, after);
        } else {
            this.byRoot.delete(root);
        }
        const touched = [...new Set([...before.keys(), ...after.keys()])];
        touched.forEach(uri => this.republish(uri));
        return touched;
    }

    /** The run diagnostics of a document, from every pipeline. */
    of(uri: string): Diagnostic[] {
        return [...this.byRoot.values()].flatMap(m => m.get(uri) ?? []);
    }

    /** Whether a document has run diagnostics. */
    has(uri: string): boolean {
        return [...this.byRoot.values()].some(m => m.has(uri));
    }

    /** Publishes a document's validation diagnostics plus its run diagnostics. */
    republish(uri: string): void {
        this.sink.publish(uri, [...this.sink.validation(uri), ...this.of(uri)]);
    }
}
