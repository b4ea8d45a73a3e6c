-- Raw change events from the source system, checked on the way in.
-- Events with an unknown operation are dropped; a missing email is only counted.
CREATE OR REFRESH STREAMING TABLE users_changes (
  CONSTRAINT known_operation EXPECT (operation IN ('INSERT', 'UPDATE', 'DELETE')) ON VIOLATION DROP ROW,
  CONSTRAINT has_email EXPECT (email IS NOT NULL OR operation = 'DELETE')
)
COMMENT 'Change events of the users table, validated'
AS SELECT
  user_id,
  trim(name) AS name,
  lower(email) AS email,
  city,
  operation,
  event_ts
FROM STREAM(cdc_data.users);
