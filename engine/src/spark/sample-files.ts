// Where sample data lives and which files a read may touch: the one implementation of sample-file
// access that the editor (schema inference for validation and hover) and the engine (runs) share.
//
// - Formats by extension: `.csv`, `.tsv` (CSV with a tab delimiter), `.json` / `.jsonl` / `.ndjson`,
//   `.parquet`, each CSV or JSON one also gzip-compressed (`users.csv.gz`).
// - Locating: a table `a.b` is `samples/a/b.<ext>` or the folder `samples/a/b/` (names compared
//   case-insensitively, the exact spelling first); a `CREATE TABLE ... LOCATION 'rel'` in
//   `samples/*.sql` is relative to the samples folder; a `read_files` path is relative to the pipeline
//   root (`file:` URLs are local files, `/Volumes/...` maps to `samples/Volumes/...`).
// - Containment: every path is resolved with its symlinks (realpath) and must lie under one of the
//   read roots (the pipeline root, plus folders the user allowed); anything else is refused before a
//   byte is read, with a message naming the path and the way to allow it.
// - Only regular files are read (a FIFO or a device never blocks a reader), and only through
//   `readHead`, which reads a bounded prefix.
//
// Nothing here needs DuckDB, so `pipeline-sql check` stays light. Every disk access goes through the
// `SampleDisk` of the sample folders (`sample-disk.ts`): the disk itself for the CLI and runs, a
// snapshot read asynchronously in the language server.
import * as path from 'node:path';
import { setOwn } from '../records.js';
import { nodeSampleDisk, notRegularMessage, type SampleDisk, type SampleStat } from './sample-disk.js';

/** The data formats the sample catalog reads. */
export type SampleFormat = 'csv' | 'json' | 'parquet';

/** How a data file is stored, as its name says. */
export interface FileFormat {
    readonly format: SampleFormat;
    readonly gzip: boolean;
    /** `.tsv`: CSV with a tab delimiter (unless the options say otherwise). */
    readonly delimiter?: string;
}

/** Data file extensions, longest first so that `.csv.gz` wins over `.gz`. */
const extensions: ReadonlyArray<readonly [string, FileFormat]> = [
    ['.csv.gz', { format: 'csv', gzip: true }],
    ['.tsv.gz', { format: 'csv', gzip: true, delimiter: '\t' }],
    ['.json.gz', { format: 'json', gzip: true }],
    ['.jsonl.gz', { format: 'json', gzip: true }],
    ['.ndjson.gz', { format: 'json', gzip: true }],
    ['.csv', { format: 'csv', gzip: false }],
    ['.tsv', { format: 'csv', gzip: false, delimiter: '\t' }],
    ['.json', { format: 'json', gzip: false }],
    ['.jsonl', { format: 'json', gzip: false }],
    ['.ndjson', { format: 'json', gzip: false }],
    ['.parquet', { format: 'parquet', gzip: false }],
];

/** The extensions of data files, for messages (`.csv, .tsv, ...`). */
export const DataFileExtensions: readonly string[] = extensions.map(([ext]) => ext);

/** The format a data file's name stands for (`users.csv.gz` → gzip CSV), if any. */
export function formatOfFile(file: string): FileFormat | undefined {
    const name = path.basename(file).toLowerCase();
    return extensions.find(([ext]) => name.endsWith(ext) && name.length > ext.length)?.[1];
}

/** Maps a `USING` / `format =>` name to a sample format (`jsonl` is JSON); undefined for others (`delta`, `text`). */
export function formatFromName(name: string | undefined): SampleFormat | undefined {
    switch (name?.toLowerCase()) {
        case 'csv': return 'csv';
        case 'json': case 'jsonl': case 'ndjson': return 'json';
        case 'parquet': return 'parquet';
        default: return undefined;
    }
}

/** Why a sample read cannot go ahead; `kind` decides the error class, `message` is a full sentence. */
export interface SampleProblem {
    readonly kind: 'missing' | 'outside' | 'not_regular' | 'format' | 'unreadable' | 'malformed' | 'too_large' | 'cloud';
    readonly message: string;
    /** The data file concerned, when there is one. */
    readonly file?: string;
    /** 1-based line inside `file`. */
    readonly line?: number;
}

/** Problems that lie in one data file: their message leaves the file (and line) to `file` / `line`. */
const inFileKinds: ReadonlySet<SampleProblem['kind']> = new Set(['not_regular', 'unreadable', 'malformed']);

/** A problem as one line for messages: `samples/a/b.json:2: Expected ...` for a problem in a file, else its message. */
export function describeProblem(dirs: Pick<SampleDirs, 'rootDir'>, problem: SampleProblem): string {
    if (problem.file === undefined || !inFileKinds.has(problem.kind)) {
        return problem.message;
    }
    return `${displayPath(dirs, problem.file)}${problem.line !== undefined ? `:${problem.line}` : ''}: ${problem.message}`;
}

/** Whether a problem lies in its data file (its message does not name the file). */
export function isInFileProblem(problem: SampleProblem): boolean {
    return inFileKinds.has(problem.kind);
}

/** A result that is either a value or the problem that prevented it. */
export type SampleResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: SampleProblem };

const ok = <T>(value: T): SampleResult<T> => ({ ok: true, value });
const fail = <T>(problem: SampleProblem): SampleResult<T> => ({ ok: false, problem });

/** The folders reads may touch: absolute, symlink-resolved. */
export class ReadRoots {
    private constructor(readonly roots: readonly string[]) {}

    /** Read roots from folders (resolved, with their symlinks; a folder that does not exist is kept as written). */
    static of(folders: readonly string[], disk: SampleDisk = nodeSampleDisk): ReadRoots {
        const roots = folders.map(folder => {
            const absolute = path.resolve(folder);
            try {
                return disk.realpath(absolute);
            } catch {
                return absolute;
            }
        });
        return new ReadRoots([...new Set(roots)]);
    }

    /** Whether a real (symlink-resolved) path lies under a root. */
    contains(realPath: string): boolean {
        return this.roots.some(root => realPath === root || realPath.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
    }

    /** A key for caches (two equal sets of roots give the same key). */
    get key(): string {
        return [...this.roots].sort().join('\0');
    }
}

/** The folders of a pipeline that sample reads start from, and the roots they must stay in. */
export interface SampleDirs {
    /** The pipeline root: relative `read_files` paths start here, and messages name paths relative to it. */
    readonly rootDir: string;
    /** `ROOT/samples`. */
    readonly samplesDir: string;
    readonly readRoots: ReadRoots;
    /** What reads the disk (the disk itself, or the language server's snapshot). */
    readonly disk: SampleDisk;
}

/** Sample folders for a pipeline root, reading only inside it unless `allowed` adds folders. */
export function sampleDirs(rootDir: string, options: { samplesDir?: string; readRoots?: readonly string[]; disk?: SampleDisk } = {}): SampleDirs {
    const root = path.resolve(rootDir);
    const disk = options.disk ?? nodeSampleDisk;
    return {
        rootDir: root,
        samplesDir: path.resolve(options.samplesDir ?? path.join(root, 'samples')),
        readRoots: ReadRoots.of(options.readRoots ?? [root], disk),
        disk,
    };
}

/** A path as messages show it: relative to the pipeline root when inside it, else absolute. */
export function displayPath(dirs: Pick<SampleDirs, 'rootDir'>, file: string): string {
    const relative = path.relative(dirs.rootDir, file);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}

/** How to allow reads outside the pipeline, for messages. */
export const AllowReadHint = 'reads stay inside the pipeline folder; to allow this folder, pass --allow-read DIR to pipeline-sql, '
    + 'or add it to the pipelineSql.run.allowedPaths setting (honoured in a trusted workspace only)';

/** Resolves a path with its symlinks and checks that it lies under a read root; a path that does not exist is `missing`. */
export function checkContained(dirs: SampleDirs, location: string): SampleResult<string> {
    let real: string;
    try {
        real = dirs.disk.realpath(location);
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
            // A path that does not exist reads nothing, wherever it points (a dangling symlink included).
            return fail({ kind: 'missing', message: `'${displayPath(dirs, location)}' does not exist.`, file: location });
        }
        return fail({ kind: 'unreadable', message: `cannot be read (${(error as Error).message})`, file: location });
    }
    if (!dirs.readRoots.contains(real)) {
        const via = path.resolve(location) === real ? '' : ` (it resolves to '${real}')`;
        const others = dirs.readRoots.roots.length - 1;
        const allowed = others > 0 ? ` and the ${others === 1 ? 'folder' : `${others} folders`} allowed` : '';
        return fail({
            kind: 'outside',
            message: `'${displayPath(dirs, location)}'${via} is outside the pipeline folder '${dirs.rootDir}'${allowed}: ${AllowReadHint}.`,
            file: location,
        });
    }
    return ok(real);
}

//#region Locating sources

/** A sample source before its files are listed: a file or folder, and how to read it. */
export interface SampleLocation {
    /** Absolute path as located (not symlink-resolved: messages and `_metadata` show this path). */
    readonly location: string;
    /** The declared or named format, if one was given; otherwise the files' extensions decide. */
    readonly format?: SampleFormat;
}

const isDirectory = (stat: SampleStat): boolean => stat.kind === 'directory';

/** Finds `name` in `dir` case-insensitively, the exact spelling first; only entries `want` accepts. */
function findEntry(disk: SampleDisk, dir: string, name: string, want: (stat: SampleStat) => boolean): string | undefined {
    const exact = path.join(dir, name);
    const stat = disk.stat(exact);
    if (stat && want(stat)) {
        return exact;
    }
    if (!stat && disk.stat(dir)?.kind !== 'directory') {
        return undefined;
    }
    const entries = entriesOf(disk, dir);
    return entries && matchEntry(disk, dir, entries, name, want);
}

/** The names in a folder; undefined when it is missing, not a folder, or not readable. */
function entriesOf(disk: SampleDisk, dir: string): string[] | undefined {
    try {
        return disk.readdir(dir).map(entry => entry.name);
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') {
            return undefined;
        }
        throw error;
    }
}

function matchEntry(disk: SampleDisk, dir: string, entries: string[], name: string, want: (stat: SampleStat) => boolean): string | undefined {
    if (entries.includes(name)) {
        const exactStat = disk.stat(path.join(dir, name));
        if (exactStat && want(exactStat)) {
            return path.join(dir, name);
        }
    }
    const lower = name.toLowerCase();
    for (const entry of [...entries].sort()) {
        if (entry.toLowerCase() === lower) {
            const candidate = path.join(dir, entry);
            const entryStat = disk.stat(candidate);
            if (entryStat && want(entryStat)) {
                return candidate;
            }
        }
    }
    return undefined;
}

/** Whether a name part can name a sample path (no parameters, separators or `..`). */
function plainPart(part: string): boolean {
    return part.length > 0 && !part.includes('${') && !part.includes('/') && !part.includes('\\') && part !== '..' && part !== '.' && !part.includes('\0');
}

/**
 * The sample data of a table `parts` (`['a', 'b']` for `a.b`) by the naming convention:
 * `samples/a/b/` (a folder) or `samples/a/b.<ext>`, names compared case-insensitively.
 */
export function locateConventionTable(dirs: SampleDirs, parts: readonly string[]): SampleLocation | undefined {
    const disk = dirs.disk;
    if (parts.length === 0 || !parts.every(plainPart) || disk.stat(dirs.samplesDir)?.kind !== 'directory') {
        return undefined;
    }
    let dir = dirs.samplesDir;
    for (const part of parts.slice(0, -1)) {
        const next = findEntry(disk, dir, part, isDirectory);
        if (!next) {
            return undefined;
        }
        dir = next;
    }
    const entries = entriesOf(disk, dir);
    if (!entries) {
        return undefined;
    }
    // One listing of the folder answers every candidate name (exact spelling first, then any case).
    const last = parts[parts.length - 1];
    const folder = matchEntry(disk, dir, entries, last, isDirectory);
    if (folder) {
        return { location: folder };
    }
    for (const [ext] of extensions) {
        // Not only regular files: a FIFO named like a table is found here, and refused when read.
        const file = matchEntry(disk, dir, entries, last + ext, s => !isDirectory(s));
        if (file) {
            return { location: file };
        }
    }
    return undefined;
}

/**
 * Like `locateConventionTable`, also trying the trailing parts of a qualified name (`cat.sch.t` may be
 * sampled as `samples/sch/t` or `samples/t`).
 */
export function locateSampleTable(dirs: SampleDirs, parts: readonly string[]): SampleLocation | undefined {
    for (let n = parts.length; n >= 1; n--) {
        const found = locateConventionTable(dirs, parts.slice(-n));
        if (found) {
            return found;
        }
    }
    return undefined;
}

/** The location of a table declared in `samples/*.sql`: its `LOCATION` (relative to the samples folder), else by convention. */
export function declaredTableLocation(dirs: SampleDirs, name: readonly string[], location: string | undefined): string {
    if (location !== undefined) {
        return path.resolve(dirs.samplesDir, localPath(location));
    }
    return locateConventionTable(dirs, name)?.location ?? path.join(dirs.samplesDir, ...name.filter(plainPart));
}

/** `file:///x` → `/x`; other text unchanged. */
function localPath(text: string): string {
    if (/^file:/i.test(text)) {
        try {
            return decodeURIComponent(new URL(text).pathname);
        } catch {
            return text;
        }
    }
    return text;
}

/**
 * Where `read_files(path)` reads: a path relative to the pipeline root, a `file:` URL, or
 * `/Volumes/...` under the samples folder. Cloud storage (`s3://`, `abfss://`, `dbfs:/` …) has no
 * local copy: a `cloud` problem.
 */
export function readFilesLocation(dirs: SampleDirs, filePath: string): SampleResult<string> {
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePath) && !/^file:/i.test(filePath) && !/^[a-z]:[\\/]/i.test(filePath)) {
        return fail({
            kind: 'cloud',
            message: `'${filePath}' is in cloud storage, which cannot be read locally; point read_files at a file or folder under the pipeline root (or /Volumes/... under the samples folder).`,
        });
    }
    const local = localPath(filePath);
    if (/^\/Volumes\//i.test(local)) {
        // Unity Catalog volumes map onto samples/Volumes/... for local runs.
        return ok(path.join(dirs.samplesDir, local));
    }
    return ok(path.resolve(dirs.rootDir, local));
}

//#endregion

//#region Listing files

/** One data file of a source, checked: contained, a regular file, of a known format. */
export interface SampleFile {
    /** Absolute path as listed (inside the located folder). */
    readonly path: string;
    /** The symlink-resolved path, which is what gets read. */
    readonly realPath: string;
    readonly size: number;
    readonly mtimeMs: number;
    readonly fileFormat: FileFormat;
    /** What reads it. */
    readonly disk: SampleDisk;
}

/** A located source with its files listed. */
export interface ListedSource {
    readonly location: string;
    readonly isFolder: boolean;
    readonly format: SampleFormat;
    readonly files: readonly SampleFile[];
}

/** At most this many data files are read per source (a bound on the work of one validation). */
export const MaxFilesPerSource = 10_000;


/** Checks one data file: inside the read roots, a regular file; returns it with its stat. */
function checkFile(dirs: SampleDirs, file: string, fileFormat: FileFormat): SampleResult<SampleFile> {
    const contained = checkContained(dirs, file);
    if (!contained.ok) {
        return contained;
    }
    const stat = dirs.disk.stat(contained.value);
    if (!stat) {
        return fail({ kind: 'missing', message: `'${displayPath(dirs, file)}' does not exist.`, file });
    }
    if (stat.kind !== 'file') {
        return fail({ kind: 'not_regular', message: `${notRegularMessage(stat.kind)}: only regular files are read as sample data`, file });
    }
    return ok({ path: file, realPath: contained.value, size: stat.size, mtimeMs: stat.mtimeMs, fileFormat, disk: dirs.disk });
}

/**
 * Lists and checks the data files of a location (a file, or a folder walked recursively; names
 * starting with `.` or `_` are skipped, as Spark does). `format` (declared or named) decides which
 * files of a folder count and how a file with another extension is read; without it the first
 * file's extension decides.
 */
export function listSource(dirs: SampleDirs, location: string, format: SampleFormat | undefined): SampleResult<ListedSource> {
    const contained = checkContained(dirs, location);
    if (!contained.ok) {
        return contained;
    }
    const stat = dirs.disk.stat(contained.value);
    if (!stat) {
        return fail({ kind: 'missing', message: `'${displayPath(dirs, location)}' does not exist.`, file: location });
    }
    if (stat.kind !== 'directory') {
        const byName = formatOfFile(location);
        const fileFormat: FileFormat | undefined = format
            ? { format, gzip: byName?.gzip ?? /\.gz$/i.test(location), delimiter: byName?.format === format ? byName.delimiter : undefined }
            : byName;
        if (!fileFormat) {
            return fail({
                kind: 'format',
                message: `Cannot tell the format of '${displayPath(dirs, location)}' from its name (${DataFileExtensions.join(', ')}); say it with format => 'csv' | 'json' | 'parquet' (or USING in samples/*.sql).`,
                file: location,
            });
        }
        if (fileFormat.gzip && fileFormat.format === 'parquet') {
            return fail({ kind: 'format', message: `'${displayPath(dirs, location)}' is a gzip-compressed Parquet file, which no reader takes; Parquet compresses its own pages.`, file: location });
        }
        const file = checkFile(dirs, location, fileFormat);
        return file.ok ? ok({ location, isFolder: false, format: fileFormat.format, files: [file.value] }) : file;
    }
    const files: SampleFile[] = [];
    const visited = new Set<string>([contained.value]);
    let problem: SampleProblem | undefined;
    let chosen = format;
    // An explicit walk (no recursion): folder depth cannot overflow the stack.
    const pending: string[] = [location];
    const ordered: Array<{ file: string; fileFormat: FileFormat }> = [];
    while (pending.length > 0 && !problem) {
        const dir = pending.shift()!;
        let entries: ReturnType<SampleDisk['readdir']>;
        try {
            entries = dirs.disk.readdir(dir);
        } catch (error) {
            problem = { kind: 'unreadable', message: `the folder cannot be listed (${(error as Error).message})`, file: dir };
            break;
        }
        const subfolders: string[] = [];
        for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
            if (entry.name.startsWith('.') || entry.name.startsWith('_')) {
                continue;
            }
            const full = path.join(dir, entry.name);
            let isDir = entry.kind === 'directory';
            if (entry.kind === 'symlink') {
                const target = checkContained(dirs, full);
                if (!target.ok) {
                    problem = target.problem;
                    break;
                }
                isDir = dirs.disk.stat(target.value)?.kind === 'directory';
                if (isDir) {
                    if (visited.has(target.value)) {
                        continue;
                    }
                    visited.add(target.value);
                }
            }
            if (isDir) {
                subfolders.push(full);
                continue;
            }
            const byName = formatOfFile(entry.name);
            if (!byName) {
                continue;
            }
            chosen ??= byName.format;
            if (byName.format === chosen) {
                ordered.push({ file: full, fileFormat: byName });
            }
        }
        // Depth-first order, as a recursive walk would list them.
        pending.unshift(...subfolders);
        if (ordered.length > MaxFilesPerSource) {
            problem = {
                kind: 'too_large',
                message: `The folder '${displayPath(dirs, location)}' holds more than ${MaxFilesPerSource.toLocaleString('en-US')} data files; the local sample catalog reads at most that many per table.`,
                file: location,
            };
        }
    }
    if (problem) {
        return fail(problem);
    }
    for (const { file, fileFormat } of ordered) {
        const checked = checkFile(dirs, file, fileFormat);
        if (!checked.ok) {
            return checked;
        }
        files.push(checked.value);
    }
    return ok({ location, isFolder: true, format: chosen ?? format ?? 'json', files });
}

//#endregion

//#region Reading

/** Reader options as written (`header`, `sep` / `delimiter`, `quote` …); keys are compared case-insensitively. */
export type ReaderOptions = Readonly<Record<string, string>>;

/** Options with lower-case keys. */
export function lowerOptions(options: Readonly<Record<string, string | number | boolean>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(options)) {
        setOwn(out, key.toLowerCase(), String(value));
    }
    return out;
}

/**
 * Reads at most `maxBytes` from the start of a checked data file. The file must still be a regular
 * file once open (a FIFO swapped in after the check is refused, not waited on).
 */
export function readHead(file: SampleFile, maxBytes: number): Buffer {
    return file.disk.read(file.realPath, 0, maxBytes);
}

/** Reads `length` bytes at `position` of a checked data file (for Parquet footers). */
export function readAt(file: SampleFile, position: number, length: number): Buffer {
    return file.disk.read(file.realPath, position, length);
}

//#endregion
