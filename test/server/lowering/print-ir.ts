// Prints engine IR as compact SQL-like text for assertions on the lowering: every node kind has one
// spelling, so that a test shows what the lowering produced (the resolution of each table, the type
// of each literal, the parenthesised shape of each expression) in a line a reader can check.
import * as path from 'node:path';
import type {
    CatalogTableIR, ColumnSelectionIR, DataType, DatasetIR, ExprIR, FlowIR, FrameBoundIR, GroupingItemIR, PipelineIR, QueryBodyIR,
    QueryIR, RelationIR, SelectItemIR, SortItemIR, SourceSpan, TableSourceIR, WindowSpecIR,
} from '../../../engine/src/index.js';
import { formatType } from '../../../engine/src/index.js';

/** `file:line:col-endLine:endCol` of a span (file by base name). */
export function printSpan(span: SourceSpan | undefined): string {
    return span ? `${path.basename(span.file)}:${span.line}:${span.column}-${span.endLine}:${span.endColumn}` : '<no span>';
}

/** A data type in Spark's spelling. */
export function printType(type: DataType): string {
    return formatType(type);
}

/** An expression, fully parenthesised; literals carry their type unless it is INT, STRING or BOOLEAN. */
export function printExpr(e: ExprIR): string {
    switch (e.kind) {
        case 'literal': {
            if (e.value === null) {
                return e.type.kind === 'void' ? 'NULL' : `NULL:${printType(e.type)}`;
            }
            switch (e.type.kind) {
                case 'string': return `'${String(e.value)}'`;
                case 'int':
                case 'boolean': return String(e.value);
                case 'date': return `DATE '${String(e.value)}'`;
                case 'timestamp': return `TIMESTAMP '${String(e.value)}'`;
                case 'binary': return `X'${String(e.value)}'`;
                default: return `${String(e.value)}:${printType(e.type)}`;
            }
        }
        case 'interval': return `INTERVAL(months ${e.months}, days ${e.days}, us ${e.microseconds})`;
        case 'column': return e.parts.join('.');
        case 'call': {
            const args = e.star ? ['*'] : e.args.map(printExpr);
            const named = (e.namedArgs ?? []).map(a => `${a.name} => ${printExpr(a.value)}`);
            let out = `${e.name}(${e.distinct ? 'DISTINCT ' : ''}${[...args, ...named].join(', ')}${e.ignoreNulls ? ' IGNORE NULLS' : ''})`;
            if (e.withinGroup) {
                out += ` WITHIN GROUP (ORDER BY ${e.withinGroup.map(printSort).join(', ')})`;
            }
            if (e.filter) {
                out += ` FILTER (WHERE ${printExpr(e.filter)})`;
            }
            if (e.over) {
                out += ` OVER ${printWindow(e.over)}`;
            }
            return out;
        }
        case 'cast': return `${e.try ? 'TRY_CAST' : 'CAST'}(${printExpr(e.expr)} AS ${printType(e.type)})`;
        case 'case': return `CASE${e.operand ? ` ${printExpr(e.operand)}` : ''}${e.branches.map(b => ` WHEN ${printExpr(b.when)} THEN ${printExpr(b.then)}`).join('')}${e.else ? ` ELSE ${printExpr(e.else)}` : ''} END`;
        case 'unary': return e.op === 'not' ? `(NOT ${printExpr(e.expr)})` : `(${e.op}${printExpr(e.expr)})`;
        case 'binary': return `(${printExpr(e.left)} ${e.op} ${printExpr(e.right)})`;
        case 'in': return `(${printExpr(e.expr)} ${e.not ? 'NOT IN' : 'IN'} (${e.list.map(printExpr).join(', ')}))`;
        case 'in_subquery': return `((${e.exprs.map(printExpr).join(', ')}) ${e.not ? 'NOT IN' : 'IN'} (${printQuery(e.query)}))`;
        case 'between': return `(${printExpr(e.expr)} ${e.not ? 'NOT ' : ''}BETWEEN ${printExpr(e.low)} AND ${printExpr(e.high)})`;
        case 'like': {
            const patterns = e.quantifier ? `${e.quantifier.toUpperCase()} (${e.patterns.map(printExpr).join(', ')})` : printExpr(e.patterns[0]);
            return `(${printExpr(e.expr)} ${e.not ? 'NOT ' : ''}${e.op.toUpperCase()} ${patterns}${e.escape !== undefined ? ` ESCAPE '${e.escape}'` : ''})`;
        }
        case 'is_null': return `(${printExpr(e.expr)} IS ${e.not ? 'NOT ' : ''}NULL)`;
        case 'is_bool': return `(${printExpr(e.expr)} IS ${e.not ? 'NOT ' : ''}${e.value === null ? 'UNKNOWN' : String(e.value).toUpperCase()})`;
        case 'is_distinct_from': return `(${printExpr(e.left)} IS ${e.not ? 'NOT ' : ''}DISTINCT FROM ${printExpr(e.right)})`;
        case 'lambda': return `((${e.params.join(', ')}) -> ${printExpr(e.body)})`;
        case 'struct': return `struct(${e.fields.map(f => `${f.name}: ${printExpr(f.value)}`).join(', ')})`;
        case 'array': return `array(${e.elements.map(printExpr).join(', ')})`;
        case 'map': return `map(${e.entries.map(x => `${printExpr(x.key)}: ${printExpr(x.value)}`).join(', ')})`;
        case 'field': return `${printExpr(e.expr)}.${e.field}`;
        case 'subscript': return `${printExpr(e.expr)}[${printExpr(e.index)}]`;
        case 'json_path': return `${printExpr(e.expr)}:$${e.path.map(p => (p.kind === 'field' ? `.${p.name}` : p.kind === 'index' ? `[${p.index}]` : '[*]')).join('')}`;
        case 'subquery': return `(${printQuery(e.query)})`;
        case 'exists': return `${e.not ? 'NOT ' : ''}EXISTS (${printQuery(e.query)})`;
        case 'snapshot_version': return `${e.which}_snapshot_version()`;
        case 'parameter': return `\${${e.name}}`;
    }
}

function printSort(s: SortItemIR): string {
    return `${printExpr(s.expr)}${s.direction ? ` ${s.direction.toUpperCase()}` : ''}${s.nulls ? ` NULLS ${s.nulls.toUpperCase()}` : ''}`;
}

function printBound(b: FrameBoundIR): string {
    switch (b.kind) {
        case 'preceding': return `${printExpr(b.offset)} PRECEDING`;
        case 'following': return `${printExpr(b.offset)} FOLLOWING`;
        default: return b.kind.replace('_', ' ').toUpperCase();
    }
}

function printWindow(w: WindowSpecIR): string {
    const parts: string[] = [];
    if (w.ref) {
        parts.push(w.ref);
    }
    if (w.partitionBy.length > 0) {
        parts.push(`PARTITION BY ${w.partitionBy.map(printExpr).join(', ')}`);
    }
    if (w.orderBy.length > 0) {
        parts.push(`ORDER BY ${w.orderBy.map(printSort).join(', ')}`);
    }
    if (w.frame) {
        parts.push(`${w.frame.unit.toUpperCase()} ${printBound(w.frame.start)}${w.frame.end ? ` TO ${printBound(w.frame.end)}` : ''}`);
    }
    return `(${parts.join(' ')})`;
}

/** A table source: `dataset:x`, `catalog:a.b`, `cte:x`, `read_files(...)`, `current_snapshot_version()`. */
export function printSource(s: TableSourceIR): string {
    switch (s.kind) {
        case 'dataset':
        case 'catalog': return `${s.kind}:${s.name.join('.')}`;
        case 'cte': return `cte:${s.name}`;
        case 'read_files': return `read_files('${s.path}'${Object.entries(s.options).map(([k, v]) => `, ${k} => ${JSON.stringify(v)}`).join('')})`;
        case 'snapshot_version': return `${s.which}_snapshot_version()`;
        case 'table_changes': {
            const bound = (b: { version: number } | { timestamp: string }) => ('version' in b ? String(b.version) : `'${b.timestamp}'`);
            return `table_changes('${s.name.join('.')}', ${bound(s.start)}${s.end ? `, ${bound(s.end)}` : ''})`;
        }
    }
}

function alias(a: { alias?: string; columnAliases?: string[] }): string {
    return `${a.alias !== undefined ? ` AS ${a.alias}` : ''}${a.columnAliases ? `(${a.columnAliases.join(', ')})` : ''}`;
}

function printRelation(r: RelationIR): string {
    switch (r.kind) {
        case 'table': return `${r.streaming ? `STREAM(${printSource(r.source)})` : printSource(r.source)}${alias(r)}`;
        case 'subquery': return `${r.lateral ? 'LATERAL ' : ''}(${printQuery(r.query)})${alias(r)}`;
        case 'join': {
            const kind = `${r.natural ? 'NATURAL ' : ''}${r.joinType.toUpperCase()} JOIN`;
            return `(${printRelation(r.left)} ${kind} ${printRelation(r.right)}${r.on ? ` ON ${printExpr(r.on)}` : ''}${r.using ? ` USING (${r.using.join(', ')})` : ''})`;
        }
        case 'values': return `(VALUES ${r.rows.map(row => `(${row.map(printExpr).join(', ')})`).join(', ')})${alias(r)}`;
        case 'table_function': return `${r.name}(${r.args.map(printExpr).join(', ')})${alias(r)}`;
        case 'lateral_view': return `${printRelation(r.input)} LATERAL VIEW ${r.outer ? 'OUTER ' : ''}${printExpr(r.generator)}${r.alias ? ` ${r.alias}` : ''} AS ${r.columnAliases.join(', ')}`;
        case 'pivot': return `${printRelation(r.input)} PIVOT (${r.aggregates.map(a => `${printExpr(a.expr)}${a.alias ? ` AS ${a.alias}` : ''}`).join(', ')} FOR ${r.columns.map(printExpr).join(', ')} IN (${r.values.map(v => `${v.values.map(printExpr).join(', ')}${v.alias ? ` AS ${v.alias}` : ''}`).join(', ')}))${alias(r)}`;
        case 'unpivot': return `${printRelation(r.input)} UNPIVOT${r.includeNulls ? ' INCLUDE NULLS' : ''} (${r.valueColumn} FOR ${r.nameColumn} IN (${r.columns.map(c => `${c.column}${c.alias ? ` AS ${c.alias}` : ''}`).join(', ')}))${alias(r)}`;
    }
}

function printItem(i: SelectItemIR): string {
    if (i.kind === 'star') {
        return `${i.qualifier ? `${i.qualifier.join('.')}.` : ''}*${i.except ? ` EXCEPT (${i.except.join(', ')})` : ''}`;
    }
    return `${printExpr(i.expr)}${i.alias !== undefined ? ` AS ${i.alias}` : ''}${i.aliases ? ` AS (${i.aliases.join(', ')})` : ''}`;
}

function printGrouping(g: GroupingItemIR): string {
    switch (g.kind) {
        case 'expr': return printExpr(g.expr);
        case 'rollup':
        case 'cube': return `${g.kind.toUpperCase()}(${g.exprs.map(printExpr).join(', ')})`;
        case 'grouping_sets': return `GROUPING SETS (${g.sets.map(s => `(${s.map(printExpr).join(', ')})`).join(', ')})`;
    }
}

function printBody(b: QueryBodyIR): string {
    switch (b.kind) {
        case 'select': {
            let out = `SELECT ${b.distinct ? 'DISTINCT ' : ''}${b.items.map(printItem).join(', ')}`;
            if (b.from.length > 0) {
                out += ` FROM ${b.from.map(printRelation).join(', ')}`;
            }
            if (b.where) {
                out += ` WHERE ${printExpr(b.where)}`;
            }
            if (b.groupBy) {
                out += ` GROUP BY ${b.groupBy.all ? 'ALL' : b.groupBy.items.map(printGrouping).join(', ')}`;
            }
            if (b.having) {
                out += ` HAVING ${printExpr(b.having)}`;
            }
            if (b.windows) {
                out += ` WINDOW ${b.windows.map(w => `${w.name} AS ${printWindow(w.spec)}`).join(', ')}`;
            }
            if (b.qualify) {
                out += ` QUALIFY ${printExpr(b.qualify)}`;
            }
            return out;
        }
        case 'set_operation': return `(${printBody(b.left)}) ${b.op.toUpperCase()}${b.all ? ' ALL' : ''} (${printBody(b.right)})`;
        case 'values': return `VALUES ${b.rows.map(row => `(${row.map(printExpr).join(', ')})`).join(', ')}`;
        case 'query': return `(${printQuery(b)})`;
    }
}

/** A query as one line of SQL. */
export function printQuery(q: QueryIR): string {
    let out = '';
    if (q.with) {
        out += `WITH ${q.with.recursive ? 'RECURSIVE ' : ''}${q.with.ctes.map(c => `${c.name}${c.columns ? `(${c.columns.join(', ')})` : ''} AS (${printQuery(c.query)})`).join(', ')} `;
    }
    out += printBody(q.body);
    if (q.orderBy) {
        out += ` ORDER BY ${q.orderBy.map(printSort).join(', ')}`;
    }
    if (q.limit) {
        out += ` LIMIT ${printExpr(q.limit)}`;
    }
    if (q.offset) {
        out += ` OFFSET ${printExpr(q.offset)}`;
    }
    return out;
}

function printSelection(s: ColumnSelectionIR): string {
    switch (s.kind) {
        case 'all': return '*';
        case 'list': return `(${s.columns.join(', ')})`;
        case 'except': return `* EXCEPT (${s.columns.join(', ')})`;
    }
}

/** A dataset: kind, name, flags, columns, expectations, and the query of a view. */
export function printDataset(d: DatasetIR): string {
    const flags = [d.private ? 'private' : undefined, d.comment !== undefined ? `comment '${d.comment}'` : undefined,
        Object.keys(d.properties).length > 0 ? `properties ${JSON.stringify(d.properties)}` : undefined].filter(Boolean);
    let out = `${d.kind} ${d.name.join('.')}${flags.length > 0 ? ` [${flags.join(', ')}]` : ''}`;
    if (d.columns) {
        out += ` (${d.columns.map(c => `${c.name} ${printType(c.type)}${c.notNull ? ' NOT NULL' : ''}${c.comment !== undefined ? ` COMMENT '${c.comment}'` : ''}`
            + `${c.generated ? ` GENERATED AS ${printExpr(c.generated)}` : ''}${c.default ? ` DEFAULT ${printExpr(c.default)}` : ''}`).join(', ')})`;
    }
    for (const e of d.expectations) {
        out += ` EXPECT ${e.name} ${printExpr(e.condition)} ${e.action}`;
    }
    if (d.query) {
        out += ` AS ${printQuery(d.query)}`;
    }
    return out;
}

/** A flow: kind, name, target and every clause. */
export function printFlow(f: FlowIR): string {
    const head = `${f.kind}${'once' in f && f.once ? ' once' : ''} ${f.name} -> ${f.target.join('.')}${f.comment !== undefined ? ` [comment '${f.comment}']` : ''}`;
    switch (f.kind) {
        case 'append': return `${head}${f.byName ? ' BY NAME' : ''}: ${printQuery(f.query)}`;
        case 'materialized_view': return `${head}: ${printQuery(f.query)}`;
        case 'replace_using': return `${head} USING (${f.keys.columns.join(', ')}) SEQUENCE BY ${f.sequenceBy.column}: ${printQuery(f.query)}`;
        case 'replace_where': return `${head} WHERE ${printExpr(f.predicate.condition)}: ${printQuery(f.query)}`;
        case 'auto_cdc': {
            const clauses = [
                `FROM ${printRelation(f.source)}`,
                `KEYS (${f.keys.columns.join(', ')})`,
                f.ignoreNullUpdates ? `IGNORE NULL UPDATES ON ${printSelection(f.ignoreNullUpdates.columns)}` : undefined,
                f.applyAsDeleteWhen ? `DELETE WHEN ${printExpr(f.applyAsDeleteWhen.condition)}` : undefined,
                f.applyAsTruncateWhen ? `TRUNCATE WHEN ${printExpr(f.applyAsTruncateWhen.condition)}` : undefined,
                `SEQUENCE BY ${printExpr(f.sequenceBy.expr)}`,
                f.systemSequenceBy ? `SYSTEM SEQUENCE BY ${printExpr(f.systemSequenceBy.expr)}` : undefined,
                f.columns ? `COLUMNS ${printSelection(f.columns.selection)}` : undefined,
                `STORED AS ${f.storedAs.type}`,
                f.trackHistory ? `TRACK HISTORY ON ${printSelection(f.trackHistory.selection)}` : undefined,
                f.columnsToUpdate ? `COLUMNS TO UPDATE ${f.columnsToUpdate.column}` : undefined,
            ].filter(Boolean);
            return `${head} ${clauses.join(' ')}`;
        }
        case 'snapshot': {
            const clauses = [
                `SNAPSHOT (${printQuery(f.snapshot.query)})`,
                f.version ? `VERSION (${printQuery(f.version.query)})` : undefined,
                `KEYS (${f.keys.columns.join(', ')})`,
                `STORED AS ${f.storedAs.type}`,
                f.trackHistory ? `TRACK HISTORY ON ${printSelection(f.trackHistory.selection)}` : undefined,
            ].filter(Boolean);
            return `${head} ${clauses.join(' ')}`;
        }
    }
}

/** A sample catalog table. */
export function printCatalogTable(t: CatalogTableIR): string {
    const columns = t.columns ? ` (${t.columns.map(c => `${c.name} ${printType(c.type)}`).join(', ')})` : '';
    const options = Object.keys(t.options).length > 0 ? ` OPTIONS ${JSON.stringify(t.options)}` : '';
    return `catalog ${t.name.join('.')}${columns} USING ${t.format}${t.location !== undefined ? ` LOCATION '${t.location}'` : ''}${options}`;
}

/** A whole pipeline, one line per dataset, flow and catalog table, then the configuration. */
export function printPipeline(p: PipelineIR): string[] {
    return [
        ...p.datasets.map(printDataset),
        ...p.flows.map(printFlow),
        ...p.catalog.map(printCatalogTable),
        ...(Object.keys(p.conf).length > 0 ? [`conf ${JSON.stringify(p.conf)}`] : []),
    ];
}
