/**
 * Hover documentation for the pipeline keywords and clauses, written from the project's language
 * semantics (docs/semantics.md §2–§3 and §6–§17): what each clause does,
 * what happens when it is left out, a small example, and where it is available (Databricks
 * pipelines, open-source Spark Declarative Pipelines). Looked up by a canonical clause id such as
 * `'SEQUENCE BY'`.
 */

/** Whether open-source Spark Declarative Pipelines accepts a construct (docs/semantics.md §17). */
export type SparkAvailability =
    /** Part of the base pipeline SQL of Spark 4.1. */
    | 'yes'
    /** Being added in the Spark 4.2 line (AUTO CDC). */
    | '4.2'
    /** Databricks only. */
    | 'no';

/** Hover documentation of one clause. */
export interface KeywordDoc {
    /** Canonical id: upper-case words separated by single spaces (`'APPLY AS DELETE WHEN'`). */
    readonly id: string;
    /** The clause's syntax, one line per form. */
    readonly syntax: string;
    /** What it does, in a few sentences. */
    readonly summary: string;
    /** What happens when the clause is left out, where that matters. */
    readonly whenOmitted?: string;
    /** A small example in pipeline SQL. */
    readonly example: string;
    readonly spark: SparkAvailability;
    /** Extra availability facts (Databricks runtime versions, previews, legacy status). */
    readonly availability?: string;
    /** Other ids worth reading next. */
    readonly seeAlso?: readonly string[];
}

const AUTO_CDC_CLAUSES = 'Clauses must appear in this order: FROM, KEYS, IGNORE NULL UPDATES, APPLY AS DELETE WHEN, APPLY AS TRUNCATE WHEN, '
    + 'SEQUENCE BY, SYSTEM SEQUENCE BY, COLUMNS, STORED AS, TRACK HISTORY ON, COLUMNS TO UPDATE.';

/** Every documented clause, in the order of the specification. */
export const KEYWORD_DOCS: readonly KeywordDoc[] = [
    {
        id: 'CREATE STREAMING TABLE',
        syntax: 'CREATE [OR REFRESH] [PRIVATE] STREAMING TABLE [IF NOT EXISTS] name\n  [(column definitions, CONSTRAINT …)] [table clauses]\n  [AS query | FLOW …]',
        summary: 'Declares a streaming table: a Delta table fed incrementally by flows. On every update each flow reads only the source rows '
            + 'it has not read before and appends them (or, for AUTO CDC, merges them). `AS query` is an append flow named after the table; '
            + '`FLOW …` adds one inline flow (AUTO CDC, INSERT, REPLACE WHERE, REPLACE USING); with neither, separate CREATE FLOW statements feed it.',
        whenOmitted: 'Without a query or FLOW clause the table must be written by at least one CREATE FLOW.',
        example: 'CREATE OR REFRESH STREAMING TABLE bronze_orders\nAS SELECT * FROM STREAM read_files(\'/Volumes/main/raw/orders\', format => \'json\');',
        spark: 'yes',
        availability: 'Spark Declarative Pipelines accept it without PRIVATE, expectations or inline AUTO CDC (the latter arrives with Spark 4.2).',
        seeAlso: ['CREATE FLOW', 'AUTO CDC', 'STREAM'],
    },
    {
        id: 'CREATE MATERIALIZED VIEW',
        syntax: 'CREATE [OR REFRESH] [PRIVATE] MATERIALIZED VIEW [IF NOT EXISTS] name\n  [(column definitions, CONSTRAINT …)] [table clauses]\n  AS query',
        summary: 'Declares a materialized view: after every update it holds exactly the result of its batch query over the current inputs. '
            + 'The engine may refresh it incrementally, but the result is always the same as a full recompute. Use it to aggregate or to read AUTO CDC targets.',
        example: 'CREATE OR REFRESH MATERIALIZED VIEW daily_revenue AS\nSELECT order_date, sum(amount) AS revenue FROM silver_orders GROUP BY order_date;',
        spark: 'yes',
        seeAlso: ['CREATE STREAMING TABLE'],
    },
    {
        id: 'CREATE TEMPORARY VIEW',
        syntax: 'CREATE [OR REPLACE] TEMPORARY VIEW name [(column aliases)] AS query',
        summary: 'A view that exists only inside the pipeline and is never stored: it is evaluated whenever another dataset reads it. '
            + 'It is the usual way to prepare the source of an AUTO CDC flow, whose FROM takes a table or view but not a subquery. '
            + 'It does not accept CONSTRAINT clauses (the legacy CREATE LIVE VIEW does).',
        example: 'CREATE TEMPORARY VIEW customer_changes AS\nSELECT *, upper(op) AS operation FROM STREAM(raw_customer_feed);',
        spark: 'yes',
        seeAlso: ['AUTO CDC'],
    },
    {
        id: 'CREATE VIEW',
        syntax: 'CREATE VIEW name AS query',
        summary: 'A view published to the catalog like any other view; other pipeline datasets may read it. Unlike a materialized view it stores no data.',
        example: 'CREATE VIEW active_customers AS SELECT * FROM customers WHERE is_active;',
        spark: 'yes',
    },
    {
        id: 'CREATE TABLE FLOW',
        syntax: 'CREATE TABLE name [(column definitions)] [table clauses]\n  [FLOW INSERT [ONCE] BY NAME query]',
        summary: 'Declares a managed table (Beta, Unity Catalog only) that only append flows write. Its flows may read batch or streaming sources and process '
            + 'their input once per update. AUTO CDC and REPLACE WHERE cannot target it (MANAGED_TABLE_DOES_NOT_SUPPORT_CDC), and its name may not belong to a streaming table.',
        example: 'CREATE TABLE audit_log\nFLOW INSERT BY NAME SELECT * FROM STREAM(raw_audit);',
        spark: 'no',
        availability: 'Databricks Beta, Unity Catalog pipelines only.',
    },
    {
        id: 'CREATE LIVE TABLE',
        syntax: 'CREATE [OR REFRESH] LIVE TABLE name AS query\nCREATE [OR REFRESH] [TEMPORARY] LIVE VIEW name AS query',
        summary: 'Legacy Delta Live Tables syntax. A LIVE TABLE is a materialized view; a LIVE VIEW is a temporary view that may carry expectations.',
        example: 'CREATE OR REFRESH MATERIALIZED VIEW totals AS SELECT count(*) AS n FROM orders;  -- modern form of CREATE LIVE TABLE totals …',
        spark: 'no',
        availability: 'Deprecated; write CREATE MATERIALIZED VIEW or CREATE TEMPORARY VIEW.',
        seeAlso: ['CREATE MATERIALIZED VIEW', 'CREATE TEMPORARY VIEW'],
    },
    {
        id: 'OR REFRESH',
        syntax: 'CREATE OR REFRESH { STREAMING TABLE | MATERIALIZED VIEW | FLOW } …',
        summary: 'Updates the dataset in place when it already exists instead of failing. Cannot be combined with IF NOT EXISTS.',
        whenOmitted: 'Inside a pipeline the dataset is created or updated either way; outside a pipeline, creating an existing dataset fails.',
        example: 'CREATE OR REFRESH STREAMING TABLE events AS SELECT * FROM STREAM(raw_events);',
        spark: 'no',
        availability: 'Not among the statement forms Spark Declarative Pipelines documents, which write plain CREATE.',
    },
    {
        id: 'IF NOT EXISTS',
        syntax: 'CREATE … [IF NOT EXISTS] name …',
        summary: 'Skips the statement when a dataset of that name already exists. Cannot be combined with OR REFRESH.',
        example: 'CREATE STREAMING TABLE IF NOT EXISTS events;',
        spark: 'yes',
    },
    {
        id: 'PRIVATE',
        syntax: 'CREATE [OR REFRESH] PRIVATE { STREAMING TABLE | MATERIALIZED VIEW } name …',
        summary: 'Keeps the dataset internal to the pipeline: it is not published to the catalog, and inside the pipeline it hides a catalog table '
            + 'of the same name. Formerly written TEMPORARY.',
        whenOmitted: 'The dataset is published to the pipeline\'s target catalog and schema.',
        example: 'CREATE OR REFRESH PRIVATE MATERIALIZED VIEW staging_totals AS SELECT region, count(*) AS n FROM orders GROUP BY region;',
        spark: 'no',
    },
    {
        id: 'CREATE FLOW',
        syntax: 'CREATE [OR REFRESH] FLOW [IF NOT EXISTS] name [COMMENT \'…\'] AS\n'
            + '  { AUTO CDC [ONCE] INTO target … | INSERT [ONCE] INTO target [BY NAME] [REPLACE …] query | APPLY CHANGES INTO target … }',
        summary: 'Declares a named flow that writes into an existing streaming table or managed table. Several flows may feed one target: '
            + 'append flows add up, AUTO CDC flows merge their change events. The name identifies the flow\'s progress (checkpoint), so renaming a flow starts it over.',
        example: 'CREATE FLOW orders_backfill AS\nINSERT ONCE INTO silver_orders BY NAME SELECT * FROM archive.orders;',
        spark: 'yes',
        availability: 'Spark Declarative Pipelines accept INSERT INTO flows; AUTO CDC flows arrive with Spark 4.2.',
        seeAlso: ['INSERT INTO', 'AUTO CDC'],
    },
    {
        id: 'FLOW',
        syntax: 'CREATE STREAMING TABLE name … FLOW { INSERT [ONCE] BY NAME query | AUTO CDC … | REPLACE WHERE … | REPLACE USING … }',
        summary: 'Defines the table\'s one inline flow together with the table. The flow is named after the table.',
        example: 'CREATE OR REFRESH STREAMING TABLE customers\nFLOW AUTO CDC FROM STREAM(customer_changes) KEYS (id) SEQUENCE BY ts;',
        spark: '4.2',
        availability: 'In Databricks SQL (outside a pipeline) FLOW AUTO CDC is a preview (DBR 17.3+) that some versions gate behind pipelines.channel = \'PREVIEW\'.',
        seeAlso: ['CREATE FLOW'],
    },
    {
        id: 'AUTO CDC',
        syntax: 'AUTO CDC [ONCE] INTO target\n  FROM source KEYS (key, …)\n  [IGNORE NULL UPDATES [ON …]] [APPLY AS DELETE WHEN cond] [APPLY AS TRUNCATE WHEN cond]\n'
            + '  SEQUENCE BY expr [SYSTEM SEQUENCE BY expr]\n  [COLUMNS …] [STORED AS SCD TYPE 1 | SCD TYPE 2 | BITEMPORAL] [TRACK HISTORY ON …] [COLUMNS TO UPDATE col]',
        summary: 'Applies a feed of change events to a streaming table, keeping one row per key (SCD type 1) or the full history (SCD type 2, bitemporal). '
            + 'Events are ordered per key by SEQUENCE BY, so late and out-of-order events land where they belong: the target depends only on the set of events received. '
            + 'FROM takes a table or view (usually wrapped in STREAM), not a subquery. ' + AUTO_CDC_CLAUSES,
        whenOmitted: 'IGNORE NULL UPDATES off (NULLs overwrite); no deletes or truncates; COLUMNS: every source column; STORED AS SCD TYPE 1; '
            + 'TRACK HISTORY ON every column (SCD type 2); the source is read as a stream on every update. FROM, KEYS and SEQUENCE BY are required.',
        example: 'CREATE OR REFRESH STREAMING TABLE customers;\nCREATE FLOW customers_cdc AS AUTO CDC INTO customers\nFROM STREAM(customer_changes)\n'
            + 'KEYS (customer_id)\nAPPLY AS DELETE WHEN operation = \'DELETE\'\nSEQUENCE BY event_ts\nCOLUMNS * EXCEPT (operation, event_ts)\nSTORED AS SCD TYPE 1;',
        spark: '4.2',
        availability: 'Formerly APPLY CHANGES INTO. Spark 4.2 adds KEYS, SEQUENCE BY, APPLY AS DELETE WHEN, COLUMNS, STORED AS SCD TYPE 1/2, TRACK HISTORY ON and '
            + 'IGNORE NULL UPDATES, with the clauses after FROM and KEYS in any order.',
        seeAlso: ['KEYS', 'SEQUENCE BY', 'STORED AS', 'FROM SNAPSHOT'],
    },
    {
        id: 'AUTO CDC ONCE',
        syntax: 'AUTO CDC ONCE INTO target FROM source …',
        summary: 'Like AUTO CDC, but reads the source once as a batch: the flow runs in the first update after it is created (or after a full refresh) '
            + 'and is idle afterwards. The source must be a batch read (no STREAM). Handy for loading a historical change log next to a live feed.',
        whenOmitted: 'Without ONCE the source is read as a stream on every update.',
        example: 'CREATE FLOW customers_history AS AUTO CDC ONCE INTO customers\nFROM archive.customer_changes\nKEYS (customer_id)\nSEQUENCE BY event_ts;',
        spark: 'no',
        seeAlso: ['AUTO CDC', 'ONCE'],
    },
    {
        id: 'APPLY CHANGES',
        syntax: 'APPLY CHANGES INTO target FROM source KEYS (…) … SEQUENCE BY …\nCREATE FLOW name AS APPLY CHANGES INTO target …',
        summary: 'The former name of AUTO CDC, with the same clauses and behaviour. A standalone APPLY CHANGES INTO statement acts as a flow named after its target.',
        example: '-- legacy\nAPPLY CHANGES INTO customers FROM STREAM(customer_changes) KEYS (customer_id) SEQUENCE BY event_ts;',
        spark: 'no',
        availability: 'Legacy; write CREATE FLOW … AS AUTO CDC INTO ….',
        seeAlso: ['AUTO CDC'],
    },
    {
        id: 'FROM SNAPSHOT',
        syntax: 'AUTO CDC [ONCE] INTO target\n  FROM SNAPSHOT (query) [WITH VERSION (query)]\n  KEYS (key, …) [STORED AS SCD TYPE 1 | SCD TYPE 2] [TRACK HISTORY ON …]',
        summary: 'Builds the target from successive full snapshots instead of a change feed. Each snapshot is compared with the previously committed one by key: '
            + 'new keys are inserted, changed rows updated, vanished keys deleted. Keys must be unique within a snapshot. SEQUENCE BY, APPLY AS, IGNORE NULL UPDATES, '
            + 'COLUMNS and BITEMPORAL do not apply; filter inside the snapshot query.',
        whenOmitted: 'Without WITH VERSION the version is the ingestion time and the snapshot query may only run while the target is empty (add ONCE for a one-off load). '
            + 'STORED AS defaults to SCD TYPE 1.',
        example: 'CREATE FLOW stock_snapshots AS AUTO CDC INTO stock\nFROM SNAPSHOT (SELECT sku, qty FROM raw_stock WHERE taken_at = (SELECT v FROM current_snapshot_version()))\n'
            + 'WITH VERSION (SELECT min(taken_at) AS v FROM raw_stock\n  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version()) OR taken_at > (SELECT v FROM last_snapshot_version())\n'
            + '  HAVING min(taken_at) IS NOT NULL)\nKEYS (sku)\nSTORED AS SCD TYPE 2;',
        spark: 'no',
        availability: 'SQL snapshot flows need Databricks Runtime 18.3 or later; older releases offered snapshot CDC in Python only.',
        seeAlso: ['WITH VERSION', 'CURRENT_SNAPSHOT_VERSION', 'LAST_SNAPSHOT_VERSION'],
    },
    {
        id: 'WITH VERSION',
        syntax: 'FROM SNAPSHOT (query) WITH VERSION (version query)',
        summary: 'Drives a snapshot flow through explicit versions. Within one update the version query runs repeatedly: each time it returns one row with the next version '
            + '(greater than the last committed one), the snapshot query is evaluated for it, diffed and committed; an empty result ends the loop. '
            + 'The query must return one column of an orderable type and at most one row (INVALID_AUTO_CDC_FROM_SNAPSHOT_VERSION_QUERY otherwise).',
        whenOmitted: 'The version is the ingestion time, and only the initial load can run.',
        example: 'WITH VERSION (SELECT min(d) AS v FROM snaps WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())\n  OR d > (SELECT v FROM last_snapshot_version()) HAVING min(d) IS NOT NULL)',
        spark: 'no',
        seeAlso: ['FROM SNAPSHOT', 'LAST_SNAPSHOT_VERSION'],
    },
    {
        id: 'KEYS',
        syntax: 'KEYS (column, …)',
        summary: 'The columns that identify a row of the target. Events with equal key values update the same row (or its history). '
            + 'Keys are plain source column names, must survive the COLUMNS selection, and may not be NULL in an event (AUTOCDC_MICROBATCH_VALIDATION.NULL_KEY).',
        whenOmitted: 'Required: AUTO CDC without keys is an error.',
        example: 'KEYS (customer_id)\nKEYS (tenant_id, order_id)',
        spark: '4.2',
        seeAlso: ['AUTO CDC'],
    },
    {
        id: 'SEQUENCE BY',
        syntax: 'SEQUENCE BY column | STRUCT(column, column, …)',
        summary: 'Orders the change events of each key; the event with the highest value wins. Must be orderable (numbers, strings, dates, timestamps, or a STRUCT of them, '
            + 'compared field by field) and never NULL (AUTOCDC_MICROBATCH_VALIDATION.NULL_SEQUENCE). At most one change per key and sequence value is expected; '
            + 'on a tie a delete wins. In SCD type 2 its values become __START_AT and __END_AT.',
        whenOmitted: 'Required in the change-feed form; not allowed in FROM SNAPSHOT.',
        example: 'SEQUENCE BY event_ts\nSEQUENCE BY STRUCT(event_ts, event_seq)',
        spark: '4.2',
        seeAlso: ['SYSTEM SEQUENCE BY', '__START_AT'],
    },
    {
        id: 'SYSTEM SEQUENCE BY',
        syntax: 'SEQUENCE BY business_time SYSTEM SEQUENCE BY system_time',
        summary: 'The second timeline of a BITEMPORAL target: when the pipeline learned about the change. Its values become __SYSTEM_START_AT and __SYSTEM_END_AT. '
            + 'Required with STORED AS BITEMPORAL and allowed only there.',
        example: 'SEQUENCE BY valid_from\nSYSTEM SEQUENCE BY recorded_at\nSTORED AS BITEMPORAL',
        spark: 'no',
        seeAlso: ['BITEMPORAL', '__SYSTEM_START_AT'],
    },
    {
        id: 'IGNORE NULL UPDATES',
        syntax: 'IGNORE NULL UPDATES\nIGNORE NULL UPDATES ON (column, …)\nIGNORE NULL UPDATES ON * EXCEPT (column, …)',
        summary: 'Treats a NULL in an update as "unchanged" so partial updates keep the existing values. With ON (list) only the listed columns ignore NULLs; '
            + 'with ON * EXCEPT (list) every column except the listed ones does. For struct columns the rule applies leaf by leaf. Cannot be combined with COLUMNS TO UPDATE.',
        whenOmitted: 'Off: a NULL in an update overwrites the stored value.',
        example: 'IGNORE NULL UPDATES ON * EXCEPT (deleted_reason)',
        spark: '4.2',
        seeAlso: ['COLUMNS TO UPDATE'],
    },
    {
        id: 'APPLY AS DELETE WHEN',
        syntax: 'APPLY AS DELETE WHEN condition',
        summary: 'Events for which the condition is true delete their key: SCD type 1 removes the row, SCD type 2 closes the open version. The delete is remembered as a tombstone, '
            + 'so an older update arriving later is ignored. The condition sees every source column, including ones COLUMNS drops.',
        whenOmitted: 'Every event that is not a truncate is an upsert.',
        example: 'APPLY AS DELETE WHEN operation = \'DELETE\'',
        spark: '4.2',
        seeAlso: ['APPLY AS TRUNCATE WHEN'],
    },
    {
        id: 'APPLY AS TRUNCATE WHEN',
        syntax: 'APPLY AS TRUNCATE WHEN condition',
        summary: 'Events for which the condition is true empty the whole target as of their sequence value: rows last changed before it disappear, later events still apply. '
            + 'Only for SCD type 1 (the default). Checked before APPLY AS DELETE WHEN.',
        whenOmitted: 'No event truncates the target.',
        example: 'APPLY AS TRUNCATE WHEN operation = \'TRUNCATE\'',
        spark: 'no',
        seeAlso: ['APPLY AS DELETE WHEN'],
    },
    {
        id: 'COLUMNS',
        syntax: 'COLUMNS (column, …)\nCOLUMNS * EXCEPT (column, …)',
        summary: 'Chooses which source columns land in the target; they keep the source order. Keys must stay selected. Conditions and SEQUENCE BY may still use dropped columns. '
            + 'Excluding the sequence column is common, because in SCD type 2 a selected sequence column would open a new version for every event.',
        whenOmitted: 'Every source column lands in the target, including operation-type columns.',
        example: 'COLUMNS * EXCEPT (operation, event_ts)',
        spark: '4.2',
    },
    {
        id: 'COLUMNS TO UPDATE',
        syntax: 'COLUMNS TO UPDATE column',
        summary: 'Names a source column of type ARRAY<STRING> that lists, per event, which columns the event updates; the others keep their stored values (keys are always written). '
            + 'Cannot be combined with IGNORE NULL UPDATES or BITEMPORAL.',
        whenOmitted: 'Every selected column is written by each upsert.',
        example: 'COLUMNS TO UPDATE changed_columns',
        spark: 'no',
    },
    {
        id: 'STORED AS',
        syntax: 'STORED AS { SCD TYPE 1 | SCD TYPE 2 | BITEMPORAL }',
        summary: 'Chooses how the target keeps changes: the current row per key (SCD TYPE 1), every version with validity columns (SCD TYPE 2), '
            + 'or versions along both a business and a system timeline (BITEMPORAL).',
        whenOmitted: 'SCD TYPE 1.',
        example: 'STORED AS SCD TYPE 2',
        spark: '4.2',
        seeAlso: ['SCD TYPE 1', 'SCD TYPE 2', 'BITEMPORAL'],
    },
    {
        id: 'SCD TYPE 1',
        syntax: 'STORED AS SCD TYPE 1',
        summary: 'Keeps one row per key with the latest values. An update older than the key\'s latest event (or than a delete) is discarded; a delete removes the row; '
            + 'APPLY AS TRUNCATE WHEN is allowed. Deletes stay as tombstones for the retention set by the pipeline setting pipelines.applyChanges.tombstoneGCThresholdInSeconds.',
        whenOmitted: 'This is the default storage.',
        example: 'STORED AS SCD TYPE 1',
        spark: '4.2',
    },
    {
        id: 'SCD TYPE 2',
        syntax: 'STORED AS SCD TYPE 2 [TRACK HISTORY ON …]',
        summary: 'Keeps every version of each key as its own row with __START_AT (inclusive) and __END_AT (exclusive, NULL while current), typed like SEQUENCE BY. '
            + 'An event that changes no tracked column extends the current version instead of opening a new one; a delete closes it. Late events split or extend the history '
            + 'where they belong. Truncation is not supported. Delete tombstones are kept for pipelines.cdc.tombstoneGCThresholdInSeconds.',
        example: 'STORED AS SCD TYPE 2\nTRACK HISTORY ON * EXCEPT (last_login)',
        spark: '4.2',
        seeAlso: ['__START_AT', '__END_AT', 'TRACK HISTORY ON'],
    },
    {
        id: 'BITEMPORAL',
        syntax: 'SEQUENCE BY business_time SYSTEM SEQUENCE BY system_time STORED AS BITEMPORAL',
        summary: 'Keeps history along two timelines (Beta): business validity from SEQUENCE BY in __START_AT/__END_AT, and what the pipeline believed when, from '
            + 'SYSTEM SEQUENCE BY, in __SYSTEM_START_AT/__SYSTEM_END_AT. A correction closes the old belief at its system time and adds the corrected rows. '
            + 'Not with COLUMNS TO UPDATE, APPLY AS TRUNCATE WHEN or snapshot sources.',
        example: 'SEQUENCE BY valid_from\nSYSTEM SEQUENCE BY recorded_at\nSTORED AS BITEMPORAL',
        spark: 'no',
        availability: 'Databricks Beta.',
        seeAlso: ['SYSTEM SEQUENCE BY', '__SYSTEM_START_AT'],
    },
    {
        id: 'TRACK HISTORY ON',
        syntax: 'TRACK HISTORY ON (column, …)\nTRACK HISTORY ON * EXCEPT (column, …)',
        summary: 'Limits which columns open a new SCD type 2 version when they change; changes to the other columns update the current version in place. Only with SCD TYPE 2.',
        whenOmitted: 'Every selected non-key column is tracked (TRACK HISTORY ON *).',
        example: 'TRACK HISTORY ON * EXCEPT (last_login, login_count)',
        spark: '4.2',
        seeAlso: ['SCD TYPE 2'],
    },
    {
        id: 'INSERT INTO',
        syntax: 'CREATE FLOW name AS INSERT INTO target [BY NAME] query',
        summary: 'An append flow: each update appends the new rows of its streaming query to the target. Several append flows may feed one streaming table. '
            + 'Target columns the query does not produce are NULL.',
        example: 'CREATE FLOW eu_orders AS INSERT INTO all_orders BY NAME SELECT * FROM STREAM(eu.orders);',
        spark: 'yes',
        seeAlso: ['INSERT ONCE INTO', 'BY NAME'],
    },
    {
        id: 'INSERT ONCE INTO',
        syntax: 'CREATE FLOW name AS INSERT ONCE INTO target BY NAME query',
        summary: 'A backfill flow: reads its batch query once, in the first update after it is created or after a full refresh, and stays idle afterwards.',
        example: 'CREATE FLOW orders_backfill AS INSERT ONCE INTO all_orders BY NAME SELECT * FROM archive.orders_2020;',
        spark: 'no',
        seeAlso: ['ONCE'],
    },
    {
        id: 'ONCE',
        syntax: 'INSERT ONCE INTO … | AUTO CDC ONCE INTO … | FLOW INSERT ONCE BY NAME …',
        summary: 'Runs a flow a single time over a batch read of its source; a full refresh runs it again. Not allowed with REPLACE USING or REPLACE WHERE.',
        whenOmitted: 'The flow reads its source as a stream on every update.',
        example: 'INSERT ONCE INTO events BY NAME SELECT * FROM archive.events',
        spark: 'no',
    },
    {
        id: 'BY NAME',
        syntax: 'INSERT [ONCE] INTO target BY NAME query',
        summary: 'Matches the query\'s columns to the target\'s columns by name rather than by position. Required with REPLACE USING and REPLACE WHERE.',
        whenOmitted: 'Columns are matched by position.',
        example: 'INSERT INTO all_orders BY NAME SELECT order_id, amount FROM STREAM(us.orders)',
        spark: 'yes',
    },
    {
        id: 'REPLACE USING',
        syntax: 'INSERT INTO target BY NAME REPLACE USING (key, …) SEQUENCE BY column query',
        summary: 'Replaces all target rows of a key with the incoming rows of that key (Beta). Per micro-batch only the rows with the highest sequence per key count: '
            + 'a higher sequence than stored replaces the key\'s rows, an equal one appends, a lower one is ignored. Keys absent from the batch are untouched. '
            + 'The query must be streaming; not with ONCE.',
        example: 'CREATE FLOW latest_prices AS INSERT INTO prices BY NAME\nREPLACE USING (region) SEQUENCE BY batch_id\nSELECT * FROM STREAM(price_batches);',
        spark: 'no',
        availability: 'Databricks Beta, DBR 18.2 and above.',
    },
    {
        id: 'REPLACE WHERE',
        syntax: 'INSERT INTO target BY NAME REPLACE WHERE predicate query\nCREATE STREAMING TABLE t FLOW REPLACE WHERE predicate BY NAME query',
        summary: 'On every update deletes the target rows matching the predicate and inserts the query\'s rows for the same predicate (the engine adds the filter). '
            + 'Rows outside the predicate are never touched (Beta). The query may be batch; not with ONCE, REPLACE USING, AUTO CDC or managed tables.',
        example: 'CREATE FLOW last_week AS INSERT INTO daily_sales BY NAME\nREPLACE WHERE sale_date >= date_add(current_date(), -7)\nSELECT * FROM sales_source;',
        spark: 'no',
        availability: 'Databricks Beta; some versions need the PREVIEW channel.',
    },
    {
        id: 'CONSTRAINT',
        syntax: 'CONSTRAINT name EXPECT (condition) [ON VIOLATION { DROP ROW | FAIL UPDATE }]',
        summary: 'Declares a data-quality expectation on a dataset, checked on every row its flows write. A row fails when the condition is false or NULL. '
            + 'Names must be unique per dataset; the condition may not use subqueries, UDFs or non-deterministic functions. Pass/fail counts go to the event log.',
        whenOmitted: 'Without ON VIOLATION the expectation only warns: failing rows are written and counted.',
        example: 'CREATE OR REFRESH STREAMING TABLE orders (\n  CONSTRAINT positive_amount EXPECT (amount > 0) ON VIOLATION DROP ROW\n) AS SELECT * FROM STREAM(raw_orders);',
        spark: 'no',
        seeAlso: ['EXPECT', 'ON VIOLATION'],
    },
    {
        id: 'EXPECT',
        syntax: 'CONSTRAINT name EXPECT (condition)',
        summary: 'The condition of an expectation; rows for which it is not true violate it.',
        example: 'CONSTRAINT valid_email EXPECT (email LIKE \'%@%\')',
        spark: 'no',
        seeAlso: ['CONSTRAINT'],
    },
    {
        id: 'ON VIOLATION',
        syntax: 'ON VIOLATION DROP ROW\nON VIOLATION FAIL UPDATE',
        summary: 'What happens to a row that violates an expectation: DROP ROW leaves it out, FAIL UPDATE stops the flow\'s update without committing anything.',
        whenOmitted: 'The row is written and the violation is only counted (warn).',
        example: 'CONSTRAINT has_id EXPECT (id IS NOT NULL) ON VIOLATION FAIL UPDATE',
        spark: 'no',
        seeAlso: ['DROP ROW', 'FAIL UPDATE'],
    },
    {
        id: 'DROP ROW',
        syntax: 'ON VIOLATION DROP ROW',
        summary: 'Rows that violate the expectation are not written; they are counted as dropped in the event log.',
        example: 'CONSTRAINT known_country EXPECT (country IS NOT NULL) ON VIOLATION DROP ROW',
        spark: 'no',
    },
    {
        id: 'FAIL UPDATE',
        syntax: 'ON VIOLATION FAIL UPDATE',
        summary: 'The first violating row fails the flow\'s update as a whole: nothing from that flow is committed, other flows continue, and someone has to fix the data.',
        example: 'CONSTRAINT unique_key EXPECT (key IS NOT NULL) ON VIOLATION FAIL UPDATE',
        spark: 'no',
    },
    {
        id: 'STREAM',
        syntax: 'STREAM(name) | STREAM name',
        summary: 'Reads the source as a stream: each update sees only the rows appended since the flow last ran. Streaming sources must be append-only; '
            + 'reading a materialized view or an AUTO CDC target as a stream fails when its rows change. The source of an AUTO CDC flow is normally streamed.',
        whenOmitted: 'The source is read as a batch: the whole of it, every time.',
        example: 'SELECT * FROM STREAM(bronze_orders)',
        spark: 'yes',
    },
    {
        id: 'LIVE',
        syntax: 'LIVE.name',
        summary: 'Legacy prefix for a dataset of the same pipeline; LIVE.orders means orders. Modern pipelines use the plain or fully qualified name.',
        example: 'SELECT * FROM STREAM(LIVE.raw_orders)  -- same as STREAM(raw_orders)',
        spark: 'no',
        availability: 'Legacy; drop the prefix.',
    },
    {
        id: 'READ_FILES',
        syntax: 'read_files(path [, option => value] …)',
        summary: 'Table-valued function that reads files (JSON, CSV, XML, text, binary, Parquet, Avro, ORC) under a path and infers one schema across them. '
            + 'Inside STREAM(…) it ingests new files incrementally with Auto Loader, adding a _rescued_data column for values that do not fit the schema.',
        example: 'CREATE OR REFRESH STREAMING TABLE raw_orders AS\nSELECT * FROM STREAM read_files(\'/Volumes/main/landing/orders\', format => \'csv\', header => true);',
        spark: 'no',
        availability: 'Databricks SQL and Databricks Runtime 13.3 LTS and above.',
    },
    {
        id: 'CURRENT_SNAPSHOT_VERSION',
        syntax: 'current_snapshot_version()',
        summary: 'One-row relation holding the version the snapshot flow is processing in this iteration. Valid only inside FROM SNAPSHOT (…) of a flow that has WITH VERSION '
            + '(UNRESOLVABLE_TABLE_VALUED_FUNCTION elsewhere; INVALID_USAGE_OF_SNAPSHOT_VERSION_FUNCTION in a flow without WITH VERSION).',
        example: 'FROM SNAPSHOT (SELECT * FROM snaps WHERE d = (SELECT v FROM current_snapshot_version()))',
        spark: 'no',
        seeAlso: ['FROM SNAPSHOT', 'LAST_SNAPSHOT_VERSION'],
    },
    {
        id: 'LAST_SNAPSHOT_VERSION',
        syntax: 'last_snapshot_version()',
        summary: 'Relation holding the last committed snapshot version, with the same column name and type as the version query; it has no row before the first commit '
            + 'or after a full refresh, and it sees commits made earlier in the same update. Valid only inside WITH VERSION (…).',
        example: 'WITH VERSION (SELECT min(d) AS v FROM snaps\n  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version()) OR d > (SELECT v FROM last_snapshot_version())\n  HAVING min(d) IS NOT NULL)',
        spark: 'no',
        seeAlso: ['WITH VERSION'],
    },
    {
        id: 'PARTITIONED BY',
        syntax: 'PARTITIONED BY (column, …)',
        summary: 'Splits the table\'s files by the values of the given columns. Cannot be combined with CLUSTER BY; liquid clustering is usually the better choice.',
        example: 'PARTITIONED BY (event_date)',
        spark: 'yes',
        seeAlso: ['CLUSTER BY'],
    },
    {
        id: 'CLUSTER BY',
        syntax: 'CLUSTER BY (column, …) | CLUSTER BY AUTO | CLUSTER BY NONE',
        summary: 'Enables liquid clustering: data is laid out by the given columns (or by columns the platform picks with AUTO) so queries filtering on them read less. '
            + 'Cannot be combined with PARTITIONED BY.',
        example: 'CLUSTER BY (customer_id, order_date)',
        spark: 'yes',
        seeAlso: ['PARTITIONED BY'],
    },
    {
        id: 'TBLPROPERTIES',
        syntax: 'TBLPROPERTIES (\'key\' = \'value\', …)',
        summary: 'Sets table properties: pipeline behaviour (pipelines.reset.allowed, pipelines.autoOptimize.zOrderCols, pipelines.cdc.tombstoneGCThresholdInSeconds …) '
            + 'and Delta features (delta.enableChangeDataFeed, delta.appendOnly …).',
        example: 'TBLPROPERTIES (\'pipelines.reset.allowed\' = \'false\', \'delta.enableChangeDataFeed\' = \'true\')',
        spark: 'yes',
    },
    {
        id: 'WITH ROW FILTER',
        syntax: 'WITH ROW FILTER function ON (column, …)',
        summary: 'Attaches a row filter: a SQL function that receives the listed columns and returns true for the rows the reader may see.',
        example: 'WITH ROW FILTER main.security.region_filter ON (region)',
        spark: 'no',
        availability: 'Unity Catalog only.',
    },
    {
        id: 'MASK',
        syntax: 'column type MASK function [USING COLUMNS (column, …)]',
        summary: 'Attaches a column mask: a SQL function that replaces the column\'s value for readers who may not see it.',
        example: 'ssn STRING MASK main.security.mask_ssn',
        spark: 'no',
        availability: 'Unity Catalog only.',
    },
    {
        id: 'COMMENT',
        syntax: 'COMMENT \'text\'',
        summary: 'A description stored with the dataset, column or flow and shown in the catalog.',
        example: 'COMMENT \'One row per customer, latest values\'',
        spark: 'yes',
    },
    {
        id: 'LOCATION',
        syntax: 'LOCATION \'path\'',
        summary: 'Stores the table\'s files at the given path (Hive metastore pipelines); Unity Catalog pipelines manage storage themselves.',
        example: 'LOCATION \'s3://bucket/tables/orders\'',
        spark: 'yes',
    },
    {
        id: 'GENERATED ALWAYS AS',
        syntax: 'column type GENERATED ALWAYS AS (expression)\ncolumn BIGINT GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY [(…)]',
        summary: 'A column computed from other columns of the row on write, or an identity column that numbers rows automatically.',
        example: 'order_date DATE GENERATED ALWAYS AS (CAST(order_ts AS DATE))',
        spark: 'no',
    },
    {
        id: 'SET',
        syntax: 'SET key = value;',
        summary: 'Sets a pipeline or Spark configuration value for the pipeline\'s queries, such as pipelines.applyChanges.tombstoneGCThresholdInSeconds.',
        example: 'SET spark.sql.shuffle.partitions = 64;',
        spark: 'yes',
    },
    {
        id: '__START_AT',
        syntax: '__START_AT',
        summary: 'System column of SCD type 2 and bitemporal targets: the SEQUENCE BY value from which this version is valid (inclusive). '
            + 'It has the type of the SEQUENCE BY expression; a source may not contain a column of this name.',
        example: 'SELECT * FROM customers WHERE __END_AT IS NULL  -- current versions',
        spark: '4.2',
        seeAlso: ['__END_AT', 'SCD TYPE 2'],
    },
    {
        id: '__END_AT',
        syntax: '__END_AT',
        summary: 'System column of SCD type 2 and bitemporal targets: the SEQUENCE BY value at which this version stopped being valid (exclusive); NULL for the current version. '
            + 'A delete closes the version at the delete\'s sequence.',
        example: 'SELECT customer_id, city FROM customers WHERE __END_AT IS NULL',
        spark: '4.2',
        seeAlso: ['__START_AT'],
    },
    {
        id: '__SYSTEM_START_AT',
        syntax: '__SYSTEM_START_AT',
        summary: 'System column of bitemporal targets: the SYSTEM SEQUENCE BY value from which the pipeline believed this row (inclusive). Typed like SYSTEM SEQUENCE BY.',
        example: 'SELECT * FROM prices WHERE __SYSTEM_END_AT IS NULL  -- current beliefs',
        spark: 'no',
        seeAlso: ['__SYSTEM_END_AT', 'BITEMPORAL'],
    },
    {
        id: '__SYSTEM_END_AT',
        syntax: '__SYSTEM_END_AT',
        summary: 'System column of bitemporal targets: the SYSTEM SEQUENCE BY value at which a correction replaced this row; NULL while it is still believed.',
        example: 'SELECT * FROM prices WHERE __SYSTEM_END_AT IS NULL',
        spark: 'no',
        seeAlso: ['__SYSTEM_START_AT'],
    },
];

/** Other spellings that lead to a canonical id. */
const ALIASES: Readonly<Record<string, string>> = {
    'CREATE OR REFRESH STREAMING TABLE': 'CREATE STREAMING TABLE',
    'STREAMING TABLE': 'CREATE STREAMING TABLE',
    'CREATE OR REFRESH MATERIALIZED VIEW': 'CREATE MATERIALIZED VIEW',
    'MATERIALIZED VIEW': 'CREATE MATERIALIZED VIEW',
    'TEMPORARY VIEW': 'CREATE TEMPORARY VIEW',
    'CREATE OR REPLACE TEMPORARY VIEW': 'CREATE TEMPORARY VIEW',
    'CREATE LIVE VIEW': 'CREATE LIVE TABLE',
    'CREATE TEMPORARY LIVE VIEW': 'CREATE LIVE TABLE',
    'CREATE OR REFRESH FLOW': 'CREATE FLOW',
    'AUTO CDC INTO': 'AUTO CDC',
    'AUTO CDC ONCE INTO': 'AUTO CDC ONCE',
    'APPLY CHANGES INTO': 'APPLY CHANGES',
    'APPLY AS DELETE': 'APPLY AS DELETE WHEN',
    'APPLY AS TRUNCATE': 'APPLY AS TRUNCATE WHEN',
    'IGNORE NULL UPDATES ON': 'IGNORE NULL UPDATES',
    'COLUMNS EXCEPT': 'COLUMNS',
    'TRACK HISTORY': 'TRACK HISTORY ON',
    'INSERT INTO ONCE': 'INSERT ONCE INTO',
    'EXPECTATION': 'CONSTRAINT',
    'STORED AS SCD TYPE 1': 'SCD TYPE 1',
    'STORED AS SCD TYPE 2': 'SCD TYPE 2',
    'STORED AS BITEMPORAL': 'BITEMPORAL',
    'ON VIOLATION DROP ROW': 'DROP ROW',
    'ON VIOLATION FAIL UPDATE': 'FAIL UPDATE',
    'ROW FILTER': 'WITH ROW FILTER',
    'GENERATED AS IDENTITY': 'GENERATED ALWAYS AS',
};

/** Every canonical clause id, in specification order. */
export const KEYWORD_DOC_IDS: readonly string[] = KEYWORD_DOCS.map(d => d.id);

const BY_ID: ReadonlyMap<string, KeywordDoc> = new Map(KEYWORD_DOCS.map(d => [d.id, d]));

/** Upper-cases a clause and collapses white space; a trailing `()` of the function ids is dropped. */
export function normalizeClauseId(text: string): string {
    return text.trim().replace(/\(\s*\)$/, '').replace(/\s+/g, ' ').toUpperCase();
}

/** The documentation of a clause by id or by one of its other spellings, ignoring case and spacing. */
export function getKeywordDoc(id: string): KeywordDoc | undefined {
    const key = normalizeClauseId(id);
    return BY_ID.get(key) ?? (Object.hasOwn(ALIASES, key) ? BY_ID.get(ALIASES[key]) : undefined);
}

const SPARK_TEXT: Record<SparkAvailability, string> = {
    yes: 'also in Apache Spark Declarative Pipelines',
    '4.2': 'in Apache Spark from the 4.2 line',
    no: 'Databricks only',
};

/** Markdown for a hover on the clause: syntax, explanation, default, example and availability. */
export function keywordHoverMarkdown(id: string): string | undefined {
    const doc = getKeywordDoc(id);
    if (!doc) {
        return undefined;
    }
    const parts = [`**${doc.id}**`, '```sql\n' + doc.syntax + '\n```', doc.summary];
    if (doc.whenOmitted) {
        parts.push(`**When omitted:** ${doc.whenOmitted}`);
    }
    parts.push('**Example**\n```sql\n' + doc.example + '\n```');
    parts.push(`**Availability:** ${doc.availability ? `${doc.availability} ` : ''}(${SPARK_TEXT[doc.spark]}).`);
    if (doc.seeAlso && doc.seeAlso.length > 0) {
        parts.push(`See also: ${doc.seeAlso.join(', ')}`);
    }
    return parts.join('\n\n');
}
