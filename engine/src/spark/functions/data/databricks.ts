/**
 * Functions that exist in Databricks but not in Apache Spark: the pipeline functions (read_files,
 * the snapshot-version functions, the legacy cloud_files), streaming sources, AI functions and
 * workspace helpers commonly used in pipelines.
 */
import type { FunctionDef, FunctionGroup } from '../function-model.js';
import { native } from '../local.js';
import { CLOUD_FILES_OPTIONS, READ_FILES_OPTIONS } from '../read-files-options.js';

/** Table-valued functions used to define pipeline sources. */
const PIPELINE_FUNCTIONS: FunctionGroup = {
    category: 'pipeline',
    defs: [
        ['cloud_files(path: string, format: string, options?: map) -> ?', 'Legacy pipeline source that reads files incrementally with Auto Loader.',
            'SELECT * FROM STREAM cloud_files(\'/landing/orders\', \'json\') → new order rows',
            {
                kind: 'table-valued', databricksOnly: true, options: CLOUD_FILES_OPTIONS,
                deprecated: 'Use STREAM read_files(path, format => …) instead.',
                local: native('a file source in FROM'),
            }],
        ['current_snapshot_version() -> ?',
            'One-row relation holding the snapshot version being processed; only valid inside FROM SNAPSHOT (…) of an AUTO CDC flow that has WITH VERSION.',
            'FROM SNAPSHOT (SELECT * FROM snaps WHERE v = (SELECT * FROM current_snapshot_version()))',
            { kind: 'table-valued', databricksOnly: true, local: native('inside FROM SNAPSHOT of a snapshot flow') }],
        ['event_log(pipelineOrTable: string) -> ?', 'The event log of a pipeline (by id) or of the pipeline that owns a table: updates, flow progress, data quality.',
            'SELECT * FROM event_log(TABLE(main.sales.orders)) WHERE event_type = \'flow_progress\'',
            { kind: 'table-valued', databricksOnly: true }],
        ['last_snapshot_version() -> ?',
            'Relation holding the last committed snapshot version (no row before the first commit); only valid inside WITH VERSION (…) of an AUTO CDC flow.',
            'WITH VERSION (SELECT min(v) FROM snaps WHERE v > (SELECT * FROM last_snapshot_version()))',
            { kind: 'table-valued', databricksOnly: true, local: native('inside WITH VERSION of a snapshot flow') }],
        ['read_files(path: string, options*: const any) -> ?',
            'Reads the files under a path (JSON, CSV, XML, text, binary, Parquet, Avro, ORC) as a table with one schema inferred across them; in STREAM it ingests new files incrementally.',
            'SELECT * FROM STREAM read_files(\'/Volumes/main/raw/orders\', format => \'json\')',
            {
                kind: 'table-valued', databricksOnly: true, namedArguments: true, options: READ_FILES_OPTIONS,
                syntax: 'read_files(path [, option => value] …)   -- Databricks Runtime 13.3 LTS and above',
                local: native('a file source in FROM'),
            }],
        ['table_changes(table_str: const string, start: const any, end?: const any) -> ?',
            'The change data feed of a Delta table: each changed row with _change_type, _commit_version and _commit_timestamp, from a start version or timestamp to an end one (default: the latest).',
            'SELECT * FROM table_changes(\'main.sales.customers\', 2, 5) WHERE _change_type = \'update_postimage\'',
            {
                kind: 'table-valued',
                syntax: 'table_changes(table_str, start [, end])   -- start and end: a version number or a timestamp string',
                local: native('the change data feed of a dataset of the pipeline, in FROM (docs/semantics.md §15.3)'),
            }],
    ],
};

/** Streaming and metadata sources of Databricks, used in FROM. */
const DATABRICKS_TABLE_FUNCTIONS: FunctionGroup = {
    category: 'table',
    defs: [
        ['cloud_files_state(checkpointOrTable: string) -> ?', 'Per-file state of an Auto Loader stream: which files were discovered and committed.',
            'SELECT path, commit_time FROM cloud_files_state(TABLE(main.raw.orders))', { databricksOnly: true }],
        ['list_secrets(scope?: string) -> ?', 'Lists the secret scopes and keys the user may read.', 'SELECT * FROM list_secrets() → (scope, key, …)', { databricksOnly: true }],
        ['read_kafka(options*: const any) -> struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,timestampType:int>',
            'Reads records from Apache Kafka topics (bootstrapServers, subscribe … as named arguments).',
            'SELECT cast(value AS STRING) FROM STREAM read_kafka(bootstrapServers => \'host:9092\', subscribe => \'orders\')',
            { databricksOnly: true, namedArguments: true }],
        ['read_kinesis(options*: const any) -> struct<partitionKey:string,data:binary,stream:string,shardId:string,sequenceNumber:string,approximateArrivalTimestamp:timestamp>',
            'Reads records from Amazon Kinesis streams (streamName, region … as named arguments).',
            'SELECT * FROM STREAM read_kinesis(streamName => \'orders\', region => \'us-east-1\')', { databricksOnly: true, namedArguments: true }],
        ['read_pubsub(options*: const any) -> ?', 'Reads messages from a Google Pub/Sub subscription (named arguments).',
            'SELECT * FROM STREAM read_pubsub(subscriptionId => \'sub\', topicId => \'orders\', projectId => \'p\')', { databricksOnly: true, namedArguments: true }],
        ['read_pulsar(options*: const any) -> ?', 'Reads messages from Apache Pulsar topics (named arguments).',
            'SELECT * FROM STREAM read_pulsar(serviceUrl => \'pulsar://h:6650\', topic => \'orders\')', { databricksOnly: true, namedArguments: true }],
        ['read_state_metadata(checkpointLocation: string) -> ?', 'Metadata of the stateful operators recorded in a streaming checkpoint.',
            'SELECT * FROM read_state_metadata(\'/checkpoints/q1\')', { databricksOnly: true }],
        ['read_statestore(checkpointLocation: string, options*: const any) -> ?', 'Reads the state store of a streaming query from its checkpoint.',
            'SELECT * FROM read_statestore(\'/checkpoints/q1\')', { databricksOnly: true, namedArguments: true }],
        ['vector_search(index: const string, query: any, num_results?: const int) -> ?', 'Queries a Mosaic AI Vector Search index and returns the nearest rows.',
            'SELECT * FROM vector_search(index => \'main.docs.idx\', query_text => \'refund policy\', num_results => 3)',
            { databricksOnly: true, namedArguments: true }],
        ['ai_forecast(observed: any, options*: const any) -> ?', 'Forecasts time series given as a table of timestamps and values.',
            'SELECT * FROM ai_forecast(TABLE(daily_sales), horizon => \'2025-12-31\', time_col => \'day\', value_col => \'amount\')',
            { databricksOnly: true, namedArguments: true, nondeterministic: true }],
    ],
};

/** Databricks workspace, security and compression helpers. */
const DATABRICKS_MISC_FUNCTIONS: FunctionGroup = {
    category: 'misc',
    defs: [
        ['current_metastore() -> string', 'Id of the current Unity Catalog metastore.', 'current_metastore() → \'aws:us-west-2:…\'', { databricksOnly: true }],
        ['current_version() -> struct<dbr_version:string,dbsql_version:string,u_build_hash:string,r_build_hash:string>',
            'Version information of the Databricks Runtime or SQL warehouse.', 'current_version().dbr_version → \'16.4\'', { databricksOnly: true }],
        ['http_request(conn: const string, method: const string, path?: string, headers?: map, params?: map, json?: string) -> struct<status_code:int,text:string>',
            'Sends an HTTP request through a Unity Catalog connection and returns the status and body.',
            'http_request(conn => \'crm\', method => \'GET\', path => \'/ping\').status_code → 200',
            { databricksOnly: true, namedArguments: true, nondeterministic: true }],
        ['is_account_group_member(group: const string) -> boolean', 'Tells whether the current user belongs to the account-level group.',
            'is_account_group_member(\'finance\') → true', { databricksOnly: true }],
        ['is_member(group: const string) -> boolean', 'Tells whether the current user belongs to the workspace-level group.', 'is_member(\'admins\') → false',
            { databricksOnly: true }],
        ['secret(scope: const string, key: const string) -> string', 'Value of a secret from a secret scope (redacted when displayed).',
            'secret(\'kafka\', \'password\') → \'[REDACTED]\'', { databricksOnly: true }],
        ['try_secret(scope: const string, key: const string) -> string', 'Like secret, but gives NULL when the secret is missing or not readable.',
            'try_secret(\'kafka\', \'nope\') → NULL', { databricksOnly: true }],
        ['try_zstd_decompress(input: binary) -> binary', 'Like zstd_decompress, but gives NULL for input that is not Zstandard data.', 'try_zstd_decompress(X\'00\') → NULL',
            { databricksOnly: true }],
        ['zstd_compress(input: string|binary, level?: const int, streaming_mode?: const boolean) -> binary', 'Compresses a value with Zstandard (level 1–22, default 3).',
            'length(zstd_compress(repeat(\'a\', 1000))) → about 20', { databricksOnly: true }],
        ['zstd_decompress(input: binary) -> binary', 'Decompresses Zstandard data; fails for invalid input.', 'cast(zstd_decompress(zstd_compress(\'hi\')) AS STRING) → \'hi\'',
            { databricksOnly: true }],
    ],
};

/** Databricks AI functions (they call model serving endpoints; results may vary between calls). */
const AI_DEFS: readonly FunctionDef[] = [
    ['ai_analyze_sentiment(content: string) -> string', 'Sentiment of a text: positive, negative, neutral or mixed.', 'ai_analyze_sentiment(\'Great service!\') → \'positive\''],
    ['ai_classify(content: string, labels: array) -> string', 'Picks the label that best describes the text.',
        'ai_classify(\'My card was charged twice\', array(\'billing\', \'shipping\')) → \'billing\''],
    ['ai_extract(content: string, labels: array) -> ?', 'Extracts the named entities (person, location …) from a text into a struct.',
        'ai_extract(\'Ann moved to Oslo\', array(\'person\', \'location\')) → {person: Ann, location: Oslo}'],
    ['ai_fix_grammar(content: string) -> string', 'The text with grammar mistakes corrected.', 'ai_fix_grammar(\'he go home\') → \'He goes home.\''],
    ['ai_gen(prompt: string) -> string', 'Answer of a large language model to a prompt.', 'ai_gen(\'Name a color\') → \'Blue\''],
    ['ai_mask(content: string, labels: array) -> string', 'The text with the listed kinds of entities replaced by [MASKED].',
        'ai_mask(\'Call Ann at 555-0100\', array(\'phone\')) → \'Call Ann at [MASKED]\''],
    ['ai_parse_document(content: binary, options?: map) -> variant', 'Extracts structured content (text, tables, layout) from a PDF or image document.',
        'ai_parse_document(content) → {"document": …}'],
    ['ai_query(endpoint: const string, request: any, returnType?: const string, failOnError?: const boolean, modelParameters?: struct, responseFormat?: const string) -> ?',
        'Sends a request to a model serving endpoint and returns its response.', 'ai_query(\'my-llm\', \'Summarise: \' || txt) → \'…\'', { namedArguments: true }],
    ['ai_similarity(expr1: string, expr2: string) -> float', 'Semantic similarity of two texts, from 0 to 1.', 'ai_similarity(\'car\', \'automobile\') → 0.93'],
    ['ai_summarize(content: string, max_words?: const int) -> string', 'A summary of the text, of at most max_words words (50 by default).',
        'ai_summarize(long_review, 10) → \'Fast delivery, but the box was damaged.\''],
    ['ai_translate(content: string, to_lang: const string) -> string', 'The text translated into the target language.', 'ai_translate(\'Hello\', \'es\') → \'Hola\''],
];

const AI_FUNCTIONS: FunctionGroup = {
    category: 'ai',
    defs: AI_DEFS.map((d): FunctionDef => [d[0], d[1], d[2], { ...d[3], databricksOnly: true, nondeterministic: true }]),
};

/** All Databricks-only groups. */
export const DATABRICKS_GROUPS: readonly FunctionGroup[] = [PIPELINE_FUNCTIONS, DATABRICKS_TABLE_FUNCTIONS, DATABRICKS_MISC_FUNCTIONS, AI_FUNCTIONS];
