/** Hash, miscellaneous, vector and spatial functions. */
import type { FunctionGroup } from '../function-model.js';
import { native, scalar, sql, unlessArguments } from '../local.js';

/** Hash and checksum functions. */
export const HASH_FUNCTIONS: FunctionGroup = {
    category: 'hash',
    defs: [
        ['crc32(expr: binary) -> bigint', 'CRC-32 checksum of the bytes (or UTF-8 text).', 'crc32(\'abc\') → 891568578'],
        ['hash(exprs+: any) -> int', '32-bit Murmur3 hash of the arguments.', 'hash(\'abc\') → the same int on every run'],
        ['md5(expr: binary) -> string', 'MD5 digest as 32 hexadecimal digits.', 'md5(\'abc\') → \'900150983cd24fb0d6963f7d28e17f72\'',
            { local: scalar(1, 1, c => sql`md5(${c.a[0]})`) }],
        ['sha1(expr: binary) -> string', 'SHA-1 digest as 40 hexadecimal digits.', 'sha1(\'abc\') → \'a9993e364706816aba3e25717850c26c9cd0d89d\'', { aliases: ['sha'],
            local: scalar(1, 1, c => sql`sha1(${c.a[0]})`),
        }],
        ['sha2(expr: binary, bitLength: const int) -> string', 'SHA-2 digest (224, 256, 384 or 512 bits; 0 means 256) as hexadecimal digits.',
            'sha2(\'abc\', 256) → \'ba7816bf…15ad\'',
            {
                local: unlessArguments(
                    args => (args[1]?.literal === 256 || args[1]?.literal === 0 ? undefined : 'only sha2(x, 256) (or 0) has a DuckDB equivalent'),
                    scalar(2, 2, c => sql`sha256(${c.a[0]})`)),
            }],
        ['xxhash64(exprs+: any) -> bigint', '64-bit xxHash of the arguments.', 'xxhash64(\'abc\') → a fixed bigint'],
    ],
};

/** Functions that fit no other category: session facts, encryption, errors, reflection. */
export const MISC_FUNCTIONS: FunctionGroup = {
    category: 'misc',
    defs: [
        ['aes_decrypt(expr: binary, key: binary, mode?: string, padding?: string, aad?: binary) -> binary',
            'Decrypts AES-encrypted bytes with a 16, 24 or 32 byte key (GCM mode by default).', 'cast(aes_decrypt(aes_encrypt(\'hi\', k), k) AS STRING) → \'hi\''],
        ['aes_encrypt(expr: binary, key: binary, mode?: string, padding?: string, iv?: binary, aad?: binary) -> binary',
            'Encrypts bytes with AES and a 16, 24 or 32 byte key (GCM mode by default).', 'base64(aes_encrypt(\'hi\', \'0123456789abcdef\')) → random-looking text'],
        ['assert_true(expr: boolean, message?: string) -> void', 'Fails the query with an error unless the condition is true; returns NULL otherwise.',
            'assert_true(1 < 2) → NULL'],
        ['current_catalog() -> string', 'Name of the current catalog.', 'current_catalog() → \'main\'',
            { local: scalar(0, 0, () => sql`'main'`) }],
        ['current_database() -> string', 'Name of the current schema (database).', 'current_schema() → \'default\'', { aliases: ['current_schema'],
            local: scalar(0, 0, () => sql`'default'`),
        }],
        ['current_path() -> string', 'The SQL path: the schemas searched for unqualified function names.', 'current_path() → \'system.builtin,system.session,main.default\''],
        ['current_user() -> string', 'The user running the query.', 'current_user() → \'ann@example.com\'',
            { aliases: ['session_user', 'user'], nondeterministic: true,
                local: scalar(0, 0, () => sql`'local'`),
            }],
        ['input_file_block_length() -> bigint', 'Length in bytes of the file block being read, or -1.', 'input_file_block_length() → 1048576', { nondeterministic: true }],
        ['input_file_block_start() -> bigint', 'Start offset of the file block being read, or -1.', 'input_file_block_start() → 0', { nondeterministic: true }],
        ['input_file_name() -> string', 'Path of the file the current row is read from, or \'\'.', 'input_file_name() → \'s3://bucket/raw/part-0.json\'',
            { nondeterministic: true, deprecated: 'On Databricks read the _metadata.file_path column instead.' }],
        ['java_method(class: const string, method: const string, args*: any) -> string', 'Calls a static Java method by reflection and returns its result as text.',
            'java_method(\'java.lang.Math\', \'max\', 2, 5) → \'5\'', { aliases: ['reflect'], nondeterministic: true }],
        ['monotonically_increasing_id() -> bigint', 'A 64-bit id unique per row and increasing within a partition, but not consecutive.',
            'monotonically_increasing_id() → 8589934592 (varies)', { nondeterministic: true }],
        ['raise_error(expr: string, params?: map) -> void', 'Fails the query with the given message (or error class and parameters).',
            'raise_error(\'bad row\') → error USER_RAISED_EXCEPTION',
            { local: scalar(1, 1, c => sql`error(${c.a[0]})`) }],
        ['spark_partition_id() -> int', 'Id of the partition the current row belongs to.', 'spark_partition_id() → 3 (varies)', { nondeterministic: true,
            local: scalar(0, 0, () => sql`0`),
        }],
        ['try_aes_decrypt(expr: binary, key: binary, mode?: string, padding?: string, aad?: binary) -> binary', 'Like aes_decrypt, but gives NULL instead of an error.',
            'try_aes_decrypt(X\'00\', \'0123456789abcdef\') → NULL'],
        ['try_reflect(class: const string, method: const string, args*: any) -> string', 'Like reflect, but gives NULL when the call throws.',
            'try_reflect(\'java.lang.Integer\', \'parseInt\', \'x\') → NULL', { nondeterministic: true }],
        ['typeof(expr: any) -> string', 'Display name of the type of the expression.', 'typeof(1.5) → \'decimal(2,1)\'',
            { local: native('translated by name from the inferred type of its argument') }],
        ['uuid(seed?: const bigint) -> string', 'A random UUID in the usual 36-character form.', 'uuid() → \'46707d92-02f4-4817-8116-a4c3b23e6266\' (varies)',
            { nondeterministic: true,
                local: scalar(0, 0, () => sql`CAST(uuid() AS VARCHAR)`),
            }],
        ['version() -> string', 'The Spark version and the git revision it was built from.', 'version() → \'4.0.0 abc1234\''],
    ],
};

/** Vector (embedding) functions over arrays of floats. */
export const VECTOR_FUNCTIONS: FunctionGroup = {
    category: 'vector',
    defs: [
        ['vector_avg(vectors: array) -> array<float>', 'Element-wise mean of the vectors of a group.', 'vector_avg(v) over [1, 2], [3, 4] → [2.0, 3.0]', { kind: 'aggregate' }],
        ['vector_cosine_similarity(v1: array, v2: array) -> float', 'Cosine of the angle between two vectors of the same length.',
            'vector_cosine_similarity(array(1F, 0F), array(0F, 1F)) → 0.0'],
        ['vector_inner_product(v1: array, v2: array) -> float', 'Dot product of two vectors of the same length.', 'vector_inner_product(array(1F, 2F), array(3F, 4F)) → 11.0'],
        ['vector_l2_distance(v1: array, v2: array) -> float', 'Euclidean distance between two vectors of the same length.',
            'vector_l2_distance(array(0F, 0F), array(3F, 4F)) → 5.0'],
        ['vector_norm(vector: array, degree?: const float) -> float', 'The p-norm of a vector (p is 2 by default).', 'vector_norm(array(3F, 4F)) → 5.0'],
        ['vector_normalize(vector: array, degree?: const float) -> array<float>', 'The vector scaled to unit p-norm (2 by default).',
            'vector_normalize(array(3F, 4F)) → [0.6, 0.8]'],
        ['vector_sum(vectors: array) -> array<float>', 'Element-wise sum of the vectors of a group.', 'vector_sum(v) over [1, 2], [3, 4] → [4.0, 6.0]', { kind: 'aggregate' }],
    ],
};

/** Spatial (ST_) functions on GEOMETRY and GEOGRAPHY values. */
export const SPATIAL_FUNCTIONS: FunctionGroup = {
    category: 'spatial',
    defs: [
        ['st_asbinary(geo: any, endianness?: const string) -> binary', 'Well-known-binary (WKB) encoding of a geometry or geography.',
            'hex(st_asbinary(st_geomfromwkb(wkb))) → \'0101…\''],
        ['st_geogfromwkb(wkb: binary) -> geography(4326)', 'Geography value read from well-known binary.', 'st_geogfromwkb(X\'0101000000…\') → POINT(1 2)'],
        ['st_geomfromwkb(wkb: binary, srid?: const int) -> geometry', 'Geometry value read from well-known binary, with an optional spatial reference id.',
            'st_geomfromwkb(X\'0101000000…\') → POINT(1 2)'],
        ['st_setsrid(geo: any, srid: const int) -> $0', 'The same shape tagged with another spatial reference id.', 'st_srid(st_setsrid(g, 3857)) → 3857'],
        ['st_srid(geo: any) -> int', 'Spatial reference id of a geometry or geography.', 'st_srid(st_geogfromwkb(wkb)) → 4326'],
    ],
};
