import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readPythonDefinitions, type PythonFileDefinitions } from '../../../../server/src/project/python/python-definitions.js';

const fixture = (name: string): string => readFileSync(path.join(__dirname, '../../../fixtures/python-files', name), 'utf8');

/** Datasets as `kind name @line` (1-based line of the name), flows as `kind name -> target [reads]`. */
function summary(defs: PythonFileDefinitions): { datasets: string[]; flows: string[]; skipped: string[] } {
    return {
        datasets: defs.datasets.map(d => `${d.kind} ${d.name} @${d.range.start.line + 1}`),
        flows: defs.flows.map(f => `${f.kind} ${f.name} -> ${f.target} [${f.reads.map(r => r.name + (r.streaming ? ' (stream)' : '')).join(', ')}]`),
        skipped: defs.skipped.map(s => `${s.what} @${s.range.start.line + 1}: ${s.reason}`),
    };
}

const names = (text: string): string[] => readPythonDefinitions(text).datasets.map(d => d.name);

describe('a realistic dlt pipeline file', () => {
    const defs = readPythonDefinitions(fixture('dlt_ingest.py'));

    test('finds every dataset with its kind and the line of its name', () => {
        expect(summary(defs).datasets).toEqual([
            'streaming-table orders_raw @19',
            'streaming-table orders_clean @29',
            'temporary-view customers_updates @54',
            'streaming-table customers @59',
            'materialized-view daily_revenue @75',
        ]);
    });

    test('finds each flow with what it reads, streaming or not', () => {
        expect(summary(defs).flows).toEqual([
            'append orders_raw -> orders_raw []',
            'append orders_clean -> orders_clean [orders_raw (stream)]',
            'view customers_updates -> customers_updates [main.crm.customer_changes (stream)]',
            'auto-cdc customers -> customers [customers_updates (stream)]',
            'materialized-view daily_revenue -> daily_revenue [orders_clean]',
        ]);
    });

    test('reads comment=, the schema= DDL as columns, and the AUTO CDC keys, sequence and SCD type', () => {
        const clean = defs.datasets.find(d => d.name === 'orders_clean')!;
        expect(clean.comment).toBe('Orders with a valid id and amount');
        expect(clean.schema?.columns?.map(c => `${c.name} ${c.type.kind}${c.nullable ? '' : ' not null'}`)).toEqual([
            'order_id bigint not null', 'customer_id bigint', 'amount decimal', 'order_ts timestamp',
        ]);
        expect(clean.schema?.columns?.[2].comment).toBe('in EUR');
        const cdc = defs.flows.find(f => f.kind === 'auto-cdc')!;
        expect(cdc).toMatchObject({ keys: ['customer_id'], sequenceBy: 'updated_at', scdType: 2, api: 'dlt.apply_changes' });
    });

    test('a table named in a loop is reported as not statically known, never guessed', () => {
        expect(summary(defs).skipped).toEqual([
            'dataset @86: It is defined inside `for region in ["emea", "amer"]`, which may run any number of times, so its name is not statically known.',
        ]);
        expect(names(fixture('dlt_ingest.py'))).not.toContain('orders_by_region');
    });

    test('positions point at the name: the string of name=, else the function name', () => {
        const clean = defs.datasets.find(d => d.name === 'orders_clean')!;
        expect(clean.range).toEqual({ start: { line: 28, column: 9 }, end: { line: 28, column: 23 } });
        const raw = defs.datasets.find(d => d.name === 'orders_raw')!;
        expect(raw.range).toEqual({ start: { line: 18, column: 4 }, end: { line: 18, column: 14 } });
        expect(raw.definitionRange.start).toEqual({ line: 14, column: 0 });
    });
});

describe('a realistic pyspark.pipelines (dp) file', () => {
    const defs = readPythonDefinitions(fixture('dp_transform.py'));

    test('finds materialized views, tables, temporary views, streaming tables and sinks', () => {
        expect(summary(defs).datasets).toEqual([
            'materialized-view product_catalog @7',
            'streaming-table events_bronze @16',
            'temporary-view events_typed @21',
            'streaming-table events_all @26',
            'streaming-table inventory @39',
            'sink kafka_out @63',
        ]);
    });

    test('finds append flows (name= or the function name), the snapshot flow through its source function, and AUTO CDC', () => {
        expect(summary(defs).flows).toEqual([
            'materialized-view product_catalog -> product_catalog [main.ref.products]',
            'append events_bronze -> events_bronze [main.raw.events (stream)]',
            'view events_typed -> events_typed [events_bronze (stream)]',
            'append events_from_bronze -> events_all [events_typed (stream)]',
            'append events_backfill -> events_all [main.archive.events]',
            'snapshot inventory -> inventory [main.erp.inventory_snapshot]',
            'auto-cdc products_cdc -> product_changes_scd1 [events_typed (stream)]',
        ]);
        expect(defs.flows.find(f => f.name === 'products_cdc')).toMatchObject({ keys: ['sku'], sequenceBy: 'ts', scdType: 1 });
        expect(defs.flows.find(f => f.kind === 'snapshot')).toMatchObject({ keys: ['sku'], scdType: 2 });
    });

    test('a name held in a variable is not statically known', () => {
        expect(summary(defs).skipped).toEqual(['dataset @66: Its name is not statically known: it is the variable `TABLE`.']);
    });
});

describe('import aliases', () => {
    const body = (prefix: string) => `\n@${prefix}table\ndef t():\n    return ${prefix}read("x")\n`;

    test.each([
        ['import dlt', 'dlt.'],
        ['import dlt as d', 'd.'],
        ['from pyspark import pipelines as dp', 'dp.'],
        ['from pyspark import pipelines', 'pipelines.'],
        ['import pyspark.pipelines as sdp', 'sdp.'],
        ['import pyspark.pipelines', 'pyspark.pipelines.'],
        ['from dlt import table, read', ''],
        ['from pyspark.pipelines import *', ''],
        ['import os, dlt', 'dlt.'],
        ['try:\n    import dlt as p\nexcept ImportError:\n    p = None', 'p.'],
    ])('%s', (imports, prefix) => {
        const defs = readPythonDefinitions(imports + body(prefix));
        expect(summary(defs).flows).toEqual(['materialized-view t -> t [x]']);
    });

    test('a decorator or call of another module with the same function names defines nothing', () => {
        expect(names('import dlt\nimport app\n\n@app.table\ndef t():\n    return 1\n\ndp.create_streaming_table("s")\n')).toEqual([]);
    });

    test('a file that imports no pipelines module defines nothing', () => {
        const defs = readPythonDefinitions('@dlt.table\ndef t():\n    return spark.read.table("x")\n');
        expect(defs).toMatchObject({ importsPipelines: false, datasets: [] });
    });

    test('an imported function under another name is followed (from dlt import table as tbl, read_stream as rs)', () => {
        const defs = readPythonDefinitions('from dlt import table as tbl, read_stream as rs\n\n@tbl(name="s")\ndef f():\n    return rs("src")\n');
        expect(summary(defs).flows).toEqual(['append s -> s [src (stream)]']);
    });
});

describe('tricky syntax', () => {
    test('strings and comments that contain @dlt.table define nothing', () => {
        const text = [
            'import dlt',
            'DOC = """',
            '@dlt.table',
            'def in_docstring():',
            '    pass',
            '"""',
            '# @dlt.table',
            '# def in_comment(): pass',
            'x = "@dlt.table(name=\'in_string\')"',
            '@dlt.table',
            'def real():',
            '    """@dlt.table(name="in_docstring_of_real")"""',
            '    return spark.read.table("src")',
        ].join('\n');
        expect(names(text)).toEqual(['real']);
    });

    test('a decorator spread over lines, with comments and nested parentheses, is read whole', () => {
        const text = [
            'from pyspark import pipelines as dp',
            '@dp.table(  # the bronze table',
            '    comment=("Nested " "(parentheses) " \\',
            '             "and continuation"),',
            '    table_properties={"a": str((1, 2))},  # name="wrong"',
            '    name = "bronze",',
            ')',
            '@dp.expect_all({"ok": "x > (0)"})',
            'def ignored_function_name(',
            '    ):',
            '    return spark.readStream.table("raw")',
        ].join('\n');
        const [dataset] = readPythonDefinitions(text).datasets;
        expect(dataset).toMatchObject({ name: 'bronze', comment: 'Nested (parentheses) and continuation', kind: 'streaming-table', functionName: 'ignored_function_name' });
        expect(dataset.range.start).toEqual({ line: 5, column: 11 });
    });

    test('name= wins over the function name; name=None means the function name', () => {
        expect(names('import dlt\n@dlt.table(name="given")\ndef fn_a(): return 1\n@dlt.table(name=None)\ndef fn_b(): return 1\n')).toEqual(['given', 'fn_b']);
    });

    test('a one-line function body is read for its reads', () => {
        const defs = readPythonDefinitions('import dlt\n@dlt.view\ndef v(): return spark.table("LIVE.src")\n');
        expect(summary(defs).flows).toEqual(['view v -> v [LIVE.src]']);
    });

    test('reader options between spark.readStream and .table() are followed; a read of a computed name is reported', () => {
        const text = [
            'import dlt',
            '@dlt.table',
            'def t():',
            '    a = spark.readStream.option("skipChangeCommits", "true").options(x=1).table("a")',
            '    b = spark.read.format("delta").table("b")',
            '    c = spark.read.table(f"{CATALOG}.raw.c")',
            '    d = spark.readStream.changes("d")',
            '    return a.union(b).union(c).union(d)',
        ].join('\n');
        const defs = readPythonDefinitions(text);
        expect(summary(defs).flows).toEqual(['append t -> t [a (stream), b, d (stream)]']);
        expect(summary(defs).skipped).toEqual(['read @6: The table name is not statically known: it is an f-string.']);
    });

    test('dynamic names are never guessed: f-strings, variables, **kwargs, concatenation, factories', () => {
        const text = [
            'import dlt',
            '@dlt.table(name=f"{env}_orders")',
            'def a(): return 1',
            '@dlt.table(name=NAME)',
            'def b(): return 1',
            '@dlt.table(**CONFIG)',
            'def c(): return 1',
            '@dlt.table(name="x_" + suffix)',
            'def d(): return 1',
            'def make(name):',
            '    @dlt.table(name=name)',
            '    def e(): return 1',
            '    dlt.create_streaming_table(name)',
            'while True:',
            '    dlt.create_streaming_table("in_loop")',
            'dlt.create_streaming_table(name=get_name())',
        ].join('\n');
        const defs = readPythonDefinitions(text);
        expect(defs.datasets).toEqual([]);
        expect(summary(defs).skipped).toEqual([
            'dataset @2: Its name is not statically known: it is an f-string.',
            'dataset @4: Its name is not statically known: it is the variable `NAME`.',
            'dataset @6: Its name is not statically known: `**CONFIG` may hold it.',
            'dataset @8: Its name is not statically known: it is an expression, not a plain string.',
            'dataset @11: It is defined inside `def make(name)`, which may run any number of times, so its name is not statically known.',
            'dataset @13: It is called inside `def make(name)`, which may run any number of times, so its name is not statically known.',
            'dataset @15: It is called inside `while True`, which may run any number of times, so its name is not statically known.',
            'dataset @16: Its name is not statically known: it is computed by `get_name(...)`.',
        ]);
    });

    test('definitions under if / try / with at the top level count', () => {
        const text = 'import dlt\nif ENABLED:\n    @dlt.table\n    def a(): return 1\ntry:\n    dlt.create_streaming_table("b")\nexcept Exception:\n    pass\n';
        expect(names(text)).toEqual(['a', 'b']);
    });

    test('an f-string without replacement fields and implicit concatenation are static names', () => {
        expect(names('import dlt\ndlt.create_streaming_table(f"plain")\ndlt.create_streaming_table("a" \'_\' """b""")\n')).toEqual(['plain', 'a_b']);
    });

    test('positional arguments of AUTO CDC and create_streaming_table are read', () => {
        const defs = readPythonDefinitions('import dlt\ndlt.create_streaming_table("t")\ndlt.apply_changes("t", "src", ["id"], "seq")\n');
        expect(defs.flows).toMatchObject([{ kind: 'auto-cdc', name: 't', target: 't', keys: ['id'], sequenceBy: 'seq', reads: [{ name: 'src', streaming: true }] }]);
    });

    test('an AUTO CDC flow with once=True, and SCD type "bitemporal", are read', () => {
        const defs = readPythonDefinitions('from pyspark import pipelines as dp\ndp.create_auto_cdc_flow(target="t", source="s", keys=["k"], sequence_by="q", once=True, stored_as_scd_type="BITEMPORAL")\n');
        expect(defs.flows[0]).toMatchObject({ kind: 'auto-cdc-once', scdType: 'bitemporal' });
    });

    test('append_flow(once=True) is a one-time backfill; append_flow without target is reported', () => {
        const text = 'from pyspark import pipelines as dp\n@dp.append_flow(target="t", once=True)\ndef backfill(): return spark.read.table("old")\n@dp.append_flow(name="x")\ndef nowhere(): return 1\n';
        const defs = readPythonDefinitions(text);
        expect(summary(defs).flows).toEqual(['append-once backfill -> t [old]']);
        expect(summary(defs).skipped).toEqual(['flow @4: It has no `target=`.']);
    });

    test('private=True and temporary=True tables are private', () => {
        const defs = readPythonDefinitions('import dlt\n@dlt.table(private=True)\ndef a(): return 1\n@dlt.table(temporary=True)\ndef b(): return 1\n@dlt.table\ndef c(): return 1\n');
        expect(defs.datasets.map(d => d.private)).toEqual([true, true, false]);
    });

    test('a schema that does not parse keeps its DDL and the parser\'s error, and no columns', () => {
        const [dataset] = readPythonDefinitions('import dlt\ndlt.create_streaming_table("t", schema="id INT, name")\n').datasets;
        expect(dataset.schema).toEqual({ ddl: 'id INT, name', error: 'Expected a data type but found the end of the text.' });
    });

    test('a StructType schema is reported as not a DDL string', () => {
        const [dataset] = readPythonDefinitions('import dlt\ndlt.create_streaming_table("t", schema=StructType([]))\n').datasets;
        expect(dataset.schema?.columns).toBeUndefined();
        expect(dataset.schema?.error).toMatch(/not a DDL string/);
    });
});

describe('@table: streaming table or materialized view', () => {
    const text = 'from pyspark import pipelines as dp\n@dp.table\ndef batch(): return spark.read.table("x")\n@dp.table\ndef stream(): return dp.read_stream("x")\n';

    test('Databricks decides by the query: a stream read makes a streaming table, else a materialized view', () => {
        expect(readPythonDefinitions(text).datasets.map(d => `${d.name}: ${d.kind}`)).toEqual(['batch: materialized-view', 'stream: streaming-table']);
    });

    test('Apache Spark\'s @table always defines a streaming table', () => {
        expect(readPythonDefinitions(text, { tableRule: 'spark' }).datasets.map(d => d.kind)).toEqual(['streaming-table', 'streaming-table']);
    });
});

describe('Python reader on hostile input', () => {
    test('thousands of definitions are all read', () => {
        const text = 'import dlt\n' + Array.from({ length: 5_000 }, (_, i) => `@dlt.table\ndef t${i}():\n    return dlt.read("t${i + 1}")\n`).join('');
        const defs = readPythonDefinitions(text);
        expect(defs.datasets).toHaveLength(5_000);
        expect(defs.flows[4_999].reads[0].name).toBe('t5000');
    });

    test('deeply nested blocks, brackets and lists neither throw nor overflow the stack', () => {
        const depth = 5_000;
        const blocks = Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}if x:\n`).join('') + `${' '.repeat(depth)}dlt.create_streaming_table("deep")\n`;
        expect(names(`import dlt\n${blocks}`)).toEqual(['deep']);
        const keys = '['.repeat(depth) + ']'.repeat(depth);
        expect(() => readPythonDefinitions(`import dlt\ndlt.apply_changes(target="t", source="s", keys=${keys}, sequence_by="q")\n`)).not.toThrow();
    });

    test('user text that names Object.prototype members is just a name', () => {
        expect(names('import dlt as constructor\nfrom dlt import __proto__\n@constructor.table(name="toString")\ndef hasOwnProperty(): return 1\n')).toEqual(['toString']);
    });
});
