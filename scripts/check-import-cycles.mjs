// Finds cycles of value imports between the project's own modules (`npm run lint` runs it). A cycle
// means module evaluation order decides whether an imported value is defined yet, and it ties the
// modules into one unit a change cannot split. Type-only imports (`import type`, `import { type X }`,
// `export type ... from`) are erased before run time and are skipped, as Langium's own modules use
// them for the DI module; ESLint's consistent-type-imports rule makes every type-only use say so.
//
//   node scripts/check-import-cycles.mjs [folder ...]   (default: client common engine server)
//
// Exit code 1 and one line per cycle (the import chain, file by file) when there is one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const sourceExtension = /\.(ts|mts|cts)$/;

/** Every TypeScript source under `dir`, declaration files and dependencies left out. */
function* sources(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
                yield* sources(file);
            }
        } else if (sourceExtension.test(entry.name) && !entry.name.endsWith('.d.ts')) {
            yield file;
        }
    }
}

/** Whether an import or export declaration brings a value (not only types) into the module. */
function importsValue(statement) {
    if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (!clause) {
            return true; // `import './x.js'` runs the module
        }
        if (clause.isTypeOnly) {
            return false;
        }
        if (clause.name || !clause.namedBindings || ts.isNamespaceImport(clause.namedBindings)) {
            return true;
        }
        const elements = clause.namedBindings.elements;
        return elements.length === 0 || elements.some(e => !e.isTypeOnly);
    }
    if (statement.isTypeOnly) {
        return false;
    }
    const clause = statement.exportClause;
    return !clause || !ts.isNamedExports(clause) || clause.elements.length === 0 || clause.elements.some(e => !e.isTypeOnly);
}

/** The file a relative module specifier names (`./a.js` is `./a.ts` in the sources), if it is one of ours. */
function resolve(from, specifier, known) {
    if (!specifier.startsWith('.')) {
        return undefined;
    }
    const base = path.resolve(path.dirname(from), specifier);
    const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base.replace(/\.cjs$/, '.cts'), `${base}.ts`, path.join(base, 'index.ts')];
    return candidates.find(c => known.has(c));
}

/** The value imports of every file: file → the files it imports values from. */
export function valueImportGraph(roots) {
    const files = new Set(roots.flatMap(root => (fs.existsSync(root) ? [...sources(root)] : [])));
    const graph = new Map();
    for (const file of files) {
        const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
        const targets = new Set();
        for (const statement of source.statements) {
            if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))
                && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) && importsValue(statement)) {
                const target = resolve(file, statement.moduleSpecifier.text, files);
                if (target) {
                    targets.add(target);
                }
            }
        }
        graph.set(file, [...targets].sort());
    }
    return graph;
}

/** The strongly connected components with more than one file (or a file importing itself), by Tarjan's algorithm. */
function cyclicComponents(graph) {
    let counter = 0;
    const index = new Map();
    const low = new Map();
    const stack = [];
    const onStack = new Set();
    const components = [];
    const visit = (root) => {
        // Iterative depth-first search, so a deep import chain cannot overflow the stack.
        const work = [[root, 0]];
        index.set(root, counter);
        low.set(root, counter++);
        stack.push(root);
        onStack.add(root);
        while (work.length > 0) {
            const frame = work[work.length - 1];
            const [node, next] = frame;
            const edges = graph.get(node) ?? [];
            if (next < edges.length) {
                frame[1]++;
                const target = edges[next];
                if (!index.has(target)) {
                    index.set(target, counter);
                    low.set(target, counter++);
                    stack.push(target);
                    onStack.add(target);
                    work.push([target, 0]);
                } else if (onStack.has(target)) {
                    low.set(node, Math.min(low.get(node), index.get(target)));
                }
                continue;
            }
            work.pop();
            if (work.length > 0) {
                const parent = work[work.length - 1][0];
                low.set(parent, Math.min(low.get(parent), low.get(node)));
            }
            if (low.get(node) === index.get(node)) {
                const component = [];
                let member;
                do {
                    member = stack.pop();
                    onStack.delete(member);
                    component.push(member);
                } while (member !== node);
                if (component.length > 1 || edges.includes(node)) {
                    components.push(component.sort());
                }
            }
        }
    };
    for (const node of [...graph.keys()].sort()) {
        if (!index.has(node)) {
            visit(node);
        }
    }
    return components;
}

/** One shortest import chain that leaves `start` and comes back to it, inside `members`. */
function shortestCycle(graph, start, members) {
    const previous = new Map();
    const queue = [start];
    while (queue.length > 0) {
        const node = queue.shift();
        for (const target of graph.get(node) ?? []) {
            if (target === start) {
                const chain = [node];
                while (chain[0] !== start) {
                    chain.unshift(previous.get(chain[0]));
                }
                return [...chain, start];
            }
            if (members.has(target) && !previous.has(target)) {
                previous.set(target, node);
                queue.push(target);
            }
        }
    }
    return [start];
}

/** Every cycle of value imports under `roots`: per strongly connected component, its files and one shortest chain. */
export function findImportCycles(roots) {
    const graph = valueImportGraph(roots);
    return cyclicComponents(graph).map(files => ({ files, chain: shortestCycle(graph, files[0], new Set(files)) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
    const root = process.cwd();
    const folders = process.argv.length > 2 ? process.argv.slice(2) : ['client', 'common', 'engine', 'server'];
    const cycles = findImportCycles(folders.map(f => path.resolve(root, f)));
    const rel = (file) => path.relative(root, file);
    for (const cycle of cycles) {
        console.error(`Import cycle of ${cycle.files.length} file(s): ${cycle.chain.map(rel).join(' → ')}`);
        if (cycle.files.length > cycle.chain.length - 1) {
            console.error(`  (the cycle's component also holds ${cycle.files.filter(f => !cycle.chain.includes(f)).map(rel).join(', ')})`);
        }
    }
    if (cycles.length > 0) {
        console.error(`\n${cycles.length} cycle(s) of value imports. Break each one: move the shared piece into its own module, or import only types (import type).`);
        process.exit(1);
    }
    console.log(`No cycle of value imports under ${folders.join(', ')}.`);
}
