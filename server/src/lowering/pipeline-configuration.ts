import * as fs from 'node:fs';
import { parse as parseYaml, YAMLParseError } from 'yaml';

/** What the project file (`spark-pipeline.yml`) says that changes how the pipeline's SQL runs. */
export interface PipelineSettings {
    /** `configuration:` — pipeline parameters (`${key}` in SQL) and Spark settings, values as strings. */
    configuration: Record<string, string>;
    /** `catalog:` — the default catalog of the pipeline's datasets. */
    catalog?: string;
    /** `schema:` (Databricks) or `database:` (Spark) — the default schema. */
    schema?: string;
}

/** The project file could not be read as YAML; names the file, line and column. */
export class PipelineSettingsError extends Error {
    override readonly name = 'PipelineSettingsError';

    constructor(message: string, readonly file: string, readonly line?: number, readonly column?: number) {
        super(message);
    }
}

/** Flattens a `configuration:` mapping to `key: string` pairs (nested mappings become dotted keys). */
function flatten(value: unknown, prefix: string, out: Record<string, string>): void {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
            flatten(inner, prefix ? `${prefix}.${key}` : key, out);
        }
    } else if (value !== undefined && value !== null) {
        out[prefix] = Array.isArray(value) ? value.map(String).join(',') : String(value);
    }
}

/** Reads the run settings of a pipeline project file's text (`file` names it in errors). */
export function parsePipelineSettings(text: string, file: string): PipelineSettings {
    let doc: unknown;
    try {
        doc = parseYaml(text);
    } catch (error) {
        if (error instanceof YAMLParseError) {
            const pos = error.linePos?.[0];
            throw new PipelineSettingsError(`${file} is not valid YAML: ${error.message.split('\n')[0]}`, file, pos?.line, pos?.col);
        }
        throw error;
    }
    const settings: PipelineSettings = { configuration: {} };
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
        return settings;
    }
    const record = doc as Record<string, unknown>;
    flatten(record.configuration ?? {}, '', settings.configuration);
    if (typeof record.catalog === 'string') {
        settings.catalog = record.catalog;
    }
    const schema = record.schema ?? record.database ?? record.target;
    if (typeof schema === 'string') {
        settings.schema = schema;
    }
    return settings;
}

/** Reads the run settings of a pipeline from its project file, if it has one. */
export function readPipelineSettings(specFile: string | undefined): PipelineSettings {
    if (!specFile) {
        return { configuration: {} };
    }
    return parsePipelineSettings(fs.readFileSync(specFile, 'utf8'), specFile);
}
