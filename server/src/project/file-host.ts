/**
 * The model's only access to files: asynchronous reads through Langium's `FileSystemProvider`, so
 * the language server does no synchronous disk reads of its own and another provider (a web
 * extension's) can stand in. Paths are absolute file-system paths.
 */
import * as path from 'node:path';
import { URI, type FileSystemProvider } from 'langium';

/** A folder entry. Symbolic links are neither files nor folders here, so walks never follow them. */
export interface HostEntry {
    readonly name: string;
    readonly isFile: boolean;
    readonly isDirectory: boolean;
}

/** What the project model reads. */
export interface ProjectFileHost {
    /** The text of a file; undefined when it does not exist or is not a readable file. */
    readFile(filePath: string): Promise<string | undefined>;
    /** The entries of a folder; empty when it does not exist or cannot be read. */
    readDirectory(dirPath: string): Promise<HostEntry[]>;
}

/** A host over Langium's file-system provider (NodeFileSystem in the server and the CLI). */
export function langiumFileHost(provider: FileSystemProvider): ProjectFileHost {
    return {
        async readFile(filePath: string): Promise<string | undefined> {
            try {
                return await provider.readFile(URI.file(filePath));
            } catch (error) {
                if (isMissing(error)) {
                    return undefined;
                }
                throw error;
            }
        },
        async readDirectory(dirPath: string): Promise<HostEntry[]> {
            try {
                const entries = await provider.readDirectory(URI.file(dirPath));
                return entries.map(entry => ({ name: path.basename(entry.uri.fsPath), isFile: entry.isFile, isDirectory: entry.isDirectory }));
            } catch (error) {
                if (isMissing(error)) {
                    return [];
                }
                throw error;
            }
        },
    };
}

/** Errors that mean "nothing there to read" rather than a failure to report. */
function isMissing(error: unknown): boolean {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'EACCES' || code === 'EPERM' || code === 'ELOOP';
}
