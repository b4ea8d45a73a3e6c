-- Types of the sample tables this pipeline reads.
CREATE TABLE warehouse.stock_snapshots (
  snapshot_date DATE,
  sku STRING,
  warehouse STRING,
  quantity INT,
  unit_price DECIMAL(8, 2)
) USING CSV LOCATION 'warehouse/stock_snapshots';
