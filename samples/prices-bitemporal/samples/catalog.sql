-- Types of the sample tables this pipeline reads.
CREATE TABLE market.price_feed (
  instrument STRING,
  price DECIMAL(10, 2),
  currency STRING,
  action STRING,
  effective_at TIMESTAMP,
  recorded_at TIMESTAMP
) USING JSON LOCATION 'market/price_feed';
