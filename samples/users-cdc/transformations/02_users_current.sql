-- The users as they are now: one row per user, late events ignored, deletes applied.
CREATE OR REFRESH STREAMING TABLE users_current
COMMENT 'Current state of every user (SCD type 1)';

CREATE FLOW users_current_cdc AS AUTO CDC INTO users_current
FROM STREAM(users_changes)
KEYS (user_id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY event_ts
COLUMNS * EXCEPT (operation, event_ts)
STORED AS SCD TYPE 1;
