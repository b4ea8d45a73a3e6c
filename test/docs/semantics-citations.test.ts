import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ErrorClass, isErrorClass } from '../../engine/src/spark/error-classes.js';
import { Issues } from '../../server/src/language/validation/issue-codes.js';

/**
 * docs/semantics.md is what the code cites for the pipeline rules (`docs/semantics.md §8.2`, `V12`,
 * `A5`). A citation of a section, rule or choice the page does not have, or a rule whose row names
 * other error classes than its diagnostics report, fails here, so the page cannot drift from the code;
 * so does a file or link that it, docs/architecture.md or CONTRIBUTING.md names and that was moved.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(root, 'docs/semantics.md'), 'utf8');

const sections = new Set([...doc.matchAll(/^#{2,3} (\d+(?:\.\d+)*)\.? /gm)].map(m => m[1]));
/** The rows of the tables of rules (§4) and choices (§18), by id. */
const rows = new Map([...doc.matchAll(/^\| ([VA]\d+) \|(.*)$/gm)].map(m => [m[1], m[2]]));

const sourceDirs = ['client', 'common', 'engine', 'scripts', 'server', 'test'];
const sourceFile = /\.(ts|mjs|langium|md)$/;

function* sourceFiles(dir: string): Generator<string> {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (entry.name !== 'node_modules' && entry.name !== 'generated' && entry.name !== 'fixtures') {
                yield* sourceFiles(file);
            }
        } else if (sourceFile.test(entry.name)) {
            yield file;
        }
    }
}

/** Every citation of a section (`§6.2`) and of a rule or choice (`V12`, `A5`) in the sources. */
function citations(): { file: string; line: number; id: string }[] {
    const found: { file: string; line: number; id: string }[] = [];
    for (const file of sourceDirs.flatMap(dir => [...sourceFiles(path.join(root, dir))])) {
        fs.readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
            for (const m of text.matchAll(/§(\d+(?:\.\d+)*)|\b([VA]\d{1,2})\b/g)) {
                found.push({ file: path.relative(root, file), line: i + 1, id: m[1] ? `§${m[1]}` : m[2] });
            }
        });
    }
    return found;
}

describe('docs/semantics.md', () => {
    test('has the sections the code cites and every rule V1–V26 and choice A1–A28', () => {
        expect(sections.size).toBeGreaterThan(40);
        for (let n = 1; n <= 19; n++) {
            expect(sections.has(String(n)), `section ${n}`).toBe(true);
        }
        for (let n = 1; n <= 26; n++) {
            expect(rows.has(`V${n}`), `rule V${n}`).toBe(true);
        }
        for (let n = 1; n <= 28; n++) {
            expect(rows.has(`A${n}`), `choice A${n}`).toBe(true);
        }
    });

    test('every section, rule and choice cited in the sources exists in it', () => {
        const found = citations();
        // The citations are many (the engine and validation cite their rules throughout).
        expect(found.filter(c => c.id.startsWith('§')).length).toBeGreaterThan(50);
        expect(found.filter(c => c.id.startsWith('V')).length).toBeGreaterThan(50);
        const missing = found.filter(c => (c.id.startsWith('§') ? !sections.has(c.id.slice(1)) : !rows.has(c.id)));
        expect(missing.map(c => `${c.file}:${c.line}: ${c.id}`)).toEqual([]);
    });

    test('each rule lists the error class and the diagnostic of every issue that enforces it', () => {
        const enforced = Object.entries(Issues).filter(([, issue]) => issue.rule !== undefined);
        expect(enforced.length).toBeGreaterThan(30);
        for (const [name, issue] of enforced) {
            const row = rows.get(issue.rule!);
            expect(row, `${name} enforces ${issue.rule}, which the page lacks`).toBeDefined();
            expect(row, `row ${issue.rule}`).toContain(`\`${issue.code}\``);
            expect(row, `row ${issue.rule}`).toContain(`\`${name}\``);
        }
    });

    test('every error class it names is in the error-class table (or is the parent of classes there)', () => {
        const names = [...doc.matchAll(/`([A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)?)`/g)].map(m => m[1])
            .filter(name => name.includes('_') && !name.startsWith('__'));
        expect(names.length).toBeGreaterThan(60);
        const classes = Object.values(ErrorClass);
        const unknown = names.filter(name => !isErrorClass(name) && !classes.some(c => c.startsWith(`${name}.`)));
        expect(unknown).toEqual([]);
    });

    test('the files and links it, docs/architecture.md and CONTRIBUTING.md name exist', () => {
        const missing: string[] = [];
        for (const page of ['docs/semantics.md', 'docs/architecture.md', 'CONTRIBUTING.md']) {
            const text = fs.readFileSync(path.join(root, page), 'utf8');
            const paths = [...text.matchAll(/`((?:client|common|engine|scripts|server|test|docs)\/[^`\s*]*)`/g)].map(m => m[1]);
            const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map(m => m[1]).filter(l => !/^[a-z]+:/.test(l))
                .map(l => path.relative(root, path.resolve(path.dirname(path.join(root, page)), l)));
            missing.push(...[...paths, ...links].filter(p => !fs.existsSync(path.join(root, p))).map(p => `${page}: ${p}`));
        }
        expect(missing).toEqual([]);
    });
});
