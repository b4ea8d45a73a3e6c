/**
 * Options of `read_files` (named arguments `option => value`) and of the legacy `cloud_files`
 * (a `map(...)` of `cloudFiles.*` and format options), for completion and hovers. Option names are
 * matched case-insensitively, as Spark does for reader options.
 */
import type { FunctionOption } from './function-model.js';

const TEXT_FORMATS = ['csv', 'json', 'xml', 'text'];
const PARSED_FORMATS = ['csv', 'json', 'xml'];

/** Every `read_files` option the language services know. */
export const READ_FILES_OPTIONS: readonly FunctionOption[] = [
    // Options for every format.
    {
        name: 'format', valueKind: 'enum', values: ['csv', 'json', 'xml', 'text', 'binaryFile', 'parquet', 'avro', 'orc'],
        description: 'File format to read; guessed from the file extensions when left out.',
    },
    { name: 'schema', valueKind: 'schema', description: 'Schema to read with, as a DDL column list (\'id INT, name STRING\'), instead of inferring one.' },
    { name: 'schemaHints', valueKind: 'schema', description: 'Types for some columns only (\'id BIGINT, ts TIMESTAMP\'); the rest is still inferred.' },
    {
        name: 'inferColumnTypes', valueKind: 'boolean', defaultValue: 'true',
        description: 'Infer precise column types; when false, text formats give every column as STRING.',
    },
    {
        name: 'partitionColumns', valueKind: 'string',
        description: 'Comma-separated Hive-style partition columns (key=value directories) to add to the rows; \'\' ignores directory partitions.',
    },
    {
        name: 'schemaEvolutionMode', valueKind: 'enum', values: ['addNewColumns', 'rescue', 'failOnNewColumns', 'none'],
        description: 'What an incremental (STREAM) read does when files bring new columns.',
    },
    { name: 'schemaLocation', valueKind: 'path', description: 'Where an incremental read keeps the inferred schema; pipelines manage it for you.' },
    {
        name: 'rescuedDataColumn', valueKind: 'string', defaultValue: '_rescued_data',
        description: 'Column that collects values not matching the schema (wrong type, unknown field); \'\' turns it off.',
    },
    { name: 'pathGlobFilter', valueKind: 'string', description: 'Glob that file names must match, such as \'*.json\'.' },
    { name: 'fileNamePattern', valueKind: 'string', description: 'Glob that file names must match (another name for pathGlobFilter).' },
    { name: 'recursiveFileLookup', valueKind: 'boolean', defaultValue: 'false', description: 'Read nested directories too, without inferring partition columns from them.' },
    { name: 'modifiedAfter', valueKind: 'timestamp', description: 'Only read files modified after this timestamp.' },
    { name: 'modifiedBefore', valueKind: 'timestamp', description: 'Only read files modified before this timestamp.' },
    { name: 'ignoreCorruptFiles', valueKind: 'boolean', defaultValue: 'false', description: 'Skip files that cannot be read instead of failing.' },
    { name: 'ignoreMissingFiles', valueKind: 'boolean', defaultValue: 'false', description: 'Skip files deleted after they were listed instead of failing.' },
    { name: 'useStrictGlobber', valueKind: 'boolean', defaultValue: 'true', description: 'Match glob patterns strictly, as Auto Loader does.' },
    {
        name: 'includeExistingFiles', valueKind: 'boolean', defaultValue: 'true',
        description: 'For an incremental read, also process the files already there when the stream first starts.',
    },
    { name: 'maxFilesPerTrigger', valueKind: 'integer', description: 'For an incremental read, the most new files taken per micro-batch.' },
    { name: 'maxBytesPerTrigger', valueKind: 'string', description: 'For an incremental read, a soft limit on the bytes taken per micro-batch (such as \'10g\').' },
    { name: 'singleVariantColumn', valueKind: 'string', formats: PARSED_FORMATS, description: 'Read each whole record into one VARIANT column of this name.' },
    {
        name: 'readerCaseSensitive', valueKind: 'boolean', defaultValue: 'true',
        description: 'Match field names to columns case-sensitively; mismatches go to the rescued data column.',
    },
    { name: 'badRecordsPath', valueKind: 'path', formats: PARSED_FORMATS, description: 'Directory where malformed records and unreadable files are written.' },
    // Text-based formats.
    { name: 'encoding', valueKind: 'string', defaultValue: 'UTF-8', formats: TEXT_FORMATS, description: 'Character set of the files.' },
    { name: 'charset', valueKind: 'string', defaultValue: 'UTF-8', formats: TEXT_FORMATS, description: 'Character set of the files (another name for encoding).' },
    { name: 'lineSep', valueKind: 'string', formats: ['csv', 'json', 'text'], description: 'Line separator; \\r, \\r\\n and \\n are all recognised by default.' },
    {
        name: 'mode', valueKind: 'enum', values: ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'], defaultValue: 'PERMISSIVE', formats: PARSED_FORMATS,
        description: 'Handling of malformed records: keep them with NULLs, drop them, or fail.',
    },
    {
        name: 'columnNameOfCorruptRecord', valueKind: 'string', formats: PARSED_FORMATS,
        description: 'Column that receives the raw text of malformed records in PERMISSIVE mode.',
    },
    { name: 'dateFormat', valueKind: 'string', defaultValue: 'yyyy-MM-dd', formats: PARSED_FORMATS, description: 'Pattern for parsing dates.' },
    {
        name: 'timestampFormat', valueKind: 'string', formats: PARSED_FORMATS,
        description: 'Pattern for parsing timestamps (ISO 8601 with optional fraction and zone by default).',
    },
    { name: 'timestampNTZFormat', valueKind: 'string', formats: PARSED_FORMATS, description: 'Pattern for parsing timestamps without time zone.' },
    { name: 'locale', valueKind: 'string', defaultValue: 'en-US', formats: PARSED_FORMATS, description: 'Locale for parsing dates, timestamps and decimals.' },
    { name: 'timeZone', valueKind: 'string', formats: PARSED_FORMATS, description: 'Time zone for parsing timestamps that carry none.' },
    {
        name: 'multiLine', valueKind: 'boolean', defaultValue: 'false', formats: ['csv', 'json'],
        description: 'Allow one record to span several lines (a pretty-printed JSON document, a CSV value with line breaks).',
    },
    // JSON.
    { name: 'allowComments', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Accept Java and C++ style comments in JSON.' },
    { name: 'allowSingleQuotes', valueKind: 'boolean', defaultValue: 'true', formats: ['json'], description: 'Accept single quotes around JSON names and strings.' },
    { name: 'allowUnquotedFieldNames', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Accept JSON field names without quotes.' },
    {
        name: 'allowBackslashEscapingAnyCharacter', valueKind: 'boolean', defaultValue: 'false', formats: ['json'],
        description: 'Accept a backslash before any character in JSON strings.',
    },
    { name: 'allowNumericLeadingZeros', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Accept numbers with leading zeros such as 007.' },
    { name: 'allowNonNumericNumbers', valueKind: 'boolean', defaultValue: 'true', formats: ['json'], description: 'Accept NaN and Infinity as numbers.' },
    { name: 'allowUnquotedControlChars', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Accept raw control characters inside JSON strings.' },
    { name: 'primitivesAsString', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Read numbers and booleans as strings.' },
    { name: 'prefersDecimal', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Infer DECIMAL rather than DOUBLE for numbers with a fraction when they fit.' },
    { name: 'dropFieldIfAllNull', valueKind: 'boolean', defaultValue: 'false', formats: ['json'], description: 'Leave out columns that are NULL or empty in every record during inference.' },
    // CSV.
    { name: 'header', valueKind: 'boolean', defaultValue: 'false', formats: ['csv'], description: 'The first line of each file holds the column names.' },
    { name: 'inferSchema', valueKind: 'boolean', defaultValue: 'false', formats: ['csv'], description: 'Spark\'s switch for inferring CSV column types (read_files uses inferColumnTypes).' },
    { name: 'sep', valueKind: 'string', defaultValue: ',', formats: ['csv'], description: 'Field separator.' },
    { name: 'delimiter', valueKind: 'string', defaultValue: ',', formats: ['csv'], description: 'Field separator (another name for sep).' },
    { name: 'quote', valueKind: 'string', defaultValue: '"', formats: ['csv'], description: 'Character that encloses values containing separators.' },
    { name: 'escape', valueKind: 'string', defaultValue: '\\', formats: ['csv'], description: 'Character that escapes a quote inside a quoted value.' },
    { name: 'charToEscapeQuoteEscaping', valueKind: 'string', formats: ['csv'], description: 'Character that escapes the escape character itself.' },
    { name: 'comment', valueKind: 'string', formats: ['csv'], description: 'Lines starting with this character are skipped.' },
    { name: 'nullValue', valueKind: 'string', defaultValue: '', formats: ['csv'], description: 'Text that stands for NULL.' },
    { name: 'emptyValue', valueKind: 'string', defaultValue: '', formats: ['csv'], description: 'Text that stands for an empty string.' },
    { name: 'nanValue', valueKind: 'string', defaultValue: 'NaN', formats: ['csv'], description: 'Text that stands for a floating-point NaN.' },
    { name: 'positiveInf', valueKind: 'string', defaultValue: 'Inf', formats: ['csv'], description: 'Text that stands for positive infinity.' },
    { name: 'negativeInf', valueKind: 'string', defaultValue: '-Inf', formats: ['csv'], description: 'Text that stands for negative infinity.' },
    { name: 'ignoreLeadingWhiteSpace', valueKind: 'boolean', defaultValue: 'false', formats: ['csv'], description: 'Trim spaces before each value.' },
    { name: 'ignoreTrailingWhiteSpace', valueKind: 'boolean', defaultValue: 'false', formats: ['csv'], description: 'Trim spaces after each value.' },
    { name: 'enforceSchema', valueKind: 'boolean', defaultValue: 'true', formats: ['csv'], description: 'Apply the given schema by position even when the header names differ.' },
    { name: 'maxCharsPerColumn', valueKind: 'integer', formats: ['csv'], description: 'Longest value accepted, in characters (unlimited by default).' },
    { name: 'maxColumns', valueKind: 'integer', defaultValue: '20480', formats: ['csv'], description: 'Most columns a record may have.' },
    { name: 'skipRows', valueKind: 'integer', defaultValue: '0', formats: ['csv'], description: 'Lines to skip at the start of each file (before the header).' },
    { name: 'preferDate', valueKind: 'boolean', defaultValue: 'true', formats: ['csv'], description: 'Infer DATE for values matching dateFormat rather than TIMESTAMP.' },
    {
        name: 'unescapedQuoteHandling', valueKind: 'enum', formats: ['csv'],
        values: ['STOP_AT_CLOSING_QUOTE', 'BACK_TO_DELIMITER', 'STOP_AT_DELIMITER', 'SKIP_VALUE', 'RAISE_ERROR'],
        description: 'What to do with a quote that is not escaped inside a quoted value.',
    },
    // XML.
    { name: 'rowTag', valueKind: 'string', formats: ['xml'], description: 'Name of the XML element that holds one row; required for XML.' },
    { name: 'attributePrefix', valueKind: 'string', defaultValue: '_', formats: ['xml'], description: 'Prefix given to columns read from XML attributes.' },
    { name: 'valueTag', valueKind: 'string', defaultValue: '_VALUE', formats: ['xml'], description: 'Column name for the text of an element that also has attributes.' },
    { name: 'excludeAttribute', valueKind: 'boolean', defaultValue: 'false', formats: ['xml'], description: 'Ignore XML attributes.' },
    { name: 'ignoreNamespace', valueKind: 'boolean', defaultValue: 'false', formats: ['xml'], description: 'Ignore namespace prefixes of element and attribute names.' },
    { name: 'rowValidationXSDPath', valueKind: 'path', formats: ['xml'], description: 'XSD file each row is validated against; invalid rows count as malformed.' },
    // Text.
    { name: 'wholeText', valueKind: 'boolean', defaultValue: 'false', formats: ['text'], description: 'Read each file as a single row instead of one row per line.' },
    // Parquet, Avro, ORC.
    { name: 'mergeSchema', valueKind: 'boolean', defaultValue: 'false', formats: ['parquet', 'avro', 'orc'], description: 'Merge the schemas of all files instead of using one file\'s schema.' },
    {
        name: 'datetimeRebaseMode', valueKind: 'enum', values: ['EXCEPTION', 'LEGACY', 'CORRECTED'], formats: ['parquet', 'avro'],
        description: 'How dates and timestamps written by old Spark versions (Julian calendar) are read.',
    },
    {
        name: 'int96RebaseMode', valueKind: 'enum', values: ['EXCEPTION', 'LEGACY', 'CORRECTED'], formats: ['parquet'],
        description: 'How legacy INT96 Parquet timestamps are read.',
    },
    { name: 'avroSchema', valueKind: 'string', formats: ['avro'], description: 'Avro schema (JSON) to read the files with.' },
];

/** Looks a read_files option up by name, ignoring case. */
export function getReadFilesOption(name: string): FunctionOption | undefined {
    const key = name.replace(/`/g, '').toLowerCase();
    return READ_FILES_OPTIONS.find(o => o.name.toLowerCase() === key);
}

/** Options of the legacy `cloud_files(path, format, map(...))`: Auto Loader's `cloudFiles.*` keys plus the format options above. */
export const CLOUD_FILES_OPTIONS: readonly FunctionOption[] = [
    { name: 'cloudFiles.format', valueKind: 'enum', values: ['csv', 'json', 'xml', 'text', 'binaryFile', 'parquet', 'avro', 'orc'], description: 'File format to read.' },
    { name: 'cloudFiles.inferColumnTypes', valueKind: 'boolean', defaultValue: 'false', description: 'Infer precise column types instead of strings.' },
    { name: 'cloudFiles.schemaHints', valueKind: 'schema', description: 'Types for some columns only; the rest is inferred.' },
    {
        name: 'cloudFiles.schemaEvolutionMode', valueKind: 'enum', values: ['addNewColumns', 'rescue', 'failOnNewColumns', 'none'],
        description: 'What the stream does when files bring new columns.',
    },
    { name: 'cloudFiles.schemaLocation', valueKind: 'path', description: 'Where the inferred schema is kept.' },
    { name: 'cloudFiles.includeExistingFiles', valueKind: 'boolean', defaultValue: 'true', description: 'Also process files already present at the first start.' },
    { name: 'cloudFiles.maxFilesPerTrigger', valueKind: 'integer', defaultValue: '1000', description: 'Most new files per micro-batch.' },
    { name: 'cloudFiles.maxBytesPerTrigger', valueKind: 'string', description: 'Soft limit on bytes per micro-batch.' },
    { name: 'cloudFiles.partitionColumns', valueKind: 'string', description: 'Comma-separated Hive-style partition columns to read from directory names.' },
    { name: 'cloudFiles.useNotifications', valueKind: 'boolean', defaultValue: 'false', description: 'Discover new files through cloud notifications instead of listing.' },
    { name: 'cloudFiles.validateOptions', valueKind: 'boolean', defaultValue: 'true', description: 'Reject unknown or conflicting options at start.' },
];
