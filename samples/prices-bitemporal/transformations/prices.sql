-- Prices per instrument, with both timelines:
--   __START_AT / __END_AT               the business period during which the price applied,
--   __SYSTEM_START_AT / __SYSTEM_END_AT the system period during which we believed it.
CREATE OR REFRESH STREAMING TABLE prices
COMMENT 'Instrument prices, bitemporal';

CREATE FLOW prices_cdc AS AUTO CDC INTO prices
FROM STREAM(market.price_feed)
KEYS (instrument)
APPLY AS DELETE WHEN action = 'DELIST'
SEQUENCE BY effective_at
SYSTEM SEQUENCE BY recorded_at
COLUMNS * EXCEPT (action, effective_at, recorded_at)
STORED AS BITEMPORAL;

-- What we believe today about today's prices.
CREATE OR REFRESH MATERIALIZED VIEW current_prices
COMMENT 'Latest known price of every listed instrument'
AS SELECT instrument, price, currency, __START_AT AS valid_since
FROM prices
WHERE __END_AT IS NULL AND __SYSTEM_END_AT IS NULL;
