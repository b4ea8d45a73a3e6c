/**
 * Generators of synthetic but realistic pipeline SQL for the benchmarks: a bronze streaming table,
 * an SCD1 and an SCD2 AUTO CDC flow and a materialized view per "entity", with joins, windows and
 * CTEs in the views so that the query grammar is exercised too.
 */

/** The statements of one entity of a generated pipeline (about 60 lines). */
export function entityStatements(i: number, upstream?: number): string {
    // A reference to another entity's table makes the files depend on each other across the pipeline.
    const crossJoin = upstream === undefined ? '' : `\nLEFT JOIN silver_${upstream} AS u ON u.id = d.n`;
    return `-- entity ${i}
CREATE OR REFRESH STREAMING TABLE bronze_${i} (
  CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW,
  CONSTRAINT fresh EXPECT (event_ts > TIMESTAMP'2020-01-01 00:00:00')
)
COMMENT 'Bronze events of entity ${i}'
TBLPROPERTIES ('quality' = 'bronze', 'pipelines.reset.allowed' = 'true')
AS SELECT
  id,
  CAST(amount AS DECIMAL(12, 2)) AS amount,
  upper(trim(status)) AS status,
  payload:customer.name::string AS customer_name,
  event_ts,
  operation
FROM STREAM(raw.events_${i});

CREATE OR REFRESH STREAMING TABLE silver_${i};

CREATE FLOW silver_${i}_cdc AS AUTO CDC INTO silver_${i}
FROM STREAM(bronze_${i})
KEYS (id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY event_ts
COLUMNS * EXCEPT (operation)
STORED AS SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE history_${i};

CREATE FLOW history_${i}_cdc AS AUTO CDC INTO history_${i}
FROM STREAM(bronze_${i})
KEYS (id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY event_ts
COLUMNS * EXCEPT (operation, event_ts)
STORED AS SCD TYPE 2
TRACK HISTORY ON * EXCEPT (customer_name);

CREATE OR REFRESH MATERIALIZED VIEW gold_${i}
COMMENT 'Daily totals of entity ${i}'
AS WITH daily AS (
  SELECT date_trunc('DAY', event_ts) AS day, status, sum(amount) AS total, count(*) AS n
  FROM silver_${i}
  WHERE status IN ('OPEN', 'CLOSED') AND amount BETWEEN 0 AND 1000000
  GROUP BY ALL
)
SELECT d.day, d.status, d.total, d.n,
  sum(d.total) OVER (PARTITION BY d.status ORDER BY d.day ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS week_total,
  CASE WHEN d.n > 100 THEN 'busy' WHEN d.n > 10 THEN 'normal' ELSE 'quiet' END AS load
FROM daily AS d
LEFT JOIN history_${i} AS h ON h.id = d.n AND h.__END_AT IS NULL${crossJoin}
QUALIFY row_number() OVER (PARTITION BY d.day ORDER BY d.total DESC) <= 10;
`;
}

/** One pipeline file of at least `lines` lines. */
export function largePipelineFile(lines: number): string {
    const parts: string[] = [];
    let count = 0;
    for (let i = 0; count < lines; i++) {
        const text = entityStatements(i);
        parts.push(text);
        count += text.split('\n').length;
    }
    return parts.join('\n');
}

/** A pipeline of `files` files, one entity each; most gold views also join the previous entity's silver table. */
export function manyFilePipeline(files: number): Map<string, string> {
    const out = new Map<string, string>();
    for (let i = 0; i < files; i++) {
        out.set(`transformations/entity_${String(i).padStart(4, '0')}.sql`, entityStatements(i, i > 0 && i % 4 !== 0 ? i - 1 : undefined));
    }
    return out;
}
