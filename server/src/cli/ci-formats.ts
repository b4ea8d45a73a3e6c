/**
 * The CI outputs of `pipeline-sql check`: SARIF 2.1.0 for GitHub code scanning (one rule per error
 * class, described from the diagnostics table) and GitHub Actions workflow commands
 * (`::error file=...,line=...,col=...::message`), escaped as the runner reads them.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ownValue } from '../../../engine/src/index.js';
import { ErrorClass, ErrorClassHelp } from '../../../engine/src/spark/error-classes.js';
import { Issues, type IssueDefinition } from '../language/validation/issue-codes.js';
import type { CliDiagnostic } from './check.js';

/** The output formats of `check`. */
export const CheckFormats = ['text', 'json', 'sarif', 'github'] as const;
export type CheckFormat = typeof CheckFormats[number];

interface RuleDescription {
    readonly name: string;
    readonly title: string;
    readonly help: string;
    /** The default level; the first diagnostic's where the table has none. */
    readonly severity?: CliDiagnostic['severity'];
    readonly rule?: string;
}

/**
 * The diagnostics table by code (the first definition of a code describes it), then the classes of
 * the error-class table that have a help text and no template there (project and test files).
 */
function ruleTable(): Map<string, RuleDescription> {
    const table = new Map<string, RuleDescription>();
    for (const [name, definition] of Object.entries(Issues) as Array<[string, IssueDefinition<unknown>]>) {
        if (table.has(definition.code)) {
            continue;
        }
        table.set(definition.code, {
            name, title: titleOf(name), help: templateOf(definition), severity: definition.severity,
            ...(definition.rule ? { rule: definition.rule } : {}),
        });
    }
    for (const [key, code] of Object.entries(ErrorClass)) {
        const help = ownValue(ErrorClassHelp as Readonly<Record<string, string>>, code);
        if (help !== undefined && !table.has(code)) {
            const name = key.charAt(0).toUpperCase() + key.slice(1);
            table.set(code, { name, title: titleOf(name), help });
        }
    }
    return table;
}

/** `AutoCdcEmptyKeys` → `Auto CDC empty keys`. */
function titleOf(name: string): string {
    const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' ');
    return words.map((w, i) => (w === 'Cdc' ? 'CDC' : i === 0 ? w : w.toLowerCase())).join(' ');
}

/** A message template with its arguments as `{name}` placeholders (each argument reads as a one-item list, so list helpers work too). */
function templateOf(definition: IssueDefinition<unknown>): string {
    const placeholders = new Proxy({}, { get: (_target, key) => (typeof key === 'string' ? [`{${key}}`] : undefined) });
    try {
        return definition.message(placeholders);
    } catch {
        // A template that computes with its arguments has no placeholder form.
        return titleOf(definition.code.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()));
    }
}

const sarifLevels: Record<CliDiagnostic['severity'], 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/** A file's URI relative to the working folder (GitHub matches these to the repository's files). */
function relativeUri(file: string, cwd: string): string {
    const relative = path.relative(cwd, path.resolve(cwd, file));
    const inside = relative && !relative.startsWith('..') && !path.isAbsolute(relative);
    return inside ? relative.split(path.sep).map(encodeURIComponent).join('/') : pathToFileURL(path.resolve(cwd, file)).href;
}

/**
 * A SARIF 2.1.0 log of diagnostics: one run of the `pipeline-sql` driver with a rule per error class
 * found (described from the diagnostics table: its title, its message template as help, its default
 * level, the spec rule it enforces), results with relative file locations under `%SRCROOT%`.
 */
export function sarifLog(diagnostics: readonly CliDiagnostic[], version: string, cwd: string = process.cwd()): object {
    const table = ruleTable();
    const ruleIds: string[] = [];
    for (const d of diagnostics) {
        if (!ruleIds.includes(d.code)) {
            ruleIds.push(d.code);
        }
    }
    const rules = ruleIds.map(id => {
        const known = table.get(id);
        const sample = diagnostics.find(d => d.code === id)!;
        const title = known?.title ?? titleOf(id.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()));
        const help = known ? `${known.help}${known.rule ? ` (Pipeline SQL rule ${known.rule}.)` : ''}` : sample.message;
        return {
            id,
            name: known?.name ?? id,
            shortDescription: { text: title },
            fullDescription: { text: help },
            help: { text: help, markdown: `**${id}**: ${help}` },
            defaultConfiguration: { level: sarifLevels[known?.severity ?? sample.severity] },
            properties: { tags: ['pipeline-sql', ...(id.startsWith('PIPELINE_SQL_') ? [] : ['databricks-error-class'])], ...(known?.rule ? { rule: known.rule } : {}) },
        };
    });
    const results = diagnostics.map(d => ({
        ruleId: d.code,
        ruleIndex: ruleIds.indexOf(d.code),
        level: sarifLevels[d.severity],
        message: { text: d.message },
        locations: [{
            physicalLocation: {
                artifactLocation: { uri: relativeUri(d.file, cwd), uriBaseId: '%SRCROOT%' },
                region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: Math.max(d.endColumn, d.endLine === d.line ? d.column + 1 : 1) },
            },
        }],
        ...(d.pipeline ? { properties: { pipeline: d.pipeline } } : {}),
    }));
    return {
        $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
        version: '2.1.0',
        runs: [{
            tool: { driver: { name: 'pipeline-sql', semanticVersion: version, version, rules } },
            originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith(path.sep) ? cwd : cwd + path.sep).href } },
            columnKind: 'utf16CodeUnits',
            results,
        }],
    };
}

/** Escapes a workflow command's message (`%`, CR, LF), as the Actions runner unescapes it. */
export function escapeData(text: string): string {
    return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value (also `:` and `,`, which end a property). */
export function escapeProperty(text: string): string {
    return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const commands: Record<CliDiagnostic['severity'], 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

/** One GitHub Actions annotation per diagnostic: `::error file=f,line=l,endLine=..,col=c,endColumn=..,title=CODE::message`. */
export function githubAnnotations(diagnostics: readonly CliDiagnostic[], cwd: string = process.cwd()): string {
    return diagnostics.map(d => {
        const file = path.relative(cwd, path.resolve(cwd, d.file)).split(path.sep).join('/');
        const properties = [
            `file=${escapeProperty(file)}`, `line=${d.line}`, `endLine=${d.endLine}`, `col=${d.column}`,
            ...(d.endLine === d.line ? [`endColumn=${d.endColumn}`] : []),
            `title=${escapeProperty(d.code)}`,
        ];
        return `::${commands[d.severity]} ${properties.join(',')}::${escapeData(d.message)}\n`;
    }).join('');
}
