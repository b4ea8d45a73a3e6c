-- Each snapshot file holds the complete stock of one day; snapshot_date is its version.
CREATE OR REFRESH STREAMING TABLE stock_history
COMMENT 'Stock level history per SKU and warehouse, from daily snapshots';

CREATE FLOW stock_history_snapshots AS AUTO CDC INTO stock_history
FROM SNAPSHOT (
  SELECT sku, warehouse, quantity, unit_price
  FROM warehouse.stock_snapshots
  WHERE snapshot_date = (SELECT v FROM current_snapshot_version())
)
WITH VERSION (
  SELECT min(snapshot_date) AS v
  FROM warehouse.stock_snapshots
  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())
     OR snapshot_date > (SELECT v FROM last_snapshot_version())
  HAVING min(snapshot_date) IS NOT NULL
)
KEYS (sku, warehouse)
STORED AS SCD TYPE 2
TRACK HISTORY ON (quantity);

-- Stock on hand now, valued at the latest unit price.
CREATE OR REFRESH MATERIALIZED VIEW stock_value (
  CONSTRAINT non_negative_stock EXPECT (quantity >= 0)
)
COMMENT 'Current stock value per warehouse'
AS SELECT warehouse, sum(quantity) AS quantity, sum(quantity * unit_price) AS stock_value
FROM stock_history
WHERE __END_AT IS NULL
GROUP BY warehouse;
