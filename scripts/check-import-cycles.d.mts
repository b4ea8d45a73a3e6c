/** See check-import-cycles.mjs. */
export interface ImportCycle {
    /** The files of the cycle's strongly connected component, sorted. */
    readonly files: string[];
    /** One shortest import chain through them, ending where it starts. */
    readonly chain: string[];
}
export function findImportCycles(roots: string[]): ImportCycle[];
export function valueImportGraph(roots: string[]): Map<string, string[]>;
