-- Types of the sample tables this pipeline reads (the folders next to this file).
CREATE TABLE cdc_data.users (
  user_id INT,
  name STRING,
  email STRING,
  city STRING,
  operation STRING,
  event_ts TIMESTAMP
) USING JSON LOCATION 'cdc_data/users';
