-- Tabula schema 6: users whose direct messages are closed (Discord code 50007), so the bot does
-- not try again after every update, and the public notice already posted per game and player,
-- so a restart does not post it again.

CREATE TABLE closed_dms (
    user_id    INTEGER PRIMARY KEY,
    closed_at  REAL    NOT NULL    -- when a DM to the user was last refused
);

CREATE TABLE closed_dm_notices (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    at          REAL    NOT NULL,  -- when the channel was told
    PRIMARY KEY (session_id, user_id)
) WITHOUT ROWID;
