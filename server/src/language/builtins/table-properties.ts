/**
 * Known table properties (TBLPROPERTIES keys) of pipeline datasets: the `pipelines.*` keys that the
 * pipeline runtime reads and the `delta.*` keys of the Delta tables behind streaming tables and
 * materialized views, with the kind of value each takes, for completion, hover and value checks.
 */
import { codeSpan, escapeMarkdown } from '../lsp/lsp-text.js';

/** The kind of value a property takes. */
export type PropertyValueKind =
    | 'boolean'
    | 'integer'
    /** One of `values`. */
    | 'enum'
    /** A comma-separated list of column names. */
    | 'columnList'
    /** A Spark interval string such as `'interval 7 days'` or `'1 hour'`. */
    | 'interval'
    | 'string';

/** One known table property. */
export interface TableProperty {
    /** The key as documented; lookups ignore case. */
    readonly name: string;
    readonly valueKind: PropertyValueKind;
    readonly values?: readonly string[];
    readonly defaultValue?: string;
    /** One line in our own words. */
    readonly description: string;
    /**
     * Where the key is set: on the dataset (`TBLPROPERTIES`) or as a pipeline setting
     * (`configuration` in the pipeline settings or `SET key = value;`).
     */
    readonly level: 'table' | 'pipeline';
    /** A sample `key = value` line for completion. */
    readonly example: string;
}

/** Every known `pipelines.*` and `delta.*` property. */
export const TABLE_PROPERTIES: readonly TableProperty[] = [
    {
        name: 'pipelines.reset.allowed', valueKind: 'boolean', defaultValue: 'true', level: 'table',
        description: 'Whether a full refresh may clear this table; set false to keep data that cannot be re-read from its sources.',
        example: '\'pipelines.reset.allowed\' = \'false\'',
    },
    {
        name: 'pipelines.autoOptimize.managed', valueKind: 'boolean', defaultValue: 'true', level: 'table',
        description: 'Whether the pipeline optimizes (compacts) this table automatically on a schedule.',
        example: '\'pipelines.autoOptimize.managed\' = \'true\'',
    },
    {
        name: 'pipelines.autoOptimize.zOrderCols', valueKind: 'columnList', level: 'table',
        description: 'Columns to Z-order by when the pipeline optimizes this table.',
        example: '\'pipelines.autoOptimize.zOrderCols\' = \'customer_id,order_date\'',
    },
    {
        name: 'pipelines.trigger.interval', valueKind: 'interval', level: 'table',
        description: 'How often the flows writing this table run in a continuous pipeline (overrides the pipeline-wide interval).',
        example: '\'pipelines.trigger.interval\' = \'10 minutes\'',
    },
    {
        name: 'pipelines.cdc.tombstoneGCThresholdInSeconds', valueKind: 'integer', level: 'table',
        description: 'How long AUTO CDC keeps delete tombstones of an SCD type 2 target, so late updates older than a delete stay rejected.',
        example: '\'pipelines.cdc.tombstoneGCThresholdInSeconds\' = \'604800\'',
    },
    {
        name: 'pipelines.cdc.tombstoneGCFrequencyInSeconds', valueKind: 'integer', level: 'table',
        description: 'How often expired AUTO CDC delete tombstones are cleaned up.',
        example: '\'pipelines.cdc.tombstoneGCFrequencyInSeconds\' = \'3600\'',
    },
    {
        name: 'pipelines.applyChanges.tombstoneGCThresholdInSeconds', valueKind: 'integer', level: 'pipeline',
        description: 'Pipeline setting: how long SCD type 1 AUTO CDC targets keep delete tombstones (default not documented).',
        example: 'SET pipelines.applyChanges.tombstoneGCThresholdInSeconds = 172800;',
    },
    {
        name: 'pipelines.applyChanges.tombstoneGCFrequencyInSeconds', valueKind: 'integer', level: 'pipeline',
        description: 'Pipeline setting: how often expired SCD type 1 delete tombstones are cleaned up (default not documented).',
        example: 'SET pipelines.applyChanges.tombstoneGCFrequencyInSeconds = 1800;',
    },
    {
        name: 'pipelines.channel', valueKind: 'enum', values: ['CURRENT', 'PREVIEW'], defaultValue: 'CURRENT', level: 'table',
        description: 'Runtime channel of a streaming table defined outside a pipeline (Databricks SQL); some versions need PREVIEW for FLOW AUTO CDC.',
        example: '\'pipelines.channel\' = \'PREVIEW\'',
    },
    {
        name: 'pipelines.enableTrackHistory', valueKind: 'boolean', defaultValue: 'false', level: 'pipeline',
        description: 'Legacy pipeline setting that had to be true before TRACK HISTORY ON could be used.',
        example: 'SET pipelines.enableTrackHistory = true;',
    },
    {
        name: 'delta.appendOnly', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Rejects updates and deletes so the table only ever grows.', example: '\'delta.appendOnly\' = \'true\'',
    },
    {
        name: 'delta.enableChangeDataFeed', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Records row-level changes so readers can consume them with table_changes or readChangeFeed.',
        example: '\'delta.enableChangeDataFeed\' = \'true\'',
    },
    {
        name: 'delta.autoOptimize.optimizeWrite', valueKind: 'boolean', level: 'table',
        description: 'Reshuffles data while writing so each partition gets fewer, larger files.', example: '\'delta.autoOptimize.optimizeWrite\' = \'true\'',
    },
    {
        name: 'delta.autoOptimize.autoCompact', valueKind: 'enum', values: ['true', 'false', 'auto', 'legacy'], level: 'table',
        description: 'Compacts small files right after a write finishes.', example: '\'delta.autoOptimize.autoCompact\' = \'auto\'',
    },
    {
        name: 'delta.enableDeletionVectors', valueKind: 'boolean', level: 'table',
        description: 'Marks deleted or updated rows in side files instead of rewriting whole data files.', example: '\'delta.enableDeletionVectors\' = \'true\'',
    },
    {
        name: 'delta.enableRowTracking', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Gives every row a stable id and commit version, which incremental refresh of materialized views can use.',
        example: '\'delta.enableRowTracking\' = \'true\'',
    },
    {
        name: 'delta.columnMapping.mode', valueKind: 'enum', values: ['none', 'name', 'id'], defaultValue: 'none', level: 'table',
        description: 'Maps columns to physical names so columns can be renamed or dropped without rewriting data.',
        example: '\'delta.columnMapping.mode\' = \'name\'',
    },
    {
        name: 'delta.minReaderVersion', valueKind: 'integer', level: 'table',
        description: 'Lowest Delta protocol reader version a client needs to read the table.', example: '\'delta.minReaderVersion\' = \'3\'',
    },
    {
        name: 'delta.minWriterVersion', valueKind: 'integer', level: 'table',
        description: 'Lowest Delta protocol writer version a client needs to write the table.', example: '\'delta.minWriterVersion\' = \'7\'',
    },
    {
        name: 'delta.logRetentionDuration', valueKind: 'interval', defaultValue: 'interval 30 days', level: 'table',
        description: 'How long the transaction log history is kept, which bounds time travel.', example: '\'delta.logRetentionDuration\' = \'interval 60 days\'',
    },
    {
        name: 'delta.deletedFileRetentionDuration', valueKind: 'interval', defaultValue: 'interval 7 days', level: 'table',
        description: 'How long files no longer referenced are kept before VACUUM may delete them.',
        example: '\'delta.deletedFileRetentionDuration\' = \'interval 14 days\'',
    },
    {
        name: 'delta.setTransactionRetentionDuration', valueKind: 'interval', level: 'table',
        description: 'How long idempotent-write transaction ids are remembered.', example: '\'delta.setTransactionRetentionDuration\' = \'interval 7 days\'',
    },
    {
        name: 'delta.checkpoint.writeStatsAsJson', valueKind: 'boolean', defaultValue: 'true', level: 'table',
        description: 'Writes file statistics as JSON strings in log checkpoints.', example: '\'delta.checkpoint.writeStatsAsJson\' = \'false\'',
    },
    {
        name: 'delta.checkpoint.writeStatsAsStruct', valueKind: 'boolean', level: 'table',
        description: 'Writes file statistics as typed structs in log checkpoints.', example: '\'delta.checkpoint.writeStatsAsStruct\' = \'true\'',
    },
    {
        name: 'delta.checkpointPolicy', valueKind: 'enum', values: ['classic', 'v2'], defaultValue: 'classic', level: 'table',
        description: 'Format of transaction log checkpoints.', example: '\'delta.checkpointPolicy\' = \'v2\'',
    },
    {
        name: 'delta.dataSkippingNumIndexedCols', valueKind: 'integer', defaultValue: '32', level: 'table',
        description: 'How many leading columns get min/max statistics for data skipping (-1 for all).',
        example: '\'delta.dataSkippingNumIndexedCols\' = \'8\'',
    },
    {
        name: 'delta.dataSkippingStatsColumns', valueKind: 'columnList', level: 'table',
        description: 'The columns that get data-skipping statistics, instead of the leading ones.',
        example: '\'delta.dataSkippingStatsColumns\' = \'order_date,customer_id\'',
    },
    {
        name: 'delta.targetFileSize', valueKind: 'string', level: 'table',
        description: 'Size that writes and OPTIMIZE aim for per data file, such as \'128mb\'.', example: '\'delta.targetFileSize\' = \'128mb\'',
    },
    {
        name: 'delta.tuneFileSizesForRewrites', valueKind: 'boolean', level: 'table',
        description: 'Uses smaller files for tables that are often rewritten by MERGE, UPDATE or DELETE.',
        example: '\'delta.tuneFileSizesForRewrites\' = \'true\'',
    },
    {
        name: 'delta.isolationLevel', valueKind: 'enum', values: ['WriteSerializable', 'Serializable'], defaultValue: 'WriteSerializable', level: 'table',
        description: 'How strictly concurrent writes are isolated from each other.', example: '\'delta.isolationLevel\' = \'Serializable\'',
    },
    {
        name: 'delta.randomizeFilePrefixes', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Prefixes data file paths with random characters to spread load on object stores.',
        example: '\'delta.randomizeFilePrefixes\' = \'true\'',
    },
    {
        name: 'delta.randomPrefixLength', valueKind: 'integer', defaultValue: '2', level: 'table',
        description: 'Number of random characters used when file prefixes are randomized.', example: '\'delta.randomPrefixLength\' = \'4\'',
    },
    {
        name: 'delta.compatibility.symlinkFormatManifest.enabled', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Keeps a symlink manifest up to date so engines without Delta support can read the table.',
        example: '\'delta.compatibility.symlinkFormatManifest.enabled\' = \'true\'',
    },
    {
        name: 'delta.enableTypeWidening', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Allows widening column types (INT to BIGINT, FLOAT to DOUBLE …) without rewriting data.',
        example: '\'delta.enableTypeWidening\' = \'true\'',
    },
    {
        name: 'delta.enableIcebergCompatV2', valueKind: 'boolean', defaultValue: 'false', level: 'table',
        description: 'Keeps the table readable as Apache Iceberg (needed for UniForm).', example: '\'delta.enableIcebergCompatV2\' = \'true\'',
    },
    {
        name: 'delta.universalFormat.enabledFormats', valueKind: 'string', level: 'table',
        description: 'Other table formats to publish metadata for (UniForm), such as \'iceberg\'.',
        example: '\'delta.universalFormat.enabledFormats\' = \'iceberg\'',
    },
    {
        name: 'delta.enableInCommitTimestamps', valueKind: 'boolean', level: 'table',
        description: 'Stores commit times inside the log, so time travel by timestamp does not depend on file modification times.',
        example: '\'delta.enableInCommitTimestamps\' = \'true\'',
    },
];

/** `delta.feature.<name>` keys enable one table feature; the key set is open, so it is matched by prefix. */
export const DELTA_FEATURE_PREFIX = 'delta.feature.';

/** Looks a property up by name, ignoring case and surrounding quotes or back quotes. */
export function getTableProperty(name: string): TableProperty | undefined {
    const key = unquote(name).toLowerCase();
    return TABLE_PROPERTIES.find(p => p.name.toLowerCase() === key);
}

function unquote(text: string): string {
    const t = text.trim();
    return /^(['"`]).*\1$/s.test(t) ? t.slice(1, -1) : t;
}

/**
 * Checks a property value as written in TBLPROPERTIES (quoted or not) against the property's
 * kind. Returns a sentence describing the problem, or undefined when the value is fine or the
 * property is not a known one.
 */
export function checkTablePropertyValue(name: string, value: string): string | undefined {
    const key = unquote(name);
    const v = unquote(value);
    if (key.toLowerCase().startsWith(DELTA_FEATURE_PREFIX)) {
        return ['supported', 'enabled'].includes(v.toLowerCase()) ? undefined : `Table property '${key}' takes 'supported', not '${v}'.`;
    }
    const p = getTableProperty(key);
    if (!p) {
        return undefined;
    }
    switch (p.valueKind) {
        case 'boolean':
            return /^(true|false)$/i.test(v) ? undefined : `Table property '${p.name}' takes true or false, not '${v}'.`;
        case 'integer':
            return /^-?\d+$/.test(v) ? undefined : `Table property '${p.name}' takes a whole number, not '${v}'.`;
        case 'enum':
            return p.values!.some(x => x.toLowerCase() === v.toLowerCase())
                ? undefined : `Table property '${p.name}' takes one of ${p.values!.map(x => `'${x}'`).join(', ')}, not '${v}'.`;
        case 'columnList':
            return v.split(',').every(c => /^\s*(`[^`]+`|[A-Za-z_][\w.]*)\s*$/.test(c))
                ? undefined : `Table property '${p.name}' takes a comma-separated list of column names, not '${v}'.`;
        case 'interval':
            return /^\s*(interval\s+)?\d+\s+[a-z]+(\s+\d+\s+[a-z]+)*\s*$/i.test(v)
                ? undefined : `Table property '${p.name}' takes an interval such as 'interval 7 days', not '${v}'.`;
        case 'string':
            return undefined;
    }
}

/** Markdown for a hover on a property key. */
export function tablePropertyHoverMarkdown(name: string): string | undefined {
    const key = unquote(name);
    if (key.toLowerCase().startsWith(DELTA_FEATURE_PREFIX) && key.length > DELTA_FEATURE_PREFIX.length) {
        return `**${escapeMarkdown(key)}**\n\nEnables the Delta table feature ${codeSpan(key.slice(DELTA_FEATURE_PREFIX.length))} (value \`'supported'\`); this cannot be undone without rewriting the table.`;
    }
    const p = getTableProperty(key);
    if (!p) {
        return undefined;
    }
    const facts = [p.level === 'table' ? 'set in TBLPROPERTIES' : 'pipeline setting (pipeline configuration or SET)'];
    if (p.values) {
        facts.push(`values: ${p.values.join(', ')}`);
    }
    if (p.defaultValue !== undefined) {
        facts.push(`default: ${p.defaultValue}`);
    }
    return `**${p.name}** (${p.valueKind})\n\n${p.description}\n\n${facts.join(' · ')}\n\n\`\`\`sql\n${p.example}\n\`\`\``;
}
