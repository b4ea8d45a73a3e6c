/**
 * Snippets for whole pipeline statements, proposed where a statement may start: a streaming table
 * with its AUTO CDC flow (SCD type 1, SCD type 2, bitemporal, from snapshots), a bronze table read
 * with `read_files`, and a materialized view with expectations. Each is valid pipeline SQL once its
 * placeholders are filled in (the tests parse and validate them with the default values).
 */
import type { TargetProfile } from '../../pipeline/pipeline-sql-settings.js';

const everywhere: readonly TargetProfile[] = ['databricks', 'spark-4.1', 'spark-4.2'];
const withAutoCdc: readonly TargetProfile[] = ['databricks', 'spark-4.2'];
const databricks: readonly TargetProfile[] = ['databricks'];

/** A statement snippet. */
export interface StatementSnippet {
    /** What the completion list shows. */
    readonly label: string;
    /** One line about what it creates. */
    readonly detail: string;
    /** LSP snippet syntax (`${1:name}` placeholders). */
    readonly body: string;
    /** The target runtimes that accept it. */
    readonly targets: readonly TargetProfile[];
}

/** Every statement snippet. */
export const StatementSnippets: readonly StatementSnippet[] = [
    {
        label: 'AUTO CDC flow: streaming table as SCD type 1',
        detail: 'Streaming table kept up to date from a change feed (latest row per key)',
        targets: withAutoCdc,
        body: [
            'CREATE STREAMING TABLE ${1:target};',
            '',
            'CREATE FLOW ${2:target_cdc} AS AUTO CDC INTO ${1:target}',
            'FROM STREAM(${3:source})',
            'KEYS (${4:id})',
            'APPLY AS DELETE WHEN ${5:operation} = \'DELETE\'',
            'SEQUENCE BY ${6:event_ts}',
            'COLUMNS * EXCEPT (${5:operation})',
            'STORED AS SCD TYPE 1;',
        ].join('\n'),
    },
    {
        label: 'AUTO CDC flow: streaming table as SCD type 2 (history)',
        detail: 'Streaming table keeping every version of each key, with __START_AT / __END_AT',
        targets: withAutoCdc,
        body: [
            'CREATE STREAMING TABLE ${1:target_history};',
            '',
            'CREATE FLOW ${2:target_history_cdc} AS AUTO CDC INTO ${1:target_history}',
            'FROM STREAM(${3:source})',
            'KEYS (${4:id})',
            'APPLY AS DELETE WHEN ${5:operation} = \'DELETE\'',
            'SEQUENCE BY ${6:event_ts}',
            'COLUMNS * EXCEPT (${5:operation})',
            'STORED AS SCD TYPE 2',
            'TRACK HISTORY ON * EXCEPT (${7:updated_at});',
        ].join('\n'),
    },
    {
        label: 'AUTO CDC flow: streaming table stored as BITEMPORAL',
        detail: 'Streaming table with valid time (SEQUENCE BY) and system time (SYSTEM SEQUENCE BY)',
        targets: databricks,
        body: [
            'CREATE OR REFRESH STREAMING TABLE ${1:target_bitemporal};',
            '',
            'CREATE FLOW ${2:target_bitemporal_cdc} AS AUTO CDC INTO ${1:target_bitemporal}',
            'FROM STREAM(${3:source})',
            'KEYS (${4:id})',
            'SEQUENCE BY ${5:valid_from}',
            'SYSTEM SEQUENCE BY ${6:recorded_at}',
            'STORED AS BITEMPORAL;',
        ].join('\n'),
    },
    {
        label: 'AUTO CDC FROM SNAPSHOT flow: streaming table from periodic snapshots',
        detail: 'Streaming table that compares full snapshots of a source and applies the differences',
        targets: databricks,
        body: [
            'CREATE OR REFRESH STREAMING TABLE ${1:target};',
            '',
            'CREATE FLOW ${2:target_snapshot_cdc} AS AUTO CDC INTO ${1:target}',
            'FROM SNAPSHOT (SELECT * FROM ${3:source_snapshot})',
            'KEYS (${4:id})',
            'STORED AS SCD TYPE ${5|1,2|};',
        ].join('\n'),
    },
    {
        label: 'Materialized view',
        detail: 'Materialized view: the result of a batch query, refreshed on every update',
        targets: everywhere,
        body: [
            'CREATE MATERIALIZED VIEW ${1:name} AS',
            'SELECT ${2:*}',
            'FROM ${3:source};',
        ].join('\n'),
    },
    {
        label: 'Materialized view with expectations',
        detail: 'Materialized view whose rows are checked by data-quality expectations',
        targets: databricks,
        body: [
            'CREATE OR REFRESH MATERIALIZED VIEW ${1:name} (',
            '  CONSTRAINT ${2:valid_id} EXPECT (${3:id IS NOT NULL}) ON VIOLATION DROP ROW,',
            '  CONSTRAINT ${4:recent} EXPECT (${5:updated_at > \'2020-01-01\'})',
            ')',
            'COMMENT \'${6:What this view holds}\'',
            'AS SELECT ${7:*}',
            'FROM ${8:source};',
        ].join('\n'),
    },
    {
        label: 'Streaming table from files (read_files)',
        detail: 'Bronze streaming table that ingests new files incrementally',
        targets: databricks,
        body: [
            'CREATE OR REFRESH STREAMING TABLE ${1:bronze_events}',
            'COMMENT \'${2:Raw events as they arrive}\'',
            'AS SELECT *',
            'FROM STREAM read_files(\'${3:/Volumes/catalog/schema/volume/path}\', format => \'${4|json,csv,parquet,avro,text|}\');',
        ].join('\n'),
    },
];

/** The text of a snippet with every placeholder replaced by its default value (the first choice of a choice). */
export function expandSnippet(body: string): string {
    let text = body;
    let previous: string;
    do {
        previous = text;
        text = text
            .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1')
            .replace(/\$\{\d+:([^${}]*)\}/g, '$1')
            .replace(/\$\d+/g, '');
    } while (text !== previous);
    return text;
}
