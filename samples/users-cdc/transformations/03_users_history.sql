-- Every version of every user: a new version when the name or the city changes.
-- A changed email is corrected in place and does not open a version.
CREATE OR REFRESH STREAMING TABLE users_history
COMMENT 'History of users (SCD type 2)';

CREATE FLOW users_history_cdc AS AUTO CDC INTO users_history
FROM STREAM(users_changes)
KEYS (user_id)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY event_ts
COLUMNS * EXCEPT (operation, event_ts)
STORED AS SCD TYPE 2
TRACK HISTORY ON * EXCEPT (email);
