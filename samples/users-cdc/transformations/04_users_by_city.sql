-- How many users live in each city today.
CREATE OR REFRESH MATERIALIZED VIEW users_by_city
COMMENT 'Number of current users per city'
AS SELECT city, count(*) AS users
FROM users_current
GROUP BY city;
